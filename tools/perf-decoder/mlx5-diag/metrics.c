// SPDX-License-Identifier: GPL-2.0
/*
 * Derived metrics of a run (byte-counter bandwidth, average PCIe read
 * latency, ICMC hit and miss rates), planned from its data IDs and
 * computed on each row; never formatted here.
 */
#include <stdarg.h>
#include <stdio.h>

#include "pipeline.h"

static int find_column(const struct run *r, uint32_t kind, uint32_t inst,
		       int match_inst)
{
	unsigned int i;

	for (i = 0; i < r->nr_cols; i++)
		if (DATA_ID_KIND(r->cols[i].data_id) == kind &&
		    (!match_inst || (uint32_t)r->cols[i].data_id == inst))
			return (int)i;
	return -1;
}

static void add_metric(struct run *r, enum metric_kind kind, unsigned int a,
		       unsigned int b, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add_metric(struct run *r, enum metric_kind kind, unsigned int a,
		       unsigned int b, const char *fmt, ...)
{
	struct metric *m = &r->metrics[r->nr_metrics++];
	va_list ap;

	m->kind = kind;
	m->a = a;
	m->b = b;
	va_start(ap, fmt);
	vsnprintf(m->name, sizeof(m->name), fmt, ap);
	va_end(ap);
}

void metrics_plan(struct run *r)
{
	unsigned int i;
	int j;

	r->nr_metrics = 0;
	for (i = 0; i < r->nr_cols; i++) {
		uint32_t kind = DATA_ID_KIND(r->cols[i].data_id);
		uint32_t inst = (uint32_t)r->cols[i].data_id;

		switch (kind) {
		case KIND_PORT_RX_BYTES:
		case KIND_PRIO_RX_BYTES:
		case KIND_PORT_TX_BYTES:
		case KIND_PRIO_TX_BYTES:
			add_metric(r, METRIC_BANDWIDTH, i, i, "%s_GBps",
				   r->cols[i].name);
			break;
		case KIND_PCIE_READ_LAT_SUM:
			j = find_column(r, KIND_PCIE_READ_PACKETS, inst, 1);
			if (j >= 0)
				add_metric(r, METRIC_AVG_LATENCY, i, (unsigned int)j,
					   "pcie_%06x_avg_read_latency_ns",
					   inst & 0xffffff);
			break;
		case KIND_ICMC_HIT:
		case KIND_ICMC_MISS:
			j = find_column(r, KIND_ICMC_REQUEST, 0, 0);
			if (j >= 0)
				add_metric(r, METRIC_RATIO, i, (unsigned int)j,
					   "global_icmc_%s_rate",
					   kind == KIND_ICMC_HIT ? "hit" : "miss");
			break;
		}
	}
}

/* A counter's increase since the previous sample (its value when cleared). */
static uint64_t counter_delta(const struct run *r, const struct column *col)
{
	uint64_t d;

	if (r->session.clear)
		return col->value;
	d = col->value - col->prev_value;
	if (r->session.out_format == MLX5_DIAG_FORMAT_2)
		d &= 0xffffffffu;
	return d;
}

/* Device time difference in ns. */
static double dev_ns(const struct run *r, uint64_t from, uint64_t to)
{
	double d = (double)(to - from);

	if (r->session.ts_source == MLX5_DIAG_TS_RTC)
		return d;
	return d * 1e6 / r->session.freq_khz;
}

/* Metric M of the current sample: 0 and *value, or -1 (no value). */
static int metric_value(const struct run *r, const struct metric *m,
			double *value)
{
	const struct column *a = &r->cols[m->a], *b = &r->cols[m->b];
	uint64_t da, db;
	double ns;

	switch (m->kind) {
	case METRIC_BANDWIDTH:
		if (r->session.clear && r->session.sync) {
			ns = (double)r->session.period_ns_actual;
			da = a->value;
		} else {
			if (!r->have_prev)
				return -1;
			ns = dev_ns(r, a->prev_dev_time, a->dev_time);
			da = counter_delta(r, a);
		}
		if (ns <= 0)
			return -1;
		*value = (double)da / ns;	/* bytes per ns: GB/s */
		return 0;
	case METRIC_AVG_LATENCY:
		if (!b->value)
			return -1;
		*value = (double)a->value / (double)b->value;
		return 0;
	case METRIC_RATIO:
		if (!r->have_prev && !r->session.clear)
			return -1;
		da = counter_delta(r, a);
		db = counter_delta(r, b);
		if (!db)
			return -1;
		*value = (double)da / (double)db;
		return 0;
	}
	return -1;
}

void metrics_compute(const struct run *r, struct row *w)
{
	unsigned int i;

	for (i = 0; i < r->nr_metrics; i++)
		w->metrics[i].ok = !metric_value(r, &r->metrics[i],
						 &w->metrics[i].v);
}
