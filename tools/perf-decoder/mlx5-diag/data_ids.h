/* SPDX-License-Identifier: GPL-2.0 */
/* Data-ID names: DOCA's data kinds' default names and units, -di JSON file. */
#ifndef MLX5_DIAG_DATA_IDS_H
#define MLX5_DIAG_DATA_IDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "data_kinds.h"

/* The kind of a data ID (bits 63:32). */
#define DATA_ID_KIND(id)	((uint32_t)((id) >> 32))

/* Names for data IDs, as DOCA's -di JSON file gives them. */
struct data_id_name {
	uint64_t data_id;
	char *name;
};

struct data_id_names {
	struct data_id_name *entries;
	size_t nr;
};

/*
 * data_id_default_name - the name of a data ID with no -di name:
 * "<instance>_<kind>", the way DOCA's sample names its defaults
 * (port_0_rx_bytes, global_icmc_hit); unknown kinds: the id in hex.
 */
void data_id_default_name(uint64_t id, char *buf, size_t len);

/* data_id_unit - the unit of a data ID's values (of its kind). */
enum data_kind_unit data_id_unit(uint64_t id);

/*
 * data_id_instance_name - the instance part of that name (port_0,
 * port_0_prio_3, pcie_000001, global). Returns 0, or -1 for a kind not in
 * DOCA's table.
 */
int data_id_instance_name(uint64_t id, char *buf, size_t len);

/*
 * data_id_names_load - read a DOCA telemetry_diag data-ID file with json-c:
 *   { "data-ids": [ { "name": "port_0_rx_bytes", "data_id": "0x1020..." }, ... ] }
 * Returns 0, or -1 with a message in ERR (ERRLEN bytes) naming the file
 * and where: "byte N" of malformed JSON, "data-ids[I]" of a bad entry.
 */
int data_id_names_load(struct data_id_names *names, const char *path,
		       char *err, size_t errlen);
void data_id_names_free(struct data_id_names *names);

/*
 * data_id_names_argv - ARGV (ARGC) with DOCA's -di, a two-letter flag, as
 * --data-ids for getopt_long: a new array, NULL-terminated, of ARGV's
 * strings (free() the array only), or NULL when out of memory.
 */
char **data_id_names_argv(int argc, char **argv);

/*
 * data_id_names_write_example - write DOCA's example data-ID file (its
 * default data IDs, in json-c's pretty layout) to OUT. Returns 0 or -1
 * (errno set).
 */
int data_id_names_write_example(FILE *out);

#endif /* MLX5_DIAG_DATA_IDS_H */
