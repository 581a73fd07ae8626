// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `mlx5-diag decode` (mlx5-diag/decode.c): recordings built
 * from the stream writer, decoded to text, DOCA CSV and JSON lines, and
 * compared byte for byte; -di and --example-json; exit statuses for bad
 * flags, files and streams.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>

#include "cli.h"
#include "file.h"
#include "runner.h"
#include "stream_writer.h"

static char dir[] = "/tmp/mlx5diag-decode-test.XXXXXX";

static const uint64_t port_ids[] = {
	0x1020000100000001ull, 0x1140000100000001ull,
};
static const uint64_t icmc_ids[] = {
	0x1180000100000000ull, 0x1180000200000000ull, 0x1180000300000000ull,
};

static char *path_of(const char *name)
{
	static char bufs[4][512];
	static int next;
	char *p = bufs[next++ % 4];

	snprintf(p, sizeof(bufs[0]), "%s/%s", dir, name);
	return p;
}

/* A recording of the stream, its AUX bytes cut into chunks of CHUNK. */
static void write_recording(const char *path, const struct stream *s,
			    size_t chunk)
{
	struct mdf_meta_buf m = { 0 };
	struct mdf_writer w;
	size_t off;

	if (mdf_writer_open(&w, path) || mdf_meta_add(&m, "pmu", "mlx5_diag_0") ||
	    mdf_write_chunk(&w, MDF_CHUNK_META, m.text, m.len))
		abort();
	mdf_meta_buf_free(&m);
	for (off = 0; off < s->len; off += chunk) {
		size_t n = s->len - off < chunk ? s->len - off : chunk;

		if (mdf_write_chunk(&w, MDF_CHUNK_AUX, s->buf + off, n))
			abort();
	}
	if (mdf_writer_close(&w))
		abort();
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = calloc(1, 1 << 16);
	size_t n;

	if (!f || !text)
		abort();
	n = fread(text, 1, (1 << 16) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
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

	ret = run_decode(path_of("example.mlx5diag"), path_of(name), a1, a2, a3);
	CHECK_INT(ret, DECODE_EXIT_OK, name);
	got = slurp(path_of(name));
	CHECK(!strcmp(got, want), "%s:\n--- got ---\n%s\n--- want ---\n%s", name,
	      got, want);
	free(got);
}

static void text_output(void)
{
	check_output("out.txt", NULL, NULL, NULL,
"SESSION run 0 0000:08:00.0 repetitive format1 rtc, period 100000 ns (requested 100000), 2 data IDs\n"
"0 0 7.000100000 4.999900000 port_1_rx_bytes=1000000 port_1_tx_bytes=4295967297\n"
"0 1 7.000200000 5.000000000 port_1_rx_bytes=2000003 port_1_tx_bytes=4296967300\n"
"LOST run 0 samples 2..3 (2): fw_overwrite\n"
"0 4 7.000500000 5.000300000 port_1_rx_bytes=5000012 port_1_tx_bytes=4299967309\n"
"END run 0 after 5 samples: stopped\n"
"SESSION run 1 0000:08:00.0 repetitive format0 frc 156250 kHz, period 100000 ns (requested 100000), 3 data IDs\n"
"1 0 8.999360000~ 20000000 global_icmc_request=100 global_icmc_hit=4294967397 global_icmc_miss=8589934694\n"
"1 1 8.999460000~ 20015625 global_icmc_request=1000103 global_icmc_hit=4295967400 global_icmc_miss=8590934697\n"
"END run 1 after 2 samples: stopped\n");
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

	f = fopen(path_of("write_csv.csv"), "w");
	CHECK(f != NULL, "open");
	if (!f)
		return;
	CHECK_INT(mlx5diag_write_csv(f, path_of("example.mlx5diag"), NULL),
		  DECODE_EXIT_OK, "mlx5diag_write_csv");
	fclose(f);
	got = slurp(path_of("write_csv.csv"));
	CHECK(!strcmp(got, csv_want), "mlx5diag_write_csv writes the same:\n%s", got);
	free(got);
}

static void json_output(void)
{
	check_output("out.json", "--format", "json", NULL,
"{\"type\":\"session\",\"run\":0,\"identifier\":\"0000:08:00.0\",\"mode\":\"repetitive\",\"sync\":0,\"clear\":0,\"format\":1,\"ts_source\":\"rtc\",\"freq_khz\":0,\"period_ns\":100000,\"period_ns_requested\":100000,\"data_ids\":[{\"id\":\"0x1020000100000001\",\"name\":\"port_1_rx_bytes\",\"class\":\"counter\"},{\"id\":\"0x1140000100000001\",\"name\":\"port_1_tx_bytes\",\"class\":\"counter\"}]}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":0,\"perf_time\":7000100000,\"dev_time\":4999900000,\"dev_time_end\":4999900040,\"time_extrapolated\":false,\"values\":{\"port_1_rx_bytes\":1000000,\"port_1_tx_bytes\":4295967297}}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":1,\"perf_time\":7000200000,\"dev_time\":5000000000,\"dev_time_end\":5000000040,\"time_extrapolated\":false,\"values\":{\"port_1_rx_bytes\":2000003,\"port_1_tx_bytes\":4296967300}}\n"
"{\"type\":\"lost\",\"run\":0,\"first_seq\":2,\"count\":2,\"cause\":\"fw_overwrite\"}\n"
"{\"type\":\"sample\",\"run\":0,\"seq\":4,\"perf_time\":7000500000,\"dev_time\":5000300000,\"dev_time_end\":5000300040,\"time_extrapolated\":false,\"values\":{\"port_1_rx_bytes\":5000012,\"port_1_tx_bytes\":4299967309}}\n"
"{\"type\":\"end\",\"run\":0,\"next_seq\":5,\"reason\":\"stopped\"}\n"
"{\"type\":\"session\",\"run\":1,\"identifier\":\"0000:08:00.0\",\"mode\":\"repetitive\",\"sync\":0,\"clear\":0,\"format\":0,\"ts_source\":\"frc\",\"freq_khz\":156250,\"period_ns\":100000,\"period_ns_requested\":100000,\"data_ids\":[{\"id\":\"0x1180000100000000\",\"name\":\"global_icmc_request\",\"class\":\"counter\"},{\"id\":\"0x1180000200000000\",\"name\":\"global_icmc_hit\",\"class\":\"counter\"},{\"id\":\"0x1180000300000000\",\"name\":\"global_icmc_miss\",\"class\":\"counter\"}]}\n"
"{\"type\":\"sample\",\"run\":1,\"seq\":0,\"perf_time\":8999360000,\"dev_time\":20000000,\"dev_time_end\":20000000,\"time_extrapolated\":true,\"values\":{\"global_icmc_request\":100,\"global_icmc_hit\":4294967397,\"global_icmc_miss\":8589934694}}\n"
"{\"type\":\"sample\",\"run\":1,\"seq\":1,\"perf_time\":8999460000,\"dev_time\":20015625,\"dev_time_end\":20015625,\"time_extrapolated\":true,\"values\":{\"global_icmc_request\":1000103,\"global_icmc_hit\":4295967400,\"global_icmc_miss\":8590934697}}\n"
"{\"type\":\"end\",\"run\":1,\"next_seq\":2,\"reason\":\"stopped\"}\n");
}

/* 1000003 bytes in 100000 ns: 10.00003 GB/s; ICMC: equal deltas, rate 1 */
static void metrics_output(void)
{
	check_output("metrics.csv", "--format", "csv", "--metrics",
"sample_id, sample_time_start, sample_time_end, port_1_rx_bytes, port_1_tx_bytes, port_1_rx_bytes_GBps, port_1_tx_bytes_GBps\n"
"0, 4.999900000, 4.999900040, 1000000, 4295967297, , \n"
"1, 5.000000000, 5.000000040, 2000003, 4296967300, 10, 10\n"
"4, 5.000300000, 5.000300040, 5000012, 4299967309, 10, 10\n"
"sample_id, data_id, sample_time, global_icmc_request, data_id, sample_time, global_icmc_hit, data_id, sample_time, global_icmc_miss, global_icmc_hit_rate, global_icmc_miss_rate\n"
"0, 0x1180000100000000, 20000000, 100, 0x1180000200000000, 20000002, 4294967397, 0x1180000300000000, 20000004, 8589934694, , \n"
"1, 0x1180000100000000, 20015625, 1000103, 0x1180000200000000, 20015627, 4295967400, 0x1180000300000000, 20015629, 8590934697, 1, 1");
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

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static void data_id_files(void)
{
	struct decode_names names;
	char err[256], *got;
	char *argv[] = { "decode", "--example-json", path_of("ex.json"), NULL };

	CHECK_INT(cmd_decode(3, argv), DECODE_EXIT_OK, "--example-json");
	got = slurp(path_of("ex.json"));
	CHECK(!strcmp(got, example_json), "example file:\n%s", got);
	free(got);
	CHECK_INT(decode_names_load(&names, path_of("ex.json"), err, sizeof(err)),
		  0, "the example file loads back");
	CHECK(names.nr == 4 && names.entries[3].data_id == 0x1140000300000000ull &&
	      !strcmp(names.entries[3].name, "port_0_tx_packets"), "its entries");
	decode_names_free(&names);

	write_file(path_of("names.json"),
		   "{ \"other\": [1, {\"x\": null}], \"data-ids\": [\n"
		   "  {\"data_id\": \"1140000100000001\", \"name\": \"tx \\\"1\\\"\"},\n"
		   "  {\"name\": \"rx1\", \"data_id\": \"0x1020000100000001\", \"note\": true}\n"
		   "] }\n");
}

static void named_columns(void)
{
	char *got;
	int ret;

	ret = run_decode(path_of("example.mlx5diag"), path_of("named2.csv"), "-di",
			 path_of("names.json"), "--format=csv");
	CHECK_INT(ret, DECODE_EXIT_OK, "decode with -di");
	got = slurp(path_of("named2.csv"));
	CHECK(!strncmp(got, "sample_id, sample_time_start, sample_time_end, rx1, tx \"1\"\n",
		       strlen("sample_id, sample_time_start, sample_time_end, rx1, tx \"1\"\n")),
	      "columns named by the file:\n%s", got);
	free(got);
}

static void bad_data_id_files(void)
{
	static const char *const bad[] = {
		"{\"data-ids\": []}",
		"{\"ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]}",
		"{\"data-ids\": [{\"name\": \"a\"}]}",
		"{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"zz\"}]}",
		"{\"data-ids\": [{\"name\": \"a\", \"data_id\": 17}]}",
		"{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
		"{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}]} x",
	};
	struct decode_names names;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path_of("bad.json"), bad[i]);
		CHECK(decode_names_load(&names, path_of("bad.json"), err,
					sizeof(err)) == -1 && err[0],
		      "refused: %s", bad[i]);
	}
	CHECK_INT(run_decode(path_of("example.mlx5diag"), path_of("x"), "-di",
			     path_of("bad.json"), NULL),
		  DECODE_EXIT_NAMES, "decode with a bad -di file");
	CHECK_INT(run_decode(path_of("example.mlx5diag"), path_of("x"), "-di",
			     path_of("missing.json"), NULL),
		  DECODE_EXIT_NAMES, "decode with a missing -di file");
}

static void exit_statuses(void)
{
	struct stream s;
	char *got;

	CHECK_INT(run_decode(path_of("example.mlx5diag"), path_of("x"), "--bogus",
			     NULL, NULL), DECODE_EXIT_USAGE, "unknown flag");
	CHECK_INT(run_decode(path_of("example.mlx5diag"), path_of("x"), "--format",
			     "xml", NULL), DECODE_EXIT_USAGE, "unknown format");
	CHECK_INT(run_decode(NULL, path_of("x"), NULL, NULL, NULL),
		  DECODE_EXIT_USAGE, "no recording");
	CHECK_INT(run_decode(path_of("nonexistent"), path_of("x"), NULL, NULL, NULL),
		  DECODE_EXIT_FILE, "missing recording");
	write_file(path_of("not-a-recording"), "hello, world\n");
	CHECK_INT(run_decode(path_of("not-a-recording"), path_of("x"), NULL, NULL,
			     NULL), DECODE_EXIT_FILE, "not a recording");
	CHECK_INT(run_decode(path_of("example.mlx5diag"), "/nonexistent-dir/out",
			     NULL, NULL, NULL), DECODE_EXIT_OUTPUT, "unwritable output");

	/* a stream cut inside its last record: what came before is written */
	example_stream(&s);
	s.len -= 8;
	write_recording(path_of("cut.mlx5diag"), &s, 64);
	stream_free(&s);
	CHECK_INT(run_decode(path_of("cut.mlx5diag"), path_of("cut.txt"), NULL,
			     NULL, NULL), DECODE_EXIT_STREAM, "malformed stream");
	got = slurp(path_of("cut.txt"));
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
		write_recording(path_of("chunked.mlx5diag"), &s, chunk);
		CHECK_INT(run_decode(path_of("chunked.mlx5diag"),
				     path_of("chunked.csv"), "--format", "csv",
				     NULL), DECODE_EXIT_OK, "decodes");
		got = slurp(path_of("chunked.csv"));
		CHECK(!strcmp(got, csv_want), "AUX chunks of %zu bytes", chunk);
		free(got);
	}
	stream_free(&s);
}

int main(void)
{
	char cmd[sizeof(dir) + 16];
	struct stream s;

	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	example_stream(&s);
	write_recording(path_of("example.mlx5diag"), &s, 100);
	stream_free(&s);
	RUN(text_output);
	RUN(csv_output);
	RUN(json_output);
	RUN(metrics_output);
	RUN(data_id_files);
	RUN(named_columns);
	RUN(bad_data_id_files);
	RUN(exit_statuses);
	RUN(recording_chunking_does_not_matter);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return runner_done();
}
