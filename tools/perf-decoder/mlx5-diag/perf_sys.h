/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the CLI's perf sessions take from the system: perf_event_open(2) of
 * an event on one CPU.
 */
#ifndef MLX5_DIAG_PERF_SYS_H
#define MLX5_DIAG_PERF_SYS_H

struct perf_event_attr;

/*
 * perf_event_open(2) of ATTR on CPU for every task, in the group of the
 * leader GROUP (-1: a leader itself), close-on-exec. Returns the fd, or -1
 * with errno set.
 */
int perf_open_on_cpu(struct perf_event_attr *attr, int cpu, int group);

#endif
