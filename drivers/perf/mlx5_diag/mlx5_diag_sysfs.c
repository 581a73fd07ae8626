// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs of an mlx5_diag PMU: what the device can do (caps/), how an event
 * is written (format/, generated from the field table), which events it
 * offers (events/, from the catalog and the device's capability list), the
 * engine's state and counters (engine/), cpumask, identifier, function and
 * firmware_version.
 */
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <uapi/linux/mlx5_diag.h>

#include "mlx5_diag_dev.h"
#include "mlx5_diag_fields.h"

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
	MLX5_DIAG_CAP_MAX_SAMPLE_PERIOD_NS,
	MLX5_DIAG_CAP_DEVICE_FREQUENCY_KHZ,
	MLX5_DIAG_CAP_MODES,
	MLX5_DIAG_CAP_SYNC,
	MLX5_DIAG_CAP_CLEAR,
	MLX5_DIAG_CAP_ON_DEMAND,
	MLX5_DIAG_CAP_SYNC_IDS,
	MLX5_DIAG_CAP_DIALECT,
	MLX5_DIAG_CAP_NUM_PORTS,
	MLX5_DIAG_CAP_NUM_HOSTS,
	MLX5_DIAG_CAP_NUM_FUNCTIONS,
	MLX5_DIAG_CAP_NUM_PCIE_LINKS,
	MLX5_DIAG_CAP_COUNTING_REFRESH_MS,
	MLX5_DIAG_CAP_COUNTING_MODE,
	MLX5_DIAG_CAP_RECORD_ABI,
};

/* A file of caps/ or engine/: which value its group's show() prints. */
struct mlx5_diag_value_attr {
	struct device_attribute attr;
	unsigned int which;
};

#define MLX5_DIAG_VALUE_ATTR(_group, _name, _which)			\
	static struct mlx5_diag_value_attr mlx5_diag_##_group##_attr_##_name = { \
		.attr = __ATTR(_name, 0444, mlx5_diag_##_group##_show, NULL), \
		.which = _which,					\
	}

static unsigned int mlx5_diag_value_which(struct device_attribute *attr)
{
	return container_of(attr, struct mlx5_diag_value_attr, attr)->which;
}

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

static ssize_t mlx5_diag_caps_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(dev);
	const struct mlx5_diag_caps *caps = &dd->fw.caps;
	enum mlx5_diag_cap_known known;

	switch (mlx5_diag_value_which(attr)) {
	case MLX5_DIAG_CAP_MAX_DATA_IDS:
		return sysfs_emit(buf, "%u\n", caps->max_ids);
	case MLX5_DIAG_CAP_LOG_MAX_SAMPLES:
		return sysfs_emit(buf, "%u\n", caps->log_max_samples);
	case MLX5_DIAG_CAP_MIN_SAMPLE_PERIOD_NS:
		return sysfs_emit(buf, "%llu\n",
				  mlx5_diag_clocks_to_ns(caps,
							 1ULL << caps->log_min_sample_period));
	case MLX5_DIAG_CAP_MAX_SAMPLE_PERIOD_NS:
		return sysfs_emit(buf, "%llu\n",
				  mlx5_diag_engine_session_max_period_ns(caps));
	case MLX5_DIAG_CAP_DEVICE_FREQUENCY_KHZ:
		return sysfs_emit(buf, "%u\n", caps->freq_khz);
	case MLX5_DIAG_CAP_MODES:
		return sysfs_emit(buf, "%s%s%s\n", caps->single ? "single " : "",
				  caps->repetitive ? "repetitive " : "",
				  caps->on_demand ? "on_demand" : "");
	case MLX5_DIAG_CAP_SYNC:
		known = mlx5_diag_fw_sync_known(&dd->fw);
		break;
	case MLX5_DIAG_CAP_CLEAR:
		known = mlx5_diag_fw_clear_known(&dd->fw);
		break;
	case MLX5_DIAG_CAP_ON_DEMAND:
		known = mlx5_diag_fw_on_demand_known(&dd->fw);
		break;
	case MLX5_DIAG_CAP_SYNC_IDS:
		return mlx5_diag_sync_ids_show(caps, buf);
	case MLX5_DIAG_CAP_DIALECT:
		return sysfs_emit(buf, "%s\n", dd->fw.dialect->name);
	case MLX5_DIAG_CAP_NUM_PORTS:
		return sysfs_emit(buf, "%u\n", caps->limits.num_ports);
	case MLX5_DIAG_CAP_NUM_HOSTS:
		return sysfs_emit(buf, "%u\n", caps->limits.num_hosts);
	case MLX5_DIAG_CAP_NUM_FUNCTIONS:
		return sysfs_emit(buf, "%u\n", caps->limits.num_functions);
	case MLX5_DIAG_CAP_NUM_PCIE_LINKS:
		return sysfs_emit(buf, "%u\n", caps->num_pcie_links);
	case MLX5_DIAG_CAP_COUNTING_REFRESH_MS:
		return sysfs_emit(buf, "%u\n", mlx5_diag_engine_refresh_ms());
	case MLX5_DIAG_CAP_COUNTING_MODE:
		return sysfs_emit(buf, "%s\n", caps->on_demand ? "on_demand" :
				  "repetitive");
	case MLX5_DIAG_CAP_RECORD_ABI:
		return sysfs_emit(buf, "%u\n", MLX5_DIAG_ABI_VERSION);
	default:
		return -EINVAL;
	}
	return sysfs_emit(buf, "%s\n", mlx5_diag_cap_known_name(known));
}

/* caps/ file names clash with format/ ones (sync, clear): prefix the symbols. */
#define MLX5_DIAG_CAP_ATTR(_name, _cap) MLX5_DIAG_VALUE_ATTR(caps, _name, _cap)

MLX5_DIAG_CAP_ATTR(max_data_ids, MLX5_DIAG_CAP_MAX_DATA_IDS);
MLX5_DIAG_CAP_ATTR(log_max_samples, MLX5_DIAG_CAP_LOG_MAX_SAMPLES);
MLX5_DIAG_CAP_ATTR(min_sample_period_ns, MLX5_DIAG_CAP_MIN_SAMPLE_PERIOD_NS);
MLX5_DIAG_CAP_ATTR(max_sample_period_ns, MLX5_DIAG_CAP_MAX_SAMPLE_PERIOD_NS);
MLX5_DIAG_CAP_ATTR(device_frequency_khz, MLX5_DIAG_CAP_DEVICE_FREQUENCY_KHZ);
MLX5_DIAG_CAP_ATTR(modes, MLX5_DIAG_CAP_MODES);
MLX5_DIAG_CAP_ATTR(sync, MLX5_DIAG_CAP_SYNC);
MLX5_DIAG_CAP_ATTR(clear, MLX5_DIAG_CAP_CLEAR);
MLX5_DIAG_CAP_ATTR(on_demand, MLX5_DIAG_CAP_ON_DEMAND);
MLX5_DIAG_CAP_ATTR(sync_ids, MLX5_DIAG_CAP_SYNC_IDS);
MLX5_DIAG_CAP_ATTR(dialect, MLX5_DIAG_CAP_DIALECT);
MLX5_DIAG_CAP_ATTR(num_ports, MLX5_DIAG_CAP_NUM_PORTS);
MLX5_DIAG_CAP_ATTR(num_hosts, MLX5_DIAG_CAP_NUM_HOSTS);
MLX5_DIAG_CAP_ATTR(num_functions, MLX5_DIAG_CAP_NUM_FUNCTIONS);
MLX5_DIAG_CAP_ATTR(num_pcie_links, MLX5_DIAG_CAP_NUM_PCIE_LINKS);
MLX5_DIAG_CAP_ATTR(counting_refresh_ms, MLX5_DIAG_CAP_COUNTING_REFRESH_MS);
MLX5_DIAG_CAP_ATTR(counting_mode, MLX5_DIAG_CAP_COUNTING_MODE);
MLX5_DIAG_CAP_ATTR(record_abi, MLX5_DIAG_CAP_RECORD_ABI);

static struct attribute *mlx5_diag_caps_attrs[] = {
	&mlx5_diag_caps_attr_max_data_ids.attr.attr,
	&mlx5_diag_caps_attr_log_max_samples.attr.attr,
	&mlx5_diag_caps_attr_min_sample_period_ns.attr.attr,
	&mlx5_diag_caps_attr_max_sample_period_ns.attr.attr,
	&mlx5_diag_caps_attr_device_frequency_khz.attr.attr,
	&mlx5_diag_caps_attr_modes.attr.attr,
	&mlx5_diag_caps_attr_sync.attr.attr,
	&mlx5_diag_caps_attr_clear.attr.attr,
	&mlx5_diag_caps_attr_on_demand.attr.attr,
	&mlx5_diag_caps_attr_sync_ids.attr.attr,
	&mlx5_diag_caps_attr_dialect.attr.attr,
	&mlx5_diag_caps_attr_num_ports.attr.attr,
	&mlx5_diag_caps_attr_num_hosts.attr.attr,
	&mlx5_diag_caps_attr_num_functions.attr.attr,
	&mlx5_diag_caps_attr_num_pcie_links.attr.attr,
	&mlx5_diag_caps_attr_counting_refresh_ms.attr.attr,
	&mlx5_diag_caps_attr_counting_mode.attr.attr,
	&mlx5_diag_caps_attr_record_abi.attr.attr,
	NULL
};

static const struct attribute_group mlx5_diag_caps_group = {
	.name = "caps",
	.attrs = mlx5_diag_caps_attrs,
};

/* ---- format/: one file per field of the table ---- */

struct mlx5_diag_format_attr {
	struct device_attribute attr;
	enum mlx5_diag_field_id field;
};

static ssize_t mlx5_diag_format_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return mlx5_diag_field_format(container_of(attr,
						   struct mlx5_diag_format_attr,
						   attr)->field,
				      buf, PAGE_SIZE);
}

static struct mlx5_diag_format_attr mlx5_diag_format_attrs[MLX5_DIAG_F_MAX];
static struct attribute *mlx5_diag_format_attr_ptrs[MLX5_DIAG_F_MAX + 1];

/* A device shows the id fields of its dialect only, and every option. */
static umode_t mlx5_diag_format_visible(struct kobject *kobj,
					struct attribute *attr, int n)
{
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(kobj_to_dev(kobj));

	switch (mlx5_diag_fields[n].scope) {
	case MLX5_DIAG_SCOPE_DATA_ID:
		return dd->fw.caps.model64 ? attr->mode : 0;
	case MLX5_DIAG_SCOPE_FW_COUNTER:
		return dd->fw.caps.model64 ? 0 : attr->mode;
	case MLX5_DIAG_SCOPE_OPTION:
		break;
	}
	return attr->mode;
}

static const struct attribute_group mlx5_diag_format_group = {
	.name = "format",
	.attrs = mlx5_diag_format_attr_ptrs,
	.is_visible = mlx5_diag_format_visible,
};

/* Build format/ from the field table, once at module load. */
void mlx5_diag_sysfs_init(void)
{
	int f;

	for (f = 0; f < MLX5_DIAG_F_MAX; f++) {
		struct mlx5_diag_format_attr *fa = &mlx5_diag_format_attrs[f];

		sysfs_attr_init(&fa->attr.attr);
		fa->attr.attr.name = mlx5_diag_fields[f].name;
		fa->attr.attr.mode = 0444;
		fa->attr.show = mlx5_diag_format_show;
		fa->field = f;
		mlx5_diag_format_attr_ptrs[f] = &fa->attr.attr;
	}
}

/* ---- engine/: state and counters of the diagnostic engine ---- */

enum mlx5_diag_engine_file {
	MLX5_DIAG_ENG_STATE,
	MLX5_DIAG_ENG_POLLS,
	MLX5_DIAG_ENG_LOST_SAMPLES,
	MLX5_DIAG_ENG_COUNTER_RESETS,
	MLX5_DIAG_ENG_TAKEOVERS,
	MLX5_DIAG_ENG_SET_FAILURES,
	MLX5_DIAG_ENG_DISABLE_RETRIES,
	MLX5_DIAG_ENG_FOREIGN_CONFIGS,
	MLX5_DIAG_ENG_UNUSABLE_ANSWERS,
	MLX5_DIAG_ENG_BAD_SAMPLES,
	MLX5_DIAG_ENG_UNREPORTED_PERIODS,
	MLX5_DIAG_ENG_RECKONED_STARTS,
	MLX5_DIAG_ENG_PERIOD_RESTARTS,
	MLX5_DIAG_ENG_RTC_STILL,
	MLX5_DIAG_ENG_SLOT_IDS,
	MLX5_DIAG_ENG_NUM_SAMPLES_UNIT,
	MLX5_DIAG_ENG_SAMPLE_ID_BITS,
	MLX5_DIAG_ENG_BUSY_ANSWERS,
	MLX5_DIAG_ENG_ENTRY_ORDER,
	MLX5_DIAG_ENG_SAMPLE_ID_START,
};

static const char *const mlx5_diag_engine_reading_names[] = {
	[MLX5_DIAG_READING_UNKNOWN] = "unknown",
	[MLX5_DIAG_READING_SAMPLES] = "samples",
	[MLX5_DIAG_READING_ENTRIES] = "entries",
};

static const char *const mlx5_diag_engine_order_names[] = {
	[MLX5_DIAG_ORDER_UNKNOWN] = "unknown",
	[MLX5_DIAG_ORDER_SET] = "set",
	[MLX5_DIAG_ORDER_OTHER] = "other",
};

static const char *const mlx5_diag_engine_seq_start_names[] = {
	[MLX5_DIAG_SEQ_UNKNOWN] = "unknown",
	[MLX5_DIAG_SEQ_ZERO] = "zero",
	[MLX5_DIAG_SEQ_CONTINUED] = "continued",
	[MLX5_DIAG_SEQ_SLOT] = "slot",
};

static ssize_t mlx5_diag_engine_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct mlx5_diag_dev *dd = mlx5_diag_dev_from_sysfs(dev);
	struct mlx5_diag_engine_learnt learnt;
	struct mlx5_diag_engine_stats st;
	enum mlx5_diag_engine_state state;

	mlx5_diag_engine_status(&dd->engine, &state, &st);
	mlx5_diag_engine_learnt(&dd->engine, &learnt);
	switch (mlx5_diag_value_which(attr)) {
	case MLX5_DIAG_ENG_STATE:
		return sysfs_emit(buf, "%s\n", mlx5_diag_engine_state_name(state));
	case MLX5_DIAG_ENG_POLLS:
		return sysfs_emit(buf, "%llu\n", st.polls);
	case MLX5_DIAG_ENG_LOST_SAMPLES:
		return sysfs_emit(buf, "%llu\n", st.lost_samples);
	case MLX5_DIAG_ENG_COUNTER_RESETS:
		return sysfs_emit(buf, "%llu\n", st.counter_resets);
	case MLX5_DIAG_ENG_TAKEOVERS:
		return sysfs_emit(buf, "%llu\n", st.takeovers);
	case MLX5_DIAG_ENG_SET_FAILURES:
		return sysfs_emit(buf, "%llu\n", st.set_failures);
	case MLX5_DIAG_ENG_DISABLE_RETRIES:
		return sysfs_emit(buf, "%llu\n", st.disable_retries);
	case MLX5_DIAG_ENG_FOREIGN_CONFIGS:
		return sysfs_emit(buf, "%llu\n", st.foreign_configs);
	case MLX5_DIAG_ENG_UNUSABLE_ANSWERS:
		return sysfs_emit(buf, "%llu\n", st.unusable_answers);
	case MLX5_DIAG_ENG_BAD_SAMPLES:
		return sysfs_emit(buf, "%llu\n", st.bad_samples);
	case MLX5_DIAG_ENG_UNREPORTED_PERIODS:
		return sysfs_emit(buf, "%llu\n", st.unreported_periods);
	case MLX5_DIAG_ENG_RECKONED_STARTS:
		return sysfs_emit(buf, "%llu\n", st.reckoned_starts);
	case MLX5_DIAG_ENG_PERIOD_RESTARTS:
		return sysfs_emit(buf, "%llu\n", st.period_restarts);
	case MLX5_DIAG_ENG_RTC_STILL:
		return sysfs_emit(buf, "%d\n", READ_ONCE(dd->fw.rtc_still));
	case MLX5_DIAG_ENG_SLOT_IDS:
		return sysfs_emit(buf, "%d\n", READ_ONCE(dd->fw.slot_ids));
	case MLX5_DIAG_ENG_NUM_SAMPLES_UNIT:
		return sysfs_emit(buf, "%s\n",
				  mlx5_diag_engine_reading_names[learnt.reading]);
	case MLX5_DIAG_ENG_SAMPLE_ID_BITS:
		return sysfs_emit(buf, "%u\n", learnt.sample_id_bits);
	case MLX5_DIAG_ENG_BUSY_ANSWERS:
		return sysfs_emit(buf, "%lld\n",
				  (long long)atomic64_read(&dd->fw.busy_answers));
	case MLX5_DIAG_ENG_ENTRY_ORDER:
		return sysfs_emit(buf, "%s\n",
				  mlx5_diag_engine_order_names[learnt.entry_order]);
	case MLX5_DIAG_ENG_SAMPLE_ID_START:
		return sysfs_emit(buf, "%s\n",
				  mlx5_diag_engine_seq_start_names[learnt.sample_id_start]);
	}
	return -EINVAL;
}

#define MLX5_DIAG_ENGINE_ATTR(_name, _file) \
	MLX5_DIAG_VALUE_ATTR(engine, _name, _file)

MLX5_DIAG_ENGINE_ATTR(state, MLX5_DIAG_ENG_STATE);
MLX5_DIAG_ENGINE_ATTR(polls, MLX5_DIAG_ENG_POLLS);
MLX5_DIAG_ENGINE_ATTR(lost_samples, MLX5_DIAG_ENG_LOST_SAMPLES);
MLX5_DIAG_ENGINE_ATTR(counter_resets, MLX5_DIAG_ENG_COUNTER_RESETS);
MLX5_DIAG_ENGINE_ATTR(takeovers, MLX5_DIAG_ENG_TAKEOVERS);
MLX5_DIAG_ENGINE_ATTR(set_failures, MLX5_DIAG_ENG_SET_FAILURES);
MLX5_DIAG_ENGINE_ATTR(disable_retries, MLX5_DIAG_ENG_DISABLE_RETRIES);
MLX5_DIAG_ENGINE_ATTR(foreign_configs, MLX5_DIAG_ENG_FOREIGN_CONFIGS);
MLX5_DIAG_ENGINE_ATTR(unusable_answers, MLX5_DIAG_ENG_UNUSABLE_ANSWERS);
MLX5_DIAG_ENGINE_ATTR(bad_samples, MLX5_DIAG_ENG_BAD_SAMPLES);
MLX5_DIAG_ENGINE_ATTR(unreported_periods, MLX5_DIAG_ENG_UNREPORTED_PERIODS);
MLX5_DIAG_ENGINE_ATTR(reckoned_starts, MLX5_DIAG_ENG_RECKONED_STARTS);
MLX5_DIAG_ENGINE_ATTR(period_restarts, MLX5_DIAG_ENG_PERIOD_RESTARTS);
MLX5_DIAG_ENGINE_ATTR(rtc_still, MLX5_DIAG_ENG_RTC_STILL);
MLX5_DIAG_ENGINE_ATTR(slot_ids, MLX5_DIAG_ENG_SLOT_IDS);
MLX5_DIAG_ENGINE_ATTR(num_samples_unit, MLX5_DIAG_ENG_NUM_SAMPLES_UNIT);
MLX5_DIAG_ENGINE_ATTR(sample_id_bits, MLX5_DIAG_ENG_SAMPLE_ID_BITS);
MLX5_DIAG_ENGINE_ATTR(busy_answers, MLX5_DIAG_ENG_BUSY_ANSWERS);
MLX5_DIAG_ENGINE_ATTR(entry_order, MLX5_DIAG_ENG_ENTRY_ORDER);
MLX5_DIAG_ENGINE_ATTR(sample_id_start, MLX5_DIAG_ENG_SAMPLE_ID_START);

static struct attribute *mlx5_diag_engine_attrs[] = {
	&mlx5_diag_engine_attr_state.attr.attr,
	&mlx5_diag_engine_attr_polls.attr.attr,
	&mlx5_diag_engine_attr_lost_samples.attr.attr,
	&mlx5_diag_engine_attr_counter_resets.attr.attr,
	&mlx5_diag_engine_attr_takeovers.attr.attr,
	&mlx5_diag_engine_attr_set_failures.attr.attr,
	&mlx5_diag_engine_attr_disable_retries.attr.attr,
	&mlx5_diag_engine_attr_foreign_configs.attr.attr,
	&mlx5_diag_engine_attr_unusable_answers.attr.attr,
	&mlx5_diag_engine_attr_bad_samples.attr.attr,
	&mlx5_diag_engine_attr_unreported_periods.attr.attr,
	&mlx5_diag_engine_attr_reckoned_starts.attr.attr,
	&mlx5_diag_engine_attr_period_restarts.attr.attr,
	&mlx5_diag_engine_attr_rtc_still.attr.attr,
	&mlx5_diag_engine_attr_slot_ids.attr.attr,
	&mlx5_diag_engine_attr_num_samples_unit.attr.attr,
	&mlx5_diag_engine_attr_sample_id_bits.attr.attr,
	&mlx5_diag_engine_attr_busy_answers.attr.attr,
	&mlx5_diag_engine_attr_entry_order.attr.attr,
	&mlx5_diag_engine_attr_sample_id_start.attr.attr,
	NULL
};

static const struct attribute_group mlx5_diag_engine_group = {
	.name = "engine",
	.attrs = mlx5_diag_engine_attrs,
};

/* ---- cpumask, identifier, function, firmware_version ---- */

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

/*
 * What the PMU is, for perf's pmu-events "Compat": the firmware dialect,
 * which decides the events it has and what they mean.
 */
static ssize_t identifier_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  mlx5_diag_dev_from_sysfs(dev)->fw.dialect->name);
}
static DEVICE_ATTR_RO(identifier);

/* The function served, copied at probe: valid after the device left. */
static ssize_t function_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", mlx5_diag_dev_from_sysfs(dev)->identifier);
}
static DEVICE_ATTR_RO(function);

/* The firmware's version when the device was added: copied, like function. */
static ssize_t firmware_version_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  mlx5_diag_dev_from_sysfs(dev)->firmware_version);
}
static DEVICE_ATTR_RO(firmware_version);

static struct attribute *mlx5_diag_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_identifier.attr,
	&dev_attr_function.attr,
	&dev_attr_firmware_version.attr,
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
			return mlx5_diag_clock_scale(&dd->fw.caps, buf);
		return sysfs_emit(buf, "%s\n", e->scale);
	}
	return -EINVAL;
}

/* Data IDs on a 64-bit device, firmware counters on a public 16-bit one. */
static bool mlx5_diag_entry_in_dialect(const struct mlx5_diag_dev *dd,
				       const struct mlx5_diag_catalog_entry *e)
{
	return (e->group == MLX5_DIAG_GRP_FW_COUNTER) != dd->fw.caps.model64;
}

static int mlx5_diag_add_event_attr(struct mlx5_diag_sysfs *sf,
				    const struct mlx5_diag_catalog_entry *e,
				    int what, const char *suffix)
{
	struct mlx5_diag_event_attr *ea = &sf->event_attrs[sf->num_event_attrs];

	sysfs_attr_init(&ea->attr.attr);
	ea->attr.attr.name = kasprintf(GFP_KERNEL, "%s%s", e->name, suffix);
	if (!ea->attr.attr.name)
		return -ENOMEM;
	ea->attr.attr.mode = 0444;
	ea->attr.show = mlx5_diag_event_show;
	ea->entry = e;
	ea->what = what;
	sf->event_attr_ptrs[sf->num_event_attrs++] = &ea->attr.attr;
	return 0;
}

void mlx5_diag_sysfs_free(struct mlx5_diag_dev *dd)
{
	struct mlx5_diag_sysfs *sf = &dd->sysfs;
	unsigned int i;

	for (i = 0; i < sf->num_event_attrs; i++)
		kfree(sf->event_attrs[i].attr.attr.name);
	kfree(sf->event_attrs);
	kfree(sf->event_attr_ptrs);
	sf->event_attrs = NULL;
	sf->event_attr_ptrs = NULL;
	sf->num_event_attrs = 0;
}

/* The PMU's attribute groups; events/ lists what the device offers. */
int mlx5_diag_sysfs_build(struct mlx5_diag_dev *dd)
{
	struct mlx5_diag_sysfs *sf = &dd->sysfs;
	unsigned int i, max = 3 * mlx5_diag_catalog_size;
	int ret = 0;

	sf->event_attrs = kcalloc(max, sizeof(*sf->event_attrs), GFP_KERNEL);
	sf->event_attr_ptrs = kcalloc(max + 1, sizeof(*sf->event_attr_ptrs),
				      GFP_KERNEL);
	if (!sf->event_attrs || !sf->event_attr_ptrs) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < mlx5_diag_catalog_size && !ret; i++) {
		const struct mlx5_diag_catalog_entry *e = &mlx5_diag_catalog[i];

		if (!mlx5_diag_entry_in_dialect(dd, e) ||
		    !mlx5_diag_fw_cap_lookup(&dd->fw.caps,
					     mlx5_diag_catalog_key(e)))
			continue;
		ret = mlx5_diag_add_event_attr(sf, e, MLX5_DIAG_EV_ALIAS, "");
		if (!ret && e->unit)
			ret = mlx5_diag_add_event_attr(sf, e, MLX5_DIAG_EV_UNIT,
						       ".unit");
		if (!ret && (e->scale || mlx5_diag_entry_in_clocks(e)))
			ret = mlx5_diag_add_event_attr(sf, e, MLX5_DIAG_EV_SCALE,
						       ".scale");
	}
	if (ret)
		goto err;
	sf->events_group.name = "events";
	sf->events_group.attrs = sf->event_attr_ptrs;
	sf->groups[0] = &sf->events_group;
	sf->groups[1] = &mlx5_diag_format_group;
	sf->groups[2] = &mlx5_diag_caps_group;
	sf->groups[3] = &mlx5_diag_engine_group;
	sf->groups[4] = &mlx5_diag_common_group;
	return 0;
err:
	mlx5_diag_sysfs_free(dd);
	return ret;
}
