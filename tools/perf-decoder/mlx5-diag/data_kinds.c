// SPDX-License-Identifier: GPL-2.0
/*
 * The data-ID kinds (data_kinds.def) and their instance fields, laid out
 * as include/uapi/linux/mlx5_diag.h declares them (data_kinds.h).
 */
#include <string.h>

#include <linux/mlx5_diag.h>

#include "data_kinds.h"

static const struct data_kind kinds[] = {
#define MD_KIND(kind, event, doca_name, group, class, unit, help) \
	{ kind, event, doca_name, DATA_KIND_GROUP_##group, DATA_KIND_CLASS_##class, \
	  DATA_KIND_UNIT_##unit, help },
#include "data_kinds.def"
#undef MD_KIND
};

#define NR_KINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* Each field's bits of the data ID (the uapi's bit ranges). */
static const struct {
	const char *name;
	unsigned int lo, hi;
} fields[DATA_KIND_NR_FIELDS] = {
	[DATA_KIND_F_PORT] = { "port", MLX5_DIAG_PORT_LO, MLX5_DIAG_PORT_HI },
	[DATA_KIND_F_PRIO] = { "prio", MLX5_DIAG_PRIO_LO, MLX5_DIAG_PRIO_HI },
	[DATA_KIND_F_HOST] = { "host", MLX5_DIAG_HOST_LO, MLX5_DIAG_HOST_HI },
	[DATA_KIND_F_FUNCTION] = { "function", MLX5_DIAG_FUNCTION_LO,
			      MLX5_DIAG_FUNCTION_HI },
	[DATA_KIND_F_LINK] = { "link", MLX5_DIAG_LINK_XX_LO, MLX5_DIAG_LINK_XX_HI },
	[DATA_KIND_F_TCLASS] = { "tclass", MLX5_DIAG_TCLASS_LO, MLX5_DIAG_TCLASS_HI },
	[DATA_KIND_F_BIN] = { "bin", MLX5_DIAG_BIN_LO, MLX5_DIAG_BIN_HI },
	[DATA_KIND_F_LINK_YY] = { "link_yy", MLX5_DIAG_LINK_YY_LO, MLX5_DIAG_LINK_YY_HI },
	[DATA_KIND_F_LINK_ZZ] = { "link_zz", MLX5_DIAG_LINK_ZZ_LO, MLX5_DIAG_LINK_ZZ_HI },
};

/* The labelled fields of each group, in label order. */
static const struct {
	unsigned int nr;
	enum data_kind_field f[DATA_KIND_MAX_FIELDS];
} groups[] = {
	[DATA_KIND_GROUP_GLOBAL] = { 0, { 0 } },
	[DATA_KIND_GROUP_PORT] = { 1, { DATA_KIND_F_PORT } },
	[DATA_KIND_GROUP_PORT_PRIO] = { 2, { DATA_KIND_F_PORT, DATA_KIND_F_PRIO } },
	[DATA_KIND_GROUP_HOST] = { 1, { DATA_KIND_F_HOST } },
	[DATA_KIND_GROUP_FUNCTION] = { 1, { DATA_KIND_F_FUNCTION } },
	[DATA_KIND_GROUP_PCIE_LINK] = { 1, { DATA_KIND_F_LINK } },
	[DATA_KIND_GROUP_PCIE_LINK_TCLASS] = { 2, { DATA_KIND_F_LINK, DATA_KIND_F_TCLASS } },
	[DATA_KIND_GROUP_PCIE_LINK_BIN] = { 2, { DATA_KIND_F_LINK, DATA_KIND_F_BIN } },
};

const struct data_kind *data_kind_at(size_t i)
{
	return i < NR_KINDS ? &kinds[i] : NULL;
}

const struct data_kind *data_kind_by_event(const char *name)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (!strcmp(kinds[i].event, name))
			return &kinds[i];
	return NULL;
}

const struct data_kind *data_kind_of(uint32_t kind)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

const struct data_kind *data_kind_by_id(uint64_t id)
{
	return data_kind_of((uint32_t)(id >> MLX5_DIAG_KIND_SHIFT));
}

unsigned int data_kind_fields(enum data_kind_group group, const enum data_kind_field **f)
{
	*f = groups[group].f;
	return groups[group].nr;
}

const char *data_kind_field_name(enum data_kind_field f)
{
	return fields[f].name;
}

int data_kind_field_by_name(const char *name)
{
	int f;

	for (f = 0; f < DATA_KIND_NR_FIELDS; f++)
		if (!strcmp(fields[f].name, name))
			return f;
	return -1;
}

static uint64_t field_mask(enum data_kind_field f)
{
	unsigned int width = fields[f].hi - fields[f].lo + 1;

	return ((UINT64_C(1) << width) - 1) << fields[f].lo;
}

uint32_t data_kind_field_max(enum data_kind_field f)
{
	return (uint32_t)(field_mask(f) >> fields[f].lo);
}

uint32_t data_kind_field_value(enum data_kind_field f, uint64_t id)
{
	return (uint32_t)((id & field_mask(f)) >> fields[f].lo);
}

uint64_t data_kind_id(const struct data_kind *k, const uint32_t *values)
{
	uint64_t id = (uint64_t)k->kind << MLX5_DIAG_KIND_SHIFT;
	unsigned int i;

	for (i = 0; i < groups[k->group].nr; i++) {
		enum data_kind_field f = groups[k->group].f[i];

		id |= ((uint64_t)values[i] << fields[f].lo) & field_mask(f);
	}
	return id;
}

void data_kind_instance(const struct data_kind *k, uint64_t id, uint32_t *values)
{
	unsigned int i;

	for (i = 0; i < groups[k->group].nr; i++)
		values[i] = data_kind_field_value(groups[k->group].f[i], id);
}
