// SPDX-License-Identifier: GPL-2.0
/*
 * The library's text: names of the decoder's return codes, of the ABI's
 * enumerations and record types, and one item or session described in
 * words.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include "mlx5diag.h"

#define NAME(table, i) \
	((i) < sizeof(table) / sizeof(table[0]) && table[i] ? table[i] : "unknown")

const char *mlx5diag_strerror(int err)
{
	switch (err) {
	case MLX5DIAG_DONE:
		return "done";
	case MLX5DIAG_NEED_MORE:
		return "the input ends inside a record";
	case MLX5DIAG_MORE_ITEMS:
		return "more items to come";
	case -EBADMSG:
		return "malformed record";
	case -EMSGSIZE:
		return "record larger than the decoder's limit";
	case -ENOMSG:
		return "unknown record type";
	case -EPROTONOSUPPORT:
		return "unknown record ABI version";
	case -EPROTO:
		return "records out of order";
	case -E2BIG:
		return "more data IDs than the decoder's limit";
	case -EINVAL:
		return "invalid argument";
	case -ENOMEM:
		return "out of memory";
	case -ENOENT:
		return "no chunk start (SYNC, SESSION) in the input";
	default:
		return "unknown";
	}
}

static const char *const item_kind_names[] = {
	[MLX5DIAG_ITEM_VALUE] = "value",
	[MLX5DIAG_ITEM_LOST] = "lost",
	[MLX5DIAG_ITEM_SESSION] = "session",
	[MLX5DIAG_ITEM_PERIOD] = "period",
	[MLX5DIAG_ITEM_END] = "end",
	[MLX5DIAG_ITEM_TIME] = "time",
};

const char *mlx5diag_item_kind_name(unsigned int kind)
{
	return NAME(item_kind_names, kind);
}

static const char *const lost_cause_names[] = {
	[MLX5DIAG_LOST_UNACCOUNTED] = "unaccounted",
	[MLX5_DIAG_LOST_FW_OVERWRITE] = "fw_overwrite",
	[MLX5_DIAG_LOST_AUX_FULL] = "aux_full",
	[MLX5_DIAG_LOST_RESET] = "reset",
};

const char *mlx5diag_lost_cause_name(unsigned int cause)
{
	return NAME(lost_cause_names, cause);
}

static const char *const end_reason_names[] = {
	[MLX5_DIAG_END_STOPPED] = "stopped",
	[MLX5_DIAG_END_REMOVED] = "removed",
	[MLX5_DIAG_END_TAKEN] = "taken",
	[MLX5_DIAG_END_FULL] = "full",
	[MLX5_DIAG_END_STALLED] = "stalled",
};

const char *mlx5diag_end_reason_name(unsigned int reason)
{
	return NAME(end_reason_names, reason);
}

static const char *const format_names[] = {
	[MLX5_DIAG_FORMAT_0] = "format0",
	[MLX5_DIAG_FORMAT_1] = "format1",
	[MLX5_DIAG_FORMAT_2] = "format2",
};

const char *mlx5diag_format_name(unsigned int out_format)
{
	return NAME(format_names, out_format);
}

static const char *const ts_source_names[] = {
	[MLX5_DIAG_TS_FRC] = "frc",
	[MLX5_DIAG_TS_RTC] = "rtc",
};

const char *mlx5diag_ts_source_name(unsigned int ts_source)
{
	return NAME(ts_source_names, ts_source);
}

static const char *const vclass_names[] = {
	[MLX5_DIAG_VCLASS_COUNTER] = "counter",
	[MLX5_DIAG_VCLASS_STAT_SUM] = "stat_sum",
	[MLX5_DIAG_VCLASS_STAT_MAX] = "stat_max",
	[MLX5_DIAG_VCLASS_STAT_MIN] = "stat_min",
};

const char *mlx5diag_vclass_name(unsigned int vclass)
{
	return NAME(vclass_names, vclass);
}

static const char *const mode_names[] = {
	[MLX5_DIAG_MODE_DEFAULT] = "default",
	[MLX5_DIAG_MODE_SINGLE] = "single",
	[MLX5_DIAG_MODE_REPETITIVE] = "repetitive",
	[MLX5_DIAG_MODE_ON_DEMAND] = "on_demand",
};

const char *mlx5diag_mode_name(unsigned int mode)
{
	return NAME(mode_names, mode);
}

static const char *const rec_type_names[] = {
	[MLX5_DIAG_REC_SESSION] = "SESSION",
	[MLX5_DIAG_REC_SAMPLES] = "SAMPLES",
	[MLX5_DIAG_REC_TIME] = "TIME",
	[MLX5_DIAG_REC_LOST] = "LOST",
	[MLX5_DIAG_REC_PERIOD] = "PERIOD",
	[MLX5_DIAG_REC_END] = "END",
	[MLX5_DIAG_REC_SYNC] = "SYNC",
};

const char *mlx5diag_rec_type_name(unsigned int type)
{
	return NAME(rec_type_names, type);
}

#define NS_PER_S	UINT64_C(1000000000)

int mlx5diag_item_text(const struct mlx5diag_item *it, char *buf, size_t len)
{
	switch (it->kind) {
	case MLX5DIAG_ITEM_VALUE:
		return snprintf(buf, len, "VALUE run %u seq %" PRIu64 " id 0x%016"
				PRIx64 " value %" PRIu64 " dev %" PRIu64 " perf %"
				PRIu64 ".%09" PRIu64, it->run, it->seq, it->data_id,
				it->value, it->dev_time, it->perf_time / NS_PER_S,
				it->perf_time % NS_PER_S);
	case MLX5DIAG_ITEM_LOST:
		return snprintf(buf, len, "LOST run %u samples %" PRIu64 "..%" PRIu64
				" (%" PRIu64 "): %s", it->run, it->seq,
				it->seq + it->lost.count - 1, it->lost.count,
				mlx5diag_lost_cause_name(it->lost.cause));
	case MLX5DIAG_ITEM_PERIOD:
		return snprintf(buf, len, "PERIOD run %u from sample %" PRIu64
				" at %" PRIu64 ".%09" PRIu64 ": %" PRIu64
				" ns (requested %" PRIu64 ")", it->run, it->seq,
				it->perf_time / NS_PER_S, it->perf_time % NS_PER_S,
				it->period.ns_actual, it->period.ns_requested);
	case MLX5DIAG_ITEM_END:
		return snprintf(buf, len, "END run %u after %" PRIu64 " samples: %s",
				it->run, it->seq,
				mlx5diag_end_reason_name(it->end.reason));
	case MLX5DIAG_ITEM_TIME:
		return snprintf(buf, len, "TIME run %u dev %" PRIu64 " perf %" PRIu64
				".%09" PRIu64 " +-%" PRIu64 " ns", it->run,
				it->dev_time, it->perf_time / NS_PER_S,
				it->perf_time % NS_PER_S, it->time.uncertainty_ns);
	default:	/* SESSION: mlx5diag_session() has the rest */
		return snprintf(buf, len, "%s run %u",
				it->kind == MLX5DIAG_ITEM_SESSION ? "SESSION" :
				"unknown", it->run);
	}
}

int mlx5diag_session_text(const struct mlx5diag_session *s, char *buf,
			  size_t len)
{
	char clock[32];

	if (s->ts_source == MLX5_DIAG_TS_RTC)
		snprintf(clock, sizeof(clock), "rtc");
	else
		snprintf(clock, sizeof(clock), "frc %u kHz", s->freq_khz);
	return snprintf(buf, len, "SESSION run %u %s %s %s %s, period %" PRIu64
			" ns (requested %" PRIu64 "), %u data IDs", s->run,
			s->identifier, mlx5diag_mode_name(s->mode),
			mlx5diag_format_name(s->out_format), clock,
			s->period_ns_actual, s->period_ns_requested, s->num_ids);
}
