// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline sink (--timeline): mlx5 samples and the recording's
 * tracepoint events in one list ordered by perf time, as `perf script
 * --ns` prints them; the lines are sorted by timeline.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "run.h"
#include "sink.h"
#include "timeline.h"

struct timeline {
	struct tl *tl;			/* the lines, and the perf events */
	char pmu[64];			/* of the current stream */
	unsigned int cpu;
	char identifier[33];		/* of the current run */
	uint64_t last;			/* the stream's latest perf time */
	char **pending;			/* lines waiting for a perf time */
	size_t nr_pending, cap_pending;
};

/*
 * One timeline line: PMU, "-", [cpu], perf time, "IDENTIFIER WHAT:",
 * BODY. Its place in the timeline is the stream's latest time so far, so
 * that the stream's lines keep their order.
 */
static void tl_put(struct sink *s, uint64_t t, int extrapolated,
		   const char *what, const char *body)
{
	struct timeline *x = s->priv;
	long mark = tl_mark(x->tl);

	if (t > x->last)
		x->last = t;
	sink_fprintf(s, tl_text(x->tl), "%16s %7s [%03u] %5" PRIu64 ".%09"
		     PRIu64 "%s: %s %s: %s\n", x->pmu, "-", x->cpu,
		     t / NSEC_PER_SEC, t % NSEC_PER_SEC, extrapolated ? "~" : "",
		     x->identifier, what, body);
	if (tl_line(x->tl, mark, x->last) < 0)
		s->write_error = ENOMEM;
}

/* The lines that wait for a time (SESSION, LOST) get T. */
static void tl_flush_pending(struct sink *s, uint64_t t)
{
	struct timeline *x = s->priv;

	for (size_t i = 0; i < x->nr_pending; i++) {
		char *what = x->pending[i], *body = strchr(what, '\t');

		*body++ = '\0';
		tl_put(s, t, 0, what, body);
		free(what);
	}
	x->nr_pending = 0;
}

/* A line without a perf time of its own: it takes the next sample's. */
static void tl_pend(struct sink *s, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void tl_pend(struct sink *s, const char *what, const char *fmt, ...)
{
	struct timeline *x = s->priv;
	char *body, *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&body, fmt, ap);
	va_end(ap);
	if (n < 0 || x->nr_pending == x->cap_pending) {
		size_t cap = x->cap_pending ? 2 * x->cap_pending : 16;
		char **g = n < 0 ? NULL : realloc(x->pending, cap * sizeof(*g));

		if (!g) {
			if (n >= 0)
				free(body);
			s->write_error = ENOMEM;
			return;
		}
		x->pending = g;
		x->cap_pending = cap;
	}
	if (asprintf(&line, "%s\t%s", what, body) < 0) {
		free(body);
		s->write_error = ENOMEM;
		return;
	}
	free(body);
	x->pending[x->nr_pending++] = line;
}

static int timeline_open(struct sink *s)
{
	struct timeline *x = s->priv;

	x->tl = tl_new();
	return x->tl ? 0 : -1;
}

static void timeline_stream_begin(struct sink *s, const struct sink_stream *si)
{
	struct timeline *x = s->priv;

	snprintf(x->pmu, sizeof(x->pmu), "%s", si->pmu);
	x->cpu = si->cpu;
	x->last = 0;
}

static void timeline_session(struct sink *s, const struct run *r)
{
	const struct mlx5diag_session *ss = &r->session;
	struct timeline *x = s->priv;
	char clock[32];

	snprintf(x->identifier, sizeof(x->identifier), "%s", ss->identifier);
	if (ss->ts_source == MLX5_DIAG_TS_RTC)
		snprintf(clock, sizeof(clock), "rtc");
	else
		snprintf(clock, sizeof(clock), "frc %u kHz", ss->freq_khz);
	tl_pend(s, "SESSION", "run %u %s %s %s, period %" PRIu64 " ns "
		"(requested %" PRIu64 "), %u data IDs", ss->run,
		mlx5diag_mode_name(ss->mode), mlx5diag_format_name(ss->out_format),
		clock, ss->period_ns_actual, ss->period_ns_requested, ss->num_ids);
}

static void timeline_sample(struct sink *s, const struct run *r,
			    const struct row *w)
{
	char t[32], *body = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&body, &len);
	unsigned int i;

	if (!m) {
		s->write_error = ENOMEM;
		return;
	}
	sink_fmt_dev_time(r, w->dev_time, t, sizeof(t));
	fprintf(m, "run %u seq %" PRIu64 " dev %s", r->session.run, w->seq, t);
	for (i = 0; i < r->nr_cols; i++)
		fprintf(m, " %s=%" PRIu64, r->cols[i].name, r->cols[i].value);
	for (i = 0; i < r->nr_metrics; i++)
		if (w->metrics[i].ok)
			fprintf(m, " %s=%.6g", r->metrics[i].name, w->metrics[i].v);
	if (fclose(m)) {
		free(body);
		s->write_error = ENOMEM;
		return;
	}
	tl_flush_pending(s, w->perf_time);
	tl_put(s, w->perf_time, !!(w->flags & MLX5DIAG_F_TIME_EXTRAPOLATED),
	       "sample", body);
	free(body);
}

static void timeline_lost(struct sink *s, const struct mlx5diag_item *it)
{
	tl_pend(s, "LOST", "run %u samples %" PRIu64 "..%" PRIu64 " (%" PRIu64
		"): %s", it->run, it->seq, it->seq + it->lost.count - 1,
		it->lost.count, mlx5diag_lost_cause_name(it->lost.cause));
}

static void timeline_period(struct sink *s, const struct mlx5diag_item *it)
{
	char body[160];

	snprintf(body, sizeof(body), "run %u from sample %" PRIu64 ": %" PRIu64
		 " ns (requested %" PRIu64 ")", it->run, it->seq,
		 it->period.ns_actual, it->period.ns_requested);
	tl_flush_pending(s, it->perf_time);
	tl_put(s, it->perf_time, 0, "PERIOD", body);
}

static void timeline_end(struct sink *s, const struct mlx5diag_item *it)
{
	struct timeline *x = s->priv;
	char body[96];

	snprintf(body, sizeof(body), "run %u after %" PRIu64 " samples: %s",
		 it->run, it->seq, mlx5diag_end_reason_name(it->end.reason));
	tl_flush_pending(s, x->last);
	tl_put(s, x->last, 0, "END", body);
}

static void timeline_stream_end(struct sink *s)
{
	struct timeline *x = s->priv;

	tl_flush_pending(s, x->last);
}

static struct tl *timeline_events(struct sink *s)
{
	struct timeline *x = s->priv;

	return x->tl;
}

/* The lines, sorted, to the output. */
static int timeline_finish(struct sink *s, int status)
{
	struct timeline *x = s->priv;
	char err[256];

	if ((status == ERR_EXIT_OK || status == ERR_EXIT_STREAM) &&
	    !s->write_error && tl_write(x->tl, s->out, err, sizeof(err))) {
		err_print("decode", "%s: %s", s->path, err);
		return ERR_EXIT_FILE;
	}
	return status;
}

static void timeline_summary(struct sink *s)
{
	struct timeline *x = s->priv;

	err_print("decode", "%" PRIu64 " tracepoint events, %"
		  PRIu64 " lost", tl_tracepoint_samples(x->tl),
		  tl_lost_events(x->tl));
}

static void timeline_close(struct sink *s)
{
	struct timeline *x = s->priv;

	for (size_t i = 0; i < x->nr_pending; i++)
		free(x->pending[i]);
	free(x->pending);
	tl_free(x->tl);
}

const struct sink_ops sink_timeline = {
	.name = "timeline",
	.priv_size = sizeof(struct timeline),
	.open = timeline_open,
	.stream_begin = timeline_stream_begin,
	.session = timeline_session,
	.sample = timeline_sample,
	.lost = timeline_lost,
	.period = timeline_period,
	.end = timeline_end,
	.stream_end = timeline_stream_end,
	.events = timeline_events,
	.finish = timeline_finish,
	.summary = timeline_summary,
	.close = timeline_close,
};
