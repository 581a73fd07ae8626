/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encoders of the AUX record stream (include/uapi/linux/mlx5_diag.h,
 * "Sampling sessions"). Pure: they write into a buffer and return how many
 * bytes they wrote; KUnit tests them.
 */
#ifndef _MLX5_DIAG_RECORD_H
#define _MLX5_DIAG_RECORD_H

#include <linux/types.h>
#include <uapi/linux/mlx5_diag.h>

/* What a session record describes, besides the ids. */
struct mlx5_diag_rec_session_info {
	u32 freq_khz;
	u8 mode, sync, clear, out_format, ts_source;
	u8 log_sample_period, log_num_of_samples, fw_sample_id_bits;
	u32 run;
	u64 period_ns_requested, period_ns_actual;
	const char *identifier;
};

size_t mlx5_diag_rec_session_size(unsigned int num_ids);
size_t mlx5_diag_rec_put_session(void *buf,
				 const struct mlx5_diag_rec_session_info *info,
				 unsigned int num_ids, const u64 *ids,
				 const u8 *vclass);
size_t mlx5_diag_rec_sample_size(u8 out_format, unsigned int num_ids);
size_t mlx5_diag_rec_samples_size(u8 out_format, unsigned int num_ids,
				  unsigned int nr);
size_t mlx5_diag_rec_put_sample(void *buf, u8 out_format,
				unsigned int num_ids, const u64 *ids, u64 seq,
				const u64 *ts, const u64 *val);
size_t mlx5_diag_rec_sample_offset(u8 out_format, unsigned int num_ids,
				   unsigned int k);
size_t mlx5_diag_rec_put_samples_frame(void *buf, u8 out_format,
				       unsigned int num_ids, u64 first_seq,
				       unsigned int nr);
size_t mlx5_diag_rec_put_time(void *buf, u64 dev_time, u64 perf_time,
			      u64 uncertainty_ns);
size_t mlx5_diag_rec_put_lost(void *buf, u64 first_seq, u64 count, u32 cause);
size_t mlx5_diag_rec_put_period(void *buf, u64 first_seq, u64 dev_time,
				u64 requested_ns, u64 actual_ns, u8 log_period);
size_t mlx5_diag_rec_put_end(void *buf, u64 next_seq, u32 reason);
u64 mlx5_diag_rec_period_ns(u8 log_sample_period, u32 freq_khz);

void mlx5_diag_rec_ring_copy(void *ring, size_t ring_size, u64 head,
			     const void *src, size_t len);

#if IS_ENABLED(CONFIG_KUNIT)
/* Static but for KUnit (VISIBLE_IF_KUNIT): part of every chunk. */
size_t mlx5_diag_rec_put_sync(void *buf);
#endif

/**
 * struct mlx5_diag_chunk_state - what a chunk's header repeats
 * @session: room for the open run's SESSION record, F_CHUNK set, its
 *	period following the PERIOD records (@session_cap bytes)
 * @session_cap: the largest SESSION record a session stages
 * @open: a run is open in the stream (a SESSION, no END since)
 * @nr_times: TIME records of the open run in @time (0 to 2)
 * @time: the run's last two TIME records of different dev_time, the later
 *	one last (a TIME of the same dev_time replaces the last): the pair
 *	a decoder maps device time with
 *
 * It follows the records in stream order (mlx5_diag_rec_chunk_track()),
 * whichever way they leave the staging buffer, so that the first chunk of
 * an area mapped late still describes its run.
 */
struct mlx5_diag_chunk_state {
	struct mlx5_diag_rec_session *session;
	size_t session_cap;
	bool open;
	unsigned int nr_times;
	struct mlx5_diag_rec_time time[2];
};

void mlx5_diag_rec_chunk_track(struct mlx5_diag_chunk_state *st,
			       const void *rec);
size_t mlx5_diag_rec_chunk_min(u8 out_format, unsigned int num_ids);
u64 mlx5_diag_rec_put_chunks(struct mlx5_diag_chunk_state *st,
			     const void *recs, size_t len, void *ring,
			     size_t ring_size, u64 head);

#endif /* _MLX5_DIAG_RECORD_H */
