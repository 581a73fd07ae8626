// SPDX-License-Identifier: GPL-2.0
/*
 * Encoders of the AUX record stream: fixed little-endian layouts from
 * include/uapi/linux/mlx5_diag.h. Samples are written in the DOCA Telemetry
 * Diagnostics guide's output formats 0, 1 and 2. In snapshot mode, records
 * are written into the AUX ring as self-contained chunks.
 */
#include <linux/align.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_record.h"

static void mlx5_diag_rec_hdr(void *buf, u16 type, size_t size)
{
	struct mlx5_diag_rec_hdr *h = buf;

	h->type = cpu_to_le16(type);
	h->reserved = 0;
	h->size = cpu_to_le32(size);
}

/* One period of 2^@log_sample_period device clocks, in ns. */
u64 mlx5_diag_rec_period_ns(u8 log_sample_period, u32 freq_khz)
{
	return freq_khz ? mul_u64_u32_div(1ULL << log_sample_period, 1000000,
					  freq_khz) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_period_ns);

size_t mlx5_diag_rec_session_size(unsigned int num_ids)
{
	return sizeof(struct mlx5_diag_rec_session) +
	       num_ids * sizeof(struct mlx5_diag_rec_id);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_session_size);

size_t mlx5_diag_rec_put_session(void *buf,
				 const struct mlx5_diag_rec_session_info *info,
				 unsigned int num_ids, const u64 *ids,
				 const u8 *vclass)
{
	struct mlx5_diag_rec_session *r = buf;
	size_t size = mlx5_diag_rec_session_size(num_ids);
	unsigned int i;

	memset(r, 0, size);
	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_SESSION, size);
	r->abi_version = cpu_to_le16(MLX5_DIAG_ABI_VERSION);
	r->num_ids = cpu_to_le16(num_ids);
	r->freq_khz = cpu_to_le32(info->freq_khz);
	r->mode = info->mode;
	r->sync = info->sync;
	r->clear = info->clear;
	r->out_format = info->out_format;
	r->ts_source = info->ts_source;
	r->log_sample_period = info->log_sample_period;
	r->log_num_of_samples = info->log_num_of_samples;
	r->fw_sample_id_bits = info->fw_sample_id_bits;
	r->run = cpu_to_le32(info->run);
	r->period_ns_requested = cpu_to_le64(info->period_ns_requested);
	r->period_ns_actual = cpu_to_le64(info->period_ns_actual);
	strscpy_pad(r->identifier, info->identifier, sizeof(r->identifier));
	for (i = 0; i < num_ids; i++) {
		r->ids[i].data_id = cpu_to_le64(ids[i]);
		r->ids[i].vclass = vclass[i];
	}
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_session);

size_t mlx5_diag_rec_sample_size(u8 out_format, unsigned int num_ids)
{
	switch (out_format) {
	case MLX5_DIAG_FORMAT_0:
		return sizeof(struct mlx5_diag_fmt0_hdr) +
		       num_ids * sizeof(struct mlx5_diag_fmt0_entry);
	case MLX5_DIAG_FORMAT_1:
		return sizeof(struct mlx5_diag_fmt12_hdr) + num_ids * 8;
	default:
		return sizeof(struct mlx5_diag_fmt12_hdr) + num_ids * 4;
	}
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_sample_size);

size_t mlx5_diag_rec_samples_size(u8 out_format, unsigned int num_ids,
				  unsigned int nr)
{
	return ALIGN(sizeof(struct mlx5_diag_rec_samples) +
		     nr * mlx5_diag_rec_sample_size(out_format, num_ids),
		     MLX5_DIAG_REC_ALIGN);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_samples_size);

/*
 * Sample @seq of @num_ids entries, entry i with timestamp @ts[i] and value
 * @val[i], at @buf: within a SAMPLES record, sample k of it at
 * mlx5_diag_rec_sample_offset(). Returns its size.
 */
size_t mlx5_diag_rec_put_sample(void *buf, u8 out_format,
				unsigned int num_ids, const u64 *ids, u64 seq,
				const u64 *ts, const u64 *val)
{
	u32 sample_id = lower_32_bits(seq);
	unsigned int i;

	if (out_format == MLX5_DIAG_FORMAT_0) {
		struct mlx5_diag_fmt0_hdr *h = buf;
		struct mlx5_diag_fmt0_entry *e = (void *)(h + 1);

		h->sample_id = cpu_to_le32(sample_id);
		h->reserved = 0;
		for (i = 0; i < num_ids; i++) {
			e[i].data_id = cpu_to_le64(ids[i]);
			e[i].ts_h = cpu_to_le32(upper_32_bits(ts[i]));
			e[i].ts_l = cpu_to_le32(lower_32_bits(ts[i]));
			e[i].value = cpu_to_le64(val[i]);
		}
	} else {
		struct mlx5_diag_fmt12_hdr *h = buf;
		u64 first = ts[0], last = ts[0];

		for (i = 1; i < num_ids; i++) {
			first = min(first, ts[i]);
			last = max(last, ts[i]);
		}
		h->sample_id = cpu_to_le32(sample_id);
		h->earliest_ts_h = cpu_to_le32(upper_32_bits(first));
		h->earliest_ts_l = cpu_to_le32(lower_32_bits(first));
		h->latest_ts_l = cpu_to_le32(lower_32_bits(last));
		for (i = 0; i < num_ids; i++) {
			if (out_format == MLX5_DIAG_FORMAT_1)
				((__le64 *)(h + 1))[i] = cpu_to_le64(val[i]);
			else
				((__le32 *)(h + 1))[i] =
					cpu_to_le32(lower_32_bits(val[i]));
		}
	}
	return mlx5_diag_rec_sample_size(out_format, num_ids);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_sample);

/* Where sample @k of a SAMPLES record goes, from the record's start. */
size_t mlx5_diag_rec_sample_offset(u8 out_format, unsigned int num_ids,
				   unsigned int k)
{
	return sizeof(struct mlx5_diag_rec_samples) +
	       (size_t)k * mlx5_diag_rec_sample_size(out_format, num_ids);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_sample_offset);

/*
 * The rest of a SAMPLES record at @buf whose @nr samples from @first_seq
 * are in place (mlx5_diag_rec_put_sample()): its header and the padding
 * after them. Returns the record's size.
 */
size_t mlx5_diag_rec_put_samples_frame(void *buf, u8 out_format,
				       unsigned int num_ids, u64 first_seq,
				       unsigned int nr)
{
	size_t size = mlx5_diag_rec_samples_size(out_format, num_ids, nr);
	size_t end = mlx5_diag_rec_sample_offset(out_format, num_ids, nr);
	struct mlx5_diag_rec_samples *r = buf;

	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_SAMPLES, size);
	r->first_seq = cpu_to_le64(first_seq);
	r->nr_samples = cpu_to_le32(nr);
	r->sample_size =
		cpu_to_le16(mlx5_diag_rec_sample_size(out_format, num_ids));
	r->out_format = out_format;
	r->reserved = 0;
	memset(buf + end, 0, size - end);
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_samples_frame);

size_t mlx5_diag_rec_put_time(void *buf, u64 dev_time, u64 perf_time,
			      u64 uncertainty_ns)
{
	struct mlx5_diag_rec_time *r = buf;

	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_TIME, sizeof(*r));
	r->dev_time = cpu_to_le64(dev_time);
	r->perf_time = cpu_to_le64(perf_time);
	r->uncertainty_ns = cpu_to_le64(uncertainty_ns);
	return sizeof(*r);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_time);

size_t mlx5_diag_rec_put_lost(void *buf, u64 first_seq, u64 count, u32 cause)
{
	struct mlx5_diag_rec_lost *r = buf;

	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_LOST, sizeof(*r));
	r->first_seq = cpu_to_le64(first_seq);
	r->count = cpu_to_le64(count);
	r->cause = cpu_to_le32(cause);
	r->reserved = 0;
	return sizeof(*r);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_lost);

size_t mlx5_diag_rec_put_period(void *buf, u64 first_seq, u64 dev_time,
				u64 requested_ns, u64 actual_ns, u8 log_period)
{
	struct mlx5_diag_rec_period *r = buf;

	memset(r, 0, sizeof(*r));
	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_PERIOD, sizeof(*r));
	r->first_seq = cpu_to_le64(first_seq);
	r->dev_time = cpu_to_le64(dev_time);
	r->period_ns_requested = cpu_to_le64(requested_ns);
	r->period_ns_actual = cpu_to_le64(actual_ns);
	r->log_sample_period = log_period;
	return sizeof(*r);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_period);

size_t mlx5_diag_rec_put_end(void *buf, u64 next_seq, u32 reason)
{
	struct mlx5_diag_rec_end *r = buf;

	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_END, sizeof(*r));
	r->next_seq = cpu_to_le64(next_seq);
	r->reason = cpu_to_le32(reason);
	r->reserved = 0;
	return sizeof(*r);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_end);

VISIBLE_IF_KUNIT size_t mlx5_diag_rec_put_sync(void *buf)
{
	struct mlx5_diag_rec_sync *r = buf;

	mlx5_diag_rec_hdr(r, MLX5_DIAG_REC_SYNC, sizeof(*r));
	r->magic = cpu_to_le64(MLX5_DIAG_SYNC_MAGIC);
	return sizeof(*r);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_sync);

/*
 * Copy @len bytes into the ring of @ring_size bytes (a power of two) at the
 * free-running offset @head, wrapping at its end. Of more bytes than the
 * ring holds, the last @ring_size stay, where writing them all would have
 * left them.
 */
void mlx5_diag_rec_ring_copy(void *ring, size_t ring_size, u64 head,
			     const void *src, size_t len)
{
	size_t off, n;

	if (len > ring_size) {
		head += len - ring_size;
		src += len - ring_size;
		len = ring_size;
	}
	off = head & (ring_size - 1);
	n = min(len, ring_size - off);
	memcpy(ring + off, src, n);
	memcpy(ring, src + n, len - n);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_ring_copy);

/* The SESSION, TIME, PERIOD and END records change what a chunk repeats. */
void mlx5_diag_rec_chunk_track(struct mlx5_diag_chunk_state *st,
			       const void *rec)
{
	const struct mlx5_diag_rec_hdr *h = rec;
	const struct mlx5_diag_rec_time *t = rec;
	size_t size = le32_to_cpu(h->size);

	switch (le16_to_cpu(h->type)) {
	case MLX5_DIAG_REC_SESSION:
		st->nr_times = 0;
		st->open = !WARN_ON_ONCE(size > st->session_cap);
		if (!st->open)
			break;
		memcpy(st->session, rec, size);
		st->session->flags |= cpu_to_le32(MLX5_DIAG_SESSION_F_CHUNK);
		break;
	case MLX5_DIAG_REC_TIME:
		if (!st->nr_times ||
		    t->dev_time != st->time[1].dev_time) {
			st->time[0] = st->time[1];
			st->nr_times = min(st->nr_times + 1, 2U);
		}
		memcpy(&st->time[1], rec, sizeof(st->time[1]));
		break;
	case MLX5_DIAG_REC_PERIOD:
		if (st->open) {
			const struct mlx5_diag_rec_period *p = rec;

			st->session->log_sample_period = p->log_sample_period;
			st->session->period_ns_requested =
				p->period_ns_requested;
			st->session->period_ns_actual = p->period_ns_actual;
		}
		break;
	case MLX5_DIAG_REC_END:
		st->open = false;
		break;
	}
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_chunk_track);

/*
 * The largest chunk a session of @num_ids data IDs in @out_format needs:
 * its header (SYNC, SESSION, two TIME), then one record that is not
 * SAMPLES (PERIOD is the largest) or a SAMPLES record of one sample. An
 * AUX area in snapshot mode holds two.
 */
size_t mlx5_diag_rec_chunk_min(u8 out_format, unsigned int num_ids)
{
	return sizeof(struct mlx5_diag_rec_sync) +
	       mlx5_diag_rec_session_size(num_ids) +
	       2 * sizeof(struct mlx5_diag_rec_time) +
	       max(mlx5_diag_rec_samples_size(out_format, num_ids, 1),
		   sizeof(struct mlx5_diag_rec_period));
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_chunk_min);

struct mlx5_diag_ring_out {
	void *ring;
	size_t size;
	u64 head;
};

static void mlx5_diag_ring_put(struct mlx5_diag_ring_out *o, const void *src,
			       size_t len)
{
	mlx5_diag_rec_ring_copy(o->ring, o->size, o->head, src, len);
	o->head += len;
}

/*
 * Start a chunk: SYNC, then, unless a run starts with the chunk, the open
 * run's SESSION as a repeat and its last two TIME records. Returns the
 * bytes written.
 */
static size_t mlx5_diag_chunk_header(const struct mlx5_diag_chunk_state *st,
				     struct mlx5_diag_ring_out *o,
				     bool new_run)
{
	struct mlx5_diag_rec_sync sync;
	size_t n = mlx5_diag_rec_put_sync(&sync), size;

	mlx5_diag_ring_put(o, &sync, n);
	if (new_run || !st->open)
		return n;
	size = le32_to_cpu(st->session->hdr.size);
	mlx5_diag_ring_put(o, st->session, size);
	n += size;
	size = st->nr_times * sizeof(st->time[0]);
	mlx5_diag_ring_put(o, &st->time[2 - st->nr_times], size);
	return n + size;
}

/* Bytes of a SAMPLES record of @nr samples like @r. */
static size_t mlx5_diag_part_size(const struct mlx5_diag_rec_samples *r,
				  u32 nr)
{
	return ALIGN(sizeof(*r) + (size_t)nr * le16_to_cpu(r->sample_size),
		     MLX5_DIAG_REC_ALIGN);
}

/* Samples @first .. @first + @nr - 1 of @r, as a record of their own. */
static size_t mlx5_diag_put_part(struct mlx5_diag_ring_out *o,
				 const struct mlx5_diag_rec_samples *r,
				 u32 first, u32 nr)
{
	static const u8 zero[MLX5_DIAG_REC_ALIGN];
	struct mlx5_diag_rec_samples part = *r;
	size_t ssize = le16_to_cpu(r->sample_size);
	size_t body = (size_t)nr * ssize, size = mlx5_diag_part_size(r, nr);

	part.hdr.size = cpu_to_le32(size);
	part.first_seq = cpu_to_le64(le64_to_cpu(r->first_seq) + first);
	part.nr_samples = cpu_to_le32(nr);
	mlx5_diag_ring_put(o, &part, sizeof(part));
	mlx5_diag_ring_put(o, (const u8 *)(r + 1) + (size_t)first * ssize, body);
	mlx5_diag_ring_put(o, zero, size - sizeof(part) - body);
	return size;
}

/**
 * mlx5_diag_rec_put_chunks() - write records as snapshot-mode chunks
 * @st: what the chunks repeat; follows the records written
 * @recs: whole records, @len bytes
 * @len: their length
 * @ring: the AUX ring
 * @ring_size: its size, a power of two
 * @head: the free-running offset to write at
 *
 * The records start a new chunk, which ends where the next record (the
 * next sample of a SAMPLES record, which is cut there) would take it past
 * half the ring, or where a run starts (SESSION). A chunk holds at least
 * one record (sample) after its header, beyond half the ring if it must
 * (mlx5_diag_rec_chunk_min() tells the ring that never needs it).
 *
 * Return: the new head.
 */
u64 mlx5_diag_rec_put_chunks(struct mlx5_diag_chunk_state *st,
			     const void *recs, size_t len, void *ring,
			     size_t ring_size, u64 head)
{
	struct mlx5_diag_ring_out o = { .ring = ring, .size = ring_size,
					.head = head };
	size_t limit = ring_size / 2, pos = 0, used = 0, hdr = 0;

	while (pos < len) {
		const struct mlx5_diag_rec_hdr *h = recs + pos;
		const struct mlx5_diag_rec_samples *r = recs + pos;
		size_t size = le32_to_cpu(h->size);
		u16 type = le16_to_cpu(h->type);
		bool samples = type == MLX5_DIAG_REC_SAMPLES;
		u32 nr = samples ? le32_to_cpu(r->nr_samples) : 0, done = 0;

		do {
			size_t next = samples ? mlx5_diag_part_size(r, 1) : size;
			u32 fit = min_t(u32, 1, nr - done);

			if (used > hdr && (type == MLX5_DIAG_REC_SESSION ||
					   used + next > limit))
				used = 0;
			if (!used) {
				hdr = mlx5_diag_chunk_header(st, &o,
							     type == MLX5_DIAG_REC_SESSION);
				used = hdr;
			}
			if (!samples) {
				mlx5_diag_ring_put(&o, h, size);
				used += size;
				break;
			}
			while (fit < nr - done &&
			       used + mlx5_diag_part_size(r, fit + 1) <= limit)
				fit++;
			used += mlx5_diag_put_part(&o, r, done, fit);
			done += fit;
		} while (done < nr);
		mlx5_diag_rec_chunk_track(st, h);
		pos += size;
	}
	return o.head;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_rec_put_chunks);
