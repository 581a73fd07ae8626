/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5_diag_sim: the emulator's own reading of the public mailbox layouts
 * (mlx5-diag-firmware.rst part 1) as {bit offset, width} tables, and the
 * modelled timestamp-source bits of part 2 that the core decodes.
 */
#ifndef _MLX5_DIAG_SIM_LAYOUT_H
#define _MLX5_DIAG_SIM_LAYOUT_H

#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/**
 * struct sim_field - one field of a PRM layout
 * @off: bit offset from the start of the structure, counted from the most
 *	significant bit of the first big-endian 32-bit word (mlx5_ifc style)
 * @width: width in bits, 1..32; a field never crosses a 32-bit word
 */
struct sim_field {
	u16 off;
	u8 width;
};

/* Opcodes and op_mods of part 1. */
#define SIM_OP_QUERY_HCA_CAP			0x100
#define SIM_OP_QUERY_DIAGNOSTIC_PARAMS		0x819
#define SIM_OP_SET_DIAGNOSTIC_PARAMS		0x820
#define SIM_OP_QUERY_DIAGNOSTIC_COUNTERS	0x821

#define SIM_CAP_TYPE_GENERAL	0
#define SIM_CAP_TYPE_DEBUG	13
/* op_mod = (cap_type << 1) | 1: current values */
#define SIM_OP_MOD_CAP_GENERAL	((SIM_CAP_TYPE_GENERAL << 1) | 1)
#define SIM_OP_MOD_CAP_DEBUG	((SIM_CAP_TYPE_DEBUG << 1) | 1)

/* Sizes in bits. */
#define SIM_HDR_BITS			0x40	/* in and out mailbox header */
#define SIM_CAP_OUT_BASE		0x80	/* capability inside QUERY_HCA_CAP out */
#define SIM_GEN_CAP_BITS		0x1000
#define SIM_HCA_CAP_UNION_BITS		0x8000	/* mlx5_core's whole capability union */
#define SIM_DEBUG_CAP_LIST		0x200	/* diagnostic_counter[] in DEBUG cap */
#define SIM_CNTR_LAYOUT_BITS		32
#define SIM_PARAMS_CTX_BASE		0x40	/* context in SET in / QUERY out */
#define SIM_PARAMS_CTX_HDR_BITS		0xc0	/* counter_id[] starts here */
#define SIM_PARAMS_CNTR_BITS		32
#define SIM_QUERY_PARAMS_IN_BITS	0x80
#define SIM_QUERY_CNTRS_IN_BITS		0x80
#define SIM_QUERY_CNTRS_OUT_BASE	0x80
#define SIM_CNTR_STRUCT_BITS		128

/*
 * Fields, named after the spec. The enum indexes sim_fields[]; the
 * emulator never uses a number for a field anywhere else.
 */
enum sim_field_id {
	/* mailbox header */
	SIM_IN_OPCODE,
	SIM_IN_UID,
	SIM_IN_OP_MOD,
	SIM_OUT_STATUS,
	SIM_OUT_SYNDROME,
	/* general capabilities (type 0), inside the capability */
	SIM_GEN_DEBUG,
	SIM_GEN_NUM_OF_DIAGNOSTIC_COUNTERS,
	SIM_GEN_DEVICE_FREQUENCY_MHZ,
	SIM_GEN_DEVICE_FREQUENCY_KHZ,
	/* DEBUG capabilities (type 13), public fields */
	SIM_DBG_CORE_DUMP_GENERAL,
	SIM_DBG_CORE_DUMP_QP,
	SIM_DBG_LOG_CR_DUMP_TO_MEM_SIZE,
	SIM_DBG_RESOURCE_DUMP,
	SIM_DBG_LOG_MIN_RESOURCE_DUMP_EQ,
	SIM_DBG_LOG_MAX_SAMPLES,
	SIM_DBG_SINGLE,
	SIM_DBG_REPETITIVE,
	SIM_DBG_HEALTH_MON_RX_ACTIVITY,
	SIM_DBG_DIAG_COUNTER_TRACER_DUMP,
	SIM_DBG_LOG_MIN_SAMPLE_PERIOD,
	/* diagnostic_counter[i] entry (32 bits) */
	SIM_CNTR_LAYOUT_SYNC,
	SIM_CNTR_LAYOUT_COUNTER_ID,
	/* diagnostic_params_context */
	SIM_CTX_NUM_OF_COUNTERS,
	SIM_CTX_LOG_NUM_OF_SAMPLES,
	SIM_CTX_SINGLE,
	SIM_CTX_REPETITIVE,
	SIM_CTX_SYNC,
	SIM_CTX_CLEAR,
	SIM_CTX_ON_DEMAND,
	SIM_CTX_ENABLE,
	SIM_CTX_TRACER_DUMP,
	SIM_CTX_LOG_SAMPLE_PERIOD,
	/* counter_id[i] entry of the context (32 bits) */
	SIM_CTX_CNTR_COUNTER_ID,
	/* QUERY_DIAGNOSTIC_COUNTERS input */
	SIM_QRY_NUM_OF_SAMPLES,
	SIM_QRY_SAMPLE_INDEX,
	/* diagnostic_cntr_struct (128 bits) */
	SIM_CS_COUNTER_ID,
	SIM_CS_SAMPLE_ID,
	SIM_CS_TIME_STAMP_31_0,
	SIM_CS_COUNTER_VALUE_H,
	SIM_CS_COUNTER_VALUE_L,
	/*
	 * MODEL (part 2), in bits the public layouts reserve: the real-time
	 * clock timestamp source, offered and selected.
	 */
	SIM_DBG_RTC_TIMESTAMP,
	SIM_CTX_TIMESTAMP_RTC,
	SIM_NUM_FIELDS
};

static const struct sim_field sim_fields[SIM_NUM_FIELDS] = {
	[SIM_IN_OPCODE]				= { 0x00, 16 },
	[SIM_IN_UID]				= { 0x10, 16 },
	[SIM_IN_OP_MOD]				= { 0x30, 16 },
	[SIM_OUT_STATUS]			= { 0x00, 8 },
	[SIM_OUT_SYNDROME]			= { 0x20, 32 },

	[SIM_GEN_DEBUG]				= { 0x183, 1 },
	[SIM_GEN_NUM_OF_DIAGNOSTIC_COUNTERS]	= { 0x280, 16 },
	[SIM_GEN_DEVICE_FREQUENCY_MHZ]		= { 0x4c0, 32 },
	[SIM_GEN_DEVICE_FREQUENCY_KHZ]		= { 0x4e0, 32 },

	[SIM_DBG_CORE_DUMP_GENERAL]		= { 0x00, 1 },
	[SIM_DBG_CORE_DUMP_QP]			= { 0x01, 1 },
	[SIM_DBG_LOG_CR_DUMP_TO_MEM_SIZE]	= { 0x04, 5 },
	[SIM_DBG_RESOURCE_DUMP]			= { 0x09, 1 },
	[SIM_DBG_LOG_MIN_RESOURCE_DUMP_EQ]	= { 0x0b, 5 },
	[SIM_DBG_LOG_MAX_SAMPLES]		= { 0x18, 8 },
	[SIM_DBG_SINGLE]			= { 0x20, 1 },
	[SIM_DBG_REPETITIVE]			= { 0x21, 1 },
	[SIM_DBG_HEALTH_MON_RX_ACTIVITY]	= { 0x22, 1 },
	[SIM_DBG_DIAG_COUNTER_TRACER_DUMP]	= { 0x23, 1 },
	[SIM_DBG_LOG_MIN_SAMPLE_PERIOD]		= { 0x38, 8 },

	[SIM_CNTR_LAYOUT_SYNC]			= { 0x00, 1 },
	[SIM_CNTR_LAYOUT_COUNTER_ID]		= { 0x10, 16 },

	[SIM_CTX_NUM_OF_COUNTERS]		= { 0x00, 16 },
	[SIM_CTX_LOG_NUM_OF_SAMPLES]		= { 0x18, 8 },
	[SIM_CTX_SINGLE]			= { 0x20, 1 },
	[SIM_CTX_REPETITIVE]			= { 0x21, 1 },
	[SIM_CTX_SYNC]				= { 0x22, 1 },
	[SIM_CTX_CLEAR]				= { 0x23, 1 },
	[SIM_CTX_ON_DEMAND]			= { 0x24, 1 },
	[SIM_CTX_ENABLE]			= { 0x25, 1 },
	[SIM_CTX_TRACER_DUMP]			= { 0x26, 1 },
	[SIM_CTX_LOG_SAMPLE_PERIOD]		= { 0x38, 8 },

	[SIM_CTX_CNTR_COUNTER_ID]		= { 0x10, 16 },

	[SIM_QRY_NUM_OF_SAMPLES]		= { 0x40, 16 },
	[SIM_QRY_SAMPLE_INDEX]			= { 0x50, 16 },

	[SIM_CS_COUNTER_ID]			= { 0x00, 16 },
	[SIM_CS_SAMPLE_ID]			= { 0x10, 16 },
	[SIM_CS_TIME_STAMP_31_0]		= { 0x20, 32 },
	[SIM_CS_COUNTER_VALUE_H]		= { 0x40, 32 },
	[SIM_CS_COUNTER_VALUE_L]		= { 0x60, 32 },

	[SIM_DBG_RTC_TIMESTAMP]			= { 0x28, 1 },
	[SIM_CTX_TIMESTAMP_RTC]			= { 0x28, 1 },
};

/**
 * sim_get_bits() - read a big-endian bit field
 * @buf: the mailbox
 * @len: its length in bytes
 * @off: bit offset, from the MSB of the first 32-bit word
 * @width: 1..32 bits, not crossing a 32-bit word
 *
 * Return: the field, or 0 if it lies (partly) outside @buf.
 */
static inline u32 sim_get_bits(const void *buf, size_t len, u32 off,
			       u32 width)
{
	size_t word = off / 32;
	u32 shift = 32 - off % 32 - width;
	u32 mask = width == 32 ? ~0U : (1U << width) - 1;
	__be32 be;

	if (!width || width > 32 || off % 32 + width > 32 ||
	    (word + 1) * 4 > len)
		return 0;
	memcpy(&be, (const u8 *)buf + word * 4, sizeof(be));
	return (be32_to_cpu(be) >> shift) & mask;
}

/**
 * sim_set_bits() - write a big-endian bit field, keeping the other bits
 * @buf: the mailbox
 * @len: its length in bytes
 * @off: bit offset, from the MSB of the first 32-bit word
 * @width: 1..32 bits, not crossing a 32-bit word
 * @val: the value; bits above @width are dropped
 *
 * Writes nothing if the field lies (partly) outside @buf.
 */
static inline void sim_set_bits(void *buf, size_t len, u32 off, u32 width,
				u32 val)
{
	size_t word = off / 32;
	u32 shift = 32 - off % 32 - width;
	u32 mask = width == 32 ? ~0U : (1U << width) - 1;
	__be32 be;
	u8 *p;
	u32 w;

	if (!width || width > 32 || off % 32 + width > 32 ||
	    (word + 1) * 4 > len)
		return;
	p = (u8 *)buf + word * 4;
	memcpy(&be, p, sizeof(be));
	w = be32_to_cpu(be);
	w &= ~(mask << shift);
	w |= (val & mask) << shift;
	be = cpu_to_be32(w);
	memcpy(p, &be, sizeof(be));
}

/* Read/write field @id of a structure that starts at bit @base. */
static inline u32 sim_get(const void *buf, size_t len, u32 base,
			  enum sim_field_id id)
{
	return sim_get_bits(buf, len, base + sim_fields[id].off,
			    sim_fields[id].width);
}

static inline void sim_set(void *buf, size_t len, u32 base,
			   enum sim_field_id id, u32 val)
{
	sim_set_bits(buf, len, base + sim_fields[id].off,
		     sim_fields[id].width, val);
}

/* Bytes needed to hold @bits bits. */
static inline size_t sim_bytes(u64 bits)
{
	return (size_t)((bits + 7) / 8);
}

#endif /* _MLX5_DIAG_SIM_LAYOUT_H */
