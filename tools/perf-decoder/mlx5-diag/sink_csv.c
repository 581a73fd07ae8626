// SPDX-License-Identifier: GPL-2.0
/*
 * The CSV sink (--format csv, and `mlx5-diag doca`): the CSV of DOCA's
 * telemetry_diag sample, a header each time the columns change.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "pipeline.h"

struct csv {
	char layout[64];		/* what the last header was for */
	int header_done;
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

static void csv_sample(struct sink *s, const struct run *r, const struct row *w)
{
	char t0[32], t1[32];
	unsigned int i;

	sink_printf(s, "\n%u", (uint32_t)w->seq);
	if (r->session.out_format == MLX5_DIAG_FORMAT_0) {
		for (i = 0; i < r->nr_cols; i++) {
			fmt_dev_time(r, r->cols[i].dev_time, t0, sizeof(t0));
			sink_printf(s, ", 0x%016" PRIx64 ", %s, %" PRIu64,
				    r->cols[i].data_id, t0, r->cols[i].value);
		}
	} else {
		fmt_dev_time(r, w->dev_time, t0, sizeof(t0));
		fmt_dev_time(r, w->dev_time_end, t1, sizeof(t1));
		sink_printf(s, ", %s, %s", t0, t1);
		for (i = 0; i < r->nr_cols; i++)
			sink_printf(s, ", %" PRIu64, r->cols[i].value);
	}
	for (i = 0; i < r->nr_metrics; i++) {
		if (w->metrics[i].ok)
			sink_printf(s, ", %.6g", w->metrics[i].v);
		else
			sink_printf(s, ", ");
	}
}

static int csv_finish(struct sink *s, int status)
{
	const struct csv *c = s->priv;

	if (!c->header_done && status == MD_EXIT_OK)
		md_err("decode", "%s: no session in the "
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
