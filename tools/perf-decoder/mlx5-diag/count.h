/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting what goes by in an AUX stream, for the recorder's status line:
 * samples, lost samples, runs, the last END reason. It only walks record
 * headers (include/uapi/linux/mlx5_diag.h); decoding is the decoder's job.
 * The stream may arrive in pieces cut anywhere.
 */
#ifndef MLX5_DIAG_COUNT_H
#define MLX5_DIAG_COUNT_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of a record the counter looks at: header + 16. */
#define COUNT_HEAD	24

struct count_state {
	uint64_t samples;	/* in SAMPLES records */
	uint64_t lost;		/* in LOST records */
	uint64_t records;
	uint32_t runs;		/* SESSION records */
	uint32_t end_reason;	/* of the last END record, 0: none yet */
	int run_ended;		/* the last run's END went by */
	int bad;		/* a record size that is not a multiple of 8 or < 8 */
	/* the record being walked */
	uint64_t left;		/* bytes of it still to come */
	unsigned char head[COUNT_HEAD];
	size_t have;		/* bytes of head[] filled */
};

/* Walk LEN more bytes of the stream. After a bad size it counts nothing more. */
void count_feed(struct count_state *c, const void *buf, size_t len);

#endif /* MLX5_DIAG_COUNT_H */
