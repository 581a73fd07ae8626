// SPDX-License-Identifier: GPL-2.0
/* The exporter's metric family names of a data-ID kind (families.h). */
#include <stdio.h>
#include <string.h>

#include "families.h"

void fam_base_name(const struct data_kind *k, char *buf, size_t len)
{
	size_t n = strlen(k->event);

	if (k->unit == DATA_UNIT_NS && n > 3)
		snprintf(buf, len, "mlx5_diag_%.*s_seconds", (int)(n - 3), k->event);
	else
		snprintf(buf, len, "mlx5_diag_%s", k->event);
}

const char *fam_unit_name(const struct data_kind *k)
{
	switch (k->unit) {
	case DATA_UNIT_BYTES:
		return "bytes";
	case DATA_UNIT_NS:
		return "seconds";
	case DATA_UNIT_COUNT:
	case DATA_UNIT_UNKNOWN:
		break;
	}
	return "";
}
