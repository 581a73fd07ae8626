/* SPDX-License-Identifier: GPL-2.0 */
/* mlx5_diag_sim: the paced empty work (sim_pace.c), for the module glue. */
#ifndef _MLX5_DIAG_SIM_PACE_H
#define _MLX5_DIAG_SIM_PACE_H

struct dentry;

void mlx5_diag_sim_pace_debugfs(struct dentry *root);
void mlx5_diag_sim_pace_stop(void);

#endif
