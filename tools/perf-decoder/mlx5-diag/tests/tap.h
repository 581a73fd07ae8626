/* SPDX-License-Identifier: GPL-2.0 */
/* A few TAP helpers for the host-side tests of the mlx5-diag CLI. */
#ifndef MLX5_DIAG_TAP_H
#define MLX5_DIAG_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define OK(cond, ...) do {						\
	int c_ = !!(cond);						\
	tap_n++;							\
	if (!c_)							\
		tap_failed++;						\
	printf("%sok %d - ", c_ ? "" : "not ", tap_n);			\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!c_)							\
		printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
} while (0)

#define EQ_INT(got, want, ...) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	OK(g_ == w_, __VA_ARGS__);					\
	if (g_ != w_)							\
		printf("#   got %lld, want %lld\n", g_, w_);		\
} while (0)

#define EQ_U64(got, want, ...) do {					\
	uint64_t g_ = (got), w_ = (want);				\
	OK(g_ == w_, __VA_ARGS__);					\
	if (g_ != w_)							\
		printf("#   got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", g_, w_); \
} while (0)

#define EQ_STR(got, want, ...) do {					\
	const char *g_ = (got), *w_ = (want);				\
	int e_ = g_ && w_ ? !strcmp(g_, w_) : g_ == w_;			\
	OK(e_, __VA_ARGS__);						\
	if (!e_)							\
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",	\
		       w_ ? w_ : "(null)");				\
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	printf("# %d passed, %d failed\n", tap_n - tap_failed, tap_failed);
	return tap_failed ? 1 : 0;
}

#endif /* MLX5_DIAG_TAP_H */
