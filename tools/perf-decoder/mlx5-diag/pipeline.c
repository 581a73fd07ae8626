// SPDX-License-Identifier: GPL-2.0
/*
 * The decode loop: AUX bytes from a source through libmlx5diag, its items
 * turned into runs and rows (with their metrics) for the sink; progress
 * and the summary on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock_ns.h"
#include "errors.h"
#include "metrics.h"
#include "perfdata.h"
#include "pipeline.h"
#include "run.h"
#include "sink.h"
#include "source.h"

static const char *column_name(const struct pipeline *p, uint64_t id,
			       char *buf, size_t len)
{
	size_t i;

	if (p->names)
		for (i = 0; i < p->names->nr; i++)
			if (p->names->entries[i].data_id == id)
				return p->names->entries[i].name;
	data_id_default_name(id, buf, len);
	return buf;
}

static void on_session(struct pipeline *p)
{
	const struct mlx5diag_session *s = mlx5diag_session(&p->dec);
	struct run *r = &p->run;
	unsigned int i;
	char buf[128];

	r->session = *s;
	r->nr_cols = s->num_ids;
	for (i = 0; i < s->num_ids; i++) {
		struct column *col = &r->cols[i];

		memset(col, 0, sizeof(*col));
		col->data_id = s->ids[i].data_id;
		col->vclass = s->ids[i].vclass;
		snprintf(col->name, sizeof(col->name), "%s",
			 column_name(p, col->data_id, buf, sizeof(buf)));
	}
	if (p->metrics)
		metrics_plan(r);
	else
		r->nr_metrics = 0;
	r->have_prev = 0;
	p->runs++;
	if (p->sink.ops->session)
		p->sink.ops->session(&p->sink, r);
}

static void on_row(struct pipeline *p)
{
	struct run *r = &p->run;
	unsigned int i;

	metrics_compute(r, &p->row);
	if (p->sink.ops->sample)
		p->sink.ops->sample(&p->sink, r, &p->row);
	for (i = 0; i < r->nr_cols; i++) {
		r->cols[i].prev_value = r->cols[i].value;
		r->cols[i].prev_dev_time = r->cols[i].dev_time;
	}
	r->have_prev = 1;
	p->samples++;
}

/* The row's time is @it's: its dev_time, perf_time, bound and extrapolation. */
static void row_time_from(struct row *w, const struct mlx5diag_item *it)
{
	w->dev_time = it->dev_time;
	w->perf_time = it->perf_time;
	w->perf_time_bound = it->sample.perf_time_bound_ns;
	w->flags = (w->flags & ~MLX5DIAG_F_TIME_EXTRAPOLATED) |
		   (it->flags & MLX5DIAG_F_TIME_EXTRAPOLATED);
}

static void on_item(struct pipeline *p, const struct mlx5diag_item *it)
{
	const struct sink_ops *ops = p->sink.ops;
	struct column *col;

	switch (it->kind) {
	case MLX5DIAG_ITEM_SESSION:
		on_session(p);
		return;
	case MLX5DIAG_ITEM_VALUE:
		col = &p->run.cols[it->id_index];
		col->value = it->value;
		col->dev_time = it->dev_time;
		if (it->flags & MLX5DIAG_F_SAMPLE_FIRST) {
			p->row.seq = it->seq;
			p->row.dev_time_end = it->dev_time_end;
			p->row.flags = it->flags;
			row_time_from(&p->row, it);
		} else {
			/* the sample spans its entries (format 0) */
			if (it->dev_time_end > p->row.dev_time_end)
				p->row.dev_time_end = it->dev_time_end;
			if (it->dev_time < p->row.dev_time)
				row_time_from(&p->row, it);
		}
		if (it->flags & MLX5DIAG_F_SAMPLE_LAST)
			on_row(p);
		return;
	case MLX5DIAG_ITEM_LOST:
		if (it->lost.cause < 4)
			p->lost[it->lost.cause] += it->lost.count;
		else
			p->lost_other += it->lost.count;
		if (ops->lost)
			ops->lost(&p->sink, it);
		return;
	case MLX5DIAG_ITEM_PERIOD:
		p->run.session.period_ns_actual = it->period.ns_actual;
		p->run.session.period_ns_requested = it->period.ns_requested;
		if (ops->period)
			ops->period(&p->sink, it);
		return;
	case MLX5DIAG_ITEM_END:
		p->end_reason = it->end.reason;
		if (ops->end)
			ops->end(&p->sink, it);
		return;
	default:	/* TIME: folded into the samples' perf times */
		return;
	}
}

static void progress(struct pipeline *p)
{
	double now = (double)clock_now_ns(CLOCK_MONOTONIC) / 1e9;

	if (p->quiet || now - p->last_progress < 1.0 || now - p->start < 1.0)
		return;
	p->last_progress = now;
	if (p->file_size)
		err_print("decode", "%" PRIu64 " MiB of AUX data, %"
			  PRIu64 " samples (%.0f%% of the file)",
			  p->aux_bytes >> 20, p->samples,
			  100.0 * (double)p->aux_bytes / (double)p->file_size);
	else
		err_print("decode", "%" PRIu64 " MiB of AUX data, %"
			  PRIu64 " samples", p->aux_bytes >> 20, p->samples);
}

/* Decode what is pending; keeps a cut record for the next chunk. */
static int decode_pending(struct pipeline *p)
{
	size_t done = 0;
	int ret;

	do {
		size_t size = p->pend_len - done, count = PIPELINE_ITEM_BATCH, i;

		ret = mlx5diag_decode(&p->dec, p->pend + done, &size, p->items,
				      &count);
		for (i = 0; i < count; i++)
			on_item(p, &p->items[i]);
		done += size;
	} while (ret == MLX5DIAG_MORE_ITEMS);
	memmove(p->pend, p->pend + done, p->pend_len - done);
	p->pend_len -= done;
	return ret < 0 ? ret : 0;
}

int pipeline_feed(struct pipeline *p, const void *data, size_t len)
{
	if (p->pend_len + len > p->pend_cap) {
		size_t cap = p->pend_cap ? p->pend_cap : 1 << 16;
		uint8_t *grown;

		while (cap < p->pend_len + len)
			cap *= 2;
		grown = realloc(p->pend, cap);
		if (!grown)
			return -ENOMEM;
		p->pend = grown;
		p->pend_cap = cap;
	}
	memcpy(p->pend + p->pend_len, data, len);
	p->pend_len += len;
	p->aux_bytes += len;
	progress(p);
	return decode_pending(p);
}

static void summary(const struct pipeline *p)
{
	uint64_t lost = p->lost[0] + p->lost[1] + p->lost[2] + p->lost[3] +
			p->lost_other;

	err_print("decode", "%" PRIu64 " samples in %" PRIu64
		  " run%s, %" PRIu64 " lost (fw_overwrite %" PRIu64
		  ", aux_full %" PRIu64 ", reset %" PRIu64 ", unaccounted %"
		  PRIu64 "%s)", p->samples, p->runs, p->runs == 1 ? "" : "s",
		  lost, p->lost[MLX5_DIAG_LOST_FW_OVERWRITE],
		  p->lost[MLX5_DIAG_LOST_AUX_FULL], p->lost[MLX5_DIAG_LOST_RESET],
		  p->lost[MLX5DIAG_LOST_UNACCOUNTED],
		  p->lost_other ? ", other causes" : "");
}

void pipeline_stream_begin(struct pipeline *p, const struct sink_stream *si,
			   uint64_t base)
{
	mlx5diag_decoder_reset(&p->dec);
	p->pend_len = 0;
	p->run.nr_cols = 0;
	p->run.nr_metrics = 0;
	p->run.have_prev = 0;
	p->stream_base = base;
	snprintf(p->stream_desc, sizeof(p->stream_desc), "%s", si->desc);
	if (p->sink.ops->stream_begin)
		p->sink.ops->stream_begin(&p->sink, si);
}

int pipeline_stream_end(struct pipeline *p, int ret)
{
	uint64_t offset = 0;
	const char *msg;

	if (!ret)
		ret = mlx5diag_decode_end(&p->dec, p->pend_len);
	if (p->sink.ops->stream_end)
		p->sink.ops->stream_end(&p->sink);
	if (ret == -ENOMEM) {
		err_print("decode", "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	if (ret < 0 && (msg = mlx5diag_error_message(&p->dec, &offset))) {
		err_print("decode", "%s: %s byte %" PRIu64
			  ": %s (%s)", p->path, p->stream_desc,
			  p->stream_base + offset, msg, mlx5diag_strerror(ret));
		return ERR_EXIT_STREAM;
	}
	return ret < 0 ? -1 : ERR_EXIT_OK;
}

struct tl *pipeline_events(struct pipeline *p)
{
	return p->sink.ops->events ? p->sink.ops->events(&p->sink) : NULL;
}

/* The input: a perf.data (file or pipe) or a recording, by its magic. */
static int decode_input(struct pipeline *p, FILE *f)
{
	unsigned char magic[8];
	size_t got;

	got = fread(magic, 1, sizeof(magic), f);
	if (got == sizeof(magic) && !memcmp(magic, PD_MAGIC, 8))
		return source_perf(p, f);
	if (got == sizeof(magic) && !memcmp(magic, PD_MAGIC_SWAPPED, 8)) {
		err_print("decode", "%s: a perf.data of the other "
			  "byte order (big-endian) is not supported", p->path);
		if (f != stdin)
			fclose(f);
		return ERR_EXIT_FILE;
	}
	return source_mdf(p, f, magic, got);
}

/* The run's columns and metrics, the row's metrics and the decoder. */
static int pipeline_alloc(struct pipeline *p)
{
	p->run.cols = calloc(MLX5DIAG_DEFAULT_MAX_IDS, sizeof(*p->run.cols));
	p->run.metrics = calloc(MLX5DIAG_DEFAULT_MAX_IDS, sizeof(*p->run.metrics));
	p->row.metrics = calloc(MLX5DIAG_DEFAULT_MAX_IDS, sizeof(*p->row.metrics));
	if (!p->run.cols || !p->run.metrics || !p->row.metrics ||
	    mlx5diag_decoder_init(&p->dec, NULL))
		return -1;
	return 0;
}

static void pipeline_free(struct pipeline *p)
{
	free(p->pend);
	free(p->run.cols);
	free(p->run.metrics);
	free(p->row.metrics);
	p->pend = NULL;
	p->pend_len = p->pend_cap = 0;
	p->run.cols = NULL;
	p->run.nr_cols = 0;
	p->run.metrics = NULL;
	p->run.nr_metrics = 0;
	p->row.metrics = NULL;
}

int pipeline_init(struct pipeline *p, const struct sink_ops *sink, void *priv,
		  FILE *out)
{
	p->sink.ops = sink;
	p->sink.out = out;
	p->sink.path = p->path;
	p->sink.priv = priv;
	if (pipeline_alloc(p)) {
		pipeline_free(p);
		return -1;
	}
	return 0;
}

void pipeline_exit(struct pipeline *p)
{
	mlx5diag_decoder_exit(&p->dec);
	pipeline_free(p);
}

int pipeline_run(struct pipeline *p, const struct sink_ops *sink, FILE *out)
{
	struct sink *s = &p->sink;
	int status;
	FILE *f;

	f = strcmp(p->path, "-") ? fopen(p->path, "rb") : stdin;
	if (!f) {
		err_print("decode", "%s: %s", p->path,
			  strerror(errno));
		return ERR_EXIT_FILE;
	}
	s->ops = sink;
	s->out = out;
	s->path = p->path;
	s->priv = sink->priv_size ? calloc(1, sink->priv_size) : NULL;
	if (pipeline_alloc(p) || (sink->priv_size && !s->priv)) {
		err_print("decode", "out of memory");
		status = ERR_EXIT_OUTPUT;
		goto out;
	}
	if (sink->open && sink->open(s)) {
		err_print("decode", "out of memory");
		mlx5diag_decoder_exit(&p->dec);
		status = ERR_EXIT_OUTPUT;
		goto out;
	}
	p->start = (double)clock_now_ns(CLOCK_MONOTONIC) / 1e9;
	p->last_progress = p->start;

	status = decode_input(p, f);
	f = NULL;	/* the source closed it */
	if (sink->finish)
		status = sink->finish(s, status);
	if (fflush(s->out) && !s->write_error)
		s->write_error = errno;
	if (s->write_error) {
		err_print("decode", "writing the output: %s",
			  strerror(s->write_error));
		status = ERR_EXIT_OUTPUT;
	}
	if (!p->quiet)
		summary(p);
	if (!p->quiet && sink->summary)
		sink->summary(s);
	if (sink->close)
		sink->close(s);
	mlx5diag_decoder_exit(&p->dec);
out:
	if (f && f != stdin)
		fclose(f);
	pipeline_free(p);
	free(s->priv);
	s->priv = NULL;
	return status;
}
