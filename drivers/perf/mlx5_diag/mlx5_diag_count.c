// SPDX-License-Identifier: GPL-2.0
/*
 * Counting arithmetic: how raw firmware values fold into the 64-bit running
 * counts perf reads. Pure functions, tested by KUnit.
 */
#include <linux/limits.h>

#include "mlx5_diag.h"

/*
 * Fold one raw firmware value into a running count; returns the increase.
 * A counter's first value after (re)configuration is its baseline. A counter
 * that goes backwards from a value that fits 32 bits wrapped at 2^32 (the
 * 32-bit output format); otherwise it wrapped at 2^64. A summed statistic
 * is cleared by firmware at each sample, so every value adds.
 */
u64 mlx5_diag_count_update(struct mlx5_diag_count *c, u64 raw)
{
	u64 delta;

	if (c->entry->class != MLX5_DIAG_CLASS_COUNTER)
		return raw;
	if (!c->primed) {
		c->primed = true;
		c->last = raw;
		return 0;
	}
	if (raw < c->last && c->last <= U32_MAX)
		delta = mlx5_diag_counter_delta(c->last, raw, 32);
	else
		delta = mlx5_diag_counter_delta(c->last, raw, 64);
	c->last = raw;
	return delta;
}
