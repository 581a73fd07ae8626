/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer of mlx5_diag AUX record streams for the decoder's tests, fuzz
 * corpus and benchmark: records built from a description, little-endian,
 * padded as the ABI says. Each function returns the record's offset in the
 * stream so that a test can patch it into a malformed one.
 */
#ifndef MLX5DIAG_STREAM_WRITER_H
#define MLX5DIAG_STREAM_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct stream {
	uint8_t *buf;
	size_t len, cap;
};

struct stream_session {
	uint32_t run;
	uint8_t out_format;
	uint8_t ts_source;
	uint32_t freq_khz;
	uint16_t num_ids;
	const uint64_t *ids;
	const uint8_t *vclass;		/* NULL: all counters */
	uint64_t period_ns;		/* requested = actual */
	const char *identifier;
	uint32_t flags;			/* MLX5_DIAG_SESSION_F_* */
	uint8_t sync, clear;		/* synchronized start, clear on sample */
};

/*
 * nr samples numbered first_seq..; sample k's earliest device time is
 * t0 + k * t_step (normalised: FRC clocks or RTC ns); entry i of a sample
 * is taken entry_step * i later (format 0: its own timestamp; format 1/2:
 * the latest is entry i = num_ids - 1), or with rotate (format 0)
 * entry_step * ((i - seq) mod num_ids) later: the entries out of order,
 * entry seq mod num_ids the earliest. Values: stream_value().
 */
struct stream_samples {
	uint8_t out_format;
	uint8_t ts_source;
	uint16_t num_ids;
	const uint64_t *ids;
	uint64_t first_seq;
	uint32_t nr;
	uint64_t t0, t_step, entry_step;
	uint64_t value_base;
	uint8_t rotate;
};

/* The value the writer gives data ID column I of sample SEQ. */
static inline uint64_t stream_value(const struct stream_samples *d,
				    uint64_t seq, unsigned int i)
{
	return d->value_base + seq * 1000003u + (uint64_t)i * 0x100000001ull;
}

/* (ts_h, ts_l) of a normalised device time. */
void stream_split_time(uint8_t ts_source, uint64_t t, uint32_t *h, uint32_t *l);

void stream_init(struct stream *s);
void stream_free(struct stream *s);
size_t stream_session(struct stream *s, const struct stream_session *d);
/* dev_time in the TIME record's representation is made from T (normalised). */
size_t stream_time(struct stream *s, uint8_t ts_source, uint64_t t,
		   uint64_t perf_time, uint64_t uncertainty_ns);
size_t stream_samples(struct stream *s, const struct stream_samples *d);
size_t stream_lost(struct stream *s, uint64_t first_seq, uint64_t count,
		   uint32_t cause);
size_t stream_period(struct stream *s, uint8_t ts_source, uint64_t first_seq,
		     uint64_t t, uint64_t ns_requested, uint64_t ns_actual,
		     uint8_t log_sample_period);
size_t stream_end(struct stream *s, uint64_t next_seq, uint32_t reason);
size_t stream_sync(struct stream *s);
/* A bare record: header of TYPE and SIZE, SIZE - 8 zero bytes. */
size_t stream_raw(struct stream *s, uint16_t type, uint32_t size);

/* Little-endian stores into a written stream (for patching). */
void stream_put16(struct stream *s, size_t off, uint16_t v);
void stream_put32(struct stream *s, size_t off, uint32_t v);
void stream_put64(struct stream *s, size_t off, uint64_t v);

#endif /* MLX5DIAG_STREAM_WRITER_H */
