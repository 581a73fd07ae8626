/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-ID catalog: what each 64-bit data ID kind or public 16-bit
 * firmware counter id means, its perf name, class, unit and instance fields.
 */
#ifndef _MLX5_DIAG_CATALOG_H
#define _MLX5_DIAG_CATALOG_H

#include <linux/types.h>

#define MLX5_DIAG_NUM_PRIOS		8
#define MLX5_DIAG_NUM_TCLASSES		8
#define MLX5_DIAG_NUM_HIST_BINS		10

enum mlx5_diag_group {
	MLX5_DIAG_GRP_GLOBAL,
	MLX5_DIAG_GRP_PORT,
	MLX5_DIAG_GRP_PORT_PRIO,
	MLX5_DIAG_GRP_HOST,
	MLX5_DIAG_GRP_FUNCTION,
	MLX5_DIAG_GRP_PCIE_LINK,
	MLX5_DIAG_GRP_PCIE_LINK_TCLASS,
	MLX5_DIAG_GRP_PCIE_LINK_BIN,
	MLX5_DIAG_GRP_FW_COUNTER,	/* public 16-bit counter id */
};

/*
 * How a value behaves, and what it means in counting mode (perf stat):
 * COUNTER: monotonic, the count is the increase over the interval.
 * STAT_SUM: cleared at each sample; the count is the sum of the samples,
 *	i.e. the total over the interval (latency ns, packets, bin hits).
 * STAT_MAX, STAT_MIN: cleared at each sample; no sum means anything, so
 *	counting refuses them (they are for sampling).
 */
enum mlx5_diag_class {
	MLX5_DIAG_CLASS_COUNTER,
	MLX5_DIAG_CLASS_STAT_SUM,
	MLX5_DIAG_CLASS_STAT_MAX,
	MLX5_DIAG_CLASS_STAT_MIN,
};

struct mlx5_diag_catalog_entry {
	u32 kind;		/* data ID bits 63:32, or 0 for a fw counter */
	u16 fw_counter;		/* public 16-bit counter id, group FW_COUNTER */
	enum mlx5_diag_group group;
	enum mlx5_diag_class class;
	const char *name;	/* perf event alias */
	const char *unit;	/* NULL, "Bytes", "ns" or device "clocks" */
	const char *scale;	/* NULL or a perf scale string */
};

/* The instance limits a device reports (DEBUG capability). */
struct mlx5_diag_instance_limits {
	u8 num_ports, num_hosts;
	u16 num_functions;
};

extern const struct mlx5_diag_catalog_entry mlx5_diag_catalog[];
extern const unsigned int mlx5_diag_catalog_size;

const struct mlx5_diag_catalog_entry *mlx5_diag_catalog_find(u64 id);
u64 mlx5_diag_catalog_key(const struct mlx5_diag_catalog_entry *e);
int mlx5_diag_catalog_check_instance(const struct mlx5_diag_catalog_entry *e,
				     u64 id,
				     const struct mlx5_diag_instance_limits *lim,
				     const char **why);
int mlx5_diag_catalog_event_string(const struct mlx5_diag_catalog_entry *e,
				   char *buf, size_t len);

#endif /* _MLX5_DIAG_CATALOG_H */
