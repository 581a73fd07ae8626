/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5-diag doctor's parts: the short runs it makes on a device and what
 * each showed (doctor_runs.c), and the firmware assumptions judged from
 * them (doctor_judge.c); doctor.c drives them and reports.
 */
#ifndef MLX5_DIAG_DOCTOR_H
#define MLX5_DIAG_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

#include "mlx5diag.h"
#include "pmu.h"

#define DOCTOR_MAX_IDS		4

/* The engine/ files doctor reads before and after each run. */
enum doctor_counter {
	DC_BAD_SAMPLES,
	DC_UNUSABLE_ANSWERS,
	DC_SET_FAILURES,
	DC_COUNTER_RESETS,
	DC_BUSY_ANSWERS,
	DC_UNREPORTED_PERIODS,
	DC_RTC_STILL,
	DC_RECKONED_STARTS,
	DC_PERIOD_RESTARTS,
	DC_NR,
};

/* The device as doctor found it, and what it samples. */
struct doctor_dev {
	const struct pmu *pmu;
	int cpu;
	char dialect[32], modes[64], counting_mode[32], firmware[64];
	char sync[16], clear[16];	/* caps/: yes, no or unknown */
	char state[32];			/* engine/state at the start */
	uint64_t min_period_ns, max_period_ns, freq_khz;
	unsigned int max_ids;
	uint64_t ids[DOCTOR_MAX_IDS];	/* the events doctor samples */
	char events[DOCTOR_MAX_IDS][128];
	unsigned int nr;
	uint64_t sync_ids[DOCTOR_MAX_IDS];	/* of caps/sync_ids */
	unsigned int nr_sync;
	int force;			/* take the engine from another agent */
};

/* One short sampling run: what was asked, and what the stream showed. */
struct doctor_run {
	const char *name;		/* "repetitive", "period_change", ... */
	/* asked */
	int mode, format, ts, sync, clear;
	uint64_t period_ns;
	uint64_t change_to_ns;		/* PERF_EVENT_IOC_PERIOD midway, 0: none */
	unsigned int duration_ms;	/* at least */
	int laps;			/* on to 1.5 laps of the buffer */
	int past_16_bits;		/* and on past sample 2^16 (--long) */
	/* how it went */
	int open_errno;			/* 0: opened */
	char open_error[256];
	uint64_t enable_ns;		/* CLOCK_MONOTONIC at the enable */
	unsigned int ran_ms;		/* from the enable to the disable */
	int have_session;
	struct mlx5diag_session session;	/* its ids pointer cleared */
	uint64_t rows, first_seq, last_seq;
	uint64_t first_perf_time;
	/* steps between consecutive samples, device units, before / after
	 * a period change (index 1: samples at or after its seq) */
	uint64_t min_step[2], max_step[2], steps[2];
	uint64_t max_spread;		/* latest minus earliest entry */
	uint64_t unordered;		/* samples whose entries go back in time */
	uint64_t lost[4];		/* by cause; 0: unaccounted gaps */
	uint64_t lost_at_start;		/* before the first sample */
	int lost_seen_after;		/* a LOST after the first sample */
	uint64_t first_lost_after_seq;	/* of the first of those */
	uint64_t lost_after_change;	/* at or after the period change */
	uint64_t rows_after_change;	/* samples at the new period */
	int change_asked;		/* PERF_EVENT_IOC_PERIOD was called */
	/*
	 * from the PERIOD record's arrival (the change applied; without one,
	 * from the call) to the disable
	 */
	unsigned int after_change_ms;
	uint64_t period_arrived_ns;	/* CLOCK_MONOTONIC, when read */
	int period_seen;		/* a PERIOD record after it */
	uint64_t period_seq, period_ns_actual;
	uint64_t period_dev_time;	/* the PERIOD record's, device units */
	/*
	 * the first sample at or after period_seq stamped after the PERIOD
	 * record: its time less the record's (device units); 0: none yet
	 */
	int first_new_seen;
	uint64_t first_new_gap;
	/*
	 * a PERIOD record before any change: the driver learnt from the
	 * samples a period QUERY_DIAGNOSTIC_PARAMS did not report (A9)
	 */
	int period_learnt;
	uint64_t learnt_seq, learnt_ns;
	unsigned int learnt_log;
	uint32_t end_reason;
	char stop_why[256];		/* the session ended early: why */
	uint64_t engine[DC_NR];		/* engine/ counters' increase */
	char unit[16];			/* engine/num_samples_unit after */
	unsigned int sample_id_bits;	/* engine/sample_id_bits after */
	char order[16];			/* engine/entry_order after */
	char id_start[16];		/* engine/sample_id_start after */
	/* internal */
	int have_prev;
	uint64_t prev_seq, prev_dev_time;
};

/* The counting run: each ID counted some time. */
struct doctor_count {
	int open_errno;
	char open_error[256];
	uint64_t engine[DC_NR];
	char unit[16];
	char order[16];
};

/* Configuration round trips: open, enable, disable, close of a count. */
#define DOCTOR_LATENCY_TRIES	5
struct doctor_latency {
	int open_errno;
	uint64_t min_ns, median_ns, max_ns;
};

/*
 * doctor_dev_read - D's capabilities, firmware version, engine state and
 * the first DOCTOR_MAX_IDS events of P that need no field. 0, or -1 with
 * why in ERR.
 */
int doctor_dev_read(struct doctor_dev *d, const struct pmu *p, char *err,
		    size_t errlen);

/* doctor_engine_state - P's engine/state now into BUF ("" if unreadable). */
void doctor_engine_state(const struct pmu *p, char *buf, size_t len);

/* doctor_engine_counters - P's engine/ counters now (0 where unreadable). */
void doctor_engine_counters(const struct pmu *p, uint64_t *v);

/* doctor_engine_delta - V = their increase since BEFORE. */
void doctor_engine_delta(const struct pmu *p, const uint64_t *before, uint64_t *v);

/* doctor_sample - make run R on D (R's asked fields set). */
void doctor_sample(const struct doctor_dev *d, struct doctor_run *r);

/* doctor_count - count D's IDs for MS milliseconds. */
void doctor_count(const struct doctor_dev *d, unsigned int ms,
		  struct doctor_count *c);

/* doctor_latency - time DOCTOR_LATENCY_TRIES configurations of D. */
void doctor_latency(const struct doctor_dev *d, struct doctor_latency *l);

/* ---- the assumptions (doctor_judge.c) ---- */

enum doctor_verdict {
	DV_HOLDS,	/* the firmware does what the driver assumes */
	DV_HANDLED,	/* it does otherwise, in a way the driver follows */
	DV_DIFFERS,	/* it does otherwise: the data is doubtful */
	DV_UNKNOWN,	/* these runs cannot tell */
};

struct doctor_finding {
	const char *id;			/* "A1" ... of the firmware document */
	const char *what;		/* the assumption */
	enum doctor_verdict verdict;
	const char *reading;		/* the reading seen, short; NULL: the default */
	char detail[320];		/* what the runs showed */
};

/* What doctor ran: the runs by role (NULL: not run or not offered). */
struct doctor_evidence {
	const struct doctor_count *count;
	const struct doctor_run *first;		/* repetitive, format 0 */
	const struct doctor_run *again;		/* the same, right after */
	const struct doctor_run *change;	/* a period change midway */
	uint64_t total[DC_NR];			/* engine/ over all the runs */
	int rtc_still;				/* engine/rtc_still after them */
	int slot_ids;				/* engine/slot_ids after them */
};

#define DOCTOR_FINDINGS		10

/*
 * doctor_judge - the assumptions E bears on, into F (DOCTOR_FINDINGS of
 * them). Returns how many differ.
 */
unsigned int doctor_judge(const struct doctor_evidence *e,
			  struct doctor_finding *f);

const char *doctor_verdict_name(enum doctor_verdict v);

/* doctor_lost_total - the samples R lost, of every cause. */
uint64_t doctor_lost_total(const struct doctor_run *r);

/* doctor_step_ns - STEP of R's device time in nanoseconds, rounded down. */
uint64_t doctor_step_ns(const struct doctor_run *r, uint64_t step);

#endif /* MLX5_DIAG_DOCTOR_H */
