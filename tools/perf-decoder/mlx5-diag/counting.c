// SPDX-License-Identifier: GPL-2.0
/* The exporter's counting events, opened and read with libperf (counting.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "counting.h"

int counting_open(struct counting *c, int type, int cpu,
		  const struct xcfg_selection *sel, char *err, size_t errlen)
{
	char cpu_list[16];
	unsigned int i;
	int ret;

	memset(c, 0, sizeof(*c));
	snprintf(cpu_list, sizeof(cpu_list), "%d", cpu);
	c->cpus = perf_cpu_map__new(cpu_list);
	c->threads = perf_thread_map__new_dummy();
	c->evsels = calloc(sel->nr ? sel->nr : 1, sizeof(*c->evsels));
	if (!c->cpus || !c->threads || !c->evsels) {
		snprintf(err, errlen, "out of memory");
		counting_close(c);
		return -ENOMEM;
	}
	for (i = 0; i < sel->nr; i++) {
		/* CPU-wide on the PMU's CPU, counting from the open on */
		struct perf_event_attr attr = {
			.type = (uint32_t)type, .size = sizeof(attr),
			.config = sel->ids[i],
		};

		c->evsels[i] = perf_evsel__new(&attr);
		if (!c->evsels[i]) {
			snprintf(err, errlen, "out of memory");
			counting_close(c);
			return -ENOMEM;
		}
		c->nr = i + 1;
		ret = perf_evsel__open(c->evsels[i], c->cpus, c->threads);
		if (ret) {
			snprintf(err, errlen, "%s (0x%016" PRIx64 "): %s",
				 sel->kinds[i]->event, sel->ids[i], strerror(-ret));
			counting_close(c);
			return ret;
		}
	}
	return 0;
}

int counting_read(struct counting *c, uint64_t *counts)
{
	struct perf_counts_values v;
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr; i++) {
		ret = perf_evsel__read(c->evsels[i], 0, 0, &v);
		if (ret)
			return ret;
		counts[i] = v.val;
	}
	return 0;
}

void counting_close(struct counting *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		perf_evsel__close(c->evsels[i]);
		perf_evsel__delete(c->evsels[i]);
	}
	free(c->evsels);
	perf_thread_map__put(c->threads);
	perf_cpu_map__put(c->cpus);
	memset(c, 0, sizeof(*c));
}
