// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag: record, decode and list mlx5_diag sampling sessions; export
 * the devices' values to Prometheus; check a device's firmware.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} cmds[] = {
	{ "list", cmd_list, "devices, capabilities and events" },
	{ "record", cmd_record, "record a sampling session into a file" },
	{ "decode", cmd_decode, "decode a recording" },
	{ "plot", cmd_plot, "draw a recording as PNG, SVG or PDF" },
	{ "doca", cmd_doca, "the DOCA telemetry_diag sample's flags and CSV" },
	{ "exporter", cmd_exporter, "serve the devices' values to Prometheus" },
	{ "doctor", cmd_doctor, "check what a device's firmware does" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mlx5-diag COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].what);
	fprintf(f, "\n'mlx5-diag COMMAND --help' describes each.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return ERR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return ERR_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	err_print(NULL, "unknown command '%s'", argv[1]);
	usage(stderr);
	return ERR_EXIT_USAGE;
}
