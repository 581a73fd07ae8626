// SPDX-License-Identifier: GPL-2.0
/*
 * The text sink (--format text): one line per sample (run, sample number,
 * perf time, device time, NAME=VALUE), and SESSION, LOST, PERIOD and END
 * lines.
 */
#include <inttypes.h>
#include <stdio.h>

#include "run.h"
#include "sink.h"

static void text_session(struct sink *s, const struct run *r)
{
	char line[256];

	mlx5diag_session_text(&r->session, line, sizeof(line));
	sink_printf(s, "%s\n", line);
}

static void text_sample(struct sink *s, const struct run *r,
			const struct row *w)
{
	char t0[32], t1[32];
	unsigned int i;

	sink_fmt_perf_time(w->perf_time, t0, sizeof(t0));
	sink_fmt_dev_time(r, w->dev_time, t1, sizeof(t1));
	sink_printf(s, "%u %" PRIu64 " %s%s %s", r->session.run, w->seq, t0,
		    w->flags & MLX5DIAG_F_TIME_EXTRAPOLATED ? "~" : "", t1);
	for (i = 0; i < r->nr_cols; i++)
		sink_printf(s, " %s=%" PRIu64, r->cols[i].name, r->cols[i].value);
	for (i = 0; i < r->nr_metrics; i++)
		if (w->metrics[i].ok)
			sink_printf(s, " %s=%.6g", r->metrics[i].name,
				    w->metrics[i].v);
	sink_printf(s, "\n");
}

/* LOST, PERIOD and END: the library's words for the item. */
static void text_item(struct sink *s, const struct mlx5diag_item *it)
{
	char line[256];

	mlx5diag_item_text(it, line, sizeof(line));
	sink_printf(s, "%s\n", line);
}

const struct sink_ops sink_text = {
	.name = "text",
	.session = text_session,
	.sample = text_sample,
	.lost = text_item,
	.period = text_item,
	.end = text_item,
};
