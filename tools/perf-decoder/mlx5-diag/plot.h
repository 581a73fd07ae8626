/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mlx5-diag plot`: its parts and their interfaces. The sink (plot_sink.c)
 * puts each row's values into a per-column reduction (plot_reduce.c) and
 * the sched_switch events into CPU lanes (plot_sched.c); the picture is
 * drawn once through cairo (plot_draw.c) on a PNG, SVG or PDF surface.
 */
#ifndef MLX5_DIAG_PLOT_H
#define MLX5_DIAG_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- the reduction: lanes of values kept per column ---- */

/* What fell into one column of a lane. */
struct plot_cell {
	double min, max, sum;
	uint64_t n;			/* values; 0: an empty column */
};

/*
 * Lanes of WIDTH columns on one time axis. Fixed (plot_reduce_window()
 * with HI): column c holds the times t of [LO, HI) with
 * floor((t - LO) * WIDTH / (HI - LO)) == c. Otherwise the columns are
 * 2^shift ns long, column c holding the times t >> shift == base + c:
 * starting at 1 ns, they double (pairs of columns merged) whenever the
 * times so far would not fit WIDTH columns, so that the times fill more
 * than half of them, in one pass and WIDTH cells a lane.
 */
struct plot_reduce {
	unsigned int width;
	unsigned int nr_lanes, cap_lanes;
	struct plot_cell *cells;	/* lane L, column C: [L * width + C] */
	uint64_t lo, hi;		/* times kept: from LO; fixed: below HI */
	int fixed;
	unsigned int shift;
	uint64_t base;
	unsigned int used;		/* columns 0..used-1 reached */
};

/* plot_reduce_init - WIDTH (at least 2) columns, no lane: 0, or -1 (memory). */
int plot_reduce_init(struct plot_reduce *r, unsigned int width);
void plot_reduce_free(struct plot_reduce *r);

/* plot_reduce_window - keep the times of [LO, HI), HI 0: from LO, doubling. */
void plot_reduce_window(struct plot_reduce *r, uint64_t lo, uint64_t hi);

/* plot_reduce_lane - a new lane, its columns empty: its index, or -1. */
int plot_reduce_lane(struct plot_reduce *r);

/*
 * plot_reduce_column - the column of time T, the columns grown (doubled
 * or moved) as it needs; -1 when T is outside the window. A column
 * number holds until the next call.
 */
long plot_reduce_column(struct plot_reduce *r, uint64_t t);

/* plot_reduce_find - the column of T as the columns are, or -1. */
long plot_reduce_find(const struct plot_reduce *r, uint64_t t);

/* plot_reduce_put - value V into column COL of LANE. */
void plot_reduce_put(struct plot_reduce *r, unsigned int lane,
		     unsigned int col, double v);

/* plot_reduce_cell - column COL of LANE: min, max, sum and count. */
const struct plot_cell *plot_reduce_cell(const struct plot_reduce *r,
					 unsigned int lane, unsigned int col);

/* plot_reduce_columns - the columns to draw: fixed WIDTH, else those reached. */
unsigned int plot_reduce_columns(const struct plot_reduce *r);

/* plot_reduce_time - the times [*START, *END) column COL holds. */
void plot_reduce_time(const struct plot_reduce *r, unsigned int col,
		      uint64_t *start, uint64_t *end);

/* ---- CPU lanes: which task ran, from sched_switch ---- */

struct plot_task {
	int32_t pid;
	char comm[17];			/* as struct tl_switch's next_comm */
};

/*
 * A column of a CPU lane: the time a task (not the idle task, pid 0) ran
 * in it, and the task that ran longest there at a stretch (its index in
 * tasks + 1; 0: none).
 */
struct plot_cpu_cell {
	uint64_t busy, stretch;
	uint32_t task;
};

struct tl_switch;

struct plot_sched {
	struct tl_switch *sw;		/* by CPU, then time (timeline.h) */
	size_t nr_sw;
	uint32_t *sw_task;		/* switch I's task: index in tasks */
	struct plot_task *tasks;
	size_t nr_tasks;
	uint32_t *cpus;			/* the lanes: CPUs with switches, ascending */
	unsigned int nr_cpus;
	unsigned int columns;
	struct plot_cpu_cell *cells;	/* CPU lane I, column C: [I * columns + C] */
};

/*
 * plot_sched_reduce - the CPU lanes of the N sched_switch events SW, sorted
 * by CPU then time as tl_sched_switches() gives them (S owns SW from now
 * on), on R's columns: on each CPU, the task a switch names (next_pid,
 * next_comm) runs until the CPU's next switch (the last one until the end
 * of R's columns). 0, or -1 (memory).
 */
int plot_sched_reduce(struct plot_sched *s, struct tl_switch *sw, size_t n,
		      const struct plot_reduce *r);

/* plot_sched_cell - column COL of CPU lane I. */
const struct plot_cpu_cell *plot_sched_cell(const struct plot_sched *s,
					    unsigned int i, unsigned int col);
void plot_sched_free(struct plot_sched *s);

/* ---- the picture ---- */

enum plot_unit {
	PLOT_UNIT_COUNT,		/* events */
	PLOT_UNIT_BYTES,
	PLOT_UNIT_NS,			/* time */
	PLOT_UNIT_NONE,			/* a derived metric: as it is */
};

/* A lane of values: where it is in the reduction, how it reads. */
struct plot_lane {
	char name[160];
	char detail[128];		/* after the name: data ID, class, device */
	enum plot_unit unit;
	int rate;			/* per second (a counter) */
	unsigned int cells;		/* its lane in the reduction */
	int lost, ends;			/* its device's marks there, -1: none */
};

struct plot_picture {
	unsigned int width, height;	/* height 0: from the lanes */
	char title[512];
	char subtitle[1024];
	const struct plot_reduce *reduce;
	const struct plot_lane *lanes;
	unsigned int nr_lanes;
	const struct plot_sched *sched;	/* NULL: no CPU lanes */
	uint64_t start;			/* the perf time of 0 s */
};

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_PDF };

/* plot_format_named - the format NAME (png, svg, pdf; any case): 0, or -1. */
int plot_format_named(const char *name, enum plot_format *f);

/* plot_format_name - F's name, its files' extension: "png", "svg", "pdf". */
const char *plot_format_name(enum plot_format f);

/* plot_format_of - the format PATH's extension names: 0, or -1. */
int plot_format_of(const char *path, enum plot_format *f);

/* A rectangle of pixels. */
struct plot_box {
	unsigned int x, y, w, h;
};

/* Where things go in a picture of WIDTH x HEIGHT. */
struct plot_geom {
	unsigned int width, height;
	unsigned int nr_lanes, nr_cpus;
	unsigned int lane_h;		/* the data box of a lane */
};

#define PLOT_MIN_WIDTH		300
#define PLOT_MAX_SIDE		8192
#define PLOT_MAX_LANES		64

/* plot_data_width - the columns of a lane's data box in a picture WIDTH wide. */
unsigned int plot_data_width(unsigned int width);

/*
 * plot_geometry - the layout of NR_LANES lanes and NR_CPUS CPU lanes in
 * WIDTH x HEIGHT (HEIGHT 0: what they need at the default lane height):
 * 0, or -1 with why in ERR (too small).
 */
int plot_geometry(struct plot_geom *g, unsigned int width, unsigned int height,
		  unsigned int nr_lanes, unsigned int nr_cpus, char *err,
		  size_t errlen);

/* plot_lane_box - lane I's data box and its marks strip above it. */
void plot_lane_box(const struct plot_geom *g, unsigned int i,
		   struct plot_box *data, struct plot_box *marks);

/* plot_cpu_box - CPU lane I's box. */
void plot_cpu_box(const struct plot_geom *g, unsigned int i,
		  struct plot_box *b);

/* plot_column_span - the pixels [*X0, *X1) of column C of COLUMNS in B. */
void plot_column_span(const struct plot_box *b, unsigned int columns,
		      unsigned int c, unsigned int *x0, unsigned int *x1);

/* plot_lane_range - the value range [*LO, *HI] lane LANE is drawn on. */
void plot_lane_range(const struct plot_reduce *r, unsigned int lane,
		     double *lo, double *hi);

/* plot_value_row - the pixel row of V in B on the range [LO, HI]. */
unsigned int plot_value_row(const struct plot_box *b, double lo, double hi,
			    double v);

/* Colours as 0xRRGGBB: lane I's band (min to max) and line (mean). */
uint32_t plot_lane_rgb(unsigned int i, int band);
#define PLOT_LOST_RGB	0xd62728u
#define PLOT_END_RGB	0x000000u
/* plot_task_rgb - the colour of a task in CPU lanes, by its name. */
uint32_t plot_task_rgb(const char *comm);

/*
 * plot_format_value - V as a lane labels it, scaled by the SI prefix of
 * REF (the lane's largest magnitude): "1.5 GB/s", "250 us", "3 K/s".
 */
void plot_format_value(double v, double ref, enum plot_unit unit, int rate,
		       char *buf, size_t len);

/*
 * plot_draw - PIC drawn once in format F and written to OUT. 0, or -1
 * with why in ERR; a failed write leaves its errno in *WRITE_ERRNO.
 */
int plot_draw(const struct plot_picture *pic, enum plot_format f, FILE *out,
	      int *write_errno, char *err, size_t errlen);

/* ---- the command's settings, for the sink ---- */

/* A --ids item: a data ID or a name (of a column or a metric). */
struct plot_id {
	const char *text;
	uint64_t id;
	int is_id;
};

/* The command's settings for its sink, sink_plot (struct sink's opts). */
struct plot_opts {
	unsigned int width, height;
	uint64_t from_ns, to_ns;	/* to_ns 0: to the end */
	const struct plot_id *ids;	/* NULL: every data ID */
	unsigned int nr_ids;
	int cpus;			/* CPU lanes */
	enum plot_format format;
	const char *output;		/* in messages: the file, or "standard output" */
};

struct sink_ops;
extern const struct sink_ops sink_plot;

#endif /* MLX5_DIAG_PLOT_H */
