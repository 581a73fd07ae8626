/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API differences mlx5_diag meets between the kernels it builds
 * against (Debian's 6.1 and 6.12), in one place.
 */
#ifndef _MLX5_DIAG_COMPAT_H
#define _MLX5_DIAG_COMPAT_H

#include <linux/perf_event.h>

/*
 * What the KUnit suites reach, VISIBLE_IF_KUNIT and EXPORT_SYMBOL_IF_KUNIT,
 * come from <kunit/visibility.h> (Linux 6.2); before it the Makefile
 * defines both as for a kernel without KUnit: static, nothing exported.
 */
#ifndef VISIBLE_IF_KUNIT
#include <kunit/visibility.h>
#endif

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
