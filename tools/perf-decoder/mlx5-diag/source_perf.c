// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data source (file or pipe): the mlx5_diag AUX data of each mmap
 * index fed to the decode loop as one stream, or in snapshot mode as
 * windows each decoded on its own; the other events given to the perf
 * events' consumer when the sink wants them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "perfdata.h"
#include "pipeline.h"
#include "sink.h"
#include "source.h"
#include "timeline.h"

#define PIECE_READ	(1u << 20)	/* AUX bytes of perf.data read at once */

struct aux_piece {
	uint64_t off, len, ev_off;
};

/* The AUX data of one mmap index (idx): one record stream. */
struct aux_stream {
	uint32_t idx, cpu;
	uint32_t pmu_type;		/* the session's on that CPU */
	uint64_t bytes;
	struct aux_piece *pieces;
	size_t nr, cap;
};

/* A session of AUXTRACE_INFO: a device PMU and the CPU of its events. */
struct info_session {
	uint32_t pmu_type, cpu;
};

struct perf_input {
	struct pd_reader r;
	FILE *spool;			/* pipe mode: the AUX bytes, copied */
	uint64_t spool_len;
	struct aux_stream *streams;
	size_t nr_streams;
	int have_info;
	int snapshot;			/* perf record -S: buffers are windows */
	struct info_session sessions[PD_MLX5_INFO_MAX_PMUS];
	unsigned int nr_sessions;
	/* what perf says was lost: PERF_RECORD_AUX flags, PERF_RECORD_LOST */
	uint64_t aux_truncated, aux_collision, lost_records;
	unsigned char *piece;		/* AUX bytes read */
	struct sink_stream si;		/* of the idx being decoded */
	char pmu[64];
	/* the perf events' consumer, or NULL; what it was given so far */
	struct tl *tl;
	size_t tl_attrs_done;
	int tl_tracing_done;
};

static int perf_fail(struct pipeline *pl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perf_fail(struct pipeline *pl, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_print("decode", "%s: %s", pl->path, msg);
	return -1;
}

/* priv[I] of the AUXTRACE_INFO event at P */
static uint64_t info_priv(const unsigned char *p, uint64_t i)
{
	return pd_le64(p + PD_AUXTRACE_INFO_SIZE + 8 * i);
}

/*
 * PERF_RECORD_AUXTRACE_INFO of mlx5_diag (perfdata.h): the record ABI,
 * the flags and the sessions' (PMU type, CPU) pairs, each checked.
 */
static int perf_auxtrace_info(struct pipeline *pl, struct perf_input *in,
			      const struct pd_event *ev)
{
	const unsigned char *p = ev->data;
	uint64_t abi, flags, nr, need;
	uint32_t type;

	if (ev->size < PD_AUXTRACE_INFO_SIZE)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": size %u", ev->offset, ev->size);
	type = pd_le32(p + 8);
	if (type != PD_AUXTRACE_MLX5_DIAG)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": AUX area data of type %" PRIu32 ", not mlx5_diag"
				 " (%d)", ev->offset, type, PD_AUXTRACE_MLX5_DIAG);
	if (ev->size < PD_AUXTRACE_INFO_SIZE + 8 * PD_MLX5_INFO_PMUS)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": %u bytes of private data, mlx5_diag's has at "
				 "least 24 (record ABI, flags, number of sessions)",
				 ev->offset, ev->size - PD_AUXTRACE_INFO_SIZE);
	if (in->have_info)
		return perf_fail(pl, "a second PERF_RECORD_AUXTRACE_INFO at offset %"
				 PRIu64, ev->offset);
	abi = info_priv(p, PD_MLX5_INFO_ABI);
	flags = info_priv(p, PD_MLX5_INFO_FLAGS);
	nr = info_priv(p, PD_MLX5_INFO_NR_PMUS);
	/* 0: the driver did not say (no caps/record_abi) */
	if (abi && abi != MLX5_DIAG_ABI_VERSION)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": record ABI version %" PRIu64 ", this decoder "
				 "knows version %d", ev->offset, abi,
				 MLX5_DIAG_ABI_VERSION);
	if (flags & ~PD_MLX5_INFO_F_SNAPSHOT)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": flags 0x%" PRIx64 " (this decoder knows bit 0, "
				 "snapshot mode, alone)", ev->offset, flags);
	if (!nr || nr > PD_MLX5_INFO_MAX_PMUS)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": %" PRIu64 " mlx5_diag sessions (1 to %d)",
				 ev->offset, nr, PD_MLX5_INFO_MAX_PMUS);
	need = 8 * (PD_MLX5_INFO_PMUS + 2 * nr);
	if (ev->size - PD_AUXTRACE_INFO_SIZE < need)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": %u bytes of private data, %" PRIu64 " sessions "
				 "need %" PRIu64, ev->offset,
				 ev->size - PD_AUXTRACE_INFO_SIZE, nr, need);
	for (unsigned int i = 0; i < nr; i++) {
		uint64_t pmu = info_priv(p, PD_MLX5_INFO_PMUS + 2 * i);
		uint64_t cpu = info_priv(p, PD_MLX5_INFO_PMUS + 2 * i + 1);

		if (pmu > UINT32_MAX)
			return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %"
					 PRIu64 ": session %u: PMU type %" PRIu64,
					 ev->offset, i, pmu);
		if (cpu > INT32_MAX)
			return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at offset %"
					 PRIu64 ": session %u: CPU %" PRIu64,
					 ev->offset, i, cpu);
		for (unsigned int k = 0; k < i; k++)
			if (in->sessions[k].cpu == cpu)
				return perf_fail(pl, "PERF_RECORD_AUXTRACE_INFO at "
						 "offset %" PRIu64 ": sessions %u and "
						 "%u are both on CPU %" PRIu64 ": "
						 "their AUX data cannot be told apart",
						 ev->offset, k, i, cpu);
		in->sessions[i].pmu_type = (uint32_t)pmu;
		in->sessions[i].cpu = (uint32_t)cpu;
	}
	in->nr_sessions = (unsigned int)nr;
	in->snapshot = !!(flags & PD_MLX5_INFO_F_SNAPSHOT);
	in->have_info = 1;
	return 0;
}

/*
 * The stream of IDX, made on its first AUX data: its PMU is the session's
 * on its CPU. NULL after a message.
 */
static struct aux_stream *stream_of(struct pipeline *pl, struct perf_input *in,
				    const struct pd_event *ev, uint32_t idx,
				    uint32_t cpu)
{
	struct aux_stream *grown;
	char cpus[PD_MLX5_INFO_MAX_PMUS * 12] = "";
	size_t i, n = 0;

	for (i = 0; i < in->nr_streams; i++) {
		if (in->streams[i].idx != idx)
			continue;
		if (in->streams[i].cpu == cpu)
			return &in->streams[i];
		perf_fail(pl, "PERF_RECORD_AUXTRACE at offset %" PRIu64 ": AUX "
			  "data of idx %" PRIu32 " on CPU %" PRIu32 ", the idx's "
			  "earlier data was on CPU %" PRIu32, ev->offset, idx, cpu,
			  in->streams[i].cpu);
		return NULL;
	}
	for (i = 0; i < in->nr_sessions && in->sessions[i].cpu != cpu; i++)
		n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, "%s%" PRIu32,
				      i ? ", " : "", in->sessions[i].cpu);
	if (i == in->nr_sessions) {
		perf_fail(pl, "PERF_RECORD_AUXTRACE at offset %" PRIu64 ": AUX data "
			  "of CPU %" PRIu32 ", on which no session of the "
			  "PERF_RECORD_AUXTRACE_INFO is (their CPUs: %s)",
			  ev->offset, cpu, cpus);
		return NULL;
	}
	grown = realloc(in->streams, (in->nr_streams + 1) * sizeof(*grown));
	if (!grown) {
		perf_fail(pl, "out of memory");
		return NULL;
	}
	in->streams = grown;
	grown = &in->streams[in->nr_streams++];
	memset(grown, 0, sizeof(*grown));
	grown->idx = idx;
	grown->cpu = cpu;
	grown->pmu_type = in->sessions[i].pmu_type;
	return grown;
}

/* PERF_RECORD_AUXTRACE: AUX bytes of one mmap index follow the event. */
static int perf_auxtrace(struct pipeline *pl, struct perf_input *in,
			 const struct pd_event *ev)
{
	uint32_t idx = pd_le32(ev->data + 32), cpu = pd_le32(ev->data + 40);
	struct aux_stream *s;
	struct aux_piece *p;

	if (!in->have_info)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE at offset %" PRIu64
				 " before any PERF_RECORD_AUXTRACE_INFO", ev->offset);
	if (ev->payload_size % MLX5_DIAG_REC_ALIGN)
		return perf_fail(pl, "PERF_RECORD_AUXTRACE at offset %" PRIu64
				 ": %" PRIu64 " bytes of AUX data, not a multiple of "
				 "8", ev->offset, ev->payload_size);
	if (!ev->payload_size)
		return 0;
	s = stream_of(pl, in, ev, idx, cpu);
	if (!s)
		return -1;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		p = realloc(s->pieces, cap * sizeof(*p));
		if (!p)
			return perf_fail(pl, "out of memory");
		s->pieces = p;
		s->cap = cap;
	}
	p = &s->pieces[s->nr++];
	p->len = ev->payload_size;
	p->ev_off = ev->offset;
	s->bytes += ev->payload_size;
	if (!in->r.pipe) {
		p->off = ev->payload_offset;
		return 0;
	}
	/* a pipe cannot be read again: keep the bytes for after the scan */
	p->off = in->spool_len;
	if (!in->spool && !(in->spool = tmpfile()))
		return perf_fail(pl, "cannot create a temporary file for the AUX "
				 "data of the pipe: %s", strerror(errno));
	for (uint64_t left = ev->payload_size; left; ) {
		size_t n = left < PIECE_READ ? (size_t)left : PIECE_READ;

		if (pd_read_payload(&in->r, in->piece, n)) {
			err_print("decode", "%s", in->r.err);
			return -1;
		}
		if (fwrite(in->piece, 1, n, in->spool) != n)
			return perf_fail(pl, "writing the AUX data of the pipe to a "
					 "temporary file: %s", strerror(errno));
		left -= n;
	}
	in->spool_len += ev->payload_size;
	return 0;
}

/*
 * --timeline: the attributes and tracing data known so far go to the
 * timeline (in a pipe they come as events, before the samples), then the
 * event.
 */
static int perf_tl_event(struct pipeline *pl, struct perf_input *in,
			 const struct pd_event *ev)
{
	char err[256];

	while (in->tl_attrs_done < in->r.nr_attrs) {
		const struct pd_attr *a = &in->r.attrs[in->tl_attrs_done++];
		int sid_all = !!(a->flags & PD_ATTR_SAMPLE_ID_ALL);

		for (size_t k = 0; k < a->nr_ids || (!k && !a->nr_ids); k++)
			if (tl_event(in->tl, a->nr_ids ? a->ids[k] : 0, a->type,
				     a->config, a->sample_type, a->read_format,
				     sid_all))
				return perf_fail(pl, "out of memory");
	}
	if (!in->tl_tracing_done && in->r.tracing_data) {
		in->tl_tracing_done = 1;
		if (tl_tracing_data(in->tl, in->r.tracing_data,
				    in->r.tracing_data_len, err, sizeof(err)))
			return perf_fail(pl, "HEADER_TRACING_DATA: %s", err);
	}
	switch (ev->type) {
	case PD_RECORD_SAMPLE:
	case PD_RECORD_COMM:
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
	case PD_RECORD_LOST:
	case PD_RECORD_LOST_SAMPLES:
		if (tl_perf_record(in->tl, ev->data, ev->size, err, sizeof(err)))
			return perf_fail(pl, "the event at offset %" PRIu64 ": %s",
					 ev->offset, err);
	}
	return 0;
}

static int stream_cmp(const void *a, const void *b)
{
	const struct aux_stream *x = a, *y = b;

	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * What perf.data says was lost: PERF_RECORD_AUX flagged TRUNCATED (the
 * AUX area filled and the kernel stopped the event) or COLLISION, and
 * PERF_RECORD_LOST of the data ring (the timeline counts those itself).
 */
static void perf_losses(struct perf_input *in, const struct pd_event *ev,
			int count_lost)
{
	if (ev->type == PD_RECORD_AUX && ev->size >= 32) {
		uint64_t flags = pd_le64(ev->data + 24);

		in->aux_truncated += !!(flags & PD_AUX_FLAG_TRUNCATED);
		in->aux_collision += !!(flags & PD_AUX_FLAG_COLLISION);
	} else if (ev->type == PD_RECORD_LOST && ev->size >= 24 && count_lost) {
		in->lost_records += pd_le64(ev->data + 16);
	}
}

/* Read the events of the data section; AUX data is found, not decoded. */
static int perf_scan(struct pipeline *pl, struct perf_input *in)
{
	struct pd_event ev;
	int ret;

	while ((ret = pd_next(&in->r, &ev)) == 1) {
		switch (ev.type) {
		case PD_RECORD_AUXTRACE_INFO:
			ret = perf_auxtrace_info(pl, in, &ev);
			break;
		case PD_RECORD_AUXTRACE:
			ret = perf_auxtrace(pl, in, &ev);
			break;
		default:
			perf_losses(in, &ev, !in->tl);
			ret = in->tl ? perf_tl_event(pl, in, &ev) : 0;
		}
		if (ret)
			return -1;
	}
	if (ret < 0) {
		err_print("decode", "%s", in->r.err);
		return -1;
	}
	/* a timeline of tracepoint events alone is a timeline all the same */
	if (!in->have_info && !in->tl)
		return perf_fail(pl, "no mlx5_diag AUX data: the perf.data has no "
				 "PERF_RECORD_AUXTRACE_INFO");
	if (!in->have_info && !pl->quiet)
		err_print("decode", "%s: no mlx5_diag AUX data, "
			  "tracepoint events only", pl->path);
	if (in->nr_streams > 1)
		qsort(in->streams, in->nr_streams, sizeof(*in->streams),
		      stream_cmp);
	return 0;
}

/* N AUX bytes at OFF of SRC into BUF: 0, or -1 (said). */
static int read_aux(struct pipeline *pl, FILE *src, uint64_t off, void *buf,
		    size_t n)
{
	if (fseeko(src, (off_t)off, SEEK_SET))
		return perf_fail(pl, "seeking to AUX data at %" PRIu64 ": %s", off,
				 strerror(errno));
	if (fread(buf, 1, n, src) != n)
		return perf_fail(pl, "reading AUX data at %" PRIu64 ": %s", off,
				 ferror(src) ? strerror(errno) : "end of file");
	return 0;
}

/* One idx's AUX bytes, in the order of their AUXTRACE events: one stream. */
static int perf_decode_stream(struct pipeline *pl, struct perf_input *in,
			      const struct aux_stream *s)
{
	FILE *src = in->r.pipe ? in->spool : in->r.f;
	char desc[64];
	int ret = 0, status;

	snprintf(desc, sizeof(desc), "idx %" PRIu32 " (cpu %" PRIu32 ") AUX stream",
		 s->idx, s->cpu);
	in->si.desc = desc;
	pipeline_stream_begin(pl, &in->si, 0);
	for (size_t i = 0; i < s->nr && !ret; i++) {
		uint64_t off = s->pieces[i].off, left = s->pieces[i].len;

		while (left && !ret) {
			size_t n = left < PIECE_READ ? (size_t)left : PIECE_READ;

			if (read_aux(pl, src, off, in->piece, n))
				return ERR_EXIT_FILE;
			ret = pipeline_feed(pl, in->piece, n);
			left -= n;
			off += n;
		}
	}
	status = pipeline_stream_end(pl, ret);
	return status < 0 ? ERR_EXIT_FILE : status;
}

/*
 * Snapshot mode: each AUXTRACE buffer of the idx is a window of the
 * overwritten AUX area that starts anywhere, decoded on its own with a
 * reset decoder from its first chunk (mlx5diag_find_sync); a window
 * without one is said and skipped.
 */
static int perf_decode_windows(struct pipeline *pl, struct perf_input *in,
			       const struct aux_stream *s)
{
	FILE *src = in->r.pipe ? in->spool : in->r.f;

	for (size_t i = 0; i < s->nr; i++) {
		const struct aux_piece *w = &s->pieces[i];
		unsigned char *win;
		char desc[96];
		long start;
		int ret = 0, status;

		snprintf(desc, sizeof(desc), "idx %" PRIu32 " (cpu %" PRIu32 ") "
			 "snapshot %zu", s->idx, s->cpu, i + 1);
		win = w->len <= SIZE_MAX ? malloc((size_t)w->len) : NULL;
		if (!win) {
			perf_fail(pl, "%s: out of memory for its %" PRIu64 " bytes",
				  desc, w->len);
			return ERR_EXIT_OUTPUT;
		}
		if (read_aux(pl, src, w->off, win, (size_t)w->len)) {
			free(win);
			return ERR_EXIT_FILE;
		}
		start = mlx5diag_find_sync(win, (size_t)w->len);
		if (start < 0) {
			/* data not decoded: said even with -q */
			err_print("decode", "%s: warning: %s (the "
				  "PERF_RECORD_AUXTRACE at offset %" PRIu64 "): no chunk "
				  "starts in its %" PRIu64 " bytes, none of it is decoded "
				  "(a window smaller than one chunk of the driver)",
				  pl->path, desc, w->ev_off, w->len);
			free(win);
			continue;
		}
		if (!pl->quiet)
			err_print("decode", "%s: %s: %" PRIu64 " bytes, "
				  "decoded from its first chunk at byte %ld", pl->path,
				  desc, w->len, start);
		in->si.desc = desc;
		pipeline_stream_begin(pl, &in->si, (uint64_t)start);
		for (size_t off = (size_t)start; off < w->len && !ret; ) {
			size_t n = w->len - off < PIECE_READ ? (size_t)w->len - off :
							       PIECE_READ;

			ret = pipeline_feed(pl, win + off, n);
			off += n;
		}
		free(win);
		status = pipeline_stream_end(pl, ret);
		if (status)
			return status < 0 ? ERR_EXIT_FILE : status;
	}
	return ERR_EXIT_OK;
}

/* The AUX data of one idx, as a stream or as snapshot windows. */
static int perf_decode_idx(struct pipeline *pl, struct perf_input *in,
			   const struct aux_stream *s)
{
	const char *pmu = pd_pmu_name(&in->r, s->pmu_type);

	snprintf(in->pmu, sizeof(in->pmu), "%s", pmu ? pmu : "mlx5_diag");
	in->si.pmu = in->pmu;
	in->si.cpu = s->cpu;
	if (!pl->quiet)
		fprintf(stderr, "mlx5-diag decode: %s: idx %" PRIu32 " (cpu %"
			PRIu32 "): %" PRIu64 " bytes of AUX data of %s (PMU type %"
			PRIu32 ")", pl->path, s->idx, s->cpu, s->bytes,
			pmu ? pmu : "an unnamed PMU", s->pmu_type);
	if (!pl->quiet && in->snapshot)
		fprintf(stderr, " in %zu snapshot%s", s->nr, s->nr == 1 ? "" : "s");
	if (!pl->quiet)
		fputc('\n', stderr);
	if (in->snapshot)
		return perf_decode_windows(pl, in, s);
	return perf_decode_stream(pl, in, s);
}

int source_perf(struct pipeline *pl, FILE *f)
{
	struct perf_input in;
	int status = ERR_EXIT_OK;
	size_t i;

	memset(&in, 0, sizeof(in));
	in.tl = pipeline_events(pl);
	if (pd_open(&in.r, f, pl->path)) {
		err_print("decode", "%s", in.r.err);
		status = ERR_EXIT_FILE;
		goto out;
	}
	in.piece = malloc(PIECE_READ);
	if (!in.piece) {
		err_print("decode", "out of memory");
		status = ERR_EXIT_OUTPUT;
		goto out;
	}
	pl->file_size = in.r.file_size;
	if (perf_scan(pl, &in)) {
		status = ERR_EXIT_FILE;
		goto out;
	}
	if (in.spool && fflush(in.spool)) {
		perf_fail(pl, "writing a temporary file: %s", strerror(errno));
		status = ERR_EXIT_FILE;
		goto out;
	}
	for (i = 0; i < in.nr_streams && status == ERR_EXIT_OK; i++)
		status = perf_decode_idx(pl, &in, &in.streams[i]);
	if (!pl->quiet && (in.aux_truncated || in.aux_collision))
		err_print("decode", "%s: warning: PERF_RECORD_AUX "
			  "flagged %" PRIu64 " time%s truncated (the AUX area filled "
			  "and the kernel stopped the event: use larger -m ,PAGES) and %"
			  PRIu64 " time%s collision", pl->path, in.aux_truncated,
			  in.aux_truncated == 1 ? "" : "s", in.aux_collision,
			  in.aux_collision == 1 ? "" : "s");
	if (!pl->quiet && in.lost_records)
		err_print("decode", "%s: warning: %" PRIu64 " perf "
			  "records lost (PERF_RECORD_LOST)", pl->path,
			  in.lost_records);
out:
	pd_close(&in.r);
	if (in.spool)
		fclose(in.spool);
	for (i = 0; i < in.nr_streams; i++)
		free(in.streams[i].pieces);
	free(in.streams);
	free(in.piece);
	return status;
}
