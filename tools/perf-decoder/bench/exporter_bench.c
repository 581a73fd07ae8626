// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's CPU on the host: a scrape of 2 devices of 16 data IDs
 * each (the families built and rendered, Prometheus text and OpenMetrics),
 * counting and sampling with a window, and the samples of a 16-ID session
 * in format 1 decoded, their metrics computed (as the exporter's sampling
 * does) and folded, against the same stream decoded to CSV
 * into /dev/null (what recording and decoding a file costs in user space
 * past the copy). Each figure is the fastest of ROUNDS rounds: a loaded
 * machine preempts some rounds, seldom all.
 *
 *   exporter_bench [ROUNDS]     (default 10)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exporter_config.h"
#include "fold.h"
#include "pipeline.h"
#include "scrape.h"
#include "sink.h"
#include "stream_writer.h"

#define NUM_IDS		16
#define SCRAPES		2000
#define SAMPLES		(1 << 16)
#define DRAIN		64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The 16 IDs: the default set of the emulator's device and one more. */
static void selection(struct xcfg_selection *sel)
{
	struct xcfg_device_caps caps = {
		.num_ports = 2, .num_hosts = 1, .num_functions = 8,
		.num_pcie_links = 2, .max_data_ids = 16,
	};
	struct xcfg c;
	char err[256];

	xcfg_defaults(&c);
	xcfg_select(&c, &caps, sel, err, sizeof(err));	/* 15 */
	sel->ids[sel->nr] = 0x1040000100000000ull;	/* host 0's discards */
	sel->kinds[sel->nr++] = data_kind_by_id(0x1040000100000000ull);
}

/* Seconds per scrape of 2 devices, counting (FOLD NULL) or sampling. */
static double scrape_cost(const struct xcfg_selection *sel, const struct fold_view *fold,
			  enum expo_format format, size_t *bytes)
{
	static uint64_t counts[NUM_IDS];
	struct xcfg c;
	double t0 = now();
	int i, d;

	xcfg_defaults(&c);
	for (i = 0; i < NUM_IDS; i++)
		counts[i] = 1000000007ull * (uint64_t)(i + 1);
	for (i = 0; i < SCRAPES; i++) {
		struct expo_set s;
		char *text;

		expo_set_init(&s);
		scrape_begin(&s);
		for (d = 0; d < 2; d++) {
			struct scrape_device sd = {
				.device = d ? "0000:08:00.0" : "0000:09:00.0",
				.pmu = d ? "mlx5_diag_1" : "mlx5_diag_0",
				.dialect = "model64", .freq_khz = 156250, .up = 1,
				.sel = sel, .counts = counts, .fold = fold,
				.created_ns = 1700000000000000000ull,
			};

			scrape_device(&s, &c, &sd);
		}
		if (expo_render(&s, format, &text, bytes)) {
			fprintf(stderr, "exporter_bench: %s\n", s.err);
			exit(1);
		}
		free(text);
		expo_set_free(&s);
	}
	return (now() - t0) / SCRAPES;
}

static void build(struct stream *st, const struct xcfg_selection *sel)
{
	struct stream_session sess = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_FRC,
		.freq_khz = 156250, .num_ids = NUM_IDS, .ids = sel->ids,
		.period_ns = 104857, .identifier = "0000:08:00.0",
	};
	struct stream_samples smp = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_FRC,
		.num_ids = NUM_IDS, .ids = sel->ids, .nr = DRAIN, .t_step = 16384,
		.entry_step = 3, .value_base = 1 << 20,
	};
	uint64_t seq;

	stream_init(st);
	stream_session(st, &sess);
	for (seq = 0; seq < SAMPLES; seq += DRAIN) {
		smp.first_seq = seq;
		smp.t0 = 1000000 + seq * 16384;
		stream_time(st, MLX5_DIAG_TS_FRC, smp.t0, seq * 104857, 10);
		stream_samples(st, &smp);
	}
}

/*
 * Seconds per sample through the pipeline into SINK (PRIV; OUT), with
 * metrics.def's metrics computed when METRICS.
 */
static double sample_cost(const struct stream *st, const struct sink_ops *sink,
			  void *priv, FILE *out, int metrics)
{
	struct sink_stream si = { .desc = "bench", .pmu = "mlx5_diag_0" };
	struct pipeline p = { .path = "bench", .quiet = 1, .metrics = metrics };
	double t0;

	if (sink->priv_size)
		priv = calloc(1, sink->priv_size);
	if (pipeline_init(&p, sink, priv, out))
		exit(1);
	t0 = now();
	pipeline_stream_begin(&p, &si, 0);
	if (pipeline_feed(&p, st->buf, st->len) || pipeline_stream_end(&p, 0)) {
		fprintf(stderr, "exporter_bench: the stream does not decode\n");
		exit(1);
	}
	t0 = now() - t0;
	pipeline_exit(&p);
	if (sink->priv_size)
		free(priv);
	return t0 / SAMPLES;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10, r;
	double best[5] = { 1e9, 1e9, 1e9, 1e9, 1e9 };
	struct xcfg_selection sel;
	struct fold_view view;
	struct stream st;
	struct fold f;
	size_t bytes[3] = { 0, 0, 0 };
	FILE *null = fopen("/dev/null", "w");

	selection(&sel);
	build(&st, &sel);
	fold_init(&f);
	{
		struct sink_stream si = { .desc = "bench", .pmu = "mlx5_diag_0" };
		struct pipeline p = { .path = "bench", .quiet = 1, .metrics = 1 };

		pipeline_init(&p, &fold_sink, &f, NULL);
		pipeline_stream_begin(&p, &si, 0);
		pipeline_feed(&p, st.buf, st.len);
		pipeline_exit(&p);
		fold_take(&f, &view);
	}
	for (r = 0; r < rounds; r++) {
		double t;

		t = scrape_cost(&sel, NULL, EXPO_PROMETHEUS, &bytes[0]);
		best[0] = t < best[0] ? t : best[0];
		t = scrape_cost(&sel, NULL, EXPO_OPENMETRICS, &bytes[1]);
		best[1] = t < best[1] ? t : best[1];
		t = scrape_cost(&sel, &view, EXPO_OPENMETRICS, &bytes[2]);
		best[2] = t < best[2] ? t : best[2];
		fold_free(&f);
		t = sample_cost(&st, &fold_sink, &f, NULL, 1);	/* as sampling.c */
		best[3] = t < best[3] ? t : best[3];
		t = sample_cost(&st, sink_find("csv"), NULL, null, 0);
		best[4] = t < best[4] ? t : best[4];
	}
	printf("scrape of 2 devices x %d IDs, counting, Prometheus text: %.1f us "
	       "(%zu bytes)\n", NUM_IDS, best[0] * 1e6, bytes[0]);
	printf("the same in OpenMetrics: %.1f us (%zu bytes)\n", best[1] * 1e6, bytes[1]);
	printf("sampling (totals, peaks, metrics' extremes, samples, losses), "
	       "OpenMetrics: %.1f us (%zu bytes)\n", best[2] * 1e6, bytes[2]);
	printf("a sample of %d IDs decoded, its metrics computed and folded: %.0f ns; "
	       "decoded to CSV: %.0f ns (ratio %.2f)\n", NUM_IDS, best[3] * 1e9,
	       best[4] * 1e9, best[3] / best[4]);
	fold_view_free(&view);
	fold_free(&f);
	stream_free(&st);
	fclose(null);
	return 0;
}
