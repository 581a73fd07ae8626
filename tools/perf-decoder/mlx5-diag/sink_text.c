// SPDX-License-Identifier: GPL-2.0
/*
 * The text sink (--format text): one line per sample (run, sample number,
 * perf time, device time, NAME=VALUE), and SESSION, LOST, PERIOD and END
 * lines.
 */
#include <inttypes.h>
#include <stdio.h>

#include "pipeline.h"

static void text_session(struct sink *s, const struct run *r)
{
	const struct mlx5diag_session *ss = &r->session;

	sink_printf(s, "SESSION run %u %s %s %s ", ss->run, ss->identifier,
		    mlx5diag_mode_name(ss->mode),
		    mlx5diag_format_name(ss->out_format));
	if (ss->ts_source == MLX5_DIAG_TS_RTC)
		sink_printf(s, "rtc");
	else
		sink_printf(s, "frc %u kHz", ss->freq_khz);
	sink_printf(s, ", period %" PRIu64 " ns (requested %" PRIu64
		    "), %u data IDs\n", ss->period_ns_actual,
		    ss->period_ns_requested, ss->num_ids);
}

static void text_sample(struct sink *s, const struct run *r,
			const struct row *w)
{
	char t0[32], t1[32];
	unsigned int i;

	fmt_perf_time(w->perf_time, t0, sizeof(t0));
	fmt_dev_time(r, w->dev_time, t1, sizeof(t1));
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

static void text_lost(struct sink *s, const struct mlx5diag_item *it)
{
	sink_printf(s, "LOST run %u samples %" PRIu64 "..%" PRIu64 " (%" PRIu64
		    "): %s\n", it->run, it->seq, it->seq + it->lost.count - 1,
		    it->lost.count, mlx5diag_lost_cause_name(it->lost.cause));
}

static void text_period(struct sink *s, const struct mlx5diag_item *it)
{
	char t[32];

	fmt_perf_time(it->perf_time, t, sizeof(t));
	sink_printf(s, "PERIOD run %u from sample %" PRIu64 " at %s: %" PRIu64
		    " ns (requested %" PRIu64 ")\n", it->run, it->seq, t,
		    it->period.ns_actual, it->period.ns_requested);
}

static void text_end(struct sink *s, const struct mlx5diag_item *it)
{
	sink_printf(s, "END run %u after %" PRIu64 " samples: %s\n", it->run,
		    it->seq, mlx5diag_end_reason_name(it->end.reason));
}

const struct sink_ops sink_text = {
	.name = "text",
	.session = text_session,
	.sample = text_sample,
	.lost = text_lost,
	.period = text_period,
	.end = text_end,
};
