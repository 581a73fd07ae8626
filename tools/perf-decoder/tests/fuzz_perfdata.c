// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of `mlx5-diag decode` on perf.data input (and on
 * recordings, whose magic it may find): byte 0 bit 0 asks for --timeline,
 * else bit 1 for --format perfetto (sched_switch fields read from fuzzed
 * formats and raw data); the rest is the file, given to cmd_decode() as a
 * regular file (a memfd) with its output to /dev/null. Any crash,
 * sanitizer report or leak is a finding; every malformed input must end
 * in an exit status.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], *argv[9];
	int fd, argc = 0, ret;

	if (size < 1)
		return 0;
	fd = memfd_create("perf.data", 0);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	argv[argc++] = "decode";
	argv[argc++] = "-q";
	if (data[0] & 1) {
		argv[argc++] = "--timeline";
	} else if (data[0] & 2) {
		argv[argc++] = "--format";
		argv[argc++] = "perfetto";
	}
	argv[argc++] = "-o";
	argv[argc++] = "/dev/null";
	argv[argc++] = path;
	argv[argc] = NULL;
	ret = cmd_decode(argc, argv);
	if (ret != ERR_EXIT_OK && ret != ERR_EXIT_FILE &&
	    ret != ERR_EXIT_STREAM)
		abort();
	close(fd);
	return 0;
}
