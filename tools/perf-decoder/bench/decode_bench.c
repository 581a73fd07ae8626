// SPDX-License-Identifier: GPL-2.0
/*
 * Decode throughput of libmlx5diag: a generated 16 MiB AUX stream (8 data
 * IDs, drains of 64 samples each behind a TIME record, format 0 and format
 * 1) decoded ROUNDS times, against memcpy of the same bytes in the same
 * run. Each 1 MiB piece is timed on its own in every round and counts with
 * its fastest round, for memcpy as for decode: a loaded machine preempts
 * some rounds of a piece, seldom all of them.
 *
 *   decode_bench [ROUNDS]     (default 16)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mlx5diag.h"
#include "stream_writer.h"

#define STREAM_MIB	16
#define NUM_IDS		8
#define DRAIN		64
#define ROOM		4096
#define PIECE		((size_t)1 << 20)
#define NR_PIECES	STREAM_MIB

static const uint64_t ids[NUM_IDS] = {
	0x1020000100000001ull, 0x1020000300000001ull, 0x1140000100000001ull,
	0x1140000300000001ull, 0x1160000b00000100ull, 0x1160000c00000100ull,
	0x1180000100000000ull, 0x1180000200000000ull,
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void build(struct stream *s, uint8_t format)
{
	struct stream_session sess = {
		.out_format = format, .ts_source = MLX5_DIAG_TS_FRC,
		.freq_khz = 156250, .num_ids = NUM_IDS, .ids = ids,
		.period_ns = 102400, .identifier = "0000:08:00.0",
	};
	struct stream_samples smp = {
		.out_format = format, .ts_source = MLX5_DIAG_TS_FRC,
		.num_ids = NUM_IDS, .ids = ids, .nr = DRAIN, .t_step = 16000,
		.entry_step = 3, .value_base = 1 << 20,
	};
	uint64_t seq = 0, t = 1000000;

	stream_init(s);
	stream_session(s, &sess);
	while (s->len < (size_t)STREAM_MIB << 20) {
		smp.first_seq = seq;
		smp.t0 = t;
		stream_time(s, MLX5_DIAG_TS_FRC, t + DRAIN * 16000,
			    (t + DRAIN * 16000) * 32 / 5, 100);
		stream_samples(s, &smp);
		seq += DRAIN;
		t += DRAIN * 16000;
	}
}

/* A piece's time: its fastest round. */
static void keep_best(double *best, double t)
{
	if (*best == 0 || t < *best)
		*best = t;
}

/*
 * Decode the stream once, each PIECE bytes timed into best[] (a record
 * cut by a piece's end goes with the next piece); returns the number of
 * items.
 */
static uint64_t decode_once(const struct stream *s, struct mlx5diag_decoder *dec,
			    struct mlx5diag_item *items, uint64_t *checksum,
			    double *best)
{
	size_t pos = 0, piece;
	uint64_t n_items = 0;
	int ret;

	mlx5diag_decoder_reset(dec);
	for (piece = 0; piece < NR_PIECES; piece++) {
		size_t end = piece == NR_PIECES - 1 ? s->len : (piece + 1) * PIECE;
		double t0 = now();

		do {
			size_t size = end - pos, count = ROOM, i;

			ret = mlx5diag_decode(dec, s->buf + pos, &size, items,
					      &count);
			if (ret < 0) {
				fprintf(stderr, "decode: %s\n",
					mlx5diag_error_message(dec, NULL));
				exit(1);
			}
			for (i = 0; i < count; i++)
				*checksum += items[i].value ^ items[i].perf_time;
			n_items += count;
			pos += size;
		} while (ret == MLX5DIAG_MORE_ITEMS);
		keep_best(&best[piece], now() - t0);
	}
	if (mlx5diag_decode_end(dec, s->len - pos)) {
		fprintf(stderr, "decode: the stream ends inside a record\n");
		exit(1);
	}
	return n_items;
}

static void bench(uint8_t format, unsigned int rounds)
{
	struct mlx5diag_decoder dec;
	struct mlx5diag_item *items = malloc(ROOM * sizeof(*items));
	double best_copy[NR_PIECES] = { 0 }, best_decode[NR_PIECES] = { 0 };
	double t0, t_decode = 0, t_copy = 0;
	uint64_t n_items = 0, checksum = 0;
	unsigned int r, piece;
	struct stream s;
	uint8_t *dst;

	build(&s, format);
	dst = malloc(s.len);
	if (!items || !dst || mlx5diag_decoder_init(&dec, NULL))
		exit(1);

	memcpy(dst, s.buf, s.len);	/* fault the pages in */
	decode_once(&s, &dec, items, &checksum, best_decode);
	for (r = 0; r < rounds; r++) {
		for (piece = 0; piece < NR_PIECES; piece++) {
			size_t off = piece * PIECE;
			size_t len = piece == NR_PIECES - 1 ? s.len - off : PIECE;

			t0 = now();
			memcpy(dst + off, s.buf + off, len);
			__asm__ __volatile__("" : : "r"(dst) : "memory");
			keep_best(&best_copy[piece], now() - t0);
		}
		checksum += dst[r % s.len];
		n_items = decode_once(&s, &dec, items, &checksum, best_decode);
	}
	for (piece = 0; piece < NR_PIECES; piece++) {
		t_copy += best_copy[piece];
		t_decode += best_decode[piece];
	}

	printf("format %u: %.1f MiB stream, %llu items (%.1f bytes each), best of %u rounds\n",
	       format, s.len / 1048576.0, (unsigned long long)n_items,
	       (double)s.len / (double)n_items, rounds);
	printf("  decode %8.1f MB/s  %6.1f M items/s  %5.2f ns/item\n",
	       s.len / t_decode / 1e6, n_items / t_decode / 1e6,
	       t_decode * 1e9 / (double)n_items);
	printf("  memcpy %8.1f MB/s\n", s.len / t_copy / 1e6);
	printf("  decode / memcpy = %.3f   (checksum %llx)\n",
	       t_copy / t_decode, (unsigned long long)checksum);
	mlx5diag_decoder_exit(&dec);
	stream_free(&s);
	free(dst);
	free(items);
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 16;

	if (!rounds || rounds > 100000 || argc > 2) {
		fprintf(stderr, "usage: %s [ROUNDS]\n", argv[0]);
		return 2;
	}
	bench(MLX5_DIAG_FORMAT_0, (unsigned int)rounds);
	bench(MLX5_DIAG_FORMAT_1, (unsigned int)rounds);
	return 0;
}
