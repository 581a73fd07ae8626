// SPDX-License-Identifier: GPL-2.0
/* sched:sched_switch in a recording, for the tests (sched_writer.h). */
#include <stdlib.h>
#include <string.h>

#include "sched_writer.h"
#include "sink_check.h"

char *sched_format(void)
{
	return slurp(MD_TESTS_DIR "/tracefs/events/sched/sched_switch/format");
}

void sched_meta_add(struct mdf_meta_buf *m, const char *format_text)
{
	const char *line = format_text;

	if (mdf_meta_add(m, "pmu", "mlx5_diag_0") || mdf_meta_add(m, "cpu", "1") ||
	    mdf_meta_add(m, "long_size", "8") ||
	    mdf_meta_add(m, "tracepoint",
			 "0 config=118 sample_type=0x10486 name=sched:sched_switch"))
		abort();
	while (*line) {
		size_t n = strcspn(line, "\n");

		if (mdf_meta_addf(m, "tracepoint_format", "0 %.*s", (int)n, line))
			abort();
		line += n + (line[n] == '\n');
	}
}

static size_t put(uint8_t *b, size_t n, const void *p, size_t len)
{
	memcpy(b + n, p, len);
	return n + len;
}

static size_t put_u32(uint8_t *b, size_t n, uint32_t v)
{
	return put(b, n, &v, 4);
}

static size_t put_u64(uint8_t *b, size_t n, uint64_t v)
{
	return put(b, n, &v, 8);
}

size_t sched_switch_sample(uint8_t *b, uint64_t st, uint64_t id, uint64_t time,
			   uint32_t cpu, const char *prev, int32_t prev_pid,
			   int64_t prev_state, const char *next,
			   int32_t next_pid)
{
	uint8_t raw[68] = { 0 };
	int32_t prio = 120;
	uint16_t type = SCHED_SWITCH, size;
	size_t n;

	/* the fields at their offsets in tests/tracefs's format */
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &prev_pid, 4);
	strncpy((char *)raw + 8, prev, 16);
	memcpy(raw + 24, &prev_pid, 4);
	memcpy(raw + 28, &prio, 4);
	memcpy(raw + 32, &prev_state, 8);
	strncpy((char *)raw + 40, next, 16);
	memcpy(raw + 56, &next_pid, 4);
	memcpy(raw + 60, &prio, 4);
	n = put_u32(b, 0, 9);			/* PERF_RECORD_SAMPLE */
	n = put_u32(b, n, 0);			/* misc, size: below */
	n = put_u64(b, n, id);
	if (st & 1)
		n = put_u64(b, n, 0xffffffff81000000ull);	/* ip */
	n = put_u32(b, n, (uint32_t)prev_pid);
	n = put_u32(b, n, (uint32_t)prev_pid);
	n = put_u64(b, n, time);
	n = put_u32(b, n, cpu);
	n = put_u32(b, n, 0);
	if (st & 0x100)
		n = put_u64(b, n, 1);			/* period */
	n = put_u32(b, n, sizeof(raw));
	n = put(b, n, raw, sizeof(raw));
	size = (uint16_t)n;
	memcpy(b + 6, &size, 2);
	return n;
}
