// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto sink (--format perfetto): Perfetto's protobuf trace
 * (perfetto_trace.proto, packed by protobuf-c) with a counter track per
 * data ID (and metric) of each device, the runs, period changes, losses
 * and ends as instant events on the device's track, and the recording's
 * sched_switch events as ftrace events of their CPU. Timestamps are the
 * recording's perf times as they are. Written packet by packet, each as
 * the next `packet` field of the file's Trace message.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_ids.h"
#include "errors.h"
#include "perfetto_trace.pb-c.h"
#include "run.h"
#include "sink.h"
#include "timeline.h"

/* The schema's generated names, shorter */
#define PF(name)	PERFETTO__PROTOS__##name
typedef Perfetto__Protos__TracePacket pf_packet;
typedef Perfetto__Protos__TracePacketDefaults pf_packet_defaults;
typedef Perfetto__Protos__InternedData pf_interned_data;
typedef Perfetto__Protos__EventName pf_event_name;
typedef Perfetto__Protos__TrackEvent pf_track_event;
typedef Perfetto__Protos__TrackEventDefaults pf_event_defaults;
typedef Perfetto__Protos__DebugAnnotation pf_debug_annotation;
typedef Perfetto__Protos__TrackDescriptor pf_track_descriptor;
typedef Perfetto__Protos__CounterDescriptor pf_counter_descriptor;
typedef Perfetto__Protos__CounterDescriptor__Unit pf_unit;
typedef Perfetto__Protos__FtraceEventBundle pf_ftrace_bundle;
typedef Perfetto__Protos__FtraceEvent pf_ftrace_event;
typedef Perfetto__Protos__SchedSwitchFtraceEvent pf_sched_switch;

/*
 * The packet sequences (trusted_packet_sequence_id): the device tracks'
 * instant events, whose names are interned on it; the sched_switch events;
 * and one per counter slot of the current run, slot K on SEQ_SLOTS + K
 * (the run's columns, then its metrics), whose TracePacketDefaults name
 * the slot's track, set again at each run.
 */
enum { SEQ_DEVICE = 1, SEQ_SCHED = 2, SEQ_SLOTS = 16 };

/* sequence_flags: this packet clears its sequence's state, or needs it */
#define SEQ_CLEARED	PF(TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED)
#define SEQ_NEEDS	PF(TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE)

/* The interned names (EventName iids) of the device tracks' events. */
enum { NAME_SESSION = 1, NAME_PERIOD, NAME_LOST, NAME_END, NR_NAMES };

static const char *const event_names[NR_NAMES] = {
	[NAME_SESSION] = "session",
	[NAME_PERIOD] = "period",
	[NAME_LOST] = "lost",
	[NAME_END] = "end",
};

/* A Trace's field 1 (packet), length-delimited: the tag before each packet. */
#define TRACE_PACKET_TAG	((1u << 3) | 2u)

/* sched_switch events in one FtraceEventBundle */
#define BUNDLE_EVENTS		512

/* The most annotations of an instant event (a session's). */
#define MAX_ARGS		8

#define MAX_SLOTS		(2 * MLX5DIAG_DEFAULT_MAX_IDS)

/* A track: its uuid, and the key of what it is (NULL: a free slot). */
struct track {
	uint64_t uuid;
	char *key;
};

/* The tracks described so far, by uuid (open addressing, linear probing). */
struct track_set {
	struct track *slots;
	size_t cap, nr;
};

/* A debug annotation of an instant event: a string (STR) or NUM. */
struct arg {
	const char *key;
	const char *str;
	uint64_t num;
};

/* An instant event on a device track. */
struct instant {
	uint64_t track;
	unsigned int name;		/* NAME_* */
	unsigned int nr_args;
	struct arg args[MAX_ARGS];
};

struct perfetto {
	struct tl *tl;			/* the perf events: sched_switch */
	struct track_set tracks;
	uint8_t *buf;			/* a packed packet */
	size_t buf_cap;
	int names_done;			/* the interned names are written */
	char pmu[64];			/* of the current stream */
	uint64_t last;			/* the stream's latest perf time */
	uint64_t device;		/* the current run's device track */
	struct instant *pending;	/* events waiting for a perf time */
	size_t nr_pending, cap_pending;
	uint64_t packets, bytes, switches;
};

/* ---- packets ---- */

/* P as the trace's next packet: tag, length, the bytes protobuf-c packs. */
static void put_packet(struct sink *s, pf_packet *p)
{
	struct perfetto *x = s->priv;
	size_t len = protobuf_c_message_get_packed_size(&p->base), n = 0;
	uint8_t head[1 + 10];
	uint64_t v = len;

	if (s->write_error)
		return;
	if (len > x->buf_cap) {
		uint8_t *g = realloc(x->buf, len);

		if (!g) {
			s->write_error = ENOMEM;
			return;
		}
		x->buf = g;
		x->buf_cap = len;
	}
	protobuf_c_message_pack(&p->base, x->buf);
	head[n++] = TRACE_PACKET_TAG;
	do {
		head[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	if (fwrite(head, 1, n, s->out) != n || fwrite(x->buf, 1, len, s->out) != len) {
		s->write_error = errno ? errno : EIO;
		return;
	}
	x->packets++;
	x->bytes += n + len;
}

/* A packet of sequence SEQ with FLAGS (SEQ_*), nothing else yet. */
static void packet_init(pf_packet *p, uint32_t seq, uint32_t flags)
{
	*p = (pf_packet)PF(TRACE_PACKET__INIT);
	p->has_trusted_packet_sequence_id = 1;
	p->trusted_packet_sequence_id = seq;
	if (flags) {
		p->has_sequence_flags = 1;
		p->sequence_flags = flags;
	}
}

/* ---- tracks ---- */

static uint64_t fnv1a64(const char *str)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *str; str++) {
		h ^= (unsigned char)*str;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int tracks_grow(struct track_set *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64, i, k;
	struct track *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < t->cap; i++) {
		if (!t->slots[i].key)
			continue;
		for (k = t->slots[i].uuid & (cap - 1); slots[k].key; k = (k + 1) & (cap - 1))
			;
		slots[k] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

/*
 * The uuid of KEY's track into *UUID: the FNV-1a hash of KEY, or the next
 * value not taken by another key. Returns 1 for a new track (to be
 * described), 0 for a known one, -1 when out of memory.
 */
static int track_find(struct track_set *t, const char *key, uint64_t *uuid)
{
	uint64_t u = fnv1a64(key);
	size_t i, mask;

	if (2 * (t->nr + 1) > t->cap && tracks_grow(t))
		return -1;
	mask = t->cap - 1;
	if (!u)
		u = 1;			/* 0: Perfetto's implicit global track */
	for (i = u & mask; t->slots[i].key; i = (i + 1) & mask) {
		if (t->slots[i].uuid != u)
			continue;
		if (!strcmp(t->slots[i].key, key)) {
			*uuid = u;
			return 0;
		}
		/* another key's: look for the next uuid from its place */
		u = u + 1 ? u + 1 : 1;
		i = (u - 1) & mask;
	}
	t->slots[i].key = strdup(key);
	if (!t->slots[i].key)
		return -1;
	t->slots[i].uuid = u;
	t->nr++;
	*uuid = u;
	return 1;
}

static void tracks_free(struct track_set *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].key);
	free(t->slots);
}

/*
 * The track of KEY named NAME, under PARENT (0: none), a counter of UNIT
 * when COUNTER: described the first time. Its uuid, 0 on error.
 */
static uint64_t track(struct sink *s, const char *key, const char *name,
		      uint64_t parent, int counter, pf_unit unit)
{
	struct perfetto *x = s->priv;
	pf_counter_descriptor cd = PF(COUNTER_DESCRIPTOR__INIT);
	pf_track_descriptor td = PF(TRACK_DESCRIPTOR__INIT);
	pf_packet p;
	uint64_t uuid;
	int ret = track_find(&x->tracks, key, &uuid);

	if (ret < 0) {
		s->write_error = ENOMEM;
		return 0;
	}
	if (!ret)
		return uuid;
	td.has_uuid = 1;
	td.uuid = uuid;
	td.name = (char *)name;
	if (parent) {
		td.has_parent_uuid = 1;
		td.parent_uuid = parent;
	}
	if (counter) {
		if (unit != PF(COUNTER_DESCRIPTOR__UNIT__UNIT_UNSPECIFIED)) {
			cd.has_unit = 1;
			cd.unit = unit;
		}
		td.counter = &cd;
	}
	packet_init(&p, SEQ_DEVICE, 0);
	p.data_case = PF(TRACE_PACKET__DATA_TRACK_DESCRIPTOR);
	p.track_descriptor = &td;
	put_packet(s, &p);
	return uuid;
}

static pf_unit column_unit(uint64_t data_id)
{
	switch (data_id_unit(data_id)) {
	case DATA_KIND_UNIT_COUNT:
		return PF(COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT);
	case DATA_KIND_UNIT_BYTES:
		return PF(COUNTER_DESCRIPTOR__UNIT__UNIT_SIZE_BYTES);
	case DATA_KIND_UNIT_NS:
		return PF(COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS);
	default:
		return PF(COUNTER_DESCRIPTOR__UNIT__UNIT_UNSPECIFIED);
	}
}

/* Of metrics.def's units only ns is one of Perfetto's (GB/s, ratios are not). */
static pf_unit metric_unit(const char *unit)
{
	return !strcmp(unit, "ns") ? PF(COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS) :
	       PF(COUNTER_DESCRIPTOR__UNIT__UNIT_UNSPECIFIED);
}

/* ---- instant events on the device track ---- */

/* The names the device sequence's events refer to, once, clearing its state. */
static void intern_names(struct sink *s)
{
	struct perfetto *x = s->priv;
	pf_event_name names[NR_NAMES], *ptrs[NR_NAMES];
	pf_interned_data interned = PF(INTERNED_DATA__INIT);
	pf_packet p;
	unsigned int i;

	for (i = 1; i < NR_NAMES; i++) {
		names[i] = (pf_event_name)PF(EVENT_NAME__INIT);
		names[i].has_iid = 1;
		names[i].iid = i;
		names[i].name = (char *)event_names[i];
		ptrs[i - 1] = &names[i];
	}
	interned.n_event_names = NR_NAMES - 1;
	interned.event_names = ptrs;
	packet_init(&p, SEQ_DEVICE, SEQ_CLEARED);
	p.interned_data = &interned;
	put_packet(s, &p);
	x->names_done = 1;
}

static void arg_num(struct instant *e, const char *key, uint64_t num)
{
	e->args[e->nr_args++] = (struct arg){ key, NULL, num };
}

static void arg_str(struct instant *e, const char *key, const char *str)
{
	e->args[e->nr_args++] = (struct arg){ key, str, 0 };
}

/* E at perf time T. */
static void put_instant(struct sink *s, const struct instant *e, uint64_t t)
{
	pf_debug_annotation da[MAX_ARGS], *ptrs[MAX_ARGS];
	pf_track_event ev = PF(TRACK_EVENT__INIT);
	pf_packet p;
	unsigned int i;

	for (i = 0; i < e->nr_args; i++) {
		da[i] = (pf_debug_annotation)PF(DEBUG_ANNOTATION__INIT);
		da[i].name_field_case = PF(DEBUG_ANNOTATION__NAME_FIELD_NAME);
		da[i].name = (char *)e->args[i].key;
		if (e->args[i].str) {
			da[i].value_case = PF(DEBUG_ANNOTATION__VALUE_STRING_VALUE);
			da[i].string_value = (char *)e->args[i].str;
		} else {
			da[i].value_case = PF(DEBUG_ANNOTATION__VALUE_UINT_VALUE);
			da[i].uint_value = e->args[i].num;
		}
		ptrs[i] = &da[i];
	}
	ev.has_type = 1;
	ev.type = PF(TRACK_EVENT__TYPE__TYPE_INSTANT);
	ev.has_track_uuid = 1;
	ev.track_uuid = e->track;
	ev.name_field_case = PF(TRACK_EVENT__NAME_FIELD_NAME_IID);
	ev.name_iid = e->name;
	ev.n_debug_annotations = e->nr_args;
	ev.debug_annotations = ptrs;
	packet_init(&p, SEQ_DEVICE, SEQ_NEEDS);
	p.has_timestamp = 1;
	p.timestamp = t;
	p.data_case = PF(TRACE_PACKET__DATA_TRACK_EVENT);
	p.track_event = &ev;
	put_packet(s, &p);
}

/* An event without a perf time of its own: it takes the next sample's. */
static void pend(struct sink *s, const struct instant *e)
{
	struct perfetto *x = s->priv;

	if (x->nr_pending == x->cap_pending) {
		size_t cap = x->cap_pending ? 2 * x->cap_pending : 16;
		struct instant *g = realloc(x->pending, cap * sizeof(*g));

		if (!g) {
			s->write_error = ENOMEM;
			return;
		}
		x->pending = g;
		x->cap_pending = cap;
	}
	x->pending[x->nr_pending++] = *e;
}

/* The events that wait for a time get T. */
static void flush_pending(struct sink *s, uint64_t t)
{
	struct perfetto *x = s->priv;

	for (size_t i = 0; i < x->nr_pending; i++)
		put_instant(s, &x->pending[i], t);
	x->nr_pending = 0;
	if (t > x->last)
		x->last = t;
}

/* ---- the sink's callbacks ---- */

static int perfetto_open(struct sink *s)
{
	struct perfetto *x = s->priv;

	x->tl = tl_new();
	return x->tl ? 0 : -1;
}

static void perfetto_stream_begin(struct sink *s, const struct sink_stream *si)
{
	struct perfetto *x = s->priv;

	snprintf(x->pmu, sizeof(x->pmu), "%s", si->pmu);
	x->last = 0;
}

/*
 * The counter slots of a run, NR tracks UUIDS: each slot's sequence starts
 * afresh, with the slot's track as its default (its events name none).
 */
static void set_slots(struct sink *s, const uint64_t *uuids, unsigned int nr)
{
	pf_event_defaults ted = PF(TRACK_EVENT_DEFAULTS__INIT);
	pf_packet_defaults tpd = PF(TRACE_PACKET_DEFAULTS__INIT);
	pf_packet p;

	ted.has_track_uuid = 1;
	tpd.track_event_defaults = &ted;
	for (unsigned int k = 0; k < nr; k++) {
		ted.track_uuid = uuids[k];
		packet_init(&p, SEQ_SLOTS + k, SEQ_CLEARED);
		p.trace_packet_defaults = &tpd;
		put_packet(s, &p);
	}
}

/*
 * A track key: the device identifier with its length first (it may hold
 * any byte), then what the track is.
 */
static void track_key(char *buf, size_t len, const char *identifier,
		      const char *what, const char *name, uint64_t data_id)
{
	if (name)
		snprintf(buf, len, "%zu:%s %s %s", strlen(identifier), identifier,
			 what, name);
	else
		snprintf(buf, len, "%zu:%s %s 0x%016" PRIx64, strlen(identifier),
			 identifier, what, data_id);
}

static void perfetto_session(struct sink *s, const struct run *r)
{
	const struct mlx5diag_session *ss = &r->session;
	struct perfetto *x = s->priv;
	uint64_t uuids[MAX_SLOTS];
	char key[256], name[128];
	struct instant e = { 0 };
	unsigned int i;

	if (!x->names_done)
		intern_names(s);
	track_key(key, sizeof(key), ss->identifier, "device", "", 0);
	snprintf(name, sizeof(name), "%s%s%s", x->pmu, ss->identifier[0] ? " " : "",
		 ss->identifier);
	x->device = track(s, key, name, 0, 0, 0);
	for (i = 0; i < r->nr_cols; i++) {
		track_key(key, sizeof(key), ss->identifier, "id", NULL,
			  r->cols[i].data_id);
		uuids[i] = track(s, key, r->cols[i].name, x->device, 1,
				 column_unit(r->cols[i].data_id));
	}
	for (i = 0; i < r->nr_metrics; i++) {
		track_key(key, sizeof(key), ss->identifier, "metric",
			  r->metrics[i].name, 0);
		uuids[r->nr_cols + i] = track(s, key, r->metrics[i].name, x->device,
					      1, metric_unit(r->metrics[i].unit));
	}
	set_slots(s, uuids, r->nr_cols + r->nr_metrics);

	e.track = x->device;
	e.name = NAME_SESSION;
	arg_num(&e, "run", ss->run);
	arg_str(&e, "mode", mlx5diag_mode_name(ss->mode));
	arg_num(&e, "format", ss->out_format);
	arg_str(&e, "ts_source", mlx5diag_ts_source_name(ss->ts_source));
	arg_num(&e, "freq_khz", ss->freq_khz);
	arg_num(&e, "period_ns", ss->period_ns_actual);
	arg_num(&e, "period_ns_requested", ss->period_ns_requested);
	arg_num(&e, "data_ids", ss->num_ids);
	pend(s, &e);
}

/* A counter slot's value at T: integer (exact) or a metric's double. */
static void put_counter(struct sink *s, unsigned int slot, uint64_t t,
			int is_double, uint64_t value, double dvalue)
{
	pf_track_event ev = PF(TRACK_EVENT__INIT);
	pf_packet p;

	ev.has_type = 1;
	ev.type = PF(TRACK_EVENT__TYPE__TYPE_COUNTER);
	if (is_double) {
		ev.counter_value_field_case =
			PF(TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE);
		ev.double_counter_value = dvalue;
	} else {
		ev.counter_value_field_case = PF(TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE);
		ev.counter_value = (int64_t)value;
	}
	packet_init(&p, SEQ_SLOTS + slot, SEQ_NEEDS);
	p.has_timestamp = 1;
	p.timestamp = t;
	p.data_case = PF(TRACE_PACKET__DATA_TRACK_EVENT);
	p.track_event = &ev;
	put_packet(s, &p);
}

static void perfetto_sample(struct sink *s, const struct run *r,
			    const struct row *w)
{
	unsigned int i;

	flush_pending(s, w->perf_time);
	for (i = 0; i < r->nr_cols; i++)
		put_counter(s, i, w->perf_time, 0, r->cols[i].value, 0);
	for (i = 0; i < r->nr_metrics; i++)
		if (w->metrics[i].ok)
			put_counter(s, r->nr_cols + i, w->perf_time, 1, 0,
				    w->metrics[i].v);
}

static void perfetto_lost(struct sink *s, const struct mlx5diag_item *it)
{
	struct perfetto *x = s->priv;
	struct instant e = { .track = x->device, .name = NAME_LOST };

	arg_num(&e, "run", it->run);
	arg_num(&e, "first_seq", it->seq);
	arg_num(&e, "count", it->lost.count);
	arg_str(&e, "cause", mlx5diag_lost_cause_name(it->lost.cause));
	pend(s, &e);
}

static void perfetto_period(struct sink *s, const struct mlx5diag_item *it)
{
	struct perfetto *x = s->priv;
	struct instant e = { .track = x->device, .name = NAME_PERIOD };

	arg_num(&e, "run", it->run);
	arg_num(&e, "first_seq", it->seq);
	arg_num(&e, "period_ns", it->period.ns_actual);
	arg_num(&e, "period_ns_requested", it->period.ns_requested);
	flush_pending(s, it->perf_time);
	put_instant(s, &e, it->perf_time);
}

static void perfetto_end(struct sink *s, const struct mlx5diag_item *it)
{
	struct perfetto *x = s->priv;
	struct instant e = { .track = x->device, .name = NAME_END };

	arg_num(&e, "run", it->run);
	arg_num(&e, "next_seq", it->seq);
	arg_str(&e, "reason", mlx5diag_end_reason_name(it->end.reason));
	flush_pending(s, x->last);
	put_instant(s, &e, x->last);
}

static void perfetto_stream_end(struct sink *s)
{
	struct perfetto *x = s->priv;

	flush_pending(s, x->last);
}

static struct tl *perfetto_events(struct sink *s)
{
	struct perfetto *x = s->priv;

	return x->tl;
}

/* N sched_switch events (sorted by CPU) as bundles of one CPU's events. */
static void put_switches(struct sink *s, struct tl_switch *v, size_t n)
{
	struct perfetto *x = s->priv;
	pf_sched_switch *sw = calloc(BUNDLE_EVENTS, sizeof(*sw));
	pf_ftrace_event *ev = calloc(BUNDLE_EVENTS, sizeof(*ev));
	pf_ftrace_event **ptrs = calloc(BUNDLE_EVENTS, sizeof(*ptrs));
	pf_ftrace_bundle b;
	pf_packet p;
	size_t i = 0, k;

	if (!sw || !ev || !ptrs) {
		s->write_error = ENOMEM;
		goto out;
	}
	while (i < n) {
		b = (pf_ftrace_bundle)PF(FTRACE_EVENT_BUNDLE__INIT);
		b.has_cpu = 1;
		b.cpu = v[i].cpu;
		for (k = 0; k < BUNDLE_EVENTS && i < n && v[i].cpu == b.cpu; k++, i++) {
			struct tl_switch *w = &v[i];

			sw[k] = (pf_sched_switch)PF(SCHED_SWITCH_FTRACE_EVENT__INIT);
			sw[k].prev_comm = w->prev_comm;
			sw[k].has_prev_pid = 1;
			sw[k].prev_pid = w->prev_pid;
			sw[k].has_prev_prio = 1;
			sw[k].prev_prio = w->prev_prio;
			sw[k].has_prev_state = 1;
			sw[k].prev_state = w->prev_state;
			sw[k].next_comm = w->next_comm;
			sw[k].has_next_pid = 1;
			sw[k].next_pid = w->next_pid;
			sw[k].has_next_prio = 1;
			sw[k].next_prio = w->next_prio;
			ev[k] = (pf_ftrace_event)PF(FTRACE_EVENT__INIT);
			ev[k].has_timestamp = 1;
			ev[k].timestamp = w->time;
			if (w->tid >= 0) {
				ev[k].has_pid = 1;
				ev[k].pid = (uint32_t)w->tid;
			}
			ev[k].event_case = PF(FTRACE_EVENT__EVENT_SCHED_SWITCH);
			ev[k].sched_switch = &sw[k];
			ptrs[k] = &ev[k];
		}
		b.n_event = k;
		b.event = ptrs;
		packet_init(&p, SEQ_SCHED, 0);
		p.data_case = PF(TRACE_PACKET__DATA_FTRACE_EVENTS);
		p.ftrace_events = &b;
		put_packet(s, &p);
		x->switches += k;
	}
out:
	free(sw);
	free(ev);
	free(ptrs);
}

/* The sched_switch events, after the streams (Perfetto sorts by time). */
static int perfetto_finish(struct sink *s, int status)
{
	struct perfetto *x = s->priv;
	struct tl_switch *v;
	char err[256];
	size_t n;

	if ((status != ERR_EXIT_OK && status != ERR_EXIT_STREAM) || s->write_error)
		return status;
	if (tl_sched_switches(x->tl, &v, &n, err, sizeof(err))) {
		err_print("decode", "%s: %s", s->path, err);
		return ERR_EXIT_FILE;
	}
	put_switches(s, v, n);
	free(v);
	return status;
}

static void perfetto_summary(struct sink *s)
{
	struct perfetto *x = s->priv;

	err_print("decode", "perfetto: %" PRIu64 " packets, %" PRIu64 " bytes; %"
		  PRIu64 " sched_switch events (of %" PRIu64 " tracepoint events), %"
		  PRIu64 " lost", x->packets, x->bytes, x->switches,
		  tl_tracepoint_samples(x->tl), tl_lost_events(x->tl));
}

static void perfetto_close(struct sink *s)
{
	struct perfetto *x = s->priv;

	tracks_free(&x->tracks);
	tl_free(x->tl);
	free(x->buf);
	free(x->pending);
}

const struct sink_ops sink_perfetto = {
	.name = "perfetto",
	.binary = 1,
	.priv_size = sizeof(struct perfetto),
	.open = perfetto_open,
	.stream_begin = perfetto_stream_begin,
	.session = perfetto_session,
	.sample = perfetto_sample,
	.lost = perfetto_lost,
	.period = perfetto_period,
	.end = perfetto_end,
	.stream_end = perfetto_stream_end,
	.events = perfetto_events,
	.finish = perfetto_finish,
	.summary = perfetto_summary,
	.close = perfetto_close,
};
