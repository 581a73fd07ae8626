// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's KUnit module: its suites reach the driver's code in
 * mlx5_diag.ko and the emulator's firmware core in mlx5_diag_sim.ko through
 * the symbols they export for KUnit (EXPORT_SYMBOL_IF_KUNIT), so both are
 * loaded first.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests of the mlx5_diag PMU driver");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
