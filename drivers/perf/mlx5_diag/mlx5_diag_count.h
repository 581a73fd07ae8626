/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting arithmetic of mlx5_diag: how raw firmware values fold into the
 * 64-bit running counts perf reads. Pure; tested by KUnit.
 */
#ifndef _MLX5_DIAG_COUNT_H
#define _MLX5_DIAG_COUNT_H

#include <linux/types.h>

#include "mlx5_diag_catalog.h"

/* The last raw value of one counted id, once a first sample set it. */
struct mlx5_diag_count_state {
	bool primed;
	u64 last;
};

enum mlx5_diag_fold {
	MLX5_DIAG_FOLD_ADDED,	/* *delta is the increase */
	MLX5_DIAG_FOLD_PRIMED,	/* first value: the baseline, adds nothing */
	MLX5_DIAG_FOLD_RESET,	/* went backwards: a reset, re-primed */
};

enum mlx5_diag_fold mlx5_diag_count_fold(struct mlx5_diag_count_state *s,
					 enum mlx5_diag_class class,
					 unsigned int width, u64 raw,
					 u64 *delta);

#endif /* _MLX5_DIAG_COUNT_H */
