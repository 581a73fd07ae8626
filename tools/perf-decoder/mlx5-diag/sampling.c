// SPDX-License-Identifier: GPL-2.0
/*
 * Live sampling sessions (sampling.h): the event group opened and mapped
 * as `mlx5-diag record` opens it, the AUX area fed to the decode pipeline
 * and its user's sink.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>
#include <linux/perf_event.h>

#include "perf_ring.h"
#include "perf_sys.h"
#include "sampling.h"

static int open_group(struct sampling *s, const struct sampling_spec *sp,
		      char *err, size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;

	for (i = 0; i < sp->nr; i++) {
		struct perf_event_attr a = {
			.type = (uint32_t)sp->type, .size = sizeof(a),
			.config = sp->ids[i], .disabled = 1,
			.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
		};
		int fd, e;

		if (!i) {
			a.sample_period = sp->period_ns;
			a.config1 = sp->config1;
			a.aux_watermark = (uint32_t)(SAMPLING_AUX_PAGES * (size_t)page / 4);
		}
		fd = perf_open_on_cpu(&a, sp->cpu, i ? s->fds[0] : -1);
		if (fd < 0) {
			e = errno;
			snprintf(err, errlen, "%s %s%s(0x%016" PRIx64 "): %s",
				 i ? "member" : "leader",
				 sp->events ? sp->events[i] : "",
				 sp->events ? " " : "", sp->ids[i], strerror(e));
			return -e;
		}
		s->fds[s->nr_fds++] = fd;
	}
	return 0;
}

static int map_areas(struct sampling *s, char *err, size_t errlen)
{
	int e = perf_ring_map(&s->ring, s->fds[0], PERF_RING_DATA_PAGES);

	if (e) {
		snprintf(err, errlen, "mapping the data ring: %s", strerror(-e));
		return e;
	}
	e = perf_ring_map_aux(&s->ring, s->fds[0], SAMPLING_AUX_PAGES);
	if (e)
		snprintf(err, errlen, "mapping an AUX area of %d pages: %s",
			 SAMPLING_AUX_PAGES, strerror(-e));
	return e;
}

int sampling_open(struct sampling *s, const struct sampling_spec *sp, char *err,
		  size_t errlen)
{
	struct sink_stream si = { .desc = s->desc, .pmu = sp->pmu_name,
				  .cpu = (unsigned int)sp->cpu };
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->desc, sizeof(s->desc), "AUX stream of %s", sp->pmu_name);
	s->fds = calloc(sp->nr ? sp->nr : 1, sizeof(*s->fds));
	s->p.path = sp->pmu_name;
	s->p.quiet = 1;
	s->p.metrics = sp->metrics;
	if (!s->fds || pipeline_init(&s->p, sp->sink, sp->priv, NULL)) {
		free(s->fds);
		s->fds = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = open_group(s, sp, err, errlen);
	if (!ret)
		ret = map_areas(s, err, errlen);
	if (!ret && ioctl(s->fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
		ret = -errno;
		snprintf(err, errlen, "enabling the session: %s", strerror(errno));
	}
	if (ret) {
		sampling_close(s);
		return ret;
	}
	pipeline_stream_begin(&s->p, &si, 0);
	return 0;
}

int sampling_fd(const struct sampling *s)
{
	return s->nr_fds ? s->fds[0] : -1;
}

/* The AUX area's new bytes, fed to the pipeline in order. */
static int drain_aux(struct sampling *s)
{
	const void *bufs[2];
	size_t lens[2];
	unsigned int i, n = perf_ring_aux_new(&s->ring, bufs, lens);
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = pipeline_feed(&s->p, bufs[i], lens[i]);
	perf_ring_aux_release(&s->ring);
	return ret;
}

int sampling_drain(struct sampling *s, const char **reason, char *why,
		   size_t whylen)
{
	uint64_t off = 0;
	const char *msg;

	perf_ring_read_data(&s->ring, &s->seen);
	if (!s->stream_bad && drain_aux(s)) {
		s->stream_bad = 1;
		msg = mlx5diag_error_message(&s->p.dec, &off);
		snprintf(why, whylen, "%s byte %" PRIu64 ": %s", s->desc, off,
			 msg ? msg : "out of memory");
	}
	if (s->stream_bad) {
		*reason = "stream_error";
		return -1;
	}
	switch (s->p.end_reason) {
	case MLX5_DIAG_END_REMOVED:
		*reason = "removed";
		snprintf(why, whylen, "the session ended: the device was removed");
		return -1;
	case MLX5_DIAG_END_TAKEN:
		*reason = "engine_taken";
		snprintf(why, whylen, "the session ended: another agent took the engine");
		return -1;
	case MLX5_DIAG_END_STALLED:
		*reason = "stalled";
		snprintf(why, whylen, "the session ended: the firmware never let the "
			 "drain catch up");
		return -1;
	}
	if (s->seen.truncated) {
		*reason = "aux_full";
		snprintf(why, whylen, "the AUX area filled and perf stopped the session");
		return -1;
	}
	return 0;
}

void sampling_close(struct sampling *s)
{
	if (s->nr_fds)
		ioctl(s->fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	perf_ring_unmap(&s->ring);
	while (s->nr_fds)
		close(s->fds[--s->nr_fds]);
	free(s->fds);
	s->fds = NULL;
	if (s->p.run.cols)
		pipeline_exit(&s->p);
}
