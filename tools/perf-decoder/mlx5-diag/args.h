/* SPDX-License-Identifier: GPL-2.0 */
/* Option arguments parsed one way for every subcommand: times and integers. */
#ifndef MLX5_DIAG_ARGS_H
#define MLX5_DIAG_ARGS_H

#include <stdint.h>

/*
 * Parse a time, the one way every time option is parsed: a decimal number
 * with an optional unit ns, us, ms or s (none: DEFAULT_UNIT_NS ns per
 * unit), a fraction of at most 9 digits in seconds alone (0.4, 1.5s) into
 * *NS. NULL, or why S is refused: "negative", "not a number", "unknown
 * unit", "a fraction only in seconds", "finer than 1 ns", "too large",
 * "zero" (when !ALLOW_ZERO).
 */
const char *args_parse_time(const char *s, uint64_t default_unit_ns,
			    int allow_zero, uint64_t *ns);

/* Parse an unsigned decimal or 0x-hex integer that must be <= MAX. 0 or -1. */
int args_parse_u64(const char *s, uint64_t max, uint64_t *v);

#endif /* MLX5_DIAG_ARGS_H */
