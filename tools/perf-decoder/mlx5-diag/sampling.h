/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live sampling session on one mlx5_diag PMU (an event group,
 * tools/perf-decoder/CONTRACT.md), its AUX stream drained into the decode
 * pipeline and the sink its user chose: the exporter's fold (fold.h),
 * doctor's checks (doctor.h).
 */
#ifndef MLX5_DIAG_SAMPLING_H
#define MLX5_DIAG_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "perf_ring.h"
#include "pipeline.h"

#define SAMPLING_AUX_PAGES	256

struct sampling {
	int *fds;			/* leader first */
	unsigned int nr_fds;
	struct perf_ring ring;		/* the leader's */
	struct perf_ring_seen seen;	/* its data ring's records */
	struct pipeline p;
	char desc[96];
	int stream_bad;			/* the decoder refused the stream */
};

/* What to open, and where its samples go. */
struct sampling_spec {
	const char *pmu_name;		/* mlx5_diag_<n> */
	int type, cpu;			/* its perf type; the CPU of its cpumask */
	uint64_t period_ns;
	uint64_t config1;		/* the leader's: mode, sync, clear,
					 * format, timestamp source, force */
	const uint64_t *ids;		/* the data IDs, leader first */
	const char *const *events;	/* their event names, in messages;
					 * NULL: none */
	unsigned int nr;
	const struct sink_ops *sink;	/* the pipeline's sink */
	void *priv;			/* its sink->priv */
	int metrics;			/* the rows carry metrics.def's metrics */
};

/*
 * sampling_open - the session SP describes, CPU-wide on SP->cpu, enabled,
 * its AUX stream decoded for SP->sink. Returns 0, or a
 * negative errno with what failed in ERR; nothing stays open then.
 */
int sampling_open(struct sampling *s, const struct sampling_spec *sp, char *err,
		  size_t errlen);

/* sampling_fd - the leader's fd, readable when the AUX area has data. */
int sampling_fd(const struct sampling *s);

/*
 * sampling_drain - fold what the AUX area holds. Returns 0, or -1 when
 * the session is over (the AUX area filled, the device was removed or
 * taken, the drain stalled, the stream is malformed), with why in WHY
 * and a reason label in *REASON.
 */
int sampling_drain(struct sampling *s, const char **reason, char *why,
		   size_t whylen);

void sampling_close(struct sampling *s);

#endif /* MLX5_DIAG_SAMPLING_H */
