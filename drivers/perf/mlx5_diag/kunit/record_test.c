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

/*
 * A SAMPLES record of @nr samples from @first_seq, sample by sample then
 * its frame, as a session stages one; entry i of sample k has timestamp
 * ts[k * num_ids + i] and value val[k * num_ids + i].
 */
static size_t rt_put_samples(void *buf, u8 out_format, unsigned int num_ids,
			     const u64 *ids, u64 first_seq, unsigned int nr,
			     const u64 *ts, const u64 *val)
{
	unsigned int k;

	for (k = 0; k < nr; k++)
		mlx5_diag_rec_put_sample(buf +
					 mlx5_diag_rec_sample_offset(out_format,
								     num_ids, k),
					 out_format, num_ids, ids,
					 first_seq + k,
					 &ts[(size_t)k * num_ids],
					 &val[(size_t)k * num_ids]);
	return mlx5_diag_rec_put_samples_frame(buf, out_format, num_ids,
					       first_seq, nr);
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
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_END_STALLED, 5);
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
	n = rt_put_samples(buf, MLX5_DIAG_FORMAT_0, RT_IDS, rt_ids, first,
			   RT_NR, rt_ts, rt_val);
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
	n = rt_put_samples(buf, fmt, num, rt_ids, first, nr, rt_ts, rt_val);
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
	rt_put_samples(buf, MLX5_DIAG_FORMAT_1, RT_IDS, rt_ids, 0, RT_NR, rt_ts,
		       rt_val);
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
	rt_put_samples(buf, MLX5_DIAG_FORMAT_2, RT_IDS, rt_ids, 0, RT_NR, rt_ts,
		       rt_val);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 24 + 16, 4), 0x9abcdef0);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 52 + 16, 4), 1);
	KUNIT_EXPECT_EQ(test, rt_get(buf, 52 + 20, 4), 0x76543210);
}

/*
 * A SAMPLES record as a session stages it: each sample in place, last
 * first, in bytes that held something else, then its frame: the bytes of
 * the whole record written at once, padding included (format 2, one
 * sample: 52 bytes padded to 56).
 */
static void record_samples_in_place_test(struct kunit *test)
{
	static const u8 fmts[] = {
		MLX5_DIAG_FORMAT_0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_FORMAT_2,
	};
	const u64 first = 0xfffffffeULL;
	unsigned int f, nr, k;
	size_t n, ssize;
	u8 *buf, *exp;

	for (f = 0; f < ARRAY_SIZE(fmts); f++) {
		for (nr = 1; nr <= RT_NR; nr++) {
			ssize = mlx5_diag_rec_sample_size(fmts[f], RT_IDS);
			rt_bufs(test, &buf, &exp);
			memset(exp, RT_POISON, RT_BUF);
			n = rt_put_samples(exp, fmts[f], RT_IDS, rt_ids, first,
					   nr, rt_ts, rt_val);
			memset(buf, RT_POISON, RT_BUF);
			memset(buf, 0x5a, n);
			for (k = nr; k--;) {
				KUNIT_EXPECT_EQ(test,
						mlx5_diag_rec_sample_offset(fmts[f],
									    RT_IDS, k),
						24 + k * ssize);
				KUNIT_EXPECT_EQ(test,
						mlx5_diag_rec_put_sample(buf + 24 + k * ssize,
									 fmts[f], RT_IDS,
									 rt_ids, first + k,
									 &rt_ts[k * RT_IDS],
									 &rt_val[k * RT_IDS]),
						ssize);
			}
			KUNIT_EXPECT_EQ(test,
					mlx5_diag_rec_put_samples_frame(buf, fmts[f],
									RT_IDS, first,
									nr), n);
			rt_check(test, buf, exp, n, "in place");
		}
	}
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_samples_size(MLX5_DIAG_FORMAT_2,
							 RT_IDS, 1), 56);
}

static void record_sync_test(struct kunit *test)
{
	u8 *buf, *exp;
	size_t n;

	rt_bufs(test, &buf, &exp);
	n = mlx5_diag_rec_put_sync(buf);
	KUNIT_EXPECT_EQ(test, n, 16);
	rt_hdr(exp, 7, 16);
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_REC_SYNC, 7);
	memcpy(&exp[8], "MLX5DSYN", 8);
	rt_check(test, buf, exp, n, "sync");
	KUNIT_EXPECT_EQ(test, MLX5_DIAG_SESSION_F_CHUNK, 1);
}

/* At a free-running head, wrapping; more than the ring keeps the last. */
static void record_ring_copy_test(struct kunit *test)
{
	static const u8 src[40] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
		18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
		33, 34, 35, 36, 37, 38, 39, 40,
	};
	static const u8 wrapped[16] = {
		5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4,
	};
	/* bytes 25..40 at offsets 27..42, i.e. 11..15 then 0..10 */
	static const u8 last[16] = {
		30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 25, 26, 27, 28, 29,
	};
	u8 ring[16] = {};

	mlx5_diag_rec_ring_copy(ring, sizeof(ring), 0x100000000cULL, src, 8);
	KUNIT_EXPECT_MEMEQ(test, ring, wrapped, sizeof(ring));
	mlx5_diag_rec_ring_copy(ring, sizeof(ring), 3, src, 40);
	KUNIT_EXPECT_MEMEQ(test, ring, last, sizeof(ring));
}

/* The largest chunk: SYNC, SESSION, 2 TIME, one sample or a PERIOD. */
static void record_chunk_min_test(struct kunit *test)
{
	/* 16 + 128 + 64 + (24 + 80) */
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_chunk_min(MLX5_DIAG_FORMAT_0, 3), 312);
	/* 16 + 96 + 64 + max(24 + 20 padded to 48, PERIOD 48) */
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_chunk_min(MLX5_DIAG_FORMAT_2, 1), 224);
	/* 16 + 336 + 64 + (24 + 16 + 128) */
	KUNIT_EXPECT_EQ(test, mlx5_diag_rec_chunk_min(MLX5_DIAG_FORMAT_1, 16), 584);
}

/* A record stream built with the encoders (tested above). */
struct rt_stream {
	u8 *p;
	size_t len;
};

static struct rt_stream rt_stream(struct kunit *test, size_t cap)
{
	struct rt_stream st = { .p = kunit_kzalloc(test, cap, GFP_KERNEL) };

	KUNIT_ASSERT_NOT_NULL(test, st.p);
	return st;
}

static const struct mlx5_diag_rec_session_info rt_info = {
	.freq_khz = 156250, .mode = MLX5_DIAG_MODE_REPETITIVE,
	.out_format = MLX5_DIAG_FORMAT_0, .log_sample_period = 14,
	.log_num_of_samples = 10, .fw_sample_id_bits = 16, .run = 5,
	.period_ns_requested = 100000, .period_ns_actual = 104857,
	.identifier = "sim:0",
};

static const u8 rt_vclass[RT_IDS];

/* SESSION of run @run; @chunk: as a repeat (flags at byte 28). */
static void rt_session(struct rt_stream *st, u32 run, bool chunk)
{
	struct mlx5_diag_rec_session_info info = rt_info;

	info.run = run;
	mlx5_diag_rec_put_session(st->p + st->len, &info, RT_IDS, rt_ids,
				  rt_vclass);
	if (chunk)
		rt_le(st->p, st->len + 28, 4, MLX5_DIAG_SESSION_F_CHUNK);
	st->len += mlx5_diag_rec_session_size(RT_IDS);
}

static void rt_time_at(struct rt_stream *st, u64 t, u64 perf)
{
	st->len += mlx5_diag_rec_put_time(st->p + st->len, t, perf, 7);
}

static void rt_time(struct rt_stream *st, u64 t)
{
	rt_time_at(st, t, t * 10);
}

static void rt_sync(struct rt_stream *st)
{
	st->len += mlx5_diag_rec_put_sync(st->p + st->len);
}

/* Format 0 samples @first.. of the 2 sample pattern, repeated. */
static void rt_samples(struct rt_stream *st, u64 first, unsigned int nr)
{
	u64 ts[12 * RT_IDS], val[12 * RT_IDS];
	unsigned int k;

	for (k = 0; k < nr * RT_IDS; k++) {
		ts[k] = rt_ts[k % (RT_NR * RT_IDS)] + (k / RT_IDS) * 1000;
		val[k] = rt_val[k % (RT_NR * RT_IDS)] + k;
	}
	st->len += rt_put_samples(st->p + st->len, MLX5_DIAG_FORMAT_0, RT_IDS,
				  rt_ids, first, nr, ts, val);
}

/*
 * Samples @first .. @first + @part - 1 of rt_samples(0, @nr), as a record
 * of their own: its header by hand, the samples' bytes as they were.
 */
static void rt_samples_part(struct kunit *test, struct rt_stream *st,
			    unsigned int nr, unsigned int first,
			    unsigned int part)
{
	struct rt_stream all = rt_stream(test, RT_BUF);
	size_t size = 24 + part * 80;

	rt_samples(&all, 0, nr);
	rt_samples_hdr(st->p + st->len, size, first, part, 80, 0);
	memcpy(st->p + st->len + 24, all.p + 24 + first * 80, part * 80);
	st->len += size;
}

struct rt_ring {
	u8 *p;
	size_t size;
	u64 head;
};

/* Write @in as chunks; the bytes written must be the end of @want. */
static void rt_chunks(struct kunit *test, struct mlx5_diag_chunk_state *cs,
		      struct rt_ring *r, const struct rt_stream *in,
		      const struct rt_stream *want, const char *what)
{
	u64 from = r->head;
	size_t n, i;

	r->head = mlx5_diag_rec_put_chunks(cs, in->p, in->len, r->p, r->size,
					   r->head);
	KUNIT_EXPECT_EQ_MSG(test, r->head - from, want->len, "%s: bytes", what);
	n = min_t(size_t, want->len, r->size);
	for (i = 0; i < n; i++) {
		u64 at = r->head - n + i;

		if (r->p[at & (r->size - 1)] != want->p[want->len - n + i]) {
			KUNIT_FAIL(test, "%s: byte %zu of %zu is 0x%02x, expected 0x%02x",
				   what, want->len - n + i, want->len,
				   r->p[at & (r->size - 1)],
				   want->p[want->len - n + i]);
			return;
		}
	}
}

static struct mlx5_diag_chunk_state rt_chunk_state(struct kunit *test)
{
	struct mlx5_diag_chunk_state cs = {
		.session_cap = mlx5_diag_rec_session_size(RT_IDS),
	};

	cs.session = kunit_kzalloc(test, cs.session_cap, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cs.session);
	return cs;
}

/*
 * Publish by publish: a run starts its chunk with its own SESSION; later
 * chunks repeat it (F_CHUNK) with the last two TIME records (one of the
 * same dev_time replaces the last); a PERIOD changes the repeat's period;
 * END closes the run, and the next run's chunk starts with its SESSION
 * again. The ring (4 KiB, chunks up to 2 KiB) starts 40 bytes before a
 * wrap of the free-running head.
 */
static void record_chunks_test(struct kunit *test)
{
	struct mlx5_diag_chunk_state cs = rt_chunk_state(test);
	struct rt_ring r = { .size = 4096, .head = (1ULL << 32) - 40 };
	struct rt_stream in, want;
	struct mlx5_diag_rec_session_info newp = rt_info;
	size_t off;

	r.p = kunit_kzalloc(test, r.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.p);

	in = rt_stream(test, RT_BUF);
	want = rt_stream(test, RT_BUF);
	rt_session(&in, 5, false);
	rt_time(&in, 1000);
	rt_samples(&in, 0, 3);
	rt_sync(&want);
	memcpy(want.p + want.len, in.p, in.len);
	want.len += in.len;
	rt_chunks(test, &cs, &r, &in, &want, "a run starts");
	/* 16 + 128 + 32 + 24 + 3 * 80 */
	KUNIT_EXPECT_EQ(test, want.len, 440);
	KUNIT_EXPECT_TRUE(test, cs.open);

	in = rt_stream(test, RT_BUF);
	want = rt_stream(test, RT_BUF);
	rt_time(&in, 1900);
	rt_samples(&in, 3, 2);
	rt_time(&in, 2000);
	rt_time_at(&in, 2000, 20001);
	rt_sync(&want);
	rt_session(&want, 5, true);
	rt_time(&want, 1000);
	memcpy(want.p + want.len, in.p, in.len);
	want.len += in.len;
	rt_chunks(test, &cs, &r, &in, &want, "the run goes on");
	KUNIT_EXPECT_EQ(test, cs.nr_times, 2);

	/* the repeat before the PERIOD has the old period, after it the new */
	in = rt_stream(test, RT_BUF);
	want = rt_stream(test, RT_BUF);
	in.len += mlx5_diag_rec_put_period(in.p, 5, 2100, 50000, 52428, 13);
	rt_sync(&want);
	rt_session(&want, 5, true);
	rt_time(&want, 1900);
	rt_time_at(&want, 2000, 20001);
	memcpy(want.p + want.len, in.p, in.len);
	want.len += in.len;
	rt_chunks(test, &cs, &r, &in, &want, "a period change");

	in = rt_stream(test, RT_BUF);
	want = rt_stream(test, RT_BUF);
	in.len += mlx5_diag_rec_put_lost(in.p, 5, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	in.len += mlx5_diag_rec_put_end(in.p + in.len, 7, MLX5_DIAG_END_STOPPED);
	rt_sync(&want);
	newp.log_sample_period = 13;
	newp.period_ns_requested = 50000;
	newp.period_ns_actual = 52428;
	off = want.len;
	want.len += mlx5_diag_rec_put_session(want.p + off, &newp, RT_IDS,
					      rt_ids, rt_vclass);
	rt_le(want.p, off + 28, 4, MLX5_DIAG_SESSION_F_CHUNK);
	KUNIT_EXPECT_EQ(test, want.p[off + 21], 13);
	rt_time(&want, 1900);
	rt_time_at(&want, 2000, 20001);
	memcpy(want.p + want.len, in.p, in.len);
	want.len += in.len;
	rt_chunks(test, &cs, &r, &in, &want, "after the period change, END");
	KUNIT_EXPECT_FALSE(test, cs.open);

	in = rt_stream(test, RT_BUF);
	want = rt_stream(test, RT_BUF);
	rt_session(&in, 6, false);
	rt_time(&in, 3000);
	rt_sync(&want);
	memcpy(want.p + want.len, in.p, in.len);
	want.len += in.len;
	rt_chunks(test, &cs, &r, &in, &want, "the next run");

	/* records that left unwritten (no area yet) are followed too */
	mlx5_diag_rec_chunk_track(&cs, in.p);	/* run 6's SESSION again */
	in = rt_stream(test, RT_BUF);
	rt_time(&in, 4000);
	mlx5_diag_rec_chunk_track(&cs, in.p);
	in = rt_stream(test, RT_BUF);
	want = rt_stream(test, RT_BUF);
	rt_samples(&in, 0, 1);
	rt_sync(&want);
	rt_session(&want, 6, true);
	rt_time(&want, 4000);
	memcpy(want.p + want.len, in.p, in.len);
	want.len += in.len;
	rt_chunks(test, &cs, &r, &in, &want, "records tracked unwritten");
}

/*
 * 10 samples of 80 bytes in a 1 KiB ring: chunks up to 512 bytes, each
 * header 176 (SYNC, SESSION of 3 ids, TIME), so 3 samples a chunk
 * (176 + 24 + 240 = 440), then 1: 1600 bytes, whose last 1024 are in the
 * ring.
 */
static void record_chunks_split_test(struct kunit *test)
{
	struct mlx5_diag_chunk_state cs = rt_chunk_state(test);
	struct rt_ring r = { .size = 1024, .head = 8 };
	struct rt_stream in = rt_stream(test, RT_BUF);
	struct rt_stream want = rt_stream(test, RT_BUF);
	unsigned int first;

	r.p = kunit_kzalloc(test, r.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.p);
	rt_session(&in, 5, false);
	rt_time(&in, 1000);
	rt_samples(&in, 0, 10);
	for (first = 0; first < 10; first += 3) {
		rt_sync(&want);
		rt_session(&want, 5, first > 0);
		rt_time(&want, 1000);
		rt_samples_part(test, &want, 10, first, min(3U, 10 - first));
	}
	KUNIT_EXPECT_EQ(test, want.len, 1600);
	rt_chunks(test, &cs, &r, &in, &want, "10 samples cut in 4 chunks");
}

/*
 * Chunks smaller than their header (a 256-byte ring): each holds one
 * sample all the same (176 + 104 bytes).
 */
static void record_chunks_over_limit_test(struct kunit *test)
{
	struct mlx5_diag_chunk_state cs = rt_chunk_state(test);
	struct rt_ring r = { .size = 256 };
	struct rt_stream in = rt_stream(test, RT_BUF);
	struct rt_stream want = rt_stream(test, RT_BUF);

	r.p = kunit_kzalloc(test, r.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.p);
	rt_session(&in, 5, false);
	rt_time(&in, 1000);
	mlx5_diag_rec_chunk_track(&cs, in.p);
	mlx5_diag_rec_chunk_track(&cs, in.p + mlx5_diag_rec_session_size(RT_IDS));
	in = rt_stream(test, RT_BUF);
	rt_samples(&in, 0, 2);
	rt_sync(&want);
	rt_session(&want, 5, true);
	rt_time(&want, 1000);
	rt_samples_part(test, &want, 2, 0, 1);
	rt_sync(&want);
	rt_session(&want, 5, true);
	rt_time(&want, 1000);
	rt_samples_part(test, &want, 2, 1, 1);
	KUNIT_EXPECT_EQ(test, want.len, 560);
	rt_chunks(test, &cs, &r, &in, &want, "one sample a chunk");
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
	KUNIT_CASE(record_samples_in_place_test),
	KUNIT_CASE(record_sync_test),
	KUNIT_CASE(record_ring_copy_test),
	KUNIT_CASE(record_chunk_min_test),
	KUNIT_CASE(record_chunks_test),
	KUNIT_CASE(record_chunks_split_test),
	KUNIT_CASE(record_chunks_over_limit_test),
	{}
};

static struct kunit_suite mlx5_diag_record_suite = {
	.name = "mlx5_diag_record",
	.test_cases = mlx5_diag_record_cases,
};

kunit_test_suite(mlx5_diag_record_suite);
