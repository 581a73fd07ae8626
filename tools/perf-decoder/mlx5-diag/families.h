/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's metric family names of a data-ID kind (data_kinds.h)
 * and of a derived metric (metrics.def): Prometheus' conventions, base
 * units.
 */
#ifndef MLX5_DIAG_FAMILIES_H
#define MLX5_DIAG_FAMILIES_H

#include <stddef.h>

#include "data_kinds.h"

/*
 * fam_base_name - the family name of K's values: "mlx5_diag_" and its
 * event, _ns made _seconds (mlx5_diag_port_rx_bytes,
 * mlx5_diag_pcie_read_stall_ordering_seconds).
 */
void fam_base_name(const struct data_kind *k, char *buf, size_t len);

/* fam_unit_name - the family's unit: "bytes", "seconds" or "". */
const char *fam_unit_name(const struct data_kind *k);

/*
 * fam_metric_name - the family name of metrics.def's metric NAME in UNIT
 * whose first event is of kind K, in base units: "mlx5_diag_", the
 * group's prefix of K's events (port_, port_prio_, pcie_, ...), and NAME
 * with its unit's suffix made a base unit's (rx_bytes_GBps:
 * mlx5_diag_port_rx_bytes_per_second; avg_read_latency_ns:
 * mlx5_diag_pcie_avg_read_latency_seconds); *FACTOR turns the metric's
 * expression (before metrics.def's scale) into that unit. Returns 0, or
 * -1 for a unit or name this table does not know.
 */
int fam_metric_name(const struct data_kind *k, const char *name, const char *unit,
		    char *buf, size_t len, double *factor);

#endif /* MLX5_DIAG_FAMILIES_H */
