// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the driver's command layer against the emulator's firmware core,
 * byte for byte: capabilities, parameters, every rule's status as an errno,
 * sample entries, and counting values the traffic model predicts exactly.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mlx5_diag_count.h"
#include "mlx5_diag_fw.h"
#include "mlx5_diag_ifc.h"
#include "sim/sim.h"

/* The emulator's clock: 156.25 MHz, 5 clocks every 32 ns. */
#define RT_CLOCKS(ns)	((u64)(ns) * 5 / 32)
/* The first ns at which @n sample periods (2^14 clocks) have passed. */
#define RT_AT(n)	DIV_ROUND_UP((u64)(n) * 16384 * 32, 5)

struct rt {
	struct mlx5_diag_sim_fw *fw;
	const struct mlx5_diag_fw_dialect *d;
	struct mlx5_diag_caps caps;
	u8 out[16 + 16 * 64 * 32];
};

/* One command through the emulator; the firmware status as the driver maps it. */
static int rt_exec(struct kunit *test, struct rt *r, u64 now, const void *in,
		   size_t inlen, size_t outlen)
{
	KUNIT_ASSERT_LE(test, outlen, sizeof(r->out));
	memset(r->out, 0, sizeof(r->out));
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_exec(r->fw, now, in, inlen,
						    r->out, outlen), 0);
	return mlx5_diag_fw_status_to_errno(mlx5_diag_fw_out_status(r->out,
								    NULL));
}

/* Discover the emulated device exactly as mlx5_diag_fw_query_caps() does. */
static void rt_discover(struct kunit *test, struct rt *r)
{
	u32 in[4];

	mlx5_diag_fw_query_cap_in(in, MLX5_DIAG_CAP_GENERAL);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, 0, in, sizeof(in),
				      mlx5_diag_fw_general_cap_outlen()), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_parse_general_cap(r->out, &r->caps), 0);
	mlx5_diag_fw_query_cap_in(in, MLX5_DIAG_CAP_DEBUG);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, 0, in, sizeof(in),
				      mlx5_diag_fw_debug_cap_outlen(&mlx5_diag_fw_model64,
								    r->caps.num_entries)),
			0);
	r->d = mlx5_diag_fw_parse_debug_cap(r->out, &r->caps);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_parse_cap_entries(r->d, r->out,
							     &r->caps), 0);
}

static int rt_init(struct kunit *test)
{
	struct rt *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	r->fw = mlx5_diag_sim_fw_create(0);
	if (!r->fw)
		return -ENOMEM;
	test->priv = r;
	return 0;
}

static void rt_exit(struct kunit *test)
{
	struct rt *r = test->priv;

	mlx5_diag_fw_free_caps(&r->caps);
	mlx5_diag_sim_fw_destroy(r->fw);
}

/* Switch the emulated device to the public 16-bit dialect. */
static void rt_public16(struct kunit *test, struct rt *r)
{
	struct mlx5_diag_sim_caps *sc = kunit_kzalloc(test, sizeof(*sc),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sc);
	mlx5_diag_sim_fw_get_caps(r->fw, sc);
	sc->dialect64 = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(r->fw, 0, sc), 0);
}

static void rt_caps_model64_test(struct kunit *test)
{
	struct rt *r = test->priv;
	struct mlx5_diag_sim_caps *sc = kunit_kzalloc(test, sizeof(*sc),
						      GFP_KERNEL);
	unsigned int i, nsync = 0;

	KUNIT_ASSERT_NOT_NULL(test, sc);
	rt_discover(test, r);
	mlx5_diag_sim_fw_get_caps(r->fw, sc);
	KUNIT_EXPECT_PTR_EQ(test, r->d, &mlx5_diag_fw_model64);
	KUNIT_EXPECT_TRUE(test, r->caps.debug);
	KUNIT_EXPECT_EQ(test, r->caps.num_entries, sc->nr_kinds);
	KUNIT_EXPECT_EQ(test, r->caps.max_ids, sc->max_num_data_ids);
	KUNIT_EXPECT_EQ(test, r->caps.log_max_samples, sc->log_max_samples);
	KUNIT_EXPECT_EQ(test, r->caps.log_min_sample_period,
			sc->log_min_sample_period);
	KUNIT_EXPECT_EQ(test, r->caps.freq_khz, sc->freq_khz);
	KUNIT_EXPECT_EQ(test, r->caps.single, sc->single);
	KUNIT_EXPECT_EQ(test, r->caps.repetitive, sc->repetitive);
	KUNIT_EXPECT_EQ(test, r->caps.on_demand, sc->on_demand);
	KUNIT_EXPECT_EQ(test, r->caps.sync_start, sc->sync_start);
	KUNIT_EXPECT_EQ(test, r->caps.data_clear, sc->data_clear);
	KUNIT_EXPECT_EQ(test, r->caps.limits.num_ports, sc->num_ports);
	KUNIT_EXPECT_EQ(test, r->caps.limits.num_hosts, sc->num_hosts);
	KUNIT_EXPECT_EQ(test, r->caps.limits.num_functions, sc->num_functions);
	KUNIT_EXPECT_EQ(test, r->caps.num_pcie_links, sc->num_pcie_links);
	for (i = 0; i < r->caps.num_entries; i++) {
		KUNIT_EXPECT_EQ(test, r->caps.entries[i].id,
				(u64)sc->kinds[i] << 32);
		nsync += r->caps.entries[i].sync;
	}
	KUNIT_EXPECT_EQ(test, nsync, sc->nr_sync_kinds);
}

static void rt_caps_public16_test(struct kunit *test)
{
	struct rt *r = test->priv;
	struct mlx5_diag_sim_caps *sc = kunit_kzalloc(test, sizeof(*sc),
						      GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, sc);
	rt_public16(test, r);
	rt_discover(test, r);
	mlx5_diag_sim_fw_get_caps(r->fw, sc);
	KUNIT_EXPECT_PTR_EQ(test, r->d, &mlx5_diag_fw_public16);
	KUNIT_EXPECT_EQ(test, r->caps.num_entries, sc->nr_ids);
	KUNIT_EXPECT_EQ(test, r->caps.max_ids, sc->nr_ids);
	for (i = 0; i < r->caps.num_entries; i++)
		KUNIT_EXPECT_EQ(test, r->caps.entries[i].id, sc->ids[i]);
	/* 0x0401..0x040b are the sync-capable ones */
	KUNIT_EXPECT_TRUE(test, r->caps.entries[0].sync);
	KUNIT_EXPECT_FALSE(test, r->caps.entries[r->caps.num_entries - 1].sync);
}

/* SET then QUERY_DIAGNOSTIC_PARAMS gives back every field. */
static void rt_params(struct kunit *test, struct rt *r, u64 *ids, u16 n)
{
	u64 back_ids[16] = {};
	struct mlx5_diag_fw_params p = {
		.enable = true, .mode = MLX5_DIAG_FW_REPETITIVE, .sync = true,
		.clear = true, .log_num_of_samples = 8,
		.log_sample_period = 20, .num_ids = n, .ids = ids,
	};
	struct mlx5_diag_fw_params back = { .ids = back_ids };
	size_t len = mlx5_diag_fw_params_len(r->d, n);
	void *in = kunit_kzalloc(test, len, GFP_KERNEL);
	u32 qin[4];

	KUNIT_ASSERT_NOT_NULL(test, in);
	mlx5_diag_fw_set_params_in(r->d, in, &p);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, 1000, in, len, 16), 0);
	mlx5_diag_fw_query_params_in(qin);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, 2000, qin, sizeof(qin),
				      mlx5_diag_fw_params_len(r->d, 16)), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_query_params_out(r->d, r->out,
							    mlx5_diag_fw_params_len(r->d, 16),
							    &back, 16), 0);
	KUNIT_EXPECT_TRUE(test, back.enable);
	KUNIT_EXPECT_EQ(test, back.mode, p.mode);
	KUNIT_EXPECT_EQ(test, back.sync, p.sync);
	KUNIT_EXPECT_EQ(test, back.clear, p.clear);
	KUNIT_EXPECT_EQ(test, back.log_num_of_samples, p.log_num_of_samples);
	KUNIT_EXPECT_EQ(test, back.log_sample_period, p.log_sample_period);
	KUNIT_ASSERT_EQ(test, back.num_ids, n);
	KUNIT_EXPECT_EQ(test, memcmp(back_ids, ids, n * sizeof(u64)), 0);
}

static void rt_params_model64_test(struct kunit *test)
{
	struct rt *r = test->priv;
	u64 ids[] = { 0x1160000100000001ULL, 0x1160000f00090000ULL,
		      0x1180000300000000ULL };

	rt_discover(test, r);
	rt_params(test, r, ids, ARRAY_SIZE(ids));
}

static void rt_params_public16_test(struct kunit *test)
{
	struct rt *r = test->priv;
	u64 ids[] = { 0x0401, 0x040b, 0x0406 };

	rt_public16(test, r);
	rt_discover(test, r);
	rt_params(test, r, ids, ARRAY_SIZE(ids));
}

/* Rules the firmware enforces reach the driver as the errno it documents. */
static void rt_rules_test(struct kunit *test)
{
	static const struct {
		const char *what;
		enum mlx5_diag_fw_mode mode;
		bool sync, clear;
		u8 lnum, lperiod;
		u64 id;
		int err;
		u16 bad_index;
		u8 reason;
	} cases[] = {
		{ "ok", MLX5_DIAG_FW_REPETITIVE, true, true, 8, 14,
		  0x1180000100000000ULL, 0 },
		{ "on_demand with sync", MLX5_DIAG_FW_ON_DEMAND, true, false, 0,
		  14, 0x1180000100000000ULL, -EINVAL },
		{ "clear without sync", MLX5_DIAG_FW_SINGLE, false, true, 8, 14,
		  0x1180000100000000ULL, -EINVAL },
		{ "period below minimum", MLX5_DIAG_FW_REPETITIVE, false, false,
		  8, 13, 0x1180000100000000ULL, -EINVAL },
		{ "period above 35", MLX5_DIAG_FW_REPETITIVE, false, false, 8,
		  36, 0x1180000100000000ULL, -EINVAL },
		{ "buffer above log_max_samples", MLX5_DIAG_FW_SINGLE, false,
		  false, 14, 14, 0x1180000100000000ULL, -EINVAL },
		{ "sync on a port kind", MLX5_DIAG_FW_REPETITIVE, true, false, 8,
		  14, 0x1020000100000000ULL, -EINVAL, 1, 2 },
		{ "unknown link", MLX5_DIAG_FW_ON_DEMAND, false, false, 0, 14,
		  0x1160000100000005ULL, -EINVAL, 1, 3 },
	};
	struct rt *r = test->priv;
	unsigned int i;

	rt_discover(test, r);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 ids[2] = { 0x1160000c00000000ULL, cases[i].id };
		struct mlx5_diag_fw_params p = {
			.enable = true, .mode = cases[i].mode,
			.sync = cases[i].sync, .clear = cases[i].clear,
			.log_num_of_samples = cases[i].lnum,
			.log_sample_period = cases[i].lperiod,
			.num_ids = 2, .ids = ids,
		};
		u8 in[64];
		u16 index;
		u8 reason;

		mlx5_diag_fw_set_params_in(r->d, in, &p);
		KUNIT_EXPECT_EQ_MSG(test, rt_exec(test, r, 1000, in,
						  mlx5_diag_fw_params_len(r->d, 2),
						  16),
				    cases[i].err, "%s", cases[i].what);
		if (!cases[i].reason)
			continue;
		mlx5_diag_fw_set_params_bad_id(r->out, &index, &reason);
		KUNIT_EXPECT_EQ_MSG(test, index, cases[i].bad_index, "%s",
				    cases[i].what);
		KUNIT_EXPECT_EQ_MSG(test, reason, cases[i].reason, "%s",
				    cases[i].what);
	}
}

/*
 * Repetitive sampling: every entry the driver decodes is what the traffic
 * model says, and 16-bit sample ids extend across their wrap.
 */
static void rt_samples_test(struct kunit *test)
{
	const u64 id = 0x1020000100000001ULL;
	struct mlx5_diag_fw_params p = {
		.enable = true, .mode = MLX5_DIAG_FW_REPETITIVE,
		.log_num_of_samples = 4, .log_sample_period = 14, .num_ids = 1,
	};
	struct rt *r = test->priv;
	struct mlx5_diag_fw_entry e;
	u64 ids[1] = { 0x0406 };
	u64 sid = 0, now;
	u32 in[16];
	unsigned int j;

	/* public dialect: 16-bit sample ids, 32-bit timestamps */
	rt_public16(test, r);
	rt_discover(test, r);
	p.ids = ids;
	mlx5_diag_fw_set_params_in(r->d, in, &p);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, 0, in,
				      mlx5_diag_fw_params_len(r->d, 1), 16), 0);
	/* 65540 periods later: samples 65524..65539 fill the 16 slots */
	now = RT_AT(65540) + 1000;
	mlx5_diag_fw_query_counters_in(in, 16, 0);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, now, in, 16,
				      mlx5_diag_fw_query_counters_outlen(r->d, 16)),
			0);
	for (j = 0; j < 16; j++) {
		u64 want_j = 65536 + j - (j >= 4 ? 16 : 0);

		mlx5_diag_fw_query_counters_entry(r->d, r->out, j, &e);
		KUNIT_EXPECT_EQ(test, e.id, 0x0406);
		KUNIT_EXPECT_EQ(test, e.sample_id, want_j & 0xffff);
	}
	/* read in id order from the oldest slot: ids extend past 65535 */
	for (j = 0; j < 16; j++) {
		u64 t;

		mlx5_diag_fw_query_counters_entry(r->d, r->out, (j + 4) % 16, &e);
		sid = j ? mlx5_diag_extend(sid, e.sample_id, 16) : e.sample_id;
		KUNIT_EXPECT_EQ(test, sid, 65524 + j);
		t = mlx5_diag_sim_clocks_to_ns((sid + 1) * 16384, 156250);
		KUNIT_EXPECT_EQ(test, e.value,
				mlx5_diag_sim_traffic_value(0x0406, 0, 0, t, false,
							    64));
	}

	/* model dialect: 32-bit sample ids and 64-bit timestamps as is */
	mlx5_diag_fw_free_caps(&r->caps);
	mlx5_diag_sim_fw_destroy(r->fw);
	r->fw = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, r->fw);
	rt_discover(test, r);
	ids[0] = id;
	mlx5_diag_fw_set_params_in(r->d, in, &p);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, 0, in,
				      mlx5_diag_fw_params_len(r->d, 1), 16), 0);
	mlx5_diag_fw_query_counters_in(in, 1, 2);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, RT_AT(3) + 1, in, 16,
				      mlx5_diag_fw_query_counters_outlen(r->d, 1)),
			0);
	mlx5_diag_fw_query_counters_entry(r->d, r->out, 0, &e);
	KUNIT_EXPECT_EQ(test, e.id, id);
	KUNIT_EXPECT_EQ(test, e.sample_id, 2);
	KUNIT_EXPECT_EQ(test, e.timestamp,
			mlx5_diag_sim_fw_clock_offset(r->fw) + 3 * 16384);
	KUNIT_EXPECT_EQ(test, e.value,
			mlx5_diag_sim_traffic_count(id, 0,
						    mlx5_diag_sim_clocks_to_ns(3 * 16384,
									       156250)));
}

/*
 * Counting as the PMU does it: on-demand queries folded by
 * mlx5_diag_count_fold() add up to exactly C(t_last) - C(t_first) for a
 * counter and to the packets of every query for a summed statistic.
 */
static void rt_counting_test(struct kunit *test)
{
	static const enum mlx5_diag_class class[2] = {
		MLX5_DIAG_CLASS_COUNTER, MLX5_DIAG_CLASS_STAT_SUM,
	};
	static const u64 times[] = { 5000, 100005000, 200017000, 299990000,
				     400000000, 1000000000 };
	u64 ids[2] = { 0x1140000300000001ULL, 0x1160000c00000001ULL };
	struct mlx5_diag_count_state c[2] = {};
	u64 value[2] = {}, delta;
	struct mlx5_diag_fw_params p = {
		.enable = true, .mode = MLX5_DIAG_FW_ON_DEMAND,
		.log_sample_period = 14, .num_ids = 2, .ids = ids,
	};
	struct rt *r = test->priv;
	struct mlx5_diag_fw_entry e;
	const u64 enable_ns = 1000;
	u64 in[8];
	unsigned int q, k;

	rt_discover(test, r);
	mlx5_diag_fw_set_params_in(r->d, in, &p);
	KUNIT_ASSERT_EQ(test, rt_exec(test, r, enable_ns, in,
				      mlx5_diag_fw_params_len(r->d, 2), 16), 0);
	for (q = 0; q < ARRAY_SIZE(times); q++) {
		mlx5_diag_fw_query_counters_in(in, 1, 0);
		KUNIT_ASSERT_EQ(test, rt_exec(test, r, times[q], in, 16,
					      mlx5_diag_fw_query_counters_outlen(r->d, 2)),
				0);
		for (k = 0; k < 2; k++) {
			mlx5_diag_fw_query_counters_entry(r->d, r->out, k, &e);
			KUNIT_ASSERT_EQ(test, e.id, ids[k]);
			mlx5_diag_count_fold(&c[k], class[k], 64, e.value,
					     &delta);
			value[k] += delta;
		}
	}
	/* engine time is counted in whole device clocks since enable */
#define RT_ENGINE_NS(t) \
	mlx5_diag_sim_clocks_to_ns(RT_CLOCKS(t) - RT_CLOCKS(enable_ns), 156250)
	KUNIT_EXPECT_EQ(test, value[0],
			mlx5_diag_sim_traffic_count(ids[0], 0, RT_ENGINE_NS(times[5])) -
			mlx5_diag_sim_traffic_count(ids[0], 0, RT_ENGINE_NS(times[0])));
	KUNIT_EXPECT_EQ(test, value[1],
			mlx5_diag_sim_traffic_count(ids[1], 0, RT_ENGINE_NS(times[5])));
#undef RT_ENGINE_NS
}

static struct kunit_case mlx5_diag_roundtrip_cases[] = {
	KUNIT_CASE(rt_caps_model64_test),
	KUNIT_CASE(rt_caps_public16_test),
	KUNIT_CASE(rt_params_model64_test),
	KUNIT_CASE(rt_params_public16_test),
	KUNIT_CASE(rt_rules_test),
	KUNIT_CASE(rt_samples_test),
	KUNIT_CASE(rt_counting_test),
	{}
};

static struct kunit_suite mlx5_diag_roundtrip_suite = {
	.name = "mlx5_diag_roundtrip",
	.init = rt_init,
	.exit = rt_exit,
	.test_cases = mlx5_diag_roundtrip_cases,
};

kunit_test_suite(mlx5_diag_roundtrip_suite);
