/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the mlx5_diag PMU driver and the devices it binds to:
 * an auxiliary device that carries a firmware command transport.
 *
 * Providers (the emulator mlx5_diag_sim, the mlx5_core binding mlx5_diag_mlx5)
 * embed struct mlx5_diag_aux_dev and register it on the auxiliary bus as
 * "<provider module>.diag.<n>". The PMU driver never learns which one it has.
 */
#ifndef _MLX5_DIAG_AUX_H
#define _MLX5_DIAG_AUX_H

#include <linux/auxiliary_bus.h>

#define MLX5_DIAG_AUX_DEV_NAME		"diag"
#define MLX5_DIAG_IDENTIFIER_LEN	32
#define MLX5_DIAG_FW_VERSION_LEN	24	/* "65535.65535.65535" */

struct mlx5_diag_aux_dev;

/**
 * struct mlx5_diag_clock_read - one reading of the device clock, bracketed
 * @host_clock: the host clock to pair it with (perf_event_clock() of the
 *	sampling event); callable with interrupts off
 * @arg: its argument
 * @host_before: host_clock() just before the device read
 * @host_after: host_clock() just after it
 * @device: the device clock: the free-running counter (FRC), or the
 *	real-time clock as seconds << 32 | nanoseconds
 */
struct mlx5_diag_clock_read {
	u64 (*host_clock)(void *arg);
	void *arg;
	u64 host_before, host_after;
	u64 device;
};

/**
 * struct mlx5_diag_aux_ops - firmware command transport
 * @exec: run one firmware command. @in and @out are PRM mailboxes
 *	(big-endian, command header first). May sleep; never call it from
 *	atomic context. Returns 0 when the firmware answered: all @outlen
 *	bytes of @out are then its answer, 0 where it wrote nothing (as
 *	mlx5_core copies them from zeroed mailboxes), the status and
 *	syndrome among them, which the caller maps. Returns a negative
 *	errno only when no answer exists (-ENODEV: device gone, -ETIMEDOUT,
 *	-EIO, -EINVAL for a mailbox the transport cannot carry).
 * @read_clock: read the device clock (@rtc: the real-time clock) into
 *	@r->device, calling @r->host_clock just before and just after the
 *	read with interrupts off, so the pair is as tight as the device
 *	allows. May sleep outside that section. Returns 0, -ENODEV when the
 *	device is gone, -EOPNOTSUPP when it has no such clock.
 */
struct mlx5_diag_aux_ops {
	int (*exec)(struct mlx5_diag_aux_dev *dev, const void *in, int inlen,
		    void *out, int outlen);
	int (*read_clock)(struct mlx5_diag_aux_dev *dev, bool rtc,
			  struct mlx5_diag_clock_read *r);
};

/**
 * struct mlx5_diag_aux_dev - a device with a diagnostic-counter engine
 * @adev: the auxiliary device; its parent is the PCI function (real) or the
 *	emulator's platform-less parent device
 * @ops: command transport, valid until the auxiliary device is deleted.
 *	The provider guarantees exec() is never entered after the PMU driver's
 *	remove() returned, because the PMU driver stops calling it there.
 * @identifier: what the device serves, shown in the PMU's sysfs
 *	"function" file and named in SESSION records: a PCI function name
 *	("0000:08:00.0") or "sim:<n>" for an emulated device
 * @firmware_version: the running firmware's version as the device's
 *	initialization segment gives it, "major.minor.subminor" in decimal
 *	(mlx5_core's fw_rev_maj(), fw_rev_min(), fw_rev_sub()), set before
 *	the device is added
 */
struct mlx5_diag_aux_dev {
	struct auxiliary_device adev;
	const struct mlx5_diag_aux_ops *ops;
	char identifier[MLX5_DIAG_IDENTIFIER_LEN];
	char firmware_version[MLX5_DIAG_FW_VERSION_LEN];
};

static inline struct mlx5_diag_aux_dev *
to_mlx5_diag_aux_dev(struct auxiliary_device *adev)
{
	return container_of(adev, struct mlx5_diag_aux_dev, adev);
}

#endif /* _MLX5_DIAG_AUX_H */
