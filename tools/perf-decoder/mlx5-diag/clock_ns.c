// SPDX-License-Identifier: GPL-2.0
/*
 * A clock read in nanoseconds (clock_ns.h).
 */
#define _GNU_SOURCE
#include "clock_ns.h"

uint64_t clock_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}
