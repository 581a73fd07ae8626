// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's pure code, compiled into the KUnit module (so no object is
 * linked into two modules).
 */
#include "../mlx5_diag_fields.c"
#include "../mlx5_diag_catalog.c"
#include "../mlx5_diag_fw.c"
#include "../mlx5_diag_fw_public16.c"
#include "../mlx5_diag_fw_model64.c"
#include "../mlx5_diag_count.c"
#include "../mlx5_diag_engine.c"
#include "../mlx5_diag_engine_count.c"
#include "../mlx5_diag_engine_session.c"
#include "../mlx5_diag_record.c"

#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests of the mlx5_diag PMU driver");
MODULE_LICENSE("GPL");
