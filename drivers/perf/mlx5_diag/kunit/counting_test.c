// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: how raw firmware values become the 64-bit counts perf stat reports
 * (baselines, 32- and 64-bit wraps, summed statistics).
 */
#include <kunit/test.h>

#include "mlx5_diag.h"

static const struct mlx5_diag_catalog_entry counter = {
	.kind = 0x10200001, .class = MLX5_DIAG_CLASS_COUNTER,
};

static const struct mlx5_diag_catalog_entry stat_sum = {
	.kind = 0x1160000b, .class = MLX5_DIAG_CLASS_STAT_SUM,
};

static u64 feed(struct mlx5_diag_count *c, const u64 *raw, unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += mlx5_diag_count_update(c, raw[i]);
	return sum;
}

static void count_counter_baseline_test(struct kunit *test)
{
	struct mlx5_diag_count c = { .entry = &counter };
	static const u64 raw[] = { 1000, 1500, 1500, 4000 };

	KUNIT_EXPECT_EQ(test, mlx5_diag_count_update(&c, 1000), 0);
	KUNIT_EXPECT_TRUE(test, c.primed);
	c.primed = false;
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 3000);
	KUNIT_EXPECT_EQ(test, c.last, 4000);
}

static void count_counter_wrap32_test(struct kunit *test)
{
	struct mlx5_diag_count c = { .entry = &counter };
	static const u64 raw[] = { 0xfffff000, 0xfffffff0, 0x10, 0x1000 };

	/* 0xff0 + 0x20 + 0xff0 */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0x2000);
}

static void count_counter_wrap64_test(struct kunit *test)
{
	struct mlx5_diag_count c = { .entry = &counter };
	static const u64 raw[] = { 0xfffffffffffffff0ULL, 0x10 };

	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0x20);
}

static void count_counter_large_test(struct kunit *test)
{
	struct mlx5_diag_count c = { .entry = &counter };
	static const u64 raw[] = { 0xfffffff0, 0x100000010ULL, 0x200000000ULL };

	/* crossing 2^32 upwards is no wrap */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 0x200000000ULL - 0xfffffff0);
}

static void count_stat_sum_test(struct kunit *test)
{
	struct mlx5_diag_count c = { .entry = &stat_sum };
	static const u64 raw[] = { 700, 0, 1200, 5 };

	/* every sample of a per-period statistic adds, the first too */
	KUNIT_EXPECT_EQ(test, feed(&c, raw, ARRAY_SIZE(raw)), 1905);
}

static struct kunit_case mlx5_diag_count_cases[] = {
	KUNIT_CASE(count_counter_baseline_test),
	KUNIT_CASE(count_counter_wrap32_test),
	KUNIT_CASE(count_counter_wrap64_test),
	KUNIT_CASE(count_counter_large_test),
	KUNIT_CASE(count_stat_sum_test),
	{}
};

static struct kunit_suite mlx5_diag_count_suite = {
	.name = "mlx5_diag_count",
	.test_cases = mlx5_diag_count_cases,
};

kunit_test_suite(mlx5_diag_count_suite);
