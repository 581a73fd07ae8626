/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tests' own reading of the firmware layouts: bit offsets written from
 * Documentation/driver-api/mlx5-diag-firmware.rst, MSB first in big-endian
 * dwords, independent of the driver's mlx5_ifc-style declarations.
 */
#ifndef _MLX5_DIAG_TEST_BITS_H
#define _MLX5_DIAG_TEST_BITS_H

#include <linux/types.h>

static inline u64 tb_get(const void *buf, unsigned int off, unsigned int width)
{
	const u8 *p = buf;
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int bit = off + i;

		v = v << 1 | ((p[bit / 8] >> (7 - bit % 8)) & 1);
	}
	return v;
}

static inline void tb_put(void *buf, unsigned int off, unsigned int width,
			  u64 v)
{
	u8 *p = buf;
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int bit = off + width - 1 - i;
		u8 m = 1 << (7 - bit % 8);

		if ((v >> i) & 1)
			p[bit / 8] |= m;
		else
			p[bit / 8] &= ~m;
	}
}

#endif /* _MLX5_DIAG_TEST_BITS_H */
