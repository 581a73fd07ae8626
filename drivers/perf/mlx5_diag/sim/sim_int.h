/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5_diag_sim: declarations shared by the core's source files only
 * (the modelled dialect's layout helpers live in sim_model64.c).
 */
#ifndef _MLX5_DIAG_SIM_INT_H
#define _MLX5_DIAG_SIM_INT_H

#include <linux/prandom.h>

#include "sim.h"

/*
 * sim_clock.c: the device clock as a function of emulator time.
 *
 * An oscillator counts device clocks at freq_khz * (1 + ppm / 10^6) per
 * millisecond of emulator time; the device clock reads the oscillator plus
 * an adjustment (clock_offset and every clock_step). Each drift change or
 * step starts a segment; the last SIM_CLOCK_SEGS are kept so that the
 * emulator time and device clock of an earlier oscillator reading (a
 * sample's due time) can still be told exactly.
 */
#define SIM_CLOCK_SEGS		16

struct sim_clock_seg {
	u64 ns;		/* emulator time at which the segment starts */
	u64 osc;	/* oscillator reading at @ns ... */
	u64 frac;	/* ... plus frac / 10^12 of a clock */
	u64 adj;	/* device clock = oscillator + adj (modulo 2^64) */
	s32 ppm;	/* drift during the segment */
};

struct sim_clock {
	u32 freq_khz;
	u64 offset;	/* clock_offset: the device clock at emulator time 0 */
	u32 nr;		/* segments held, oldest first; at least one */
	struct sim_clock_seg seg[SIM_CLOCK_SEGS];
};

void mlx5_diag_sim_clock_init(struct sim_clock *clk, u32 freq_khz, u64 offset);
u64 mlx5_diag_sim_clock_osc(const struct sim_clock *clk, u64 ns);
u64 mlx5_diag_sim_clock_read(const struct sim_clock *clk, u64 ns);
u64 mlx5_diag_sim_clock_at_osc(const struct sim_clock *clk, u64 osc);
int mlx5_diag_sim_clock_osc_to_ns(const struct sim_clock *clk, u64 osc,
				  u64 *ns);
void mlx5_diag_sim_clock_restart(struct sim_clock *clk, u64 ns);
void mlx5_diag_sim_clock_set_ppm(struct sim_clock *clk, u64 ns, s32 ppm);
void mlx5_diag_sim_clock_step(struct sim_clock *clk, u64 ns, s64 clocks);
void mlx5_diag_sim_clock_set_freq(struct sim_clock *clk, u64 ns, u32 freq_khz);
void mlx5_diag_sim_clock_set_offset(struct sim_clock *clk, u64 offset);

/* MODEL (part 2): sizes in bits of the 64-bit dialect's entries. */
#define SIM_M64_KIND_BITS	64	/* diagnostic_data_kind in DEBUG cap */
#define SIM_M64_ID_BITS		64	/* data_id[i] in the params context */
#define SIM_M64_DATA_BITS	256	/* diagnostic_data_struct */

/* sim_traffic.c: does a sample report this id as a statistic? */
bool mlx5_diag_sim_traffic_statistic(u64 id);

void mlx5_diag_sim_m64_default_kinds(struct mlx5_diag_sim_caps *caps);
void mlx5_diag_sim_m64_put_debug_caps(const struct mlx5_diag_sim_caps *caps,
				      void *out, size_t len, u32 base);
void mlx5_diag_sim_m64_put_max_ids(void *out, size_t len, u32 base,
				   u32 max_ids);
void mlx5_diag_sim_m64_put_kind(void *out, size_t len, u32 off, u32 kind,
				bool sync);
u64 mlx5_diag_sim_m64_get_id(const void *in, size_t len, u32 off);
void mlx5_diag_sim_m64_put_id(void *out, size_t len, u32 off, u64 id);
void mlx5_diag_sim_m64_put_bad_id(void *out, size_t len, u32 index,
				  u32 reason);
void mlx5_diag_sim_m64_put_sample(void *out, size_t len, u32 off, u64 id,
				  u32 sample_id, u64 ts, u64 value);

/*
 * sim_fuzz.c: the fuzzer. It mutates rate in MLX5_DIAG_SIM_FUZZ_RATE_MAX
 * answers (0: none), drawing from a generator seeded with seed; mutated
 * counts the answers it changed.
 */
struct sim_fuzz {
	struct rnd_state rnd;
	u64 seed;
	u32 rate;
	u64 mutated;
};

/* Start the generator again from @seed. */
void mlx5_diag_sim_fuzz_seed(struct sim_fuzz *fz, u64 seed);

/*
 * Maybe mutate the answer @out of @outlen bytes, of which the command wrote
 * @used; @head: how many 32-bit words past the header hold the fields that
 * size the rest (0: none stand out). Returns 0, or -EIO when the answer is
 * to be lost (the transport's error).
 */
int mlx5_diag_sim_fuzz_answer(struct sim_fuzz *fz, void *out, size_t outlen,
			      size_t used, u32 head);

#endif /* _MLX5_DIAG_SIM_INT_H */
