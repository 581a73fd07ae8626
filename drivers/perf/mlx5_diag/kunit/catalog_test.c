// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the data-ID catalog names every id of the DOCA Telemetry Diagnostics
 * guide's data-ID table once, finds ids by value, checks instance fields and
 * writes perf event strings.
 */
#include <kunit/test.h>
#include <linux/ctype.h>

#include "mlx5_diag_catalog.h"

static void catalog_names_test(struct kunit *test)
{
	unsigned int i, j, kinds = 0, fw = 0;

	for (i = 0; i < mlx5_diag_catalog_size; i++) {
		const char *n = mlx5_diag_catalog[i].name;
		const char *p;

		for (p = n; *p; p++)
			KUNIT_EXPECT_TRUE_MSG(test, islower(*p) || isdigit(*p) ||
					      *p == '_', "%s", n);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, n, mlx5_diag_catalog[j].name);
		if (mlx5_diag_catalog[i].group == MLX5_DIAG_GRP_FW_COUNTER)
			fw++;
		else
			kinds++;
	}
	/* the DOCA guide's data-ID table and mlx5ctl's table */
	KUNIT_EXPECT_EQ(test, kinds, 41);
	KUNIT_EXPECT_EQ(test, fw, 13);
}

static void catalog_find_test(struct kunit *test)
{
	const struct mlx5_diag_catalog_entry *e;

	e = mlx5_diag_catalog_find(0x1020000100000001ULL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_STREQ(test, e->name, "port_rx_bytes");
	KUNIT_EXPECT_EQ(test, e->group, MLX5_DIAG_GRP_PORT);
	e = mlx5_diag_catalog_find(0x1160000d00000000ULL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->class, MLX5_DIAG_CLASS_STAT_MAX);
	e = mlx5_diag_catalog_find(0x0406);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_STREQ(test, e->name, "fw_pcie_rx_data");
	KUNIT_EXPECT_STREQ(test, e->scale, "128");
	/* unknown kind, unknown counter, a counter id wider than 16 bits */
	KUNIT_EXPECT_NULL(test, mlx5_diag_catalog_find(0x1020000700000000ULL));
	KUNIT_EXPECT_NULL(test, mlx5_diag_catalog_find(0x0404));
	KUNIT_EXPECT_NULL(test, mlx5_diag_catalog_find(0x10401));
	/* the two spaces do not meet: 0x1001 is a counter, not a kind */
	KUNIT_EXPECT_NULL(test, mlx5_diag_catalog_find(0x0000100100000000ULL));
}

static void catalog_instance_test(struct kunit *test)
{
	static const struct mlx5_diag_instance_limits lim = {
		.num_ports = 2, .num_hosts = 1, .num_functions = 8,
	};
	static const struct { u64 id; int err; const char *field; } cases[] = {
		{ 0x1020000100000001ULL, 0 },
		{ 0x1020000100000002ULL, -ERANGE, "port" },	/* port 2 of 2 */
		{ 0x1020000100000100ULL, -EINVAL },	/* prio on a port id */
		{ 0x1020000200000701ULL, 0 },
		{ 0x1020000200000801ULL, -ERANGE, "prio" },	/* prio 8 */
		{ 0x1020000200001001ULL, -EINVAL },	/* bits 15:12 */
		{ 0x1040000100000000ULL, 0 },
		{ 0x1040000100000001ULL, -ERANGE, "host" },	/* host 1 of 1 */
		{ 0x10c0000200000007ULL, 0 },
		{ 0x10c0000200000008ULL, -ERANGE, "function" },	/* function 8 of 8 */
		{ 0x10c0000200010000ULL, -EINVAL },	/* bits above function */
		{ 0x1160000100030201ULL, 0 },		/* link tuple: firmware's */
		{ 0x1160000101000000ULL, -EINVAL },	/* bits 31:24 */
		{ 0x1160000a00070001ULL, 0 },
		{ 0x1160000a00080001ULL, -ERANGE, "tclass" },	/* tclass 8 */
		{ 0x1160000f00090001ULL, 0 },
		{ 0x1160000f000a0001ULL, -ERANGE, "bin" },	/* bin 10 */
		{ 0x1180000100000000ULL, 0 },
		{ 0x1180000100000001ULL, -EINVAL },	/* global with instance */
		{ 0x0000000000000406ULL, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct mlx5_diag_catalog_entry *e =
			mlx5_diag_catalog_find(cases[i].id);
		const char *why = NULL;

		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ_MSG(test,
				    mlx5_diag_catalog_check_instance(e, cases[i].id,
								     &lim, &why),
				    cases[i].err, "id 0x%016llx", cases[i].id);
		if (cases[i].err)
			KUNIT_EXPECT_NOT_NULL(test, why);
		/* an out-of-range field is named */
		if (cases[i].field)
			KUNIT_EXPECT_STREQ(test, why, cases[i].field);
	}
}

static void catalog_event_string_test(struct kunit *test)
{
	static const struct { u64 id; const char *want; } cases[] = {
		{ 0x1020000100000000ULL, "kind=0x10200001,port=?\n" },
		{ 0x1140000200000000ULL, "kind=0x11400002,port=?,prio=?\n" },
		{ 0x1040000100000000ULL, "kind=0x10400001,host=?\n" },
		{ 0x10c0000500000000ULL, "kind=0x10c00005,function=?\n" },
		{ 0x1160000300000000ULL, "kind=0x11600003,link_xx=?\n" },
		{ 0x1160000a00000000ULL, "kind=0x1160000a,link_xx=?,tclass=?\n" },
		{ 0x1160000f00000000ULL, "kind=0x1160000f,link_xx=?,bin=?\n" },
		{ 0x1180000300000000ULL, "kind=0x11800003\n" },
		{ 0x2c04, "fw_counter=0x2c04\n" },
	};
	char buf[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		mlx5_diag_catalog_event_string(mlx5_diag_catalog_find(cases[i].id),
					       buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, cases[i].want);
	}
}

static struct kunit_case mlx5_diag_catalog_cases[] = {
	KUNIT_CASE(catalog_names_test),
	KUNIT_CASE(catalog_find_test),
	KUNIT_CASE(catalog_instance_test),
	KUNIT_CASE(catalog_event_string_test),
	{}
};

static struct kunit_suite mlx5_diag_catalog_suite = {
	.name = "mlx5_diag_catalog",
	.test_cases = mlx5_diag_catalog_cases,
};

kunit_test_suite(mlx5_diag_catalog_suite);
