// SPDX-License-Identifier: GPL-2.0
/*
 * A scrape's metric families (scrape.h): the device's state, each data
 * ID's total as a counter, the sampling window's peaks and extremes and
 * its derived metrics' extremes as gauges, the latency bins as a
 * histogram.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/mlx5_diag.h>

#include "families.h"
#include "scrape.h"

#define HELP_UP		"Whether the exporter reads the device: 1, or 0 with the reason"
#define HELP_DEVICE	"The device a PMU serves, its firmware version and dialect, its clock"
#define HELP_SAMPLES	"Device samples folded since the exporter started sampling"
#define HELP_LOST	"Device samples lost before the exporter could fold them, by cause"
#define HELP_PERIOD	"The sample period the device runs"
#define HELP_HISTOGRAM	"Latency of the device's PCIe reads on the link, by the bins of " \
			"pcie_read_latency_hist_packets with the configured bounds"
#define HISTOGRAM_NAME	"mlx5_diag_pcie_read_latency_seconds"

void scrape_begin(struct expo_set *s)
{
	expo_family(s, "mlx5_diag_up", EXPO_GAUGE, NULL, HELP_UP);
	expo_family(s, "mlx5_diag_device", EXPO_INFO, NULL, HELP_DEVICE);
}

/* The labels of ID: device, then its fields; values kept in VALS. */
struct id_labels {
	struct expo_label l[1 + DATA_KIND_MAX_FIELDS];
	char vals[DATA_KIND_MAX_FIELDS][16];
	unsigned int n;
};

static void id_labels(struct id_labels *il, const char *device,
		      const struct data_kind *k, uint64_t id)
{
	const enum data_kind_field *fields;
	uint32_t v[DATA_KIND_MAX_FIELDS];
	unsigned int nr = data_kind_fields(k->group, &fields), i;

	data_kind_instance(k, id, v);
	il->l[0] = (struct expo_label){ "device", device };
	for (i = 0; i < nr; i++) {
		snprintf(il->vals[i], sizeof(il->vals[i]), "%" PRIu32, v[i]);
		il->l[i + 1] = (struct expo_label){ data_kind_field_name(fields[i]), il->vals[i] };
	}
	il->n = nr + 1;
}

static struct expo_num amount(const struct data_kind *k, uint64_t v)
{
	return k->unit == DATA_KIND_UNIT_NS ? expo_nanos(v) : expo_u64(v);
}

static void state_families(struct expo_set *s, const struct scrape_device *d)
{
	struct expo_label up[] = { { "device", d->device }, { "reason", d->reason } };
	char freq[16];
	struct expo_label info[] = {
		{ "device", d->device }, { "pmu", d->pmu },
		{ "firmware_version", d->firmware_version }, { "dialect", d->dialect },
		{ "frequency_khz", freq },
	};

	snprintf(freq, sizeof(freq), "%u", d->freq_khz);
	expo_set_value(expo_metric(s, expo_family(s, "mlx5_diag_up", EXPO_GAUGE, NULL,
						  HELP_UP),
				   up, d->up ? 1 : 2),
		       expo_u64(d->up ? 1 : 0));
	expo_metric(s, expo_family(s, "mlx5_diag_device", EXPO_INFO, NULL, HELP_DEVICE),
		    info, 5);
}

static void sampling_families(struct expo_set *s, const struct scrape_device *d)
{
	static const char *const causes[FOLD_LOST_CAUSES] = {
		[0] = "other", [MLX5_DIAG_LOST_FW_OVERWRITE] = "fw_overwrite",
		[MLX5_DIAG_LOST_AUX_FULL] = "aux_full",
		[MLX5_DIAG_LOST_RESET] = "reset",
	};
	struct expo_label dev = { "device", d->device };
	struct expo_label lost[] = { { "device", d->device }, { "cause", NULL } };
	struct expo_family *f;
	struct expo_metric *m;
	unsigned int i;

	m = expo_metric(s, expo_family(s, "mlx5_diag_samples", EXPO_COUNTER, NULL,
				       HELP_SAMPLES), &dev, 1);
	expo_set_value(m, expo_u64(d->fold->samples));
	expo_set_created(m, expo_nanos(d->created_ns));
	f = expo_family(s, "mlx5_diag_lost_samples", EXPO_COUNTER, NULL, HELP_LOST);
	for (i = 1; i <= FOLD_LOST_CAUSES; i++) {
		unsigned int cause = i % FOLD_LOST_CAUSES;	/* 1, 2, 3, then 0 */

		lost[1].value = causes[cause];
		m = expo_metric(s, f, lost, 2);
		expo_set_value(m, expo_u64(d->fold->lost[cause]));
		expo_set_created(m, expo_nanos(d->created_ns));
	}
	if (d->fold->period_ns)
		expo_set_value(expo_metric(s, expo_family(s, "mlx5_diag_sample_period_seconds",
							  EXPO_GAUGE, "seconds",
							  HELP_PERIOD), &dev, 1),
			       expo_nanos(d->fold->period_ns));
}

/* The window of a sampled ID: its peak rate or its extreme. */
static void window_families(struct expo_set *s, const struct data_kind *k,
			    const struct id_labels *il, const struct fold_series *fs)
{
	char name[160], help[320];

	if (!fs || !fs->n)
		return;
	fam_base_name(k, name, sizeof(name));
	switch (k->class) {
	case DATA_KIND_CLASS_COUNTER:
	case DATA_KIND_CLASS_STAT_SUM:
		strncat(name, "_peak_per_second", sizeof(name) - strlen(name) - 1);
		snprintf(help, sizeof(help), "The largest rate of one sample period "
			 "since the last scrape: %s", k->help);
		expo_set_value(expo_metric(s, expo_family(s, name, EXPO_GAUGE, NULL,
							  help), il->l, il->n),
			       expo_f64(fs->peak_rate));
		break;
	case DATA_KIND_CLASS_STAT_MAX:
	case DATA_KIND_CLASS_STAT_MIN:
		snprintf(help, sizeof(help), "%s, of the samples since the last scrape",
			 k->help);
		expo_set_value(expo_metric(s, expo_family(s, name, EXPO_GAUGE,
							  fam_unit_name(k), help),
					   il->l, il->n),
			       amount(k, fs->extreme));
		break;
	}
}

/*
 * The window of each derived metric of metrics.def, as the pipeline
 * computed it on the folded samples: its largest and smallest value, in
 * base units, labelled with its first event's instance.
 */
static void metric_families(struct expo_set *s, const struct scrape_device *d)
{
	static const struct {
		const char *suffix, *what;
	} ends[] = {
		{ "_max", "The largest value of one sample since the last scrape" },
		{ "_min", "The smallest value of one sample since the last scrape" },
	};
	char base[160], name[176], help[320];
	struct id_labels il;
	unsigned int i, j;
	double factor;

	for (i = 0; i < d->fold->nr_metrics; i++) {
		const struct fold_metric *fm = &d->fold->metrics[i];
		const struct data_kind *k = data_kind_by_id(fm->anchor_id);

		if (!fm->n || !k)
			continue;
		if (fam_metric_name(k, fm->name, fm->unit, base, sizeof(base), &factor)) {
			snprintf(s->err, sizeof(s->err), "metric %s: no family name for "
				 "its unit '%s'", fm->name, fm->unit);
			return;
		}
		id_labels(&il, d->device, k, fm->anchor_id);
		for (j = 0; j < 2; j++) {
			snprintf(name, sizeof(name), "%s%s", base, ends[j].suffix);
			snprintf(help, sizeof(help), "%s: %s", ends[j].what, fm->desc);
			expo_set_value(expo_metric(s, expo_family(s, name, EXPO_GAUGE, NULL,
								  help), il.l, il.n),
				       expo_f64((j ? fm->min : fm->max) * factor));
		}
	}
}

/* The total of the Ith selected ID: counted, or folded. */
static uint64_t total_of(const struct scrape_device *d, unsigned int i)
{
	const struct fold_series *fs;

	if (!d->fold)
		return d->counts[i];
	fs = fold_find(d->fold, d->sel->ids[i]);
	return fs ? fs->total : 0;
}

/* The selected ID of kind K with field values V, or -1. */
static int selected(const struct xcfg_selection *sel, const struct data_kind *k,
		    const uint32_t *v)
{
	uint64_t id = data_kind_id(k, v);
	unsigned int i;

	for (i = 0; i < sel->nr; i++)
		if (sel->ids[i] == id)
			return (int)i;
	return -1;
}

/* A link's latency histogram, once, at its first bin of the selection. */
static void histogram(struct expo_set *s, const struct xcfg *c,
		      const struct scrape_device *d, unsigned int first)
{
	const struct data_kind *bins = d->sel->kinds[first];
	const struct data_kind *total = data_kind_by_event("pcie_read_latency_total_ns");
	uint64_t cum[XCFG_MAX_LE], count = 0;
	uint32_t v[DATA_KIND_MAX_FIELDS];
	char link[16];
	struct expo_label l[] = { { "device", d->device }, { "link", link } };
	struct expo_metric *m;
	int i, t;

	data_kind_instance(bins, d->sel->ids[first], v);
	for (v[1] = 0; v[1] < XCFG_MAX_LE; v[1]++) {
		i = selected(d->sel, bins, v);
		if (i >= 0 && (unsigned int)i < first)
			return;		/* the histogram of an earlier bin */
		count += i < 0 ? 0 : total_of(d, (unsigned int)i);
		if (v[1] < c->nr_le)
			cum[v[1]] = count;
	}
	t = selected(d->sel, total, v);
	snprintf(link, sizeof(link), "%" PRIu32, v[0]);
	m = expo_metric(s, expo_family(s, HISTOGRAM_NAME, EXPO_HISTOGRAM, "seconds",
				       HELP_HISTOGRAM), l, 2);
	expo_set_histogram(s, m, c->nr_le, c->le, cum,
			   expo_nanos(t < 0 ? 0 : total_of(d, (unsigned int)t)), count);
	expo_set_created(m, expo_nanos(d->created_ns));
}

int scrape_device(struct expo_set *s, const struct xcfg *c,
		  const struct scrape_device *d)
{
	struct id_labels il;
	char name[160];
	unsigned int i;

	state_families(s, d);
	if (!d->up)
		return s->err[0] ? -1 : 0;
	if (d->fold)
		sampling_families(s, d);
	for (i = 0; i < d->sel->nr; i++) {
		const struct data_kind *k = d->sel->kinds[i];
		struct expo_metric *m;

		if (k->group == DATA_KIND_GROUP_PCIE_LINK_BIN && c->nr_le) {
			histogram(s, c, d, i);
			continue;
		}
		id_labels(&il, d->device, k, d->sel->ids[i]);
		if (k->class == DATA_KIND_CLASS_COUNTER || k->class == DATA_KIND_CLASS_STAT_SUM) {
			fam_base_name(k, name, sizeof(name));
			m = expo_metric(s, expo_family(s, name, EXPO_COUNTER,
						       fam_unit_name(k), k->help),
					il.l, il.n);
			expo_set_value(m, amount(k, total_of(d, i)));
			expo_set_created(m, expo_nanos(d->created_ns));
		}
		if (d->fold)
			window_families(s, k, &il, fold_find(d->fold, d->sel->ids[i]));
	}
	if (d->fold)
		metric_families(s, d);
	return s->err[0] ? -1 : 0;
}
