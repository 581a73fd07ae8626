/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API differences mlx5_diag meets between the kernels it builds
 * against (Debian's 6.1 and 6.12), in one place.
 */
#ifndef _MLX5_DIAG_COMPAT_H
#define _MLX5_DIAG_COMPAT_H

#include <linux/perf_event.h>

/* perf_event_attr.config3 came with attr size 8 (Linux 6.3). */
static inline u64 mlx5_diag_attr_config3(const struct perf_event_attr *attr)
{
#ifdef PERF_ATTR_SIZE_VER8
	return attr->config3;
#else
	return 0;
#endif
}

#endif /* _MLX5_DIAG_COMPAT_H */
