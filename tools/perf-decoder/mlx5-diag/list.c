// SPDX-License-Identifier: GPL-2.0
/* mlx5-diag list: the devices, their capabilities and events, from sysfs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pmu.h"

static const char list_usage[] =
"usage: mlx5-diag list [-v] [DEV]\n"
"\n"
"The mlx5_diag devices (PMU, function, cpumask, dialect), their\n"
"capabilities (caps/) and events (events/, with the fields each needs).\n"
"DEV: a PMU number, name or function. -v: every capability, each event's\n"
"definition and unit, the format fields and the engine state.\n";

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of DIR's files (no dot files; with DOTS 0, no "x.y"). */
static char **dir_names(const char *dir, int dots, size_t *n)
{
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;
	DIR *d = opendir(dir);

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (!dots && strchr(de->d_name, '.')))
			continue;
		if (*n == cap) {
			char **t;

			cap = cap ? 2 * cap : 64;
			t = realloc(v, cap * sizeof(*t));
			if (!t)
				break;
			v = t;
		}
		v[*n] = strdup(de->d_name);
		if (v[*n])
			(*n)++;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), name_cmp);
	return v;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The whole of a small file, newlines as spaces, trailing space dropped. */
static void read_joined(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 256];
	size_t n = 0;
	FILE *f;
	int c;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	while ((c = fgetc(f)) != EOF && n + 1 < len)
		buf[n++] = c == '\n' ? ' ' : (char)c;
	fclose(f);
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

/* "port_rx_bytes,port=?": the alias with the fields the user must give. */
static void event_with_fields(const char *alias_def, const char *name, char *out,
			      size_t len)
{
	char def[4096], *save = NULL, *t;
	size_t n;

	snprintf(out, len, "%s", name);
	snprintf(def, sizeof(def), "%s", alias_def);
	for (t = strtok_r(def, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t tl = strlen(t);

		if (tl > 2 && !strcmp(t + tl - 2, "=?")) {
			n = strlen(out);
			snprintf(out + n, len - n, ",%s", t);
		}
	}
}

static void list_pmu(const struct pmu *p, int verbose)
{
	char dir[PATH_MAX + 16], buf[4096], shown[640], unit[64], uname[320];
	char **names;
	size_t n, i;

	snprintf(dir, sizeof(dir), "%s/caps", p->dir);
	read_joined(dir, "dialect", buf, sizeof(buf));
	printf("%s  function %s  cpumask %s  dialect %s\n", p->name,
	       p->function[0] ? p->function : "?", p->cpumask[0] ? p->cpumask : "?",
	       buf[0] ? buf : "?");

	names = dir_names(dir, 1, &n);
	if (verbose) {
		printf("  type %d\n  capabilities:\n", p->type);
		for (i = 0; i < n; i++) {
			read_joined(dir, names[i], buf, sizeof(buf));
			printf("    %-24s %s\n", names[i], buf);
		}
	} else if (n) {
		static const char *const brief[] = { "max_data_ids", "log_max_samples",
			"min_sample_period_ns", "modes", "sync", "clear" };

		printf("  capabilities:");
		for (i = 0; i < sizeof(brief) / sizeof(brief[0]); i++) {
			read_joined(dir, brief[i], buf, sizeof(buf));
			if (buf[0])
				printf("%s %s=%s", i ? "," : "", brief[i], buf);
		}
		printf("\n");
	}
	free_names(names, n);

	snprintf(dir, sizeof(dir), "%s/events", p->dir);
	names = dir_names(dir, 0, &n);
	printf("  events (%zu):\n", n);
	for (i = 0; i < n; i++) {
		read_joined(dir, names[i], buf, sizeof(buf));
		event_with_fields(buf, names[i], shown, sizeof(shown));
		if (!verbose) {
			printf("    %s\n", shown);
			continue;
		}
		snprintf(uname, sizeof(uname), "%s.unit", names[i]);
		read_joined(dir, uname, unit, sizeof(unit));
		printf("    %-48s %s%s%s\n", shown, buf, unit[0] ? "  unit " : "", unit);
	}
	free_names(names, n);

	if (verbose) {
		printf("  format:\n");
		for (i = 0; i < p->nr_fields; i++) {
			const struct pmu_field *f = &p->fields[i];

			char bits[16];

			snprintf(bits, sizeof(bits), f->lo == f->hi ? "%u" : "%u-%u",
				 f->lo, f->hi);
			printf("    %-12s config%s:%s\n", f->name,
			       f->word ? (f->word == 1 ? "1" : "2") : "", bits);
		}
		snprintf(dir, sizeof(dir), "%s/engine", p->dir);
		names = dir_names(dir, 1, &n);
		if (n)
			printf("  engine:\n");
		for (i = 0; i < n; i++) {
			read_joined(dir, names[i], buf, sizeof(buf));
			printf("    %-24s %s\n", names[i], buf);
		}
		free_names(names, n);
	}
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmu *pmus;
	int verbose = 0, n, c, i, idx = -1;
	char err[512];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'h':
			fputs(list_usage, stdout);
			return ERR_EXIT_OK;
		default:
			err_print("list", "unknown option '%s'", argv[optind - 1]);
			fputs(list_usage, stderr);
			return ERR_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		err_print("list", "one DEV at most");
		fputs(list_usage, stderr);
		return ERR_EXIT_USAGE;
	}
	n = pmu_scan(pmu_sysfs_root(), &pmus, err, sizeof(err));
	if (n < 0) {
		err_print(NULL, "%s", err);
		return ERR_EXIT_DEVICE;
	}
	if (optind < argc) {
		idx = pmu_pick(pmus, n, argv[optind], err, sizeof(err));
		if (idx < 0) {
			err_print(NULL, "%s", err);
			pmu_scan_free(pmus, n);
			return ERR_EXIT_DEVICE;
		}
	}
	if (!n)
		printf("no mlx5_diag devices (is the mlx5_diag module loaded?)\n");
	for (i = 0; i < n; i++)
		if (idx < 0 || idx == i)
			list_pmu(&pmus[i], verbose);
	pmu_scan_free(pmus, n);
	return ERR_EXIT_OK;
}
