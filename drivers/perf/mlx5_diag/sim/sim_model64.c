// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL - NOT A PUBLIC LAYOUT. mlx5_diag_sim's side of the modelled 64-bit
 * data-ID dialect (mlx5-diag-firmware.rst part 2): layouts, kinds, instances.
 *
 * How firmware carries 64-bit data IDs is not public. Everything in this
 * file follows the project's model of it and is meant to be replaced, with
 * the driver's mlx5_diag_fw_model64.c, once a real layout is known.
 */
#include <linux/kernel.h>

#include "sim_int.h"
#include "sim_layout.h"

/* MODEL: fields, as {bit offset, width} from the start of each structure. */
enum sim_m64_field_id {
	/* DEBUG capability, in bits the public layout reserves */
	SIM_M64_DBG_ON_DEMAND,
	SIM_M64_DBG_SYNC_START,
	SIM_M64_DBG_DATA_CLEAR,
	SIM_M64_DBG_DIAG_DATA_ID_64,
	SIM_M64_DBG_MAX_NUM_DATA_IDS,
	SIM_M64_DBG_NUM_PORTS,
	SIM_M64_DBG_NUM_HOSTS,
	SIM_M64_DBG_NUM_FUNCTIONS,
	SIM_M64_DBG_NUM_PCIE_LINKS,
	/* diagnostic_data_kind (64 bits) */
	SIM_M64_KIND_SYNC,
	SIM_M64_KIND_KIND,
	/* data_id[i] of the params context (64 bits) */
	SIM_M64_ID_H,
	SIM_M64_ID_L,
	/* SET_DIAGNOSTIC_PARAMS output */
	SIM_M64_SET_BAD_DATA_ID_INDEX,
	SIM_M64_SET_BAD_DATA_ID_REASON,
	/* diagnostic_data_struct (256 bits) */
	SIM_M64_DS_DATA_ID_H,
	SIM_M64_DS_DATA_ID_L,
	SIM_M64_DS_SAMPLE_ID,
	SIM_M64_DS_TIME_STAMP_H,
	SIM_M64_DS_TIME_STAMP_L,
	SIM_M64_DS_VALUE_H,
	SIM_M64_DS_VALUE_L,
	SIM_M64_NUM_FIELDS
};

static const struct sim_field sim_m64_fields[SIM_M64_NUM_FIELDS] = {
	[SIM_M64_DBG_ON_DEMAND]		= { 0x24, 1 },
	[SIM_M64_DBG_SYNC_START]	= { 0x25, 1 },
	[SIM_M64_DBG_DATA_CLEAR]	= { 0x26, 1 },
	[SIM_M64_DBG_DIAG_DATA_ID_64]	= { 0x27, 1 },
	[SIM_M64_DBG_MAX_NUM_DATA_IDS]	= { 0x40, 16 },
	[SIM_M64_DBG_NUM_PORTS]		= { 0x50, 8 },
	[SIM_M64_DBG_NUM_HOSTS]		= { 0x58, 8 },
	[SIM_M64_DBG_NUM_FUNCTIONS]	= { 0x60, 16 },
	[SIM_M64_DBG_NUM_PCIE_LINKS]	= { 0x70, 8 },

	[SIM_M64_KIND_SYNC]		= { 0x00, 1 },
	[SIM_M64_KIND_KIND]		= { 0x20, 32 },

	[SIM_M64_ID_H]			= { 0x00, 32 },
	[SIM_M64_ID_L]			= { 0x20, 32 },

	[SIM_M64_SET_BAD_DATA_ID_INDEX]	= { 0x40, 16 },
	[SIM_M64_SET_BAD_DATA_ID_REASON] = { 0x50, 8 },

	[SIM_M64_DS_DATA_ID_H]		= { 0x00, 32 },
	[SIM_M64_DS_DATA_ID_L]		= { 0x20, 32 },
	[SIM_M64_DS_SAMPLE_ID]		= { 0x40, 32 },
	[SIM_M64_DS_TIME_STAMP_H]	= { 0x60, 32 },
	[SIM_M64_DS_TIME_STAMP_L]	= { 0x80, 32 },
	[SIM_M64_DS_VALUE_H]		= { 0xa0, 32 },
	[SIM_M64_DS_VALUE_L]		= { 0xc0, 32 },
};

static u32 sim_m64_get(const void *buf, size_t len, u32 base,
		       enum sim_m64_field_id id)
{
	return sim_get_bits(buf, len, base + sim_m64_fields[id].off,
			    sim_m64_fields[id].width);
}

static void sim_m64_set(void *buf, size_t len, u32 base,
			enum sim_m64_field_id id, u32 val)
{
	sim_set_bits(buf, len, base + sim_m64_fields[id].off,
		     sim_m64_fields[id].width, val);
}

/* Instance groups of DOCA's data-ID table. */
enum sim_m64_group {
	SIM_GRP_PORT,
	SIM_GRP_PORT_PRIO,
	SIM_GRP_HOST,
	SIM_GRP_FUNCTION,
	SIM_GRP_PCIE_LINK,
	SIM_GRP_LINK_TCLASS,
	SIM_GRP_LINK_BIN,
	SIM_GRP_GLOBAL,
};

struct sim_m64_kind {
	u32 kind;
	u8 group;
	bool sync;	/* default: synchronized start supported */
};

/*
 * The DOCA Telemetry Diagnostics guide's table of supported data IDs, in
 * its order. Sync only on PCIe and ICMC kinds.
 */
static const struct sim_m64_kind sim_m64_kinds[MLX5_DIAG_SIM_NUM_KINDS] = {
	{ 0x10200001, SIM_GRP_PORT,		false },
	{ 0x10200002, SIM_GRP_PORT_PRIO,	false },
	{ 0x10200003, SIM_GRP_PORT,		false },
	{ 0x10200004, SIM_GRP_PORT_PRIO,	false },
	{ 0x10200005, SIM_GRP_PORT,		false },
	{ 0x10200006, SIM_GRP_PORT_PRIO,	false },
	{ 0x10400001, SIM_GRP_HOST,		false },
	{ 0x10800001, SIM_GRP_HOST,		false },
	{ 0x10800002, SIM_GRP_PORT,		false },
	{ 0x10800003, SIM_GRP_PORT,		false },
	{ 0x10800004, SIM_GRP_PORT,		false },
	{ 0x10800005, SIM_GRP_PORT,		false },
	{ 0x11000001, SIM_GRP_PORT,		false },
	{ 0x11000002, SIM_GRP_GLOBAL,		false },
	{ 0x11400001, SIM_GRP_PORT,		false },
	{ 0x11400002, SIM_GRP_PORT_PRIO,	false },
	{ 0x11400003, SIM_GRP_PORT,		false },
	{ 0x11400004, SIM_GRP_PORT_PRIO,	false },
	{ 0x11400005, SIM_GRP_PORT_PRIO,	false },
	{ 0x11600001, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600002, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600003, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600004, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600005, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600006, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600007, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600008, SIM_GRP_PCIE_LINK,	true },
	{ 0x11600009, SIM_GRP_PCIE_LINK,	true },
	{ 0x1160000a, SIM_GRP_LINK_TCLASS,	true },
	{ 0x1160000b, SIM_GRP_PCIE_LINK,	true },
	{ 0x1160000c, SIM_GRP_PCIE_LINK,	true },
	{ 0x1160000d, SIM_GRP_PCIE_LINK,	true },
	{ 0x1160000e, SIM_GRP_PCIE_LINK,	true },
	{ 0x1160000f, SIM_GRP_LINK_BIN,		true },
	{ 0x10c00001, SIM_GRP_GLOBAL,		false },
	{ 0x10c00002, SIM_GRP_FUNCTION,		false },
	{ 0x10c00004, SIM_GRP_GLOBAL,		false },
	{ 0x10c00005, SIM_GRP_FUNCTION,		false },
	{ 0x11800001, SIM_GRP_GLOBAL,		true },
	{ 0x11800002, SIM_GRP_GLOBAL,		true },
	{ 0x11800003, SIM_GRP_GLOBAL,		true },
};

static const struct sim_m64_kind *sim_m64_find_kind(u32 kind)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_m64_kinds); i++)
		if (sim_m64_kinds[i].kind == kind)
			return &sim_m64_kinds[i];
	return NULL;
}

bool mlx5_diag_sim_kind_known(u32 kind)
{
	return sim_m64_find_kind(kind);
}

void mlx5_diag_sim_m64_default_kinds(struct mlx5_diag_sim_caps *caps)
{
	unsigned int i;

	caps->nr_kinds = 0;
	caps->nr_sync_kinds = 0;
	for (i = 0; i < ARRAY_SIZE(sim_m64_kinds); i++) {
		caps->kinds[caps->nr_kinds++] = sim_m64_kinds[i].kind;
		if (sim_m64_kinds[i].sync)
			caps->sync_kinds[caps->nr_sync_kinds++] =
				sim_m64_kinds[i].kind;
	}
}

static bool sim_m64_kind_listed(const struct mlx5_diag_sim_caps *caps,
				u32 kind)
{
	unsigned int i;

	for (i = 0; i < caps->nr_kinds; i++)
		if (caps->kinds[i] == kind)
			return true;
	return false;
}

static bool sim_m64_kind_sync(const struct mlx5_diag_sim_caps *caps,
			      u32 kind)
{
	unsigned int i;

	for (i = 0; i < caps->nr_sync_kinds; i++)
		if (caps->sync_kinds[i] == kind)
			return true;
	return false;
}

/*
 * PCIe link rule: (XX, YY) = (link, 0) with link < num_pcie_links; the
 * caller checks the field above YY (ZZ = 0 and bits 31:24 = 0, or ZZZZ).
 */
static bool sim_m64_link_ok(const struct mlx5_diag_sim_caps *caps, u32 inst)
{
	return (inst & 0xff) < caps->num_pcie_links && !(inst & 0xff00);
}

/* The instance table of part 2: bits 31:0 of the data ID. */
static bool sim_m64_instance_ok(const struct mlx5_diag_sim_caps *caps,
				u8 group, u32 inst)
{
	switch (group) {
	case SIM_GRP_PORT:
		return (inst & 0xff) < caps->num_ports && !(inst >> 8);
	case SIM_GRP_PORT_PRIO:
		return (inst & 0xff) < caps->num_ports &&
		       ((inst >> 8) & 0xf) < 8 && !(inst >> 12);
	case SIM_GRP_HOST:
		return (inst & 0xff) < caps->num_hosts && !(inst >> 8);
	case SIM_GRP_FUNCTION:
		return (inst & 0xffff) < caps->num_functions && !(inst >> 16);
	case SIM_GRP_PCIE_LINK:
		return sim_m64_link_ok(caps, inst) && !(inst >> 16);
	case SIM_GRP_LINK_TCLASS:
		return sim_m64_link_ok(caps, inst) && (inst >> 16) < 8;
	case SIM_GRP_LINK_BIN:
		return sim_m64_link_ok(caps, inst) && (inst >> 16) < 10;
	case SIM_GRP_GLOBAL:
	default:
		return !inst;
	}
}

enum mlx5_diag_sim_bad_id_reason
mlx5_diag_sim_check_data_id(const struct mlx5_diag_sim_caps *caps, u64 id,
			    bool sync)
{
	u32 kind = id >> 32;
	const struct sim_m64_kind *k = sim_m64_find_kind(kind);

	if (!k || !sim_m64_kind_listed(caps, kind))
		return MLX5_DIAG_SIM_BAD_ID_KIND;
	if (sync && !sim_m64_kind_sync(caps, kind))
		return MLX5_DIAG_SIM_BAD_ID_SYNC;
	if (!sim_m64_instance_ok(caps, k->group, (u32)id))
		return MLX5_DIAG_SIM_BAD_ID_INSTANCE;
	return MLX5_DIAG_SIM_BAD_ID_NONE;
}

/*
 * Modelled DEBUG capability fields. on_demand, sync_start and data_clear
 * are modelled for both dialects; the rest only with diag_data_id_64.
 */
void mlx5_diag_sim_m64_put_debug_caps(const struct mlx5_diag_sim_caps *caps,
				      void *out, size_t len, u32 base)
{
	sim_m64_set(out, len, base, SIM_M64_DBG_ON_DEMAND, caps->on_demand);
	sim_m64_set(out, len, base, SIM_M64_DBG_SYNC_START, caps->sync_start);
	sim_m64_set(out, len, base, SIM_M64_DBG_DATA_CLEAR, caps->data_clear);
	if (!caps->dialect64)
		return;
	sim_m64_set(out, len, base, SIM_M64_DBG_DIAG_DATA_ID_64, 1);
	sim_m64_set(out, len, base, SIM_M64_DBG_MAX_NUM_DATA_IDS,
		    caps->max_num_data_ids);
	sim_m64_set(out, len, base, SIM_M64_DBG_NUM_PORTS, caps->num_ports);
	sim_m64_set(out, len, base, SIM_M64_DBG_NUM_HOSTS, caps->num_hosts);
	sim_m64_set(out, len, base, SIM_M64_DBG_NUM_FUNCTIONS,
		    caps->num_functions);
	sim_m64_set(out, len, base, SIM_M64_DBG_NUM_PCIE_LINKS,
		    caps->num_pcie_links);
}

/* max_num_data_ids alone, over what mlx5_diag_sim_m64_put_debug_caps() put */
void mlx5_diag_sim_m64_put_max_ids(void *out, size_t len, u32 base,
				   u32 max_ids)
{
	sim_m64_set(out, len, base, SIM_M64_DBG_MAX_NUM_DATA_IDS, max_ids);
}

void mlx5_diag_sim_m64_put_kind(void *out, size_t len, u32 off, u32 kind,
				bool sync)
{
	sim_m64_set(out, len, off, SIM_M64_KIND_SYNC, sync);
	sim_m64_set(out, len, off, SIM_M64_KIND_KIND, kind);
}

u64 mlx5_diag_sim_m64_get_id(const void *in, size_t len, u32 off)
{
	return (u64)sim_m64_get(in, len, off, SIM_M64_ID_H) << 32 |
	       sim_m64_get(in, len, off, SIM_M64_ID_L);
}

void mlx5_diag_sim_m64_put_id(void *out, size_t len, u32 off, u64 id)
{
	sim_m64_set(out, len, off, SIM_M64_ID_H, id >> 32);
	sim_m64_set(out, len, off, SIM_M64_ID_L, (u32)id);
}

void mlx5_diag_sim_m64_put_bad_id(void *out, size_t len, u32 index,
				  u32 reason)
{
	sim_m64_set(out, len, 0, SIM_M64_SET_BAD_DATA_ID_INDEX, index);
	sim_m64_set(out, len, 0, SIM_M64_SET_BAD_DATA_ID_REASON, reason);
}

void mlx5_diag_sim_m64_put_sample(void *out, size_t len, u32 off, u64 id,
				  u32 sample_id, u64 ts, u64 value)
{
	sim_m64_set(out, len, off, SIM_M64_DS_DATA_ID_H, id >> 32);
	sim_m64_set(out, len, off, SIM_M64_DS_DATA_ID_L, (u32)id);
	sim_m64_set(out, len, off, SIM_M64_DS_SAMPLE_ID, sample_id);
	sim_m64_set(out, len, off, SIM_M64_DS_TIME_STAMP_H, ts >> 32);
	sim_m64_set(out, len, off, SIM_M64_DS_TIME_STAMP_L, (u32)ts);
	sim_m64_set(out, len, off, SIM_M64_DS_VALUE_H, value >> 32);
	sim_m64_set(out, len, off, SIM_M64_DS_VALUE_L, (u32)value);
}
