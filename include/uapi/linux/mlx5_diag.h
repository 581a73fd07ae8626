/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User ABI of the mlx5_diag PMU: how perf_event_attr names a diagnostic data
 * ID and its options. The sysfs format/ directory publishes the same fields;
 * the driver builds it from these bit ranges, so this is the one place they
 * are written down.
 */
#ifndef _UAPI_LINUX_MLX5_DIAG_H
#define _UAPI_LINUX_MLX5_DIAG_H

/*
 * attr.config: a 64-bit data ID of the DOCA Telemetry Diagnostics guide.
 * Bits 63:32 name the kind of data, bits 31:0 the instance (port, priority,
 * host, function, PCIe link, bin or tclass). On a device that only speaks
 * the public 16-bit interface, attr.config is a firmware counter id: bits
 * 15:0, bits 63:16 zero. No data ID has bits 63:32 zero, so the two spaces
 * never meet.
 *
 * Each field is a bit range LO..HI (inclusive) of one attr word.
 */
#define MLX5_DIAG_DATA_ID_LO		0
#define MLX5_DIAG_DATA_ID_HI		63
#define MLX5_DIAG_KIND_LO		32
#define MLX5_DIAG_KIND_HI		63
#define MLX5_DIAG_PORT_LO		0
#define MLX5_DIAG_PORT_HI		7
#define MLX5_DIAG_PRIO_LO		8
#define MLX5_DIAG_PRIO_HI		11
#define MLX5_DIAG_HOST_LO		0
#define MLX5_DIAG_HOST_HI		7
#define MLX5_DIAG_FUNCTION_LO		0
#define MLX5_DIAG_FUNCTION_HI		15
#define MLX5_DIAG_LINK_XX_LO		0
#define MLX5_DIAG_LINK_XX_HI		7
#define MLX5_DIAG_LINK_YY_LO		8
#define MLX5_DIAG_LINK_YY_HI		15
#define MLX5_DIAG_LINK_ZZ_LO		16
#define MLX5_DIAG_LINK_ZZ_HI		23
#define MLX5_DIAG_TCLASS_LO		16
#define MLX5_DIAG_TCLASS_HI		31
#define MLX5_DIAG_BIN_LO		16
#define MLX5_DIAG_BIN_HI		31
#define MLX5_DIAG_FW_COUNTER_LO		0
#define MLX5_DIAG_FW_COUNTER_HI		15

#define MLX5_DIAG_KIND_SHIFT		MLX5_DIAG_KIND_LO
#define MLX5_DIAG_FW_COUNTER_MASK	0xffffULL

/* attr.config1: options. */
#define MLX5_DIAG_MODE_LO		0	/* sampling mode */
#define MLX5_DIAG_MODE_HI		1
#define MLX5_DIAG_MODE_DEFAULT		0
#define MLX5_DIAG_MODE_SINGLE		1
#define MLX5_DIAG_MODE_REPETITIVE	2
#define MLX5_DIAG_MODE_ON_DEMAND	3
#define MLX5_DIAG_SYNC_LO		2	/* synchronized start */
#define MLX5_DIAG_SYNC_HI		2
#define MLX5_DIAG_CLEAR_LO		3	/* clear at each sample */
#define MLX5_DIAG_CLEAR_HI		3
#define MLX5_DIAG_OUT_FORMAT_LO		4	/* output format 0..2 */
#define MLX5_DIAG_OUT_FORMAT_HI		5
/* Take the engine even if another agent (DOCA over fwctl) has it enabled. */
#define MLX5_DIAG_FORCE_LO		63
#define MLX5_DIAG_FORCE_HI		63

#define MLX5_DIAG_CFG1_SYNC		(1ULL << MLX5_DIAG_SYNC_LO)
#define MLX5_DIAG_CFG1_CLEAR		(1ULL << MLX5_DIAG_CLEAR_LO)
/* Bits that only a sampling event may set. */
#define MLX5_DIAG_CFG1_SAMPLING_MASK	0x3fULL
#define MLX5_DIAG_CFG1_FORCE_OWNERSHIP	(1ULL << MLX5_DIAG_FORCE_LO)

/* attr.config2: the firmware sample period in nanoseconds (sampling only). */
#define MLX5_DIAG_PERIOD_NS_LO		0
#define MLX5_DIAG_PERIOD_NS_HI		63

#endif /* _UAPI_LINUX_MLX5_DIAG_H */
