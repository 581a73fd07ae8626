/* SPDX-License-Identifier: GPL-2.0 */
/* mlx5-diag doca: the DOCA telemetry_diag sample's flags. */
#ifndef MLX5_DIAG_DOCA_H
#define MLX5_DIAG_DOCA_H

#include <stddef.h>
#include <stdint.h>

struct doca_opts {
	int help, version;
	const char *pci;		/* -p */
	const char *data_ids;		/* -di, NULL: the sample's defaults */
	const char *output;		/* -o */
	uint32_t run_time_s;		/* -rt */
	uint64_t period_ns;		/* -sp */
	unsigned int log_num_samples;	/* -ns (no meaning here) */
	unsigned int samples_per_read;	/* -sr (no meaning here) */
	int mode;			/* -sm: 0 single, 1 repetitive */
	int format;			/* -of */
	int force;			/* -f */
	const char *example;		/* -e */
	uint64_t reconfig_ns;		/* -rs, 0: none */
	/* flags given that mean nothing here, to say so on stderr */
	int note_log, note_log_num, note_per_read;
};

void doca_defaults(struct doca_opts *d);
/* Parse the sample's flags (ARGV[0] is "doca"); ERR_EXIT_OK or ERR_EXIT_USAGE + ERR. */
int doca_parse(int argc, char **argv, struct doca_opts *d, char *err, size_t errlen);

#endif /* MLX5_DIAG_DOCA_H */
