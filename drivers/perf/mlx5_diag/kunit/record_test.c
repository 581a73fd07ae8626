// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the AUX record encoders (mlx5_diag_record.c) byte for byte. The
 * expected bytes are written from the offsets of include/uapi/linux/
 * mlx5_diag.h ("Sampling sessions") by hand, little-endian, never through
 * the structs, so a layout change in either shows. Every encoder writes
 * into a poisoned buffer: each byte of the record is checked (reserved
 * fields and padding zero) and the bytes after it untouched.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mlx5_diag_record.h"

#define RT_POISON	0xa5
#define RT_BUF		2048

static void rt_le(u8 *p, size_t off, unsigned int bytes, u64 v)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[off + i] = v >> (8 * i);
}

static u64 rt_get(const u8 *p, size_t off, unsigned int bytes)
{
	u64 v = 0;

	while (bytes--)
		v = v << 8 | p[off + bytes];
	return v;
}

/* A poisoned output buffer and a zeroed expected one. */
static void rt_bufs(struct kunit *test, u8 **buf, u8 **exp)
{
	*buf = kunit_kmalloc(test, RT_BUF, GFP_KERNEL);
	*exp = kunit_kzalloc(test, RT_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *buf);
	KUNIT_ASSERT_NOT_NULL(test, *exp);
	memset(*buf, RT_POISON, RT_BUF);
}

/* The record header: type, reserved 0, size. */
static void rt_hdr(u8 *exp, u16 type, u32 size)
{
	rt_le(exp, 0, 2, type);
	rt_le(exp, 2, 2, 0);
	rt_le(exp, 4, 4, size);
}

/* @size bytes as expected, the rest of the buffer untouched. */
static void rt_check(struct kunit *test, const u8 *buf, const u8 *exp,
		     size_t size, const char *what)
{
	size_t i;

	KUNIT_EXPECT_EQ_MSG(test, size % 8, 0, "%s: size %zu", what, size);
	for (i = 0; i < size; i++) {
		if (buf[i] != exp[i]) {
			KUNIT_FAIL(test, "%s: byte %zu is 0x%02x, expected 0x%02x",
				   what, i, buf[i], exp[i]);
			return;
		}
	}
	for (; i < RT_BUF; i++) {
		if (buf[i] != RT_POISON) {
			KUNIT_FAIL(test, "%s: byte %zu past the record written",
				   what, i);
			return;
		}
	}
}

static void record_time_test(struct kunit *test)
{
	u8 *buf, *exp;
	size_t n;

	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_time(buf, 0x0123456789abcdefULL,
				   0xfedcba9876543210ULL, 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, n, 32);
	rt_hdr(exp, MLX5_DIAG_REC_TIME, 32);
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_REC_TIME, 3);
	rt_le(exp, 8, 8, 0x0123456789abcdefULL);
	rt_le(exp, 16, 8, 0xfedcba9876543210ULL);
	rt_le(exp, 24, 8, 0x1122334455667788ULL);
	rt_check(test, buf, exp, n, "time");
}

static void record_lost_test(struct kunit *test)
{
	u8 *buf, *exp;
	size_t n;

	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_lost(buf, 0x100000007ULL, 0x8000000000000001ULL,
				   MLX5_DIAG_LOST_FW_OVERWRITE);
	KUNIT_EXPECT_EQ(test, n, 32);
	rt_hdr(exp, 4, 32);
	rt_le(exp, 8, 8, 0x100000007ULL);
	rt_le(exp, 16, 8, 0x8000000000000001ULL);
	rt_le(exp, 24, 4, 1);
	rt_check(test, buf, exp, n, "lost");

	memset(buf, RT_POISON, RT_BUF);
	n = mlx5_diag_rec_put_lost(buf, 5, 3, MLX5_DIAG_LOST_AUX_FULL);
	rt_le(exp, 8, 8, 5);
	rt_le(exp, 16, 8, 3);
	rt_le(exp, 24, 4, 2);
	rt_check(test, buf, exp, n, "lost aux");
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_LOST_RESET, 3);
}

static void record_period_test(struct kunit *test)
{
	u8 *buf, *exp;
	size_t n;

	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_period(buf, 0x1234, 0xffffffff00000001ULL,
				     100000, 104857, 14);
	KUNIT_EXPECT_EQ(test, n, 48);
	rt_hdr(exp, 5, 48);
	rt_le(exp, 8, 8, 0x1234);
	rt_le(exp, 16, 8, 0xffffffff00000001ULL);
	rt_le(exp, 24, 8, 100000);
	rt_le(exp, 32, 8, 104857);
	exp[40] = 14;
	rt_check(test, buf, exp, n, "period");
}

static void record_end_test(struct kunit *test)
{
	u8 *buf, *exp;
	size_t n;

	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_end(buf, 0xa0000000b, MLX5_DIAG_END_FULL);
	KUNIT_EXPECT_EQ(test, n, 24);
	rt_hdr(exp, 6, 24);
	rt_le(exp, 8, 8, 0xa0000000b);
	rt_le(exp, 16, 4, 4);
	rt_check(test, buf, exp, n, "end");
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_END_STOPPED, 1);
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_END_REMOVED, 2);
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_END_TAKEN, 3);
}

/* The session record: fixed part, identifier NUL-padded, then the ids. */
static void record_session_test(struct kunit *test)
{
	static const u64 ids[3] = {
		0x1140000300000001ULL, 0x1160000b00000000ULL, 0x2006ULL,
	};
	static const u8 vclass[3] = {
		MLX5_DIAG_VCLASS_COUNTER, MLX5_DIAG_VCLASS_STAT_SUM,
		MLX5_DIAG_VCLASS_STAT_MIN,
	};
	const struct mlx5_diag_rec_session_info info = {
		.freq_khz = 156250, .mode = MLX5_DIAG_MODE_SINGLE, .sync = 1,
		.clear = 1, .out_format = MLX5_DIAG_FORMAT_2,
		.ts_source = MLX5_DIAG_TS_RTC, .log_sample_period = 17,
		.log_num_of_samples = 11, .fw_sample_id_bits = 16,
		.run = 0x01020304, .period_ns_requested = 0x1122334455ULL,
		.period_ns_actual = 838860, .identifier = "sim:1",
	};
	struct mlx5_diag_rec_session_info longid = info;
	u8 *buf, *exp;
	size_t n, i;

	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_session_size(0), 80);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_session_size(3), 128);
	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_session(buf, &info, 3, ids, vclass);
	KUNIT_EXPECT_EQ(test, n, 128);
	rt_hdr(exp, 1, 128);
	rt_le(exp, 8, 2, MLX5_DIAG_ABI_VERSION);
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_ABI_VERSION, 1);
	rt_le(exp, 10, 2, 3);
	rt_le(exp, 12, 4, 156250);
	exp[16] = 1;		/* mode */
	exp[17] = 1;		/* sync */
	exp[18] = 1;		/* clear */
	exp[19] = 2;		/* out_format */
	exp[20] = 1;		/* ts_source */
	exp[21] = 17;
	exp[22] = 11;
	exp[23] = 16;
	rt_le(exp, 24, 4, 0x01020304);
	rt_le(exp, 32, 8, 0x1122334455ULL);
	rt_le(exp, 40, 8, 838860);
	memcpy(&exp[48], "sim:1", 5);	/* then 27 NUL bytes */
	for (i = 0; i < 3; i++) {
		rt_le(exp, 80 + 16 * i, 8, ids[i]);
		exp[80 + 16 * i + 8] = vclass[i];
	}
	rt_check(test, buf, exp, n, "session");

	/* a longer identifier is cut to 31 characters and its NUL */
	longid.identifier = "0000:08:00.0-abcdefghijklmnopqrstuvwxyz";
	memset(buf, RT_POISON, RT_BUF);
	n = mlx5_diag_rec_put_session(buf, &longid, 0, NULL, NULL);
	KUNIT_EXPECT_EQ(test, n, 80);
	rt_hdr(exp, 1, 80);
	rt_le(exp, 10, 2, 0);
	memcpy(&exp[48], longid.identifier, 31);
	exp[79] = 0;
	rt_check(test, buf, exp, n, "session, long identifier");
}

/* One period of 2^l clocks, in ns, truncated; 0 for an unknown clock. */
static void record_period_ns_test(struct kunit *test)
{
	/* 16384 clocks at 156.25 MHz: 104857.6 ns */
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(14, 156250), 104857);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(0, 1000000), 1);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(0, 156250), 6);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(10, 1000), 1024000);
	/* 2^35 clocks at 156.25 MHz, no overflow: 219902325555.2 ns */
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(35, 156250),
			219902325555ULL);
	/* 2^40 clocks at the fastest clock the emulator takes (10 GHz) */
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(40, 10000000),
			109951162777ULL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_period_ns(14, 0), 0);
}

#define RT_IDS	3
#define RT_NR	2

static const u64 rt_ids[RT_IDS] = {
	0x1140000300000001ULL, 0x1020000100000000ULL, 0x2006ULL,
};

/*
 * Sample 0: timestamps that differ per entry, the earliest one not the
 * first. Sample 1: they straddle a 2^32 boundary, so latest_ts_l is below
 * earliest_ts_l. Values wider than 32 bits.
 */
static const u64 rt_ts[RT_NR * RT_IDS] = {
	0x00000005fffff000ULL, 0x00000005ffffe000ULL, 0x00000005fffff800ULL,
	0x00000006fffffff0ULL, 0x0000000700000010ULL, 0x00000006ffffffffULL,
};

static const u64 rt_val[RT_NR * RT_IDS] = {
	0x123456789abcdef0ULL, 7, 0xffffffffULL,
	0x100000001ULL, 0xfedcba9876543210ULL, 0,
};

/* The samples header, 24 bytes. */
static void rt_samples_hdr(u8 *exp, u32 size, u64 first_seq, u32 nr,
			   u16 ssize, u8 fmt)
{
	rt_hdr(exp, 2, size);
	rt_le(exp, 8, 8, first_seq);
	rt_le(exp, 16, 4, nr);
	rt_le(exp, 20, 2, ssize);
	exp[22] = fmt;
	exp[23] = 0;
}

/* Format 0: every entry its id, timestamp (h, l) and 64-bit value. */
static void record_samples_fmt0_test(struct kunit *test)
{
	/* first_seq + 1 crosses 2^32: sample ids 0xffffffff, then 0 */
	const u64 first = 0x2ffffffffULL;
	u8 *buf, *exp;
	size_t n, off;
	unsigned int k, i;

	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_sample_size(0, RT_IDS), 8 + 72);
	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_samples(buf, MLX5_DIAG_FORMAT_0, RT_IDS, rt_ids,
				      first, RT_NR, rt_ts, rt_val);
	/* 24 + 2 * 80 = 184: a multiple of 8 already */
	KUNIT_EXPECT_EQ(test, n, 184);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_samples_size(0, RT_IDS, RT_NR), n);
	rt_samples_hdr(exp, 184, first, RT_NR, 80, 0);
	for (k = 0, off = 24; k < RT_NR; k++) {
		rt_le(exp, off, 4, lower_32_bits(first + k));
		rt_le(exp, off + 4, 4, 0);
		off += 8;
		for (i = 0; i < RT_IDS; i++, off += 24) {
			rt_le(exp, off, 8, rt_ids[i]);
			rt_le(exp, off + 8, 4, upper_32_bits(rt_ts[k * RT_IDS + i]));
			rt_le(exp, off + 12, 4, lower_32_bits(rt_ts[k * RT_IDS + i]));
			rt_le(exp, off + 16, 8, rt_val[k * RT_IDS + i]);
		}
	}
	KUNIT_EXPECT_EQ(test, exp[24], 0xff);
	KUNIT_EXPECT_EQ(test, exp[24 + 80], 0);
	rt_check(test, buf, exp, n, "format 0");
}

/* Format 1 and 2: the timestamp range, then 64- or 32-bit values. */
static void rt_fmt12(struct kunit *test, u8 fmt, unsigned int num,
		     unsigned int nr, size_t want_size)
{
	const unsigned int vbytes = fmt == MLX5_DIAG_FORMAT_1 ? 8 : 4;
	const size_t ssize = 16 + num * vbytes;
	const u64 first = 0xfffffffeULL;
	u8 *buf, *exp;
	size_t n, off;
	unsigned int k, i;

	rt_bufs(test, &buf, &exp);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_sample_size(fmt, num), ssize);
	n = mlx5_diag_rec_put_samples(buf, fmt, num, rt_ids, first, nr,
				      rt_ts, rt_val);
	KUNIT_EXPECT_EQ(test, n, want_size);
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_samples_size(fmt, num, nr), n);
	rt_samples_hdr(exp, want_size, first, nr, ssize, fmt);
	for (k = 0, off = 24; k < nr; k++) {
		const u64 *t = &rt_ts[k * RT_IDS];
		u64 lo = t[0], hi = t[0];

		for (i = 1; i < num; i++) {
			lo = min(lo, t[i]);
			hi = max(hi, t[i]);
		}
		rt_le(exp, off, 4, lower_32_bits(first + k));
		rt_le(exp, off + 4, 4, upper_32_bits(lo));
		rt_le(exp, off + 8, 4, lower_32_bits(lo));
		rt_le(exp, off + 12, 4, lower_32_bits(hi));
		off += 16;
		for (i = 0; i < num; i++, off += vbytes)
			rt_le(exp, off, vbytes, rt_val[k * RT_IDS + i]);
	}
	rt_check(test, buf, exp, n, fmt == 1 ? "format 1" : "format 2");
}

static void record_samples_fmt12_test(struct kunit *test)
{
	u8 *buf, *exp;

	/* format 1: 24 + 2 * (16 + 24) = 104 */
	rt_fmt12(test, MLX5_DIAG_FORMAT_1, RT_IDS, RT_NR, 104);
	/* format 2: 24 + 2 * (16 + 12) = 80 */
	rt_fmt12(test, MLX5_DIAG_FORMAT_2, RT_IDS, RT_NR, 80);
	/* format 2, one sample of 3 ids: 24 + 28 = 52, padded to 56 */
	rt_fmt12(test, MLX5_DIAG_FORMAT_2, RT_IDS, 1, 56);
	/* format 2, one sample of 1 id: 24 + 20 = 44, padded to 48 */
	rt_fmt12(test, MLX5_DIAG_FORMAT_2, 1, 1, 48);
	/* no sample: the header alone */
	rt_fmt12(test, MLX5_DIAG_FORMAT_1, RT_IDS, 0, 24);

	/* the hand-written reading of the values in rt_fmt12() */
	rt_bufs(test, &buf, &exp);
	mlx5_diag_rec_put_samples(buf, MLX5_DIAG_FORMAT_1, RT_IDS, rt_ids,
				  0, RT_NR, rt_ts, rt_val);
	/* sample 0: earliest is entry 1, latest entry 2 */
	KUNIT_EXPECT_EQ(test, rt_get(buf, 24 + 4, 4), 5);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 24 + 8, 4), 0xffffe000);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 24 + 12, 4), 0xfffff800);
	/* sample 1: earliest 0x6_fffffff0, latest 0x7_00000010, wrapped */
	KUNIT_EXPECT_EQ(test, rt_get(buf, 64 + 4, 4), 6);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 64 + 8, 4), 0xfffffff0);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 64 + 12, 4), 0x10);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 64 + 16 + 8, 8),
			0xfedcba9876543210ULL);

	/* format 2 keeps the low 32 bits */
	memset(buf, RT_POISON, RT_BUF);
	mlx5_diag_rec_put_samples(buf, MLX5_DIAG_FORMAT_2, RT_IDS, rt_ids,
				  0, RT_NR, rt_ts, rt_val);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 24 + 16, 4), 0x9abcdef0);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 52 + 16, 4), 1);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 52 + 20, 4), 0x76543210);
}

static struct kunit_case mlx5_diag_record_cases[] = {
	KUNIT_CASE(record_time_test),
	KUNIT_CASE(record_lost_test),
	KUNIT_CASE(record_period_test),
	KUNIT_CASE(record_end_test),
	KUNIT_CASE(record_session_test),
	KUNIT_CASE(record_period_ns_test),
	KUNIT_CASE(record_samples_fmt0_test),
	KUNIT_CASE(record_samples_fmt12_test),
	{}
};

static struct kunit_suite mlx5_diag_record_suite = {
	.name = "mlx5_diag_record",
	.test_cases = mlx5_diag_record_cases,
};

kunit_test_suite(mlx5_diag_record_suite);
