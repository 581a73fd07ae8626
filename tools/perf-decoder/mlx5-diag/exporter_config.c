// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's configuration (exporter_config.h): its file and options
 * parsed into settings, each refusal saying where and why, and the data
 * IDs a device exports expanded from them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporter_config.h"
#include "args.h"

static const char *const key_names[] = {
	[XCFG_LISTEN] = "listen", [XCFG_MAX_CONNECTIONS] = "max-connections",
	[XCFG_TIMEOUT] = "timeout", [XCFG_TEXTFILE] = "textfile",
	[XCFG_INTERVAL] = "interval", [XCFG_SAMPLE] = "sample",
	[XCFG_PER_PRIO] = "per-prio", [XCFG_PER_BIN] = "per-bin",
	[XCFG_HISTOGRAM_LE] = "histogram-le", [XCFG_DEVICE] = "device",
	[XCFG_EXPORT] = "export",
};

#define NR_KEYS		(sizeof(key_names) / sizeof(key_names[0]))

/* The default set: every port's traffic, the ICM cache, each link's reads. */
static const char *const default_exports[] = {
	"port_rx_bytes", "port_tx_bytes", "port_rx_packets", "port_tx_packets",
	"icmc_accesses", "icmc_hits", "icmc_misses",
	"pcie_read_latency_total_ns", "pcie_read_latency_packets",
};

/* With per-prio yes, and with per-bin yes. */
static const char *const prio_exports[] = { "port_prio_rx_bytes", "port_prio_tx_bytes" };
static const char *const bin_exports[] = { "pcie_read_latency_hist_packets" };

void xcfg_defaults(struct xcfg *c)
{
	char err[128];

	memset(c, 0, sizeof(*c));
	snprintf(c->listen_text, sizeof(c->listen_text), "%s", HTTP_DEFAULT_LISTEN);
	http_parse_listen(c->listen_text, &c->listen, err, sizeof(err));
	c->max_connections = HTTP_DEFAULT_MAX_CONNECTIONS;
	c->timeout_s = HTTP_DEFAULT_TIMEOUT_S;
	c->interval_ns = XCFG_DEFAULT_INTERVAL_NS;
}

/* ---- words ---- */

/*
 * The next word of *P (white space separated) into WORD, cut to LEN - 1
 * bytes: its whole length, or 0 at the end.
 */
static size_t next_word(const char **p, char *word, size_t len)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	if (len) {
		size_t k = n < len - 1 ? n : len - 1;

		memcpy(word, s, k);
		word[k] = '\0';
	}
	*p = s + n;
	return n;
}

static int count_words(const char *s)
{
	int n = 0;

	while (next_word(&s, NULL, 0))
		n++;
	return n;
}

/* VALUE as one word of less than LEN bytes into OUT; else why in ERR. */
static int one_word(const char *key, const char *value, char *out, size_t len,
		    char *err, size_t errlen)
{
	const char *p = value;

	if (!value || count_words(value) != 1) {
		snprintf(err, errlen, "%s takes one value", key);
		return -1;
	}
	if (next_word(&p, out, len) >= len) {
		snprintf(err, errlen, "%s: the value is longer than %zu bytes", key,
			 len - 1);
		return -1;
	}
	return 0;
}

static int parse_yes_no(const char *key, const char *value, int *v, char *err,
			size_t errlen)
{
	char w[8];

	if (!value) {
		*v = 1;
		return 0;
	}
	if (one_word(key, value, w, sizeof(w), err, errlen))
		return -1;
	if (!strcmp(w, "yes") || !strcmp(w, "no")) {
		*v = !strcmp(w, "yes");
		return 0;
	}
	snprintf(err, errlen, "%s: '%s' is neither yes nor no", key, w);
	return -1;
}

/* A time of one word: UNIT_NS without a unit; at least MIN_NS. */
static int parse_duration(const char *key, const char *value, uint64_t unit_ns,
			  uint64_t min_ns, uint64_t *ns, char *err, size_t errlen)
{
	const char *why;
	char w[64];

	if (one_word(key, value, w, sizeof(w), err, errlen))
		return -1;
	why = args_parse_time(w, unit_ns, 0, ns);
	if (!why && *ns < min_ns)
		why = "too short";
	if (why) {
		snprintf(err, errlen, "%s: bad time '%s': %s", key, w, why);
		return -1;
	}
	return 0;
}

/* ---- export lines ---- */

/* "*" or N[-M][,N[-M]]...: 0, or -1 with why in ERR. */
static int parse_ranges(const char *field, const char *s, uint32_t max,
			struct xcfg_ranges *r, char *err, size_t errlen)
{
	const char *p = s;

	memset(r, 0, sizeof(*r));
	if (!strcmp(s, "*")) {
		r->all = 1;
		return 0;
	}
	for (;;) {
		uint64_t lo, hi;
		char item[32], *dash;
		size_t n = strcspn(p, ",");

		if (!n || n >= sizeof(item))
			goto bad;
		memcpy(item, p, n);
		item[n] = '\0';
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (args_parse_u64(item, max, &lo) ||
		    (dash && args_parse_u64(dash + 1, max, &hi)))
			goto bad;
		if (!dash)
			hi = lo;
		if (hi < lo || r->nr == XCFG_MAX_RANGES)
			goto bad;
		r->r[r->nr].lo = (uint32_t)lo;
		r->r[r->nr].hi = (uint32_t)hi;
		r->nr++;
		p += n;
		if (!*p)
			return 0;
		p++;
	}
bad:
	snprintf(err, errlen, "%s=%s: not *, or up to %d numbers 0-%u and "
		 "ranges N-M, comma-separated", field, s, XCFG_MAX_RANGES, max);
	return -1;
}

static int parse_export(struct xcfg *c, const char *value, char *err, size_t errlen)
{
	struct xcfg_export e = { 0 };
	const enum data_kind_field *fields;
	const char *p = value;
	char word[256], *eq;
	unsigned int nr, i, given = 0;

	if (!value || !next_word(&p, word, sizeof(word))) {
		snprintf(err, errlen, "export needs an event (port_rx_bytes ...)");
		return -1;
	}
	if (strlen(word) + 1 == sizeof(word)) {
		snprintf(err, errlen, "export: a word longer than %zu bytes",
			 sizeof(word) - 2);
		return -1;
	}
	e.kind = data_kind_by_event(word);
	if (!e.kind) {
		snprintf(err, errlen, "export: unknown event '%s'", word);
		return -1;
	}
	nr = data_kind_fields(e.kind->group, &fields);
	for (i = 0; i < nr; i++)
		e.fields[i].all = 1;
	while (next_word(&p, word, sizeof(word))) {
		int f;

		if (strlen(word) + 1 == sizeof(word)) {
			snprintf(err, errlen, "export %s: a word longer than %zu bytes",
				 e.kind->event, sizeof(word) - 2);
			return -1;
		}
		eq = strchr(word, '=');
		if (eq)
			*eq = '\0';
		f = data_kind_field_by_name(word);
		for (i = 0; i < nr && (int)fields[i] != f; i++)
			;
		if (!eq || i == nr) {
			snprintf(err, errlen, "export %s: '%s%s' is not one of its "
				 "fields (FIELD=VALUES)", e.kind->event, word,
				 eq ? "=" : "");
			return -1;
		}
		if (given & (1u << i)) {
			snprintf(err, errlen, "export %s: %s given twice",
				 e.kind->event, word);
			return -1;
		}
		given |= 1u << i;
		if (parse_ranges(word, eq + 1, data_kind_field_max(fields[i]),
				 &e.fields[i], err, errlen))
			return -1;
	}
	if (c->nr_exports == XCFG_MAX_EXPORTS) {
		snprintf(err, errlen, "more than %d export lines", XCFG_MAX_EXPORTS);
		return -1;
	}
	c->exports[c->nr_exports++] = e;
	return 0;
}

/*
 * Bounds of the latency histogram: times (seconds without a unit, as
 * Prometheus writes them), increasing, one per bin at most.
 */
static int parse_le(struct xcfg *c, const char *value, char *err, size_t errlen)
{
	const char *p = value, *why;
	unsigned int n = 0;
	char w[64];
	uint64_t ns, prev = 0;

	while (value && next_word(&p, w, sizeof(w))) {
		if (strlen(w) + 1 == sizeof(w)) {
			snprintf(err, errlen, "histogram-le: a bound longer than %zu "
				 "bytes", sizeof(w) - 2);
			return -1;
		}
		if (n == XCFG_MAX_LE) {
			snprintf(err, errlen, "histogram-le: more than %d bounds (the "
				 "bins)", XCFG_MAX_LE);
			return -1;
		}
		why = args_parse_time(w, UINT64_C(1000000000), 0, &ns);
		if (!why && n && ns <= prev)
			why = "not above the bound before it";
		if (why) {
			snprintf(err, errlen, "histogram-le: bad bound '%s': %s", w, why);
			return -1;
		}
		c->le[n++] = (double)ns / 1e9;
		prev = ns;
	}
	if (!n) {
		snprintf(err, errlen, "histogram-le needs bounds (times: 500ns 1us ...)");
		return -1;
	}
	c->nr_le = n;
	return 0;
}

int xcfg_apply(struct xcfg *c, const char *key, const char *value,
	       unsigned int line, char *err, size_t errlen)
{
	unsigned int k;
	uint64_t v;
	char w[1024];

	for (k = 0; k < NR_KEYS; k++)
		if (!strcmp(key, key_names[k]))
			break;
	if (k == NR_KEYS) {
		snprintf(err, errlen, "unknown setting '%s'", key);
		return -1;
	}
	if (k < XCFG_NR_SCALARS) {
		if (line && c->set_at[k]) {
			snprintf(err, errlen, "%s given twice (line %u before)", key,
				 c->set_at[k]);
			return -1;
		}
		if (line)
			c->set_at[k] = line;
		c->given |= 1u << k;
	}
	switch (k) {
	case XCFG_LISTEN:
		if (one_word(key, value, w, sizeof(c->listen_text), err, errlen) ||
		    http_parse_listen(w, &c->listen, err, errlen))
			return -1;
		memcpy(c->listen_text, w, sizeof(c->listen_text));
		return 0;
	case XCFG_MAX_CONNECTIONS:
		if (one_word(key, value, w, 32, err, errlen))
			return -1;
		if (args_parse_u64(w, 1024, &v) || !v) {
			snprintf(err, errlen, "max-connections: '%s' is not 1-1024", w);
			return -1;
		}
		c->max_connections = (unsigned int)v;
		return 0;
	case XCFG_TIMEOUT:
		if (parse_duration(key, value, UINT64_C(1000000000),
				   UINT64_C(1000000000), &v, err, errlen))
			return -1;
		if (v % UINT64_C(1000000000) || v > UINT64_C(3600000000000)) {
			snprintf(err, errlen, "timeout: whole seconds, 1-3600");
			return -1;
		}
		c->timeout_s = (unsigned int)(v / UINT64_C(1000000000));
		return 0;
	case XCFG_TEXTFILE:
		return one_word(key, value, c->textfile, sizeof(c->textfile), err,
				errlen);
	case XCFG_INTERVAL:
		return parse_duration(key, value, UINT64_C(1000000000),
				      UINT64_C(100000000), &c->interval_ns, err, errlen);
	case XCFG_SAMPLE:
		return parse_duration(key, value, 1, 1, &c->sample_ns, err, errlen);
	case XCFG_PER_PRIO:
		return parse_yes_no(key, value, &c->per_prio, err, errlen);
	case XCFG_PER_BIN:
		return parse_yes_no(key, value, &c->per_bin, err, errlen);
	case XCFG_HISTOGRAM_LE:
		return parse_le(c, value, err, errlen);
	case XCFG_DEVICE:
		if (c->nr_devices == XCFG_MAX_DEVICES) {
			snprintf(err, errlen, "more than %d devices", XCFG_MAX_DEVICES);
			return -1;
		}
		if (one_word(key, value, w, sizeof(c->devices[0]), err, errlen))
			return -1;
		memcpy(c->devices[c->nr_devices++], w, sizeof(c->devices[0]));
		return 0;
	default:
		return parse_export(c, value, err, errlen);
	}
}

int xcfg_parse(struct xcfg *c, const char *text, size_t len,
	       const char *origin, char *err, size_t errlen)
{
	char line[XCFG_MAX_LINE + 1], key[64], why[512];
	unsigned int nr = 0;
	size_t at = 0;

	if (len > XCFG_MAX_FILE) {
		snprintf(err, errlen, "%s: larger than %d bytes", origin, XCFG_MAX_FILE);
		return -1;
	}
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at), *p = line;
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		char *hash;

		nr++;
		if (n > XCFG_MAX_LINE) {
			snprintf(err, errlen, "%s:%u: longer than %d bytes", origin, nr,
				 XCFG_MAX_LINE);
			return -1;
		}
		memcpy(line, text + at, n);
		line[n] = '\0';
		at += n + 1;
		if (strlen(line) != n) {
			snprintf(err, errlen, "%s:%u: a NUL byte", origin, nr);
			return -1;
		}
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (!next_word(&p, key, sizeof(key)))
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (xcfg_apply(c, key, *p ? p : NULL, nr, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%u: %s", origin, nr, why);
			return -1;
		}
	}
	return 0;
}

int xcfg_load(struct xcfg *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *text;
	size_t len;
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	text = malloc(XCFG_MAX_FILE + 1);
	if (!text) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	len = fread(text, 1, XCFG_MAX_FILE + 1, f);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
	} else {
		ret = xcfg_parse(c, text, len, path, err, errlen);
	}
	fclose(f);
	free(text);
	return ret;
}

int xcfg_check(const struct xcfg *c, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < c->nr_exports; i++) {
		const struct data_kind *k = c->exports[i].kind;

		if (k->group == DATA_KIND_GROUP_PORT_PRIO && !c->per_prio) {
			snprintf(err, errlen, "export %s: per-priority series are "
				 "off (per-prio yes turns them on)", k->event);
			return -1;
		}
		if (k->group == DATA_KIND_GROUP_PCIE_LINK_BIN && !c->per_bin) {
			snprintf(err, errlen, "export %s: per-bin series are off "
				 "(per-bin yes turns them on)", k->event);
			return -1;
		}
		if ((k->class == DATA_KIND_CLASS_STAT_MAX ||
		     k->class == DATA_KIND_CLASS_STAT_MIN) && !c->sample_ns) {
			snprintf(err, errlen, "export %s: a maximum or minimum is "
				 "only sampled (sample PERIOD), never counted",
				 k->event);
			return -1;
		}
	}
	if (c->nr_le && !c->per_bin) {
		snprintf(err, errlen, "histogram-le: the histogram is of the "
			 "latency bins, per-bin yes turns them on");
		return -1;
	}
	if ((c->given & (1u << XCFG_INTERVAL)) && !c->textfile[0] && !c->once) {
		snprintf(err, errlen, "interval: only the textfile mode writes at "
			 "intervals (a scrape reads when it comes)");
		return -1;
	}
	if (c->once && c->textfile[0]) {
		snprintf(err, errlen, "textfile: once prints the scrape, the "
			 "textfile mode writes it: not both");
		return -1;
	}
	return 0;
}

const char *xcfg_restart_needed(const struct xcfg *old, const struct xcfg *new)
{
	if (strcmp(old->listen_text, new->listen_text))
		return "listen";
	if (old->max_connections != new->max_connections)
		return "max-connections";
	if (old->timeout_s != new->timeout_s)
		return "timeout";
	if (strcmp(old->textfile, new->textfile))
		return "textfile";
	if (old->interval_ns != new->interval_ns)
		return "interval";
	if (old->sample_ns != new->sample_ns)
		return "sample";
	return NULL;
}

/* ---- a device's selection ---- */

/* How many values field F has on a device of CAPS. */
static uint32_t field_count(enum data_kind_field f, const struct xcfg_device_caps *caps)
{
	switch (f) {
	case DATA_KIND_F_PORT:
		return caps->num_ports;
	case DATA_KIND_F_HOST:
		return caps->num_hosts;
	case DATA_KIND_F_FUNCTION:
		return caps->num_functions;
	case DATA_KIND_F_LINK:
		return caps->num_pcie_links;
	case DATA_KIND_F_PRIO:
	case DATA_KIND_F_TCLASS:
		return 8;
	case DATA_KIND_F_LINK_YY:
	case DATA_KIND_F_LINK_ZZ:
		return 1;		/* not labelled: 0 */
	case DATA_KIND_F_BIN:
	case DATA_KIND_NR_FIELDS:
		break;
	}
	return XCFG_MAX_LE;
}

static int select_id(struct xcfg_selection *sel, const struct data_kind *k,
		     uint64_t id, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < sel->nr; i++)
		if (sel->ids[i] == id)
			return 0;
	if (sel->nr == sizeof(sel->ids) / sizeof(sel->ids[0])) {
		snprintf(err, errlen, "more than %zu data IDs",
			 sizeof(sel->ids) / sizeof(sel->ids[0]));
		return -1;
	}
	sel->kinds[sel->nr] = k;
	sel->ids[sel->nr++] = id;
	return 0;
}

static int has_kind(const struct xcfg_device_caps *caps, const struct data_kind *k)
{
	unsigned int i;

	if (!caps->nr_kinds)
		return 1;
	for (i = 0; i < caps->nr_kinds; i++)
		if (caps->kinds[i] == k->kind)
			return 1;
	return 0;
}

/* Every instance of E on the device, field by field (odometer order). */
static int select_export(struct xcfg_selection *sel, const struct xcfg_export *e,
			 const struct xcfg_device_caps *caps, char *err,
			 size_t errlen)
{
	const enum data_kind_field *fields;
	unsigned int nr = data_kind_fields(e->kind->group, &fields), i, j;
	uint32_t lo[DATA_KIND_MAX_FIELDS], hi[DATA_KIND_MAX_FIELDS], v[DATA_KIND_MAX_FIELDS];
	unsigned int range[DATA_KIND_MAX_FIELDS] = { 0 };

	if (!has_kind(caps, e->kind)) {
		snprintf(err, errlen, "export %s: the device has no such event "
			 "(events/)", e->kind->event);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		uint32_t count = field_count(fields[i], caps);
		const struct xcfg_ranges *r = &e->fields[i];

		if (!count) {
			snprintf(err, errlen, "export %s: the device has no %s",
				 e->kind->event, data_kind_field_name(fields[i]));
			return -1;
		}
		for (j = 0; j < r->nr; j++) {
			if (r->r[j].hi >= count) {
				snprintf(err, errlen, "export %s: %s %u: the device "
					 "has %s 0-%u", e->kind->event,
					 data_kind_field_name(fields[i]), r->r[j].hi,
					 data_kind_field_name(fields[i]), count - 1);
				return -1;
			}
		}
	}
	/* the first value of each field */
	for (i = 0; i < nr; i++) {
		lo[i] = e->fields[i].all ? 0 : e->fields[i].r[0].lo;
		hi[i] = e->fields[i].all ? field_count(fields[i], caps) - 1 :
					   e->fields[i].r[0].hi;
		v[i] = lo[i];
	}
	for (;;) {
		if (select_id(sel, e->kind, data_kind_id(e->kind, v), err, errlen))
			return -1;
		/* the next instance: the last field turns fastest */
		for (i = nr; i-- > 0;) {
			const struct xcfg_ranges *r = &e->fields[i];

			if (v[i] < hi[i]) {
				v[i]++;
				break;
			}
			if (!r->all && range[i] + 1 < r->nr) {
				range[i]++;
				lo[i] = r->r[range[i]].lo;
				hi[i] = r->r[range[i]].hi;
				v[i] = lo[i];
				break;
			}
			/* this field starts over; carry to the one before */
			range[i] = 0;
			lo[i] = r->all ? 0 : r->r[0].lo;
			hi[i] = r->all ? field_count(fields[i], caps) - 1 : r->r[0].hi;
			v[i] = lo[i];
		}
		if (i == (unsigned int)-1)
			return 0;
	}
}

/*
 * Every instance of each of EVENTS (N of them), of those the device has:
 * a kind it lacks, or whose field it has none of, is left out.
 */
static int select_events(struct xcfg_selection *sel, const char *const *events,
			 size_t n, const struct xcfg_device_caps *caps, char *err,
			 size_t errlen)
{
	struct xcfg_export e = { 0 };
	const enum data_kind_field *fields;
	unsigned int nr, f;
	size_t i;

	for (i = 0; i < n; i++) {
		e.kind = data_kind_by_event(events[i]);
		e.fields[0].all = 1;
		e.fields[1].all = 1;
		nr = data_kind_fields(e.kind->group, &fields);
		for (f = 0; f < nr && field_count(fields[f], caps); f++)
			;
		if (f < nr || !has_kind(caps, e.kind))
			continue;
		if (select_export(sel, &e, caps, err, errlen))
			return -1;
	}
	return 0;
}

/*
 * The links whose bins are selected make histograms: each needs all its
 * bins, and its read latency total for the sum (added).
 */
static int select_histograms(struct xcfg_selection *sel, char *err, size_t errlen)
{
	const struct data_kind *total = data_kind_by_event("pcie_read_latency_total_ns");
	uint32_t v[DATA_KIND_MAX_FIELDS];
	unsigned int n = sel->nr, i, j;

	for (i = 0; i < n; i++) {
		const struct data_kind *bins = sel->kinds[i];

		if (bins->group != DATA_KIND_GROUP_PCIE_LINK_BIN)
			continue;
		data_kind_instance(bins, sel->ids[i], v);
		for (v[1] = 0; v[1] < XCFG_MAX_LE; v[1]++) {
			for (j = 0; j < n && sel->ids[j] != data_kind_id(bins, v); j++)
				;
			if (j == n) {
				snprintf(err, errlen, "histogram-le: link %u lacks bin %u "
					 "(the histogram takes bins 0-%d)", v[0], v[1],
					 XCFG_MAX_LE - 1);
				return -1;
			}
		}
		if (select_id(sel, total, data_kind_id(total, v), err, errlen))
			return -1;
	}
	return 0;
}

/* EVENT is one of the N names of LIST. */
static int listed(const char *const *list, size_t n, const char *event)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], event))
			return 1;
	return 0;
}

int xcfg_exports_kind(const struct xcfg *c, const struct data_kind *k)
{
	unsigned int i;

	if (c->nr_exports) {
		for (i = 0; i < c->nr_exports; i++)
			if (c->exports[i].kind == k)
				return 1;
		return 0;
	}
	return listed(default_exports, sizeof(default_exports) / sizeof(default_exports[0]),
		      k->event) ||
	       (c->per_prio && listed(prio_exports, sizeof(prio_exports) /
				      sizeof(prio_exports[0]), k->event)) ||
	       (c->per_bin && listed(bin_exports, sizeof(bin_exports) /
				     sizeof(bin_exports[0]), k->event));
}

int xcfg_select(const struct xcfg *c, const struct xcfg_device_caps *caps,
		struct xcfg_selection *sel, char *err, size_t errlen)
{
	unsigned int i;

	sel->nr = 0;
	if (c->nr_exports) {
		for (i = 0; i < c->nr_exports; i++)
			if (select_export(sel, &c->exports[i], caps, err, errlen))
				return -1;
	} else if (select_events(sel, default_exports,
				 sizeof(default_exports) / sizeof(default_exports[0]),
				 caps, err, errlen) ||
		   (c->per_prio &&
		    select_events(sel, prio_exports,
				  sizeof(prio_exports) / sizeof(prio_exports[0]),
				  caps, err, errlen)) ||
		   (c->per_bin &&
		    select_events(sel, bin_exports,
				  sizeof(bin_exports) / sizeof(bin_exports[0]),
				  caps, err, errlen))) {
		return -1;
	}
	if (c->nr_le && select_histograms(sel, err, errlen))
		return -1;
	if (sel->nr > caps->max_data_ids) {
		snprintf(err, errlen, "%u data IDs selected, the device takes %u at "
			 "once (caps/max_data_ids)", sel->nr, caps->max_data_ids);
		return -1;
	}
	return 0;
}
