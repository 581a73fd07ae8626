/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the fuzz targets of the decode pipeline's outputs (fuzz_sinks.c,
 * fuzz_data_ids.c): a recording decoded through every sink, checked.
 */
#ifndef MLX5DIAG_SINK_CHECK_H
#define MLX5DIAG_SINK_CHECK_H

#include <stddef.h>

#include "data_ids.h"

/*
 * sink_check_write - write LEN bytes of AUX stream as a recording (META,
 * then AUX chunks of CHUNK bytes, 0: one) into a new memfd; returns its
 * fd (the recording is /proc/self/fd/FD). Aborts on failure.
 */
int sink_check_write(const void *aux, size_t len, size_t chunk);

/*
 * sink_check_all - decode the recording at PATH (quiet, columns named by
 * NAMES, NULL: default names; METRICS: --metrics) through every sink of
 * the registry and through mlx5diag_write_csv(), as `mlx5-diag doca` does,
 * each into a memory stream. Aborts unless every decode ends with the same
 * status, every line of the JSON lines sink is a JSON object with a
 * "type" (json-c, strict), and no output holds a NUL byte. Returns the
 * status.
 */
int sink_check_all(const char *path, const struct decode_names *names,
		   int metrics);

#endif /* MLX5DIAG_SINK_CHECK_H */
