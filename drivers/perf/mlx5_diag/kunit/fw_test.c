// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the firmware command layer puts every field where the firmware
 * document says, decodes every answer field, and maps statuses to errnos.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mlx5_diag_fw.h"
#include "test_bits.h"

static void fw_status_errno_test(struct kunit *test)
{
	static const struct { u8 status; int err; } cases[] = {
		{ 0x0, 0 }, { 0x1, -EIO }, { 0x2, -EINVAL }, { 0x3, -EINVAL },
		{ 0x4, -EIO }, { 0x5, -EINVAL }, { 0x6, -EBUSY },
		{ 0x8, -ENOMEM }, { 0x9, -EINVAL }, { 0xa, -EINVAL },
		{ 0xf, -EAGAIN }, { 0x10, -EINVAL }, { 0x30, -EINVAL },
		{ 0x40, -EINVAL }, { 0x50, -EIO }, { 0x51, -EIO },
		{ 0x7, -EIO }, { 0xff, -EIO },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, mlx5_diag_fw_status_to_errno(cases[i].status),
				    cases[i].err, "status 0x%x", cases[i].status);
	KUNIT_EXPECT_STREQ(test, mlx5_diag_fw_status_name(0x6), "RES_BUSY");
}

static void fw_query_cap_in_test(struct kunit *test)
{
	u8 in[16];

	memset(in, 0xa5, sizeof(in));
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_query_cap_in(in, 0), 16);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x00, 16), 0x100);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x10, 16), 0);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x30, 16), 0x1);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40, 64), 0);
	mlx5_diag_fw_query_cap_in(in, 0xd);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x30, 16), 0x1b);
}

#define CAP	0x80	/* capability offset in the QUERY_HCA_CAP answer */

static void fw_general_cap_test(struct kunit *test)
{
	struct mlx5_diag_caps caps = {};
	u8 *out = kunit_kzalloc(test, mlx5_diag_fw_general_cap_outlen(),
				GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	/* at least the capability union mlx5_core passes (0x8000 bits) */
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_general_cap_outlen(), 16 + 4096);
	tb_put(out, CAP + 0x183, 1, 1);
	tb_put(out, CAP + 0x280, 16, 41);
	tb_put(out, CAP + 0x4c0, 32, 156);
	tb_put(out, CAP + 0x4e0, 32, 156250);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_parse_general_cap(out, &caps), 0);
	KUNIT_EXPECT_TRUE(test, caps.debug);
	KUNIT_EXPECT_EQ(test, caps.num_entries, 41);
	KUNIT_EXPECT_EQ(test, caps.freq_khz, 156250);

	/* no kHz: fall back to MHz */
	tb_put(out, CAP + 0x4e0, 32, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_parse_general_cap(out, &caps), 0);
	KUNIT_EXPECT_EQ(test, caps.freq_khz, 156000);
	/* no frequency at all */
	tb_put(out, CAP + 0x4c0, 32, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_parse_general_cap(out, &caps), -EINVAL);
	/* debug capability off */
	tb_put(out, CAP + 0x183, 1, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_parse_general_cap(out, &caps),
			-EOPNOTSUPP);
}

static void fw_debug_cap_public_test(struct kunit *test)
{
	const struct mlx5_diag_fw_dialect *d;
	struct mlx5_diag_caps caps = { .num_entries = 3 };
	size_t len = mlx5_diag_fw_debug_cap_outlen(&mlx5_diag_fw_public16, 3);
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	/* the whole capability union, which the list fits in */
	KUNIT_EXPECT_EQ(test, len, 16 + 0x8000 / 8);
	/* a list longer than the union: header, DEBUG cap and the list */
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_debug_cap_outlen(&mlx5_diag_fw_public16,
							    1020),
			16 + 0x200 / 8 + 1020 * 4);
	tb_put(out, CAP + 0x18, 8, 13);
	tb_put(out, CAP + 0x20, 1, 1);
	tb_put(out, CAP + 0x21, 1, 0);
	tb_put(out, CAP + 0x38, 8, 14);
	tb_put(out, CAP + 0x200 + 0x00, 1, 1);
	tb_put(out, CAP + 0x200 + 0x10, 16, 0x0401);
	tb_put(out, CAP + 0x220 + 0x10, 16, 0x1001);
	tb_put(out, CAP + 0x240 + 0x00, 1, 1);
	tb_put(out, CAP + 0x240 + 0x10, 16, 0x2c04);

	d = mlx5_diag_fw_parse_debug_cap(out, &caps);
	KUNIT_EXPECT_PTR_EQ(test, d, &mlx5_diag_fw_public16);
	KUNIT_EXPECT_FALSE(test, caps.model64);
	KUNIT_EXPECT_EQ(test, caps.log_max_samples, 13);
	KUNIT_EXPECT_EQ(test, caps.log_min_sample_period, 14);
	KUNIT_EXPECT_TRUE(test, caps.single);
	KUNIT_EXPECT_FALSE(test, caps.repetitive);
	KUNIT_EXPECT_EQ(test, caps.max_ids, 3);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_parse_cap_entries(d, out, &caps), 0);
	KUNIT_EXPECT_EQ(test, caps.entries[0].id, 0x0401);
	KUNIT_EXPECT_TRUE(test, caps.entries[0].sync);
	KUNIT_EXPECT_EQ(test, caps.entries[1].id, 0x1001);
	KUNIT_EXPECT_FALSE(test, caps.entries[1].sync);
	KUNIT_EXPECT_EQ(test, caps.entries[2].id, 0x2c04);
	KUNIT_EXPECT_TRUE(test, caps.entries[2].sync);
	mlx5_diag_fw_free_caps(&caps);
}

static void fw_debug_cap_model64_test(struct kunit *test)
{
	const struct mlx5_diag_fw_dialect *d;
	struct mlx5_diag_caps caps = { .num_entries = 2 };
	size_t len = mlx5_diag_fw_debug_cap_outlen(&mlx5_diag_fw_model64, 2);
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, len, 16 + 0x8000 / 8);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_debug_cap_outlen(&mlx5_diag_fw_model64,
							    510),
			16 + 0x200 / 8 + 510 * 8);
	tb_put(out, CAP + 0x21, 1, 1);
	tb_put(out, CAP + 0x24, 1, 1);
	tb_put(out, CAP + 0x25, 1, 1);
	tb_put(out, CAP + 0x26, 1, 0);
	tb_put(out, CAP + 0x27, 1, 1);
	tb_put(out, CAP + 0x40, 16, 16);
	tb_put(out, CAP + 0x50, 8, 2);
	tb_put(out, CAP + 0x58, 8, 3);
	tb_put(out, CAP + 0x60, 16, 300);
	tb_put(out, CAP + 0x70, 8, 4);
	tb_put(out, CAP + 0x200 + 0x20, 32, 0x10200001);
	tb_put(out, CAP + 0x240 + 0x00, 1, 1);
	tb_put(out, CAP + 0x240 + 0x20, 32, 0x11800002);

	d = mlx5_diag_fw_parse_debug_cap(out, &caps);
	KUNIT_EXPECT_PTR_EQ(test, d, &mlx5_diag_fw_model64);
	KUNIT_EXPECT_TRUE(test, caps.model64);
	KUNIT_EXPECT_TRUE(test, caps.repetitive);
	KUNIT_EXPECT_TRUE(test, caps.on_demand);
	KUNIT_EXPECT_TRUE(test, caps.sync_start);
	KUNIT_EXPECT_FALSE(test, caps.data_clear);
	KUNIT_EXPECT_EQ(test, caps.max_ids, 16);
	KUNIT_EXPECT_EQ(test, caps.limits.num_ports, 2);
	KUNIT_EXPECT_EQ(test, caps.limits.num_hosts, 3);
	KUNIT_EXPECT_EQ(test, caps.limits.num_functions, 300);
	KUNIT_EXPECT_EQ(test, caps.num_pcie_links, 4);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_parse_cap_entries(d, out, &caps), 0);
	KUNIT_EXPECT_EQ(test, caps.entries[0].id, 0x1020000100000000ULL);
	KUNIT_EXPECT_FALSE(test, caps.entries[0].sync);
	KUNIT_EXPECT_EQ(test, caps.entries[1].id, 0x1180000200000000ULL);
	KUNIT_EXPECT_TRUE(test, caps.entries[1].sync);
	mlx5_diag_fw_free_caps(&caps);
}

/* Every context field, at its documented offset inside the SET input. */
static void fw_set_params_fields(struct kunit *test,
				 const struct mlx5_diag_fw_dialect *d,
				 unsigned int id_bits)
{
	u64 ids[] = { 0x1020000100000001ULL, 0x1160000f00050000ULL, 0x0406 };
	struct mlx5_diag_fw_params p = {
		.enable = true, .mode = MLX5_DIAG_FW_REPETITIVE, .sync = true,
		.clear = true, .log_num_of_samples = 9, .log_sample_period = 17,
		.num_ids = ARRAY_SIZE(ids), .ids = ids,
	};
	size_t len = mlx5_diag_fw_params_len(d, p.num_ids);
	u8 *in = kunit_kzalloc(test, len, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_EXPECT_EQ(test, len, 8 + 0x18 + 3 * id_bits / 8);
	memset(in, 0xff, len);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_set_params_in(d, in, &p), len);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x00, 16), 0x820);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x30, 16), 0);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x00, 16), 3);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x10, 8), 0);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x18, 8), 9);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x20, 1), 0);	/* single */
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x21, 1), 1);	/* repetitive */
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x22, 1), 1);	/* sync */
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x23, 1), 1);	/* clear */
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x24, 1), 0);	/* on_demand */
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x25, 1), 1);	/* enable */
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x26, 18), 0);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x38, 8), 17);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x40, 0x80), 0);
	for (i = 0; i < p.num_ids; i++) {
		unsigned int off = 0x40 + 0xc0 + i * id_bits;

		if (id_bits == 32) {
			KUNIT_EXPECT_EQ(test, tb_get(in, off, 16), 0);
			KUNIT_EXPECT_EQ(test, tb_get(in, off + 16, 16),
					ids[i] & 0xffff);
		} else {
			KUNIT_EXPECT_EQ(test, tb_get(in, off, 64), ids[i]);
		}
	}

	p.mode = MLX5_DIAG_FW_ON_DEMAND;
	p.sync = false;
	p.clear = false;
	mlx5_diag_fw_set_params_in(d, in, &p);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x20, 5), 0x1);	/* on_demand only */
	p.mode = MLX5_DIAG_FW_SINGLE;
	p.sync = true;
	p.clear = true;
	mlx5_diag_fw_set_params_in(d, in, &p);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40 + 0x20, 5), 0x10 | 0x4 | 0x2);
}

static void fw_set_params_public_test(struct kunit *test)
{
	fw_set_params_fields(test, &mlx5_diag_fw_public16, 32);
}

static void fw_set_params_model64_test(struct kunit *test)
{
	fw_set_params_fields(test, &mlx5_diag_fw_model64, 64);
}

static void fw_set_params_bad_id_test(struct kunit *test)
{
	u8 out[16] = {};
	u16 index;
	u8 reason;

	tb_put(out, 0x40, 16, 7);
	tb_put(out, 0x50, 8, 2);
	mlx5_diag_fw_set_params_bad_id(out, &index, &reason);
	KUNIT_EXPECT_EQ(test, index, 7);
	KUNIT_EXPECT_EQ(test, reason, 2);
}

static void fw_query_params_test(struct kunit *test)
{
	const struct mlx5_diag_fw_dialect *d = &mlx5_diag_fw_model64;
	size_t len = mlx5_diag_fw_params_len(d, 4);
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);
	u64 ids[4] = {};
	struct mlx5_diag_fw_params p = { .ids = ids };
	u8 in[16];

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_query_params_in(in), 16);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0, 16), 0x819);
	tb_put(out, 0x40 + 0x00, 16, 2);
	tb_put(out, 0x40 + 0x18, 8, 5);
	tb_put(out, 0x40 + 0x20, 1, 1);
	tb_put(out, 0x40 + 0x22, 1, 1);
	tb_put(out, 0x40 + 0x25, 1, 1);
	tb_put(out, 0x40 + 0x38, 8, 20);
	tb_put(out, 0x40 + 0xc0, 64, 0x1140000100000001ULL);
	tb_put(out, 0x40 + 0x100, 64, 0x10c0000500000007ULL);
	KUNIT_ASSERT_EQ(test, mlx5_diag_fw_query_params_out(d, out, len, &p, 4), 0);
	KUNIT_EXPECT_EQ(test, p.num_ids, 2);
	KUNIT_EXPECT_EQ(test, p.log_num_of_samples, 5);
	KUNIT_EXPECT_EQ(test, p.mode, MLX5_DIAG_FW_SINGLE);
	KUNIT_EXPECT_TRUE(test, p.sync);
	KUNIT_EXPECT_FALSE(test, p.clear);
	KUNIT_EXPECT_TRUE(test, p.enable);
	KUNIT_EXPECT_EQ(test, p.log_sample_period, 20);
	KUNIT_EXPECT_EQ(test, ids[0], 0x1140000100000001ULL);
	KUNIT_EXPECT_EQ(test, ids[1], 0x10c0000500000007ULL);
	/* more ids than the caller can hold is a protocol error */
	tb_put(out, 0x40, 16, 5);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_query_params_out(d, out, len, &p, 4),
			-EPROTO);
}

static void fw_query_counters_in_test(struct kunit *test)
{
	u8 in[16];

	memset(in, 0xff, sizeof(in));
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_query_counters_in(in, 256, 128), 16);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x00, 16), 0x821);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x30, 16), 0);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x40, 16), 256);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x50, 16), 128);
	KUNIT_EXPECT_EQ(test, tb_get(in, 0x60, 32), 0);
}

static void fw_query_counters_outlen_test(struct kunit *test)
{
	/* 4096 samples of 2 counters: no 16-bit truncation of the size */
	KUNIT_EXPECT_EQ(test,
			mlx5_diag_fw_query_counters_outlen(&mlx5_diag_fw_public16,
							   4096 * 2),
			16 + 4096 * 2 * 16);
	KUNIT_EXPECT_EQ(test,
			mlx5_diag_fw_query_counters_outlen(&mlx5_diag_fw_model64,
							   16),
			16 + 16 * 32);
}

static void fw_sample_entry_public_test(struct kunit *test)
{
	struct mlx5_diag_fw_entry e;
	u8 out[16 + 2 * 16] = {};

	tb_put(out, 0x80 + 128 + 0x00, 16, 0x2006);
	tb_put(out, 0x80 + 128 + 0x10, 16, 0xfffe);
	tb_put(out, 0x80 + 128 + 0x20, 32, 0xdeadbeef);
	tb_put(out, 0x80 + 128 + 0x40, 32, 0x3);	/* value_h */
	tb_put(out, 0x80 + 128 + 0x60, 32, 0x80000001);	/* value_l */
	mlx5_diag_fw_query_counters_entry(&mlx5_diag_fw_public16, out, 1, &e);
	KUNIT_EXPECT_EQ(test, e.id, 0x2006);
	KUNIT_EXPECT_EQ(test, e.sample_id, 0xfffe);
	KUNIT_EXPECT_EQ(test, e.timestamp, 0xdeadbeef);
	/* h << 32 | l, not the h << 31 of a known public bug */
	KUNIT_EXPECT_EQ(test, e.value, 0x380000001ULL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_public16.sample_id_bits, 16);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_public16.timestamp_bits, 32);
}

static void fw_sample_entry_model64_test(struct kunit *test)
{
	struct mlx5_diag_fw_entry e;
	u8 out[16 + 2 * 32] = {};
	unsigned int b = 0x80 + 256;

	tb_put(out, b + 0x00, 64, 0x1160000b00000001ULL);
	tb_put(out, b + 0x40, 32, 0x12345678);
	tb_put(out, b + 0x60, 64, 0x0000000123456789ULL);
	tb_put(out, b + 0xa0, 64, 0xfedcba9876543210ULL);
	tb_put(out, b + 0xe0, 32, 0xffffffff);	/* reserved */
	mlx5_diag_fw_query_counters_entry(&mlx5_diag_fw_model64, out, 1, &e);
	KUNIT_EXPECT_EQ(test, e.id, 0x1160000b00000001ULL);
	KUNIT_EXPECT_EQ(test, e.sample_id, 0x12345678);
	KUNIT_EXPECT_EQ(test, e.timestamp, 0x123456789ULL);
	KUNIT_EXPECT_EQ(test, e.value, 0xfedcba9876543210ULL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_model64.sample_id_bits, 32);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_model64.timestamp_bits, 64);
}

/*
 * A whole sample in one call: entries 1 to 3 of four, each as the entry
 * decoder reads it alone, and nothing of entry 0 or beyond entry 3.
 */
static void fw_sample_entries_test(struct kunit *test)
{
	static const struct mlx5_diag_fw_dialect *const dialects[] = {
		&mlx5_diag_fw_public16, &mlx5_diag_fw_model64,
	};
	struct mlx5_diag_fw_entry e[5], one;
	u8 out[16 + 4 * 32];
	unsigned int d, i, bits, j;

	for (d = 0; d < ARRAY_SIZE(dialects); d++) {
		bits = dialects[d]->sample_entry_bits;
		memset(out, 0, sizeof(out));
		/* entry j: id 0x100 + j, sample_id 7, timestamp and value */
		for (j = 0; j < 4; j++) {
			unsigned int b = 0x80 + j * bits;

			if (bits == 128) {
				tb_put(out, b + 0x00, 16, 0x100 + j);
				tb_put(out, b + 0x10, 16, 7);
				tb_put(out, b + 0x20, 32, 0x1000 + j);
				tb_put(out, b + 0x40, 64, 0x2000000000ULL + j);
			} else {
				tb_put(out, b + 0x00, 64, 0x100 + j);
				tb_put(out, b + 0x40, 32, 7);
				tb_put(out, b + 0x60, 64, 0x1000 + j);
				tb_put(out, b + 0xa0, 64, 0x2000000000ULL + j);
			}
		}
		memset(e, 0xa5, sizeof(e));
		mlx5_diag_fw_query_counters_entries(dialects[d], out, 1, 3,
						    &e[1]);
		for (i = 1; i <= 3; i++) {
			mlx5_diag_fw_query_counters_entry(dialects[d], out, i,
							  &one);
			KUNIT_EXPECT_EQ(test, e[i].id, 0x100 + i);
			KUNIT_EXPECT_EQ(test, e[i].sample_id, 7);
			KUNIT_EXPECT_EQ(test, e[i].timestamp, 0x1000 + i);
			KUNIT_EXPECT_EQ(test, e[i].value, 0x2000000000ULL + i);
			KUNIT_EXPECT_EQ(test, e[i].id, one.id);
			KUNIT_EXPECT_EQ(test, e[i].sample_id, one.sample_id);
			KUNIT_EXPECT_EQ(test, e[i].timestamp, one.timestamp);
			KUNIT_EXPECT_EQ(test, e[i].value, one.value);
		}
		KUNIT_EXPECT_EQ(test, e[0].id, 0xa5a5a5a5a5a5a5a5ULL);
		KUNIT_EXPECT_EQ(test, e[4].id, 0xa5a5a5a5a5a5a5a5ULL);
	}
}

static void fw_out_status_test(struct kunit *test)
{
	u8 out[16] = {};
	u32 synd;

	tb_put(out, 0x00, 8, 0x51);
	tb_put(out, 0x20, 32, 0xc0ffee01);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_out_status(out, &synd), 0x51);
	KUNIT_EXPECT_EQ(test, synd, 0xc0ffee01);
}

/* Sample ids and timestamps wrap in hardware and are extended in software. */
static void fw_extend_test(struct kunit *test)
{
	static const struct {
		u64 last, raw;
		unsigned int bits;
		u64 want;
	} cases[] = {
		{ 0, 0, 16, 0 },
		{ 5, 6, 16, 6 },
		{ 0xfffe, 0x0001, 16, 0x10001 },		/* 16-bit wrap */
		{ 0x3fffe, 0x0000, 16, 0x40000 },		/* third wrap */
		{ 0x1fffe, 0xffff, 16, 0x1ffff },
		{ 0xfffffff0ULL, 0x10, 32, 0x100000010ULL },	/* timestamp */
		{ 0x2fffffff0ULL, 0xfffffff8ULL, 32, 0x2fffffff8ULL },
		{ 0x2fffffff0ULL, 0x5, 32, 0x300000005ULL },
		{ 0x123456789ULL, 0x42, 64, 0x42 },		/* 64-bit: as is */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, mlx5_diag_extend(cases[i].last,
							   cases[i].raw,
							   cases[i].bits),
				    cases[i].want, "case %u", i);
}

/* A narrow timestamp placed back from a clock read after it, or nearest one. */
static void fw_extend_back_near_test(struct kunit *test)
{
	static const struct {
		u64 ref, raw;
		unsigned int bits;
		u64 back, near;
	} cases[] = {
		{ 0x100000005ULL, 0x5, 32, 0x100000005ULL, 0x100000005ULL },
		{ 0x100000005ULL, 0xfffffff0ULL, 32, 0xfffffff0ULL, 0xfffffff0ULL },
		{ 0x100000005ULL, 0x6, 32, 0x6, 0x100000006ULL },
		{ 0x17ffffff0ULL, 0x0, 32, 0x100000000ULL, 0x100000000ULL },
		{ 0x17ffffff0ULL, 0xffffffe0ULL, 32, 0xffffffe0ULL, 0x1ffffffe0ULL },
		{ 0x123456789ULL, 0x42, 64, 0x42, 0x42 },	/* 64-bit: as is */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, mlx5_diag_extend_back(cases[i].ref,
								cases[i].raw,
								cases[i].bits),
				    cases[i].back, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, mlx5_diag_extend_near(cases[i].ref,
								cases[i].raw,
								cases[i].bits),
				    cases[i].near, "case %u", i);
	}
}

/*
 * Data clear on public firmware is learnt from the first enabling SET that
 * asks for it: taken means yes, a bad-parameter refusal no, anything else
 * nothing; then it stays. The modelled dialect's bit decides there.
 */
static void fw_learn_clear_test(struct kunit *test)
{
	struct mlx5_diag_fw_params p = { .enable = true, .sync = true,
					 .clear = true };
	struct mlx5_diag_fw *fw = kunit_kzalloc(test, sizeof(*fw), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fw);
	mlx5_diag_fw_init(fw, "kunit", NULL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_UNKNOWN);
	p.clear = false;
	mlx5_diag_fw_learn_clear(fw, &p, -EINVAL);	/* not asked */
	p.clear = true;
	p.enable = false;
	mlx5_diag_fw_learn_clear(fw, &p, 0);		/* a disable */
	p.enable = true;
	mlx5_diag_fw_learn_clear(fw, &p, -EIO);		/* not a refusal */
	mlx5_diag_fw_learn_clear(fw, &p, -EBUSY);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_UNKNOWN);
	mlx5_diag_fw_learn_clear(fw, &p, -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_NO);
	mlx5_diag_fw_learn_clear(fw, &p, 0);		/* learnt: it stays */
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_NO);
	KUNIT_EXPECT_STREQ(test, mlx5_diag_cap_known_name(MLX5_DIAG_CAP_NO), "no");

	mlx5_diag_fw_init(fw, "kunit", NULL);
	mlx5_diag_fw_learn_clear(fw, &p, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_YES);
	mlx5_diag_fw_learn_clear(fw, &p, -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_YES);

	mlx5_diag_fw_init(fw, "kunit", NULL);
	fw->caps.model64 = true;
	mlx5_diag_fw_learn_clear(fw, &p, 0);
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_NO);
	fw->caps.data_clear = true;
	KUNIT_EXPECT_EQ(test, mlx5_diag_fw_clear_known(fw), MLX5_DIAG_CAP_YES);
}

static struct kunit_case mlx5_diag_fw_cases[] = {
	KUNIT_CASE(fw_status_errno_test),
	KUNIT_CASE(fw_query_cap_in_test),
	KUNIT_CASE(fw_general_cap_test),
	KUNIT_CASE(fw_debug_cap_public_test),
	KUNIT_CASE(fw_debug_cap_model64_test),
	KUNIT_CASE(fw_set_params_public_test),
	KUNIT_CASE(fw_set_params_model64_test),
	KUNIT_CASE(fw_set_params_bad_id_test),
	KUNIT_CASE(fw_query_params_test),
	KUNIT_CASE(fw_query_counters_in_test),
	KUNIT_CASE(fw_query_counters_outlen_test),
	KUNIT_CASE(fw_sample_entry_public_test),
	KUNIT_CASE(fw_sample_entry_model64_test),
	KUNIT_CASE(fw_sample_entries_test),
	KUNIT_CASE(fw_out_status_test),
	KUNIT_CASE(fw_extend_test),
	KUNIT_CASE(fw_extend_back_near_test),
	KUNIT_CASE(fw_learn_clear_test),
	{}
};

static struct kunit_suite mlx5_diag_fw_suite = {
	.name = "mlx5_diag_fw",
	.test_cases = mlx5_diag_fw_cases,
};

kunit_test_suite(mlx5_diag_fw_suite);
