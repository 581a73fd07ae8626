// SPDX-License-Identifier: GPL-2.0
/* mlx5-diag's messages on stderr (errors.h). */
#include <stdarg.h>
#include <stdio.h>

#include "errors.h"

static void md_verr(const char *who, const char *fmt, va_list ap)
{
	if (who)
		fprintf(stderr, "mlx5-diag %s: ", who);
	else
		fputs("mlx5-diag: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void md_err(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	md_verr(who, fmt, ap);
	va_end(ap);
}

int md_usage(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	md_verr(who, fmt, ap);
	va_end(ap);
	fprintf(stderr, "(see mlx5-diag %s --help)\n", who);
	return MD_EXIT_USAGE;
}
