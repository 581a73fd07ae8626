/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A clock read in nanoseconds, for every subcommand: the decode loop's
 * progress, the recorders' pacing, the exporter's schedule and stamps.
 */
#ifndef MLX5_DIAG_CLOCK_NS_H
#define MLX5_DIAG_CLOCK_NS_H

#include <stdint.h>
#include <time.h>

/* The time of clock CLK (CLOCK_MONOTONIC, CLOCK_REALTIME) in ns. */
uint64_t clock_now_ns(clockid_t clk);

#endif
