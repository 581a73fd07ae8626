/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's configuration: a file of lines "KEY [WORDS]" and the
 * command line's --KEY VALUE, one parser for both; what each device
 * exports, expanded from it against the device's capabilities.
 */
#ifndef MLX5_DIAG_EXPORTER_CONFIG_H
#define MLX5_DIAG_EXPORTER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "data_kinds.h"
#include "http_server.h"

#define XCFG_MAX_EXPORTS	64
#define XCFG_MAX_DEVICES	16
#define XCFG_MAX_RANGES		16
#define XCFG_MAX_LE		10	/* one bound per histogram bin */
#define XCFG_MAX_FILE		(1 << 20)
#define XCFG_MAX_LINE		4096
#define XCFG_DEFAULT_INTERVAL_NS	UINT64_C(15000000000)

/* The values of one instance field: a list of ranges, or every value. */
struct xcfg_ranges {
	int all;
	unsigned int nr;
	struct {
		uint32_t lo, hi;
	} r[XCFG_MAX_RANGES];
};

/* An export line: a kind and, per field of its group, which values. */
struct xcfg_export {
	const struct data_kind *kind;
	struct xcfg_ranges fields[DATA_KIND_MAX_FIELDS];
};

/* Where a setting was made, for "given twice" (0: not given). */
enum xcfg_key {
	XCFG_LISTEN, XCFG_MAX_CONNECTIONS, XCFG_TIMEOUT, XCFG_TEXTFILE,
	XCFG_INTERVAL, XCFG_SAMPLE, XCFG_PER_PRIO, XCFG_PER_BIN,
	XCFG_HISTOGRAM_LE,
	XCFG_NR_SCALARS,
	XCFG_DEVICE = XCFG_NR_SCALARS, XCFG_EXPORT,
};

struct xcfg {
	char listen_text[64];
	struct http_listen listen;
	unsigned int max_connections;
	unsigned int timeout_s;
	char textfile[1024];		/* "": serve HTTP */
	uint64_t interval_ns;		/* of the textfile's writes */
	uint64_t sample_ns;		/* 0: counting; else the sample period */
	int per_prio, per_bin;
	int once;			/* 1, 2: print one scrape (OpenMetrics: 2) */
	unsigned int nr_le;		/* histogram bounds, in seconds */
	double le[XCFG_MAX_LE];
	unsigned int nr_devices;	/* 0: every device */
	char devices[XCFG_MAX_DEVICES][128];
	unsigned int nr_exports;	/* 0: the default set */
	struct xcfg_export exports[XCFG_MAX_EXPORTS];
	unsigned int set_at[XCFG_NR_SCALARS];	/* its file line, 0: none */
	unsigned int given;		/* bit K: scalar K set, file or option */
};

/* xcfg_defaults - C with every setting at its default. */
void xcfg_defaults(struct xcfg *c);

/*
 * xcfg_apply - set KEY (a key of the file, an option's name without --)
 * to VALUE (its words; NULL for a switch given on the command line, which
 * is "yes"). LINE: where (0: the command line, where a scalar given again
 * replaces the file's). Returns 0, or -1 with why in ERR.
 */
int xcfg_apply(struct xcfg *c, const char *key, const char *value,
	       unsigned int line, char *err, size_t errlen);

/*
 * xcfg_parse - apply the lines of TEXT (LEN bytes, at most XCFG_MAX_FILE,
 * no NUL) to C: "KEY [WORDS]", white space between, "#" to the end of a
 * line a comment, blank lines ignored. A scalar given twice is refused.
 * Returns 0, or -1 with "ORIGIN:LINE: why" in ERR.
 */
int xcfg_parse(struct xcfg *c, const char *text, size_t len,
	       const char *origin, char *err, size_t errlen);

/*
 * xcfg_load - read the file PATH and xcfg_parse() it. Returns 0, or -1
 * with why in ERR.
 */
int xcfg_load(struct xcfg *c, const char *path, char *err, size_t errlen);

/* xcfg_check - what the settings together refuse: 0, or -1 with ERR. */
int xcfg_check(const struct xcfg *c, char *err, size_t errlen);

/*
 * xcfg_restart_needed - the first setting that differs between OLD and
 * NEW and that only a restart changes (listen, max-connections, timeout,
 * textfile, interval, sample), NULL if none.
 */
const char *xcfg_restart_needed(const struct xcfg *old, const struct xcfg *new);

/*
 * Whether C exports data of kind K, on a device that has it: one of its
 * exports, or of the default set (with per-prio, per-bin) when it has none.
 */
int xcfg_exports_kind(const struct xcfg *c, const struct data_kind *k);

#define XCFG_MAX_KINDS	128

/*
 * A device's limits, from its caps/ (the instance fields' counts), and
 * the kinds it has (its events/; NR_KINDS 0: not known, every kind).
 */
struct xcfg_device_caps {
	unsigned int num_ports, num_hosts, num_functions, num_pcie_links;
	unsigned int max_data_ids;
	unsigned int nr_kinds;
	uint32_t kinds[XCFG_MAX_KINDS];
};

/* What a device exports: data IDs with their kinds. */
struct xcfg_selection {
	unsigned int nr;
	uint64_t ids[1024];
	const struct data_kind *kinds[1024];
};

/*
 * xcfg_select - the data IDs C exports on a device of CAPS, in the order
 * of its export lines (or the default set, of the kinds and instances
 * the device has), each once; the histogram's read latency totals added
 * when it has bounds. Returns 0, or -1 with why in ERR (an event or
 * instance of an export line the device does not have; more IDs than
 * max_data_ids, or than a selection holds).
 */
int xcfg_select(const struct xcfg *c, const struct xcfg_device_caps *caps,
		struct xcfg_selection *sel, char *err, size_t errlen);

#endif /* MLX5_DIAG_EXPORTER_CONFIG_H */
