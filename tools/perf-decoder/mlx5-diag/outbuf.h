/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sink's output buffer: text and integers appended without printf, the
 * buffer written with one fwrite() when the sink says (at the end of a
 * line) or when it fills. For sinks (sink.h); write errors go to the
 * sink's write_error.
 */
#ifndef MLX5_DIAG_OUTBUF_H
#define MLX5_DIAG_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sink.h"

/* the room outbuf_room() leaves: the appends after it may take that much */
#define OUTBUF_FIELD	128
#define OUTBUF_SIZE	8192

struct outbuf {
	size_t len;
	char buf[OUTBUF_SIZE];
};

/* outbuf_flush - write what B holds to S->out. */
void outbuf_flush(struct sink *s, struct outbuf *b);

/* outbuf_room - flush B unless OUTBUF_FIELD bytes are free: before appends. */
static inline void outbuf_room(struct sink *s, struct outbuf *b)
{
	if (b->len > OUTBUF_SIZE - OUTBUF_FIELD)
		outbuf_flush(s, b);
}

/* outbuf_mem - LEN bytes (at most OUTBUF_FIELD) of STR. */
static inline void outbuf_mem(struct outbuf *b, const char *str, size_t len)
{
	memcpy(b->buf + b->len, str, len);
	b->len += len;
}

/* outbuf_u64 - V in decimal, as "%" PRIu64. */
void outbuf_u64(struct outbuf *b, uint64_t v);

/* outbuf_u32_09 - V (< 10^9) in 9 decimal digits, zero-padded, as "%09u". */
void outbuf_u32_09(struct outbuf *b, uint32_t v);

/* outbuf_hex016 - V in 16 lowercase hex digits, as "0x%016" PRIx64. */
void outbuf_hex016(struct outbuf *b, uint64_t v);

#endif /* MLX5_DIAG_OUTBUF_H */
