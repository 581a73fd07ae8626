// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite mlx5_diag_sim: drives the emulator's firmware core with fake
 * time and mailboxes built here, and checks every rule and value exactly.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "sim/sim_int.h"
#include "sim/sim_layout.h"

/*
 * The test's own reading of the spec's offsets (not the emulator's
 * tables): bit k of a mailbox is bit 7 - k % 8 of byte k / 8, which is
 * the mlx5 "MSB of the first big-endian dword" convention.
 */
static void tb_put(u8 *buf, u32 off, u32 width, u64 val)
{
	u32 i;

	for (i = 0; i < width; i++) {
		u32 bit = off + i;
		u8 mask = 0x80 >> (bit % 8);

		if ((val >> (width - 1 - i)) & 1)
			buf[bit / 8] |= mask;
		else
			buf[bit / 8] &= ~mask;
	}
}

static u64 tb_get(const u8 *buf, u32 off, u32 width)
{
	u64 v = 0;
	u32 i;

	for (i = 0; i < width; i++) {
		u32 bit = off + i;

		v <<= 1;
		if (buf[bit / 8] & (0x80 >> (bit % 8)))
			v |= 1;
	}
	return v;
}

#define T_BUF		(64 * 1024)
#define T_P		16384ULL	/* 2^14 clocks, the default minimum */
#define T_OFFSET	3513717296ULL	/* 2^32 - 5 s at 156.25 MHz */

/* Spec offsets used below (part 1 and part 2). */
#define T_CTX		0x40
#define T_IDS		(0x40 + 0xc0)
#define T_ENTRIES	0x80

struct t_sim {
	struct mlx5_diag_sim_fw *fw;
	u8 *in;
	u8 *out;
};

static int t_init(struct kunit *test)
{
	struct t_sim *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->in = kunit_kzalloc(test, T_BUF, GFP_KERNEL);
	t->out = kunit_kzalloc(test, T_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->in);
	KUNIT_ASSERT_NOT_NULL(test, t->out);
	t->fw = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, t->fw);
	test->priv = t;
	return 0;
}

static void t_exit(struct kunit *test)
{
	struct t_sim *t = test->priv;

	mlx5_diag_sim_fw_destroy(t->fw);
}

/*
 * Independent transcription of the traffic model of part 3, slot by slot
 * where the emulator counts whole cycles.
 */
static const u64 t_w[13] = { 8, 11, 5, 9, 12, 6, 10, 4, 7, 11, 5, 9, 7 };

static u64 t_weighted(u64 t, u64 phase)
{
	u64 slots = t / 65536, s, sum = 0;

	for (s = 0; s < slots % 13; s++)
		sum += t_w[(phase + s) % 13];
	return (slots / 13 * 104 + sum) * 65536 +
	       t_w[(phase + slots) % 13] * (t % 65536);
}

static u64 t_leaf(u64 key, u64 x, u64 y, u64 n, u64 t)
{
	u64 b = 1 + (key % 251 + 13 * n) % 509;

	return mul_u64_u64_div_u64(t_weighted(t, (key + y + n) % 13),
				   b * (1000 + 7 * x), 8000000);
}

static u64 t_count(u64 d, u64 n, u64 t)
{
	u64 k = d >> 32, i = d & 0xffffffff, x = i & 0xff, q = (i >> 8) & 0xf;
	u64 sum = 0, y;

	switch (k) {
	case 0:
		return t_leaf(i, 0, 0, n, t);
	case 0x10200001:
	case 0x11400001:
		for (y = 0; y < 8; y++)
			sum += 64 * t_leaf(k + 3, x, y, n, t) +
			       t_leaf(k + 1, x, y, n, t);
		return sum;
	case 0x10200003:
	case 0x11400003:
		for (y = 0; y < 8; y++)
			sum += t_leaf(k + 1, x, y, n, t);
		return sum;
	case 0x10200002:
	case 0x11400002:
		return 64 * t_leaf(k + 2, x, q, n, t) + t_leaf(k, x, q, n, t);
	case 0x10200004:
	case 0x11400004:
	case 0x10200006:
	case 0x11400005:
		return t_leaf(k, x, q, n, t);
	case 0x11600001:
	case 0x11600002:
		return t_leaf(k + 2, x, 0, n, t) + t_leaf(k, x, 0, n, t);
	case 0x1160000a:
	case 0x1160000f:
		return t_leaf(k, x, i >> 16, n, t);
	case 0x1160000b:
	case 0x1160000c:
		for (y = 0; y < 10; y++)
			sum += t_leaf(0x1160000f, x, y, n, t);
		return k == 0x1160000b ? (400 + 10 * (x % 64)) * sum : sum;
	case 0x11800001:
		return t_leaf(0x11800002, 0, 0, n, t) +
		       t_leaf(0x11800003, 0, 0, n, t);
	default:
		return t_leaf(k, i & 0xffff, 0, n, t);
	}
}

/* engine clocks -> ns at the default 156250 kHz: 6.4 ns per clock */
static u64 t_ns(u64 clocks)
{
	return clocks * 32 / 5;
}

/* device clock at now_ns with the default offset and frequency */
static u64 t_clock(u64 now_ns)
{
	return T_OFFSET + now_ns * 5 / 32;
}

/* the first ns at which n periods of T_P have passed since 0 */
#define T_AT(n) DIV_ROUND_UP((u64)(n) * T_P * 32, 5)

static u8 t_status(const struct t_sim *t)
{
	return tb_get(t->out, 0x00, 8);
}

static u32 t_synd(const struct t_sim *t)
{
	return tb_get(t->out, 0x20, 32);
}

static u8 t_run(struct kunit *test, u64 now, int inlen, int outlen)
{
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_exec(t->fw, now, t->in, inlen,
						    t->out, outlen), 0);
	return t_status(t);
}

static void t_hdr(struct t_sim *t, u16 opcode, u16 op_mod)
{
	memset(t->in, 0, T_BUF);
	tb_put(t->in, 0x00, 16, opcode);
	tb_put(t->in, 0x30, 16, op_mod);
}

/* the mode bits of the context, as flags */
#define TF_SINGLE	BIT(0)
#define TF_REP		BIT(1)
#define TF_SYNC		BIT(2)
#define TF_CLEAR	BIT(3)
#define TF_OD		BIT(4)
#define TF_EN		BIT(5)
#define TF_TRACER	BIT(6)
#define TF_RTC		BIT(7)

struct t_params {
	u32 flags;
	u32 num;
	u32 log_num;
	u32 period;
	u32 nids;		/* ids given; entries past nids repeat ids[0] */
	u64 ids[4];
};

/* SET_DIAGNOSTIC_PARAMS in the device's dialect; returns the status. */
static u8 t_set(struct kunit *test, u64 now, bool dialect64,
		const struct t_params *p)
{
	struct t_sim *t = test->priv;
	u32 eb = dialect64 ? 64 : 32;
	u32 i;

	t_hdr(t, 0x820, 0);
	tb_put(t->in, T_CTX + 0x00, 16, p->num);
	tb_put(t->in, T_CTX + 0x18, 8, p->log_num);
	tb_put(t->in, T_CTX + 0x20, 1, !!(p->flags & TF_SINGLE));
	tb_put(t->in, T_CTX + 0x21, 1, !!(p->flags & TF_REP));
	tb_put(t->in, T_CTX + 0x22, 1, !!(p->flags & TF_SYNC));
	tb_put(t->in, T_CTX + 0x23, 1, !!(p->flags & TF_CLEAR));
	tb_put(t->in, T_CTX + 0x24, 1, !!(p->flags & TF_OD));
	tb_put(t->in, T_CTX + 0x25, 1, !!(p->flags & TF_EN));
	tb_put(t->in, T_CTX + 0x26, 1, !!(p->flags & TF_TRACER));
	tb_put(t->in, T_CTX + 0x28, 1, !!(p->flags & TF_RTC));
	tb_put(t->in, T_CTX + 0x38, 8, p->period);
	for (i = 0; i < p->num; i++) {
		u64 id = p->ids[i < p->nids ? i : 0];

		if (dialect64)
			tb_put(t->in, T_IDS + 64 * i, 64, id);
		else
			tb_put(t->in, T_IDS + 32 * i + 0x10, 16, id);
	}
	return t_run(test, now, (0x40 + 0xc0 + eb * p->num) / 8, 16);
}

/* QUERY_DIAGNOSTIC_COUNTERS; returns the status. */
static u8 t_query(struct kunit *test, u64 now, u32 n, u32 index, int outlen)
{
	struct t_sim *t = test->priv;

	t_hdr(t, 0x821, 0);
	tb_put(t->in, 0x40, 16, n);
	tb_put(t->in, 0x50, 16, index);
	return t_run(test, now, 16, outlen);
}

struct t_entry {
	u64 id;
	u64 sample_id;
	u64 ts;
	u64 value;
};

static struct t_entry t_entry64(const struct t_sim *t, u32 e)
{
	u32 o = T_ENTRIES + 256 * e;

	return (struct t_entry){
		.id = tb_get(t->out, o + 0x00, 64),
		.sample_id = tb_get(t->out, o + 0x40, 32),
		.ts = tb_get(t->out, o + 0x60, 32) << 32 |
		      tb_get(t->out, o + 0x80, 32),
		.value = tb_get(t->out, o + 0xa0, 32) << 32 |
			 tb_get(t->out, o + 0xc0, 32),
	};
}

static struct t_entry t_entry16(const struct t_sim *t, u32 e)
{
	u32 o = T_ENTRIES + 128 * e;

	return (struct t_entry){
		.id = tb_get(t->out, o + 0x00, 16),
		.sample_id = tb_get(t->out, o + 0x10, 16),
		.ts = tb_get(t->out, o + 0x20, 32),
		.value = tb_get(t->out, o + 0x40, 32) << 32 |
			 tb_get(t->out, o + 0x60, 32),
	};
}

static void t_dialect16(struct kunit *test)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	caps->dialect64 = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);
}

static struct mlx5_diag_sim_stats t_stats(struct kunit *test)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_stats st;

	mlx5_diag_sim_fw_get_stats(t->fw, &st);
	return st;
}

#define PORT_RX_BYTES(port)	(0x1020000100000000ULL | (port))
#define PCIE_IN_BYTES(link)	(0x1160000100000000ULL | (link))
#define ICMC_HITS		0x1180000200000000ULL

/* ---- capabilities ---- */

static void sim_test_caps_general(struct kunit *test)
{
	struct t_sim *t = test->priv;

	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 16 + 511), 0x51);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SHORT_OUTPUT);
	t_hdr(t, 0x100, 0x1);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 16 + 512), 0);
	KUNIT_EXPECT_EQ(test, t_synd(t), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x183, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x280, 16), 41);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x4c0, 32), 156);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x4e0, 32), 156250);

	t_dialect16(test);
	t_hdr(t, 0x100, 0x1);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 8, 16 + 512), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x280, 16), 13);
}

static void sim_test_caps_debug64(struct kunit *test)
{
	static const u32 sync_kinds[] = {
		0x11600001, 0x11600002, 0x11600003, 0x11600004, 0x11600005,
		0x11600006, 0x11600007, 0x11600008, 0x11600009, 0x1160000a,
		0x1160000b, 0x1160000c, 0x1160000d, 0x1160000e, 0x1160000f,
		0x11800001, 0x11800002, 0x11800003,
	};
	struct t_sim *t = test->priv;
	const u32 c = 0x80;
	u32 i, k, nsync = 0;

	t_hdr(t, 0x100, 0x1b);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, (0x80 + 0x200 + 64 * 41) / 8 - 1),
			0x51);
	t_hdr(t, 0x100, 0x1b);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, (0x80 + 0x200 + 64 * 41) / 8),
			0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x18, 8), 13);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x20, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x21, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x22, 1), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x23, 1), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x24, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x25, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x26, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x27, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x28, 1), 1);	/* RTC */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x29, 15), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x38, 8), 14);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x40, 16), 16);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x50, 8), 2);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x58, 8), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x60, 16), 8);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x70, 8), 2);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 0x20, 32), 0x10200001);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 64 * 40 + 0x20, 32),
			0x11800003);
	for (i = 0; i < 41; i++) {
		bool sync = tb_get(t->out, c + 0x200 + 64 * i, 1);
		bool want = false;

		k = tb_get(t->out, c + 0x200 + 64 * i + 0x20, 32);
		for (nsync = 0; nsync < ARRAY_SIZE(sync_kinds); nsync++)
			want |= sync_kinds[nsync] == k;
		KUNIT_EXPECT_EQ_MSG(test, sync, want, "kind 0x%x", k);
		/* bits 1..31 of the entry are reserved */
		KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 64 * i + 1, 31),
				0);
	}
}

static void sim_test_caps_debug16(struct kunit *test)
{
	static const u16 ids[] = { 0x0401, 0x0402, 0x0403, 0x0406, 0x0409,
				   0x040a, 0x040b, 0x1001, 0x2001, 0x2006,
				   0x2c02, 0x2c03, 0x2c04 };
	struct t_sim *t = test->priv;
	const u32 c = 0x80;
	u32 i;

	t_dialect16(test);
	t_hdr(t, 0x100, 0x1b);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, (0x80 + 0x200 + 32 * 13) / 8),
			0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x18, 8), 13);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x24, 3), 7);	/* modelled */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x27, 1), 0);	/* 16-bit */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x28, 1), 0);	/* no RTC */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x40, 64), 0);	/* reserved */
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 32 * i + 0x10, 16),
				ids[i]);
		KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 32 * i, 1),
				ids[i] <= 0x040b);
	}
	t_hdr(t, 0x100, 0x1b);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, (0x80 + 0x200 + 32 * 13) / 8 - 1),
			0x51);
}

/* ---- SET_DIAGNOSTIC_PARAMS rules ---- */

struct t_want {
	u8 status;
	u32 syndrome;
	u32 bad_index;		/* 64-bit dialect */
	u32 bad_reason;
};

struct t_rule {
	const char *name;
	bool dialect16;
	void (*caps)(struct mlx5_diag_sim_caps *caps);
	struct t_params p;
	struct t_want want;
};

static void t_no_single(struct mlx5_diag_sim_caps *c)
{
	c->single = false;
}

static void t_no_rep(struct mlx5_diag_sim_caps *c)
{
	c->repetitive = false;
}

static void t_no_od(struct mlx5_diag_sim_caps *c)
{
	c->on_demand = false;
}

static void t_no_sync(struct mlx5_diag_sim_caps *c)
{
	c->sync_start = false;
}

static void t_no_clear(struct mlx5_diag_sim_caps *c)
{
	c->data_clear = false;
}

static void t_drop_first_kind(struct mlx5_diag_sim_caps *c)
{
	memmove(c->kinds, c->kinds + 1, --c->nr_kinds * sizeof(c->kinds[0]));
}

static void t_port_sync(struct mlx5_diag_sim_caps *c)
{
	c->sync_kinds[c->nr_sync_kinds++] = 0x10200001;
}

/*
 * SETP(flags, num_of_counters, log_num_of_samples, log_sample_period, ids...)
 * and PSETP(...) for a pointer to one.
 */
#define SETP(_fl, _num, _log, _per, ...) {				\
	.flags = (_fl), .num = (_num), .log_num = (_log),		\
	.period = (_per), .ids = { __VA_ARGS__ },			\
	.nids = sizeof((u64[]){ __VA_ARGS__ }) / sizeof(u64) }
#define PSETP(...) (&(const struct t_params)SETP(__VA_ARGS__))
/* enabled in one mode */
#define RE	(TF_REP | TF_EN)
#define SE	(TF_SINGLE | TF_EN)
#define OE	(TF_OD | TF_EN)
#define P0	PORT_RX_BYTES(0)

#define OK		{ 0 }
#define BAD(s)		{ 0x3, MLX5_DIAG_SIM_SYND_##s }
#define BADID(s, i, r)	{ 0x3, MLX5_DIAG_SIM_SYND_##s, i, r }
#define INST(id) { "instance " #id, .p = SETP(RE, 1, 4, 14, id),	\
		   .want = BADID(BAD_INSTANCE, 0, 3) }
#define INST_OK(id) { "instance ok " #id, .p = SETP(RE, 1, 4, 14, id),	\
		      .want = OK }

static const struct t_rule t_rules[] = {
	{ "repetitive ok", .p = SETP(RE, 1, 4, 14, P0), .want = OK },
	{ "single ok", .p = SETP(SE, 1, 4, 14, P0), .want = OK },
	{ "on_demand ok", .p = SETP(OE, 1, 4, 0, P0), .want = OK },
	/* rule 1 */
	{ "single+repetitive", .p = SETP(SE | TF_REP, 1, 4, 14, P0),
	  .want = BAD(SINGLE_REPETITIVE) },
	{ "single+repetitive disabled",
	  .p = SETP(TF_SINGLE | TF_REP, 1, 4, 14, P0),
	  .want = BAD(SINGLE_REPETITIVE) },
	/* rule 2 */
	{ "on_demand+repetitive", .p = SETP(OE | TF_REP, 1, 4, 14, P0),
	  .want = BAD(ON_DEMAND_COMBO) },
	{ "on_demand+single", .p = SETP(OE | TF_SINGLE, 1, 4, 14, P0),
	  .want = BAD(ON_DEMAND_COMBO) },
	{ "on_demand+sync", .p = SETP(OE | TF_SYNC, 1, 4, 14, ICMC_HITS),
	  .want = BAD(ON_DEMAND_COMBO) },
	{ "on_demand+clear", .p = SETP(OE | TF_CLEAR, 1, 4, 14, P0),
	  .want = BAD(ON_DEMAND_COMBO) },
	{ "on_demand+sync+clear",
	  .p = SETP(OE | TF_SYNC | TF_CLEAR, 1, 4, 14, ICMC_HITS),
	  .want = BAD(ON_DEMAND_COMBO) },
	/* rule 3, and the disable of rule 7 */
	{ "clear without sync", .p = SETP(RE | TF_CLEAR, 1, 4, 14, P0),
	  .want = BAD(CLEAR_NO_SYNC) },
	{ "clear with sync",
	  .p = SETP(RE | TF_SYNC | TF_CLEAR, 1, 4, 14, ICMC_HITS),
	  .want = OK },
	{ "disable: clear without sync", .p = { .flags = TF_CLEAR },
	  .want = OK },
	{ "disable without clear", .p = { .num = 0 }, .want = OK },
	/* rule 4 */
	{ "period below min", .p = SETP(RE, 1, 4, 13, P0),
	  .want = BAD(PERIOD_LOW) },
	{ "period at min", .p = SETP(RE, 1, 4, 14, P0), .want = OK },
	{ "period 35", .p = SETP(RE, 1, 4, 35, P0), .want = OK },
	{ "period above 35", .p = SETP(RE, 1, 4, 36, P0),
	  .want = BAD(PERIOD_HIGH) },
	{ "single period above 35", .p = SETP(SE, 1, 4, 255, P0),
	  .want = BAD(PERIOD_HIGH) },
	{ "single period below min", .p = SETP(SE, 1, 4, 0, P0),
	  .want = BAD(PERIOD_LOW) },
	{ "on_demand ignores period", .p = SETP(OE, 1, 4, 200, P0),
	  .want = OK },
	/* rule 5 */
	{ "log_num = log_max", .p = SETP(RE, 1, 13, 14, P0), .want = OK },
	{ "log_num > log_max", .p = SETP(RE, 1, 14, 14, P0),
	  .want = BAD(LOG_SAMPLES) },
	{ "log_num > log_max disabled", .p = { .log_num = 14 },
	  .want = BAD(LOG_SAMPLES) },
	{ "2^(13-12) >= 2", .p = SETP(RE, 2, 12, 14, P0), .want = OK },
	{ "2^(13-12) < 3", .p = SETP(RE, 3, 12, 14, P0),
	  .want = BAD(BUFFER_SHARE) },
	{ "2^(13-13) < 2", .p = SETP(RE, 2, 13, 14, P0),
	  .want = BAD(BUFFER_SHARE) },
	{ "2^(13-9) >= 16", .p = SETP(RE, 16, 9, 14, P0), .want = OK },
	{ "2^(13-10) < 16", .p = SETP(RE, 16, 10, 14, P0),
	  .want = BAD(BUFFER_SHARE) },
	/* rule 8: how many */
	{ "num_of_counters 0", .p = SETP(RE, 0, 4, 14, P0),
	  .want = BAD(NUM_COUNTERS) },
	{ "num_of_counters 16", .p = SETP(RE, 16, 4, 14, P0), .want = OK },
	{ "num_of_counters 17", .p = SETP(RE, 17, 4, 14, P0),
	  .want = BAD(NUM_COUNTERS) },
	/* rule 9 and the emulator's own */
	{ "no mode", .p = SETP(TF_EN, 1, 4, 14, P0), .want = BAD(NO_MODE) },
	{ "tracer_dump", .p = SETP(RE | TF_TRACER, 1, 4, 14, P0),
	  .want = BAD(NO_TRACER_DUMP) },
	{ "no single cap", .caps = t_no_single, .p = SETP(SE, 1, 4, 14, P0),
	  .want = BAD(NO_SINGLE) },
	{ "no repetitive cap", .caps = t_no_rep, .p = SETP(RE, 1, 4, 14, P0),
	  .want = BAD(NO_REPETITIVE) },
	{ "no on_demand cap", .caps = t_no_od, .p = SETP(OE, 1, 4, 14, P0),
	  .want = BAD(NO_ON_DEMAND) },
	{ "no sync cap", .caps = t_no_sync,
	  .p = SETP(RE | TF_SYNC, 1, 4, 14, ICMC_HITS),
	  .want = BAD(NO_SYNC_START) },
	{ "no clear cap", .caps = t_no_clear,
	  .p = SETP(RE | TF_SYNC | TF_CLEAR, 1, 4, 14, ICMC_HITS),
	  .want = BAD(NO_DATA_CLEAR) },
	{ "disable needs no clear cap", .caps = t_no_clear,
	  .p = { .flags = TF_CLEAR }, .want = OK },
	/* rule 8, 64-bit data IDs: kind, sync, instance; first bad index */
	{ "unknown kind",
	  .p = SETP(RE, 3, 4, 14, P0, ICMC_HITS, 0x1020000700000000ULL),
	  .want = BADID(UNSUPPORTED_ID, 2, 1) },
	{ "kind not listed", .caps = t_drop_first_kind,
	  .p = SETP(RE, 1, 4, 14, P0), .want = BADID(UNSUPPORTED_ID, 0, 1) },
	{ "sync on port kind",
	  .p = SETP(RE | TF_SYNC, 2, 4, 14, ICMC_HITS, PORT_RX_BYTES(1)),
	  .want = BADID(NO_SYNC, 1, 2) },
	{ "sync kind before instance",
	  .p = SETP(RE | TF_SYNC, 1, 4, 14, PORT_RX_BYTES(7)),
	  .want = BADID(NO_SYNC, 0, 2) },
	{ "sync made available", .caps = t_port_sync,
	  .p = SETP(RE | TF_SYNC, 1, 4, 14, PORT_RX_BYTES(1)), .want = OK },
	{ "sync+clear on PCIe",
	  .p = SETP(RE | TF_SYNC | TF_CLEAR, 1, 4, 14, PCIE_IN_BYTES(1)),
	  .want = OK },
	INST_OK(0x1020000100000001ULL),		/* port 1 */
	INST(0x1020000100000002ULL),		/* port >= num_ports */
	INST(0x1020000100000100ULL),		/* other bits */
	INST_OK(0x1020000200000701ULL),		/* port 1, prio 7 */
	INST(0x1020000200000800ULL),		/* prio 8 */
	INST(0x1020000200000002ULL),		/* port 2 */
	INST(0x1020000200001000ULL),		/* bits above Y */
	INST_OK(0x1040000100000000ULL),		/* host 0 */
	INST(0x1040000100000001ULL),		/* host 1 */
	INST(0x1080000100000100ULL),		/* host, other bits */
	INST_OK(0x10c0000200000007ULL),		/* function 7 */
	INST(0x10c0000200000008ULL),		/* function 8 */
	INST(0x10c0000500010000ULL),		/* function, bits 31:16 */
	INST_OK(0x1160000100000001ULL),		/* link 1 */
	INST(0x1160000100000002ULL),		/* link 2 */
	INST(0x1160000200000100ULL),		/* YY != 0 */
	INST(0x1160000300010000ULL),		/* ZZ != 0 */
	INST(0x1160000401000000ULL),		/* bits 31:24 */
	INST_OK(0x1160000a00070001ULL),		/* link 1, tclass 7 */
	INST(0x1160000a00080000ULL),		/* tclass 8 */
	INST(0x1160000a00000002ULL),		/* tclass, link 2 */
	INST(0x1160000a00000100ULL),		/* tclass, YY != 0 */
	INST_OK(0x1160000f00090001ULL),		/* link 1, bin 9 */
	INST(0x1160000f000a0000ULL),		/* bin 10 */
	INST(0x1160000f00000102ULL),		/* bin, link 2 and YY */
	INST_OK(0x1100000200000000ULL),		/* global */
	INST(0x1100000200000001ULL),		/* global, instance */
	INST(0x1180000180000000ULL),		/* global, bit 31 */
	/* public 16-bit dialect */
	{ "16: ok", .dialect16 = true, .p = SETP(RE, 1, 4, 14, 0x2006),
	  .want = OK },
	{ "16: unsupported id", .dialect16 = true,
	  .p = SETP(RE, 2, 4, 14, 0x2006, 0x0404),
	  .want = BAD(UNSUPPORTED_ID) },
	{ "16: sync on non-sync id", .dialect16 = true,
	  .p = SETP(RE | TF_SYNC, 1, 4, 14, 0x1001), .want = BAD(NO_SYNC) },
	{ "16: sync ok", .dialect16 = true,
	  .p = SETP(RE | TF_SYNC | TF_CLEAR, 1, 4, 14, 0x0401), .want = OK },
	{ "16: 13 counters", .dialect16 = true,
	  .p = SETP(RE, 13, 9, 14, 0x0401), .want = OK },
	{ "16: 14 counters", .dialect16 = true,
	  .p = SETP(RE, 14, 9, 14, 0x0401), .want = BAD(NUM_COUNTERS) },
};

static void t_rule_desc(const struct t_rule *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(t_rules, t_rules, t_rule_desc);

static void sim_test_set_rules(struct kunit *test)
{
	const struct t_rule *r = test->param_value;
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;
	u8 st;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	caps->dialect64 = !r->dialect16;
	if (r->caps)
		r->caps(caps);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);

	st = t_set(test, 1000, !r->dialect16, &r->p);
	KUNIT_EXPECT_EQ(test, st, r->want.status);
	KUNIT_EXPECT_EQ(test, t_synd(t), r->want.syndrome);
	if (!r->dialect16) {
		KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x40, 16),
				r->want.bad_index);
		KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x50, 8),
				r->want.bad_reason);
	}
	/* a refused SET leaves the engine as it was; a good one applies */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_engine_enabled(t->fw),
			!st && (r->p.flags & TF_EN));
	KUNIT_EXPECT_EQ(test, t_stats(test).commands_failed, st ? 1 : 0);
}

/* ---- command decoding errors ---- */

static void sim_test_cmd_errors(struct kunit *test)
{
	static const struct t_params rep = SETP(RE, 1, 4, 14, P0);
	struct t_sim *t = test->priv;
	u16 ops[] = { 0x819, 0x820, 0x821 };
	u32 i;

	/* no answer possible */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_exec(t->fw, 0, t->in, 16,
						    t->out, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_exec(t->fw, 0, NULL, 16,
						    t->out, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_exec(t->fw, 0, t->in, -1,
						    t->out, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands, 0);

	t_hdr(t, 0x822, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 16), 0x2);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_BAD_OPCODE);
	t_hdr(t, 0x0, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 16), 0x2);

	/* op_mod */
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		t_hdr(t, ops[i], 1);
		KUNIT_EXPECT_EQ(test, t_run(test, 0, 64, 64), 0x3);
		KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_BAD_OP_MOD);
	}
	t_hdr(t, 0x100, 0x0);	/* maximum values: not offered */
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 1024), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_BAD_OP_MOD);
	t_hdr(t, 0x100, 0x1a);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 1024), 0x3);
	t_hdr(t, 0x100, 0x3);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 1024), 0x3);

	/* short input */
	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 7, 1024), 0x50);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SHORT_INPUT);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 0, 1024), 0x50);
	t_hdr(t, 0x819, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 15, 1024), 0x50);
	t_hdr(t, 0x821, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 15, 1024), 0x50);
	t_hdr(t, 0x820, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 31, 16), 0x50);
	/* SET: the ids must be there: 32 + 8 bytes for one 64-bit id */
	t_set(test, 0, true, &rep);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 39, 16), 0x50);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SHORT_INPUT);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 40, 16), 0);

	/* short output */
	t_hdr(t, 0x819, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 8 + 24 + 8 - 1), 0x51);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SHORT_OUTPUT);
	t_hdr(t, 0x819, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 8 + 24 + 8), 0);
	KUNIT_EXPECT_EQ(test, t_query(test, 0, 2, 0, 16 + 2 * 32 - 1), 0x51);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SHORT_OUTPUT);
	KUNIT_EXPECT_EQ(test, t_query(test, 0, 2, 0, 16 + 2 * 32), 0);

	/* a refusal answers the header only */
	t_hdr(t, 0x822, 0);
	memset(t->out, 0xff, 64);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 64), 0x2);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x08, 24), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x40, 64), 0);

	/* 21 commands reached the firmware, 4 of them succeeded */
	KUNIT_EXPECT_EQ(test, t_stats(test).commands, 21);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands_failed, 17);
}

static void sim_test_query_not_configured(struct kunit *test)
{
	struct t_sim *t = test->priv;

	KUNIT_EXPECT_EQ(test, t_query(test, 0, 1, 0, 1024), 0x4);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NOT_CONFIGURED);
	/* nothing configured: the held context is all zero */
	t_hdr(t, 0x819, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 8 + 24), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x40, 0xc0), 0);
}

/* ---- QUERY_DIAGNOSTIC_PARAMS ---- */

static void sim_test_query_params(struct kunit *test)
{
	const struct t_params p = SETP(RE | TF_SYNC | TF_CLEAR, 3, 11, 20,
				       PCIE_IN_BYTES(1), ICMC_HITS,
				       0x1160000f00090000ULL);
	const struct t_params p16 = SETP(SE, 2, 4, 14, 0x2c04, 0x0401);
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 8 + 24 + 3 * 8), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x00, 16), 3);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x18, 8), 11);
	/* single, repetitive, sync, clear, on_demand, enable, tracer_dump */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x20, 7), 0x3a);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), 20);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS, 64), PCIE_IN_BYTES(1));
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS + 64, 64), ICMC_HITS);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS + 128, 64),
			0x1160000f00090000ULL);

	/* the dialect cannot change under a running engine */
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &(struct t_params){}), 0);
	t_dialect16(test);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, false, &p16), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 8 + 24 + 2 * 4), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x00, 16), 2);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x20, 7), 0x42);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS, 32), 0x2c04);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS + 32, 32), 0x0401);
}

/*
 * The lies of QUERY_DIAGNOSTIC_PARAMS, told while the engine is enabled
 * (a disabled engine's answer is the truth), and the lie file's text.
 */
static void sim_test_lies(struct kunit *test)
{
	const struct t_params p = SETP(RE, 2, 11, 20, ICMC_HITS,
				       PCIE_IN_BYTES(1));
	struct t_sim *t = test->priv;
	unsigned int lie;
	u32 v;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_lie(t->fw,
						   MLX5_DIAG_SIM_LIE_RING_AHEAD), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_LIE_PARAMS_LOG_NUM,
						       20), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_LIE_PARAMS_NUM_IDS,
						       5), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_LIE_PARAMS_LOG_PERIOD,
						       64), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_LIE_RING_AHEAD,
						       2), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_NR_LIES, 1),
			-EINVAL);
	/* disabled: the truth */
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 8 + 24 + 5 * 8), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x00, 16), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 8 + 24 + 5 * 8), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x00, 16), 5);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x18, 8), 20);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), 64);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS + 64, 64), PCIE_IN_BYTES(1));
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS + 128, 64), 0);

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_lie("ring_ahead 1\n", &lie,
						      &v), 0);
	KUNIT_EXPECT_EQ(test, lie, MLX5_DIAG_SIM_LIE_RING_AHEAD);
	KUNIT_EXPECT_EQ(test, v, 1);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_lie("caps_max_num_data_ids 0x1388",
						      &lie, &v), 0);
	KUNIT_EXPECT_EQ(test, lie, MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS);
	KUNIT_EXPECT_EQ(test, v, 5000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_lie("none", &lie, &v), 0);
	KUNIT_EXPECT_EQ(test, lie, MLX5_DIAG_SIM_NR_LIES);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_lie("none 1", &lie, &v),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_lie("ring_ahead", &lie, &v),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_lie("truth 1", &lie, &v),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, mlx5_diag_sim_lie_name(MLX5_DIAG_SIM_LIE_RING_AHEAD),
			   "ring_ahead");
	KUNIT_EXPECT_NULL(test, mlx5_diag_sim_lie_name(MLX5_DIAG_SIM_NR_LIES));
}

/* ---- the fuzzer ---- */

#define T_FUZZ_CMDS	400
#define T_FUZZ_OUT	4096

/* Command @i of the fuzz sequence into t->in; returns its input length. */
static int t_fuzz_cmd(struct t_sim *t, u32 i)
{
	switch (i % 4) {
	case 0:
		t_hdr(t, 0x100, 0x1);
		return 16;
	case 1:
		t_hdr(t, 0x100, 0x1b);
		return 16;
	case 2:
		t_hdr(t, 0x819, 0);
		return 16;
	default:
		t_hdr(t, 0x821, 0);
		tb_put(t->in, 0x40, 16, 4);
		tb_put(t->in, 0x50, 16, i % 8);
		return 16;
	}
}

/* A second device configured as t->fw is, and its fuzzer set. */
static struct mlx5_diag_sim_fw *t_fuzz_twin(struct kunit *test,
					    const struct t_params *p, u64 seed,
					    u32 rate)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_fw *fw = t->fw;
	struct mlx5_diag_sim_fw *twin = mlx5_diag_sim_fw_create(0);

	KUNIT_ASSERT_NOT_NULL(test, twin);
	t->fw = twin;
	KUNIT_EXPECT_EQ(test, t_set(test, 0, true, p), 0);
	t->fw = fw;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_fuzz(twin, seed, rate), 0);
	return twin;
}

/*
 * The fuzzer: off by default; at the full rate every answer is mutated and
 * counted; the same seed gives the same answers (and lost answers), byte
 * for byte, another seed other answers; half the rate mutates about half.
 */
static void sim_test_fuzz(struct kunit *test)
{
	const struct t_params p = SETP(RE, 2, 11, 20, ICMC_HITS,
				       PCIE_IN_BYTES(1));
	struct mlx5_diag_sim_fw *same, *other, *truth;
	struct mlx5_diag_sim_stats st, st_truth;
	struct t_sim *t = test->priv;
	u32 i, rate, differ = 0, lost = 0, unlike_other = 0;
	u8 *o1, *o2;
	int r0, r1, r2, inlen;
	u64 seed;

	o1 = kunit_kzalloc(test, T_FUZZ_OUT, GFP_KERNEL);
	o2 = kunit_kzalloc(test, T_FUZZ_OUT, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o1);
	KUNIT_ASSERT_NOT_NULL(test, o2);
	mlx5_diag_sim_fw_get_fuzz(t->fw, &seed, &rate);
	KUNIT_EXPECT_EQ(test, seed, 0);
	KUNIT_EXPECT_EQ(test, rate, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_fuzz(t->fw, 1, 1001),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	truth = t_fuzz_twin(test, &p, 0, 0);
	same = t_fuzz_twin(test, &p, 42, 1000);
	other = t_fuzz_twin(test, &p, 43, 1000);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_fuzz(t->fw, 42, 1000), 0);
	mlx5_diag_sim_fw_get_fuzz(t->fw, &seed, &rate);
	KUNIT_EXPECT_EQ(test, seed, 42);
	KUNIT_EXPECT_EQ(test, rate, 1000);

	for (i = 0; i < T_FUZZ_CMDS; i++) {
		u64 now = (u64)i * 100000;

		inlen = t_fuzz_cmd(t, i);
		r0 = mlx5_diag_sim_fw_exec(t->fw, now, t->in, inlen, t->out,
					   T_FUZZ_OUT);
		r1 = mlx5_diag_sim_fw_exec(same, now, t->in, inlen, o1,
					   T_FUZZ_OUT);
		KUNIT_EXPECT_EQ(test, r0, r1);
		KUNIT_EXPECT_TRUE(test, r0 == 0 || r0 == -EIO);
		KUNIT_EXPECT_EQ(test, memcmp(t->out, o1, T_FUZZ_OUT), 0);
		r2 = mlx5_diag_sim_fw_exec(other, now, t->in, inlen, o2,
					   T_FUZZ_OUT);
		if (r2 != r0 || memcmp(t->out, o2, T_FUZZ_OUT))
			unlike_other++;
		KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_exec(truth, now, t->in,
							    inlen, o2,
							    T_FUZZ_OUT), 0);
		if (r0 || memcmp(t->out, o2, T_FUZZ_OUT))
			differ++;
		if (r0)
			lost++;
	}
	KUNIT_EXPECT_EQ(test, t_stats(test).answers_fuzzed, T_FUZZ_CMDS);
	/* some mutations change nothing (zeroes where zeroes were) */
	KUNIT_EXPECT_GT(test, differ, T_FUZZ_CMDS * 3 / 4);
	KUNIT_EXPECT_GT(test, lost, 0);
	KUNIT_EXPECT_GT(test, unlike_other, T_FUZZ_CMDS * 9 / 10);
	/* the firmware's own state is the truth's: same statistics */
	mlx5_diag_sim_fw_get_stats(t->fw, &st);
	mlx5_diag_sim_fw_get_stats(truth, &st_truth);
	KUNIT_EXPECT_EQ(test, st.samples_produced, st_truth.samples_produced);
	KUNIT_EXPECT_EQ(test, st.samples_returned, st_truth.samples_returned);
	KUNIT_EXPECT_EQ(test, st.commands_failed, st_truth.commands_failed);
	KUNIT_EXPECT_EQ(test, st_truth.answers_fuzzed, 0);

	/* half the rate, from the seed again */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_fuzz(same, 42, 500), 0);
	for (i = 0; i < T_FUZZ_CMDS; i++) {
		inlen = t_fuzz_cmd(t, i);
		mlx5_diag_sim_fw_exec(same, 50000000, t->in, inlen, o1,
				      T_FUZZ_OUT);
	}
	mlx5_diag_sim_fw_get_stats(same, &st);
	KUNIT_EXPECT_GT(test, st.answers_fuzzed,
			T_FUZZ_CMDS + T_FUZZ_CMDS * 4 / 10);
	KUNIT_EXPECT_LT(test, st.answers_fuzzed,
			T_FUZZ_CMDS + T_FUZZ_CMDS * 6 / 10);
	mlx5_diag_sim_fw_destroy(truth);
	mlx5_diag_sim_fw_destroy(same);
	mlx5_diag_sim_fw_destroy(other);
}

/* ---- sampling ---- */

static void sim_test_periodic_timing(struct kunit *test)
{
	const u64 d = PORT_RX_BYTES(1);
	const struct t_params p = SETP(RE, 1, 4, 14, d);
	struct t_sim *t = test->priv;
	const u64 en = 1000000;			/* enable at 1 ms */
	const u64 e = t_clock(en);		/* E */
	struct t_entry x;
	u64 now;
	u32 j;

	KUNIT_EXPECT_EQ(test, e, T_OFFSET + 156250);
	KUNIT_ASSERT_EQ(test, t_set(test, en, true, &p), 0);

	/* last ns before E + P: nothing yet */
	now = en + 104857;
	KUNIT_EXPECT_EQ(test, t_clock(now) - e, T_P - 1);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 0);
	x = t_entry64(t, 0);
	KUNIT_EXPECT_EQ(test, x.id, d);		/* configured id, zeros */
	KUNIT_EXPECT_EQ(test, x.sample_id, 0);
	KUNIT_EXPECT_EQ(test, x.ts, 0);
	KUNIT_EXPECT_EQ(test, x.value, 0);

	/* first ns at or after E + P: sample 0 */
	now = en + 104858;
	KUNIT_EXPECT_EQ(test, t_clock(now) - e, T_P);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 1);
	x = t_entry64(t, 0);
	KUNIT_EXPECT_EQ(test, x.id, d);
	KUNIT_EXPECT_EQ(test, x.sample_id, 0);
	KUNIT_EXPECT_EQ(test, x.ts, e + T_P);
	/* t = P clocks = 104857 ns: C(t) of port_rx_bytes, port 1 */
	KUNIT_EXPECT_EQ(test, x.value, 2522167);
	KUNIT_EXPECT_EQ(test, x.value, t_count(d, 0, 104857));
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).ts, 0);

	/* 10 periods: samples 0..9 at E + (j + 1) P, values C(t_j) */
	now = en + 10 * 104858;
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 10);
	for (j = 0; j < 10; j++) {
		x = t_entry64(t, j);
		KUNIT_EXPECT_EQ(test, x.sample_id, j);
		KUNIT_EXPECT_EQ(test, x.ts, e + (j + 1) * T_P);
		KUNIT_EXPECT_EQ(test, x.value,
				t_count(d, 0, t_ns((j + 1) * T_P)));
	}
	KUNIT_EXPECT_EQ(test, t_entry64(t, 10).ts, 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 0);
}

static void sim_test_sample_id_wrap16(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 4, 14, 0x0401);
	struct t_sim *t = test->priv;
	/* 65538 samples: j = 0..65537 */
	const u64 now = 6872157389ULL;
	struct t_entry x;

	KUNIT_EXPECT_EQ(test, (t_clock(now) - T_OFFSET) / T_P, 65538);
	t_dialect16(test);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, false, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	/* slot j mod 16: slot 0 = j 65536, slot 1 = j 65537, 15 = 65535 */
	x = t_entry16(t, 0);
	KUNIT_EXPECT_EQ(test, x.id, 0x0401);
	KUNIT_EXPECT_EQ(test, x.sample_id, 0);
	KUNIT_EXPECT_EQ(test, x.ts, (T_OFFSET + 65537 * T_P) & 0xffffffff);
	KUNIT_EXPECT_EQ(test, x.value, t_count(0x0401, 0, t_ns(65537 * T_P)));
	KUNIT_EXPECT_EQ(test, t_entry16(t, 1).sample_id, 1);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 15).sample_id, 0xffff);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 2).sample_id, 65522 & 0xffff);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 65538);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 65538 - 16);
}

static void sim_test_sample_id_wrap32(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 2, 14, P0);
	struct t_sim *t = test->priv;
	const u64 n = (1ULL << 32) + 2;		/* samples j = 0 .. 2^32 + 1 */
	const u64 now = T_AT(n);

	KUNIT_EXPECT_EQ(test, (t_clock(now) - T_OFFSET) / T_P, n);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 4, 0, T_BUF), 0);
	/* slot 0: j = 2^32, sample_id 0; slot 3: j = 2^32 - 1 */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, T_OFFSET + (n - 1) * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 1);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 0xffffffff);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, n);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, n - 4);
}

static void sim_test_timestamp_wrap32(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 4, 14, 0x0401);
	struct t_sim *t = test->priv;
	const u64 now = 5000000000ULL;		/* 5 s: 47683 samples */

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock_offset(t->fw), T_OFFSET);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, now), 1ULL << 32);
	t_dialect16(test);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, false, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now + 1000000, 16, 0, T_BUF), 0);
	/* j = 47682 in slot 2 before the wrap, j = 47683 in slot 3 after */
	KUNIT_EXPECT_EQ(test, t_entry16(t, 2).sample_id, 47682);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 2).ts, 0xffffd230);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 3).sample_id, 47683);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 3).ts, 4656);

	/* the same run in the 64-bit dialect keeps all 64 bits */
	mlx5_diag_sim_fw_destroy(t->fw);
	t->fw = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, t->fw);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now + 1000000, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).ts, 0xffffd230ULL);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, 0x100001230ULL);
}

static void sim_test_repetitive_overwrite(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 2, 14, P0);
	struct mlx5_diag_sim_fw *step;
	struct mlx5_diag_sim_stats a, b;
	struct t_sim *t = test->priv;
	u64 i;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	/* 3 samples, all read by a query of the 4 slots */
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(3), 4, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 3);
	/* j = 3..9: 7, 8, 9 take over the unread 3, 4, 5 */
	mlx5_diag_sim_fw_sync(t->fw, T_AT(10));
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 10);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 3);
	/* read slot 2 (j 6) only; j 10 and 11 take over j 6 (read), 7 */
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(10), 1, 2, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 6);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(12));
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 4);
	/* a query covering a slot counts it read even when wrapping */
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(12), 4, 3, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 11);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 8);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 10);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(16));
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 4);

	/* one jump and one step per period agree */
	step = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, step);
	swap(step, t->fw);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	for (i = 1; i <= 1000; i++) {
		mlx5_diag_sim_fw_sync(t->fw, T_AT(i));
		if (i % 97 == 0)
			KUNIT_ASSERT_EQ(test, t_query(test, T_AT(i), 1, i % 4,
						      T_BUF), 0);
	}
	swap(step, t->fw);
	mlx5_diag_sim_fw_destroy(t->fw);
	t->fw = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, t->fw);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	for (i = 97; i <= 1000; i += 97)
		KUNIT_ASSERT_EQ(test, t_query(test, T_AT(i), 1, i % 4, T_BUF),
				0);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(1000));
	mlx5_diag_sim_fw_get_stats(step, &a);
	mlx5_diag_sim_fw_get_stats(t->fw, &b);
	mlx5_diag_sim_fw_destroy(step);
	KUNIT_EXPECT_EQ(test, a.samples_produced, 1000);
	KUNIT_EXPECT_EQ(test, b.samples_produced, 1000);
	/*
	 * 1000 samples: 10 read by the queries (each reads j = i - 4), the
	 * last 4 still in the buffer, every other one taken over unread.
	 */
	KUNIT_EXPECT_EQ(test, a.samples_overwritten, 1000 - 10 - 4);
	KUNIT_EXPECT_EQ(test, b.samples_overwritten, a.samples_overwritten);
}

/*
 * Entries 0..@n - 1 of the last answer (one id, a configuration set at 0)
 * are samples 0..@n - 1, each stamped on the grid.
 */
static void t_expect_grid(struct kunit *test, u32 n)
{
	struct t_sim *t = test->priv;
	u32 j;

	for (j = 0; j < n; j++) {
		KUNIT_EXPECT_EQ(test, t_entry64(t, j).sample_id, j);
		KUNIT_EXPECT_EQ(test, t_entry64(t, j).ts,
				T_OFFSET + (j + 1) * T_P);
	}
}

static void sim_test_single_stops(struct kunit *test)
{
	const struct t_params p = SETP(SE, 1, 2, 14, P0);
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(3));
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 3);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(1000), 4, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 4);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 0);
	t_expect_grid(test, 4);
	/* still enabled (a restart re-sends SET), just full */
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	/* restart: sampling begins again at slot 0, new statistics */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(1000), true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(1000) + 104858, 4, 0, T_BUF),
			0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 1);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_returned, 1);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 1);	/* old run */
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 0);
}

/*
 * The lie sampling_stops 6: samples 0..5 are taken, then none while the
 * engine stays enabled, however long; none counted overwritten. Ended,
 * the engine takes the samples due since, as if late: all but a lap of
 * them overwritten.
 */
static void sim_test_sampling_stops(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 3, 14, P0);
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_LIE_SAMPLING_STOPS,
						       6), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(5), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 5);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(100000), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 6);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 0);
	t_expect_grid(test, 6);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 6).ts, 0);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	/* ended: the samples due since, as if late */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_lie(t->fw,
						       MLX5_DIAG_SIM_LIE_SAMPLING_STOPS,
						       0), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(100010), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 100010);
	/* all but the 8 left; the 6 read were not pending */
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten,
			100010 - 6 - 8);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 100009);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).ts, T_OFFSET + 100010 * T_P);
}

static void sim_test_disable(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 2, 14, P0);
	const struct t_params stop = { .num = 0 };
	const struct t_params off = { .flags = TF_CLEAR };
	struct t_sim *t = test->priv;
	u64 v;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(2), 4, 0, T_BUF), 0);
	v = t_entry64(t, 1).value;
	KUNIT_EXPECT_NE(test, v, 0);

	/* enable 0 without clear: stops, keeps the samples */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(2), true, &stop), 0);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(50), 4, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 2);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).value, v);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 1);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, T_AT(50), 16, 64), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x25, 1), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x00, 16), 1);

	/* disable = enable 0, clear 1, no sync: empties the buffer */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(50), true, &off), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(60), 4, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).value, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).ts, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).id, P0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 2);
}

static void sim_test_resize_resets(struct kunit *test)
{
	const struct t_params p4 = SETP(RE, 1, 4, 14, P0);
	const struct t_params p5 = SETP(RE, 1, 5, 14, P0);
	const struct t_params other = SETP(RE, 1, 5, 14, PORT_RX_BYTES(1));
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p4), 0);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(5));
	/* same size and list: samples stay until taken over */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(5), true, &p4), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(5) + 104858, 16, 0, T_BUF),
			0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, T_OFFSET +
			(T_AT(5) * 156250 / 1000000) + T_P);	/* new j 0 */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 3);	/* old j 3 */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, T_OFFSET + 4 * T_P);
	/* the old run's unread j 0 was taken over: not this run's loss */
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 1);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_returned, 1);

	/* rule 6: another log_num_of_samples resets the buffer */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(6), true, &p5), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(6), 32, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).value, 0);

	/* another counter list (same log_num_of_samples) too */
	mlx5_diag_sim_fw_sync(t->fw, T_AT(9));
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(9), true, &other), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(9), 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).id, PORT_RX_BYTES(1));
}

static void sim_test_on_demand(struct kunit *test)
{
	const u64 pk = 0x1160000c00000001ULL;	/* packets, link 1 */
	const struct t_params p = SETP(OE, 2, 4, 0, ICMC_HITS, pk);
	struct t_sim *t = test->priv;
	const u64 en = 3000, q1 = 2000000, q2 = 2500000;
	u64 e, c1, c2;

	KUNIT_ASSERT_EQ(test, t_set(test, en, true, &p), 0);
	e = t_clock(en);
	mlx5_diag_sim_fw_sync(t->fw, 10000000);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 0);
	KUNIT_EXPECT_EQ(test, t_query(test, q1, 0, 0, T_BUF), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_ZERO_SAMPLES);
	KUNIT_EXPECT_EQ(test, t_query(test, q1, 1, 0, 16 + 2 * 32 - 1), 0x51);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 0);

	/* time is monotonic: q1 < 10 ms seen above, so this runs at 10 ms */
	c1 = t_clock(10000000);
	KUNIT_ASSERT_EQ(test, t_query(test, q1, 5, 77, 16 + 2 * 32), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).id, ICMC_HITS);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, c1);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value,
			t_count(ICMC_HITS, 0, t_ns(c1 - e)));
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).id, pk);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).value,
			t_count(pk, 0, t_ns(c1 - e)));

	c2 = t_clock(10000000 + q2);
	KUNIT_ASSERT_EQ(test, t_query(test, 10000000 + q2, 1, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 1);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, c2);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value,
			t_count(ICMC_HITS, 0, t_ns(c2 - e)));
	/* statistic: the interval since the previous query */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).value,
			t_count(pk, 0, t_ns(c2 - e)) -
			t_count(pk, 0, t_ns(c1 - e)));
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).ts, 0);	/* one sample only */
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 2);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 0);
}

static void sim_test_query_wrap(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 8, 14, P0);
	struct t_sim *t = test->priv;
	u32 e;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	/* 300 samples: slots 0..43 hold j 256..299, 44..255 hold j 44..255 */
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(300), 1, 256, T_BUF), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SAMPLE_INDEX);
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(300), 257, 0, T_BUF), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_TOO_MANY_SAMPLES);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(300), 256, 128,
				      16 + 256 * 32), 0);
	for (e = 0; e < 256; e++) {
		u32 slot = (128 + e) % 256;
		u32 j = slot < 44 ? slot + 256 : slot;

		KUNIT_EXPECT_EQ(test, t_entry64(t, e).sample_id, j);
		KUNIT_EXPECT_EQ(test, t_entry64(t, e).ts,
				T_OFFSET + (j + 1) * T_P);
	}
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 44);
}

/* ---- traffic model ---- */

struct t_traffic {
	const char *name;
	u64 d;
	u32 dev;
	u64 t_prev;
	u64 t;
	bool delta;
	u32 wrap;
	u64 value;
};

/* Values from a transcription of part 3 outside the kernel tree. */
static const struct t_traffic t_traffic[] = {
	{ "port_rx_bytes p0 n0", 0x1020000100000000ULL, 0, 0, 1000000000,
	  false, 64, 22863867205ULL },
	{ "port_rx_packets p1 n1", 0x1020000300000001ULL, 1, 0, 1000000000,
	  false, 64, 459187665 },
	{ "port_prio_tx_bytes p1 q3", 0x1140000200000301ULL, 0, 0, 123456789,
	  false, 64, 1745630881 },
	{ "port_prio_rx_pause p0 q7", 0x1020000600000700ULL, 0, 0, 5000000,
	  false, 64, 230975 },
	{ "16-bit 0x0401 n1", 0x0401, 1, 0, 104857, false, 64, 3383 },
	/* one slot of weight 8: b = 1 + 0x2006 % 251 = 19 per us */
	{ "16-bit 0x2006 inside a slot", 0x2006, 0, 0, 65535, false, 64,
	  9576 },
	{ "function_tx_cqes f7", 0x10c0000500000007ULL, 0, 0, 1000000, false,
	  64, 30365 },
	{ "pcie_in_bytes l1", 0x1160000100000001ULL, 0, 0, 2000000, false, 64,
	  39947 },
	{ "stall ordering l1 tc5", 0x1160000a00050001ULL, 0, 0, 2000000, false,
	  64, 36175 },
	{ "icmc_accesses n1", 0x1180000100000000ULL, 1, 0, 777777, false, 64,
	  107997 },
	{ "delta", 0x1180000200000000ULL, 0, 1000000, 3000000, true, 64,
	  115087 },
	{ "wrap 64", 0x1180000200000000ULL, 0, 0, 100000000000ULL, false, 64,
	  5700000423ULL },
	{ "wrap 32", 0x1180000200000000ULL, 0, 0, 100000000000ULL, false, 32,
	  1405033127 },
	{ "wrap 32 delta", 0x1180000200000000ULL, 0, 0, 100000000000ULL, true,
	  32, 1405033127 },
	/* statistics describe [t_prev, t); L = 400 + 10 * link */
	{ "total latency", 0x1160000b00000001ULL, 1, 524288, 629145, false, 64,
	  37360 * 410 },
	{ "packets", 0x1160000c00000001ULL, 1, 524288, 629145, false, 64,
	  37360 },
	/* t >> 16 = 9: L + 100 + 9 */
	{ "max latency", 0x1160000d00000001ULL, 1, 524288, 629145, false, 64,
	  410 + 100 + 9 },
	/* t >> 16 = 18: L - 100 - 8 */
	{ "min latency", 0x1160000e00000001ULL, 1, 524288, 1200000, false, 64,
	  410 - 100 - 8 },
	{ "max latency idle", 0x1160000d00000001ULL, 1, 5, 5, false, 64, 0 },
	{ "min latency idle", 0x1160000e00000001ULL, 1, 5, 5, false, 64, 0 },
	{ "histogram bin 5", 0x1160000f00050001ULL, 0, 524288, 629145, false,
	  64, 2581 },
	/* b = 23, phase 8: weight 7; 23000 * 7 * 1000 / 8e6 */
	{ "histogram bin 0", 0x1160000f00000000ULL, 0, 0, 1000, false, 64,
	  20 },
	{ "statistic ignores wrap", 0x1160000c00000000ULL, 0, 0,
	  1000000000000ULL, false, 32, 230000000043ULL },
};

static void t_traffic_desc(const struct t_traffic *x, char *desc)
{
	strscpy(desc, x->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(t_traffic, t_traffic, t_traffic_desc);

static void sim_test_traffic(struct kunit *test)
{
	const struct t_traffic *x = test->param_value;
	bool stat = (x->d >> 32) >= 0x1160000b && (x->d >> 32) <= 0x1160000f;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_traffic_value(x->d, x->dev,
							  x->t_prev, x->t,
							  x->delta, x->wrap),
			x->value);
	/* the test's own transcription agrees, for counts and deltas */
	if ((x->d >> 32) == 0x1160000d || (x->d >> 32) == 0x1160000e)
		return;
	KUNIT_EXPECT_EQ(test, (t_count(x->d, x->dev, x->t) -
			       (x->delta || stat ?
				t_count(x->d, x->dev, x->t_prev) : 0)) &
			      (x->wrap == 32 && !stat ? U32_MAX : U64_MAX),
			x->value);
}

/* The traffic model through the engine: sync + clear and wrap 32. */
static void sim_test_engine_values(struct kunit *test)
{
	const u64 tot = 0x1160000b00000001ULL;
	const u64 pkt = 0x1160000c00000001ULL;
	const struct t_params p = SETP(RE | TF_SYNC | TF_CLEAR, 2, 4, 14,
				       PCIE_IN_BYTES(1), tot);
	struct t_sim *t = test->priv;
	u64 big;
	u32 j;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(6), 6, 0, T_BUF), 0);
	for (j = 0; j < 6; j++) {
		u64 t0 = t_ns(j * T_P), t1 = t_ns((j + 1) * T_P);

		KUNIT_EXPECT_EQ(test, t_entry64(t, 2 * j).value,
				t_count(PCIE_IN_BYTES(1), 0, t1) -
				t_count(PCIE_IN_BYTES(1), 0, t0));
		KUNIT_EXPECT_EQ(test, t_entry64(t, 2 * j + 1).value,
				(t_count(pkt, 0, t1) - t_count(pkt, 0, t0)) *
				410);
	}
	/* sample 5: t_prev = 524288 ns, t = 629145 ns: 24170 packets */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 11).value, 24170 * 410);

	/* wrap 32: a counter beyond 2^32 after 100 s, repetitive */
	mlx5_diag_sim_fw_destroy(t->fw);
	t->fw = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, t->fw);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_counter_wrap_bits(t->fw, 16),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_counter_wrap_bits(t->fw, 32),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_counter_wrap_bits(t->fw), 32);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true,
				    PSETP(RE, 1, 4, 14, ICMC_HITS)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, 100000000000ULL, 16, 0, T_BUF), 0);
	j = (t_clock(100000000000ULL) - T_OFFSET) / T_P - 1;	/* last j */
	big = t_count(ICMC_HITS, 0, t_ns((u64)(j + 1) * T_P));
	KUNIT_EXPECT_GT(test, big, 1ULL << 32);
	KUNIT_EXPECT_EQ(test, t_entry64(t, j % 16).sample_id, j);
	KUNIT_EXPECT_EQ(test, t_entry64(t, j % 16).value, big & 0xffffffff);
}

/* Engine values on another device index: 13 n in the rate. */
static void sim_test_device_index(struct kunit *test)
{
	struct t_sim *t = test->priv;

	mlx5_diag_sim_fw_destroy(t->fw);
	t->fw = mlx5_diag_sim_fw_create(3);
	KUNIT_ASSERT_NOT_NULL(test, t->fw);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(1), 1, 0, T_BUF), 0);
	/* b = 1 + (40 + 13 n) % 509 with n = 3, t = 104857 ns */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value, 4524415);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value,
			t_count(PORT_RX_BYTES(0), 3, 104857));
}

/* ---- clock and capabilities changes ---- */

static void sim_test_clock(struct kunit *test)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;
	u64 c;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 0), T_OFFSET);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 1000000000),
			T_OFFSET + 156250000);
	/* hours of uptime do not overflow */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw,
						     3600000000000000ULL),
			T_OFFSET + 562500000000000ULL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_clock_offset(t->fw, 5), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 64), 15);

	/* a frequency change keeps the clock continuous */
	c = mlx5_diag_sim_fw_clock(t->fw, 2000000);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	caps->freq_khz = 1000000;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 2000000, caps),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 2000000), c);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 2000100), c + 100);
	t_hdr(t, 0x100, 0x1);
	KUNIT_ASSERT_EQ(test, t_run(test, 2000100, 16, 16 + 512), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x4c0, 32), 1000);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x4e0, 32), 1000000);

	/* engine enabled: clock and geometry are locked */
	KUNIT_ASSERT_EQ(test, t_set(test, 2000100, true,
				    PSETP(RE, 1, 4, 20, P0)), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_clock_offset(t->fw, 0),
			-EBUSY);
	caps->freq_khz = 2000;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 2000100, caps),
			-EBUSY);
	caps->freq_khz = 1000000;
	caps->log_max_samples = 12;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 2000100, caps),
			-EBUSY);
	caps->log_max_samples = 13;
	caps->dialect64 = false;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 2000100, caps),
			-EBUSY);
	/* other caps change under a running engine */
	caps->dialect64 = true;
	caps->num_ports = 4;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 2000100, caps),
			0);
	KUNIT_ASSERT_EQ(test, t_set(test, 2000100, true, &(struct t_params){}),
			0);
	/* a log_max_samples change resets the engine and resizes */
	caps->log_max_samples = 3;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 2000100, caps),
			0);
	KUNIT_EXPECT_EQ(test, t_query(test, 2000100, 1, 0, T_BUF), 0x4);
	KUNIT_EXPECT_EQ(test, t_set(test, 2000100, true, PSETP(RE, 1, 4, 14, P0)),
			0x3);
	KUNIT_EXPECT_EQ(test, t_set(test, 2000100, true,
				    PSETP(RE, 2, 2, 14, P0)), 0);
	KUNIT_EXPECT_EQ(test, t_set(test, 2000100, true,
				    PSETP(RE, 3, 2, 14, P0)), 0x3);
}

static void sim_test_time_monotonic(struct kunit *test)
{
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 2, 14, P0)), 0);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(3));
	KUNIT_ASSERT_EQ(test, t_query(test, 0, 4, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 3);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).sample_id, 2);
}

/* ---- foreign owner and fault injection ---- */

static void sim_test_foreign_owner(struct kunit *test)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;

	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_foreign_owner(t->fw));
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, 1000), 0);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_foreign_owner(t->fw));
	KUNIT_EXPECT_EQ(test, t_stats(test).commands, 0);
	/* what the transport then sees */
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 2000, 16, 8 + 24 + 8), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x00, 16), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x18, 8), 13);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x20, 7), 0x22);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), 14);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS, 64), P0);
	/* the transport's own SET takes the engine back */
	KUNIT_ASSERT_EQ(test, t_set(test, 3000, true, PSETP(RE, 1, 4, 14, P0)), 0);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_foreign_owner(t->fw));
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, 4000), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, 5000, true, &(struct t_params){
					.flags = TF_CLEAR }), 0);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_foreign_owner(t->fw));
	/* the other agent lets go */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, 6000), 0);
	mlx5_diag_sim_fw_foreign_disable(t->fw, 7000);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_foreign_owner(t->fw));
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	/* ... but never stops a configuration it does not own */
	KUNIT_ASSERT_EQ(test, t_set(test, 8000, true, PSETP(RE, 1, 4, 14, P0)), 0);
	mlx5_diag_sim_fw_foreign_disable(t->fw, 9000);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));

	/* 16-bit dialect: the first listed counter id */
	KUNIT_ASSERT_EQ(test, t_set(test, 9000, true, &(struct t_params){}), 0);
	t_dialect16(test);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, 9000), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 9000, 16, 8 + 24 + 4), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS, 32), 0x0401);
	mlx5_diag_sim_fw_foreign_disable(t->fw, 9000);

	/* nothing listed: the other agent is refused like anyone */
	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	caps->nr_ids = 0;
	caps->repetitive = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 9000, caps), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, 9000),
			0x3);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_foreign_owner(t->fw));
}

static void sim_test_fail_next(struct kunit *test)
{
	struct t_sim *t = test->priv;
	u32 count, synd;
	u8 status;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_fail_next(t->fw, 1, 0, 0),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_fail_next(t->fw, 2, 0x6,
							 0x1234), 0);
	mlx5_diag_sim_fw_get_fail_next(t->fw, &count, &status, &synd);
	KUNIT_EXPECT_EQ(test, count, 2);
	KUNIT_EXPECT_EQ(test, status, 0x6);
	KUNIT_EXPECT_EQ(test, synd, 0x1234);
	/* failed commands have no effect */
	KUNIT_EXPECT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0x6);
	KUNIT_EXPECT_EQ(test, t_synd(t), 0x1234);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 1024), 0x6);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x4e0, 32), 0);
	mlx5_diag_sim_fw_get_fail_next(t->fw, &count, &status, &synd);
	KUNIT_EXPECT_EQ(test, count, 0);
	KUNIT_EXPECT_EQ(test, status, 0);
	KUNIT_EXPECT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	KUNIT_EXPECT_EQ(test, t_stats(test).commands, 3);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands_failed, 2);
	/* cancel */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_fail_next(t->fw, 5, 0x1, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_fail_next(t->fw, 0, 0, 0), 0);
	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 1024), 0);
}

struct t_text {
	const char *in;
	int ret;
	u32 count;
	u8 status;
	u32 syndrome;
};

static const struct t_text t_fail_texts[] = {
	{ "2 3", 0, 2, 3, 0 },
	{ "2 3\n", 0, 2, 3, 0 },
	{ "1 0x51 0xdeadbeef\n", 0, 1, 0x51, 0xdeadbeef },
	{ " 4\t255 7 ", 0, 4, 255, 7 },
	{ "0", 0, 0, 0, 0 },
	{ "0\n", 0, 0, 0, 0 },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "1", -EINVAL },
	{ "1 0", -EINVAL },
	{ "1 256", -EINVAL },
	{ "1 2 3 4", -EINVAL },
	{ "0 5", -EINVAL },
	{ "x", -EINVAL },
	{ "1 2 x", -EINVAL },
	{ "-1 2", -EINVAL },
	{ "4294967296 2", -EINVAL },
	{ "1 2 4294967296", -EINVAL },
	{ "1 000000000000000000000000000002", -EINVAL },
};

static void sim_test_fail_next_text(struct kunit *test)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(t_fail_texts); i++) {
		const struct t_text *x = &t_fail_texts[i];
		u32 count = 99, synd = 99;
		u8 status = 99;
		int ret;

		ret = mlx5_diag_sim_parse_fail_next(x->in, &count, &status,
						    &synd);
		KUNIT_EXPECT_EQ_MSG(test, ret, x->ret, "\"%s\"", x->in);
		if (ret || x->ret)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, count, x->count, "\"%s\"", x->in);
		KUNIT_EXPECT_EQ_MSG(test, status, x->status, "\"%s\"", x->in);
		KUNIT_EXPECT_EQ_MSG(test, synd, x->syndrome, "\"%s\"", x->in);
	}
}

/* ---- capabilities as text ---- */

static int t_cap_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < mlx5_diag_sim_cap_count(); i++)
		if (!strcmp(mlx5_diag_sim_cap_name(i), name))
			return i;
	return -1;
}

struct t_cap_text {
	const char *cap;
	const char *in;
	int ret;
	const char *out;	/* what reads back on success */
};

static const struct t_cap_text t_cap_texts[] = {
	{ "dialect", "16\n", 0, "16\n" },
	{ "dialect", "64", 0, "64\n" },
	{ "dialect", "32", -EINVAL },
	{ "dialect", "", -EINVAL },
	{ "kinds", "0x11800001, 0x10200001\n", 0, "0x11800001 0x10200001\n" },
	{ "kinds", "11600001", 0, "0x11600001\n" },
	{ "kinds", "\n", 0, "\n" },
	{ "kinds", "0x12345678", -EINVAL },
	{ "kinds", "0x11800001 0x11800001", -EINVAL },
	{ "kinds", "0x1180000100000000", -EINVAL },
	{ "kinds", "zz", -EINVAL },
	{ "sync_kinds", "0x10200001", 0, "0x10200001\n" },
	{ "sync_kinds", "0x10200008", -EINVAL },
	{ "counter_ids", "0x2c04 401", 0, "0x2c04 0x0401\n" },
	{ "counter_ids", "0x10000", -EINVAL },
	{ "counter_ids", "1 1", -EINVAL },
	{ "sync_counter_ids", "0x1001", 0, "0x1001\n" },
	{ "sync_counter_ids", "0x1001,,0x2001", 0, "0x1001 0x2001\n" },
	{ "max_num_data_ids", "256", 0, "256\n" },
	{ "max_num_data_ids", "0", -EINVAL },
	{ "max_num_data_ids", "257", -EINVAL },
	{ "log_max_samples", "16", 0, "16\n" },
	{ "log_max_samples", "0", 0, "0\n" },
	{ "log_max_samples", "17", -EINVAL },
	{ "log_min_sample_period", "35\n", 0, "35\n" },
	{ "log_min_sample_period", "36", -EINVAL },
	{ "device_frequency_khz", "0x3e8", 0, "1000\n" },
	{ "device_frequency_khz", "0", -EINVAL },
	{ "device_frequency_khz", "10000001", -EINVAL },
	{ "single", "0", 0, "0\n" },
	{ "single", "2", -EINVAL },
	{ "repetitive", "1 1", -EINVAL },
	{ "on_demand", "yes", -EINVAL },
	{ "sync_start", "0", 0, "0\n" },
	{ "data_clear", "-1", -EINVAL },
	{ "rtc_timestamp", "0\n", 0, "0\n" },
	{ "rtc_timestamp", "2", -EINVAL },
	{ "num_ports", "255", 0, "255\n" },
	{ "num_ports", "256", -EINVAL },
	{ "num_hosts", "4", 0, "4\n" },
	{ "num_functions", "65535", 0, "65535\n" },
	{ "num_functions", "65536", -EINVAL },
	{ "num_pcie_links", "", -EINVAL },
};

static void sim_test_caps_text(struct kunit *test)
{
	struct mlx5_diag_sim_caps *caps, *orig;
	char *buf;
	u32 i;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	orig = kunit_kzalloc(test, sizeof(*orig), GFP_KERNEL);
	buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	KUNIT_ASSERT_NOT_NULL(test, orig);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_cap_count(), 19);
	KUNIT_EXPECT_NULL(test, mlx5_diag_sim_cap_name(19));
	mlx5_diag_sim_default_caps(caps);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_caps_validate(caps), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_cap_show(caps,
						     t_cap_index("counter_ids"),
						     buf, 4096), 91);
	KUNIT_EXPECT_STREQ(test, buf,
			   "0x0401 0x0402 0x0403 0x0406 0x0409 0x040a 0x040b 0x1001 0x2001 0x2006 0x2c02 0x2c03 0x2c04\n");
	mlx5_diag_sim_cap_show(caps, t_cap_index("sync_counter_ids"), buf,
			       4096);
	KUNIT_EXPECT_STREQ(test, buf,
			   "0x0401 0x0402 0x0403 0x0406 0x0409 0x040a 0x040b\n");
	mlx5_diag_sim_cap_show(caps, t_cap_index("kinds"), buf, 4096);
	KUNIT_EXPECT_EQ(test, strlen(buf), 41 * 11);
	KUNIT_EXPECT_EQ(test, strncmp(buf, "0x10200001 0x10200002 ", 22), 0);
	mlx5_diag_sim_cap_show(caps, t_cap_index("device_frequency_khz"), buf,
			       4096);
	KUNIT_EXPECT_STREQ(test, buf, "156250\n");
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_cap_show(caps, 0, buf, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_cap_show(caps, 19, buf, 4096),
			-EINVAL);

	for (i = 0; i < ARRAY_SIZE(t_cap_texts); i++) {
		const struct t_cap_text *x = &t_cap_texts[i];
		int cap = t_cap_index(x->cap);
		int ret;

		KUNIT_ASSERT_GE_MSG(test, cap, 0, "%s", x->cap);
		mlx5_diag_sim_default_caps(caps);
		*orig = *caps;
		ret = mlx5_diag_sim_cap_store(caps, cap, x->in);
		KUNIT_EXPECT_EQ_MSG(test, ret, x->ret, "%s \"%s\"", x->cap,
				    x->in);
		if (ret) {
			KUNIT_EXPECT_EQ_MSG(test, memcmp(caps, orig,
							 sizeof(*caps)), 0,
					    "%s changed on error", x->cap);
			continue;
		}
		KUNIT_EXPECT_EQ(test, mlx5_diag_sim_caps_validate(caps), 0);
		KUNIT_EXPECT_GT(test, mlx5_diag_sim_cap_show(caps, cap, buf,
							     4096), 0);
		KUNIT_EXPECT_STREQ_MSG(test, buf, x->out, "%s", x->cap);
	}

	/* whole-set validation */
	mlx5_diag_sim_default_caps(caps);
	caps->nr_kinds = 42;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_caps_validate(caps), -EINVAL);
	mlx5_diag_sim_default_caps(caps);
	caps->ids[1] = caps->ids[0];
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_caps_validate(caps), -EINVAL);
	mlx5_diag_sim_default_caps(caps);
	caps->freq_khz = 0;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_caps_validate(caps), -EINVAL);
	mlx5_diag_sim_default_caps(caps);
	caps->kinds[0] = 0x10200007;
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_caps_validate(caps), -EINVAL);
}

static void sim_test_status_errno(struct kunit *test)
{
	static const struct { u8 st; int err; } map[] = {
		{ 0x0, 0 }, { 0x1, -EIO }, { 0x2, -EINVAL }, { 0x3, -EINVAL },
		{ 0x4, -EIO }, { 0x5, -EINVAL }, { 0x6, -EBUSY },
		{ 0x8, -ENOMEM }, { 0x9, -EINVAL }, { 0xa, -EINVAL },
		{ 0xf, -EAGAIN }, { 0x10, -EINVAL }, { 0x30, -EINVAL },
		{ 0x40, -EINVAL }, { 0x50, -EIO }, { 0x51, -EIO },
		{ 0x7, -EIO }, { 0xff, -EIO },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		KUNIT_EXPECT_EQ_MSG(test, mlx5_diag_sim_status_to_errno(map[i].st),
				    map[i].err, "status 0x%x", map[i].st);
}

/* ---- profiles ---- */

static void t_set_profile(struct kunit *test, enum mlx5_diag_sim_profile p)
{
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_profile(t->fw, p), 0);
}

static void sim_test_public_caps(struct kunit *test)
{
	struct t_sim *t = test->priv;
	const u32 c = 0x80, union_len = 16 + 4096;
	u32 i;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_profile(t->fw),
			MLX5_DIAG_SIM_MODEL64);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_profile(t->fw, 2), -EINVAL);
	t_set_profile(test, MLX5_DIAG_SIM_PUBLIC);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_profile(t->fw),
			MLX5_DIAG_SIM_PUBLIC);

	/* mlx5_core passes the whole capability union; less is refused */
	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 16 + 512), 0x51);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_SHORT_OUTPUT);
	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, union_len - 1), 0x51);
	t_hdr(t, 0x100, 0x1);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, union_len), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x183, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x280, 16), 13);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x4e0, 32), 156250);
	t_hdr(t, 0x100, 0x1b);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, (0x80 + 0x200 + 32 * 13) / 8),
			0x51);
	t_hdr(t, 0x100, 0x1b);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, union_len - 1), 0x51);
	t_hdr(t, 0x100, 0x1b);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, union_len), 0);
	/* the public fields ... */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x18, 8), 13);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x20, 2), 3);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x38, 8), 14);
	/* ... and every modelled one reserved: 0 */
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x24, 20), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x40, 64), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x80, 64), 0);
	for (i = 0; i < 13; i++)
		KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 32 * i, 1),
				i < 7);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 32 * 12 + 0x10, 16),
			0x2c04);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x200 + 32 * 13, 32), 0);

	/* back to the model: the 64-bit dialect and short outputs again */
	t_set_profile(test, MLX5_DIAG_SIM_MODEL64);
	t_hdr(t, 0x100, 0x1);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 16 + 512), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, c + 0x280, 16), 41);
}

static void t_public_caps(struct mlx5_diag_sim_caps *c)
{
	/* what the public profile must ignore, and data clear it obeys */
	c->on_demand = true;
	c->sync_start = false;
	c->data_clear = false;
}

static void sim_test_public_rules(struct kunit *test)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	t_public_caps(caps);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);
	t_set_profile(test, MLX5_DIAG_SIM_PUBLIC);

	/* on demand: nothing tells a driver it exists */
	KUNIT_EXPECT_EQ(test, t_set(test, 0, false, PSETP(OE, 1, 4, 0, 0x2006)),
			0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_ON_DEMAND);
	/*
	 * sync: the per-counter bits alone decide; clear: caps data_clear,
	 * which the public capabilities do not report
	 */
	KUNIT_EXPECT_EQ(test, t_set(test, 0, false,
				    PSETP(RE | TF_SYNC | TF_CLEAR, 2, 4, 14,
					  0x0401, 0x040b)), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_DATA_CLEAR);
	caps->data_clear = true;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);
	t_set_profile(test, MLX5_DIAG_SIM_PUBLIC);
	KUNIT_EXPECT_EQ(test, t_set(test, 0, false,
				    PSETP(RE | TF_SYNC | TF_CLEAR, 2, 4, 14,
					  0x0401, 0x040b)), 0);
	KUNIT_EXPECT_EQ(test, t_set(test, 0, false,
				    PSETP(RE | TF_SYNC, 2, 4, 14, 0x0401,
					  0x1001)), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_SYNC);
	KUNIT_EXPECT_EQ(test, t_set(test, 0, false,
				    PSETP(RE | TF_CLEAR, 1, 4, 14, 0x0401)), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_CLEAR_NO_SYNC);
	KUNIT_EXPECT_EQ(test, t_set(test, 0, false,
				    PSETP(RE | TF_RTC, 1, 4, 14, 0x0401)), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_RTC);
	/* the 64-bit caps stay set but the device speaks 16 bits */
	KUNIT_EXPECT_TRUE(test, caps->dialect64);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, false,
				    PSETP(RE, 1, 4, 14, 0x2006)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(1), 1, 0, 16 + 16), 0);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 0).id, 0x2006);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 0).value,
			t_count(0x2006, 0, t_ns(T_P)));
	/* no profile change under a running engine */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_profile(t->fw,
							   MLX5_DIAG_SIM_MODEL64),
			-EBUSY);
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(1), false,
				    &(struct t_params){ .flags = TF_CLEAR }), 0);
	/* firmware that has on demand all the same: a sample a query */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND,
							   1), 0);
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(1), false,
				    PSETP(OE, 1, 4, 0, 0x2006)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(1) + 6400, 1, 0, 16 + 16), 0);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 0).id, 0x2006);
	KUNIT_EXPECT_EQ(test, t_entry16(t, 0).value,
			t_count(0x2006, 0,
				t_ns(t_clock(T_AT(1) + 6400) - t_clock(T_AT(1)))));
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(1), false,
				    PSETP(OE | TF_SYNC, 1, 4, 0, 0x0401)), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_ON_DEMAND_COMBO);
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(1), false,
				    &(struct t_params){ .flags = TF_CLEAR }), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND,
							   0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, T_AT(1)),
			0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, T_AT(1), 16, 8 + 24 + 4), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_IDS, 32), 0x0401);
	mlx5_diag_sim_fw_foreign_disable(t->fw, T_AT(1));
	t_set_profile(test, MLX5_DIAG_SIM_MODEL64);
	/* the model honours its own bits again */
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(1), true,
				    PSETP(RE | TF_SYNC, 1, 4, 14, ICMC_HITS)),
			0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_SYNC_START);
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(1), true,
				    PSETP(OE, 1, 4, 0, ICMC_HITS)), 0);
}

/* ---- num_of_samples: samples or entries ---- */

static void sim_test_num_samples_unit(struct kunit *test)
{
	static const u64 ids[] = { P0, ICMC_HITS, PCIE_IN_BYTES(1) };
	const struct t_params p = SETP(RE, 3, 2, 14, P0, ICMC_HITS,
				       PCIE_IN_BYTES(1));
	struct t_sim *t = test->priv;
	u32 e;

	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_entries_unit(t->fw));
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	/* 5 samples: slot 0 holds j 4, slots 1..3 hold j 1..3 */
	mlx5_diag_sim_fw_sync(t->fw, T_AT(5));

	/* samples (OFED): 2 samples from slot 3 are 6 entries */
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(5), 2, 3, 16 + 6 * 32 - 1),
			0x51);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(5), 2, 3, T_BUF), 0);
	for (e = 0; e < 6; e++) {
		KUNIT_EXPECT_EQ(test, t_entry64(t, e).id, ids[e % 3]);
		KUNIT_EXPECT_EQ(test, t_entry64(t, e).sample_id, e < 3 ? 3 : 4);
	}
	KUNIT_EXPECT_EQ(test, t_entry64(t, 6).id, 0);
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(5), 5, 0, T_BUF), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_TOO_MANY_SAMPLES);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_returned, 2);

	/* entries (mlx5ctl): 5 entries from slot 1 end inside slot 2 */
	mlx5_diag_sim_fw_set_entries_unit(t->fw, true);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_entries_unit(t->fw));
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(5), 5, 1, 16 + 5 * 32 - 1),
			0x51);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(5), 5, 1, 16 + 5 * 32), 0);
	for (e = 0; e < 5; e++) {
		KUNIT_EXPECT_EQ(test, t_entry64(t, e).id, ids[e % 3]);
		KUNIT_EXPECT_EQ(test, t_entry64(t, e).sample_id, e < 3 ? 1 : 2);
		KUNIT_EXPECT_EQ(test, t_entry64(t, e).value,
				t_count(ids[e % 3], 0,
					t_ns((e < 3 ? 2 : 3) * T_P)));
	}
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_returned, 4);
	/* every entry of the buffer, wrapping from slot 3; one more is refused */
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(5), 12, 3, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 3);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 4);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 11).sample_id, 2);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 11).id, PCIE_IN_BYTES(1));
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(5), 13, 0, T_BUF), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_TOO_MANY_SAMPLES);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_returned, 4);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 5);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_overwritten, 1);

	/* on demand: one whole sample whatever the unit */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(5), true,
				    PSETP(OE, 3, 2, 0, P0, ICMC_HITS,
					  PCIE_IN_BYTES(1))), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(6), 1, 0, 16 + 3 * 32), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).id, PCIE_IN_BYTES(1));
}

/* ---- time: manual time, drift, steps, sample times ---- */

static void sim_test_manual_time(struct kunit *test)
{
	struct mlx5_diag_sim_time tm;

	mlx5_diag_sim_time_init(&tm, 5000);
	KUNIT_EXPECT_FALSE(test, tm.manual);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 5000), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 8000), 3000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_to_host(&tm, 3000), 8000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_advance(&tm, 10), -EINVAL);

	/* manual: frozen where it was, moved only by advance */
	mlx5_diag_sim_time_set_manual(&tm, 9000, true);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 9000), 4000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 99999), 4000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_to_host(&tm, 4000), 4000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_advance(&tm, 1000000), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 0), 1004000);
	mlx5_diag_sim_time_set_manual(&tm, 123456, true);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 0), 1004000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_advance(&tm, U64_MAX),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 0), 1004000);

	/* running again: on from where it stood, never backwards */
	mlx5_diag_sim_time_set_manual(&tm, 200000, false);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 200000), 1004000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_now(&tm, 200500), 1004500);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_time_to_host(&tm, 1004500), 200500);
}

/*
 * Exact to the clock where a product of ns and rate passes 2^64: the
 * default rate 10^12 - 1 ns in (156249999999.84 clocks), the largest one
 * (10^7 kHz, +1000 ppm) at 10^12 - 1 and 4 * 10^12 - 1 ns, and back from
 * a clock whose remainder of a 10^12 ns stretch is nearly the rate:
 * sample j = 1221923827 is due at oscillator 1221923828 * 2^14 =
 * 20019999997952, first read at ceil(that * 10^12 / rate) ns.
 */
static void sim_test_clock_exact(struct kunit *test)
{
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;
	u64 ns, clock;
	int ret;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 999999999999ULL),
			T_OFFSET + 156249999999ULL);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	caps->freq_khz = MLX5_DIAG_SIM_MAX_FREQ_KHZ;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);
	ret = mlx5_diag_sim_fw_set_drift_ppm(t->fw, 0,
					     MLX5_DIAG_SIM_MAX_DRIFT_PPM);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 999999999999ULL),
			T_OFFSET + 10009999999989ULL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 3999999999999ULL),
			T_OFFSET + 40039999999989ULL);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 1221923827,
							   &ns, &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, 1999999999796ULL);
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + 20019999997952ULL);
}

static void sim_test_drift(struct kunit *test)
{
	struct t_sim *t = test->priv;
	u64 ns, clock;
	u32 j;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_drift_ppm(t->fw), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 0, 1001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 0, -1001),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 0, -1000),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 1000000000),
			T_OFFSET + 156093750);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 0, 1000),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_drift_ppm(t->fw), 1000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 1000000000),
			T_OFFSET + 156406250);
	/* a change keeps the clock and its fraction of a clock: 156.5626 */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 1001),
			T_OFFSET + 156);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 1001, -333),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 1001),
			T_OFFSET + 156);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, 1000000007),
			T_OFFSET + 156197970);

	/* sampling follows the device: +1000 ppm, periods of 104752.8 ns */
	mlx5_diag_sim_fw_destroy(t->fw);
	t->fw = mlx5_diag_sim_fw_create(0);
	KUNIT_ASSERT_NOT_NULL(test, t->fw);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 0, 1000),
			0);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, 104753);
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + T_P);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 2, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, 314259);
	/* sample j is taken exactly at its time, not a nanosecond before */
	for (j = 0; j < 12; j++) {
		KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, j,
								   &ns, &clock),
				0);
		mlx5_diag_sim_fw_sync(t->fw, ns - 1);
		KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, j);
		mlx5_diag_sim_fw_sync(t->fw, ns);
		KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, j + 1);
		KUNIT_EXPECT_EQ(test, clock, T_OFFSET + (j + 1) * T_P);
	}
	/* device time counts the traffic: t = P clocks = 104857 ns */
	KUNIT_ASSERT_EQ(test, t_query(test, ns, 1, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value,
			t_count(P0, 0, t_ns(T_P)));
	/* drift changed while sampling: later samples at the new rate */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, ns + 10,
							     -1000), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 11, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, 1257035);	/* unchanged: already taken */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 12, &ns,
							   &clock), 0);
	mlx5_diag_sim_fw_sync(t->fw, ns - 1);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 12);
	mlx5_diag_sim_fw_sync(t->fw, ns);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 13);
}

/*
 * Engine time under drift, as part 3 writes the oscillator: the fraction
 * of a clock a drift change carries counts. Created at 0 with no drift, at
 * 1001 ns the oscillator reads 5005 / 32 = 156 clocks and 13 / 32 of one;
 * from there -250 ppm runs 156250 * 0.99975 / 10^6 = 3999 / 25600 clocks a
 * nanosecond, so 13 / 32 is 10400 / 25600. An on-demand query's sample
 * covers that engine time exactly; the prediction that drops the fraction
 * is a clock short at 1000000003 ns.
 */
static void sim_test_engine_time(struct kunit *test)
{
	struct t_sim *t = test->priv;
	const u64 q = 1000000003, en = 5000;
	u64 osc_q, osc_en, clocks, ns;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_engine_time(t->fw, 0, &clocks,
							   &ns), -ENODATA);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_drift_ppm(t->fw, 1001, -250),
			0);
	KUNIT_ASSERT_EQ(test, t_set(test, en, true, PSETP(OE, 1, 4, 0,
							  ICMC_HITS)), 0);
	osc_en = 156 + (10400 + (en - 1001) * 3999) / 25600;
	osc_q = 156 + (10400 + (q - 1001) * 3999) / 25600;
	KUNIT_EXPECT_EQ(test, osc_q, 156210938);
	KUNIT_EXPECT_EQ(test, 156 + (q - 1001) * 3999 / 25600, osc_q - 1);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_engine_time(t->fw, en, &clocks,
							   &ns), 0);
	KUNIT_EXPECT_EQ(test, clocks, 0);
	KUNIT_EXPECT_EQ(test, ns, 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_engine_time(t->fw, q, &clocks,
							   &ns), 0);
	KUNIT_EXPECT_EQ(test, clocks, osc_q - osc_en);
	KUNIT_EXPECT_EQ(test, ns, t_ns(osc_q - osc_en));
	KUNIT_EXPECT_EQ(test, clocks, mlx5_diag_sim_fw_clock(t->fw, q) -
			mlx5_diag_sim_fw_clock(t->fw, en));
	KUNIT_ASSERT_EQ(test, t_query(test, q, 1, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value, t_count(ICMC_HITS, 0, ns));
	/* not before the last command's time: time never runs backwards */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_engine_time(t->fw, en, &clocks,
							   &ns), 0);
	KUNIT_EXPECT_EQ(test, clocks, osc_q - osc_en);
	/* disabled: no engine time */
	KUNIT_ASSERT_EQ(test, t_set(test, q, true,
				    &(const struct t_params){ .flags = TF_CLEAR }),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_engine_time(t->fw, q, &clocks,
							   &ns), -ENODATA);
}

static void sim_test_clock_step(struct kunit *test)
{
	struct t_sim *t = test->priv;
	u64 ns, clock;
	u32 j;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, PSETP(RE, 1, 4, 14, P0)), 0);
	/* +1000 clocks after sample 2 was taken */
	mlx5_diag_sim_fw_clock_step(t->fw, T_AT(3) + 10, 1000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, T_AT(3) + 10),
			t_clock(T_AT(3) + 10) + 1000);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock_offset(t->fw), T_OFFSET);
	/* -2^40: the clock is modulo 2^64 */
	mlx5_diag_sim_fw_clock_step(t->fw, T_AT(5) + 10, -(1LL << 40));
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(8), 8, 0, T_BUF), 0);
	for (j = 0; j < 8; j++) {
		u64 want = T_OFFSET + (j + 1) * T_P;

		if (j >= 3)
			want += 1000;
		if (j >= 5)
			want -= 1ULL << 40;
		KUNIT_EXPECT_EQ_MSG(test, t_entry64(t, j).ts, want, "j %u", j);
		/* the schedule did not move */
		KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, j,
								   &ns, &clock),
				0);
		KUNIT_EXPECT_EQ(test, ns, T_AT(j + 1));
		KUNIT_EXPECT_EQ(test, clock, want);
		KUNIT_EXPECT_EQ(test, t_entry64(t, j).value,
				t_count(P0, 0, t_ns((j + 1) * T_P)));
	}
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_clock(t->fw, T_AT(8)),
			t_clock(T_AT(8)) + 1000 - (1ULL << 40));
}

static void sim_test_sample_time(struct kunit *test)
{
	const u64 en = 1000000;
	struct t_sim *t = test->priv;
	u64 ns = 0, clock = 0;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), -ENODATA);
	KUNIT_ASSERT_EQ(test, t_set(test, en, true, PSETP(OE, 1, 4, 0, P0)), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), -ENODATA);
	KUNIT_ASSERT_EQ(test, t_set(test, en, true, PSETP(SE, 1, 2, 14, P0)), 0);
	/* enabled at clock E = offset + 156250: sample 0 due at E + P */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, en + 104858);
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + 156250 + T_P);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 3, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, en + T_AT(4));
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + 156250 + 4 * T_P);
	/* a single run of 4 samples never takes sample 4 */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 4, &ns,
							   &clock), -ENODATA);
	KUNIT_ASSERT_EQ(test, t_set(test, en, true, PSETP(RE, 1, 2, 35, P0)), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 1ULL << 40,
							   &ns, &clock),
			-ERANGE);
	KUNIT_ASSERT_EQ(test, t_set(test, en, true,
				    &(struct t_params){ .flags = TF_CLEAR }), 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), -ENODATA);
}

/* ---- statistics per configuration ---- */

static void t_expect_stats(struct kunit *test, u64 produced, u64 returned,
			   u64 overwritten, u64 discarded, u64 configs)
{
	struct mlx5_diag_sim_stats st = t_stats(test);

	KUNIT_EXPECT_EQ(test, st.samples_produced, produced);
	KUNIT_EXPECT_EQ(test, st.samples_returned, returned);
	KUNIT_EXPECT_EQ(test, st.samples_overwritten, overwritten);
	KUNIT_EXPECT_EQ(test, st.samples_discarded, discarded);
	KUNIT_EXPECT_EQ(test, st.configs, configs);
}

static void sim_test_stats(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 2, 14, P0);
	struct t_sim *t = test->priv;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	/* 6 samples in 4 slots: j 0, 1 taken over unread */
	mlx5_diag_sim_fw_sync(t->fw, T_AT(6));
	t_expect_stats(test, 6, 0, 2, 0, 1);
	/* slot 2 (j 2) and slot 3 (j 3) returned, twice: counted once */
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(6), 2, 2, T_BUF), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(6), 1, 3, T_BUF), 0);
	t_expect_stats(test, 6, 2, 2, 0, 1);
	/* j 6, 7 take over returned samples: no loss */
	mlx5_diag_sim_fw_sync(t->fw, T_AT(8));
	t_expect_stats(test, 8, 2, 2, 0, 1);
	/* stop keeps the samples and the statistics */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(8), true,
				    &(struct t_params){ .log_num = 2 }), 0);
	t_expect_stats(test, 8, 2, 2, 0, 2);
	/* disable empties the buffer: the 4 unreturned are discarded */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(9), true,
				    &(struct t_params){ .flags = TF_CLEAR }), 0);
	t_expect_stats(test, 8, 2, 2, 4, 3);

	/* a new configuration starts from zero, configs counts on */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(10), true, &p), 0);
	t_expect_stats(test, 0, 0, 0, 0, 4);
	mlx5_diag_sim_fw_sync(t->fw, T_AT(13));
	t_expect_stats(test, 3, 0, 0, 0, 4);
	/* a refused SET changes nothing */
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(13), true,
				    PSETP(RE, 1, 2, 13, P0)), 0x3);
	t_expect_stats(test, 3, 0, 0, 0, 4);
	/* rule 6: a resize discards, then the new configuration counts */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(13), true,
				    PSETP(RE, 1, 3, 14, P0)), 0);
	t_expect_stats(test, 0, 0, 0, 0, 5);
	/* a capability reset with samples held discards them */
	mlx5_diag_sim_fw_sync(t->fw, T_AT(15));
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(15), true,
				    &(struct t_params){ .log_num = 3 }), 0);
	t_dialect16(test);
	t_expect_stats(test, 2, 0, 0, 2, 6);
	/* another agent's configuration is a configuration too */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_foreign_enable(t->fw, T_AT(15)),
			0);
	t_expect_stats(test, 0, 0, 0, 0, 7);
	/* on demand: every sample is returned by its query */
	mlx5_diag_sim_fw_foreign_disable(t->fw, T_AT(15));
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(15), false,
				    PSETP(OE, 1, 0, 0, 0x2006)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(16), 1, 0, T_BUF), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(17), 1, 0, T_BUF), 0);
	t_expect_stats(test, 2, 2, 0, 0, 9);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands, 12);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands_failed, 1);
}

/* ---- the actual period ---- */

struct t_period {
	const char *name;
	bool dialect16;
	struct t_params p;
	u32 actual;
};

#define T_LAT_TOTAL	0x1160000b00000000ULL

static const struct t_period t_periods[] = {
	{ "1 counter", .p = SETP(RE, 1, 4, 14, P0), .actual = 14 },
	{ "8 counters", .p = SETP(RE, 8, 4, 14, P0), .actual = 14 },
	{ "9 counters", .p = SETP(RE, 9, 4, 14, P0), .actual = 15 },
	{ "16 counters", .p = SETP(RE, 16, 4, 14, P0), .actual = 15 },
	{ "16 counters at 2^20", .p = SETP(RE, 16, 4, 20, P0), .actual = 20 },
	{ "2 statistics", .p = SETP(SE, 2, 4, 14, T_LAT_TOTAL), .actual = 14 },
	{ "3 statistics", .p = SETP(SE, 3, 4, 14, T_LAT_TOTAL), .actual = 15 },
	{ "16 statistics", .p = SETP(RE, 16, 4, 14, T_LAT_TOTAL),
	  .actual = 17 },
	/* 7 x 512 + 2048 = 5632 clocks, x 4 = 22528 */
	{ "7 counters and a statistic",
	  .p = SETP(RE, 8, 4, 14, P0, T_LAT_TOTAL),
	  .actual = 15 },
	{ "on demand keeps it", .p = SETP(OE, 16, 4, 3, T_LAT_TOTAL),
	  .actual = 3 },
	{ "13 public counters", .dialect16 = true,
	  .p = SETP(RE, 13, 4, 14, 0x0401), .actual = 15 },
};

static void t_period_desc(const struct t_period *x, char *desc)
{
	strscpy(desc, x->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(t_periods, t_periods, t_period_desc);

static void sim_test_period_raise(struct kunit *test)
{
	const struct t_period *x = test->param_value;
	struct t_sim *t = test->priv;
	u64 ns, clock;

	if (x->dialect16)
		t_dialect16(test);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, !x->dialect16, &x->p), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 1024), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), x->actual);
	/* firmware that does not report the raise: the period asked for */
	KUNIT_ASSERT_EQ(test,
			mlx5_diag_sim_fw_set_variant(t->fw,
						     MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED,
						     1), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 1024), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), x->p.period);
	if (x->p.flags & TF_OD)
		return;
	/* sampling runs at the actual period */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + (1ULL << x->actual));
	mlx5_diag_sim_fw_sync(t->fw, ns - 1);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 0);
	mlx5_diag_sim_fw_sync(t->fw, ns);
	KUNIT_EXPECT_EQ(test, t_stats(test).samples_produced, 1);
}

/* ---- changing the period while enabled ---- */

static void sim_test_period_change(struct kunit *test)
{
	const struct t_params p14 = SETP(RE | TF_SYNC | TF_CLEAR, 1, 4, 14,
					 ICMC_HITS);
	const struct t_params p16 = SETP(RE | TF_SYNC | TF_CLEAR, 1, 4, 16,
					 ICMC_HITS);
	const u64 set = T_AT(3) + 1000;		/* samples 0..2 taken */
	struct t_sim *t = test->priv;
	u64 c_set, ns, clock, t2, t3;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p14), 0);
	c_set = t_clock(set);
	KUNIT_ASSERT_EQ(test, t_set(test, set, true, &p16), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, set, 16, 1024), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), 16);
	/* numbering and statistics go on; sample 3 is one new period away */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 3, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, clock, c_set + (1 << 16));
	mlx5_diag_sim_fw_sync(t->fw, ns - 1);
	t_expect_stats(test, 3, 0, 0, 0, 2);
	mlx5_diag_sim_fw_sync(t->fw, ns);
	t_expect_stats(test, 4, 0, 0, 0, 2);
	/* the ones before keep their times */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 1, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, ns, T_AT(2));
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + 2 * T_P);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 4, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, clock, c_set + (2 << 16));
	KUNIT_ASSERT_EQ(test, t_query(test, ns, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).sample_id, 2);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 3);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, c_set + (1 << 16));
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).sample_id, 4);
	/* sample 3 covers the time since sample 2, across the change */
	t2 = t_ns(3 * T_P);
	t3 = t_ns(c_set + (1 << 16) - T_OFFSET);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).value,
			t_count(ICMC_HITS, 0, t3) - t_count(ICMC_HITS, 0, t2));
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).value,
			t_count(ICMC_HITS, 0, t_ns(c_set + (2 << 16) - T_OFFSET)) -
			t_count(ICMC_HITS, 0, t3));
	t_expect_stats(test, 5, 5, 0, 0, 2);

	/* the same period again is a new configuration: sample 0 next */
	KUNIT_ASSERT_EQ(test, t_set(test, ns, true, &p16), 0);
	t_expect_stats(test, 0, 0, 0, 0, 3);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, clock, c_set + (3 << 16));
	/* so is any other change with it */
	KUNIT_ASSERT_EQ(test, t_set(test, ns, true,
				    PSETP(RE | TF_SYNC, 1, 4, 14, ICMC_HITS)), 0);
	t_expect_stats(test, 0, 0, 0, 0, 4);

	/* on demand: only the period QUERY returns changes */
	KUNIT_ASSERT_EQ(test, t_set(test, ns, true, PSETP(OE, 1, 4, 3, P0)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, ns + 1000, 1, 0, T_BUF), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, ns + 2000, true,
				    PSETP(OE, 1, 4, 5, P0)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, ns + 3000, 1, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 1);
	t_expect_stats(test, 2, 2, 0, 0, 6);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, ns + 3000, 16, 1024), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x38, 8), 5);
}

/* ---- variants: firmware of another reading of the public sources ---- */

/* Every field of entry @e of a 64-bit answer is 0. */
static bool t_entry64_zero(const struct t_sim *t, u32 e)
{
	struct t_entry x = t_entry64(t, e);

	return !x.id && !x.sample_id && !x.ts && !x.value;
}

static void sim_test_variant_unwritten_zero(struct kunit *test)
{
	const struct t_params p = SETP(RE, 2, 4, 14, P0, ICMC_HITS);
	struct t_sim *t = test->priv;
	const u64 now = T_AT(3) + 1;	/* samples 0..2 */

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	/* by default a slot not written carries the ids */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 6).id, P0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 7).id, ICMC_HITS);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 7).ts, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO,
							   2), -EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO,
							   1), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).id, P0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).sample_id, 2);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 5).ts, T_OFFSET + 3 * T_P);
	KUNIT_EXPECT_TRUE(test, t_entry64_zero(t, 6));
	KUNIT_EXPECT_TRUE(test, t_entry64_zero(t, 7));
	KUNIT_EXPECT_TRUE(test, t_entry64_zero(t, 31));
	/* read as entries, from slot 1: the same, 3 entries in */
	mlx5_diag_sim_fw_set_entries_unit(t->fw, true);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 5, 1, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).id, ICMC_HITS);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 2);
	KUNIT_EXPECT_TRUE(test, t_entry64_zero(t, 4));
	t_expect_stats(test, 3, 3, 0, 0, 1);
}

static void sim_test_variant_sample_id_bits(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 4, 14, P0);
	struct t_sim *t = test->priv;
	const u64 now = T_AT(65538);	/* samples 0..65537 */

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS,
							   8), -EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS,
							   16), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	/* slot 0: j 65536 in a 32-bit field, numbered modulo 2^16 */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, T_OFFSET + 65537 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 1);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 15).sample_id, 0xffff);
	/* 32 bits, as the field */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS,
							   32), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, now, 16, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 65536);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 65537);
}

static void sim_test_variant_sample_id_continues(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 3, 14, P0);
	const struct t_params p15 = SETP(RE, 1, 3, 15, P0);
	const struct t_params off = { .flags = TF_CLEAR };
	struct t_sim *t = test->priv;
	u64 ns, clock;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES,
							   2), -EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES,
							   1), 0);
	/* samples 0..4, numbered 0..4; the disable with clear; a new SET */
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(5), true, &off), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(5), true, &p), 0);
	/* its samples 0..5 are numbered 5..10, in slots 5, 6, 7, 0, 1, 2 */
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(11), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 5).sample_id, 5);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 5).ts, T_OFFSET + 6 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 7).sample_id, 7);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 8);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, T_OFFSET + 9 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).sample_id, 10);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).ts, T_OFFSET + 11 * T_P);
	/* slots 3 and 4 were emptied and not written since */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).sample_id, 0);
	/* sample_time counts the configuration's own samples */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, clock, T_OFFSET + 6 * T_P);
	/* a period-only SET that restarts the numbering runs on with it */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_PERIOD_RESTART,
							   1), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(11), true, &p15), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(15), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 11);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, T_OFFSET + 13 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).sample_id, 12);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 4).ts, T_OFFSET + 15 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 5).sample_id, 5);
}

/*
 * Slot-index ids: a written slot answers its index, an unwritten one as
 * before; the timestamps are the samples' own, so a later lap shows only
 * in them.
 */
static void sim_test_variant_sample_id_slot(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 3, 14, P0);
	struct t_sim *t = test->priv;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT,
							   2), -EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT,
							   1), 0);
	/* samples 0..10: slots 0..2 hold 8..10, 3..7 hold 3..7 */
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(11), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, T_OFFSET + 9 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).sample_id, 2);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).ts, T_OFFSET + 11 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).sample_id, 3);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 3).ts, T_OFFSET + 4 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 7).sample_id, 7);
	/* the truth again: the samples' own numbers */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT,
							   0), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(11), 8, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 8);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).sample_id, 10);
}

static void sim_test_variant_busy_every(struct kunit *test)
{
	const struct t_params p = SETP(RE, 1, 4, 14, P0);
	struct t_sim *t = test->priv;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_BUSY_EVERY,
							   3), 0);
	/* commands 1 and 2 run; 3, a SET, is refused and changes nothing */
	t_hdr(t, 0x819, 0);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 1024), 0);
	t_hdr(t, 0x100, 0x1);
	KUNIT_EXPECT_EQ(test, t_run(test, 0, 16, 16 + 512), 0);
	KUNIT_EXPECT_EQ(test, t_set(test, 0, true, &p), 0x6);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_BUSY);
	KUNIT_EXPECT_FALSE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	/* its next try runs */
	KUNIT_EXPECT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_EXPECT_TRUE(test, mlx5_diag_sim_fw_engine_enabled(t->fw));
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(1), 1, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(1), 1, 0, T_BUF), 0x6);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands, 6);
	KUNIT_EXPECT_EQ(test, t_stats(test).commands_failed, 2);
	t_expect_stats(test, 1, 1, 0, 0, 1);
	/* 1: every command */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_BUSY_EVERY,
							   1), 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, t_query(test, T_AT(1), 1, 0, T_BUF), 0x6);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_BUSY_EVERY,
							   0), 0);
	KUNIT_EXPECT_EQ(test, t_query(test, T_AT(1), 1, 0, T_BUF), 0);
}

/*
 * A period-only SET of firmware that numbers from 0 again (its samples
 * overwrite the unreturned ones from slot 0 on) or empties the buffer.
 */
static void sim_test_variant_period_set(struct kunit *test)
{
	const struct t_params p14 = SETP(RE, 1, 4, 14, ICMC_HITS);
	const struct t_params p16 = SETP(RE, 1, 4, 16, ICMC_HITS);
	const u64 set = T_AT(3) + 1000;		/* samples 0..2 taken */
	struct t_sim *t = test->priv;
	u64 c_set = t_clock(set), ns, clock;

	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_PERIOD_RESTART,
							   1), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p14), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(1), 1, 0, T_BUF), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, set, true, &p16), 0);
	/* sample 0 of the new numbering: one new period after the SET */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_sample_time(t->fw, 0, &ns,
							   &clock), 0);
	KUNIT_EXPECT_EQ(test, clock, c_set + (1 << 16));
	KUNIT_ASSERT_EQ(test, t_query(test, ns, 4, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).sample_id, 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts, c_set + (1 << 16));
	/* the time since sample 2 of the old numbering */
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).value,
			t_count(ICMC_HITS, 0, t_ns(c_set + (1 << 16) - T_OFFSET)));
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).sample_id, 1);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 1).ts, T_OFFSET + 2 * T_P);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 2).sample_id, 2);
	/* old sample 0 was returned before its slot was taken over */
	t_expect_stats(test, 4, 4, 0, 0, 2);

	/* empties the buffer too: old samples 1..3 of the slots go */
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_PERIOD_CLEAR,
							   1), 0);
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO,
							   1), 0);
	/* the new sample 1 not returned yet: discarded */
	KUNIT_ASSERT_EQ(test, t_set(test, ns + (1 << 16) * 32 / 5 + 1, true,
				    &p14), 0);
	t_expect_stats(test, 5, 4, 0, 1, 3);
	KUNIT_ASSERT_EQ(test, t_query(test, ns + (1 << 16) * 32 / 5 + 1, 16, 0,
				      T_BUF), 0);
	KUNIT_EXPECT_TRUE(test, t_entry64_zero(t, 0));
	KUNIT_EXPECT_TRUE(test, t_entry64_zero(t, 2));
}

static void sim_test_variant_text(struct kunit *test)
{
	unsigned int var;
	u32 v;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("sample_id_bits 16\n",
							  &var, &v), 0);
	KUNIT_EXPECT_EQ(test, var, MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS);
	KUNIT_EXPECT_EQ(test, v, 16);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("busy_every 0x10",
							  &var, &v), 0);
	KUNIT_EXPECT_EQ(test, var, MLX5_DIAG_SIM_VAR_BUSY_EVERY);
	KUNIT_EXPECT_EQ(test, v, 16);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("entry_jitter 1023",
							  &var, &v), 0);
	KUNIT_EXPECT_EQ(test, var, MLX5_DIAG_SIM_VAR_ENTRY_JITTER);
	KUNIT_EXPECT_EQ(test, v, 1023);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("none\n", &var, &v),
			0);
	KUNIT_EXPECT_EQ(test, var, MLX5_DIAG_SIM_NR_VARIANTS);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("unwritten_zero", &var,
							  &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("ring_ahead 1", &var,
							  &v), -EINVAL);
	KUNIT_EXPECT_STREQ(test,
			   mlx5_diag_sim_variant_name(MLX5_DIAG_SIM_VAR_PERIOD_CLEAR),
			   "period_clear");
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("period_unreported 1",
							  &var, &v), 0);
	KUNIT_EXPECT_EQ(test, var, MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED);
	KUNIT_EXPECT_EQ(test, v, 1);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_parse_variant("rtc_still 1", &var,
							  &v), 0);
	KUNIT_EXPECT_EQ(test, var, MLX5_DIAG_SIM_VAR_RTC_STILL);
	KUNIT_EXPECT_EQ(test, v, 1);
	KUNIT_EXPECT_NULL(test,
			  mlx5_diag_sim_variant_name(MLX5_DIAG_SIM_NR_VARIANTS));
}

/* ---- RTC timestamps ---- */

/* The modelled RTC at device clock @c of the default 156.25 MHz clock. */
static u64 t_rtc(u64 c)
{
	u64 ns = 1700000000ULL * 1000000000ULL + c * 32 / 5;

	return (ns / 1000000000) << 32 | ns % 1000000000;
}

static void sim_test_rtc(struct kunit *test)
{
	const struct t_params p = SETP(RE | TF_RTC, 1, 4, 14, P0);
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;
	u64 e;
	u32 j;

	KUNIT_EXPECT_EQ(test, t_rtc(0), 1700000000ULL << 32);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	t_hdr(t, 0x819, 0);
	KUNIT_ASSERT_EQ(test, t_run(test, 0, 16, 1024), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x28, 1), 1);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, T_CTX + 0x20, 7), 0x22);
	/* h = seconds, l = nanoseconds of the RTC at each sample's clock */
	mlx5_diag_sim_fw_clock_step(t->fw, T_AT(2) + 1, 3000000000LL);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(4), 4, 0, T_BUF), 0);
	for (j = 0; j < 4; j++) {
		e = T_OFFSET + (j + 1) * T_P + (j >= 2 ? 3000000000ULL : 0);
		KUNIT_EXPECT_EQ_MSG(test, t_entry64(t, j).ts, t_rtc(e), "j %u", j);
		KUNIT_EXPECT_LT(test, t_entry64(t, j).ts & U32_MAX,
				1000000000);
	}
	/* P + 3e9 clocks = 19.2 s later: from 22.488 s to 41.688 s */
	KUNIT_EXPECT_EQ(test, (t_entry64(t, 2).ts >> 32) -
			      (t_entry64(t, 1).ts >> 32), 19);
	/* on demand, too */
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(4), true,
				    PSETP(OE | TF_RTC, 1, 4, 0, P0)), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(5), 1, 0, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, t_entry64(t, 0).ts,
			t_rtc(t_clock(T_AT(5)) + 3000000000ULL));

	/* refused where it is not offered */
	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	KUNIT_ASSERT_EQ(test, t_set(test, T_AT(5), true,
				    &(struct t_params){ .flags = TF_CLEAR }), 0);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	caps->rtc = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, T_AT(5), caps),
			0);
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(5), true, &p), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_RTC);
	t_hdr(t, 0x100, 0x1b);
	KUNIT_ASSERT_EQ(test, t_run(test, T_AT(5), 16, T_BUF), 0);
	KUNIT_EXPECT_EQ(test, tb_get(t->out, 0x80 + 0x28, 1), 0);
	caps->rtc = true;
	caps->dialect64 = false;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, T_AT(5), caps),
			0);
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(5), false,
				    PSETP(RE | TF_RTC, 1, 4, 14, 0x0401)), 0x3);
	KUNIT_EXPECT_EQ(test, t_synd(t), MLX5_DIAG_SIM_SYND_NO_RTC);
	/* stop accepts the bit: nothing is sampled */
	KUNIT_EXPECT_EQ(test, t_set(test, T_AT(5), false,
				    &(struct t_params){ .flags = TF_RTC }), 0);
}

/*
 * entry_jitter on the RTC, at periods of 2^31 clocks (13.7 s) and the
 * largest jitter they allow, 2^31 - 1 ns: entry c of sample j is stamped
 * k * J ns after the sample's RTC time (two entries: k = (c - j) mod 2),
 * the nanoseconds carried into the seconds, so that they stay below 10^9.
 */
static void sim_test_rtc_jitter(struct kunit *test)
{
	const struct t_params p = SETP(RE | TF_RTC, 2, 4, 31, P0,
				       PORT_RX_BYTES(1));
	const u32 jitter = (1U << 31) - 1;
	struct t_sim *t = test->priv;
	struct mlx5_diag_sim_caps *caps;
	u64 ns;
	u32 j, c;

	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	mlx5_diag_sim_fw_get_caps(t->fw, caps);
	/* at the longest shortest period, every jitter is below it */
	caps->log_min_sample_period = MLX5_DIAG_SIM_MAX_LOG_PERIOD;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);
	KUNIT_EXPECT_EQ(test,
			mlx5_diag_sim_fw_set_variant(t->fw,
						     MLX5_DIAG_SIM_VAR_ENTRY_JITTER,
						     U32_MAX), 0);
	caps->log_min_sample_period = 31;
	KUNIT_ASSERT_EQ(test, mlx5_diag_sim_fw_set_caps(t->fw, 0, caps), 0);
	KUNIT_EXPECT_EQ(test,
			mlx5_diag_sim_fw_set_variant(t->fw,
						     MLX5_DIAG_SIM_VAR_ENTRY_JITTER,
						     1U << 31), -EINVAL);
	KUNIT_ASSERT_EQ(test,
			mlx5_diag_sim_fw_set_variant(t->fw,
						     MLX5_DIAG_SIM_VAR_ENTRY_JITTER,
						     jitter), 0);
	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test,
			t_query(test, DIV_ROUND_UP(6ULL << 31 << 5, 5), 6, 0,
				T_BUF), 0);
	for (j = 0; j < 6; j++)
		for (c = 0; c < 2; c++) {
			ns = 1700000000ULL * NSEC_PER_SEC +
			     (T_OFFSET + ((u64)(j + 1) << 31)) * 32 / 5 +
			     (c == j % 2 ? 0 : jitter);
			KUNIT_EXPECT_EQ_MSG(test, t_entry64(t, 2 * j + c).ts,
					    (ns / NSEC_PER_SEC) << 32 |
					    ns % NSEC_PER_SEC,
					    "sample %u entry %u", j, c);
		}
}

/*
 * entry_order: a sample's entries in the SET's order (0), by ascending (1)
 * or by descending (2) data ID, each with its own counter's value; the
 * order is the configuration's, taken at the SET that starts it, not
 * changed by the variant mid-configuration. Each run is enabled at a
 * whole 10 ms (whole device clocks), sample 0 one period later.
 */
static void sim_test_entry_order(struct kunit *test)
{
	const u64 a = 0x1140000100000000ULL, b = PORT_RX_BYTES(1), c = P0;
	const struct t_params p = SETP(RE, 3, 4, 14, b, a, c);
	const u64 want[3][3] = { { b, a, c }, { c, b, a }, { a, b, c } };
	struct t_sim *t = test->priv;
	struct t_entry x;
	u64 en;
	u32 v, k;

	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_fw_set_variant(t->fw,
							   MLX5_DIAG_SIM_VAR_ENTRY_ORDER,
							   3), -EINVAL);
	for (v = 0; v < 3; v++) {
		en = (v + 1) * 10000000ULL;
		KUNIT_ASSERT_EQ(test,
				mlx5_diag_sim_fw_set_variant(t->fw,
							     MLX5_DIAG_SIM_VAR_ENTRY_ORDER,
							     v), 0);
		KUNIT_ASSERT_EQ(test, t_set(test, en, true, &p), 0);
		/* the variant set mid-configuration waits for the next SET */
		KUNIT_ASSERT_EQ(test,
				mlx5_diag_sim_fw_set_variant(t->fw,
							     MLX5_DIAG_SIM_VAR_ENTRY_ORDER,
							     (v + 1) % 3), 0);
		KUNIT_ASSERT_EQ(test, t_query(test, en + 104858, 1, 0, T_BUF),
				0);
		for (k = 0; k < 3; k++) {
			x = t_entry64(t, k);
			KUNIT_EXPECT_EQ_MSG(test, x.id, want[v][k],
					    "order %u entry %u", v, k);
			KUNIT_EXPECT_EQ_MSG(test, x.sample_id, 0,
					    "order %u entry %u", v, k);
			KUNIT_EXPECT_EQ_MSG(test, x.value,
					    t_count(want[v][k], 0, 104857),
					    "order %u entry %u", v, k);
		}
		KUNIT_ASSERT_EQ(test, t_set(test, en + 104858, true,
					    &(struct t_params){ 0 }), 0);
	}
}

/* ---- traffic: relations and time variation ---- */

/* Increasing engine times at slot edges and odd places. */
static u64 t_rel_time(u32 k)
{
	return (u64)k * 1234567 + (k % 7) * 65536 - (k % 3);
}

/* C(t1) - C(t0) of @id on device @n */
static u64 t_delta(u64 id, u32 n, u64 t0, u64 t1)
{
	return mlx5_diag_sim_traffic_count(id, n, t1) -
	       mlx5_diag_sim_traffic_count(id, n, t0);
}

static void t_relations_at(struct kunit *test, u32 n, u64 t0, u64 t1)
{
#define D(id)	t_delta(id, n, t0, t1)
	u64 port, prio, sum_pk, sum_by, bins, pk, stall;
	u32 q, b, fam, x;

	KUNIT_EXPECT_EQ(test, D(0x1180000200000000ULL) +
			D(0x1180000300000000ULL), D(0x1180000100000000ULL));
	for (x = 0; x < 2; x++) {
		KUNIT_EXPECT_LE(test, D(0x1160000300000000ULL | x),
				D(0x1160000100000000ULL | x));
		KUNIT_EXPECT_LE(test, D(0x1160000400000000ULL | x),
				D(0x1160000200000000ULL | x));
		for (fam = 0; fam < 2; fam++) {
			port = fam ? 0x1140000000000000ULL :
				     0x1020000000000000ULL;
			sum_pk = 0;
			sum_by = 0;
			for (q = 0; q < 8; q++) {
				prio = port | (u64)q << 8 | x;
				pk = D(prio | 4ULL << 32);
				KUNIT_EXPECT_GE(test, D(prio | 2ULL << 32),
						64 * pk);
				sum_pk += pk;
				sum_by += D(prio | 2ULL << 32);
			}
			KUNIT_EXPECT_EQ(test, sum_pk, D(port | 3ULL << 32 | x));
			KUNIT_EXPECT_EQ(test, sum_by, D(port | 1ULL << 32 | x));
			KUNIT_EXPECT_GE(test, D(port | 1ULL << 32 | x),
					64 * D(port | 3ULL << 32 | x));
		}
		bins = 0;
		for (b = 0; b < 10; b++)
			bins += D(0x1160000f00000000ULL | (u64)b << 16 | x);
		pk = D(0x1160000c00000000ULL | x);
		KUNIT_EXPECT_EQ(test, bins, pk);
		KUNIT_EXPECT_EQ(test, D(0x1160000b00000000ULL | x),
				(400 + 10 * x) * pk);
		KUNIT_EXPECT_EQ(test, mlx5_diag_sim_traffic_value(0x1160000b00000000ULL | x,
								  n, t0, t1, false, 32),
				(400 + 10 * x) * pk);
		if (pk) {
			KUNIT_EXPECT_GT(test,
					mlx5_diag_sim_traffic_value(0x1160000d00000000ULL | x,
								    n, t0, t1, false, 64),
					400 + 10 * x);
			KUNIT_EXPECT_LT(test,
					mlx5_diag_sim_traffic_value(0x1160000e00000000ULL | x,
								    n, t0, t1, false, 64),
					400 + 10 * x);
		}
		for (b = 5; b <= 9; b++) {
			stall = D(0x1160000000000000ULL | (u64)b << 32 | x);
			KUNIT_EXPECT_LE(test, stall, t1 - t0);
		}
	}
#undef D
}

static void sim_test_traffic_relations(struct kunit *test)
{
	struct mlx5_diag_sim_caps *caps;
	u32 n, k, x;

	/* nothing has happened at engine time 0, so totals are sums too */
	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caps);
	mlx5_diag_sim_default_caps(caps);
	for (k = 0; k < caps->nr_kinds; k++)
		for (x = 0; x < 2; x++) {
			u64 id = (u64)caps->kinds[k] << 32 | x;

			KUNIT_EXPECT_EQ_MSG(test,
					    mlx5_diag_sim_traffic_count(id, 3, 0),
					    0, "id 0x%llx", id);
		}
	for (k = 0; k < caps->nr_ids; k++)
		KUNIT_EXPECT_EQ(test, mlx5_diag_sim_traffic_count(caps->ids[k], 3, 0),
				0);

	for (n = 0; n < 16; n += 7)
		for (k = 1; k < 60; k++) {
			t_relations_at(test, n, 0, t_rel_time(k));
			t_relations_at(test, n, t_rel_time(k - 1),
				       t_rel_time(k));
		}
	/* tiny intervals, inside one slot and across an edge; whole cycles */
	t_relations_at(test, 1, 851968, 3 * 851968);
	t_relations_at(test, 1, 65535, 65536);
	t_relations_at(test, 1, 65530, 65541);
	t_relations_at(test, 1, 851967, 851969);
	/* the widest link and the last device: stalls still below time */
	KUNIT_EXPECT_LE(test, mlx5_diag_sim_traffic_count(0x11600009000000ffULL,
							  15, 1000000000),
			1000000000);
}

static void sim_test_time_varying(struct kunit *test)
{
	const struct t_params p = SETP(RE | TF_SYNC | TF_CLEAR, 2, 4, 14,
				       ICMC_HITS, PCIE_IN_BYTES(1));
	struct t_sim *t = test->priv;
	u64 v[16][2];
	u32 j, c;

	KUNIT_ASSERT_EQ(test, t_set(test, 0, true, &p), 0);
	KUNIT_ASSERT_EQ(test, t_query(test, T_AT(16), 16, 0, T_BUF), 0);
	for (j = 0; j < 16; j++)
		for (c = 0; c < 2; c++) {
			v[j][c] = t_entry64(t, 2 * j + c).value;
			KUNIT_EXPECT_EQ(test, v[j][c],
					t_count(p.ids[c], 0, t_ns((j + 1) * T_P)) -
					t_count(p.ids[c], 0, t_ns(j * T_P)));
		}
	/* a sample shifted by one changes every value */
	for (j = 0; j + 1 < 16; j++)
		for (c = 0; c < 2; c++)
			KUNIT_EXPECT_NE_MSG(test, v[j][c], v[j + 1][c],
					    "j %u id %u", j, c);
	/* b = 57 per us, phase 0: weights 8 then 11 over 65536 ns each */
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_traffic_count(ICMC_HITS, 0, 65536),
			3735);
	KUNIT_EXPECT_EQ(test, mlx5_diag_sim_traffic_count(ICMC_HITS, 0, 131072),
			8871);
}

/* Neighbouring ports differ by 0.7 %, at every sample. */
static void sim_test_close_rates(struct kunit *test)
{
	u64 a, b, t;

	for (t = 100000; t < 1000000000; t = t * 3 + 17) {
		a = mlx5_diag_sim_traffic_count(0x1020000300000000ULL, 0, t);
		b = mlx5_diag_sim_traffic_count(0x1020000300000001ULL, 0, t);
		KUNIT_EXPECT_GT(test, b, a);
		KUNIT_EXPECT_LT(test, b - a, a / 100);
	}
}

/* ---- the model file's text ---- */

struct t_model_text {
	const char *in;
	int ret;
	u64 id;
	u64 t0;
	u64 t1;
};

static const struct t_model_text t_model_texts[] = {
	{ "0x1180000200000000 0 1000000\n", 0, ICMC_HITS, 0, 1000000 },
	{ "1180000200000000 5 5", 0, ICMC_HITS, 5, 5 },
	{ "0x2006\t100 200", 0, 0x2006, 100, 200 },
	{ "0x1180000200000000 18446744073709551615 18446744073709551615", 0,
	  ICMC_HITS, U64_MAX, U64_MAX },
	{ "0x1180000200000000 10 9", -EINVAL },
	{ "0x1180000200000000 0", -EINVAL },
	{ "0x1180000200000000 0 1 2", -EINVAL },
	{ "0x1180000200000000 0x10 20", -EINVAL },
	{ "0x1180000200000000 -1 20", -EINVAL },
	{ "zz 0 1", -EINVAL },
	{ "0x11800002000000001 0 1", -EINVAL },
	{ "", -EINVAL },
};

static void sim_test_model_text(struct kunit *test)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(t_model_texts); i++) {
		const struct t_model_text *x = &t_model_texts[i];
		u64 id = 7, t0 = 7, t1 = 7;
		int ret;

		ret = mlx5_diag_sim_parse_model(x->in, &id, &t0, &t1);
		KUNIT_EXPECT_EQ_MSG(test, ret, x->ret, "\"%s\"", x->in);
		if (ret || x->ret)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, id, x->id, "\"%s\"", x->in);
		KUNIT_EXPECT_EQ_MSG(test, t0, x->t0, "\"%s\"", x->in);
		KUNIT_EXPECT_EQ_MSG(test, t1, x->t1, "\"%s\"", x->in);
	}
}

static struct kunit_case sim_test_cases[] = {
	KUNIT_CASE(sim_test_caps_general),
	KUNIT_CASE(sim_test_caps_debug64),
	KUNIT_CASE(sim_test_caps_debug16),
	KUNIT_CASE_PARAM(sim_test_set_rules, t_rules_gen_params),
	KUNIT_CASE(sim_test_cmd_errors),
	KUNIT_CASE(sim_test_query_not_configured),
	KUNIT_CASE(sim_test_query_params),
	KUNIT_CASE(sim_test_periodic_timing),
	KUNIT_CASE(sim_test_sample_id_wrap16),
	KUNIT_CASE(sim_test_sample_id_wrap32),
	KUNIT_CASE(sim_test_timestamp_wrap32),
	KUNIT_CASE(sim_test_repetitive_overwrite),
	KUNIT_CASE(sim_test_single_stops),
	KUNIT_CASE(sim_test_sampling_stops),
	KUNIT_CASE(sim_test_disable),
	KUNIT_CASE(sim_test_resize_resets),
	KUNIT_CASE(sim_test_on_demand),
	KUNIT_CASE(sim_test_query_wrap),
	KUNIT_CASE_PARAM(sim_test_traffic, t_traffic_gen_params),
	KUNIT_CASE(sim_test_engine_values),
	KUNIT_CASE(sim_test_device_index),
	KUNIT_CASE(sim_test_clock),
	KUNIT_CASE(sim_test_time_monotonic),
	KUNIT_CASE(sim_test_foreign_owner),
	KUNIT_CASE(sim_test_fail_next),
	KUNIT_CASE(sim_test_fail_next_text),
	KUNIT_CASE(sim_test_lies),
	KUNIT_CASE(sim_test_fuzz),
	KUNIT_CASE(sim_test_caps_text),
	KUNIT_CASE(sim_test_status_errno),
	KUNIT_CASE(sim_test_public_caps),
	KUNIT_CASE(sim_test_public_rules),
	KUNIT_CASE(sim_test_num_samples_unit),
	KUNIT_CASE(sim_test_manual_time),
	KUNIT_CASE(sim_test_drift),
	KUNIT_CASE(sim_test_clock_exact),
	KUNIT_CASE(sim_test_engine_time),
	KUNIT_CASE(sim_test_clock_step),
	KUNIT_CASE(sim_test_sample_time),
	KUNIT_CASE(sim_test_stats),
	KUNIT_CASE_PARAM(sim_test_period_raise, t_periods_gen_params),
	KUNIT_CASE(sim_test_period_change),
	KUNIT_CASE(sim_test_variant_unwritten_zero),
	KUNIT_CASE(sim_test_variant_sample_id_bits),
	KUNIT_CASE(sim_test_variant_sample_id_continues),
	KUNIT_CASE(sim_test_variant_sample_id_slot),
	KUNIT_CASE(sim_test_variant_busy_every),
	KUNIT_CASE(sim_test_variant_period_set),
	KUNIT_CASE(sim_test_variant_text),
	KUNIT_CASE(sim_test_rtc),
	KUNIT_CASE(sim_test_rtc_jitter),
	KUNIT_CASE(sim_test_entry_order),
	KUNIT_CASE(sim_test_traffic_relations),
	KUNIT_CASE(sim_test_time_varying),
	KUNIT_CASE(sim_test_close_rates),
	KUNIT_CASE(sim_test_model_text),
	{}
};

static struct kunit_suite sim_test_suite = {
	.name = "mlx5_diag_sim",
	.init = t_init,
	.exit = t_exit,
	.test_cases = sim_test_cases,
};

kunit_test_suite(sim_test_suite);

MODULE_DESCRIPTION("KUnit tests for the mlx5_diag firmware emulator");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
