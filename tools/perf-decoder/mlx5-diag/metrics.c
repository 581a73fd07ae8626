// SPDX-License-Identifier: GPL-2.0
/*
 * Derived metrics of a run, as metrics.def defines them: each expression
 * compiled on the run's columns when its session starts and evaluated on
 * each row; never formatted here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_ids.h"
#include "metrics.h"
#include "run.h"

enum md_class { MD_CLASS_COUNTER, MD_CLASS_STAT_SUM };
enum md_group { MD_GROUP_GLOBAL, MD_GROUP_PORT, MD_GROUP_PORT_PRIO,
		MD_GROUP_PCIE_LINK };

static const struct md_event {
	const char *name;
	uint32_t kind;
	enum md_class class;
	enum md_group group;
} md_events[] = {
#define MD_EVENT(name, kind, class, group) \
	{ name, kind, MD_CLASS_##class, MD_GROUP_##group },
#define MD_METRIC(name, expr, scale, unit, group, desc)
#include "metrics.def"
#undef MD_EVENT
#undef MD_METRIC
};

static const struct md_metric {
	const char *name, *expr, *scale, *unit, *desc;
} md_metrics[] = {
#define MD_EVENT(name, kind, class, group)
#define MD_METRIC(name, expr, scale, unit, group, desc) \
	{ name, expr, scale, unit, desc },
#include "metrics.def"
#undef MD_EVENT
#undef MD_METRIC
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Compiling one expression (metrics_compile). */
struct compile {
	const char *p;
	const struct run *r;
	unsigned int anchor;
	struct metric *m;
	int group;			/* of the events so far, -1: none yet */
	uint32_t first_kind;		/* of the first event */
	const char *err;
};

static const struct md_event *event_named(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(md_events); i++)
		if (strlen(md_events[i].name) == len &&
		    !strncmp(md_events[i].name, name, len))
			return &md_events[i];
	return NULL;
}

static int emit(struct compile *c, struct metric_op op)
{
	if (c->m->nr_ops == METRIC_MAX_OPS) {
		c->err = "expression longer than METRIC_MAX_OPS";
		return -1;
	}
	c->m->ops[c->m->nr_ops++] = op;
	return 0;
}

static void skip_ws(struct compile *c)
{
	while (*c->p == ' ')
		c->p++;
}

/* The column of event E for the metric: the anchor or one of its instance. */
static int event_column(struct compile *c, const struct md_event *e)
{
	const struct run *r = c->r;
	uint64_t anchor_id = r->cols[c->anchor].data_id;
	unsigned int i;

	if (c->group < 0)
		return DATA_ID_KIND(anchor_id) == e->kind ? (int)c->anchor : -1;
	for (i = 0; i < r->nr_cols; i++)
		if (DATA_ID_KIND(r->cols[i].data_id) == e->kind &&
		    (uint32_t)r->cols[i].data_id == (uint32_t)anchor_id)
			return (int)i;
	return -1;
}

static int identifier(struct compile *c, const char *name, size_t len)
{
	struct metric_op op = { .kind = METRIC_OP_TIME };
	const struct md_event *e;
	int col;

	if (len == strlen("duration_time") &&
	    !strncmp(name, "duration_time", len))
		return emit(c, op);
	e = event_named(name, len);
	if (!e) {
		c->err = "an unknown event (not an MD_EVENT)";
		return -1;
	}
	if (c->group >= 0 && (int)e->group != c->group) {
		c->err = "events of two instance groups";
		return -1;
	}
	if (c->r) {
		col = event_column(c, e);
		if (col < 0)
			return -1;
		op.col = (unsigned int)col;
	}
	if (c->group < 0)
		c->first_kind = e->kind;
	c->group = (int)e->group;
	op.kind = METRIC_OP_COL;
	op.counter = e->class == MD_CLASS_COUNTER;
	op.data_kind = e->kind;
	return emit(c, op);
}

static int expr(struct compile *c);

/* factor: NUMBER | IDENTIFIER | ( expr ) */
static int factor(struct compile *c)
{
	struct metric_op op = { .kind = METRIC_OP_NUM };
	const char *start;
	char *end;

	skip_ws(c);
	if (*c->p == '(') {
		c->p++;
		if (expr(c))
			return -1;
		skip_ws(c);
		if (*c->p != ')') {
			c->err = "a '(' without its ')'";
			return -1;
		}
		c->p++;
		return 0;
	}
	if ((*c->p >= '0' && *c->p <= '9') || *c->p == '.') {
		op.num = strtod(c->p, &end);
		c->p = end;
		return emit(c, op);
	}
	start = c->p;
	while ((*c->p >= 'a' && *c->p <= 'z') || *c->p == '_' ||
	       (*c->p >= '0' && *c->p <= '9'))
		c->p++;
	if (c->p == start) {
		c->err = "a number, name or '(' expected";
		return -1;
	}
	return identifier(c, start, (size_t)(c->p - start));
}

/* term: factor { (* | /) factor } */
static int term(struct compile *c)
{
	struct metric_op op = { .kind = METRIC_OP_MUL };

	if (factor(c))
		return -1;
	for (;;) {
		skip_ws(c);
		if (*c->p != '*' && *c->p != '/')
			return 0;
		op.kind = *c->p++ == '*' ? METRIC_OP_MUL : METRIC_OP_DIV;
		if (factor(c) || emit(c, op))
			return -1;
	}
}

/* expr: term { (+ | -) term } */
static int expr(struct compile *c)
{
	struct metric_op op = { .kind = METRIC_OP_ADD };

	if (term(c))
		return -1;
	for (;;) {
		skip_ws(c);
		if (*c->p != '+' && *c->p != '-')
			return 0;
		op.kind = *c->p++ == '+' ? METRIC_OP_ADD : METRIC_OP_SUB;
		if (term(c) || emit(c, op))
			return -1;
	}
}

int metrics_compile(struct metric *m, const char *expr_text, const char *scale,
		    const struct run *r, unsigned int anchor, const char **err)
{
	struct compile c = { .p = expr_text, .r = r, .anchor = anchor, .m = m,
			     .group = -1 };
	char *end;

	m->nr_ops = 0;
	m->anchor = anchor;
	if (expr(&c))
		goto fail;
	if (*c.p) {
		c.err = "text after the expression";
		goto fail;
	}
	if (c.group < 0) {
		c.err = "no event";
		goto fail;
	}
	m->scale = strtod(scale, &end);
	if (*end || end == scale) {
		c.err = "a scale that is not a number";
		goto fail;
	}
	m->first_kind = c.first_kind;
	return 0;
fail:
	if (err)
		*err = c.err ? c.err : "an event with no column of the instance";
	return -1;
}

void metrics_plan(struct run *r)
{
	char inst[64];
	unsigned int i;
	size_t j;

	r->nr_metrics = 0;
	for (i = 0; i < r->nr_cols; i++) {
		for (j = 0; j < ARRAY_LEN(md_metrics); j++) {
			struct metric *m = &r->metrics[r->nr_metrics];

			if (metrics_compile(m, md_metrics[j].expr,
					    md_metrics[j].scale, r, i, NULL) ||
			    data_id_instance_name(r->cols[i].data_id, inst,
						  sizeof(inst)))
				continue;
			snprintf(m->name, sizeof(m->name), "%s_%s", inst,
				 md_metrics[j].name);
			m->base_name = md_metrics[j].name;
			m->unit = md_metrics[j].unit;
			m->desc = md_metrics[j].desc;
			r->nr_metrics++;
			break;		/* no event anchors two metrics */
		}
	}
}

int metrics_table_check(char *err, size_t errlen)
{
	struct metric m[ARRAY_LEN(md_metrics)];
	const char *why;
	size_t i, k;

	for (i = 0; i < ARRAY_LEN(md_metrics); i++) {
		if (metrics_compile(&m[i], md_metrics[i].expr,
				    md_metrics[i].scale, NULL, 0, &why)) {
			snprintf(err, errlen, "metric %s (%s): %s",
				 md_metrics[i].name, md_metrics[i].expr, why);
			return -1;
		}
		for (k = 0; k < i; k++)
			if (m[k].first_kind == m[i].first_kind) {
				snprintf(err, errlen, "metrics %s and %s have "
					 "one first event", md_metrics[k].name,
					 md_metrics[i].name);
				return -1;
			}
	}
	return 0;
}

uint64_t metrics_counter_delta(const struct run *r, const struct column *col)
{
	uint64_t d;

	if (r->session.clear)
		return col->value;
	d = col->value - col->prev_value;
	if (r->session.out_format == MLX5_DIAG_FORMAT_2)
		d &= 0xffffffffu;
	return d;
}

/*
 * The interval the amounts of the row cover, as TICKS of a clock of HZ:
 * COL's device clock since its previous sample (FRC ticks, RTC ns), or
 * the actual period under sync and clear. 0, or -1 when unknown or not
 * positive.
 */
static int column_interval(const struct run *r, const struct column *col,
			   uint64_t *ticks, uint64_t *hz)
{
	const struct mlx5diag_session *ss = &r->session;

	if (ss->clear && ss->sync) {
		*ticks = ss->period_ns_actual;
		*hz = NSEC_PER_SEC;
	} else {
		if (!r->have_prev || col->dev_time <= col->prev_dev_time)
			return -1;
		*ticks = col->dev_time - col->prev_dev_time;
		*hz = ss->ts_source == MLX5_DIAG_TS_RTC ? NSEC_PER_SEC :
			(uint64_t)ss->freq_khz * 1000;
	}
	return *ticks && *hz ? 0 : -1;
}

/* That interval in ns, by ANCHOR's device times: 0 and *NS, or -1. */
static int interval_ns(const struct run *r, const struct column *anchor,
		       double *ns)
{
	uint64_t ticks, hz;

	if (column_interval(r, anchor, &ticks, &hz))
		return -1;
	/* FRC ticks: times 1e6 / kHz, the rounding decode's metrics have had */
	*ns = hz == NSEC_PER_SEC ? (double)ticks :
		(double)ticks * 1e6 / r->session.freq_khz;
	return 0;
}

int metrics_column_rate(const struct run *r, const struct column *col, double *rate)
{
	uint64_t ticks, hz, amount;

	switch (col->vclass) {
	case MLX5_DIAG_VCLASS_COUNTER:
		amount = metrics_counter_delta(r, col);
		break;
	case MLX5_DIAG_VCLASS_STAT_SUM:
		amount = col->value;
		break;
	default:
		return -1;
	}
	if (column_interval(r, col, &ticks, &hz))
		return -1;
	*rate = (double)amount * (double)hz / (double)ticks;
	return 0;
}

/*
 * Metric M's expression on the current sample, before its scale: 0 and
 * *RAW, or -1 (no value).
 */
static int metric_value(const struct run *r, const struct metric *m,
			double *raw)
{
	double st[METRIC_MAX_OPS];	/* never more operands than ops */
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_ops; i++) {
		const struct metric_op *op = &m->ops[i];
		const struct column *col = &r->cols[op->col];

		switch (op->kind) {
		case METRIC_OP_COL:
			if (!op->counter)
				st[n++] = (double)col->value;
			else if (r->have_prev || r->session.clear)
				st[n++] = (double)metrics_counter_delta(r, col);
			else
				return -1;
			break;
		case METRIC_OP_TIME:
			if (interval_ns(r, &r->cols[m->anchor], &st[n]))
				return -1;
			st[n++] *= 1e-9;
			break;
		case METRIC_OP_NUM:
			st[n++] = op->num;
			break;
		case METRIC_OP_ADD:
			n--;
			st[n - 1] += st[n];
			break;
		case METRIC_OP_SUB:
			n--;
			st[n - 1] -= st[n];
			break;
		case METRIC_OP_MUL:
			n--;
			st[n - 1] *= st[n];
			break;
		case METRIC_OP_DIV:
			n--;
			if (st[n] == 0)
				return -1;
			st[n - 1] /= st[n];
			break;
		}
	}
	*raw = st[0];
	return 0;
}

void metrics_compute(const struct run *r, struct row *w)
{
	unsigned int i;
	double raw;

	for (i = 0; i < r->nr_metrics; i++) {
		struct metric_value *mv = &w->metrics[i];

		mv->ok = !metric_value(r, &r->metrics[i], &raw);
		mv->raw = mv->ok ? raw : 0;
		mv->v = mv->raw * r->metrics[i].scale;
	}
}
