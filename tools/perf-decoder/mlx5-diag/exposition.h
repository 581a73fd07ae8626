/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metric families as Prometheus exposes them, rendered in the Prometheus
 * text format 0.0.4 or OpenMetrics 1.0 text, for `mlx5-diag exporter`.
 * A set is built family by family; the first mistake (a bad name, a label
 * set given twice, buckets out of order, no memory) is kept in the set and
 * makes every later call a no-op and the rendering fail with it.
 */
#ifndef MLX5_DIAG_EXPOSITION_H
#define MLX5_DIAG_EXPOSITION_H

#include <stddef.h>
#include <stdint.h>

enum expo_format {
	EXPO_PROMETHEUS,	/* text/plain; version=0.0.4 */
	EXPO_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

#define EXPO_CONTENT_TYPE_PROMETHEUS	"text/plain; version=0.0.4; charset=utf-8"
#define EXPO_CONTENT_TYPE_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

enum expo_type {
	EXPO_COUNTER,		/* samples NAME_total (and NAME_created) */
	EXPO_GAUGE,		/* samples NAME */
	EXPO_HISTOGRAM,		/* NAME_bucket{le=}, NAME_sum, NAME_count */
	EXPO_INFO,		/* NAME_info{...} 1; a gauge in 0.0.4 */
};

/*
 * A number as it is exposed: an integer, a count of nanoseconds exposed
 * in seconds (exact decimals), or a double (shortest round-trip text).
 */
enum expo_num_kind { EXPO_NUM_U64, EXPO_NUM_NANOS, EXPO_NUM_F64 };

struct expo_num {
	enum expo_num_kind kind;
	uint64_t u;		/* U64, NANOS */
	double d;		/* F64 */
};

static inline struct expo_num expo_u64(uint64_t v)
{
	return (struct expo_num){ .kind = EXPO_NUM_U64, .u = v };
}

static inline struct expo_num expo_nanos(uint64_t ns)
{
	return (struct expo_num){ .kind = EXPO_NUM_NANOS, .u = ns };
}

static inline struct expo_num expo_f64(double v)
{
	return (struct expo_num){ .kind = EXPO_NUM_F64, .d = v };
}

struct expo_label {
	const char *name;
	const char *value;	/* any UTF-8 text: escaped when rendered */
};

#define EXPO_MAX_LABELS		12

/* One label set of a family and its value(s). */
struct expo_metric {
	unsigned int nr_labels;
	char *names[EXPO_MAX_LABELS];
	char *values[EXPO_MAX_LABELS];
	struct expo_num value;		/* counter total, gauge value */
	int has_created;
	struct expo_num created;	/* counter, histogram: s since the epoch */
	/* histogram: buckets by increasing bound, cumulative counts */
	unsigned int nr_buckets;
	double *le;
	uint64_t *bucket;
	struct expo_num sum;
	uint64_t count;			/* the +Inf bucket */
};

struct expo_family {
	char *name;		/* without _total, _info, _bucket, ... */
	enum expo_type type;
	char *unit;		/* "" or the suffix of NAME: bytes, seconds */
	char *help;
	struct expo_metric *metrics;
	unsigned int nr_metrics, cap_metrics;
};

struct expo_set {
	struct expo_family *families;
	unsigned int nr_families, cap_families;
	char err[160];		/* the first mistake; "" if none */
};

void expo_set_init(struct expo_set *s);
void expo_set_free(struct expo_set *s);

/*
 * expo_family - the family NAME of S, added if new: TYPE, UNIT ("" or
 * NULL: none; else NAME ends in _UNIT) and HELP (one line of any text)
 * must then match how it was added. NAME matches [a-zA-Z_:][a-zA-Z0-9_:]*
 * and does not end in a suffix of its type's samples (a counter's _total,
 * an info's _info, a histogram's _bucket, _sum, _count; _created). Returns
 * the family, or NULL with the mistake in S.
 */
struct expo_family *expo_family(struct expo_set *s, const char *name,
				enum expo_type type, const char *unit,
				const char *help);

/*
 * expo_metric - a label set of F (N labels), a new one: label names match
 * [a-zA-Z_][a-zA-Z0-9_]*, none starts with "__", none is given twice, a
 * histogram's is not "le". Its value is 0 until set. Returns the metric,
 * or NULL with the mistake in S (F NULL: NULL, S's mistake kept).
 */
struct expo_metric *expo_metric(struct expo_set *s, struct expo_family *f,
				const struct expo_label *labels, unsigned int n);

/* expo_set_value - M's value (a counter's total, a gauge's value). */
void expo_set_value(struct expo_metric *m, struct expo_num v);

/* expo_set_created - when M's counter or histogram started (OpenMetrics). */
void expo_set_created(struct expo_metric *m, struct expo_num t);

/*
 * expo_set_histogram - M's buckets: N finite bounds LE, strictly
 * increasing, with cumulative counts BUCKET (non-decreasing, at most
 * COUNT), SUM and COUNT (the +Inf bucket). Returns 0, or -1 with the
 * mistake in S.
 */
int expo_set_histogram(struct expo_set *s, struct expo_metric *m,
		       unsigned int n, const double *le, const uint64_t *bucket,
		       struct expo_num sum, uint64_t count);

/*
 * expo_render - S in FORMAT into *TEXT (malloc'd, NUL-terminated), its
 * length in *LEN. Families in the order they were added, each whole
 * (TYPE, UNIT in OpenMetrics, HELP, then its metrics in the order they
 * were added); a family without metrics is left out. OpenMetrics ends
 * with "# EOF". Returns 0, or -1: S holds a mistake, or no memory (S says
 * so).
 */
int expo_render(struct expo_set *s, enum expo_format format, char **text,
		size_t *len);

/*
 * expo_canonical - V as OpenMetrics' canonical numbers write "le": Go's
 * shortest %g (an exponent below 1e-4 and from 1e+06 on, at least two
 * exponent digits) with ".0" added to an integer; +Inf, -Inf, NaN.
 */
void expo_canonical(double v, char *buf, size_t len);

/* expo_content_type - the Content-Type of FORMAT. */
const char *expo_content_type(enum expo_format format);

#endif /* MLX5_DIAG_EXPOSITION_H */
