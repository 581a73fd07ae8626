/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mlx5-diag decode --timeline`: lines of every source (the mlx5 items
 * sink_timeline.c writes, tracepoint events, lost-event notes) gathered with
 * their perf time, then written sorted by time; and the sched_switch
 * samples as fields, for sink_perfetto.c and plot_sched.c. Tracepoint
 * samples are perf records (PERF_RECORD_SAMPLE with RAW data) formatted with
 * libtraceevent as `perf script --ns` prints them: comm, tid, [cpu],
 * time, event name, fields. Task names come from PERF_RECORD_COMM, _FORK
 * and _EXIT records, as of each sample's time, as perf keeps its threads.
 *
 * Everything is held in memory until tl_write(): the formatted lines of
 * the mlx5 streams and the raw tracepoint samples.
 */
#ifndef MLX5_DIAG_TIMELINE_H
#define MLX5_DIAG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tl;

struct tl *tl_new(void);
void tl_free(struct tl *tl);

/* The size of `long` where the events were recorded (default 8). */
void tl_set_long_size(struct tl *tl, int long_size);

/*
 * A tracepoint: NAME "sys:name", its perf config (the tracefs id) and
 * format text. 0, or -1 with ERR.
 */
int tl_tracepoint(struct tl *tl, uint64_t config, const char *name,
		  const char *format, size_t len, char *err, size_t errlen);

/*
 * An event (its sample id ID) and its attribute: type and config (a
 * tracepoint when type is 2), sample_type, read_format, sample_id_all.
 */
int tl_event(struct tl *tl, uint64_t id, uint32_t type, uint64_t config,
	     uint64_t sample_type, uint64_t read_format, int sample_id_all);

/*
 * One perf record of SIZE bytes (header included): SAMPLE of a
 * tracepoint, COMM, FORK, EXIT, LOST and LOST_SAMPLES are taken; others
 * are ignored. 0, or -1 with ERR (a malformed record).
 */
int tl_perf_record(struct tl *tl, const unsigned char *rec, size_t size,
		   char *err, size_t errlen);

/*
 * perf's tracing data (HEADER_TRACING_DATA): the event formats it holds
 * become tracepoints. 0, or -1 with ERR.
 */
int tl_tracing_data(struct tl *tl, const unsigned char *buf, size_t len,
		    char *err, size_t errlen);

/* The stream the caller writes lines to; tl_line() takes each. */
FILE *tl_text(struct tl *tl);
/* The offset in tl_text() where the next line starts. */
long tl_mark(struct tl *tl);
/*
 * The text from MARK to the end of tl_text() is one entry at perf time
 * TIME. Returns its index, or -1 (out of memory).
 */
long tl_line(struct tl *tl, long mark, uint64_t time);

/* Tracepoint samples and lost events counted so far. */
uint64_t tl_tracepoint_samples(const struct tl *tl);
uint64_t tl_lost_events(const struct tl *tl);

/* A sched:sched_switch sample, its fields as the tracepoint records them. */
struct tl_switch {
	uint64_t time;
	uint32_t cpu;
	int32_t tid;			/* of the sample: the task switched out */
	char prev_comm[17], next_comm[17];	/* NUL-terminated */
	int32_t prev_pid, prev_prio, next_pid, next_prio;
	int64_t prev_state;		/* the kernel's TASK_REPORT bits */
	uint64_t order;			/* of the records read */
};

/*
 * The sched:sched_switch samples taken so far, sorted by CPU, then time,
 * then the order they came in: *OUT (free() it), *N of them (none: NULL,
 * 0). 0, or -1 with ERR: a sample whose raw data does not fit its format,
 * a format without a field of sched_switch's, or out of memory.
 */
int tl_sched_switches(struct tl *tl, struct tl_switch **out, size_t *n,
		      char *err, size_t errlen);

/*
 * Format the tracepoint samples, sort every entry by time (entries of
 * equal time in the order they were added) and write them to OUT.
 * 0, or -1 with ERR.
 */
int tl_write(struct tl *tl, FILE *out, char *err, size_t errlen);

#endif /* MLX5_DIAG_TIMELINE_H */
