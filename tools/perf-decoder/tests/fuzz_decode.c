// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of libmlx5diag. The first 4 bytes steer the decode, the
 * rest is the stream:
 *   byte 0: room of the item array, 1 + byte % 16
 *   bytes 1-2: the stream is delivered in two pieces cut there (le16,
 *              modulo the stream's length + 1)
 *   byte 3: bit 0 set: small limits (max_ids 4, max_record_size 256)
 * The stream is decoded twice: whole with a large item array, and cut with
 * the small one. Both must give the same items and the same error at the
 * same offset, and every call must keep its contract (consumed <= given,
 * produced <= room, a SESSION item only last). Any difference aborts.
 * mlx5diag_find_sync() on the stream must give -ENOENT or an 8-aligned
 * offset of a SYNC record.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5diag.h"

#define BIG_ROOM 4096
#define MAX_ITEMS (1u << 20)

struct run {
	struct mlx5diag_item *items;
	size_t n;
	int err;
	uint64_t err_offset;
};

static void decode(const struct mlx5diag_config *cfg, const uint8_t *data,
		   size_t len, size_t cut, size_t room, struct run *r)
{
	struct mlx5diag_decoder dec;
	struct mlx5diag_item *batch = malloc(room * sizeof(*batch));
	uint8_t *pend = malloc(len + 1);
	size_t pend_len = 0, delivered = 0, piece;
	int ret = 0;

	if (!batch || !pend || mlx5diag_decoder_init(&dec, cfg))
		abort();
	r->n = 0;
	r->err = 0;
	for (piece = 0; piece < 2 && ret >= 0; piece++) {
		size_t end = piece == 0 ? cut : len;

		memcpy(pend + pend_len, data + delivered, end - delivered);
		pend_len += end - delivered;
		delivered = end;
		do {
			uint8_t *exact = malloc(pend_len ? pend_len : 1);
			size_t size = pend_len, count = room, i;

			if (!exact)
				abort();
			memcpy(exact, pend, pend_len);
			ret = mlx5diag_decode(&dec, exact, &size, batch, &count);
			free(exact);
			if (size > pend_len || count > room)
				abort();
			for (i = 0; i + 1 < count; i++)
				if (batch[i].kind == MLX5DIAG_ITEM_SESSION)
					abort();
			if (ret == MLX5DIAG_MORE_ITEMS && !size && !count)
				abort();	/* no progress */
			if (r->n + count > MAX_ITEMS)
				abort();
			memcpy(r->items + r->n, batch, count * sizeof(*batch));
			r->n += count;
			memmove(pend, pend + size, pend_len - size);
			pend_len -= size;
		} while (ret == MLX5DIAG_MORE_ITEMS);
	}
	if (ret >= 0)
		ret = mlx5diag_decode_end(&dec, pend_len);
	if (ret < 0) {
		const char *msg = mlx5diag_error_message(&dec, &r->err_offset);

		if (!msg || !*msg || strlen(msg) >= sizeof(dec.error_message))
			abort();
		r->err = ret;
	}
	mlx5diag_decoder_exit(&dec);
	free(batch);
	free(pend);
}

/* In a copy of exactly LEN bytes, so that ASan sees any over-read. */
static void find_sync(const uint8_t *data, size_t len)
{
	uint8_t *exact = malloc(len ? len : 1);
	long off;

	if (!exact)
		abort();
	memcpy(exact, data, len);
	off = mlx5diag_find_sync(exact, len);
	if (off != -ENOENT &&
	    (off < 0 || off % MLX5_DIAG_REC_ALIGN || (size_t)off + 16 > len ||
	     (exact[off] | exact[off + 1] << 8) != MLX5_DIAG_REC_SYNC))
		abort();
	free(exact);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run whole, split;
	struct mlx5diag_config small = { .max_ids = 4, .max_record_size = 256 };
	const struct mlx5diag_config *cfg;
	size_t room, cut, len;

	/* an item takes 4 bytes of input or more, except one gap item per record */
	if (size < 4 || size > MAX_ITEMS)
		return 0;
	if (!whole.items) {
		whole.items = malloc(MAX_ITEMS * sizeof(*whole.items));
		split.items = malloc(MAX_ITEMS * sizeof(*split.items));
		if (!whole.items || !split.items)
			abort();
	}
	room = 1 + data[0] % 16;
	len = size - 4;
	cut = (size_t)(data[1] | data[2] << 8) % (len + 1);
	cfg = data[3] & 1 ? &small : NULL;
	find_sync(data + 4, len);
	decode(cfg, data + 4, len, len, BIG_ROOM, &whole);
	decode(cfg, data + 4, len, cut, room, &split);
	if (whole.err != split.err || whole.n != split.n ||
	    (whole.err && whole.err_offset != split.err_offset) ||
	    (whole.n && memcmp(whole.items, split.items,
			       whole.n * sizeof(*whole.items))))
		abort();
	return 0;
}
