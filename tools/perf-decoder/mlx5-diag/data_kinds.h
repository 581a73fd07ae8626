/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-ID kinds of DOCA's table (data_kinds.def): their group,
 * class and unit, their instance fields laid out as
 * include/uapi/linux/mlx5_diag.h declares them, and data IDs built from
 * field values and back. Decode's names and units and the exporter's
 * families read them here.
 */
#ifndef MLX5_DIAG_DATA_KINDS_H
#define MLX5_DIAG_DATA_KINDS_H

#include <stddef.h>
#include <stdint.h>

enum data_kind_group {
	DATA_KIND_GROUP_GLOBAL, DATA_KIND_GROUP_PORT, DATA_KIND_GROUP_PORT_PRIO,
	DATA_KIND_GROUP_HOST, DATA_KIND_GROUP_FUNCTION, DATA_KIND_GROUP_PCIE_LINK,
	DATA_KIND_GROUP_PCIE_LINK_TCLASS, DATA_KIND_GROUP_PCIE_LINK_BIN,
};

enum data_kind_class {
	DATA_KIND_CLASS_COUNTER, DATA_KIND_CLASS_STAT_SUM, DATA_KIND_CLASS_STAT_MAX,
	DATA_KIND_CLASS_STAT_MIN,
};

/* What a data ID's values count. */
enum data_kind_unit {
	DATA_KIND_UNIT_UNKNOWN,	/* a kind not in DOCA's table */
	DATA_KIND_UNIT_COUNT,	/* events, packets: no unit */
	DATA_KIND_UNIT_BYTES,
	DATA_KIND_UNIT_NS,
};

/*
 * An instance field. A group's labelled fields come first; a PCIe link's
 * YY and ZZ bytes are not labelled (the kernel's events/ aliases do not
 * ask for them either) but name the link in decode's default names.
 */
enum data_kind_field {
	DATA_KIND_F_PORT, DATA_KIND_F_PRIO, DATA_KIND_F_HOST, DATA_KIND_F_FUNCTION,
	DATA_KIND_F_LINK, DATA_KIND_F_TCLASS, DATA_KIND_F_BIN, DATA_KIND_F_LINK_YY,
	DATA_KIND_F_LINK_ZZ,
	DATA_KIND_NR_FIELDS
};

#define DATA_KIND_MAX_FIELDS	2	/* labelled fields of one group */

struct data_kind {
	uint32_t kind;			/* data ID bits 63:32 */
	const char *event;		/* the kernel catalog's events/ name */
	const char *doca_name;		/* DOCA's sample's: rx_bytes, icmc_hit */
	enum data_kind_group group;
	enum data_kind_class class;
	enum data_kind_unit unit;
	const char *help;
};

/* data_kind_at - the Ith kind of the table, NULL past its end. */
const struct data_kind *data_kind_at(size_t i);

/* data_kind_by_event - the kind whose event is NAME, NULL if none. */
const struct data_kind *data_kind_by_event(const char *name);

/* data_kind_of - the kind KIND (data ID bits 63:32), NULL if none. */
const struct data_kind *data_kind_of(uint32_t kind);

/* data_kind_by_id - the kind of data ID ID, NULL if none. */
const struct data_kind *data_kind_by_id(uint64_t id);

/*
 * data_kind_fields - the labelled fields of GROUP, in label order: their
 * number.
 */
unsigned int data_kind_fields(enum data_kind_group group,
			      const enum data_kind_field **fields);

/* data_kind_field_name - "port", "prio", "host", "function", "link", ... */
const char *data_kind_field_name(enum data_kind_field f);

/* data_kind_field_by_name - the field NAME, or -1. */
int data_kind_field_by_name(const char *name);

/* data_kind_field_max - the largest value the data ID holds for field F. */
uint32_t data_kind_field_max(enum data_kind_field f);

/* data_kind_field_value - field F of data ID ID. */
uint32_t data_kind_field_value(enum data_kind_field f, uint64_t id);

/*
 * data_kind_id - the data ID of kind K with VALUES, one per labelled field
 * of its group in data_kind_fields() order (YY and ZZ of a link are 0).
 */
uint64_t data_kind_id(const struct data_kind *k, const uint32_t *values);

/* data_kind_instance - the labelled field values of ID (of kind K). */
void data_kind_instance(const struct data_kind *k, uint64_t id,
			uint32_t *values);

#endif /* MLX5_DIAG_DATA_KINDS_H */
