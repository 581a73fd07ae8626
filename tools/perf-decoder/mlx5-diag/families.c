// SPDX-License-Identifier: GPL-2.0
/* The exporter's metric family names of data-ID kinds and metrics (families.h). */
#include <stdio.h>
#include <string.h>

#include "families.h"

void fam_base_name(const struct data_kind *k, char *buf, size_t len)
{
	size_t n = strlen(k->event);

	if (k->unit == DATA_KIND_UNIT_NS && n > 3)
		snprintf(buf, len, "mlx5_diag_%.*s_seconds", (int)(n - 3), k->event);
	else
		snprintf(buf, len, "mlx5_diag_%s", k->event);
}

const char *fam_unit_name(const struct data_kind *k)
{
	switch (k->unit) {
	case DATA_KIND_UNIT_BYTES:
		return "bytes";
	case DATA_KIND_UNIT_NS:
		return "seconds";
	case DATA_KIND_UNIT_COUNT:
	case DATA_KIND_UNIT_UNKNOWN:
		break;
	}
	return "";
}

/*
 * metrics.def's units: the suffix a metric's name ends in, the base
 * unit's that replaces it, and what turns the expression (before the
 * scale) into the base unit: GB/s metrics divide bytes by seconds and
 * scale by 1e-9, ns metrics give ns.
 */
static const struct {
	const char *unit, *suffix, *base_suffix;
	double factor;
} metric_units[] = {
	{ "GB/s", "_GBps", "_per_second", 1 },
	{ "packets/s", "_per_s", "_per_second", 1 },
	{ "accesses/s", "_per_s", "_per_second", 1 },
	{ "ns", "_ns", "_seconds", 1e-9 },
	{ "", "", "", 1 },
};

/* The prefix of a group's event names (the kernel catalog's). */
static const char *group_prefix(enum data_kind_group group)
{
	switch (group) {
	case DATA_KIND_GROUP_PORT:
		return "port_";
	case DATA_KIND_GROUP_PORT_PRIO:
		return "port_prio_";
	case DATA_KIND_GROUP_HOST:
		return "host_";
	case DATA_KIND_GROUP_FUNCTION:
		return "function_";
	case DATA_KIND_GROUP_PCIE_LINK:
	case DATA_KIND_GROUP_PCIE_LINK_TCLASS:
	case DATA_KIND_GROUP_PCIE_LINK_BIN:
		return "pcie_";
	case DATA_KIND_GROUP_GLOBAL:
		break;
	}
	return "";
}

int fam_metric_name(const struct data_kind *k, const char *name, const char *unit,
		    char *buf, size_t len, double *factor)
{
	size_t i, n = strlen(name), sn;

	for (i = 0; i < sizeof(metric_units) / sizeof(metric_units[0]); i++) {
		if (strcmp(metric_units[i].unit, unit))
			continue;
		sn = strlen(metric_units[i].suffix);
		if (n <= sn || strcmp(name + n - sn, metric_units[i].suffix))
			return -1;
		snprintf(buf, len, "mlx5_diag_%s%.*s%s", group_prefix(k->group),
			 (int)(n - sn), name, metric_units[i].base_suffix);
		*factor = metric_units[i].factor;
		return 0;
	}
	return -1;
}
