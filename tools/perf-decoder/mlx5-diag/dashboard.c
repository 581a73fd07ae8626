// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's Grafana dashboard (dashboard.h), written with json-c:
 * the devices' state, one panel per derived metric of metrics.def (its
 * expression turned into PromQL), and the high-resolution mode's peaks,
 * extremes, losses and latency quantiles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object.h>

#include "dashboard.h"
#include "errors.h"
#include "families.h"

#define DEVICES		"device=~\"$device\""
#define WINDOW		"[$__rate_interval]"

static const struct table_metric {
	const char *name, *expr, *scale, *unit, *group, *desc;
} table[] = {
#define MD_EVENT(name, kind, class, group)
#define MD_METRIC(name, expr, scale, unit, group, desc) \
	{ name, expr, scale, unit, group, desc },
#include "metrics.def"
#undef MD_EVENT
#undef MD_METRIC
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- metrics.def's expressions as PromQL ---- */

struct translate {
	const char *p;
	char *out;
	size_t len, n;
	const char *err;
};

static void put(struct translate *t, const char *s)
{
	size_t k = strlen(s);

	if (t->n + k >= t->len) {
		t->err = "the PromQL is too long";
		return;
	}
	memcpy(t->out + t->n, s, k + 1);
	t->n += k;
}

static void skip_ws(struct translate *t)
{
	while (*t->p == ' ')
		t->p++;
}

static int texpr(struct translate *t, int *degree);

/*
 * factor: NUMBER | NAME | ( expr ). An event's degree is 1 (an increase),
 * duration_time's 1 (the seconds it covers), a number's 0.
 */
static int tfactor(struct translate *t, int *degree)
{
	char name[64], q[256];
	const struct data_kind *k;
	size_t n = 0;

	skip_ws(t);
	if (*t->p == '(') {
		t->p++;
		put(t, "(");
		if (texpr(t, degree))
			return -1;
		skip_ws(t);
		if (*t->p != ')') {
			t->err = "a '(' without its ')'";
			return -1;
		}
		t->p++;
		put(t, ")");
		return 0;
	}
	if ((*t->p >= '0' && *t->p <= '9') || *t->p == '.') {
		char *end;

		strtod(t->p, &end);
		n = (size_t)(end - t->p);
		if (n >= sizeof(name)) {
			t->err = "a number too long";
			return -1;
		}
		memcpy(name, t->p, n);
		name[n] = '\0';
		t->p = end;
		put(t, name);
		*degree = 0;
		return 0;
	}
	while (((*t->p >= 'a' && *t->p <= 'z') || *t->p == '_' ||
		(*t->p >= '0' && *t->p <= '9')) && n + 1 < sizeof(name))
		name[n++] = *t->p++;
	name[n] = '\0';
	*degree = 1;
	if (!n) {
		t->err = "a number, name or '(' expected";
		return -1;
	}
	if (!strcmp(name, "duration_time")) {
		put(t, "1");
		return 0;
	}
	k = data_kind_by_event(name);
	if (!k || (k->class != DATA_CLASS_COUNTER && k->class != DATA_CLASS_STAT_SUM)) {
		t->err = "an event that is no counter or sum of data_kinds.def";
		return -1;
	}
	fam_base_name(k, q, sizeof(q));
	put(t, k->unit == DATA_UNIT_NS ? "(rate(" : "rate(");
	put(t, q);
	put(t, "_total{" DEVICES "}" WINDOW ")");
	if (k->unit == DATA_UNIT_NS)
		put(t, " * 1e9)");		/* the event counts ns */
	return 0;
}

/* term: factor { (* | /) factor }; degrees add and subtract */
static int tterm(struct translate *t, int *degree)
{
	int d;

	if (tfactor(t, degree))
		return -1;
	for (;;) {
		char op;

		skip_ws(t);
		if (*t->p != '*' && *t->p != '/')
			return 0;
		op = *t->p++;
		put(t, op == '*' ? " * " : " / ");
		if (tfactor(t, &d))
			return -1;
		*degree += op == '*' ? d : -d;
	}
}

/* expr: term { (+ | -) term }; terms of one degree */
static int texpr(struct translate *t, int *degree)
{
	int d;

	if (tterm(t, degree))
		return -1;
	for (;;) {
		char op;

		skip_ws(t);
		if (*t->p != '+' && *t->p != '-')
			return 0;
		op = *t->p++;
		put(t, op == '+' ? " + " : " - ");
		if (tterm(t, &d))
			return -1;
		if (d != *degree) {
			t->err = "terms of unlike dimensions added";
			return -1;
		}
	}
}

int dashboard_promql(const char *expr, const char *scale, char *out,
		     size_t outlen, char *err, size_t errlen)
{
	struct translate t = { .p = expr, .out = out, .len = outlen };
	int degree = 0;

	out[0] = '\0';
	if (strcmp(scale, "1"))
		put(&t, "(");
	if (!texpr(&t, &degree) && *t.p)
		t.err = "text after the expression";
	if (!t.err && degree)
		t.err = "not a ratio of increases or an increase per second, "
			"which a rate cannot express";
	if (!t.err && strcmp(scale, "1")) {
		put(&t, ") * ");
		put(&t, scale);
	}
	if (t.err) {
		snprintf(err, errlen, "%s: %s", expr, t.err);
		return -1;
	}
	return 0;
}

/* ---- the dashboard ---- */

struct board {
	struct json_object *panels;
	int id, x, y;			/* the next panel's id and place */
	int oom;
};

static struct json_object *str(const char *s)
{
	return json_object_new_string(s);
}

/* KEY: VAL into O (VAL's reference taken); a failure counted in B. */
static void add(struct board *b, struct json_object *o, const char *key,
		struct json_object *val)
{
	if (!o || !val || json_object_object_add(o, key, val)) {
		json_object_put(val);
		b->oom = 1;
	}
}

static struct json_object *grid(struct board *b, int w, int h)
{
	struct json_object *g = json_object_new_object();

	if (b->x + w > 24) {
		b->x = 0;
		b->y += 8;
	}
	add(b, g, "h", json_object_new_int(h));
	add(b, g, "w", json_object_new_int(w));
	add(b, g, "x", json_object_new_int(b->x));
	add(b, g, "y", json_object_new_int(b->y));
	b->x += w;
	return g;
}

static struct json_object *datasource(struct board *b)
{
	struct json_object *ds = json_object_new_object();

	add(b, ds, "type", str("prometheus"));
	add(b, ds, "uid", str("${datasource}"));
	return ds;
}

/* O appended to the array A (its reference taken). */
static void append_to(struct board *b, struct json_object *a, struct json_object *o)
{
	if (!a || !o || json_object_array_add(a, o)) {
		json_object_put(o);
		b->oom = 1;
	}
}

static void append(struct board *b, struct json_object *panel)
{
	append_to(b, b->panels, panel);
}

static void row(struct board *b, const char *title)
{
	struct json_object *r = json_object_new_object();

	if (b->x) {
		b->x = 0;
		b->y += 8;
	}
	add(b, r, "type", str("row"));
	add(b, r, "id", json_object_new_int(++b->id));
	add(b, r, "title", str(title));
	add(b, r, "collapsed", json_object_new_boolean(0));
	add(b, r, "panels", json_object_new_array());
	add(b, r, "gridPos", grid(b, 24, 1));
	b->x = 0;
	b->y += 1;
	append(b, r);
}

/* A time series panel of one query. */
static void panel(struct board *b, const char *title, const char *desc,
		  const char *expr, const char *legend, const char *unit)
{
	struct json_object *p = json_object_new_object();
	struct json_object *targets = json_object_new_array();
	struct json_object *target = json_object_new_object();
	struct json_object *fc = json_object_new_object();
	struct json_object *defaults = json_object_new_object();

	add(b, target, "refId", str("A"));
	add(b, target, "expr", str(expr));
	add(b, target, "legendFormat", str(legend));
	add(b, target, "datasource", datasource(b));
	append_to(b, targets, target);
	add(b, defaults, "unit", str(unit));
	add(b, fc, "defaults", defaults);
	add(b, fc, "overrides", json_object_new_array());
	add(b, p, "type", str("timeseries"));
	add(b, p, "id", json_object_new_int(++b->id));
	add(b, p, "title", str(title));
	add(b, p, "description", str(desc));
	add(b, p, "datasource", datasource(b));
	add(b, p, "targets", targets);
	add(b, p, "fieldConfig", fc);
	add(b, p, "gridPos", grid(b, 12, 8));
	append(b, p);
}

/* metrics.def's unit as Grafana's: ns, none, else a suffix. */
static void grafana_unit(const char *unit, char *buf, size_t len)
{
	if (!strcmp(unit, "ns"))
		snprintf(buf, len, "ns");
	else if (!*unit)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "suffix:%s", unit);
}

/* The first event of EXPR's kind, NULL if none. */
static const struct data_kind *first_kind(const char *expr)
{
	char name[64];
	size_t n = strcspn(expr, " /*+-()");

	snprintf(name, sizeof(name), "%.*s", (int)n, expr);
	return data_kind_by_event(name);
}

/*
 * The legend of a series of kind K (NULL: global): the device, then each
 * instance label ("{{device}} port {{port}} prio {{prio}}"), then TAIL.
 */
static void legend_of(const struct data_kind *k, const char *tail, char *buf,
		      size_t len)
{
	const enum data_field *fields;
	unsigned int nr = k ? data_kind_fields(k->group, &fields) : 0, i;
	size_t n = (size_t)snprintf(buf, len, "{{device}}");

	for (i = 0; i < nr && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %s {{%s}}",
				      data_field_name(fields[i]),
				      data_field_name(fields[i]));
	if (n < len)
		snprintf(buf + n, len - n, "%s", tail);
}

static int derived_panels(struct board *b)
{
	char q[2048], title[256], unit[64], err[512], legend[128];
	size_t i;

	row(b, "Derived metrics (metrics.def)");
	for (i = 0; i < ARRAY_LEN(table); i++) {
		if (dashboard_promql(table[i].expr, table[i].scale, q, sizeof(q), err,
				     sizeof(err))) {
			md_err("exporter", "--dashboard: metric %s: %s", table[i].name, err);
			return -1;
		}
		snprintf(title, sizeof(title), "%s (%s)", table[i].name, table[i].group);
		grafana_unit(table[i].unit, unit, sizeof(unit));
		legend_of(first_kind(table[i].expr), "", legend, sizeof(legend));
		panel(b, title, table[i].desc, q, legend, unit);
	}
	return 0;
}

/* The base unit a metric's family has (families.h), as Grafana's. */
static const char *grafana_base_unit(const char *unit)
{
	if (!strcmp(unit, "GB/s"))
		return "Bps";
	if (!strcmp(unit, "ns"))
		return "s";
	if (!*unit)
		return "none";
	return "suffix:/s";
}

/* Each metric's largest and smallest value of one sample between scrapes. */
static int metric_window_panels(struct board *b)
{
	char q[512], name[176], title[256], legend[160];
	const struct data_kind *k;
	double factor;
	size_t i;

	for (i = 0; i < ARRAY_LEN(table); i++) {
		k = first_kind(table[i].expr);
		if (!k || fam_metric_name(k, table[i].name, table[i].unit, name,
					  sizeof(name), &factor)) {
			md_err("exporter", "--dashboard: metric %s: no family name for "
			       "its unit '%s'", table[i].name, table[i].unit);
			return -1;
		}
		snprintf(q, sizeof(q), "{__name__=~\"%s_(max|min)\", " DEVICES "}", name);
		snprintf(title, sizeof(title), "%s (%s): largest and smallest of one "
			 "sample", table[i].name, table[i].group);
		legend_of(k, " {{__name__}}", legend, sizeof(legend));
		panel(b, title, table[i].desc, q, legend, grafana_base_unit(table[i].unit));
	}
	return 0;
}

static int sampling_panels(struct board *b, const struct xcfg *c)
{
	static const char *const peaks[] = { "port_rx_bytes", "port_tx_bytes" };
	char q[512], name[160], title[256], legend[128];
	const struct data_kind *k;
	size_t i;

	row(b, "High resolution (--sample)");
	for (i = 0; i < ARRAY_LEN(peaks); i++) {
		k = data_kind_by_event(peaks[i]);
		fam_base_name(k, name, sizeof(name));
		snprintf(q, sizeof(q), "%s_peak_per_second{" DEVICES "}", name);
		snprintf(title, sizeof(title), "%s: peak of one sample period", k->event);
		legend_of(k, "", legend, sizeof(legend));
		panel(b, title, "The largest rate over one sample period between "
		      "scrapes, next to the average of the derived panels",
		      q, legend, "Bps");
	}
	if (metric_window_panels(b))
		return -1;
	panel(b, "Samples folded per second", "Device samples the exporter folded",
	      "rate(mlx5_diag_samples_total{" DEVICES "}" WINDOW ")", "{{device}}",
	      "none");
	panel(b, "Samples lost per second", "Device samples lost before they "
	      "were folded, by cause", "rate(mlx5_diag_lost_samples_total{" DEVICES
	      "}" WINDOW ")", "{{device}} {{cause}}", "none");
	if (c->nr_le)
		panel(b, "PCIe read latency, 99th percentile",
		      "histogram_quantile() over the latency bins with the "
		      "configured bounds",
		      "histogram_quantile(0.99, sum by (device, link, le) (rate("
		      "mlx5_diag_pcie_read_latency_seconds_bucket{" DEVICES "}" WINDOW
		      ")))", "{{device}} link {{link}}", "s");
	return 0;
}

static struct json_object *variables(struct board *b)
{
	struct json_object *list = json_object_new_array();
	struct json_object *ds = json_object_new_object();
	struct json_object *dev = json_object_new_object();
	struct json_object *query = json_object_new_object();

	add(b, ds, "name", str("datasource"));
	add(b, ds, "label", str("Data source"));
	add(b, ds, "type", str("datasource"));
	add(b, ds, "query", str("prometheus"));
	add(b, query, "query", str("label_values(mlx5_diag_up, device)"));
	add(b, query, "refId", str("devices"));
	add(b, dev, "name", str("device"));
	add(b, dev, "label", str("Device"));
	add(b, dev, "type", str("query"));
	add(b, dev, "datasource", datasource(b));
	add(b, dev, "definition", str("label_values(mlx5_diag_up, device)"));
	add(b, dev, "query", query);
	add(b, dev, "refresh", json_object_new_int(2));
	add(b, dev, "multi", json_object_new_boolean(1));
	add(b, dev, "includeAll", json_object_new_boolean(1));
	add(b, dev, "allValue", str(".*"));
	append_to(b, list, ds);
	append_to(b, list, dev);
	return list;
}

int dashboard_write(FILE *out, const struct xcfg *c)
{
	struct board b = { .panels = json_object_new_array() };
	struct json_object *d = json_object_new_object();
	struct json_object *templating = json_object_new_object();
	struct json_object *time = json_object_new_object();
	const char *text;
	int ret = -1;

	add(&b, d, "title", str("mlx5_diag"));
	add(&b, d, "uid", str("mlx5-diag"));
	add(&b, d, "description", str("NVIDIA ConnectX diagnostic counters, from "
				      "mlx5-diag exporter"));
	add(&b, d, "tags", json_object_new_array());
	add(&b, d, "schemaVersion", json_object_new_int(39));
	add(&b, d, "version", json_object_new_int(1));
	add(&b, d, "editable", json_object_new_boolean(1));
	add(&b, d, "refresh", str("30s"));
	add(&b, time, "from", str("now-1h"));
	add(&b, time, "to", str("now"));
	add(&b, d, "time", time);
	add(&b, templating, "list", variables(&b));
	add(&b, d, "templating", templating);
	row(&b, "Devices");
	panel(&b, "Devices up", "1: the exporter reads the device; 0: it does "
	      "not, and the reason label says why", "mlx5_diag_up{" DEVICES "}",
	      "{{device}} {{reason}}", "none");
	if (derived_panels(&b))
		goto out;
	if (c->sample_ns && sampling_panels(&b, c))
		goto out;
	add(&b, d, "panels", json_object_get(b.panels));
	if (b.oom) {
		md_err("exporter", "--dashboard: out of memory");
		goto out;
	}
	text = json_object_to_json_string_ext(d, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) < 0 || fputc('\n', out) < 0 || fflush(out)) {
		md_err("exporter", "--dashboard: writing it failed");
		goto out;
	}
	ret = 0;
out:
	json_object_put(b.panels);
	json_object_put(d);
	return ret;
}
