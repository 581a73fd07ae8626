/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's own interface between its three files: the state machine
 * (mlx5_diag_engine.c), counting (mlx5_diag_engine_count.c) and sampling
 * sessions (mlx5_diag_engine_session.c). Not for the engine's users, which
 * see mlx5_diag_engine.h. Every function here is called with the engine's
 * lock held.
 */
#ifndef _MLX5_DIAG_ENGINE_INT_H
#define _MLX5_DIAG_ENGINE_INT_H

#include <linux/sizes.h>

#include "mlx5_diag_engine.h"

/* Samples a folded-counting buffer holds: a few polls' worth. */
#define MLX5_DIAG_FOLD_LOG_SLOTS	4

/* The drain outbox: this many bytes of samples per query, at most. */
#define MLX5_DIAG_DRAIN_OUTBOX_BYTES	SZ_128K
/* a sample of every id fits: the 64-bit dialect's entries are 32 bytes */
static_assert(MLX5_DIAG_MAX_IDS * 32 <= MLX5_DIAG_DRAIN_OUTBOX_BYTES);

/* the state machine */
bool mlx5_diag_engine_owned(const struct mlx5_diag_engine *eng);
void mlx5_diag_engine_unmap(struct mlx5_diag_engine *eng);
int mlx5_diag_engine_adopt(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_release(struct mlx5_diag_engine *eng);
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
int mlx5_diag_engine_query_at(struct mlx5_diag_engine *eng, void *out,
			      size_t size, unsigned int index,
			      unsigned int nsamples);
int mlx5_diag_engine_poll_samples(struct mlx5_diag_engine *eng);

/* sampling sessions */
int mlx5_diag_engine_session_ride(struct mlx5_diag_engine *eng, u64 id,
				  const struct mlx5_diag_catalog_entry *e,
				  unsigned int *slot, const char **why);

#endif /* _MLX5_DIAG_ENGINE_INT_H */
