// SPDX-License-Identifier: GPL-2.0
/* `mlx5-diag decode --timeline` (timeline.h). */
#define _GNU_SOURCE
#include "timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "perfdata.h"

#define NSEC_PER_SEC	UINT64_C(1000000000)
#define TP_TYPE		2	/* PERF_TYPE_TRACEPOINT */

/* sample_type bits (PERF_SAMPLE_*) */
#define S_IP		(1ull << 0)
#define S_TID		(1ull << 1)
#define S_TIME		(1ull << 2)
#define S_ADDR		(1ull << 3)
#define S_READ		(1ull << 4)
#define S_CALLCHAIN	(1ull << 5)
#define S_ID		(1ull << 6)
#define S_CPU		(1ull << 7)
#define S_PERIOD	(1ull << 8)
#define S_STREAM_ID	(1ull << 9)
#define S_RAW		(1ull << 10)
#define S_IDENTIFIER	(1ull << 16)

/* read_format bits */
#define R_TOTAL_TIME_ENABLED	(1ull << 0)
#define R_TOTAL_TIME_RUNNING	(1ull << 1)
#define R_ID			(1ull << 2)
#define R_GROUP			(1ull << 3)
#define R_LOST			(1ull << 4)

struct tl_tp {
	uint64_t config;
	char name[132];
	struct tep_event *event;
};

struct tl_attr {
	uint64_t id;
	uint32_t type;
	uint64_t config;
	uint64_t sample_type, read_format;
	int sample_id_all;
};

struct tl_entry {
	uint64_t time;
	uint64_t order;
	size_t off, len;
};

/* A tracepoint sample kept until tl_write(): its raw bytes in tl->raw. */
struct tl_sample {
	uint64_t time;
	uint64_t order;
	uint32_t cpu;
	int32_t pid, tid;
	int tp;
	size_t raw_off, raw_len;
};

enum { COMM_SET, COMM_FORK, COMM_EXIT };

struct tl_comm {
	uint64_t time;
	uint64_t seq;
	int kind;
	int32_t tid, ptid;
	char comm[16];
};

struct tl {
	struct tep_handle *tep;
	struct tl_tp *tps;
	size_t nr_tps;
	struct tl_attr *attrs;
	size_t nr_attrs;

	FILE *text;
	char *text_buf;
	size_t text_size;
	struct tl_entry *entries;
	size_t nr_entries, cap_entries;
	uint64_t order;

	struct tl_sample *samples;
	size_t nr_samples, cap_samples;
	unsigned char *raw;
	size_t raw_len, raw_cap;

	struct tl_comm *comms;
	size_t nr_comms, cap_comms;

	uint64_t lost_events;
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Grow *P (elements of SIZE) to hold N + 1. */
static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	void *g;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 256;
	g = realloc(*p, c * size);
	if (!g)
		return -1;
	*p = g;
	*cap = c;
	return 0;
}

struct tl *tl_new(void)
{
	struct tl *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->tep = tep_alloc();
	tl->text = open_memstream(&tl->text_buf, &tl->text_size);
	if (!tl->tep || !tl->text) {
		tl_free(tl);
		return NULL;
	}
	tep_set_long_size(tl->tep, 8);
	tep_set_file_bigendian(tl->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tl->tep, TEP_LITTLE_ENDIAN);
	return tl;
}

void tl_free(struct tl *tl)
{
	if (!tl)
		return;
	if (tl->tep)
		tep_free(tl->tep);
	if (tl->text)
		fclose(tl->text);
	free(tl->text_buf);
	free(tl->tps);
	free(tl->attrs);
	free(tl->entries);
	free(tl->samples);
	free(tl->raw);
	free(tl->comms);
	free(tl);
}

void tl_set_long_size(struct tl *tl, int long_size)
{
	tep_set_long_size(tl->tep, long_size);
}

/* The fatal signals die quietly in a sandbox child (no sanitizer report). */
static void child_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	int fd = open("/dev/null", O_WRONLY);

	if (fd >= 0)
		dup2(fd, 2);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}

/*
 * Parse a format that came from a file. libtraceevent 1.7 dereferences
 * NULL on some malformed print formats (found by fuzz_perfdata.c), and
 * leaks on others: each format is parsed in a child process first, and
 * here only when it parsed there. 0 and *EVENT, or an enum tep_errno
 * (TEP_ERRNO__PARSE_EVENT_FAILED when it failed or died in the child).
 */
static int parse_format(struct tl *tl, struct tep_event **event,
			const char *format, size_t len, const char *sys)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return TEP_ERRNO__MEM_ALLOC_FAILED;
	if (!pid) {
		struct tep_handle *tep = tep_alloc();
		struct tep_event *e = NULL;

		child_signals();
		_exit(tep && !tep_parse_format(tep, &e, format, len, sys) && e ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return TEP_ERRNO__PARSE_EVENT_FAILED;
	*event = NULL;
	return tep_parse_format(tl->tep, event, format, len, sys);
}

int tl_tracepoint(struct tl *tl, uint64_t config, const char *name,
		  const char *format, size_t len, char *err, size_t errlen)
{
	struct tep_event *event = NULL;
	int e;
	char sys[64], buf[128];
	const char *colon = strchr(name, ':');
	struct tl_tp *tp;

	if (!colon || colon - name >= (long)sizeof(sys) || strlen(name) >= sizeof(tp->name))
		return fail(err, errlen, "bad tracepoint name '%.80s'", name);
	memcpy(sys, name, (size_t)(colon - name));
	sys[colon - name] = '\0';
	e = parse_format(tl, &event, format, len, sys);
	if (e || !event) {
		tep_strerror(tl->tep, e, buf, sizeof(buf));
		return fail(err, errlen, "the format of %s does not parse: %s", name,
			    buf);
	}
	if (strcmp(event->name, colon + 1))
		return fail(err, errlen, "the format of %s is of event %s:%s", name,
			    sys, event->name);
	if ((uint64_t)event->id != config)
		return fail(err, errlen, "the format of %s has ID %d, the event "
			    "config %" PRIu64, name, event->id, config);
	tp = realloc(tl->tps, (tl->nr_tps + 1) * sizeof(*tp));
	if (!tp)
		return fail(err, errlen, "out of memory");
	tl->tps = tp;
	tp = &tl->tps[tl->nr_tps++];
	tp->config = config;
	snprintf(tp->name, sizeof(tp->name), "%s", name);
	tp->event = event;
	return 0;
}

int tl_event(struct tl *tl, uint64_t id, uint32_t type, uint64_t config,
	     uint64_t sample_type, uint64_t read_format, int sample_id_all)
{
	struct tl_attr *a = realloc(tl->attrs, (tl->nr_attrs + 1) * sizeof(*a));

	if (!a)
		return -1;
	tl->attrs = a;
	a = &tl->attrs[tl->nr_attrs++];
	a->id = id;
	a->type = type;
	a->config = config;
	a->sample_type = sample_type;
	a->read_format = read_format;
	a->sample_id_all = sample_id_all;
	return 0;
}

static const struct tl_attr *attr_of_id(const struct tl *tl, uint64_t id)
{
	for (size_t i = 0; i < tl->nr_attrs; i++)
		if (tl->attrs[i].id == id)
			return &tl->attrs[i];
	return NULL;
}

/*
 * The attribute of a record: by PERF_SAMPLE_IDENTIFIER (ID_AT: the byte
 * of the id, or -1 for the last u64), else the only one there is.
 */
static const struct tl_attr *record_attr(const struct tl *tl,
					 const unsigned char *rec, size_t size,
					 int sample, char *err, size_t errlen)
{
	const struct tl_attr *a;
	uint64_t id;

	if (!tl->nr_attrs) {
		fail(err, errlen, "a record of type %u, and no event is known",
		     pd_le32(rec));
		return NULL;
	}
	if (!(tl->attrs[0].sample_type & S_IDENTIFIER)) {
		for (size_t i = 1; i < tl->nr_attrs; i++) {
			if (tl->attrs[i].sample_type != tl->attrs[0].sample_type ||
			    tl->attrs[i].type != tl->attrs[0].type ||
			    tl->attrs[i].config != tl->attrs[0].config) {
				fail(err, errlen, "events without "
				     "PERF_SAMPLE_IDENTIFIER cannot be told apart");
				return NULL;
			}
		}
		return &tl->attrs[0];
	}
	if (size < 16) {
		fail(err, errlen, "a record of %zu bytes has no sample id", size);
		return NULL;
	}
	id = pd_le64(sample ? rec + 8 : rec + size - 8);
	/* as perf: records it synthesized (task names) have an id of 0 */
	if (!sample && !id)
		return &tl->attrs[0];
	a = attr_of_id(tl, id);
	if (!a)
		fail(err, errlen, "a record (type %u) of sample id %" PRIu64
		     ", which no event has", pd_le32(rec), id);
	return a;
}

/* The sample_id trailer of a non-sample record: its time, tid and cpu. */
static int trailer(const struct tl *tl, const unsigned char *rec, size_t size,
		   size_t body, uint64_t *time, int32_t *tid, uint32_t *cpu,
		   char *err, size_t errlen)
{
	const struct tl_attr *a;
	uint64_t st;
	size_t n = 0, at;

	*time = 0;
	*tid = -1;
	*cpu = 0;
	a = record_attr(tl, rec, size, 0, err, errlen);
	if (!a)
		return -1;
	if (!a->sample_id_all)
		return 0;
	st = a->sample_type;
	n = 8 * (!!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) +
		 !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_IDENTIFIER));
	if (size < body + n)
		return fail(err, errlen, "a record of type %u and %zu bytes is too "
			    "short for its sample_id (%zu + %zu)", pd_le32(rec),
			    size, body, n);
	at = size - n;
	if (st & S_TID) {
		*tid = (int32_t)pd_le32(rec + at + 4);
		at += 8;
	}
	if (st & S_TIME) {
		*time = pd_le64(rec + at);
		at += 8;
	}
	at += 8 * (!!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU)
		*cpu = pd_le32(rec + at);
	return 0;
}

static int add_comm(struct tl *tl, uint64_t time, int kind, int32_t tid,
		    int32_t ptid, const char *comm, size_t n)
{
	struct tl_comm *c;

	if (grow((void **)&tl->comms, &tl->cap_comms, tl->nr_comms, sizeof(*c)))
		return -1;
	c = &tl->comms[tl->nr_comms];
	memset(c, 0, sizeof(*c));
	c->time = time;
	c->seq = tl->nr_comms++;
	c->kind = kind;
	c->tid = tid;
	c->ptid = ptid;
	if (comm)
		memcpy(c->comm, comm, n < sizeof(c->comm) - 1 ? n : sizeof(c->comm) - 1);
	return 0;
}

static const struct tl_tp *tp_of_config(const struct tl *tl, uint64_t config)
{
	for (size_t i = 0; i < tl->nr_tps; i++)
		if (tl->tps[i].config == config)
			return &tl->tps[i];
	return NULL;
}

/* The byte after the READ value of a sample (read_format RF) at AT. */
static int skip_read(uint64_t rf, const unsigned char *rec, size_t size,
		     size_t *at)
{
	size_t per = 8 * (1 + !!(rf & R_ID) + !!(rf & R_LOST));
	size_t head = 8 * (!!(rf & R_TOTAL_TIME_ENABLED) +
			   !!(rf & R_TOTAL_TIME_RUNNING));
	uint64_t nr = 1;

	if (rf & R_GROUP) {
		if (size - *at < 8)
			return -1;
		nr = pd_le64(rec + *at);
		*at += 8;
		if (nr > size / per)
			return -1;
	}
	if (size - *at < head + nr * per)
		return -1;
	*at += head + nr * per;
	return 0;
}

static int sample(struct tl *tl, const unsigned char *rec, size_t size,
		  char *err, size_t errlen)
{
	const struct tl_attr *a = record_attr(tl, rec, size, 1, err, errlen);
	const struct tl_tp *tp;
	struct tl_sample *s;
	size_t at = 8, fixed;
	uint64_t st, time = 0;
	int32_t pid = -1, tid = -1;
	uint32_t cpu = 0, raw_size;

	if (!a)
		return -1;
	if (a->type != TP_TYPE)
		return 0;
	tp = tp_of_config(tl, a->config);
	if (!tp)
		return fail(err, errlen, "a sample of tracepoint %" PRIu64 ", whose "
			    "format is not in the recording", a->config);
	st = a->sample_type;
	if (!(st & S_RAW))
		return fail(err, errlen, "a sample of %s without its RAW data",
			    tp->name);
	fixed = 8 * (!!(st & S_IDENTIFIER) + !!(st & S_IP) + !!(st & S_TID) +
		     !!(st & S_TIME) + !!(st & S_ADDR) + !!(st & S_ID) +
		     !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_PERIOD));
	if (size < at + fixed)
		return fail(err, errlen, "a sample of %s of %zu bytes, too short for "
			    "its fields", tp->name, size);
	at += 8 * (!!(st & S_IDENTIFIER) + !!(st & S_IP));
	if (st & S_TID) {
		pid = (int32_t)pd_le32(rec + at);
		tid = (int32_t)pd_le32(rec + at + 4);
		at += 8;
	}
	if (st & S_TIME) {
		time = pd_le64(rec + at);
		at += 8;
	}
	at += 8 * (!!(st & S_ADDR) + !!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU) {
		cpu = pd_le32(rec + at);
		at += 8;
	}
	at += 8 * !!(st & S_PERIOD);
	if ((st & S_READ) && skip_read(a->read_format, rec, size, &at))
		return fail(err, errlen, "a sample of %s: its READ value runs past "
			    "its end", tp->name);
	if (st & S_CALLCHAIN) {
		uint64_t nr;

		if (size - at < 8 || (nr = pd_le64(rec + at)) > (size - at - 8) / 8)
			return fail(err, errlen, "a sample of %s: its callchain runs "
				    "past its end", tp->name);
		at += 8 + 8 * nr;
	}
	if (size - at < 4 || (raw_size = pd_le32(rec + at)) > size - at - 4)
		return fail(err, errlen, "a sample of %s: its RAW data runs past "
			    "its end", tp->name);
	at += 4;
	if (grow((void **)&tl->samples, &tl->cap_samples, tl->nr_samples,
		 sizeof(*s)))
		return fail(err, errlen, "out of memory");
	while (!tl->raw || tl->raw_len + raw_size > tl->raw_cap) {
		size_t cap = tl->raw_cap ? 2 * tl->raw_cap : 1 << 16;
		unsigned char *g = realloc(tl->raw, cap);

		if (!g)
			return fail(err, errlen, "out of memory");
		tl->raw = g;
		tl->raw_cap = cap;
	}
	memcpy(tl->raw + tl->raw_len, rec + at, raw_size);
	s = &tl->samples[tl->nr_samples++];
	s->time = time;
	s->order = tl->order++;
	s->cpu = cpu;
	s->pid = pid;
	s->tid = tid;
	s->tp = (int)(tp - tl->tps);
	s->raw_off = tl->raw_len;
	s->raw_len = raw_size;
	tl->raw_len += raw_size;
	return 0;
}

static int lost_line(struct tl *tl, uint64_t time, uint32_t cpu, uint64_t n,
		     const char *what)
{
	long mark = tl_mark(tl);

	tl->lost_events += n;
	fprintf(tl->text, "%16s %7s [%03u] %5" PRIu64 ".%09" PRIu64
		": lost: %" PRIu64 " %s\n", "-", "-", cpu, time / NSEC_PER_SEC,
		time % NSEC_PER_SEC, n, what);
	return tl_line(tl, mark, time) < 0 ? -1 : 0;
}

int tl_perf_record(struct tl *tl, const unsigned char *rec, size_t size,
		   char *err, size_t errlen)
{
	uint32_t type, cpu;
	uint64_t time;
	int32_t tid;
	size_t n;

	if (size < 8 || pd_le16(rec + 6) != size)
		return fail(err, errlen, "a perf record of %zu bytes whose header "
			    "says %u", size, size >= 8 ? pd_le16(rec + 6) : 0);
	type = pd_le32(rec);
	switch (type) {
	case PD_RECORD_SAMPLE:
		return sample(tl, rec, size, err, errlen);
	case PD_RECORD_COMM:
		if (size < 16)
			return fail(err, errlen, "PERF_RECORD_COMM of %zu bytes", size);
		if (trailer(tl, rec, size, 16, &time, &tid, &cpu, err, errlen))
			return -1;
		n = strnlen((const char *)rec + 16, size - 16);
		if (add_comm(tl, time, COMM_SET, (int32_t)pd_le32(rec + 12), 0,
			     (const char *)rec + 16, n))
			return fail(err, errlen, "out of memory");
		return 0;
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		if (size < 32)
			return fail(err, errlen, "PERF_RECORD_%s of %zu bytes",
				    type == PD_RECORD_FORK ? "FORK" : "EXIT", size);
		if (add_comm(tl, pd_le64(rec + 24),
			     type == PD_RECORD_FORK ? COMM_FORK : COMM_EXIT,
			     (int32_t)pd_le32(rec + 16), (int32_t)pd_le32(rec + 20),
			     NULL, 0))
			return fail(err, errlen, "out of memory");
		return 0;
	case PD_RECORD_LOST:
		if (size < 24)
			return fail(err, errlen, "PERF_RECORD_LOST of %zu bytes", size);
		if (trailer(tl, rec, size, 24, &time, &tid, &cpu, err, errlen))
			return -1;
		return lost_line(tl, time, cpu, pd_le64(rec + 16),
				 "events (the ring was full)") ?
		       fail(err, errlen, "out of memory") : 0;
	case PD_RECORD_LOST_SAMPLES:
		if (size < 16)
			return fail(err, errlen, "PERF_RECORD_LOST_SAMPLES of %zu bytes",
				    size);
		if (trailer(tl, rec, size, 16, &time, &tid, &cpu, err, errlen))
			return -1;
		return lost_line(tl, time, cpu, pd_le64(rec + 8), "samples") ?
		       fail(err, errlen, "out of memory") : 0;
	}
	return 0;
}

FILE *tl_text(struct tl *tl)
{
	return tl->text;
}

long tl_mark(struct tl *tl)
{
	return ftell(tl->text);
}

long tl_line(struct tl *tl, long mark, uint64_t time)
{
	struct tl_entry *e;
	long end = ftell(tl->text);

	if (end < mark || grow((void **)&tl->entries, &tl->cap_entries,
			       tl->nr_entries, sizeof(*e)))
		return -1;
	e = &tl->entries[tl->nr_entries];
	e->time = time;
	e->order = tl->order++;
	e->off = (size_t)mark;
	e->len = (size_t)(end - mark);
	return (long)tl->nr_entries++;
}

uint64_t tl_tracepoint_samples(const struct tl *tl)
{
	return tl->nr_samples;
}

uint64_t tl_lost_events(const struct tl *tl)
{
	return tl->lost_events;
}

static int comm_cmp(const void *a, const void *b)
{
	const struct tl_comm *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* History of names: (tid, time) -> comm, sorted by tid then time. */
struct name_at {
	int32_t tid;
	uint64_t time, seq;
	const char *comm;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name_at *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The last name of TID at or before TIME among N (sorted), or NULL (none,
 * or the thread exited).
 */
static const char *name_of(const struct name_at *v, size_t n, int32_t tid,
			   uint64_t time)
{
	size_t lo = 0, hi = n;
	const char *found = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].tid == tid && v[lo].time <= time; lo++)
		found = v[lo].comm;
	return found;
}

/*
 * Names by time, as perf's threads: COMM sets a thread's name, FORK gives
 * the child its parent's name at the fork (none when the parent has none),
 * EXIT forgets it. Returns the history, N entries, or NULL.
 */
static struct name_at *names(struct tl *tl, size_t *n)
{
	struct name_at *v = malloc((tl->nr_comms ? tl->nr_comms : 1) * sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return NULL;
	if (tl->nr_comms > 1)
		qsort(tl->comms, tl->nr_comms, sizeof(*tl->comms), comm_cmp);
	for (i = 0; i < tl->nr_comms; i++) {
		struct tl_comm *c = &tl->comms[i];
		const char *comm = c->comm;

		if (c->kind == COMM_EXIT) {
			/* as perf: the thread is gone, its tid has no name */
			comm = NULL;
		} else if (c->kind == COMM_FORK) {
			/* the parent's name now: a linear look back */
			comm = NULL;
			for (size_t j = k; j-- > 0; )
				if (v[j].tid == c->ptid) {
					comm = v[j].comm;
					break;
				}
		}
		v[k].tid = c->tid;
		v[k].time = c->time;
		v[k].seq = k;
		v[k].comm = comm;
		k++;
	}
	if (k > 1)
		qsort(v, k, sizeof(*v), name_cmp);
	*n = k;
	return v;
}

/*
 * A raw record of EVENT must hold every field it prints: static fields
 * inside RAW_LEN, and the data of dynamic (__data_loc) fields too.
 */
static int raw_ok(struct tep_event *event, const unsigned char *raw, size_t len)
{
	struct tep_format_field **fields = tep_event_fields(event);
	struct tep_format_field **common = tep_event_common_fields(event);
	int ok = 1;

	for (int pass = 0; pass < 2; pass++) {
		struct tep_format_field **f = pass ? fields : common;

		for (; f && *f && ok; f++) {
			unsigned int off = (unsigned int)(*f)->offset;
			unsigned int size = (unsigned int)(*f)->size;

			if (off > len || size > len - off) {
				ok = 0;
			} else if ((*f)->flags & TEP_FIELD_IS_DYNAMIC) {
				uint32_t loc = size == 4 ? pd_le32(raw + off) : 0;
				uint32_t doff = loc & 0xffff, dlen = loc >> 16;

				if ((*f)->flags & TEP_FIELD_IS_RELATIVE)
					doff += off + size;
				if (doff > len || dlen > len - doff)
					ok = 0;
			}
		}
	}
	free(fields);
	free(common);
	return ok;
}

/* Sample S's raw data fits its format: 0, or -1 with ERR. */
static int sample_check(const struct tl *tl, const struct tl_sample *s,
			char *err, size_t errlen)
{
	const struct tl_tp *tp = &tl->tps[s->tp];
	const unsigned char *raw = tl->raw + s->raw_off;

	if (s->raw_len < 2 || !raw_ok(tp->event, raw, s->raw_len) ||
	    pd_le16(raw) != tp->config)
		return fail(err, errlen, "a sample of %s at %" PRIu64 ".%09"
			    PRIu64 " has raw data (%zu bytes, type %u) that "
			    "does not fit its format", tp->name,
			    s->time / NSEC_PER_SEC, s->time % NSEC_PER_SEC,
			    s->raw_len, s->raw_len >= 2 ? pd_le16(raw) : 0);
	return 0;
}

/*
 * In the child: each sample's line, in sample order, to OUT as { u32
 * length, text }. Exits 0, or 1 when it could not write.
 */
static void print_samples(struct tl *tl, FILE *out)
{
	struct trace_seq seq;
	struct name_at *hist;
	size_t nh = 0, i;

	child_signals();
	hist = names(tl, &nh);
	if (!hist)
		_exit(1);
	trace_seq_init(&seq);
	for (i = 0; i < tl->nr_samples; i++) {
		struct tl_sample *s = &tl->samples[i];
		const struct tl_tp *tp = &tl->tps[s->tp];
		const char *comm = name_of(hist, nh, s->tid, s->time);
		struct tep_record rec;
		char pidname[24], *line;
		uint32_t len;
		int n;

		if (!comm && s->tid == 0)
			comm = "swapper";
		if (!comm) {
			snprintf(pidname, sizeof(pidname), ":%d", s->tid);
			comm = pidname;
		}
		memset(&rec, 0, sizeof(rec));
		rec.ts = s->time;
		rec.cpu = (int)s->cpu;
		rec.size = (int)s->raw_len;
		rec.data = tl->raw + s->raw_off;
		trace_seq_reset(&seq);
		tep_print_event(tl->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		n = asprintf(&line, "%16s %7d [%03u] %5" PRIu64 ".%09" PRIu64
			     ": %s: %s\n", comm, s->tid, s->cpu,
			     s->time / NSEC_PER_SEC, s->time % NSEC_PER_SEC,
			     tp->name, seq.buffer);
		if (n < 0)
			_exit(1);
		len = (uint32_t)n;
		if (fwrite(&len, 4, 1, out) != 1 || fwrite(line, 1, len, out) != len)
			_exit(1);
		free(line);
	}
	_exit(fflush(out) ? 1 : 0);
}

/*
 * The tracepoint samples' lines. libtraceevent prints what the formats
 * say, and a malformed one can make it divide by zero or worse (found by
 * fuzz_perfdata.c): the printing runs in a child process, and a child
 * that died is an error of the recording.
 */
static int format_samples(struct tl *tl, char *err, size_t errlen)
{
	FILE *tmp;
	size_t i;
	pid_t pid;
	int status;

	for (i = 0; i < tl->nr_samples; i++)
		if (sample_check(tl, &tl->samples[i], err, errlen))
			return -1;
	if (!tl->nr_samples)
		return 0;
	tmp = tmpfile();
	if (!tmp)
		return fail(err, errlen, "a temporary file: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fclose(tmp);
		return fail(err, errlen, "fork: %s", strerror(errno));
	}
	if (!pid)
		print_samples(tl, tmp);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fclose(tmp);
		if (WIFSIGNALED(status))
			return fail(err, errlen, "libtraceevent died of signal %d (%s) "
				    "formatting the tracepoint events: a format of "
				    "the recording is malformed", WTERMSIG(status),
				    strsignal(WTERMSIG(status)));
		return fail(err, errlen, "formatting the tracepoint events failed "
			    "(out of memory or temporary file space)");
	}
	rewind(tmp);
	for (i = 0; i < tl->nr_samples; i++) {
		uint32_t len;
		long mark = tl_mark(tl);
		char buf[4096];

		if (fread(&len, 4, 1, tmp) != 1)
			break;
		while (len) {
			size_t n = len < sizeof(buf) ? len : sizeof(buf);

			if (fread(buf, 1, n, tmp) != n ||
			    fwrite(buf, 1, n, tl->text) != n)
				break;
			len -= (uint32_t)n;
		}
		if (len || tl_line(tl, mark, tl->samples[i].time) < 0)
			break;
		/* in the order the samples came, not after every other line */
		tl->entries[tl->nr_entries - 1].order = tl->samples[i].order;
	}
	fclose(tmp);
	if (i < tl->nr_samples)
		return fail(err, errlen, "reading back the tracepoint lines failed");
	return 0;
}

/*
 * The number field NAME of sched_switch's EVENT in RAW (checked to fit):
 * *V, sign-extended when the format says signed. 0, or -1 with ERR.
 */
static int switch_number(struct tl *tl, struct tep_event *event,
			 const unsigned char *raw, const char *name, int64_t *v,
			 char *err, size_t errlen)
{
	struct tep_format_field *f = tep_find_field(event, name);
	unsigned int bits;
	uint64_t u;

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return fail(err, errlen, "the format of sched:sched_switch has no "
			    "number field %s of 1, 2, 4 or 8 bytes", name);
	u = tep_read_number(tl->tep, raw + f->offset, f->size);
	bits = 8 * (unsigned int)f->size;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && bits < 64 && (u >> (bits - 1)) & 1)
		u |= ~0ull << bits;
	*v = (int64_t)u;
	return 0;
}

/* The char array NAME of sched_switch's EVENT in RAW, into COMM. */
static int switch_comm(struct tep_event *event, const unsigned char *raw,
		       const char *name, char comm[17], char *err, size_t errlen)
{
	struct tep_format_field *f = tep_find_field(event, name);
	size_t n;

	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) ||
	    (f->flags & TEP_FIELD_IS_DYNAMIC))
		return fail(err, errlen, "the format of sched:sched_switch has no "
			    "char array %s", name);
	n = strnlen((const char *)raw + f->offset,
		    f->size < 16 ? (size_t)f->size : 16);
	memcpy(comm, raw + f->offset, n);
	comm[n] = '\0';
	return 0;
}

static int switch_cmp(const void *a, const void *b)
{
	const struct tl_switch *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

int tl_sched_switches(struct tl *tl, struct tl_switch **out, size_t *n,
		      char *err, size_t errlen)
{
	struct tl_switch *v = NULL;
	size_t i, k = 0, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < tl->nr_samples; i++) {
		const struct tl_sample *s = &tl->samples[i];
		const struct tl_tp *tp = &tl->tps[s->tp];
		const unsigned char *raw = tl->raw + s->raw_off;
		int64_t prev_pid, prev_prio, next_pid, next_prio;
		struct tl_switch *w;

		if (strcmp(tp->name, "sched:sched_switch"))
			continue;
		if (sample_check(tl, s, err, errlen))
			goto fail;
		if (grow((void **)&v, &cap, k, sizeof(*v))) {
			fail(err, errlen, "out of memory");
			goto fail;
		}
		w = &v[k];
		if (switch_comm(tp->event, raw, "prev_comm", w->prev_comm, err,
				errlen) ||
		    switch_comm(tp->event, raw, "next_comm", w->next_comm, err,
				errlen) ||
		    switch_number(tl, tp->event, raw, "prev_pid", &prev_pid, err,
				  errlen) ||
		    switch_number(tl, tp->event, raw, "prev_prio", &prev_prio, err,
				  errlen) ||
		    switch_number(tl, tp->event, raw, "prev_state", &w->prev_state,
				  err, errlen) ||
		    switch_number(tl, tp->event, raw, "next_pid", &next_pid, err,
				  errlen) ||
		    switch_number(tl, tp->event, raw, "next_prio", &next_prio, err,
				  errlen))
			goto fail;
		w->time = s->time;
		w->cpu = s->cpu;
		w->tid = s->tid;
		w->prev_pid = (int32_t)prev_pid;
		w->prev_prio = (int32_t)prev_prio;
		w->next_pid = (int32_t)next_pid;
		w->next_prio = (int32_t)next_prio;
		w->order = s->order;
		k++;
	}
	if (k > 1)
		qsort(v, k, sizeof(*v), switch_cmp);
	*out = v;
	*n = k;
	return 0;
fail:
	free(v);
	return -1;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct tl_entry *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

int tl_write(struct tl *tl, FILE *out, char *err, size_t errlen)
{
	if (format_samples(tl, err, errlen))
		return -1;
	if (fflush(tl->text))
		return fail(err, errlen, "out of memory");
	if (tl->nr_entries > 1)
		qsort(tl->entries, tl->nr_entries, sizeof(*tl->entries), entry_cmp);
	for (size_t i = 0; i < tl->nr_entries; i++) {
		const struct tl_entry *e = &tl->entries[i];

		if (fwrite(tl->text_buf + e->off, 1, e->len, out) != e->len)
			return fail(err, errlen, "writing the output: %s",
				    strerror(errno));
	}
	return 0;
}

/* ---- perf's tracing data (tools/perf/util/trace-event-read.c) ---- */

struct td {
	const unsigned char *p, *end;
};

static int td_take(struct td *t, void *dst, size_t n)
{
	if ((size_t)(t->end - t->p) < n)
		return -1;
	if (dst)
		memcpy(dst, t->p, n);
	t->p += n;
	return 0;
}

static const char *td_string(struct td *t)
{
	const unsigned char *nul = memchr(t->p, '\0', (size_t)(t->end - t->p));
	const char *s = (const char *)t->p;

	if (!nul)
		return NULL;
	t->p = nul + 1;
	return s;
}

static int td_u32(struct td *t, uint32_t *v)
{
	unsigned char b[4];

	if (td_take(t, b, 4))
		return -1;
	*v = pd_le32(b);
	return 0;
}

static int td_u64(struct td *t, uint64_t *v)
{
	unsigned char b[8];

	if (td_take(t, b, 8))
		return -1;
	*v = pd_le64(b);
	return 0;
}

/* A named section: "name\0", u64 size, size bytes (skipped). */
static int td_section(struct td *t, const char *name)
{
	const char *s = td_string(t);
	uint64_t size;

	if (!s || strcmp(s, name) || td_u64(t, &size) ||
	    size > (uint64_t)(t->end - t->p))
		return -1;
	t->p += size;
	return 0;
}

int tl_tracing_data(struct tl *tl, const unsigned char *buf, size_t len,
		    char *err, size_t errlen)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r',
						 'a', 'c', 'i', 'n', 'g' };
	struct td t = { buf, buf + len };
	unsigned char endian, long_size;
	uint32_t page_size, n, nsys, i, k;
	const char *version;

	if (len < sizeof(magic) || memcmp(buf, magic, sizeof(magic)))
		return fail(err, errlen, "tracing data without its magic");
	t.p += sizeof(magic);
	version = td_string(&t);
	if (!version || td_take(&t, &endian, 1) || td_take(&t, &long_size, 1) ||
	    td_u32(&t, &page_size))
		return fail(err, errlen, "tracing data cut short in its header");
	if (endian)
		return fail(err, errlen, "big-endian tracing data is not supported");
	if (long_size != 4 && long_size != 8)
		return fail(err, errlen, "tracing data with a long of %u bytes",
			    long_size);
	tl_set_long_size(tl, long_size);
	if (td_section(&t, "header_page") || td_section(&t, "header_event"))
		return fail(err, errlen, "tracing data: bad header_page or "
			    "header_event");
	/* ftrace's own events: skipped */
	if (td_u32(&t, &n))
		return fail(err, errlen, "tracing data cut short (ftrace formats)");
	for (i = 0; i < n; i++) {
		uint64_t size;

		if (td_u64(&t, &size) || size > (uint64_t)(t.end - t.p))
			return fail(err, errlen, "tracing data: ftrace format %" PRIu32
				    " runs past its end", i);
		t.p += size;
	}
	if (td_u32(&t, &nsys))
		return fail(err, errlen, "tracing data cut short (event systems)");
	for (i = 0; i < nsys; i++) {
		const char *sys = td_string(&t);

		if (!sys || td_u32(&t, &n))
			return fail(err, errlen, "tracing data: event system %" PRIu32
				    " is cut short", i);
		for (k = 0; k < n; k++) {
			struct tep_event *event = NULL;
			char name[132];
			uint64_t size;
			struct tl_tp *tp;

			if (td_u64(&t, &size) || size > (uint64_t)(t.end - t.p))
				return fail(err, errlen, "tracing data: a format of %s "
					    "runs past its end", sys);
			if (parse_format(tl, &event, (const char *)t.p,
					 (size_t)size, sys) || !event)
				return fail(err, errlen, "tracing data: a format of %s "
					    "does not parse", sys);
			t.p += size;
			snprintf(name, sizeof(name), "%.63s:%.63s", sys, event->name);
			tp = realloc(tl->tps, (tl->nr_tps + 1) * sizeof(*tp));
			if (!tp)
				return fail(err, errlen, "out of memory");
			tl->tps = tp;
			tp = &tl->tps[tl->nr_tps++];
			tp->config = (uint64_t)event->id;
			snprintf(tp->name, sizeof(tp->name), "%s", name);
			tp->event = event;
		}
	}
	/* kallsyms, printk formats and saved cmdlines follow: not needed */
	return 0;
}
