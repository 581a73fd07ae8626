/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decoder tests' runner: each test is a function, run by RUN(); a
 * failed CHECK prints where and why as "# " lines and fails its test. The
 * output is TAP ("ok N - name" / "not ok N - name", then "1..N") and ends
 * with "# N passed, N failed"; runner_done() gives the exit status.
 */
#ifndef MLX5DIAG_TEST_RUNNER_H
#define MLX5DIAG_TEST_RUNNER_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int runner_tests, runner_failed_tests, runner_test_failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		runner_test_failures++;					\
		printf("#   %s:%d: %s: ", __FILE__, __LINE__, #cond);	\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

#define CHECK_U64(got, want, what) do {					\
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);		\
	CHECK(g_ == w_, "%s: got %" PRIu64 " (0x%" PRIx64 "), want %"	\
	      PRIu64 " (0x%" PRIx64 ")", what, g_, g_, w_, w_);		\
} while (0)

#define CHECK_INT(got, want, what) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	CHECK(g_ == w_, "%s: got %lld, want %lld", what, g_, w_);	\
} while (0)

#define CHECK_STR(got, want, what) do {					\
	const char *g_ = (got), *w_ = (want);				\
	CHECK(g_ && w_ && !strcmp(g_, w_), "%s: got '%s', want '%s'",	\
	      what, g_ ? g_ : "(null)", w_ ? w_ : "(null)");		\
} while (0)

#define RUN(fn) runner_run(fn, #fn)

static inline void runner_run(void (*fn)(void), const char *name)
{
	runner_test_failures = 0;
	fn();
	runner_tests++;
	if (runner_test_failures)
		runner_failed_tests++;
	printf("%sok %d - %s\n", runner_test_failures ? "not " : "",
	       runner_tests, name);
	fflush(stdout);
}

static inline int runner_done(void)
{
	printf("1..%d\n", runner_tests);
	printf("# %d passed, %d failed\n", runner_tests - runner_failed_tests,
	       runner_failed_tests);
	return runner_failed_tests ? 1 : 0;
}

/*
 * path_in - "DIR/NAME" in one of four buffers used in turn, so that up to
 * four such paths can be held at once (one call's arguments).
 */
static inline char *path_in(const char *dir, const char *name)
{
	static char bufs[4][512];
	static int next;
	char *p = bufs[next++ % 4];

	snprintf(p, sizeof(bufs[0]), "%s/%s", dir, name);
	return p;
}

#endif /* MLX5DIAG_TEST_RUNNER_H */
