/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mlx5_diag PMUs as sysfs shows them (/sys/bus/event_source/devices/
 * mlx5_diag_<n>/: type, cpumask, function, format/, events/, caps/), and
 * event strings parsed against them the way perf parses them.
 */
#ifndef MLX5_DIAG_PMU_H
#define MLX5_DIAG_PMU_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define PMU_SYSFS_DEFAULT	"/sys/bus/event_source/devices"
#define PMU_NAME_PREFIX		"mlx5_diag_"

/* A format/ field: bits LO..HI of config (word 0), config1 or config2. */
struct pmu_field {
	char name[64];
	int word;
	unsigned int lo, hi;
};

struct pmu {
	char name[64];		/* mlx5_diag_<n> */
	unsigned int number;	/* <n> */
	char dir[PATH_MAX];
	int type;		/* perf type, -1 if unreadable */
	char function[128];	/* the device served: PCI function or sim:<n> */
	char cpumask[128];
	int gone;			/* engine/state "gone": its device left */
	struct pmu_field *fields;
	size_t nr_fields;
};

/*
 * The sysfs directory of the event sources: $MLX5_DIAG_SYSFS (the host
 * tests point it at a fake tree) or PMU_SYSFS_DEFAULT.
 */
const char *pmu_sysfs_root(void);

/*
 * Every mlx5_diag_<n> under ROOT, sorted by <n>, with its type, cpumask,
 * function and format fields. Returns the number found (0: none) or -1
 * with ERR set.
 */
int pmu_scan(const char *root, struct pmu **pmus, char *err, size_t errlen);
void pmu_scan_free(struct pmu *pmus, int n);

/*
 * DEV names a PMU: its number ("0"), its name ("mlx5_diag_0") or its
 * function ("0000:08:00.0", "sim:1"). NULL DEV: the only PMU there is.
 * Returns the index in PMUS or -1 with ERR set.
 */
int pmu_pick(const struct pmu *pmus, int n, const char *dev, char *err,
	     size_t errlen);

/*
 * pmu_first_cpu - the first CPU of P's cpumask (a CPU list, "3" or
 * "0-3,8", lowest first), where its events are opened; -1 if it has none.
 */
int pmu_first_cpu(const struct pmu *p);

/* Read the first line of DIR/NAME into BUF, without the newline; 0 or -1. */
int pmu_read_line(const char *dir, const char *name, char *buf, size_t len);

/*
 * pmu_read_u64 - the first line of DIR/NAME as an unsigned decimal or
 * 0x-hex integer of at most MAX; 0 when it is unreadable, not such a
 * number or above MAX.
 */
uint64_t pmu_read_u64(const char *dir, const char *name, uint64_t max);

/* Parse "config:0-7", "config1:63" into F (F->name is not touched); 0 or -1. */
int pmu_parse_format(const char *spec, struct pmu_field *f);

/*
 * Parse an event string for PMU into CONFIG[3] (config, config1, config2):
 * "ALIAS[,TERM]...", or "TERM[,TERM]..." where TERM is FIELD=VALUE with a
 * format/ field or config, config1, config2. ALIAS is a file of events/
 * whose terms are applied first; a term of the alias written FIELD=? must
 * be given by the user. VALUE is decimal or 0x hex and must fit the field.
 * Returns 0 or -1 with ERR set.
 */
int pmu_parse_event(const struct pmu *pmu, const char *str, uint64_t config[3],
		    char *err, size_t errlen);

#endif /* MLX5_DIAG_PMU_H */
