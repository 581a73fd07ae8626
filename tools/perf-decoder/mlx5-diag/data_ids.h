/* SPDX-License-Identifier: GPL-2.0 */
/* Data-ID names: DOCA's data kinds, default names and -di JSON file. */
#ifndef MLX5_DIAG_DATA_IDS_H
#define MLX5_DIAG_DATA_IDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The kind of a data ID (bits 63:32), and the kinds the metrics use. */
#define DATA_ID_KIND(id)	((uint32_t)((id) >> 32))
#define KIND_PORT_RX_BYTES	0x10200001u
#define KIND_PRIO_RX_BYTES	0x10200002u
#define KIND_PORT_TX_BYTES	0x11400001u
#define KIND_PRIO_TX_BYTES	0x11400002u
#define KIND_PCIE_READ_LAT_SUM	0x1160000bu
#define KIND_PCIE_READ_PACKETS	0x1160000cu
#define KIND_ICMC_REQUEST	0x11800001u
#define KIND_ICMC_HIT		0x11800002u
#define KIND_ICMC_MISS		0x11800003u

/* Names for data IDs, as DOCA's -di JSON file gives them. */
struct decode_name {
	uint64_t data_id;
	char *name;
};

struct decode_names {
	struct decode_name *entries;
	size_t nr;
};

/*
 * data_id_default_name - the name of a data ID with no -di name:
 * "<instance>_<kind>", the way DOCA's sample names its defaults
 * (port_0_rx_bytes, global_icmc_hit); unknown kinds: the id in hex.
 */
void data_id_default_name(uint64_t id, char *buf, size_t len);

/*
 * data_id_unit - what a data ID of DOCA's table counts: "bytes" or "ns"
 * (its kind's name ends so, as the driver's catalog has it), NULL for
 * events and for kinds not in the table.
 */
const char *data_id_unit(uint64_t id);

/*
 * decode_names_load - read a DOCA telemetry_diag data-ID file with json-c:
 *   { "data-ids": [ { "name": "port_0_rx_bytes", "data_id": "0x1020..." }, ... ] }
 * Returns 0, or -1 with a message in ERR (ERRLEN bytes) naming the file
 * and where: "byte N" of malformed JSON, "data-ids[I]" of a bad entry.
 */
int decode_names_load(struct decode_names *names, const char *path,
		      char *err, size_t errlen);
void decode_names_free(struct decode_names *names);

/*
 * decode_names_write_example - write DOCA's example data-ID file (its
 * default data IDs, in json-c's pretty layout) to OUT. Returns 0 or -1
 * (errno set).
 */
int decode_names_write_example(FILE *out);

#endif /* MLX5_DIAG_DATA_IDS_H */
