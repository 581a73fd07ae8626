// SPDX-License-Identifier: GPL-2.0
/* mlx5-diag's messages on stderr (errors.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include "errors.h"

static void err_vprint(const char *who, const char *fmt, va_list ap)
{
	if (who)
		fprintf(stderr, "mlx5-diag %s: ", who);
	else
		fputs("mlx5-diag: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void err_print(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vprint(who, fmt, ap);
	va_end(ap);
}

int err_usage(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vprint(who, fmt, ap);
	va_end(ap);
	fprintf(stderr, "(see mlx5-diag %s --help)\n", who);
	return ERR_EXIT_USAGE;
}

int err_bad_option(const char *who, const struct option *longopts, int opt,
		   const char *arg)
{
	const struct option *o;

	if (!opt)
		return err_usage(who, "unknown option %s", arg);
	for (o = longopts; o->name; o++)
		if (o->val == opt)
			return err_usage(who, "option --%s takes no value", o->name);
	return err_usage(who, "unknown option -%c", opt);
}
