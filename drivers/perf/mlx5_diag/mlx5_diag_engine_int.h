/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's own interface between its three files: the state machine
 * (mlx5_diag_engine.c), counting (mlx5_diag_engine_count.c) and sampling
 * sessions (mlx5_diag_engine_session.c), also included by the KUnit suites;
 * the engine's users see mlx5_diag_engine.h only. The functions between the
 * three files are called with the engine's lock held.
 */
#ifndef _MLX5_DIAG_ENGINE_INT_H
#define _MLX5_DIAG_ENGINE_INT_H

#include <linux/sizes.h>

#include "mlx5_diag_engine.h"

/* Samples a folded-counting buffer holds: a few polls' worth. */
#define MLX5_DIAG_FOLD_LOG_SLOTS	4

/*
 * The fewest slots in which slot-index sample ids (A1) are told apart by
 * time: a sample's time places it less than two periods off (the SET's
 * answer within a period, a sample's entries less than a period apart),
 * less than half a lap.
 */
#define MLX5_DIAG_SLOT_IDS_MIN_SLOTS	4

/* Does a buffer of 2^@log_slots samples have that many? */
static inline bool mlx5_diag_engine_slots_enough(unsigned int log_slots)
{
	return log_slots >= ilog2(MLX5_DIAG_SLOT_IDS_MIN_SLOTS);
}

/*
 * Do the running configuration's samples carry free-running clock
 * timestamps narrower than 64 bits, which wrap (the public dialect's 32)?
 */
static inline bool
mlx5_diag_engine_narrow_frc(const struct mlx5_diag_engine *eng)
{
	return eng->fw->dialect->timestamp_bits < 64 && !eng->programmed.rtc;
}

/* The drain outbox: this many bytes of samples per query, at most. */
#define MLX5_DIAG_DRAIN_OUTBOX_BYTES	SZ_128K
/* a sample of every id fits: the 64-bit dialect's entries are 32 bytes */
static_assert(MLX5_DIAG_MAX_IDS * 32 <= MLX5_DIAG_DRAIN_OUTBOX_BYTES);

/* the state machine */
bool mlx5_diag_engine_owned(const struct mlx5_diag_engine *eng);
int mlx5_diag_engine_device_clock(struct mlx5_diag_engine *eng, bool rtc,
				  u64 *clock);
void mlx5_diag_engine_unmap(struct mlx5_diag_engine *eng);
int mlx5_diag_engine_adopt(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_release(struct mlx5_diag_engine *eng);
int mlx5_diag_engine_set_new(struct mlx5_diag_engine *eng,
			     const struct mlx5_diag_fw_params *p,
			     const char **why);
int mlx5_diag_engine_fold_placeable(struct mlx5_diag_engine *eng,
				    const char **why);
int mlx5_diag_engine_apply(struct mlx5_diag_engine *eng, bool force,
			   bool *took_over, const char **why);
int mlx5_diag_engine_foreign_recheck(struct mlx5_diag_engine *eng,
				     const char **why);

/* counting */
void mlx5_diag_engine_map(struct mlx5_diag_engine *eng, bool restart);
void mlx5_diag_engine_publish(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_slot_take(struct mlx5_diag_engine *eng,
				struct mlx5_diag_engine_slot *s, u64 id,
				const struct mlx5_diag_catalog_entry *e);
struct mlx5_diag_engine_slot *
mlx5_diag_engine_slot_find(struct mlx5_diag_engine *eng, u64 id, bool share,
			   struct mlx5_diag_engine_slot **free);
void mlx5_diag_engine_slot_free(struct mlx5_diag_engine *eng,
				struct mlx5_diag_engine_slot *s);
void mlx5_diag_engine_fold(struct mlx5_diag_engine *eng);
bool mlx5_diag_engine_decode_from(struct mlx5_diag_engine *eng, const void *out,
				  unsigned int s);
bool mlx5_diag_engine_reordered(struct mlx5_diag_engine *eng, const void *out,
				unsigned int s);
int mlx5_diag_engine_query_cmd(struct mlx5_diag_engine *eng, void *out,
			       size_t size, unsigned int index,
			       unsigned int nsamples);
int mlx5_diag_engine_query_at(struct mlx5_diag_engine *eng, void *out,
			      size_t size, unsigned int index,
			      unsigned int nsamples);
int mlx5_diag_engine_poll_samples(struct mlx5_diag_engine *eng);
unsigned int mlx5_diag_engine_whole_samples(const struct mlx5_diag_engine *eng,
					    unsigned int n);
u64 mlx5_diag_engine_seq_mask(const struct mlx5_diag_engine *eng);
bool mlx5_diag_engine_seq_narrow(struct mlx5_diag_engine *eng, u64 id,
				 u64 expect, u64 *d16);
/* The samples of a configuration a read of the whole buffer found (A1). */
struct mlx5_diag_seq_seen {
	u64 first_id;		/* the earliest-stamped one's id */
	u64 first_ts;		/* its time; U64_MAX before any */
	unsigned int written;	/* the slots written */
	bool tied;		/* another sample is stamped first_ts too */
	bool ids_in_slots;	/* every id is below the number of slots */
};

void mlx5_diag_engine_seq_seen_init(struct mlx5_diag_seq_seen *seen);
void mlx5_diag_engine_seq_seen_add(const struct mlx5_diag_engine *eng,
				   struct mlx5_diag_seq_seen *seen, u64 id,
				   u64 t);
void mlx5_diag_engine_seq_learn(struct mlx5_diag_engine *eng,
				const struct mlx5_diag_seq_seen *seen);
bool mlx5_diag_engine_slots_placeable(const struct mlx5_diag_engine *eng,
				      u8 log_slots, bool rtc, u8 log_period);
bool mlx5_diag_engine_lap_in_half_range(const struct mlx5_diag_engine *eng,
					u8 log_period);
bool mlx5_diag_engine_seq_slot(struct mlx5_diag_engine *eng, u64 base);
u64 mlx5_diag_engine_slot_seq(const struct mlx5_diag_engine *eng,
			      unsigned int slot, u64 clocks, u64 ref_next);

/* sampling sessions */
int mlx5_diag_engine_session_ride(struct mlx5_diag_engine *eng, u64 id,
				  const struct mlx5_diag_catalog_entry *e,
				  unsigned int *slot, const char **why);
bool mlx5_diag_engine_clocks_apart(u64 from, u64 to, bool rtc, u32 freq_khz,
				   u64 *clocks);
u8 mlx5_diag_engine_step_period(u64 clocks, u8 reported, u8 longest);

/* What the planner turns into a firmware configuration. */
struct mlx5_diag_engine_plan {
	const struct mlx5_diag_caps *caps;
	const u64 *count_ids;		/* the union of counted ids */
	unsigned int nr_count;
	/* a sampling session's configuration, or NULL */
	const struct mlx5_diag_fw_params *session;
	unsigned int refresh_ms;	/* counting poll period */
};

#if IS_ENABLED(CONFIG_KUNIT)
/* Static but for KUnit (VISIBLE_IF_KUNIT). */
int mlx5_diag_engine_plan(const struct mlx5_diag_engine_plan *in,
			  struct mlx5_diag_fw_params *p, const char **why);
void mlx5_diag_engine_poll(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_disable_params(const struct mlx5_diag_caps *caps,
				     struct mlx5_diag_fw_params *p);
void mlx5_diag_engine_snapshot(struct mlx5_diag_engine *eng, u64 *values,
			       u64 *gen);
unsigned int mlx5_diag_engine_session_due(u64 last, u64 now, bool rtc,
					  u8 log_period, u32 freq_khz,
					  unsigned int slack,
					  unsigned int batch);
#endif

#endif /* _MLX5_DIAG_ENGINE_INT_H */
