// SPDX-License-Identifier: GPL-2.0
/*
 * The sinks' registry, where a sink is chosen by name, and what sinks
 * share: printing with the write error kept, device and perf times.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "sink.h"

/* Every sink, one line each: X(name) for `const struct sink_ops sink_name`. */
#define SINKS(X)	\
	X(text)		\
	X(csv)		\
	X(json)		\
	X(timeline)	\
	X(perfetto)

#define SINK_DECLARE(name)	extern const struct sink_ops sink_##name;
#define SINK_ENTRY(name)	&sink_##name,

SINKS(SINK_DECLARE)

static const struct sink_ops *const registry[] = { SINKS(SINK_ENTRY) };

#define NR_SINKS	(sizeof(registry) / sizeof(registry[0]))

const struct sink_ops *sink_find(const char *name)
{
	for (size_t i = 0; i < NR_SINKS; i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

const struct sink_ops *sink_at(size_t i)
{
	return i < NR_SINKS ? registry[i] : NULL;
}

const char *sink_names(void)
{
	static char names[256];
	size_t n = 0;
	int w;

	for (size_t i = 0; i < NR_SINKS; i++) {
		w = snprintf(names + n, sizeof(names) - n, "%s%s",
			     i ? ", " : "", registry[i]->name);
		if (w < 0 || (size_t)w >= sizeof(names) - n)
			break;
		n += (size_t)w;
	}
	return names;
}

static void sink_vfprintf(struct sink *s, FILE *f, const char *fmt, va_list ap)
{
	if (vfprintf(f, fmt, ap) < 0 && !s->write_error)
		s->write_error = errno ? errno : EIO;
}

void sink_fprintf(struct sink *s, FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sink_vfprintf(s, f, fmt, ap);
	va_end(ap);
}

void sink_printf(struct sink *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sink_vfprintf(s, s->out, fmt, ap);
	va_end(ap);
}

void sink_fmt_dev_time(const struct run *r, uint64_t t, char *buf, size_t len)
{
	uint32_t s, ns;

	if (r->session.ts_source == MLX5_DIAG_TS_RTC) {
		mlx5diag_rtc_split(t, &s, &ns);
		snprintf(buf, len, "%u.%09u", s, ns);
	} else {
		snprintf(buf, len, "%" PRIu64, t);
	}
}

void sink_fmt_perf_time(uint64_t t, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, t / NSEC_PER_SEC,
		 t % NSEC_PER_SEC);
}
