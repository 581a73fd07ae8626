// SPDX-License-Identifier: GPL-2.0
/* Offer every mlx5_core PF0 to the mlx5_diag PMU as a "diag" auxiliary device. */

/*
 * Why a PCI bus notifier and not an mlx5_core auxiliary device:
 * mlx5_core publishes its functions as auxiliary devices (mlx5_core.eth,
 * mlx5_core.rdma, ...), but each of them is bound by its own mlx5 driver and
 * an auxiliary device binds exactly one driver; upstream has no "diag"
 * auxiliary device. So this module watches the PCI bus instead:
 *
 * - BUS_NOTIFY_BOUND_DRIVER: mlx5_core's probe succeeded, so the PCI drvdata
 *   is its struct mlx5_core_dev and the command interface is up. Add one
 *   auxiliary device "mlx5_diag_mlx5.diag.<id>" for the PF0 of the card.
 * - BUS_NOTIFY_UNBIND_DRIVER: sent before mlx5_core's remove(), so the
 *   command interface still works. Delete the auxiliary device (the PMU
 *   driver's remove() may still send commands, e.g. to stop the engine),
 *   then fence off the transport before mlx5_core goes away.
 * - Devices bound before this module loaded are found by one scan of the
 *   PCI bus after the notifier is registered. Both paths run under the
 *   device lock, which the driver core also holds around probe and remove,
 *   and the list lookup under mlx5_diag_mlx5_lock keeps a device from being
 *   added twice.
 *
 * Why mlx5_cmd_do() is called directly and not through symbol_get():
 * __symbol_get() only returns EXPORT_SYMBOL_GPL symbols (since 6.5, and in
 * the 6.1 stable series), and mlx5_cmd_do() is a plain EXPORT_SYMBOL: every
 * symbol_get(mlx5_cmd_do) would fail and log "failing symbol_get of
 * non-GPLONLY symbol". A weak reference would still be bound by the module
 * loader (and pin mlx5_core) and kallsyms is not exported. The call is
 * therefore compiled only when mlx5_core is reachable: on such a kernel this
 * module depends on mlx5_core like every other mlx5 consumer (mlx5_ib,
 * mlx5_vdpa, mlx5-vfio-pci), and on a kernel without mlx5_core it has no
 * dependency at all, binds nothing and exec() returns -ENODEV.
 */

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mlx5/driver.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mlx5_diag_aux.h"

#define MLX5_DIAG_MLX5_CORE_DRV		"mlx5_core"

/*
 * Every PRM mailbox is at least 0x80 bits: mlx5_cmd_do() reads the opcode
 * and op_mod from the first 8 bytes of the input and the status and
 * syndrome from the first 8 bytes of the output, whatever the command.
 */
#define MLX5_DIAG_MLX5_MBOX_MIN_LEN	16

/**
 * struct mlx5_diag_mlx5 - one mlx5_core PF0 offered to the PMU driver
 * @diag: the auxiliary device and its transport
 * @node: entry in mlx5_diag_mlx5_list, under mlx5_diag_mlx5_lock
 * @pdev: the PCI function (a reference is held)
 * @mdev: mlx5_core's device, valid while @gone is false
 * @cmd_lock: held for read around mlx5_cmd_do(), for write to set @gone
 * @gone: mlx5_core is unbinding; no command may be sent any more
 * @id: auxiliary device id, from mlx5_diag_mlx5_ida
 */
struct mlx5_diag_mlx5 {
	struct mlx5_diag_aux_dev diag;
	struct list_head node;
	struct pci_dev *pdev;
	struct mlx5_core_dev *mdev;
	struct rw_semaphore cmd_lock;
	bool gone;
	int id;
};

static DEFINE_IDA(mlx5_diag_mlx5_ida);
/* Serializes the notifier, the initial scan and module unload. */
static DEFINE_MUTEX(mlx5_diag_mlx5_lock);
static LIST_HEAD(mlx5_diag_mlx5_list);
static bool mlx5_diag_mlx5_unloading;

static struct mlx5_diag_mlx5 *to_mlx5_diag_mlx5(struct mlx5_diag_aux_dev *diag)
{
	return container_of(diag, struct mlx5_diag_mlx5, diag);
}

/*
 * mlx5_cmd_do() (identical in 6.1.y and 6.12.y) returns 0 when the firmware
 * executed the command with status OK and -EREMOTEIO when it executed it
 * with another status: the whole output mailbox, status and syndrome
 * included, was copied to @out. An -EREMOTEIO raised on the way is turned
 * into -EIO, so -EREMOTEIO always means "answered". -ENXIO means the command
 * interface is down (PCI channel offline, internal error, teardown) and the
 * command was never sent. Any other negative value means no answer either
 * (-ETIMEDOUT, -ECANCELED, -EBUSY, -ENOMEM, delivery errors).
 */
static int mlx5_diag_mlx5_errno(int err)
{
	switch (err) {
	case 0:
	case -EREMOTEIO:
		return 0;
	case -ENXIO:
		return -ENODEV;
	default:
		return err < 0 ? err : -EIO;
	}
}

static int mlx5_diag_mlx5_exec(struct mlx5_diag_aux_dev *diag, const void *in,
			       int inlen, void *out, int outlen)
{
	struct mlx5_diag_mlx5 *md = to_mlx5_diag_mlx5(diag);
	int err;

	might_sleep();

	if (!in || !out || inlen < MLX5_DIAG_MLX5_MBOX_MIN_LEN ||
	    outlen < MLX5_DIAG_MLX5_MBOX_MIN_LEN)
		return -EINVAL;
	if (!IS_REACHABLE(CONFIG_MLX5_CORE))
		return -ENODEV;

	down_read(&md->cmd_lock);
	if (md->gone) {
		up_read(&md->cmd_lock);
		return -ENODEV;
	}
	/* mlx5_cmd_do() only reads the input; its prototype lacks the const. */
	err = mlx5_cmd_do(md->mdev, (void *)in, inlen, out, outlen);
	up_read(&md->cmd_lock);

	return mlx5_diag_mlx5_errno(err);
}

/*
 * The init segment's free-running internal timer or real-time clock, read
 * as mlx5_core's clock code reads it: high, low, high again, and the low
 * word again if the high word moved.
 */
static int mlx5_diag_mlx5_read_clock(struct mlx5_diag_aux_dev *diag, bool rtc,
				     struct mlx5_diag_clock_read *r)
{
	struct mlx5_diag_mlx5 *md = to_mlx5_diag_mlx5(diag);
	__be32 __iomem *hi, *lo;
	unsigned long flags;
	u32 h, l, h1;

	if (!IS_REACHABLE(CONFIG_MLX5_CORE))
		return -ENODEV;
	down_read(&md->cmd_lock);
	if (md->gone) {
		up_read(&md->cmd_lock);
		return -ENODEV;
	}
	hi = rtc ? &md->mdev->iseg->real_time_h : &md->mdev->iseg->internal_timer_h;
	lo = rtc ? &md->mdev->iseg->real_time_l : &md->mdev->iseg->internal_timer_l;
	local_irq_save(flags);
	r->host_before = r->host_clock(r->arg);
	h = ioread32be(hi);
	l = ioread32be(lo);
	h1 = ioread32be(hi);
	if (h != h1)
		l = ioread32be(lo);
	r->host_after = r->host_clock(r->arg);
	local_irq_restore(flags);
	up_read(&md->cmd_lock);
	r->device = (u64)h1 << 32 | l;
	return 0;
}

static const struct mlx5_diag_aux_ops mlx5_diag_mlx5_ops = {
	.exec = mlx5_diag_mlx5_exec,
	.read_clock = mlx5_diag_mlx5_read_clock,
};

/*
 * Is @dev a physical function 0 bound to mlx5_core? The caller holds the
 * device lock, so the binding cannot change under us.
 */
static bool mlx5_diag_mlx5_match(struct device *dev)
{
	struct mlx5_core_dev *mdev;
	struct pci_dev *pdev;

	if (!IS_REACHABLE(CONFIG_MLX5_CORE))
		return false;
	if (!dev_is_pci(dev) || !dev->driver ||
	    strcmp(dev->driver->name, MLX5_DIAG_MLX5_CORE_DRV))
		return false;

	pdev = to_pci_dev(dev);
	/* A VF can be function 0 with ARI; mlx5_core also knows PF from VF. */
	if (pdev->is_virtfn || PCI_FUNC(pdev->devfn) != 0)
		return false;

	mdev = pci_get_drvdata(pdev);
	return mdev && mlx5_core_is_pf(mdev);
}

static struct mlx5_diag_mlx5 *mlx5_diag_mlx5_find(struct device *dev)
{
	struct mlx5_diag_mlx5 *md;

	lockdep_assert_held(&mlx5_diag_mlx5_lock);

	list_for_each_entry(md, &mlx5_diag_mlx5_list, node)
		if (&md->pdev->dev == dev)
			return md;
	return NULL;
}

static void mlx5_diag_mlx5_release(struct device *dev)
{
	struct auxiliary_device *adev = to_auxiliary_dev(dev);
	struct mlx5_diag_mlx5 *md = to_mlx5_diag_mlx5(to_mlx5_diag_aux_dev(adev));

	ida_free(&mlx5_diag_mlx5_ida, md->id);
	pci_dev_put(md->pdev);
	kfree(md);
}

/* Called with the PCI device lock and mlx5_diag_mlx5_lock held. */
static void mlx5_diag_mlx5_add(struct pci_dev *pdev)
{
	struct auxiliary_device *adev;
	struct mlx5_diag_mlx5 *md;
	int err;

	lockdep_assert_held(&mlx5_diag_mlx5_lock);

	if (mlx5_diag_mlx5_unloading || mlx5_diag_mlx5_find(&pdev->dev))
		return;

	md = kzalloc(sizeof(*md), GFP_KERNEL);
	if (!md)
		return;

	err = ida_alloc(&mlx5_diag_mlx5_ida, GFP_KERNEL);
	if (err < 0) {
		kfree(md);
		goto warn;
	}
	md->id = err;
	md->pdev = pci_dev_get(pdev);
	md->mdev = pci_get_drvdata(pdev);
	init_rwsem(&md->cmd_lock);
	md->diag.ops = &mlx5_diag_mlx5_ops;
	strscpy(md->diag.identifier, pci_name(pdev),
		sizeof(md->diag.identifier));
	snprintf(md->diag.firmware_version, sizeof(md->diag.firmware_version),
		 "%u.%u.%u", fw_rev_maj(md->mdev), fw_rev_min(md->mdev),
		 fw_rev_sub(md->mdev));

	adev = &md->diag.adev;
	adev->name = MLX5_DIAG_AUX_DEV_NAME;
	adev->id = md->id;
	adev->dev.parent = &pdev->dev;
	adev->dev.release = mlx5_diag_mlx5_release;

	err = auxiliary_device_init(adev);
	if (err) {
		/* The release callback is not armed before a successful init. */
		ida_free(&mlx5_diag_mlx5_ida, md->id);
		pci_dev_put(pdev);
		kfree(md);
		goto warn;
	}

	err = auxiliary_device_add(adev);
	if (err) {
		auxiliary_device_uninit(adev);
		goto warn;
	}

	list_add_tail(&md->node, &mlx5_diag_mlx5_list);
	dev_dbg(&pdev->dev, "offered to mlx5_diag as %s\n", dev_name(&adev->dev));
	return;

warn:
	dev_warn(&pdev->dev, "cannot add the diagnostic-counter device: %d\n",
		 err);
}

/*
 * Called with mlx5_diag_mlx5_lock held, and either from the unbind
 * notification (mlx5_core is still bound) or at module unload (a concurrent
 * unbind notification waits for the lock, so mlx5_core is still bound too).
 */
static void mlx5_diag_mlx5_remove(struct mlx5_diag_mlx5 *md)
{
	lockdep_assert_held(&mlx5_diag_mlx5_lock);

	list_del(&md->node);
	dev_dbg(&md->pdev->dev, "withdrawing %s\n", dev_name(&md->diag.adev.dev));

	/* The PMU driver's remove() runs here and stops calling exec(). */
	auxiliary_device_delete(&md->diag.adev);

	/* Wait for commands in flight; any later exec() gets -ENODEV. */
	down_write(&md->cmd_lock);
	md->gone = true;
	md->mdev = NULL;
	up_write(&md->cmd_lock);

	auxiliary_device_uninit(&md->diag.adev);
}

static int mlx5_diag_mlx5_notify(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct device *dev = data;
	struct mlx5_diag_mlx5 *md;

	/* The driver core sends both events with the device lock held. */
	switch (action) {
	case BUS_NOTIFY_BOUND_DRIVER:
		if (!mlx5_diag_mlx5_match(dev))
			break;
		mutex_lock(&mlx5_diag_mlx5_lock);
		mlx5_diag_mlx5_add(to_pci_dev(dev));
		mutex_unlock(&mlx5_diag_mlx5_lock);
		break;
	case BUS_NOTIFY_UNBIND_DRIVER:
		mutex_lock(&mlx5_diag_mlx5_lock);
		md = mlx5_diag_mlx5_find(dev);
		if (md)
			mlx5_diag_mlx5_remove(md);
		mutex_unlock(&mlx5_diag_mlx5_lock);
		break;
	}

	return NOTIFY_DONE;
}

static struct notifier_block mlx5_diag_mlx5_nb = {
	.notifier_call = mlx5_diag_mlx5_notify,
};

static int mlx5_diag_mlx5_scan_one(struct device *dev, void *data)
{
	device_lock(dev);
	if (mlx5_diag_mlx5_match(dev)) {
		mutex_lock(&mlx5_diag_mlx5_lock);
		mlx5_diag_mlx5_add(to_pci_dev(dev));
		mutex_unlock(&mlx5_diag_mlx5_lock);
	}
	device_unlock(dev);

	return 0;
}

static int __init mlx5_diag_mlx5_init(void)
{
	int err;

	err = bus_register_notifier(&pci_bus_type, &mlx5_diag_mlx5_nb);
	if (err)
		return err;

	/* Devices bound before the notifier was registered. */
	bus_for_each_dev(&pci_bus_type, NULL, NULL, mlx5_diag_mlx5_scan_one);

	return 0;
}
module_init(mlx5_diag_mlx5_init);

static void __exit mlx5_diag_mlx5_exit(void)
{
	struct mlx5_diag_mlx5 *md, *tmp;

	/*
	 * Tear down while the notifier is still registered: an unbind that
	 * races with us waits for the lock in the notifier, so mlx5_core
	 * stays bound until its device is gone from here. Unregistering
	 * afterwards (without the lock: it waits for running notifier calls)
	 * cannot miss an unbind, and the flag stops new binds meanwhile.
	 */
	mutex_lock(&mlx5_diag_mlx5_lock);
	mlx5_diag_mlx5_unloading = true;
	list_for_each_entry_safe(md, tmp, &mlx5_diag_mlx5_list, node)
		mlx5_diag_mlx5_remove(md);
	mutex_unlock(&mlx5_diag_mlx5_lock);

	bus_unregister_notifier(&pci_bus_type, &mlx5_diag_mlx5_nb);
	ida_destroy(&mlx5_diag_mlx5_ida);
}
module_exit(mlx5_diag_mlx5_exit);

MODULE_DESCRIPTION("mlx5_core binding for the mlx5_diag diagnostic-counter PMU");
MODULE_LICENSE("GPL");
