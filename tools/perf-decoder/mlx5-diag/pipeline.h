/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decode pipeline's loop (pipeline.c): sources (source.h) feed it AUX
 * bytes, which it turns into the library's items and those into runs and
 * rows (run.h), with metrics computed on the rows (metrics.h), for one sink
 * chosen by name (sink.h).
 */
#ifndef MLX5_DIAG_PIPELINE_H
#define MLX5_DIAG_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "data_ids.h"
#include "mlx5diag.h"
#include "run.h"
#include "sink.h"

#define PIPELINE_ITEM_BATCH	1024

struct pipeline {
	const char *path;		/* the input, "-": standard input */
	int quiet, metrics;
	const struct data_id_names *names;	/* NULL: default names */
	struct sink sink;

	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[PIPELINE_ITEM_BATCH];
	uint8_t *pend;			/* bytes of a record cut by a chunk */
	size_t pend_len, pend_cap;

	struct run run;
	struct row row;

	char stream_desc[96];		/* in messages */
	uint64_t stream_base;		/* where in the stream the decode started */

	uint32_t end_reason;		/* of the last END, 0: none yet */

	/* summary */
	uint64_t samples, runs, lost[4], lost_other;
	uint64_t aux_bytes, file_size;
	double start, last_progress;
};

/*
 * pipeline_stream_begin - a new AUX stream: the decoder and the columns
 * start afresh. BASE: where in the stream its first fed byte is.
 */
void pipeline_stream_begin(struct pipeline *p, const struct sink_stream *si,
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

#endif /* MLX5_DIAG_PIPELINE_H */
