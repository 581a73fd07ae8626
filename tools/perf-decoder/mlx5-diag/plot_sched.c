// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU lanes of `mlx5-diag plot` (plot.h): the recording's
 * sched_switch events made into what ran on each CPU, reduced to the
 * plot's columns: busy time and the task that ran longest at a stretch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

int plot_sched_add(struct plot_sched *s, uint64_t time, uint32_t cpu,
		   int32_t pid, const char *comm)
{
	struct plot_switch *w;

	if (s->nr_sw == s->cap_sw) {
		size_t cap = s->cap_sw ? 2 * s->cap_sw : 256;

		w = realloc(s->sw, cap * sizeof(*w));
		if (!w)
			return -1;
		s->sw = w;
		s->cap_sw = cap;
	}
	w = &s->sw[s->nr_sw++];
	memset(w, 0, sizeof(*w));
	w->time = time;
	w->cpu = cpu;
	w->pid = pid;
	snprintf(w->comm, sizeof(w->comm), "%s", comm);
	return 0;
}

static int by_task(const void *a, const void *b)
{
	const struct plot_switch *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static int by_cpu_time(const void *a, const void *b)
{
	const struct plot_switch *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return 0;
}

/* The tasks: one per (pid, name), numbered into each switch's task. */
static int number_tasks(struct plot_sched *s)
{
	size_t i, n = 0;

	qsort(s->sw, s->nr_sw, sizeof(*s->sw), by_task);
	for (i = 0; i < s->nr_sw; i++)
		n += !i || by_task(&s->sw[i - 1], &s->sw[i]);
	s->tasks = calloc(n ? n : 1, sizeof(*s->tasks));
	if (!s->tasks)
		return -1;
	for (i = 0; i < s->nr_sw; i++) {
		if (!i || by_task(&s->sw[i - 1], &s->sw[i])) {
			struct plot_task *t = &s->tasks[s->nr_tasks++];

			t->pid = s->sw[i].pid;
			memcpy(t->comm, s->sw[i].comm, sizeof(t->comm));
		}
		s->sw[i].task = (uint32_t)s->nr_tasks - 1;
	}
	return 0;
}

/* Task TASK (not idle) ran on lane L over [A, B): into R's columns. */
static void add_run(struct plot_sched *s, const struct plot_reduce *r,
		    unsigned int l, uint32_t task, uint64_t a, uint64_t b)
{
	uint64_t first, last, cs, ce;
	long c;

	plot_reduce_time(r, 0, &first, &ce);
	plot_reduce_time(r, s->columns - 1, &cs, &last);
	if (a < first)
		a = first;
	if (b > last)
		b = last;
	if (a >= b)
		return;
	for (c = plot_reduce_find(r, a); c >= 0 && (unsigned long)c < s->columns;
	     c++) {
		struct plot_cpu_cell *cell = &s->cells[(size_t)l * s->columns + c];
		uint64_t from, to;

		plot_reduce_time(r, (unsigned int)c, &cs, &ce);
		if (cs >= b)
			break;
		from = a > cs ? a : cs;
		to = b < ce ? b : ce;
		if (to <= from)
			continue;
		cell->busy += to - from;
		if (to - from > cell->stretch) {
			cell->stretch = to - from;
			cell->task = task + 1;
		}
	}
}

int plot_sched_reduce(struct plot_sched *s, const struct plot_reduce *r)
{
	size_t i, n;
	uint64_t end, unused;
	unsigned int l;

	s->columns = plot_reduce_columns(r);
	if (!s->nr_sw || !s->columns)
		return 0;
	if (number_tasks(s))
		return -1;
	qsort(s->sw, s->nr_sw, sizeof(*s->sw), by_cpu_time);
	for (i = 0, n = 0; i < s->nr_sw; i++)
		n += !i || s->sw[i - 1].cpu != s->sw[i].cpu;
	s->cpus = calloc(n, sizeof(*s->cpus));
	s->cells = calloc(n * s->columns, sizeof(*s->cells));
	if (!s->cpus || !s->cells)
		return -1;
	plot_reduce_time(r, s->columns - 1, &unused, &end);
	for (i = 0, l = 0; i < s->nr_sw; i++) {
		const struct plot_switch *w = &s->sw[i];
		int last = i + 1 == s->nr_sw || s->sw[i + 1].cpu != w->cpu;

		if (i && s->sw[i - 1].cpu != w->cpu)
			l++;
		s->cpus[l] = w->cpu;
		if (w->pid)
			add_run(s, r, l, w->task, w->time,
				last ? end : s->sw[i + 1].time);
	}
	s->nr_cpus = (unsigned int)n;
	return 0;
}

const struct plot_cpu_cell *plot_sched_cell(const struct plot_sched *s,
					    unsigned int i, unsigned int col)
{
	return &s->cells[(size_t)i * s->columns + col];
}

void plot_sched_free(struct plot_sched *s)
{
	free(s->sw);
	free(s->tasks);
	free(s->cpus);
	free(s->cells);
	memset(s, 0, sizeof(*s));
}
