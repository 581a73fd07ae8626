/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer of small perf.data files for the tests of `mlx5-diag decode`,
 * in perf's layouts (tools/perf/util/header.c): file mode (header, ids,
 * attrs, data section, feature sections) or pipe mode (the pipe header,
 * then PERF_RECORD_HEADER_ATTR, PERF_RECORD_HEADER_FEATURE and
 * PERF_RECORD_HEADER_TRACING_DATA events before the data). The data
 * section is built from events added in order; each function returns the
 * offset of its event in the data section, so that a test can patch it.
 */
#ifndef MLX5DIAG_PERFDATA_WRITER_H
#define MLX5DIAG_PERFDATA_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define PDW_MAX_ATTRS	8
#define PDW_MAX_PMUS	8
#define PDW_ATTR_SIZE	136	/* PERF_ATTR_SIZE_VER8 */

struct pdw_attr {
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t flags;		/* the bit-field word of perf_event_attr */
	int32_t clockid;
	uint64_t ids[4];
	unsigned int nr_ids;
	const char *name;	/* HEADER_EVENT_DESC */
};

struct pdw {
	int pipe;
	uint8_t *data;		/* the data section */
	size_t len, cap;
	struct pdw_attr attrs[PDW_MAX_ATTRS];
	unsigned int nr_attrs;
	struct {
		uint32_t type;
		const char *name;
	} pmus[PDW_MAX_PMUS];
	unsigned int nr_pmus;
	const void *tracing;	/* HEADER_TRACING_DATA, or NULL */
	size_t tracing_len;
	/* where the data section starts in the written file */
	size_t data_offset;
};

void pdw_init(struct pdw *w, int pipe);
void pdw_free(struct pdw *w);
void pdw_add_attr(struct pdw *w, const struct pdw_attr *a);
void pdw_add_pmu(struct pdw *w, uint32_t type, const char *name);
/* Raw bytes appended to the data section (an event, or AUX data). */
size_t pdw_raw(struct pdw *w, const void *buf, size_t len);
/* A device PMU's session: its perf type and the CPU of its events. */
struct pdw_session {
	uint64_t pmu_type, cpu;
};
/*
 * PERF_RECORD_AUXTRACE_INFO of TYPE as perf's mlx5_diag_info_fill() writes
 * it: priv[0] the record ABI, [1] FLAGS (bit 0: snapshot mode), [2] NR,
 * then the NR sessions' (PMU type, CPU) pairs.
 */
size_t pdw_auxtrace_info(struct pdw *w, uint32_t type, uint64_t abi_version,
			 uint64_t flags, const struct pdw_session *s,
			 unsigned int nr);
/* PERF_RECORD_AUXTRACE of LEN bytes (a multiple of 8) of DATA. */
size_t pdw_auxtrace(struct pdw *w, uint32_t idx, uint32_t cpu,
		    const void *data, size_t len);
/*
 * The stream cut into AUXTRACE events of idx IDX: pieces of CHUNK bytes
 * (a multiple of 8), the last one shorter.
 */
void pdw_aux_stream(struct pdw *w, uint32_t idx, uint32_t cpu,
		    const uint8_t *stream, size_t len, size_t chunk);
/*
 * Write the file (PATH) as perf would; returns its size. The data
 * section starts at w->data_offset.
 */
size_t pdw_write(struct pdw *w, const char *path);

#endif /* MLX5DIAG_PERFDATA_WRITER_H */
