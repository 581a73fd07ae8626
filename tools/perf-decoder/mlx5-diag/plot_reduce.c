// SPDX-License-Identifier: GPL-2.0
/*
 * The per-column reduction of `mlx5-diag plot` (plot.h): each lane's
 * values kept per column (min, max, sum, count) in one pass, in lanes x
 * columns cells whatever the number of samples.
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

__extension__ typedef unsigned __int128 u128;

int plot_reduce_init(struct plot_reduce *r, unsigned int width)
{
	memset(r, 0, sizeof(*r));
	if (width < 2)
		return -1;
	r->width = width;
	return 0;
}

void plot_reduce_free(struct plot_reduce *r)
{
	free(r->cells);
	r->cells = NULL;
	r->nr_lanes = r->cap_lanes = 0;
}

void plot_reduce_window(struct plot_reduce *r, uint64_t lo, uint64_t hi)
{
	r->lo = lo;
	r->hi = hi;
	r->fixed = hi > lo;
}

static struct plot_cell *lane_cells(const struct plot_reduce *r,
				    unsigned int lane)
{
	return r->cells + (size_t)lane * r->width;
}

int plot_reduce_lane(struct plot_reduce *r)
{
	if (r->nr_lanes == r->cap_lanes) {
		unsigned int cap = r->cap_lanes ? 2 * r->cap_lanes : 4;
		struct plot_cell *g = realloc(r->cells, (size_t)cap * r->width *
					      sizeof(*g));

		if (!g)
			return -1;
		r->cells = g;
		r->cap_lanes = cap;
	}
	memset(lane_cells(r, r->nr_lanes), 0, r->width * sizeof(*r->cells));
	return (int)r->nr_lanes++;
}

static void cell_merge(struct plot_cell *to, const struct plot_cell *from)
{
	if (!from->n)
		return;
	if (!to->n) {
		*to = *from;
		return;
	}
	if (from->min < to->min)
		to->min = from->min;
	if (from->max > to->max)
		to->max = from->max;
	to->sum += from->sum;
	to->n += from->n;
}

/*
 * Columns twice as long: column c (time index base + c) goes into
 * (base + c) / 2 - base / 2, never to its right, so one forward pass
 * merges them in place.
 */
static void coarsen(struct plot_reduce *r)
{
	uint64_t nb = r->base >> 1;
	unsigned int used = (unsigned int)(((r->base + r->used - 1) >> 1) - nb) + 1;

	for (unsigned int l = 0; l < r->nr_lanes; l++) {
		struct plot_cell *c = lane_cells(r, l);

		for (unsigned int i = 0; i < r->used; i++) {
			unsigned int to = (unsigned int)(((r->base + i) >> 1) - nb);

			if (to == i)
				continue;
			if (i == 0 || (((r->base + i - 1) >> 1) - nb) != to)
				c[to] = c[i];
			else
				cell_merge(&c[to], &c[i]);
		}
		memset(c + used, 0, (r->used - used) * sizeof(*c));
	}
	r->base = nb;
	r->used = used;
	r->shift++;
}

/* The columns move BY to the right: a time before the first column. */
static void move_right(struct plot_reduce *r, unsigned int by)
{
	for (unsigned int l = 0; l < r->nr_lanes; l++) {
		struct plot_cell *c = lane_cells(r, l);

		memmove(c + by, c, r->used * sizeof(*c));
		memset(c, 0, by * sizeof(*c));
	}
	r->base -= by;
	r->used += by;
}

long plot_reduce_column(struct plot_reduce *r, uint64_t t)
{
	uint64_t k, first, last;

	if (t < r->lo || (r->fixed && t >= r->hi))
		return -1;
	if (r->fixed)
		return (long)((u128)(t - r->lo) * r->width / (r->hi - r->lo));
	if (!r->used) {
		r->base = t >> r->shift;
		r->used = 1;
		return 0;
	}
	for (;;) {
		k = t >> r->shift;
		first = k < r->base ? k : r->base;
		last = r->base + r->used - 1;
		if (k > last)
			last = k;
		if (last - first < r->width)
			break;
		coarsen(r);
	}
	if (k < r->base)
		move_right(r, (unsigned int)(r->base - k));
	else if (k - r->base >= r->used)
		r->used = (unsigned int)(k - r->base) + 1;
	return (long)(k - r->base);
}

long plot_reduce_find(const struct plot_reduce *r, uint64_t t)
{
	uint64_t k;

	if (t < r->lo || (r->fixed && t >= r->hi))
		return -1;
	if (r->fixed)
		return (long)((u128)(t - r->lo) * r->width / (r->hi - r->lo));
	k = t >> r->shift;
	if (!r->used || k < r->base || k - r->base >= r->used)
		return -1;
	return (long)(k - r->base);
}

void plot_reduce_put(struct plot_reduce *r, unsigned int lane,
		     unsigned int col, double v)
{
	struct plot_cell *c = &lane_cells(r, lane)[col];

	if (!c->n) {
		c->min = c->max = v;
	} else {
		if (v < c->min)
			c->min = v;
		if (v > c->max)
			c->max = v;
	}
	c->sum += v;
	c->n++;
}

const struct plot_cell *plot_reduce_cell(const struct plot_reduce *r,
					 unsigned int lane, unsigned int col)
{
	return &lane_cells(r, lane)[col];
}

unsigned int plot_reduce_columns(const struct plot_reduce *r)
{
	return r->fixed ? r->width : r->used;
}

/* The first time of column C (C may be one past the last). */
static uint64_t column_start(const struct plot_reduce *r, unsigned int c)
{
	u128 t;

	if (r->fixed) {
		u128 span = r->hi - r->lo;

		return r->lo + (uint64_t)(((u128)c * span + r->width - 1) / r->width);
	}
	t = (u128)(r->base + c) << r->shift;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

void plot_reduce_time(const struct plot_reduce *r, unsigned int col,
		      uint64_t *start, uint64_t *end)
{
	*start = column_start(r, col);
	*end = column_start(r, col + 1);
}
