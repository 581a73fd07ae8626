/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting arithmetic of mlx5_diag: how raw firmware values fold into the
 * 64-bit running counts perf reads. Pure, inline; tested by KUnit.
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

/*
 * Fold one raw firmware value of a @class id whose values are @width bits
 * wide (64, or less where the dialect or output format declares it).
 *
 * A summed statistic is cleared by firmware at each sample: every value
 * adds. A counter's first value is its baseline. A counter below its last
 * value wrapped only when its declared width is under 64 bits; otherwise it
 * was reset (firmware reset, another agent re-enabled the engine, a zeroed
 * slot): it is re-primed and adds nothing, never about 2^64.
 *
 * Inline: the drain folds every entry of every sample it takes.
 */
static inline enum mlx5_diag_fold
mlx5_diag_count_fold(struct mlx5_diag_count_state *s,
		     enum mlx5_diag_class class, unsigned int width, u64 raw,
		     u64 *delta)
{
	u64 mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;

	*delta = 0;
	if (class != MLX5_DIAG_CLASS_COUNTER) {
		*delta = raw;
		return MLX5_DIAG_FOLD_ADDED;
	}
	if (!s->primed) {
		s->primed = true;
		s->last = raw;
		return MLX5_DIAG_FOLD_PRIMED;
	}
	if (raw > mask || (raw < s->last && width >= 64)) {
		s->last = raw;
		return MLX5_DIAG_FOLD_RESET;
	}
	*delta = (raw - s->last) & mask;
	s->last = raw;
	return MLX5_DIAG_FOLD_ADDED;
}

#endif /* _MLX5_DIAG_COUNT_H */
