/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decode pipeline's interfaces: sources feed AUX bytes to the loop
 * (pipeline.c), which turns the library's items into runs and rows, with
 * metrics computed on the rows (metrics.c), for one sink chosen by name
 * (sinks.c).
 */
#ifndef MLX5_DIAG_PIPELINE_H
#define MLX5_DIAG_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "data_ids.h"
#include "mlx5diag.h"

#define ITEM_BATCH	1024
#define NSEC_PER_SEC	UINT64_C(1000000000)

/* ---- runs and rows ---- */

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

/*
 * A derived metric of the run: a row of metrics.def compiled on the run's
 * columns into a program for a stack machine (metrics.c).
 */
enum metric_op_kind {
	MOP_COL,			/* a column's amount over the interval */
	MOP_TIME,			/* duration_time: the interval in s */
	MOP_NUM,			/* a number */
	MOP_ADD, MOP_SUB, MOP_MUL, MOP_DIV,
};

#define METRIC_MAX_OPS	16

struct metric_op {
	enum metric_op_kind kind;
	unsigned int col;		/* MOP_COL: column index */
	uint32_t data_kind;		/* MOP_COL: its event's data-ID kind */
	int counter;			/* MOP_COL: its increase, not its value */
	double num;			/* MOP_NUM */
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
 * A metric's value in one row; OK 0: none (too few samples, zero base).
 * RAW is its expression's value, V that times its scale (in its unit).
 */
struct metric_value {
	int ok;
	double v, raw;
};

/* One sample of the run: its times; the values are the run's columns'. */
struct row {
	uint64_t seq, dev_time, dev_time_end;
	uint64_t perf_time, perf_time_bound;
	uint32_t flags;			/* MLX5DIAG_F_* of its first value */
	struct metric_value *metrics;	/* one per run metric */
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
 * metric_compile - compile EXPR (metrics.def's syntax) times SCALE into M
 * on R's columns, its first event on column ANCHOR and every other event
 * on a column of the same instance; R NULL: check EXPR against the events
 * of metrics.def only (each MOP_COL then names its event by data_kind, no
 * column). Returns 0, or -1 with the reason in *ERR (when not NULL).
 */
int metric_compile(struct metric *m, const char *expr, const char *scale,
		   const struct run *r, unsigned int anchor, const char **err);

/*
 * metrics_table_check - compile every metric of metrics.def against its
 * events: 0, or -1 with what is wrong in ERR (ERRLEN bytes).
 */
int metrics_table_check(char *err, size_t errlen);

/*
 * column_rate - COL's amount per second over the interval before the
 * current row: a counter's increase (for a run that clears on read, its
 * value), a per-sample sum's value; the interval is the device clock's
 * since COL's previous sample, or the actual period under sync and clear,
 * as a metric's duration_time. The rate is AMOUNT * HZ / TICKS of that
 * clock, rounded once. 0 and *RATE, or -1 when there is no interval (the
 * run's first row), it is not positive, or COL is a maximum or minimum.
 */
int column_rate(const struct run *r, const struct column *col, double *rate);

/* ---- sinks ---- */

/* An AUX stream of the input: one run after another. */
struct stream_info {
	const char *desc;		/* "AUX stream", in messages */
	const char *pmu;		/* the PMU that recorded it */
	unsigned int cpu;
};

struct sink;
struct tl;

/*
 * An output. Each callback is optional; write errors go to write_error
 * (an errno), which the pipeline reports once.
 */
struct sink_ops {
	const char *name;
	int binary;				/* writes bytes, not text */
	size_t priv_size;			/* of sink->priv, zeroed */
	int (*open)(struct sink *s);		/* 0, or -1: out of memory */
	void (*stream_begin)(struct sink *s, const struct stream_info *si);
	void (*session)(struct sink *s, const struct run *r);
	void (*sample)(struct sink *s, const struct run *r, const struct row *w);
	void (*lost)(struct sink *s, const struct mlx5diag_item *it);
	void (*period)(struct sink *s, const struct mlx5diag_item *it);
	void (*end)(struct sink *s, const struct mlx5diag_item *it);
	void (*stream_end)(struct sink *s);
	/* the consumer of the recording's perf events, NULL: not wanted */
	struct tl *(*events)(struct sink *s);
	/* the decode ended with STATUS (enum err_exit): the new status */
	int (*finish)(struct sink *s, int status);
	void (*summary)(struct sink *s);	/* to stderr, not with -q */
	void (*close)(struct sink *s);
};

struct sink {
	const struct sink_ops *ops;
	FILE *out;
	const char *path;		/* the input, in messages */
	const void *opts;		/* its caller's settings (plot.c), else NULL */
	int write_error;		/* errno of the first failed write */
	void *priv;
};

/* sink_find - the sink named NAME, NULL if none. */
const struct sink_ops *sink_find(const char *name);

/* sink_at - the Ith sink of the registry, NULL past its end. */
const struct sink_ops *sink_at(size_t i);

/* sink_names - the sinks' names, ", " between them, for messages. */
const char *sink_names(void);

/* sink_fprintf/sink_printf - print to F/S->out, errors to S->write_error. */
void sink_fprintf(struct sink *s, FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sink_printf(struct sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Device time as the CSV prints it: FRC clocks, RTC s.nnnnnnnnn. */
void fmt_dev_time(const struct run *r, uint64_t t, char *buf, size_t len);
/* Perf time as s.nnnnnnnnn. */
void fmt_perf_time(uint64_t t, char *buf, size_t len);

/* ---- the loop, as the sources see it ---- */

struct pipeline {
	const char *path;		/* the input, "-": standard input */
	int quiet, metrics;
	const struct data_id_names *names;	/* NULL: default names */
	struct sink sink;

	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[ITEM_BATCH];
	uint8_t *pend;			/* bytes of a record cut by a chunk */
	size_t pend_len, pend_cap;

	struct run run;
	struct row row;

	char stream_desc[96];		/* in messages */
	uint64_t stream_base;		/* where in the stream the decode started */

	/* summary */
	uint64_t samples, runs, lost[4], lost_other;
	uint64_t aux_bytes, file_size;
	double start, last_progress;
};

/*
 * pipeline_stream_begin - a new AUX stream: the decoder and the columns
 * start afresh. BASE: where in the stream its first fed byte is.
 */
void pipeline_stream_begin(struct pipeline *p, const struct stream_info *si,
			   uint64_t base);

/* pipeline_feed - LEN bytes of the stream; 0 or a negative errno. */
int pipeline_feed(struct pipeline *p, const void *data, size_t len);

/*
 * pipeline_stream_end - the stream ended, RET being what feeding it
 * returned: 0, a negative errno of the decoder or -ENOMEM, or another
 * negative value for an error of the input (which the caller reports).
 * Returns an err_exit status, or -1 for the caller's error.
 */
int pipeline_stream_end(struct pipeline *p, int ret);

/* pipeline_events - the consumer of the input's perf events, NULL: none. */
struct tl *pipeline_events(struct pipeline *p);

/*
 * pipeline_run - decode P->path with the sink SINK writing to OUT.
 * Returns an enum err_exit status; errors are said on stderr.
 */
int pipeline_run(struct pipeline *p, const struct sink_ops *sink, FILE *out);

/*
 * pipeline_init - P (zeroed but for its options) ready for a live source
 * to feed streams (pipeline_stream_begin, _feed, _end) to SINK, whose
 * sink->priv is PRIV (not allocated) and which writes to OUT (may be
 * NULL for a sink that writes nothing). Returns 0, or -1 (no memory).
 */
int pipeline_init(struct pipeline *p, const struct sink_ops *sink, void *priv,
		  FILE *out);

/* pipeline_exit - what pipeline_init() allocated, freed. */
void pipeline_exit(struct pipeline *p);

/* ---- sources: each reads its input and feeds the loop ---- */

/* A recording of `mlx5-diag record`; HEAD: its first HEAD_LEN bytes, read. */
int source_mdf(struct pipeline *p, FILE *f, const unsigned char *head,
	       size_t head_len);

/* A perf.data file or pipe; its 8 magic bytes are read. */
int source_perf(struct pipeline *p, FILE *f);

#endif /* MLX5_DIAG_PIPELINE_H */
