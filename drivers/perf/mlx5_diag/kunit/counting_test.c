// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: how raw firmware values become the 64-bit counts perf stat reports
 * (baselines, declared 32-bit wraps, resets, summed statistics).
 */
#include <kunit/test.h>

#include "mlx5_diag_count.h"

/* A counted id: its fold state, class, declared width and running count. */
struct count {
	struct mlx5_diag_count_state s;
	enum mlx5_diag_class class;
	unsigned int width;
	unsigned int resets;
};

static u64 feed(struct count *c, const u64 *raw, unsigned int n)
{
	u64 sum = 0, delta;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (mlx5_diag_count_fold(&c->s, c->class, c->width, raw[i],
					 &delta) == MLX5_DIAG_FOLD_RESET)
			c->resets++;
		sum += delta;
	}
	return sum;
}

static void count_counter_baseline_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_COUNTER, .width = 64 };
	static const u64 raw[] = { 1000, 1500, 1500, 4000 };
	u64 delta = 1;

	KUNIT_EXPECT_EQ(test, mlx5_diag_count_fold(&c.s, c.class, 64, 1000,
						   &delta),
			MLX5_DIAG_FOLD_PRIMED);
	KUNIT_EXPECT_EQ(test, delta, 0);
	KUNIT_EXPECT_TRUE(test, c.s.primed);
	c.s.primed = false;
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 3000);
	KUNIT_EXPECT_EQ(test, c.s.last, 4000);
}

/* A 32-bit wrap only where the width is declared 32 bits. */
static void count_counter_wrap32_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_COUNTER, .width = 32 };
	static const u64 raw[] = { 0xfffff000, 0xfffffff0, 0x10, 0x1000 };

	/* 0xff0 + 0x20 + 0xff0 */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0x2000);
	KUNIT_EXPECT_EQ(test, c.resets, 0);
}

/* 64-bit values that go backwards were reset: nothing is added. */
static void count_counter_reset_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_COUNTER, .width = 64 };
	static const u64 raw[] = { 0xfffff000, 0xfffffff0, 0x10, 0x1000,
				   0x1000, 0x1800 };

	/* 0xff0, then a reset at 0x10, then 0xff0 + 0 + 0x800 */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0xff0 + 0x17f0);
	KUNIT_EXPECT_EQ(test, c.resets, 1);
	KUNIT_EXPECT_EQ(test, c.s.last, 0x1800);
}

/* Not the 2^64 - 0x20 a wrap reading would add. */
static void count_counter_zeroed_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_COUNTER, .width = 64 };
	static const u64 raw[] = { 0xfffffffffffffff0ULL, 0x10, 0x30 };

	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0x20);
	KUNIT_EXPECT_EQ(test, c.resets, 1);
}

/* A value beyond the declared width is no wrap either. */
static void count_counter_beyond_width_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_COUNTER, .width = 32 };
	static const u64 raw[] = { 0x100, 0x100000000ULL, 0x100000010ULL };

	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0);
	KUNIT_EXPECT_EQ(test, c.resets, 2);
}

static void count_counter_large_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_COUNTER, .width = 64 };
	static const u64 raw[] = { 0xfffffff0, 0x100000010ULL, 0x200000000ULL };

	/* crossing 2^32 upwards is no wrap */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)),
			0x200000000ULL - 0xfffffff0);
	KUNIT_EXPECT_EQ(test, c.resets, 0);
}

static void count_stat_sum_test(struct kunit *test)
{
	struct count c = { .class = MLX5_DIAG_CLASS_STAT_SUM, .width = 64 };
	static const u64 raw[] = { 700, 0, 1200, 5 };

	/* every sample of a per-period statistic adds, the first too */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 1905);
	KUNIT_EXPECT_EQ(test, c.resets, 0);
}

static struct kunit_case mlx5_diag_count_cases[] = {
	KUNIT_CASE(count_counter_baseline_test),
	KUNIT_CASE(count_counter_wrap32_test),
	KUNIT_CASE(count_counter_reset_test),
	KUNIT_CASE(count_counter_zeroed_test),
	KUNIT_CASE(count_counter_beyond_width_test),
	KUNIT_CASE(count_counter_large_test),
	KUNIT_CASE(count_stat_sum_test),
	{}
};

static struct kunit_suite mlx5_diag_count_suite = {
	.name = "mlx5_diag_count",
	.test_cases = mlx5_diag_count_cases,
};

kunit_test_suite(mlx5_diag_count_suite);
