// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the decode pipeline's sinks, on fuzz_decode.c's
 * inputs (gen_corpus.c's seeds): 4 steering bytes, then an AUX stream,
 * written as a recording and decoded through every sink of the registry
 * and decode_doca_csv() (sink_check.h).
 *   byte 0: bit 0: --metrics; bit 1: columns named by an awkward -di table
 *           (quotes, backslashes, control characters, commas, UTF-8, a
 *           name longer than a column's)
 *   bytes 1-2: the recording's AUX chunk size (le16, 0: one chunk)
 * Every sink must end with the same status, 0 or 5 (a malformed stream),
 * JSON lines must be JSON objects, the Perfetto trace must unpack, no
 * text output may hold a NUL byte; any other status, crash, sanitizer
 * report or leak is a finding.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "sink_check.h"

#define LONG_NAME_50 "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"

/* gen_corpus.c's data IDs, and what to call them */
static struct data_id_name awkward[] = {
	{ 0x1020000100000001ull, "rx \"quoted\" \\back\\slash, comma" },
	{ 0x1140000100000001ull, "tx\ttab\nnewline\r\x01\x1f\x7f caf\xc3\xa9 \xff" },
	{ 0x1180000200000000ull,
	  LONG_NAME_50 LONG_NAME_50 LONG_NAME_50 LONG_NAME_50 "_hit" },
};

static const struct data_id_names awkward_names = {
	awkward, sizeof(awkward) / sizeof(awkward[0]),
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd, ret;

	if (size < 4)
		return 0;
	fd = recording_memfd(data + 4, size - 4, (size_t)(data[1] | data[2] << 8),
			     path);
	ret = sink_check_all(path, data[0] & 2 ? &awkward_names : NULL,
			     data[0] & 1);
	if (ret != ERR_EXIT_OK && ret != ERR_EXIT_STREAM)
		abort();
	close(fd);
	return 0;
}
