/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf attribute fields of the mlx5_diag PMU: one table, built from the
 * bit ranges of include/uapi/linux/mlx5_diag.h, that generates the sysfs
 * format/ strings and that the catalog and validation read fields with.
 */
#ifndef _MLX5_DIAG_FIELDS_H
#define _MLX5_DIAG_FIELDS_H

#include <linux/perf_event.h>
#include <linux/types.h>

enum mlx5_diag_field_id {
	/* attr.config of the 64-bit dialect: a data ID and its parts */
	MLX5_DIAG_F_DATA_ID,
	MLX5_DIAG_F_KIND,
	MLX5_DIAG_F_PORT,
	MLX5_DIAG_F_PRIO,
	MLX5_DIAG_F_HOST,
	MLX5_DIAG_F_FUNCTION,
	MLX5_DIAG_F_LINK_XX,
	MLX5_DIAG_F_LINK_YY,
	MLX5_DIAG_F_LINK_ZZ,
	MLX5_DIAG_F_TCLASS,
	MLX5_DIAG_F_BIN,
	/* attr.config of the public 16-bit dialect */
	MLX5_DIAG_F_FW_COUNTER,
	/* options */
	MLX5_DIAG_F_MODE,
	MLX5_DIAG_F_SYNC,
	MLX5_DIAG_F_CLEAR,
	MLX5_DIAG_F_OUT_FORMAT,
	MLX5_DIAG_F_TS_SOURCE,
	MLX5_DIAG_F_FORCE,
	MLX5_DIAG_F_PERIOD_NS,
	MLX5_DIAG_F_MAX
};

/* Which attr word holds a field. */
enum mlx5_diag_field_word {
	MLX5_DIAG_WORD_CONFIG,
	MLX5_DIAG_WORD_CONFIG1,
	MLX5_DIAG_WORD_CONFIG2,
};

/* Which devices publish a field in format/. */
enum mlx5_diag_field_scope {
	MLX5_DIAG_SCOPE_DATA_ID,	/* 64-bit data-ID dialect */
	MLX5_DIAG_SCOPE_FW_COUNTER,	/* public 16-bit dialect */
	MLX5_DIAG_SCOPE_OPTION,		/* every device */
};

struct mlx5_diag_field {
	const char *name;
	enum mlx5_diag_field_word word;
	u8 lo, hi;
	enum mlx5_diag_field_scope scope;
};

extern const struct mlx5_diag_field mlx5_diag_fields[MLX5_DIAG_F_MAX];

/* The bits of @word that field @f covers, in place. */
static inline u64 mlx5_diag_field_mask(enum mlx5_diag_field_id f)
{
	const struct mlx5_diag_field *fd = &mlx5_diag_fields[f];

	return (~0ULL >> (63 - fd->hi)) & (~0ULL << fd->lo);
}

/* Field @f of the attr word value @v. */
static inline u64 mlx5_diag_field_get(enum mlx5_diag_field_id f, u64 v)
{
	return (v & mlx5_diag_field_mask(f)) >> mlx5_diag_fields[f].lo;
}

/* Field @f placed in its attr word. */
static inline u64 mlx5_diag_field_prep(enum mlx5_diag_field_id f, u64 v)
{
	return (v << mlx5_diag_fields[f].lo) & mlx5_diag_field_mask(f);
}

u64 mlx5_diag_attr_word(const struct perf_event_attr *attr,
			enum mlx5_diag_field_word word);
u64 mlx5_diag_attr_field(const struct perf_event_attr *attr,
			 enum mlx5_diag_field_id f);
u64 mlx5_diag_fields_known_bits(enum mlx5_diag_field_word word);
int mlx5_diag_field_format(enum mlx5_diag_field_id f, char *buf, size_t len);

#endif /* _MLX5_DIAG_FIELDS_H */
