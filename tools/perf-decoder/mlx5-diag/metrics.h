/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Derived metrics, as metrics.def defines them: compiled on a run's
 * columns when its session starts and evaluated on each row (metrics.c).
 */
#ifndef MLX5_DIAG_METRICS_H
#define MLX5_DIAG_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct column;
struct row;
struct run;

/*
 * A derived metric of the run: a row of metrics.def compiled on the run's
 * columns into a program for a stack machine (metrics.c).
 */
enum metric_op_kind {
	METRIC_OP_COL,			/* a column's amount over the interval */
	METRIC_OP_TIME,			/* duration_time: the interval in s */
	METRIC_OP_NUM,			/* a number */
	METRIC_OP_ADD, METRIC_OP_SUB, METRIC_OP_MUL, METRIC_OP_DIV,
};

#define METRIC_MAX_OPS	16

struct metric_op {
	enum metric_op_kind kind;
	unsigned int col;		/* METRIC_OP_COL: column index */
	uint32_t data_kind;		/* METRIC_OP_COL: its event's data-ID kind */
	int counter;			/* METRIC_OP_COL: its increase, not its value */
	double num;			/* METRIC_OP_NUM */
};

struct metric {
	struct metric_op ops[METRIC_MAX_OPS];
	unsigned int nr_ops;
	unsigned int anchor;		/* the column of its first event */
	uint32_t first_kind;		/* that event's data-ID kind */
	double scale;
	const char *base_name;		/* metrics.def's: "rx_bytes_GBps" */
	const char *unit;		/* metrics.def's: "GB/s", "ns", "" */
	const char *desc;		/* metrics.def's description */
	char name[160];			/* "<instance>_<base_name>" */
};

/*
 * A metric's value in one row; OK 0: none (too few samples, zero base).
 * RAW is its expression's value, V that times its scale (in its unit).
 */
struct metric_value {
	int ok;
	double v, raw;
};

/*
 * metrics_plan - the metrics of metrics.def the run's data IDs allow, into
 * R->metrics (at most one per column).
 */
void metrics_plan(struct run *r);

/* metrics_compute - W's metric values, from R's columns. */
void metrics_compute(const struct run *r, struct row *w);

/*
 * metrics_counter_delta - counter COL's increase since the run's previous
 * sample (its value when the session clears at each sample; format 2:
 * modulo 2^32). Valid once the run has a previous sample, or clears.
 */
uint64_t metrics_counter_delta(const struct run *r, const struct column *col);

/*
 * metrics_compile - compile EXPR (metrics.def's syntax) times SCALE into M
 * on R's columns, its first event on column ANCHOR and every other event
 * on a column of the same instance; R NULL: check EXPR against the events
 * of metrics.def only (each METRIC_OP_COL then names its event by data_kind, no
 * column). Returns 0, or -1 with the reason in *ERR (when not NULL).
 */
int metrics_compile(struct metric *m, const char *expr, const char *scale,
		    const struct run *r, unsigned int anchor, const char **err);

/*
 * metrics_table_check - compile every metric of metrics.def against its
 * events: 0, or -1 with what is wrong in ERR (ERRLEN bytes).
 */
int metrics_table_check(char *err, size_t errlen);

/*
 * metrics_column_rate - COL's amount per second over the interval before the
 * current row: a counter's increase (for a run that clears on read, its
 * value), a per-sample sum's value; the interval is the device clock's
 * since COL's previous sample, or the actual period under sync and clear,
 * as a metric's duration_time. The rate is AMOUNT * HZ / TICKS of that
 * clock, rounded once. 0 and *RATE, or -1 when there is no interval (the
 * run's first row), it is not positive, or COL is a maximum or minimum.
 */
int metrics_column_rate(const struct run *r, const struct column *col, double *rate);

#endif /* MLX5_DIAG_METRICS_H */
