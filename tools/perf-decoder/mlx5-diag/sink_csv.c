// SPDX-License-Identifier: GPL-2.0
/*
 * The CSV sink (--format csv, and `mlx5-diag doca`): the CSV of DOCA's
 * telemetry_diag sample, a header each time the columns change. Rows are
 * formatted into a buffer without printf and written with one fwrite()
 * each (the bytes printf would print: bench/csv_bench.c compares).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "outbuf.h"
#include "run.h"
#include "sink.h"

struct csv {
	char layout[64];		/* what the last header was for */
	int header_done;
	struct outbuf out;		/* the row; empty between callbacks */
};

static void csv_session(struct sink *s, const struct run *r)
{
	struct csv *c = s->priv;
	char layout[sizeof(c->layout)];
	unsigned int i;

	/* a new header only when the columns change (DOCA writes one) */
	snprintf(layout, sizeof(layout), "%u/%u/%u", r->session.out_format,
		 r->nr_cols, r->nr_metrics);
	if (c->header_done && !strcmp(layout, c->layout)) {
		for (i = 0; i < r->nr_cols; i++)
			if (r->cols[i].data_id != r->session.ids[i].data_id)
				break;
		if (i == r->nr_cols)
			return;
	}
	if (c->header_done)
		sink_printf(s, "\n");
	strcpy(c->layout, layout);
	c->header_done = 1;
	if (r->session.out_format == MLX5_DIAG_FORMAT_0) {
		sink_printf(s, "sample_id");
		for (i = 0; i < r->nr_cols; i++)
			sink_printf(s, ", data_id, sample_time, %s", r->cols[i].name);
	} else {
		sink_printf(s, "sample_id, sample_time_start, sample_time_end");
		for (i = 0; i < r->nr_cols; i++)
			sink_printf(s, ", %s", r->cols[i].name);
	}
	for (i = 0; i < r->nr_metrics; i++)
		sink_printf(s, ", %s", r->metrics[i].name);
}

/* Device time as sink_fmt_dev_time() prints it: FRC clocks, RTC s.nnnnnnnnn. */
static void csv_dev_time(struct outbuf *b, const struct run *r, uint64_t t)
{
	uint32_t sec, ns;

	if (r->session.ts_source == MLX5_DIAG_TS_RTC) {
		mlx5diag_rtc_split(t, &sec, &ns);
		outbuf_u64(b, sec);
		outbuf_mem(b, ".", 1);
		outbuf_u32_09(b, ns);
	} else {
		outbuf_u64(b, t);
	}
}

static void csv_sample(struct sink *s, const struct run *r, const struct row *w)
{
	struct csv *c = s->priv;
	struct outbuf *b = &c->out;
	unsigned int i;

	outbuf_mem(b, "\n", 1);
	outbuf_u64(b, (uint32_t)w->seq);
	if (r->session.out_format == MLX5_DIAG_FORMAT_0) {
		for (i = 0; i < r->nr_cols; i++) {
			outbuf_room(s, b);
			outbuf_mem(b, ", ", 2);
			outbuf_hex016(b, r->cols[i].data_id);
			outbuf_mem(b, ", ", 2);
			csv_dev_time(b, r, r->cols[i].dev_time);
			outbuf_mem(b, ", ", 2);
			outbuf_u64(b, r->cols[i].value);
		}
	} else {
		outbuf_mem(b, ", ", 2);
		csv_dev_time(b, r, w->dev_time);
		outbuf_mem(b, ", ", 2);
		csv_dev_time(b, r, w->dev_time_end);
		for (i = 0; i < r->nr_cols; i++) {
			outbuf_room(s, b);
			outbuf_mem(b, ", ", 2);
			outbuf_u64(b, r->cols[i].value);
		}
	}
	for (i = 0; i < r->nr_metrics; i++) {
		outbuf_room(s, b);
		if (w->metrics[i].ok)
			b->len += (size_t)snprintf(b->buf + b->len, OUTBUF_FIELD,
						   ", %.6g", w->metrics[i].v);
		else
			outbuf_mem(b, ", ", 2);
	}
	outbuf_flush(s, b);
}

static int csv_finish(struct sink *s, int status)
{
	const struct csv *c = s->priv;

	if (!c->header_done && status == ERR_EXIT_OK)
		err_print("decode", "%s: no session in the "
			  "recording", s->path);
	return status;
}

const struct sink_ops sink_csv = {
	.name = "csv",
	.priv_size = sizeof(struct csv),
	.session = csv_session,
	.sample = csv_sample,
	.finish = csv_finish,
};
