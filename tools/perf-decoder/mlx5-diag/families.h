/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's metric family names of a data-ID kind (data_kinds.h):
 * Prometheus' conventions, base units.
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

#endif /* MLX5_DIAG_FAMILIES_H */
