/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User ABI of the mlx5_diag PMU: how perf_event_attr names a diagnostic data
 * ID and its options. The sysfs format/ directory publishes the same fields.
 */
#ifndef _UAPI_LINUX_MLX5_DIAG_H
#define _UAPI_LINUX_MLX5_DIAG_H

/*
 * attr.config: a 64-bit DOCA data ID. Bits 63:32 name the kind of data,
 * bits 31:0 the instance (port, priority, host, function, PCIe link, bin or
 * tclass). On a device that only speaks the public 16-bit interface,
 * attr.config is a firmware counter id: bits 15:0, bits 63:16 zero. No data
 * ID has bits 63:32 zero, so the two spaces never meet.
 */
#define MLX5_DIAG_KIND_SHIFT		32
#define MLX5_DIAG_FW_COUNTER_MASK	0xffffULL

/* attr.config1: options. */
#define MLX5_DIAG_CFG1_MODE_SHIFT	0	/* 2 bits: sampling mode */
#define MLX5_DIAG_CFG1_MODE_MASK	0x3ULL
#define MLX5_DIAG_MODE_DEFAULT		0
#define MLX5_DIAG_MODE_SINGLE		1
#define MLX5_DIAG_MODE_REPETITIVE	2
#define MLX5_DIAG_MODE_ON_DEMAND	3
#define MLX5_DIAG_CFG1_SYNC		(1ULL << 2)	/* synchronized start */
#define MLX5_DIAG_CFG1_CLEAR		(1ULL << 3)	/* clear at each sample */
#define MLX5_DIAG_CFG1_FORMAT_SHIFT	4	/* 2 bits: output format 0..2 */
#define MLX5_DIAG_CFG1_FORMAT_MASK	0x3ULL
/* Bits that only a sampling event may set. */
#define MLX5_DIAG_CFG1_SAMPLING_MASK	0x3fULL
/* Take the engine even if another agent (DOCA over fwctl) has it enabled. */
#define MLX5_DIAG_CFG1_FORCE_OWNERSHIP	(1ULL << 63)

/* attr.config2: the firmware sample period in nanoseconds (sampling only). */

#endif /* _UAPI_LINUX_MLX5_DIAG_H */
