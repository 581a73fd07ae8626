// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the DOCA data-ID file reader (json-c): the input is
 * the file, read by data_id_names_load() as `mlx5-diag decode -di` and
 * `mlx5-diag doca -di` read it, from seeds that `gen_corpus --data-ids`
 * writes. A refusal must name the file and say why; names it accepts name
 * the columns of a recording of this target's (the data IDs of those
 * seeds), decoded with --metrics through every sink (sink_check.h), which
 * must all succeed. Any other result, crash, sanitizer report or leak is a
 * finding.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>

#include "cli.h"
#include "sink_check.h"
#include "stream_writer.h"

/*
 * gen_corpus.c's data-ID seeds name these; their metrics: two bandwidths,
 * the ICMC hit rate and ICMC accesses per second
 */
static const uint64_t ids[] = {
	0x1020000100000001ull, 0x1140000100000001ull,
	0x1180000100000000ull, 0x1180000200000000ull,
};

/* The recording, made once: a run of 3 samples, a loss, a period change. */
static const char *recording(void)
{
	static char path[64];
	struct stream_session sess = {
		.run = 0, .out_format = MLX5_DIAG_FORMAT_1,
		.ts_source = MLX5_DIAG_TS_RTC, .num_ids = 4, .ids = ids,
		.period_ns = 100000, .identifier = "0000:08:00.0",
	};
	struct stream_samples smp = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 4, .ids = ids, .first_seq = 0, .nr = 3,
		.t0 = 4999999000ull, .t_step = 100000, .entry_step = 5,
		.value_base = 1000,
	};
	struct stream s;

	if (path[0])
		return path;
	stream_init(&s);
	stream_session(&s, &sess);
	stream_time(&s, MLX5_DIAG_TS_RTC, 4999998000ull, 1000000, 10);
	stream_samples(&s, &smp);
	stream_lost(&s, 3, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	stream_period(&s, MLX5_DIAG_TS_RTC, 5, 5000500000ull, 100000, 200000, 15);
	smp.first_seq = 5;
	smp.t0 = 5000500000ull;
	stream_samples(&s, &smp);
	stream_end(&s, 8, MLX5_DIAG_END_STOPPED);
	recording_memfd(s.buf, s.len, 0, path);
	stream_free(&s);
	return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct data_id_names names = { (void *)1, 1 };	/* the reader resets it */
	char path[64], err[512];
	size_t i;
	int fd;

	fd = memfd_create("data-ids.json", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err[0] = '\0';
	if (data_id_names_load(&names, path, err, sizeof(err))) {
		/* "PATH: why", entries freed */
		if (strncmp(err, path, strlen(path)) || strncmp(err + strlen(path), ": ", 2) ||
		    !err[strlen(path) + 2] || names.nr || names.entries)
			abort();
	} else {
		if (!names.nr || !names.entries)
			abort();
		for (i = 0; i < names.nr; i++)
			if (!names.entries[i].name)
				abort();
		if (sink_check_all(recording(), &names, 1) != ERR_EXIT_OK)
			abort();
	}
	data_id_names_free(&names);
	close(fd);
	return 0;
}
