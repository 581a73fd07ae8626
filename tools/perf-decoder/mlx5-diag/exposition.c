// SPDX-License-Identifier: GPL-2.0
/*
 * Metric families rendered in the Prometheus text format 0.0.4 and in
 * OpenMetrics 1.0 text (exposition.h): names and labels checked as they
 * are added, escaping, numbers and the order of lines as each format
 * wants them.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exposition.h"

#define NSEC_PER_S	UINT64_C(1000000000)

static void expo_fail(struct expo_set *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void expo_fail(struct expo_set *s, const char *fmt, ...)
{
	va_list ap;

	if (s->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
}

void expo_set_init(struct expo_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void metric_free(struct expo_metric *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_labels; i++) {
		free(m->names[i]);
		free(m->values[i]);
	}
	free(m->le);
	free(m->bucket);
}

void expo_set_free(struct expo_set *s)
{
	unsigned int i, j;

	for (i = 0; i < s->nr_families; i++) {
		struct expo_family *f = &s->families[i];

		for (j = 0; j < f->nr_metrics; j++)
			metric_free(&f->metrics[j]);
		free(f->metrics);
		free(f->name);
		free(f->unit);
		free(f->help);
	}
	free(s->families);
	expo_set_init(s);
}

/* ---- checks ---- */

static int name_char(char c, int first, int colon)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return 1;
	if (colon && c == ':')
		return 1;
	return !first && c >= '0' && c <= '9';
}

/* A metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) or label name (no colon). */
static int valid_name(const char *name, int colon)
{
	const char *p;

	if (!*name)
		return 0;
	for (p = name; *p; p++)
		if (!name_char(*p, p == name, colon))
			return 0;
	return 1;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* S is UTF-8 (no overlong forms, no surrogates, at most U+10FFFF). */
static int valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned int c = *p, n, cp, k;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		for (k = 1; k <= n; k++) {
			if ((p[k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (p[k] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		p += n + 1;
	}
	return 1;
}

/* The suffixes the samples of some type add: no family name ends in one. */
static const char *const reserved_suffixes[] = {
	"_total", "_created", "_bucket", "_sum", "_count", "_info",
};

static const char *const type_names[] = {
	[EXPO_COUNTER] = "counter", [EXPO_GAUGE] = "gauge",
	[EXPO_HISTOGRAM] = "histogram", [EXPO_INFO] = "info",
};

struct expo_family *expo_family(struct expo_set *s, const char *name,
				enum expo_type type, const char *unit,
				const char *help)
{
	struct expo_family *f;
	unsigned int i;

	if (s->err[0])
		return NULL;
	if (!unit)
		unit = "";
	for (i = 0; i < s->nr_families; i++) {
		f = &s->families[i];
		if (strcmp(f->name, name))
			continue;
		if (f->type != type || strcmp(f->unit, unit) || strcmp(f->help, help)) {
			expo_fail(s, "family %s added twice, as a %s and as a %s",
				  name, type_names[f->type], type_names[type]);
			return NULL;
		}
		return f;
	}
	if (!valid_name(name, 1)) {
		expo_fail(s, "bad metric name '%s'", name);
		return NULL;
	}
	for (i = 0; i < sizeof(reserved_suffixes) / sizeof(reserved_suffixes[0]); i++) {
		if (ends_with(name, reserved_suffixes[i])) {
			expo_fail(s, "metric name %s ends in %s, a suffix of samples",
				  name, reserved_suffixes[i]);
			return NULL;
		}
	}
	if (*unit) {
		size_t n = strlen(name), k = strlen(unit);

		if (!valid_name(unit, 0) || n <= k + 1 || name[n - k - 1] != '_' ||
		    strcmp(name + n - k, unit)) {
			expo_fail(s, "metric name %s does not end in _%s, its unit",
				  name, unit);
			return NULL;
		}
	}
	if (strchr(help, '\n') || !valid_utf8(help)) {
		expo_fail(s, "the help of %s is not one line of UTF-8", name);
		return NULL;
	}
	if (s->nr_families == s->cap_families) {
		unsigned int cap = s->cap_families ? 2 * s->cap_families : 16;
		struct expo_family *grown = realloc(s->families, cap * sizeof(*grown));

		if (!grown)
			goto oom;
		s->families = grown;
		s->cap_families = cap;
	}
	f = &s->families[s->nr_families];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->name = strdup(name);
	f->unit = strdup(unit);
	f->help = strdup(help);
	if (!f->name || !f->unit || !f->help) {
		free(f->name);
		free(f->unit);
		free(f->help);
		goto oom;
	}
	s->nr_families++;
	return f;
oom:
	expo_fail(s, "out of memory");
	return NULL;
}

/* M has the labels L (N of them) in any order. */
static int same_labels(const struct expo_metric *m, const struct expo_label *l,
		       unsigned int n)
{
	unsigned int i, j;

	if (m->nr_labels != n)
		return 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(m->names[j], l[i].name) &&
			    !strcmp(m->values[j], l[i].value))
				break;
		if (j == n)
			return 0;
	}
	return 1;
}

static const char *label_mistake(const struct expo_family *f,
				 const struct expo_label *l, unsigned int i)
{
	unsigned int j;

	if (!valid_name(l[i].name, 0))
		return "a bad label name";
	if (!strncmp(l[i].name, "__", 2))
		return "a label name starting with __ (reserved)";
	if (f->type == EXPO_HISTOGRAM && !strcmp(l[i].name, "le"))
		return "the label le on a histogram";
	for (j = 0; j < i; j++)
		if (!strcmp(l[j].name, l[i].name))
			return "a label given twice";
	if (!valid_utf8(l[i].value))
		return "a label value that is not UTF-8";
	return NULL;
}

struct expo_metric *expo_metric(struct expo_set *s, struct expo_family *f,
				const struct expo_label *labels, unsigned int n)
{
	struct expo_metric *m;
	const char *why;
	unsigned int i;

	if (s->err[0] || !f)
		return NULL;
	if (n > EXPO_MAX_LABELS) {
		expo_fail(s, "%s: more than %d labels", f->name, EXPO_MAX_LABELS);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		why = label_mistake(f, labels, i);
		if (why) {
			expo_fail(s, "%s: %s (%s)", f->name, why, labels[i].name);
			return NULL;
		}
	}
	for (i = 0; i < f->nr_metrics; i++) {
		if (same_labels(&f->metrics[i], labels, n)) {
			expo_fail(s, "%s: a label set given twice", f->name);
			return NULL;
		}
	}
	if (f->nr_metrics == f->cap_metrics) {
		unsigned int cap = f->cap_metrics ? 2 * f->cap_metrics : 8;
		struct expo_metric *grown = realloc(f->metrics, cap * sizeof(*grown));

		if (!grown)
			goto oom;
		f->metrics = grown;
		f->cap_metrics = cap;
	}
	m = &f->metrics[f->nr_metrics];
	memset(m, 0, sizeof(*m));
	m->value = expo_u64(0);
	m->sum = expo_u64(0);
	for (i = 0; i < n; i++) {
		m->names[i] = strdup(labels[i].name);
		m->values[i] = strdup(labels[i].value);
		m->nr_labels = i + 1;
		if (!m->names[i] || !m->values[i]) {
			metric_free(m);
			goto oom;
		}
	}
	f->nr_metrics++;
	return m;
oom:
	expo_fail(s, "out of memory");
	return NULL;
}

void expo_set_value(struct expo_metric *m, struct expo_num v)
{
	if (m)
		m->value = v;
}

void expo_set_created(struct expo_metric *m, struct expo_num t)
{
	if (m) {
		m->has_created = 1;
		m->created = t;
	}
}

int expo_set_histogram(struct expo_set *s, struct expo_metric *m,
		       unsigned int n, const double *le, const uint64_t *bucket,
		       struct expo_num sum, uint64_t count)
{
	unsigned int i;

	if (s->err[0] || !m)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isfinite(le[i]) || (i && le[i] <= le[i - 1])) {
			expo_fail(s, "histogram bounds not finite and increasing "
				  "(bound %u)", i);
			return -1;
		}
		if (bucket[i] > count || (i && bucket[i] < bucket[i - 1])) {
			expo_fail(s, "histogram bucket %u not cumulative", i);
			return -1;
		}
	}
	free(m->le);
	free(m->bucket);
	m->le = n ? malloc(n * sizeof(*le)) : NULL;
	m->bucket = n ? malloc(n * sizeof(*bucket)) : NULL;
	if (n && (!m->le || !m->bucket)) {
		free(m->le);
		free(m->bucket);
		m->le = NULL;
		m->bucket = NULL;
		m->nr_buckets = 0;
		expo_fail(s, "out of memory");
		return -1;
	}
	if (n) {
		memcpy(m->le, le, n * sizeof(*le));
		memcpy(m->bucket, bucket, n * sizeof(*bucket));
	}
	m->nr_buckets = n;
	m->sum = sum;
	m->count = count;
	return 0;
}

/* ---- numbers ---- */

void expo_canonical(double v, char *buf, size_t len)
{
	char e[40], digits[20], *p, *q;
	int prec, exp, nd, i;
	size_t n = 0;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%cInf", v > 0 ? '+' : '-');
		return;
	}
	/* the fewest significant digits that read back as V */
	for (prec = 1; prec < 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", prec - 1, v);
	p = strchr(e, 'e');
	exp = atoi(p + 1);
	if (v != 0 && (exp < -4 || exp >= 6)) {
		snprintf(buf, len, "%s", e);	/* d.ddde±XX, as Go writes it */
		return;
	}
	/* fixed notation: the digits of the mantissa around the point */
	nd = 0;
	for (q = e; q < p; q++)
		if (*q >= '0' && *q <= '9')
			digits[nd++] = *q;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (v == 0)
		exp = 0;
	if (signbit(v) && n + 1 < len)
		buf[n++] = '-';
	if (exp < 0) {
		for (i = 0; i < 2 - exp - 1 && n + 1 < len; i++)
			buf[n++] = i == 1 ? '.' : '0';
		for (i = 0; i < nd && n + 1 < len; i++)
			buf[n++] = digits[i];
	} else {
		for (i = 0; i <= exp && n + 1 < len; i++)
			buf[n++] = i < nd ? digits[i] : '0';
		if (n + 1 < len)
			buf[n++] = '.';
		if (nd > exp + 1) {
			for (i = exp + 1; i < nd && n + 1 < len; i++)
				buf[n++] = digits[i];
		} else if (n + 1 < len) {
			buf[n++] = '0';
		}
	}
	buf[n < len ? n : len - 1] = '\0';
}

/* An integer count of ns in seconds, exact: 1.5, 0.000000001, 2. */
static void nanos_text(uint64_t ns, char *buf, size_t len)
{
	uint64_t frac = ns % NSEC_PER_S;
	int digits = 9;

	if (!frac) {
		snprintf(buf, len, "%" PRIu64, ns / NSEC_PER_S);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64, ns / NSEC_PER_S, digits, frac);
}

static void num_text(struct expo_num v, char *buf, size_t len)
{
	switch (v.kind) {
	case EXPO_NUM_U64:
		snprintf(buf, len, "%" PRIu64, v.u);
		break;
	case EXPO_NUM_NANOS:
		nanos_text(v.u, buf, len);
		break;
	case EXPO_NUM_F64:
		expo_canonical(v.d, buf, len);
		break;
	}
}

/* ---- rendering ---- */

/* S with \ " and newline escaped (QUOTE 0: " as it is, HELP in 0.0.4). */
static void put_escaped(FILE *f, const char *s, int quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && quote)
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

/* NAME SUFFIX{labels[,le="LE"]} VALUE */
static void put_sample(FILE *f, const struct expo_family *fam, const char *suffix,
		       const struct expo_metric *m, const char *le, struct expo_num v)
{
	char num[48];
	unsigned int i;

	fprintf(f, "%s%s", fam->name, suffix);
	if (m->nr_labels || le) {
		fputc('{', f);
		for (i = 0; i < m->nr_labels; i++) {
			fprintf(f, "%s%s=\"", i ? "," : "", m->names[i]);
			put_escaped(f, m->values[i], 1);
			fputc('"', f);
		}
		if (le)
			fprintf(f, "%sle=\"%s\"", m->nr_labels ? "," : "", le);
		fputc('}', f);
	}
	num_text(v, num, sizeof(num));
	fprintf(f, " %s\n", num);
}

static void put_metric(FILE *f, const struct expo_family *fam,
		       const struct expo_metric *m, enum expo_format format)
{
	int om = format == EXPO_OPENMETRICS;
	char le[48];
	unsigned int i;

	switch (fam->type) {
	case EXPO_COUNTER:
		put_sample(f, fam, "_total", m, NULL, m->value);
		if (om && m->has_created)
			put_sample(f, fam, "_created", m, NULL, m->created);
		break;
	case EXPO_GAUGE:
		put_sample(f, fam, "", m, NULL, m->value);
		break;
	case EXPO_INFO:
		put_sample(f, fam, "_info", m, NULL, expo_u64(1));
		break;
	case EXPO_HISTOGRAM:
		for (i = 0; i < m->nr_buckets; i++) {
			expo_canonical(m->le[i], le, sizeof(le));
			put_sample(f, fam, "_bucket", m, le, expo_u64(m->bucket[i]));
		}
		put_sample(f, fam, "_bucket", m, "+Inf", expo_u64(m->count));
		put_sample(f, fam, "_sum", m, NULL, m->sum);
		put_sample(f, fam, "_count", m, NULL, expo_u64(m->count));
		if (om && m->has_created)
			put_sample(f, fam, "_created", m, NULL, m->created);
		break;
	}
}

/*
 * The metadata of FAM: in 0.0.4 under the name its samples have (a
 * counter's NAME_total, an info's NAME_info, which is a gauge there); in
 * OpenMetrics under the family's name, with its UNIT.
 */
static void put_metadata(FILE *f, const struct expo_family *fam,
			 enum expo_format format)
{
	const char *type = type_names[fam->type], *suffix = "";

	if (format == EXPO_PROMETHEUS) {
		if (fam->type == EXPO_COUNTER)
			suffix = "_total";
		if (fam->type == EXPO_INFO) {
			suffix = "_info";
			type = "gauge";
		}
		fprintf(f, "# HELP %s%s ", fam->name, suffix);
		put_escaped(f, fam->help, 0);
		fprintf(f, "\n# TYPE %s%s %s\n", fam->name, suffix, type);
		return;
	}
	fprintf(f, "# TYPE %s %s\n", fam->name, type);
	if (*fam->unit)
		fprintf(f, "# UNIT %s %s\n", fam->name, fam->unit);
	fprintf(f, "# HELP %s ", fam->name);
	put_escaped(f, fam->help, 1);
	fputc('\n', f);
}

int expo_render(struct expo_set *s, enum expo_format format, char **text,
		size_t *len)
{
	unsigned int i, j;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	*text = NULL;
	*len = 0;
	if (s->err[0])
		return -1;
	f = open_memstream(&buf, &n);
	if (!f) {
		expo_fail(s, "out of memory");
		return -1;
	}
	for (i = 0; i < s->nr_families; i++) {
		const struct expo_family *fam = &s->families[i];

		if (!fam->nr_metrics)
			continue;
		put_metadata(f, fam, format);
		for (j = 0; j < fam->nr_metrics; j++)
			put_metric(f, fam, &fam->metrics[j], format);
	}
	if (format == EXPO_OPENMETRICS)
		fputs("# EOF\n", f);
	if (ferror(f) | fclose(f)) {
		free(buf);
		expo_fail(s, "out of memory");
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
}

const char *expo_content_type(enum expo_format format)
{
	return format == EXPO_OPENMETRICS ? EXPO_CONTENT_TYPE_OPENMETRICS :
					    EXPO_CONTENT_TYPE_PROMETHEUS;
}
