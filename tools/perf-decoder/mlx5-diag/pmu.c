// SPDX-License-Identifier: GPL-2.0
/* The mlx5_diag PMUs in sysfs, and event strings parsed against them. */
#define _GNU_SOURCE
#include "pmu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *pmu_sysfs_root(void)
{
	const char *r = getenv("MLX5_DIAG_SYSFS");

	return r && *r ? r : PMU_SYSFS_DEFAULT;
}

int pmu_first_cpu(const struct pmu *p)
{
	char *end;
	long cpu;

	if (p->cpumask[0] < '0' || p->cpumask[0] > '9')
		return -1;
	errno = 0;
	cpu = strtol(p->cpumask, &end, 10);
	if (errno || cpu > INT_MAX || (*end && *end != '-' && *end != ','))
		return -1;
	return (int)cpu;
}

int pmu_read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	char *nl;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = '\0';
		if (ferror(f)) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

uint64_t pmu_read_u64(const char *dir, const char *name, uint64_t max)
{
	char buf[64];
	uint64_t v;

	if (pmu_read_line(dir, name, buf, sizeof(buf)) || args_parse_u64(buf, max, &v))
		return 0;
	return v;
}

int pmu_parse_format(const char *spec, struct pmu_field *f)
{
	unsigned long lo, hi;
	const char *colon = strchr(spec, ':');
	char *end;

	if (!colon)
		return -1;
	if ((size_t)(colon - spec) == 6 && !strncmp(spec, "config", 6))
		f->word = 0;
	else if ((size_t)(colon - spec) == 7 && !strncmp(spec, "config1", 7))
		f->word = 1;
	else if ((size_t)(colon - spec) == 7 && !strncmp(spec, "config2", 7))
		f->word = 2;
	else
		return -1;
	if (!isdigit((unsigned char)colon[1]))
		return -1;
	lo = strtoul(colon + 1, &end, 10);
	hi = lo;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -1;
		hi = strtoul(end + 1, &end, 10);
	}
	if (*end || lo > hi || hi > 63)
		return -1;
	f->lo = (unsigned int)lo;
	f->hi = (unsigned int)hi;
	return 0;
}

static int field_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_field *)a)->name,
		      ((const struct pmu_field *)b)->name);
}

static int load_fields(struct pmu *p, char *err, size_t errlen)
{
	char dir[PATH_MAX + 16], spec[128];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/format", p->dir);
	d = opendir(dir);
	if (!d) {
		set_err(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct pmu_field *f;

		if (de->d_name[0] == '.')
			continue;
		if (p->nr_fields == cap) {
			cap = cap ? 2 * cap : 16;
			f = realloc(p->fields, cap * sizeof(*f));
			if (!f) {
				closedir(d);
				set_err(err, errlen, "out of memory");
				return -1;
			}
			p->fields = f;
		}
		f = &p->fields[p->nr_fields];
		if (pmu_read_line(dir, de->d_name, spec, sizeof(spec)) ||
		    pmu_parse_format(spec, f) ||
		    strlen(de->d_name) >= sizeof(f->name)) {
			set_err(err, errlen, "%s/%s: cannot parse '%s' (want configN:LO-HI)",
				dir, de->d_name, spec);
			closedir(d);
			return -1;
		}
		strcpy(f->name, de->d_name);
		p->nr_fields++;
	}
	closedir(d);
	if (p->nr_fields)
		qsort(p->fields, p->nr_fields, sizeof(*p->fields), field_cmp);
	return 0;
}

static int pmu_cmp(const void *a, const void *b)
{
	const struct pmu *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

void pmu_scan_free(struct pmu *pmus, int n)
{
	for (int i = 0; i < n; i++)
		free(pmus[i].fields);
	free(pmus);
}

int pmu_scan(const char *root, struct pmu **pmus, char *err, size_t errlen)
{
	struct pmu *v = NULL;
	struct dirent *de;
	int n = 0, cap = 0;
	char buf[64];
	DIR *d;

	*pmus = NULL;
	d = opendir(root);
	if (!d) {
		set_err(err, errlen, "%s: %s", root, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		const char *num = de->d_name + strlen(PMU_NAME_PREFIX);
		struct pmu *p;
		uint64_t number;

		if (strncmp(de->d_name, PMU_NAME_PREFIX, strlen(PMU_NAME_PREFIX)) ||
		    args_parse_u64(num, UINT_MAX, &number) || !strncmp(num, "0x", 2) ||
		    strlen(de->d_name) >= sizeof(p->name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 4;
			p = realloc(v, (size_t)cap * sizeof(*p));
			if (!p) {
				set_err(err, errlen, "out of memory");
				goto fail;
			}
			v = p;
		}
		p = &v[n];
		memset(p, 0, sizeof(*p));
		n++;
		strcpy(p->name, de->d_name);
		p->number = (unsigned int)number;
		snprintf(p->dir, sizeof(p->dir), "%s/%s", root, de->d_name);
		p->type = -1;
		if (!pmu_read_line(p->dir, "type", buf, sizeof(buf)))
			p->type = atoi(buf);
		if (pmu_read_line(p->dir, "function", p->function, sizeof(p->function)))
			p->function[0] = '\0';
		if (pmu_read_line(p->dir, "cpumask", p->cpumask, sizeof(p->cpumask)))
			p->cpumask[0] = '\0';
		p->gone = !pmu_read_line(p->dir, "engine/state", buf, sizeof(buf)) &&
			  !strcmp(buf, "gone");
		if (load_fields(p, err, errlen))
			goto fail;
	}
	closedir(d);
	qsort(v, (size_t)n, sizeof(*v), pmu_cmp);
	*pmus = v;
	return n;
fail:
	closedir(d);
	pmu_scan_free(v, n);
	return -1;
}

int pmu_pick(const struct pmu *pmus, int n, const char *dev, char *err,
	     size_t errlen)
{
	uint64_t number;
	int i;

	if (n == 0) {
		set_err(err, errlen, "no mlx5_diag device (no %s* PMU in %s; is the "
			"mlx5_diag module loaded?)", PMU_NAME_PREFIX, pmu_sysfs_root());
		return -1;
	}
	if (!dev) {
		if (n == 1)
			return 0;
		set_err(err, errlen, "%d mlx5_diag devices: choose one with -d "
			"(see 'mlx5-diag list')", n);
		return -1;
	}
	if (!args_parse_u64(dev, UINT_MAX, &number) && strncmp(dev, "0x", 2)) {
		for (i = 0; i < n; i++)
			if (pmus[i].number == number)
				return i;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(pmus[i].name, dev))
			return i;
	/* a device that left may keep its PMU: the live one of a function */
	for (i = 0; i < n; i++)
		if (!strcmp(pmus[i].function, dev) && !pmus[i].gone)
			return i;
	for (i = 0; i < n; i++)
		if (!strcmp(pmus[i].function, dev))
			return i;
	/* a PCI address without its domain: bus:device.function */
	if (strchr(dev, ':') && strchr(dev, ':') == strrchr(dev, ':'))
		for (i = 0; i < n; i++)
			if (!strncmp(pmus[i].function, "0000:", 5) &&
			    !strcmp(pmus[i].function + 5, dev))
				return i;
	set_err(err, errlen, "no mlx5_diag device '%s' (a number, a PMU name or "
		"a function; see 'mlx5-diag list')", dev);
	return -1;
}

static const struct pmu_field *find_field(const struct pmu *p, const char *name)
{
	for (size_t i = 0; i < p->nr_fields; i++)
		if (!strcmp(p->fields[i].name, name))
			return &p->fields[i];
	return NULL;
}

/* Apply NAME=VALUE; VALUE "?" marks a field the user must give (*need). */
static int apply_term(const struct pmu *p, const char *term, uint64_t cfg[3],
		      char (*need)[64], size_t *nr_need, const char *what,
		      char *err, size_t errlen)
{
	const char *eq = strchr(term, '=');
	struct pmu_field raw, fname;
	const struct pmu_field *f;
	uint64_t v, max, mask;
	size_t nlen;

	if (!eq || eq == term) {
		set_err(err, errlen, "%s: '%s' is not FIELD=VALUE", what, term);
		return -1;
	}
	nlen = (size_t)(eq - term);
	if (nlen >= sizeof(fname.name)) {
		set_err(err, errlen, "%s: unknown field '%.*s'", what, (int)nlen, term);
		return -1;
	}
	memcpy(fname.name, term, nlen);
	fname.name[nlen] = '\0';
	f = find_field(p, fname.name);
	if (!f) {
		raw.lo = 0;
		raw.hi = 63;
		if (!strcmp(fname.name, "config"))
			raw.word = 0;
		else if (!strcmp(fname.name, "config1"))
			raw.word = 1;
		else if (!strcmp(fname.name, "config2"))
			raw.word = 2;
		else {
			set_err(err, errlen, "%s: %s has no field '%s' (see %s/format)",
				what, p->name, fname.name, p->dir);
			return -1;
		}
		f = &raw;
	}
	if (!strcmp(eq + 1, "?")) {
		if (need && *nr_need < 16)
			strcpy(need[(*nr_need)++], fname.name);
		return 0;
	}
	max = f->hi - f->lo == 63 ? UINT64_MAX : (1ull << (f->hi - f->lo + 1)) - 1;
	if (args_parse_u64(eq + 1, UINT64_MAX, &v)) {
		set_err(err, errlen, "%s: %s: '%s' is not a number", what,
			fname.name, eq + 1);
		return -1;
	}
	if (v > max) {
		set_err(err, errlen, "%s: %s=%s does not fit in %u bits (max 0x%" PRIx64 ")",
			what, fname.name, eq + 1, f->hi - f->lo + 1, max);
		return -1;
	}
	mask = max << f->lo;
	cfg[f->word] = (cfg[f->word] & ~mask) | (v << f->lo);
	/* a given field is no longer needed */
	if (need)
		for (size_t i = 0; i < *nr_need; i++)
			if (!strcmp(need[i], fname.name))
				need[i][0] = '\0';
	return 0;
}

static int apply_terms(const struct pmu *p, char *list, uint64_t cfg[3],
		       char (*need)[64], size_t *nr_need, const char *what,
		       char *err, size_t errlen)
{
	char *save = NULL, *t;

	for (t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (apply_term(p, t, cfg, need, nr_need, what, err, errlen))
			return -1;
	return 0;
}

int pmu_parse_event(const struct pmu *p, const char *str, uint64_t config[3],
		    char *err, size_t errlen)
{
	char need[16][64], alias[256], *s, *rest;
	size_t nr_need = 0, i;
	int ret = -1;

	config[0] = config[1] = config[2] = 0;
	if (!*str || strchr(str, '/') || str[strlen(str) - 1] == ',' || strstr(str, ",,") ||
	    str[0] == ',') {
		set_err(err, errlen, "bad event '%s': write NAME[,FIELD=VALUE]... or "
			"FIELD=VALUE[,...] (the device is chosen with -d)", str);
		return -1;
	}
	s = strdup(str);
	if (!s) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	rest = s;
	if (!strchr(s, '=') || strcspn(s, ",") < strcspn(s, "=")) {
		/* the first term is an alias of events/ */
		char dir[PATH_MAX + 16];
		size_t n = strcspn(s, ",");

		rest = s[n] ? s + n + 1 : s + n;
		s[n] = '\0';
		snprintf(dir, sizeof(dir), "%s/events", p->dir);
		if (strchr(s, '.') || pmu_read_line(dir, s, alias, sizeof(alias))) {
			set_err(err, errlen, "%s has no event '%s' (see 'mlx5-diag list')",
				p->name, s);
			goto out;
		}
		if (apply_terms(p, alias, config, need, &nr_need, s, err, errlen))
			goto out;
	}
	if (apply_terms(p, rest, config, need, &nr_need, str, err, errlen))
		goto out;
	for (i = 0; i < nr_need; i++) {
		if (need[i][0]) {
			set_err(err, errlen, "event '%s' needs %s=N", str, need[i]);
			goto out;
		}
	}
	ret = 0;
out:
	free(s);
	return ret;
}
