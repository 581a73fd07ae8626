// SPDX-License-Identifier: GPL-2.0
/*
 * The perf attribute field table of the mlx5_diag PMU and the helpers that
 * read it; the bit numbers come from include/uapi/linux/mlx5_diag.h only.
 */
#include <linux/kernel.h>
#include <uapi/linux/mlx5_diag.h>

#include "mlx5_diag_fields.h"

#define FIELD(_id, _name, _word, _scope)				\
	[MLX5_DIAG_F_##_id] = {						\
		.name = _name, .word = MLX5_DIAG_WORD_##_word,		\
		.lo = MLX5_DIAG_##_id##_LO, .hi = MLX5_DIAG_##_id##_HI,	\
		.scope = MLX5_DIAG_SCOPE_##_scope,			\
	}

const struct mlx5_diag_field mlx5_diag_fields[MLX5_DIAG_F_MAX] = {
	FIELD(DATA_ID, "data_id", CONFIG, DATA_ID),
	FIELD(KIND, "kind", CONFIG, DATA_ID),
	FIELD(PORT, "port", CONFIG, DATA_ID),
	FIELD(PRIO, "prio", CONFIG, DATA_ID),
	FIELD(HOST, "host", CONFIG, DATA_ID),
	FIELD(FUNCTION, "function", CONFIG, DATA_ID),
	FIELD(LINK_XX, "link_xx", CONFIG, DATA_ID),
	FIELD(LINK_YY, "link_yy", CONFIG, DATA_ID),
	FIELD(LINK_ZZ, "link_zz", CONFIG, DATA_ID),
	FIELD(TCLASS, "tclass", CONFIG, DATA_ID),
	FIELD(BIN, "bin", CONFIG, DATA_ID),
	FIELD(FW_COUNTER, "fw_counter", CONFIG, FW_COUNTER),
	FIELD(MODE, "mode", CONFIG1, OPTION),
	FIELD(SYNC, "sync", CONFIG1, OPTION),
	FIELD(CLEAR, "clear", CONFIG1, OPTION),
	FIELD(OUT_FORMAT, "out_format", CONFIG1, OPTION),
	FIELD(TS_SOURCE, "ts_source", CONFIG1, OPTION),
	FIELD(FORCE, "force", CONFIG1, OPTION),
	FIELD(PERIOD_NS, "period_ns", CONFIG2, OPTION),
};

u64 mlx5_diag_attr_word(const struct perf_event_attr *attr,
			enum mlx5_diag_field_word word)
{
	switch (word) {
	case MLX5_DIAG_WORD_CONFIG:
		return attr->config;
	case MLX5_DIAG_WORD_CONFIG1:
		return attr->config1;
	case MLX5_DIAG_WORD_CONFIG2:
		return attr->config2;
	}
	return 0;
}

u64 mlx5_diag_attr_field(const struct perf_event_attr *attr,
			 enum mlx5_diag_field_id f)
{
	return mlx5_diag_field_get(f, mlx5_diag_attr_word(attr,
							  mlx5_diag_fields[f].word));
}

/* Every bit of @word that some option or id field names. */
u64 mlx5_diag_fields_known_bits(enum mlx5_diag_field_word word)
{
	u64 bits = 0;
	int f;

	for (f = 0; f < MLX5_DIAG_F_MAX; f++)
		if (mlx5_diag_fields[f].word == word)
			bits |= mlx5_diag_field_mask(f);
	return bits;
}

/* The format/ string of field @f, e.g. "config1:4-5\n". */
int mlx5_diag_field_format(enum mlx5_diag_field_id f, char *buf, size_t len)
{
	static const char * const words[] = {
		[MLX5_DIAG_WORD_CONFIG] = "config",
		[MLX5_DIAG_WORD_CONFIG1] = "config1",
		[MLX5_DIAG_WORD_CONFIG2] = "config2",
	};
	const struct mlx5_diag_field *fd = &mlx5_diag_fields[f];

	if (fd->lo == fd->hi)
		return scnprintf(buf, len, "%s:%u\n", words[fd->word], fd->lo);
	return scnprintf(buf, len, "%s:%u-%u\n", words[fd->word], fd->lo,
			 fd->hi);
}
