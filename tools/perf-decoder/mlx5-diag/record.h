/* SPDX-License-Identifier: GPL-2.0 */
/* mlx5-diag record: its options and the session. */
#ifndef MLX5_DIAG_RECORD_H
#define MLX5_DIAG_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "errors.h"

#define RECORD_MAX_EVENTS		64
#define RECORD_MAX_TRACEPOINTS		16
#define RECORD_DEFAULT_PERIOD_NS	1000000ull
#define RECORD_DEFAULT_AUX_PAGES	256
#define RECORD_DEFAULT_OUTPUT		"mlx5-diag.data"
/*
 * How long END may take to arrive after DISABLE (the driver's work drains
 * the firmware's buffer once more first).
 */
#define RECORD_END_WAIT_MS		5000

struct record_opts {
	const char *dev;			/* -d, NULL: the only device */
	const char *events[RECORD_MAX_EVENTS];	/* -e, leader first */
	int nr_events;
	uint64_t period_ns;			/* -p */
	int mode;				/* MLX5_DIAG_MODE_* (0: default) */
	int sync, clear, force;
	int format;				/* 0..2 */
	int ts;					/* MLX5_DIAG_TS_* */
	clockid_t clockid;
	const char *clock_name;
	unsigned int aux_pages;			/* -a, power of 2 */
	const char *output;			/* -o */
	int quiet;				/* -q */
	uint64_t duration_ns;			/* --duration, 0: none */
	char **cmd;				/* after --, NULL: none */
	/* for doca: a second run at this period (0: none), written to the same file */
	uint64_t reconfig_period_ns;
	const char *tracepoints[RECORD_MAX_TRACEPOINTS];	/* --tracepoint SYS:NAME */
	int nr_tracepoints;
};

/* Fill O with the defaults. */
void record_defaults(struct record_opts *o);

/*
 * Parse record's arguments (ARGV[0] is "record"). Returns ERR_EXIT_OK, or
 * ERR_EXIT_USAGE with ERR set; -1 when help was asked and printed.
 */
int record_parse(int argc, char **argv, struct record_opts *o, char *err,
		 size_t errlen);

/* Parse a --clockid name or number. 0 or -1. */
int record_parse_clockid(const char *s, clockid_t *id, const char **name);

/* Open, run and drain the session; write the file. Returns an err_exit code. */
int record_run(const struct record_opts *o);

/*
 * The message for a perf_event_open() failure of event INDEX (0: the
 * leader) with errno ERR.
 */
const char *record_open_error_hint(int err, int leader);

#endif /* MLX5_DIAG_RECORD_H */
