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
#include "metrics.h"

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

/*
 * A term of the translation: its PromQL, its degree (events over it less
 * events under it; duration_time counts as one, a rate divides by it)
 * and how it binds (for parentheses: 3 an operand, 2 * /, 1 + -).
 */
struct term {
	char q[1024];
	int degree, binds;
};

/* The PromQL of an event of kind KIND: the rate of its counter. */
static const char *event_rate(struct term *t, uint32_t kind)
{
	const struct data_kind *k = data_kind_of(kind);
	char name[160];

	if (!k)
		return "an event whose kind data_kinds.def lacks";
	fam_base_name(k, name, sizeof(name));
	/* the event counts ns, the family seconds */
	snprintf(t->q, sizeof(t->q), k->unit == DATA_KIND_UNIT_NS ?
		 "(rate(%s_total{" DEVICES "}" WINDOW ") * 1e9)" :
		 "rate(%s_total{" DEVICES "}" WINDOW ")", name);
	t->degree = 1;
	t->binds = 3;
	return NULL;
}

/* V as few digits as give it back: 2, 0.5, 1e-09. */
static void number(double v, char *buf, size_t len)
{
	int digits;

	for (digits = 1; digits < 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/* L OP R into L, each side in parentheses where it binds less than OP. */
static const char *binary(struct term *l, const struct term *r, enum metric_op_kind op)
{
	static const char *const sym[] = {
		[METRIC_OP_ADD] = "+", [METRIC_OP_SUB] = "-",
		[METRIC_OP_MUL] = "*", [METRIC_OP_DIV] = "/",
	};
	int binds = op == METRIC_OP_ADD || op == METRIC_OP_SUB ? 1 : 2;
	int rparen = r->binds < binds || (r->binds == binds && (op == METRIC_OP_SUB ||
								 op == METRIC_OP_DIV));
	char q[sizeof(l->q)];
	int n;

	if ((op == METRIC_OP_ADD || op == METRIC_OP_SUB) && l->degree != r->degree)
		return "terms of unlike dimensions added";
	n = snprintf(q, sizeof(q), l->binds < binds ? "(%s) %s " : "%s %s ", l->q,
		     sym[op]);
	if (n < 0 || (size_t)n >= sizeof(q) ||
	    (size_t)snprintf(q + n, sizeof(q) - (size_t)n, rparen ? "(%s)" : "%s",
			     r->q) >= sizeof(q) - (size_t)n)
		return "the PromQL is too long";
	memcpy(l->q, q, sizeof(q));
	l->degree += op == METRIC_OP_MUL ? r->degree : op == METRIC_OP_DIV ? -r->degree : 0;
	l->binds = binds;
	return NULL;
}

/* The program M (metrics.c's, in postfix order) as one term in T[0]. */
static const char *translate(const struct metric *m, struct term *t)
{
	const char *why = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_ops && !why; i++) {
		const struct metric_op *op = &m->ops[i];

		switch (op->kind) {
		case METRIC_OP_COL:
			why = event_rate(&t[n++], op->data_kind);
			break;
		case METRIC_OP_TIME:
			snprintf(t[n].q, sizeof(t[n].q), "1");
			t[n].degree = 1;
			t[n++].binds = 3;
			break;
		case METRIC_OP_NUM:
			number(op->num, t[n].q, sizeof(t[n].q));
			t[n].degree = 0;
			t[n++].binds = 3;
			break;
		case METRIC_OP_ADD:
		case METRIC_OP_SUB:
		case METRIC_OP_MUL:
		case METRIC_OP_DIV:
			n--;
			why = binary(&t[n - 1], &t[n], op->kind);
			break;
		}
	}
	if (!why && t[0].degree)
		why = "not a ratio of increases or an increase per second, which a "
		      "rate cannot express";
	return why;
}

int dashboard_promql(const char *expr, const char *scale, char *out,
		     size_t outlen, char *err, size_t errlen)
{
	struct term t[METRIC_MAX_OPS];
	const char *why;
	struct metric m;
	int n;

	out[0] = '\0';
	if (metrics_compile(&m, expr, scale, NULL, 0, &why) == 0)
		why = translate(&m, t);
	if (!why) {
		n = strcmp(scale, "1") ? snprintf(out, outlen, "(%s) * %s", t[0].q, scale) :
			snprintf(out, outlen, "%s", t[0].q);
		if (n < 0 || (size_t)n >= outlen)
			why = "the PromQL is too long";
	}
	if (why) {
		snprintf(err, errlen, "%s: %s", expr, why);
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
	const enum data_kind_field *fields;
	unsigned int nr = k ? data_kind_fields(k->group, &fields) : 0, i;
	size_t n = (size_t)snprintf(buf, len, "{{device}}");

	for (i = 0; i < nr && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %s {{%s}}",
				      data_kind_field_name(fields[i]),
				      data_kind_field_name(fields[i]));
	if (n < len)
		snprintf(buf + n, len - n, "%s", tail);
}

/* C exports every event of metric EXPR (a metric that does not compile: no). */
static int exported(const struct xcfg *c, const char *expr, const char *scale)
{
	const struct data_kind *k;
	const char *why;
	struct metric m;
	unsigned int i;

	if (metrics_compile(&m, expr, scale, NULL, 0, &why))
		return 0;
	for (i = 0; i < m.nr_ops; i++) {
		if (m.ops[i].kind != METRIC_OP_COL)
			continue;
		k = data_kind_of(m.ops[i].data_kind);
		if (!k || !xcfg_exports_kind(c, k))
			return 0;
	}
	return 1;
}

/* The metrics of metrics.def whose events C exports: no panel stays empty. */
static int derived_panels(struct board *b, const struct xcfg *c)
{
	char q[2048], title[256], unit[64], err[512], legend[128];
	size_t i;

	row(b, "Derived metrics (metrics.def)");
	for (i = 0; i < ARRAY_LEN(table); i++) {
		if (dashboard_promql(table[i].expr, table[i].scale, q, sizeof(q), err,
				     sizeof(err))) {
			err_print("exporter", "--dashboard: metric %s: %s", table[i].name, err);
			return -1;
		}
		if (!exported(c, table[i].expr, table[i].scale))
			continue;
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

/*
 * Each exported metric's largest and smallest value of one sample between
 * scrapes.
 */
static int metric_window_panels(struct board *b, const struct xcfg *c)
{
	char q[512], name[176], title[256], legend[160];
	const struct data_kind *k;
	double factor;
	size_t i;

	for (i = 0; i < ARRAY_LEN(table); i++) {
		if (!exported(c, table[i].expr, table[i].scale))
			continue;
		k = first_kind(table[i].expr);
		if (!k || fam_metric_name(k, table[i].name, table[i].unit, name,
					  sizeof(name), &factor)) {
			err_print("exporter", "--dashboard: metric %s: no family name for "
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
		if (!xcfg_exports_kind(c, k))
			continue;
		fam_base_name(k, name, sizeof(name));
		snprintf(q, sizeof(q), "%s_peak_per_second{" DEVICES "}", name);
		snprintf(title, sizeof(title), "%s: peak of one sample period", k->event);
		legend_of(k, "", legend, sizeof(legend));
		panel(b, title, "The largest rate over one sample period between "
		      "scrapes, next to the average of the derived panels",
		      q, legend, "Bps");
	}
	if (metric_window_panels(b, c))
		return -1;
	panel(b, "Samples folded per second", "Device samples the exporter folded",
	      "rate(mlx5_diag_samples_total{" DEVICES "}" WINDOW ")", "{{device}}",
	      "none");
	panel(b, "Samples lost per second", "Device samples lost before they "
	      "were folded, by cause", "rate(mlx5_diag_lost_samples_total{" DEVICES
	      "}" WINDOW ")", "{{device}} {{cause}}", "none");
	if (c->nr_le && xcfg_exports_kind(c, data_kind_by_event("pcie_read_latency_hist_packets")))
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
	if (derived_panels(&b, c))
		goto out;
	if (c->sample_ns && sampling_panels(&b, c))
		goto out;
	add(&b, d, "panels", json_object_get(b.panels));
	if (b.oom) {
		err_print("exporter", "--dashboard: out of memory");
		goto out;
	}
	text = json_object_to_json_string_ext(d, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) < 0 || fputc('\n', out) < 0 || fflush(out)) {
		err_print("exporter", "--dashboard: writing it failed");
		goto out;
	}
	ret = 0;
out:
	json_object_put(b.panels);
	json_object_put(d);
	return ret;
}
