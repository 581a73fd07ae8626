// SPDX-License-Identifier: GPL-2.0
/*
 * What the CLI's perf sessions take from the system (perf_sys.h): the
 * perf_event_open(2) system call, which glibc does not wrap.
 */
#define _GNU_SOURCE
#include "perf_sys.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

int perf_open_on_cpu(struct perf_event_attr *attr, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, group,
			    PERF_FLAG_FD_CLOEXEC);
}
