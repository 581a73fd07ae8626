// SPDX-License-Identifier: GPL-2.0
/* Builds mlx5_diag AUX record streams from descriptions (tests only). */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mlx5_diag.h>

#include "stream_writer.h"

#define NSEC_PER_SEC 1000000000ull

void stream_init(struct stream *s)
{
	memset(s, 0, sizeof(*s));
}

void stream_free(struct stream *s)
{
	free(s->buf);
	stream_init(s);
}

/* Append SIZE zero bytes; returns their offset. */
static size_t grow(struct stream *s, size_t size)
{
	size_t off = s->len;

	if (s->len + size > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;

		while (cap < s->len + size)
			cap *= 2;
		s->buf = realloc(s->buf, cap);
		if (!s->buf) {
			perror("stream writer");
			exit(99);
		}
		s->cap = cap;
	}
	memset(s->buf + off, 0, size);
	s->len += size;
	return off;
}

void stream_put16(struct stream *s, size_t off, uint16_t v)
{
	s->buf[off] = (uint8_t)v;
	s->buf[off + 1] = (uint8_t)(v >> 8);
}

void stream_put32(struct stream *s, size_t off, uint32_t v)
{
	stream_put16(s, off, (uint16_t)v);
	stream_put16(s, off + 2, (uint16_t)(v >> 16));
}

void stream_put64(struct stream *s, size_t off, uint64_t v)
{
	stream_put32(s, off, (uint32_t)v);
	stream_put32(s, off + 4, (uint32_t)(v >> 32));
}

#define PUT16(s, rec, type, f, v) stream_put16(s, (rec) + offsetof(type, f), v)
#define PUT32(s, rec, type, f, v) stream_put32(s, (rec) + offsetof(type, f), v)
#define PUT64(s, rec, type, f, v) stream_put64(s, (rec) + offsetof(type, f), v)
#define PUT8(s, rec, type, f, v) ((s)->buf[(rec) + offsetof(type, f)] = (uint8_t)(v))

static size_t record(struct stream *s, uint16_t type, size_t size)
{
	size_t aligned = (size + MLX5_DIAG_REC_ALIGN - 1) & ~(size_t)(MLX5_DIAG_REC_ALIGN - 1);
	size_t off = grow(s, aligned);

	PUT16(s, off, struct mlx5_diag_rec_hdr, type, type);
	PUT32(s, off, struct mlx5_diag_rec_hdr, size, (uint32_t)aligned);
	return off;
}

size_t stream_raw(struct stream *s, uint16_t type, uint32_t size)
{
	size_t off = grow(s, size < 8 ? 8 : size);

	PUT16(s, off, struct mlx5_diag_rec_hdr, type, type);
	PUT32(s, off, struct mlx5_diag_rec_hdr, size, size);
	return off;
}

void stream_split_time(uint8_t ts_source, uint64_t t, uint32_t *h, uint32_t *l)
{
	if (ts_source == MLX5_DIAG_TS_RTC) {
		*h = (uint32_t)(t / NSEC_PER_SEC);
		*l = (uint32_t)(t % NSEC_PER_SEC);
	} else {
		*h = (uint32_t)(t >> 32);
		*l = (uint32_t)t;
	}
}

size_t stream_session(struct stream *s, const struct stream_session *d)
{
	typedef struct mlx5_diag_rec_session S;
	size_t off = record(s, MLX5_DIAG_REC_SESSION,
			    sizeof(S) + d->num_ids * sizeof(struct mlx5_diag_rec_id));
	unsigned int i;

	PUT16(s, off, S, abi_version, MLX5_DIAG_ABI_VERSION);
	PUT16(s, off, S, num_ids, d->num_ids);
	PUT32(s, off, S, freq_khz, d->freq_khz);
	PUT8(s, off, S, mode, MLX5_DIAG_MODE_REPETITIVE);
	PUT8(s, off, S, sync, d->sync);
	PUT8(s, off, S, clear, d->clear);
	PUT8(s, off, S, out_format, d->out_format);
	PUT8(s, off, S, ts_source, d->ts_source);
	PUT8(s, off, S, log_sample_period, 10);
	PUT8(s, off, S, log_num_of_samples, 12);
	PUT8(s, off, S, fw_sample_id_bits, 16);
	PUT32(s, off, S, run, d->run);
	PUT32(s, off, S, flags, d->flags);
	PUT64(s, off, S, period_ns_requested, d->period_ns);
	PUT64(s, off, S, period_ns_actual, d->period_ns);
	if (d->identifier)
		memcpy(s->buf + off + offsetof(S, identifier), d->identifier,
		       strnlen(d->identifier, 32));
	for (i = 0; i < d->num_ids; i++) {
		size_t id = off + sizeof(S) + i * sizeof(struct mlx5_diag_rec_id);

		stream_put64(s, id, d->ids[i]);
		s->buf[id + offsetof(struct mlx5_diag_rec_id, vclass)] =
			d->vclass ? d->vclass[i] : MLX5_DIAG_VCLASS_COUNTER;
	}
	return off;
}

/* The TIME/PERIOD dev_time word: FRC clocks, or RTC s << 32 | ns. */
static uint64_t time_word(uint8_t ts_source, uint64_t t)
{
	uint32_t h, l;

	stream_split_time(ts_source, t, &h, &l);
	return (uint64_t)h << 32 | l;
}

size_t stream_time(struct stream *s, uint8_t ts_source, uint64_t t,
		   uint64_t perf_time, uint64_t uncertainty_ns)
{
	typedef struct mlx5_diag_rec_time T;
	size_t off = record(s, MLX5_DIAG_REC_TIME, sizeof(T));

	PUT64(s, off, T, dev_time, time_word(ts_source, t));
	PUT64(s, off, T, perf_time, perf_time);
	PUT64(s, off, T, uncertainty_ns, uncertainty_ns);
	return off;
}

static size_t sample_size(const struct stream_samples *d)
{
	switch (d->out_format) {
	case MLX5_DIAG_FORMAT_0:
		return 8 + 24 * (size_t)d->num_ids;
	case MLX5_DIAG_FORMAT_1:
		return 16 + 8 * (size_t)d->num_ids;
	default:
		return 16 + 4 * (size_t)d->num_ids;
	}
}

size_t stream_samples(struct stream *s, const struct stream_samples *d)
{
	typedef struct mlx5_diag_rec_samples R;
	size_t ss = sample_size(d);
	size_t off = record(s, MLX5_DIAG_REC_SAMPLES, sizeof(R) + ss * d->nr);
	uint32_t k, i, h, l, lh, ll;

	PUT64(s, off, R, first_seq, d->first_seq);
	PUT32(s, off, R, nr_samples, d->nr);
	PUT16(s, off, R, sample_size, (uint16_t)ss);
	PUT8(s, off, R, out_format, d->out_format);
	for (k = 0; k < d->nr; k++) {
		size_t smp = off + sizeof(R) + k * ss;
		uint64_t seq = d->first_seq + k;
		uint64_t t = d->t0 + k * d->t_step;

		if (d->out_format == MLX5_DIAG_FORMAT_0) {
			stream_put32(s, smp, (uint32_t)seq);
			for (i = 0; i < d->num_ids; i++) {
				size_t e = smp + 8 + 24 * (size_t)i;
				uint64_t step = d->rotate ?
					(i + d->num_ids - seq % d->num_ids) % d->num_ids : i;

				stream_split_time(d->ts_source, t + step * d->entry_step,
						  &h, &l);
				stream_put64(s, e, d->ids[i]);
				stream_put32(s, e + 8, h);
				stream_put32(s, e + 12, l);
				stream_put64(s, e + 16, stream_value(d, seq, i));
			}
			continue;
		}
		stream_split_time(d->ts_source, t, &h, &l);
		stream_split_time(d->ts_source,
				  t + (d->num_ids - 1) * d->entry_step, &lh, &ll);
		stream_put32(s, smp, (uint32_t)seq);
		stream_put32(s, smp + 4, h);
		stream_put32(s, smp + 8, l);
		stream_put32(s, smp + 12, ll);
		for (i = 0; i < d->num_ids; i++) {
			if (d->out_format == MLX5_DIAG_FORMAT_1)
				stream_put64(s, smp + 16 + 8 * (size_t)i,
					     stream_value(d, seq, i));
			else
				stream_put32(s, smp + 16 + 4 * (size_t)i,
					     (uint32_t)stream_value(d, seq, i));
		}
	}
	return off;
}

size_t stream_lost(struct stream *s, uint64_t first_seq, uint64_t count,
		   uint32_t cause)
{
	typedef struct mlx5_diag_rec_lost L;
	size_t off = record(s, MLX5_DIAG_REC_LOST, sizeof(L));

	PUT64(s, off, L, first_seq, first_seq);
	PUT64(s, off, L, count, count);
	PUT32(s, off, L, cause, cause);
	return off;
}

size_t stream_period(struct stream *s, uint8_t ts_source, uint64_t first_seq,
		     uint64_t t, uint64_t ns_requested, uint64_t ns_actual,
		     uint8_t log_sample_period)
{
	typedef struct mlx5_diag_rec_period P;
	size_t off = record(s, MLX5_DIAG_REC_PERIOD, sizeof(P));

	PUT64(s, off, P, first_seq, first_seq);
	PUT64(s, off, P, dev_time, time_word(ts_source, t));
	PUT64(s, off, P, period_ns_requested, ns_requested);
	PUT64(s, off, P, period_ns_actual, ns_actual);
	PUT8(s, off, P, log_sample_period, log_sample_period);
	return off;
}

size_t stream_end(struct stream *s, uint64_t next_seq, uint32_t reason)
{
	typedef struct mlx5_diag_rec_end E;
	size_t off = record(s, MLX5_DIAG_REC_END, sizeof(E));

	PUT64(s, off, E, next_seq, next_seq);
	PUT32(s, off, E, reason, reason);
	return off;
}

size_t stream_sync(struct stream *s)
{
	size_t off = record(s, MLX5_DIAG_REC_SYNC, sizeof(struct mlx5_diag_rec_sync));

	PUT64(s, off, struct mlx5_diag_rec_sync, magic, MLX5_DIAG_SYNC_MAGIC);
	return off;
}
