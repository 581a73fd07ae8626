/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs of an mlx5_diag PMU: caps/, format/ (from the field table),
 * events/ (the catalog entries the device lists), engine/, cpumask,
 * identifier (the firmware dialect) and function.
 */
#ifndef _MLX5_DIAG_SYSFS_H
#define _MLX5_DIAG_SYSFS_H

#include <linux/sysfs.h>

struct mlx5_diag_dev;
struct mlx5_diag_event_attr;

struct mlx5_diag_sysfs {
	struct mlx5_diag_event_attr *event_attrs;
	struct attribute **event_attr_ptrs;
	unsigned int num_event_attrs;
	struct attribute_group events_group;
	const struct attribute_group *groups[6];
};

void mlx5_diag_sysfs_init(void);
int mlx5_diag_sysfs_build(struct mlx5_diag_dev *dd);
void mlx5_diag_sysfs_free(struct mlx5_diag_dev *dd);

#endif /* _MLX5_DIAG_SYSFS_H */
