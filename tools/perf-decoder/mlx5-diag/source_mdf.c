// SPDX-License-Identifier: GPL-2.0
/*
 * The recording source: a file of `mlx5-diag record`, its AUX chunks fed
 * to the decode loop and, when the sink wants them, its META tracepoints
 * and PERF chunks given to the perf events' consumer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "file.h"
#include "perfdata.h"
#include "pipeline.h"
#include "sink.h"
#include "source.h"
#include "timeline.h"

#define TL_MAX_TPS	64

struct mdf_source {
	struct pipeline *p;
	struct tl *tl;			/* the perf events' consumer, or NULL */
	int input_error;		/* reported: no second message */
};

static int meta_fail(struct mdf_source *m, const char *what, const char *v)
{
	err_print("decode", "%s: malformed META: %s '%.80s'",
		  m->p->path, what, v);
	return -1;
}

/*
 * The tracepoints of META (Documentation/file-format.md): "tracepoint",
 * "tracepoint_format" and "sample_id" lines, and long_size.
 */
static int mdf_timeline_meta(struct mdf_source *m, const struct mdf_reader *r)
{
	struct {
		int set;
		uint64_t config, sample_type;
		char name[132];
		char *text;
		size_t len;
	} tp[TL_MAX_TPS];
	const char *v;
	char err[256];
	int ret = -1, i;
	size_t k;

	memset(tp, 0, sizeof(tp));
	v = mdf_meta_get(r, "long_size");
	if (v && strcmp(v, "4") && strcmp(v, "8"))
		return meta_fail(m, "long_size", v);
	if (v)
		tl_set_long_size(m->tl, atoi(v));
	for (k = 0; k < r->nr_meta; k++) {
		const char *key = r->meta[k].key;
		char *val = r->meta[k].value, *end;
		unsigned long idx;
		int n = 0;

		if (strcmp(key, "tracepoint") && strcmp(key, "tracepoint_format"))
			continue;
		errno = 0;
		idx = strtoul(val, &end, 10);
		if (errno || end == val || idx >= TL_MAX_TPS || *end != ' ') {
			meta_fail(m, key, val);
			goto out;
		}
		if (!strcmp(key, "tracepoint")) {
			unsigned long long config, st;

			if (sscanf(end, " config=%llu sample_type=0x%llx name=%n",
				   &config, &st, &n) != 2 || !n || !end[n] ||
			    strlen(end + n) >= sizeof(tp[0].name) || tp[idx].set) {
				meta_fail(m, key, val);
				goto out;
			}
			tp[idx].set = 1;
			tp[idx].config = config;
			tp[idx].sample_type = st;
			strcpy(tp[idx].name, end + n);
		} else {
			size_t add = strlen(end + 1) + 1;
			char *g = realloc(tp[idx].text, tp[idx].len + add + 1);

			if (!g) {
				err_print("decode", "out of memory");
				goto out;
			}
			tp[idx].text = g;
			memcpy(g + tp[idx].len, end + 1, add - 1);
			g[tp[idx].len + add - 1] = '\n';
			tp[idx].len += add;
			g[tp[idx].len] = '\0';
		}
	}
	for (i = 0; i < TL_MAX_TPS; i++) {
		if (!tp[i].set && tp[i].text) {
			err_print("decode", "%s: malformed META: a "
				  "format of tracepoint %d, which is not described",
				  m->p->path, i);
			goto out;
		}
		if (tp[i].set && tl_tracepoint(m->tl, tp[i].config, tp[i].name,
					       tp[i].text ? tp[i].text : "",
					       tp[i].len, err, sizeof(err))) {
			err_print("decode", "%s: %s", m->p->path,
				  err);
			goto out;
		}
	}
	for (k = 0; k < r->nr_meta; k++) {
		unsigned long long id;
		unsigned int idx;
		int cpu;

		if (strcmp(r->meta[k].key, "sample_id"))
			continue;
		if (sscanf(r->meta[k].value, "%llu tracepoint=%u cpu=%d", &id, &idx,
			   &cpu) != 3 || idx >= TL_MAX_TPS || !tp[idx].set) {
			meta_fail(m, "sample_id", r->meta[k].value);
			goto out;
		}
		if (tl_event(m->tl, id, 2, tp[idx].config, tp[idx].sample_type, 0, 1)) {
			err_print("decode", "out of memory");
			goto out;
		}
	}
	ret = 0;
out:
	for (i = 0; i < TL_MAX_TPS; i++)
		free(tp[i].text);
	return ret;
}

/* A PERF chunk at file offset AT: whole perf records, back to back. */
static int perf_chunk(struct mdf_source *m, const unsigned char *p, size_t len,
		      uint64_t at)
{
	char err[256];
	size_t off = 0;

	while (off < len) {
		size_t size = len - off >= 8 ? pd_le16(p + off + 6) : 0;

		if (size < 8 || size > len - off) {
			err_print("decode", "%s: the PERF chunk at "
				  "offset %" PRIu64 ": a record of %zu bytes at byte %zu "
				  "of %zu", m->p->path, at, size, off, len);
			m->input_error = 1;
			return -1;
		}
		if (tl_perf_record(m->tl, p + off, size, err, sizeof(err))) {
			err_print("decode", "%s: the PERF chunk at "
				  "offset %" PRIu64 ", byte %zu: %s", m->p->path, at,
				  off, err);
			m->input_error = 1;
			return -1;
		}
		off += size;
	}
	return 0;
}

/* Every chunk after META: AUX to the decoder, PERF to the timeline. */
static int mdf_chunks(struct mdf_source *m, struct mdf_reader *r)
{
	const void *data = NULL;
	uint32_t type;
	size_t len;
	uint64_t at = r->offset;
	int ret;

	while ((ret = mdf_next_chunk(r, &type, &data, &len)) == 1) {
		if (type == MDF_CHUNK_AUX)
			ret = pipeline_feed(m->p, data, len);
		else if (type == MDF_CHUNK_PERF && m->tl)
			ret = perf_chunk(m, data, len, at);
		else
			ret = 0;
		if (ret)
			return ret;
		at = r->offset;
	}
	return ret;
}

int source_mdf(struct pipeline *p, FILE *f, const unsigned char *head,
	       size_t head_len)
{
	struct mdf_source m = { p, pipeline_events(p), 0 };
	struct sink_stream si = { "AUX stream", "mlx5_diag", 0 };
	struct mdf_reader r;
	const char *v;
	int ret, status;

	ret = mdf_reader_fopen(&r, f, p->path, head, head_len);
	if (ret == MDF_E_MAGIC) {
		err_print("decode", "%s: neither an mlx5-diag "
			  "recording (MLX5DIAG) nor a perf.data file (PERFILE2)",
			  p->path);
		mdf_reader_close(&r);
		return ERR_EXIT_FILE;
	}
	if (ret) {
		err_print("decode", "%s: %s", p->path,
			  r.err[0] ? r.err : mdf_strerror(ret));
		mdf_reader_close(&r);
		return ERR_EXIT_FILE;
	}
	p->file_size = r.file_size;
	if (m.tl && mdf_timeline_meta(&m, &r)) {
		mdf_reader_close(&r);
		return ERR_EXIT_FILE;
	}
	v = mdf_meta_get(&r, "pmu");
	if (v)
		si.pmu = v;
	v = mdf_meta_get(&r, "cpu");
	si.cpu = v ? (unsigned int)strtoul(v, NULL, 10) : 0;
	pipeline_stream_begin(p, &si, 0);
	status = pipeline_stream_end(p, mdf_chunks(&m, &r));
	if (status < 0 && !m.input_error)
		err_print("decode", "%s: %s", p->path,
			  r.err[0] ? r.err : mdf_strerror(r.error));
	if (status < 0)
		status = ERR_EXIT_FILE;
	mdf_reader_close(&r);
	return status;
}
