/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mlx5-diag exporter --dashboard`: a Grafana dashboard of the exporter's
 * metrics, its derived panels generated from metrics.def, as JSON.
 */
#ifndef MLX5_DIAG_DASHBOARD_H
#define MLX5_DIAG_DASHBOARD_H

#include <stddef.h>
#include <stdio.h>

#include "exporter_config.h"

/*
 * dashboard_promql - metrics.def's expression EXPR (times SCALE),
 * compiled by metrics.c (metrics_compile), as PromQL over the exporter's
 * counters: each event the rate of its counter (ns events in ns per
 * second), duration_time 1, which is exact for an expression whose every
 * term has as many events over it as under it (a ratio of increases, an
 * increase per second). Returns 0, or -1 with why in ERR (metrics_compile's
 * refusal, an expression that is not so).
 */
int dashboard_promql(const char *expr, const char *scale, char *out,
		     size_t outlen, char *err, size_t errlen);

/*
 * dashboard_write - the dashboard for settings C (its histogram panel
 * when C has bounds) to OUT. Returns 0, or -1 with the reason on stderr.
 */
int dashboard_write(FILE *out, const struct xcfg *c);

#endif /* MLX5_DIAG_DASHBOARD_H */
