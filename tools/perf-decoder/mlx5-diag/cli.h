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
#include "errors.h"

/*
 * decode_doca_csv - decode the recording at RECORDING_PATH into OUT as
 * DOCA's telemetry_diag sample writes its CSV, columns named by NAMES (may
 * be NULL: then by the data ID's own name or its hex value). Errors go to
 * stderr. Returns an enum err_exit status.
 */
int decode_doca_csv(FILE *out, const char *recording_path,
		    const struct data_id_names *names);

int cmd_decode(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_doca(int argc, char **argv);
int cmd_exporter(int argc, char **argv);
int cmd_doctor(int argc, char **argv);

#endif /* MLX5_DIAG_CLI_H */
