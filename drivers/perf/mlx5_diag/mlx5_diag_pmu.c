// SPDX-License-Identifier: GPL-2.0
/*
 * perf glue of the mlx5_diag PMU: event validation, the perf callbacks
 * (which only read the engine's cached counts and hand sampling sessions
 * to mlx5_diag_session.c: they run in atomic context and never issue a
 * firmware command), registration and CPU hotplug.
 */
#include <linux/capability.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <uapi/linux/mlx5_diag.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_dev.h"
#include "mlx5_diag_fields.h"
#include "mlx5_diag_pmu.h"
#include "mlx5_diag_session.h"

static bool mlx5_diag_force_ownership;
module_param_named(force_ownership, mlx5_diag_force_ownership, bool, 0644);
MODULE_PARM_DESC(force_ownership,
		 "Take the diagnostic engine even when another agent (DOCA over fwctl, a crashed owner) has it enabled, for opens by CAP_PERFMON callers as force=1");

static enum cpuhp_state mlx5_diag_cpuhp_state;

/*
 * What an open event holds. A counting event of a caller without
 * CAP_PERFMON is deferred: perf core may still refuse it after event_init
 * (perf_allow_cpu() at perf_event_paranoid > 0), so its data ID joins the
 * engine only from its first pmu->add on, in get_work; until then it
 * counts nothing.
 */
struct mlx5_diag_event {
	struct perf_event *event;
	unsigned int slot;
	bool took_over;		/* its open displaced another agent */
	bool scheduled;		/* it was added to a CPU at least once */
	bool in_session;	/* a session's leader or member */
	bool deferred;		/* the engine is joined by get_work */
	bool counting;		/* slot and join are set (release/acquire) */
	struct mlx5_diag_engine_join join;	/* where it joined the count */
	const struct mlx5_diag_catalog_entry *entry;
	struct work_struct get_work;
	struct mlx5_diag_session *session;	/* the leader's */
};

/* How an event takes part: counting alone, or in a sampling session. */
enum mlx5_diag_event_role {
	MLX5_DIAG_ROLE_COUNT,
	MLX5_DIAG_ROLE_LEADER,
	MLX5_DIAG_ROLE_MEMBER,
};

static struct mlx5_diag_session *
mlx5_diag_event_session(struct perf_event *event)
{
	struct mlx5_diag_event *pe = event->pmu_private;

	return pe ? pe->session : NULL;
}

static enum mlx5_diag_event_role mlx5_diag_event_role(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (leader == event)
		return is_sampling_event(event) ? MLX5_DIAG_ROLE_LEADER :
						  MLX5_DIAG_ROLE_COUNT;
	if (leader->pmu == event->pmu && mlx5_diag_event_session(leader))
		return MLX5_DIAG_ROLE_MEMBER;
	return MLX5_DIAG_ROLE_COUNT;
}

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

	if (attr->aux_output)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"aux_output is not supported", id);
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0)
		return mlx5_diag_refuse(dd, -EINVAL,
					"per-task events are not supported; use -a or -C",
					id);
	if (attr->config1 & ~mlx5_diag_fields_known_bits(MLX5_DIAG_WORD_CONFIG1))
		return mlx5_diag_refuse(dd, -EINVAL,
					"reserved bits set in config1", id);
	if (mlx5_diag_event_role(event) != MLX5_DIAG_ROLE_LEADER &&
	    ((attr->config1 & MLX5_DIAG_CFG1_SAMPLING_MASK) || attr->config2))
		return mlx5_diag_refuse(dd, -EINVAL,
					"mode, sync, clear, out_format, ts_source and period_ns are options of a sampling session's leader",
					id);
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
	if (mlx5_diag_event_role(event) == MLX5_DIAG_ROLE_COUNT &&
	    (e->class == MLX5_DIAG_CLASS_STAT_MAX ||
	     e->class == MLX5_DIAG_CLASS_STAT_MIN))
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"max/min statistics have no counting meaning; sample them",
					id);
	ret = mlx5_diag_event_validate_group(dd, event);
	if (ret)
		return ret;
	if (mlx5_diag_event_role(event) == MLX5_DIAG_ROLE_MEMBER) {
		struct mlx5_diag_session *s =
			mlx5_diag_event_session(event->group_leader);

		if (mlx5_diag_session_sync(s) &&
		    !mlx5_diag_fw_cap_lookup(&dd->fw.caps, id)->sync)
			return mlx5_diag_refuse(dd, -EOPNOTSUPP,
						"the session has sync start, which this data ID does not support",
						id);
	}
	/* the module parameter forces for those who could ask force=1 */
	*force = READ_ONCE(mlx5_diag_force_ownership) && perfmon_capable();
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

/* A session leader's options, against the device's capabilities. */
static int mlx5_diag_leader_options(struct mlx5_diag_dev *dd,
				    struct perf_event *event,
				    struct mlx5_diag_session_req *req)
{
	const struct perf_event_attr *attr = &event->attr;
	const struct mlx5_diag_caps *caps = &dd->fw.caps;
	u64 id = attr->config;

	if (attr->freq)
		return mlx5_diag_refuse(dd, -EINVAL,
					"frequency mode: give the sample period in ns (perf record -c, or period_ns)",
					id);
	switch (mlx5_diag_attr_field(attr, MLX5_DIAG_F_MODE)) {
	case MLX5_DIAG_MODE_DEFAULT:
	case MLX5_DIAG_MODE_REPETITIVE:
		req->opts.mode = MLX5_DIAG_FW_REPETITIVE;
		if (!caps->repetitive)
			return mlx5_diag_refuse(dd, -EOPNOTSUPP,
						"the device has no repetitive mode",
						id);
		break;
	case MLX5_DIAG_MODE_SINGLE:
		req->opts.mode = MLX5_DIAG_FW_SINGLE;
		if (!caps->single)
			return mlx5_diag_refuse(dd, -EOPNOTSUPP,
						"the device has no single mode",
						id);
		break;
	default:
		return mlx5_diag_refuse(dd, -EINVAL,
					"on-demand is not a sampling mode (mode=1 single, mode=2 repetitive)",
					id);
	}
	req->opts.sync = mlx5_diag_attr_field(attr, MLX5_DIAG_F_SYNC);
	req->opts.clear = mlx5_diag_attr_field(attr, MLX5_DIAG_F_CLEAR);
	req->opts.rtc = mlx5_diag_attr_field(attr, MLX5_DIAG_F_TS_SOURCE);
	req->out_format = mlx5_diag_attr_field(attr, MLX5_DIAG_F_OUT_FORMAT);
	req->period_ns = attr->config2 ?: attr->sample_period;
	if (req->period_ns > mlx5_diag_engine_session_max_period_ns(caps)) {
		pr_info_ratelimited("%s: event 0x%llx refused: period %llu ns is above the longest the device takes, %llu ns\n",
				    dd->name, id, req->period_ns,
				    mlx5_diag_engine_session_max_period_ns(caps));
		return -EINVAL;
	}
	if (req->opts.clear && !req->opts.sync)
		return mlx5_diag_refuse(dd, -EINVAL, "clear needs sync", id);
	/* public firmware has no sync bits: each counter's own bit decides */
	if (req->opts.sync && caps->model64 && !caps->sync_start)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"the device has no synchronized start",
					id);
	if (req->opts.sync && !mlx5_diag_fw_cap_lookup(caps, id)->sync)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"sync start is not supported by this data ID",
					id);
	if (req->opts.clear &&
	    mlx5_diag_fw_clear_known(&dd->fw) == MLX5_DIAG_CAP_NO)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"the device has no data clear (caps/clear)",
					id);
	if (req->out_format > MLX5_DIAG_FORMAT_2)
		return mlx5_diag_refuse(dd, -EINVAL,
					"out_format is 0, 1 or 2", id);
	if (req->opts.rtc && !caps->rtc)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"the device offers no RTC timestamp source",
					id);
	if (req->opts.rtc && READ_ONCE(dd->fw.rtc_still))
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"the device's RTC timestamps stand still (engine/rtc_still)",
					id);
	return 0;
}

/*
 * The device's session goes with its leader. Under the session lock
 * throughout: a removal or CPU hotplug of the device waits for it.
 */
static void mlx5_diag_pmu_session_destroy(struct mlx5_diag_dev *dd,
					  struct mlx5_diag_session *s)
{
	mutex_lock(&dd->session_lock);
	mlx5_diag_session_destroy(s);
	dd->session = NULL;
	mutex_unlock(&dd->session_lock);
}

static void mlx5_diag_event_destroy(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;

	if (pe->deferred)
		cancel_work_sync(&pe->get_work);
	if (pe->session)
		mlx5_diag_pmu_session_destroy(dd, pe->session);
	if (pe->in_session)
		mlx5_diag_engine_session_put(&dd->engine, pe->slot);
	else if (pe->counting)
		mlx5_diag_engine_count_put(&dd->engine, pe->slot,
					   pe->took_over && !pe->scheduled);
	kfree(pe);
}

/* A deferred event joins the engine, after perf core's checks. Sleeps. */
static void mlx5_diag_event_get_work(struct work_struct *work)
{
	struct mlx5_diag_event *pe = container_of(work, struct mlx5_diag_event,
						  get_work);
	struct perf_event *event = pe->event;
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	int ret;

	ret = mlx5_diag_engine_count_get(&dd->engine, event->attr.config,
					 pe->entry, false, &pe->slot,
					 &pe->took_over, &pe->join);
	if (ret) {
		pr_info_ratelimited("%s: event 0x%llx counts nothing: its data ID could not be counted (%d)\n",
				    dd->name, event->attr.config, ret);
		return;
	}
	/* slot and join, then counting: see mlx5_diag_event_value() */
	smp_store_release(&pe->counting, true);
}

static int mlx5_diag_event_init(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_session_req req = {};
	const struct mlx5_diag_catalog_entry *e;
	enum mlx5_diag_event_role role;
	struct mlx5_diag_event *pe;
	bool force, privileged;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* pairs with the release in mlx5_diag_pmu_register() */
	if (!smp_load_acquire(&dd->registered))
		return mlx5_diag_refuse(dd, -ENODEV,
					"the PMU is being registered or unregistered",
					event->attr.config);
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
	role = mlx5_diag_event_role(event);
	/*
	 * perf core checks perf_allow_cpu() only after event_init, and a
	 * module can make that check neither (perf_event_paranoid and the
	 * LSM hook are not exported) nor undo a firmware command: a caller
	 * without CAP_PERFMON gets no session (the whole engine and megabytes
	 * of buffers), and its counting event joins the engine at its first
	 * pmu->add, which perf core reaches only past its checks.
	 */
	privileged = perfmon_capable();
	if (role != MLX5_DIAG_ROLE_COUNT && !privileged)
		return mlx5_diag_refuse(dd, -EACCES,
					"a sampling session takes the whole engine and needs CAP_PERFMON",
					event->attr.config);
	if (role == MLX5_DIAG_ROLE_LEADER) {
		ret = mlx5_diag_leader_options(dd, event, &req);
		if (ret)
			return ret;
		req.force = force;
	}
	pe = kzalloc(sizeof(*pe), GFP_KERNEL);
	if (!pe)
		return -ENOMEM;
	pe->event = event;
	pe->entry = e;
	INIT_WORK(&pe->get_work, mlx5_diag_event_get_work);
	/* from here on the PMU is kept registered until module exit */
	WRITE_ONCE(dd->ever_used, true);
	if (!privileged) {
		/* ordered against the removal's check of ever_used */
		if (mlx5_diag_engine_gone(&dd->engine)) {
			ret = mlx5_diag_refuse(dd, -ENODEV, "device removed",
					       event->attr.config);
			goto err_free;
		}
		pe->deferred = true;
		goto done;
	}
	if (role == MLX5_DIAG_ROLE_LEADER) {
		ret = mlx5_diag_session_create(&dd->engine, dd->name,
					       dd->identifier, event, &req,
					       &pe->session);
		if (ret)
			goto err_free;
		mutex_lock(&dd->session_lock);
		dd->session = pe->session;
		mutex_unlock(&dd->session_lock);
	}
	pe->in_session = role != MLX5_DIAG_ROLE_COUNT;
	if (pe->in_session)
		ret = mlx5_diag_engine_session_add(&dd->engine,
						   event->attr.config, e,
						   &pe->slot);
	else
		ret = mlx5_diag_engine_count_get(&dd->engine,
						 event->attr.config, e, force,
						 &pe->slot, &pe->took_over,
						 &pe->join);
	if (ret)
		goto err_session;
	pe->counting = true;
done:
	event->pmu_private = pe;
	event->cpu = READ_ONCE(dd->cpu);
	event->destroy = mlx5_diag_event_destroy;
	return 0;

err_session:
	if (pe->session)
		mlx5_diag_pmu_session_destroy(dd, pe->session);
err_free:
	kfree(pe);
	return ret;
}

/* What the event counted since it joined the engine. Atomic. */
static u64 mlx5_diag_event_value(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;

	/* counting, then slot and join: see mlx5_diag_event_get_work() */
	if (!smp_load_acquire(&pe->counting))
		return 0;
	return mlx5_diag_engine_txn_read(&dd->engine, this_cpu_ptr(dd->txn),
					 pe->slot, &pe->join);
}

static void mlx5_diag_event_read(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 now, prev;

	now = mlx5_diag_event_value(event);
	prev = local64_xchg(&hwc->prev_count, now);
	local64_add(now - prev, &event->count);
}

static void mlx5_diag_event_start(struct perf_event *event, int flags)
{
	struct mlx5_diag_event *pe = event->pmu_private;

	event->hw.state = 0;
	local64_set(&event->hw.prev_count, mlx5_diag_event_value(event));
	if (pe->session)
		mlx5_diag_session_start(pe->session);
}

static void mlx5_diag_event_stop(struct perf_event *event, int flags)
{
	struct mlx5_diag_event *pe = event->pmu_private;
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	mlx5_diag_event_read(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (pe->session)
		mlx5_diag_session_stop(pe->session);
}

static int mlx5_diag_event_add(struct perf_event *event, int flags)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_event *pe = event->pmu_private;

	if (pe->deferred && !pe->scheduled)
		queue_work(system_unbound_wq, &pe->get_work);
	pe->scheduled = true;
	mlx5_diag_engine_scheduled(&dd->engine);
	if (pe->session)
		mlx5_diag_session_add(pe->session);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		mlx5_diag_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void mlx5_diag_event_del(struct perf_event *event, int flags)
{
	struct mlx5_diag_event *pe = event->pmu_private;

	mlx5_diag_event_stop(event, PERF_EF_UPDATE);
	if (pe->session)
		mlx5_diag_session_del(pe->session);
}

/*
 * PERF_EVENT_IOC_PERIOD: a session leader's new firmware period, in ns, at
 * most the longest the device takes.
 */
static int mlx5_diag_check_period(struct perf_event *event, u64 value)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	u64 max = mlx5_diag_engine_session_max_period_ns(&dd->fw.caps);

	if (!mlx5_diag_event_session(event) || !value)
		return -EINVAL;
	if (value > max) {
		pr_info_ratelimited("%s: period %llu ns refused: above the longest the device takes, %llu ns\n",
				    dd->name, value, max);
		return -EINVAL;
	}
	/*
	 * The drain places slot-numbered samples by the run's one period: on
	 * a device seen numbering so, a change even in a run's first lap
	 * would leave its later laps unplaceable.
	 */
	if (READ_ONCE(dd->fw.slot_ids)) {
		pr_info_ratelimited("%s: period change refused: the firmware numbers its samples by slot index, which only a constant period tells apart (engine/slot_ids)\n",
				    dd->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The AUX area: a session leader's only (mlx5_diag_session_setup_aux()). */
static void *mlx5_diag_setup_aux(struct perf_event *event, void **pages,
				 int nr_pages, bool overwrite)
{
	struct mlx5_diag_session *s = mlx5_diag_event_session(event);

	if (!s || event->group_leader != event) {
		pr_info_ratelimited("%s: AUX area refused: only a sampling session's leader has one\n",
				    event->pmu->name);
		return NULL;
	}
	return mlx5_diag_session_setup_aux(s, pages, nr_pages, overwrite);
}

static void mlx5_diag_free_aux(void *aux)
{
	mlx5_diag_session_free_aux(aux);
}

/*
 * A group read (PERF_PMU_TXN_READ) reads every sibling from one snapshot of
 * the counts, so all of them belong to the same poll. Runs with interrupts
 * off on the events' CPU. The transaction is the device's own on this CPU:
 * another device's events read live counts meanwhile.
 */
static void mlx5_diag_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(pmu);

	if (flags & PERF_PMU_TXN_READ)
		mlx5_diag_engine_txn_hold(&dd->engine, this_cpu_ptr(dd->txn),
					  MLX5_DIAG_HOLD_GROUP_READ);
}

static int mlx5_diag_commit_txn(struct pmu *pmu)
{
	mlx5_diag_engine_txn_release(this_cpu_ptr(to_mlx5_diag_dev(pmu)->txn),
				     MLX5_DIAG_HOLD_GROUP_READ);
	return 0;
}

static void mlx5_diag_cancel_txn(struct pmu *pmu)
{
	mlx5_diag_engine_txn_release(this_cpu_ptr(to_mlx5_diag_dev(pmu)->txn),
				     MLX5_DIAG_HOLD_GROUP_READ);
}

/*
 * While perf core has the PMU disabled on this CPU (it schedules a group
 * in or out, enables or disables one), the counts stand still, as a
 * hardware PMU's counters do: every event of a group starts and stops at
 * the same poll, so the ratios perf stat reads after disabling its groups
 * are exact even when a poll lands between two siblings. Interrupts off.
 */
static void mlx5_diag_pmu_disable(struct pmu *pmu)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(pmu);

	mlx5_diag_engine_txn_hold(&dd->engine, this_cpu_ptr(dd->txn),
				  MLX5_DIAG_HOLD_PMU_DISABLED);
}

static void mlx5_diag_pmu_enable(struct pmu *pmu)
{
	mlx5_diag_engine_txn_release(this_cpu_ptr(to_mlx5_diag_dev(pmu)->txn),
				     MLX5_DIAG_HOLD_PMU_DISABLED);
}

/* ---- CPU hotplug, removal, registration ---- */

/* CPU hotplug moves the PMU's events: see mlx5_diag_session_moving(). */
static void mlx5_diag_pmu_session_moving(struct mlx5_diag_dev *dd, bool moving)
{
	mutex_lock(&dd->session_lock);
	if (dd->session)
		mlx5_diag_session_moving(dd->session, moving);
	mutex_unlock(&dd->session_lock);
}

/*
 * The device is going, while the transport still works: a session's last
 * samples are fetched and its stream ends (mlx5_diag_session_detach()).
 */
void mlx5_diag_pmu_detach(struct mlx5_diag_dev *dd)
{
	mutex_lock(&dd->session_lock);
	if (dd->session)
		mlx5_diag_session_detach(dd->session);
	mutex_unlock(&dd->session_lock);
}

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
	/* a session's run goes on across the move (one run, no END) */
	if (target < nr_cpu_ids) {
		mlx5_diag_pmu_session_moving(dd, true);
		perf_pmu_migrate_context(&dd->pmu, cpu, target);
		mlx5_diag_pmu_session_moving(dd, false);
	}
	WRITE_ONCE(dd->cpu, target);
	return 0;
}

int mlx5_diag_pmu_register(struct mlx5_diag_dev *dd)
{
	int ret;

	/* MLX5_DIAG_MAX_IDS bounds caps.max_ids at probe */
	static_assert(sizeof(struct mlx5_diag_engine_txn) +
		      MLX5_DIAG_MAX_IDS * sizeof(u64) <= PCPU_MIN_UNIT_SIZE);
	mutex_init(&dd->session_lock);
	dd->txn = __alloc_percpu(struct_size(dd->txn, values,
					     dd->fw.caps.max_ids),
				 __alignof__(struct mlx5_diag_engine_txn));
	if (!dd->txn)
		return -ENOMEM;
	ret = mlx5_diag_sysfs_build(dd);
	if (ret)
		goto err_txn;
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
		.pmu_enable = mlx5_diag_pmu_enable,
		.pmu_disable = mlx5_diag_pmu_disable,
		.event_init = mlx5_diag_event_init,
		.add = mlx5_diag_event_add,
		.del = mlx5_diag_event_del,
		.start = mlx5_diag_event_start,
		.stop = mlx5_diag_event_stop,
		.read = mlx5_diag_event_read,
		.start_txn = mlx5_diag_start_txn,
		.commit_txn = mlx5_diag_commit_txn,
		.cancel_txn = mlx5_diag_cancel_txn,
		.check_period = mlx5_diag_check_period,
		.setup_aux = mlx5_diag_setup_aux,
		.free_aux = mlx5_diag_free_aux,
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
	/*
	 * Linux 6.1 publishes a PMU's type before its CPU contexts exist, and
	 * removes it only after the grace period perf_pmu_unregister() waits
	 * for: an open racing either (the type of a PMU just gone is reused
	 * by the next) reaches event_init, which admits it only now.
	 */
	smp_store_release(&dd->registered, true);
	return 0;

err_cpuhp:
	cpuhp_state_remove_instance_nocalls(mlx5_diag_cpuhp_state,
					    &dd->cpuhp_node);
err_sysfs:
	mlx5_diag_sysfs_free(dd);
err_txn:
	free_percpu(dd->txn);
	return ret;
}

/*
 * Only for a PMU that no event can reach: one that never had an event, one
 * kept after its device left once the module has no event at all (the
 * reaper), or at module exit.
 */
void mlx5_diag_pmu_unregister(struct mlx5_diag_dev *dd)
{
	WRITE_ONCE(dd->registered, false);
	perf_pmu_unregister(&dd->pmu);
	cpuhp_state_remove_instance_nocalls(mlx5_diag_cpuhp_state,
					    &dd->cpuhp_node);
	mlx5_diag_sysfs_free(dd);
	free_percpu(dd->txn);
}

int mlx5_diag_pmu_init(void)
{
	int ret;

	mlx5_diag_sysfs_init();
	ret = mlx5_diag_session_init();
	if (ret)
		return ret;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/mlx5_diag:online",
				      mlx5_diag_cpu_online,
				      mlx5_diag_cpu_teardown);
	if (ret < 0) {
		mlx5_diag_session_exit();
		return ret;
	}
	mlx5_diag_cpuhp_state = ret;
	return 0;
}

void mlx5_diag_pmu_exit(void)
{
	cpuhp_remove_multi_state(mlx5_diag_cpuhp_state);
	mlx5_diag_session_exit();
}
