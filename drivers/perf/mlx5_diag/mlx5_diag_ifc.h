/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firmware command layouts of the diagnostic-counter engine, declared the
 * mlx5_ifc way: one u8 array element per bit, so offsetof() is a bit offset.
 * Source: Documentation/driver-api/mlx5-diag-firmware.rst, parts 1 and 2.
 * Only the accessors below read or write these layouts.
 */
#ifndef _MLX5_DIAG_IFC_H
#define _MLX5_DIAG_IFC_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <asm/byteorder.h>

enum {
	MLX5_DIAG_CMD_OP_QUERY_HCA_CAP			= 0x100,
	MLX5_DIAG_CMD_OP_QUERY_DIAGNOSTIC_PARAMS	= 0x819,
	MLX5_DIAG_CMD_OP_SET_DIAGNOSTIC_PARAMS		= 0x820,
	MLX5_DIAG_CMD_OP_QUERY_DIAGNOSTIC_COUNTERS	= 0x821,
};

enum {
	MLX5_DIAG_CAP_GENERAL	= 0x0,
	MLX5_DIAG_CAP_DEBUG	= 0xd,
};

/* QUERY_HCA_CAP op_mod: (cap_type << 1) | 1 asks for the current values. */
#define MLX5_DIAG_CAP_OP_MOD(type)	(((type) << 1) | 1)

enum {
	MLX5_DIAG_STATUS_OK		= 0x0,
	MLX5_DIAG_STATUS_INT_ERR	= 0x1,
	MLX5_DIAG_STATUS_BAD_OP		= 0x2,
	MLX5_DIAG_STATUS_BAD_PARAM	= 0x3,
	MLX5_DIAG_STATUS_BAD_SYS_STATE	= 0x4,
	MLX5_DIAG_STATUS_BAD_RES	= 0x5,
	MLX5_DIAG_STATUS_RES_BUSY	= 0x6,
	MLX5_DIAG_STATUS_EXCEED_LIM	= 0x8,
	MLX5_DIAG_STATUS_BAD_RES_STATE	= 0x9,
	MLX5_DIAG_STATUS_BAD_INDEX	= 0xa,
	MLX5_DIAG_STATUS_NO_RES		= 0xf,
	MLX5_DIAG_STATUS_BAD_QP_STATE	= 0x10,
	MLX5_DIAG_STATUS_BAD_PKT	= 0x30,
	MLX5_DIAG_STATUS_BAD_SIZE	= 0x40,
	MLX5_DIAG_STATUS_BAD_INP_LEN	= 0x50,
	MLX5_DIAG_STATUS_BAD_OUTP_LEN	= 0x51,
};

struct mlx5_diag_ifc_cmd_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_diag_ifc_cmd_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_diag_ifc_general_cap_bits {
	u8 reserved_at_0[0x183];
	u8 debug[0x1];
	u8 reserved_at_184[0xfc];
	u8 num_of_diagnostic_counters[0x10];
	u8 reserved_at_290[0x230];
	u8 device_frequency_mhz[0x20];
	u8 device_frequency_khz[0x20];
	u8 reserved_at_500[0xb00];
};

struct mlx5_diag_ifc_diagnostic_counter_cap_bits {
	u8 sync[0x1];
	u8 reserved_at_1[0xf];
	u8 counter_id[0x10];
};

/* MODEL (part 2): one supported data-ID kind in the 64-bit dialect. */
struct mlx5_diag_ifc_diagnostic_data_kind_bits {
	u8 sync[0x1];
	u8 reserved_at_1[0x1f];
	u8 kind[0x20];
};

struct mlx5_diag_ifc_debug_cap_bits {
	u8 core_dump_general[0x1];
	u8 core_dump_qp[0x1];
	u8 reserved_at_2[0x2];
	u8 log_cr_dump_to_mem_size[0x5];
	u8 resource_dump[0x1];
	u8 reserved_at_a[0x1];
	u8 log_min_resource_dump_eq[0x5];
	u8 reserved_at_10[0x8];
	u8 log_max_samples[0x8];
	u8 single[0x1];
	u8 repetitive[0x1];
	u8 health_mon_rx_activity[0x1];
	u8 diag_counter_tracer_dump[0x1];
	/* MODEL (part 2): on_demand .. num_pcie_links, except the period */
	u8 on_demand[0x1];
	u8 sync_start[0x1];
	u8 data_clear[0x1];
	u8 diag_data_id_64[0x1];
	u8 rtc_timestamp[0x1];
	u8 reserved_at_29[0xf];
	u8 log_min_sample_period[0x8];
	u8 max_num_data_ids[0x10];
	u8 num_ports[0x8];
	u8 num_hosts[0x8];
	u8 num_functions[0x10];
	u8 num_pcie_links[0x8];
	u8 reserved_at_78[0x188];
	/* diagnostic_counter[] (public) or diagnostic_data_kind[] (MODEL) */
};

struct mlx5_diag_ifc_query_hca_cap_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	/* capability from bit 0x80 */
};

/*
 * The capability union of query_hca_cap_out (0x8000 bits in mlx5_ifc.h):
 * mlx5_core always passes an outbox of at least the header and this.
 */
#define MLX5_DIAG_HCA_CAP_UNION_BYTES	(0x8000 / 8)

struct mlx5_diag_ifc_diagnostic_params_context_bits {
	u8 num_of_counters[0x10];
	u8 reserved_at_10[0x8];
	u8 log_num_of_samples[0x8];
	u8 single[0x1];
	u8 repetitive[0x1];
	u8 sync[0x1];
	u8 clear[0x1];
	u8 on_demand[0x1];
	u8 enable[0x1];
	u8 tracer_dump[0x1];
	u8 reserved_at_27[0x1];
	u8 timestamp_rtc[0x1];	/* MODEL (part 2) */
	u8 reserved_at_29[0xf];
	u8 log_sample_period[0x8];
	u8 reserved_at_40[0x80];
	/* counter_id[] (32 bits each) or MODEL data_id[] (64 bits each) */
};

struct mlx5_diag_ifc_counter_id_bits {
	u8 reserved_at_0[0x10];
	u8 counter_id[0x10];
};

/* MODEL: a 64-bit data ID in the params context. */
struct mlx5_diag_ifc_data_id_bits {
	u8 data_id_h[0x20];
	u8 data_id_l[0x20];
};

struct mlx5_diag_ifc_set_diagnostic_params_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	/* diagnostic_params_context from bit 0x40 */
};

struct mlx5_diag_ifc_set_diagnostic_params_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	/* MODEL: which data ID was refused, and why */
	u8 bad_data_id_index[0x10];
	u8 bad_data_id_reason[0x8];
	u8 reserved_at_58[0x28];
};

struct mlx5_diag_ifc_query_diagnostic_params_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	/* diagnostic_params_context from bit 0x40 */
};

struct mlx5_diag_ifc_query_diagnostic_counters_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 num_of_samples[0x10];
	u8 sample_index[0x10];
	u8 reserved_at_60[0x20];
};

struct mlx5_diag_ifc_query_diagnostic_counters_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	/* sample entries from bit 0x80 */
};

struct mlx5_diag_ifc_diagnostic_cntr_bits {
	u8 counter_id[0x10];
	u8 sample_id[0x10];
	u8 time_stamp_31_0[0x20];
	u8 counter_value_h[0x20];
	u8 counter_value_l[0x20];
};

/* MODEL: one sampled value in the 64-bit dialect. */
struct mlx5_diag_ifc_diagnostic_data_bits {
	u8 data_id_h[0x20];
	u8 data_id_l[0x20];
	u8 sample_id[0x20];
	u8 time_stamp_h[0x20];
	u8 time_stamp_l[0x20];
	u8 value_h[0x20];
	u8 value_l[0x20];
	u8 reserved_at_e0[0x20];
};

#define MLX5_DIAG_BITS(type)	(sizeof(struct mlx5_diag_ifc_##type##_bits))
#define MLX5_DIAG_BYTES(type)	(MLX5_DIAG_BITS(type) / 8)
#define MLX5_DIAG_DWORDS(type)	(MLX5_DIAG_BITS(type) / 32)

/*
 * A field as a pointer into a structure placed at address 0: the pointer's
 * value is the field's bit offset, its pointed-to array type the width.
 */
#define MLX5_DIAG_FLD(type, fld) \
	(&((struct mlx5_diag_ifc_##type##_bits *)NULL)[0].fld)
#define MLX5_DIAG_FLD_SZ(type, fld)	sizeof(MLX5_DIAG_FLD(type, fld)[0])

/* Fields are at most 32 bits and never cross a big-endian dword. */
static __always_inline u32 mlx5_diag_ifc_get(const void *p, unsigned long off,
					     size_t bits)
{
	BUILD_BUG_ON(bits > 32 || off % 32 + bits > 32);
	return (be32_to_cpu(((const __be32 *)p)[off / 32]) >>
		(32 - off % 32 - bits)) & GENMASK(bits - 1, 0);
}

static __always_inline void mlx5_diag_ifc_set(void *p, unsigned long off,
					      size_t bits, u32 v)
{
	__be32 *w = (__be32 *)p + off / 32;
	unsigned int shift = 32 - off % 32 - bits;
	u32 mask = GENMASK(bits - 1, 0);

	BUILD_BUG_ON(bits > 32 || off % 32 + bits > 32);
	*w = cpu_to_be32((be32_to_cpu(*w) & ~(mask << shift)) |
			 (v & mask) << shift);
}

#define __MLX5_DIAG_GET(p, f) \
	mlx5_diag_ifc_get(p, (unsigned long)(f), sizeof((f)[0]))
#define __MLX5_DIAG_SET(p, f, v) \
	mlx5_diag_ifc_set(p, (unsigned long)(f), sizeof((f)[0]), v)
#define MLX5_DIAG_GET(type, p, fld)	__MLX5_DIAG_GET(p, MLX5_DIAG_FLD(type, fld))
#define MLX5_DIAG_SET(type, p, fld, v) \
	__MLX5_DIAG_SET(p, MLX5_DIAG_FLD(type, fld), v)

/* A 64-bit value stored as two adjacent 32-bit fields, high word first. */
#define MLX5_DIAG_GET64(type, p, hi, lo)				\
	({								\
		const void *__p = (p);					\
									\
		(u64)MLX5_DIAG_GET(type, __p, hi) << 32 |		\
			MLX5_DIAG_GET(type, __p, lo);			\
	})

#define MLX5_DIAG_SET64(type, p, hi, lo, v)				\
	do {								\
		void *__p = (p);					\
		u64 __v = (v);						\
									\
		MLX5_DIAG_SET(type, __p, hi, upper_32_bits(__v));	\
		MLX5_DIAG_SET(type, __p, lo, lower_32_bits(__v));	\
	} while (0)

#endif /* _MLX5_DIAG_IFC_H */
