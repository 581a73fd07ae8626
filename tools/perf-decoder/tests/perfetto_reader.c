// SPDX-License-Identifier: GPL-2.0
/*
 * A Perfetto trace read by protoc --decode, then taken as Perfetto's
 * importer takes it, into lines of text (perfetto_reader.h).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_reader.h"

#define MAX_DEPTH	8
#define MAX_SIBLINGS	32
#define MAX_SEQS	4096

/* One leaf of a packet: its path ("track_event[0].type") and value. */
struct field {
	char *path, *value;
};

struct packet {
	struct field *f;
	size_t n, cap;
};

struct track {
	uint64_t uuid;
	char *path;			/* parent's path "/" name */
	int counter;
};

struct seq {
	int cleared;
	uint64_t default_track;
	char **names;			/* interned event names, by iid */
	size_t nr_names;
};

struct reader {
	FILE *out;
	char *err;
	size_t errlen;
	int failed;
	size_t packet_no;
	struct track *tracks;
	size_t nr_tracks;
	struct seq seqs[MAX_SEQS];
};

static void fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	r->failed = 1;
	n = snprintf(r->err, r->errlen, "packet %zu: ", r->packet_no);
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* A text-format value: a quoted string unescaped (\n, \", \\, \ooo), or as is. */
static char *unquote(const char *v)
{
	size_t n = strlen(v), i, k = 0;
	char *s = malloc(n + 1);

	if (!s)
		abort();
	if (n < 2 || v[0] != '"' || v[n - 1] != '"') {
		memcpy(s, v, n + 1);
		return s;
	}
	for (i = 1; i < n - 1; i++) {
		if (v[i] != '\\') {
			s[k++] = v[i];
			continue;
		}
		i++;
		if (v[i] >= '0' && v[i] <= '7') {
			int c = 0, d;

			for (d = 0; d < 3 && v[i] >= '0' && v[i] <= '7'; d++, i++)
				c = c * 8 + (v[i] - '0');
			i--;
			s[k++] = (char)c;
		} else {
			s[k++] = v[i] == 'n' ? '\n' : v[i] == 't' ? '\t' :
				 v[i] == 'r' ? '\r' : v[i];
		}
	}
	s[k] = '\0';
	return s;
}

static const char *get(const struct packet *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The value at the path FMT..., NULL if the packet has none. */
static const char *get(const struct packet *p, const char *fmt, ...)
{
	char path[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->f[i].path, path))
			return p->f[i].value;
	return NULL;
}

static uint64_t num(const char *v)
{
	return v ? strtoull(v, NULL, 10) : 0;
}

static const struct track *track_of(const struct reader *r, uint64_t uuid)
{
	for (size_t i = 0; i < r->nr_tracks; i++)
		if (r->tracks[i].uuid == uuid)
			return &r->tracks[i];
	return NULL;
}

static void seq_clear(struct seq *s)
{
	for (size_t i = 0; i < s->nr_names; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

static void take_descriptor(struct reader *r, const struct packet *p)
{
	uint64_t uuid = num(get(p, "track_descriptor[0].uuid"));
	const char *name = get(p, "track_descriptor[0].name");
	const char *parent = get(p, "track_descriptor[0].parent_uuid");
	const char *unit = get(p, "track_descriptor[0].counter[0].unit");
	int counter = get(p, "track_descriptor[0].counter[0].") != NULL;
	const struct track *pt = NULL;
	struct track *t;
	char *path;

	if (!uuid || track_of(r, uuid))
		return fail(r, "track uuid %" PRIu64 ": 0 or described twice", uuid);
	if (parent && !(pt = track_of(r, num(parent))))
		return fail(r, "track %" PRIu64 " has an undescribed parent", uuid);
	if (asprintf(&path, "%s%s%s", pt ? pt->path : "", pt ? "/" : "",
		     name ? name : "") < 0)
		abort();
	r->tracks = realloc(r->tracks, (r->nr_tracks + 1) * sizeof(*r->tracks));
	if (!r->tracks)
		abort();
	t = &r->tracks[r->nr_tracks++];
	t->uuid = uuid;
	t->counter = counter;
	t->path = path;
	fprintf(r->out, "track %s%s%s\n", t->path, unit ? " " : "", unit ? unit : "");
}

static void take_track_event(struct reader *r, const struct packet *p,
			     struct seq *s)
{
	const char *type = get(p, "track_event[0].type");
	const char *uuid = get(p, "track_event[0].track_uuid");
	const char *ts = get(p, "timestamp");
	const struct track *t;
	const char *v, *name;
	uint64_t iid;

	if (!ts)
		return fail(r, "a track event without a timestamp");
	t = track_of(r, uuid ? num(uuid) : s->default_track);
	if (!t)
		return fail(r, "an event on track %" PRIu64 ", not described before",
			    uuid ? num(uuid) : s->default_track);
	if (type && !strcmp(type, "TYPE_COUNTER")) {
		if (!t->counter)
			return fail(r, "a counter value on track %s, not a counter's",
				    t->path);
		if ((v = get(p, "track_event[0].counter_value")))
			fprintf(r->out, "counter %s %s %s\n", ts, t->path, v);
		else if ((v = get(p, "track_event[0].double_counter_value")))
			fprintf(r->out, "counter %s %s %.17g\n", ts, t->path,
				strtod(v, NULL));
		else
			fail(r, "a counter event without a value");
		return;
	}
	if (!type || strcmp(type, "TYPE_INSTANT"))
		return fail(r, "a track event of type %s", type ? type : "(none)");
	name = get(p, "track_event[0].name");
	if (!name) {
		iid = num(get(p, "track_event[0].name_iid"));
		if (!iid || iid >= s->nr_names || !s->names[iid])
			return fail(r, "event name iid %" PRIu64 " is not interned on "
				    "its sequence", iid);
		name = s->names[iid];
	}
	fprintf(r->out, "instant %s %s %s", ts, t->path, name);
	for (unsigned int i = 0; get(p, "track_event[0].debug_annotations[%u].name", i);
	     i++) {
		const char *u = get(p, "track_event[0].debug_annotations[%u].uint_value",
				    i);
		const char *str = get(p, "track_event[0].debug_annotations[%u]."
				      "string_value", i);

		fprintf(r->out, " %s=%s", get(p, "track_event[0].debug_annotations[%u]."
					      "name", i), u ? u : str ? str : "?");
	}
	fputc('\n', r->out);
}

static void take_ftrace(struct reader *r, const struct packet *p)
{
	const char *cpu = get(p, "ftrace_events[0].cpu");

	for (unsigned int i = 0; get(p, "ftrace_events[0].event[%u].timestamp", i);
	     i++) {
		const char *pid = get(p, "ftrace_events[0].event[%u].pid", i);
		static const char *const fields[] = {
			"prev_comm", "prev_pid", "prev_prio", "prev_state",
			"next_comm", "next_pid", "next_prio",
		};

		if (!get(p, "ftrace_events[0].event[%u].sched_switch[0].prev_pid", i))
			return fail(r, "ftrace event %u is not a sched_switch", i);
		fprintf(r->out, "switch %s %s pid=%s", cpu ? cpu : "?",
			get(p, "ftrace_events[0].event[%u].timestamp", i),
			pid ? pid : "-");
		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
			const char *v = get(p, "ftrace_events[0].event[%u]."
					    "sched_switch[0].%s", i, fields[k]);

			fprintf(r->out, " %s=%s", fields[k], v ? v : "?");
		}
		fputc('\n', r->out);
	}
}

/* One packet, in file order, as the importer takes it. */
static void take_packet(struct reader *r, const struct packet *p)
{
	uint64_t seq_id = num(get(p, "trusted_packet_sequence_id"));
	uint64_t flags = num(get(p, "sequence_flags"));
	const char *name;
	struct seq *s;

	if (seq_id >= MAX_SEQS)
		return fail(r, "sequence %" PRIu64 " is past the reader's", seq_id);
	s = &r->seqs[seq_id];
	if (flags & 1) {
		seq_clear(s);
		s->cleared = 1;
	}
	if ((flags & 2) && !s->cleared)
		return fail(r, "it needs the incremental state of sequence %" PRIu64
			    ", never cleared", seq_id);
	for (unsigned int i = 0; get(p, "interned_data[0].event_names[%u].iid", i); i++) {
		uint64_t iid = num(get(p, "interned_data[0].event_names[%u].iid", i));

		if (iid > 1000)
			return fail(r, "interned name iid %" PRIu64 " is large", iid);
		if (iid >= s->nr_names) {
			s->names = realloc(s->names, (iid + 1) * sizeof(*s->names));
			if (!s->names)
				abort();
			memset(s->names + s->nr_names, 0,
			       (iid + 1 - s->nr_names) * sizeof(*s->names));
			s->nr_names = iid + 1;
		}
		name = get(p, "interned_data[0].event_names[%u].name", i);
		if (!name)
			return fail(r, "interned name iid %" PRIu64 " has no name", iid);
		free(s->names[iid]);
		s->names[iid] = strdup(name);
	}
	if (get(p, "trace_packet_defaults[0].track_event_defaults[0].track_uuid"))
		s->default_track = num(get(p, "trace_packet_defaults[0]."
					   "track_event_defaults[0].track_uuid"));
	if (get(p, "track_descriptor[0].uuid"))
		take_descriptor(r, p);
	else if (get(p, "track_event[0].type"))
		take_track_event(r, p, s);
	else if (get(p, "ftrace_events[0].cpu"))
		take_ftrace(r, p);
}

static void add_field(struct packet *p, char *path, char *value)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->f = realloc(p->f, p->cap * sizeof(*p->f));
		if (!p->f)
			abort();
	}
	p->f[p->n].path = path;
	p->f[p->n].value = value;
	p->n++;
}

static void packet_free(struct packet *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->f[i].path);
		free(p->f[i].value);
	}
	p->n = 0;
}

/* The blocks open at a depth: name[index]; indexes count same-name siblings. */
struct level {
	char name[64];
	unsigned int idx;
	char sib[MAX_SIBLINGS][64];
	unsigned int sib_count[MAX_SIBLINGS], nr_sib;
};

static unsigned int sibling_index(struct level *l, const char *name)
{
	for (unsigned int i = 0; i < l->nr_sib; i++)
		if (!strcmp(l->sib[i], name))
			return l->sib_count[i]++;
	if (l->nr_sib == MAX_SIBLINGS)
		abort();
	snprintf(l->sib[l->nr_sib], sizeof(l->sib[0]), "%s", name);
	l->sib_count[l->nr_sib++] = 1;
	return 0;
}

/*
 * The path of NAME inside the open blocks 2..DEPTH (1 is the packet): a
 * leaf's, or "" for the block DEPTH itself (the path ends in ".": an
 * empty message is there too).
 */
static char *path_of(const struct level *lv, int depth, const char *name)
{
	char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (int d = 2; d <= depth; d++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s[%u].",
				      lv[d].name, lv[d].idx);
	snprintf(buf + n, sizeof(buf) - n, "%s", name);
	return strdup(buf);
}

static void read_text(struct reader *r, char *text)
{
	struct level lv[MAX_DEPTH + 1];
	struct packet p = { 0 };
	int depth = 0;
	char *line, *save = NULL;

	memset(lv, 0, sizeof(lv));
	for (line = strtok_r(text, "\n", &save); line && !r->failed;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n;
		char *colon;

		while (*line == ' ')
			line++;
		n = strlen(line);
		if (!strcmp(line, "}")) {
			if (--depth == 0) {
				take_packet(r, &p);
				packet_free(&p);
				r->packet_no++;
			}
		} else if (n > 2 && !strcmp(line + n - 2, " {")) {
			line[n - 2] = '\0';
			if (depth == MAX_DEPTH)
				abort();
			lv[depth + 1].idx = sibling_index(&lv[depth], line);
			snprintf(lv[depth + 1].name, sizeof(lv[0].name), "%s", line);
			lv[depth + 1].nr_sib = 0;
			depth++;
			add_field(&p, path_of(lv, depth, ""), strdup(""));
		} else if ((colon = strstr(line, ": "))) {
			*colon = '\0';
			add_field(&p, path_of(lv, depth, line), unquote(colon + 2));
		}
	}
	packet_free(&p);
	free(p.f);
}

char *pf_read(const char *schema_dir, const char *path, char *err,
	      size_t errlen)
{
	struct reader *r = calloc(1, sizeof(*r));
	char *cmd, *text = NULL, *out = NULL, buf[4096];
	size_t text_len = 0, out_len = 0, got;
	FILE *pipe, *t;
	int status;

	if (!r || asprintf(&cmd, "protoc --decode=perfetto.protos.Trace "
			   "--proto_path='%s' perfetto_trace.proto < '%s' 2>&1",
			   schema_dir, path) < 0)
		abort();
	pipe = popen(cmd, "r");
	t = open_memstream(&text, &text_len);
	if (!pipe || !t)
		abort();
	while ((got = fread(buf, 1, sizeof(buf), pipe)) > 0)
		fwrite(buf, 1, got, t);
	status = pclose(pipe);
	fclose(t);
	free(cmd);
	if (status) {
		snprintf(err, errlen, "protoc exited with %d: %.300s", status, text);
		free(text);
		free(r);
		return NULL;
	}
	r->out = open_memstream(&out, &out_len);
	r->err = err;
	r->errlen = errlen;
	if (!r->out)
		abort();
	read_text(r, text);
	fclose(r->out);
	free(text);
	for (size_t i = 0; i < r->nr_tracks; i++)
		free(r->tracks[i].path);
	free(r->tracks);
	for (size_t i = 0; i < MAX_SEQS; i++)
		seq_clear(&r->seqs[i]);
	if (r->failed) {
		free(out);
		out = NULL;
	}
	free(r);
	return out;
}

char *pf_lines(const char *text, const char *prefix)
{
	char *out = NULL;
	size_t len = 0, n = strlen(prefix);
	FILE *f = open_memstream(&out, &len);
	const char *line, *nl;

	if (!f)
		abort();
	for (line = text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		if (!strncmp(line, prefix, n))
			fwrite(line, 1, (size_t)(nl - line + 1), f);
	}
	fclose(f);
	return out;
}
