/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's high-resolution mode: a sampling session's samples,
 * decoded by the pipeline, folded into what a scrape cannot see by
 * itself: per data ID its total since the start, and over the window
 * since the last scrape the peak rate of one sample period (counters and
 * sums), the largest maximum or the smallest minimum (statistics); per
 * derived metric of metrics.def (as the pipeline computes it) the
 * window's largest and smallest value; the samples folded and lost.
 */
#ifndef MLX5_DIAG_FOLD_H
#define MLX5_DIAG_FOLD_H

#include <stdint.h>

#include "sink.h"

struct fold_series {
	uint64_t data_id;
	uint8_t vclass;			/* enum mlx5_diag_value_class */
	uint64_t total;			/* counter: its increases; sum: its values */
	/* the window */
	uint64_t n;			/* samples that gave a value */
	double peak_rate;		/* counter, sum: largest amount / interval */
	uint64_t extreme;		/* max: the largest; min: the smallest but 0 */
};

/* A derived metric of one instance: its window. */
struct fold_metric {
	const char *name;		/* metrics.def's (struct metric's base_name) */
	const char *unit, *desc;	/* metrics.def's */
	uint64_t anchor_id;		/* its first event's data ID: the instance */
	uint64_t n;			/* samples of the window that gave a value */
	double max, min;		/* of its expression (struct metric_value's raw) */
};

/* Lost samples by cause: MLX5_DIAG_LOST_* 1-3, and 0 for any other. */
#define FOLD_LOST_CAUSES	4

struct fold {
	struct fold_series *series;
	unsigned int nr, cap;
	int col_series[MLX5DIAG_DEFAULT_MAX_IDS];	/* of the run's columns */
	struct fold_metric *metrics;
	unsigned int nr_metrics, cap_metrics;
	int run_metric[MLX5DIAG_DEFAULT_MAX_IDS];	/* of the run's metrics */
	uint64_t samples;		/* folded since the start */
	uint64_t lost[FOLD_LOST_CAUSES];
	uint64_t runs;
	uint64_t period_ns;		/* the run's actual period, 0: none yet */
	int oom;			/* a series could not be added */
};

/* A scrape's copy of a fold: the window as it was, the totals. */
struct fold_view {
	struct fold_series *series;
	unsigned int nr;
	struct fold_metric *metrics;
	unsigned int nr_metrics;
	uint64_t samples, lost[FOLD_LOST_CAUSES], runs, period_ns;
};

/* The pipeline's sink that folds; its priv is a struct fold. */
extern const struct sink_ops fold_sink;

void fold_init(struct fold *f);
void fold_free(struct fold *f);

/*
 * fold_take - F as it is into V (its series and metrics allocated:
 * fold_view_free), and a new window begun. Returns 0, or -1 (no memory:
 * F unchanged).
 */
int fold_take(struct fold *f, struct fold_view *v);
void fold_view_free(struct fold_view *v);

/* fold_find - the series of data ID ID in V, NULL if none. */
const struct fold_series *fold_find(const struct fold_view *v, uint64_t id);

#endif /* MLX5_DIAG_FOLD_H */
