// SPDX-License-Identifier: GPL-2.0
/* Counting samples and losses in an AUX stream by walking record headers. */
#include "count.h"

#include <stddef.h>
#include <string.h>

#include <linux/mlx5_diag.h>

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

/* The record in c->head is complete enough (COUNT_HEAD bytes or all of it). */
static void account(struct count_state *c, uint32_t size)
{
	unsigned int type = (unsigned int)le(c->head, 2);

	c->records++;
	switch (type) {
	case MLX5_DIAG_REC_SESSION:
		c->runs++;
		c->run_ended = 0;
		break;
	case MLX5_DIAG_REC_SAMPLES:
		if (size >= offsetof(struct mlx5_diag_rec_samples, nr_samples) + 4)
			c->samples += le(c->head + offsetof(struct mlx5_diag_rec_samples,
							    nr_samples), 4);
		break;
	case MLX5_DIAG_REC_LOST:
		if (size >= offsetof(struct mlx5_diag_rec_lost, count) + 8)
			c->lost += le(c->head + offsetof(struct mlx5_diag_rec_lost, count), 8);
		break;
	case MLX5_DIAG_REC_END:
		c->run_ended = 1;
		if (size >= offsetof(struct mlx5_diag_rec_end, reason) + 4)
			c->end_reason = (uint32_t)le(c->head +
				offsetof(struct mlx5_diag_rec_end, reason), 4);
		break;
	}
}

void count_feed(struct count_state *c, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len && !c->bad) {
		uint32_t size;
		size_t want, n;

		if (c->left) {
			/* inside a record whose head was accounted */
			n = len < c->left ? len : (size_t)c->left;
			c->left -= n;
			p += n;
			len -= n;
			continue;
		}
		/* gather the head of the next record */
		want = c->have < 8 ? 8 : COUNT_HEAD;
		if (c->have >= 8) {
			size = (uint32_t)le(c->head + 4, 4);
			if (size < want)
				want = size;
		}
		n = want - c->have;
		if (n > len)
			n = len;
		memcpy(c->head + c->have, p, n);
		c->have += n;
		p += n;
		len -= n;
		if (c->have < 8)
			continue;
		size = (uint32_t)le(c->head + 4, 4);
		if (size < 8 || size % MLX5_DIAG_REC_ALIGN) {
			c->bad = 1;
			break;
		}
		if (c->have < (size < COUNT_HEAD ? size : COUNT_HEAD))
			continue;
		account(c, size);
		c->left = size - c->have;
		c->have = 0;
	}
}
