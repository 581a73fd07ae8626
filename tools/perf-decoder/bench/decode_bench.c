// SPDX-License-Identifier: GPL-2.0
/*
 * Decode throughput of libmlx5diag: a generated AUX stream (8 data IDs,
 * drains of 64 samples each behind a TIME record, format 0 and format 1)
 * decoded over and over until TOTAL_MIB have gone through, against memcpy
 * of the same bytes in the same run.
 *
 *   decode_bench [TOTAL_MIB]     (default 256)
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

/* Decode the stream once; returns the number of items. */
static uint64_t decode_once(const struct stream *s, struct mlx5diag_decoder *dec,
			    struct mlx5diag_item *items, uint64_t *checksum)
{
	const uint8_t *p = s->buf;
	size_t left = s->len;
	uint64_t n_items = 0;
	int ret;

	mlx5diag_decoder_reset(dec);
	do {
		size_t size = left, count = ROOM, i;

		ret = mlx5diag_decode(dec, p, &size, items, &count);
		if (ret < 0) {
			fprintf(stderr, "decode: %s\n",
				mlx5diag_error_message(dec, NULL));
			exit(1);
		}
		for (i = 0; i < count; i++)
			*checksum += items[i].value ^ items[i].perf_time;
		n_items += count;
		p += size;
		left -= size;
	} while (ret == MLX5DIAG_MORE_ITEMS);
	return n_items;
}

static void bench(uint8_t format, uint64_t total)
{
	struct mlx5diag_decoder dec;
	struct mlx5diag_item *items = malloc(ROOM * sizeof(*items));
	struct stream s;
	uint8_t *dst;
	uint64_t rounds, r, n_items = 0, checksum = 0;
	double t0, t_decode, t_copy;

	build(&s, format);
	dst = malloc(s.len);
	if (!items || !dst || mlx5diag_decoder_init(&dec, NULL))
		exit(1);
	rounds = (total + s.len - 1) / s.len;

	memcpy(dst, s.buf, s.len);	/* fault the pages in */
	t0 = now();
	for (r = 0; r < rounds; r++) {
		memcpy(dst, s.buf, s.len);
		checksum += dst[r % s.len];
		__asm__ __volatile__("" : : "r"(dst) : "memory");
	}
	t_copy = now() - t0;

	decode_once(&s, &dec, items, &checksum);
	t0 = now();
	for (r = 0; r < rounds; r++)
		n_items += decode_once(&s, &dec, items, &checksum);
	t_decode = now() - t0;

	printf("format %u: %llu MiB (%llu x %.1f MiB stream), %llu items\n",
	       format, (unsigned long long)(rounds * s.len >> 20),
	       (unsigned long long)rounds, s.len / 1048576.0,
	       (unsigned long long)n_items);
	printf("  decode %8.1f MB/s  %6.1f M items/s\n",
	       rounds * s.len / t_decode / 1e6, n_items / t_decode / 1e6);
	printf("  memcpy %8.1f MB/s\n", rounds * s.len / t_copy / 1e6);
	printf("  decode / memcpy = %.3f   (checksum %llx)\n",
	       t_copy / t_decode, (unsigned long long)checksum);
	mlx5diag_decoder_exit(&dec);
	stream_free(&s);
	free(dst);
	free(items);
}

int main(int argc, char **argv)
{
	uint64_t total_mib = argc > 1 ? strtoull(argv[1], NULL, 0) : 256;

	if (!total_mib) {
		fprintf(stderr, "usage: %s [TOTAL_MIB]\n", argv[0]);
		return 2;
	}
	bench(MLX5_DIAG_FORMAT_0, total_mib << 20);
	bench(MLX5_DIAG_FORMAT_1, total_mib << 20);
	return 0;
}
