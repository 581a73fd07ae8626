/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decode's outputs: the interface a sink fills (one file each,
 * sink_*.c), the registry that picks one by name and what sinks share
 * (sinks.c).
 */
#ifndef MLX5_DIAG_SINK_H
#define MLX5_DIAG_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mlx5diag.h"
#include "run.h"

/* An AUX stream of the input: one run after another. */
struct sink_stream {
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
	void (*stream_begin)(struct sink *s, const struct sink_stream *si);
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
void sink_fmt_dev_time(const struct run *r, uint64_t t, char *buf, size_t len);
/* Perf time as s.nnnnnnnnn. */
void sink_fmt_perf_time(uint64_t t, char *buf, size_t len);

#endif /* MLX5_DIAG_SINK_H */
