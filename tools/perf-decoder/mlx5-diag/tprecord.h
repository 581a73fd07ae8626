/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mlx5-diag record --tracepoint SYS:NAME`: tracepoint events on every
 * online CPU, recorded in the session's file (Documentation/file-format.md,
 * "PERF chunks"): their PERF_RECORD_SAMPLE, _LOST, _COMM and _FORK
 * records, and in META their format text and the sample id of every
 * event.
 */
#ifndef MLX5_DIAG_TPRECORD_H
#define MLX5_DIAG_TPRECORD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "file.h"
#include "perf_ring.h"

/* Pages of each CPU's data ring (a power of 2). */
#define TP_DATA_PAGES	64
/* sample_type of the tracepoint events: IDENTIFIER | TID | TIME | CPU | RAW */
#define TP_SAMPLE_TYPE	0x10486ull

struct tp_event {
	char sys[64], name[64];
	uint64_t id;		/* events/SYS/NAME/id: attr.config */
	char *format;		/* events/SYS/NAME/format */
};

struct tp_ring {
	int cpu;
	struct perf_ring ring;	/* the CPU's first event's */
};

struct tp_session {
	struct tp_event *tps;
	int nr_tps;
	int *fds;		/* nr_cpus * nr_tps, CPU-major */
	uint64_t *ids;		/* the sample id of each fd */
	struct tp_ring *rings;
	int nr_cpus;
	struct perf_ring_seen seen;	/* counted while draining; broken: a
					 * ring held a record of a bad size */
};

/*
 * The tracefs events directory (MLX5_DIAG_TRACEFS, else
 * /sys/kernel/tracing/events, else /sys/kernel/debug/tracing/events).
 */
const char *tp_tracefs_events(void);

/* Read SPEC's ("sched:sched_switch") id and format. 0, or -1 with ERR. */
int tp_lookup(const char *spec, struct tp_event *tp, char *err, size_t errlen);
void tp_free(struct tp_event *tp);

/*
 * Open every tracepoint on every online CPU with CLOCKID, disabled; map
 * one data ring per CPU. 0, or -1 with a message on stderr (ERRNO_OUT:
 * the failing errno).
 */
int tp_open(struct tp_session *s, struct tp_event *tps, int nr,
	    clockid_t clockid, int *errno_out);
/* META lines: long_size, tracepoint, tracepoint_format, sample_id. */
int tp_meta(const struct tp_session *s, struct mdf_meta_buf *m);
/*
 * A PERF chunk of PERF_RECORD_COMM records (time 0) for the threads that
 * exist now, as perf synthesizes them. 0 or the writer's error.
 */
int tp_synth_comms(struct mdf_writer *w);
/* PERF_EVENT_IOC_ENABLE / _DISABLE on every event. */
void tp_enable(struct tp_session *s, int on);
/* Copy each ring's new records into PERF chunks. 0 or the writer's error. */
int tp_drain(struct tp_session *s, struct mdf_writer *w);
void tp_close(struct tp_session *s);

#endif /* MLX5_DIAG_TPRECORD_H */
