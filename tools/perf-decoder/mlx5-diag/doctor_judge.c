// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag doctor's judgement (doctor.h): each assumption the driver
 * makes about the firmware (the A-numbers of
 * Documentation/driver-api/mlx5-diag-firmware.rst), judged from the runs.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/mlx5_diag.h>

#include "doctor.h"

const char *doctor_verdict_name(enum doctor_verdict v)
{
	static const char *const names[] = {
		[DV_HOLDS] = "holds", [DV_HANDLED] = "handled",
		[DV_DIFFERS] = "differs", [DV_UNKNOWN] = "unknown",
	};

	return v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

uint64_t doctor_step_ns(const struct doctor_run *r, uint64_t step)
{
	if (r->session.ts_source == MLX5_DIAG_TS_RTC || !r->session.freq_khz)
		return step;
	return (uint64_t)((unsigned __int128)step * 1000000u / r->session.freq_khz);
}

static void set(struct doctor_finding *f, enum doctor_verdict v,
		const char *reading, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set(struct doctor_finding *f, enum doctor_verdict v,
		const char *reading, const char *fmt, ...)
{
	va_list ap;

	f->verdict = v;
	f->reading = reading;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

/* R ran and delivered samples; else F is unknown, saying why. */
static int usable(const struct doctor_run *r, struct doctor_finding *f)
{
	if (!r) {
		set(f, DV_UNKNOWN, NULL, "not run");
		return 0;
	}
	if (r->open_errno) {
		set(f, DV_UNKNOWN, NULL, "the %s run could not open: %s", r->name,
		    r->open_error);
		return 0;
	}
	if (!r->rows) {
		set(f, DV_UNKNOWN, NULL, "the %s run delivered no sample in %u ms%s%s",
		    r->name, r->ran_ms, r->stop_why[0] ? ": " : "", r->stop_why);
		return 0;
	}
	return 1;
}

uint64_t doctor_lost_total(const struct doctor_run *r)
{
	return r->lost[0] + r->lost[1] + r->lost[2] + r->lost[3];
}

/* The period R's samples came at, in ns: as reported, or as learnt. */
static uint64_t doctor_run_period_ns(const struct doctor_run *r)
{
	return r->period_learnt ? r->learnt_ns : r->session.period_ns_actual;
}

/* The samples due in MS milliseconds at PERIOD_NS (0: none). */
static uint64_t due_in(unsigned int ms, uint64_t period_ns)
{
	return period_ns ? (uint64_t)ms * 1000000u / period_ns : 0;
}

/*
 * Samples numbered from FROM on stopped well short of the number due in
 * MS milliseconds at PERIOD_NS: the drain stopped.
 */
static int stopped_short(const struct doctor_run *r, uint64_t from,
			 uint64_t period_ns, unsigned int ms)
{
	return r->last_seq + 1 < from ||
	       r->last_seq + 1 - from < due_in(ms, period_ns) / 2;
}

/* The drain stopped at a sample it refused (engine/bad_samples). */
static int refused(const struct doctor_run *r)
{
	return r->engine[DC_BAD_SAMPLES] != 0;
}

/*
 * Delivery stopped at the end of the buffer's first lap, though a quarter
 * lap more was due.
 */
static int stopped_at_lap(const struct doctor_run *r)
{
	uint64_t lap;

	if (r->session.log_num_of_samples >= 32 || !doctor_run_period_ns(r))
		return 0;
	lap = 1ull << r->session.log_num_of_samples;
	return r->last_seq + 1 == lap &&
	       due_in(r->ran_ms, doctor_run_period_ns(r)) >= lap + lap / 4;
}

/*
 * What R showed of its numbering's width, where the driver learnt none
 * narrower than the field: past sample 2^16 in a wider field, a numbering
 * modulo 2^16 would have wrapped there.
 */
static const char *a1_wrap(const struct doctor_run *r)
{
	unsigned int bits = r->session.fw_sample_id_bits;

	if (bits && bits < 64 && r->last_seq >= 1ull << bits)
		return "extended past its wrap";
	if (bits > 16 && r->last_seq >= 1ull << 16)
		return "past sample 2^16 without a wrap";
	return bits > 16 ? "not seen to wrap (--long runs past sample 2^16)" :
			   "not seen to wrap";
}

/* Did the driver learn a numbering narrower than R's sample_id field? */
static int id_bits_narrower(const struct doctor_run *r)
{
	return r->sample_id_bits && r->session.fw_sample_id_bits &&
	       r->sample_id_bits < r->session.fw_sample_id_bits;
}

/* A1: sample_id numbers the samples of a configuration from 0. */
static void judge_a1(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_run *r = e->first;

	if (!usable(r, f))
		return;
	if (stopped_at_lap(r))
		set(f, DV_DIFFERS, "sample_id not a sequence",
		    "delivery stopped after sample %" PRIu64 ", the buffer's first lap, "
		    "in a %u ms run (engine/bad_samples +%" PRIu64 "): sample_id may be "
		    "the slot index", r->last_seq, r->ran_ms, r->engine[DC_BAD_SAMPLES]);
	else if (refused(r))
		set(f, DV_UNKNOWN, NULL, "the drain stopped at a sample it refused, "
		    "after sample %" PRIu64 " (see A2)", r->last_seq);
	else if (r->engine[DC_RECKONED_STARTS])
		set(f, DV_UNKNOWN, NULL, "the run's first read came a lap after its SET, "
		    "answered a period or more late: where the numbering starts was "
		    "reckoned, not read (engine/reckoned_starts +%" PRIu64 "); run doctor "
		    "again on an idle machine", r->engine[DC_RECKONED_STARTS]);
	else if (r->lost[0])
		set(f, DV_DIFFERS, "sample_id not a sequence",
		    "%" PRIu64 " sample(s) missing that no LOST record accounts for",
		    r->lost[0]);
	else if (r->first_seq != r->lost_at_start)
		set(f, DV_DIFFERS, "numbering not from 0",
		    "the first sample is numbered %" PRIu64, r->first_seq);
	else if (!strcmp(r->id_start, "continued"))
		set(f, DV_HANDLED, "sample_id_continues",
		    "samples 0 to %" PRIu64 " in sequence; the firmware numbers on "
		    "from the configuration before (engine/sample_id_start)%s",
		    r->last_seq, id_bits_narrower(r) ?
		    ", modulo 2^16 in the 32-bit field" : "");
	else if (!strcmp(r->id_start, "slot"))
		set(f, DV_HANDLED, "sample_id_slot",
		    "samples 0 to %" PRIu64 " in sequence over %.1f laps of the buffer; "
		    "the firmware writes the slot index as sample_id, one lap told from "
		    "another by time (engine/sample_id_start): period changes refused",
		    r->last_seq,
		    (double)(r->last_seq + 1) / (double)(1ull << r->session.log_num_of_samples));
	else if (id_bits_narrower(r))
		set(f, DV_HANDLED, "sample_id_bits",
		    "samples 0 to %" PRIu64 " in sequence; the numbering wraps at "
		    "2^%u in the %u-bit field", r->last_seq, r->sample_id_bits,
		    r->session.fw_sample_id_bits);
	else
		set(f, DV_HOLDS, NULL,
		    "samples 0 to %" PRIu64 " in sequence over %.1f laps of the buffer, "
		    "%" PRIu64 " lost, all in LOST records; %u-bit numbering, %s",
		    r->last_seq,
		    (double)(r->last_seq + 1) / (double)(1ull << r->session.log_num_of_samples),
		    doctor_lost_total(r), r->session.fw_sample_id_bits, a1_wrap(r));
}

/* A2: a sample's entries are stamped at or after the sample before it. */
static void judge_a2(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_run *r = e->first;

	if (!usable(r, f))
		return;
	if (refused(r) && !stopped_at_lap(r))
		set(f, DV_DIFFERS, "entry before the sample before it",
		    "the drain refused a sample as not of this run (engine/bad_samples +%"
		    PRIu64 "): an entry stamped before the sample before it; delivery "
		    "stopped after sample %" PRIu64, r->engine[DC_BAD_SAMPLES],
		    r->lost_seen_after ? r->first_lost_after_seq - 1 : r->last_seq);
	else if (!r->max_spread)
		set(f, DV_HOLDS, NULL, "every entry of a sample carries the same timestamp "
		    "(%" PRIu64 " samples)", r->rows);
	else
		set(f, DV_HANDLED, "entry_jitter",
		    "a sample's entries up to %" PRIu64 " device units (%" PRIu64 " ns) "
		    "apart, %s (%" PRIu64 " of %" PRIu64 " samples not in the SET's order)",
		    r->max_spread, doctor_step_ns(r, r->max_spread),
		    r->unordered ? "in any order" : "in order", r->unordered, r->rows);
}

/*
 * A4: sample timestamps are the clock the driver reads; on the RTC, they
 * move (the driver refuses RTC stamps that stand still: engine/rtc_still).
 */
static void judge_a4(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_run *r = e->first;
	int64_t d;

	if (!usable(r, f))
		return;
	d = (int64_t)(r->first_perf_time - r->enable_ns);
	if (d >= -(int64_t)r->ran_ms * 1000000 && d <= (int64_t)r->ran_ms * 1000000 &&
	    e->rtc_still)
		set(f, DV_HANDLED, "rtc_still",
		    "the RTC stamps stand still (two samples stamped alike%s): the driver "
		    "refuses RTC sampling (engine/rtc_still); the free-running clock's "
		    "sample %" PRIu64 " maps to %.3f ms after the enable",
		    e->total[DC_RTC_STILL] ? " in the rtc run" : ", seen before this check",
		    r->first_seq, (double)d / 1e6);
	else if (d >= -(int64_t)r->ran_ms * 1000000 && d <= (int64_t)r->ran_ms * 1000000)
		set(f, DV_HOLDS, NULL, "sample %" PRIu64 " maps to %.3f ms after the enable",
		    r->first_seq, (double)d / 1e6);
	else
		set(f, DV_DIFFERS, "another epoch or rate",
		    "sample %" PRIu64 " maps to %.3f ms from the enable, outside the %u ms "
		    "run", r->first_seq, (double)d / 1e6, r->ran_ms);
}

/* A5: an enabling SET starts a new configuration; no old sample comes back. */
static void judge_a5(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_run *r = e->again;

	if (!usable(r, f))
		return;
	if (r->first_seq != r->lost_at_start)
		set(f, DV_DIFFERS, "old samples in a new run",
		    "the run after another began at sample %" PRIu64 " with %" PRIu64
		    " lost before it", r->first_seq, r->lost_at_start);
	else if (r->lost_at_start)
		set(f, DV_HOLDS, NULL, "the run after another began at sample 0, its "
		    "first %" PRIu64 " overwritten before the first read, each in a LOST "
		    "record", r->lost_at_start);
	else
		set(f, DV_HOLDS, NULL, "the run after another began at sample 0 with "
		    "nothing lost");
}

/* A7: num_of_samples counts samples or entries (learnt from written slots). */
static void judge_a7(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const char *unit = e->first && e->first->unit[0] ? e->first->unit :
			   e->count ? e->count->unit : "";

	if (!strcmp(unit, "samples"))
		set(f, DV_HOLDS, NULL, "num_of_samples counts samples (engine/num_samples_unit)");
	else if (!strcmp(unit, "entries"))
		set(f, DV_HANDLED, "num_samples_unit entries",
		    "num_of_samples counts entries (engine/num_samples_unit)");
	else
		set(f, DV_UNKNOWN, NULL, "not learnt: engine/num_samples_unit is \"%s\"",
		    unit);
}

/*
 * The first sample of R taken after its period change came more than two
 * new periods after the change (the PERIOD record's device time): the
 * firmware numbered from 0 again, and a drain that did not see it
 * (engine/period_restarts unchanged) waited until the new numbering
 * reached the next number it expected, delivering nothing of those
 * before. Kept numbering takes its next sample one new period after
 * the SET, which the record's clock read follows; whatever the machine's
 * speed.
 */
static int restarted(const struct doctor_run *r)
{
	return r->first_new_seen && r->period_ns_actual &&
	       doctor_step_ns(r, r->first_new_gap) > 2 * r->period_ns_actual;
}

/* A8: a SET that changes only the period keeps the buffer and numbering. */
static void judge_a8(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_run *r = e->change;

	if (!usable(r, f))
		return;
	if (!r->period_seen && (!strcmp(r->id_start, "slot") || e->slot_ids))
		set(f, DV_UNKNOWN, NULL, "the driver refuses a period change where the "
		    "firmware numbers its samples by slot index (see A1)%s%s",
		    r->stop_why[0] ? ": " : "", r->stop_why);
	else if (refused(r))
		set(f, DV_UNKNOWN, NULL, "the drain stopped at a sample it refused, "
		    "after sample %" PRIu64 " (see A2)", r->last_seq);
	else if (!r->period_seen)
		set(f, DV_DIFFERS, "period change not applied",
		    "no PERIOD record after the change%s%s",
		    r->stop_why[0] ? ": " : "", r->stop_why);
	else if (r->engine[DC_PERIOD_RESTARTS] && !r->lost[0] &&
		 !stopped_short(r, r->period_seq, r->period_ns_actual, r->after_change_ms))
		set(f, DV_HANDLED, "period_restart",
		    "the firmware numbered its samples from 0 again, from slot 0, at the "
		    "change at sample %" PRIu64 " (engine/period_restarts +%" PRIu64 "): "
		    "%" PRIu64 " samples at %" PRIu64 " ns after it, in sequence; %" PRIu64
		    " lost at the change%s", r->period_seq, r->engine[DC_PERIOD_RESTARTS],
		    r->rows_after_change, r->period_ns_actual, r->lost_after_change,
		    r->lost_after_change ? ", each in a LOST record" : "");
	else if (restarted(r))
		set(f, DV_DIFFERS, "numbering restarts",
		    "the first sample after the change at sample %" PRIu64 " came %" PRIu64
		    " ns after it, %" PRIu64 " periods of %" PRIu64 " ns: the numbering "
		    "restarted?", r->period_seq, doctor_step_ns(r, r->first_new_gap),
		    doctor_step_ns(r, r->first_new_gap) / r->period_ns_actual,
		    r->period_ns_actual);
	else if (stopped_short(r, r->period_seq, r->period_ns_actual, r->after_change_ms))
		set(f, DV_DIFFERS, "numbering restarts",
		    "%" PRIu64 " sample(s) at the new period in the %u ms after the change at "
		    "sample %" PRIu64 ", none since sample %" PRIu64 ": the numbering "
		    "restarted?", r->rows_after_change, r->after_change_ms, r->period_seq,
		    r->last_seq);
	else if (r->lost[0])
		set(f, DV_DIFFERS, "numbering restarts",
		    "%" PRIu64 " sample(s) missing at the change that no LOST record "
		    "accounts for", r->lost[0]);
	else if (r->lost_after_change)
		set(f, DV_HANDLED, "period_clear",
		    "the change at sample %" PRIu64 " emptied the buffer: %" PRIu64
		    " sample(s) lost, each in a LOST record", r->period_seq,
		    r->lost_after_change);
	else
		set(f, DV_HOLDS, NULL, "the change at sample %" PRIu64 " kept the "
		    "numbering and lost nothing; %" PRIu64 " samples at %" PRIu64 " ns",
		    r->period_seq, r->rows_after_change, r->period_ns_actual);
}

/*
 * A9: QUERY_DIAGNOSTIC_PARAMS reports the period, raised. The driver
 * learns a raise it did not report from the run's first samples: a PERIOD
 * record before any change, engine/unreported_periods + 1.
 */
static void judge_a9(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_run *r = e->first;
	uint64_t want;

	if (!usable(r, f))
		return;
	if (!r->steps[0]) {
		set(f, DV_UNKNOWN, NULL, "no two consecutive samples");
		return;
	}
	want = (uint64_t)1 << r->session.log_sample_period;
	if (r->session.ts_source != MLX5_DIAG_TS_FRC)
		set(f, DV_UNKNOWN, NULL, "the run is not on the device clock");
	else if (r->period_learnt && r->learnt_log < 64 &&
		 r->min_step[0] == (uint64_t)1 << r->learnt_log &&
		 r->max_step[0] == (uint64_t)1 << r->learnt_log)
		set(f, DV_HANDLED, "period_unreported",
		    "samples 2^%u clocks (%" PRIu64 " ns) apart, 2^%u reported; the driver "
		    "took the samples' period (a PERIOD record at sample %" PRIu64
		    ", engine/unreported_periods +%" PRIu64 ")", r->learnt_log,
		    r->learnt_ns, r->session.log_sample_period, r->learnt_seq,
		    r->engine[DC_UNREPORTED_PERIODS]);
	else if (r->min_step[0] == want && r->max_step[0] == want)
		set(f, DV_HOLDS, NULL, "samples 2^%u clocks (%" PRIu64 " ns) apart, as reported; "
		    "%" PRIu64 " ns asked", r->session.log_sample_period,
		    doctor_step_ns(r, want), r->period_ns);
	else
		set(f, DV_DIFFERS, "period not reported",
		    "samples %" PRIu64 " to %" PRIu64 " clocks apart; 2^%u reported",
		    r->min_step[0], r->max_step[0], r->session.log_sample_period);
}

/*
 * A12: a sample's entries come in the SET's order. The driver learns one
 * other order per configuration (engine/entry_order "other"); an order
 * that changes within one makes answers unusable.
 */
static void judge_a12(const struct doctor_evidence *e, struct doctor_finding *f)
{
	uint64_t n = e->total[DC_UNUSABLE_ANSWERS];
	int other = (e->first && !strcmp(e->first->order, "other")) ||
		    (e->count && !strcmp(e->count->order, "other"));

	if (n)
		set(f, DV_DIFFERS, "entries in another order",
		    "%" PRIu64 " answer(s) refused as unusable (engine/unusable_answers): "
		    "entries not in the order of the configuration's first sample, "
		    "or unwritten slots of another content", n);
	else if (other)
		set(f, DV_HANDLED, "entry_order",
		    "a sample's entries come in another order than the SET's, the same in "
		    "every sample: learnt per configuration (engine/entry_order)");
	else
		set(f, DV_HOLDS, NULL, "every answer usable, entries in the SET's order");
}

/* A17: RES_BUSY is transient. */
static void judge_a17(const struct doctor_evidence *e, struct doctor_finding *f)
{
	uint64_t busy = e->total[DC_BUSY_ANSWERS];
	uint64_t fail = e->total[DC_SET_FAILURES];

	if (fail)
		set(f, DV_DIFFERS, "lasting RES_BUSY",
		    "%" PRIu64 " configuration(s) failed (engine/set_failures), %" PRIu64
		    " RES_BUSY answers", fail, busy);
	else if (busy)
		set(f, DV_HANDLED, "busy_every",
		    "%" PRIu64 " command(s) answered RES_BUSY, each run when tried again",
		    busy);
	else
		set(f, DV_HOLDS, NULL, "no command answered RES_BUSY");
}

/* A18: counter values use 64 bits (a counter never goes back). */
static void judge_a18(const struct doctor_evidence *e, struct doctor_finding *f)
{
	const struct doctor_count *c = e->count;
	uint64_t resets = e->total[DC_COUNTER_RESETS];

	if (!c || c->open_errno) {
		set(f, DV_UNKNOWN, NULL, "the counting run could not open%s%s",
		    c ? ": " : "", c ? c->open_error : "");
		return;
	}
	if (resets)
		set(f, DV_DIFFERS, "narrower counters",
		    "%" PRIu64 " counter value(s) went back (engine/counter_resets)", resets);
	else
		set(f, DV_HOLDS, NULL, "no counter value went back");
}

unsigned int doctor_judge(const struct doctor_evidence *e,
			  struct doctor_finding *f)
{
	static const struct {
		const char *id, *what;
		void (*judge)(const struct doctor_evidence *e, struct doctor_finding *f);
	} a[DOCTOR_FINDINGS] = {
		{ "A1", "sample_id numbers a run's samples from 0", judge_a1 },
		{ "A2", "a sample's entries are stamped after the sample before it",
		  judge_a2 },
		{ "A4", "timestamps are the clock the driver reads", judge_a4 },
		{ "A5", "a new run brings back no old sample", judge_a5 },
		{ "A7", "num_of_samples counts samples or entries", judge_a7 },
		{ "A8", "a period-only SET keeps the buffer and the numbering", judge_a8 },
		{ "A9", "QUERY_DIAGNOSTIC_PARAMS reports the raised period", judge_a9 },
		{ "A12", "a sample's entries come in the SET's order", judge_a12 },
		{ "A17", "RES_BUSY is transient", judge_a17 },
		{ "A18", "counter values use 64 bits", judge_a18 },
	};
	unsigned int differ = 0;

	for (int i = 0; i < DOCTOR_FINDINGS; i++) {
		memset(&f[i], 0, sizeof(f[i]));
		f[i].id = a[i].id;
		f[i].what = a[i].what;
		a[i].judge(e, &f[i]);
		differ += f[i].verdict == DV_DIFFERS;
	}
	return differ;
}
