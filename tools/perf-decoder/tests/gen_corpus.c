// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a fuzzer's seed corpus into a directory:
 *   gen_corpus DIR             well-formed streams of every record type and
 *                              format, each behind 4 steering bytes
 *                              (fuzz_decode.c, fuzz_sinks.c)
 *   gen_corpus --data-ids DIR  DOCA data-ID files (fuzz_data_ids.c)
 *   gen_corpus --exporter-config DIR
 *                              the exporter's configuration files
 *                              (fuzz_exporter_config.c)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mlx5_diag.h>

#include "stream_writer.h"

static const uint64_t ids[] = {
	0x1020000100000001ull, 0x1140000100000001ull, 0x1180000200000000ull,
};

/* DIR/seed-N: HEAD (HEAD_LEN bytes), then BODY. */
static void write_file(const char *dir, int n, const void *head, size_t head_len,
		       const void *body, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%02d", dir, n);
	f = fopen(path, "wb");
	if (!f || fwrite(head, 1, head_len, f) != head_len ||
	    fwrite(body, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void write_seed(const char *dir, int n, const struct stream *s,
		       uint8_t room, uint16_t cut, uint8_t small)
{
	const uint8_t steer[4] = { room, (uint8_t)cut, (uint8_t)(cut >> 8), small };

	write_file(dir, n, steer, sizeof(steer), s->buf, s->len);
}

/*
 * Data-ID files naming fuzz_data_ids.c's data IDs (port 1 rx and tx bytes,
 * ICMC requests and hits): DOCA's example layout, escapes, other keys of
 * every type, duplicates, and two that are refused.
 */
static const char *const data_id_files[] = {
	"{\n  \"data-ids\":[\n    {\n      \"name\":\"port_1_rx_bytes\",\n"
	"      \"data_id\":\"0x1020000100000001\"\n    },\n    {\n"
	"      \"name\":\"port_1_tx_bytes\",\n"
	"      \"data_id\":\"0x1140000100000001\"\n    }\n  ]\n}",
	"{\"data-ids\": [{\"name\": \"rx \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\", "
	"\"data_id\": \"1020000100000001\"}, {\"data_id\": \"0X1140000100000001\", "
	"\"name\": \"tx \\u0041\\u00e9\\ud834\\udd1e\"}, {\"name\": \"req\", "
	"\"data_id\": \"0x1180000100000000\"}, {\"name\": \"hit,\", "
	"\"data_id\": \"0x1180000200000000\"}]}",
	"{\"version\": 1.5e3, \"other\": [true, false, null, -0, {\"x\": []}], "
	"\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1180000200000000\", "
	"\"note\": {\"n\": [1, 2]}, \"name\": \"b\"}], \"data-ids\": "
	"[{\"name\": \"c\", \"data_id\": \"0x1020000100000001\"}]}\n",
	"{\"data-ids\": [{\"name\": \"port_1_rx_bytes_with_a_name_longer_than_the_"
	"column_holds_0123456789012345678901234567890123456789012345678901234567890"
	"123456789012345678901234567890123456789\", \"data_id\": \"0x1020000100000001\"}]}",
	"{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"0x1\"}, {\"name\": \"b\"}]}",
	"{\"data-ids\": [{\"name\": \"a\", \"data_id\": \"zz\"}]} ",
};

static void write_data_id_seeds(const char *dir)
{
	size_t i;

	for (i = 0; i < sizeof(data_id_files) / sizeof(data_id_files[0]); i++)
		write_file(dir, (int)i, "", 0, data_id_files[i],
			   strlen(data_id_files[i]));
}

static void run(struct stream *s, uint32_t run_nr, uint8_t format,
		uint8_t ts_source, uint16_t num_ids)
{
	struct stream_session sess = {
		.run = run_nr, .out_format = format, .ts_source = ts_source,
		.freq_khz = 156250, .num_ids = num_ids, .ids = ids,
		.period_ns = 100000, .identifier = "0000:08:00.0",
	};
	struct stream_samples smp = {
		.out_format = format, .ts_source = ts_source,
		.num_ids = num_ids, .ids = ids, .first_seq = 0, .nr = 3,
		.t0 = 4999999000ull, .t_step = 640, .entry_step = 5,
		.value_base = 0xfffffff0ull,
	};

	stream_session(s, &sess);
	stream_time(s, ts_source, 4999998000ull, 1000000, 10);
	stream_samples(s, &smp);
	stream_time(s, ts_source, 5000001000ull, 1020000, 10);
	stream_lost(s, 3, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	smp.first_seq = 6;
	smp.nr = 2;
	smp.t0 = 5000001500ull;
	stream_samples(s, &smp);
	stream_time(s, ts_source, 5000003000ull, 1030000, 10);
	stream_period(s, ts_source, 8, 5000002500ull, 200000, 204800, 15);
	stream_end(s, 9, MLX5_DIAG_END_STOPPED);
}

/*
 * Snapshot mode, chunks: SYNC, the run's SESSION and TIME, samples; SYNC,
 * a repeat (F_CHUNK) with the TIME record again, a new one, samples, END.
 */
static void chunked(struct stream *s, uint8_t format, uint8_t ts_source)
{
	struct stream_session sess = {
		.run = 2, .out_format = format, .ts_source = ts_source,
		.freq_khz = 156250, .num_ids = 2, .ids = ids,
		.period_ns = 100000, .identifier = "sim:0",
	};
	struct stream_samples smp = {
		.out_format = format, .ts_source = ts_source,
		.num_ids = 2, .ids = ids, .first_seq = 0, .nr = 2,
		.t0 = 4999999000ull, .t_step = 640, .entry_step = 5,
		.value_base = 7,
	};

	stream_sync(s);
	stream_session(s, &sess);
	stream_time(s, ts_source, 4999999500ull, 1000000, 10);
	stream_samples(s, &smp);
	stream_sync(s);
	sess.flags = MLX5_DIAG_SESSION_F_CHUNK;
	stream_session(s, &sess);
	stream_time(s, ts_source, 4999999500ull, 1000000, 10);
	stream_time(s, ts_source, 5000001000ull, 1020000, 10);
	smp.first_seq = 2;
	smp.t0 = 5000000500ull;
	stream_samples(s, &smp);
	stream_end(s, 4, MLX5_DIAG_END_STOPPED);
}

/* Configuration files of `mlx5-diag exporter`, each setting in some. */
static void write_exporter_config_seeds(const char *dir)
{
	static const char *const seeds[] = {
		"listen 127.0.0.1:9855\nmax-connections 8\ntimeout 5\n",
		"# counting, the default set with per-priority series\n"
		"per-prio yes\ndevice 0\ndevice sim:1\n",
		"sample 200us\nexport pcie_read_latency_max_ns link=0\n"
		"export port_rx_bytes port=0-1\nexport icmc_hits\n",
		"per-bin yes\nhistogram-le 250ns 500ns 1us 2us 4us 8us\n"
		"export pcie_read_latency_hist_packets link=0 bin=*\n",
		"textfile /var/lib/node_exporter/textfile_collector\ninterval 30s\r\n"
		"export port_prio_tx_bytes port=1 prio=0,3-5,7\nper-prio yes\n",
		"listen [::1]:0\nexport function_rx_cqes function=0-7\n"
		"export host_rx_buffer_discards host=0\n"
		"export pcie_read_stall_ordering_ns link=1 tclass=2-3\n",
	};

	for (int i = 0; i < (int)(sizeof(seeds) / sizeof(seeds[0])); i++)
		write_file(dir, i, "", 0, seeds[i], strlen(seeds[i]));
}

int main(int argc, char **argv)
{
	struct stream s;
	int n = 0;
	uint8_t format, ts;

	if (argc == 3 && !strcmp(argv[1], "--data-ids")) {
		write_data_id_seeds(argv[2]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--exporter-config")) {
		write_exporter_config_seeds(argv[2]);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s [--data-ids | --exporter-config] DIR\n",
			argv[0]);
		return 2;
	}
	for (format = 0; format <= 2; format++) {
		for (ts = 0; ts <= 1; ts++) {
			stream_init(&s);
			run(&s, 0, format, ts, 3);
			write_seed(argv[1], n++, &s, 3, (uint16_t)(s.len / 2), 0);
			run(&s, 1, (uint8_t)((format + 1) % 3), ts, 2);
			write_seed(argv[1], n++, &s, 1, 77, 1);
			stream_free(&s);
			stream_init(&s);
			chunked(&s, format, ts);
			write_seed(argv[1], n++, &s, 2, (uint16_t)(s.len / 3), 0);
			stream_free(&s);
		}
	}
	return 0;
}
