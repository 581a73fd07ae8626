// SPDX-License-Identifier: GPL-2.0
/*
 * The picture of `mlx5-diag plot` (plot.h): its layout, and one drawing
 * through cairo on the PNG, SVG or PDF surface the output asks for. Data
 * are drawn without antialiasing on whole pixels: a column's band covers
 * exactly the rows of its min to its max.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>

#include "plot.h"

/* The layout, in pixels (points in SVG and PDF). */
#define LEFT		100	/* the lanes' scale labels */
#define RIGHT		24
#define TITLE_H		58
#define HEADER_H	18	/* a lane's name */
#define MARKS_H		6	/* lost samples and run ends, above the data */
#define LANE_GAP	10
#define LANE_H		80	/* the default data box height */
#define LANE_MIN_H	16
#define CPU_HEAD_H	22
#define CPU_H		16
#define CPU_GAP		2
#define AXIS_H		46

#define LANE_STRIDE(g)	(HEADER_H + MARKS_H + 1 + (g)->lane_h + LANE_GAP)

static const char *const format_names[] = {
	[PLOT_PNG] = "png", [PLOT_SVG] = "svg", [PLOT_PDF] = "pdf",
};

int plot_format_named(const char *name, enum plot_format *f)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (!strcasecmp(name, format_names[i])) {
			*f = (enum plot_format)i;
			return 0;
		}
	}
	return -1;
}

const char *plot_format_name(enum plot_format f)
{
	return format_names[f];
}

int plot_format_of(const char *path, enum plot_format *f)
{
	size_t n = strlen(path);

	return n > 4 && path[n - 4] == '.' ? plot_format_named(path + n - 3, f) : -1;
}

unsigned int plot_data_width(unsigned int width)
{
	return width - LEFT - RIGHT;
}

/* Everything but the lanes' data boxes. */
static unsigned int fixed_height(unsigned int nr_lanes, unsigned int nr_cpus)
{
	return TITLE_H + nr_lanes * (HEADER_H + MARKS_H + 1 + LANE_GAP) +
	       (nr_cpus ? CPU_HEAD_H + nr_cpus * (CPU_H + CPU_GAP) : 0) + AXIS_H;
}

int plot_geometry(struct plot_geom *g, unsigned int width, unsigned int height,
		  unsigned int nr_lanes, unsigned int nr_cpus, char *err,
		  size_t errlen)
{
	unsigned int fixed = fixed_height(nr_lanes, nr_cpus);
	unsigned int need = fixed + nr_lanes * LANE_MIN_H;

	g->width = width;
	g->nr_lanes = nr_lanes;
	g->nr_cpus = nr_cpus;
	if (!height) {
		height = fixed + nr_lanes * LANE_H;
		if (height > PLOT_MAX_SIDE)
			height = PLOT_MAX_SIDE;
	}
	if (height < need || !nr_lanes) {
		snprintf(err, errlen, "%u lane%s and %u CPU lane%s need a height of "
			 "at least %u pixels%s", nr_lanes, nr_lanes == 1 ? "" : "s",
			 nr_cpus, nr_cpus == 1 ? "" : "s", need,
			 need > PLOT_MAX_SIDE ? ", more than the largest picture: "
			 "choose fewer with --ids" : "");
		return -1;
	}
	g->height = height;
	g->lane_h = (height - fixed) / nr_lanes;
	return 0;
}

void plot_lane_box(const struct plot_geom *g, unsigned int i,
		   struct plot_box *data, struct plot_box *marks)
{
	unsigned int top = TITLE_H + i * LANE_STRIDE(g);

	marks->x = data->x = LEFT;
	marks->w = data->w = plot_data_width(g->width);
	marks->y = top + HEADER_H;
	marks->h = MARKS_H;
	/* a row between them for the data box's frame */
	data->y = top + HEADER_H + MARKS_H + 1;
	data->h = g->lane_h;
}

void plot_cpu_box(const struct plot_geom *g, unsigned int i,
		  struct plot_box *b)
{
	b->x = LEFT;
	b->w = plot_data_width(g->width);
	b->y = TITLE_H + g->nr_lanes * LANE_STRIDE(g) + CPU_HEAD_H +
	       i * (CPU_H + CPU_GAP);
	b->h = CPU_H;
}

/* The top of the time axis. */
static unsigned int axis_y(const struct plot_geom *g)
{
	return TITLE_H + g->nr_lanes * LANE_STRIDE(g) +
	       (g->nr_cpus ? CPU_HEAD_H + g->nr_cpus * (CPU_H + CPU_GAP) : 0);
}

void plot_column_span(const struct plot_box *b, unsigned int columns,
		      unsigned int c, unsigned int *x0, unsigned int *x1)
{
	*x0 = b->x + (unsigned int)((uint64_t)c * b->w / columns);
	*x1 = b->x + (unsigned int)((uint64_t)(c + 1) * b->w / columns);
}

/* The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times 10^k not below X. */
static double nice_up(double x)
{
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	double m;
	size_t i;

	if (!(x > 0))
		return 0;
	m = pow(10, floor(log10(x)));
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]) - 1; i++)
		if (steps[i] * m >= x * (1 - 1e-12))
			break;
	return steps[i] * m;
}

void plot_lane_range(const struct plot_reduce *r, unsigned int lane,
		     double *lo, double *hi)
{
	unsigned int n = plot_reduce_columns(r);
	double mn = 0, mx = 0;

	for (unsigned int c = 0; c < n; c++) {
		const struct plot_cell *cell = plot_reduce_cell(r, lane, c);

		if (!cell->n)
			continue;
		if (cell->min < mn)
			mn = cell->min;
		if (cell->max > mx)
			mx = cell->max;
	}
	*lo = -nice_up(-mn);
	*hi = nice_up(mx);
	if (*hi <= *lo)
		*hi = *lo + 1;
}

unsigned int plot_value_row(const struct plot_box *b, double lo, double hi,
			    double v)
{
	double f = (v - lo) / (hi - lo);

	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	return b->y + (b->h - 1) - (unsigned int)lround(f * (b->h - 1));
}

uint32_t plot_lane_rgb(unsigned int i, int band)
{
	static const uint32_t palette[] = {
		0x1f77b4, 0xff7f0e, 0x2ca02c, 0x9467bd, 0x8c564b,
		0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f,
	};
	uint32_t c = palette[i % (sizeof(palette) / sizeof(palette[0]))], out = 0;

	if (!band)
		return c;
	/* three fifths of the way to white */
	for (int s = 0; s < 24; s += 8) {
		uint32_t v = (c >> s) & 0xff;

		out |= (v + (255 - v) * 3 / 5) << s;
	}
	return out;
}

uint32_t plot_task_rgb(const char *comm)
{
	static const uint32_t palette[] = {
		0x8dd3c7, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462,
		0xb3de69, 0xfccde5, 0xbc80bd, 0xccebc5, 0xffed6f,
	};
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *comm; comm++)
		h = (h ^ (unsigned char)*comm) * 16777619u;
	return palette[h % (sizeof(palette) / sizeof(palette[0]))];
}

void plot_format_value(double v, double ref, enum plot_unit unit, int rate,
		       char *buf, size_t len)
{
	static const char *const prefixes[] = {
		"n", "\xc2\xb5", "m", "", "K", "M", "G", "T", "P",
	};
	const char *base = "";
	int p, pmin = 0, pmax = 5;

	if (v == 0) {			/* -0 too: a range's floor is -nice_up(0) */
		snprintf(buf, len, "0");
		return;
	}
	if (unit == PLOT_UNIT_NONE) {
		snprintf(buf, len, "%.4g", v);
		return;
	}
	ref = fabs(ref);
	if (unit == PLOT_UNIT_BYTES) {
		base = "B";
	} else if (unit == PLOT_UNIT_NS) {
		base = "s";
		v *= 1e-9;
		ref *= 1e-9;
		pmin = -3;
		pmax = 0;
	}
	p = ref > 0 ? (int)floor(log10(ref) / 3) : 0;
	if (p < pmin)
		p = pmin;
	if (p > pmax)
		p = pmax;
	snprintf(buf, len, "%.4g%s%s%s%s", v / pow(1000, p),
		 *prefixes[p + 3] || *base || rate ? " " : "", prefixes[p + 3],
		 base, rate ? "/s" : "");
}

/* ---- drawing ---- */

struct out_ctx {
	FILE *f;
	int err;
};

static cairo_status_t out_write(void *closure, const unsigned char *data,
				unsigned int len)
{
	struct out_ctx *o = closure;

	if (fwrite(data, 1, len, o->f) != len) {
		if (!o->err)
			o->err = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static void rgb(cairo_t *cr, uint32_t c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
			     ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

static void fill_rect(cairo_t *cr, uint32_t c, double x, double y, double w,
		      double h)
{
	rgb(cr, c);
	cairo_rectangle(cr, x, y, w, h);
	cairo_fill(cr);
}

static void font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD :
				      CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/*
 * IN as valid UTF-8 into OUT (LEN bytes): a byte that starts no valid
 * sequence becomes '?'. cairo refuses invalid UTF-8 (a name from a -di
 * file, a device identifier) and then draws nothing more.
 */
static void utf8_clean(const char *in, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = 0;

	while (*p && n + 5 < len) {
		unsigned int need = *p < 0x80 ? 0 : *p >= 0xc2 && *p <= 0xdf ? 1 :
				    *p >= 0xe0 && *p <= 0xef ? 2 :
				    *p >= 0xf0 && *p <= 0xf4 ? 3 : 4;
		/* the second byte's range excludes overlongs, surrogates, > U+10FFFF */
		unsigned int lo = *p == 0xe0 ? 0xa0 : *p == 0xf0 ? 0x90 : 0x80;
		unsigned int hi = *p == 0xed ? 0x9f : *p == 0xf4 ? 0x8f : 0xbf;
		unsigned int k = 1;

		if (need && need < 4 && p[1] >= lo && p[1] <= hi)
			k = 2;
		while (k > 1 && k <= need && (p[k] & 0xc0) == 0x80)
			k++;
		if (need == 4 || (need && k != need + 1)) {
			out[n++] = '?';
			p++;
			continue;
		}
		memcpy(out + n, p, need + 1);
		n += need + 1;
		p += need + 1;
	}
	out[n] = '\0';
}

static double text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	char buf[1024];

	utf8_clean(s, buf, sizeof(buf));
	cairo_text_extents(cr, buf, &e);
	return e.x_advance;
}

/* TEXT at (X, Y), cut with "..." to MAX_W; ALIGN -1 left, 0 centre, 1 right. */
static void text(cairo_t *cr, double x, double y, int align, double max_w,
		 const char *s)
{
	char buf[1024];
	size_t n;

	utf8_clean(s, buf, sizeof(buf));
	n = strlen(buf);
	while (n > 3 && text_width(cr, buf) > max_w) {
		n--;
		/* not inside a UTF-8 sequence */
		while (n > 3 && (buf[n - 3] & 0xc0) == 0x80)
			n--;
		memcpy(buf + n - 3, "...", 4);
	}
	if (align >= 0)
		x -= text_width(cr, buf) / (align ? 1 : 2);
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
}

/* Time in seconds from the start: the axis of the picture. */
struct axis {
	double t0, span;		/* seconds at the box's left edge, across it */
	double step;			/* between ticks */
	int decimals;
};

#define MAX_TICKS	200

static void axis_plan(struct axis *a, const struct plot_picture *pic,
		      unsigned int box_w)
{
	unsigned int n = plot_reduce_columns(pic->reduce);
	uint64_t s, e, unused;
	double raw, m;

	plot_reduce_time(pic->reduce, 0, &s, &unused);
	plot_reduce_time(pic->reduce, n - 1, &unused, &e);
	a->t0 = (double)(int64_t)(s - pic->start) / 1e9;
	/* from the integers: t0 + span may round to t0 far from the start */
	a->span = e > s ? (double)(e - s) / 1e9 : 1e-9;
	raw = a->span / (box_w / 110.0 > 1 ? box_w / 110.0 : 1);
	m = pow(10, floor(log10(raw)));
	a->step = raw <= m ? m : raw <= 2 * m ? 2 * m : raw <= 5 * m ? 5 * m : 10 * m;
	a->decimals = (int)-floor(log10(a->step) + 1e-9);
	a->decimals = a->decimals < 0 ? 0 : a->decimals > 9 ? 9 : a->decimals;
}

/* Tick K: 0 and its time *T, or -1 past the last (at most MAX_TICKS). */
static int axis_tick(const struct axis *a, unsigned int k, double *t)
{
	*t = (ceil(a->t0 / a->step) + k) * a->step;
	return k < MAX_TICKS && *t <= a->t0 + a->span ? 0 : -1;
}

static double axis_x(const struct axis *a, const struct plot_box *b, double t)
{
	return b->x + (t - a->t0) / a->span * b->w;
}

/* Vertical lines at the ticks, light, under a box's data. */
static void grid(cairo_t *cr, const struct axis *a, const struct plot_box *b)
{
	double t;

	rgb(cr, 0xe6e6e6);
	for (unsigned int k = 0; !axis_tick(a, k, &t); k++) {
		double x = floor(axis_x(a, b, t));

		if (x >= b->x && x < b->x + b->w)
			cairo_rectangle(cr, x, b->y, 1, b->h);
	}
	cairo_fill(cr);
}

static void frame(cairo_t *cr, const struct plot_box *b)
{
	rgb(cr, 0xb0b0b0);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, b->x - 0.5, b->y - 0.5, b->w + 1, b->h + 1);
	cairo_stroke(cr);
}

/* A mark lane MARK (-1: none) has a value in columns [FROM, TO]. */
static int marked(const struct plot_reduce *r, int mark, unsigned int from,
		  unsigned int to)
{
	if (mark < 0)
		return 0;
	for (unsigned int c = from; c <= to; c++)
		if (plot_reduce_cell(r, (unsigned int)mark, c)->n)
			return 1;
	return 0;
}

/*
 * The rows of a column's band (its min to its max) and of its mean: 0,
 * or -1 for an empty column.
 */
static int column_rows(const struct plot_cell *cell, const struct plot_box *d,
		       double lo, double hi, unsigned int *top,
		       unsigned int *bottom, unsigned int *mean_row)
{
	double mean;

	if (!cell->n)
		return -1;
	*top = plot_value_row(d, lo, hi, cell->max);
	*bottom = plot_value_row(d, lo, hi, cell->min);
	mean = cell->sum / (double)cell->n;
	mean = mean < cell->min ? cell->min : mean > cell->max ? cell->max : mean;
	*mean_row = plot_value_row(d, lo, hi, mean);
	return 0;
}

/* Mark lane MARK (-1: none) in colour C: rows [Y, Y + H) of its columns. */
static void marks(cairo_t *cr, const struct plot_reduce *r, int mark,
		  const struct plot_box *b, unsigned int n, unsigned int y,
		  unsigned int h, uint32_t c)
{
	unsigned int x0, x1;

	if (mark < 0)
		return;
	for (unsigned int col = 0; col < n; col++) {
		if (!plot_reduce_cell(r, (unsigned int)mark, col)->n)
			continue;
		plot_column_span(b, n, col, &x0, &x1);
		cairo_rectangle(cr, x0, y, x1 - x0, h);
	}
	rgb(cr, c);
	cairo_fill(cr);
}

static void draw_lane(cairo_t *cr, const struct plot_picture *pic,
		      const struct plot_geom *g, const struct axis *a,
		      unsigned int i)
{
	const struct plot_lane *l = &pic->lanes[i];
	const struct plot_reduce *r = pic->reduce;
	unsigned int n = plot_reduce_columns(r), c, x0, x1, prev = 0, prev_row = 0;
	unsigned int top, bottom, row;
	struct plot_box d, m;
	double lo, hi, ref;
	char label[64];
	int have_prev = 0;

	plot_lane_box(g, i, &d, &m);
	plot_lane_range(r, l->cells, &lo, &hi);
	ref = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);

	rgb(cr, 0x000000);
	font(cr, 12, 1);
	text(cr, d.x, m.y - 5, -1, d.w, l->name);
	x0 = (unsigned int)text_width(cr, l->name);
	rgb(cr, 0x606060);
	font(cr, 11, 0);
	if (x0 + 12 < d.w)
		text(cr, d.x + x0 + 12, m.y - 5, -1, d.w - x0 - 12, l->detail);
	font(cr, 10, 0);
	rgb(cr, 0x000000);
	plot_format_value(hi, ref, l->unit, l->rate, label, sizeof(label));
	text(cr, d.x - 6, d.y + 9, 1, LEFT - 10, label);
	plot_format_value(lo, ref, l->unit, l->rate, label, sizeof(label));
	text(cr, d.x - 6, d.y + d.h, 1, LEFT - 10, label);

	grid(cr, a, &d);
	frame(cr, &d);
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	/* each a path of its own, filled once: SVG and PDF stay small */
	for (c = 0; c < n; c++) {
		if (column_rows(plot_reduce_cell(r, l->cells, c), &d, lo, hi, &top,
				&bottom, &row))
			continue;
		plot_column_span(&d, n, c, &x0, &x1);
		cairo_rectangle(cr, x0, top, x1 - x0, bottom - top + 1);
	}
	rgb(cr, plot_lane_rgb(i, 1));
	cairo_fill(cr);
	for (c = 0; c < n; c++) {
		if (column_rows(plot_reduce_cell(r, l->cells, c), &d, lo, hi, &top,
				&bottom, &row))
			continue;
		plot_column_span(&d, n, c, &x0, &x1);
		cairo_rectangle(cr, x0, row, x1 - x0, 1);
	}
	rgb(cr, plot_lane_rgb(i, 0));
	cairo_fill(cr);
	marks(cr, r, l->lost, &m, n, m.y, MARKS_H / 2, PLOT_LOST_RGB);
	marks(cr, r, l->ends, &m, n, m.y + MARKS_H / 2, MARKS_H - MARKS_H / 2,
	      PLOT_END_RGB);
	/* a line across empty columns, unless samples were lost or the run ended */
	for (c = 0; c < n; c++) {
		if (column_rows(plot_reduce_cell(r, l->cells, c), &d, lo, hi, &top,
				&bottom, &row))
			continue;
		if (have_prev && c > prev + 1 && !marked(r, l->lost, prev + 1, c) &&
		    !marked(r, l->ends, prev, c - 1)) {
			unsigned int px0, px1;

			plot_column_span(&d, n, prev, &px0, &px1);
			plot_column_span(&d, n, c, &x0, &x1);
			cairo_save(cr);
			cairo_rectangle(cr, px1, d.y, x0 - px1, d.h);
			cairo_clip(cr);
			rgb(cr, plot_lane_rgb(i, 0));
			cairo_set_line_width(cr, 1);
			cairo_move_to(cr, px1, prev_row + 0.5);
			cairo_line_to(cr, x0, row + 0.5);
			cairo_stroke(cr);
			cairo_restore(cr);
		}
		have_prev = 1;
		prev = c;
		prev_row = row;
	}
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* The height column C of CPU lane I is drawn: the CPU's busy share of it. */
static unsigned int cpu_height(const struct plot_picture *pic,
			       const struct plot_box *b, unsigned int i,
			       unsigned int c)
{
	const struct plot_cpu_cell *cell = plot_sched_cell(pic->sched, i, c);
	uint64_t cs, ce;
	unsigned int h;

	if (!cell->task)
		return 0;
	plot_reduce_time(pic->reduce, c, &cs, &ce);
	h = (unsigned int)lround((double)cell->busy / (double)(ce - cs) * b->h);
	return h < 1 ? 1 : h > b->h ? b->h : h;
}

static void draw_cpu(cairo_t *cr, const struct plot_picture *pic,
		     const struct plot_geom *g, const struct axis *a,
		     unsigned int i)
{
	const struct plot_sched *s = pic->sched;
	unsigned int n = s->columns, c, next, x0, x1, unused, run_x0 = 0;
	uint32_t run_task = 0;
	struct plot_box b;
	char label[32];

	plot_cpu_box(g, i, &b);
	snprintf(label, sizeof(label), "cpu %u", s->cpus[i]);
	font(cr, 10, 0);
	rgb(cr, 0x000000);
	text(cr, b.x - 6, b.y + 12, 1, LEFT - 10, label);
	grid(cr, a, &b);
	frame(cr, &b);
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	/* a rectangle for each stretch of columns of one task and height */
	for (c = 0; c < n; c = next) {
		unsigned int h = cpu_height(pic, &b, i, c);
		uint32_t task = plot_sched_cell(s, i, c)->task;

		next = c + 1;
		while (next < n && plot_sched_cell(s, i, next)->task == task &&
		       cpu_height(pic, &b, i, next) == h)
			next++;
		if (!task)
			continue;
		plot_column_span(&b, n, c, &x0, &x1);
		plot_column_span(&b, n, next - 1, &unused, &x1);
		fill_rect(cr, plot_task_rgb(s->tasks[task - 1].comm), x0,
			  b.y + b.h - h, x1 - x0, h);
	}
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
	/* each stretch of one task named where its name fits */
	font(cr, 9, 0);
	rgb(cr, 0x000000);
	for (c = 0; c <= n; c++) {
		uint32_t task = c < n ? plot_sched_cell(s, i, c)->task : 0;

		plot_column_span(&b, n, c < n ? c : n - 1, &x0, &x1);
		if (c < n && task == run_task)
			continue;
		if (run_task) {
			const char *comm = s->tasks[run_task - 1].comm;
			unsigned int end = c < n ? x0 : x1;

			if (text_width(cr, comm) + 4 <= end - run_x0)
				text(cr, (run_x0 + end) / 2.0, b.y + 12, 0, end - run_x0,
				     comm);
		}
		run_task = task;
		run_x0 = x0;
	}
}

static void draw_axis(cairo_t *cr, const struct plot_picture *pic,
		      const struct plot_geom *g, const struct axis *a)
{
	struct plot_box b, marks;
	unsigned int y = axis_y(g);
	char label[64];
	double t;

	plot_lane_box(g, 0, &b, &marks);
	rgb(cr, 0x000000);
	font(cr, 11, 0);
	cairo_set_line_width(cr, 1);
	for (unsigned int k = 0; !axis_tick(a, k, &t); k++) {
		double x = floor(axis_x(a, &b, t)) + 0.5;

		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x, y + 5);
		cairo_stroke(cr);
		snprintf(label, sizeof(label), "%.*f", a->decimals,
			 fabs(t) < a->step / 1e6 ? 0.0 : t);
		text(cr, x, y + 18, 0, 200, label);
	}
	snprintf(label, sizeof(label), "%.9f",
		 (double)pic->start / 1e9);
	{
		char caption[256];

		snprintf(caption, sizeof(caption), "seconds from the first sample "
			 "(perf time %s s)   marks above a lane: red lost samples, "
			 "black run end", label);
		rgb(cr, 0x404040);
		text(cr, b.x, y + 38, -1, b.w, caption);
	}
}

static void draw(cairo_t *cr, const struct plot_picture *pic,
		 const struct plot_geom *g)
{
	struct plot_box b, unused;
	struct axis a;
	unsigned int i;

	plot_lane_box(g, 0, &b, &unused);
	axis_plan(&a, pic, b.w);
	rgb(cr, 0xffffff);
	cairo_paint(cr);
	rgb(cr, 0x000000);
	font(cr, 16, 1);
	text(cr, 12, 24, -1, g->width - 24, pic->title);
	font(cr, 12, 0);
	rgb(cr, 0x404040);
	text(cr, 12, 44, -1, g->width - 24, pic->subtitle);
	for (i = 0; i < pic->nr_lanes; i++)
		draw_lane(cr, pic, g, &a, i);
	if (g->nr_cpus) {
		plot_cpu_box(g, 0, &b);
		font(cr, 12, 1);
		rgb(cr, 0x000000);
		text(cr, b.x, b.y - 6, -1, b.w, "CPUs: the task that ran longest "
		     "in each column, as high as the CPU was busy");
	}
	for (i = 0; i < g->nr_cpus; i++)
		draw_cpu(cr, pic, g, &a, i);
	draw_axis(cr, pic, g, &a);
}

int plot_draw(const struct plot_picture *pic, enum plot_format f, FILE *out,
	      int *write_errno, char *err, size_t errlen)
{
	struct out_ctx o = { out, 0 };
	cairo_surface_t *surface;
	cairo_status_t st;
	struct plot_geom g;
	cairo_t *cr;

	*write_errno = 0;
	if (plot_geometry(&g, pic->width, pic->height, pic->nr_lanes,
			  pic->sched ? pic->sched->nr_cpus : 0, err, errlen))
		return -1;
	switch (f) {
	case PLOT_SVG:
		surface = cairo_svg_surface_create_for_stream(out_write, &o, g.width,
							      g.height);
		break;
	case PLOT_PDF:
		surface = cairo_pdf_surface_create_for_stream(out_write, &o, g.width,
							      g.height);
		break;
	default:
		surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)g.width,
						     (int)g.height);
	}
	cr = cairo_create(surface);
	draw(cr, pic, &g);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (!st && f == PLOT_PNG)
		st = cairo_surface_write_to_png_stream(surface, out_write, &o);
	cairo_surface_finish(surface);
	if (!st)
		st = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	if (st) {
		*write_errno = o.err;
		snprintf(err, errlen, "cairo: %s", o.err ? strerror(o.err) :
			 cairo_status_to_string(st));
		return -1;
	}
	return 0;
}
