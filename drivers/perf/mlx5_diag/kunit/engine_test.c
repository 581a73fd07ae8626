// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the engine state machine against the emulator's firmware core,
 * with time under the test's control: the configuration planner, exact
 * counting in both counting modes, and every transition and error path
 * (failed SET, failed disable, takeover by another agent and its end,
 * forced takeover that never ran, removal and return of the device).
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mlx5_diag_engine.h"
#include "sim/sim.h"

#define ET_PORT_TX_PACKETS	0x1140000300000001ULL
#define ET_PORT_RX_BYTES	0x1020000100000000ULL
#define ET_READ_LAT_PACKETS	0x1160000c00000001ULL
#define ET_FW_TX_PACKETS	0x2006ULL
#define ET_FW_RX_STEERING	0x1001ULL
/* PCIe link 5: the device has 2, which only firmware knows */
#define ET_PCIE_IN_BYTES_LINK5	0x1160000100000005ULL

static const struct mlx5_diag_catalog_entry et_counter = {
	.class = MLX5_DIAG_CLASS_COUNTER,
};

static const struct mlx5_diag_catalog_entry et_sum = {
	.class = MLX5_DIAG_CLASS_STAT_SUM,
};

/* A device: the emulator's core behind a transport the engine calls. */
struct et {
	struct mlx5_diag_aux_dev aux;
	struct mlx5_diag_sim_fw *sim;
	u64 now;		/* emulator time, ns */
	struct mlx5_diag_fw fw;
	struct mlx5_diag_engine eng;
	bool engine_ready;
};

static int et_exec(struct mlx5_diag_aux_dev *aux, const void *in, int inlen,
		   void *out, int outlen)
{
	struct et *t = container_of(aux, struct et, aux);

	return mlx5_diag_sim_fw_exec(t->sim, t->now, in, inlen, out, outlen);
}

static const struct mlx5_diag_aux_ops et_ops = { .exec = et_exec };

static int et_init(struct kunit *test)
{
	struct et *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	t->sim = mlx5_diag_sim_fw_create(0);
	if (!t->sim)
		return -ENOMEM;
	t->aux.ops = &et_ops;
	t->now = 1000;
	test->priv = t;
	return 0;
}

static void et_exit(struct kunit *test)
{
	struct et *t = test->priv;

	if (t->engine_ready)
		mlx5_diag_engine_free(&t->eng);
	mlx5_diag_fw_free_caps(&t->fw.caps);
	mlx5_diag_sim_fw_destroy(t->sim);
}

/* Bind as the driver does: discover, then an engine without a poll work. */
static void et_bind(struct kunit *test)
{
	struct et *t = test->priv;

	mlx5_diag_fw_init(&t->fw, "et", &t->aux);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_query_caps(&t->fw, &t->fw.caps,
						      &t->fw.dialect), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_init(&t->eng, &t->fw, NULL), 0);
	t->engine_ready = true;
}

/* The emulator as firmware that speaks only the public 16-bit interface. */
static void et_public(struct kunit *test)
{
	struct et *t = test->priv;
	struct mlx5_diag_sim_caps caps;

	mlx5_diag_sim_fw_get_caps(t->sim, &caps);
	caps.dialect64 = false;
	caps.on_demand = false;
	caps.sync_start = false;
	caps.data_clear = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->sim, t->now, &caps), 0);
}

/* Engine time (whole device clocks since @enable_ns) in ns. */
static u64 et_engine_ns(struct et *t, u64 enable_ns, u64 now_ns)
{
	return mlx5_diag_sim_clocks_to_ns(mlx5_diag_sim_fw_clock(t->sim, now_ns) -
					  mlx5_diag_sim_fw_clock(t->sim, enable_ns),
					  156250);
}

/* The model's count of @id over engine time [e0, e1). */
static u64 et_model(u64 id, u64 e0, u64 e1)
{
	return mlx5_diag_sim_traffic_count(id, 0, e1) -
	       mlx5_diag_sim_traffic_count(id, 0, e0);
}

static unsigned int et_get(struct kunit *test, u64 id,
			   const struct mlx5_diag_catalog_entry *e, bool force,
			   int want)
{
	struct et *t = test->priv;
	unsigned int slot = ~0U;
	bool took_over;

	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_count_get(&t->eng, id, e, force,
							 &slot, &took_over),
			want);
	return slot;
}

static enum mlx5_diag_engine_state et_state(struct et *t)
{
	struct mlx5_diag_engine_stats st;
	enum mlx5_diag_engine_state state;

	mlx5_diag_engine_status(&t->eng, &state, &st);
	return state;
}

static struct mlx5_diag_engine_stats et_stats(struct et *t)
{
	struct mlx5_diag_engine_stats st;
	enum mlx5_diag_engine_state state;

	mlx5_diag_engine_status(&t->eng, &state, &st);
	return st;
}

static void engine_plan_test(struct kunit *test)
{
	struct mlx5_diag_caps caps = {
		.max_ids = 4, .log_max_samples = 13, .log_min_sample_period = 14,
		.freq_khz = 156250, .repetitive = true, .on_demand = true,
	};
	u64 count[3] = { 1, 2, 3 }, sess_ids[3] = { 3, 1, 9 }, ids[4];
	struct mlx5_diag_fw_params p = { .ids = ids };
	struct mlx5_diag_fw_params session = {
		.enable = true, .mode = MLX5_DIAG_FW_REPETITIVE,
		.log_num_of_samples = 10, .log_sample_period = 16,
		.num_ids = 3, .ids = sess_ids,
	};
	struct mlx5_diag_engine_plan in = {
		.caps = &caps, .count_ids = count, .nr_count = 2,
		.refresh_ms = 5,
	};
	const char *why = NULL;

	/* on-demand where offered */
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), 0);
	KUNIT_EXPECT_TRUE(test, p.enable);
	KUNIT_EXPECT_EQ(test, p.mode, MLX5_DIAG_FW_ON_DEMAND);
	KUNIT_EXPECT_EQ(test, p.num_ids, 2);
	KUNIT_EXPECT_EQ(test, p.ids[1], 2);

	/* repetitive otherwise: 5 ms / 4 = 195312 clocks -> 2^17; 16 slots */
	caps.on_demand = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, p.mode, MLX5_DIAG_FW_REPETITIVE);
	KUNIT_EXPECT_EQ(test, p.log_sample_period, 17);
	KUNIT_EXPECT_EQ(test, p.log_num_of_samples, 4);
	/* a small buffer: 2^(3 - 2) samples of 3 ids (rounded to 4) */
	caps.log_max_samples = 3;
	in.nr_count = 3;
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, p.log_num_of_samples, 1);
	caps.log_max_samples = 2;
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), -ENOSPC);
	/* the period never goes below the minimum */
	caps.log_max_samples = 13;
	in.refresh_ms = 1;
	caps.log_min_sample_period = 20;
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, p.log_sample_period, 20);

	/* nothing counted: disable (enable 0, clear 1) */
	in.nr_count = 0;
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), 0);
	KUNIT_EXPECT_FALSE(test, p.enable);
	KUNIT_EXPECT_TRUE(test, p.clear);

	/* a session: counting rides on it when its ids are in the session */
	in.nr_count = 2;
	count[1] = 3;
	in.session = &session;
	KUNIT_ASSERT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, p.mode, MLX5_DIAG_FW_REPETITIVE);
	KUNIT_EXPECT_EQ(test, p.log_num_of_samples, 10);
	KUNIT_EXPECT_EQ(test, p.log_sample_period, 16);
	KUNIT_EXPECT_EQ(test, p.num_ids, 3);
	KUNIT_EXPECT_EQ(test, p.ids[2], 9);
	count[1] = 2;
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, why);

	/* more ids than the device takes */
	in.session = NULL;
	in.nr_count = 3;
	caps.max_ids = 2;
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_plan(&in, &p, &why), -ENOSPC);
}

/* On-demand counting equals the model exactly, for two close rates. */
static void engine_count_exact_test(struct kunit *test)
{
	struct et *t = test->priv;
	const u64 enable = 1000;
	unsigned int a, b;

	et_bind(test);
	a = et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, 0);
	b = et_get(test, ET_READ_LAT_PACKETS, &et_sum, false, 0);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_COUNT);
	t->now = 50000000;
	mlx5_diag_engine_poll(&t->eng);
	t->now = 123456789;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a),
			et_model(ET_PORT_TX_PACKETS, 0,
				 et_engine_ns(t, enable, t->now)));
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, b),
			et_model(ET_READ_LAT_PACKETS, 0,
				 et_engine_ns(t, enable, t->now)));
	KUNIT_EXPECT_NE(test, mlx5_diag_engine_read(&t->eng, a),
			mlx5_diag_engine_read(&t->eng, b));
	mlx5_diag_engine_count_put(&t->eng, a, false);
	mlx5_diag_engine_count_put(&t->eng, b, false);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_OFF);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
}

/*
 * A refused SET leaves firmware with its old configuration: the events
 * counting it go on, exactly, and the engine stays in COUNT.
 */
static void engine_failed_set_test(struct kunit *test)
{
	struct et *t = test->priv;
	const u64 enable = 1000;
	unsigned int a;

	et_bind(test);
	a = et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, 0);
	t->now = 20000000;
	et_get(test, ET_PCIE_IN_BYTES_LINK5, &et_counter, false, -EINVAL);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_COUNT);
	KUNIT_EXPECT_EQ(test, et_stats(t).set_failures, 1);
	t->now = 70000000;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a),
			et_model(ET_PORT_TX_PACKETS, 0,
				 et_engine_ns(t, enable, t->now)));
	mlx5_diag_engine_count_put(&t->eng, a, false);
}

/* A failed disable is retried, and is never taken for another agent. */
static void engine_failed_disable_test(struct kunit *test)
{
	struct et *t = test->priv;
	unsigned int a;

	et_bind(test);
	a = et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, 0);
	/* the bank query, the disable and its first retry fail */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_fail_next(t->sim, 3, 0x1, 0), 0);
	mlx5_diag_engine_count_put(&t->eng, a, false);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_RELEASING);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_RELEASING);
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_OFF);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
	KUNIT_EXPECT_EQ(test, et_stats(t).disable_retries, 2);

	/* our leftover while releasing is reconfigured, never refused */
	a = et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_fail_next(t->sim, 2, 0x1, 0), 0);
	mlx5_diag_engine_count_put(&t->eng, a, false);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_RELEASING);
	a = et_get(test, ET_PORT_RX_BYTES, &et_counter, false, 0);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_COUNT);
	mlx5_diag_engine_count_put(&t->eng, a, false);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_OFF);
}

/*
 * Another agent takes the engine: counts freeze (nothing of its values is
 * added), new events are refused; when it lets go, counting resumes.
 */
static void engine_takeover_test(struct kunit *test)
{
	struct et *t = test->priv;
	u64 frozen, enable2;
	unsigned int a;

	et_bind(test);
	a = et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, 0);
	t->now = 10000000;
	mlx5_diag_engine_poll(&t->eng);
	frozen = mlx5_diag_engine_read(&t->eng, a);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->sim, t->now), 0);
	t->now = 20000000;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_FOREIGN);
	KUNIT_EXPECT_EQ(test, et_stats(t).takeovers, 1);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a), frozen);
	et_get(test, ET_PORT_RX_BYTES, &et_counter, false, -EBUSY);
	et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, -EBUSY);
	t->now = 30000000;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a), frozen);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_foreign_owner(t->sim));

	/* it lets go: ours again, counting from a new baseline */
	mlx5_diag_sim_fw_foreign_disable(t->sim, t->now);
	t->now = 40000000;
	enable2 = t->now;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_COUNT);
	t->now = 90000000;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a),
			frozen + et_model(ET_PORT_TX_PACKETS, 0,
					  et_engine_ns(t, enable2, t->now)));
	mlx5_diag_engine_count_put(&t->eng, a, false);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_OFF);
}

/*
 * A forced open displaces another agent; if it never runs (perf refused it
 * after event_init), the other agent's configuration is put back.
 */
static void engine_forced_unscheduled_test(struct kunit *test)
{
	struct et *t = test->priv;
	struct mlx5_diag_fw_params q = {};
	unsigned int slot;
	bool took_over;

	et_bind(test);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->sim, t->now), 0);
	et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, -EBUSY);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_FOREIGN);
	KUNIT_ASSERT_EQ(test,
			mlx5_diag_engine_count_get(&t->eng, ET_PORT_TX_PACKETS,
						   &et_counter, true, &slot,
						   &took_over), 0);
	KUNIT_EXPECT_TRUE(test, took_over);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_foreign_owner(t->sim));
	mlx5_diag_engine_count_put(&t->eng, slot, true);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
	q.ids = kunit_kcalloc(test, t->fw.caps.max_ids, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_query_params(&t->fw, &q), 0);
	KUNIT_EXPECT_EQ(test, q.mode, MLX5_DIAG_FW_REPETITIVE);
	KUNIT_EXPECT_EQ(test, q.num_ids, 1);
	KUNIT_EXPECT_EQ(test, q.ids[0], t->fw.caps.entries[0].id);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_OFF);

	/* once an event ran, the takeover is final */
	KUNIT_ASSERT_EQ(test,
			mlx5_diag_engine_count_get(&t->eng, ET_PORT_TX_PACKETS,
						   &et_counter, true, &slot,
						   &took_over), 0);
	mlx5_diag_engine_scheduled(&t->eng);
	mlx5_diag_engine_count_put(&t->eng, slot, false);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
}

/*
 * Public firmware: repetitive mode, every new sample folded; sums stay
 * exact, and samples overwritten before a poll are counted as lost.
 */
static void engine_public_folded_test(struct kunit *test)
{
	struct et *t = test->priv;
	struct mlx5_diag_sim_stats st;
	u64 enable = 1000, period_ns, first_ns, last;
	unsigned int a, b, nslots, lp;

	et_public(test);
	et_bind(test);
	KUNIT_EXPECT_FALSE(test, t->fw.caps.on_demand);
	a = et_get(test, ET_FW_TX_PACKETS, &et_counter, false, 0);
	b = et_get(test, ET_FW_RX_STEERING, &et_counter, false, 0);
	enable = t->now;
	KUNIT_ASSERT_EQ(test, t->eng.programmed.mode, MLX5_DIAG_FW_REPETITIVE);
	nslots = 1U << t->eng.programmed.log_num_of_samples;
	KUNIT_EXPECT_EQ(test, nslots, 16);
	lp = t->eng.programmed.log_sample_period;
	period_ns = mlx5_diag_sim_clocks_to_ns(1ULL << lp, 156250);
	/* sample 0, the baseline, is taken one period after enable */
	first_ns = period_ns;
	/* 5 periods and a bit: samples 0..4 */
	t->now = enable + 5 * period_ns + period_ns / 2;
	mlx5_diag_engine_poll(&t->eng);
	/* the first sample is the baseline: 4 periods counted */
	last = 5ULL << lp;
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a),
			et_model(ET_FW_TX_PACKETS, first_ns,
				 mlx5_diag_sim_clocks_to_ns(last, 156250)));
	KUNIT_EXPECT_EQ(test, et_stats(t).lost_samples, 0);
	/* 40 more periods without a poll: 40 - 16 overwritten */
	t->now += 40 * period_ns;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, et_stats(t).lost_samples, 24);
	mlx5_diag_sim_fw_get_stats(t->sim, &st);
	KUNIT_EXPECT_EQ(test, st.samples_overwritten, 24);
	/* a counter loses nothing to overwrites: its next value carries it */
	last = 45ULL << lp;
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, b),
			et_model(ET_FW_RX_STEERING, first_ns,
				 mlx5_diag_sim_clocks_to_ns(last, 156250)));
	mlx5_diag_engine_count_put(&t->eng, a, false);
	mlx5_diag_engine_count_put(&t->eng, b, false);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
}

/* The device goes and comes back: frozen, then counting again. */
static void engine_detach_attach_test(struct kunit *test)
{
	struct et *t = test->priv;
	unsigned int a;
	u64 frozen;

	et_bind(test);
	a = et_get(test, ET_PORT_TX_PACKETS, &et_counter, false, 0);
	t->now = 10000000;
	mlx5_diag_engine_poll(&t->eng);
	mlx5_diag_engine_detach(&t->eng);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_GONE);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
	frozen = mlx5_diag_engine_read(&t->eng, a);
	KUNIT_EXPECT_NE(test, frozen, 0);
	et_get(test, ET_PORT_RX_BYTES, &et_counter, false, -ENODEV);
	t->now = 20000000;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a), frozen);

	mlx5_diag_engine_attach(&t->eng, &t->aux);
	KUNIT_EXPECT_EQ(test, et_state(t), MLX5_DIAG_ENGINE_COUNT);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->sim));
	t->now = 30000000;
	mlx5_diag_engine_poll(&t->eng);
	KUNIT_EXPECT_EQ(test, mlx5_diag_engine_read(&t->eng, a),
			frozen + et_model(ET_PORT_TX_PACKETS, 0,
					  et_engine_ns(t, 20000000, t->now)));
	mlx5_diag_engine_count_put(&t->eng, a, false);
}

static struct kunit_case mlx5_diag_engine_cases[] = {
	KUNIT_CASE(engine_plan_test),
	KUNIT_CASE(engine_count_exact_test),
	KUNIT_CASE(engine_failed_set_test),
	KUNIT_CASE(engine_failed_disable_test),
	KUNIT_CASE(engine_takeover_test),
	KUNIT_CASE(engine_forced_unscheduled_test),
	KUNIT_CASE(engine_public_folded_test),
	KUNIT_CASE(engine_detach_attach_test),
	{}
};

static struct kunit_suite mlx5_diag_engine_suite = {
	.name = "mlx5_diag_engine",
	.init = et_init,
	.exit = et_exit,
	.test_cases = mlx5_diag_engine_cases,
};

kunit_test_suite(mlx5_diag_engine_suite);
