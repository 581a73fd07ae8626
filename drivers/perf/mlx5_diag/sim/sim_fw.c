// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: the pure firmware core - per-device capabilities, the
 * sampling engine with its cyclic buffer, and the command decoder.
 *
 * Nothing here sleeps (except create/destroy/set_caps, which allocate) or
 * reads a clock: the caller passes the time, so KUnit can predict every
 * value. The buffer is brought up to date lazily at each command.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "mlx5_diag_compat.h"
#include "sim_int.h"
#include "sim_layout.h"

#define SIM_DEFAULT_FREQ_KHZ		156250
/* 2^32 minus 5 s of the default clock: the 32-bit timestamp wraps at 5 s */
#define SIM_DEFAULT_CLOCK_OFFSET	\
	((1ULL << 32) - 5ULL * SIM_DEFAULT_FREQ_KHZ * 1000)

/* mlx5ctl's table of public 16-bit counter ids; sync on 0x0401..0x040b */
static const u16 sim_default_ids[MLX5_DIAG_SIM_NUM_IDS16] = {
	0x0401, 0x0402, 0x0403, 0x0406, 0x0409, 0x040a, 0x040b,
	0x1001, 0x2001, 0x2006, 0x2c02, 0x2c03, 0x2c04,
};

/* Sample history the core keeps for sample_time (period changes). */
#define SIM_SCHED_HISTORY		16

/* MODEL: device clocks a sample spends collecting one id (period raise). */
#define SIM_COLLECT_COUNTER		512
#define SIM_COLLECT_STATISTIC		2048

/* One sample slot of the cyclic buffer. */
struct sim_slot {
	u64 j;		/* sample index since enable */
	u64 id;		/* its sample id: id0 + j */
	u64 ts;		/* timestamp as reported (FRC or RTC) */
	u64 prev_ts;	/* the timestamp of the sample taken before it */
	u32 gen;	/* the configuration that took it */
	bool written;
	bool read;	/* a query returned it */
};

/* From sample j0 on, sample j is due at osc0 + (j - j0 + 1) << log_period. */
struct sim_sched {
	u64 j0;
	u64 osc0;
	u32 log_period;
};

/* The diagnostic_params_context the firmware holds, and engine state. */
struct sim_engine {
	bool enabled;
	bool single;
	bool repetitive;
	bool sync;
	bool clear;
	bool on_demand;
	bool rtc;
	u32 log_num;		/* log_num_of_samples */
	u32 log_period;		/* the actual log_sample_period */
	u32 log_period_asked;	/* the one the SET asked for */
	u32 num;		/* num_of_counters */
	u64 ids[MLX5_DIAG_SIM_MAX_COUNTERS];
	/* ENTRY_ORDER: the counter entry k of a sample carries */
	u16 order[MLX5_DIAG_SIM_MAX_COUNTERS];
	u64 enable_osc;		/* oscillator at enable: engine time 0 */
	u64 next_j;		/* samples taken since enable */
	u64 id0;		/* the sample id of sample 0 (SAMPLE_ID_CONTINUES) */
	u64 last_osc;		/* oscillator at the last sample (or enable) */
	u64 last_ts;		/* timestamp of the last sample (or enable) */
	u64 enable_ts;		/* the timestamp source at enable */
	u32 gen;		/* configurations started so far */
	u32 nr_sched;		/* schedule segments, oldest first */
	struct sim_sched sched[SIM_SCHED_HISTORY];
};

struct mlx5_diag_sim_fw {
	unsigned int index;
	struct mlx5_diag_sim_caps caps;
	enum mlx5_diag_sim_profile profile;
	bool entries_unit;
	struct sim_clock clk;
	u64 last_now_ns;
	unsigned int wrap_bits;
	struct sim_engine eng;
	u64 new_ids[MLX5_DIAG_SIM_MAX_COUNTERS];	/* SET scratch */
	bool foreign;
	/* the buffer: 2^buf_log slots and 2^buf_log values */
	u32 buf_log;
	u64 *values;
	struct sim_slot *slots;
	struct mlx5_diag_sim_stats stats;
	u32 fail_count;
	u8 fail_status;
	u32 fail_syndrome;
	u32 lies[MLX5_DIAG_SIM_NR_LIES];
	u32 variants[MLX5_DIAG_SIM_NR_VARIANTS];
	u64 ahead_next;		/* RING_AHEAD: the sample id reported next */
	u64 ahead_ts;		/* RING_AHEAD: the timestamp of this answer */
	bool ahead_started;	/* RING_AHEAD: ahead_next set for this run */
	/* fail_query_at: the query reading slot failq_index fails (0: none) */
	u8 failq_status;
	u32 failq_index;
	struct sim_fuzz fuzz;
};

/* One command being executed. */
struct sim_cmd {
	struct mlx5_diag_sim_fw *fw;
	const void *in;
	size_t inlen;
	void *out;
	size_t outlen;
	u64 ns;		/* emulator time */
	u64 osc;	/* oscillator reading at @ns */
	u32 syndrome;
	bool foreign;
	size_t used;	/* bytes of @out the answer fills (for the fuzzer) */
	u32 head;	/* its 32-bit words past the header that size the rest */
};

int mlx5_diag_sim_status_to_errno(u8 status)
{
	switch (status) {
	case MLX5_DIAG_SIM_ST_OK:
		return 0;
	case MLX5_DIAG_SIM_ST_BAD_OP:
	case MLX5_DIAG_SIM_ST_BAD_PARAM:
	case MLX5_DIAG_SIM_ST_BAD_RES:
	case MLX5_DIAG_SIM_ST_BAD_RES_STATE:
	case MLX5_DIAG_SIM_ST_BAD_INDEX:
	case MLX5_DIAG_SIM_ST_BAD_QP_STATE:
	case MLX5_DIAG_SIM_ST_BAD_PKT:
	case MLX5_DIAG_SIM_ST_BAD_SIZE:
		return -EINVAL;
	case MLX5_DIAG_SIM_ST_RES_BUSY:
		return -EBUSY;
	case MLX5_DIAG_SIM_ST_EXCEED_LIM:
		return -ENOMEM;
	case MLX5_DIAG_SIM_ST_NO_RES:
		return -EAGAIN;
	default:
		return -EIO;
	}
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_status_to_errno);

void mlx5_diag_sim_default_caps(struct mlx5_diag_sim_caps *caps)
{
	unsigned int i;

	memset(caps, 0, sizeof(*caps));
	caps->dialect64 = true;
	mlx5_diag_sim_m64_default_kinds(caps);
	for (i = 0; i < ARRAY_SIZE(sim_default_ids); i++) {
		caps->ids[caps->nr_ids++] = sim_default_ids[i];
		if (sim_default_ids[i] >= 0x0401 && sim_default_ids[i] <= 0x040b)
			caps->sync_ids[caps->nr_sync_ids++] = sim_default_ids[i];
	}
	caps->max_num_data_ids = 16;
	caps->log_max_samples = 13;
	caps->log_min_sample_period = 14;
	caps->freq_khz = SIM_DEFAULT_FREQ_KHZ;
	caps->single = true;
	caps->repetitive = true;
	caps->on_demand = true;
	caps->sync_start = true;
	caps->data_clear = true;
	caps->rtc = true;
	caps->num_ports = 2;
	caps->num_hosts = 1;
	caps->num_functions = 8;
	caps->num_pcie_links = 2;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_default_caps);

/* Buffer of 2^log slots and values; all unwritten. */
static int sim_buf_alloc(u32 log, u64 **values, struct sim_slot **slots)
{
	size_t n = (size_t)1 << log;

	*values = kvcalloc(n, sizeof(**values), GFP_KERNEL);
	*slots = kvcalloc(n, sizeof(**slots), GFP_KERNEL);
	if (!*values || !*slots) {
		kvfree(*values);
		kvfree(*slots);
		return -ENOMEM;
	}
	return 0;
}

/* Is @s a sample of the configuration in force that no query returned? */
static bool sim_slot_pending(const struct mlx5_diag_sim_fw *fw,
			     const struct sim_slot *s)
{
	return s->written && !s->read && s->gen == fw->eng.gen;
}

/* Rules 6 and 7: every slot unwritten; unreturned samples are discarded. */
static void sim_buf_reset(struct mlx5_diag_sim_fw *fw)
{
	size_t n = (size_t)1 << fw->buf_log, i;

	for (i = 0; i < n; i++)
		if (sim_slot_pending(fw, &fw->slots[i]))
			fw->stats.samples_discarded++;
	memset(fw->values, 0, n * sizeof(*fw->values));
	memset(fw->slots, 0, n * sizeof(*fw->slots));
}

/* Drop the configuration (dialect, buffer size or profile changed). */
static void sim_engine_reset(struct mlx5_diag_sim_fw *fw)
{
	u32 gen = fw->eng.gen;

	sim_buf_reset(fw);
	memset(&fw->eng, 0, sizeof(fw->eng));
	fw->eng.gen = gen;
	fw->foreign = false;
}

struct mlx5_diag_sim_fw *mlx5_diag_sim_fw_create(unsigned int index)
{
	struct mlx5_diag_sim_fw *fw;

	fw = kzalloc(sizeof(*fw), GFP_KERNEL);
	if (!fw)
		return NULL;
	fw->index = index;
	mlx5_diag_sim_default_caps(&fw->caps);
	mlx5_diag_sim_clock_init(&fw->clk, fw->caps.freq_khz,
				 SIM_DEFAULT_CLOCK_OFFSET);
	fw->wrap_bits = 64;
	mlx5_diag_sim_fuzz_seed(&fw->fuzz, 0);
	fw->buf_log = fw->caps.log_max_samples;
	if (sim_buf_alloc(fw->buf_log, &fw->values, &fw->slots)) {
		kfree(fw);
		return NULL;
	}
	return fw;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_create);

void mlx5_diag_sim_fw_destroy(struct mlx5_diag_sim_fw *fw)
{
	if (!fw)
		return;
	kvfree(fw->values);
	kvfree(fw->slots);
	kfree(fw);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_destroy);

/* Time never runs backwards. */
static u64 sim_now(struct mlx5_diag_sim_fw *fw, u64 now_ns)
{
	if (now_ns < fw->last_now_ns)
		return fw->last_now_ns;
	fw->last_now_ns = now_ns;
	return now_ns;
}

static bool sim_public(const struct mlx5_diag_sim_fw *fw)
{
	return fw->profile == MLX5_DIAG_SIM_PUBLIC;
}

/* The dialect spoken: the public profile knows only 16-bit counter ids. */
static bool sim_dialect64(const struct mlx5_diag_sim_fw *fw)
{
	return !sim_public(fw) && fw->caps.dialect64;
}

/* MODEL (part 2): the RTC timestamp source, 64-bit dialect only. */
static bool sim_rtc_offered(const struct mlx5_diag_sim_fw *fw)
{
	return sim_dialect64(fw) && fw->caps.rtc;
}

/* The modelled RTC at device clock @clock: h = seconds, l = nanoseconds. */
static u64 sim_rtc(u64 clock, u32 freq_khz)
{
	u64 ns = MLX5_DIAG_SIM_RTC_EPOCH_S * NSEC_PER_SEC +
		 mlx5_diag_sim_clocks_to_ns(clock, freq_khz);
	u32 rem;
	u64 s = div_u64_rem(ns, NSEC_PER_SEC, &rem);

	return s << 32 | rem;
}

int mlx5_diag_sim_fw_read_clock(const struct mlx5_diag_sim_fw *fw, u64 now_ns,
				bool rtc, u64 *value)
{
	u64 clock = mlx5_diag_sim_fw_clock(fw, now_ns);

	if (rtc && !sim_rtc_offered(fw))
		return -EOPNOTSUPP;
	*value = rtc ? sim_rtc(clock, fw->caps.freq_khz) : clock;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_read_clock);

u64 mlx5_diag_sim_fw_clock(const struct mlx5_diag_sim_fw *fw, u64 now_ns)
{
	return mlx5_diag_sim_clock_read(&fw->clk, now_ns);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_clock);

u64 mlx5_diag_sim_fw_clock_offset(const struct mlx5_diag_sim_fw *fw)
{
	return fw->clk.offset;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_clock_offset);

int mlx5_diag_sim_fw_set_clock_offset(struct mlx5_diag_sim_fw *fw,
				      u64 offset)
{
	if (fw->eng.enabled)
		return -EBUSY;
	mlx5_diag_sim_clock_set_offset(&fw->clk, offset);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_clock_offset);

unsigned int
mlx5_diag_sim_fw_counter_wrap_bits(const struct mlx5_diag_sim_fw *fw)
{
	return fw->wrap_bits;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_counter_wrap_bits);

int mlx5_diag_sim_fw_set_counter_wrap_bits(struct mlx5_diag_sim_fw *fw,
					   unsigned int bits)
{
	if (bits != 32 && bits != 64)
		return -EINVAL;
	fw->wrap_bits = bits;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_counter_wrap_bits);

void mlx5_diag_sim_fw_get_caps(const struct mlx5_diag_sim_fw *fw,
			       struct mlx5_diag_sim_caps *caps)
{
	*caps = fw->caps;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_get_caps);

void mlx5_diag_sim_fw_get_stats(const struct mlx5_diag_sim_fw *fw,
				struct mlx5_diag_sim_stats *stats)
{
	*stats = fw->stats;
	stats->answers_fuzzed = fw->fuzz.mutated;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_get_stats);

int mlx5_diag_sim_fw_fail_next(struct mlx5_diag_sim_fw *fw, u32 count,
			       u8 status, u32 syndrome)
{
	if (count && status == MLX5_DIAG_SIM_ST_OK)
		return -EINVAL;
	fw->fail_count = count;
	fw->fail_status = count ? status : 0;
	fw->fail_syndrome = count ? syndrome : 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_fail_next);

void mlx5_diag_sim_fw_get_fail_next(const struct mlx5_diag_sim_fw *fw,
				    u32 *count, u8 *status, u32 *syndrome)
{
	*count = fw->fail_count;
	*status = fw->fail_status;
	*syndrome = fw->fail_syndrome;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_get_fail_next);

/* The widest value each lie's field takes. */
static const u32 sim_lie_max[MLX5_DIAG_SIM_NR_LIES] = {
	[MLX5_DIAG_SIM_LIE_PARAMS_LOG_NUM]	= 0xff,
	[MLX5_DIAG_SIM_LIE_PARAMS_NUM_IDS]	= 0xffff,
	[MLX5_DIAG_SIM_LIE_PARAMS_LOG_PERIOD]	= 0xff,
	[MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS]	= 0xffff,
	[MLX5_DIAG_SIM_LIE_RING_AHEAD]		= 1,
	[MLX5_DIAG_SIM_LIE_ENTRIES_REVERSED]	= 2,
	[MLX5_DIAG_SIM_LIE_ENTRY_TS_BACK]	= U32_MAX,
	[MLX5_DIAG_SIM_LIE_SAMPLING_STOPS]	= U32_MAX,
};

int mlx5_diag_sim_fw_set_lie(struct mlx5_diag_sim_fw *fw,
			     enum mlx5_diag_sim_lie lie, u32 value)
{
	if (lie >= MLX5_DIAG_SIM_NR_LIES || value > sim_lie_max[lie])
		return -EINVAL;
	fw->lies[lie] = value;
	if (lie == MLX5_DIAG_SIM_LIE_RING_AHEAD)
		fw->ahead_started = false;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_lie);

u32 mlx5_diag_sim_fw_lie(const struct mlx5_diag_sim_fw *fw,
			 enum mlx5_diag_sim_lie lie)
{
	return lie < MLX5_DIAG_SIM_NR_LIES ? fw->lies[lie] : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_lie);

int mlx5_diag_sim_fw_set_variant(struct mlx5_diag_sim_fw *fw,
				 enum mlx5_diag_sim_variant var, u32 value)
{
	switch (var) {
	case MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS:
		if (value && value != 16 && value != 32)
			return -EINVAL;
		break;
	case MLX5_DIAG_SIM_VAR_BUSY_EVERY:
		break;
	case MLX5_DIAG_SIM_VAR_ENTRY_JITTER:
		/* less than the shortest period (2^35 clocks at most) */
		if ((u64)value >= 1ULL << fw->caps.log_min_sample_period)
			return -EINVAL;
		break;
	case MLX5_DIAG_SIM_VAR_ENTRY_ORDER:
		if (value > 2)
			return -EINVAL;
		break;
	case MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO:
	case MLX5_DIAG_SIM_VAR_PERIOD_RESTART:
	case MLX5_DIAG_SIM_VAR_PERIOD_CLEAR:
	case MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND:
	case MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES:
	case MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT:
	case MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED:
	case MLX5_DIAG_SIM_VAR_RTC_STILL:
		if (value > 1)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	fw->variants[var] = value;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_variant);

u32 mlx5_diag_sim_fw_variant(const struct mlx5_diag_sim_fw *fw,
			     enum mlx5_diag_sim_variant var)
{
	return var < MLX5_DIAG_SIM_NR_VARIANTS ? fw->variants[var] : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_variant);

int mlx5_diag_sim_fw_fail_query_at(struct mlx5_diag_sim_fw *fw, u32 index,
				   u8 status)
{
	if (index > U16_MAX)
		return -EINVAL;
	fw->failq_index = status ? index : 0;
	fw->failq_status = status;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_fail_query_at);

void mlx5_diag_sim_fw_get_fail_query_at(const struct mlx5_diag_sim_fw *fw,
					u32 *index, u8 *status)
{
	*index = fw->failq_index;
	*status = fw->failq_status;
}

int mlx5_diag_sim_fw_set_fuzz(struct mlx5_diag_sim_fw *fw, u64 seed,
			      u32 rate)
{
	if (rate > MLX5_DIAG_SIM_FUZZ_RATE_MAX)
		return -EINVAL;
	mlx5_diag_sim_fuzz_seed(&fw->fuzz, seed);
	fw->fuzz.rate = rate;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_fuzz);

void mlx5_diag_sim_fw_get_fuzz(const struct mlx5_diag_sim_fw *fw, u64 *seed,
			       u32 *rate)
{
	*seed = fw->fuzz.seed;
	*rate = fw->fuzz.rate;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_get_fuzz);

bool mlx5_diag_sim_fw_foreign_owner(const struct mlx5_diag_sim_fw *fw)
{
	return fw->foreign && fw->eng.enabled;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_foreign_owner);

bool mlx5_diag_sim_fw_engine_enabled(const struct mlx5_diag_sim_fw *fw)
{
	return fw->eng.enabled;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_engine_enabled);

enum mlx5_diag_sim_profile
mlx5_diag_sim_fw_profile(const struct mlx5_diag_sim_fw *fw)
{
	return fw->profile;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_profile);

int mlx5_diag_sim_fw_set_profile(struct mlx5_diag_sim_fw *fw,
				 enum mlx5_diag_sim_profile profile)
{
	if (profile != MLX5_DIAG_SIM_MODEL64 && profile != MLX5_DIAG_SIM_PUBLIC)
		return -EINVAL;
	if (profile == fw->profile)
		return 0;
	if (fw->eng.enabled)
		return -EBUSY;
	sim_engine_reset(fw);
	fw->profile = profile;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_profile);

bool mlx5_diag_sim_fw_entries_unit(const struct mlx5_diag_sim_fw *fw)
{
	return fw->entries_unit;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_entries_unit);

void mlx5_diag_sim_fw_set_entries_unit(struct mlx5_diag_sim_fw *fw,
				       bool entries)
{
	fw->entries_unit = entries;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_entries_unit);

/* The oscillator reading at which sample @j of the last schedule is due. */
static u64 sim_due_osc(const struct sim_engine *eng, u64 j)
{
	const struct sim_sched *s = &eng->sched[eng->nr_sched - 1];

	return s->osc0 + ((j - s->j0 + 1) << s->log_period);
}

/* Take sample @j into @slot, due at oscillator reading @osc. */
static void sim_take_sample(struct mlx5_diag_sim_fw *fw, u32 slot, u64 j,
			    u64 osc)
{
	struct sim_engine *eng = &fw->eng;
	struct sim_slot *s = &fw->slots[slot];
	u32 freq = fw->caps.freq_khz;
	u64 t_prev = mlx5_diag_sim_clocks_to_ns(eng->last_osc - eng->enable_osc,
						freq);
	u64 t = mlx5_diag_sim_clocks_to_ns(osc - eng->enable_osc, freq);
	u64 clock = mlx5_diag_sim_clock_at_osc(&fw->clk, osc);
	bool delta = eng->sync && eng->clear;
	u64 *v = &fw->values[(size_t)slot * eng->num];
	u32 c;

	if (sim_slot_pending(fw, s))
		fw->stats.samples_overwritten++;
	s->written = true;
	s->read = false;
	s->gen = eng->gen;
	s->j = j;
	s->id = eng->id0 + j;
	s->ts = !eng->rtc ? clock :
		fw->variants[MLX5_DIAG_SIM_VAR_RTC_STILL] ? eng->enable_ts :
		sim_rtc(clock, freq);
	s->prev_ts = eng->last_ts;
	eng->last_ts = s->ts;
	for (c = 0; c < eng->num; c++)
		v[c] = mlx5_diag_sim_traffic_value(eng->ids[c], fw->index,
						   t_prev, t, delta,
						   fw->wrap_bits);
	eng->last_osc = osc;
	fw->stats.samples_produced++;
}

/*
 * Periodic modes: sample j lands in slot (id0 + j) mod 2^log_num when the
 * oscillator reaches its due reading (id0 is 0 unless the numbering
 * continues across SETs). Only the last 2^log_num of a long gap
 * are materialised; the ones before are counted as produced and
 * overwritten.
 */
static void sim_engine_advance(struct mlx5_diag_sim_fw *fw, u64 osc)
{
	struct sim_engine *eng = &fw->eng;
	u64 nslots = 1ULL << eng->log_num;
	const struct sim_sched *sch;
	u64 due, k, j;
	u32 s;

	if (!eng->enabled || eng->on_demand)
		return;
	sch = &eng->sched[eng->nr_sched - 1];
	due = sch->j0 + ((osc - sch->osc0) >> sch->log_period);
	if (eng->single)
		due = min(due, nslots);
	if (fw->lies[MLX5_DIAG_SIM_LIE_SAMPLING_STOPS])
		due = min_t(u64, due, fw->lies[MLX5_DIAG_SIM_LIE_SAMPLING_STOPS]);
	if (due <= eng->next_j)
		return;
	k = due - eng->next_j;
	if (k > nslots) {
		u64 skip = k - nslots;

		/* every slot is taken over within this batch */
		for (s = 0; s < nslots; s++) {
			if (sim_slot_pending(fw, &fw->slots[s]))
				fw->stats.samples_overwritten++;
			fw->slots[s].written = false;
		}
		fw->stats.samples_produced += skip;
		fw->stats.samples_overwritten += skip;
		eng->next_j += skip;
		eng->last_osc = sim_due_osc(eng, eng->next_j - 1);
	}
	for (j = eng->next_j; j < due; j++)
		sim_take_sample(fw, (eng->id0 + j) & (nslots - 1), j,
				sim_due_osc(eng, j));
	eng->next_j = due;
}

/* Bring the engine up to @now_ns; returns the time used. */
static u64 sim_sync(struct mlx5_diag_sim_fw *fw, u64 now_ns)
{
	u64 now = sim_now(fw, now_ns);

	sim_engine_advance(fw, mlx5_diag_sim_clock_osc(&fw->clk, now));
	return now;
}

void mlx5_diag_sim_fw_sync(struct mlx5_diag_sim_fw *fw, u64 now_ns)
{
	sim_sync(fw, now_ns);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_sync);

s32 mlx5_diag_sim_fw_drift_ppm(const struct mlx5_diag_sim_fw *fw)
{
	return fw->clk.seg[fw->clk.nr - 1].ppm;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_drift_ppm);

int mlx5_diag_sim_fw_set_drift_ppm(struct mlx5_diag_sim_fw *fw, u64 now_ns,
				   s32 ppm)
{
	if (ppm < -MLX5_DIAG_SIM_MAX_DRIFT_PPM ||
	    ppm > MLX5_DIAG_SIM_MAX_DRIFT_PPM)
		return -EINVAL;
	mlx5_diag_sim_clock_set_ppm(&fw->clk, sim_sync(fw, now_ns), ppm);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_drift_ppm);

void mlx5_diag_sim_fw_clock_step(struct mlx5_diag_sim_fw *fw, u64 now_ns,
				 s64 clocks)
{
	mlx5_diag_sim_clock_step(&fw->clk, sim_sync(fw, now_ns), clocks);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_clock_step);

int mlx5_diag_sim_fw_sample_time(const struct mlx5_diag_sim_fw *fw, u64 j,
				 u64 *now_ns, u64 *clock)
{
	const struct sim_engine *eng = &fw->eng;
	const struct sim_sched *s;
	u64 n, osc;
	u32 i;
	int err;

	if (!eng->enabled || eng->on_demand)
		return -ENODATA;
	if (eng->single && j >= 1ULL << eng->log_num)
		return -ENODATA;
	for (i = eng->nr_sched - 1; i && eng->sched[i].j0 > j; i--)
		;
	s = &eng->sched[i];
	if (j < s->j0)
		return -ENODATA;
	n = j - s->j0 + 1;
	if (n > (U64_MAX - s->osc0) >> s->log_period)
		return -ERANGE;
	osc = s->osc0 + (n << s->log_period);
	err = mlx5_diag_sim_clock_osc_to_ns(&fw->clk, osc, now_ns);
	if (err)
		return err;
	*clock = mlx5_diag_sim_clock_at_osc(&fw->clk, osc);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_sample_time);

int mlx5_diag_sim_fw_engine_time(const struct mlx5_diag_sim_fw *fw,
				 u64 now_ns, u64 *clocks, u64 *ns)
{
	const struct sim_engine *eng = &fw->eng;

	if (!eng->enabled)
		return -ENODATA;
	/* time never runs backwards: not before the last command's */
	now_ns = max(now_ns, fw->last_now_ns);
	*clocks = mlx5_diag_sim_clock_osc(&fw->clk, now_ns) - eng->enable_osc;
	*ns = mlx5_diag_sim_clocks_to_ns(*clocks, fw->caps.freq_khz);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_engine_time);

static u8 sim_fail(struct sim_cmd *cmd, u8 status, u32 syndrome)
{
	cmd->syndrome = syndrome;
	return status;
}

static u8 sim_short_input(struct sim_cmd *cmd)
{
	return sim_fail(cmd, MLX5_DIAG_SIM_ST_BAD_INP_LEN,
			MLX5_DIAG_SIM_SYND_SHORT_INPUT);
}

static u8 sim_short_output(struct sim_cmd *cmd)
{
	return sim_fail(cmd, MLX5_DIAG_SIM_ST_BAD_OUTP_LEN,
			MLX5_DIAG_SIM_SYND_SHORT_OUTPUT);
}

static u32 sim_nr_listed(const struct mlx5_diag_sim_fw *fw)
{
	return sim_dialect64(fw) ? fw->caps.nr_kinds : fw->caps.nr_ids;
}

static bool sim_id16_in(const u16 *list, u32 nr, u16 id)
{
	u32 i;

	for (i = 0; i < nr; i++)
		if (list[i] == id)
			return true;
	return false;
}

static bool sim_kind_in(const u32 *list, u32 nr, u32 kind)
{
	u32 i;

	for (i = 0; i < nr; i++)
		if (list[i] == kind)
			return true;
	return false;
}

/*
 * The output QUERY_HCA_CAP needs for @bits of capability; public firmware
 * also wants room for the whole capability union, as mlx5_core passes it.
 */
static size_t sim_cap_outlen(const struct mlx5_diag_sim_fw *fw, u64 bits)
{
	size_t len = sim_bytes(SIM_CAP_OUT_BASE + bits);

	if (sim_public(fw))
		len = max(len, sim_bytes(SIM_CAP_OUT_BASE +
					 SIM_HCA_CAP_UNION_BITS));
	return len;
}

/* QUERY_HCA_CAP: general (op_mod 0x1) and DEBUG (op_mod 0x1b) caps. */
static u8 sim_query_hca_cap(struct sim_cmd *cmd, u16 op_mod)
{
	const struct mlx5_diag_sim_fw *fw = cmd->fw;
	const struct mlx5_diag_sim_caps *caps = &fw->caps;
	const u32 base = SIM_CAP_OUT_BASE;
	bool d64 = sim_dialect64(fw);
	u32 n = sim_nr_listed(fw);
	void *out = cmd->out;
	size_t len = cmd->outlen;
	u32 eb, i, off;

	/* general: the fields within 0x500 bits; DEBUG: those before the list */
	cmd->head = (SIM_CAP_OUT_BASE - SIM_HDR_BITS) / 32 +
		    (op_mod == SIM_OP_MOD_CAP_DEBUG ? SIM_DEBUG_CAP_LIST : 0x500) / 32;
	switch (op_mod) {
	case SIM_OP_MOD_CAP_GENERAL:
		if (len < sim_cap_outlen(fw, SIM_GEN_CAP_BITS))
			return sim_short_output(cmd);
		sim_set(out, len, base, SIM_GEN_DEBUG, 1);
		sim_set(out, len, base, SIM_GEN_NUM_OF_DIAGNOSTIC_COUNTERS, n);
		sim_set(out, len, base, SIM_GEN_DEVICE_FREQUENCY_MHZ,
			caps->freq_khz / 1000);
		sim_set(out, len, base, SIM_GEN_DEVICE_FREQUENCY_KHZ,
			caps->freq_khz);
		return MLX5_DIAG_SIM_ST_OK;
	case SIM_OP_MOD_CAP_DEBUG:
		eb = d64 ? SIM_M64_KIND_BITS : SIM_CNTR_LAYOUT_BITS;
		if (len < sim_cap_outlen(fw, SIM_DEBUG_CAP_LIST + (u64)eb * n))
			return sim_short_output(cmd);
		sim_set(out, len, base, SIM_DBG_LOG_MAX_SAMPLES,
			caps->log_max_samples);
		sim_set(out, len, base, SIM_DBG_SINGLE, caps->single);
		sim_set(out, len, base, SIM_DBG_REPETITIVE, caps->repetitive);
		sim_set(out, len, base, SIM_DBG_LOG_MIN_SAMPLE_PERIOD,
			caps->log_min_sample_period);
		/* public firmware reserves (zeroes) every modelled bit */
		if (!sim_public(fw))
			mlx5_diag_sim_m64_put_debug_caps(caps, out, len, base);
		if (!sim_public(fw) && d64 &&
		    fw->lies[MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS])
			mlx5_diag_sim_m64_put_max_ids(out, len, base,
						      fw->lies[MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS]);
		sim_set(out, len, base, SIM_DBG_RTC_TIMESTAMP,
			sim_rtc_offered(fw));
		for (i = 0; i < n; i++) {
			off = base + SIM_DEBUG_CAP_LIST + eb * i;
			if (d64) {
				u32 kind = caps->kinds[i];

				mlx5_diag_sim_m64_put_kind(out, len, off, kind,
							   sim_kind_in(caps->sync_kinds,
								       caps->nr_sync_kinds,
								       kind));
			} else {
				u16 id = caps->ids[i];

				sim_set(out, len, off, SIM_CNTR_LAYOUT_SYNC,
					sim_id16_in(caps->sync_ids,
						    caps->nr_sync_ids, id));
				sim_set(out, len, off,
					SIM_CNTR_LAYOUT_COUNTER_ID, id);
			}
		}
		return MLX5_DIAG_SIM_ST_OK;
	default:
		return sim_fail(cmd, MLX5_DIAG_SIM_ST_BAD_PARAM,
				MLX5_DIAG_SIM_SYND_BAD_OP_MOD);
	}
}

/* The requested context of a SET_DIAGNOSTIC_PARAMS input. */
struct sim_set_req {
	u32 num;
	u32 log_num;
	u32 log_period;
	bool single;
	bool repetitive;
	bool sync;
	bool clear;
	bool on_demand;
	bool enable;
	bool tracer_dump;
	bool rtc;
};

/*
 * Rules 1, 2, 3 and 9 of part 1: the mode bits. Public firmware has no
 * on-demand mode (but for the variant PUBLIC_ON_DEMAND) and no capability
 * bits for sync and clear: the per-counter sync bits (rule 8) and rule 3
 * limit sync; clear, whose capability it does not report, it takes as
 * the caps file data_clear says.
 */
static u8 sim_check_modes(struct sim_cmd *cmd, const struct sim_set_req *r)
{
	const struct mlx5_diag_sim_fw *fw = cmd->fw;
	const struct mlx5_diag_sim_caps *caps = &fw->caps;
	const u8 bad = MLX5_DIAG_SIM_ST_BAD_PARAM;
	bool pub = sim_public(fw);

	if (r->single && r->repetitive)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_SINGLE_REPETITIVE);
	if (r->on_demand &&
	    (r->repetitive || r->clear || r->sync || r->single))
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_ON_DEMAND_COMBO);
	/* clear without sync is the disable of rule 7 only */
	if (r->clear && !r->sync && r->enable)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_CLEAR_NO_SYNC);
	if (!r->enable)
		return MLX5_DIAG_SIM_ST_OK;
	if (r->single && !caps->single)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_SINGLE);
	if (r->repetitive && !caps->repetitive)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_REPETITIVE);
	if (r->on_demand &&
	    (pub ? !fw->variants[MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND] :
		   !caps->on_demand))
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_ON_DEMAND);
	if (r->sync && !pub && !caps->sync_start)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_SYNC_START);
	if (r->clear && !caps->data_clear)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_DATA_CLEAR);
	if (r->rtc && !sim_rtc_offered(fw))
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_RTC);
	/* diag_counter_tracer_dump is never offered */
	if (r->tracer_dump)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_TRACER_DUMP);
	if (!r->single && !r->repetitive && !r->on_demand)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_MODE);
	return MLX5_DIAG_SIM_ST_OK;
}

/* Rules 4, 8 (count) and 5: period and buffer geometry. */
static u8 sim_check_geometry(struct sim_cmd *cmd, const struct sim_set_req *r)
{
	const struct mlx5_diag_sim_caps *caps = &cmd->fw->caps;
	const u8 bad = MLX5_DIAG_SIM_ST_BAD_PARAM;
	u32 max = sim_dialect64(cmd->fw) ? caps->max_num_data_ids :
					    caps->nr_ids;
	u32 spare;

	if (r->enable && (r->single || r->repetitive)) {
		if (r->log_period < caps->log_min_sample_period)
			return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_PERIOD_LOW);
		if (r->log_period > MLX5_DIAG_SIM_MAX_LOG_PERIOD)
			return sim_fail(cmd, bad,
					MLX5_DIAG_SIM_SYND_PERIOD_HIGH);
	}
	if (r->enable && (r->num < 1 || r->num > max))
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NUM_COUNTERS);
	if (r->log_num > caps->log_max_samples)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_LOG_SAMPLES);
	/* 2^(log_max_samples - log_num_of_samples) >= num_of_counters */
	spare = caps->log_max_samples - r->log_num;
	if (spare < 16 && (1U << spare) < r->num)
		return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_BUFFER_SHARE);
	return MLX5_DIAG_SIM_ST_OK;
}

/* Rule 8: every id listed, with sync every id sync-capable. */
static u8 sim_check_ids(struct sim_cmd *cmd, const struct sim_set_req *r,
			u64 *ids)
{
	const struct mlx5_diag_sim_caps *caps = &cmd->fw->caps;
	const u32 first = SIM_PARAMS_CTX_BASE + SIM_PARAMS_CTX_HDR_BITS;
	const u8 bad = MLX5_DIAG_SIM_ST_BAD_PARAM;
	enum mlx5_diag_sim_bad_id_reason why;
	u32 i;

	for (i = 0; i < r->num; i++) {
		if (!sim_dialect64(cmd->fw)) {
			u16 id = sim_get(cmd->in, cmd->inlen,
					 first + SIM_PARAMS_CNTR_BITS * i,
					 SIM_CTX_CNTR_COUNTER_ID);

			if (!sim_id16_in(caps->ids, caps->nr_ids, id))
				return sim_fail(cmd, bad,
						MLX5_DIAG_SIM_SYND_UNSUPPORTED_ID);
			if (r->sync &&
			    !sim_id16_in(caps->sync_ids, caps->nr_sync_ids, id))
				return sim_fail(cmd, bad,
						MLX5_DIAG_SIM_SYND_NO_SYNC);
			ids[i] = id;
			continue;
		}
		ids[i] = mlx5_diag_sim_m64_get_id(cmd->in, cmd->inlen,
						  first + SIM_M64_ID_BITS * i);
		why = mlx5_diag_sim_check_data_id(caps, ids[i], r->sync);
		if (why == MLX5_DIAG_SIM_BAD_ID_NONE)
			continue;
		mlx5_diag_sim_m64_put_bad_id(cmd->out, cmd->outlen, i, why);
		switch (why) {
		case MLX5_DIAG_SIM_BAD_ID_KIND:
			return sim_fail(cmd, bad,
					MLX5_DIAG_SIM_SYND_UNSUPPORTED_ID);
		case MLX5_DIAG_SIM_BAD_ID_SYNC:
			return sim_fail(cmd, bad, MLX5_DIAG_SIM_SYND_NO_SYNC);
		default:
			return sim_fail(cmd, bad,
					MLX5_DIAG_SIM_SYND_BAD_INSTANCE);
		}
	}
	return MLX5_DIAG_SIM_ST_OK;
}

/*
 * MODEL: the actual period of a periodic mode. Collecting a sample takes
 * 512 clocks per counter and 2048 per statistic, and may use at most a
 * quarter of the period: the requested period is raised to the next power
 * of two at least 4 x the collection time.
 */
static u32 sim_actual_period(const struct sim_set_req *r, const u64 *ids)
{
	u64 clocks = 0;
	u32 i;

	if (!r->single && !r->repetitive)
		return r->log_period;
	for (i = 0; i < r->num; i++)
		clocks += mlx5_diag_sim_traffic_statistic(ids[i]) ?
			  SIM_COLLECT_STATISTIC : SIM_COLLECT_COUNTER;
	return max_t(u32, r->log_period, order_base_2(4 * clocks));
}

/* Does @r hold what the engine runs, but for the period? */
static bool sim_same_but_period(const struct sim_engine *eng,
				const struct sim_set_req *r, const u64 *ids)
{
	return eng->enabled && r->single == eng->single &&
	       r->repetitive == eng->repetitive && r->sync == eng->sync &&
	       r->clear == eng->clear && r->on_demand == eng->on_demand &&
	       r->rtc == eng->rtc && r->log_num == eng->log_num &&
	       r->num == eng->num &&
	       !memcmp(ids, eng->ids, r->num * sizeof(ids[0]));
}

/*
 * A SET while enabled that changes only the period: the samples and their
 * numbering stay; the next one is due one new period from now. Firmware of
 * the variants empties the buffer (PERIOD_CLEAR) or numbers the samples
 * from 0 again, from slot 0 (PERIOD_RESTART; sample_time then knows the
 * new numbering only). A numbering that continues across SETs
 * (SAMPLE_ID_CONTINUES) runs on through such a restart: only the samples'
 * indices for sample_time start again.
 */
static void sim_change_period(struct sim_cmd *cmd, u32 log_period,
			      u32 log_period_asked)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	struct sim_engine *eng = &fw->eng;

	eng->log_period = log_period;
	eng->log_period_asked = log_period_asked;
	if (eng->on_demand)
		return;
	if (fw->variants[MLX5_DIAG_SIM_VAR_PERIOD_CLEAR])
		sim_buf_reset(fw);
	if (fw->variants[MLX5_DIAG_SIM_VAR_PERIOD_RESTART]) {
		if (fw->variants[MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES])
			eng->id0 += eng->next_j;
		eng->next_j = 0;
		eng->nr_sched = 0;
	}
	if (eng->nr_sched == SIM_SCHED_HISTORY) {
		memmove(&eng->sched[0], &eng->sched[1],
			(SIM_SCHED_HISTORY - 1) * sizeof(eng->sched[0]));
		eng->nr_sched--;
	}
	eng->sched[eng->nr_sched++] = (struct sim_sched){
		.j0 = eng->next_j, .osc0 = cmd->osc, .log_period = log_period,
	};
}

/*
 * The order of a sample's entries for the configuration starting now: the
 * SET's, or by ascending or descending data ID (ENTRY_ORDER 1, 2). An
 * insertion sort of the counters, at most 256.
 */
static void sim_entry_order(struct mlx5_diag_sim_fw *fw)
{
	struct sim_engine *eng = &fw->eng;
	u32 by = fw->variants[MLX5_DIAG_SIM_VAR_ENTRY_ORDER];
	u32 k, i;

	for (k = 0; k < eng->num; k++) {
		for (i = k; i; i--) {
			u64 prev = eng->ids[eng->order[i - 1]];

			if (!(by == 1 && prev > eng->ids[k]) &&
			    !(by == 2 && prev < eng->ids[k]))
				break;
			eng->order[i] = eng->order[i - 1];
		}
		eng->order[i] = k;
	}
}

/*
 * Start sampling @r anew: engine time 0, sample 0 next, numbered 0 or,
 * where the numbering continues across SETs, one past the last sample
 * taken before.
 */
static void sim_start(struct sim_cmd *cmd, const struct sim_set_req *r,
		      const u64 *ids, u32 log_period)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	struct sim_engine *eng = &fw->eng;

	/*
	 * Rule 6: another log_num_of_samples resets the buffer. So does
	 * another counter list: its samples cannot be returned as entries of
	 * the new list.
	 */
	if (r->log_num != eng->log_num || r->num != eng->num ||
	    memcmp(ids, eng->ids, r->num * sizeof(ids[0])))
		sim_buf_reset(fw);
	fw->stats.samples_produced = 0;
	fw->stats.samples_returned = 0;
	fw->stats.samples_overwritten = 0;
	fw->stats.samples_discarded = 0;
	eng->single = r->single;
	eng->repetitive = r->repetitive;
	eng->sync = r->sync;
	eng->clear = r->clear;
	eng->on_demand = r->on_demand;
	eng->rtc = r->rtc;
	eng->log_num = r->log_num;
	eng->log_period = log_period;
	eng->log_period_asked = r->log_period;
	eng->num = r->num;
	memcpy(eng->ids, ids, r->num * sizeof(ids[0]));
	sim_entry_order(fw);
	eng->enabled = true;
	fw->ahead_started = false;
	eng->enable_osc = cmd->osc;
	eng->last_osc = cmd->osc;
	eng->id0 = fw->variants[MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES] ?
		   eng->id0 + eng->next_j : 0;
	eng->next_j = 0;
	eng->gen++;
	eng->nr_sched = 1;
	eng->sched[0] = (struct sim_sched){
		.j0 = 0, .osc0 = cmd->osc, .log_period = log_period,
	};
	mlx5_diag_sim_clock_restart(&fw->clk, cmd->ns);
	eng->last_ts = mlx5_diag_sim_clock_at_osc(&fw->clk, cmd->osc);
	if (eng->rtc)
		eng->last_ts = sim_rtc(eng->last_ts, fw->caps.freq_khz);
	eng->enable_ts = eng->last_ts;
}

static u8 sim_set_params(struct sim_cmd *cmd)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	struct sim_engine *eng = &fw->eng;
	const u32 ctx = SIM_PARAMS_CTX_BASE;
	const void *in = cmd->in;
	size_t inlen = cmd->inlen;
	u64 *ids = fw->new_ids;
	struct sim_set_req r;
	u32 eb, period;
	u8 st;

	eb = sim_dialect64(fw) ? SIM_M64_ID_BITS : SIM_PARAMS_CNTR_BITS;
	if (inlen < sim_bytes(ctx + SIM_PARAMS_CTX_HDR_BITS))
		return sim_short_input(cmd);
	r.num = sim_get(in, inlen, ctx, SIM_CTX_NUM_OF_COUNTERS);
	if (inlen < sim_bytes(ctx + SIM_PARAMS_CTX_HDR_BITS + (u64)eb * r.num))
		return sim_short_input(cmd);
	r.log_num = sim_get(in, inlen, ctx, SIM_CTX_LOG_NUM_OF_SAMPLES);
	r.log_period = sim_get(in, inlen, ctx, SIM_CTX_LOG_SAMPLE_PERIOD);
	r.single = sim_get(in, inlen, ctx, SIM_CTX_SINGLE);
	r.repetitive = sim_get(in, inlen, ctx, SIM_CTX_REPETITIVE);
	r.sync = sim_get(in, inlen, ctx, SIM_CTX_SYNC);
	r.clear = sim_get(in, inlen, ctx, SIM_CTX_CLEAR);
	r.on_demand = sim_get(in, inlen, ctx, SIM_CTX_ON_DEMAND);
	r.enable = sim_get(in, inlen, ctx, SIM_CTX_ENABLE);
	r.tracer_dump = sim_get(in, inlen, ctx, SIM_CTX_TRACER_DUMP);
	r.rtc = sim_get(in, inlen, ctx, SIM_CTX_TIMESTAMP_RTC);

	st = sim_check_modes(cmd, &r);
	if (!st)
		st = sim_check_geometry(cmd, &r);
	if (st)
		return st;

	/* Rule 7: enable = 0 stops; with clear it also empties the buffer. */
	if (!r.enable) {
		eng->enabled = false;
		if (r.clear)
			sim_buf_reset(fw);
		fw->foreign = false;
		fw->stats.configs++;
		return MLX5_DIAG_SIM_ST_OK;
	}

	st = sim_check_ids(cmd, &r, ids);
	if (st)
		return st;
	period = sim_actual_period(&r, ids);
	if (sim_same_but_period(eng, &r, ids) && period != eng->log_period)
		sim_change_period(cmd, period, r.log_period);
	else
		sim_start(cmd, &r, ids, period);
	fw->foreign = cmd->foreign;
	fw->stats.configs++;
	return MLX5_DIAG_SIM_ST_OK;
}

/* A field QUERY_DIAGNOSTIC_PARAMS reports: the lie while enabled, if told. */
static u32 sim_params_lie(const struct mlx5_diag_sim_fw *fw,
			  enum mlx5_diag_sim_lie lie, u32 truth)
{
	return fw->eng.enabled && fw->lies[lie] ? fw->lies[lie] : truth;
}

static u8 sim_query_params(struct sim_cmd *cmd)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	const struct sim_engine *eng = &fw->eng;
	const u32 ctx = SIM_PARAMS_CTX_BASE;
	const u32 first = ctx + SIM_PARAMS_CTX_HDR_BITS;
	bool d64 = sim_dialect64(fw);
	void *out = cmd->out;
	size_t len = cmd->outlen;
	u32 eb, i;

	eb = d64 ? SIM_M64_ID_BITS : SIM_PARAMS_CNTR_BITS;
	if (cmd->inlen < sim_bytes(SIM_QUERY_PARAMS_IN_BITS))
		return sim_short_input(cmd);
	if (len < sim_bytes(first + (u64)eb * eng->num))
		return sim_short_output(cmd);
	cmd->head = SIM_PARAMS_CTX_HDR_BITS / 32;
	sim_set(out, len, ctx, SIM_CTX_NUM_OF_COUNTERS,
		sim_params_lie(fw, MLX5_DIAG_SIM_LIE_PARAMS_NUM_IDS, eng->num));
	sim_set(out, len, ctx, SIM_CTX_LOG_NUM_OF_SAMPLES,
		sim_params_lie(fw, MLX5_DIAG_SIM_LIE_PARAMS_LOG_NUM,
			       eng->log_num));
	sim_set(out, len, ctx, SIM_CTX_SINGLE, eng->single);
	sim_set(out, len, ctx, SIM_CTX_REPETITIVE, eng->repetitive);
	sim_set(out, len, ctx, SIM_CTX_SYNC, eng->sync);
	sim_set(out, len, ctx, SIM_CTX_CLEAR, eng->clear);
	sim_set(out, len, ctx, SIM_CTX_ON_DEMAND, eng->on_demand);
	sim_set(out, len, ctx, SIM_CTX_ENABLE, eng->enabled);
	sim_set(out, len, ctx, SIM_CTX_TIMESTAMP_RTC, eng->rtc);
	sim_set(out, len, ctx, SIM_CTX_LOG_SAMPLE_PERIOD,
		sim_params_lie(fw, MLX5_DIAG_SIM_LIE_PARAMS_LOG_PERIOD,
			       fw->variants[MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED] ?
			       eng->log_period_asked : eng->log_period));
	for (i = 0; i < eng->num; i++) {
		if (d64)
			mlx5_diag_sim_m64_put_id(out, len, first + eb * i,
						 eng->ids[i]);
		else
			sim_set(out, len, first + eb * i,
				SIM_CTX_CNTR_COUNTER_ID, eng->ids[i]);
	}
	return MLX5_DIAG_SIM_ST_OK;
}

/*
 * A timestamp one tick before @ts: a clock before, or on the RTC (seconds
 * << 32 | nanoseconds) a nanosecond before, borrowing from the seconds so
 * that the nanoseconds stay below 10^9.
 */
static u64 sim_ts_before(u64 ts, bool rtc)
{
	if (rtc && !lower_32_bits(ts))
		return ts - BIT_ULL(32) + NSEC_PER_SEC - 1;
	return ts - 1;
}

/*
 * The timestamp @ts (FRC clocks, or RTC seconds << 32 | ns) plus @off
 * (clocks, or nanoseconds carried into the seconds).
 */
static u64 sim_ts_after(u64 ts, u32 off, bool rtc)
{
	u32 ns;
	u64 s;

	if (!rtc)
		return ts + off;
	s = div_u64_rem(lower_32_bits(ts) + (u64)off, NSEC_PER_SEC, &ns);
	return ((ts >> 32) + s) << 32 | ns;
}

/*
 * ENTRY_JITTER J: entry @c of sample @j is stamped k * J / (num - 1)
 * after the sample's time, k = (c - j) mod num: entry j mod num at the
 * sample's time (its earliest), the others up to J later, the order
 * rotating from sample to sample.
 */
static u32 sim_entry_jitter(const struct mlx5_diag_sim_fw *fw, u64 j, u32 c)
{
	u32 jitter = fw->variants[MLX5_DIAG_SIM_VAR_ENTRY_JITTER];
	u32 num = fw->eng.num, k;

	if (!jitter || num < 2)
		return 0;
	k = (c + num - (u32)do_div(j, num)) % num;
	return (u32)div_u64((u64)k * jitter, num - 1);
}

/*
 * Write entry @e of the answer: entry @g of the buffer read as one run of
 * entries (slot g / num, entry g % num of its sample: the counter the
 * configuration's entry order puts there), wrapping through the slots.
 */
static void sim_put_entry(struct sim_cmd *cmd, u32 e, u32 g)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	const struct sim_engine *eng = &fw->eng;
	u32 slot = (g / eng->num) & ((1U << eng->log_num) - 1);
	u32 c = g % eng->num;
	struct sim_slot *sl = &fw->slots[slot];
	u64 val, ts = sl->written ? sl->ts : 0;
	u64 j = sl->written ? sl->id : 0;
	void *out = cmd->out;
	size_t len = cmd->outlen;
	u32 off;

	/* the outbox is zeroed: a zero-filled slot is no entry written */
	if (!sl->written && fw->variants[MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO] &&
	    !(fw->lies[MLX5_DIAG_SIM_LIE_RING_AHEAD] && !eng->on_demand))
		return;
	if (fw->variants[MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS] == 16)
		j &= U16_MAX;
	c = eng->order[c];
	if (fw->lies[MLX5_DIAG_SIM_LIE_ENTRIES_REVERSED] == 1 ||
	    (fw->lies[MLX5_DIAG_SIM_LIE_ENTRIES_REVERSED] == 2 && (j & 1)))
		c = eng->num - 1 - c;
	val = sl->written ? fw->values[(size_t)slot * eng->num + c] : 0;
	if (sl->written)
		ts = sim_ts_after(ts, sim_entry_jitter(fw, sl->j, c), eng->rtc);
	if (fw->lies[MLX5_DIAG_SIM_LIE_ENTRY_TS_BACK] && sl->written &&
	    sl->j == fw->lies[MLX5_DIAG_SIM_LIE_ENTRY_TS_BACK] &&
	    eng->num > 1 && g % eng->num == eng->num - 1)
		ts = sim_ts_before(sl->prev_ts, eng->rtc);
	if (fw->variants[MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT] && sl->written)
		j = slot;
	if (fw->lies[MLX5_DIAG_SIM_LIE_RING_AHEAD] && !eng->on_demand) {
		j = fw->ahead_next + e / eng->num;
		ts = fw->ahead_ts;
	}

	if (sim_dialect64(fw)) {
		off = SIM_QUERY_CNTRS_OUT_BASE + SIM_M64_DATA_BITS * e;
		mlx5_diag_sim_m64_put_sample(out, len, off, eng->ids[c],
					     (u32)j, ts, val);
	} else {
		off = SIM_QUERY_CNTRS_OUT_BASE + SIM_CNTR_STRUCT_BITS * e;
		sim_set(out, len, off, SIM_CS_COUNTER_ID, eng->ids[c]);
		sim_set(out, len, off, SIM_CS_SAMPLE_ID, (u16)j);
		sim_set(out, len, off, SIM_CS_TIME_STAMP_31_0, (u32)ts);
		sim_set(out, len, off, SIM_CS_COUNTER_VALUE_H, val >> 32);
		sim_set(out, len, off, SIM_CS_COUNTER_VALUE_L, (u32)val);
	}
	if (sim_slot_pending(fw, sl))
		fw->stats.samples_returned++;
	if (sl->written)
		sl->read = true;
}

/*
 * RING_AHEAD: the answer's samples are a lap ahead of the reader. The first
 * answer of a run starts a lap past the engine's next sample, in slot
 * @index; each later one goes on where the last stopped if it asks there,
 * which is where a reader that skipped those asks next, and otherwise
 * starts a lap past the last answered, in slot @index (a reader that reads
 * the whole buffer). All carry the clock of the query.
 */
static void sim_lie_ahead(struct sim_cmd *cmd, u32 index)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	const struct sim_engine *eng = &fw->eng;
	u64 nslots = 1ULL << eng->log_num;
	u64 clock = mlx5_diag_sim_clock_at_osc(&fw->clk, cmd->osc);

	if (!fw->ahead_started) {
		fw->ahead_next = round_up(eng->next_j + nslots - index,
					  nslots) + index;
		fw->ahead_started = true;
	} else if ((fw->ahead_next & (nslots - 1)) != index) {
		fw->ahead_next = round_up(fw->ahead_next + nslots - index,
					  nslots) + index;
	}
	fw->ahead_ts = eng->rtc ? sim_rtc(clock, fw->caps.freq_khz) : clock;
}

/*
 * The slots a periodic query of num_of_samples @n reads: @n samples of
 * num_of_counters entries (MLNX_OFED's reading) or, with entries_unit, @n
 * entries (mlx5ctl's reading), a partial sample counting whole.
 */
static u32 sim_query_slots(const struct mlx5_diag_sim_fw *fw, u32 n)
{
	return fw->entries_unit ? DIV_ROUND_UP(n, fw->eng.num) : n;
}

/*
 * num_of_samples counts samples or entries (sim_query_slots()); either way
 * the answer starts with the first entry of slot sample_index.
 */
static u8 sim_query_counters(struct sim_cmd *cmd)
{
	struct mlx5_diag_sim_fw *fw = cmd->fw;
	struct sim_engine *eng = &fw->eng;
	const u8 bad = MLX5_DIAG_SIM_ST_BAD_PARAM;
	u32 nslots = 1U << eng->log_num;
	u32 n, index, es, entries, e;

	if (cmd->inlen < sim_bytes(SIM_QUERY_CNTRS_IN_BITS))
		return sim_short_input(cmd);
	n = sim_get(cmd->in, cmd->inlen, 0, SIM_QRY_NUM_OF_SAMPLES);
	index = sim_get(cmd->in, cmd->inlen, 0, SIM_QRY_SAMPLE_INDEX);
	if (!eng->num)
		return sim_fail(cmd, MLX5_DIAG_SIM_ST_BAD_SYS_STATE,
				MLX5_DIAG_SIM_SYND_NOT_CONFIGURED);
	if (eng->on_demand) {
		/* one sample at the query's clock, into slot 0 */
		if (!n)
			return sim_fail(cmd, bad,
					MLX5_DIAG_SIM_SYND_ZERO_SAMPLES);
		entries = eng->num;
		index = 0;
	} else {
		if (index >= nslots)
			return sim_fail(cmd, bad,
					MLX5_DIAG_SIM_SYND_SAMPLE_INDEX);
		entries = fw->entries_unit ? n : n * eng->num;
		if (entries > nslots * eng->num)
			return sim_fail(cmd, bad,
					MLX5_DIAG_SIM_SYND_TOO_MANY_SAMPLES);
	}
	es = sim_dialect64(fw) ? SIM_M64_DATA_BITS : SIM_CNTR_STRUCT_BITS;
	if (cmd->outlen < sim_bytes(SIM_QUERY_CNTRS_OUT_BASE +
				    (u64)es * entries))
		return sim_short_output(cmd);

	cmd->used = sim_bytes(SIM_QUERY_CNTRS_OUT_BASE + (u64)es * entries);
	if (eng->on_demand && eng->enabled)
		sim_take_sample(fw, 0, eng->next_j++, cmd->osc);
	if (fw->lies[MLX5_DIAG_SIM_LIE_RING_AHEAD] && !eng->on_demand)
		sim_lie_ahead(cmd, index);
	for (e = 0; e < entries; e++)
		sim_put_entry(cmd, e, index * eng->num + e);
	if (fw->lies[MLX5_DIAG_SIM_LIE_RING_AHEAD] && !eng->on_demand)
		fw->ahead_next += sim_query_slots(fw, n);
	return MLX5_DIAG_SIM_ST_OK;
}

static u8 sim_dispatch(struct sim_cmd *cmd)
{
	u16 opcode, op_mod;

	if (cmd->inlen < sim_bytes(SIM_HDR_BITS))
		return sim_short_input(cmd);
	opcode = sim_get(cmd->in, cmd->inlen, 0, SIM_IN_OPCODE);
	op_mod = sim_get(cmd->in, cmd->inlen, 0, SIM_IN_OP_MOD);

	switch (opcode) {
	case SIM_OP_QUERY_HCA_CAP:
		return sim_query_hca_cap(cmd, op_mod);
	case SIM_OP_QUERY_DIAGNOSTIC_PARAMS:
	case SIM_OP_SET_DIAGNOSTIC_PARAMS:
	case SIM_OP_QUERY_DIAGNOSTIC_COUNTERS:
		if (op_mod)
			return sim_fail(cmd, MLX5_DIAG_SIM_ST_BAD_PARAM,
					MLX5_DIAG_SIM_SYND_BAD_OP_MOD);
		break;
	default:
		return sim_fail(cmd, MLX5_DIAG_SIM_ST_BAD_OP,
				MLX5_DIAG_SIM_SYND_BAD_OPCODE);
	}
	switch (opcode) {
	case SIM_OP_QUERY_DIAGNOSTIC_PARAMS:
		return sim_query_params(cmd);
	case SIM_OP_SET_DIAGNOSTIC_PARAMS:
		return sim_set_params(cmd);
	default:
		return sim_query_counters(cmd);
	}
}

/*
 * Is @cmd the QUERY_DIAGNOSTIC_COUNTERS that fail_query_at waits for: one
 * whose slots (from sample_index, wrapping around the buffer) include
 * failq_index? A query the engine refuses anyway matches only from it.
 */
static bool sim_fail_query_due(const struct sim_cmd *cmd)
{
	const struct mlx5_diag_sim_fw *fw = cmd->fw;
	const struct sim_engine *eng = &fw->eng;
	u32 nslots = 1U << eng->log_num;
	u32 index, n;

	if (!fw->failq_status ||
	    cmd->inlen < sim_bytes(SIM_QUERY_CNTRS_IN_BITS) ||
	    sim_get(cmd->in, cmd->inlen, 0, SIM_IN_OPCODE) !=
	    SIM_OP_QUERY_DIAGNOSTIC_COUNTERS)
		return false;
	index = sim_get(cmd->in, cmd->inlen, 0, SIM_QRY_SAMPLE_INDEX);
	n = sim_get(cmd->in, cmd->inlen, 0, SIM_QRY_NUM_OF_SAMPLES);
	if (!eng->num || eng->on_demand || index >= nslots)
		return index == fw->failq_index;
	if (fw->failq_index >= nslots)
		return false;
	return ((fw->failq_index - index) & (nslots - 1)) <
	       sim_query_slots(fw, n);
}

int mlx5_diag_sim_fw_exec(struct mlx5_diag_sim_fw *fw, u64 now_ns,
			  const void *in, int inlen, void *out, int outlen)
{
	struct sim_cmd cmd = {
		.fw = fw,
		.in = in,
		.inlen = inlen,
		.out = out,
		.outlen = outlen,
		.used = outlen,
	};
	u8 status;

	if (!fw || !in || !out || inlen < 0 ||
	    outlen < MLX5_DIAG_SIM_OUT_HDR_BYTES)
		return -EINVAL;
	/* the transport's answer is all of @out, 0 where nothing is written */
	memset(out, 0, outlen);
	cmd.ns = sim_sync(fw, now_ns);
	cmd.osc = mlx5_diag_sim_clock_osc(&fw->clk, cmd.ns);

	fw->stats.commands++;
	if (sim_fail_query_due(&cmd)) {
		status = fw->failq_status;
		fw->failq_status = 0;
		fw->failq_index = 0;
	} else if (fw->fail_count) {
		fw->fail_count--;
		status = sim_fail(&cmd, fw->fail_status, fw->fail_syndrome);
		if (!fw->fail_count) {
			fw->fail_status = 0;
			fw->fail_syndrome = 0;
		}
	} else if (fw->variants[MLX5_DIAG_SIM_VAR_BUSY_EVERY] &&
		   !(fw->stats.commands %
		     fw->variants[MLX5_DIAG_SIM_VAR_BUSY_EVERY])) {
		status = sim_fail(&cmd, MLX5_DIAG_SIM_ST_RES_BUSY,
				  MLX5_DIAG_SIM_SYND_BUSY);
	} else {
		status = sim_dispatch(&cmd);
	}
	if (status)
		fw->stats.commands_failed++;
	sim_set(out, outlen, 0, SIM_OUT_STATUS, status);
	sim_set(out, outlen, 0, SIM_OUT_SYNDROME, cmd.syndrome);
	return mlx5_diag_sim_fuzz_answer(&fw->fuzz, out, outlen, cmd.used,
					 cmd.head);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_exec);

/* A SET_DIAGNOSTIC_PARAMS from "another agent": not a transport command. */
static u8 sim_foreign_set(struct mlx5_diag_sim_fw *fw, u64 now_ns,
			  bool enable)
{
	const u32 ctx = SIM_PARAMS_CTX_BASE;
	const u32 first = ctx + SIM_PARAMS_CTX_HDR_BITS;
	const struct mlx5_diag_sim_caps *caps = &fw->caps;
	u8 in[(SIM_PARAMS_CTX_BASE + SIM_PARAMS_CTX_HDR_BITS +
	       SIM_M64_ID_BITS) / 8] = {};
	u8 out[16] = {};
	struct sim_cmd cmd = {
		.fw = fw,
		.in = in,
		.inlen = sizeof(in),
		.out = out,
		.outlen = sizeof(out),
		.foreign = true,
	};

	cmd.ns = sim_sync(fw, now_ns);
	cmd.osc = mlx5_diag_sim_clock_osc(&fw->clk, cmd.ns);
	sim_set(in, sizeof(in), 0, SIM_IN_OPCODE, SIM_OP_SET_DIAGNOSTIC_PARAMS);
	if (!enable) {
		sim_set(in, sizeof(in), ctx, SIM_CTX_CLEAR, 1);
		return sim_dispatch(&cmd);
	}
	sim_set(in, sizeof(in), ctx, SIM_CTX_NUM_OF_COUNTERS, 1);
	sim_set(in, sizeof(in), ctx, SIM_CTX_LOG_NUM_OF_SAMPLES,
		caps->log_max_samples);
	sim_set(in, sizeof(in), ctx, SIM_CTX_REPETITIVE, 1);
	sim_set(in, sizeof(in), ctx, SIM_CTX_ENABLE, 1);
	sim_set(in, sizeof(in), ctx, SIM_CTX_LOG_SAMPLE_PERIOD,
		caps->log_min_sample_period);
	if (sim_dialect64(fw))
		mlx5_diag_sim_m64_put_id(in, sizeof(in), first,
					 caps->nr_kinds ?
					 (u64)caps->kinds[0] << 32 : 0);
	else
		sim_set(in, sizeof(in), first, SIM_CTX_CNTR_COUNTER_ID,
			caps->nr_ids ? caps->ids[0] : 0);
	return sim_dispatch(&cmd);
}

int mlx5_diag_sim_fw_foreign_enable(struct mlx5_diag_sim_fw *fw, u64 now_ns)
{
	return sim_foreign_set(fw, now_ns, true);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_foreign_enable);

void mlx5_diag_sim_fw_foreign_disable(struct mlx5_diag_sim_fw *fw,
				      u64 now_ns)
{
	if (mlx5_diag_sim_fw_foreign_owner(fw))
		sim_foreign_set(fw, now_ns, false);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_foreign_disable);

int mlx5_diag_sim_fw_set_caps(struct mlx5_diag_sim_fw *fw, u64 now_ns,
			      const struct mlx5_diag_sim_caps *caps)
{
	const struct mlx5_diag_sim_caps *old = &fw->caps;
	bool reset = caps->dialect64 != old->dialect64 ||
		     caps->log_max_samples != old->log_max_samples;
	struct sim_slot *slots = NULL;
	u64 *values = NULL;
	int err;

	err = mlx5_diag_sim_caps_validate(caps);
	if (err)
		return err;
	if (fw->eng.enabled && (reset || caps->freq_khz != old->freq_khz))
		return -EBUSY;
	if (caps->log_max_samples != fw->buf_log) {
		err = sim_buf_alloc(caps->log_max_samples, &values, &slots);
		if (err)
			return err;
	}
	if (caps->freq_khz != old->freq_khz)
		mlx5_diag_sim_clock_set_freq(&fw->clk, sim_now(fw, now_ns),
					     caps->freq_khz);
	if (reset)
		sim_engine_reset(fw);
	if (values) {
		kvfree(fw->values);
		kvfree(fw->slots);
		fw->values = values;
		fw->slots = slots;
		fw->buf_log = caps->log_max_samples;
	}
	fw->caps = *caps;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_fw_set_caps);
