// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL: the 64-bit data-ID dialect of the diagnostic-counter commands.
 * Firmware's real layout for DOCA's 64-bit data IDs is not public; this file
 * is the driver's side of the model in
 * Documentation/driver-api/mlx5-diag-firmware.rst part 2, and the only one
 * to replace when the real layout is known.
 */
#include "mlx5_diag_compat.h"
#include "mlx5_diag_fields.h"
#include "mlx5_diag_fw.h"
#include "mlx5_diag_ifc.h"

static void mlx5_diag_model64_cap_entry_get(const void *p,
					    struct mlx5_diag_cap_entry *e)
{
	e->sync = MLX5_DIAG_GET(diagnostic_data_kind, p, sync);
	e->id = mlx5_diag_field_prep(MLX5_DIAG_F_KIND,
				     MLX5_DIAG_GET(diagnostic_data_kind, p, kind));
}

static void mlx5_diag_model64_param_id_set(void *p, u64 id)
{
	MLX5_DIAG_SET64(data_id, p, data_id_h, data_id_l, id);
}

static u64 mlx5_diag_model64_param_id_get(const void *p)
{
	return MLX5_DIAG_GET64(data_id, p, data_id_h, data_id_l);
}

static void mlx5_diag_model64_sample_entries_get(const void *p,
						 unsigned int n,
						 struct mlx5_diag_fw_entry *e)
{
	for (; n; n--, e++, p += MLX5_DIAG_BYTES(diagnostic_data)) {
		e->id = MLX5_DIAG_GET64(diagnostic_data, p, data_id_h,
					data_id_l);
		e->sample_id = MLX5_DIAG_GET(diagnostic_data, p, sample_id);
		e->timestamp = MLX5_DIAG_GET64(diagnostic_data, p,
					       time_stamp_h, time_stamp_l);
		e->value = MLX5_DIAG_GET64(diagnostic_data, p, value_h,
					   value_l);
	}
}

const struct mlx5_diag_fw_dialect mlx5_diag_fw_model64 = {
	.name = "model64",
	.cap_entry_bits = MLX5_DIAG_BITS(diagnostic_data_kind),
	.param_id_bits = MLX5_DIAG_BITS(data_id),
	.sample_entry_bits = MLX5_DIAG_BITS(diagnostic_data),
	.sample_id_bits = MLX5_DIAG_FLD_SZ(diagnostic_data, sample_id),
	.timestamp_bits = 64,
	.cap_entry_get = mlx5_diag_model64_cap_entry_get,
	.param_id_set = mlx5_diag_model64_param_id_set,
	.param_id_get = mlx5_diag_model64_param_id_get,
	.sample_entries_get = mlx5_diag_model64_sample_entries_get,
};
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_model64);
