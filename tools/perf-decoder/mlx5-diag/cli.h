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

#include "data_ids.h"

/* ---- decode (decode.c, the pipeline of pipeline.h) ---- */

/* Exit statuses of `mlx5-diag decode` and of mlx5diag_write_csv(). */
enum decode_exit {
	DECODE_EXIT_OK		= 0,
	DECODE_EXIT_USAGE	= 2,	/* bad flags or arguments */
	DECODE_EXIT_NAMES	= 3,	/* the -di file is unreadable or malformed */
	DECODE_EXIT_FILE	= 4,	/* the recording is unreadable or not one */
	DECODE_EXIT_STREAM	= 5,	/* its AUX stream is malformed */
	DECODE_EXIT_OUTPUT	= 6,	/* the output could not be written */
};

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
