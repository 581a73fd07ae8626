// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag: the auxiliary driver that turns every device offering a
 * diagnostic-counter engine (emulated or mlx5_core) into a perf PMU, and
 * keeps that PMU across the device's removal while events are open.
 */
#include <linux/auxiliary_bus.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mlx5_diag_dev.h"
#include "mlx5_diag_pmu.h"

static DEFINE_IDA(mlx5_diag_ida);
/* Every device's PMU, attached or kept after removal; under the mutex. */
static LIST_HEAD(mlx5_diag_devs);
static DEFINE_MUTEX(mlx5_diag_devs_lock);
static struct workqueue_struct *mlx5_diag_wq;

/* How often PMUs kept after their device left are looked at. */
#define MLX5_DIAG_REAP_MS	500

/*
 * Linux 6.1 removes a PMU's type from its IDR only after the grace period
 * perf_pmu_unregister() waits for (and at once where registering fails):
 * an open that looked the type up just before may still be in the PMU's
 * event_init (refused there) when unregistering returns. The grace period
 * of the next perf_pmu_unregister() covers it, so a device's memory waits
 * here until then, or until module exit.
 */
static DEFINE_MUTEX(mlx5_diag_parked_lock);
static LIST_HEAD(mlx5_diag_parked);

static void mlx5_diag_dev_park(struct mlx5_diag_dev *dd)
{
	mutex_lock(&mlx5_diag_parked_lock);
	list_add_tail(&dd->node, &mlx5_diag_parked);
	mutex_unlock(&mlx5_diag_parked_lock);
}

static void mlx5_diag_free_parked(struct list_head *parked)
{
	struct mlx5_diag_dev *dd, *tmp;

	list_for_each_entry_safe(dd, tmp, parked, node)
		kfree(dd);
}

static void mlx5_diag_dev_destroy(struct mlx5_diag_dev *dd)
{
	LIST_HEAD(before);

	/* parked before this unregistration starts: its grace period covers them */
	mutex_lock(&mlx5_diag_parked_lock);
	list_splice_init(&mlx5_diag_parked, &before);
	mutex_unlock(&mlx5_diag_parked_lock);
	mlx5_diag_pmu_unregister(dd);
	mlx5_diag_free_parked(&before);
	mlx5_diag_engine_free(&dd->engine);
	mlx5_diag_fw_free_caps(&dd->fw.caps);
	ida_free(&mlx5_diag_ida, dd->index);
	mlx5_diag_dev_park(dd);
}

/*
 * Unregister the PMUs whose device left, once no event of this module
 * exists: each event holds a reference on the module until __free_event()
 * is done with its PMU (module_put() comes last), so a zero count means no
 * event can still touch one. Returns true while some remain.
 */
static bool mlx5_diag_reap(void)
{
	struct mlx5_diag_dev *dd, *tmp;
	bool left = false;

	lockdep_assert_held(&mlx5_diag_devs_lock);
	list_for_each_entry_safe(dd, tmp, &mlx5_diag_devs, node) {
		if (dd->attached)
			continue;
		if (module_refcount(THIS_MODULE)) {
			left = true;
			continue;
		}
		list_del(&dd->node);
		mlx5_diag_dev_destroy(dd);
	}
	return left;
}

static void mlx5_diag_reap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(mlx5_diag_reap_work, mlx5_diag_reap_fn);

static void mlx5_diag_reap_fn(struct work_struct *work)
{
	bool again;

	mutex_lock(&mlx5_diag_devs_lock);
	again = mlx5_diag_reap();
	mutex_unlock(&mlx5_diag_devs_lock);
	if (again)
		queue_delayed_work(mlx5_diag_wq, &mlx5_diag_reap_work,
				   msecs_to_jiffies(MLX5_DIAG_REAP_MS));
}

/*
 * A PMU kept after its device left (its events still open), for the same
 * identifier, firmware version and capabilities (so the same events and
 * formats): its events count again. Other firmware (an upgrade, say) gets a
 * new PMU, whose sysfs tells the version.
 */
static struct mlx5_diag_dev *mlx5_diag_reattach(struct mlx5_diag_aux_dev *aux)
{
	const struct mlx5_diag_fw_dialect *dialect;
	struct mlx5_diag_caps caps;
	struct mlx5_diag_dev *dd;
	struct mlx5_diag_fw fw;

	lockdep_assert_held(&mlx5_diag_devs_lock);
	list_for_each_entry(dd, &mlx5_diag_devs, node) {
		if (dd->attached || strcmp(dd->identifier, aux->identifier))
			continue;
		if (strcmp(dd->firmware_version, aux->firmware_version)) {
			pr_info("%s: %s is back with firmware %s (was %s): it gets a new PMU\n",
				dd->name, aux->identifier, aux->firmware_version,
				dd->firmware_version);
			return NULL;
		}
		mlx5_diag_fw_init(&fw, dd->name, aux);
		if (mlx5_diag_fw_query_caps(&fw, &caps, &dialect))
			return NULL;
		if (dialect != dd->fw.dialect ||
		    !mlx5_diag_fw_caps_equal(&caps, &dd->fw.caps)) {
			mlx5_diag_fw_free_caps(&caps);
			pr_info("%s: %s is back with other capabilities: it gets a new PMU\n",
				dd->name, aux->identifier);
			return NULL;
		}
		mlx5_diag_fw_free_caps(&caps);
		mlx5_diag_engine_attach(&dd->engine, aux);
		return dd;
	}
	return NULL;
}

static struct mlx5_diag_dev *mlx5_diag_dev_create(struct mlx5_diag_aux_dev *aux)
{
	struct mlx5_diag_dev *dd;
	int ret;

	dd = kzalloc(sizeof(*dd), GFP_KERNEL);
	if (!dd)
		return ERR_PTR(-ENOMEM);
	dd->index = ida_alloc(&mlx5_diag_ida, GFP_KERNEL);
	if (dd->index < 0) {
		ret = dd->index;
		goto err_free;
	}
	snprintf(dd->name, sizeof(dd->name), "mlx5_diag_%d", dd->index);
	strscpy(dd->identifier, aux->identifier, sizeof(dd->identifier));
	strscpy(dd->firmware_version, aux->firmware_version,
		sizeof(dd->firmware_version));
	dd->node_id = dev_to_node(&aux->adev.dev);
	mlx5_diag_fw_init(&dd->fw, dd->name, aux);
	ret = mlx5_diag_fw_query_caps(&dd->fw, &dd->fw.caps, &dd->fw.dialect);
	if (ret)
		goto err_caps;
	ret = mlx5_diag_engine_init(&dd->engine, &dd->fw, mlx5_diag_wq);
	if (ret)
		goto err_caps;
	ret = mlx5_diag_pmu_register(dd);
	if (ret)
		goto err_engine;
	return dd;

err_engine:
	mlx5_diag_engine_free(&dd->engine);
err_caps:
	mlx5_diag_fw_free_caps(&dd->fw.caps);
	ida_free(&mlx5_diag_ida, dd->index);
err_free:
	/* a failed registration may have made the PMU findable for a moment */
	mlx5_diag_dev_park(dd);
	return ERR_PTR(ret);
}

static int mlx5_diag_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct mlx5_diag_aux_dev *aux = to_mlx5_diag_aux_dev(adev);
	struct mlx5_diag_dev *dd;
	bool again = true;

	if (!aux->ops || !aux->ops->exec) {
		dev_err(&adev->dev, "provider offers no command transport\n");
		return -EINVAL;
	}
	mutex_lock(&mlx5_diag_devs_lock);
	mlx5_diag_reap();
	dd = mlx5_diag_reattach(aux);
	if (!dd) {
		again = false;
		dd = mlx5_diag_dev_create(aux);
		if (IS_ERR(dd)) {
			mutex_unlock(&mlx5_diag_devs_lock);
			return PTR_ERR(dd);
		}
		list_add_tail(&dd->node, &mlx5_diag_devs);
	}
	dd->attached = true;
	mutex_unlock(&mlx5_diag_devs_lock);
	auxiliary_set_drvdata(adev, dd);
	dev_info(&adev->dev, "%s: %s, firmware %s, %s dialect, %u data ID kinds, up to %u at once%s\n",
		 dd->name, dd->identifier, dd->firmware_version, dd->fw.dialect->name,
		 dd->fw.caps.num_entries, dd->fw.caps.max_ids,
		 again ? " (re-attached: open events count again)" : "");
	return 0;
}

/*
 * The device goes: its engine is disabled and fenced at once. A PMU that
 * never had an event is unregistered; one that had events stays registered
 * (their counts frozen) until no event of this module is left (the reaper),
 * or until the device comes back: Linux 6.12 cannot unregister a PMU with
 * live events, and touches the PMU after an event's ->destroy(), so it is
 * never unregistered from there.
 */
static void mlx5_diag_remove(struct auxiliary_device *adev)
{
	struct mlx5_diag_dev *dd = auxiliary_get_drvdata(adev);
	bool keep;

	mlx5_diag_pmu_detach(dd);
	mlx5_diag_engine_detach(&dd->engine);
	mutex_lock(&mlx5_diag_devs_lock);
	dd->attached = false;
	keep = READ_ONCE(dd->ever_used);
	if (!keep)
		list_del(&dd->node);
	mutex_unlock(&mlx5_diag_devs_lock);
	if (keep) {
		pr_info("%s: device %s removed; the PMU stays while events are open, or until the device's return\n",
			dd->name, dd->identifier);
		queue_delayed_work(mlx5_diag_wq, &mlx5_diag_reap_work,
				   msecs_to_jiffies(MLX5_DIAG_REAP_MS));
	} else {
		mlx5_diag_dev_destroy(dd);
	}
}

static const struct auxiliary_device_id mlx5_diag_id_table[] = {
	{ .name = "mlx5_diag_sim." MLX5_DIAG_AUX_DEV_NAME },
	{ .name = "mlx5_diag_mlx5." MLX5_DIAG_AUX_DEV_NAME },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, mlx5_diag_id_table);

static struct auxiliary_driver mlx5_diag_driver = {
	.name = "pmu",
	.probe = mlx5_diag_probe,
	.remove = mlx5_diag_remove,
	.id_table = mlx5_diag_id_table,
};

static int __init mlx5_diag_init(void)
{
	int ret;

	mlx5_diag_wq = alloc_workqueue("mlx5_diag", WQ_UNBOUND, 0);
	if (!mlx5_diag_wq)
		return -ENOMEM;
	ret = mlx5_diag_pmu_init();
	if (ret)
		goto err_wq;
	ret = auxiliary_driver_register(&mlx5_diag_driver);
	if (ret)
		goto err_pmu;
	return 0;

err_pmu:
	mlx5_diag_pmu_exit();
err_wq:
	destroy_workqueue(mlx5_diag_wq);
	return ret;
}

/* No event is open (each holds a module reference): every PMU can go. */
static void __exit mlx5_diag_exit(void)
{
	struct mlx5_diag_dev *dd, *tmp;

	auxiliary_driver_unregister(&mlx5_diag_driver);
	cancel_delayed_work_sync(&mlx5_diag_reap_work);
	list_for_each_entry_safe(dd, tmp, &mlx5_diag_devs, node) {
		list_del(&dd->node);
		mlx5_diag_dev_destroy(dd);
	}
	mlx5_diag_free_parked(&mlx5_diag_parked);
	mlx5_diag_pmu_exit();
	destroy_workqueue(mlx5_diag_wq);
}

module_init(mlx5_diag_init);
module_exit(mlx5_diag_exit);

MODULE_DESCRIPTION("NVIDIA ConnectX diagnostic-counter perf PMU");
MODULE_LICENSE("GPL");
