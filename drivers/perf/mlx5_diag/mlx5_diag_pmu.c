// SPDX-License-Identifier: GPL-2.0
/*
 * perf glue of the mlx5_diag PMU: event validation, the perf callbacks
 * (which only read the engine's cached counts: they run in atomic context
 * and never issue a firmware command), registration and CPU hotplug.
 */
#include <linux/capability.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_dev.h"
#include "mlx5_diag_fields.h"
#include "mlx5_diag_pmu.h"

static bool mlx5_diag_force_ownership;
module_param_named(force_ownership, mlx5_diag_force_ownership, bool, 0644);
MODULE_PARM_DESC(force_ownership,
		 "Take the diagnostic engine even when another agent (DOCA over fwctl, a crashed owner) has it enabled");

static enum cpuhp_state mlx5_diag_cpuhp_state;

/* The transaction perf runs on this CPU (PERF_PMU_TXN_*), if any. */
static DEFINE_PER_CPU(unsigned int, mlx5_diag_txn_flags);

/* What an open event holds. */
struct mlx5_diag_event {
	unsigned int slot;
	bool took_over;		/* its open displaced another agent */
	bool scheduled;		/* it was added to a CPU at least once */
};

static int mlx5_diag_refuse(struct mlx5_diag_dev *dd, int err, const char *why,
			    u64 config)
{
	pr_info_ratelimited("%s: event 0x%llx refused: %s\n", dd->name, config,
			    why);
	return err;
}

/*
 * A group may hold events of this PMU and software events, on the PMU's
 * CPU. perf core checks the same later, after event_init has run; checking
 * here keeps a refused group away from the firmware.
 */
static int mlx5_diag_event_validate_group(struct mlx5_diag_dev *dd,
					  struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (leader == event)
		return 0;
	if (leader->pmu != event->pmu && !is_software_event(leader))
		return mlx5_diag_refuse(dd, -EINVAL,
					"a group holds events of this PMU and software events only",
					event->attr.config);
	if (leader->cpu != READ_ONCE(dd->cpu))
		return mlx5_diag_refuse(dd, -EINVAL,
					"a group's events must be on the PMU's CPU (cpumask)",
					event->attr.config);
	return 0;
}

/*
 * Check an event completely before any firmware command: attributes, the
 * catalog, the device's capabilities and the group.
 */
static int mlx5_diag_event_validate(struct mlx5_diag_dev *dd,
				    struct perf_event *event,
				    const struct mlx5_diag_catalog_entry **entry,
				    bool *force)
{
	const struct perf_event_attr *attr = &event->attr;
	const struct mlx5_diag_catalog_entry *e;
	u64 id = attr->config;
	const char *why;
	bool fw16;
	int ret;

	if (is_sampling_event(event) || attr->aux_output)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"sampling is not supported; count with perf stat",
					id);
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0)
		return mlx5_diag_refuse(dd, -EINVAL,
					"per-task events are not supported; use -a or -C",
					id);
	if (attr->config1 & ~mlx5_diag_fields_known_bits(MLX5_DIAG_WORD_CONFIG1))
		return mlx5_diag_refuse(dd, -EINVAL,
					"reserved bits set in config1", id);
	if (mlx5_diag_attr_field(attr, MLX5_DIAG_F_MODE) ||
	    mlx5_diag_attr_field(attr, MLX5_DIAG_F_SYNC) ||
	    mlx5_diag_attr_field(attr, MLX5_DIAG_F_CLEAR) ||
	    mlx5_diag_attr_field(attr, MLX5_DIAG_F_OUT_FORMAT))
		return mlx5_diag_refuse(dd, -EINVAL,
					"mode, sync, clear and out_format are sampling options",
					id);
	if (attr->config2)
		return mlx5_diag_refuse(dd, -EINVAL,
					"period_ns is a sampling option", id);
	if (mlx5_diag_attr_config3(attr))
		return mlx5_diag_refuse(dd, -EINVAL,
					"config3 is not used by this PMU", id);
	e = mlx5_diag_catalog_find(id);
	if (!e)
		return mlx5_diag_refuse(dd, -EINVAL, "unknown data ID", id);
	fw16 = e->group == MLX5_DIAG_GRP_FW_COUNTER;
	if (fw16 == dd->fw.caps.model64 ||
	    !mlx5_diag_fw_cap_lookup(&dd->fw.caps, id))
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"data ID not supported by this device",
					id);
	ret = mlx5_diag_catalog_check_instance(e, id, &dd->fw.caps.limits, &why);
	if (ret == -ERANGE) {
		pr_info_ratelimited("%s: event 0x%llx refused: %s out of range\n",
				    dd->name, id, why);
		return -EINVAL;
	}
	if (ret)
		return mlx5_diag_refuse(dd, ret, why, id);
	if (e->class == MLX5_DIAG_CLASS_STAT_MAX ||
	    e->class == MLX5_DIAG_CLASS_STAT_MIN)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"max/min statistics have no counting meaning; sample them",
					id);
	ret = mlx5_diag_event_validate_group(dd, event);
	if (ret)
		return ret;
	*force = READ_ONCE(mlx5_diag_force_ownership);
	if (mlx5_diag_attr_field(attr, MLX5_DIAG_F_FORCE)) {
		if (!perfmon_capable())
			return mlx5_diag_refuse(dd, -EACCES,
						"force=1 takes the engine from another agent and needs CAP_PERFMON",
						id);
		*force = true;
	}
	*entry = e;
	return 0;
}

static void mlx5_diag_event_destroy(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;

	mlx5_diag_engine_count_put(&dd->engine, pe->slot,
				   pe->took_over && !pe->scheduled);
	kfree(pe);
}

static int mlx5_diag_event_init(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	const struct mlx5_diag_catalog_entry *e;
	struct mlx5_diag_event *pe;
	bool force;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	ret = mlx5_diag_event_validate(dd, event, &e, &force);
	if (ret)
		return ret;
	/*
	 * perf's first try carries exclude_guest and falls back without it:
	 * refuse that without a log line. This comes after validation: perf
	 * 6.12 stat loops forever when a retry without exclude_guest meets
	 * EOPNOTSUPP.
	 */
	if (event_has_any_exclude_flag(event))
		return -EINVAL;
	pe = kzalloc(sizeof(*pe), GFP_KERNEL);
	if (!pe)
		return -ENOMEM;
	/* from here on the PMU is kept registered until module exit */
	WRITE_ONCE(dd->ever_used, true);
	ret = mlx5_diag_engine_count_get(&dd->engine, event->attr.config, e,
					 force, &pe->slot, &pe->took_over);
	if (ret) {
		kfree(pe);
		return ret;
	}
	event->pmu_private = pe;
	event->cpu = READ_ONCE(dd->cpu);
	event->destroy = mlx5_diag_event_destroy;
	return 0;
}

static void mlx5_diag_event_read(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;
	struct hw_perf_event *hwc = &event->hw;
	u64 now, prev;

	if (__this_cpu_read(mlx5_diag_txn_flags) & PERF_PMU_TXN_READ)
		now = this_cpu_ptr(dd->snap)[pe->slot];
	else
		now = mlx5_diag_engine_read(&dd->engine, pe->slot);
	prev = local64_xchg(&hwc->prev_count, now);
	local64_add(now - prev, &event->count);
}

static void mlx5_diag_event_start(struct perf_event *event, int flags)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;

	event->hw.state = 0;
	local64_set(&event->hw.prev_count,
		    mlx5_diag_engine_read(&dd->engine, pe->slot));
}

static void mlx5_diag_event_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	mlx5_diag_event_read(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int mlx5_diag_event_add(struct perf_event *event, int flags)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;

	pe->scheduled = true;
	mlx5_diag_engine_scheduled(&dd->engine);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		mlx5_diag_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void mlx5_diag_event_del(struct perf_event *event, int flags)
{
	mlx5_diag_event_stop(event, PERF_EF_UPDATE);
}

/*
 * A group read (PERF_PMU_TXN_READ) reads every sibling from one snapshot of
 * the counts, so all of them belong to the same poll. Runs with interrupts
 * off on the events' CPU.
 */
static void mlx5_diag_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(pmu);

	__this_cpu_write(mlx5_diag_txn_flags, flags);
	if (flags & PERF_PMU_TXN_READ)
		mlx5_diag_engine_snapshot(&dd->engine, this_cpu_ptr(dd->snap));
}

static int mlx5_diag_commit_txn(struct pmu *pmu)
{
	__this_cpu_write(mlx5_diag_txn_flags, 0);
	return 0;
}

static void mlx5_diag_cancel_txn(struct pmu *pmu)
{
	__this_cpu_write(mlx5_diag_txn_flags, 0);
}

/* ---- CPU hotplug, registration ---- */

static int mlx5_diag_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct mlx5_diag_dev *dd = hlist_entry_safe(node, struct mlx5_diag_dev,
						    cpuhp_node);

	/*
	 * While the instance is being added (PMU not yet registered) prefer
	 * the device's spread CPU; afterwards only fill a vacancy.
	 */
	if (READ_ONCE(dd->cpu) >= nr_cpu_ids ||
	    (!dd->pmu.type && cpu == dd->preferred_cpu))
		WRITE_ONCE(dd->cpu, cpu);
	return 0;
}

static int mlx5_diag_cpu_teardown(unsigned int cpu, struct hlist_node *node)
{
	struct mlx5_diag_dev *dd = hlist_entry_safe(node, struct mlx5_diag_dev,
						    cpuhp_node);
	unsigned int target;

	if (cpu != dd->cpu)
		return 0;
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target < nr_cpu_ids)
		perf_pmu_migrate_context(&dd->pmu, cpu, target);
	WRITE_ONCE(dd->cpu, target);
	return 0;
}

int mlx5_diag_pmu_register(struct mlx5_diag_dev *dd)
{
	int ret;

	dd->snap = __alloc_percpu(dd->fw.caps.max_ids * sizeof(u64),
				  __alignof__(u64));
	if (!dd->snap)
		return -ENOMEM;
	ret = mlx5_diag_sysfs_build(dd);
	if (ret)
		goto err_snap;
	dd->pmu = (struct pmu) {
		/*
		 * No .parent: the PMU may outlive the auxiliary device (events
		 * open at removal), and a parent's release code would then run
		 * from a provider module that may be gone.
		 */
		.module = THIS_MODULE,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups = dd->sysfs.groups,
		.event_init = mlx5_diag_event_init,
		.add = mlx5_diag_event_add,
		.del = mlx5_diag_event_del,
		.start = mlx5_diag_event_start,
		.stop = mlx5_diag_event_stop,
		.read = mlx5_diag_event_read,
		.start_txn = mlx5_diag_start_txn,
		.commit_txn = mlx5_diag_commit_txn,
		.cancel_txn = mlx5_diag_cancel_txn,
	};

	/*
	 * Devices spread over the CPUs of their node; the online callback, run
	 * for every online CPU here, takes the preferred one or the first.
	 */
	dd->preferred_cpu = cpumask_local_spread(dd->index, dd->node_id);
	dd->cpu = nr_cpu_ids;
	ret = cpuhp_state_add_instance(mlx5_diag_cpuhp_state, &dd->cpuhp_node);
	if (ret)
		goto err_sysfs;
	ret = perf_pmu_register(&dd->pmu, dd->name, -1);
	if (ret)
		goto err_cpuhp;
	return 0;

err_cpuhp:
	cpuhp_state_remove_instance_nocalls(mlx5_diag_cpuhp_state,
					    &dd->cpuhp_node);
err_sysfs:
	mlx5_diag_sysfs_free(dd);
err_snap:
	free_percpu(dd->snap);
	return ret;
}

/* Only for a PMU that never had an event, or at module exit. */
void mlx5_diag_pmu_unregister(struct mlx5_diag_dev *dd)
{
	perf_pmu_unregister(&dd->pmu);
	cpuhp_state_remove_instance_nocalls(mlx5_diag_cpuhp_state,
					    &dd->cpuhp_node);
	mlx5_diag_sysfs_free(dd);
	free_percpu(dd->snap);
}

int mlx5_diag_pmu_init(void)
{
	int ret;

	mlx5_diag_sysfs_init();
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/mlx5_diag:online",
				      mlx5_diag_cpu_online,
				      mlx5_diag_cpu_teardown);
	if (ret < 0)
		return ret;
	mlx5_diag_cpuhp_state = ret;
	return 0;
}

void mlx5_diag_pmu_exit(void)
{
	cpuhp_remove_multi_state(mlx5_diag_cpuhp_state);
}
