// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag exporter: the mlx5_diag devices' values for Prometheus,
 * served over HTTP (/metrics) or written for node_exporter's textfile
 * collector; counted (the default) or sampled at high resolution
 * (--sample). Devices are found, and lost, at run time; SIGHUP reloads
 * the configuration; SIGUSR1 writes the textfile (or --once's scrape) at
 * once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>
#include <perf/core.h>

#include "args.h"
#include "cli.h"
#include "clock_ns.h"
#include "counting.h"
#include "dashboard.h"
#include "exporter_config.h"
#include "exposition.h"
#include "fold.h"
#include "http_server.h"
#include "pmu.h"
#include "sampling.h"
#include "scrape.h"
#include "textfile.h"

#define RESCAN_NS	UINT64_C(1000000000)	/* devices looked for */
#define RETRY_NS	UINT64_C(5000000000)	/* a device that is down, again */
#define MAX_POLL_FDS	64

static const char exporter_usage[] =
"usage: mlx5-diag exporter [--config FILE] [options]\n"
"       mlx5-diag exporter --dashboard [--config FILE] [options]\n"
"\n"
"Export the devices' diagnostic data for Prometheus: /metrics over HTTP\n"
"(OpenMetrics 1.0 when the scraper asks for it, else the text format\n"
"0.0.4), or a file for node_exporter's textfile collector. Counts by\n"
"default (perf counting events, read at each scrape); with --sample,\n"
"samples every PERIOD and shows what a scrape cannot see: each counter's\n"
"peak rate over one sample period and each statistic's extreme since the\n"
"last scrape, the latency bins as a histogram. SIGHUP reloads FILE;\n"
"SIGUSR1 writes the textfile, or --once's scrape, at once.\n"
"\n"
"  -c, --config FILE     settings, one \"KEY VALUE\" a line (# comments); the\n"
"                        options below are its keys, and come after it\n"
"      --listen ADDR     PORT, :PORT, IPV4:PORT or [IPV6]:PORT (default :9855)\n"
"      --max-connections N  at once, 1-1024 (default 16)\n"
"      --timeout TIME    close a connection idle this long (default 10s)\n"
"      --textfile DIR    write DIR/" TEXTFILE_NAME " every --interval instead\n"
"      --interval TIME   of the textfile, or of --once (default 15s)\n"
"      --sample PERIOD   sample every PERIOD (ns, or 200us, 1ms) and fold\n"
"      --device DEV      only this device (number, PMU or function);\n"
"                        repeatable; default every one\n"
"      --export 'EVENT [FIELD=VALUES]...'  export this event's instances\n"
"                        (port_rx_bytes port=0-1; a field left out: all);\n"
"                        repeatable; default: every port's bytes and\n"
"                        packets, the ICM cache, every link's reads\n"
"      --per-prio        allow per-priority events (and add the priority\n"
"                        bytes to the default set)\n"
"      --per-bin         allow the latency histogram bins (and add them)\n"
"      --histogram-le 'BOUND...'  the bins' upper bounds (times; seconds\n"
"                        without a unit): the bins as a histogram\n"
"      --once            print one scrape after --interval and exit\n"
"      --openmetrics     --once prints OpenMetrics\n"
"      --dashboard       print a Grafana dashboard of the metrics and exit\n"
"\n"
"exit status: 0 ok, 2 usage (a bad option or setting), 6 the dashboard\n"
"could not be written, 9 the server could not start\n";

/* One device: its PMU, what it exports and how it is read. */
struct xdev {
	char pmu[64];
	char function[128];
	char dir[PATH_MAX];
	char dialect[32];
	char firmware_version[32];
	int type, cpu;
	unsigned int freq_khz;
	struct xcfg_device_caps caps;
	int open;			/* counting or sampling */
	int up;
	char reason[32];		/* why not up, a label */
	char why[320];			/* why not up, logged */
	uint64_t tried_ns;		/* last open attempt, monotonic */
	uint64_t created_ns;		/* counts began, realtime */
	struct xcfg_selection sel;
	struct counting cnt;
	uint64_t *counts;
	struct sampling smp;
	struct fold fold;		/* smp's samples */
	struct xdev *next;
};

struct exporter {
	pthread_mutex_t lock;		/* devices and settings */
	struct xcfg cfg;
	const char *config_path;
	int argc;
	char **argv;			/* the options, applied after the file */
	struct xdev *devs;
	uint64_t scanned_ns;
};

static int libperf_quiet(enum libperf_print_level level, const char *fmt,
			 va_list ap)
{
	if (level > LIBPERF_ERR)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* ---- options ---- */

enum {
	OPT_LISTEN = 256, OPT_MAX_CONNECTIONS, OPT_TIMEOUT, OPT_TEXTFILE,
	OPT_INTERVAL, OPT_SAMPLE, OPT_DEVICE, OPT_EXPORT, OPT_PER_PRIO,
	OPT_PER_BIN, OPT_HISTOGRAM_LE, OPT_ONCE, OPT_OPENMETRICS, OPT_DASHBOARD,
};

/* ':' first: a missing value is ':', told apart from an unknown option */
#define SHORTOPTS	"+:c:h"

static const struct option exporter_longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "max-connections", required_argument, NULL, OPT_MAX_CONNECTIONS },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "per-prio", no_argument, NULL, OPT_PER_PRIO },
	{ "per-bin", no_argument, NULL, OPT_PER_BIN },
	{ "histogram-le", required_argument, NULL, OPT_HISTOGRAM_LE },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "openmetrics", no_argument, NULL, OPT_OPENMETRICS },
	{ "dashboard", no_argument, NULL, OPT_DASHBOARD },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct exporter_mode {
	const char *config;
	int once, openmetrics, dashboard, help;
};

/* The settings of ARGV (the file first, then the options) into C. */
static int settings(int argc, char **argv, const char *config, struct xcfg *c,
		    int once, char *err, size_t errlen)
{
	char why[400];
	int opt;

	xcfg_defaults(c);
	c->once = once;
	if (config && xcfg_load(c, config, err, errlen))
		return -1;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, SHORTOPTS, exporter_longopts, NULL)) != -1) {
		const struct option *o;

		if (opt < OPT_LISTEN || opt > OPT_HISTOGRAM_LE)
			continue;
		for (o = exporter_longopts; o->val != opt; o++)
			;
		if (xcfg_apply(c, o->name, o->has_arg ? optarg : NULL, 0, why,
			       sizeof(why))) {
			snprintf(err, errlen, "--%s", why);
			return -1;
		}
	}
	return xcfg_check(c, err, errlen);
}

/*
 * The mode options and the config path: ERR_EXIT_OK, or ERR_EXIT_USAGE
 * with the message said.
 */
static int parse_mode(int argc, char **argv, struct exporter_mode *m)
{
	int opt;

	memset(m, 0, sizeof(*m));
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, SHORTOPTS, exporter_longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			m->config = optarg;
			break;
		case OPT_ONCE:
			m->once = 1;
			break;
		case OPT_OPENMETRICS:
			m->openmetrics = 1;
			break;
		case OPT_DASHBOARD:
			m->dashboard = 1;
			break;
		case 'h':
			m->help = 1;
			break;
		case ':':
			return err_usage("exporter", "%s needs a value", argv[optind - 1]);
		case '?':
			return err_bad_option("exporter", exporter_longopts, optopt,
					      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return err_usage("exporter", "unexpected argument '%s'", argv[optind]);
	if (m->openmetrics && !m->once)
		return err_usage("exporter", "--openmetrics is for --once (a scraper "
				 "asks the server for it)");
	return ERR_EXIT_OK;
}

/* ---- devices ---- */

static void dev_log(const struct xdev *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void dev_log(const struct xdev *d, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_print("exporter", "%s (%s): %s", d->function, d->pmu, msg);
}

/*
 * The device's sampling session: every selected ID every PERIOD_NS, in
 * format 1 with the device clock, folded. 0 or a negative errno (ERR).
 */
static int dev_sampling_open(struct xdev *d, uint64_t period_ns, char *err,
			     size_t errlen)
{
	const char *events[sizeof(d->sel.kinds) / sizeof(d->sel.kinds[0])];
	struct sampling_spec sp = {
		.pmu_name = d->pmu, .type = d->type, .cpu = d->cpu,
		.period_ns = period_ns,
		.config1 = (uint64_t)MLX5_DIAG_MODE_REPETITIVE << MLX5_DIAG_MODE_LO |
			   (uint64_t)MLX5_DIAG_FORMAT_1 << MLX5_DIAG_OUT_FORMAT_LO |
			   (uint64_t)MLX5_DIAG_TS_FRC << MLX5_DIAG_TS_SOURCE_LO,
		.ids = d->sel.ids, .events = events, .nr = d->sel.nr,
		.sink = &fold_sink, .priv = &d->fold,
		.metrics = 1,	/* metrics.def's, for the fold's windows */
	};
	int ret;

	for (unsigned int i = 0; i < d->sel.nr; i++)
		events[i] = d->sel.kinds[i]->event;
	fold_init(&d->fold);
	ret = sampling_open(&d->smp, &sp, err, errlen);
	if (ret)
		fold_free(&d->fold);
	return ret;
}

static void dev_close(struct exporter *x, struct xdev *d)
{
	if (!d->open)
		return;
	if (x->cfg.sample_ns) {
		sampling_close(&d->smp);
		fold_free(&d->fold);
	} else
		counting_close(&d->cnt);
	free(d->counts);
	d->counts = NULL;
	d->open = 0;
}

/* D is down for REASON; WHY logged when it changes. */
static void dev_down(struct xdev *d, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void dev_down(struct xdev *d, const char *reason, const char *fmt, ...)
{
	char why[sizeof(d->why)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (d->up || strcmp(why, d->why))
		dev_log(d, "down (%s): %s", reason, why);
	d->up = 0;
	snprintf(d->reason, sizeof(d->reason), "%s", reason);
	memcpy(d->why, why, sizeof(why));
}

static const char *errno_reason(int e)
{
	switch (e) {
	case EBUSY:
		return "busy";
	case ENODEV:
		return "removed";
	case EOPNOTSUPP:
		return "unsupported";
	case ENOSPC:
		return "too_many_ids";
	case EACCES:
	case EPERM:
		return "permission";
	case EINVAL:
		return "refused";
	case ENOMEM:
		return "no_memory";
	case ENOENT:
		return "no_pmu";
	}
	return "error";
}

static unsigned int cap_u32(const struct xdev *d, const char *name)
{
	char dir[PATH_MAX + 8];

	snprintf(dir, sizeof(dir), "%s/caps", d->dir);
	return (unsigned int)pmu_read_u64(dir, name, UINT32_MAX);
}

/* The kinds D's events/ has ("kind=0x..." terms) into CAPS. */
static void read_kinds(const struct xdev *d, struct xcfg_device_caps *caps)
{
	char dir[PATH_MAX + 8], line[256];
	struct dirent *e;
	uint64_t kind;
	DIR *dh;

	snprintf(dir, sizeof(dir), "%s/events", d->dir);
	dh = opendir(dir);
	caps->nr_kinds = 0;
	while (dh && (e = readdir(dh)) && caps->nr_kinds < XCFG_MAX_KINDS) {
		const char *term;

		if (e->d_name[0] == '.' || strchr(e->d_name, '.') ||
		    pmu_read_line(dir, e->d_name, line, sizeof(line)))
			continue;
		term = strstr(line, "kind=");
		if (term && sscanf(term + 5, "%" SCNx64, &kind) == 1)
			caps->kinds[caps->nr_kinds++] = (uint32_t)kind;
	}
	if (dh)
		closedir(dh);
}

/* Read D's capabilities and open what the settings select on it. */
static void dev_open(struct exporter *x, struct xdev *d)
{
	char err[512], dir[PATH_MAX + 8];
	int ret;

	d->tried_ns = clock_now_ns(CLOCK_MONOTONIC);
	snprintf(dir, sizeof(dir), "%s/caps", d->dir);
	if (pmu_read_line(dir, "dialect", d->dialect, sizeof(d->dialect)))
		snprintf(d->dialect, sizeof(d->dialect), "unknown");
	if (pmu_read_line(d->dir, "firmware_version", d->firmware_version,
			 sizeof(d->firmware_version)))
		snprintf(d->firmware_version, sizeof(d->firmware_version), "unknown");
	d->freq_khz = cap_u32(d, "device_frequency_khz");
	d->caps = (struct xcfg_device_caps){
		.num_ports = cap_u32(d, "num_ports"),
		.num_hosts = cap_u32(d, "num_hosts"),
		.num_functions = cap_u32(d, "num_functions"),
		.num_pcie_links = cap_u32(d, "num_pcie_links"),
		.max_data_ids = cap_u32(d, "max_data_ids"),
	};
	read_kinds(d, &d->caps);
	if (strcmp(d->dialect, "model64")) {
		dev_down(d, "dialect", "the exporter knows the data IDs of the "
			 "model64 dialect; the device speaks %s", d->dialect);
		return;
	}
	if (xcfg_select(&x->cfg, &d->caps, &d->sel, err, sizeof(err))) {
		dev_down(d, "config", "%s", err);
		return;
	}
	d->counts = calloc(d->sel.nr ? d->sel.nr : 1, sizeof(*d->counts));
	if (!d->counts) {
		dev_down(d, "no_memory", "out of memory");
		return;
	}
	if (x->cfg.sample_ns)
		ret = dev_sampling_open(d, x->cfg.sample_ns, err, sizeof(err));
	else
		ret = counting_open(&d->cnt, d->type, d->cpu, &d->sel, err, sizeof(err));
	if (ret) {
		free(d->counts);
		d->counts = NULL;
		dev_down(d, errno_reason(-ret), "%s", err);
		return;
	}
	d->open = 1;
	d->up = 1;
	d->reason[0] = '\0';
	d->why[0] = '\0';
	d->created_ns = clock_now_ns(CLOCK_REALTIME);
	if (x->cfg.sample_ns)
		dev_log(d, "up: sampling %u data IDs every %" PRIu64 " ns", d->sel.nr,
			x->cfg.sample_ns);
	else
		dev_log(d, "up: counting %u data IDs", d->sel.nr);
}

/* Whether the settings export PMU P (its number, name or function). */
static int wanted(const struct xcfg *c, const struct pmu *p)
{
	char num[16];
	unsigned int i;

	if (!c->nr_devices)
		return 1;
	snprintf(num, sizeof(num), "%u", p->number);
	for (i = 0; i < c->nr_devices; i++)
		if (!strcmp(c->devices[i], num) || !strcmp(c->devices[i], p->name) ||
		    !strcmp(c->devices[i], p->function))
			return 1;
	return 0;
}

static void dev_remove(struct exporter *x, struct xdev **link)
{
	struct xdev *d = *link;

	dev_close(x, d);
	dev_log(d, "gone: its series end");
	*link = d->next;
	free(d);
}

/*
 * Devices as sysfs has them now: new ones added and opened, gone ones
 * (their PMU left, or kept with engine/state gone) removed, down ones
 * retried now and then, and a counting engine another agent took shown
 * down until it comes back.
 */
static void rescan(struct exporter *x)
{
	uint64_t now = clock_now_ns(CLOCK_MONOTONIC);
	struct pmu *pmus = NULL;
	struct xdev *d, **link;
	char err[256], state[32];
	int n, i;

	x->scanned_ns = now;
	n = pmu_scan(pmu_sysfs_root(), &pmus, err, sizeof(err));
	if (n < 0) {
		err_print("exporter", "%s", err);
		n = 0;
	}
	for (link = &x->devs; (d = *link);) {
		for (i = 0; i < n; i++)
			if (!strcmp(pmus[i].name, d->pmu) &&
			    !strcmp(pmus[i].function, d->function) && !pmus[i].gone &&
			    wanted(&x->cfg, &pmus[i]))
				break;
		if (i == n) {
			dev_remove(x, link);
			continue;
		}
		link = &d->next;
	}
	for (i = 0; i < n; i++) {
		if (pmus[i].gone || !wanted(&x->cfg, &pmus[i]))
			continue;
		for (d = x->devs; d; d = d->next)
			if (!strcmp(pmus[i].name, d->pmu) &&
			    !strcmp(pmus[i].function, d->function))
				break;
		if (!d) {
			d = calloc(1, sizeof(*d));
			if (!d) {
				err_print("exporter", "out of memory");
				break;
			}
			snprintf(d->pmu, sizeof(d->pmu), "%s", pmus[i].name);
			snprintf(d->function, sizeof(d->function), "%s", pmus[i].function);
			snprintf(d->dir, sizeof(d->dir), "%s", pmus[i].dir);
			d->up = 1;	/* dev_down() logs the first failure */
			for (link = &x->devs; *link; link = &(*link)->next)
				;
			*link = d;
		}
		d->type = pmus[i].type;
		d->cpu = pmu_first_cpu(&pmus[i]);
		if (!d->open && (d->up || now - d->tried_ns >= RETRY_NS))
			dev_open(x, d);
		if (!d->open || x->cfg.sample_ns)
			continue;
		/* counting: the engine taken by another agent stops the counts */
		if (!pmu_read_line(d->dir, "engine/state", state, sizeof(state)) &&
		    !strcmp(state, "foreign"))
			dev_down(d, "engine_taken", "another agent has the engine; "
				 "the counts stop until it lets go");
		else if (!d->up) {
			d->up = 1;
			dev_log(d, "up again: the engine is the driver's");
		}
	}
	pmu_scan_free(pmus, n);
}

/* Fold what the sessions delivered; a session that ended is closed. */
static void drain(struct exporter *x)
{
	char why[320];
	const char *reason;
	struct xdev *d;

	if (!x->cfg.sample_ns)
		return;
	for (d = x->devs; d; d = d->next) {
		if (!d->open || !sampling_drain(&d->smp, &reason, why, sizeof(why)))
			continue;
		dev_close(x, d);
		dev_down(d, reason, "%s", why);
		d->tried_ns = clock_now_ns(CLOCK_MONOTONIC);
	}
}

/* ---- scrapes ---- */

/* Every device's families into S; under X->lock. */
static int collect_locked(struct exporter *x, struct expo_set *s)
{
	struct fold_view *views;
	struct xdev *d;
	unsigned int nr = 0, i = 0;
	int ret = 0;

	drain(x);
	for (d = x->devs; d; d = d->next)
		nr++;
	views = calloc(nr ? nr : 1, sizeof(*views));
	if (!views)
		return -1;
	scrape_begin(s);
	for (d = x->devs; d; d = d->next, i++) {
		struct scrape_device sd = {
			.device = d->function, .pmu = d->pmu,
			.firmware_version = d->firmware_version, .dialect = d->dialect,
			.freq_khz = d->freq_khz, .up = d->up, .reason = d->reason,
			.sel = &d->sel, .counts = d->counts,
			.created_ns = d->created_ns,
		};
		int e = d->up && !x->cfg.sample_ns ? counting_read(&d->cnt, d->counts) : 0;

		if (e) {
			dev_down(d, "read_error", "reading the counts: %s", strerror(-e));
			sd.up = 0;
			sd.reason = d->reason;
		}
		if (d->up && x->cfg.sample_ns) {
			if (fold_take(&d->fold, &views[i])) {
				ret = -1;
				break;
			}
			sd.fold = &views[i];
		}
		if (scrape_device(s, &x->cfg, &sd)) {
			ret = -1;
			break;
		}
	}
	for (i = 0; i < nr; i++)
		fold_view_free(&views[i]);
	free(views);
	return ret;
}

static int collect(void *ctx, enum expo_format format, char **text, size_t *len,
		   char *err, size_t errlen)
{
	struct exporter *x = ctx;
	struct expo_set s;
	int ret;

	expo_set_init(&s);
	pthread_mutex_lock(&x->lock);
	ret = collect_locked(x, &s);
	pthread_mutex_unlock(&x->lock);
	if (!ret)
		ret = expo_render(&s, format, text, len);
	if (ret)
		snprintf(err, errlen, "%s", s.err[0] ? s.err : "out of memory");
	expo_set_free(&s);
	return ret;
}

/* ---- the loop ---- */

/* SIGHUP: the file read again; what changed reopens the devices. */
static void reload(struct exporter *x)
{
	struct xcfg next;
	const char *restart;
	struct xdev *d;
	char err[512];

	if (settings(x->argc, x->argv, x->config_path, &next, x->cfg.once, err,
		     sizeof(err))) {
		err_print("exporter", "reload: %s; the running settings stay", err);
		return;
	}
	restart = xcfg_restart_needed(&x->cfg, &next);
	if (restart) {
		err_print("exporter", "reload: %s changed, which only a restart applies; "
			  "nothing reloaded", restart);
		return;
	}
	pthread_mutex_lock(&x->lock);
	x->cfg = next;
	for (d = x->devs; d; d = d->next) {
		dev_close(x, d);
		d->up = 1;
		d->why[0] = '\0';
	}
	rescan(x);
	pthread_mutex_unlock(&x->lock);
	err_print("exporter", "reloaded %s", x->config_path ? x->config_path : "the options");
}

/* The textfile or --once: one exposition written. */
static int write_exposition(struct exporter *x, enum expo_format format)
{
	char err[512], *text;
	size_t len;
	int ret;

	if (collect(x, format, &text, &len, err, sizeof(err))) {
		err_print("exporter", "the exposition failed: %s", err);
		return -1;
	}
	if (x->cfg.once) {
		ret = fwrite(text, 1, len, stdout) == len && !fflush(stdout) ? 0 : -1;
		if (ret)
			err_print("exporter", "writing the exposition: %s", strerror(errno));
	} else {
		ret = textfile_write(x->cfg.textfile, TEXTFILE_NAME, text, len, err,
				     sizeof(err));
		if (ret)
			err_print("exporter", "%s", err);
	}
	free(text);
	return ret;
}

/*
 * A session whose leader hangs up (POLLHUP, POLLERR) though its stream
 * said nothing of an end: closed, so that poll() does not spin on it.
 */
static void hung_up(struct exporter *x, int fd)
{
	struct xdev *d;

	for (d = x->devs; d; d = d->next) {
		if (!d->open || sampling_fd(&d->smp) != fd)
			continue;
		dev_close(x, d);
		dev_down(d, "hangup", "the session's event hung up");
		d->tried_ns = clock_now_ns(CLOCK_MONOTONIC);
		return;
	}
}

static int loop(struct exporter *x, int sigfd)
{
	uint64_t next_write = clock_now_ns(CLOCK_MONOTONIC) + x->cfg.interval_ns;
	int writes = x->cfg.textfile[0] || x->cfg.once;

	for (;;) {
		struct pollfd pfd[MAX_POLL_FDS];
		struct signalfd_siginfo si;
		uint64_t now = clock_now_ns(CLOCK_MONOTONIC), wait = RESCAN_NS;
		unsigned int n = 1, i;
		struct xdev *d;

		pfd[0] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		pthread_mutex_lock(&x->lock);
		for (d = x->devs; d && n < MAX_POLL_FDS; d = d->next)
			if (d->open && x->cfg.sample_ns)
				pfd[n++] = (struct pollfd){ .fd = sampling_fd(&d->smp),
							    .events = POLLIN };
		pthread_mutex_unlock(&x->lock);
		if (writes)
			wait = next_write > now ? next_write - now : 0;
		if (wait > RESCAN_NS)
			wait = RESCAN_NS;
		poll(pfd, n, (int)(wait / 1000000) + 1);
		if ((pfd[0].revents & POLLIN) &&
		    read(sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGHUP) {
				reload(x);
			} else if (si.ssi_signo == SIGUSR1) {
				/* a window ends now: the next write is now */
				if (writes)
					next_write = clock_now_ns(CLOCK_MONOTONIC);
			} else {
				err_print("exporter", "stopping (signal %u)", si.ssi_signo);
				return ERR_EXIT_OK;
			}
		}
		pthread_mutex_lock(&x->lock);
		drain(x);
		for (i = 1; i < n; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				hung_up(x, pfd[i].fd);
		if (clock_now_ns(CLOCK_MONOTONIC) - x->scanned_ns >= RESCAN_NS)
			rescan(x);
		pthread_mutex_unlock(&x->lock);
		if (writes && clock_now_ns(CLOCK_MONOTONIC) >= next_write) {
			next_write = clock_now_ns(CLOCK_MONOTONIC) + x->cfg.interval_ns;
			if (write_exposition(x, x->cfg.once == 2 ? EXPO_OPENMETRICS :
					     EXPO_PROMETHEUS) && x->cfg.once)
				return ERR_EXIT_OUTPUT;
			if (x->cfg.once)
				return ERR_EXIT_OK;
		}
	}
}

int cmd_exporter(int argc, char **argv)
{
	struct exporter x = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct http_server *srv = NULL;
	struct exporter_mode m;
	char err[512];
	sigset_t sigs;
	int sigfd, ret;
	struct xdev *d;

	ret = parse_mode(argc, argv, &m);
	if (ret)
		return ret;
	if (m.help) {
		fputs(exporter_usage, stdout);
		return ERR_EXIT_OK;
	}
	if (settings(argc, argv, m.config, &x.cfg, m.once ? 1 + m.openmetrics : 0,
		     err, sizeof(err)))
		return err_usage("exporter", "%s", err);
	if (m.dashboard)
		return dashboard_write(stdout, &x.cfg) ? ERR_EXIT_OUTPUT : ERR_EXIT_OK;
	x.config_path = m.config;
	x.argc = argc;
	x.argv = argv;
	libperf_init(libperf_quiet);

	/* signals arrive on a descriptor; every thread started later blocks them */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (sigfd < 0) {
		err_print("exporter", "signalfd: %s", strerror(errno));
		return ERR_EXIT_CMD;
	}
	pthread_mutex_lock(&x.lock);
	rescan(&x);
	pthread_mutex_unlock(&x.lock);
	if (!x.cfg.textfile[0] && !x.cfg.once) {
		struct http_opts o = {
			.listen = x.cfg.listen,
			.max_connections = x.cfg.max_connections,
			.timeout_s = x.cfg.timeout_s,
		};

		srv = http_start(&o, collect, &x, err, sizeof(err));
		if (!srv) {
			err_print("exporter", "%s: %s", x.cfg.listen_text, err);
			ret = ERR_EXIT_CMD;
			goto out;
		}
		err_print("exporter", "serving http://%s%s (port %u)", x.cfg.listen_text,
			  HTTP_PATH, http_port(srv));
	}
	ret = loop(&x, sigfd);
out:
	http_stop(srv);
	pthread_mutex_lock(&x.lock);
	while ((d = x.devs)) {
		x.devs = d->next;
		dev_close(&x, d);
		free(d);
	}
	pthread_mutex_unlock(&x.lock);
	close(sigfd);
	return ret;
}
