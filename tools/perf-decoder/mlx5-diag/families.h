/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-ID kinds the exporter knows (families.def): their instance
 * fields as labels, data IDs built from field values and back, and the
 * names of their metric families.
 */
#ifndef MLX5_DIAG_FAMILIES_H
#define MLX5_DIAG_FAMILIES_H

#include <stddef.h>
#include <stdint.h>

enum fam_group {
	FAM_GLOBAL, FAM_PORT, FAM_PORT_PRIO, FAM_HOST, FAM_FUNCTION,
	FAM_PCIE_LINK, FAM_PCIE_LINK_TCLASS, FAM_PCIE_LINK_BIN,
};

enum fam_class { FAM_COUNTER, FAM_STAT_SUM, FAM_STAT_MAX, FAM_STAT_MIN };

enum fam_unit { FAM_BYTES, FAM_NS, FAM_NONE };

/* An instance field; its name is its label's and the config's. */
enum fam_field {
	FAM_F_PORT, FAM_F_PRIO, FAM_F_HOST, FAM_F_FUNCTION, FAM_F_LINK,
	FAM_F_TCLASS, FAM_F_BIN,
	FAM_NR_FIELDS
};

#define FAM_MAX_FIELDS	2	/* of one group */

struct fam_kind {
	uint32_t kind;			/* data ID bits 63:32 */
	const char *event;		/* the kernel catalog's events/ name */
	enum fam_group group;
	enum fam_class class;
	enum fam_unit unit;
	const char *help;
};

/* fam_at - the Ith kind of the table, NULL past its end. */
const struct fam_kind *fam_at(size_t i);

/* fam_by_event - the kind whose event is NAME, NULL if none. */
const struct fam_kind *fam_by_event(const char *name);

/* fam_by_id - the kind of data ID ID, NULL if none. */
const struct fam_kind *fam_by_id(uint64_t id);

/* fam_fields - the fields of GROUP, in label order: their number. */
unsigned int fam_fields(enum fam_group group, const enum fam_field **fields);

/* fam_field_name - "port", "prio", "host", "function", "link", ... */
const char *fam_field_name(enum fam_field f);

/* fam_field_by_name - the field NAME, or -1. */
int fam_field_by_name(const char *name);

/* fam_field_max - the largest value the data ID holds for field F. */
uint32_t fam_field_max(enum fam_field f);

/*
 * fam_data_id - the data ID of kind K with VALUES, one per field of its
 * group in fam_fields() order (YY and ZZ of a link are 0).
 */
uint64_t fam_data_id(const struct fam_kind *k, const uint32_t *values);

/* fam_instance - the field values of ID (of kind K) into VALUES. */
void fam_instance(const struct fam_kind *k, uint64_t id, uint32_t *values);

/*
 * fam_base_name - the family name of K's values: "mlx5_diag_" and its
 * event, _ns made _seconds (mlx5_diag_port_rx_bytes,
 * mlx5_diag_pcie_read_stall_ordering_seconds).
 */
void fam_base_name(const struct fam_kind *k, char *buf, size_t len);

/* fam_unit_name - the family's unit: "bytes", "seconds" or "". */
const char *fam_unit_name(const struct fam_kind *k);

#endif /* MLX5_DIAG_FAMILIES_H */
