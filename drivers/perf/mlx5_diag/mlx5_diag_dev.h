/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One mlx5_diag device: its PMU, engine, firmware handle and sysfs files.
 * Seen by the PMU, sysfs and driver glue; not by the command layer, the
 * engine or the counting arithmetic.
 */
#ifndef _MLX5_DIAG_DEV_H
#define _MLX5_DIAG_DEV_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>

#include "mlx5_diag_engine.h"
#include "mlx5_diag_fw.h"
#include "mlx5_diag_sysfs.h"

#define MLX5_DIAG_PMU_NAME_LEN		32

/**
 * struct mlx5_diag_dev - a device's PMU
 * @node: in the driver's device list
 * @name: the PMU name, mlx5_diag_<index>
 * @identifier: the provider's identifier (sysfs "function"), copied at probe
 * @firmware_version: the provider's firmware version (sysfs
 *	"firmware_version"), copied at probe
 * @index: n of the name
 * @node_id: NUMA node of the provider's device at probe
 * @attached: a provider's device is bound (under the device list lock)
 * @ever_used: an event was opened; the PMU then stays registered until
 *	module exit or re-attachment (6.12 touches a PMU after ->destroy())
 * @registered: perf_pmu_register() has returned and perf_pmu_unregister()
 *	not begun: only then does event_init admit an event (see
 *	mlx5_diag_pmu_register())
 * @fw: firmware handle
 * @engine: diagnostic engine
 * @pmu: the perf PMU
 * @cpu: the CPU that handles its events (cpumask)
 * @preferred_cpu: where devices spread over the CPUs of their node
 * @cpuhp_node: CPU hotplug instance
 * @txn: per CPU, the device's counts held for a group read or while the
 *	PMU is disabled (mlx5_diag_engine_txn_hold())
 * @sysfs: the device's sysfs files
 * @session_lock: protects @session
 * @session: the sampling session, while its leader exists
 */
struct mlx5_diag_dev {
	struct list_head node;
	char name[MLX5_DIAG_PMU_NAME_LEN];
	char identifier[MLX5_DIAG_IDENTIFIER_LEN];
	char firmware_version[MLX5_DIAG_FW_VERSION_LEN];
	int index;
	int node_id;
	bool attached;
	bool ever_used;
	bool registered;
	struct mlx5_diag_fw fw;
	struct mlx5_diag_engine engine;
	struct pmu pmu;
	int cpu;
	unsigned int preferred_cpu;
	struct hlist_node cpuhp_node;
	struct mlx5_diag_engine_txn __percpu *txn;
	struct mlx5_diag_sysfs sysfs;
	struct mutex session_lock;	/* protects session */
	struct mlx5_diag_session *session;
};

#define to_mlx5_diag_dev(p)	container_of(p, struct mlx5_diag_dev, pmu)

#endif /* _MLX5_DIAG_DEV_H */
