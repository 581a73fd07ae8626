// SPDX-License-Identifier: GPL-2.0
/*
 * Seeds of fuzz_perfdata.c: perf.data files in file and pipe mode with
 * mlx5_diag AUX data and sched_switch samples, behind the steering byte
 * (text, --timeline, --format perfetto); and a snapshot-mode one (perf
 * record -S: chunked windows).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mlx5_diag.h>

#include "perfdata_writer.h"
#include "stream_writer.h"

static const uint64_t ids[] = { 0x1180000100000000ull, 0x1180000200000000ull };

static void seed(const char *dir, int n, int steer, const char *file)
{
	char path[4096], buf[1 << 16];
	FILE *in = fopen(file, "rb"), *out;
	size_t len;

	snprintf(path, sizeof(path), "%s/seed-%02d", dir, n);
	out = fopen(path, "wb");
	if (!in || !out)
		exit(1);
	len = fread(buf, 1, sizeof(buf), in);
	fputc(steer, out);
	if (fwrite(buf, 1, len, out) != len || fclose(out))
		exit(1);
	fclose(in);
}

/* sched_switch of pid 100 at TIME on CPU, sample_type IDENTIFIER..RAW */
static void sample(struct pdw *w, uint64_t id, uint64_t time, uint32_t cpu)
{
	uint8_t r[128] = { 0 };
	uint16_t size = 128, type = 118;
	uint32_t rt = 9, pid = 100, raw = 68;

	memcpy(r, &rt, 4);
	memcpy(r + 6, &size, 2);
	memcpy(r + 8, &id, 8);
	memcpy(r + 24, &pid, 4);
	memcpy(r + 28, &pid, 4);
	memcpy(r + 32, &time, 8);
	memcpy(r + 40, &cpu, 4);
	memcpy(r + 56, &raw, 4);
	memcpy(r + 60, &type, 2);
	memcpy(r + 68, "sh", 2);
	pdw_raw(w, r, sizeof(r));
}

int main(int argc, char **argv)
{
	struct stream s, cs, tracing = { 0 };
	size_t chunk2;
	struct stream_session sess = {
		.out_format = 0, .ts_source = MLX5_DIAG_TS_FRC, .freq_khz = 156250,
		.num_ids = 2, .ids = ids, .period_ns = 100000, .identifier = "sim:0",
	};
	struct stream_samples smp = {
		.out_format = 0, .ts_source = MLX5_DIAG_TS_FRC, .num_ids = 2,
		.ids = ids, .nr = 3, .t0 = 1000, .t_step = 15625, .entry_step = 2,
	};
	char tmp[4096], fmt[4096];
	FILE *f;
	size_t flen;
	int n = 0;

	if (argc != 3)
		return 2;
	f = fopen(argv[2], "rb");	/* the sched_switch format */
	if (!f)
		return 1;
	flen = fread(fmt, 1, sizeof(fmt) - 1, f);
	fclose(f);
	fmt[flen] = '\0';
	{
		static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
						 'c', 'i', 'n', 'g' };
		uint64_t zero = 0, len = flen;
		uint32_t page = 4096, one = 1, none = 0;
		uint8_t *b = malloc(4096 + flen);
		size_t o = 0;

#define PUT(p, n) do { memcpy(b + o, p, n); o += n; } while (0)
		PUT(magic, sizeof(magic));
		PUT("0.6", 4);
		PUT("\0\010", 2);
		PUT(&page, 4);
		PUT("header_page", 12);
		PUT(&zero, 8);
		PUT("header_event", 13);
		PUT(&zero, 8);
		PUT(&none, 4);
		PUT(&one, 4);
		PUT("sched", 6);
		PUT(&one, 4);
		PUT(&len, 8);
		PUT(fmt, flen);
		PUT(&none, 4);
		PUT(&none, 4);
		PUT(&zero, 8);
#undef PUT
		tracing.buf = b;
		tracing.len = o;
	}
	stream_init(&s);
	stream_session(&s, &sess);
	stream_time(&s, MLX5_DIAG_TS_FRC, 60000, 5000000000ull, 100);
	stream_samples(&s, &smp);
	stream_lost(&s, 3, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	smp.first_seq = 5;
	smp.nr = 1;
	smp.t0 = 90000;
	stream_time(&s, MLX5_DIAG_TS_FRC, 100000, 5000300000ull, 100);
	stream_samples(&s, &smp);
	stream_end(&s, 6, MLX5_DIAG_END_STOPPED);
	/* the same run in snapshot mode: two chunks */
	stream_init(&cs);
	stream_sync(&cs);
	stream_session(&cs, &sess);
	stream_time(&cs, MLX5_DIAG_TS_FRC, 60000, 5000000000ull, 100);
	smp.first_seq = 0;
	smp.nr = 3;
	smp.t0 = 1000;
	stream_samples(&cs, &smp);
	chunk2 = stream_sync(&cs);
	sess.flags = MLX5_DIAG_SESSION_F_CHUNK;
	stream_session(&cs, &sess);
	stream_time(&cs, MLX5_DIAG_TS_FRC, 60000, 5000000000ull, 100);
	stream_lost(&cs, 3, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	stream_time(&cs, MLX5_DIAG_TS_FRC, 100000, 5000300000ull, 100);
	smp.first_seq = 5;
	smp.nr = 1;
	smp.t0 = 90000;
	stream_samples(&cs, &smp);
	snprintf(tmp, sizeof(tmp), "%s/.tmp", argv[1]);
	for (int i = 0; i < 4; i++) {
		int pipe = i & 1, snapshot = i >> 1;
		struct pdw_attr mlx5 = {
			.type = 42, .sample_type = 0x10087, .flags = 1ull << 18,
			.ids = { 1 }, .nr_ids = 1, .name = "mlx5_diag_0//",
		};
		struct pdw_attr sw = {
			.type = 2, .config = 118, .sample_type = 0x10587,
			.flags = 1ull << 18, .ids = { 2 }, .nr_ids = 1,
			.name = "sched:sched_switch",
		};
		static const struct pdw_session session = { 42, 1 };
		struct pdw w;

		pdw_init(&w, pipe);
		pdw_add_attr(&w, &mlx5);
		pdw_add_attr(&w, &sw);
		pdw_add_pmu(&w, 42, "mlx5_diag_0");
		w.tracing = tracing.buf;
		w.tracing_len = tracing.len;
		pdw_auxtrace_info(&w, 7, MLX5_DIAG_ABI_VERSION, snapshot, &session, 1);
		if (snapshot) {
			/* a window from inside the first chunk, one from the second */
			pdw_auxtrace(&w, 0, 1, cs.buf + 8, cs.len - 8);
			sample(&w, 2, 5000100000ull, 0);
			pdw_auxtrace(&w, 0, 1, cs.buf + chunk2, cs.len - chunk2);
		} else {
			pdw_auxtrace(&w, 0, 1, s.buf, 96);
			sample(&w, 2, 5000100000ull, 0);
			pdw_auxtrace(&w, 0, 1, s.buf + 96, s.len - 96);
		}
		sample(&w, 2, 5000200000ull, 1);
		pdw_write(&w, tmp);
		pdw_free(&w);
		seed(argv[1], n++, 0, tmp);
		seed(argv[1], n++, 1, tmp);
		seed(argv[1], n++, 2, tmp);
	}
	remove(tmp);
	stream_free(&s);
	stream_free(&cs);
	free(tracing.buf);
	return 0;
}
