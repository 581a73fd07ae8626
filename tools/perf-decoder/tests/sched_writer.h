/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the tests of mlx5-diag decode (--timeline, --format perfetto) and
 * plot (--cpus): sched:sched_switch as `mlx5-diag record --tracepoint`
 * records it, the META lines that declare it and its samples.
 */
#ifndef MLX5DIAG_SCHED_WRITER_H
#define MLX5DIAG_SCHED_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "file.h"

#define SCHED_SWITCH	118		/* its ID in tests/tracefs */
#define S_TYPE_OWN	0x10486ull	/* IDENTIFIER TID TIME CPU RAW */
#define S_TYPE_PERF	0x10587ull	/* ... and IP, PERIOD (perf record) */

/* sched_format - tests/tracefs's format of sched_switch (free() it). */
char *sched_format(void);

/*
 * sched_meta_add - into M, a recording's pmu (mlx5_diag_0), cpu (1) and
 * long_size (8), and tracepoint 0, sched:sched_switch (config 118, sample
 * type S_TYPE_OWN), with the format FORMAT_TEXT, line by line. Aborts on
 * failure.
 */
void sched_meta_add(struct mdf_meta_buf *m, const char *format_text);

/*
 * sched_switch_sample - into B (at least 128 bytes), the
 * PERF_RECORD_SAMPLE of sample type ST (S_TYPE_OWN or S_TYPE_PERF) and
 * identifier ID of a switch on CPU at TIME from PREV (PREV_PID, in
 * PREV_STATE) to NEXT (NEXT_PID), both of priority 120; its length.
 */
size_t sched_switch_sample(uint8_t *b, uint64_t st, uint64_t id, uint64_t time,
			   uint32_t cpu, const char *prev, int32_t prev_pid,
			   int64_t prev_state, const char *next,
			   int32_t next_pid);

#endif /* MLX5DIAG_SCHED_WRITER_H */
