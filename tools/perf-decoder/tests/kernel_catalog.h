/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel catalog's data-ID kinds (drivers/perf/mlx5_diag/
 * mlx5_diag_catalog.c) read as text, for the host tests that check the
 * user-space tables against it.
 */
#ifndef MLX5DIAG_TEST_KERNEL_CATALOG_H
#define MLX5DIAG_TEST_KERNEL_CATALOG_H

#include <stdint.h>

/* The catalog below the source tree's top. */
#define KERNEL_CATALOG_PATH	"drivers/perf/mlx5_diag/mlx5_diag_catalog.c"

/* One KIND() row: kind, group, class, event name, unit (NONE, BYTES, NS). */
struct catalog_row {
	uint32_t kind;
	char group[32], class[16], name[64], unit[16];
};

/*
 * catalog_read - the KIND() rows of the catalog at PATH, at most MAX:
 * their number, or -1 when the file cannot be read or a row not parsed.
 */
int catalog_read(const char *path, struct catalog_row *rows, int max);

#endif /* MLX5DIAG_TEST_KERNEL_CATALOG_H */
