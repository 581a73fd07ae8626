// SPDX-License-Identifier: GPL-2.0
/* Option arguments parsed one way for every subcommand: times and integers. */
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *args_parse_time(const char *s, uint64_t default_unit_ns,
			    int allow_zero, uint64_t *ns)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	uint64_t v, frac = 0, unit = default_unit_ns;
	unsigned int digits = 0;
	const char *rest;
	char *end;
	size_t i;

	if (*s == '-')
		return "negative";
	if (!isdigit((unsigned char)*s))
		return "not a number";
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return "too large";
	rest = end;
	if (*rest == '.') {
		for (rest++; isdigit((unsigned char)*rest); rest++, digits++) {
			if (digits == 9)
				return "finer than 1 ns";
			frac = frac * 10 + (uint64_t)(*rest - '0');
		}
		if (!digits)
			return "not a number";
	}
	if (*rest) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(rest, units[i].name))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return "unknown unit";
		unit = units[i].ns;
	}
	if (digits && unit != 1000000000)
		return "a fraction only in seconds";
	for (; digits && digits < 9; digits++)
		frac *= 10;
	if (v > (UINT64_MAX - frac) / unit)
		return "too large";
	v = v * unit + frac;
	if (!v && !allow_zero)
		return "zero";
	*ns = v;
	return NULL;
}

int args_parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	const char *p = s;
	int base = 10;
	char *end;

	if (!strncmp(p, "0x", 2) || !strncmp(p, "0X", 2)) {
		base = 16;
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return -1;
	} else if (!isdigit((unsigned char)*p)) {
		return -1;
	}
	errno = 0;
	*v = strtoull(p, &end, base);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}
