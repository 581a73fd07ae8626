// SPDX-License-Identifier: GPL-2.0
/* Tracepoint events recorded with a session (tprecord.h). */
#define _GNU_SOURCE
#include "tprecord.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perf/cpumap.h>

#include "errors.h"
#include "perf_sys.h"

#define FORMAT_MAX	(64u << 10)

const char *tp_tracefs_events(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	const char *e = getenv("MLX5_DIAG_TRACEFS");
	struct stat st;

	if (e && *e)
		return e;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!stat(dirs[i], &st) && S_ISDIR(st.st_mode))
			return dirs[i];
	return dirs[0];
}

static int name_ok(const char *s, size_t n)
{
	if (!n || n >= 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return 0;
	return 1;
}

/* The whole of a small file, NUL-terminated. NULL and errno on failure. */
static char *read_text(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		errno = ferror(f) ? errno : EFBIG;
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int tp_lookup(const char *spec, struct tp_event *tp, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':'), *dir = tp_tracefs_events();
	char path[4096], *text, *end;
	unsigned long long id;
	size_t len;

	memset(tp, 0, sizeof(*tp));
	if (!colon || !name_ok(spec, (size_t)(colon - spec)) ||
	    !name_ok(colon + 1, strlen(colon + 1))) {
		snprintf(err, errlen, "bad tracepoint '%s': SYSTEM:NAME, as "
			 "sched:sched_switch", spec);
		return -1;
	}
	memcpy(tp->sys, spec, (size_t)(colon - spec));
	strcpy(tp->name, colon + 1);
	snprintf(path, sizeof(path), "%s/%s/%s/id", dir, tp->sys, tp->name);
	text = read_text(path, 64, NULL);
	if (!text) {
		snprintf(err, errlen, "no tracepoint %s: %s: %s%s", spec, path,
			 strerror(errno), errno == ENOENT ?
			 " (is tracefs mounted, at /sys/kernel/tracing or "
			 "/sys/kernel/debug/tracing?)" : "");
		return -1;
	}
	errno = 0;
	id = strtoull(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n')) {
		snprintf(err, errlen, "%s: not a tracepoint id: '%.20s'", path, text);
		free(text);
		return -1;
	}
	free(text);
	tp->id = id;
	snprintf(path, sizeof(path), "%s/%s/%s/format", dir, tp->sys, tp->name);
	tp->format = read_text(path, FORMAT_MAX, &len);
	if (!tp->format) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (memchr(tp->format, '\0', len)) {
		snprintf(err, errlen, "%s: has a NUL byte", path);
		tp_free(tp);
		return -1;
	}
	return 0;
}

void tp_free(struct tp_event *tp)
{
	free(tp->format);
	tp->format = NULL;
}

int tp_open(struct tp_session *s, struct tp_event *tps, int nr,
	    clockid_t clockid, int *errno_out)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_cpu_map *map = perf_cpu_map__new_online_cpus();
	int c, j, e;

	memset(s, 0, sizeof(*s));
	*errno_out = 0;
	s->tps = tps;
	s->nr_tps = nr;
	if (!map || perf_cpu_map__nr(map) <= 0) {
		err_print(NULL, "cannot read the online CPUs");
		perf_cpu_map__put(map);
		return -1;
	}
	s->nr_cpus = perf_cpu_map__nr(map);
	s->fds = malloc(sizeof(*s->fds) * (size_t)(s->nr_cpus * nr));
	s->ids = calloc((size_t)(s->nr_cpus * nr), sizeof(*s->ids));
	s->rings = calloc((size_t)s->nr_cpus, sizeof(*s->rings));
	for (c = 0; s->fds && c < s->nr_cpus * nr; c++)
		s->fds[c] = -1;
	if (!s->fds || !s->ids || !s->rings) {
		err_print(NULL, "out of memory");
		perf_cpu_map__put(map);
		return -1;
	}
	for (c = 0; c < s->nr_cpus; c++) {
		int cpu = perf_cpu_map__cpu(map, c).cpu;

		s->rings[c].cpu = cpu;
		for (j = 0; j < nr; j++) {
			struct perf_event_attr a;
			int fd, *slot = &s->fds[c * nr + j];

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = PERF_TYPE_TRACEPOINT;
			a.config = tps[j].id;
			a.sample_period = 1;
			a.sample_type = TP_SAMPLE_TYPE;
			a.disabled = 1;
			a.sample_id_all = 1;
			a.use_clockid = 1;
			a.clockid = clockid;
			a.watermark = 1;
			a.wakeup_watermark = (uint32_t)(TP_DATA_PAGES * (size_t)page / 4);
			/* the first event of a CPU tracks its tasks' names */
			a.comm = a.comm_exec = a.task = j == 0;
			fd = perf_open_on_cpu(&a, cpu, -1);
			if (fd < 0) {
				*errno_out = errno;
				err_print(NULL, "cannot open tracepoint "
					  "%s:%s on CPU %d: %s", tps[j].sys,
					  tps[j].name, cpu, strerror(errno));
				perf_cpu_map__put(map);
				return -1;
			}
			*slot = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &s->ids[c * nr + j])) {
				*errno_out = errno;
				err_print(NULL, "PERF_EVENT_IOC_ID: %s",
					  strerror(errno));
				perf_cpu_map__put(map);
				return -1;
			}
			if (j) {
				if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->fds[c * nr])) {
					*errno_out = errno;
					err_print(NULL, "cannot share CPU %d's "
						  "ring: %s", cpu, strerror(errno));
					perf_cpu_map__put(map);
					return -1;
				}
				continue;
			}
			e = perf_ring_map(&s->rings[c].ring, fd, TP_DATA_PAGES);
			if (e) {
				*errno_out = -e;
				err_print(NULL, "cannot map the tracepoint "
					  "ring of CPU %d: %s", cpu, strerror(-e));
				perf_cpu_map__put(map);
				return -1;
			}
		}
	}
	perf_cpu_map__put(map);
	return 0;
}

int tp_meta(const struct tp_session *s, struct mdf_meta_buf *m)
{
	int ret = mdf_meta_addf(m, "long_size", "%zu", sizeof(long));
	int j, c;

	for (j = 0; j < s->nr_tps; j++) {
		const struct tp_event *tp = &s->tps[j];
		const char *line = tp->format;

		ret |= mdf_meta_addf(m, "tracepoint", "%d config=%" PRIu64
				     " sample_type=0x%llx name=%s:%s", j, tp->id,
				     TP_SAMPLE_TYPE, tp->sys, tp->name);
		/* one line each; the reader joins them with newlines */
		while (*line) {
			size_t n = strcspn(line, "\n");

			ret |= mdf_meta_addf(m, "tracepoint_format", "%d %.*s", j,
					     (int)n, line);
			line += n + (line[n] == '\n');
		}
	}
	for (c = 0; c < s->nr_cpus; c++)
		for (j = 0; j < s->nr_tps; j++)
			ret |= mdf_meta_addf(m, "sample_id", "%" PRIu64
					     " tracepoint=%d cpu=%d",
					     s->ids[c * s->nr_tps + j], j,
					     s->rings[c].cpu);
	return ret;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/*
 * PERF_RECORD_COMM { pid, tid, comm (NUL, padded to 8) } and the
 * sample_id of TP_SAMPLE_TYPE: pid, tid, time 0, cpu 0, id 0.
 */
static size_t comm_record(unsigned char *p, uint32_t pid, uint32_t tid,
			  const char *comm)
{
	size_t n = strlen(comm), body = 16 + (n + 1 + 7) / 8 * 8;
	struct perf_event_header h = {
		.type = PERF_RECORD_COMM, .misc = 0,
		.size = (uint16_t)(body + 32),
	};

	memset(p, 0, h.size);
	memcpy(p, &h, sizeof(h));
	put32(p + 8, pid);
	put32(p + 12, tid);
	memcpy(p + 16, comm, n);
	put32(p + body, pid);
	put32(p + body + 4, tid);
	return h.size;
}

int tp_synth_comms(struct mdf_writer *w)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	DIR *proc = opendir("/proc"), *task;
	struct dirent *pd, *td;
	int ret;

	if (!proc)
		return 0;
	while ((pd = readdir(proc))) {
		char path[300], *comm;
		unsigned long pid = strtoul(pd->d_name, NULL, 10);

		if (!pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%lu/task", pid);
		task = opendir(path);
		if (!task)
			continue;
		while ((td = readdir(task))) {
			unsigned long tid = strtoul(td->d_name, NULL, 10);

			if (!tid)
				continue;
			snprintf(path, sizeof(path), "/proc/%lu/task/%lu/comm", pid, tid);
			comm = read_text(path, 64, NULL);
			if (!comm)
				continue;
			comm[strcspn(comm, "\n")] = '\0';
			comm[15] = '\0';
			if (len + 128 > cap) {
				unsigned char *g = realloc(buf, cap ? 2 * cap : 1 << 16);

				if (!g) {
					free(comm);
					break;
				}
				buf = g;
				cap = cap ? 2 * cap : 1 << 16;
			}
			len += comm_record(buf + len, (uint32_t)pid, (uint32_t)tid, comm);
			free(comm);
		}
		closedir(task);
	}
	closedir(proc);
	ret = len ? mdf_write_chunk(w, MDF_CHUNK_PERF, buf, len) : 0;
	free(buf);
	return ret;
}

void tp_enable(struct tp_session *s, int on)
{
	for (int i = 0; i < s->nr_cpus * s->nr_tps; i++)
		if (s->fds[i] >= 0)
			ioctl(s->fds[i], on ? PERF_EVENT_IOC_ENABLE :
			      PERF_EVENT_IOC_DISABLE, 0);
}

int tp_drain(struct tp_session *s, struct mdf_writer *w)
{
	for (int c = 0; c < s->nr_cpus; c++) {
		struct perf_ring *r = &s->rings[c].ring;
		const void *bufs[2];
		size_t lens[2];
		unsigned int n;

		if (!r->pc)
			continue;
		/* whole records only: a bad one and what follows stay */
		n = perf_ring_data_new(r, &s->seen, bufs, lens);
		if (n && mdf_write_chunkv(w, MDF_CHUNK_PERF, bufs, lens, n))
			return -1;
		perf_ring_data_release(r);
	}
	return 0;
}

void tp_close(struct tp_session *s)
{
	int i;

	for (i = 0; s->rings && i < s->nr_cpus; i++)
		perf_ring_unmap(&s->rings[i].ring);
	for (i = 0; s->fds && i < s->nr_cpus * s->nr_tps; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	free(s->fds);
	free(s->ids);
	free(s->rings);
	s->fds = NULL;
	s->ids = NULL;
	s->rings = NULL;
}
