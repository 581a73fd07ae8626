// SPDX-License-Identifier: GPL-2.0
/*
 * The sink of `mlx5-diag plot` (plot.h): a lane per data ID (and metric)
 * of each device, its rows' values put into the per-column reduction,
 * lost samples and run ends into its device's marks, the recording's
 * sched_switch events into CPU lanes; the picture drawn at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_ids.h"
#include "errors.h"
#include "metrics.h"
#include "plot.h"
#include "run.h"
#include "sink.h"
#include "timeline.h"

/* A device: its runs share its lanes and marks. */
struct plot_device {
	char identifier[33];
	char pmu[64];
	int lost, ends;			/* mark lanes of the reduction */
	uint64_t pending_lost;		/* lost since its last sample */
	uint64_t last;			/* its last sample's perf time */
	int have_last;
};

/* A lane, and what it shows. */
struct lane {
	struct plot_lane pl;
	unsigned int device;
	uint64_t data_id;		/* of a column; 0 for a metric */
	int metric;
	unsigned int order;		/* its --ids item, or when it came */
};

struct plot_state {
	const struct plot_opts *o;
	struct plot_reduce reduce;
	struct lane lanes[PLOT_MAX_LANES];
	unsigned int nr_lanes;
	unsigned int refused;		/* lanes beyond PLOT_MAX_LANES */
	struct plot_device *devs;
	unsigned int nr_devs;
	int dev;			/* of the current run, -1: none */
	int col_lane[MLX5DIAG_DEFAULT_MAX_IDS];	/* -1: not drawn */
	int metric_lane[MLX5DIAG_DEFAULT_MAX_IDS];
	char pmu[64];			/* of the current stream */
	int have_start;
	uint64_t start;			/* the first sample's perf time */
	uint64_t period_min, period_max;
	uint64_t untimed;		/* samples without a perf time */
	unsigned char *id_used;		/* per --ids item */
	struct tl *tl;			/* --cpus: the recording's events */
	struct plot_sched sched;
};

static int plot_open(struct sink *s)
{
	struct plot_state *x = s->priv;

	x->o = s->opts;
	x->dev = -1;
	x->id_used = calloc(x->o->nr_ids + 1, 1);
	if (x->o->cpus)
		x->tl = tl_new();
	if (!x->id_used || (x->o->cpus && !x->tl) ||
	    plot_reduce_init(&x->reduce, plot_data_width(x->o->width))) {
		free(x->id_used);
		tl_free(x->tl);
		return -1;
	}
	return 0;
}

static void plot_stream_begin(struct sink *s, const struct sink_stream *si)
{
	struct plot_state *x = s->priv;

	snprintf(x->pmu, sizeof(x->pmu), "%s", si->pmu);
	x->dev = -1;
}

/* The device of IDENTIFIER, added with its mark lanes: its index or -1. */
static int device(struct plot_state *x, const char *identifier)
{
	struct plot_device *d;
	unsigned int i;
	int lost, ends;

	for (i = 0; i < x->nr_devs; i++)
		if (!strcmp(x->devs[i].identifier, identifier) &&
		    !strcmp(x->devs[i].pmu, x->pmu))
			return (int)i;
	lost = plot_reduce_lane(&x->reduce);
	ends = plot_reduce_lane(&x->reduce);
	d = realloc(x->devs, (x->nr_devs + 1) * sizeof(*d));
	if (lost < 0 || ends < 0 || !d)
		return -1;
	x->devs = d;
	d = &x->devs[x->nr_devs];
	memset(d, 0, sizeof(*d));
	snprintf(d->identifier, sizeof(d->identifier), "%s", identifier);
	snprintf(d->pmu, sizeof(d->pmu), "%s", x->pmu);
	d->lost = lost;
	d->ends = ends;
	return (int)x->nr_devs++;
}

/* The --ids item NAME or ID matches: its index, -1: none; every one: -2. */
static int selected(struct plot_state *x, const char *name, uint64_t id,
		    int is_metric)
{
	for (unsigned int i = 0; i < x->o->nr_ids; i++) {
		const struct plot_id *p = &x->o->ids[i];

		if ((p->is_id && !is_metric && p->id == id) ||
		    !strcmp(p->text, name)) {
			x->id_used[i] = 1;
			return (int)i;
		}
	}
	return x->o->ids ? -1 : -2;
}

/* The lane of (device, ID or metric NAME), added if need be: index or -1. */
static int lane_of(struct plot_state *x, int metric, uint64_t id,
		   const char *name, unsigned int order)
{
	struct lane *l;
	unsigned int i;
	int cells;

	for (i = 0; i < x->nr_lanes; i++) {
		l = &x->lanes[i];
		if (l->device == (unsigned int)x->dev && l->metric == metric &&
		    (metric ? !strcmp(l->pl.name, name) : l->data_id == id))
			return (int)i;
	}
	if (x->nr_lanes == PLOT_MAX_LANES) {
		x->refused++;
		return -1;
	}
	cells = plot_reduce_lane(&x->reduce);
	if (cells < 0)
		return -2;
	l = &x->lanes[x->nr_lanes];
	memset(l, 0, sizeof(*l));
	snprintf(l->pl.name, sizeof(l->pl.name), "%s", name);
	l->pl.cells = (unsigned int)cells;
	l->pl.lost = x->devs[x->dev].lost;
	l->pl.ends = x->devs[x->dev].ends;
	l->device = (unsigned int)x->dev;
	l->data_id = id;
	l->metric = metric;
	l->order = order;
	return (int)x->nr_lanes++;
}

/* How a column's values read: a counter per second, a statistic as it is. */
static void lane_kind(struct lane *l, const struct column *col)
{
	l->pl.rate = col->vclass == MLX5_DIAG_VCLASS_COUNTER;
	switch (data_id_unit(col->data_id)) {
	case DATA_KIND_UNIT_BYTES:
		l->pl.unit = PLOT_UNIT_BYTES;
		break;
	case DATA_KIND_UNIT_NS:
		l->pl.unit = PLOT_UNIT_NS;
		break;
	default:
		l->pl.unit = PLOT_UNIT_COUNT;
		break;
	}
	snprintf(l->pl.detail, sizeof(l->pl.detail), "0x%016" PRIx64 " %s%s",
		 col->data_id, mlx5diag_vclass_name(col->vclass),
		 l->pl.rate ? ", per second" : "");
}

static void plot_session(struct sink *s, const struct run *r)
{
	struct plot_state *x = s->priv;
	unsigned int i;
	int sel, l;

	x->dev = device(x, r->session.identifier);
	if (x->dev < 0) {
		s->write_error = ENOMEM;
		return;
	}
	if (!x->period_min || r->session.period_ns_actual < x->period_min)
		x->period_min = r->session.period_ns_actual;
	if (r->session.period_ns_actual > x->period_max)
		x->period_max = r->session.period_ns_actual;
	for (i = 0; i < r->nr_cols; i++) {
		x->col_lane[i] = -1;
		sel = selected(x, r->cols[i].name, r->cols[i].data_id, 0);
		if (sel == -1)
			continue;
		l = lane_of(x, 0, r->cols[i].data_id, r->cols[i].name,
			    sel >= 0 ? (unsigned int)sel : x->nr_lanes);
		if (l == -2)
			s->write_error = ENOMEM;
		if (l < 0)
			continue;
		lane_kind(&x->lanes[l], &r->cols[i]);
		x->col_lane[i] = l;
	}
	for (i = 0; i < r->nr_metrics; i++) {
		x->metric_lane[i] = -1;
		sel = selected(x, r->metrics[i].name, 0, 1);
		if (sel == -1)
			continue;
		l = lane_of(x, 1, 0, r->metrics[i].name,
			    sel >= 0 ? (unsigned int)sel : x->nr_lanes);
		if (l == -2)
			s->write_error = ENOMEM;
		if (l < 0)
			continue;
		x->lanes[l].pl.unit = PLOT_UNIT_NONE;
		snprintf(x->lanes[l].pl.detail, sizeof(x->lanes[l].pl.detail),
			 "derived metric");
		x->metric_lane[i] = l;
	}
}

/* The first sample fixes 0 s, and the window --from and --to cut. */
static void start_at(struct plot_state *x, uint64_t t)
{
	const struct plot_opts *o = x->o;
	uint64_t lo = t + o->from_ns;

	x->have_start = 1;
	x->start = t;
	plot_reduce_window(&x->reduce, lo < t ? UINT64_MAX : lo,
			   o->to_ns ? (t + o->to_ns < t ? UINT64_MAX : t + o->to_ns) : 0);
}

static void plot_sample(struct sink *s, const struct run *r,
			const struct row *w)
{
	struct plot_state *x = s->priv;
	struct plot_device *d;
	unsigned int i;
	double v;
	long col;

	if (x->dev < 0)
		return;
	d = &x->devs[x->dev];
	if (!w->perf_time &&
	    !(w->flags & (MLX5DIAG_F_TIME_EXTRAPOLATED | MLX5DIAG_F_TIME_NOMINAL))) {
		x->untimed++;
		return;
	}
	if (!x->have_start)
		start_at(x, w->perf_time);
	d->last = w->perf_time;
	d->have_last = 1;
	col = plot_reduce_column(&x->reduce, w->perf_time);
	if (col < 0)
		return;
	if (d->pending_lost) {
		plot_reduce_put(&x->reduce, (unsigned int)d->lost, (unsigned int)col,
				(double)d->pending_lost);
		d->pending_lost = 0;
	}
	for (i = 0; i < r->nr_cols; i++) {
		const struct lane *l;

		if (x->col_lane[i] < 0)
			continue;
		l = &x->lanes[x->col_lane[i]];
		if (!l->pl.rate)
			v = (double)r->cols[i].value;
		else if (metrics_column_rate(r, &r->cols[i], &v))
			continue;
		plot_reduce_put(&x->reduce, l->pl.cells, (unsigned int)col, v);
	}
	for (i = 0; i < r->nr_metrics; i++)
		if (x->metric_lane[i] >= 0 && w->metrics[i].ok)
			plot_reduce_put(&x->reduce, x->lanes[x->metric_lane[i]].pl.cells,
					(unsigned int)col, w->metrics[i].v);
}

static void plot_lost(struct sink *s, const struct mlx5diag_item *it)
{
	struct plot_state *x = s->priv;

	if (x->dev >= 0)
		x->devs[x->dev].pending_lost += it->lost.count;
}

/* What waits for a time gets the device's last sample's: at its end. */
static void mark_at_last(struct plot_state *x, int ended)
{
	struct plot_device *d;
	long col;

	if (x->dev < 0)
		return;
	d = &x->devs[x->dev];
	if (!d->have_last || (!ended && !d->pending_lost))
		return;
	col = plot_reduce_column(&x->reduce, d->last);
	if (col >= 0 && d->pending_lost)
		plot_reduce_put(&x->reduce, (unsigned int)d->lost, (unsigned int)col,
				(double)d->pending_lost);
	if (col >= 0 && ended)
		plot_reduce_put(&x->reduce, (unsigned int)d->ends, (unsigned int)col, 1);
	d->pending_lost = 0;
}

static void plot_end(struct sink *s, const struct mlx5diag_item *it)
{
	(void)it;
	mark_at_last(s->priv, 1);
}

static void plot_stream_end(struct sink *s)
{
	mark_at_last(s->priv, 0);
}

static struct tl *plot_events(struct sink *s)
{
	struct plot_state *x = s->priv;

	return x->tl;
}

static int by_order(const void *a, const void *b)
{
	const struct lane *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->pl.cells < y->pl.cells ? -1 : x->pl.cells > y->pl.cells;
}

/* A period as it reads best: in s, ms, microseconds or ns. */
static void period_text(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000 && !(ns % 1000000))
		snprintf(buf, len, "%g s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%g ms", (double)ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%g us", (double)ns / 1e3);
	else
		snprintf(buf, len, "%" PRIu64 " ns", ns);
}

/* The title: devices, period, lanes; the subtitle: the data IDs. */
static void titles(struct plot_state *x, struct plot_picture *pic)
{
	char p1[32], p2[32];
	size_t n = 0, k;
	unsigned int i, j, ids = 0;

	for (i = 0; i < x->nr_devs && n < sizeof(pic->title); i++)
		n += (size_t)snprintf(pic->title + n, sizeof(pic->title) - n, "%s%s %s",
				      i ? ", " : "", x->devs[i].pmu,
				      x->devs[i].identifier);
	period_text(x->period_min, p1, sizeof(p1));
	period_text(x->period_max, p2, sizeof(p2));
	for (i = 0; i < x->nr_lanes; i++)
		ids += !x->lanes[i].metric;
	if (n < sizeof(pic->title))
		snprintf(pic->title + n, sizeof(pic->title) - n, ", period %s%s%s, "
			 "%u data ID%s", p1, x->period_min != x->period_max ? " to " : "",
			 x->period_min != x->period_max ? p2 : "", ids,
			 ids == 1 ? "" : "s");
	n = (size_t)snprintf(pic->subtitle, sizeof(pic->subtitle), "data IDs");
	for (i = 0; i < x->nr_lanes && n < sizeof(pic->subtitle); i++) {
		if (x->lanes[i].metric)
			continue;
		/* each once, whatever its devices */
		for (j = 0, k = 0; j < i && !k; j++)
			k = !x->lanes[j].metric &&
			    x->lanes[j].data_id == x->lanes[i].data_id;
		if (!k)
			n += (size_t)snprintf(pic->subtitle + n,
					      sizeof(pic->subtitle) - n,
					      " 0x%016" PRIx64, x->lanes[i].data_id);
	}
}

/* The picture, drawn into the output; STATUS: the decode's. */
static int plot_finish(struct sink *s, int status)
{
	struct plot_state *x = s->priv;
	struct plot_lane pls[PLOT_MAX_LANES];
	struct plot_picture pic;
	struct plot_geom geom;
	char err[256];
	unsigned int i;
	int werr;

	if ((status != ERR_EXIT_OK && status != ERR_EXIT_STREAM) || s->write_error)
		return status;
	for (i = 0; i < x->o->nr_ids; i++)
		if (!x->id_used[i]) {
			err_print("plot", "--ids %s: no data ID or metric of the "
				  "recording is %s", x->o->ids[i].text,
				  x->o->ids[i].is_id ? "that ID or named so" : "named so");
			return ERR_EXIT_USAGE;
		}
	if (x->refused) {
		err_print("plot", "%s: more than %u lanes (%u more): choose some "
			  "with --ids", s->path, PLOT_MAX_LANES, x->refused);
		return ERR_EXIT_USAGE;
	}
	if (x->untimed)
		err_print("plot", "%s: warning: %" PRIu64 " samples without a perf "
			  "time (no TIME record before them) are not drawn", s->path,
			  x->untimed);
	if (!x->have_start || !x->nr_lanes) {
		err_print("plot", "%s: no samples to plot", s->path);
		return ERR_EXIT_FILE;
	}
	if (!plot_reduce_columns(&x->reduce)) {
		err_print("plot", "%s: no samples between --from and --to",
			  s->path);
		return ERR_EXIT_USAGE;
	}
	if (x->tl) {
		struct tl_switch *sw;
		size_t n;

		if (tl_sched_switches(x->tl, &sw, &n, err, sizeof(err))) {
			err_print("plot", "%s: %s", s->path, err);
			return ERR_EXIT_FILE;
		}
		if (!n) {
			err_print("plot", "%s: --cpus: the recording has no "
				  "sched:sched_switch events (record --tracepoint "
				  "sched:sched_switch, perf record -e sched:sched_switch)",
				  s->path);
			return ERR_EXIT_USAGE;
		}
		if (plot_sched_reduce(&x->sched, sw, n, &x->reduce)) {
			err_print("plot", "out of memory");
			return ERR_EXIT_OUTPUT;
		}
	}
	qsort(x->lanes, x->nr_lanes, sizeof(x->lanes[0]), by_order);
	for (i = 0; i < x->nr_lanes; i++) {
		pls[i] = x->lanes[i].pl;
		if (x->nr_devs > 1) {
			size_t n = strlen(pls[i].detail);

			snprintf(pls[i].detail + n, sizeof(pls[i].detail) - n, ", %s",
				 x->devs[x->lanes[i].device].pmu);
		}
	}
	memset(&pic, 0, sizeof(pic));
	pic.width = x->o->width;
	pic.height = x->o->height;
	pic.reduce = &x->reduce;
	pic.lanes = pls;
	pic.nr_lanes = x->nr_lanes;
	pic.sched = x->tl ? &x->sched : NULL;
	pic.start = x->start;
	titles(x, &pic);
	if (plot_geometry(&geom, pic.width, pic.height, pic.nr_lanes,
			  x->sched.nr_cpus, err, sizeof(err))) {
		err_print("plot", "%s: %s", s->path, err);
		return ERR_EXIT_USAGE;
	}
	if (plot_draw(&pic, x->o->format, s->out, &werr, err, sizeof(err))) {
		/* a write error is the pipeline's to say */
		if (werr) {
			s->write_error = werr;
			return status;
		}
		err_print("plot", "%s: %s", x->o->output, err);
		return ERR_EXIT_OUTPUT;
	}
	return status;
}

static void plot_summary(struct sink *s)
{
	struct plot_state *x = s->priv;
	unsigned int n = plot_reduce_columns(&x->reduce);
	uint64_t a, b, unused;

	if (!n || !x->have_start)
		return;
	plot_reduce_time(&x->reduce, 0, &a, &unused);
	plot_reduce_time(&x->reduce, n - 1, &unused, &b);
	err_print("plot", "%s: %u lane%s%s, %.6f s to %.6f s in %u columns of %.6g "
		  "ms", x->o->output, x->nr_lanes, x->nr_lanes == 1 ? "" : "s",
		  x->sched.nr_cpus ? " and CPU lanes" : "",
		  (double)(int64_t)(a - x->start) / 1e9,
		  (double)(int64_t)(b - x->start) / 1e9, n,
		  (double)(b - a) / n / 1e6);
}

static void plot_close(struct sink *s)
{
	struct plot_state *x = s->priv;

	plot_reduce_free(&x->reduce);
	plot_sched_free(&x->sched);
	tl_free(x->tl);
	free(x->devs);
	free(x->id_used);
}

const struct sink_ops sink_plot = {
	.name = "plot",
	.priv_size = sizeof(struct plot_state),
	.open = plot_open,
	.stream_begin = plot_stream_begin,
	.session = plot_session,
	.sample = plot_sample,
	.lost = plot_lost,
	.end = plot_end,
	.stream_end = plot_stream_end,
	.events = plot_events,
	.finish = plot_finish,
	.summary = plot_summary,
	.close = plot_close,
};
