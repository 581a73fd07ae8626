/* SPDX-License-Identifier: GPL-2.0 */
/* How mlx5-diag fails: its exit statuses and its messages on stderr. */
#ifndef MLX5_DIAG_ERRORS_H
#define MLX5_DIAG_ERRORS_H

/*
 * Exit statuses of mlx5-diag, one table for every subcommand (and for
 * decode_doca_csv()); the usage texts list the ones they return.
 */
enum err_exit {
	ERR_EXIT_OK		= 0,
	ERR_EXIT_FINDINGS	= 1,	/* doctor: the firmware differs where the
					   driver cannot follow */
	ERR_EXIT_USAGE		= 2,	/* bad option or argument */
	ERR_EXIT_NAMES		= 3,	/* the -di data-ID file */
	ERR_EXIT_FILE		= 4,	/* the recording is unreadable or not one */
	ERR_EXIT_STREAM		= 5,	/* its AUX stream is malformed */
	ERR_EXIT_OUTPUT		= 6,	/* the output could not be written */
	ERR_EXIT_DEVICE		= 7,	/* no such device or event; unreadable sysfs */
	ERR_EXIT_OPEN		= 8,	/* the kernel refused the session */
	ERR_EXIT_CMD		= 9,	/* the command could not be started */
	ERR_EXIT_ENDED		= 10,	/* the session ended early (AUX area full,
					   device removed, engine taken) */
};

/*
 * err_print - one message on stderr: "mlx5-diag WHO: " (WHO NULL:
 * "mlx5-diag: "), FMT's text and a newline. Warnings say "warning: " in
 * their text.
 */
void err_print(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * err_usage - a bad option or argument of subcommand WHO: err_print()'s
 * message, then "(see mlx5-diag WHO --help)". Returns ERR_EXIT_USAGE.
 */
int err_usage(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct option;

/*
 * err_bad_option - getopt_long's '?' in subcommand WHO, whose options are
 * LONGOPTS: OPT is the option given a value it takes none of
 * (--metrics=1), an unknown short option (of a group maybe), or 0 for an
 * unknown long option, ARG. err_usage()'s message; returns ERR_EXIT_USAGE.
 */
int err_bad_option(const char *who, const struct option *longopts, int opt,
		   const char *arg);

#endif /* MLX5_DIAG_ERRORS_H */
