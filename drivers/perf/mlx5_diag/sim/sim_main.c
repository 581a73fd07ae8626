// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: module glue - emulated devices on the auxiliary bus, their
 * command transport (latency, stalls, locking) and the debugfs controls.
 */
#include <linux/auxiliary_bus.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "mlx5_diag_aux.h"
#include "sim.h"
#include "sim_pace.h"

#define SIM_MAX_DEVICES		16
#define SIM_DEFAULT_LATENCY_US	50
/* the firmware version reported: 28.0.0 (ConnectX-7 firmware is 28.x.y) */
#define SIM_DEFAULT_FW_MAJOR	28
#define SIM_MAX_LATENCY_US	1000000
#define SIM_MAX_STALL_MS	60000
#define SIM_DBG_BUF		PAGE_SIZE

static unsigned int nr_devices = 2;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "number of emulated devices (1..16, default 2)");

static char *profile = "model64";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "firmware profile of every device at creation: model64 (default) or public");

static const char *const sim_profile_names[] = {
	[MLX5_DIAG_SIM_MODEL64]	= "model64",
	[MLX5_DIAG_SIM_PUBLIC]	= "public",
};

/* debugfs files of a device, besides caps/<name> */
enum sim_file_id {
	SIM_F_PRESENT,
	SIM_F_FOREIGN_OWNER,
	SIM_F_FAIL_NEXT,
	SIM_F_STALL_MS,
	SIM_F_COUNTER_WRAP_BITS,
	SIM_F_CMD_LATENCY_US,
	SIM_F_CLOCK_OFFSET,
	SIM_F_PROFILE,
	SIM_F_NUM_SAMPLES_UNIT,
	SIM_F_CLOCK_MODE,
	SIM_F_ADVANCE_NS,
	SIM_F_NOW_NS,
	SIM_F_DRIFT_PPM,
	SIM_F_CLOCK_STEP,
	SIM_F_CLOCK,
	SIM_F_SAMPLE_TIME,
	SIM_F_ENGINE_TIME,
	SIM_F_MODEL,
	SIM_F_LIE,
	SIM_F_VARIANT,
	SIM_F_FAIL_QUERY_AT,
	SIM_F_FAIL_CLOCK_READS,
	SIM_F_FUZZ_SEED,
	SIM_F_FUZZ_RATE,
	SIM_F_FIRMWARE_VERSION,
	SIM_F_STAT0,		/* stats/<name> from here on */
	SIM_F_STAT_PRODUCED = SIM_F_STAT0,
	SIM_F_STAT_RETURNED,
	SIM_F_STAT_OVERWRITTEN,
	SIM_F_STAT_DISCARDED,
	SIM_F_STAT_CONFIGS,
	SIM_F_STAT_COMMANDS,
	SIM_F_STAT_FAILED,
	SIM_F_STAT_STALLS,
	SIM_F_STAT_STALLED_US,
	SIM_F_STAT_INBOX_BYTES,
	SIM_F_STAT_OUTBOX_BYTES,
	SIM_F_STAT_EXEC_NS,
	SIM_F_STAT_FUZZED,
	SIM_F_CAP0,		/* caps/<mlx5_diag_sim_cap_name(id - SIM_F_CAP0)> */
};

struct sim_file_desc {
	const char *name;
	umode_t mode;
};

static const struct sim_file_desc sim_files[SIM_F_CAP0] = {
	[SIM_F_PRESENT]			= { "present", 0644 },
	[SIM_F_FOREIGN_OWNER]		= { "foreign_owner", 0644 },
	[SIM_F_FAIL_NEXT]		= { "fail_next", 0644 },
	[SIM_F_STALL_MS]		= { "stall_ms", 0644 },
	[SIM_F_COUNTER_WRAP_BITS]	= { "counter_wrap_bits", 0644 },
	[SIM_F_CMD_LATENCY_US]		= { "cmd_latency_us", 0644 },
	[SIM_F_CLOCK_OFFSET]		= { "clock_offset", 0644 },
	[SIM_F_PROFILE]			= { "profile", 0644 },
	[SIM_F_NUM_SAMPLES_UNIT]	= { "num_samples_unit", 0644 },
	[SIM_F_CLOCK_MODE]		= { "clock_mode", 0644 },
	[SIM_F_ADVANCE_NS]		= { "advance_ns", 0200 },
	[SIM_F_NOW_NS]			= { "now_ns", 0444 },
	[SIM_F_DRIFT_PPM]		= { "drift_ppm", 0644 },
	[SIM_F_CLOCK_STEP]		= { "clock_step", 0200 },
	[SIM_F_CLOCK]			= { "clock", 0444 },
	[SIM_F_SAMPLE_TIME]		= { "sample_time", 0644 },
	[SIM_F_ENGINE_TIME]		= { "engine_time", 0444 },
	[SIM_F_MODEL]			= { "model", 0644 },
	[SIM_F_LIE]			= { "lie", 0644 },
	[SIM_F_VARIANT]			= { "variant", 0644 },
	[SIM_F_FAIL_QUERY_AT]		= { "fail_query_at", 0644 },
	[SIM_F_FAIL_CLOCK_READS]	= { "fail_clock_reads", 0644 },
	[SIM_F_FUZZ_SEED]		= { "fuzz_seed", 0644 },
	[SIM_F_FUZZ_RATE]		= { "fuzz_rate", 0644 },
	[SIM_F_FIRMWARE_VERSION]	= { "firmware_version", 0644 },
	[SIM_F_STAT_PRODUCED]		= { "samples_produced", 0444 },
	[SIM_F_STAT_RETURNED]		= { "samples_returned", 0444 },
	[SIM_F_STAT_OVERWRITTEN]	= { "samples_overwritten", 0444 },
	[SIM_F_STAT_DISCARDED]		= { "samples_discarded", 0444 },
	[SIM_F_STAT_CONFIGS]		= { "configs", 0444 },
	[SIM_F_STAT_COMMANDS]		= { "commands", 0444 },
	[SIM_F_STAT_FAILED]		= { "commands_failed", 0444 },
	[SIM_F_STAT_STALLS]		= { "stalls", 0444 },
	[SIM_F_STAT_STALLED_US]		= { "stalled_us", 0444 },
	[SIM_F_STAT_INBOX_BYTES]	= { "inbox_bytes", 0444 },
	[SIM_F_STAT_OUTBOX_BYTES]	= { "outbox_bytes", 0444 },
	[SIM_F_STAT_EXEC_NS]		= { "exec_ns", 0444 },
	[SIM_F_STAT_FUZZED]		= { "answers_fuzzed", 0444 },
};

struct sim_dev;

/* What a debugfs file's i_private points at. */
struct sim_file {
	struct sim_dev *sd;
	unsigned int id;
};

/* One registration of a device on the auxiliary bus. */
struct sim_adev {
	struct mlx5_diag_aux_dev dev;
	struct sim_dev *sd;
};

/**
 * struct sim_dev - an emulated device
 * @index: n, as in "mlx5_diag_sim.diag.<n>" and "sim:<n>"
 * @fw: the firmware core
 * @lock: serialises commands and every access to @fw and the knobs; held
 *	across a command's stall and latency
 * @present_lock: serialises adding and deleting the auxiliary device
 * @adev: the registration while present, NULL otherwise (written with both
 *	locks held)
 * @fw_rev: the firmware version the next registration reports: major,
 *	minor, subminor (under @present_lock)
 * @time: maps ktime_get_ns() to the firmware core's now_ns (running or
 *	manual)
 * @stall_ms: one-shot stall of the next command
 * @stalls: commands that stalled
 * @stalled_us: how long they slept in their stalls, measured, in total
 * @inbox_bytes: the input mailboxes of the commands the firmware answered
 * @outbox_bytes: their output mailboxes, the length the caller gave
 * @exec_ns: CPU time the callers spent inside the transport's commands
 *	(sim_task_cpu_ns()): the firmware core, the lock, and what sleeping
 *	out a latency or a stall costs, not the time asleep
 * @cmd_latency_us: latency of every command
 * @fail_clock_reads: the next reads of the clock registers that fail
 * @sample_j: the sample index sample_time reports on
 * @model_set: @model_id, @model_t0 and @model_t1 were written
 * @model_id: the identity the model file reports on
 * @model_t0: start of its interval, engine ns
 * @model_t1: end of its interval, engine ns
 * @files: debugfs file contexts
 * @nr_files: entries in @files
 */
struct sim_dev {
	unsigned int index;
	struct mlx5_diag_sim_fw *fw;
	struct mutex lock;		/* see @lock above */
	struct mutex present_lock;	/* see @present_lock above */
	struct sim_adev *adev;
	u16 fw_rev[3];
	struct mlx5_diag_sim_time time;
	unsigned int stall_ms;
	u64 stalls;
	u64 stalled_us;
	u64 inbox_bytes;
	u64 outbox_bytes;
	u64 exec_ns;
	unsigned int cmd_latency_us;
	unsigned int fail_clock_reads;
	u64 sample_j;
	bool model_set;
	u64 model_id;
	u64 model_t0;
	u64 model_t1;
	struct sim_file *files;
	unsigned int nr_files;
};

static struct device *sim_root;
static struct dentry *sim_dbg_root;
static struct sim_dev **sim_devs;

/* The emulator's time (the firmware core's now_ns); caller holds sd->lock. */
static u64 sim_now_ns(const struct sim_dev *sd)
{
	return mlx5_diag_sim_time_now(&sd->time, ktime_get_ns());
}

/*
 * The CPU time the current task has run, as the scheduler accounts it and
 * /proc/PID/schedstat reads it (task_sched_runtime(), not exported): what
 * the last switch or tick added up (sum_exec_runtime), and the time since,
 * from exec_start on the runqueue's task clock. That clock is local_clock()
 * where neither interrupt nor steal time is taken out of it
 * (CONFIG_IRQ_TIME_ACCOUNTING and CONFIG_PARAVIRT_TIME_ACCOUNTING off, as in
 * Debian's kernels and the test kernel); otherwise the time since counts
 * those in. Interrupts off: no tick updates the two between the reads.
 */
static u64 sim_task_cpu_ns(void)
{
	const struct sched_entity *se = &current->se;
	unsigned long flags;
	u64 now, ns;

	local_irq_save(flags);
	now = local_clock();
	ns = se->sum_exec_runtime;
	if (now > se->exec_start)
		ns += now - se->exec_start;
	local_irq_restore(flags);
	return ns;
}

static int sim_exec(struct mlx5_diag_aux_dev *dev, const void *in, int inlen,
		    void *out, int outlen)
{
	struct sim_adev *sa = container_of(dev, struct sim_adev, dev);
	struct sim_dev *sd = sa->sd;
	u64 cpu0 = sim_task_cpu_ns();
	unsigned int stall, lat;
	u64 t0;
	int ret;

	might_sleep();
	mutex_lock(&sd->lock);
	if (sd->adev != sa) {
		ret = -ENODEV;
		goto out;
	}
	stall = sd->stall_ms;
	sd->stall_ms = 0;
	if (stall) {
		t0 = ktime_get_ns();
		msleep(stall);
		sd->stalls++;
		sd->stalled_us += div_u64(ktime_get_ns() - t0, NSEC_PER_USEC);
	}
	lat = sd->cmd_latency_us;
	if (lat)
		usleep_range(lat, lat + lat / 4 + 1);
	ret = mlx5_diag_sim_fw_exec(sd->fw, sim_now_ns(sd), in, inlen, out,
				    outlen);
	if (!ret) {
		sd->inbox_bytes += inlen;
		sd->outbox_bytes += outlen;
	}
out:
	sd->exec_ns += sim_task_cpu_ns() - cpu0;
	mutex_unlock(&sd->lock);
	return ret;
}

/*
 * The clock registers: the host clock brackets the instant the emulator's
 * time is taken, interrupts off; the device clock is computed from it.
 */
static int sim_read_clock(struct mlx5_diag_aux_dev *dev, bool rtc,
			  struct mlx5_diag_clock_read *r)
{
	struct sim_adev *sa = container_of(dev, struct sim_adev, dev);
	struct sim_dev *sd = sa->sd;
	unsigned long flags;
	int ret = -ENODEV;
	u64 host;

	mutex_lock(&sd->lock);
	if (sd->adev == sa && sd->fail_clock_reads) {
		/* a read error of the registers (fail_clock_reads) */
		sd->fail_clock_reads--;
		ret = -EIO;
	} else if (sd->adev == sa) {
		/* the registers latch the clock at one host instant */
		local_irq_save(flags);
		r->host_before = r->host_clock(r->arg);
		host = ktime_get_ns();
		r->host_after = r->host_clock(r->arg);
		local_irq_restore(flags);
		ret = mlx5_diag_sim_fw_read_clock(sd->fw,
						  mlx5_diag_sim_time_now(&sd->time,
									 host),
						  rtc, &r->device);
	}
	mutex_unlock(&sd->lock);
	return ret;
}

static const struct mlx5_diag_aux_ops sim_aux_ops = {
	.exec = sim_exec,
	.read_clock = sim_read_clock,
};

static void sim_adev_release(struct device *dev)
{
	struct auxiliary_device *adev = to_auxiliary_dev(dev);

	kfree(container_of(to_mlx5_diag_aux_dev(adev), struct sim_adev, dev));
}

/* Register the device on the auxiliary bus. Caller holds present_lock. */
static int sim_dev_add(struct sim_dev *sd)
{
	struct sim_adev *sa;
	int err;

	if (sd->adev)
		return 0;
	sa = kzalloc(sizeof(*sa), GFP_KERNEL);
	if (!sa)
		return -ENOMEM;
	sa->sd = sd;
	sa->dev.ops = &sim_aux_ops;
	snprintf(sa->dev.identifier, sizeof(sa->dev.identifier), "sim:%u",
		 sd->index);
	snprintf(sa->dev.firmware_version, sizeof(sa->dev.firmware_version),
		 "%u.%u.%u", sd->fw_rev[0], sd->fw_rev[1], sd->fw_rev[2]);
	sa->dev.adev.name = MLX5_DIAG_AUX_DEV_NAME;
	sa->dev.adev.id = sd->index;
	sa->dev.adev.dev.parent = sim_root;
	sa->dev.adev.dev.release = sim_adev_release;
	err = auxiliary_device_init(&sa->dev.adev);
	if (err) {
		kfree(sa);
		return err;
	}
	/* present before add: the driver's probe may run commands */
	mutex_lock(&sd->lock);
	sd->adev = sa;
	mutex_unlock(&sd->lock);
	err = auxiliary_device_add(&sa->dev.adev);
	if (err) {
		mutex_lock(&sd->lock);
		sd->adev = NULL;
		mutex_unlock(&sd->lock);
		auxiliary_device_uninit(&sa->dev.adev);
	}
	return err;
}

/* Unregister the device. Caller holds present_lock. */
static void sim_dev_del(struct sim_dev *sd)
{
	struct sim_adev *sa = sd->adev;

	if (!sa)
		return;
	/* the driver's remove may still run commands: still present */
	auxiliary_device_delete(&sa->dev.adev);
	/* taking the lock waits for the command in flight, if any */
	mutex_lock(&sd->lock);
	sd->adev = NULL;
	mutex_unlock(&sd->lock);
	auxiliary_device_uninit(&sa->dev.adev);
}

static int sim_parse_uint(const char *buf, unsigned int max,
			  unsigned int *val)
{
	unsigned int v;

	if (kstrtouint(buf, 0, &v) || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

static int sim_show_cap(struct sim_dev *sd, unsigned int cap, char *buf)
{
	struct mlx5_diag_sim_caps *caps;
	int ret;

	caps = kmalloc(sizeof(*caps), GFP_KERNEL);
	if (!caps)
		return -ENOMEM;
	mutex_lock(&sd->lock);
	mlx5_diag_sim_fw_get_caps(sd->fw, caps);
	mutex_unlock(&sd->lock);
	ret = mlx5_diag_sim_cap_show(caps, cap, buf, SIM_DBG_BUF);
	kfree(caps);
	return ret;
}

static int sim_store_cap(struct sim_dev *sd, unsigned int cap,
			 const char *buf)
{
	struct mlx5_diag_sim_caps *caps;
	int ret;

	caps = kmalloc(sizeof(*caps), GFP_KERNEL);
	if (!caps)
		return -ENOMEM;
	mutex_lock(&sd->lock);
	mlx5_diag_sim_fw_get_caps(sd->fw, caps);
	ret = mlx5_diag_sim_cap_store(caps, cap, buf);
	if (!ret)
		ret = mlx5_diag_sim_fw_set_caps(sd->fw, sim_now_ns(sd), caps);
	mutex_unlock(&sd->lock);
	kfree(caps);
	return ret;
}

/* One of the firmware core's statistics. */
static u64 sim_stat(struct sim_dev *sd, unsigned int id)
{
	struct mlx5_diag_sim_stats st;

	mlx5_diag_sim_fw_sync(sd->fw, sim_now_ns(sd));
	mlx5_diag_sim_fw_get_stats(sd->fw, &st);
	switch (id) {
	case SIM_F_STAT_PRODUCED:
		return st.samples_produced;
	case SIM_F_STAT_RETURNED:
		return st.samples_returned;
	case SIM_F_STAT_OVERWRITTEN:
		return st.samples_overwritten;
	case SIM_F_STAT_DISCARDED:
		return st.samples_discarded;
	case SIM_F_STAT_CONFIGS:
		return st.configs;
	case SIM_F_STAT_COMMANDS:
		return st.commands;
	case SIM_F_STAT_FUZZED:
		return st.answers_fuzzed;
	default:
		return st.commands_failed;
	}
}

/* "<j> <host ns> <device clock>" of sample_j; caller holds sd->lock. */
static int sim_show_sample_time(struct sim_dev *sd, char *buf)
{
	u64 ns, clock;
	int err;

	err = mlx5_diag_sim_fw_sample_time(sd->fw, sd->sample_j, &ns, &clock);
	if (err)
		return err;
	return scnprintf(buf, SIM_DBG_BUF, "%llu %llu %llu\n", sd->sample_j,
			 mlx5_diag_sim_time_to_host(&sd->time, ns), clock);
}

/* "<engine ns> <oscillator clocks>" now; caller holds sd->lock. */
static int sim_show_engine_time(struct sim_dev *sd, char *buf)
{
	u64 clocks, ns;
	int err;

	err = mlx5_diag_sim_fw_engine_time(sd->fw, sim_now_ns(sd), &clocks,
					   &ns);
	if (err)
		return err;
	return scnprintf(buf, SIM_DBG_BUF, "%llu %llu\n", ns, clocks);
}

/* The lies told, one "name value" line each; caller holds sd->lock. */
static int sim_show_lies(struct sim_dev *sd, char *buf)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < MLX5_DIAG_SIM_NR_LIES; i++)
		if (mlx5_diag_sim_fw_lie(sd->fw, i))
			n += scnprintf(buf + n, SIM_DBG_BUF - n, "%s %u\n",
				       mlx5_diag_sim_lie_name(i),
				       mlx5_diag_sim_fw_lie(sd->fw, i));
	return n ?: scnprintf(buf, SIM_DBG_BUF, "none\n");
}

/* "none", or one lie; caller holds sd->lock. */
static int sim_store_lie(struct sim_dev *sd, const char *buf)
{
	unsigned int lie, i;
	u32 value;

	if (mlx5_diag_sim_parse_lie(buf, &lie, &value))
		return -EINVAL;
	if (lie < MLX5_DIAG_SIM_NR_LIES)
		return mlx5_diag_sim_fw_set_lie(sd->fw, lie, value);
	for (i = 0; i < MLX5_DIAG_SIM_NR_LIES; i++)
		mlx5_diag_sim_fw_set_lie(sd->fw, i, 0);
	return 0;
}

/* The variants taken, one "name value" line each; caller holds sd->lock. */
static int sim_show_variants(struct sim_dev *sd, char *buf)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < MLX5_DIAG_SIM_NR_VARIANTS; i++)
		if (mlx5_diag_sim_fw_variant(sd->fw, i))
			n += scnprintf(buf + n, SIM_DBG_BUF - n, "%s %u\n",
				       mlx5_diag_sim_variant_name(i),
				       mlx5_diag_sim_fw_variant(sd->fw, i));
	return n ?: scnprintf(buf, SIM_DBG_BUF, "none\n");
}

/* "none", or one variant; caller holds sd->lock. */
static int sim_store_variant(struct sim_dev *sd, const char *buf)
{
	unsigned int var, i;
	u32 value;

	if (mlx5_diag_sim_parse_variant(buf, &var, &value))
		return -EINVAL;
	if (var < MLX5_DIAG_SIM_NR_VARIANTS)
		return mlx5_diag_sim_fw_set_variant(sd->fw, var, value);
	for (i = 0; i < MLX5_DIAG_SIM_NR_VARIANTS; i++)
		mlx5_diag_sim_fw_set_variant(sd->fw, i, 0);
	return 0;
}

/* The text of a file that is not a capability; caller holds sd->lock. */
static int sim_show_locked(struct sim_dev *sd, unsigned int id, char *buf)
{
	u32 count, synd;
	u64 host, now;
	u8 status;

	switch (id) {
	case SIM_F_FUZZ_SEED:
		mlx5_diag_sim_fw_get_fuzz(sd->fw, &now, &count);
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", now);
	case SIM_F_FUZZ_RATE:
		mlx5_diag_sim_fw_get_fuzz(sd->fw, &now, &count);
		return scnprintf(buf, SIM_DBG_BUF, "%u\n", count);
	case SIM_F_FOREIGN_OWNER:
		return scnprintf(buf, SIM_DBG_BUF, "%d\n",
				 mlx5_diag_sim_fw_foreign_owner(sd->fw));
	case SIM_F_FAIL_NEXT:
		mlx5_diag_sim_fw_get_fail_next(sd->fw, &count, &status, &synd);
		return scnprintf(buf, SIM_DBG_BUF, "%u 0x%x 0x%x\n", count,
				 status, synd);
	case SIM_F_FAIL_QUERY_AT:
		mlx5_diag_sim_fw_get_fail_query_at(sd->fw, &count, &status);
		return scnprintf(buf, SIM_DBG_BUF, "%u 0x%x\n", count, status);
	case SIM_F_FAIL_CLOCK_READS:
		return scnprintf(buf, SIM_DBG_BUF, "%u\n", sd->fail_clock_reads);
	case SIM_F_STALL_MS:
		return scnprintf(buf, SIM_DBG_BUF, "%u\n", sd->stall_ms);
	case SIM_F_COUNTER_WRAP_BITS:
		return scnprintf(buf, SIM_DBG_BUF, "%u\n",
				 mlx5_diag_sim_fw_counter_wrap_bits(sd->fw));
	case SIM_F_CMD_LATENCY_US:
		return scnprintf(buf, SIM_DBG_BUF, "%u\n", sd->cmd_latency_us);
	case SIM_F_CLOCK_OFFSET:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n",
				 mlx5_diag_sim_fw_clock_offset(sd->fw));
	case SIM_F_PROFILE:
		return scnprintf(buf, SIM_DBG_BUF, "%s\n",
				 sim_profile_names[mlx5_diag_sim_fw_profile(sd->fw)]);
	case SIM_F_NUM_SAMPLES_UNIT:
		return scnprintf(buf, SIM_DBG_BUF, "%s\n",
				 mlx5_diag_sim_fw_entries_unit(sd->fw) ?
				 "entries" : "samples");
	case SIM_F_CLOCK_MODE:
		return scnprintf(buf, SIM_DBG_BUF, "%s\n",
				 sd->time.manual ? "manual" : "running");
	case SIM_F_NOW_NS:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", sim_now_ns(sd));
	case SIM_F_DRIFT_PPM:
		return scnprintf(buf, SIM_DBG_BUF, "%d\n",
				 mlx5_diag_sim_fw_drift_ppm(sd->fw));
	case SIM_F_CLOCK:
		/* one host reading: the pair is exact */
		host = ktime_get_ns();
		now = mlx5_diag_sim_time_now(&sd->time, host);
		return scnprintf(buf, SIM_DBG_BUF, "%llu %llu\n", host,
				 mlx5_diag_sim_fw_clock(sd->fw, now));
	case SIM_F_SAMPLE_TIME:
		return sim_show_sample_time(sd, buf);
	case SIM_F_ENGINE_TIME:
		return sim_show_engine_time(sd, buf);
	case SIM_F_MODEL:
		if (!sd->model_set)
			return -ENODATA;
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n",
				 mlx5_diag_sim_traffic_value(sd->model_id,
							     sd->index,
							     sd->model_t0,
							     sd->model_t1,
							     true, 64));
	case SIM_F_LIE:
		return sim_show_lies(sd, buf);
	case SIM_F_VARIANT:
		return sim_show_variants(sd, buf);
	case SIM_F_STAT_STALLS:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", sd->stalls);
	case SIM_F_STAT_STALLED_US:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", sd->stalled_us);
	case SIM_F_STAT_INBOX_BYTES:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", sd->inbox_bytes);
	case SIM_F_STAT_OUTBOX_BYTES:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", sd->outbox_bytes);
	case SIM_F_STAT_EXEC_NS:
		return scnprintf(buf, SIM_DBG_BUF, "%llu\n", sd->exec_ns);
	default:
		if (id >= SIM_F_STAT0)
			return scnprintf(buf, SIM_DBG_BUF, "%llu\n",
					 sim_stat(sd, id));
		return -EPERM;
	}
}

static int sim_show(struct sim_file *f, char *buf)
{
	struct sim_dev *sd = f->sd;
	int ret;

	if (f->id >= SIM_F_CAP0)
		return sim_show_cap(sd, f->id - SIM_F_CAP0, buf);
	if (f->id == SIM_F_PRESENT || f->id == SIM_F_FIRMWARE_VERSION) {
		mutex_lock(&sd->present_lock);
		if (f->id == SIM_F_PRESENT)
			ret = scnprintf(buf, SIM_DBG_BUF, "%d\n", !!sd->adev);
		else
			ret = scnprintf(buf, SIM_DBG_BUF, "%u.%u.%u\n", sd->fw_rev[0],
					sd->fw_rev[1], sd->fw_rev[2]);
		mutex_unlock(&sd->present_lock);
		return ret;
	}
	mutex_lock(&sd->lock);
	ret = sim_show_locked(sd, f->id, buf);
	mutex_unlock(&sd->lock);
	return ret;
}

static int sim_store_present(struct sim_dev *sd, const char *buf)
{
	unsigned int v;
	int ret = 0;

	if (sim_parse_uint(buf, 1, &v))
		return -EINVAL;
	mutex_lock(&sd->present_lock);
	if (v)
		ret = sim_dev_add(sd);
	else
		sim_dev_del(sd);
	mutex_unlock(&sd->present_lock);
	return ret;
}

/*
 * "MAJOR.MINOR.SUBMINOR" (a trailing newline allowed), each at most 65535:
 * the version the device reports the next time it is added.
 */
static int sim_store_firmware_version(struct sim_dev *sd, const char *buf)
{
	unsigned int v[3];
	char end = '\n';
	int n;

	n = sscanf(buf, "%u.%u.%u%c", &v[0], &v[1], &v[2], &end);
	if (n < 3 || end != '\n' || v[0] > U16_MAX || v[1] > U16_MAX ||
	    v[2] > U16_MAX)
		return -EINVAL;
	mutex_lock(&sd->present_lock);
	sd->fw_rev[0] = v[0];
	sd->fw_rev[1] = v[1];
	sd->fw_rev[2] = v[2];
	mutex_unlock(&sd->present_lock);
	return 0;
}

/* @buf is one of @names (a trailing newline allowed); its index or -EINVAL. */
static int sim_parse_name(const char *buf, const char *const *names,
			  unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (sysfs_streq(buf, names[i]))
			return i;
	return -EINVAL;
}

static const char *const sim_unit_names[] = { "samples", "entries" };
static const char *const sim_mode_names[] = { "running", "manual" };

static int sim_store_sample_time(struct sim_dev *sd, const char *buf)
{
	u64 j, ns, clock;
	int err;

	if (kstrtou64(buf, 10, &j))
		return -EINVAL;
	err = mlx5_diag_sim_fw_sample_time(sd->fw, j, &ns, &clock);
	if (!err)
		sd->sample_j = j;
	return err;
}

/* A write to a file that is not a capability; caller holds sd->lock. */
static int sim_store_locked(struct sim_dev *sd, unsigned int id,
			    const char *buf)
{
	u32 count, synd;
	unsigned int v;
	u64 u, t0, t1;
	u8 status;
	s64 step;
	s32 ppm;
	int ret;

	switch (id) {
	case SIM_F_FOREIGN_OWNER:
		if (sim_parse_uint(buf, 1, &v))
			return -EINVAL;
		if (!v) {
			mlx5_diag_sim_fw_foreign_disable(sd->fw,
							 sim_now_ns(sd));
			return 0;
		}
		ret = mlx5_diag_sim_fw_foreign_enable(sd->fw, sim_now_ns(sd));
		return mlx5_diag_sim_status_to_errno(ret);
	case SIM_F_FAIL_NEXT:
		if (mlx5_diag_sim_parse_fail_next(buf, &count, &status, &synd))
			return -EINVAL;
		return mlx5_diag_sim_fw_fail_next(sd->fw, count, status, synd);
	case SIM_F_FAIL_QUERY_AT:
		if (sscanf(buf, "%u %i", &count, &ret) != 2 || ret < 0 ||
		    ret > U8_MAX)
			return -EINVAL;
		return mlx5_diag_sim_fw_fail_query_at(sd->fw, count, ret);
	case SIM_F_FAIL_CLOCK_READS:
		if (sim_parse_uint(buf, U16_MAX, &v))
			return -EINVAL;
		sd->fail_clock_reads = v;
		return 0;
	case SIM_F_STALL_MS:
		if (sim_parse_uint(buf, SIM_MAX_STALL_MS, &v))
			return -EINVAL;
		sd->stall_ms = v;
		return 0;
	case SIM_F_COUNTER_WRAP_BITS:
		if (sim_parse_uint(buf, 64, &v))
			return -EINVAL;
		return mlx5_diag_sim_fw_set_counter_wrap_bits(sd->fw, v);
	case SIM_F_CMD_LATENCY_US:
		if (sim_parse_uint(buf, SIM_MAX_LATENCY_US, &v))
			return -EINVAL;
		sd->cmd_latency_us = v;
		return 0;
	case SIM_F_CLOCK_OFFSET:
		if (kstrtou64(buf, 0, &u))
			return -EINVAL;
		return mlx5_diag_sim_fw_set_clock_offset(sd->fw, u);
	case SIM_F_PROFILE:
		ret = sim_parse_name(buf, sim_profile_names,
				     ARRAY_SIZE(sim_profile_names));
		if (ret < 0)
			return ret;
		return mlx5_diag_sim_fw_set_profile(sd->fw, ret);
	case SIM_F_NUM_SAMPLES_UNIT:
		ret = sim_parse_name(buf, sim_unit_names,
				     ARRAY_SIZE(sim_unit_names));
		if (ret < 0)
			return ret;
		mlx5_diag_sim_fw_set_entries_unit(sd->fw, ret);
		return 0;
	case SIM_F_CLOCK_MODE:
		ret = sim_parse_name(buf, sim_mode_names,
				     ARRAY_SIZE(sim_mode_names));
		if (ret < 0)
			return ret;
		mlx5_diag_sim_time_set_manual(&sd->time, ktime_get_ns(), ret);
		return 0;
	case SIM_F_ADVANCE_NS:
		if (kstrtou64(buf, 10, &u))
			return -EINVAL;
		return mlx5_diag_sim_time_advance(&sd->time, u);
	case SIM_F_DRIFT_PPM:
		if (kstrtos32(buf, 10, &ppm))
			return -EINVAL;
		return mlx5_diag_sim_fw_set_drift_ppm(sd->fw, sim_now_ns(sd),
						      ppm);
	case SIM_F_CLOCK_STEP:
		if (kstrtos64(buf, 10, &step))
			return -EINVAL;
		mlx5_diag_sim_fw_clock_step(sd->fw, sim_now_ns(sd), step);
		return 0;
	case SIM_F_SAMPLE_TIME:
		return sim_store_sample_time(sd, buf);
	case SIM_F_MODEL:
		ret = mlx5_diag_sim_parse_model(buf, &u, &t0, &t1);
		if (ret)
			return ret;
		sd->model_set = true;
		sd->model_id = u;
		sd->model_t0 = t0;
		sd->model_t1 = t1;
		return 0;
	case SIM_F_LIE:
		return sim_store_lie(sd, buf);
	case SIM_F_VARIANT:
		return sim_store_variant(sd, buf);
	case SIM_F_FUZZ_SEED:
		/* the same seed again replays the same mutations */
		if (kstrtou64(buf, 0, &u))
			return -EINVAL;
		mlx5_diag_sim_fw_get_fuzz(sd->fw, &t0, &count);
		return mlx5_diag_sim_fw_set_fuzz(sd->fw, u, count);
	case SIM_F_FUZZ_RATE:
		if (sim_parse_uint(buf, MLX5_DIAG_SIM_FUZZ_RATE_MAX, &v))
			return -EINVAL;
		mlx5_diag_sim_fw_get_fuzz(sd->fw, &u, &count);
		return mlx5_diag_sim_fw_set_fuzz(sd->fw, u, v);
	default:
		return -EPERM;
	}
}

static int sim_store(struct sim_file *f, const char *buf)
{
	struct sim_dev *sd = f->sd;
	int ret;

	if (f->id >= SIM_F_CAP0)
		return sim_store_cap(sd, f->id - SIM_F_CAP0, buf);
	if (f->id == SIM_F_PRESENT)
		return sim_store_present(sd, buf);
	if (f->id == SIM_F_FIRMWARE_VERSION)
		return sim_store_firmware_version(sd, buf);
	mutex_lock(&sd->lock);
	ret = sim_store_locked(sd, f->id, buf);
	mutex_unlock(&sd->lock);
	return ret;
}

/*
 * A file's text, made once at an open's first read (single_open): every
 * read of that open sees the same value. Made anew at each read() before,
 * a reader that came back for EOF got the tail of a value that had grown
 * a digit meanwhile ("999" then "0" from "1000").
 */
static int sim_dbg_show(struct seq_file *m, void *v)
{
	char *buf;
	int len;

	buf = kzalloc(SIM_DBG_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = sim_show(m->private, buf);
	if (len > 0)
		seq_write(m, buf, len);
	kfree(buf);
	return len < 0 ? len : 0;
}

static int sim_dbg_open(struct inode *inode, struct file *file)
{
	return single_open(file, sim_dbg_show, inode->i_private);
}

static ssize_t sim_dbg_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (*ppos || count >= SIM_DBG_BUF)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = sim_store(file_inode(file)->i_private, buf);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations sim_dbg_rw_fops = {
	.owner = THIS_MODULE,
	.open = sim_dbg_open,
	.read = seq_read,
	.write = sim_dbg_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations sim_dbg_ro_fops = {
	.owner = THIS_MODULE,
	.open = sim_dbg_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations sim_dbg_wo_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_dbg_write,
	.llseek = default_llseek,
};

static const struct file_operations *sim_fops(umode_t mode)
{
	if (!(mode & 0444))
		return &sim_dbg_wo_fops;
	if (!(mode & 0222))
		return &sim_dbg_ro_fops;
	return &sim_dbg_rw_fops;
}

static void sim_dev_debugfs(struct sim_dev *sd)
{
	struct dentry *dir, *caps, *stats;
	char name[16];
	unsigned int i;

	snprintf(name, sizeof(name), "dev%u", sd->index);
	dir = debugfs_create_dir(name, sim_dbg_root);
	caps = debugfs_create_dir("caps", dir);
	stats = debugfs_create_dir("stats", dir);
	for (i = 0; i < sd->nr_files; i++) {
		struct sim_file *f = &sd->files[i];

		if (i >= SIM_F_CAP0)
			debugfs_create_file(mlx5_diag_sim_cap_name(i - SIM_F_CAP0),
					    0644, caps, f, &sim_dbg_rw_fops);
		else
			debugfs_create_file(sim_files[i].name, sim_files[i].mode,
					    i >= SIM_F_STAT0 ? stats : dir, f,
					    sim_fops(sim_files[i].mode));
	}
}

static void sim_dev_destroy(struct sim_dev *sd)
{
	if (!sd)
		return;
	mlx5_diag_sim_fw_destroy(sd->fw);
	kfree(sd->files);
	mutex_destroy(&sd->present_lock);
	mutex_destroy(&sd->lock);
	kfree(sd);
}

static struct sim_dev *sim_dev_create(unsigned int index,
				      enum mlx5_diag_sim_profile prof)
{
	struct sim_dev *sd;
	unsigned int i;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return NULL;
	mutex_init(&sd->lock);
	mutex_init(&sd->present_lock);
	sd->index = index;
	sd->fw_rev[0] = SIM_DEFAULT_FW_MAJOR;
	sd->cmd_latency_us = SIM_DEFAULT_LATENCY_US;
	sd->nr_files = SIM_F_CAP0 + mlx5_diag_sim_cap_count();
	sd->files = kcalloc(sd->nr_files, sizeof(*sd->files), GFP_KERNEL);
	sd->fw = mlx5_diag_sim_fw_create(index);
	if (!sd->files || !sd->fw) {
		sim_dev_destroy(sd);
		return NULL;
	}
	for (i = 0; i < sd->nr_files; i++) {
		sd->files[i].sd = sd;
		sd->files[i].id = i;
	}
	mlx5_diag_sim_fw_set_profile(sd->fw, prof);
	mlx5_diag_sim_time_init(&sd->time, ktime_get_ns());
	return sd;
}

static void sim_cleanup(void)
{
	unsigned int i;

	/* no debugfs handler runs once this returns */
	debugfs_remove_recursive(sim_dbg_root);
	mlx5_diag_sim_pace_stop();
	for (i = 0; sim_devs && i < nr_devices; i++) {
		struct sim_dev *sd = sim_devs[i];

		if (!sd)
			continue;
		mutex_lock(&sd->present_lock);
		sim_dev_del(sd);
		mutex_unlock(&sd->present_lock);
		sim_dev_destroy(sd);
	}
	kfree(sim_devs);
	if (!IS_ERR_OR_NULL(sim_root))
		root_device_unregister(sim_root);
}

static int __init sim_init(void)
{
	int prof, err;
	unsigned int i;

	prof = sim_parse_name(profile, sim_profile_names,
			      ARRAY_SIZE(sim_profile_names));
	if (nr_devices < 1 || nr_devices > SIM_MAX_DEVICES || prof < 0)
		return -EINVAL;
	sim_root = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(sim_root))
		return PTR_ERR(sim_root);
	sim_devs = kcalloc(nr_devices, sizeof(*sim_devs), GFP_KERNEL);
	if (!sim_devs) {
		err = -ENOMEM;
		goto fail;
	}
	sim_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	mlx5_diag_sim_pace_debugfs(sim_dbg_root);
	for (i = 0; i < nr_devices; i++) {
		sim_devs[i] = sim_dev_create(i, prof);
		if (!sim_devs[i]) {
			err = -ENOMEM;
			goto fail;
		}
		sim_dev_debugfs(sim_devs[i]);
	}
	for (i = 0; i < nr_devices; i++) {
		mutex_lock(&sim_devs[i]->present_lock);
		err = sim_dev_add(sim_devs[i]);
		mutex_unlock(&sim_devs[i]->present_lock);
		if (err)
			goto fail;
	}
	return 0;
fail:
	sim_cleanup();
	return err;
}

static void __exit sim_exit(void)
{
	sim_cleanup();
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("Firmware emulator for the mlx5 diagnostic-counter PMU");
MODULE_LICENSE("GPL");
