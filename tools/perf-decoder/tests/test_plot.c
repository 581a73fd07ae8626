// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `mlx5-diag plot` (mlx5-diag/plot.h): the per-column
 * reduction against a brute-force one; a recording of a known model drawn
 * as PNG and read back with cairo, each lane's ink column by column at
 * exactly the rows of the model's minimum and maximum there, loss and end
 * marks where the recording has them, CPU lanes where the tasks ran, the
 * same picture from a perf.data; the PDF read by poppler's pdfinfo; the
 * labels' units; the picture on standard output; exit statuses.
 * Given a directory (argv[1]), it leaves the model's PNG, SVG and PDF
 * there for tests/plot-viewers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cairo/cairo.h>
#include <linux/mlx5_diag.h>

#include "cli.h"
#include "data_ids.h"
#include "file.h"
#include "metrics.h"
#include "perfdata_writer.h"
#include "plot.h"
#include "run.h"
#include "runner.h"
#include "sched_writer.h"
#include "sink_check.h"
#include "stream_writer.h"

static char dir[] = "/tmp/mlx5diag-plot-test.XXXXXX";

/* Run `mlx5-diag plot -q ARGS...` (NULL-terminated): its status. */
static int run_plot(const char *a, ...)
{
	char *argv[24];
	int argc = 0;
	va_list ap;

	argv[argc++] = "plot";
	argv[argc++] = "-q";
	va_start(ap, a);
	for (const char *s = a; s && argc < 23; s = va_arg(ap, const char *))
		argv[argc++] = (char *)s;
	va_end(ap);
	argv[argc] = NULL;
	return cmd_plot(argc, argv);
}

/* ---- the model: recording A ---- */

/*
 * 20,000 samples, 100 us apart, of port 1's received bytes (a counter,
 * 1,000,000 bytes a sample, 10 GB/s, in the high phases, none in the low)
 * and PCIe link 1's largest read latency (a statistic: 9000 + seq % 100 ns
 * high, 500 + seq % 100 low); samples 12,000 to 12,009 lost; the run
 * ends. Device time (RTC) D0 + seq * 100 us is perf time P0 + seq * 100 us.
 */
#define A_N		20000u
#define A_STEP		100000ull
#define A_D0		1000000000000ull
#define A_P0		5000000000000ull
#define A_LOST_FIRST	12000u
#define A_LOST_N	10u
#define A_RX_ID		0x1020000100000001ull
#define A_LAT_ID	0x1160000d00000001ull
#define A_WIDTH		1148u		/* 1024 columns of data */

static int a_high(uint64_t seq)
{
	return (seq >= 5000 && seq < 10000) || seq >= 15000;
}

static int a_lost(uint64_t seq)
{
	return seq >= A_LOST_FIRST && seq < A_LOST_FIRST + A_LOST_N;
}

static uint64_t a_lat(uint64_t seq)
{
	return (a_high(seq) ? 9000 : 500) + seq % 100;
}

/* The bytes counted up to and with sample SEQ. */
static uint64_t a_rx(uint64_t seq)
{
	static uint64_t sum[A_N];

	if (!sum[A_N - 1])
		for (uint64_t k = 1; k < A_N; k++)
			sum[k] = sum[k - 1] + (a_high(k) ? 1000000 : 0);
	return sum[seq];
}

/* Samples FIRST..FIRST+NR-1 of the model, values patched in. */
static void a_samples(struct stream *s, uint64_t first, uint32_t nr, uint64_t *rx)
{
	static const uint64_t ids[] = { A_RX_ID, A_LAT_ID };
	struct stream_samples d = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 2, .ids = ids, .first_seq = first, .nr = nr,
		.t0 = A_D0 + first * A_STEP, .t_step = A_STEP,
	};
	size_t off = stream_samples(s, &d);

	for (uint32_t k = 0; k < nr; k++) {
		size_t smp = off + sizeof(struct mlx5_diag_rec_samples) + k * 32;

		if (first + k && a_high(first + k))
			*rx += 1000000;
		stream_put64(s, smp + 16, *rx);
		stream_put64(s, smp + 24, a_lat(first + k));
	}
}

static void a_stream(struct stream *s)
{
	static const uint64_t ids[] = { A_RX_ID, A_LAT_ID };
	static const uint8_t vclass[] = {
		MLX5_DIAG_VCLASS_COUNTER, MLX5_DIAG_VCLASS_STAT_MAX,
	};
	struct stream_session run = {
		.run = 0, .out_format = MLX5_DIAG_FORMAT_1,
		.ts_source = MLX5_DIAG_TS_RTC, .num_ids = 2, .ids = ids,
		.vclass = vclass, .period_ns = A_STEP, .identifier = "0000:08:00.0",
	};
	uint64_t rx = 0, seq;

	stream_init(s);
	stream_session(s, &run);
	stream_time(s, MLX5_DIAG_TS_RTC, A_D0 - 1000, A_P0 - 1000, 0);
	stream_time(s, MLX5_DIAG_TS_RTC, A_D0, A_P0, 0);
	for (seq = 0; seq < A_N; seq += 100) {
		if (seq == A_LOST_FIRST) {
			/* the lost samples' bytes were counted all the same */
			for (uint64_t k = seq; k < seq + A_LOST_N; k++)
				rx += a_high(k) ? 1000000 : 0;
			stream_lost(s, A_LOST_FIRST, A_LOST_N,
				    MLX5_DIAG_LOST_FW_OVERWRITE);
			a_samples(s, seq + A_LOST_N, 100 - A_LOST_N, &rx);
			continue;
		}
		a_samples(s, seq, 100, &rx);
	}
	stream_end(s, A_N, MLX5_DIAG_END_STOPPED);
}

/* What the plot draws of sample SEQ in lane LANE: 0 and *V, or -1. */
static int a_value(unsigned int lane, uint64_t seq, double *v)
{
	uint64_t prev = seq - 1;

	if (a_lost(seq) || seq >= A_N)
		return -1;
	if (lane == 1) {
		*v = (double)a_lat(seq);
		return 0;
	}
	if (!seq)
		return -1;
	while (a_lost(prev))
		prev--;
	*v = (double)(a_rx(seq) - a_rx(prev)) * 1e9 / (double)((seq - prev) * A_STEP);
	return 0;
}

/* ---- the reduction ---- */

/* A brute-force reduction of times T[] and values V[] (N) on W columns. */
struct brute {
	unsigned int shift, used;
	uint64_t base;
	struct plot_cell cells[1024];
};

/* Value V into cell C. */
static void brute_put(struct plot_cell *c, double v)
{
	if (!c->n || v < c->min)
		c->min = v;
	if (!c->n || v > c->max)
		c->max = v;
	c->sum += v;
	c->n++;
}

/* The cells of values V[] at times T[] (N) on B's columns. */
static void brute_cells(struct brute *b, const uint64_t *t, const double *v,
			size_t n)
{
	memset(b->cells, 0, sizeof(b->cells));
	for (size_t i = 0; i < n; i++)
		brute_put(&b->cells[(t[i] >> b->shift) - b->base], v[i]);
}

/* Columns of [LO, HI) in W equal parts, times T[] (N) inside it. */
static void brute_fixed(struct brute *b, const uint64_t *t, const double *v,
			size_t n, unsigned int w, uint64_t lo, uint64_t hi)
{
	memset(b->cells, 0, sizeof(b->cells));
	b->used = w;
	for (size_t i = 0; i < n; i++)
		if (t[i] >= lo && t[i] < hi)
			brute_put(&b->cells[(t[i] - lo) * w / (hi - lo)], v[i]);
}

/* Columns for times T[] (N): the shortest power of two that fits W. */
static void brute_adaptive(struct brute *b, const uint64_t *t, const double *v,
			   size_t n, unsigned int w)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < n; i++) {
		lo = t[i] < lo ? t[i] : lo;
		hi = t[i] > hi ? t[i] : hi;
	}
	while ((hi >> b->shift) - (lo >> b->shift) >= w)
		b->shift++;
	b->base = lo >> b->shift;
	b->used = (unsigned int)((hi >> b->shift) - b->base) + 1;
	brute_cells(b, t, v, n);
}

static int cells_equal(const struct plot_cell *a, const struct plot_cell *b)
{
	if (a->n != b->n)
		return 0;
	return !a->n || (a->min == b->min && a->max == b->max && a->sum == b->sum);
}

/*
 * Times in any order (a later stream's earlier samples too), integer
 * values (exact sums): each column holds exactly the values a brute-force
 * reduction puts there, after every doubling and move.
 */
static void reduce_matches_brute_force(void)
{
	enum { N = 5000, W = 300 };
	static uint64_t t[N];
	static double v[N];
	static struct brute b;
	struct plot_reduce r;
	uint64_t x = 88172645463325252ull;
	int lane, bad = 0;

	for (int i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* a run forward, then one that starts 3 s earlier */
		t[i] = i < N / 2 ? 7000000000ull + (uint64_t)i * 1000003 :
				   4000000000ull + (uint64_t)(i - N / 2) * 2000029;
		v[i] = (double)(x % 100000);
	}
	CHECK_INT(plot_reduce_init(&r, W), 0, "init");
	lane = plot_reduce_lane(&r);
	CHECK_INT(lane, 0, "first lane");
	for (int i = 0; i < N; i++) {
		long c = plot_reduce_column(&r, t[i]);

		CHECK(c >= 0 && c < W, "time %d: column %ld", i, c);
		if (c >= 0)
			plot_reduce_put(&r, (unsigned int)lane, (unsigned int)c, v[i]);
	}
	brute_adaptive(&b, t, v, N, W);
	CHECK_INT(r.shift, b.shift, "ns a column, as a power of two");
	CHECK_U64(r.base, b.base, "the first column's time index");
	CHECK_INT(plot_reduce_columns(&r), b.used, "columns used");
	CHECK(b.used > W / 2, "the times fill more than half the columns (%u)", b.used);
	for (unsigned int c = 0; c < b.used && bad < 5; c++) {
		const struct plot_cell *got = plot_reduce_cell(&r, 0, c);

		if (!cells_equal(got, &b.cells[c])) {
			bad++;
			CHECK(0, "column %u: got n %" PRIu64 " min %g max %g sum %g, want "
			      "n %" PRIu64 " min %g max %g sum %g", c, got->n, got->min,
			      got->max, got->sum, b.cells[c].n, b.cells[c].min,
			      b.cells[c].max, b.cells[c].sum);
		}
	}
	for (unsigned int c = 0; c < b.used; c++) {
		uint64_t s, e;

		plot_reduce_time(&r, c, &s, &e);
		CHECK(plot_reduce_find(&r, s) == (long)c && plot_reduce_find(&r, e - 1) ==
		      (long)c, "column %u holds its times [%" PRIu64 ", %" PRIu64 ")",
		      c, s, e);
	}
	plot_reduce_free(&r);
}

/* --from/--to: [LO, HI) cut in WIDTH equal parts, nothing outside. */
static void reduce_fixed_window(void)
{
	const uint64_t lo = 1000000000, hi = 1100000000;
	struct plot_reduce r;
	uint64_t s, e;
	long c;

	plot_reduce_init(&r, 1024);
	plot_reduce_window(&r, lo, hi);
	CHECK_INT(plot_reduce_lane(&r), 0, "lane");
	CHECK_INT(plot_reduce_column(&r, lo - 1), -1, "before the window");
	CHECK_INT(plot_reduce_column(&r, hi), -1, "at its end");
	CHECK_INT(plot_reduce_column(&r, lo), 0, "its start");
	CHECK_INT(plot_reduce_column(&r, hi - 1), 1023, "its last ns");
	/* 100 ms in 1024 columns: 97656.25 ns each */
	CHECK_INT(plot_reduce_column(&r, lo + 97656), 0, "column 0's last ns");
	CHECK_INT(plot_reduce_column(&r, lo + 97657), 1, "column 1's first");
	CHECK_INT(plot_reduce_columns(&r), 1024, "every column drawn");
	plot_reduce_time(&r, 1, &s, &e);
	CHECK_U64(s, lo + 97657, "column 1 starts");
	CHECK_U64(e, lo + 195313, "column 1 ends");
	for (uint64_t t = lo; t < hi; t += 9973) {
		c = plot_reduce_column(&r, t);
		plot_reduce_time(&r, (unsigned int)c, &s, &e);
		CHECK(t >= s && t < e, "%" PRIu64 " in its column %ld [%" PRIu64 ", %"
		      PRIu64 ")", t, c, s, e);
	}
	plot_reduce_free(&r);
}

/* ---- the PNG ---- */

struct png {
	cairo_surface_t *s;
	unsigned char *data;
	int stride, w, h;
};

static int png_open(struct png *p, const char *path)
{
	p->s = cairo_image_surface_create_from_png(path);
	if (cairo_surface_status(p->s)) {
		CHECK(0, "%s: %s", path, cairo_status_to_string(cairo_surface_status(p->s)));
		cairo_surface_destroy(p->s);
		return -1;
	}
	cairo_surface_flush(p->s);
	p->data = cairo_image_surface_get_data(p->s);
	p->stride = cairo_image_surface_get_stride(p->s);
	p->w = cairo_image_surface_get_width(p->s);
	p->h = cairo_image_surface_get_height(p->s);
	return 0;
}

static uint32_t px(const struct png *p, unsigned int x, unsigned int y)
{
	uint32_t v;

	memcpy(&v, p->data + (size_t)y * p->stride + (size_t)x * 4, 4);
	return v & 0xffffff;
}

/* The rows of B in pixels [X0, X1) of colour A or B: top and bottom, or -1. */
static void ink(const struct png *p, const struct plot_box *b, unsigned int x0,
		unsigned int x1, uint32_t a, uint32_t c, int *top, int *bottom)
{
	*top = *bottom = -1;
	for (unsigned int y = b->y; y < b->y + b->h; y++)
		for (unsigned int x = x0; x < x1; x++) {
			uint32_t v = px(p, x, y);

			if (v != a && v != c)
				continue;
			if (*top < 0)
				*top = (int)y;
			*bottom = (int)y;
		}
}

/* Any pixel of colour C in B's pixels [X0, X1). */
static int has(const struct png *p, const struct plot_box *b, unsigned int x0,
	       unsigned int x1, uint32_t c)
{
	int top, bottom;

	ink(p, b, x0, x1, c, c, &top, &bottom);
	return top >= 0;
}

/*
 * The reduction of model A's samples as the sink makes it: adaptive, or
 * fixed on [FROM, TO) s after the first sample; checked against a
 * brute-force one.
 */
static void a_reduce(struct plot_reduce *r, double from, double to)
{
	static uint64_t t[2][A_N];
	static double v[2][A_N];
	static struct brute b;
	size_t n[2] = { 0, 0 };

	plot_reduce_init(r, plot_data_width(A_WIDTH));
	if (to > 0)
		plot_reduce_window(r, A_P0 + (uint64_t)(from * 1e9),
				   A_P0 + (uint64_t)(to * 1e9));
	plot_reduce_lane(r);
	plot_reduce_lane(r);
	for (uint64_t seq = 0; seq < A_N; seq++) {
		uint64_t time = A_P0 + seq * A_STEP;
		long c;

		if (a_lost(seq))
			continue;
		c = plot_reduce_column(r, time);
		for (unsigned int l = 0; l < 2; l++) {
			double val;

			if (a_value(l, seq, &val))
				continue;
			if (c >= 0)
				plot_reduce_put(r, l, (unsigned int)c, val);
			t[l][n[l]] = time;
			v[l][n[l]++] = val;
		}
	}
	/* the statistic from sample 0 sets the columns, the rates start at 1 */
	if (to > 0)
		brute_fixed(&b, t[1], v[1], n[1], r->width, r->lo, r->hi);
	else
		brute_adaptive(&b, t[1], v[1], n[1], r->width);
	CHECK_INT(plot_reduce_columns(r), b.used, "model A's columns");
	for (unsigned int l = 2; l-- > 0;) {
		if (l == 0 && to > 0)
			brute_fixed(&b, t[0], v[0], n[0], r->width, r->lo, r->hi);
		else if (l == 0)
			brute_cells(&b, t[0], v[0], n[0]);
		for (unsigned int c = 0; c < b.used; c++)
			CHECK(cells_equal(plot_reduce_cell(r, l, c), &b.cells[c]),
			      "model A's lane %u: column %u", l, c);
	}
}

/* The column of perf time T in R (which holds it). */
static unsigned int col_of(const struct plot_reduce *r, uint64_t t)
{
	return (unsigned int)plot_reduce_find(r, t);
}

/*
 * Lane L of the PNG: in every column with samples, ink from exactly the
 * row of their maximum to that of their minimum, as the reduction of the
 * model (R) has them. Returns how many columns had samples.
 */
static unsigned int check_extremes(const struct png *p, const struct plot_geom *g,
				   const struct plot_reduce *r, unsigned int l)
{
	unsigned int n = plot_reduce_columns(r), x0, x1, with = 0, bad = 0;
	struct plot_box d, m;
	double lo, hi;
	int top, bottom;

	plot_lane_box(g, l, &d, &m);
	plot_lane_range(r, l, &lo, &hi);
	for (unsigned int c = 0; c < n && bad < 5; c++) {
		const struct plot_cell *cell = plot_reduce_cell(r, l, c);

		plot_column_span(&d, n, c, &x0, &x1);
		if (!cell->n)
			continue;
		with++;
		ink(p, &d, x0, x1, plot_lane_rgb(l, 1), plot_lane_rgb(l, 0), &top,
		    &bottom);
		if (top != (int)plot_value_row(&d, lo, hi, cell->max) ||
		    bottom != (int)plot_value_row(&d, lo, hi, cell->min)) {
			bad++;
			CHECK(0, "lane %u column %u (pixels %u..%u): ink rows %d..%d, "
			      "want %u (max %g) .. %u (min %g)", l, c, x0, x1 - 1, top,
			      bottom, plot_value_row(&d, lo, hi, cell->max), cell->max,
			      plot_value_row(&d, lo, hi, cell->min), cell->min);
		}
	}
	return with;
}

static void a_write(const char *name)
{
	struct stream s;

	a_stream(&s);
	recording_write(path_in(dir, name), s.buf, s.len, 4096);
	stream_free(&s);
}

/*
 * Model A as PNG: the lanes' ink in every column at exactly the rows of
 * the model's min and max there; the bytes lane high (at 10 GB/s) where
 * the model is and at its floor only where it is not; a loss mark at the
 * column of the first sample after the loss and nowhere else; the end
 * mark at the last sample's column.
 */
static void png_follows_the_model(void)
{
	static struct plot_reduce r;
	struct plot_box d, m;
	struct plot_geom g;
	struct png p;
	char err[256], width[16];
	double lo, hi;
	unsigned int n, c, x0, x1, high = 0, low = 0, lost_col, end_col;

	a_write("a.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "-o", path_in(dir, "a.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_OK, "plot to PNG");
	if (png_open(&p, path_in(dir, "a.png")))
		return;
	CHECK_INT(plot_geometry(&g, A_WIDTH, 0, 2, 0, err, sizeof(err)), 0, err);
	CHECK_INT(p.w, A_WIDTH, "PNG width");
	CHECK_INT(p.h, g.height, "PNG height");
	a_reduce(&r, 0, 0);
	n = plot_reduce_columns(&r);
	/* 2 s in at most 1024 columns: 2^21 ns each */
	CHECK_INT(r.shift, 21, "column length");
	CHECK_INT(check_extremes(&p, &g, &r, 0), n, "rx columns with samples");
	CHECK_INT(check_extremes(&p, &g, &r, 1), n, "latency columns with samples");

	plot_lane_box(&g, 0, &d, &m);
	plot_lane_range(&r, 0, &lo, &hi);
	CHECK(lo == 0 && hi == 1e10, "rx range %g..%g, want 0..1e10", lo, hi);
	for (c = 0; c < n; c++) {
		uint64_t s, e;
		int top, bottom, all_high = 1, all_low = 1;

		plot_reduce_time(&r, c, &s, &e);
		for (uint64_t seq = s > A_P0 ? (s - A_P0 + A_STEP - 1) / A_STEP : 0;
		     A_P0 + seq * A_STEP < e && seq < A_N; seq++) {
			if (!seq || a_lost(seq))
				continue;
			all_high &= a_high(seq);
			all_low &= !a_high(seq);
		}
		plot_column_span(&d, n, c, &x0, &x1);
		ink(&p, &d, x0, x1, plot_lane_rgb(0, 1), plot_lane_rgb(0, 0), &top,
		    &bottom);
		if (all_high) {
			high++;
			CHECK(top == (int)d.y && bottom == (int)d.y, "column %u, all "
			      "high: ink %d..%d, want the top row %u only", c, top,
			      bottom, d.y);
		}
		if (all_low) {
			low++;
			CHECK(top == (int)(d.y + d.h - 1) && bottom == top, "column %u, "
			      "all low: ink %d..%d, want the bottom row %u only", c, top,
			      bottom, d.y + d.h - 1);
		}
	}
	CHECK(high > 400 && low > 400, "columns all high %u, all low %u", high, low);

	lost_col = col_of(&r, A_P0 + (A_LOST_FIRST + A_LOST_N) * A_STEP);
	end_col = col_of(&r, A_P0 + (A_N - 1) * A_STEP);
	for (unsigned int l = 0; l < 2; l++) {
		plot_lane_box(&g, l, &d, &m);
		for (c = 0; c < n; c++) {
			plot_column_span(&m, n, c, &x0, &x1);
			CHECK(has(&p, &m, x0, x1, PLOT_LOST_RGB) == (c == lost_col),
			      "lane %u column %u: a loss mark %s", l, c,
			      c == lost_col ? "missing" : "where none was lost");
			CHECK(has(&p, &m, x0, x1, PLOT_END_RGB) == (c == end_col),
			      "lane %u column %u: an end mark %s", l, c,
			      c == end_col ? "missing" : "where the run goes on");
		}
	}
	cairo_surface_destroy(p.s);
	plot_reduce_free(&r);
}

/*
 * --from 0.5 --to 0.6 (samples 5000 to 5999): 1024 columns of 97,656.25
 * ns, one sample in most, none in about one in 40: the samples' columns
 * at exactly their rows, and the high phase from its first sample on.
 */
static void png_zoom(void)
{
	static struct plot_reduce r;
	struct plot_geom g;
	struct png p;
	char err[256], width[16];
	unsigned int with;

	a_write("a.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "--from", "500ms", "--to", "0.6",
			   "-o", path_in(dir, "zoom.png"), path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_OK, "plot --from --to");
	if (png_open(&p, path_in(dir, "zoom.png")))
		return;
	CHECK_INT(plot_geometry(&g, A_WIDTH, 0, 2, 0, err, sizeof(err)), 0, err);
	a_reduce(&r, 0.5, 0.6);
	CHECK_INT(plot_reduce_columns(&r), 1024, "columns");
	with = check_extremes(&p, &g, &r, 0);
	CHECK_INT(with, 1000, "rx columns with a sample");
	CHECK_INT(check_extremes(&p, &g, &r, 1), 1000, "latency columns");
	cairo_surface_destroy(p.s);
	plot_reduce_free(&r);
}

/*
 * Model A in a perf.data (mlx5_diag_0 on CPU 1, its AUX stream in
 * AUXTRACE events of 64 KiB), file and pipe mode: the same picture as
 * from the recording, pixel for pixel.
 */
static void perf_data_same_picture(void)
{
	struct pdw_attr attr = {
		.type = 42, .config = A_RX_ID, .sample_type = 0x10087,
		.ids = { 100 }, .nr_ids = 1, .name = "mlx5_diag_0//",
	};
	static const struct pdw_session session[] = { { 42, 1 } };
	struct png want, got;
	char width[16];
	struct stream s;
	struct pdw w;

	a_write("a.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "-o", path_in(dir, "a.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_OK, "the recording");
	if (png_open(&want, path_in(dir, "a.png")))
		return;
	a_stream(&s);
	for (int pipe = 0; pipe < 2; pipe++) {
		pdw_init(&w, pipe);
		pdw_add_attr(&w, &attr);
		pdw_add_pmu(&w, 42, "mlx5_diag_0");
		pdw_auxtrace_info(&w, 7, MLX5_DIAG_ABI_VERSION, 0, session, 1);
		pdw_aux_stream(&w, 1, 1, s.buf, s.len, 65536);
		pdw_write(&w, path_in(dir, "a.data"));
		pdw_free(&w);
		CHECK_INT(run_plot("--width", width, "-o", path_in(dir, "p.png"),
				   path_in(dir, "a.data"), NULL), ERR_EXIT_OK,
			  pipe ? "perf.data, pipe mode" : "perf.data");
		if (png_open(&got, path_in(dir, "p.png")))
			continue;
		CHECK(got.w == want.w && got.h == want.h && got.stride == want.stride &&
		      !memcmp(got.data, want.data, (size_t)want.stride * want.h),
		      "%s: the recording's picture", pipe ? "pipe mode" : "file mode");
		cairo_surface_destroy(got.s);
	}
	stream_free(&s);
	cairo_surface_destroy(want.s);
}

/* ---- CPU lanes ---- */

/*
 * Model A recorded with --tracepoint sched:sched_switch: on CPU 0 "burner"
 * runs from 0.25 s to 0.75 s, on CPU 2 "kworker" from 0.5 s on.
 */
static void b_write(const char *name)
{
	char *format = sched_format();
	struct mdf_meta_buf m = { 0 };
	struct mdf_writer w;
	uint8_t perf[4 * 128];
	struct stream s;
	size_t n = 0;

	if (mdf_writer_open(&w, path_in(dir, name)))
		abort();
	sched_meta_add(&m, format);
	if (mdf_meta_add(&m, "sample_id", "1000 tracepoint=0 cpu=0") ||
	    mdf_meta_add(&m, "sample_id", "1002 tracepoint=0 cpu=2") ||
	    mdf_write_chunk(&w, MDF_CHUNK_META, m.text, m.len))
		abort();
	mdf_meta_buf_free(&m);
	n += sched_switch_sample(perf + n, S_TYPE_OWN, 1000, A_P0 + 250000000, 0,
				 "swapper/0", 0, 0, "burner", 42);
	n += sched_switch_sample(perf + n, S_TYPE_OWN, 1002, A_P0 + 500000000, 2,
				 "swapper/2", 0, 0, "kworker/2:1", 77);
	n += sched_switch_sample(perf + n, S_TYPE_OWN, 1000, A_P0 + 750000000, 0,
				 "burner", 42, 0, "swapper/0", 0);
	a_stream(&s);
	if (mdf_write_chunk(&w, MDF_CHUNK_AUX, s.buf, s.len) ||
	    mdf_write_chunk(&w, MDF_CHUNK_PERF, perf, n) || mdf_writer_close(&w))
		abort();
	stream_free(&s);
	free(format);
}

/*
 * --cpus: a lane for CPUs 0 and 2; in each column the colour of the task
 * that ran, as high as the CPU was busy (whole columns: the full height),
 * nothing where the idle task ran.
 */
static void png_cpu_lanes(void)
{
	static struct plot_reduce r;
	uint32_t burner = plot_task_rgb("burner"), kworker = plot_task_rgb("kworker/2:1");
	struct plot_box b;
	struct plot_geom g;
	struct png p;
	char err[256], width[16];
	unsigned int n, c, x0, x1, full[2] = { 0, 0 };

	b_write("b.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "--cpus", "-o", path_in(dir, "b.png"),
			   path_in(dir, "b.mlx5diag"), NULL), ERR_EXIT_OK, "plot --cpus");
	if (png_open(&p, path_in(dir, "b.png")))
		return;
	CHECK_INT(plot_geometry(&g, A_WIDTH, 0, 2, 2, err, sizeof(err)), 0, err);
	CHECK_INT(p.h, g.height, "PNG height with two CPU lanes");
	a_reduce(&r, 0, 0);
	n = plot_reduce_columns(&r);
	for (unsigned int l = 0; l < 2; l++) {
		uint64_t from = A_P0 + (l ? 500000000 : 250000000);
		uint64_t to = l ? UINT64_MAX : A_P0 + 750000000;
		uint32_t colour = l ? kworker : burner;

		plot_cpu_box(&g, l, &b);
		for (c = 0; c < n; c++) {
			uint64_t s, e;
			int top, bottom;

			plot_reduce_time(&r, c, &s, &e);
			plot_column_span(&b, n, c, &x0, &x1);
			ink(&p, &b, x0, x1, colour, colour, &top, &bottom);
			if (s >= from && e <= to) {
				full[l]++;
				CHECK(top == (int)b.y && bottom == (int)(b.y + b.h - 1),
				      "cpu lane %u column %u: ran all along, ink %d..%d",
				      l, c, top, bottom);
			} else if (e <= from || s >= to) {
				CHECK(top < 0, "cpu lane %u column %u: idle, ink at %d",
				      l, c, top);
			}
		}
	}
	/* whole 2,097,152 ns columns in 0.25..0.75 s and from 0.5 s to the end */
	CHECK_INT(full[0], 237, "whole columns of burner");
	CHECK_INT(full[1], 715, "whole columns of kworker");
	cairo_surface_destroy(p.s);
	plot_reduce_free(&r);
}

/* ---- PDF and SVG ---- */

/* The text OUT of running CMD (4 KiB at most); its exit status. */
static int run_cmd(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	return pclose(f);
}

/* The PDF, read by poppler's pdfinfo: one page, the picture's size. */
static void pdf_one_page(void)
{
	struct plot_geom g;
	char out[4096], cmd[700], err[256], width[16];
	const char *pages, *size;
	unsigned int n = 0, w = 0, h = 0;

	a_write("a.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "-o", path_in(dir, "a.pdf"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_OK, "plot to PDF");
	snprintf(cmd, sizeof(cmd), "pdfinfo %s 2>&1", path_in(dir, "a.pdf"));
	CHECK_INT(run_cmd(cmd, out, sizeof(out)), 0, "pdfinfo (poppler-utils) reads it");
	pages = strstr(out, "\nPages:");
	size = strstr(out, "\nPage size:");
	CHECK(pages && sscanf(pages, "\nPages: %u", &n) == 1 && n == 1,
	      "one page:\n%s", out);
	plot_geometry(&g, A_WIDTH, 0, 2, 0, err, sizeof(err));
	CHECK(size && sscanf(size, "\nPage size: %u x %u pts", &w, &h) == 2 &&
	      w == g.width && h == g.height, "a page of %u x %u pts:\n%s", g.width,
	      g.height, out);
}

/* The SVG: an SVG document of the picture's size, in points. */
static void svg_document(void)
{
	struct plot_geom g;
	char err[256], want[160], width[16], *svg;

	a_write("a.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "-o", path_in(dir, "a.svg"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_OK, "plot to SVG");
	svg = slurp(path_in(dir, "a.svg"));
	plot_geometry(&g, A_WIDTH, 0, 2, 0, err, sizeof(err));
	snprintf(want, sizeof(want), "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		 "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%upt\" "
		 "height=\"%upt\"", g.width, g.height);
	CHECK(!strncmp(svg, "<?xml", 5) && strstr(svg, want), "want %s in:\n%.300s",
	      want, svg);
	free(svg);
}

/* ---- labels, units, rates ---- */

static void labels_in_natural_units(void)
{
	static const struct {
		double v, ref;
		enum plot_unit unit;
		int rate;
		const char *want;
	} cases[] = {
		{ 1.5e9, 2e9, PLOT_UNIT_BYTES, 1, "1.5 GB/s" },
		{ 1e10, 1e10, PLOT_UNIT_BYTES, 1, "10 GB/s" },
		{ 2500, 4000, PLOT_UNIT_BYTES, 1, "2.5 KB/s" },
		{ 512, 512, PLOT_UNIT_BYTES, 0, "512 B" },
		{ 250000, 500000, PLOT_UNIT_NS, 0, "250 us" },
		{ 9000, 10000, PLOT_UNIT_NS, 0, "9 us" },
		{ 350e6, 5e8, PLOT_UNIT_NS, 1, "350 ms/s" },
		{ 350e6, 1e9, PLOT_UNIT_NS, 1, "0.35 s/s" },
		{ 1.2e9, 1.2e9, PLOT_UNIT_NS, 1, "1.2 s/s" },
		{ 40, 40, PLOT_UNIT_NS, 0, "40 ns" },
		{ 3000, 3000, PLOT_UNIT_COUNT, 1, "3 K/s" },
		{ 0.5, 0.5, PLOT_UNIT_COUNT, 1, "0.5 /s" },
		{ 12, 12, PLOT_UNIT_COUNT, 0, "12" },
		{ 4.5e6, 6e6, PLOT_UNIT_COUNT, 0, "4.5 M" },
		{ 0, 6e6, PLOT_UNIT_BYTES, 1, "0" },
		{ 0.97531, 1, PLOT_UNIT_NONE, 0, "0.9753" },
		{ -0.0, 1, PLOT_UNIT_NONE, 0, "0" },	/* a range's floor */
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		plot_format_value(cases[i].v, cases[i].ref, cases[i].unit,
				  cases[i].rate, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].want, "label");
	}
	CHECK_INT(data_id_unit(A_RX_ID), DATA_KIND_UNIT_BYTES, "port rx bytes");
	CHECK_INT(data_id_unit(0x1160000500000001ull), DATA_KIND_UNIT_NS,
		  "PCIe write stall ns");
	CHECK_INT(data_id_unit(0x1160000c00000001ull), DATA_KIND_UNIT_COUNT,
		  "read packets: events");
	CHECK_INT(data_id_unit(0x7777000000000000ull), DATA_KIND_UNIT_UNKNOWN,
		  "an unknown kind");
}

/*
 * A counter's rate: 32-bit wrap in format 2, the period under sync+clear,
 * none without a positive interval.
 */
static void counter_rates(void)
{
	struct column col = {
		.value = 0x10, .dev_time = 2000, .prev_value = 0xfffffff0,
		.prev_dev_time = 1000,
	};
	struct run r;
	double v = 0;

	memset(&r, 0, sizeof(r));
	r.session.ts_source = MLX5_DIAG_TS_RTC;
	r.session.out_format = MLX5_DIAG_FORMAT_2;
	CHECK_INT(metrics_column_rate(&r, &col, &v), -1, "no previous sample");
	r.have_prev = 1;
	CHECK_INT(metrics_column_rate(&r, &col, &v), 0, "format 2");
	CHECK(v == 0x20 * 1e6, "0x20 in 1000 ns: %g", v);
	r.session.ts_source = MLX5_DIAG_TS_FRC;
	r.session.freq_khz = 500000;
	col.prev_value = 0;
	col.value = 1000;
	CHECK_INT(metrics_column_rate(&r, &col, &v), 0, "FRC");
	CHECK(v == 1000 * 1e9 / 2000, "1000 in 1000 clocks of 2 ns: %g", v);
	r.session.clear = 1;
	r.session.sync = 1;
	r.session.period_ns_actual = 4000;
	r.have_prev = 0;
	CHECK_INT(metrics_column_rate(&r, &col, &v), 0, "clear and sync");
	CHECK(v == 1000 * 1e9 / 4000, "1000 a period of 4000 ns: %g", v);
	col.dev_time = col.prev_dev_time;
	r.session.sync = 0;
	r.have_prev = 1;
	CHECK_INT(metrics_column_rate(&r, &col, &v), -1, "no time between the samples");
	col.dev_time = col.prev_dev_time - 1;
	CHECK_INT(metrics_column_rate(&r, &col, &v), -1, "a device time going back");
	col.dev_time = col.prev_dev_time + 1000;
	r.session.freq_khz = 0;
	CHECK_INT(metrics_column_rate(&r, &col, &v), -1, "FRC without a frequency");
}

/* ---- the command ---- */

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void bad_input_is_refused(void)
{
	struct stream s;
	char *before;
	FILE *f;

	a_write("a.mlx5diag");
	CHECK_INT(run_plot("-o", path_in(dir, "x.gif"), path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_USAGE, "an unknown extension");
	CHECK_INT(run_plot("--ids", "0x1020000100000002", "-o", path_in(dir, "x.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE,
		  "--ids not in the recording");
	CHECK(!exists(path_in(dir, "x.png")), "nothing written for a refused plot");
	CHECK_INT(run_plot("--ids", "port_1_rx_bytes,", "-o", path_in(dir, "x.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE, "--ids a,");
	CHECK_INT(run_plot("--from", "1", "--to", "0.5", path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_USAGE, "--to before --from");
	CHECK_INT(run_plot("--from", "-1", path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_USAGE, "--from negative");
	CHECK_INT(run_plot("--from", "5", "-o", path_in(dir, "x.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE,
		  "--from after the end");
	CHECK_INT(run_plot("--width", "299", path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_USAGE, "--width too small");
	CHECK_INT(run_plot("--height", "120", "-o", path_in(dir, "x.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE,
		  "--height too small for two lanes");
	CHECK_INT(run_plot("--cpus", "-o", path_in(dir, "x.png"), path_in(dir, "a.mlx5diag"),
			   NULL), ERR_EXIT_USAGE, "--cpus without sched_switch");
	CHECK_INT(run_plot("-o", path_in(dir, "x.png"), path_in(dir, "missing"), NULL),
		  ERR_EXIT_FILE, "no recording");
	CHECK(!exists(path_in(dir, "x.png")), "nothing written for a missing recording");
	CHECK_INT(run_plot("-o", path_in(dir, "nodir/x.png"), path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_OUTPUT, "an output that cannot be created");
	CHECK_INT(run_plot("-o", path_in(dir, "a.mlx5diag"), path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_USAGE, "not a picture's name");
	CHECK_INT(run_plot(path_in(dir, "a.mlx5diag"), path_in(dir, "a.mlx5diag"), NULL),
		  ERR_EXIT_USAGE, "two recordings");
	CHECK_INT(run_plot("--bogus", path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE,
		  "an unknown option");

	/* an existing picture stays when the new one fails */
	f = fopen(path_in(dir, "keep.png"), "w");
	fputs("old picture", f);
	fclose(f);
	CHECK_INT(run_plot("--ids", "nothing", "-o", path_in(dir, "keep.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE, "--ids nothing");
	before = slurp(path_in(dir, "keep.png"));
	CHECK_STR(before, "old picture", "the old picture kept");
	free(before);

	/* a recording named .png is not overwritten by its own picture */
	rename(path_in(dir, "a.mlx5diag"), path_in(dir, "rec.png"));
	CHECK_INT(chdir(dir), 0, "chdir");
	CHECK_INT(run_plot("rec.png", NULL), ERR_EXIT_OUTPUT,
		  "the default output is the recording");
	CHECK(chdir("/") == 0, "chdir /");

	/* a recording of no samples */
	stream_init(&s);
	stream_session(&s, &(struct stream_session){
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 1, .ids = (const uint64_t[]){ A_RX_ID },
		.period_ns = A_STEP, .identifier = "0000:08:00.0" });
	stream_end(&s, 0, MLX5_DIAG_END_STOPPED);
	recording_write(path_in(dir, "empty.mlx5diag"), s.buf, s.len, 0);
	stream_free(&s);
	CHECK_INT(run_plot("-o", path_in(dir, "x.png"), path_in(dir, "empty.mlx5diag"), NULL),
		  ERR_EXIT_FILE, "nothing to plot");
	CHECK(!exists(path_in(dir, "x.png")), "nothing written for an empty recording");
}

/*
 * Two samples 10^16 ns (116 days) apart, --from just before the second:
 * one column of 1 ns, 10^7 s from the start, where t0 + 1 ns rounds to
 * t0 in a double (found by fuzz_plot.c: a tick step of 0, then the
 * number of decimals out of int's range). Drawn, in bounded time.
 */
static void far_from_the_start(void)
{
	static const uint64_t ids[] = { A_RX_ID };
	struct stream_session run = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 1, .ids = ids, .period_ns = 10000000000000000ull,
		.identifier = "0000:08:00.0",
	};
	struct stream_samples d = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 1, .ids = ids, .nr = 2, .t0 = A_D0,
		.t_step = 10000000000000000ull,
	};
	struct stream s;

	stream_init(&s);
	stream_session(&s, &run);
	stream_time(&s, MLX5_DIAG_TS_RTC, A_D0 - 1000, A_P0 - 1000, 0);
	stream_time(&s, MLX5_DIAG_TS_RTC, A_D0, A_P0, 0);
	stream_samples(&s, &d);
	stream_end(&s, 2, MLX5_DIAG_END_STOPPED);
	recording_write(path_in(dir, "far.mlx5diag"), s.buf, s.len, 0);
	stream_free(&s);
	CHECK_INT(run_plot("--from", "9999999.9", "-o", path_in(dir, "far.png"),
			   path_in(dir, "far.mlx5diag"), NULL), ERR_EXIT_OK,
		  "one column 10^7 s from the start");
}

/* The default output, --ids by name and number, --metrics, -di names. */
static void defaults_and_selection(void)
{
	struct png p;
	FILE *f;

	a_write("a.mlx5diag");
	CHECK_INT(chdir(dir), 0, "chdir");
	CHECK_INT(run_plot("a.mlx5diag", NULL), ERR_EXIT_OK, "plot RECORDING alone");
	CHECK(exists(path_in(dir, "a.png")), "RECORDING's name with .png");
	if (!png_open(&p, path_in(dir, "a.png"))) {
		CHECK_INT(p.w, 1600, "default width");
		cairo_surface_destroy(p.s);
	}
	CHECK_INT(run_plot("--ids", "0x1160000d00000001,port_1_rx_bytes",
			   "--metrics", "-o", "ids.png", "a.mlx5diag", NULL),
		  ERR_EXIT_OK, "--ids by number and by name");
	CHECK_INT(run_plot("--ids", "port_1_rx_bytes_GBps", "--metrics", "-o",
			   "m.png", "a.mlx5diag", NULL), ERR_EXIT_OK,
		  "--ids of a metric");
	CHECK_INT(run_plot("--ids", "port_1_rx_bytes_GBps", "-o", "m.png",
			   "a.mlx5diag", NULL), ERR_EXIT_USAGE,
		  "a metric without --metrics");
	/* names that are not UTF-8 are drawn, with '?' for what is not */
	f = fopen("names.json", "w");
	fputs("{\"data-ids\": [{\"name\": \"rx \xff\xc3(\xe2\x82\", "
	      "\"data_id\": \"0x1020000100000001\"}]}", f);
	fclose(f);
	CHECK_INT(run_plot("-di", "names.json", "-o", "names.png", "a.mlx5diag",
			   NULL), ERR_EXIT_OK, "a -di name that is not UTF-8");
	CHECK(chdir("/") == 0, "chdir /");
}

/* The bytes of file PATH: *LEN of them (free() them). */
static unsigned char *file_bytes(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)n + 1)) ||
	    fread(b, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* `mlx5-diag plot -q --width WIDTH --format FMT -o - a.mlx5diag` onto FD. */
static int plot_onto(int fd, const char *width, const char *fmt)
{
	int saved, status;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	status = run_plot("--width", width, "--format", fmt, "-o", "-",
			  path_in(dir, "a.mlx5diag"), NULL);
	if (dup2(saved, STDOUT_FILENO) < 0)
		abort();
	close(saved);
	return status;
}

/*
 * -o -: the picture on standard output in --format's format, the same
 * bytes as -o FILE writes, into a file and through a pipe (which cannot
 * be truncated); an SVG too. Refused: -o - without --format, a PNG for a
 * terminal, --format that is not png, svg or pdf or that -o FILE's
 * extension contradicts. --format alone names the default file.
 */
static void plot_to_stdout(void)
{
	unsigned char *want, *got = NULL;
	size_t want_len, got_len = 0, cap = 0;
	char width[16], *svg;
	int fd, p[2], status, pty;
	ssize_t n;
	pid_t pid;

	a_write("a.mlx5diag");
	snprintf(width, sizeof(width), "%u", A_WIDTH);
	CHECK_INT(run_plot("--width", width, "-o", path_in(dir, "file.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_OK, "-o FILE");
	want = file_bytes(path_in(dir, "file.png"), &want_len);

	fd = open(path_in(dir, "out.png"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK_INT(plot_onto(fd, width, "png"), ERR_EXIT_OK, "-o - into a file");
	close(fd);
	got = file_bytes(path_in(dir, "out.png"), &got_len);
	CHECK(got_len == want_len && !memcmp(got, want, want_len),
	      "-o - into a file: %zu bytes, -o FILE's %zu", got_len, want_len);
	free(got);

	if (pipe(p))
		abort();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		close(p[0]);
		_exit(plot_onto(p[1], width, "png"));
	}
	close(p[1]);
	got = NULL;
	got_len = 0;
	do {
		if (got_len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			got = realloc(got, cap);
			if (!got)
				abort();
		}
		n = read(p[0], got + got_len, cap - got_len);
		got_len += n > 0 ? (size_t)n : 0;
	} while (n > 0 || (n < 0 && errno == EINTR));
	close(p[0]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == ERR_EXIT_OK, "-o - into a pipe: status 0x%x",
	      status);
	CHECK(got_len == want_len && !memcmp(got, want, want_len),
	      "-o - into a pipe: %zu bytes, -o FILE's %zu", got_len, want_len);
	free(got);
	free(want);

	fd = open(path_in(dir, "out.svg"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK_INT(plot_onto(fd, width, "SVG"), ERR_EXIT_OK, "-o - --format SVG");
	close(fd);
	svg = slurp(path_in(dir, "out.svg"));
	CHECK(!strncmp(svg, "<?xml", 5) && strstr(svg, "<svg "), "an SVG: %.100s",
	      svg);
	free(svg);

	CHECK_INT(run_plot("-o", "-", path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE,
		  "-o - without --format");
	CHECK_INT(run_plot("--format", "gif", "-o", "-", path_in(dir, "a.mlx5diag"),
			   NULL), ERR_EXIT_USAGE, "--format gif");
	CHECK_INT(run_plot("--format", "svg", "-o", path_in(dir, "x.png"),
			   path_in(dir, "a.mlx5diag"), NULL), ERR_EXIT_USAGE,
		  "--format svg -o x.png");
	CHECK(access(path_in(dir, "x.png"), F_OK), "nothing written for a refused plot");
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	CHECK(pty >= 0 && !grantpt(pty) && !unlockpt(pty), "a terminal: %s",
	      strerror(errno));
	if (pty >= 0) {
		fd = open(ptsname(pty), O_RDWR | O_NOCTTY);
		CHECK(fd >= 0 && isatty(fd), "the terminal's slave");
		if (fd >= 0)
			CHECK_INT(plot_onto(fd, width, "png"), ERR_EXIT_USAGE,
				  "a PNG for a terminal");
		close(fd);
		close(pty);
	}

	CHECK_INT(chdir(dir), 0, "chdir");
	CHECK_INT(run_plot("--format", "pdf", "a.mlx5diag", NULL), ERR_EXIT_OK,
		  "--format pdf alone");
	CHECK(!access("a.pdf", F_OK), "RECORDING's name with .pdf");
	CHECK(chdir("/") == 0, "chdir /");
}

/* The model's pictures, for tests/plot-viewers. */
static const char *keep_dir;

static void pictures_kept(void)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "cp %s/a.png %s/a.svg %s/a.pdf %s/b.png '%s'",
		 dir, dir, dir, dir, keep_dir);
	CHECK(system(cmd) == 0, "%s", cmd);
}

int main(int argc, char **argv)
{
	char cmd[600];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(reduce_matches_brute_force);
	RUN(reduce_fixed_window);
	RUN(labels_in_natural_units);
	RUN(counter_rates);
	RUN(png_follows_the_model);
	RUN(png_zoom);
	RUN(perf_data_same_picture);
	RUN(png_cpu_lanes);
	RUN(pdf_one_page);
	RUN(svg_document);
	RUN(far_from_the_start);
	RUN(bad_input_is_refused);
	RUN(defaults_and_selection);
	RUN(plot_to_stdout);
	keep_dir = argc > 1 ? argv[1] : NULL;
	if (keep_dir)
		RUN(pictures_kept);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return runner_done();
}
