/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The diagnostic engine of one device: the only code that issues
 * SET_DIAGNOSTIC_PARAMS. A state machine (OFF, COUNT, RELEASING, FOREIGN,
 * GONE; see Documentation/driver-api/mlx5-diag-firmware.rst, part 4) over
 * the counted data IDs, and the poller that folds firmware samples into the
 * 64-bit counts perf reads.
 */
#ifndef _MLX5_DIAG_ENGINE_H
#define _MLX5_DIAG_ENGINE_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "mlx5_diag_count.h"
#include "mlx5_diag_fw.h"

enum mlx5_diag_engine_state {
	MLX5_DIAG_ENGINE_OFF,		/* we run nothing */
	MLX5_DIAG_ENGINE_COUNT,		/* firmware runs the counted ids */
	MLX5_DIAG_ENGINE_RELEASING,	/* our disable failed; retried */
	MLX5_DIAG_ENGINE_FOREIGN,	/* another agent holds the engine */
	MLX5_DIAG_ENGINE_GONE,		/* the device was removed */
};

/* A data ID counted on behalf of open events. */
struct mlx5_diag_engine_slot {
	u64 id;
	const struct mlx5_diag_catalog_entry *entry;
	unsigned int users;
	bool in_fw;			/* firmware's configuration has it */
	struct mlx5_diag_count_state cs;
	u64 value;			/* running count, under vlock */
};

struct mlx5_diag_engine_stats {
	u64 polls;
	u64 lost_samples;	/* folded counting: overwritten before a poll */
	u64 counter_resets;
	u64 takeovers;		/* another agent took the engine from us */
	u64 set_failures;
	u64 disable_retries;
};

/* What the planner turns into a firmware configuration. */
struct mlx5_diag_engine_plan {
	const struct mlx5_diag_caps *caps;
	const u64 *count_ids;		/* the union of counted ids */
	unsigned int nr_count;
	/* a sampling session's configuration, or NULL */
	const struct mlx5_diag_fw_params *session;
	unsigned int refresh_ms;	/* counting poll period */
};

struct mlx5_diag_engine {
	struct mlx5_diag_fw *fw;
	struct workqueue_struct *wq;	/* NULL: the owner calls poll() */
	struct mutex lock;
	enum mlx5_diag_engine_state state;
	struct mlx5_diag_engine_slot *slots;	/* caps.max_ids */
	unsigned int users;			/* open events, all slots */
	/* what firmware holds on our behalf; num_ids 0 when nothing */
	struct mlx5_diag_fw_params programmed;
	int *fw_slot;			/* slot of programmed.ids[i], or -1 */
	struct mlx5_diag_fw_params want, queried;
	/* a foreign configuration that a forced open took over */
	struct mlx5_diag_fw_params displaced;
	bool displaced_valid;
	bool takeover_final;		/* an event was scheduled since */
	/* how QUERY_DIAGNOSTIC_COUNTERS reads num_of_samples */
	bool entries_reading, reading_known;
	/* folded (repetitive) counting */
	u64 next_sample;		/* extended sample id expected next */
	unsigned int nslots;
	unsigned int polls_since_check;
	void *out;			/* QUERY_DIAGNOSTIC_COUNTERS outbox */
	size_t outlen;
	struct mlx5_diag_fw_entry *entries;	/* one sample, decoded */
	spinlock_t vlock;
	struct delayed_work poll_work;
	struct mlx5_diag_engine_stats stats;
};

int mlx5_diag_engine_plan(const struct mlx5_diag_engine_plan *in,
			  struct mlx5_diag_fw_params *p, const char **why);
const char *mlx5_diag_engine_state_name(enum mlx5_diag_engine_state state);
unsigned int mlx5_diag_engine_refresh_ms(void);

int mlx5_diag_engine_init(struct mlx5_diag_engine *eng, struct mlx5_diag_fw *fw,
			  struct workqueue_struct *wq);
void mlx5_diag_engine_free(struct mlx5_diag_engine *eng);
int mlx5_diag_engine_count_get(struct mlx5_diag_engine *eng, u64 id,
			       const struct mlx5_diag_catalog_entry *e,
			       bool force, unsigned int *slot, bool *took_over);
void mlx5_diag_engine_count_put(struct mlx5_diag_engine *eng, unsigned int slot,
				bool unscheduled_taker);
void mlx5_diag_engine_scheduled(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_poll(struct mlx5_diag_engine *eng);
u64 mlx5_diag_engine_read(struct mlx5_diag_engine *eng, unsigned int slot);
void mlx5_diag_engine_snapshot(struct mlx5_diag_engine *eng, u64 *values);
void mlx5_diag_engine_detach(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_attach(struct mlx5_diag_engine *eng,
			     struct mlx5_diag_aux_dev *aux);
void mlx5_diag_engine_status(struct mlx5_diag_engine *eng,
			     enum mlx5_diag_engine_state *state,
			     struct mlx5_diag_engine_stats *stats);

#endif /* _MLX5_DIAG_ENGINE_H */
