// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's data-ID kinds (families.def) and their instance fields,
 * laid out as include/uapi/linux/mlx5_diag.h declares them.
 */
#include <stdio.h>
#include <string.h>

#include <linux/mlx5_diag.h>

#include "families.h"

static const struct fam_kind kinds[] = {
#define MD_FAMILY(kind, event, group, class, unit, help) \
	{ kind, event, FAM_##group, FAM_##class, FAM_##unit, help },
#include "families.def"
#undef MD_FAMILY
};

#define NR_KINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* Each field's bits of the data ID (the uapi's bit ranges). */
static const struct {
	const char *name;
	unsigned int lo, hi;
} fields[FAM_NR_FIELDS] = {
	[FAM_F_PORT] = { "port", MLX5_DIAG_PORT_LO, MLX5_DIAG_PORT_HI },
	[FAM_F_PRIO] = { "prio", MLX5_DIAG_PRIO_LO, MLX5_DIAG_PRIO_HI },
	[FAM_F_HOST] = { "host", MLX5_DIAG_HOST_LO, MLX5_DIAG_HOST_HI },
	[FAM_F_FUNCTION] = { "function", MLX5_DIAG_FUNCTION_LO,
			     MLX5_DIAG_FUNCTION_HI },
	[FAM_F_LINK] = { "link", MLX5_DIAG_LINK_XX_LO, MLX5_DIAG_LINK_XX_HI },
	[FAM_F_TCLASS] = { "tclass", MLX5_DIAG_TCLASS_LO, MLX5_DIAG_TCLASS_HI },
	[FAM_F_BIN] = { "bin", MLX5_DIAG_BIN_LO, MLX5_DIAG_BIN_HI },
};

/* The fields of each group, in label order. */
static const struct {
	unsigned int nr;
	enum fam_field f[FAM_MAX_FIELDS];
} groups[] = {
	[FAM_GLOBAL] = { 0, { 0 } },
	[FAM_PORT] = { 1, { FAM_F_PORT } },
	[FAM_PORT_PRIO] = { 2, { FAM_F_PORT, FAM_F_PRIO } },
	[FAM_HOST] = { 1, { FAM_F_HOST } },
	[FAM_FUNCTION] = { 1, { FAM_F_FUNCTION } },
	[FAM_PCIE_LINK] = { 1, { FAM_F_LINK } },
	[FAM_PCIE_LINK_TCLASS] = { 2, { FAM_F_LINK, FAM_F_TCLASS } },
	[FAM_PCIE_LINK_BIN] = { 2, { FAM_F_LINK, FAM_F_BIN } },
};

const struct fam_kind *fam_at(size_t i)
{
	return i < NR_KINDS ? &kinds[i] : NULL;
}

const struct fam_kind *fam_by_event(const char *name)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (!strcmp(kinds[i].event, name))
			return &kinds[i];
	return NULL;
}

const struct fam_kind *fam_by_id(uint64_t id)
{
	uint32_t kind = (uint32_t)(id >> MLX5_DIAG_KIND_SHIFT);
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

unsigned int fam_fields(enum fam_group group, const enum fam_field **f)
{
	*f = groups[group].f;
	return groups[group].nr;
}

const char *fam_field_name(enum fam_field f)
{
	return fields[f].name;
}

int fam_field_by_name(const char *name)
{
	int f;

	for (f = 0; f < FAM_NR_FIELDS; f++)
		if (!strcmp(fields[f].name, name))
			return f;
	return -1;
}

static uint64_t field_mask(enum fam_field f)
{
	unsigned int width = fields[f].hi - fields[f].lo + 1;

	return ((UINT64_C(1) << width) - 1) << fields[f].lo;
}

uint32_t fam_field_max(enum fam_field f)
{
	return (uint32_t)(field_mask(f) >> fields[f].lo);
}

uint64_t fam_data_id(const struct fam_kind *k, const uint32_t *values)
{
	uint64_t id = (uint64_t)k->kind << MLX5_DIAG_KIND_SHIFT;
	unsigned int i;

	for (i = 0; i < groups[k->group].nr; i++) {
		enum fam_field f = groups[k->group].f[i];

		id |= ((uint64_t)values[i] << fields[f].lo) & field_mask(f);
	}
	return id;
}

void fam_instance(const struct fam_kind *k, uint64_t id, uint32_t *values)
{
	unsigned int i;

	for (i = 0; i < groups[k->group].nr; i++) {
		enum fam_field f = groups[k->group].f[i];

		values[i] = (uint32_t)((id & field_mask(f)) >> fields[f].lo);
	}
}

void fam_base_name(const struct fam_kind *k, char *buf, size_t len)
{
	size_t n = strlen(k->event);

	if (k->unit == FAM_NS && n > 3)
		snprintf(buf, len, "mlx5_diag_%.*s_seconds", (int)(n - 3), k->event);
	else
		snprintf(buf, len, "mlx5_diag_%s", k->event);
}

const char *fam_unit_name(const struct fam_kind *k)
{
	switch (k->unit) {
	case FAM_BYTES:
		return "bytes";
	case FAM_NS:
		return "seconds";
	case FAM_NONE:
		break;
	}
	return "";
}
