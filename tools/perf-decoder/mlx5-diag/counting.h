/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's counting mode: one perf counting event per data ID on a
 * mlx5_diag PMU, through libperf; a read returns the driver's running
 * count (its poller's cache), no firmware command.
 */
#ifndef MLX5_DIAG_COUNTING_H
#define MLX5_DIAG_COUNTING_H

#include <stddef.h>
#include <stdint.h>

#include "exporter_config.h"

struct perf_cpu_map;
struct perf_thread_map;
struct perf_evsel;

struct counting {
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct perf_evsel **evsels;	/* one per selected ID */
	unsigned int nr;
};

/*
 * counting_open - count every ID of SEL on the PMU of perf type TYPE, on
 * CPU. Returns 0, or a negative errno (the first refusal, or -ENOMEM) with
 * the ID refused and why in ERR; nothing stays open then.
 */
int counting_open(struct counting *c, int type, int cpu,
		  const struct xcfg_selection *sel, char *err, size_t errlen);

/* counting_read - each ID's count into COUNTS: 0, or a negative errno. */
int counting_read(struct counting *c, uint64_t *counts);

void counting_close(struct counting *c);

#endif /* MLX5_DIAG_COUNTING_H */
