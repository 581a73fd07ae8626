// SPDX-License-Identifier: GPL-2.0
/*
 * A sink's output buffer (outbuf.h): integer formatting without printf,
 * two decimal digits per step, and the buffer's one fwrite().
 */
#include <errno.h>
#include <stdio.h>

#include "outbuf.h"

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void outbuf_flush(struct sink *s, struct outbuf *b)
{
	if (b->len && fwrite(b->buf, 1, b->len, s->out) != b->len &&
	    !s->write_error)
		s->write_error = errno ? errno : EIO;
	b->len = 0;
}

void outbuf_u64(struct outbuf *b, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof(tmp);

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		i -= 2;
		memcpy(tmp + i, digit_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		i -= 2;
		memcpy(tmp + i, digit_pairs + 2 * v, 2);
	} else {
		tmp[--i] = (char)('0' + v);
	}
	outbuf_mem(b, tmp + i, sizeof(tmp) - i);
}

void outbuf_u32_09(struct outbuf *b, uint32_t v)
{
	char *p = b->buf + b->len;
	int i;

	p[0] = (char)('0' + v / 100000000);
	v %= 100000000;
	for (i = 7; i > 0; i -= 2) {
		memcpy(p + i, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	b->len += 9;
}

void outbuf_hex016(struct outbuf *b, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char *p = b->buf + b->len;
	int i;

	p[0] = '0';
	p[1] = 'x';
	for (i = 17; i > 1; i--, v >>= 4)
		p[i] = hex[v & 15];
	b->len += 18;
}
