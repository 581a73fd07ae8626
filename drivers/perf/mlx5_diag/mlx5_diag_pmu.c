// SPDX-License-Identifier: GPL-2.0
/*
 * perf glue of the mlx5_diag PMU: sysfs (caps, format, events, cpumask,
 * identifier), event validation, and counting: a sleepable poller keeps
 * 64-bit running values from on-demand firmware queries, and the atomic
 * perf callbacks only read that cache.
 */
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "mlx5_diag.h"

static unsigned int mlx5_diag_refresh_ms = 100;
static bool mlx5_diag_force_ownership;

static int mlx5_diag_refresh_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	if (ms < 10 || ms > 10000)
		return -ERANGE;
	WRITE_ONCE(mlx5_diag_refresh_ms, ms);
	return 0;
}

static const struct kernel_param_ops mlx5_diag_refresh_ops = {
	.set = mlx5_diag_refresh_set,
	.get = param_get_uint,
};
module_param_cb(refresh_ms, &mlx5_diag_refresh_ops, &mlx5_diag_refresh_ms, 0644);
MODULE_PARM_DESC(refresh_ms,
		 "Counting: firmware poll period and staleness bound, ms (10-10000, default 100)");
module_param_named(force_ownership, mlx5_diag_force_ownership, bool, 0644);
MODULE_PARM_DESC(force_ownership,
		 "Take the diagnostic engine even when another agent (DOCA over fwctl, a crashed owner) has it enabled");

static enum cpuhp_state mlx5_diag_cpuhp_state;
static struct workqueue_struct *mlx5_diag_wq;

#define to_mlx5_diag_dev(p)	container_of(p, struct mlx5_diag_dev, pmu)

static struct mlx5_diag_dev *mlx5_diag_dev_from_sysfs(struct device *dev)
{
	return to_mlx5_diag_dev((struct pmu *)dev_get_drvdata(dev));
}

/* ---- caps/ ---- */

static u64 mlx5_diag_clocks_to_ns(const struct mlx5_diag_caps *caps, u64 clocks)
{
	return div_u64(clocks * 1000000, caps->freq_khz);
}

enum mlx5_diag_cap {
	MLX5_DIAG_CAP_MAX_DATA_IDS,
	MLX5_DIAG_CAP_LOG_MAX_SAMPLES,
	MLX5_DIAG_CAP_MIN_SAMPLE_PERIOD_NS,
	MLX5_DIAG_CAP_DEVICE_FREQUENCY_KHZ,
	MLX5_DIAG_CAP_MODES,
	MLX5_DIAG_CAP_SYNC,
	MLX5_DIAG_CAP_CLEAR,
	MLX5_DIAG_CAP_SYNC_IDS,
	MLX5_DIAG_CAP_DIALECT,
	MLX5_DIAG_CAP_NUM_PORTS,
	MLX5_DIAG_CAP_NUM_HOSTS,
	MLX5_DIAG_CAP_NUM_FUNCTIONS,
	MLX5_DIAG_CAP_NUM_PCIE_LINKS,
	MLX5_DIAG_CAP_COUNTING_REFRESH_MS,
};

struct mlx5_diag_cap_attr {
	struct device_attribute attr;
	enum mlx5_diag_cap cap;
};

/* The kinds (or fw counters) that support synchronized start, one a line. */
static ssize_t mlx5_diag_sync_ids_show(const struct mlx5_diag_caps *caps,
				       char *buf)
{
	int len = 0;
	unsigned int i;

	for (i = 0; i < caps->num_entries; i++)
		if (caps->entries[i].sync)
			len += sysfs_emit_at(buf, len, "0x%llx\n",
					     caps->entries[i].id);
	return len;
}

static ssize_t mlx5_diag_cap_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(dev);
	const struct mlx5_diag_caps *caps = &dd->caps;

	switch (container_of(attr, struct mlx5_diag_cap_attr, attr)->cap) {
	case MLX5_DIAG_CAP_MAX_DATA_IDS:
		return sysfs_emit(buf, "%u\n", caps->max_ids);
	case MLX5_DIAG_CAP_LOG_MAX_SAMPLES:
		return sysfs_emit(buf, "%u\n", caps->log_max_samples);
	case MLX5_DIAG_CAP_MIN_SAMPLE_PERIOD_NS:
		return sysfs_emit(buf, "%llu\n",
				  mlx5_diag_clocks_to_ns(caps,
							 1ULL << caps->log_min_sample_period));
	case MLX5_DIAG_CAP_DEVICE_FREQUENCY_KHZ:
		return sysfs_emit(buf, "%u\n", caps->freq_khz);
	case MLX5_DIAG_CAP_MODES:
		return sysfs_emit(buf, "%s%s%s\n", caps->single ? "single " : "",
				  caps->repetitive ? "repetitive " : "",
				  caps->on_demand ? "on_demand" : "");
	case MLX5_DIAG_CAP_SYNC:
		return sysfs_emit(buf, "%d\n", caps->sync_start);
	case MLX5_DIAG_CAP_CLEAR:
		return sysfs_emit(buf, "%d\n", caps->data_clear);
	case MLX5_DIAG_CAP_SYNC_IDS:
		return mlx5_diag_sync_ids_show(caps, buf);
	case MLX5_DIAG_CAP_DIALECT:
		return sysfs_emit(buf, "%s\n", dd->dialect->name);
	case MLX5_DIAG_CAP_NUM_PORTS:
		return sysfs_emit(buf, "%u\n", caps->num_ports);
	case MLX5_DIAG_CAP_NUM_HOSTS:
		return sysfs_emit(buf, "%u\n", caps->num_hosts);
	case MLX5_DIAG_CAP_NUM_FUNCTIONS:
		return sysfs_emit(buf, "%u\n", caps->num_functions);
	case MLX5_DIAG_CAP_NUM_PCIE_LINKS:
		return sysfs_emit(buf, "%u\n", caps->num_pcie_links);
	case MLX5_DIAG_CAP_COUNTING_REFRESH_MS:
		return sysfs_emit(buf, "%u\n", READ_ONCE(mlx5_diag_refresh_ms));
	}
	return -EINVAL;
}

/* caps/ file names clash with format/ ones (sync, clear): prefix the symbols. */
#define MLX5_DIAG_CAP_ATTR(_name, _cap)					\
	static struct mlx5_diag_cap_attr mlx5_diag_cap_attr_##_name = {	\
		.attr = __ATTR(_name, 0444, mlx5_diag_cap_show, NULL),	\
		.cap = _cap,						\
	}

MLX5_DIAG_CAP_ATTR(max_data_ids, MLX5_DIAG_CAP_MAX_DATA_IDS);
MLX5_DIAG_CAP_ATTR(log_max_samples, MLX5_DIAG_CAP_LOG_MAX_SAMPLES);
MLX5_DIAG_CAP_ATTR(min_sample_period_ns, MLX5_DIAG_CAP_MIN_SAMPLE_PERIOD_NS);
MLX5_DIAG_CAP_ATTR(device_frequency_khz, MLX5_DIAG_CAP_DEVICE_FREQUENCY_KHZ);
MLX5_DIAG_CAP_ATTR(modes, MLX5_DIAG_CAP_MODES);
MLX5_DIAG_CAP_ATTR(sync, MLX5_DIAG_CAP_SYNC);
MLX5_DIAG_CAP_ATTR(clear, MLX5_DIAG_CAP_CLEAR);
MLX5_DIAG_CAP_ATTR(sync_ids, MLX5_DIAG_CAP_SYNC_IDS);
MLX5_DIAG_CAP_ATTR(dialect, MLX5_DIAG_CAP_DIALECT);
MLX5_DIAG_CAP_ATTR(num_ports, MLX5_DIAG_CAP_NUM_PORTS);
MLX5_DIAG_CAP_ATTR(num_hosts, MLX5_DIAG_CAP_NUM_HOSTS);
MLX5_DIAG_CAP_ATTR(num_functions, MLX5_DIAG_CAP_NUM_FUNCTIONS);
MLX5_DIAG_CAP_ATTR(num_pcie_links, MLX5_DIAG_CAP_NUM_PCIE_LINKS);
MLX5_DIAG_CAP_ATTR(counting_refresh_ms, MLX5_DIAG_CAP_COUNTING_REFRESH_MS);

static struct attribute *mlx5_diag_caps_attrs[] = {
	&mlx5_diag_cap_attr_max_data_ids.attr.attr,
	&mlx5_diag_cap_attr_log_max_samples.attr.attr,
	&mlx5_diag_cap_attr_min_sample_period_ns.attr.attr,
	&mlx5_diag_cap_attr_device_frequency_khz.attr.attr,
	&mlx5_diag_cap_attr_modes.attr.attr,
	&mlx5_diag_cap_attr_sync.attr.attr,
	&mlx5_diag_cap_attr_clear.attr.attr,
	&mlx5_diag_cap_attr_sync_ids.attr.attr,
	&mlx5_diag_cap_attr_dialect.attr.attr,
	&mlx5_diag_cap_attr_num_ports.attr.attr,
	&mlx5_diag_cap_attr_num_hosts.attr.attr,
	&mlx5_diag_cap_attr_num_functions.attr.attr,
	&mlx5_diag_cap_attr_num_pcie_links.attr.attr,
	&mlx5_diag_cap_attr_counting_refresh_ms.attr.attr,
	NULL
};

static const struct attribute_group mlx5_diag_caps_group = {
	.name = "caps",
	.attrs = mlx5_diag_caps_attrs,
};

/* ---- format/ ---- */

PMU_FORMAT_ATTR(data_id, "config:0-63");
PMU_FORMAT_ATTR(kind, "config:32-63");
PMU_FORMAT_ATTR(port, "config:0-7");
PMU_FORMAT_ATTR(prio, "config:8-11");
PMU_FORMAT_ATTR(host, "config:0-7");
PMU_FORMAT_ATTR(function, "config:0-15");
PMU_FORMAT_ATTR(link_xx, "config:0-7");
PMU_FORMAT_ATTR(link_yy, "config:8-15");
PMU_FORMAT_ATTR(link_zz, "config:16-23");
PMU_FORMAT_ATTR(tclass, "config:16-31");
PMU_FORMAT_ATTR(bin, "config:16-31");
PMU_FORMAT_ATTR(fw_counter, "config:0-15");
PMU_FORMAT_ATTR(mode, "config1:0-1");
PMU_FORMAT_ATTR(sync, "config1:2");
PMU_FORMAT_ATTR(clear, "config1:3");
PMU_FORMAT_ATTR(out_format, "config1:4-5");
PMU_FORMAT_ATTR(force, "config1:63");
PMU_FORMAT_ATTR(period_ns, "config2:0-63");

static struct attribute *mlx5_diag_format_attrs[] = {
	/* data-ID fields */
	&format_attr_data_id.attr,
	&format_attr_kind.attr,
	&format_attr_port.attr,
	&format_attr_prio.attr,
	&format_attr_host.attr,
	&format_attr_function.attr,
	&format_attr_link_xx.attr,
	&format_attr_link_yy.attr,
	&format_attr_link_zz.attr,
	&format_attr_tclass.attr,
	&format_attr_bin.attr,
	/* public 16-bit counter id */
	&format_attr_fw_counter.attr,
	/* options */
	&format_attr_mode.attr,
	&format_attr_sync.attr,
	&format_attr_clear.attr,
	&format_attr_out_format.attr,
	&format_attr_force.attr,
	&format_attr_period_ns.attr,
	NULL
};

/*
 * A device shows the id fields of its dialect only: the first
 * MLX5_DIAG_DATA_ID_FORMATS attributes name data-ID fields, the next one is
 * fw_counter, the rest are options.
 */
#define MLX5_DIAG_DATA_ID_FORMATS	11

static umode_t mlx5_diag_format_visible(struct kobject *kobj,
					struct attribute *attr, int n)
{
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(kobj_to_dev(kobj));

	if (n < MLX5_DIAG_DATA_ID_FORMATS)
		return dd->caps.model64 ? attr->mode : 0;
	if (n == MLX5_DIAG_DATA_ID_FORMATS)
		return dd->caps.model64 ? 0 : attr->mode;
	return attr->mode;
}

static const struct attribute_group mlx5_diag_format_group = {
	.name = "format",
	.attrs = mlx5_diag_format_attrs,
	.is_visible = mlx5_diag_format_visible,
};

/* ---- cpumask, identifier ---- */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(dev);
	int cpu = READ_ONCE(dd->cpu);

	if (cpu >= nr_cpu_ids)
		return sysfs_emit(buf, "\n");
	return cpumap_print_to_pagebuf(true, buf, cpumask_of(cpu));
}
static DEVICE_ATTR_RO(cpumask);

static ssize_t identifier_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  mlx5_diag_dev_from_sysfs(dev)->aux->identifier);
}
static DEVICE_ATTR_RO(identifier);

static struct attribute *mlx5_diag_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_identifier.attr,
	NULL
};

static const struct attribute_group mlx5_diag_common_group = {
	.attrs = mlx5_diag_common_attrs,
};

/* ---- events/: one alias per data ID kind the device lists ---- */

/* One file of events/: an alias, or its .unit or .scale companion. */
struct mlx5_diag_event_attr {
	struct device_attribute attr;
	const struct mlx5_diag_catalog_entry *entry;
	enum { MLX5_DIAG_EV_ALIAS, MLX5_DIAG_EV_UNIT, MLX5_DIAG_EV_SCALE } what;
};

static bool mlx5_diag_entry_in_clocks(const struct mlx5_diag_catalog_entry *e)
{
	return e->unit && !strcmp(e->unit, "clocks");
}

/* Device clocks are shown as ns: the scale is ns per clock, 6 decimals. */
static ssize_t mlx5_diag_clock_scale(const struct mlx5_diag_caps *caps,
				     char *buf)
{
	u64 micro_ns = div_u64(1000000000000ULL, caps->freq_khz);

	return sysfs_emit(buf, "%llu.%06llu\n", div_u64(micro_ns, 1000000),
			  micro_ns % 1000000);
}

static ssize_t mlx5_diag_event_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct mlx5_diag_event_attr *ea =
		container_of(attr, struct mlx5_diag_event_attr, attr);
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(dev);
	const struct mlx5_diag_catalog_entry *e = ea->entry;

	switch (ea->what) {
	case MLX5_DIAG_EV_ALIAS:
		return mlx5_diag_catalog_event_string(e, buf, PAGE_SIZE);
	case MLX5_DIAG_EV_UNIT:
		return sysfs_emit(buf, "%s\n", mlx5_diag_entry_in_clocks(e) ?
				  "ns" : e->unit);
	case MLX5_DIAG_EV_SCALE:
		if (mlx5_diag_entry_in_clocks(e))
			return mlx5_diag_clock_scale(&dd->caps, buf);
		return sysfs_emit(buf, "%s\n", e->scale);
	}
	return -EINVAL;
}

static const struct mlx5_diag_cap_entry *
mlx5_diag_cap_lookup(const struct mlx5_diag_caps *caps, u64 id)
{
	u64 key = caps->model64 ? id & ~0xffffffffULL : id;
	unsigned int i;

	for (i = 0; i < caps->num_entries; i++)
		if (caps->entries[i].id == key)
			return &caps->entries[i];
	return NULL;
}

/* Data IDs on a 64-bit device, firmware counters on a public 16-bit one. */
static bool mlx5_diag_entry_in_dialect(const struct mlx5_diag_dev *dd,
				       const struct mlx5_diag_catalog_entry *e)
{
	return (e->group == MLX5_DIAG_GRP_FW_COUNTER) != dd->caps.model64;
}

static u64 mlx5_diag_entry_key(const struct mlx5_diag_catalog_entry *e)
{
	if (e->group == MLX5_DIAG_GRP_FW_COUNTER)
		return e->fw_counter;
	return (u64)e->kind << MLX5_DIAG_KIND_SHIFT;
}

static int mlx5_diag_add_event_attr(struct mlx5_diag_dev *dd,
				    const struct mlx5_diag_catalog_entry *e,
				    int what, const char *suffix)
{
	struct mlx5_diag_event_attr *ea = &dd->event_attrs[dd->num_event_attrs];

	sysfs_attr_init(&ea->attr.attr);
	ea->attr.attr.name = kasprintf(GFP_KERNEL, "%s%s", e->name, suffix);
	if (!ea->attr.attr.name)
		return -ENOMEM;
	ea->attr.attr.mode = 0444;
	ea->attr.show = mlx5_diag_event_show;
	ea->entry = e;
	ea->what = what;
	dd->event_attr_ptrs[dd->num_event_attrs++] = &ea->attr.attr;
	return 0;
}

static void mlx5_diag_free_events(struct mlx5_diag_dev *dd)
{
	unsigned int i;

	for (i = 0; i < dd->num_event_attrs; i++)
		kfree(dd->event_attrs[i].attr.attr.name);
	kfree(dd->event_attrs);
	kfree(dd->event_attr_ptrs);
}

static int mlx5_diag_build_events(struct mlx5_diag_dev *dd)
{
	unsigned int i, max = 3 * mlx5_diag_catalog_size;
	int ret = 0;

	dd->event_attrs = kcalloc(max, sizeof(*dd->event_attrs), GFP_KERNEL);
	dd->event_attr_ptrs = kcalloc(max + 1, sizeof(*dd->event_attr_ptrs),
				      GFP_KERNEL);
	if (!dd->event_attrs || !dd->event_attr_ptrs) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < mlx5_diag_catalog_size && !ret; i++) {
		const struct mlx5_diag_catalog_entry *e = &mlx5_diag_catalog[i];

		if (!mlx5_diag_entry_in_dialect(dd, e) ||
		    !mlx5_diag_cap_lookup(&dd->caps, mlx5_diag_entry_key(e)))
			continue;
		ret = mlx5_diag_add_event_attr(dd, e, MLX5_DIAG_EV_ALIAS, "");
		if (!ret && e->unit)
			ret = mlx5_diag_add_event_attr(dd, e, MLX5_DIAG_EV_UNIT,
						       ".unit");
		if (!ret && (e->scale || mlx5_diag_entry_in_clocks(e)))
			ret = mlx5_diag_add_event_attr(dd, e, MLX5_DIAG_EV_SCALE,
						       ".scale");
	}
	if (ret)
		goto err;
	dd->events_group.name = "events";
	dd->events_group.attrs = dd->event_attr_ptrs;
	dd->attr_groups[0] = &dd->events_group;
	dd->attr_groups[1] = &mlx5_diag_format_group;
	dd->attr_groups[2] = &mlx5_diag_caps_group;
	dd->attr_groups[3] = &mlx5_diag_common_group;
	return 0;
err:
	mlx5_diag_free_events(dd);
	return ret;
}

/* ---- counting engine ---- */

static unsigned int mlx5_diag_active_ids(struct mlx5_diag_dev *dd, u64 *ids)
{
	unsigned int i, n = 0;

	for (i = 0; i < dd->caps.max_ids; i++)
		if (dd->counts[i].users)
			ids[n++] = dd->counts[i].id;
	return n;
}

/* One on-demand sample of every counted id into the running values. */
static int mlx5_diag_poll_once(struct mlx5_diag_dev *dd)
{
	struct mlx5_diag_fw_entry e;
	u32 in[4];
	unsigned int i, k = 0;
	unsigned long flags;
	size_t outlen;
	int ret;

	lockdep_assert_held(&dd->cfg_lock);
	outlen = mlx5_diag_fw_query_counters_outlen(dd->dialect, 1,
						    dd->num_fw_ids);
	mlx5_diag_fw_query_counters_in(in, 1, 0);
	ret = mlx5_diag_cmd(dd, in, sizeof(in), dd->poll_out, outlen, NULL);
	if (ret)
		return ret;
	/* publish every value of this sample at once, as one generation */
	spin_lock_irqsave(&dd->vlock, flags);
	for (i = 0; i < dd->caps.max_ids; i++) {
		struct mlx5_diag_count *c = &dd->counts[i];

		/* in firmware's order, even if its last user just left */
		if (!c->in_fw)
			continue;
		mlx5_diag_fw_query_counters_entry(dd->dialect, dd->poll_out,
						  k++, &e);
		if (e.id != c->id) {
			ret = -EPROTO;
			break;
		}
		c->value += mlx5_diag_count_update(c, e.value);
	}
	spin_unlock_irqrestore(&dd->vlock, flags);
	if (ret) {
		dev_err_ratelimited(dd->dev, "%s: firmware answered id 0x%llx where 0x%llx was set\n",
				    dd->name, e.id, dd->counts[i].id);
	}
	return ret;
}

static void mlx5_diag_poll_work(struct work_struct *work)
{
	struct mlx5_diag_dev *dd = container_of(to_delayed_work(work),
						struct mlx5_diag_dev, poll_work);

	mutex_lock(&dd->cfg_lock);
	if (dd->owned && dd->num_fw_ids) {
		mlx5_diag_poll_once(dd);
		queue_delayed_work(mlx5_diag_wq, &dd->poll_work,
				   msecs_to_jiffies(READ_ONCE(mlx5_diag_refresh_ms)));
	}
	mutex_unlock(&dd->cfg_lock);
}

/* Firmware runs no id of ours (any more, or as far as we know). */
static void mlx5_diag_forget_fw_ids(struct mlx5_diag_dev *dd)
{
	unsigned int i;

	dd->num_fw_ids = 0;
	for (i = 0; i < dd->caps.max_ids; i++)
		dd->counts[i].in_fw = false;
}

/* Give the engine back: disable is enable = 0, clear = 1. */
static int mlx5_diag_release_engine(struct mlx5_diag_dev *dd)
{
	struct mlx5_diag_fw_params off = { .clear = true };
	int ret = 0;

	lockdep_assert_held(&dd->cfg_lock);
	mlx5_diag_forget_fw_ids(dd);
	if (dd->owned)
		ret = mlx5_diag_fw_set_params(dd, &off);
	dd->owned = false;
	return ret;
}

/*
 * Program the firmware with every id open events name (on-demand mode), or
 * disable the engine when none is left. What the old set counted is banked
 * first. Takes the engine over from another agent only when @force. Sleeps;
 * called with cfg_lock held.
 */
static int mlx5_diag_apply_config(struct mlx5_diag_dev *dd, bool force)
{
	struct mlx5_diag_fw_params p = { .ids = dd->fw_ids };
	unsigned int i;
	int ret;

	lockdep_assert_held(&dd->cfg_lock);
	if (dd->owned && dd->num_fw_ids)
		mlx5_diag_poll_once(dd);
	p.num_ids = mlx5_diag_active_ids(dd, dd->fw_ids);
	if (!p.num_ids)
		return mlx5_diag_release_engine(dd);
	if (!dd->owned) {
		ret = mlx5_diag_fw_query_params(dd, &dd->fw_state);
		if (ret)
			return ret;
		if (dd->fw_state.enable && !force) {
			dev_err_ratelimited(dd->dev, "%s: diagnostic engine is enabled by another agent (DOCA over fwctl, or a crashed owner); set force=1 or force_ownership=1 to take it over\n",
					    dd->name);
			return -EBUSY;
		}
		if (dd->fw_state.enable)
			dev_warn(dd->dev, "%s: taking the diagnostic engine over from another agent, whose samples stop\n",
				 dd->name);
	}
	p.enable = true;
	p.mode = MLX5_DIAG_FW_ON_DEMAND;
	p.log_sample_period = dd->caps.log_min_sample_period;
	ret = mlx5_diag_fw_set_params(dd, &p);
	if (ret) {
		mlx5_diag_forget_fw_ids(dd);
		return ret;
	}
	dd->owned = true;
	dd->num_fw_ids = p.num_ids;
	for (i = 0; i < dd->caps.max_ids; i++) {
		dd->counts[i].in_fw = dd->counts[i].users > 0;
		dd->counts[i].primed = false;
	}
	/* The first sample sets every counter's baseline. */
	mlx5_diag_poll_once(dd);
	mod_delayed_work(mlx5_diag_wq, &dd->poll_work,
			 msecs_to_jiffies(READ_ONCE(mlx5_diag_refresh_ms)));
	return 0;
}

/* Drop a reference; the last one unregisters the PMU from a work item. */
static void mlx5_diag_dev_put(struct mlx5_diag_dev *dd)
{
	if (refcount_dec_and_test(&dd->refs))
		queue_work(mlx5_diag_wq, &dd->release_work);
}

static void mlx5_diag_event_destroy(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct mlx5_diag_count *c = &dd->counts[event->hw.idx];
	int ret;

	mutex_lock(&dd->cfg_lock);
	if (!--c->users && !READ_ONCE(dd->gone)) {
		ret = mlx5_diag_apply_config(dd, false);
		if (ret)
			dev_err_ratelimited(dd->dev, "%s: releasing data ID 0x%llx: firmware error %d\n",
					    dd->name, c->id, ret);
	}
	mutex_unlock(&dd->cfg_lock);
	mlx5_diag_dev_put(dd);
}

static int mlx5_diag_refuse(struct mlx5_diag_dev *dd, int err, const char *why,
			    u64 config)
{
	dev_info_ratelimited(dd->dev, "%s: event 0x%llx refused: %s\n",
			     dd->name, config, why);
	return err;
}

/* Check an event's attributes against the catalog and the device. */
static int mlx5_diag_event_validate(struct mlx5_diag_dev *dd,
				    struct perf_event *event,
				    const struct mlx5_diag_catalog_entry **entry)
{
	const struct perf_event_attr *attr = &event->attr;
	const struct mlx5_diag_catalog_entry *e;
	const struct mlx5_diag_cap_entry *cap;
	u64 id = attr->config;
	const char *why;

	if (is_sampling_event(event) || attr->aux_output)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"sampling is not supported; count with perf stat",
					id);
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0)
		return mlx5_diag_refuse(dd, -EINVAL,
					"per-task events are not supported; use -a or -C",
					id);
	if (attr->config1 & MLX5_DIAG_CFG1_SAMPLING_MASK)
		return mlx5_diag_refuse(dd, -EINVAL,
					"mode, sync, clear and out_format are sampling options",
					id);
	if (attr->config1 & ~(MLX5_DIAG_CFG1_SAMPLING_MASK |
			      MLX5_DIAG_CFG1_FORCE_OWNERSHIP))
		return mlx5_diag_refuse(dd, -EINVAL,
					"reserved bits set in config1", id);
	if (attr->config2)
		return mlx5_diag_refuse(dd, -EINVAL,
					"period_ns is a sampling option", id);
	e = mlx5_diag_catalog_find(id);
	if (!e)
		return mlx5_diag_refuse(dd, -EINVAL, "unknown data ID", id);
	cap = mlx5_diag_cap_lookup(&dd->caps, id);
	if (!cap || !mlx5_diag_entry_in_dialect(dd, e))
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"data ID not supported by this device",
					id);
	if (mlx5_diag_catalog_check_instance(e, id, &dd->caps, &why))
		return mlx5_diag_refuse(dd, -EINVAL, why, id);
	if (e->class == MLX5_DIAG_CLASS_STAT_MAX ||
	    e->class == MLX5_DIAG_CLASS_STAT_MIN)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"max/min statistics have no counting meaning; sample them",
					id);
	if (!dd->caps.on_demand)
		return mlx5_diag_refuse(dd, -EOPNOTSUPP,
					"counting needs the on-demand mode this device lacks",
					id);
	*entry = e;
	return 0;
}

static int mlx5_diag_event_init(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	const struct mlx5_diag_catalog_entry *e;
	bool force = event->attr.config1 & MLX5_DIAG_CFG1_FORCE_OWNERSHIP ||
		     READ_ONCE(mlx5_diag_force_ownership);
	struct mlx5_diag_count *c, *slot = NULL;
	u64 id = event->attr.config;
	unsigned int i;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* the device's last reference may be on its way to release */
	if (READ_ONCE(dd->gone) || !refcount_inc_not_zero(&dd->refs))
		return mlx5_diag_refuse(dd, -ENODEV, "device removed", id);
	ret = mlx5_diag_event_validate(dd, event, &e);
	if (ret)
		goto err_put;
	/*
	 * perf's first try carries exclude_guest and falls back without it:
	 * refuse that before touching firmware, and without a log line. This
	 * comes after validation: perf 6.12 stat loops forever when a retry
	 * without exclude_guest meets EOPNOTSUPP.
	 */
	if (event_has_any_exclude_flag(event)) {
		ret = -EINVAL;
		goto err_put;
	}

	mutex_lock(&dd->cfg_lock);
	for (i = 0; i < dd->caps.max_ids; i++) {
		c = &dd->counts[i];
		if (c->users && c->id == id) {
			slot = c;
			break;
		}
		if (!c->users && !slot)
			slot = c;
	}
	if (!slot) {
		ret = mlx5_diag_refuse(dd, -ENOSPC,
				       "the device counts no more data IDs at once",
				       id);
		goto err_unlock;
	}
	if (!slot->users) {
		slot->id = id;
		slot->entry = e;
		slot->value = 0;
		slot->users = 1;
		ret = mlx5_diag_apply_config(dd, force);
		if (ret) {
			slot->users = 0;
			if (mlx5_diag_apply_config(dd, false))
				dev_err_ratelimited(dd->dev, "%s: could not restore the previous data IDs\n",
						    dd->name);
			ret = mlx5_diag_refuse(dd, ret,
					       "could not configure the diagnostic engine",
					       id);
			goto err_unlock;
		}
	} else {
		slot->users++;
	}
	mutex_unlock(&dd->cfg_lock);

	event->hw.idx = slot - dd->counts;
	event->cpu = READ_ONCE(dd->cpu);
	event->destroy = mlx5_diag_event_destroy;
	return 0;

err_unlock:
	mutex_unlock(&dd->cfg_lock);
err_put:
	mlx5_diag_dev_put(dd);
	return ret;
}

static u64 mlx5_diag_count_value(struct mlx5_diag_dev *dd, int idx)
{
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&dd->vlock, flags);
	v = dd->counts[idx].value;
	spin_unlock_irqrestore(&dd->vlock, flags);
	return v;
}

static void mlx5_diag_event_read(struct perf_event *event)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 now = mlx5_diag_count_value(dd, hwc->idx);
	u64 prev = local64_xchg(&hwc->prev_count, now);

	local64_add(now - prev, &event->count);
}

static void mlx5_diag_event_start(struct perf_event *event, int flags)
{
	struct mlx5_diag_dev *dd = to_mlx5_diag_dev(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	local64_set(&hwc->prev_count, mlx5_diag_count_value(dd, hwc->idx));
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
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		mlx5_diag_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void mlx5_diag_event_del(struct perf_event *event, int flags)
{
	mlx5_diag_event_stop(event, PERF_EF_UPDATE);
}

/* ---- lifetime, CPU hotplug, registration ---- */

static void mlx5_diag_release_work(struct work_struct *work)
{
	struct mlx5_diag_dev *dd = container_of(work, struct mlx5_diag_dev,
						release_work);

	cpuhp_state_remove_instance_nocalls(mlx5_diag_cpuhp_state,
					    &dd->cpuhp_node);
	perf_pmu_unregister(&dd->pmu);
	mlx5_diag_free_events(dd);
	kfree(dd->counts);
	kfree(dd->fw_ids);
	kfree(dd->fw_state.ids);
	kvfree(dd->poll_out);
	mlx5_diag_dev_free(dd);
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
	    (!dd->registered && cpu == dd->preferred_cpu))
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
	size_t outlen;
	int ret;

	dd->counts = kcalloc(dd->caps.max_ids, sizeof(*dd->counts), GFP_KERNEL);
	dd->fw_ids = kcalloc(dd->caps.max_ids, sizeof(u64), GFP_KERNEL);
	dd->fw_state.ids = kcalloc(dd->caps.max_ids, sizeof(u64), GFP_KERNEL);
	outlen = mlx5_diag_fw_query_counters_outlen(dd->dialect, 1,
						    dd->caps.max_ids);
	dd->poll_out = kvzalloc(outlen, GFP_KERNEL);
	if (!dd->counts || !dd->fw_ids || !dd->fw_state.ids || !dd->poll_out) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = mlx5_diag_build_events(dd);
	if (ret)
		goto err_free;
	INIT_DELAYED_WORK(&dd->poll_work, mlx5_diag_poll_work);
	INIT_WORK(&dd->release_work, mlx5_diag_release_work);

	dd->pmu = (struct pmu) {
		/*
		 * No .parent: the PMU may outlive the auxiliary device (events
		 * open at removal), and a parent's release code would then run
		 * from a provider module that may be gone.
		 */
		.module = THIS_MODULE,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups = dd->attr_groups,
		.event_init = mlx5_diag_event_init,
		.add = mlx5_diag_event_add,
		.del = mlx5_diag_event_del,
		.start = mlx5_diag_event_start,
		.stop = mlx5_diag_event_stop,
		.read = mlx5_diag_event_read,
	};

	/*
	 * Devices spread over the CPUs of their node; the online callback, run
	 * for every online CPU here, takes the preferred one or the first.
	 */
	dd->preferred_cpu = cpumask_local_spread(dd->index, dev_to_node(dd->dev));
	dd->cpu = nr_cpu_ids;
	ret = cpuhp_state_add_instance(mlx5_diag_cpuhp_state, &dd->cpuhp_node);
	if (ret)
		goto err_events;
	ret = perf_pmu_register(&dd->pmu, dd->name, -1);
	if (ret)
		goto err_cpuhp;
	dd->registered = true;
	return 0;

err_cpuhp:
	cpuhp_state_remove_instance_nocalls(mlx5_diag_cpuhp_state,
					    &dd->cpuhp_node);
err_events:
	mlx5_diag_free_events(dd);
err_free:
	kvfree(dd->poll_out);
	kfree(dd->fw_state.ids);
	kfree(dd->fw_ids);
	kfree(dd->counts);
	return ret;
}

/*
 * The device goes away: release the engine while the transport still
 * works, then never touch the transport again. Open events keep the PMU
 * registered (Linux 6.12 cannot unregister a PMU with live events) and read
 * frozen counts; the last one to close releases it.
 */
void mlx5_diag_pmu_remove(struct mlx5_diag_dev *dd)
{
	mutex_lock(&dd->cfg_lock);
	if (mlx5_diag_release_engine(dd))
		dev_warn(dd->dev, "%s: could not disable the engine on removal\n",
			 dd->name);
	down_write(&dd->exec_lock);
	WRITE_ONCE(dd->gone, true);
	up_write(&dd->exec_lock);
	mutex_unlock(&dd->cfg_lock);
	cancel_delayed_work_sync(&dd->poll_work);
	mlx5_diag_dev_put(dd);
}

int mlx5_diag_pmu_init(void)
{
	int ret;

	mlx5_diag_wq = alloc_workqueue("mlx5_diag", WQ_UNBOUND, 0);
	if (!mlx5_diag_wq)
		return -ENOMEM;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/mlx5_diag:online",
				      mlx5_diag_cpu_online,
				      mlx5_diag_cpu_teardown);
	if (ret < 0) {
		destroy_workqueue(mlx5_diag_wq);
		return ret;
	}
	mlx5_diag_cpuhp_state = ret;
	return 0;
}

/* After every device is removed: wait for the deferred releases. */
void mlx5_diag_pmu_exit(void)
{
	destroy_workqueue(mlx5_diag_wq);
	cpuhp_remove_multi_state(mlx5_diag_cpuhp_state);
}
