// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU lanes of `mlx5-diag plot` (plot.h): the recording's
 * sched_switch events made into what ran on each CPU, reduced to the
 * plot's columns: busy time and the task that ran longest at a stretch.
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "timeline.h"

_Static_assert(sizeof(((struct plot_task *)0)->comm) ==
	       sizeof(((struct tl_switch *)0)->next_comm),
	       "a task's name is copied whole from its switch");

/* The task a switch names: (next_pid, next_comm). */
static int by_task(const void *a, const void *b)
{
	const struct tl_switch *x = *(const struct tl_switch *const *)a;
	const struct tl_switch *y = *(const struct tl_switch *const *)b;

	if (x->next_pid != y->next_pid)
		return x->next_pid < y->next_pid ? -1 : 1;
	return strcmp(x->next_comm, y->next_comm);
}

/* The tasks: one per (pid, name), numbered into sw_task. */
static int number_tasks(struct plot_sched *s)
{
	const struct tl_switch **by = malloc(s->nr_sw * sizeof(*by));
	size_t i, n = 0;

	s->sw_task = malloc(s->nr_sw * sizeof(*s->sw_task));
	if (!by || !s->sw_task) {
		free(by);
		return -1;
	}
	for (i = 0; i < s->nr_sw; i++)
		by[i] = &s->sw[i];
	qsort(by, s->nr_sw, sizeof(*by), by_task);
	for (i = 0; i < s->nr_sw; i++)
		n += !i || by_task(&by[i - 1], &by[i]);
	s->tasks = calloc(n, sizeof(*s->tasks));
	if (!s->tasks) {
		free(by);
		return -1;
	}
	for (i = 0; i < s->nr_sw; i++) {
		if (!i || by_task(&by[i - 1], &by[i])) {
			struct plot_task *t = &s->tasks[s->nr_tasks++];

			t->pid = by[i]->next_pid;
			memcpy(t->comm, by[i]->next_comm, sizeof(t->comm));
		}
		s->sw_task[by[i] - s->sw] = (uint32_t)s->nr_tasks - 1;
	}
	free(by);
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

int plot_sched_reduce(struct plot_sched *s, struct tl_switch *sw, size_t n,
		      const struct plot_reduce *r)
{
	size_t i, nr_cpus;
	uint64_t end, unused;
	unsigned int l;

	s->sw = sw;
	s->nr_sw = n;
	s->columns = plot_reduce_columns(r);
	if (!s->nr_sw || !s->columns)
		return 0;
	if (number_tasks(s))
		return -1;
	for (i = 0, nr_cpus = 0; i < s->nr_sw; i++)
		nr_cpus += !i || s->sw[i - 1].cpu != s->sw[i].cpu;
	s->cpus = calloc(nr_cpus, sizeof(*s->cpus));
	s->cells = calloc(nr_cpus * s->columns, sizeof(*s->cells));
	if (!s->cpus || !s->cells)
		return -1;
	plot_reduce_time(r, s->columns - 1, &unused, &end);
	for (i = 0, l = 0; i < s->nr_sw; i++) {
		const struct tl_switch *w = &s->sw[i];
		int last = i + 1 == s->nr_sw || s->sw[i + 1].cpu != w->cpu;

		if (i && s->sw[i - 1].cpu != w->cpu)
			l++;
		s->cpus[l] = w->cpu;
		if (w->next_pid)
			add_run(s, r, l, s->sw_task[i], w->time,
				last ? end : s->sw[i + 1].time);
	}
	s->nr_cpus = (unsigned int)nr_cpus;
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
	free(s->sw_task);
	free(s->tasks);
	free(s->cpus);
	free(s->cells);
	memset(s, 0, sizeof(*s));
}
