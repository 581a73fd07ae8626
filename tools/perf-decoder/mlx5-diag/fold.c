// SPDX-License-Identifier: GPL-2.0
/*
 * Samples folded between scrapes (fold.h): a sink of the decode pipeline
 * that keeps, per data ID, the total and the window's peak rate or
 * extreme; pure, so that its values are tested exactly on the host.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

void fold_init(struct fold *f)
{
	memset(f, 0, sizeof(*f));
}

void fold_free(struct fold *f)
{
	free(f->series);
	free(f->metrics);
	fold_init(f);
}

/* The series of ID, added if new: its index, or -1 (no memory). */
static int series_of(struct fold *f, uint64_t id, uint8_t vclass)
{
	unsigned int i;

	for (i = 0; i < f->nr; i++)
		if (f->series[i].data_id == id)
			return (int)i;
	if (f->nr == f->cap) {
		unsigned int cap = f->cap ? 2 * f->cap : 16;
		struct fold_series *grown = realloc(f->series, cap * sizeof(*grown));

		if (!grown) {
			f->oom = 1;
			return -1;
		}
		f->series = grown;
		f->cap = cap;
	}
	memset(&f->series[f->nr], 0, sizeof(f->series[0]));
	f->series[f->nr].data_id = id;
	f->series[f->nr].vclass = vclass;
	return (int)f->nr++;
}

/* The window of metric M of run R, added if new: its index, or -1. */
static int metric_of(struct fold *f, const struct run *r, const struct metric *m)
{
	uint64_t anchor_id = r->cols[m->anchor].data_id;
	struct fold_metric *fm;
	unsigned int i;

	/* one row of metrics.def: one name pointer */
	for (i = 0; i < f->nr_metrics; i++)
		if (f->metrics[i].name == m->base_name &&
		    f->metrics[i].anchor_id == anchor_id)
			return (int)i;
	if (f->nr_metrics == f->cap_metrics) {
		unsigned int cap = f->cap_metrics ? 2 * f->cap_metrics : 16;
		struct fold_metric *grown = realloc(f->metrics, cap * sizeof(*grown));

		if (!grown) {
			f->oom = 1;
			return -1;
		}
		f->metrics = grown;
		f->cap_metrics = cap;
	}
	fm = &f->metrics[f->nr_metrics];
	memset(fm, 0, sizeof(*fm));
	fm->name = m->base_name;
	fm->unit = m->unit;
	fm->desc = m->desc;
	fm->anchor_id = anchor_id;
	return (int)f->nr_metrics++;
}

static void fold_session(struct sink *s, const struct run *r)
{
	struct fold *f = s->priv;
	unsigned int i;

	for (i = 0; i < r->nr_cols; i++)
		f->col_series[i] = series_of(f, r->cols[i].data_id, r->cols[i].vclass);
	for (i = 0; i < r->nr_metrics; i++)
		f->run_metric[i] = metric_of(f, r, &r->metrics[i]);
	f->period_ns = r->session.period_ns_actual;
	f->runs++;
}

/* A counter's increase or a sum's value: the total, and the peak rate. */
static void fold_amount(struct fold_series *fs, const struct run *r,
			const struct column *col, uint64_t amount)
{
	double rate;

	fs->total += amount;
	if (metrics_column_rate(r, col, &rate))
		return;
	if (!fs->n || rate > fs->peak_rate)
		fs->peak_rate = rate;
	fs->n++;
}

/* Metric values of the row: each instance's largest and smallest. */
static void fold_metrics(struct fold *f, const struct run *r, const struct row *w)
{
	unsigned int i;

	for (i = 0; i < r->nr_metrics; i++) {
		struct fold_metric *fm;
		double v = w->metrics[i].raw;

		if (f->run_metric[i] < 0 || !w->metrics[i].ok)
			continue;
		fm = &f->metrics[f->run_metric[i]];
		if (!fm->n || v > fm->max)
			fm->max = v;
		if (!fm->n || v < fm->min)
			fm->min = v;
		fm->n++;
	}
}

static void fold_sample(struct sink *s, const struct run *r, const struct row *w)
{
	struct fold *f = s->priv;
	unsigned int i;

	fold_metrics(f, r, w);
	for (i = 0; i < r->nr_cols; i++) {
		const struct column *col = &r->cols[i];
		struct fold_series *fs;

		if (f->col_series[i] < 0)
			continue;
		fs = &f->series[f->col_series[i]];
		switch (col->vclass) {
		case MLX5_DIAG_VCLASS_COUNTER:
			/* the first sample of a run is where its counts start */
			if (r->have_prev || r->session.clear)
				fold_amount(fs, r, col, metrics_counter_delta(r, col));
			break;
		case MLX5_DIAG_VCLASS_STAT_SUM:
			fold_amount(fs, r, col, col->value);
			break;
		case MLX5_DIAG_VCLASS_STAT_MAX:
			if (!fs->n || col->value > fs->extreme)
				fs->extreme = col->value;
			fs->n++;
			break;
		case MLX5_DIAG_VCLASS_STAT_MIN:
			/* 0: nothing was measured in the period */
			if (col->value && (!fs->n || col->value < fs->extreme))
				fs->extreme = col->value;
			fs->n += !!col->value;
			break;
		}
	}
	f->samples++;
}

static void fold_lost(struct sink *s, const struct mlx5diag_item *it)
{
	struct fold *f = s->priv;

	f->lost[it->lost.cause < FOLD_LOST_CAUSES ? it->lost.cause : 0] +=
		it->lost.count;
}

static void fold_period(struct sink *s, const struct mlx5diag_item *it)
{
	struct fold *f = s->priv;

	f->period_ns = it->period.ns_actual;
}

const struct sink_ops fold_sink = {
	.name = "fold",
	.session = fold_session,
	.sample = fold_sample,
	.lost = fold_lost,
	.period = fold_period,
};

int fold_take(struct fold *f, struct fold_view *v)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	if (f->nr) {
		v->series = malloc(f->nr * sizeof(*v->series));
		if (!v->series)
			return -1;
		memcpy(v->series, f->series, f->nr * sizeof(*v->series));
	}
	if (f->nr_metrics) {
		v->metrics = malloc(f->nr_metrics * sizeof(*v->metrics));
		if (!v->metrics) {
			free(v->series);
			v->series = NULL;
			return -1;
		}
		memcpy(v->metrics, f->metrics, f->nr_metrics * sizeof(*v->metrics));
	}
	v->nr = f->nr;
	v->nr_metrics = f->nr_metrics;
	v->samples = f->samples;
	memcpy(v->lost, f->lost, sizeof(v->lost));
	v->runs = f->runs;
	v->period_ns = f->period_ns;
	for (i = 0; i < f->nr; i++) {
		f->series[i].n = 0;
		f->series[i].peak_rate = 0;
		f->series[i].extreme = 0;
	}
	for (i = 0; i < f->nr_metrics; i++) {
		f->metrics[i].n = 0;
		f->metrics[i].max = 0;
		f->metrics[i].min = 0;
	}
	return 0;
}

void fold_view_free(struct fold_view *v)
{
	free(v->series);
	free(v->metrics);
	memset(v, 0, sizeof(*v));
}

const struct fold_series *fold_find(const struct fold_view *v, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < v->nr; i++)
		if (v->series[i].data_id == id)
			return &v->series[i];
	return NULL;
}
