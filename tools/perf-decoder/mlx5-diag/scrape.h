/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a scrape of the exporter shows: each device's state, counts or
 * folded samples as metric families (exposition.h), named and labelled
 * from the table of kinds (data_kinds.def, families.h).
 */
#ifndef MLX5_DIAG_SCRAPE_H
#define MLX5_DIAG_SCRAPE_H

#include <stdint.h>

#include "exporter_config.h"
#include "exposition.h"
#include "fold.h"

/* One device as a scrape sees it. */
struct scrape_device {
	const char *device;		/* its function: the device label */
	const char *pmu;		/* mlx5_diag_<n> */
	const char *firmware_version;	/* its PMU's firmware_version */
	const char *dialect;		/* caps/dialect */
	unsigned int freq_khz;		/* caps/device_frequency_khz */
	int up;
	const char *reason;		/* why not up: a label value */
	const struct xcfg_selection *sel;	/* what it exports */
	const uint64_t *counts;		/* counting: one per selected ID */
	const struct fold_view *fold;	/* sampling: the window and totals */
	uint64_t created_ns;		/* when its counts began, since the epoch */
};

/*
 * scrape_begin - the families every scrape starts with (mlx5_diag_up,
 * mlx5_diag_device), added to S so that they come first.
 */
void scrape_begin(struct expo_set *s);

/*
 * scrape_device - D's metrics added to S: mlx5_diag_up (and the reason
 * when 0), mlx5_diag_device_info; when up, each selected ID as a counter
 * of its total (COUNTS, or the fold's), and when sampling its window: the
 * peak rate of counters and sums, the extreme of statistics, the samples
 * folded and lost, the sample period, each derived metric's largest and
 * smallest value; the latency bins as a histogram when C has bounds for
 * them. Returns 0, or -1 with the mistake in S.
 */
int scrape_device(struct expo_set *s, const struct xcfg *c,
		  const struct scrape_device *d);

#endif /* MLX5_DIAG_SCRAPE_H */
