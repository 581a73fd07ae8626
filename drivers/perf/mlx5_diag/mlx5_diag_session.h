/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling sessions of the mlx5_diag PMU: a pinned hrtimer paces, sleepable
 * work drains the firmware's cyclic buffer through the engine, and the
 * records are copied into the perf AUX area on the event's CPU with
 * interrupts off.
 */
#ifndef _MLX5_DIAG_SESSION_H
#define _MLX5_DIAG_SESSION_H

#include <linux/perf_event.h>

#include "mlx5_diag_engine.h"

struct mlx5_diag_session;

/* What a session leader asks for (validated by the PMU). */
struct mlx5_diag_session_req {
	struct mlx5_diag_session_opts opts;
	u8 out_format;
	bool force;		/* take the engine from another agent */
	u64 period_ns;		/* requested firmware period */
};

int mlx5_diag_session_create(struct mlx5_diag_engine *eng, const char *name,
			     const char *identifier, struct perf_event *leader,
			     const struct mlx5_diag_session_req *req,
			     struct mlx5_diag_session **sp);
void mlx5_diag_session_destroy(struct mlx5_diag_session *s);
bool mlx5_diag_session_sync(struct mlx5_diag_session *s);
void mlx5_diag_session_add(struct mlx5_diag_session *s);
void mlx5_diag_session_start(struct mlx5_diag_session *s);
void mlx5_diag_session_stop(struct mlx5_diag_session *s);
void mlx5_diag_session_del(struct mlx5_diag_session *s);
void mlx5_diag_session_detach(struct mlx5_diag_session *s);
void mlx5_diag_session_moving(struct mlx5_diag_session *s, bool moving);
void *mlx5_diag_session_setup_aux(struct mlx5_diag_session *s, void **pages,
				  int nr_pages, bool overwrite);
void mlx5_diag_session_free_aux(void *aux);
int mlx5_diag_session_init(void);
void mlx5_diag_session_exit(void);

#endif /* _MLX5_DIAG_SESSION_H */
