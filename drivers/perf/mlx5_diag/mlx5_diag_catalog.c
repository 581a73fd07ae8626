// SPDX-License-Identifier: GPL-2.0
/*
 * The data-ID catalog: every 64-bit data ID kind of the DOCA Telemetry
 * Diagnostics guide's data-ID table and every public 16-bit firmware counter
 * id (mlx5ctl's description table), with the
 * perf event name, the class that gives it a counting meaning, its unit
 * and the instance fields it needs.
 */
#include <linux/errno.h>
#include <linux/kernel.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_catalog.h"
#include "mlx5_diag_fields.h"

#define KIND(_kind, _grp, _class, _name, _unit)				\
	{ .kind = _kind, .group = MLX5_DIAG_GRP_##_grp,			\
	  .class = MLX5_DIAG_CLASS_##_class, .name = _name, .unit = _unit }
#define FWCNT(_id, _name, _unit, _scale)					\
	{ .fw_counter = _id, .group = MLX5_DIAG_GRP_FW_COUNTER,		\
	  .class = MLX5_DIAG_CLASS_COUNTER, .name = _name, .unit = _unit,	\
	  .scale = _scale }

const struct mlx5_diag_catalog_entry mlx5_diag_catalog[] = {
	/* DOCA data IDs: "List of Supported Data IDs" */
	KIND(0x10200001, PORT, COUNTER, "port_rx_bytes", "Bytes"),
	KIND(0x10200002, PORT_PRIO, COUNTER, "port_prio_rx_bytes", "Bytes"),
	KIND(0x10200003, PORT, COUNTER, "port_rx_packets", NULL),
	KIND(0x10200004, PORT_PRIO, COUNTER, "port_prio_rx_packets", NULL),
	KIND(0x10200005, PORT, COUNTER, "port_rx_no_buffer_discards", NULL),
	KIND(0x10200006, PORT_PRIO, COUNTER, "port_prio_rx_pause", NULL),
	KIND(0x10400001, HOST, COUNTER, "host_rx_buffer_discards", NULL),
	KIND(0x10800001, HOST, COUNTER, "host_rx_to_scatter_packets", NULL),
	KIND(0x10800002, PORT, COUNTER, "port_rx_no_wqe_drops", NULL),
	KIND(0x10800003, PORT, COUNTER, "port_rx_hairpin_no_wqe_drops", NULL),
	KIND(0x10800004, PORT, COUNTER, "port_rx_ecn_marked_roce", NULL),
	KIND(0x10800005, PORT, COUNTER, "port_rp_cnp_handled", NULL),
	KIND(0x11000001, PORT, COUNTER, "port_np_cnp_sent", NULL),
	KIND(0x11000002, GLOBAL, COUNTER, "qp_cc_rate_limit_descheduled", NULL),
	KIND(0x11400001, PORT, COUNTER, "port_tx_bytes", "Bytes"),
	KIND(0x11400002, PORT_PRIO, COUNTER, "port_prio_tx_bytes", "Bytes"),
	KIND(0x11400003, PORT, COUNTER, "port_tx_packets", NULL),
	KIND(0x11400004, PORT_PRIO, COUNTER, "port_prio_tx_packets", NULL),
	KIND(0x11400005, PORT_PRIO, COUNTER, "port_prio_tx_pause", NULL),
	KIND(0x11600001, PCIE_LINK, COUNTER, "pcie_in_bytes", "Bytes"),
	KIND(0x11600002, PCIE_LINK, COUNTER, "pcie_out_bytes", "Bytes"),
	KIND(0x11600003, PCIE_LINK, COUNTER, "pcie_in_data_bytes", "Bytes"),
	KIND(0x11600004, PCIE_LINK, COUNTER, "pcie_out_data_bytes", "Bytes"),
	KIND(0x11600005, PCIE_LINK, COUNTER,
	     "pcie_write_stall_data_credits_ns", "ns"),
	KIND(0x11600006, PCIE_LINK, COUNTER,
	     "pcie_write_stall_header_credits_ns", "ns"),
	KIND(0x11600007, PCIE_LINK, COUNTER,
	     "pcie_read_stall_data_credits_ns", "ns"),
	KIND(0x11600008, PCIE_LINK, COUNTER,
	     "pcie_read_stall_header_credits_ns", "ns"),
	KIND(0x11600009, PCIE_LINK, COUNTER,
	     "pcie_read_stall_no_completion_buffer_ns", "ns"),
	KIND(0x1160000a, PCIE_LINK_TCLASS, COUNTER,
	     "pcie_read_stall_ordering_ns", "ns"),
	KIND(0x1160000b, PCIE_LINK, STAT_SUM, "pcie_read_latency_total_ns", "ns"),
	KIND(0x1160000c, PCIE_LINK, STAT_SUM, "pcie_read_latency_packets", NULL),
	KIND(0x1160000d, PCIE_LINK, STAT_MAX, "pcie_read_latency_max_ns", "ns"),
	KIND(0x1160000e, PCIE_LINK, STAT_MIN, "pcie_read_latency_min_ns", "ns"),
	KIND(0x1160000f, PCIE_LINK_BIN, STAT_SUM,
	     "pcie_read_latency_hist_packets", NULL),
	KIND(0x10c00001, GLOBAL, COUNTER, "rx_cqes", NULL),
	KIND(0x10c00002, FUNCTION, COUNTER, "function_rx_cqes", NULL),
	KIND(0x10c00004, GLOBAL, COUNTER, "tx_cqes", NULL),
	KIND(0x10c00005, FUNCTION, COUNTER, "function_tx_cqes", NULL),
	KIND(0x11800001, GLOBAL, COUNTER, "icmc_accesses", NULL),
	KIND(0x11800002, GLOBAL, COUNTER, "icmc_hits", NULL),
	KIND(0x11800003, GLOBAL, COUNTER, "icmc_misses", NULL),

	/*
	 * public 16-bit counter ids (mlx5ctl's description table); "clocks"
	 * are device clocks, published as ns with a per-device scale
	 */
	FWCNT(0x0401, "fw_pcie_dl_backpressure", "clocks", NULL),
	FWCNT(0x0402, "fw_pcie_outbound_stalled_writes", "clocks", NULL),
	FWCNT(0x0403, "fw_pcie_outbound_stalled_reads", "clocks", NULL),
	FWCNT(0x0406, "fw_pcie_rx_data", "Bytes", "128"),
	FWCNT(0x0409, "fw_pcie_read_stalled_no_read_engines", "clocks", NULL),
	FWCNT(0x040a, "fw_pcie_read_stalled_no_completion_buffer", "clocks", NULL),
	FWCNT(0x040b, "fw_pcie_read_stalled_ordering", "clocks", NULL),
	FWCNT(0x1001, "fw_rx_steering_packets", NULL, NULL),
	FWCNT(0x2001, "fw_sq_stopped_limited_vl", "clocks", NULL),
	FWCNT(0x2006, "fw_tx_packets", NULL, NULL),
	FWCNT(0x2c02, "fw_line_tx_port1", NULL, NULL),
	FWCNT(0x2c03, "fw_line_tx_port2", NULL, NULL),
	FWCNT(0x2c04, "fw_line_tx_loopback", NULL, NULL),
};
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_catalog);

const unsigned int mlx5_diag_catalog_size = ARRAY_SIZE(mlx5_diag_catalog);
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_catalog_size);

/* The catalog entry naming @id: a data ID, or a fw counter (bits 63:16 zero). */
const struct mlx5_diag_catalog_entry *mlx5_diag_catalog_find(u64 id)
{
	u32 kind = mlx5_diag_field_get(MLX5_DIAG_F_KIND, id);
	unsigned int i;

	for (i = 0; i < mlx5_diag_catalog_size; i++) {
		const struct mlx5_diag_catalog_entry *e = &mlx5_diag_catalog[i];

		if (kind && e->kind == kind)
			return e;
		if (!kind && e->group == MLX5_DIAG_GRP_FW_COUNTER &&
		    e->fw_counter == id)
			return e;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_catalog_find);

/* The catalog key of an entry: its kind in place, or the fw counter id. */
u64 mlx5_diag_catalog_key(const struct mlx5_diag_catalog_entry *e)
{
	if (e->group == MLX5_DIAG_GRP_FW_COUNTER)
		return e->fw_counter;
	return mlx5_diag_field_prep(MLX5_DIAG_F_KIND, e->kind);
}

/* What bounds an instance field. */
enum mlx5_diag_limit {
	MLX5_DIAG_LIM_FIRMWARE,	/* which links exist is no capability */
	MLX5_DIAG_LIM_PORTS,
	MLX5_DIAG_LIM_HOSTS,
	MLX5_DIAG_LIM_FUNCTIONS,
	MLX5_DIAG_LIM_PRIOS,
	MLX5_DIAG_LIM_TCLASSES,
	MLX5_DIAG_LIM_BINS,
};

#define MLX5_DIAG_GROUP_MAX_FIELDS	3

/*
 * The instance fields each group of data IDs uses, in events/ order; the
 * events/ alias asks for those marked @ask, the others default to 0.
 */
static const struct {
	u8 nr;
	struct {
		enum mlx5_diag_field_id f;
		enum mlx5_diag_limit limit;
		bool ask;
	} fields[MLX5_DIAG_GROUP_MAX_FIELDS];
} mlx5_diag_groups[] = {
	[MLX5_DIAG_GRP_GLOBAL] = { 0 },
	[MLX5_DIAG_GRP_PORT] = { 1, {
		{ MLX5_DIAG_F_PORT, MLX5_DIAG_LIM_PORTS, true } } },
	[MLX5_DIAG_GRP_PORT_PRIO] = { 2, {
		{ MLX5_DIAG_F_PORT, MLX5_DIAG_LIM_PORTS, true },
		{ MLX5_DIAG_F_PRIO, MLX5_DIAG_LIM_PRIOS, true } } },
	[MLX5_DIAG_GRP_HOST] = { 1, {
		{ MLX5_DIAG_F_HOST, MLX5_DIAG_LIM_HOSTS, true } } },
	[MLX5_DIAG_GRP_FUNCTION] = { 1, {
		{ MLX5_DIAG_F_FUNCTION, MLX5_DIAG_LIM_FUNCTIONS, true } } },
	[MLX5_DIAG_GRP_PCIE_LINK] = { 3, {
		{ MLX5_DIAG_F_LINK_XX, MLX5_DIAG_LIM_FIRMWARE, true },
		{ MLX5_DIAG_F_LINK_YY, MLX5_DIAG_LIM_FIRMWARE, false },
		{ MLX5_DIAG_F_LINK_ZZ, MLX5_DIAG_LIM_FIRMWARE, false } } },
	[MLX5_DIAG_GRP_PCIE_LINK_TCLASS] = { 3, {
		{ MLX5_DIAG_F_LINK_XX, MLX5_DIAG_LIM_FIRMWARE, true },
		{ MLX5_DIAG_F_LINK_YY, MLX5_DIAG_LIM_FIRMWARE, false },
		{ MLX5_DIAG_F_TCLASS, MLX5_DIAG_LIM_TCLASSES, true } } },
	[MLX5_DIAG_GRP_PCIE_LINK_BIN] = { 3, {
		{ MLX5_DIAG_F_LINK_XX, MLX5_DIAG_LIM_FIRMWARE, true },
		{ MLX5_DIAG_F_LINK_YY, MLX5_DIAG_LIM_FIRMWARE, false },
		{ MLX5_DIAG_F_BIN, MLX5_DIAG_LIM_BINS, true } } },
	[MLX5_DIAG_GRP_FW_COUNTER] = { 1, {
		{ MLX5_DIAG_F_FW_COUNTER, MLX5_DIAG_LIM_FIRMWARE, false } } },
};

static u32 mlx5_diag_limit(enum mlx5_diag_limit limit,
			   const struct mlx5_diag_instance_limits *lim)
{
	switch (limit) {
	case MLX5_DIAG_LIM_PORTS:
		return lim->num_ports;
	case MLX5_DIAG_LIM_HOSTS:
		return lim->num_hosts;
	case MLX5_DIAG_LIM_FUNCTIONS:
		return lim->num_functions;
	case MLX5_DIAG_LIM_PRIOS:
		return MLX5_DIAG_NUM_PRIOS;
	case MLX5_DIAG_LIM_TCLASSES:
		return MLX5_DIAG_NUM_TCLASSES;
	case MLX5_DIAG_LIM_BINS:
		return MLX5_DIAG_NUM_HIST_BINS;
	case MLX5_DIAG_LIM_FIRMWARE:
		break;
	}
	return U32_MAX;
}

/*
 * Check the instance part of @id against the device's limits. Returns 0, or
 * -EINVAL with @why naming the field that is wrong. The link tuple itself is
 * checked by firmware.
 */
int mlx5_diag_catalog_check_instance(const struct mlx5_diag_catalog_entry *e,
				     u64 id,
				     const struct mlx5_diag_instance_limits *lim,
				     const char **why)
{
	u64 used = e->group == MLX5_DIAG_GRP_FW_COUNTER ? 0 :
		   mlx5_diag_field_mask(MLX5_DIAG_F_KIND);
	unsigned int i;

	if (e->group >= ARRAY_SIZE(mlx5_diag_groups)) {
		*why = "unknown instance group";
		return -EINVAL;
	}
	for (i = 0; i < mlx5_diag_groups[e->group].nr; i++) {
		enum mlx5_diag_field_id f = mlx5_diag_groups[e->group].fields[i].f;
		u32 max = mlx5_diag_limit(mlx5_diag_groups[e->group].fields[i].limit,
					  lim);

		used |= mlx5_diag_field_mask(f);
		if (mlx5_diag_field_get(f, id) >= max) {
			*why = mlx5_diag_fields[f].name;
			return -ERANGE;
		}
	}
	if (id & ~used) {
		*why = "instance bits set that this data ID does not use";
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_catalog_check_instance);

/* The sysfs events/ string for @e, with the fields perf must ask for. */
int mlx5_diag_catalog_event_string(const struct mlx5_diag_catalog_entry *e,
				   char *buf, size_t len)
{
	unsigned int i;
	int n;

	if (e->group == MLX5_DIAG_GRP_FW_COUNTER)
		return scnprintf(buf, len, "fw_counter=0x%04x\n", e->fw_counter);
	n = scnprintf(buf, len, "kind=0x%08x", e->kind);
	for (i = 0; i < mlx5_diag_groups[e->group].nr; i++) {
		enum mlx5_diag_field_id f = mlx5_diag_groups[e->group].fields[i].f;

		if (mlx5_diag_groups[e->group].fields[i].ask)
			n += scnprintf(buf + n, len - n, ",%s=?",
				       mlx5_diag_fields[f].name);
	}
	return n + scnprintf(buf + n, len - n, "\n");
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_catalog_event_string);
