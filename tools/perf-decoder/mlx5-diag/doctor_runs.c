// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag doctor's runs (doctor.h): the device read from sysfs, short
 * sampling sessions observed through the decode pipeline, a counting run
 * and configuration round trips, each with the driver's engine/ counters
 * read around it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>
#include <linux/perf_event.h>

#include "clock_ns.h"
#include "doctor.h"
#include "perf_sys.h"
#include "sampling.h"

/* How long END may take after the disable (the driver drains once more). */
#define DOCTOR_END_WAIT_MS	2000
#define DOCTOR_POLL_MS		20
/* How long a run may take to deliver its first sample (its SET included). */
#define DOCTOR_FIRST_MAX_MS	5000
/*
 * A run over laps of the buffer: this many drains that took nothing, over
 * at least DOCTOR_STALL_MS, stopped it.
 */
#define DOCTOR_STALL_DRAINS	4
#define DOCTOR_STALL_MS		1000
/*
 * ... and the longest such run; with past_16_bits, the longest one that
 * reaches sample 2^16 (6.9 s at the emulator's shortest period).
 */
#define DOCTOR_LAPS_MAX_MS	5000
#define DOCTOR_LONG_MAX_MS	60000
/* Past sample 2^16: a numbering modulo 2^16 wraps there. */
#define DOCTOR_PAST_16_BITS	(1ull << 16)

static const char *const engine_files[DC_NR] = {
	[DC_BAD_SAMPLES] = "engine/bad_samples",
	[DC_UNUSABLE_ANSWERS] = "engine/unusable_answers",
	[DC_SET_FAILURES] = "engine/set_failures",
	[DC_COUNTER_RESETS] = "engine/counter_resets",
	[DC_BUSY_ANSWERS] = "engine/busy_answers",
	[DC_UNREPORTED_PERIODS] = "engine/unreported_periods",
	[DC_RTC_STILL] = "engine/rtc_still",
	[DC_RECKONED_STARTS] = "engine/reckoned_starts",
	[DC_PERIOD_RESTARTS] = "engine/period_restarts",
};

/* P's file NAME ("caps/dialect") into BUF, "" if unreadable. */
static void sysfs_line(const struct pmu *p, const char *name, char *buf, size_t len)
{
	if (pmu_read_line(p->dir, name, buf, len))
		buf[0] = '\0';
}

void doctor_engine_state(const struct pmu *p, char *buf, size_t len)
{
	sysfs_line(p, "engine/state", buf, len);
}

void doctor_engine_counters(const struct pmu *p, uint64_t *v)
{
	for (int i = 0; i < DC_NR; i++)
		v[i] = pmu_read_u64(p->dir, engine_files[i], UINT64_MAX);
}

void doctor_engine_delta(const struct pmu *p, const uint64_t *before, uint64_t *v)
{
	doctor_engine_counters(p, v);
	for (int i = 0; i < DC_NR; i++)
		v[i] = v[i] >= before[i] ? v[i] - before[i] : 0;
}

/* caps/sync_ids: a data ID per line; the first DOCTOR_MAX_IDS. */
static void read_sync_ids(struct doctor_dev *d)
{
	char path[PATH_MAX + 16], line[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/caps/sync_ids", d->pmu->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (d->nr_sync < DOCTOR_MAX_IDS && fgets(line, sizeof(line), f)) {
		char *end;
		uint64_t id = strtoull(line, &end, 0);

		if (end != line)
			d->sync_ids[d->nr_sync++] = id;
	}
	fclose(f);
}

static int no_dot(const struct dirent *de)
{
	return de->d_name[0] != '.' && !strchr(de->d_name, '.');
}

/* The first DOCTOR_MAX_IDS events (by name) that need no field. */
static int pick_events(struct doctor_dev *d, char *err, size_t errlen)
{
	char dir[PATH_MAX + 8], perr[256];
	struct dirent **names;
	int n;

	snprintf(dir, sizeof(dir), "%s/events", d->pmu->dir);
	n = scandir(dir, &names, no_dot, alphasort);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uint64_t cfg[3];

		if (d->nr < DOCTOR_MAX_IDS && d->nr < d->max_ids &&
		    !pmu_parse_event(d->pmu, names[i]->d_name, cfg, perr, sizeof(perr)) &&
		    !cfg[1] && !cfg[2]) {
			d->ids[d->nr] = cfg[0];
			snprintf(d->events[d->nr], sizeof(d->events[0]), "%.127s",
				 names[i]->d_name);
			d->nr++;
		}
		free(names[i]);
	}
	free(names);
	if (!d->nr) {
		snprintf(err, errlen, "%s has no event that needs no field", dir);
		return -1;
	}
	return 0;
}

int doctor_dev_read(struct doctor_dev *d, const struct pmu *p, char *err,
		    size_t errlen)
{
	d->pmu = p;
	d->cpu = pmu_first_cpu(p);
	if (p->type < 0 || d->cpu < 0) {
		snprintf(err, errlen, "%s: unreadable type or cpumask", p->dir);
		return -1;
	}
	sysfs_line(p, "caps/dialect", d->dialect, sizeof(d->dialect));
	sysfs_line(p, "caps/modes", d->modes, sizeof(d->modes));
	sysfs_line(p, "caps/counting_mode", d->counting_mode, sizeof(d->counting_mode));
	sysfs_line(p, "firmware_version", d->firmware, sizeof(d->firmware));
	doctor_engine_state(p, d->state, sizeof(d->state));
	d->min_period_ns = pmu_read_u64(p->dir, "caps/min_sample_period_ns", UINT64_MAX);
	d->max_period_ns = pmu_read_u64(p->dir, "caps/max_sample_period_ns", UINT64_MAX);
	d->freq_khz = pmu_read_u64(p->dir, "caps/device_frequency_khz", UINT32_MAX);
	d->max_ids = (unsigned int)pmu_read_u64(p->dir, "caps/max_data_ids", UINT32_MAX);
	sysfs_line(p, "caps/sync", d->sync, sizeof(d->sync));
	sysfs_line(p, "caps/clear", d->clear, sizeof(d->clear));
	if (!d->dialect[0] || !d->freq_khz || !d->max_ids) {
		snprintf(err, errlen, "%s/caps: no dialect, clock frequency or data ID "
			 "limit", p->dir);
		return -1;
	}
	read_sync_ids(d);
	return pick_events(d, err, errlen);
}

/* ---- the sampling runs: the pipeline's sink that observes ---- */

static void obs_session(struct sink *s, const struct run *rn)
{
	struct doctor_run *r = s->priv;

	if (r->have_session)
		return;
	r->have_session = 1;
	r->session = rn->session;
	r->session.ids = NULL;
}

static void obs_step(struct doctor_run *r, int after, uint64_t step)
{
	if (!r->steps[after] || step < r->min_step[after])
		r->min_step[after] = step;
	if (step > r->max_step[after])
		r->max_step[after] = step;
	r->steps[after]++;
}

static void obs_sample(struct sink *s, const struct run *rn, const struct row *w)
{
	struct doctor_run *r = s->priv;

	if (!r->rows) {
		r->first_seq = w->seq;
		r->first_perf_time = w->perf_time;
	}
	r->rows++;
	r->last_seq = w->seq;
	if (r->have_prev && w->seq == r->prev_seq + 1 && w->dev_time >= r->prev_dev_time)
		obs_step(r, r->period_seen && w->seq > r->period_seq,
			 w->dev_time - r->prev_dev_time);
	r->have_prev = 1;
	r->prev_seq = w->seq;
	r->prev_dev_time = w->dev_time;
	if (w->dev_time_end - w->dev_time > r->max_spread)
		r->max_spread = w->dev_time_end - w->dev_time;
	for (unsigned int i = 1; i < rn->nr_cols; i++)
		if (rn->cols[i].dev_time < rn->cols[i - 1].dev_time) {
			r->unordered++;
			break;
		}
	if (r->period_seen && w->seq >= r->period_seq)
		r->rows_after_change++;
	if (r->period_seen && !r->first_new_seen && w->seq >= r->period_seq &&
	    w->dev_time > r->period_dev_time) {
		r->first_new_seen = 1;
		r->first_new_gap = w->dev_time - r->period_dev_time;
	}
}

static void obs_lost(struct sink *s, const struct mlx5diag_item *it)
{
	struct doctor_run *r = s->priv;
	unsigned int cause = it->lost.cause < 4 ? it->lost.cause : 0;

	r->lost[cause] += it->lost.count;
	if (!r->rows) {
		r->lost_at_start += it->lost.count;
	} else if (!r->lost_seen_after) {
		r->lost_seen_after = 1;
		r->first_lost_after_seq = it->seq;
	}
	if (r->period_seen)
		r->lost_after_change += it->lost.count;
}

static void obs_period(struct sink *s, const struct mlx5diag_item *it)
{
	struct doctor_run *r = s->priv;

	if (!r->change_asked) {
		r->period_learnt = 1;
		r->learnt_seq = it->seq;
		r->learnt_ns = it->period.ns_actual;
		r->learnt_log = it->period.log_sample_period;
		return;
	}
	if (!r->period_seen)
		r->period_arrived_ns = clock_now_ns(CLOCK_MONOTONIC);
	r->period_seen = 1;
	r->period_seq = it->seq;
	r->period_ns_actual = it->period.ns_actual;
	r->period_dev_time = it->dev_time;
}

static void obs_end(struct sink *s, const struct mlx5diag_item *it)
{
	struct doctor_run *r = s->priv;

	r->end_reason = it->end.reason;
}

static const struct sink_ops observe_sink = {
	.name = "doctor",
	.session = obs_session,
	.sample = obs_sample,
	.lost = obs_lost,
	.period = obs_period,
	.end = obs_end,
};

/*
 * The samples R waits for, its SESSION record come: one and a half laps
 * of its firmware buffer, far enough to see a numbering that is the slot
 * index; with past_16_bits, as many more past sample 2^16, far enough to
 * see a numbering modulo 2^16. 0 without a buffer size to go by.
 */
static uint64_t laps_samples(const struct doctor_run *r)
{
	uint64_t n;

	if (!r->have_session || r->session.log_num_of_samples >= 32)
		return 0;
	n = (3ull << r->session.log_num_of_samples) / 2;
	return r->past_16_bits ? DOCTOR_PAST_16_BITS + n : n;
}

/* The samples laps_samples() asks for have come. */
static int laps_done(const struct doctor_run *r)
{
	uint64_t n = laps_samples(r);

	return n && r->rows && r->last_seq + 1 >= n;
}

/*
 * Drain S until DEADLINE (monotonic ns), and before it until END (with
 * UNTIL_END) or else until laps_done() (R->laps). 0, or -1: the session
 * stopped.
 */
static int drain_until(struct sampling *s, struct doctor_run *r, uint64_t deadline,
		       int until_end)
{
	const char *reason;

	for (;;) {
		struct pollfd pfd = { .fd = sampling_fd(s), .events = POLLIN };

		if (sampling_drain(s, &reason, r->stop_why, sizeof(r->stop_why)))
			return -1;
		if (until_end ? s->p.end_reason != 0 : r->laps && laps_done(r))
			return 0;
		if (clock_now_ns(CLOCK_MONOTONIC) >= deadline)
			return 0;
		poll(&pfd, 1, DOCTOR_POLL_MS);
	}
}

/*
 * Drain S until R's first sample, its END or DOCTOR_FIRST_MAX_MS after the
 * enable: a run's time counts from its first sample, however long the
 * device took to start (a loaded machine's SET can take longer than half
 * a run). 0, or -1: the session stopped.
 */
static int drain_first(struct sampling *s, struct doctor_run *r)
{
	uint64_t cap = r->enable_ns + DOCTOR_FIRST_MAX_MS * 1000000ull, now;
	int stopped = 0;

	while (!stopped && !r->rows && !s->p.end_reason &&
	       (now = clock_now_ns(CLOCK_MONOTONIC)) < cap)
		stopped = drain_until(s, r, now + DOCTOR_POLL_MS * 1000000ull, 0);
	return stopped;
}

/* P's engine/polls: the driver's drains (0 if unreadable: no stall is seen). */
static uint64_t driver_drains(const struct pmu *p)
{
	return pmu_read_u64(p->dir, "engine/polls", UINT64_MAX);
}

/*
 * Drain S on until R, asked for laps of the buffer, has them: while
 * samples (or losses) keep coming, DOCTOR_STALL_DRAINS drains of the
 * driver (P's engine/polls) that brought none, over DOCTOR_STALL_MS or
 * more, ending it (the drain stopped), at most DOCTOR_LAPS_MAX_MS (with
 * past_16_bits DOCTOR_LONG_MAX_MS) after the enable. A slow machine
 * drains late, not less: a stall needs the driver's drains, not time
 * alone. Nor drains alone: on a loaded machine (the CI of d104216) a
 * --long run was cut 1 s in, at sample 9,571, with samples coming at
 * every period. How long the laps take is not reckoned from the period.
 * 0, or -1: the session stopped.
 */
static int drain_laps(struct sampling *s, struct doctor_run *r, const struct pmu *p)
{
	uint64_t cap = r->enable_ns +
		       (r->past_16_bits ? DOCTOR_LONG_MAX_MS : DOCTOR_LAPS_MAX_MS) * 1000000ull;
	uint64_t seen = r->rows + doctor_lost_total(r);
	uint64_t drains = driver_drains(p), now, got;
	uint64_t since = clock_now_ns(CLOCK_MONOTONIC);
	int stopped = 0;

	while (!stopped && !laps_done(r) && (now = clock_now_ns(CLOCK_MONOTONIC)) < cap) {
		stopped = drain_until(s, r, now + DOCTOR_POLL_MS * 1000000ull < cap ?
					    now + DOCTOR_POLL_MS * 1000000ull : cap, 0);
		got = r->rows + doctor_lost_total(r);
		now = clock_now_ns(CLOCK_MONOTONIC);
		if (got != seen) {
			seen = got;
			drains = driver_drains(p);
			since = now;
		} else if (driver_drains(p) - drains >= DOCTOR_STALL_DRAINS &&
			   now - since >= DOCTOR_STALL_MS * 1000000ull) {
			break;
		}
	}
	return stopped;
}

static void engine_after(const struct doctor_dev *d, const uint64_t *before,
			 struct doctor_run *r)
{
	doctor_engine_delta(d->pmu, before, r->engine);
	sysfs_line(d->pmu, "engine/num_samples_unit", r->unit, sizeof(r->unit));
	r->sample_id_bits = (unsigned int)pmu_read_u64(d->pmu->dir,
						       "engine/sample_id_bits", 64);
	sysfs_line(d->pmu, "engine/entry_order", r->order, sizeof(r->order));
	sysfs_line(d->pmu, "engine/sample_id_start", r->id_start,
		   sizeof(r->id_start));
}

void doctor_sample(const struct doctor_dev *d, struct doctor_run *r)
{
	const int sync_ids = r->sync && d->nr_sync;
	const char *events[DOCTOR_MAX_IDS];
	struct sampling_spec sp = {
		.pmu_name = d->pmu->name, .type = d->pmu->type, .cpu = d->cpu,
		.period_ns = r->period_ns,
		.config1 = (uint64_t)r->mode << MLX5_DIAG_MODE_LO |
			   (uint64_t)!!r->sync << MLX5_DIAG_SYNC_LO |
			   (uint64_t)!!r->clear << MLX5_DIAG_CLEAR_LO |
			   (uint64_t)r->format << MLX5_DIAG_OUT_FORMAT_LO |
			   (uint64_t)r->ts << MLX5_DIAG_TS_SOURCE_LO |
			   (uint64_t)!!d->force << MLX5_DIAG_FORCE_LO,
		.ids = sync_ids ? d->sync_ids : d->ids,
		.events = sync_ids ? NULL : events,
		.nr = sync_ids ? d->nr_sync : d->nr,
		.sink = &observe_sink, .priv = r,
	};
	uint64_t before[DC_NR], start, half, end;
	struct sampling s;
	int stopped;

	for (unsigned int i = 0; i < d->nr; i++)
		events[i] = d->events[i];
	doctor_engine_counters(d->pmu, before);
	r->enable_ns = clock_now_ns(CLOCK_MONOTONIC);
	r->open_errno = -sampling_open(&s, &sp, r->open_error, sizeof(r->open_error));
	if (r->open_errno) {
		engine_after(d, before, r);
		return;
	}
	stopped = drain_first(&s, r);
	start = clock_now_ns(CLOCK_MONOTONIC);
	half = start + (uint64_t)r->duration_ms * 500000u;
	end = start + (uint64_t)r->duration_ms * 1000000u;
	if (!stopped)
		stopped = drain_until(&s, r, r->change_to_ns ? half : end, 0);
	if (!stopped && r->laps)
		stopped = drain_laps(&s, r, d->pmu);
	if (!stopped && r->change_to_ns) {
		uint64_t p = r->change_to_ns, asked = clock_now_ns(CLOCK_MONOTONIC);

		r->change_asked = 1;
		if (ioctl(sampling_fd(&s), PERF_EVENT_IOC_PERIOD, &p))
			snprintf(r->stop_why, sizeof(r->stop_why),
				 "the period change was refused: %s", strerror(errno));
		stopped = drain_until(&s, r, end, 0);
		/* the driver applies the change at its next drain, late or not */
		if (r->period_seen)
			asked = r->period_arrived_ns;
		r->after_change_ms = (unsigned int)((clock_now_ns(CLOCK_MONOTONIC) - asked) /
						    1000000);
	}
	r->ran_ms = (unsigned int)((clock_now_ns(CLOCK_MONOTONIC) - r->enable_ns) / 1000000);
	if (!stopped && !r->end_reason) {
		ioctl(sampling_fd(&s), PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		drain_until(&s, r, clock_now_ns(CLOCK_MONOTONIC) + DOCTOR_END_WAIT_MS * 1000000ull, 1);
	}
	sampling_close(&s);
	engine_after(d, before, r);
}

/* ---- counting and round trips ---- */

static int count_open(const struct doctor_dev *d, uint64_t id, int disabled)
{
	struct perf_event_attr a = {
		.type = (uint32_t)d->pmu->type, .size = sizeof(a), .config = id,
		.config1 = (uint64_t)!!d->force << MLX5_DIAG_FORCE_LO,
		.disabled = (uint64_t)!!disabled,
	};

	return perf_open_on_cpu(&a, d->cpu, -1);
}

void doctor_count(const struct doctor_dev *d, unsigned int ms,
		  struct doctor_count *c)
{
	int fds[DOCTOR_MAX_IDS];
	uint64_t before[DC_NR];
	unsigned int n = 0;

	doctor_engine_counters(d->pmu, before);
	for (; n < d->nr; n++) {
		fds[n] = count_open(d, d->ids[n], 0);
		if (fds[n] < 0) {
			c->open_errno = errno;
			snprintf(c->open_error, sizeof(c->open_error), "%s (0x%016" PRIx64
				 "): %s", d->events[n], d->ids[n], strerror(errno));
			break;
		}
	}
	if (!c->open_errno) {
		struct timespec ts = { .tv_sec = ms / 1000,
				       .tv_nsec = (long)(ms % 1000) * 1000000 };

		nanosleep(&ts, NULL);
	}
	while (n)
		close(fds[--n]);
	doctor_engine_delta(d->pmu, before, c->engine);
	sysfs_line(d->pmu, "engine/num_samples_unit", c->unit, sizeof(c->unit));
	sysfs_line(d->pmu, "engine/entry_order", c->order, sizeof(c->order));
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void doctor_latency(const struct doctor_dev *d, struct doctor_latency *l)
{
	uint64_t t[DOCTOR_LATENCY_TRIES];

	for (int i = 0; i < DOCTOR_LATENCY_TRIES; i++) {
		uint64_t t0 = clock_now_ns(CLOCK_MONOTONIC);
		int fd = count_open(d, d->ids[0], 1);

		if (fd < 0) {
			l->open_errno = errno;
			return;
		}
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		close(fd);
		t[i] = clock_now_ns(CLOCK_MONOTONIC) - t0;
	}
	qsort(t, DOCTOR_LATENCY_TRIES, sizeof(t[0]), u64_cmp);
	l->min_ns = t[0];
	l->median_ns = t[DOCTOR_LATENCY_TRIES / 2];
	l->max_ns = t[DOCTOR_LATENCY_TRIES - 1];
}
