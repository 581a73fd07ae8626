// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of `mlx5-diag plot`'s sink, on fuzz_sinks.c's inputs
 * (gen_corpus.c's seeds): 4 steering bytes, then an AUX stream, written
 * as a recording and drawn into a memory stream.
 *   byte 0: bit 0: --metrics; bit 1: columns named by names that are not
 *           UTF-8; bits 2-3: PNG, SVG, PDF (3: PNG); bit 4: --to 1ms
 *   bytes 1-2: the recording's AUX chunk size (le16, 0: one chunk)
 * The status must be 0 or 5 (a malformed stream), or the plot's refusals
 * (4: no samples, 2: none in the window); 6 (cairo refused to draw),
 * another status, a crash, a sanitizer report or a leak is a finding.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "pipeline.h"
#include "plot.h"
#include "sink_check.h"

/* gen_corpus.c's data IDs, named with bytes cairo would refuse */
static struct data_id_name not_utf8[] = {
	{ 0x1020000100000001ull, "rx \xff\xfe" },
	{ 0x1140000100000001ull, "tx \xc3(\xe2\x82 \xed\xa0\x80" },
	{ 0x1180000200000000ull, "hit \xf4\x90\x80\x80 \xc0\xaf" },
};

static const struct data_id_names not_utf8_names = {
	not_utf8, sizeof(not_utf8) / sizeof(not_utf8[0]),
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plot_opts o = { .width = PLOT_MIN_WIDTH, .output = "fuzz" };
	struct pipeline *p;
	char path[64], *buf = NULL;
	size_t len = 0;
	FILE *out;
	int fd, ret;

	if (size < 4)
		return 0;
	o.format = (enum plot_format)((data[0] >> 2 & 3) % 3);
	o.to_ns = data[0] & 16 ? 1000000 : 0;
	fd = recording_memfd(data + 4, size - 4, (size_t)(data[1] | data[2] << 8),
			     path);
	p = calloc(1, sizeof(*p));
	out = open_memstream(&buf, &len);
	if (!p || !out)
		abort();
	p->path = path;
	p->quiet = 1;
	p->metrics = data[0] & 1;
	p->names = data[0] & 2 ? &not_utf8_names : NULL;
	p->sink.opts = &o;
	ret = pipeline_run(p, &sink_plot, out);
	if (ret != ERR_EXIT_OK && ret != ERR_EXIT_STREAM && ret != ERR_EXIT_FILE &&
	    ret != ERR_EXIT_USAGE)
		abort();
	fclose(out);
	free(buf);
	free(p);
	close(fd);
	return 0;
}
