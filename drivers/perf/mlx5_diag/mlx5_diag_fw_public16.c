// SPDX-License-Identifier: GPL-2.0
/*
 * The public 16-bit dialect of the diagnostic-counter commands: the entry
 * layouts of the PRM (as mstflint's icmd_hca_layouts.h and mlx5ctl give
 * them), where an id is a 16-bit firmware counter id.
 */
#include "mlx5_diag_compat.h"
#include "mlx5_diag_fw.h"
#include "mlx5_diag_ifc.h"

static void mlx5_diag_public16_cap_entry_get(const void *p,
					     struct mlx5_diag_cap_entry *e)
{
	e->sync = MLX5_DIAG_GET(diagnostic_counter_cap, p, sync);
	e->id = MLX5_DIAG_GET(diagnostic_counter_cap, p, counter_id);
}

static void mlx5_diag_public16_param_id_set(void *p, u64 id)
{
	MLX5_DIAG_SET(counter_id, p, counter_id, id);
}

static u64 mlx5_diag_public16_param_id_get(const void *p)
{
	return MLX5_DIAG_GET(counter_id, p, counter_id);
}

static void mlx5_diag_public16_sample_entries_get(const void *p,
						  unsigned int n,
						  struct mlx5_diag_fw_entry *e)
{
	for (; n; n--, e++, p += MLX5_DIAG_BYTES(diagnostic_cntr)) {
		e->id = MLX5_DIAG_GET(diagnostic_cntr, p, counter_id);
		e->sample_id = MLX5_DIAG_GET(diagnostic_cntr, p, sample_id);
		e->timestamp = MLX5_DIAG_GET(diagnostic_cntr, p,
					     time_stamp_31_0);
		e->value = MLX5_DIAG_GET64(diagnostic_cntr, p, counter_value_h,
					   counter_value_l);
	}
}

const struct mlx5_diag_fw_dialect mlx5_diag_fw_public16 = {
	.name = "public16",
	.cap_entry_bits = MLX5_DIAG_BITS(diagnostic_counter_cap),
	.param_id_bits = MLX5_DIAG_BITS(counter_id),
	.sample_entry_bits = MLX5_DIAG_BITS(diagnostic_cntr),
	.sample_id_bits = MLX5_DIAG_FLD_SZ(diagnostic_cntr, sample_id),
	.timestamp_bits = MLX5_DIAG_FLD_SZ(diagnostic_cntr, time_stamp_31_0),
	.cap_entry_get = mlx5_diag_public16_cap_entry_get,
	.param_id_set = mlx5_diag_public16_param_id_set,
	.param_id_get = mlx5_diag_public16_param_id_get,
	.sample_entries_get = mlx5_diag_public16_sample_entries_get,
};
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_public16);
