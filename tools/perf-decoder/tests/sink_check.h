/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the decode pipeline's tests and fuzz targets (test_decode_output.c,
 * test_plot.c, fuzz_sinks.c, fuzz_data_ids.c): an AUX stream written as a
 * recording; a recording decoded through every sink, the outputs checked;
 * a file's text.
 */
#ifndef MLX5DIAG_SINK_CHECK_H
#define MLX5DIAG_SINK_CHECK_H

#include <stddef.h>

#include "data_ids.h"

/*
 * recording_write - write LEN bytes of AUX stream as the recording PATH:
 * META (pmu=mlx5_diag_0), then AUX chunks of CHUNK bytes (0: one). Aborts
 * on failure.
 */
void recording_write(const char *path, const void *aux, size_t len,
		     size_t chunk);

/*
 * recording_memfd - the same into a new memfd, whose path
 * (/proc/self/fd/FD) goes into PATH (64 bytes); returns the fd.
 */
int recording_memfd(const void *aux, size_t len, size_t chunk, char *path);

/*
 * sink_check_all - decode the recording at PATH (quiet, columns named by
 * NAMES, NULL: default names; METRICS: --metrics) through every sink of
 * the registry and through decode_doca_csv(), as `mlx5-diag doca` does,
 * each into a memory stream. Aborts unless every decode ends with the same
 * status, every line of the JSON lines sink is a JSON object with a
 * "type" (json-c, strict), a binary sink's output is a Perfetto trace
 * (protobuf-c unpacks it) and no other output holds a NUL byte. Returns
 * the status.
 */
int sink_check_all(const char *path, const struct data_id_names *names,
		   int metrics);

/*
 * slurp - the file at PATH, its first 64 KiB - 1 bytes, NUL-terminated
 * (free() it). Aborts when it cannot be read.
 */
char *slurp(const char *path);

#endif /* MLX5DIAG_SINK_CHECK_H */
