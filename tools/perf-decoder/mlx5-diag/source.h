/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decode's inputs: each source reads its file and feeds the AUX
 * streams in it to the loop (pipeline.h); none sees an output format.
 */
#ifndef MLX5_DIAG_SOURCE_H
#define MLX5_DIAG_SOURCE_H

#include <stddef.h>
#include <stdio.h>

struct pipeline;

/* A recording of `mlx5-diag record`; HEAD: its first HEAD_LEN bytes, read. */
int source_mdf(struct pipeline *p, FILE *f, const unsigned char *head,
	       size_t head_len);

/* A perf.data file or pipe; its 8 magic bytes are read. */
int source_perf(struct pipeline *p, FILE *f);

#endif /* MLX5_DIAG_SOURCE_H */
