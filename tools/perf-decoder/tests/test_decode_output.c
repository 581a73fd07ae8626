// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `mlx5-diag decode` (mlx5-diag/pipeline.h): recordings built
 * from the stream writer, decoded to text, DOCA CSV and JSON lines, and
 * compared byte for byte, and to a Perfetto trace read back by protoc;
 * -di and --example-json; exit statuses for bad flags, files and streams.
 * `test_decode_output DIR` also copies the recordings, perf.data and other
 * files the tests decoded into DIR (scripts/check-arm64-user decodes them
 * with the x86 and the arm64 mlx5-diag).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>

#include "cli.h"
#include "file.h"
#include "kernel_catalog.h"
#include "metrics.h"
#include "outbuf.h"
#include "perfdata_writer.h"
#include "perfetto_reader.h"
#include "pipeline.h"
#include "run.h"
#include "runner.h"
#include "sched_writer.h"
#include "sink.h"
#include "sink_check.h"
#include "stream_writer.h"

static char dir[] = "/tmp/mlx5diag-decode-test.XXXXXX";

static const uint64_t port_ids[] = {
	0x1020000100000001ull, 0x1140000100000001ull,
};
static const uint64_t icmc_ids[] = {
	0x1180000100000000ull, 0x1180000200000000ull, 0x1180000300000000ull,
};

/* A recording of the stream, its AUX bytes cut into chunks of CHUNK. */
static void write_recording(const char *path, const struct stream *s,
			    size_t chunk)
{
	recording_write(path, s->buf, s->len, chunk);
}

/* Run `mlx5-diag decode ARGS... -o OUT -q RECORDING`; returns the status. */
static int run_decode(const char *recording, const char *outfile,
		      const char *a1, const char *a2, const char *a3)
{
	char *argv[12];
	int argc = 0;

	argv[argc++] = "decode";
	if (a1)
		argv[argc++] = (char *)a1;
	if (a2)
		argv[argc++] = (char *)a2;
	if (a3)
		argv[argc++] = (char *)a3;
	argv[argc++] = "-q";
	argv[argc++] = "-o";
	argv[argc++] = (char *)outfile;
	if (recording)
		argv[argc++] = (char *)recording;
	argv[argc] = NULL;
	return cmd_decode(argc, argv);
}

/*
 * Run 0: format 1, RTC, port 1 rx/tx bytes; samples 0, 1 at 4.999999000 s
 * and 5.000000000 s (100000 ns apart... see t_step), samples 2, 3 lost by
 * overwrite, sample 4, then END. Run 1: format 0, FRC at 156250 kHz, the
 * three ICMC counters, one sample.
 */
static void example_stream(struct stream *s)
{
	struct stream_session run0 = {
		.run = 0, .out_format = 1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 2, .ids = port_ids, .period_ns = 100000,
		.identifier = "0000:08:00.0",
	};
	struct stream_session run1 = {
		.run = 1, .out_format = 0, .ts_source = MLX5_DIAG_TS_FRC,
		.freq_khz = 156250, .num_ids = 3, .ids = icmc_ids,
		.period_ns = 100000, .identifier = "0000:08:00.0",
	};
	struct stream_samples a = {
		.out_format = 1, .ts_source = MLX5_DIAG_TS_RTC, .num_ids = 2,
		.ids = port_ids, .first_seq = 0, .nr = 2,
		.t0 = 4999900000ull, .t_step = 100000, .entry_step = 40,
		.value_base = 1000000,
	};
	struct stream_samples b = a;
	struct stream_samples c = {
		.out_format = 0, .ts_source = MLX5_DIAG_TS_FRC, .num_ids = 3,
		.ids = icmc_ids, .first_seq = 0, .nr = 2, .t0 = 20000000,
		.t_step = 15625, .entry_step = 2, .value_base = 100,
	};

	stream_init(s);
	stream_session(s, &run0);
	stream_time(s, MLX5_DIAG_TS_RTC, 4999800000ull, 7000000000ull, 500);
	stream_time(s, MLX5_DIAG_TS_RTC, 5000000000ull, 7000200000ull, 500);
	stream_samples(s, &a);
	stream_lost(s, 2, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	b.first_seq = 4;
	b.nr = 1;
	b.t0 = 5000300000ull;
	stream_time(s, MLX5_DIAG_TS_RTC, 5000400000ull, 7000600000ull, 500);
	stream_samples(s, &b);
	stream_end(s, 5, MLX5_DIAG_END_STOPPED);
	stream_session(s, &run1);
	stream_time(s, MLX5_DIAG_TS_FRC, 20100000, 9000000000ull, 300);
	stream_samples(s, &c);
	stream_end(s, 2, MLX5_DIAG_END_STOPPED);
}

static void check_output(const char *name, const char *a1, const char *a2,
			 const char *a3, const char *want)
{
	char *got;
	int ret;

	ret = run_decode(path_in(dir, "example.mlx5diag"), path_in(dir, name), a1, a2, a3);
	CHECK_INT(ret, ERR_EXIT_OK, name);
	got = slurp(path_in(dir, name));
	CHECK(!strcmp(got, want), "%s:\n--- got ---\n%s\n--- want ---\n%s", name,
	      got, want);
	free(got);
}

static const char text_want[] =
"SESSION run 0 0000:08:00.0 repetitive format1 rtc, period 100000 ns (requested 100000), 2 data IDs\n"
"0 0 7.000100000 4.999900000 port_1_rx_bytes=1000000 port_1_tx_bytes=4295967297\n"
"0 1 7.000200000 5.000000000 port_1_rx_bytes=2000003 port_1_tx_bytes=4296967300\n"
"LOST run 0 samples 2..3 (2): fw_overwrite\n"
"0 4 7.000500000 5.000300000 port_1_rx_bytes=5000012 port_1_tx_bytes=4299967309\n"
"END run 0 after 5 samples: stopped\n"
"SESSION run 1 0000:08:00.0 repetitive format0 frc 156250 kHz, period 100000 ns (requested 100000), 3 data IDs\n"
"1 0 8.999360000~ 20000000 global_icmc_request=100 global_icmc_hit=4294967397 global_icmc_miss=8589934694\n"
"1 1 8.999460000~ 20015625 global_icmc_request=1000103 global_icmc_hit=4295967400 global_icmc_miss=8590934697\n"
"END run 1 after 2 samples: stopped\n";

static void text_output(void)
{
	check_output("out.txt", NULL, NULL, NULL, text_want);
}

/* A sink added in a few lines: run/seq/first value of each row it gets. */
static char rows_seen[256];

static void list_row(struct sink *s, const struct run *r, const struct row *w)
{
	size_t n = strlen(rows_seen);

	(void)s;
	snprintf(rows_seen + n, sizeof(rows_seen) - n, "%u/%" PRIu64 "/%" PRIu64
		 " ", r->session.run, w->seq, r->cols[0].value);
}

static const struct sink_ops sink_list = { .name = "list", .sample = list_row };

static void added_sink_gets_every_row(void)
{
	struct pipeline *p = calloc(1, sizeof(*p));

	CHECK(p != NULL, "calloc");
	if (!p)
		return;
	p->path = path_in(dir, "example.mlx5diag");
	p->quiet = 1;
	CHECK_INT(pipeline_run(p, &sink_list, stdout), ERR_EXIT_OK,
		  "the recording into the added sink");
	/* text_want's five samples: run 0 seq 0, 1, 4 (2, 3 lost); run 1 seq 0, 1 */
	CHECK_STR(rows_seen, "0/0/1000000 0/1/2000003 0/4/5000012 1/0/100 1/1/1000103 ",
		  "every row, in order");
	free(p);
}

/* DOCA's layout; RTC nanoseconds zero-padded to 9 digits (5.000000040) */
static const char csv_want[] =
"sample_id, sample_time_start, sample_time_end, port_1_rx_bytes, port_1_tx_bytes\n"
"0, 4.999900000, 4.999900040, 1000000, 4295967297\n"
"1, 5.000000000, 5.000000040, 2000003, 4296967300\n"
"4, 5.000300000, 5.000300040, 5000012, 4299967309\n"
"sample_id, data_id, sample_time, global_icmc_request, data_id, sample_time, global_icmc_hit, data_id, sample_time, global_icmc_miss\n"
"0, 0x1180000100000000, 20000000, 100, 0x1180000200000000, 20000002, 4294967397, 0x1180000300000000, 20000004, 8589934694\n"
"1, 0x1180000100000000, 20015625, 1000103, 0x1180000200000000, 20015627, 4295967400, 0x1180000300000000, 20015629, 8590934697";

static void csv_output(void)
{
	FILE *f;
	char *got;

	check_output("out.csv", "--format", "csv", NULL, csv_want);

	f = fopen(path_in(dir, "write_csv.csv"), "w");
	CHECK(f != NULL, "open");
	if (!f)
		return;
	CHECK_INT(decode_doca_csv(f, path_in(dir, "example.mlx5diag"), NULL),
		  ERR_EXIT_OK, "decode_doca_csv");
	fclose(f);
	got = slurp(path_in(dir, "write_csv.csv"));
	CHECK(!strcmp(got, csv_want), "decode_doca_csv writes the same:\n%s", got);
	free(got);
}

/*
 * The CSV sink's integers (outbuf.c) are printf's: every power of ten and
 * its neighbours, 2^64 - 1, and a spread of values, in decimal, 9-digit
 * nanoseconds and 16-digit hex.
 */
static void csv_integers_are_printfs(void)
{
	static struct outbuf b;
	char want[64];
	uint64_t v, x = 0x9e3779b97f4a7c15ull, p = 1;
	unsigned int k, bad = 0, n = 0;

	for (k = 0; k < 400; k++) {
		if (k < 60) {
			/* 10^j - 1, 10^j, 10^j + 1 for j = 0..19 */
			if (k % 3 == 0 && k)
				p *= 10;
			v = p + k % 3 - 1;
		} else if (k == 60) {
			v = UINT64_MAX;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = x >> (k % 64);
		}
		b.len = 0;
		outbuf_u64(&b, v);
		outbuf_mem(&b, "|", 1);
		outbuf_hex016(&b, v);
		outbuf_mem(&b, "|", 1);
		outbuf_u32_09(&b, (uint32_t)(v % 1000000000u));
		snprintf(want, sizeof(want), "%" PRIu64 "|0x%016" PRIx64 "|%09u", v,
			 v, (uint32_t)(v % 1000000000u));
		n++;
		if (b.len != strlen(want) || memcmp(b.buf, want, b.len)) {
			if (!bad++)
				CHECK(0, "%" PRIu64 ": got '%.*s', want '%s'", v,
				      (int)b.len, b.buf, want);
		}
	}
	CHECK_INT(bad, 0, "integers printed otherwise than printf");
	CHECK_INT(n, 400, "integers checked");
}

/*
 * A write error of the CSV sink's buffer is the decode's: to /dev/full, a
 * small output fails at the final flush, one of 2000 rows (more than the
 * sink's and stdio's buffers) at a row's fwrite; both exit ERR_EXIT_OUTPUT.
 */
/*
 * A recording of one run of NR samples of the three ICMC counters in
 * format 0, their entries 2 clocks apart (ROTATE: in stream_samples'
 * rotating order), as PATH.
 */
static void write_icmc_recording(const char *path, uint32_t nr, int rotate)
{
	struct stream_session sess = {
		.out_format = 0, .ts_source = MLX5_DIAG_TS_FRC,
		.freq_khz = 156250, .num_ids = 3, .ids = icmc_ids,
		.period_ns = 100000, .identifier = "0000:08:00.0",
	};
	struct stream_samples smp = {
		.out_format = 0, .ts_source = MLX5_DIAG_TS_FRC, .num_ids = 3,
		.ids = icmc_ids, .nr = nr, .t0 = 20000000, .t_step = 15625,
		.entry_step = 2, .value_base = 100, .rotate = (uint8_t)rotate,
	};
	struct stream s;

	stream_init(&s);
	stream_session(&s, &sess);
	stream_time(&s, MLX5_DIAG_TS_FRC, 20000000, 9000000000ull, 300);
	stream_samples(&s, &smp);
	stream_end(&s, nr, MLX5_DIAG_END_STOPPED);
	write_recording(path, &s, 4096);
	stream_free(&s);
}

/*
 * Format 0 entries stamped out of order (entry seq mod 3 the earliest, the
 * others 2 and 4 clocks later): a sample's time is its earliest entry's,
 * with that entry's perf time, and it ends at its latest entry's.
 */
static void format0_sample_spans_its_entries(void)
{
	static const char want[] =
"{\"type\":\"sample\",\"run\":0,\"seq\":0,\"perf_time\":9000000000,\"dev_time\":20000000,\"dev_time_end\":20000004,\"time_extrapolated\":false,\"values\":{\"global_icmc_request\":100,\"global_icmc_hit\":4294967397,\"global_icmc_miss\":8589934694}}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":1,\"perf_time\":9000100000,\"dev_time\":20015625,\"dev_time_end\":20015629,\"time_extrapolated\":true,\"values\":{\"global_icmc_request\":1000103,\"global_icmc_hit\":4295967400,\"global_icmc_miss\":8590934697}}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":2,\"perf_time\":9000200000,\"dev_time\":20031250,\"dev_time_end\":20031254,\"time_extrapolated\":true,\"values\":{\"global_icmc_request\":2000106,\"global_icmc_hit\":4296967403,\"global_icmc_miss\":8591934700}}\n";
	char *got, *rows;

	write_icmc_recording(path_in(dir, "rotated.mlx5diag"), 3, 1);
	CHECK_INT(run_decode(path_in(dir, "rotated.mlx5diag"),
			     path_in(dir, "rotated.json"), "--format", "json",
			     NULL), ERR_EXIT_OK, "entries out of order");
	got = slurp(path_in(dir, "rotated.json"));
	rows = got ? strstr(got, "{\"type\":\"sample\"") : NULL;
	CHECK(rows && !strncmp(rows, want, strlen(want)),
	      "rotated entries:\n--- got ---\n%s\n--- want ---\n%s",
	      rows ? rows : "", want);
	free(got);
}

static void csv_write_error(void)
{
	char *got;

	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), "/dev/full", "--format",
			     "csv", NULL), ERR_EXIT_OUTPUT, "small CSV to /dev/full");
	write_icmc_recording(path_in(dir, "long.mlx5diag"), 2000, 0);
	CHECK_INT(run_decode(path_in(dir, "long.mlx5diag"), path_in(dir, "long.csv"), "--format",
			     "csv", NULL), ERR_EXIT_OK, "2000 rows of CSV");
	got = slurp(path_in(dir, "long.csv"));
	CHECK(got && strlen(got) > 3 * OUTBUF_SIZE,
	      "2000 rows are more than the sink's buffer");
	free(got);
	CHECK_INT(run_decode(path_in(dir, "long.mlx5diag"), "/dev/full", "--format",
			     "csv", NULL), ERR_EXIT_OUTPUT, "2000 rows to /dev/full");
}

static const char json_want[] =
"{\"type\":\"session\",\"run\":0,\"identifier\":\"0000:08:00.0\",\"mode\":\"repetitive\",\"sync\":0,\"clear\":0,\"format\":1,\"ts_source\":\"rtc\",\"freq_khz\":0,\"period_ns\":100000,\"period_ns_requested\":100000,\"data_ids\":[{\"id\":\"0x1020000100000001\",\"name\":\"port_1_rx_bytes\",\"class\":\"counter\"},{\"id\":\"0x1140000100000001\",\"name\":\"port_1_tx_bytes\",\"class\":\"counter\"}]}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":0,\"perf_time\":7000100000,\"dev_time\":4999900000,\"dev_time_end\":4999900040,\"time_extrapolated\":false,\"perf_time_bound_ns\":503,\"values\":{\"port_1_rx_bytes\":1000000,\"port_1_tx_bytes\":4295967297}}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":1,\"perf_time\":7000200000,\"dev_time\":5000000000,\"dev_time_end\":5000000040,\"time_extrapolated\":false,\"perf_time_bound_ns\":503,\"values\":{\"port_1_rx_bytes\":2000003,\"port_1_tx_bytes\":4296967300}}\n"
"{\"type\":\"lost\",\"run\":0,\"first_seq\":2,\"count\":2,\"cause\":\"fw_overwrite\"}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":4,\"perf_time\":7000500000,\"dev_time\":5000300000,\"dev_time_end\":5000300040,\"time_extrapolated\":false,\"perf_time_bound_ns\":503,\"values\":{\"port_1_rx_bytes\":5000012,\"port_1_tx_bytes\":4299967309}}\n"
"{\"type\":\"end\",\"run\":0,\"next_seq\":5,\"reason\":\"stopped\"}\n"
"{\"type\":\"session\",\"run\":1,\"identifier\":\"0000:08:00.0\",\"mode\":\"repetitive\",\"sync\":0,\"clear\":0,\"format\":0,\"ts_source\":\"frc\",\"freq_khz\":156250,\"period_ns\":100000,\"period_ns_requested\":100000,\"data_ids\":[{\"id\":\"0x1180000100000000\",\"name\":\"global_icmc_request\",\"class\":\"counter\"},{\"id\":\"0x1180000200000000\",\"name\":\"global_icmc_hit\",\"class\":\"counter\"},{\"id\":\"0x1180000300000000\",\"name\":\"global_icmc_miss\",\"class\":\"counter\"}]}\n"
"{\"type\":\"sample\",\"run\":1,\"seq\":0,\"perf_time\":8999360000,\"dev_time\":20000000,\"dev_time_end\":20000004,\"time_extrapolated\":true,\"values\":{\"global_icmc_request\":100,\"global_icmc_hit\":4294967397,\"global_icmc_miss\":8589934694}}\n"
"{\"type\":\"sample\",\"run\":1,\"seq\":1,\"perf_time\":8999460000,\"dev_time\":20015625,\"dev_time_end\":20015629,\"time_extrapolated\":true,\"values\":{\"global_icmc_request\":1000103,\"global_icmc_hit\":4295967400,\"global_icmc_miss\":8590934697}}\n"
"{\"type\":\"end\",\"run\":1,\"next_seq\":2,\"reason\":\"stopped\"}\n";

static void json_output(void)
{
	check_output("out.json", "--format", "json", NULL, json_want);
}

/*
 * 1000003 bytes in 100000 ns: 10.00003 GB/s; ICMC: equal deltas, rate 1;
 * 1000003 accesses in 100000 ns: 1e10 per second
 */
static void metrics_output(void)
{
	check_output("metrics.csv", "--format", "csv", "--metrics",
"sample_id, sample_time_start, sample_time_end, port_1_rx_bytes, port_1_tx_bytes, port_1_rx_bytes_GBps, port_1_tx_bytes_GBps\n"
"0, 4.999900000, 4.999900040, 1000000, 4295967297, , \n"
"1, 5.000000000, 5.000000040, 2000003, 4296967300, 10, 10\n"
"4, 5.000300000, 5.000300040, 5000012, 4299967309, 10, 10\n"
"sample_id, data_id, sample_time, global_icmc_request, data_id, sample_time, global_icmc_hit, data_id, sample_time, global_icmc_miss, global_icmc_accesses_per_s, global_icmc_hit_rate, global_icmc_miss_rate\n"
"0, 0x1180000100000000, 20000000, 100, 0x1180000200000000, 20000002, 4294967397, 0x1180000300000000, 20000004, 8589934694, , , \n"
"1, 0x1180000100000000, 20015625, 1000103, 0x1180000200000000, 20015627, 4295967400, 0x1180000300000000, 20015629, 8590934697, 1e+10, 1, 1");
}

static const char example_json[] =
"{\n"
"  \"data-ids\":[\n"
"    {\n"
"      \"name\":\"port_0_rx_bytes\",\n"
"      \"data_id\":\"0x1020000100000000\"\n"
"    },\n"
"    {\n"
"      \"name\":\"port_0_tx_bytes\",\n"
"      \"data_id\":\"0x1140000100000000\"\n"
"    },\n"
"    {\n"
"      \"name\":\"port_0_rx_packets\",\n"
"      \"data_id\":\"0x1020000300000000\"\n"
"    },\n"
"    {\n"
"      \"name\":\"port_0_tx_packets\",\n"
"      \"data_id\":\"0x1140000300000000\"\n"
"    }\n"
"  ]\n"
"}";

static void write_bytes(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		abort();
}

static void write_file(const char *path, const char *text)
{
	write_bytes(path, text, strlen(text));
}

/*
 * Every metric of the table on one stream: per-priority and per-port
 * bytes, PCIe read latency of link 1 (link 2 has no packets column), ICMC;
 * run 0 format 1 on RTC, run 1 format 0 on FRC with sync and clear.
 */
static const uint64_t metric_ids[] = {
	0x1020000200000300ull, 0x1140000100000001ull, 0x1160000b00000001ull,
	0x1160000c00000001ull, 0x1160000b00000002ull, 0x1180000100000000ull,
	0x1180000200000000ull, 0x1180000300000000ull, 0x1020000300000000ull,
};
static const uint8_t metric_vclass[] = {
	MLX5_DIAG_VCLASS_COUNTER, MLX5_DIAG_VCLASS_COUNTER,
	MLX5_DIAG_VCLASS_STAT_SUM, MLX5_DIAG_VCLASS_STAT_SUM,
	MLX5_DIAG_VCLASS_STAT_SUM, MLX5_DIAG_VCLASS_COUNTER,
	MLX5_DIAG_VCLASS_COUNTER, MLX5_DIAG_VCLASS_COUNTER,
	MLX5_DIAG_VCLASS_COUNTER,
};
#define NR_METRIC_IDS (sizeof(metric_ids) / sizeof(metric_ids[0]))

static void metrics_stream(const char *path)
{
	struct stream_session run0 = {
		.run = 0, .out_format = 1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = NR_METRIC_IDS, .ids = metric_ids,
		.vclass = metric_vclass, .period_ns = 100000, .identifier = "sim:0",
	};
	struct stream_session run1 = run0;
	struct stream_samples a = {
		.out_format = 1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = NR_METRIC_IDS, .ids = metric_ids, .nr = 3,
		.t0 = 1000000000ull, .t_step = 100000, .entry_step = 40,
		.value_base = 3000000,
	};
	struct stream_samples b = {
		.out_format = 0, .ts_source = MLX5_DIAG_TS_FRC,
		.num_ids = NR_METRIC_IDS, .ids = metric_ids, .nr = 2,
		.t0 = 40000000, .t_step = 15625, .entry_step = 2,
		.value_base = 7,
	};
	struct stream s;

	run1.run = 1;
	run1.out_format = 0;
	run1.ts_source = MLX5_DIAG_TS_FRC;
	run1.freq_khz = 156250;
	run1.sync = 1;
	run1.clear = 1;
	stream_init(&s);
	stream_session(&s, &run0);
	stream_time(&s, MLX5_DIAG_TS_RTC, 1000000000ull, 3000000000ull, 500);
	stream_samples(&s, &a);
	stream_end(&s, 3, MLX5_DIAG_END_STOPPED);
	stream_session(&s, &run1);
	stream_time(&s, MLX5_DIAG_TS_FRC, 40000000, 4000000000ull, 300);
	stream_samples(&s, &b);
	stream_end(&s, 2, MLX5_DIAG_END_STOPPED);
	write_recording(path, &s, 4096);
	stream_free(&s);
}

static void check_decode(const char *name, const char *a1, const char *a2,
			 const char *a3, const char *want)
{
	char *got;

	CHECK_INT(run_decode(path_in(dir, "metrics.mlx5diag"), path_in(dir, name), a1, a2,
			     a3), ERR_EXIT_OK, name);
	got = slurp(path_in(dir, name));
	CHECK(!strcmp(got, want), "%s:\n--- got ---\n%s\n--- want ---\n%s", name,
	      got, want);
	free(got);
}

/*
 * EXPR on a run of the three ICMC counters (accesses, hits, misses), its
 * first event on column ANCHOR: its value, -1 (none) or -2 (refused).
 */
static double eval_icmc(const char *expr, const char *scale,
			unsigned int anchor, const char **err)
{
	struct column cols[3] = {
		{ .data_id = 0x1180000100000000ull, .value = 1400, .prev_value = 1000,
		  .dev_time = 3000000000ull, .prev_dev_time = 1000000000ull },
		{ .data_id = 0x1180000200000000ull, .value = 800, .prev_value = 500 },
		{ .data_id = 0x1180000300000000ull, .value = 300, .prev_value = 200 },
	};
	struct run r = { .cols = cols, .nr_cols = 3, .have_prev = 1 };
	struct metric_value v = { 0 };
	struct row w = { .metrics = &v };
	struct metric m;

	r.session.ts_source = MLX5_DIAG_TS_RTC;
	r.metrics = &m;
	if (metrics_compile(&m, expr, scale, &r, anchor, err))
		return -2;
	r.nr_metrics = 1;
	metrics_compute(&r, &w);
	return v.ok ? v.v : -1;
}

/* The expression syntax: operators, precedence, duration_time, errors. */
static void metric_expressions(void)
{
	static const struct {
		const char *expr, *scale;
		unsigned int anchor;
		double want;		/* -1: no value, -2: refused */
		const char *err;
	} cases[] = {
		{ "icmc_accesses", "1", 0, 400, NULL },
		{ "(icmc_hits + icmc_misses) * 2 - icmc_accesses / 4", "0.5", 1, 350, NULL },
		{ "icmc_accesses - icmc_hits - icmc_misses", "1", 0, 0, NULL },
		{ "icmc_accesses / duration_time", "1e-3", 0, 0.2, NULL },
		{ "icmc_accesses / (icmc_hits - 3 * icmc_misses)", "1", 0, -1, NULL },
		{ "icmc_hits / port_rx_bytes", "1", 1, -2, "events of two instance groups" },
		{ "icmc_hit", "1", 0, -2, "an unknown event (not an MD_EVENT)" },
		{ "(icmc_accesses", "1", 0, -2, "a '(' without its ')'" },
		{ "icmc_accesses icmc_hits", "1", 0, -2, "text after the expression" },
		{ "icmc_accesses / ", "1", 0, -2, "a number, name or '(' expected" },
		{ "2 * 3", "1", 0, -2, "no event" },
		{ "icmc_accesses", "x", 0, -2, "a scale that is not a number" },
		{ "icmc_accesses + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8", "1", 0, -2,
		  "expression longer than METRIC_MAX_OPS" },
		{ "icmc_accesses + 1 + 2 + 3 + 4 + 5 + 6 + 7", "1", 0, 428, NULL },
		{ "icmc_hits", "1", 0, -2, "an event with no column of the instance" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *err = NULL;
		double got = eval_icmc(cases[i].expr, cases[i].scale,
				       cases[i].anchor, &err);

		CHECK(got - cases[i].want < 1e-12 && cases[i].want - got < 1e-12 &&
		      (!cases[i].err ||
		      (err && !strcmp(err, cases[i].err))),
		      "%s: got %g (%s), want %g (%s)", cases[i].expr, got,
		      err ? err : "-", cases[i].want,
		      cases[i].err ? cases[i].err : "-");
	}
}

static void metrics_of_the_table(void)
{
	char err[256] = "";

	CHECK(!metrics_table_check(err, sizeof(err)), "metrics.def: %s", err);
	metrics_stream(path_in(dir, "metrics.mlx5diag"));
	check_decode("m.csv", "--format=csv", "--metrics", NULL,
"sample_id, sample_time_start, sample_time_end, port_0_prio_3_rx_bytes, port_1_tx_bytes, pcie_000001_read_latency_total_ns, pcie_000001_read_packets, pcie_000002_read_latency_total_ns, global_icmc_request, global_icmc_hit, global_icmc_miss, port_0_rx_packets, port_0_prio_3_rx_bytes_GBps, port_1_tx_bytes_GBps, pcie_000001_avg_read_latency_ns, global_icmc_accesses_per_s, global_icmc_hit_rate, global_icmc_miss_rate, port_0_rx_packets_per_s\n"
"0, 1.000000000, 1.000000320, 3000000, 4297967297, 8592934594, 12887901891, 17182869188, 21477836485, 25772803782, 30067771079, 34362738376, , , 0.666744, , , , \n"
"1, 1.000100000, 1.000100320, 4000003, 4298967300, 8593934597, 12888901894, 17183869191, 21478836488, 25773803785, 30068771082, 34363738379, 10, 10, 0.66677, 1e+10, 1, 1, 1e+10\n"
"2, 1.000200000, 1.000200320, 5000006, 4299967303, 8594934600, 12889901897, 17184869194, 21479836491, 25774803788, 30069771085, 34364738382, 10, 10, 0.666796, 1e+10, 1, 1, 1e+10\n"
"sample_id, data_id, sample_time, port_0_prio_3_rx_bytes, data_id, sample_time, port_1_tx_bytes, data_id, sample_time, pcie_000001_read_latency_total_ns, data_id, sample_time, pcie_000001_read_packets, data_id, sample_time, pcie_000002_read_latency_total_ns, data_id, sample_time, global_icmc_request, data_id, sample_time, global_icmc_hit, data_id, sample_time, global_icmc_miss, data_id, sample_time, port_0_rx_packets, port_0_prio_3_rx_bytes_GBps, port_1_tx_bytes_GBps, pcie_000001_avg_read_latency_ns, global_icmc_accesses_per_s, global_icmc_hit_rate, global_icmc_miss_rate, port_0_rx_packets_per_s\n"
"0, 0x1020000200000300, 40000000, 7, 0x1140000100000001, 40000002, 4294967304, 0x1160000b00000001, 40000004, 8589934601, 0x1160000c00000001, 40000006, 12884901898, 0x1160000b00000002, 40000008, 17179869195, 0x1180000100000000, 40000010, 21474836492, 0x1180000200000000, 40000012, 25769803789, 0x1180000300000000, 40000014, 30064771086, 0x1020000300000000, 40000016, 34359738383, 7e-05, 42949.7, 0.666667, 2.14748e+14, 1.2, 1.4, 3.43597e+14\n"
"1, 0x1020000200000300, 40015625, 1000010, 0x1140000100000001, 40015627, 4295967307, 0x1160000b00000001, 40015629, 8590934604, 0x1160000c00000001, 40015631, 12885901901, 0x1160000b00000002, 40015633, 17180869198, 0x1180000100000000, 40015635, 21475836495, 0x1180000200000000, 40015637, 25770803792, 0x1180000300000000, 40015639, 30065771089, 0x1020000300000000, 40015641, 34360738386, 10.0001, 42959.7, 0.666693, 2.14758e+14, 1.19999, 1.39998, 3.43607e+14");
	check_decode("m.txt", "--metrics", NULL, NULL,
"SESSION run 0 sim:0 repetitive format1 rtc, period 100000 ns (requested 100000), 9 data IDs\n"
"0 0 3.000000000 1.000000000 port_0_prio_3_rx_bytes=3000000 port_1_tx_bytes=4297967297 pcie_000001_read_latency_total_ns=8592934594 pcie_000001_read_packets=12887901891 pcie_000002_read_latency_total_ns=17182869188 global_icmc_request=21477836485 global_icmc_hit=25772803782 global_icmc_miss=30067771079 port_0_rx_packets=34362738376 pcie_000001_avg_read_latency_ns=0.666744\n"
"0 1 3.000100000~ 1.000100000 port_0_prio_3_rx_bytes=4000003 port_1_tx_bytes=4298967300 pcie_000001_read_latency_total_ns=8593934597 pcie_000001_read_packets=12888901894 pcie_000002_read_latency_total_ns=17183869191 global_icmc_request=21478836488 global_icmc_hit=25773803785 global_icmc_miss=30068771082 port_0_rx_packets=34363738379 port_0_prio_3_rx_bytes_GBps=10 port_1_tx_bytes_GBps=10 pcie_000001_avg_read_latency_ns=0.66677 global_icmc_accesses_per_s=1e+10 global_icmc_hit_rate=1 global_icmc_miss_rate=1 port_0_rx_packets_per_s=1e+10\n"
"0 2 3.000200000~ 1.000200000 port_0_prio_3_rx_bytes=5000006 port_1_tx_bytes=4299967303 pcie_000001_read_latency_total_ns=8594934600 pcie_000001_read_packets=12889901897 pcie_000002_read_latency_total_ns=17184869194 global_icmc_request=21479836491 global_icmc_hit=25774803788 global_icmc_miss=30069771085 port_0_rx_packets=34364738382 port_0_prio_3_rx_bytes_GBps=10 port_1_tx_bytes_GBps=10 pcie_000001_avg_read_latency_ns=0.666796 global_icmc_accesses_per_s=1e+10 global_icmc_hit_rate=1 global_icmc_miss_rate=1 port_0_rx_packets_per_s=1e+10\n"
"END run 0 after 3 samples: stopped\n"
"SESSION run 1 sim:0 repetitive format0 frc 156250 kHz, period 100000 ns (requested 100000), 9 data IDs\n"
"1 0 4.000000000 40000000 port_0_prio_3_rx_bytes=7 port_1_tx_bytes=4294967304 pcie_000001_read_latency_total_ns=8589934601 pcie_000001_read_packets=12884901898 pcie_000002_read_latency_total_ns=17179869195 global_icmc_request=21474836492 global_icmc_hit=25769803789 global_icmc_miss=30064771086 port_0_rx_packets=34359738383 port_0_prio_3_rx_bytes_GBps=7e-05 port_1_tx_bytes_GBps=42949.7 pcie_000001_avg_read_latency_ns=0.666667 global_icmc_accesses_per_s=2.14748e+14 global_icmc_hit_rate=1.2 global_icmc_miss_rate=1.4 port_0_rx_packets_per_s=3.43597e+14\n"
"1 1 4.000100000~ 40015625 port_0_prio_3_rx_bytes=1000010 port_1_tx_bytes=4295967307 pcie_000001_read_latency_total_ns=8590934604 pcie_000001_read_packets=12885901901 pcie_000002_read_latency_total_ns=17180869198 global_icmc_request=21475836495 global_icmc_hit=25770803792 global_icmc_miss=30065771089 port_0_rx_packets=34360738386 port_0_prio_3_rx_bytes_GBps=10.0001 port_1_tx_bytes_GBps=42959.7 pcie_000001_avg_read_latency_ns=0.666693 global_icmc_accesses_per_s=2.14758e+14 global_icmc_hit_rate=1.19999 global_icmc_miss_rate=1.39998 port_0_rx_packets_per_s=3.43607e+14\n"
"END run 1 after 2 samples: stopped\n");
	check_decode("m.json", "--format=json", "--metrics", NULL,
"{\"type\":\"session\",\"run\":0,\"identifier\":\"sim:0\",\"mode\":\"repetitive\",\"sync\":0,\"clear\":0,\"format\":1,\"ts_source\":\"rtc\",\"freq_khz\":0,\"period_ns\":100000,\"period_ns_requested\":100000,\"data_ids\":[{\"id\":\"0x1020000200000300\",\"name\":\"port_0_prio_3_rx_bytes\",\"class\":\"counter\"},{\"id\":\"0x1140000100000001\",\"name\":\"port_1_tx_bytes\",\"class\":\"counter\"},{\"id\":\"0x1160000b00000001\",\"name\":\"pcie_000001_read_latency_total_ns\",\"class\":\"stat_sum\"},{\"id\":\"0x1160000c00000001\",\"name\":\"pcie_000001_read_packets\",\"class\":\"stat_sum\"},{\"id\":\"0x1160000b00000002\",\"name\":\"pcie_000002_read_latency_total_ns\",\"class\":\"stat_sum\"},{\"id\":\"0x1180000100000000\",\"name\":\"global_icmc_request\",\"class\":\"counter\"},{\"id\":\"0x1180000200000000\",\"name\":\"global_icmc_hit\",\"class\":\"counter\"},{\"id\":\"0x1180000300000000\",\"name\":\"global_icmc_miss\",\"class\":\"counter\"},{\"id\":\"0x1020000300000000\",\"name\":\"port_0_rx_packets\",\"class\":\"counter\"}]}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":0,\"perf_time\":3000000000,\"dev_time\":1000000000,\"dev_time_end\":1000000320,\"time_extrapolated\":false,\"values\":{\"port_0_prio_3_rx_bytes\":3000000,\"port_1_tx_bytes\":4297967297,\"pcie_000001_read_latency_total_ns\":8592934594,\"pcie_000001_read_packets\":12887901891,\"pcie_000002_read_latency_total_ns\":17182869188,\"global_icmc_request\":21477836485,\"global_icmc_hit\":25772803782,\"global_icmc_miss\":30067771079,\"port_0_rx_packets\":34362738376},\"metrics\":{\"port_0_prio_3_rx_bytes_GBps\":null,\"port_1_tx_bytes_GBps\":null,\"pcie_000001_avg_read_latency_ns\":0.666744,\"global_icmc_accesses_per_s\":null,\"global_icmc_hit_rate\":null,\"global_icmc_miss_rate\":null,\"port_0_rx_packets_per_s\":null}}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":1,\"perf_time\":3000100000,\"dev_time\":1000100000,\"dev_time_end\":1000100320,\"time_extrapolated\":true,\"values\":{\"port_0_prio_3_rx_bytes\":4000003,\"port_1_tx_bytes\":4298967300,\"pcie_000001_read_latency_total_ns\":8593934597,\"pcie_000001_read_packets\":12888901894,\"pcie_000002_read_latency_total_ns\":17183869191,\"global_icmc_request\":21478836488,\"global_icmc_hit\":25773803785,\"global_icmc_miss\":30068771082,\"port_0_rx_packets\":34363738379},\"metrics\":{\"port_0_prio_3_rx_bytes_GBps\":10,\"port_1_tx_bytes_GBps\":10,\"pcie_000001_avg_read_latency_ns\":0.66677,\"global_icmc_accesses_per_s\":1e+10,\"global_icmc_hit_rate\":1,\"global_icmc_miss_rate\":1,\"port_0_rx_packets_per_s\":1e+10}}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":2,\"perf_time\":3000200000,\"dev_time\":1000200000,\"dev_time_end\":1000200320,\"time_extrapolated\":true,\"values\":{\"port_0_prio_3_rx_bytes\":5000006,\"port_1_tx_bytes\":4299967303,\"pcie_000001_read_latency_total_ns\":8594934600,\"pcie_000001_read_packets\":12889901897,\"pcie_000002_read_latency_total_ns\":17184869194,\"global_icmc_request\":21479836491,\"global_icmc_hit\":25774803788,\"global_icmc_miss\":30069771085,\"port_0_rx_packets\":34364738382},\"metrics\":{\"port_0_prio_3_rx_bytes_GBps\":10,\"port_1_tx_bytes_GBps\":10,\"pcie_000001_avg_read_latency_ns\":0.666796,\"global_icmc_accesses_per_s\":1e+10,\"global_icmc_hit_rate\":1,\"global_icmc_miss_rate\":1,\"port_0_rx_packets_per_s\":1e+10}}\n"
"{\"type\":\"end\",\"run\":0,\"next_seq\":3,\"reason\":\"stopped\"}\n"
"{\"type\":\"session\",\"run\":1,\"identifier\":\"sim:0\",\"mode\":\"repetitive\",\"sync\":1,\"clear\":1,\"format\":0,\"ts_source\":\"frc\",\"freq_khz\":156250,\"period_ns\":100000,\"period_ns_requested\":100000,\"data_ids\":[{\"id\":\"0x1020000200000300\",\"name\":\"port_0_prio_3_rx_bytes\",\"class\":\"counter\"},{\"id\":\"0x1140000100000001\",\"name\":\"port_1_tx_bytes\",\"class\":\"counter\"},{\"id\":\"0x1160000b00000001\",\"name\":\"pcie_000001_read_latency_total_ns\",\"class\":\"stat_sum\"},{\"id\":\"0x1160000c00000001\",\"name\":\"pcie_000001_read_packets\",\"class\":\"stat_sum\"},{\"id\":\"0x1160000b00000002\",\"name\":\"pcie_000002_read_latency_total_ns\",\"class\":\"stat_sum\"},{\"id\":\"0x1180000100000000\",\"name\":\"global_icmc_request\",\"class\":\"counter\"},{\"id\":\"0x1180000200000000\",\"name\":\"global_icmc_hit\",\"class\":\"counter\"},{\"id\":\"0x1180000300000000\",\"name\":\"global_icmc_miss\",\"class\":\"counter\"},{\"id\":\"0x1020000300000000\",\"name\":\"port_0_rx_packets\",\"class\":\"counter\"}]}\n"
"{\"type\":\"sample\",\"run\":1,\"seq\":0,\"perf_time\":4000000000,\"dev_time\":40000000,\"dev_time_end\":40000016,\"time_extrapolated\":false,\"values\":{\"port_0_prio_3_rx_bytes\":7,\"port_1_tx_bytes\":4294967304,\"pcie_000001_read_latency_total_ns\":8589934601,\"pcie_000001_read_packets\":12884901898,\"pcie_000002_read_latency_total_ns\":17179869195,\"global_icmc_request\":21474836492,\"global_icmc_hit\":25769803789,\"global_icmc_miss\":30064771086,\"port_0_rx_packets\":34359738383},\"metrics\":{\"port_0_prio_3_rx_bytes_GBps\":7e-05,\"port_1_tx_bytes_GBps\":42949.7,\"pcie_000001_avg_read_latency_ns\":0.666667,\"global_icmc_accesses_per_s\":2.14748e+14,\"global_icmc_hit_rate\":1.2,\"global_icmc_miss_rate\":1.4,\"port_0_rx_packets_per_s\":3.43597e+14}}\n"
"{\"type\":\"sample\",\"run\":1,\"seq\":1,\"perf_time\":4000100000,\"dev_time\":40015625,\"dev_time_end\":40015641,\"time_extrapolated\":true,\"values\":{\"port_0_prio_3_rx_bytes\":1000010,\"port_1_tx_bytes\":4295967307,\"pcie_000001_read_latency_total_ns\":8590934604,\"pcie_000001_read_packets\":12885901901,\"pcie_000002_read_latency_total_ns\":17180869198,\"global_icmc_request\":21475836495,\"global_icmc_hit\":25770803792,\"global_icmc_miss\":30065771089,\"port_0_rx_packets\":34360738386},\"metrics\":{\"port_0_prio_3_rx_bytes_GBps\":10.0001,\"port_1_tx_bytes_GBps\":42959.7,\"pcie_000001_avg_read_latency_ns\":0.666693,\"global_icmc_accesses_per_s\":2.14758e+14,\"global_icmc_hit_rate\":1.19999,\"global_icmc_miss_rate\":1.39998,\"port_0_rx_packets_per_s\":3.43607e+14}}\n"
"{\"type\":\"end\",\"run\":1,\"next_seq\":2,\"reason\":\"stopped\"}\n");
	write_file(path_in(dir, "mnames.json"),
		   "{\"data-ids\": [{\"name\": \"tx1\", \"data_id\": \"0x1140000100000001\"}]}\n");
	check_decode("mn.txt", "--metrics", "-di", path_in(dir, "mnames.json"),
"SESSION run 0 sim:0 repetitive format1 rtc, period 100000 ns (requested 100000), 9 data IDs\n"
"0 0 3.000000000 1.000000000 port_0_prio_3_rx_bytes=3000000 tx1=4297967297 pcie_000001_read_latency_total_ns=8592934594 pcie_000001_read_packets=12887901891 pcie_000002_read_latency_total_ns=17182869188 global_icmc_request=21477836485 global_icmc_hit=25772803782 global_icmc_miss=30067771079 port_0_rx_packets=34362738376 pcie_000001_avg_read_latency_ns=0.666744\n"
"0 1 3.000100000~ 1.000100000 port_0_prio_3_rx_bytes=4000003 tx1=4298967300 pcie_000001_read_latency_total_ns=8593934597 pcie_000001_read_packets=12888901894 pcie_000002_read_latency_total_ns=17183869191 global_icmc_request=21478836488 global_icmc_hit=25773803785 global_icmc_miss=30068771082 port_0_rx_packets=34363738379 port_0_prio_3_rx_bytes_GBps=10 port_1_tx_bytes_GBps=10 pcie_000001_avg_read_latency_ns=0.66677 global_icmc_accesses_per_s=1e+10 global_icmc_hit_rate=1 global_icmc_miss_rate=1 port_0_rx_packets_per_s=1e+10\n"
"0 2 3.000200000~ 1.000200000 port_0_prio_3_rx_bytes=5000006 tx1=4299967303 pcie_000001_read_latency_total_ns=8594934600 pcie_000001_read_packets=12889901897 pcie_000002_read_latency_total_ns=17184869194 global_icmc_request=21479836491 global_icmc_hit=25774803788 global_icmc_miss=30069771085 port_0_rx_packets=34364738382 port_0_prio_3_rx_bytes_GBps=10 port_1_tx_bytes_GBps=10 pcie_000001_avg_read_latency_ns=0.666796 global_icmc_accesses_per_s=1e+10 global_icmc_hit_rate=1 global_icmc_miss_rate=1 port_0_rx_packets_per_s=1e+10\n"
"END run 0 after 3 samples: stopped\n"
"SESSION run 1 sim:0 repetitive format0 frc 156250 kHz, period 100000 ns (requested 100000), 9 data IDs\n"
"1 0 4.000000000 40000000 port_0_prio_3_rx_bytes=7 tx1=4294967304 pcie_000001_read_latency_total_ns=8589934601 pcie_000001_read_packets=12884901898 pcie_000002_read_latency_total_ns=17179869195 global_icmc_request=21474836492 global_icmc_hit=25769803789 global_icmc_miss=30064771086 port_0_rx_packets=34359738383 port_0_prio_3_rx_bytes_GBps=7e-05 port_1_tx_bytes_GBps=42949.7 pcie_000001_avg_read_latency_ns=0.666667 global_icmc_accesses_per_s=2.14748e+14 global_icmc_hit_rate=1.2 global_icmc_miss_rate=1.4 port_0_rx_packets_per_s=3.43597e+14\n"
"1 1 4.000100000~ 40015625 port_0_prio_3_rx_bytes=1000010 tx1=4295967307 pcie_000001_read_latency_total_ns=8590934604 pcie_000001_read_packets=12885901901 pcie_000002_read_latency_total_ns=17180869198 global_icmc_request=21475836495 global_icmc_hit=25770803792 global_icmc_miss=30065771089 port_0_rx_packets=34360738386 port_0_prio_3_rx_bytes_GBps=10.0001 port_1_tx_bytes_GBps=42959.7 pcie_000001_avg_read_latency_ns=0.666693 global_icmc_accesses_per_s=2.14758e+14 global_icmc_hit_rate=1.19999 global_icmc_miss_rate=1.39998 port_0_rx_packets_per_s=3.43607e+14\n"
"END run 1 after 2 samples: stopped\n");
}

/*
 * Each kind of the kernel catalog (drivers/perf/mlx5_diag/
 * mlx5_diag_catalog.c) named by the instance fields its group has: the
 * default names say port where the catalog does (0x10800002 and
 * 0x10800003, which DOCA's table does not call per host).
 */
static void default_names_follow_the_catalog(void)
{
	static const struct {
		const char *group;
		uint32_t inst;
		const char *want;
	} groups[] = {
		{ "GLOBAL", 0, "global" },
		{ "PORT", 0x01, "port_1" },
		{ "PORT_PRIO", 0x301, "port_1_prio_3" },
		{ "HOST", 0x02, "host_2" },
		{ "FUNCTION", 0x0105, "func_261" },
		{ "PCIE_LINK", 0x030201, "pcie_030201" },
		{ "PCIE_LINK_TCLASS", 0x40201, "pcie_0201_tclass_4" },
		{ "PCIE_LINK_BIN", 0x90201, "pcie_0201_bin_9" },
	};
	struct catalog_row rows[64];
	char got[64];
	size_t j;
	int i, n;

	n = catalog_read(MD_TESTS_DIR "/../../../" KERNEL_CATALOG_PATH, rows, 64);
	for (i = 0; i < n; i++) {
		for (j = 0; j < sizeof(groups) / sizeof(groups[0]); j++)
			if (!strcmp(groups[j].group, rows[i].group))
				break;
		if (j == sizeof(groups) / sizeof(groups[0])) {
			CHECK(0, "0x%08x: group %s", rows[i].kind, rows[i].group);
			continue;
		}
		CHECK(!data_id_instance_name((uint64_t)rows[i].kind << 32 | groups[j].inst,
					     got, sizeof(got)) &&
		      !strcmp(got, groups[j].want),
		      "0x%08x (%s): %s, want %s", rows[i].kind, rows[i].group, got,
		      groups[j].want);
	}
	CHECK_INT(n, 41, "the catalog's kinds");
	data_id_default_name(0x1080000200000001ull, got, sizeof(got));
	CHECK_STR(got, "port_1_rx_drops_no_wqe", "0x10800002");
	data_id_default_name(0x1080000300000001ull, got, sizeof(got));
	CHECK_STR(got, "port_1_rx_drops_no_wqe_hairpin", "0x10800003");
}

static void data_id_files(void)
{
	struct data_id_names names;
	char err[256], *got;
	char *argv[] = { "decode", "--example-json", path_in(dir, "ex.json"), NULL };

	CHECK_INT(cmd_decode(3, argv), ERR_EXIT_OK, "--example-json");
	got = slurp(path_in(dir, "ex.json"));
	CHECK(!strcmp(got, example_json), "example file:\n%s", got);
	free(got);
	CHECK_INT(data_id_names_load(&names, path_in(dir, "ex.json"), err, sizeof(err)),
		  0, "the example file loads back");
	CHECK(names.nr == 4 && names.entries[3].data_id == 0x1140000300000000ull &&
	      !strcmp(names.entries[3].name, "port_0_tx_packets"), "its entries");
	data_id_names_free(&names);

	/* json-c decodes \u escapes beyond ASCII into UTF-8 */
	write_file(path_in(dir, "utf8.json"),
		   "{\"data-ids\": [{\"name\": \"caf\\u00e9 \\ud834\\udd1e\", "
		   "\"data_id\": \"0x1\"}]}");
	CHECK(!data_id_names_load(&names, path_in(dir, "utf8.json"), err, sizeof(err)) &&
	      names.nr == 1 &&
	      !strcmp(names.entries[0].name, "caf\xc3\xa9 \xf0\x9d\x84\x9e"),
	      "a name with \\u escapes: %s", names.nr ? names.entries[0].name : err);
	data_id_names_free(&names);

	write_file(path_in(dir, "names.json"),
		   "{ \"other\": [1, {\"x\": null}], \"data-ids\": [\n"
		   "  {\"data_id\": \"1140000100000001\", \"name\": \"tx \\\"1\\\"\"},\n"
		   "  {\"name\": \"rx1\", \"data_id\": \"0x1020000100000001\", \"note\": true}\n"
		   "] }\n");
}

static void named_columns(void)
{
	char *got;
	int ret;

	ret = run_decode(path_in(dir, "example.mlx5diag"), path_in(dir, "named2.csv"), "-di",
			 path_in(dir, "names.json"), "--format=csv");
	CHECK_INT(ret, ERR_EXIT_OK, "decode with -di");
	got = slurp(path_in(dir, "named2.csv"));
	CHECK(!strncmp(got, "sample_id, sample_time_start, sample_time_end, rx1, tx \"1\"\n",
		       strlen("sample_id, sample_time_start, sample_time_end, rx1, tx \"1\"\n")),
	      "columns named by the file:\n%s", got);
	free(got);
}

/*
 * JSON lines escape the names -di gives the columns; the metrics keep
 * DOCA's default instance names whatever -di calls their columns
 */
static void named_metrics_json(void)
{
	struct pipeline *p = calloc(1, sizeof(*p));
	FILE *out = fopen(path_in(dir, "named.json"), "w");
	struct data_id_names names = { NULL, 0 };
	char err[256] = "", *got;

	CHECK(p && out && !data_id_names_load(&names, path_in(dir, "names.json"), err,
					      sizeof(err)), "set up: %s", err);
	if (!p || !out || !names.nr)
		goto out;
	p->path = path_in(dir, "example.mlx5diag");
	p->names = &names;
	p->metrics = 1;
	p->quiet = 1;
	CHECK_INT(pipeline_run(p, sink_find("json"), out), ERR_EXIT_OK,
		  "--format json --metrics -di names.json");
	fclose(out);
	out = NULL;
	got = slurp(path_in(dir, "named.json"));
	CHECK(strstr(got, "\"values\":{\"rx1\":2000003,\"tx \\\"1\\\"\":4296967300},"
		      "\"metrics\":{\"port_1_rx_bytes_GBps\":10,"
		      "\"port_1_tx_bytes_GBps\":10}}\n"),
	      "names escaped:\n%s", got);
	free(got);
out:
	if (out)
		fclose(out);
	data_id_names_free(&names);
	free(p);
}

static void bad_data_id_files(void)
{
	/* the message: "FILE: WHERE: WHY", WHY NULL: json-c's words */
	static const struct {
		const char *text, *where, *why;
	} bad[] = {
		{ "{\"data-ids\": []}", NULL, "the \"data-ids\" array is empty" },
		{ "{\"ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]}", NULL,
		  "no \"data-ids\" array" },
		{ "[{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]}]", NULL,
		  "no \"data-ids\" array" },
		{ "null", NULL, "no \"data-ids\" array" },
		{ "{\"data-ids\": null}", NULL, "\"data-ids\" is not an array" },
		{ "{\"data-ids\": [null]}", "data-ids[0]", "not an object" },
		{ "{\"data-ids\": [{\"name\": null, \"data_id\": \"0x1\"}]}",
		  "data-ids[0]", "\"name\" is not a string" },
		{ "{\"data-ids\": {\"name\": \"a\", \"data_id\": \"0x1\"}}", NULL,
		  "\"data-ids\" is not an array" },
		{ "{\"data-ids\": [{\"name\": \"a\"}]}", "data-ids[0]",
		  "an entry without \"data_id\"" },
		{ "{\"data-ids\": [{\"data_id\": \"0x1\"}]}", "data-ids[0]",
		  "an entry without \"name\"" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"zz\"}]}", "data-ids[0]",
		  "\"data_id\" is not a hexadecimal number" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"-1\"}]}", "data-ids[0]",
		  "\"data_id\" is not a hexadecimal number" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": 17}]}", "data-ids[0]",
		  "\"data_id\" is not a string" },
		{ "{\"data-ids\": [{\"name\": [], \"data_id\": \"0x1\"}]}", "data-ids[0]",
		  "\"name\" is not a string" },
		{ "{\"data-ids\": [{\"name\": \"a\\u0000\", \"data_id\": \"0x1\"}]}",
		  "data-ids[0]", "\"name\" holds a NUL character" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\\u0000\"}]}",
		  "data-ids[0]", "\"data_id\" holds a NUL character" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}, 7]}",
		  "data-ids[1]", "not an object" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}", "byte 45", NULL },
		{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "byte 32", NULL },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"},]}", "byte 46", NULL },
		{ "{\"x\": nul, \"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]}",
		  "byte 9", NULL },
		{ "", "byte 0", NULL },
		{ "{\"data-ids\": [{\"name\": \"a", "byte 25", NULL },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]} x", "byte 48",
		  "text after the JSON object" },
		{ "{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]}\n{}", "byte 48",
		  "text after the JSON object" },
	};
	struct data_id_names names;
	char err[256], want[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path_in(dir, "bad.json"), bad[i].text);
		snprintf(want, sizeof(want), "%s: %s%s%s", path_in(dir, "bad.json"),
			 bad[i].where ? bad[i].where : "",
			 bad[i].where && bad[i].why ? ": " : "",
			 bad[i].why ? bad[i].why : ": ");
		CHECK(data_id_names_load(&names, path_in(dir, "bad.json"), err,
					 sizeof(err)) == -1 && !names.nr &&
		      (bad[i].why ? !strcmp(err, want) :
		       !strncmp(err, want, strlen(want)) && strlen(err) > strlen(want)),
		      "refused: %s\n#     said:  %s\n#     want: %s%s", bad[i].text,
		      err, want, bad[i].why ? "" : "(json-c's words)");
	}
	/* json-c takes a NUL for the end of the text: said as what it is */
	static const char nul[] = "{\"data-ids\": [{\"name\": \"a\0\"}]}";

	write_bytes(path_in(dir, "bad.json"), nul, sizeof(nul) - 1);
	snprintf(want, sizeof(want), "%s: byte 25: a NUL byte", path_in(dir, "bad.json"));
	CHECK(data_id_names_load(&names, path_in(dir, "bad.json"), err, sizeof(err)) == -1 &&
	      !strcmp(err, want), "a NUL byte: %s", err);
	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), path_in(dir, "x"), "-di",
			     path_in(dir, "bad.json"), NULL),
		  ERR_EXIT_NAMES, "decode with a bad -di file");
	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), path_in(dir, "x"), "-di",
			     path_in(dir, "missing.json"), NULL),
		  ERR_EXIT_NAMES, "decode with a missing -di file");
}

static void exit_statuses(void)
{
	struct stream s;
	char *got;

	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), path_in(dir, "x"), "--bogus",
			     NULL, NULL), ERR_EXIT_USAGE, "unknown flag");
	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), path_in(dir, "x"), "--format",
			     "xml", NULL), ERR_EXIT_USAGE, "unknown format");
	CHECK_INT(run_decode(NULL, path_in(dir, "x"), NULL, NULL, NULL),
		  ERR_EXIT_USAGE, "no recording");
	CHECK_INT(run_decode(path_in(dir, "nonexistent"), path_in(dir, "x"), NULL, NULL, NULL),
		  ERR_EXIT_FILE, "missing recording");
	write_file(path_in(dir, "not-a-recording"), "hello, world\n");
	CHECK_INT(run_decode(path_in(dir, "not-a-recording"), path_in(dir, "x"), NULL, NULL,
			     NULL), ERR_EXIT_FILE, "not a recording");
	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), "/nonexistent-dir/out",
			     NULL, NULL, NULL), ERR_EXIT_OUTPUT, "unwritable output");

	/* a stream cut inside its last record: what came before is written */
	example_stream(&s);
	s.len -= 8;
	write_recording(path_in(dir, "cut.mlx5diag"), &s, 64);
	stream_free(&s);
	CHECK_INT(run_decode(path_in(dir, "cut.mlx5diag"), path_in(dir, "cut.txt"), NULL,
			     NULL, NULL), ERR_EXIT_STREAM, "malformed stream");
	got = slurp(path_in(dir, "cut.txt"));
	CHECK(strstr(got, "1 1 8.999460000~ 20015625") != NULL &&
	      !strstr(got, "END run 1"), "decoded up to the bad record:\n%s", got);
	free(got);
}

static void recording_chunking_does_not_matter(void)
{
	struct stream s;
	char *got;
	size_t chunk;

	example_stream(&s);
	for (chunk = 1; chunk <= 64; chunk += 21) {
		write_recording(path_in(dir, "chunked.mlx5diag"), &s, chunk);
		CHECK_INT(run_decode(path_in(dir, "chunked.mlx5diag"),
				     path_in(dir, "chunked.csv"), "--format", "csv",
				     NULL), ERR_EXIT_OK, "decodes");
		got = slurp(path_in(dir, "chunked.csv"));
		CHECK(!strcmp(got, csv_want), "AUX chunks of %zu bytes", chunk);
		free(got);
	}
	stream_free(&s);
}


/* ---- perf.data ---- */

#define MLX5_PMU_TYPE	42
#define MLX5_PMU1_TYPE	43

/* mlx5_diag_0's session on CPU 1 */
static const struct pdw_session one_session[] = { { MLX5_PMU_TYPE, 1 } };

/* Run decode as run_decode() does, its standard error into ERRFILE. */
static int run_decode_err(const char *recording, const char *outfile,
			  const char *errfile, const char *a1, const char *a2)
{
	int save, fd, ret;

	fflush(stderr);
	save = dup(2);
	fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (save < 0 || fd < 0 || dup2(fd, 2) < 0)
		abort();
	close(fd);
	ret = run_decode(recording, outfile, a1, a2, NULL);
	fflush(stderr);
	if (dup2(save, 2) < 0)
		abort();
	close(save);
	return ret;
}

/*
 * `mlx5-diag decode [A1] -o OUTFILE RECORDING`, not quiet: its standard
 * error (the lines per stream) into ERRFILE.
 */
static int run_decode_loud(const char *recording, const char *outfile,
			   const char *errfile, const char *a1)
{
	char *argv[6];
	int argc = 0, save, fd, ret;

	argv[argc++] = "decode";
	if (a1)
		argv[argc++] = (char *)a1;
	argv[argc++] = "-o";
	argv[argc++] = (char *)outfile;
	argv[argc++] = (char *)recording;
	argv[argc] = NULL;
	fflush(stderr);
	save = dup(2);
	fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (save < 0 || fd < 0 || dup2(fd, 2) < 0)
		abort();
	close(fd);
	ret = cmd_decode(argc, argv);
	fflush(stderr);
	if (dup2(save, 2) < 0)
		abort();
	close(save);
	return ret;
}

/* A bad option is named as given, a value given to a flag refused by name. */
static void option_messages(void)
{
	static const struct {
		const char *arg, *msg;
	} bad[] = {
		{ "--metrics=1", "mlx5-diag decode: option --metrics takes no value\n" },
		{ "--quiet=1", "mlx5-diag decode: option --quiet takes no value\n" },
		{ "-qx", "mlx5-diag decode: unknown option -x\n" },
		{ "--bogus", "mlx5-diag decode: unknown option --bogus\n" },
	};
	char *msg;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(run_decode_err(path_in(dir, "example.mlx5diag"), path_in(dir, "x"),
					 path_in(dir, "x.err"), bad[i].arg, NULL),
			  ERR_EXIT_USAGE, bad[i].arg);
		msg = slurp(path_in(dir, "x.err"));
		CHECK(!strncmp(msg, bad[i].msg, strlen(bad[i].msg)),
		      "%s: %s(want '%s')", bad[i].arg, msg, bad[i].msg);
		free(msg);
	}
}

/* A stream of one sample on "sim:1" (format 1, RTC), for a second idx. */
static void small_stream(struct stream *s)
{
	struct stream_session run0 = {
		.run = 0, .out_format = 1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 2, .ids = port_ids, .period_ns = 200000,
		.identifier = "sim:1",
	};
	struct stream_samples a = {
		.out_format = 1, .ts_source = MLX5_DIAG_TS_RTC, .num_ids = 2,
		.ids = port_ids, .first_seq = 0, .nr = 3,
		.t0 = 3000000000ull, .t_step = 200000, .entry_step = 8,
		.value_base = 77,
	};

	stream_init(s);
	stream_session(s, &run0);
	stream_time(s, MLX5_DIAG_TS_RTC, 2999900000ull, 6999950000ull, 100);
	stream_time(s, MLX5_DIAG_TS_RTC, 3000500000ull, 7000550000ull, 100);
	stream_samples(s, &a);
	stream_end(s, 3, MLX5_DIAG_END_STOPPED);
}

/*
 * A perf.data as perf record -e mlx5_diag_0// writes it: the mlx5 event
 * and a dummy tracking event, the PMU mappings, AUXTRACE_INFO (INFO, or
 * mlx5_diag_0's session on CPU 1 when NULL), then the stream of idx 1
 * (cpu 1) in AUXTRACE events of CHUNK bytes, with other events
 * (FINISHED_ROUND) between them.
 */
static void example_perfdata_info(struct pdw *w, int pipe, size_t chunk,
				  const uint8_t *info, size_t info_len)
{
	struct pdw_attr mlx5 = {
		.type = MLX5_PMU_TYPE, .config = 0x1180000200000000ull,
		.sample_type = 0x10087, .ids = { 100, 101 }, .nr_ids = 2,
		.name = "mlx5_diag_0//",
	};
	struct pdw_attr dummy = {
		.type = 1, .config = 9, .sample_type = 0x10087,
		.ids = { 102, 103 }, .nr_ids = 2, .name = "dummy:u",
	};
	static const uint8_t round[8] = { 68, 0, 0, 0, 0, 0, 8, 0 };
	struct stream s;

	pdw_init(w, pipe);
	pdw_add_attr(w, &mlx5);
	pdw_add_attr(w, &dummy);
	pdw_add_pmu(w, 4, "cpu");
	pdw_add_pmu(w, MLX5_PMU_TYPE, "mlx5_diag_0");
	if (info)
		pdw_raw(w, info, info_len);
	else
		pdw_auxtrace_info(w, 7, MLX5_DIAG_ABI_VERSION, 0, one_session, 1);
	example_stream(&s);
	for (size_t off = 0; off < s.len; off += chunk) {
		pdw_auxtrace(w, 1, 1, s.buf + off,
			     s.len - off < chunk ? s.len - off : chunk);
		pdw_raw(w, round, sizeof(round));
	}
	stream_free(&s);
}

static void example_perfdata(struct pdw *w, int pipe, size_t chunk)
{
	example_perfdata_info(w, pipe, chunk, NULL, 0);
}

/* An AUXTRACE_INFO event of mlx5_diag with the NR u64s of PRIV, in BUF. */
static size_t info_event(uint8_t *buf, const uint64_t *priv, size_t nr)
{
	size_t len = 16 + 8 * nr;

	memset(buf, 0, 16);
	buf[0] = 70;
	buf[6] = (uint8_t)len;
	buf[7] = (uint8_t)(len >> 8);
	buf[8] = 7;
	for (size_t i = 0; i < nr; i++)
		for (int b = 0; b < 8; b++)
			buf[16 + 8 * i + b] = (uint8_t)(priv[i] >> (8 * b));
	return len;
}

static void check_same(const char *name, const char *got_path, const char *want)
{
	char *got = slurp(got_path);

	CHECK(!strcmp(got, want), "%s:\n--- got ---\n%s\n--- want ---\n%s", name,
	      got, want);
	free(got);
}

/* The values and perf times of the recording, from file and pipe mode. */
static void perfdata_outputs(void)
{
	static const size_t chunks[] = { 8, 64, 4096 };
	char err[512], want_msg[128];
	struct pdw w;
	char *msg;

	snprintf(err, sizeof(err), "%s", path_in(dir, "perf.err"));
	{
		struct stream s;

		example_stream(&s);
		snprintf(want_msg, sizeof(want_msg), "perf.data: idx 1 (cpu 1): %zu "
			 "bytes of AUX data of mlx5_diag_0 (PMU type 42)\n", s.len);
		stream_free(&s);
	}
	for (int pipe = 0; pipe < 2; pipe++) {
		for (size_t i = 0; i < 3; i++) {
			example_perfdata(&w, pipe, chunks[i]);
			pdw_write(&w, path_in(dir, "perf.data"));
			pdw_free(&w);
			CHECK_INT(run_decode(path_in(dir, "perf.data"), path_in(dir, "p.txt"),
					     NULL, NULL, NULL), ERR_EXIT_OK, "text");
			check_same(pipe ? "pipe text" : "file text", path_in(dir, "p.txt"),
				   text_want);
			CHECK_INT(run_decode(path_in(dir, "perf.data"), path_in(dir, "p.csv"),
					     "--format", "csv", NULL), ERR_EXIT_OK, "csv");
			check_same(pipe ? "pipe csv" : "file csv", path_in(dir, "p.csv"),
				   csv_want);
			CHECK_INT(run_decode(path_in(dir, "perf.data"), path_in(dir, "p.json"),
					     "--format", "json", NULL), ERR_EXIT_OK,
				  "json");
			check_same(pipe ? "pipe json" : "file json", path_in(dir, "p.json"),
				   json_want);
		}
		/* the PMU of priv[0], named by HEADER_PMU_MAPPINGS */
		example_perfdata(&w, pipe, 64);
		pdw_write(&w, path_in(dir, "perf.data"));
		pdw_free(&w);
		{
			char *argv[] = { "decode", "-o", path_in(dir, "p.txt"),
					 path_in(dir, "perf.data"), NULL };
			int save = dup(2), fd = open(err, O_WRONLY | O_CREAT | O_TRUNC,
						     0644);

			fflush(stderr);
			dup2(fd, 2);
			close(fd);
			CHECK_INT(cmd_decode(4, argv), ERR_EXIT_OK, "not quiet");
			fflush(stderr);
			dup2(save, 2);
			close(save);
		}
		msg = slurp(err);
		CHECK(strstr(msg, want_msg) != NULL, "names the PMU: %s", msg);
		CHECK(!strstr(msg, "warning"), "no warning: %s", msg);
		free(msg);
		/* perf's own losses: an AUX area that filled, ring records lost */
		{
			static const uint8_t aux[40] = { 11, 0, 0, 0, 0, 0, 40, 0,
				[24] = 1 };
			static const uint8_t lost[40] = { 2, 0, 0, 0, 0, 0, 40, 0,
				[16] = 7 };
			char *argv[] = { "decode", "-o", path_in(dir, "p.txt"),
					 path_in(dir, "perf.data"), NULL };
			int save, fd;

			example_perfdata(&w, pipe, 64);
			pdw_raw(&w, aux, sizeof(aux));
			pdw_raw(&w, lost, sizeof(lost));
			pdw_write(&w, path_in(dir, "perf.data"));
			pdw_free(&w);
			save = dup(2);
			fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			fflush(stderr);
			dup2(fd, 2);
			close(fd);
			CHECK_INT(cmd_decode(4, argv), ERR_EXIT_OK, "with losses");
			fflush(stderr);
			dup2(save, 2);
			close(save);
			msg = slurp(err);
			CHECK(strstr(msg, "perf.data: warning: PERF_RECORD_AUX flagged 1 "
				     "time truncated (the AUX area filled and the kernel "
				     "stopped the event: use larger -m ,PAGES) and 0 times "
				     "collision\n") &&
			      strstr(msg, "perf.data: warning: 7 perf records lost "
				     "(PERF_RECORD_LOST)\n"), "the losses: %s", msg);
			free(msg);
			check_same("with losses", path_in(dir, "p.txt"), text_want);
		}
	}
}

/*
 * AUXTRACE_INFO as perf may write it: record ABI 0 (the driver has no
 * caps/record_abi), fields appended after the sessions (a later perf);
 * two sessions on one CPU are refused (their streams are one idx).
 */
static void perfdata_info_layout(void)
{
	static const uint64_t abi0[] = { 0, 0, 1, MLX5_PMU_TYPE, 1 };
	static const uint64_t appended[] = {
		MLX5_DIAG_ABI_VERSION, 0, 2, MLX5_PMU1_TYPE, 3, MLX5_PMU_TYPE, 1,
		0xdeadbeef, 77,
	};
	static const uint64_t same_cpu[] = {
		MLX5_DIAG_ABI_VERSION, 0, 3, MLX5_PMU_TYPE, 1, MLX5_PMU1_TYPE, 0,
		44, 1,
	};
	uint8_t info[16 + 8 * 9];
	struct pdw w;
	char *msg;

	for (int pipe = 0; pipe < 2; pipe++) {
		example_perfdata_info(&w, pipe, 64, info,
				      info_event(info, abi0, 5));
		pdw_write(&w, path_in(dir, "info.data"));
		pdw_free(&w);
		CHECK_INT(run_decode(path_in(dir, "info.data"), path_in(dir, "info.txt"), NULL,
				     NULL, NULL), ERR_EXIT_OK, "record ABI 0");
		check_same("record ABI 0", path_in(dir, "info.txt"), text_want);

		example_perfdata_info(&w, pipe, 64, info,
				      info_event(info, appended, 9));
		pdw_write(&w, path_in(dir, "info.data"));
		pdw_free(&w);
		CHECK_INT(run_decode_loud(path_in(dir, "info.data"), path_in(dir, "info.txt"),
					  path_in(dir, "info.err"), NULL), ERR_EXIT_OK,
			  "fields appended");
		check_same("fields appended", path_in(dir, "info.txt"), text_want);
		msg = slurp(path_in(dir, "info.err"));
		CHECK(strstr(msg, "info.data: idx 1 (cpu 1): 776 bytes of AUX data "
			     "of mlx5_diag_0 (PMU type 42)\n") != NULL,
		      "the second session's PMU: %s", msg);
		free(msg);

		example_perfdata_info(&w, pipe, 64, info,
				      info_event(info, same_cpu, 9));
		pdw_write(&w, path_in(dir, "info.data"));
		pdw_free(&w);
		CHECK_INT(run_decode_err(path_in(dir, "info.data"), path_in(dir, "info.txt"),
					 path_in(dir, "info.err"), NULL, NULL),
			  ERR_EXIT_FILE, "two sessions on one CPU");
		msg = slurp(path_in(dir, "info.err"));
		CHECK(strstr(msg, pipe ? "PERF_RECORD_AUXTRACE_INFO at offset 500: "
			     "sessions 0 and 2 are both on CPU 1: their AUX data "
			     "cannot be told apart" : "PERF_RECORD_AUXTRACE_INFO at "
			     "offset 440: sessions 0 and 2 are both on CPU 1: their "
			     "AUX data cannot be told apart") != NULL,
		      "two sessions on one CPU: %s", msg);
		free(msg);
	}
}

/*
 * Two devices: mlx5_diag_0 on CPU 2 (idx 0), mlx5_diag_1 on CPU 5 (idx 3),
 * listed the other way round in AUXTRACE_INFO: each stream's PMU is the
 * session's on its CPU; each stream decoded whole, in idx order.
 */
static void perfdata_two_streams(void)
{
	static const struct pdw_session sessions[] = {
		{ MLX5_PMU1_TYPE, 5 }, { MLX5_PMU_TYPE, 2 },
	};
	struct stream a, b;
	struct pdw w;
	char *want_a, *want_b, *want, *got, want_msg[256];
	size_t off_a = 0, off_b = 0;

	example_stream(&a);
	small_stream(&b);
	write_recording(path_in(dir, "b.mlx5diag"), &b, 64);
	CHECK_INT(run_decode(path_in(dir, "b.mlx5diag"), path_in(dir, "b.txt"), NULL, NULL,
			     NULL), ERR_EXIT_OK, "the second stream alone");
	want_a = strdup(text_want);
	want_b = slurp(path_in(dir, "b.txt"));
	CHECK(strstr(want_b, "SESSION run 0 sim:1 ") && strstr(want_b, "\n0 2 7.000"),
	      "second stream:\n%s", want_b);
	want = malloc(strlen(want_a) + strlen(want_b) + 1);
	strcpy(want, want_a);
	strcat(want, want_b);
	snprintf(want_msg, sizeof(want_msg), "two.data: idx 0 (cpu 2): %zu bytes "
		 "of AUX data of mlx5_diag_0 (PMU type 42)\nmlx5-diag decode: "
		 "%s: idx 3 (cpu 5): %zu bytes of AUX data of mlx5_diag_1 (PMU "
		 "type 43)\n", a.len, path_in(dir, "two.data"), b.len);

	for (int pipe = 0; pipe < 2; pipe++) {
		pdw_init(&w, pipe);
		pdw_add_pmu(&w, MLX5_PMU_TYPE, "mlx5_diag_0");
		pdw_add_pmu(&w, MLX5_PMU1_TYPE, "mlx5_diag_1");
		pdw_auxtrace_info(&w, 7, MLX5_DIAG_ABI_VERSION, 0, sessions, 2);
		/* idx 3 first in the file, the two interleaved */
		off_a = off_b = 0;
		while (off_a < a.len || off_b < b.len) {
			size_t n = b.len - off_b < 40 ? b.len - off_b : 40;

			if (n)
				pdw_auxtrace(&w, 3, 5, b.buf + off_b, n);
			off_b += n;
			n = a.len - off_a < 56 ? a.len - off_a : 56;
			if (n)
				pdw_auxtrace(&w, 0, 2, a.buf + off_a, n);
			off_a += n;
		}
		pdw_write(&w, path_in(dir, "two.data"));
		pdw_free(&w);
		CHECK_INT(run_decode_loud(path_in(dir, "two.data"), path_in(dir, "two.txt"),
					  path_in(dir, "two.err"), NULL), ERR_EXIT_OK,
			  "two streams");
		got = slurp(path_in(dir, "two.txt"));
		CHECK(!strcmp(got, want), "%s mode:\n--- got ---\n%s\n--- want ---\n%s",
		      pipe ? "pipe" : "file", got, want);
		free(got);
		got = slurp(path_in(dir, "two.err"));
		CHECK(strstr(got, want_msg) != NULL, "each stream's PMU: %s(want %s)",
		      got, want_msg);
		free(got);
		/* the timeline names each stream's PMU and CPU on its lines */
		CHECK_INT(run_decode(path_in(dir, "two.data"), path_in(dir, "two.tl"),
				     "--timeline", NULL, NULL), ERR_EXIT_OK,
			  "two streams, --timeline");
		got = slurp(path_in(dir, "two.tl"));
		{
			size_t n0 = 0, n1 = 0, lines = 0;

			for (char *l = got; *l; l = strchr(l, '\n') + 1) {
				lines++;
				n0 += !strncmp(l, "     mlx5_diag_0       - [002] ", 31) &&
				      strstr(l, ": 0000:08:00.0 ") < strchr(l, '\n');
				n1 += !strncmp(l, "     mlx5_diag_1       - [005] ", 31) &&
				      strstr(l, ": sim:1 ") < strchr(l, '\n');
			}
			/* 2 SESSION, 5 samples, a LOST, 2 END; SESSION, 3 samples, END */
			CHECK(n0 == 10 && n1 == 5 && lines == 15,
			      "%zu lines of mlx5_diag_0, %zu of mlx5_diag_1, %zu in "
			      "all:\n%s", n0, n1, lines, got);
		}
		free(got);
	}
	free(want_a);
	free(want_b);
	free(want);
	stream_free(&a);
	stream_free(&b);
}

/* ---- snapshot mode (perf record -S) ---- */

/* TIME records of the snapshot stream: perf = dev + 2.0002 s */
static const uint64_t snap_times[][2] = {
	{ 5000100000ull, 7000300000ull }, { 5000300000ull, 7000500000ull },
	{ 5000700000ull, 7000900000ull }, { 5000900000ull, 7001100000ull },
};

struct snap {
	struct stream s;
	size_t chunk[4];	/* SYNC offsets */
	size_t first_samples;	/* chunk 0's SAMPLES record */
	size_t time3;		/* chunk 3's new TIME record */
};

/* SYNC, and for a chunk inside the run the SESSION repeat and 2 TIMEs. */
static void snap_chunk(struct snap *c, int k, const struct stream_session *d,
		       int repeat_from)
{
	struct stream_session rep = *d;

	c->chunk[k] = stream_sync(&c->s);
	if (repeat_from < 0) {
		stream_session(&c->s, d);
		return;
	}
	rep.flags = MLX5_DIAG_SESSION_F_CHUNK;
	stream_session(&c->s, &rep);
	for (int i = repeat_from; i < k && i < repeat_from + 2; i++)
		stream_time(&c->s, MLX5_DIAG_TS_RTC, snap_times[i][0],
			    snap_times[i][1], 500);
}

static void snap_samples(struct snap *c, uint64_t first, uint32_t nr,
			 uint64_t t0)
{
	struct stream_samples d = {
		.out_format = 1, .ts_source = MLX5_DIAG_TS_RTC, .num_ids = 2,
		.ids = port_ids, .first_seq = first, .nr = nr, .t0 = t0,
		.t_step = 100000, .entry_step = 40, .value_base = 1000000,
	};

	stream_samples(&c->s, &d);
}

static size_t snap_time(struct snap *c, int i)
{
	return stream_time(&c->s, MLX5_DIAG_TS_RTC, snap_times[i][0], snap_times[i][1],
		    500);
}

/*
 * Run 2 as the driver writes it in snapshot mode: chunk 0 starts the run
 * (samples 0-1), chunk 1 (samples 2-3), chunk 2 (4-5 lost to the
 * firmware, sample 6), chunk 3 (samples 7-8); each later chunk repeats
 * the SESSION and the last two TIME records.
 */
static void snap_stream(struct snap *c)
{
	struct stream_session d = {
		.run = 2, .out_format = 1, .ts_source = MLX5_DIAG_TS_RTC,
		.num_ids = 2, .ids = port_ids, .period_ns = 100000,
		.identifier = "0000:08:00.0",
	};

	memset(c, 0, sizeof(*c));
	stream_init(&c->s);
	snap_chunk(c, 0, &d, -1);
	snap_time(c, 0);
	c->first_samples = c->s.len;
	snap_samples(c, 0, 2, 4999900000ull);
	snap_chunk(c, 1, &d, 0);
	snap_time(c, 1);
	snap_samples(c, 2, 2, 5000100000ull);
	snap_chunk(c, 2, &d, 0);
	stream_lost(&c->s, 4, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	snap_time(c, 2);
	snap_samples(c, 6, 1, 5000600000ull);
	snap_chunk(c, 3, &d, 1);
	c->time3 = snap_time(c, 3);
	snap_samples(c, 7, 2, 5000700000ull);
}

/*
 * perf record -S of mlx5_diag_0: three snapshots of idx 1 (cpu 1), each
 * an AUXTRACE buffer that starts anywhere: from inside chunk 0's SAMPLES
 * to the end of chunk 2; from the end of chunk 1's SAMPLES (16 bytes
 * before chunk 2) to the end (they overlap); the last 40 bytes (no chunk
 * starts in them).
 */
static void snap_perfdata(struct pdw *w, int pipe, const struct snap *c)
{
	static const uint8_t round[8] = { 68, 0, 0, 0, 0, 0, 8, 0 };

	pdw_init(w, pipe);
	pdw_add_pmu(w, MLX5_PMU_TYPE, "mlx5_diag_0");
	pdw_auxtrace_info(w, 7, MLX5_DIAG_ABI_VERSION, 1, one_session, 1);
	pdw_auxtrace(w, 1, 1, c->s.buf + c->first_samples + 8,
		     c->chunk[3] - c->first_samples - 8);
	pdw_raw(w, round, sizeof(round));
	pdw_auxtrace(w, 1, 1, c->s.buf + c->chunk[2] - 16,
		     c->s.len - c->chunk[2] + 16);
	pdw_raw(w, round, sizeof(round));
	pdw_auxtrace(w, 1, 1, c->s.buf + c->s.len - 40, 40);
}

/* Each window from its first chunk, with a reset decoder: its own SESSION. */
static const char snap_want[] =
"SESSION run 2 0000:08:00.0 repetitive format1 rtc, period 100000 ns (requested 100000), 2 data IDs\n"
"2 2 7.000300000 5.000100000 port_1_rx_bytes=3000006 port_1_tx_bytes=4297967303\n"
"2 3 7.000400000 5.000200000 port_1_rx_bytes=4000009 port_1_tx_bytes=4298967306\n"
"LOST run 2 samples 4..5 (2): fw_overwrite\n"
"2 6 7.000800000 5.000600000 port_1_rx_bytes=7000018 port_1_tx_bytes=4301967315\n"
"SESSION run 2 0000:08:00.0 repetitive format1 rtc, period 100000 ns (requested 100000), 2 data IDs\n"
"LOST run 2 samples 4..5 (2): fw_overwrite\n"
"2 6 7.000800000 5.000600000 port_1_rx_bytes=7000018 port_1_tx_bytes=4301967315\n"
"2 7 7.000900000 5.000700000 port_1_rx_bytes=8000021 port_1_tx_bytes=4302967318\n"
"2 8 7.001000000 5.000800000 port_1_rx_bytes=9000024 port_1_tx_bytes=4303967321\n";

static void perfdata_snapshot(void)
{
	struct snap c;
	struct pdw w;
	char want[1024], *msg;
	size_t ev[3];

	snap_stream(&c);
	for (int pipe = 0; pipe < 2; pipe++) {
		snap_perfdata(&w, pipe, &c);
		pdw_write(&w, path_in(dir, "snap.data"));
		/* AUXTRACE events: after the 56-byte info, 48 + data + 8 each */
		ev[0] = w.data_offset + 56;
		pdw_free(&w);
		ev[1] = ev[0] + 48 + (c.chunk[3] - c.first_samples - 8) + 8;
		ev[2] = ev[1] + 48 + (c.s.len - c.chunk[2] + 16) + 8;
		CHECK_INT(run_decode_loud(path_in(dir, "snap.data"), path_in(dir, "snap.txt"),
					  path_in(dir, "snap.err"), NULL), ERR_EXIT_OK,
			  pipe ? "snapshot windows (pipe)" : "snapshot windows");
		check_same(pipe ? "snapshot windows (pipe)" : "snapshot windows",
			   path_in(dir, "snap.txt"), snap_want);
		msg = slurp(path_in(dir, "snap.err"));
		snprintf(want, sizeof(want),
			 "mlx5-diag decode: %s: idx 1 (cpu 1): %zu bytes of AUX data "
			 "of mlx5_diag_0 (PMU type 42) in 3 snapshots\n"
			 "mlx5-diag decode: %s: idx 1 (cpu 1) snapshot 1: %zu bytes, "
			 "decoded from its first chunk at byte %zu\n"
			 "mlx5-diag decode: %s: idx 1 (cpu 1) snapshot 2: %zu bytes, "
			 "decoded from its first chunk at byte 16\n"
			 "mlx5-diag decode: %s: warning: idx 1 (cpu 1) snapshot 3 (the "
			 "PERF_RECORD_AUXTRACE at offset %zu): no chunk starts in its 40 "
			 "bytes, none of it is decoded (a window smaller than one chunk "
			 "of the driver)\n"
			 "mlx5-diag decode: 6 samples in 2 runs, 4 lost (fw_overwrite 4, "
			 "aux_full 0, reset 0, unaccounted 0)\n",
			 path_in(dir, "snap.data"),
			 (c.chunk[3] - c.first_samples - 8) +
			 (c.s.len - c.chunk[2] + 16) + 40,
			 path_in(dir, "snap.data"), c.chunk[3] - c.first_samples - 8,
			 c.chunk[1] - c.first_samples - 8, path_in(dir, "snap.data"),
			 c.s.len - c.chunk[2] + 16, path_in(dir, "snap.data"), ev[2]);
		CHECK(!strcmp(msg, want), "the windows on stderr:\n--- got ---\n%s"
		      "--- want ---\n%s", msg, want);
		free(msg);
		/* -q: the window not decoded is still said */
		CHECK_INT(run_decode_err(path_in(dir, "snap.data"), path_in(dir, "snap.txt"),
					 path_in(dir, "snap.err"), NULL, NULL),
			  ERR_EXIT_OK, "snapshot windows, -q");
		msg = slurp(path_in(dir, "snap.err"));
		CHECK(strstr(msg, "warning: idx 1 (cpu 1) snapshot 3 (the "
			     "PERF_RECORD_AUXTRACE at offset") &&
		      !strstr(msg, "snapshot 1") && !strstr(msg, "samples in"),
		      "-q: the warning alone: %s", msg);
		free(msg);
	}

	/*
	 * A bad record in the second window alone: exit status 5, its offset
	 * in the window; the first window's lines are written.
	 */
	stream_put16(&c.s, c.time3, 99);
	snap_perfdata(&w, 0, &c);
	pdw_write(&w, path_in(dir, "snap.data"));
	pdw_free(&w);
	CHECK_INT(run_decode_err(path_in(dir, "snap.data"), path_in(dir, "snap.txt"),
				 path_in(dir, "snap.err"), NULL, NULL), ERR_EXIT_STREAM,
		  "a bad record in a window");
	msg = slurp(path_in(dir, "snap.err"));
	snprintf(want, sizeof(want), "snap.data: idx 1 (cpu 1) snapshot 2 byte "
		 "%zu: unknown record type 99", c.time3 - c.chunk[2] + 16);
	CHECK(strstr(msg, want) != NULL, "names the window and the record: "
	      "%s(want %s)", msg, want);
	free(msg);
	msg = slurp(path_in(dir, "snap.txt"));
	CHECK(!strcmp(msg, "SESSION run 2 0000:08:00.0 repetitive format1 rtc, "
		      "period 100000 ns (requested 100000), 2 data IDs\n"
		      "2 2 7.000300000 5.000100000 port_1_rx_bytes=3000006 "
		      "port_1_tx_bytes=4297967303\n"
		      "2 3 7.000400000 5.000200000 port_1_rx_bytes=4000009 "
		      "port_1_tx_bytes=4298967306\n"
		      "LOST run 2 samples 4..5 (2): fw_overwrite\n"
		      "2 6 7.000800000 5.000600000 port_1_rx_bytes=7000018 "
		      "port_1_tx_bytes=4301967315\n"
		      "SESSION run 2 0000:08:00.0 repetitive format1 rtc, "
		      "period 100000 ns (requested 100000), 2 data IDs\n"
		      "LOST run 2 samples 4..5 (2): fw_overwrite\n"
		      "2 6 7.000800000 5.000600000 port_1_rx_bytes=7000018 "
		      "port_1_tx_bytes=4301967315\n"),
	      "the lines before the bad record: %s", msg);
	free(msg);
	stream_free(&c.s);
}

/*
 * `mlx5-diag decode -` in a child process whose standard input is a pipe
 * that this process fills with FILE. Returns the child's status.
 */
static int decode_from_pipe(const char *file, const char *outfile,
			    const char *errfile)
{
	char *data = malloc(1 << 20);
	int p[2], status;
	size_t len;
	pid_t pid;
	FILE *f = fopen(file, "rb");

	if (!f || !data || pipe(p))
		abort();
	len = fread(data, 1, 1 << 20, f);
	fclose(f);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		close(p[1]);
		if (dup2(p[0], 0) < 0)
			_exit(100);
		close(p[0]);
		_exit(run_decode_err("-", outfile, errfile, NULL, NULL));
	}
	close(p[0]);
	if (write(p[1], data, len) != (ssize_t)len)
		abort();
	close(p[1]);
	free(data);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void perfdata_stdin(void)
{
	struct pdw w;
	char *msg;

	example_perfdata(&w, 1, 64);
	pdw_write(&w, path_in(dir, "pipe.data"));
	pdw_free(&w);
	CHECK_INT(decode_from_pipe(path_in(dir, "pipe.data"), path_in(dir, "stdin.txt"),
				   path_in(dir, "stdin.err")), ERR_EXIT_OK,
		  "decode - of a pipe-mode stream");
	check_same("decode -", path_in(dir, "stdin.txt"), text_want);

	example_perfdata(&w, 0, 64);
	pdw_write(&w, path_in(dir, "file.data"));
	pdw_free(&w);
	CHECK_INT(decode_from_pipe(path_in(dir, "file.data"), path_in(dir, "stdin.txt"),
				   path_in(dir, "stdin.err")), ERR_EXIT_FILE,
		  "decode - of a file-mode perf.data");
	msg = slurp(path_in(dir, "stdin.err"));
	CHECK(strstr(msg, "-: a perf.data in file mode must be a regular file") != NULL,
	      "says why: %s", msg);
	free(msg);

	/* and the recording of mlx5-diag record on standard input */
	{
		struct stream s;

		example_stream(&s);
		write_recording(path_in(dir, "stdin.mlx5diag"), &s, 64);
		stream_free(&s);
	}
	CHECK_INT(decode_from_pipe(path_in(dir, "stdin.mlx5diag"), path_in(dir, "stdin.txt"),
				   path_in(dir, "stdin.err")), ERR_EXIT_OK,
		  "decode - of an mlx5-diag recording");
	check_same("decode - (MLX5DIAG)", path_in(dir, "stdin.txt"), text_want);
}

/*
 * Every cut of the file: never a crash; file mode is always refused (the
 * header names what is missing); a pipe cut inside an event is refused,
 * one cut between events decodes what came before.
 */
static void perfdata_truncated(void)
{
	struct pdw w;
	size_t size, cut, bad = 0, ok = 0;
	char *all;
	FILE *f;

	for (int pipe = 0; pipe < 2; pipe++) {
		example_perfdata(&w, pipe, 64);
		size = pdw_write(&w, path_in(dir, "full.data"));
		pdw_free(&w);
		all = slurp(path_in(dir, "full.data"));
		for (cut = 0; cut < size; cut++) {
			int ret;

			f = fopen(path_in(dir, "cut.data"), "wb");
			if (!f || fwrite(all, 1, cut, f) != cut || fclose(f))
				abort();
			ret = run_decode_err(path_in(dir, "cut.data"), path_in(dir, "cut.txt"),
					     path_in(dir, "cut.err"), NULL, NULL);
			if (!pipe && ret != ERR_EXIT_FILE) {
				CHECK_INT(ret, ERR_EXIT_FILE, "file mode cut");
				printf("#   at %zu of %zu bytes\n", cut, size);
				bad++;
			}
			if (pipe && ret == ERR_EXIT_OK)
				ok++;
			if (pipe && ret != ERR_EXIT_OK && ret != ERR_EXIT_FILE &&
			    ret != ERR_EXIT_STREAM) {
				CHECK_INT(ret, ERR_EXIT_FILE, "pipe mode cut");
				bad++;
			}
			if (bad > 5)
				break;
		}
		free(all);
	}
	/* the pipe's events end at record boundaries of the stream 7 times */
	CHECK(ok > 0 && ok < 40, "some pipe cuts between events decode (%zu)", ok);
}

struct patch {
	const char *what;
	int pipe;
	long at;		/* offset in the data section; -1: from the file start */
	size_t file_at;
	uint8_t bytes[8];
	size_t n;
	int status;
	const char *msg;
};

static void write_patched(const struct patch *p)
{
	struct pdw w;
	FILE *f;
	char *all;
	size_t size, at;

	example_perfdata(&w, p->pipe, 64);
	size = pdw_write(&w, path_in(dir, "patched.data"));
	at = p->at < 0 ? p->file_at : w.data_offset + (size_t)p->at;
	pdw_free(&w);
	all = slurp(path_in(dir, "patched.data"));
	memcpy(all + at, p->bytes, p->n);
	f = fopen(path_in(dir, "patched.data"), "wb");
	if (!f || fwrite(all, 1, size, f) != size || fclose(f))
		abort();
	free(all);
}

static void perfdata_malformed(void)
{
	/* data section: AUXTRACE_INFO (56 bytes: one session) at 0, AUXTRACE
	 * at 56, the next at 176; it starts at 440 (file mode) or 500 (pipe
	 * mode) */
	static const struct patch list[] = {
		{ "an event smaller than its header", 0, 6, 0, { 4, 0 }, 2,
		  ERR_EXIT_FILE, "malformed perf.data: the event at offset 440 "
		  "(type 70) has size 4, less than its header" },
		{ "AUXTRACE smaller than its struct", 0, 62, 0, { 40, 0 }, 2,
		  ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE at offset 496 has size 40 "
		  "(at least 48)" },
		{ "AUX data past the end of the file (pipe)", 1, 64, 0,
		  { 0, 0, 0, 1 }, 4, ERR_EXIT_FILE, "truncated perf.data: "
		  "PERF_RECORD_AUXTRACE at offset 556: 16777216 bytes of AUX data, the "
		  "file ends 1456 bytes after the event" },
		{ "AUX data past the data section", 0, 64, 0, { 0, 0, 0, 1 }, 4,
		  ERR_EXIT_FILE, "malformed perf.data: PERF_RECORD_AUXTRACE at "
		  "offset 496: 16777216 bytes of AUX data run past the end of the data "
		  "section at 2000" },
		{ "an event past the end of the data section", 0, 1558, 0, { 16 },
		  1, ERR_EXIT_FILE, "malformed perf.data: the event at offset "
		  "1992 (type 68, 16 bytes) runs past the end of the data section at "
		  "2000" },
		{ "AUX data not a multiple of 8", 0, 64, 0, { 60 }, 1,
		  ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE at offset 496: 60 bytes of "
		  "AUX data, not a multiple of 8" },
		{ "another AUX type", 0, 8, 0, { 6 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE_INFO at offset 440: AUX area data of type 6, "
		  "not mlx5_diag (7)" },
		{ "AUXTRACE_INFO without its private data", 0, 6, 0, { 32 }, 1,
		  ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE_INFO at offset 440: 16 "
		  "bytes of private data, mlx5_diag's has at least 24 (record ABI, "
		  "flags, number of sessions)" },
		{ "another ABI version", 1, 16, 0, { 2 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE_INFO at offset 500: record ABI version 2, this "
		  "decoder knows version 1" },
		{ "an unknown flag", 0, 24, 0, { 2 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE_INFO at offset 440: flags 0x2 (this decoder "
		  "knows bit 0, snapshot mode, alone)" },
		{ "no session", 0, 32, 0, { 0 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE_INFO at offset 440: 0 mlx5_diag sessions "
		  "(1 to 64)" },
		{ "65 sessions", 1, 32, 0, { 65 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE_INFO at offset 500: 65 mlx5_diag sessions "
		  "(1 to 64)" },
		{ "2 sessions in the room of 1", 0, 32, 0, { 2 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE_INFO at offset 440: 40 bytes of private data, "
		  "2 sessions need 56" },
		{ "a PMU type of more than 32 bits", 0, 44, 0, { 1 }, 1,
		  ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE_INFO at offset 440: "
		  "session 0: PMU type 4294967338" },
		{ "a CPU of -1", 0, 48, 0, { 255, 255, 255, 255, 255, 255, 255, 255 },
		  8, ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE_INFO at offset 440: "
		  "session 0: CPU 18446744073709551615" },
		{ "AUX data of a CPU without a session", 0, 96, 0, { 7 }, 1,
		  ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE at offset 496: AUX data of "
		  "CPU 7, on which no session of the PERF_RECORD_AUXTRACE_INFO is "
		  "(their CPUs: 1)" },
		{ "an idx whose CPU changes", 1, 216, 0, { 2 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_AUXTRACE at offset 676: AUX data of idx 1 on CPU 2, "
		  "the idx's earlier data was on CPU 1" },
		{ "AUXTRACE before AUXTRACE_INFO", 0, 0, 0, { 68 }, 1,
		  ERR_EXIT_FILE, "PERF_RECORD_AUXTRACE at offset 496 before any "
		  "PERF_RECORD_AUXTRACE_INFO" },
		{ "a compressed event", 1, 56, 0, { 81 }, 1, ERR_EXIT_FILE,
		  "PERF_RECORD_COMPRESSED at offset 556: a compressed perf.data" },
		{ "a malformed record of the stream", 0, 104, 0, { 9 }, 1,
		  ERR_EXIT_STREAM, "idx 1 (cpu 1) AUX stream byte 0: " },
		{ "a bad header size", 0, -1, 8, { 50 }, 1, ERR_EXIT_FILE,
		  "malformed perf.data header: size 50 (pipe mode: 16, file mode: 104)" },
		{ "a bad pipe header size", 1, -1, 8, { 24 }, 1, ERR_EXIT_FILE,
		  "malformed perf.data header: size 24" },
		{ "attr_size", 0, -1, 16, { 10 }, 1, ERR_EXIT_FILE,
		  "malformed perf.data header: attr_size 10" },
		{ "the data section past the end", 0, -1, 48, { 0, 0, 0, 1 }, 4,
		  ERR_EXIT_FILE, "the data section at offset 440 of 16777216 "
		  "bytes runs past the end of the file (2636 bytes)" },
		{ "an ids section past the end", 0, -1, 280, { 0, 0, 1 }, 3,
		  ERR_EXIT_FILE, "an ids section at offset 104 of 65536 bytes "
		  "runs past the end of the file" },
		{ "a big-endian perf.data", 0, -1, 0, "2ELIFREP", 8,
		  ERR_EXIT_FILE, "(big-endian) is not supported" },
		{ "a HEADER_ATTR larger than its event", 1, -1, 28, { 200 }, 1,
		  ERR_EXIT_FILE, "PERF_RECORD_HEADER_ATTR at offset 16: malformed "
		  "(attr.size 200 in 152 bytes)" },
		{ "PMU mappings that run past their end", 1, -1, 352, { 0, 0, 1 },
		  3, ERR_EXIT_FILE, "malformed HEADER_PMU_MAPPINGS: 65536 PMUs in "
		  "148 bytes" },
	};
	size_t i;
	char *msg;

	for (i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
		const struct patch *p = &list[i];
		int ret;

		write_patched(p);
		ret = run_decode_err(path_in(dir, "patched.data"), path_in(dir, "patched.txt"),
				     path_in(dir, "patched.err"), NULL, NULL);
		msg = slurp(path_in(dir, "patched.err"));
		CHECK(ret == p->status && strstr(msg, p->msg),
		      "%s: status %d (want %d), message: %s(want '%s')", p->what,
		      ret, p->status, msg, p->msg);
		free(msg);
	}
}

/* ---- --timeline ---- */

struct rec {
	uint8_t b[512];
	size_t n;
};

static void r_put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->b + r->n, p, n);
	r->n += n;
}

static void r_u32(struct rec *r, uint32_t v)
{
	r_put(r, &v, 4);
}

static void r_u64(struct rec *r, uint64_t v)
{
	r_put(r, &v, 8);
}

static void r_header(struct rec *r, uint32_t type)
{
	r->n = 0;
	r_u32(r, type);
	r_u32(r, 0);			/* misc, size: set by r_done() */
}

static size_t r_done(struct rec *r)
{
	uint16_t size = (uint16_t)r->n;

	memcpy(r->b + 6, &size, 2);
	return r->n;
}

/* The sample_id of a non-sample record: TID, TIME, CPU, IDENTIFIER. */
static void r_trailer(struct rec *r, uint32_t tid, uint64_t time, uint32_t cpu,
		      uint64_t id)
{
	r_u32(r, tid);
	r_u32(r, tid);
	r_u64(r, time);
	r_u32(r, cpu);
	r_u32(r, 0);
	r_u64(r, id);
}

static size_t comm_rec(struct rec *r, uint32_t pid, const char *comm,
		       uint64_t time, uint64_t id)
{
	char name[16] = { 0 };

	strncpy(name, comm, 15);
	r_header(r, 3);
	r_u32(r, pid);
	r_u32(r, pid);
	r_put(r, name, 16);
	r_trailer(r, pid, time, 0, id);
	return r_done(r);
}

static size_t fork_rec(struct rec *r, uint32_t child, uint32_t parent,
		       uint64_t time, uint64_t id)
{
	r_header(r, 7);
	r_u32(r, child);
	r_u32(r, parent);
	r_u32(r, child);
	r_u32(r, parent);
	r_u64(r, time);
	r_trailer(r, child, time, 1, id);
	return r_done(r);
}

static size_t exit_rec(struct rec *r, uint32_t tid, uint64_t time, uint64_t id)
{
	r_header(r, 4);
	r_u32(r, tid);
	r_u32(r, 1);
	r_u32(r, tid);
	r_u32(r, 1);
	r_u64(r, time);
	r_trailer(r, tid, time, 1, id);
	return r_done(r);
}

static size_t lost_rec(struct rec *r, uint64_t n, uint64_t time, uint32_t cpu,
		       uint64_t id)
{
	r_header(r, 2);
	r_u64(r, id);
	r_u64(r, n);
	r_trailer(r, 0xffffffffu, time, cpu, id);
	return r_done(r);
}

/*
 * The records of the timeline tests, ids ID0 (CPU 0) and ID1 (CPU 1):
 * names at time 0, a switch on CPU 0 between the first two mlx5 samples,
 * a fork of sh (101) whose switch on CPU 1 shows its parent's name, an
 * exec that renames it "workload", 3 events lost on CPU 1, its exit
 * (after which, as in perf, it has no name), one switch after the last
 * sample. Written to F one record at a time (PER_RECORD)
 * or gathered in one buffer.
 */
typedef void (*rec_sink)(void *ctx, const void *rec, size_t len);

static void timeline_records(uint64_t st, uint64_t id0, uint64_t id1,
			     rec_sink sink, void *ctx)
{
	struct rec r;

	sink(ctx, r.b, comm_rec(&r, 1, "init", 0, 0));
	sink(ctx, r.b, comm_rec(&r, 100, "sh", 0, 0));
	sink(ctx, r.b, sched_switch_sample(r.b, st, id0, 7000150000ull, 0,
					   "sh", 100, 1, "swapper/0", 0));
	sink(ctx, r.b, fork_rec(&r, 101, 100, 7000300000ull, id1));
	sink(ctx, r.b, sched_switch_sample(r.b, st, id1, 7000400000ull, 1,
					   "sh", 101, 0, "init", 1));
	sink(ctx, r.b, comm_rec(&r, 101, "workload", 7000450000ull, id1));
	sink(ctx, r.b, sched_switch_sample(r.b, st, id1, 8000000000ull, 1,
					   "workload", 101, 2, "swapper/1", 0));
	sink(ctx, r.b, lost_rec(&r, 3, 8500000000ull, 1, id1));
	sink(ctx, r.b, exit_rec(&r, 101, 8600000000ull, id1));
	sink(ctx, r.b, sched_switch_sample(r.b, st, id1, 8700000000ull, 1,
					   "workload", 101, 16, "swapper/1", 0));
	sink(ctx, r.b, sched_switch_sample(r.b, st, id0, 9500000000ull, 0,
					   "swapper/0", 0, 0, "init", 1));
}

static void to_stream(void *ctx, const void *rec, size_t len)
{
	struct stream *s = ctx;

	if (s->len + len > s->cap) {
		s->cap = (s->len + len) * 2;
		s->buf = realloc(s->buf, s->cap);
		if (!s->buf)
			abort();
	}
	memcpy(s->buf + s->len, rec, len);
	s->len += len;
}

static const char timeline_want[] =
"     mlx5_diag_0       - [001]     7.000100000: 0000:08:00.0 SESSION: run 0 repetitive format1 rtc, period 100000 ns (requested 100000), 2 data IDs\n"
"     mlx5_diag_0       - [001]     7.000100000: 0000:08:00.0 sample: run 0 seq 0 dev 4.999900000 port_1_rx_bytes=1000000 port_1_tx_bytes=4295967297\n"
"              sh     100 [000]     7.000150000: sched:sched_switch: prev_comm=sh prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"     mlx5_diag_0       - [001]     7.000200000: 0000:08:00.0 sample: run 0 seq 1 dev 5.000000000 port_1_rx_bytes=2000003 port_1_tx_bytes=4296967300\n"
"              sh     101 [001]     7.000400000: sched:sched_switch: prev_comm=sh prev_pid=101 prev_prio=120 prev_state=R ==> next_comm=init next_pid=1 next_prio=120\n"
"     mlx5_diag_0       - [001]     7.000500000: 0000:08:00.0 LOST: run 0 samples 2..3 (2): fw_overwrite\n"
"     mlx5_diag_0       - [001]     7.000500000: 0000:08:00.0 sample: run 0 seq 4 dev 5.000300000 port_1_rx_bytes=5000012 port_1_tx_bytes=4299967309\n"
"     mlx5_diag_0       - [001]     7.000500000: 0000:08:00.0 END: run 0 after 5 samples: stopped\n"
"        workload     101 [001]     8.000000000: sched:sched_switch: prev_comm=workload prev_pid=101 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"               -       - [001]     8.500000000: lost: 3 events (the ring was full)\n"
"            :101     101 [001]     8.700000000: sched:sched_switch: prev_comm=workload prev_pid=101 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"     mlx5_diag_0       - [001]     8.999360000: 0000:08:00.0 SESSION: run 1 repetitive format0 frc 156250 kHz, period 100000 ns (requested 100000), 3 data IDs\n"
"     mlx5_diag_0       - [001]     8.999360000~: 0000:08:00.0 sample: run 1 seq 0 dev 20000000 global_icmc_request=100 global_icmc_hit=4294967397 global_icmc_miss=8589934694\n"
"     mlx5_diag_0       - [001]     8.999460000~: 0000:08:00.0 sample: run 1 seq 1 dev 20015625 global_icmc_request=1000103 global_icmc_hit=4295967400 global_icmc_miss=8590934697\n"
"     mlx5_diag_0       - [001]     8.999460000: 0000:08:00.0 END: run 1 after 2 samples: stopped\n"
"         swapper       0 [000]     9.500000000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=init next_pid=1 next_prio=120\n";

/* A recording of mlx5-diag record --tracepoint sched:sched_switch. */
static void write_timeline_recording(const char *path, const char *format_text,
				     const char *extra_meta, const struct stream *perf)
{
	struct mdf_meta_buf m = { 0 };
	struct mdf_writer w;
	struct stream s;

	if (mdf_writer_open(&w, path))
		abort();
	sched_meta_add(&m, format_text);
	if (mdf_meta_add(&m, "sample_id", "1000 tracepoint=0 cpu=0") ||
	    mdf_meta_add(&m, "sample_id", "1001 tracepoint=0 cpu=1") ||
	    (extra_meta && mdf_meta_add(&m, "sample_id", extra_meta)) ||
	    mdf_write_chunk(&w, MDF_CHUNK_META, m.text, m.len))
		abort();
	mdf_meta_buf_free(&m);
	example_stream(&s);
	/* the names first, then AUX and PERF chunks as a drain writes them */
	if (mdf_write_chunk(&w, MDF_CHUNK_PERF, perf->buf, 64) ||
	    mdf_write_chunk(&w, MDF_CHUNK_AUX, s.buf, 400) ||
	    mdf_write_chunk(&w, MDF_CHUNK_PERF, perf->buf + 64, perf->len - 64) ||
	    mdf_write_chunk(&w, MDF_CHUNK_AUX, s.buf + 400, s.len - 400) ||
	    mdf_writer_close(&w))
		abort();
	stream_free(&s);
}

static void timeline_recording(void)
{
	struct stream perf = { 0 };
	char *fmt = sched_format(), *got;

	timeline_records(S_TYPE_OWN, 1000, 1001, to_stream, &perf);
	CHECK(perf.len > 64 && !memcmp(perf.buf + 8 + 8, "init", 4) &&
	      perf.buf[6] == 64, "the two COMM records of time 0 are 64 bytes");
	write_timeline_recording(path_in(dir, "tl.mlx5diag"), fmt, NULL, &perf);
	CHECK_INT(run_decode(path_in(dir, "tl.mlx5diag"), path_in(dir, "tl.txt"),
			     "--timeline", NULL, NULL), ERR_EXIT_OK, "--timeline");
	check_same("timeline", path_in(dir, "tl.txt"), timeline_want);
	/* the sink by its registry name */
	CHECK_INT(run_decode(path_in(dir, "tl.mlx5diag"), path_in(dir, "tl.txt"),
			     "--format", "timeline", NULL), ERR_EXIT_OK,
		  "--format timeline");
	check_same("--format timeline", path_in(dir, "tl.txt"), timeline_want);
	CHECK_INT(run_decode(path_in(dir, "tl.mlx5diag"), path_in(dir, "tl.txt"),
			     "-di", path_in(dir, "none.json"), "--met"), ERR_EXIT_NAMES,
		  "-di, and --met for --metrics, after getopt_long");
	/* without --timeline the PERF chunks are skipped */
	CHECK_INT(run_decode(path_in(dir, "tl.mlx5diag"), path_in(dir, "tl.txt"), NULL, NULL,
			     NULL), ERR_EXIT_OK, "text");
	check_same("text of a recording with tracepoints", path_in(dir, "tl.txt"),
		   text_want);
	CHECK_INT(run_decode(path_in(dir, "tl.mlx5diag"), path_in(dir, "tl.txt"),
			     "--timeline", "--format", "csv"), ERR_EXIT_USAGE,
		  "--timeline with csv");
	free(perf.buf);
	free(fmt);
	(void)got;
}

/* perf's tracing data (trace-event-read.c) holding one format of "sched" */
static void tracing_blob(struct stream *b, const char *format)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
					 'i', 'n', 'g' };
	uint64_t zero = 0, len = strlen(format);
	uint32_t page = 4096, one = 1, none = 0;

	b->len = 0;
	to_stream(b, magic, sizeof(magic));
	to_stream(b, "0.6", 4);
	to_stream(b, "\0\010", 2);		/* little-endian, 8-byte long */
	to_stream(b, &page, 4);
	to_stream(b, "header_page", 12);
	to_stream(b, &zero, 8);
	to_stream(b, "header_event", 13);
	to_stream(b, &zero, 8);
	to_stream(b, &none, 4);			/* ftrace formats */
	to_stream(b, &one, 4);			/* event systems */
	to_stream(b, "sched", 6);
	to_stream(b, &one, 4);
	to_stream(b, &len, 8);
	to_stream(b, format, len);
	to_stream(b, &none, 4);			/* kallsyms */
	to_stream(b, &none, 4);			/* printk formats */
	to_stream(b, &zero, 8);			/* saved cmdlines */
}

static void to_pdw(void *ctx, const void *rec, size_t len)
{
	pdw_raw(ctx, rec, len);
}

/*
 * perf record -e mlx5_diag_0// -e sched:sched_switch -a: the stream of
 * idx 1 (cpu 1) and the records of the recording's timeline test.
 */
static void timeline_perfdata(struct pdw *w, int pipe, struct stream *tracing)
{
	struct pdw_attr mlx5 = {
		.type = MLX5_PMU_TYPE, .config = 0x1180000200000000ull,
		.sample_type = 0x10087, .flags = 1ull << 18, .ids = { 100, 101 },
		.nr_ids = 2, .name = "mlx5_diag_0//",
	};
	struct pdw_attr sw = {
		.type = 2, .config = SCHED_SWITCH, .sample_type = S_TYPE_PERF,
		.flags = 1ull << 18, .ids = { 1000, 1001 }, .nr_ids = 2,
		.name = "sched:sched_switch",
	};
	struct stream s;
	char *fmt = sched_format();

	tracing->buf = NULL;
	tracing->cap = 0;
	tracing_blob(tracing, fmt);
	free(fmt);
	pdw_init(w, pipe);
	pdw_add_attr(w, &mlx5);
	pdw_add_attr(w, &sw);
	pdw_add_pmu(w, MLX5_PMU_TYPE, "mlx5_diag_0");
	w->tracing = tracing->buf;
	w->tracing_len = tracing->len;
	pdw_auxtrace_info(w, 7, MLX5_DIAG_ABI_VERSION, 0, one_session, 1);
	example_stream(&s);
	pdw_auxtrace(w, 1, 1, s.buf, 400);
	timeline_records(S_TYPE_PERF, 1000, 1001, to_pdw, w);
	pdw_auxtrace(w, 1, 1, s.buf + 400, s.len - 400);
	stream_free(&s);
}

static void timeline_perf_data(void)
{
	struct stream tracing;
	struct pdw w;

	for (int pipe = 0; pipe < 2; pipe++) {
		timeline_perfdata(&w, pipe, &tracing);
		pdw_write(&w, path_in(dir, "tl.data"));
		pdw_free(&w);
		free(tracing.buf);
		CHECK_INT(run_decode(path_in(dir, "tl.data"), path_in(dir, "tlp.txt"),
				     "--timeline", NULL, NULL), ERR_EXIT_OK,
			  pipe ? "pipe mode" : "file mode");
		check_same(pipe ? "perf.data timeline (pipe)" :
			   "perf.data timeline (file)", path_in(dir, "tlp.txt"),
			   timeline_want);
	}
}

/* Malformed tracepoint data: the message, exit status 4, no crash. */
static void timeline_malformed(void)
{
	static const struct {
		const char *what;
		size_t at;		/* in the PERF records */
		uint8_t bytes[4];
		size_t n;
		const char *msg;
	} bad[] = {
		{ "a record of size 4", 70, { 4, 0 }, 2,
		  "the PERF chunk at offset 2528: a record of 4 bytes at byte 0 of "
		  "872" },
		{ "a sample of an unknown id", 136, { 0x99 }, 1,
		  "the PERF chunk at offset 2528, byte 64: a record (type 9) of "
		  "sample id 921, which no event has" },
		{ "raw data shorter than the format", 168, { 20 }, 1,
		  "a sample of sched:sched_switch at 7.000150000 has raw data (20 "
		  "bytes, type 118) that does not fit its format" },
		{ "raw data of another event", 172, { 119 }, 1,
		  "(68 bytes, type 119) that does not fit its format" },
		{ "raw size past the record", 168, { 0, 1 }, 2,
		  "a sample of sched:sched_switch: its RAW data runs past its end" },
		{ "a COMM too short for its sample_id", 6, { 24 }, 1,
		  "the PERF chunk at offset 2032, byte 0: a record (type 3) of sample "
		  "id 1953066601, which no event has" },
	};
	struct stream perf = { 0 };
	char *fmt = sched_format(), *msg;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		perf.len = 0;
		timeline_records(S_TYPE_OWN, 1000, 1001, to_stream, &perf);
		memcpy(perf.buf + bad[i].at, bad[i].bytes, bad[i].n);
		write_timeline_recording(path_in(dir, "bad.mlx5diag"), fmt, NULL, &perf);
		CHECK_INT(run_decode_err(path_in(dir, "bad.mlx5diag"), path_in(dir, "bad.txt"),
					 path_in(dir, "bad.err"), "--timeline", NULL),
			  ERR_EXIT_FILE, bad[i].what);
		msg = slurp(path_in(dir, "bad.err"));
		CHECK(strstr(msg, bad[i].msg) != NULL, "%s: %s(want '%s')",
		      bad[i].what, msg, bad[i].msg);
		free(msg);
	}
	/* META: a format that does not parse, a sample_id of no tracepoint */
	perf.len = 0;
	timeline_records(S_TYPE_OWN, 1000, 1001, to_stream, &perf);
	write_timeline_recording(path_in(dir, "bad.mlx5diag"), "garbage", NULL, &perf);
	CHECK_INT(run_decode_err(path_in(dir, "bad.mlx5diag"), path_in(dir, "bad.txt"),
				 path_in(dir, "bad.err"), "--timeline", NULL),
		  ERR_EXIT_FILE, "a bad format");
	msg = slurp(path_in(dir, "bad.err"));
	CHECK(strstr(msg, "the format of sched:sched_switch does not parse") != NULL,
	      "a bad format: %s", msg);
	free(msg);
	write_timeline_recording(path_in(dir, "bad.mlx5diag"), "name: x\nID: 118\n",
				 NULL, &perf);
	CHECK_INT(run_decode_err(path_in(dir, "bad.mlx5diag"), path_in(dir, "bad.txt"),
				 path_in(dir, "bad.err"), "--timeline", NULL),
		  ERR_EXIT_FILE, "a format of another event");
	msg = slurp(path_in(dir, "bad.err"));
	CHECK(strstr(msg, "the format of sched:sched_switch is of event sched:x") != NULL,
	      "a format of another event: %s", msg);
	free(msg);
	write_timeline_recording(path_in(dir, "bad.mlx5diag"), fmt, "7 tracepoint=3 cpu=0",
				 &perf);
	CHECK_INT(run_decode_err(path_in(dir, "bad.mlx5diag"), path_in(dir, "bad.txt"),
				 path_in(dir, "bad.err"), "--timeline", NULL),
		  ERR_EXIT_FILE, "a sample_id of no tracepoint");
	msg = slurp(path_in(dir, "bad.err"));
	CHECK(strstr(msg, "malformed META: sample_id '7 tracepoint=3 cpu=0'") != NULL,
	      "a sample_id of no tracepoint: %s", msg);
	free(msg);
	/*
	 * libtraceevent dies on some formats: printing one that divides by
	 * a field of 0 (SIGFPE), parsing a mangled print fmt (SIGSEGV); both
	 * run in a child, and the decode ends with a message.
	 */
	{
		char *div = strdup(fmt), *pf = strstr(div, "print fmt:");
		char *mangled = strdup(fmt), *flags = strstr(mangled, "__print_flags(");

		strcpy(pf, "print fmt: \"x=%d\", REC->prev_pid / REC->next_pid\n");
		write_timeline_recording(path_in(dir, "bad.mlx5diag"), div, NULL, &perf);
		CHECK_INT(run_decode_err(path_in(dir, "bad.mlx5diag"), path_in(dir, "bad.txt"),
					 path_in(dir, "bad.err"), "--timeline", NULL),
			  ERR_EXIT_FILE, "a format that divides by zero");
		msg = slurp(path_in(dir, "bad.err"));
		CHECK(strstr(msg, "libtraceevent died of signal 8 (Floating point "
			     "exception) formatting the tracepoint events: a format "
			     "of the recording is malformed") != NULL,
		      "a format that divides by zero: %s", msg);
		free(msg);
		strcpy(flags + strlen("__print_flags(REC->prev_sta"),
		       "000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
		       "REC->next_pid, REC->next_prio\n");
		write_timeline_recording(path_in(dir, "bad.mlx5diag"), mangled, NULL, &perf);
		CHECK_INT(run_decode_err(path_in(dir, "bad.mlx5diag"), path_in(dir, "bad.txt"),
					 path_in(dir, "bad.err"), "--timeline", NULL),
			  ERR_EXIT_FILE, "a mangled print fmt");
		msg = slurp(path_in(dir, "bad.err"));
		CHECK(strstr(msg, "the format of sched:sched_switch does not parse") != NULL,
		      "a mangled print fmt: %s", msg);
		free(msg);
		free(div);
		free(mangled);
	}
	free(perf.buf);
	free(fmt);
}

/*
 * perf record -e sched:sched_switch alone, as PATH (pipe mode): one switch
 * on CPU 0 at 7.000150000 from sh (100) to swapper/0; no AUX data, no
 * task names.
 */
static void write_tracepoints_only(const char *path)
{
	struct pdw_attr sw = {
		.type = 2, .config = SCHED_SWITCH, .sample_type = S_TYPE_PERF,
		.flags = 1ull << 18, .ids = { 1000 }, .nr_ids = 1,
		.name = "sched:sched_switch",
	};
	struct stream tracing = { 0 };
	struct pdw w;
	struct rec r;
	char *fmt = sched_format();

	tracing_blob(&tracing, fmt);
	free(fmt);
	pdw_init(&w, 1);
	pdw_add_attr(&w, &sw);
	w.tracing = tracing.buf;
	w.tracing_len = tracing.len;
	pdw_raw(&w, r.b, sched_switch_sample(r.b, S_TYPE_PERF, 1000,
					     7000150000ull, 0, "sh", 100, 1,
					     "swapper/0", 0));
	pdw_write(&w, path);
	pdw_free(&w);
	free(tracing.buf);
}

static void timeline_tracepoints_only(void)
{
	write_tracepoints_only(path_in(dir, "tp.data"));
	CHECK_INT(run_decode(path_in(dir, "tp.data"), path_in(dir, "tp.txt"), "--timeline",
			     NULL, NULL), ERR_EXIT_OK, "tracepoints only");
	check_same("tracepoints only", path_in(dir, "tp.txt"),
"            :100     100 [000]     7.000150000: sched:sched_switch: prev_comm=sh prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
	CHECK_INT(run_decode(path_in(dir, "tp.data"), path_in(dir, "tp.txt"), NULL, NULL,
			     NULL), ERR_EXIT_FILE, "no AUX data without --timeline");
}

/* ---- --format perfetto ---- */

#define PF_SCHEMA	MD_TESTS_DIR "/../mlx5-diag"
#define PF_DEVICE	"mlx5_diag_0 0000:08:00.0"

/*
 * RECORDING decoded with --format perfetto (and A1), read back by protoc
 * (pf_read()): the lines, or NULL (the check failed).
 */
static char *perfetto_of(const char *recording, const char *a1)
{
	char err[512], *got;

	CHECK_INT(run_decode(recording, path_in(dir, "out.pftrace"), "--format",
			     "perfetto", a1), ERR_EXIT_OK, "--format perfetto");
	got = pf_read(PF_SCHEMA, path_in(dir, "out.pftrace"), err, sizeof(err));
	CHECK(got != NULL, "%s as Perfetto reads it: %s", recording, err);
	return got;
}

/* The lines of GOT that start with PREFIX are WANT. */
static void check_lines(const char *what, const char *got, const char *prefix,
			const char *want)
{
	char *lines = pf_lines(got ? got : "", prefix);

	CHECK(!strcmp(lines, want), "%s:\n--- got ---\n%s--- want ---\n%s", what,
	      lines, want);
	free(lines);
}

/*
 * The example recording's samples (text_want's) as counter lines: each
 * value the stream writer gave, at its sample's perf time, on the track
 * of its data ID under the device's.
 */
static char *example_counters(void)
{
	static const char *const names[2][3] = {
		{ "port_1_rx_bytes", "port_1_tx_bytes" },
		{ "global_icmc_request", "global_icmc_hit", "global_icmc_miss" },
	};
	static const struct {
		unsigned int run;
		uint64_t seq, perf_time;
	} rows[] = {
		{ 0, 0, 7000100000ull }, { 0, 1, 7000200000ull },
		{ 0, 4, 7000500000ull }, { 1, 0, 8999360000ull },
		{ 1, 1, 8999460000ull },
	};
	const struct stream_samples runs[2] = {
		{ .value_base = 1000000 }, { .value_base = 100 },
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		for (unsigned int i = 0; i < (rows[r].run ? 3u : 2u); i++)
			fprintf(f, "counter %" PRIu64 " " PF_DEVICE "/%s %" PRIu64 "\n",
				rows[r].perf_time, names[rows[r].run][i],
				stream_value(&runs[rows[r].run], rows[r].seq, i));
	fclose(f);
	return text;
}

static const char pf_tracks_want[] =
"track " PF_DEVICE "\n"
"track " PF_DEVICE "/port_1_rx_bytes UNIT_SIZE_BYTES\n"
"track " PF_DEVICE "/port_1_tx_bytes UNIT_SIZE_BYTES\n"
"track " PF_DEVICE "/global_icmc_request UNIT_COUNT\n"
"track " PF_DEVICE "/global_icmc_hit UNIT_COUNT\n"
"track " PF_DEVICE "/global_icmc_miss UNIT_COUNT\n";

/* SESSION and LOST at the next sample's time, END at the last one's */
static const char pf_instants_want[] =
"instant 7000100000 " PF_DEVICE " session run=0 mode=repetitive format=1 "
"ts_source=rtc freq_khz=0 period_ns=100000 period_ns_requested=100000 data_ids=2\n"
"instant 7000500000 " PF_DEVICE " lost run=0 first_seq=2 count=2 cause=fw_overwrite\n"
"instant 7000500000 " PF_DEVICE " end run=0 next_seq=5 reason=stopped\n"
"instant 8999360000 " PF_DEVICE " session run=1 mode=repetitive format=0 "
"ts_source=frc freq_khz=156250 period_ns=100000 period_ns_requested=100000 data_ids=3\n"
"instant 8999460000 " PF_DEVICE " end run=1 next_seq=2 reason=stopped\n";

/* timeline_records()'s switches, by CPU then time, as recorded */
static const char pf_switches_want[] =
"switch 0 7000150000 pid=100 prev_comm=sh prev_pid=100 prev_prio=120 prev_state=1 "
"next_comm=swapper/0 next_pid=0 next_prio=120\n"
"switch 0 9500000000 pid=0 prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
"prev_state=0 next_comm=init next_pid=1 next_prio=120\n"
"switch 1 7000400000 pid=101 prev_comm=sh prev_pid=101 prev_prio=120 prev_state=0 "
"next_comm=init next_pid=1 next_prio=120\n"
"switch 1 8000000000 pid=101 prev_comm=workload prev_pid=101 prev_prio=120 "
"prev_state=2 next_comm=swapper/1 next_pid=0 next_prio=120\n"
"switch 1 8700000000 pid=101 prev_comm=workload prev_pid=101 prev_prio=120 "
"prev_state=16 next_comm=swapper/1 next_pid=0 next_prio=120\n";

/*
 * The example recording as a Perfetto trace, decoded by protoc: a track
 * per data ID under the device's with the catalog's unit, every value and
 * perf time of the recording, the runs, loss and ends as instant events,
 * no sched events; a packet of a slot's sequence that needed state it did
 * not have, an event before its track, would fail the read.
 */
static void perfetto_output(void)
{
	char *got = perfetto_of(path_in(dir, "example.mlx5diag"), NULL);
	char *want = example_counters();

	check_lines("tracks", got, "track ", pf_tracks_want);
	check_lines("counters", got, "counter ", want);
	check_lines("instants", got, "instant ", pf_instants_want);
	check_lines("no sched events", got, "switch ", "");
	free(got);
	free(want);
}

/*
 * The recording's sched_switch events as ftrace sched_switch events of
 * their CPU, from record --tracepoint and from perf.data (file and pipe
 * mode), beside the same counters; a perf.data of tracepoints alone.
 */
static void perfetto_sched(void)
{
	struct stream perf = { 0 }, tracing;
	char *fmt = sched_format(), *got, *want = example_counters();
	struct pdw w;

	timeline_records(S_TYPE_OWN, 1000, 1001, to_stream, &perf);
	write_timeline_recording(path_in(dir, "pf-tl.mlx5diag"), fmt, NULL, &perf);
	got = perfetto_of(path_in(dir, "pf-tl.mlx5diag"), NULL);
	check_lines("record --tracepoint: switches", got, "switch ", pf_switches_want);
	check_lines("record --tracepoint: counters", got, "counter ", want);
	check_lines("record --tracepoint: instants", got, "instant ", pf_instants_want);
	free(got);
	for (int pipe = 0; pipe < 2; pipe++) {
		timeline_perfdata(&w, pipe, &tracing);
		pdw_write(&w, path_in(dir, "pf-tl.data"));
		pdw_free(&w);
		free(tracing.buf);
		got = perfetto_of(path_in(dir, "pf-tl.data"), NULL);
		check_lines(pipe ? "perf.data (pipe): switches" :
			    "perf.data (file): switches", got, "switch ",
			    pf_switches_want);
		check_lines(pipe ? "perf.data (pipe): counters" :
			    "perf.data (file): counters", got, "counter ", want);
		free(got);
	}
	/* tracepoints alone: no AUX data, no device */
	write_tracepoints_only(path_in(dir, "pf-tp.data"));
	got = perfetto_of(path_in(dir, "pf-tp.data"), NULL);
	check_lines("tracepoints alone", got, "",
		    "switch 0 7000150000 pid=100 prev_comm=sh prev_pid=100 "
		    "prev_prio=120 prev_state=1 next_comm=swapper/0 next_pid=0 "
		    "next_prio=120\n");
	free(got);
	free(perf.buf);
	free(fmt);
	free(want);
}

/*
 * A period change (its instant event at its own perf time) and --metrics:
 * bandwidth as double counters on tracks of their own, from the second
 * sample (the first has none), over the period's new length after it.
 */
static void perfetto_period_metrics(void)
{
	static const uint64_t ids[] = { 0x1020000100000001ull };
	struct stream_session sess = {
		.out_format = 1, .ts_source = MLX5_DIAG_TS_RTC, .num_ids = 1,
		.ids = ids, .period_ns = 100000, .identifier = "0000:08:00.0",
	};
	struct stream_samples smp = {
		.out_format = 1, .ts_source = MLX5_DIAG_TS_RTC, .num_ids = 1,
		.ids = ids, .nr = 3, .t0 = 5000000000ull, .t_step = 100000,
		.value_base = 1000,
	};
	char *got, *want = NULL;
	size_t len = 0;
	FILE *f;
	struct stream s;

	stream_init(&s);
	stream_session(&s, &sess);
	stream_time(&s, MLX5_DIAG_TS_RTC, 5000000000ull, 9000000000ull, 100);
	stream_samples(&s, &smp);
	stream_period(&s, MLX5_DIAG_TS_RTC, 3, 5000300000ull, 200000, 204800, 15);
	smp.first_seq = 3;
	smp.nr = 2;
	smp.t0 = 5000500000ull;
	smp.t_step = 200000;
	stream_samples(&s, &smp);
	stream_end(&s, 5, MLX5_DIAG_END_STOPPED);
	write_recording(path_in(dir, "pf-period.mlx5diag"), &s, 0);
	stream_free(&s);
	got = perfetto_of(path_in(dir, "pf-period.mlx5diag"), "--metrics");
	check_lines("tracks", got, "track ",
		    "track " PF_DEVICE "\n"
		    "track " PF_DEVICE "/port_1_rx_bytes UNIT_SIZE_BYTES\n"
		    "track " PF_DEVICE "/port_1_rx_bytes_GBps\n");
	check_lines("instants", got, "instant ",
		    "instant 9000000000 " PF_DEVICE " session run=0 mode=repetitive "
		    "format=1 ts_source=rtc freq_khz=0 period_ns=100000 "
		    "period_ns_requested=100000 data_ids=1\n"
		    "instant 9000300000 " PF_DEVICE " period run=0 first_seq=3 "
		    "period_ns=204800 period_ns_requested=200000\n"
		    "instant 9000700000 " PF_DEVICE " end run=0 next_seq=5 "
		    "reason=stopped\n");
	f = open_memstream(&want, &len);
	if (!f)
		abort();
	for (uint64_t seq = 0; seq < 5; seq++) {
		uint64_t t = seq < 3 ? 5000000000ull + 100000 * seq :
			     5000500000ull + 200000 * (seq - 3);
		uint64_t prev = seq == 3 ? 5000200000ull : t - (seq < 3 ? 100000 : 200000);

		/* one TIME record: perf time = device time + 4 s */
		uint64_t perf_time = t + UINT64_C(4000000000);

		fprintf(f, "counter %" PRIu64 " " PF_DEVICE "/port_1_rx_bytes %" PRIu64
			"\n", perf_time, stream_value(&smp, seq, 0));
		/* metrics.def: port_rx_bytes / duration_time, times 1e-9 */
		if (seq)
			fprintf(f, "counter %" PRIu64 " " PF_DEVICE
				"/port_1_rx_bytes_GBps %.17g\n", perf_time,
				(double)1000003 / ((double)(t - prev) * 1e-9) * 1e-9);
	}
	fclose(f);
	check_lines("counters and metrics", got, "counter ", want);
	free(got);
	free(want);
}

/*
 * The sink's write errors are the decode's: to /dev/full a small trace
 * fails at the final flush, one of 2000 samples at a packet's fwrite;
 * both exit ERR_EXIT_OUTPUT. Malformed sched_switch data is exit status 4
 * (a print format that libtraceevent cannot print is no matter: the
 * trace has the fields, not their text).
 */
static void perfetto_errors(void)
{
	struct stream perf = { 0 };
	char *fmt = sched_format(), *msg, *got, *pf, *bad;

	CHECK_INT(run_decode(path_in(dir, "example.mlx5diag"), "/dev/full", "--format",
			     "perfetto", NULL), ERR_EXIT_OUTPUT, "a small trace to /dev/full");
	write_icmc_recording(path_in(dir, "pf-long.mlx5diag"), 2000, 0);
	CHECK_INT(run_decode(path_in(dir, "pf-long.mlx5diag"), "/dev/full", "--format",
			     "perfetto", NULL), ERR_EXIT_OUTPUT, "2000 samples to /dev/full");

	timeline_records(S_TYPE_OWN, 1000, 1001, to_stream, &perf);
	perf.buf[168] = 20;	/* the first switch's raw size */
	write_timeline_recording(path_in(dir, "pf-bad.mlx5diag"), fmt, NULL, &perf);
	CHECK_INT(run_decode_err(path_in(dir, "pf-bad.mlx5diag"), path_in(dir, "pf-bad.out"),
				 path_in(dir, "pf-bad.err"), "--format", "perfetto"),
		  ERR_EXIT_FILE, "raw data shorter than the format");
	msg = slurp(path_in(dir, "pf-bad.err"));
	CHECK(strstr(msg, "a sample of sched:sched_switch at 7.000150000 has raw "
		     "data (20 bytes, type 118) that does not fit its format") != NULL,
	      "raw data shorter than the format: %s", msg);
	free(msg);

	perf.len = 0;
	timeline_records(S_TYPE_OWN, 1000, 1001, to_stream, &perf);
	bad = strdup(fmt);
	memcpy(strstr(bad, "int prev_prio;\toffset:28;\tsize:4;"),
	       "int prev_prio;\toffset:28;\tsize:3;", 32);
	write_timeline_recording(path_in(dir, "pf-bad.mlx5diag"), bad, NULL, &perf);
	CHECK_INT(run_decode_err(path_in(dir, "pf-bad.mlx5diag"), path_in(dir, "pf-bad.out"),
				 path_in(dir, "pf-bad.err"), "--format", "perfetto"),
		  ERR_EXIT_FILE, "a prev_prio of 3 bytes");
	msg = slurp(path_in(dir, "pf-bad.err"));
	CHECK(strstr(msg, "the format of sched:sched_switch has no number field "
		     "prev_prio of 1, 2, 4 or 8 bytes") != NULL,
	      "a prev_prio of 3 bytes: %s", msg);
	free(msg);
	free(bad);

	bad = strdup(fmt);
	pf = strstr(bad, "print fmt:");
	strcpy(pf, "print fmt: \"x=%d\", REC->prev_pid / REC->next_pid\n");
	write_timeline_recording(path_in(dir, "pf-div.mlx5diag"), bad, NULL, &perf);
	got = perfetto_of(path_in(dir, "pf-div.mlx5diag"), NULL);
	check_lines("a print fmt dividing by next_pid 0", got, "switch ",
		    pf_switches_want);
	free(got);
	free(bad);
	free(perf.buf);
	free(fmt);
}

int main(int argc, char **argv)
{
	char cmd[sizeof(dir) + 4096];
	struct stream s;

	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	example_stream(&s);
	write_recording(path_in(dir, "example.mlx5diag"), &s, 100);
	stream_free(&s);
	RUN(text_output);
	RUN(added_sink_gets_every_row);
	RUN(csv_output);
	RUN(csv_integers_are_printfs);
	RUN(csv_write_error);
	RUN(format0_sample_spans_its_entries);
	RUN(json_output);
	RUN(metrics_output);
	RUN(metrics_of_the_table);
	RUN(metric_expressions);
	RUN(default_names_follow_the_catalog);
	RUN(data_id_files);
	RUN(named_columns);
	RUN(named_metrics_json);
	RUN(bad_data_id_files);
	RUN(exit_statuses);
	RUN(option_messages);
	RUN(recording_chunking_does_not_matter);
	RUN(perfdata_outputs);
	RUN(perfdata_info_layout);
	RUN(perfdata_two_streams);
	RUN(perfdata_snapshot);
	RUN(perfdata_stdin);
	RUN(perfdata_truncated);
	RUN(perfdata_malformed);
	RUN(timeline_recording);
	RUN(timeline_perf_data);
	RUN(timeline_malformed);
	RUN(timeline_tracepoints_only);
	RUN(perfetto_output);
	RUN(perfetto_sched);
	RUN(perfetto_period_metrics);
	RUN(perfetto_errors);
	if (argc > 1) {
		snprintf(cmd, sizeof(cmd), "cp -r '%s'/. '%s'", dir, argv[1]);
		CHECK(system(cmd) == 0, "%s", cmd);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return runner_done();
}
