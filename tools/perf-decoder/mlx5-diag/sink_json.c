// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON lines sink (--format json): one object per line, of type
 * session, sample, lost, period or end.
 */
#include <inttypes.h>
#include <stdio.h>

#include "run.h"
#include "sink.h"

/* A JSON string of S (names come from files: escape them). */
static void json_string(struct sink *s, const char *str)
{
	sink_printf(s, "\"");
	for (; *str; str++) {
		unsigned char ch = (unsigned char)*str;

		if (ch == '"' || ch == '\\')
			sink_printf(s, "\\%c", ch);
		else if (ch < 0x20)
			sink_printf(s, "\\u%04x", ch);
		else
			sink_printf(s, "%c", ch);
	}
	sink_printf(s, "\"");
}

static void json_session(struct sink *s, const struct run *r)
{
	const struct mlx5diag_session *ss = &r->session;
	unsigned int i;

	sink_printf(s, "{\"type\":\"session\",\"run\":%u,\"identifier\":", ss->run);
	json_string(s, ss->identifier);
	sink_printf(s, ",\"mode\":\"%s\",\"sync\":%u,\"clear\":%u,\"format\":%u,"
		    "\"ts_source\":\"%s\",\"freq_khz\":%u,\"period_ns\":%" PRIu64
		    ",\"period_ns_requested\":%" PRIu64 ",\"data_ids\":[",
		    mlx5diag_mode_name(ss->mode), ss->sync, ss->clear,
		    ss->out_format, mlx5diag_ts_source_name(ss->ts_source),
		    ss->freq_khz, ss->period_ns_actual, ss->period_ns_requested);
	for (i = 0; i < r->nr_cols; i++) {
		sink_printf(s, "%s{\"id\":\"0x%016" PRIx64 "\",\"name\":",
			    i ? "," : "", r->cols[i].data_id);
		json_string(s, r->cols[i].name);
		sink_printf(s, ",\"class\":\"%s\"}",
			    mlx5diag_vclass_name(r->cols[i].vclass));
	}
	sink_printf(s, "]}\n");
}

static void json_sample(struct sink *s, const struct run *r,
			const struct row *w)
{
	unsigned int i;

	sink_printf(s, "{\"type\":\"sample\",\"run\":%u,\"seq\":%" PRIu64
		    ",\"perf_time\":%" PRIu64 ",\"dev_time\":%" PRIu64
		    ",\"dev_time_end\":%" PRIu64 ",\"time_extrapolated\":%s",
		    r->session.run, w->seq, w->perf_time, w->dev_time,
		    w->dev_time_end,
		    w->flags & MLX5DIAG_F_TIME_EXTRAPOLATED ? "true" : "false");
	if (w->perf_time_bound != UINT64_MAX)
		sink_printf(s, ",\"perf_time_bound_ns\":%" PRIu64,
			    w->perf_time_bound);
	sink_printf(s, ",\"values\":{");
	for (i = 0; i < r->nr_cols; i++) {
		sink_printf(s, "%s", i ? "," : "");
		json_string(s, r->cols[i].name);
		sink_printf(s, ":%" PRIu64, r->cols[i].value);
	}
	sink_printf(s, "}");
	if (r->nr_metrics) {
		sink_printf(s, ",\"metrics\":{");
		for (i = 0; i < r->nr_metrics; i++) {
			sink_printf(s, "%s", i ? "," : "");
			json_string(s, r->metrics[i].name);
			sink_printf(s, ":");
			if (w->metrics[i].ok)
				sink_printf(s, "%.6g", w->metrics[i].v);
			else
				sink_printf(s, "null");
		}
		sink_printf(s, "}");
	}
	sink_printf(s, "}\n");
}

static void json_lost(struct sink *s, const struct mlx5diag_item *it)
{
	sink_printf(s, "{\"type\":\"lost\",\"run\":%u,\"first_seq\":%" PRIu64
		    ",\"count\":%" PRIu64 ",\"cause\":\"%s\"}\n", it->run,
		    it->seq, it->lost.count,
		    mlx5diag_lost_cause_name(it->lost.cause));
}

static void json_period(struct sink *s, const struct mlx5diag_item *it)
{
	sink_printf(s, "{\"type\":\"period\",\"run\":%u,\"first_seq\":%" PRIu64
		    ",\"perf_time\":%" PRIu64 ",\"dev_time\":%" PRIu64
		    ",\"period_ns\":%" PRIu64 ",\"period_ns_requested\":%" PRIu64
		    "}\n", it->run, it->seq, it->perf_time, it->dev_time,
		    it->period.ns_actual, it->period.ns_requested);
}

static void json_end(struct sink *s, const struct mlx5diag_item *it)
{
	sink_printf(s, "{\"type\":\"end\",\"run\":%u,\"next_seq\":%" PRIu64
		    ",\"reason\":\"%s\"}\n", it->run, it->seq,
		    mlx5diag_end_reason_name(it->end.reason));
}

const struct sink_ops sink_json = {
	.name = "json",
	.session = json_session,
	.sample = json_sample,
	.lost = json_lost,
	.period = json_period,
	.end = json_end,
};
