// SPDX-License-Identifier: GPL-2.0
/*
 * CSV output speed: the CSV sink (mlx5-diag/sink_csv.c) against a writer
 * that prints every field with fprintf, as DOCA's telemetry_diag sample
 * does, on the same rows (16 data IDs; format 0 with FRC times, format 1
 * with RTC times), in one run. Both write to /dev/null through stdio; their
 * rows are first written to memory and must be the same bytes. Each piece
 * of 1024 rows is timed on its own in every round and counts with its
 * fastest round: a loaded machine preempts some rounds, seldom all.
 *
 *   csv_bench [ROUNDS]     (default 16)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "sink.h"

#define NUM_IDS		16
#define NR_ROWS		32768
#define PIECE_ROWS	1024
#define NR_PIECES	(NR_ROWS / PIECE_ROWS)

extern const struct sink_ops sink_csv;

/* The rows: what the pipeline puts in a run's columns and a row. */
struct rows {
	struct run run;
	struct column cols[NUM_IDS];
	struct row row;
	uint64_t seq[NR_ROWS], t0[NR_ROWS], t1[NR_ROWS];
	uint64_t value[NR_ROWS][NUM_IDS], dev_time[NR_ROWS][NUM_IDS];
};

typedef void (*writer_fn)(struct sink *s, const struct run *r,
			  const struct row *w);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Counters of the magnitudes a NIC has: bytes, packets, events, levels. */
static void build(struct rows *d, uint8_t format, uint8_t ts_source)
{
	static const uint64_t step[4] = { 1500000, 1000, 3, 0 };
	unsigned int j, i;

	memset(d, 0, sizeof(*d));
	d->run.session.out_format = format;
	d->run.session.ts_source = ts_source;
	d->run.session.num_ids = NUM_IDS;
	d->run.cols = d->cols;
	d->run.nr_cols = NUM_IDS;
	for (i = 0; i < NUM_IDS; i++) {
		d->cols[i].data_id = 0x1020000100000001ull + ((uint64_t)i << 33);
		snprintf(d->cols[i].name, sizeof(d->cols[i].name), "counter_%u", i);
	}
	for (j = 0; j < NR_ROWS; j++) {
		/* 102.4 us apart; RTC from 1.7e9 s, FRC from 2^40 clocks */
		uint64_t t = ts_source == MLX5_DIAG_TS_RTC ?
			     1700000000ull * 1000000000 + j * 102400ull :
			     (1ull << 40) + j * 16000ull;

		d->seq[j] = 4000000000ull + j;
		d->t0[j] = t;
		d->t1[j] = t + 3 * NUM_IDS;
		for (i = 0; i < NUM_IDS; i++) {
			d->value[j][i] = (uint64_t)i * 987654321ull * (i % 3) +
					 j * step[i % 4] * (i + 1) + (j * 7919u) % 997;
			d->dev_time[j][i] = t + 3 * i;
		}
	}
}

/* Row J into the run's columns and the row, as the pipeline does. */
static void load_row(struct rows *d, unsigned int j)
{
	unsigned int i;

	d->row.seq = d->seq[j];
	d->row.dev_time = d->t0[j];
	d->row.dev_time_end = d->t1[j];
	for (i = 0; i < NUM_IDS; i++) {
		d->cols[i].value = d->value[j][i];
		d->cols[i].dev_time = d->dev_time[j][i];
	}
}

static void printf_time(FILE *f, const struct run *r, uint64_t t)
{
	uint32_t sec, ns;

	if (r->session.ts_source == MLX5_DIAG_TS_RTC) {
		mlx5diag_rtc_split(t, &sec, &ns);
		fprintf(f, "%u.%09u", sec, ns);
	} else {
		fprintf(f, "%" PRIu64, t);
	}
}

/* The reference: one fprintf per field. */
static void printf_row(struct sink *s, const struct run *r, const struct row *w)
{
	FILE *f = s->out;
	unsigned int i;

	fprintf(f, "\n%u", (uint32_t)w->seq);
	if (r->session.out_format == MLX5_DIAG_FORMAT_0) {
		for (i = 0; i < r->nr_cols; i++) {
			fprintf(f, ", 0x%016" PRIx64 ", ", r->cols[i].data_id);
			printf_time(f, r, r->cols[i].dev_time);
			fprintf(f, ", %" PRIu64, r->cols[i].value);
		}
	} else {
		fprintf(f, ", ");
		printf_time(f, r, w->dev_time);
		fprintf(f, ", ");
		printf_time(f, r, w->dev_time_end);
		for (i = 0; i < r->nr_cols; i++)
			fprintf(f, ", %" PRIu64, r->cols[i].value);
	}
}

/* A sink of sink_csv on OUT, its header written to HEADER_OUT. */
static void csv_open(struct sink *s, struct rows *d, FILE *header_out, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->ops = &sink_csv;
	s->path = "csv_bench";
	s->priv = calloc(1, sink_csv.priv_size);
	if (!s->priv)
		exit(1);
	s->out = header_out;
	sink_csv.session(s, &d->run);
	s->out = out;
}

/* Both writers' rows into memory: the same bytes, or the bench stops. */
static size_t check_same(struct rows *d)
{
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	FILE *null = fopen("/dev/null", "w");
	struct sink s, ref = { .out = fb };
	unsigned int j;

	if (!fa || !fb || !null)
		exit(1);
	csv_open(&s, d, null, fa);
	for (j = 0; j < NR_ROWS; j++) {
		load_row(d, j);
		sink_csv.sample(&s, &d->run, &d->row);
		printf_row(&ref, &d->run, &d->row);
	}
	fclose(fa);
	fclose(fb);
	fclose(null);
	if (s.write_error || alen != blen || memcmp(a, b, alen)) {
		fprintf(stderr, "csv_bench: the CSV sink and printf differ\n");
		exit(1);
	}
	free(a);
	free(b);
	free(s.priv);
	return alen;
}

/* One round of WRITE over every piece, each piece's time into best[]. */
static void round_of(struct rows *d, struct sink *s, writer_fn write,
		     double *best)
{
	unsigned int piece, j;

	for (piece = 0; piece < NR_PIECES; piece++) {
		double t0 = now(), t;

		for (j = piece * PIECE_ROWS; j < (piece + 1) * PIECE_ROWS; j++) {
			load_row(d, j);
			write(s, &d->run, &d->row);
		}
		t = now() - t0;
		if (best[piece] == 0 || t < best[piece])
			best[piece] = t;
	}
}

static void bench(struct rows *d, uint8_t format, uint8_t ts_source,
		  unsigned int rounds)
{
	double best_sink[NR_PIECES] = { 0 }, best_printf[NR_PIECES] = { 0 };
	double t_sink = 0, t_printf = 0;
	FILE *null = fopen("/dev/null", "w");
	struct sink s, ref;
	unsigned int r, piece;
	size_t bytes;

	build(d, format, ts_source);
	bytes = check_same(d);
	if (!null || setvbuf(null, NULL, _IOFBF, 1 << 16))
		exit(1);
	csv_open(&s, d, null, null);
	ref = (struct sink){ .out = null };
	for (r = 0; r < rounds; r++) {
		round_of(d, &ref, printf_row, best_printf);
		round_of(d, &s, sink_csv.sample, best_sink);
	}
	for (piece = 0; piece < NR_PIECES; piece++) {
		t_sink += best_sink[piece];
		t_printf += best_printf[piece];
	}
	printf("format %u (%s times), %u data IDs: %u rows, %.1f MiB of CSV, best of %u rounds\n",
	       format, ts_source == MLX5_DIAG_TS_RTC ? "RTC" : "FRC", NUM_IDS,
	       NR_ROWS, bytes / 1048576.0, rounds);
	printf("  sink_csv %8.1f MB/s  %6.2f M rows/s  %7.1f ns/row\n",
	       bytes / t_sink / 1e6, NR_ROWS / t_sink / 1e6,
	       t_sink * 1e9 / NR_ROWS);
	printf("  printf   %8.1f MB/s  %6.2f M rows/s  %7.1f ns/row\n",
	       bytes / t_printf / 1e6, NR_ROWS / t_printf / 1e6,
	       t_printf * 1e9 / NR_ROWS);
	printf("  sink_csv / printf = %.2f\n", t_printf / t_sink);
	if (s.write_error || ferror(null)) {
		fprintf(stderr, "csv_bench: writing /dev/null failed\n");
		exit(1);
	}
	free(s.priv);
	fclose(null);
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 16;
	struct rows *d = malloc(sizeof(*d));

	if (!rounds || rounds > 100000 || argc > 2) {
		fprintf(stderr, "usage: %s [ROUNDS]\n", argv[0]);
		return 2;
	}
	if (!d)
		return 1;
	bench(d, MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC, (unsigned int)rounds);
	bench(d, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_RTC, (unsigned int)rounds);
	free(d);
	return 0;
}
