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
size_t mlx5_diag_rec_put_samples(void *buf, u8 out_format,
				 unsigned int num_ids, const u64 *ids,
				 u64 first_seq, unsigned int nr,
				 const u64 *ts, const u64 *val);
size_t mlx5_diag_rec_put_time(void *buf, u64 dev_time, u64 perf_time,
			      u64 uncertainty_ns);
size_t mlx5_diag_rec_put_lost(void *buf, u64 first_seq, u64 count, u32 cause);
size_t mlx5_diag_rec_put_period(void *buf, u64 first_seq, u64 dev_time,
				u64 requested_ns, u64 actual_ns, u8 log_period);
size_t mlx5_diag_rec_put_end(void *buf, u64 next_seq, u32 reason);
u64 mlx5_diag_rec_period_ns(u8 log_sample_period, u32 freq_khz);

#endif /* _MLX5_DIAG_RECORD_H */
