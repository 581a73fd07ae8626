/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader of perf.data (tools/perf/util/header.c, session.c), file mode
 * and pipe mode, little-endian only, for `mlx5-diag decode`: the events
 * of the data section one at a time, in file order; the attributes (the
 * attrs section, or PERF_RECORD_HEADER_ATTR in a pipe), the PMU mappings
 * (HEADER_PMU_MAPPINGS: a feature section, or PERF_RECORD_HEADER_FEATURE
 * in a pipe) and the tracing data
 * (HEADER_TRACING_DATA, or PERF_RECORD_HEADER_TRACING_DATA in a pipe).
 * The data section is read sequentially; the auxtrace index is not used.
 * Documentation/decoder.md ("perf.data") says what is read and refused.
 */
#ifndef MLX5_DIAG_PERFDATA_H
#define MLX5_DIAG_PERFDATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PD_MAGIC		"PERFILE2"
#define PD_MAGIC_SWAPPED	"2ELIFREP"

/* Record types of perf (tools/lib/perf/include/perf/event.h). */
#define PD_RECORD_LOST			2
#define PD_RECORD_COMM			3
#define PD_RECORD_EXIT			4
#define PD_RECORD_FORK			7
#define PD_RECORD_SAMPLE		9
#define PD_RECORD_AUX			11
#define PD_RECORD_LOST_SAMPLES		13
#define PD_RECORD_HEADER_ATTR		64
#define PD_RECORD_HEADER_TRACING_DATA	66
#define PD_RECORD_AUXTRACE_INFO		70
#define PD_RECORD_AUXTRACE		71
#define PD_RECORD_HEADER_FEATURE	80
#define PD_RECORD_COMPRESSED		81

/* Feature bits (tools/perf/util/header.h). */
#define PD_FEAT_TRACING_DATA	1
#define PD_FEAT_PMU_MAPPINGS	16
#define PD_FEAT_BITS		256

/* PERF_RECORD_AUX flags */
#define PD_AUX_FLAG_TRUNCATED	0x01
#define PD_AUX_FLAG_COLLISION	0x08

/* The auxtrace type of mlx5_diag (enum auxtrace_type, after HISI_PTT = 6). */
#define PD_AUXTRACE_MLX5_DIAG	7

/*
 * Its PERF_RECORD_AUXTRACE_INFO (perf's util/mlx5-diag.h): after the
 * 16-byte struct perf_record_auxtrace_info, u64 priv[]: [0] the driver's
 * record ABI (0: unknown), [1] flags, [2] N sessions, then N pairs
 * priv[3 + 2i] PMU type, priv[4 + 2i] CPU. Only ever appended to.
 */
#define PD_AUXTRACE_INFO_SIZE		16u
#define PD_MLX5_INFO_ABI		0
#define PD_MLX5_INFO_FLAGS		1
#define PD_MLX5_INFO_NR_PMUS		2
#define PD_MLX5_INFO_PMUS		3
#define PD_MLX5_INFO_F_SNAPSHOT		(1ull << 0)	/* perf record -S */
#define PD_MLX5_INFO_MAX_PMUS		64

/* sizeof(struct perf_record_auxtrace): header, then size, offset,
 * reference, idx, tid, cpu, reserved. */
#define PD_AUXTRACE_SIZE	48

struct pd_attr {
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;		/* the bit-field word: disabled, comm, ... */
	int use_clockid;
	int32_t clockid;
	uint64_t *ids;
	size_t nr_ids;
};

/* attr flag bits used here */
#define PD_ATTR_SAMPLE_ID_ALL	(1ull << 18)

struct pd_pmu {
	uint32_t type;
	char *name;
};

/* One event of the data section. */
struct pd_event {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const unsigned char *data;	/* the whole record, SIZE bytes */
	uint64_t offset;		/* of the record in the file or pipe */
	/* AUXTRACE: the AUX bytes that follow the record */
	uint64_t payload_size;
	uint64_t payload_offset;	/* where they are (file mode) */
};

struct pd_reader {
	FILE *f;
	const char *name;
	int pipe;			/* pipe mode */
	uint64_t pos;			/* input offset of the next byte read */
	uint64_t data_end;		/* file mode: end of the data section */
	uint64_t file_size;		/* 0 when not a regular file */
	uint64_t payload_left;		/* AUX bytes of the last event not read */
	struct pd_attr *attrs;
	size_t nr_attrs;
	struct pd_pmu *pmus;
	size_t nr_pmus;
	unsigned char *tracing_data;	/* HEADER_TRACING_DATA, or NULL */
	size_t tracing_data_len;
	unsigned char ev[65536];	/* the current record */
	char err[320];
};

/*
 * Start reading F (the caller has read and checked the 8 magic bytes):
 * the header, attributes and features. Returns 0, or -1 with r->err set.
 * Takes F over: pd_close() closes it unless it is stdin.
 */
int pd_open(struct pd_reader *r, FILE *f, const char *name);

/*
 * The next event of the data section: 1 and *ev (valid until the next
 * call), 0 at its end, -1 on error (r->err). AUX bytes an AUXTRACE event
 * carries that the caller did not read with pd_read_payload() are
 * skipped. Events of the header (HEADER_ATTR, HEADER_FEATURE,
 * HEADER_TRACING_DATA in a pipe) are taken in and returned too.
 */
int pd_next(struct pd_reader *r, struct pd_event *ev);

/* Read LEN of the current AUXTRACE event's AUX bytes. 0 or -1 (r->err). */
int pd_read_payload(struct pd_reader *r, void *buf, size_t len);

/* The name of the PMU of perf type TYPE in the PMU mappings, or NULL. */
const char *pd_pmu_name(const struct pd_reader *r, uint32_t type);

void pd_close(struct pd_reader *r);

/* Little-endian loads. */
static inline uint16_t pd_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pd_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t pd_le64(const unsigned char *p)
{
	return (uint64_t)pd_le32(p) | (uint64_t)pd_le32(p + 4) << 32;
}

#endif /* MLX5_DIAG_PERFDATA_H */
