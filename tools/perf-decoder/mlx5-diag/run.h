/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decode's runs and rows: the columns of a run's data IDs and one row
 * per sample, as the loop (pipeline.c) fills them for the metrics and the
 * sinks.
 */
#ifndef MLX5_DIAG_RUN_H
#define MLX5_DIAG_RUN_H

#include <stdint.h>

#include "metrics.h"
#include "mlx5diag.h"

#define NSEC_PER_SEC	UINT64_C(1000000000)

/* One column of the current run: one data ID of its session. */
struct column {
	uint64_t data_id;
	uint8_t vclass;
	char name[128];
	uint64_t value;			/* in the current sample */
	uint64_t dev_time;		/* of the value (format 0: its own) */
	uint64_t prev_value;		/* in the previous sample of the run */
	uint64_t prev_dev_time;
};

/* The current run: its session, columns and metrics. */
struct run {
	struct mlx5diag_session session;
	struct column *cols;
	unsigned int nr_cols;
	struct metric *metrics;
	unsigned int nr_metrics;
	int have_prev;			/* the run has a previous sample */
};

/*
 * One sample of the run: its times, from its earliest entry's (dev_time,
 * with its perf_time and bound) to its latest one's (dev_time_end); the
 * values are the run's columns'.
 */
struct row {
	uint64_t seq, dev_time, dev_time_end;
	uint64_t perf_time, perf_time_bound;
	uint32_t flags;			/* MLX5DIAG_F_* of its first value,
					 * TIME_EXTRAPOLATED of its earliest */
	struct metric_value *metrics;	/* one per run metric */
};

#endif /* MLX5_DIAG_RUN_H */
