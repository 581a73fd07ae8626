/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf side of an mlx5_diag device: PMU registration, CPU hotplug and
 * the perf callbacks.
 */
#ifndef _MLX5_DIAG_PMU_H
#define _MLX5_DIAG_PMU_H

struct mlx5_diag_dev;

int mlx5_diag_pmu_init(void);
void mlx5_diag_pmu_exit(void);
int mlx5_diag_pmu_register(struct mlx5_diag_dev *dd);
void mlx5_diag_pmu_unregister(struct mlx5_diag_dev *dd);
void mlx5_diag_pmu_detach(struct mlx5_diag_dev *dd);

#endif /* _MLX5_DIAG_PMU_H */
