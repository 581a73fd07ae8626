// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: a paced empty work, the benchmarks' floor. A pinned hard
 * hrtimer on one CPU queues a work there every interval, as a sampling
 * session's drain is paced (mlx5_diag_session.c), and the work does
 * nothing but count itself: the CPU the kernel workers spend on it is what
 * the pacing alone costs on this kernel and machine, which no drain can
 * spend less than. debugfs "pace": write "INTERVAL_NS CPU" to start,
 * "stop" to stop; read the works done since the last start.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "sim_pace.h"

/* The drain's interval is 1 to 32 ms; a pace may be 1 ms to 1 s. */
#define SIM_PACE_MIN_NS		NSEC_PER_MSEC
#define SIM_PACE_MAX_NS		NSEC_PER_SEC
#define SIM_PACE_BUF		64

static DEFINE_MUTEX(sim_pace_lock);	/* start and stop */
static struct hrtimer sim_pace_timer;
static struct work_struct sim_pace_work;
static u64 sim_pace_interval_ns;
static bool sim_pace_running;		/* under sim_pace_lock */
static unsigned long sim_pace_works;	/* written by the work only */

static void sim_pace_work_fn(struct work_struct *work)
{
	WRITE_ONCE(sim_pace_works, sim_pace_works + 1);
}

static enum hrtimer_restart sim_pace_tick(struct hrtimer *t)
{
	/* the drain's workqueue is per CPU and high-priority, as this one */
	queue_work_on(smp_processor_id(), system_highpri_wq, &sim_pace_work);
	hrtimer_forward_now(t, ns_to_ktime(sim_pace_interval_ns));
	return HRTIMER_RESTART;
}

/* On the pace's CPU: a pinned timer stays there. */
static void sim_pace_arm(void *arg)
{
	hrtimer_start(&sim_pace_timer, ns_to_ktime(sim_pace_interval_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

void mlx5_diag_sim_pace_stop(void)
{
	mutex_lock(&sim_pace_lock);
	if (sim_pace_running) {
		hrtimer_cancel(&sim_pace_timer);
		cancel_work_sync(&sim_pace_work);
		sim_pace_running = false;
	}
	mutex_unlock(&sim_pace_lock);
}

static int sim_pace_start(const char *buf)
{
	char a[24], b[12], extra;
	unsigned int cpu;
	u64 ns;
	int ret;

	if (sscanf(buf, "%23s %11s %c", a, b, &extra) != 2 || kstrtou64(a, 0, &ns) ||
	    kstrtouint(b, 0, &cpu))
		return -EINVAL;
	if (ns < SIM_PACE_MIN_NS || ns > SIM_PACE_MAX_NS)
		return -EINVAL;
	cpus_read_lock();
	mutex_lock(&sim_pace_lock);
	if (sim_pace_running) {
		ret = -EBUSY;
	} else if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		ret = -EINVAL;
	} else {
		sim_pace_interval_ns = ns;
		WRITE_ONCE(sim_pace_works, 0);
		ret = smp_call_function_single(cpu, sim_pace_arm, NULL, 1);
		sim_pace_running = !ret;
	}
	mutex_unlock(&sim_pace_lock);
	cpus_read_unlock();
	return ret;
}

static int sim_pace_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", READ_ONCE(sim_pace_works));
	return 0;
}

static int sim_pace_open(struct inode *inode, struct file *file)
{
	return single_open(file, sim_pace_show, NULL);
}

static ssize_t sim_pace_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[SIM_PACE_BUF];
	int ret;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sysfs_streq(buf, "stop")) {
		mlx5_diag_sim_pace_stop();
		ret = 0;
	} else {
		ret = sim_pace_start(buf);
	}
	return ret ? ret : count;
}

static const struct file_operations sim_pace_fops = {
	.owner = THIS_MODULE,
	.open = sim_pace_open,
	.read = seq_read,
	.write = sim_pace_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void mlx5_diag_sim_pace_debugfs(struct dentry *root)
{
	INIT_WORK(&sim_pace_work, sim_pace_work_fn);
	hrtimer_init(&sim_pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	sim_pace_timer.function = sim_pace_tick;
	debugfs_create_file("pace", 0600, root, NULL, &sim_pace_fops);
}
