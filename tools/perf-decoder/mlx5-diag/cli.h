/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mlx5-diag subcommands and the helpers they share. Each subcommand is
 * int cmd_NAME(int argc, char **argv), argv[0] being the subcommand's name,
 * and returns the process exit status.
 */
#ifndef MLX5_DIAG_CLI_H
#define MLX5_DIAG_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- decode (decode.c) ---- */

/* Exit statuses of `mlx5-diag decode` and of mlx5diag_write_csv(). */
enum decode_exit {
	DECODE_EXIT_OK		= 0,
	DECODE_EXIT_USAGE	= 2,	/* bad flags or arguments */
	DECODE_EXIT_NAMES	= 3,	/* the -di file is unreadable or malformed */
	DECODE_EXIT_FILE	= 4,	/* the recording is unreadable or not one */
	DECODE_EXIT_STREAM	= 5,	/* its AUX stream is malformed */
	DECODE_EXIT_OUTPUT	= 6,	/* the output could not be written */
};

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
 * decode_names_load - read a DOCA telemetry_diag data-ID file:
 *   { "data-ids": [ { "name": "port_0_rx_bytes", "data_id": "0x1020..." }, ... ] }
 * Returns 0, or -1 with a message in ERR (ERRLEN bytes).
 */
int decode_names_load(struct decode_names *names, const char *path,
		      char *err, size_t errlen);
void decode_names_free(struct decode_names *names);

/*
 * decode_names_write_example - write DOCA's example data-ID file (its
 * default data IDs) to OUT. Returns 0 or -1 (errno set).
 */
int decode_names_write_example(FILE *out);

/*
 * mlx5diag_write_csv - decode the recording at RECORDING_PATH into OUT as
 * DOCA's telemetry_diag sample writes its CSV, columns named by NAMES (may
 * be NULL: then by the data ID's own name or its hex value). Errors go to
 * stderr. Returns an enum decode_exit status.
 */
int mlx5diag_write_csv(FILE *out, const char *recording_path,
		       const struct decode_names *names);

int cmd_decode(int argc, char **argv);

#endif /* MLX5_DIAG_CLI_H */
