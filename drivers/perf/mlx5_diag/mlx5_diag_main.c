// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag: the auxiliary driver that turns every device offering a
 * diagnostic-counter engine (emulated or mlx5_core) into a perf PMU.
 */
#include <linux/auxiliary_bus.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "mlx5_diag.h"

static DEFINE_IDA(mlx5_diag_ida);

static int mlx5_diag_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct mlx5_diag_aux_dev *aux = to_mlx5_diag_aux_dev(adev);
	struct mlx5_diag_dev *dd;
	int ret;

	if (!aux->ops || !aux->ops->exec) {
		dev_err(&adev->dev, "provider offers no command transport\n");
		return -EINVAL;
	}
	dd = kzalloc(sizeof(*dd), GFP_KERNEL);
	if (!dd)
		return -ENOMEM;
	dd->aux = aux;
	dd->dev = &adev->dev;
	init_rwsem(&dd->exec_lock);
	mutex_init(&dd->cfg_lock);
	spin_lock_init(&dd->vlock);
	refcount_set(&dd->refs, 1);
	dd->index = ida_alloc(&mlx5_diag_ida, GFP_KERNEL);
	if (dd->index < 0) {
		ret = dd->index;
		goto err_free;
	}
	snprintf(dd->name, sizeof(dd->name), "mlx5_diag_%d", dd->index);

	ret = mlx5_diag_fw_query_caps(dd);
	if (ret)
		goto err_ida;
	ret = mlx5_diag_pmu_register(dd);
	if (ret)
		goto err_caps;
	auxiliary_set_drvdata(adev, dd);
	dev_info(dd->dev, "%s: %s, %s dialect, %u data ID kinds, up to %u at once\n",
		 dd->name, aux->identifier, dd->dialect->name,
		 dd->caps.num_entries, dd->caps.max_ids);
	return 0;

err_caps:
	mlx5_diag_fw_free_caps(&dd->caps);
err_ida:
	ida_free(&mlx5_diag_ida, dd->index);
err_free:
	mutex_destroy(&dd->cfg_lock);
	kfree(dd);
	return ret;
}

static void mlx5_diag_remove(struct auxiliary_device *adev)
{
	struct mlx5_diag_dev *dd = auxiliary_get_drvdata(adev);

	mlx5_diag_pmu_remove(dd);
}

/* Called from the PMU's deferred release once no event holds the device. */
void mlx5_diag_dev_free(struct mlx5_diag_dev *dd)
{
	mlx5_diag_fw_free_caps(&dd->caps);
	ida_free(&mlx5_diag_ida, dd->index);
	mutex_destroy(&dd->cfg_lock);
	kfree(dd);
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

	ret = mlx5_diag_pmu_init();
	if (ret)
		return ret;
	ret = auxiliary_driver_register(&mlx5_diag_driver);
	if (ret)
		mlx5_diag_pmu_exit();
	return ret;
}

static void __exit mlx5_diag_exit(void)
{
	auxiliary_driver_unregister(&mlx5_diag_driver);
	mlx5_diag_pmu_exit();
}

module_init(mlx5_diag_init);
module_exit(mlx5_diag_exit);

MODULE_DESCRIPTION("NVIDIA ConnectX diagnostic-counter perf PMU");
MODULE_LICENSE("GPL");
