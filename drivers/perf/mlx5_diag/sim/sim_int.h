/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5_diag_sim: declarations shared by the core's source files only
 * (the modelled dialect's layout helpers live in sim_model64.c).
 */
#ifndef _MLX5_DIAG_SIM_INT_H
#define _MLX5_DIAG_SIM_INT_H

#include "sim.h"

/* MODEL (part 2): sizes in bits of the 64-bit dialect's entries. */
#define SIM_M64_KIND_BITS	64	/* diagnostic_data_kind in DEBUG cap */
#define SIM_M64_ID_BITS		64	/* data_id[i] in the params context */
#define SIM_M64_DATA_BITS	256	/* diagnostic_data_struct */

void mlx5_diag_sim_m64_default_kinds(struct mlx5_diag_sim_caps *caps);
void mlx5_diag_sim_m64_put_debug_caps(const struct mlx5_diag_sim_caps *caps,
				      void *out, size_t len, u32 base);
void mlx5_diag_sim_m64_put_kind(void *out, size_t len, u32 off, u32 kind,
				bool sync);
u64 mlx5_diag_sim_m64_get_id(const void *in, size_t len, u32 off);
void mlx5_diag_sim_m64_put_id(void *out, size_t len, u32 off, u64 id);
void mlx5_diag_sim_m64_put_bad_id(void *out, size_t len, u32 index,
				  u32 reason);
void mlx5_diag_sim_m64_put_sample(void *out, size_t len, u32 off, u64 id,
				  u32 sample_id, u64 ts, u64 value);

#endif /* _MLX5_DIAG_SIM_INT_H */
