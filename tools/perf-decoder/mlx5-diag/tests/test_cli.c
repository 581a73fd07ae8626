// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the CLI: time and number parsing, PMU discovery and event
 * strings against the fake sysfs tree in tests/sysfs ($MD_TESTDATA), record,
 * doca and exporter argument parsing, the AUX stream counter, reading a perf
 * event's mapped rings, and doctor's judgement of the firmware from what its
 * runs saw.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>
#include <linux/perf_event.h>

#include "../args.h"
#include "../cli.h"
#include "../count.h"
#include "../doca.h"
#include "../doctor.h"
#include "../perf_ring.h"
#include "../pmu.h"
#include "../record.h"
#include "../tprecord.h"
#include "tap.h"

static void test_time(void)
{
	static const struct { const char *s; uint64_t ns; } good[] = {
		{ "200us", 200000 }, { "1ms", 1000000 }, { "100000ns", 100000 },
		{ "1s", 1000000000 }, { "100000", 100000 }, { "0x10", 0 },
	};
	static const char *const bad[] = { "", "ms", "1.5ms", "10xs", "-1", "0",
		"0ms", " 1ms", "1 ms", "18446744073709551615s", "99999999999999999999" };
	uint64_t v;

	for (size_t i = 0; i < 5; i++) {
		v = 0;
		OK(!args_parse_time(good[i].s, 1, 0, &v) && v == good[i].ns,
		   "period '%s' is %" PRIu64 " ns (got %" PRIu64 ")", good[i].s,
		   good[i].ns, v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		OK(args_parse_time(bad[i], 1, 0, &v), "period '%s' is refused", bad[i]);
	OK(args_parse_time("0x10", 1, 0, &v), "period in hex is refused");
	OK(!args_parse_time("2", 1000000000ull, 0, &v) && v == 2000000000ull,
	   "a duration without unit is in seconds");
	OK(!args_parse_time("0", 1, 1, &v) && v == 0, "zero where zero is allowed");

	/* decimal seconds, and why a time is refused */
	static const struct { const char *s; uint64_t unit, ns; } frac[] = {
		{ "0.4", 1000000000ull, 400000000ull },
		{ "1.5s", 1, 1500000000ull },
		{ "2.25", 1000000000ull, 2250000000ull },
		{ "0.000000001", 1000000000ull, 1 },
		{ "18446744073.709551615", 1000000000ull, UINT64_MAX },
	};
	static const struct { const char *s, *why; } why[] = {
		{ "-0.4", "negative" }, { "abc", "not a number" },
		{ "1.", "not a number" }, { ".5", "not a number" },
		{ "0.4x", "unknown unit" }, { "1.5ms", "a fraction only in seconds" },
		{ "0.0000000001", "finer than 1 ns" },
		{ "18446744073.709551616", "too large" }, { "18446744074", "too large" },
		{ "99999999999999999999", "too large" }, { "0.0", "zero" },
	};
	for (size_t i = 0; i < sizeof(frac) / sizeof(frac[0]); i++) {
		v = 0;
		OK(!args_parse_time(frac[i].s, frac[i].unit, 0, &v) && v == frac[i].ns,
		   "time '%s' is %" PRIu64 " ns (got %" PRIu64 ")", frac[i].s,
		   frac[i].ns, v);
	}
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		const char *got = args_parse_time(why[i].s, 1000000000ull, 0, &v);

		OK(got && !strcmp(got, why[i].why), "time '%s' refused as %s: %s",
		   why[i].s, why[i].why, got ? got : "accepted");
	}

	OK(!args_parse_u64("0x1f", 31, &v) && v == 31, "u64 hex at its max");
	OK(args_parse_u64("0x20", 31, &v), "u64 over its max");
	OK(args_parse_u64("0x", 31, &v), "u64 '0x' alone");
	OK(args_parse_u64("12a", 1000, &v), "u64 trailing junk");
	OK(args_parse_u64("-1", UINT64_MAX, &v), "u64 negative");
	OK(!args_parse_u64("18446744073709551615", UINT64_MAX, &v) && v == UINT64_MAX,
	   "u64 max");
	OK(args_parse_u64("18446744073709551616", UINT64_MAX, &v), "u64 overflow");
}

static void test_format(void)
{
	struct pmu_field f;

	OK(!pmu_parse_format("config:0-7", &f) && f.word == 0 && f.lo == 0 && f.hi == 7,
	   "format config:0-7");
	OK(!pmu_parse_format("config1:63", &f) && f.word == 1 && f.lo == 63 && f.hi == 63,
	   "format config1:63");
	OK(!pmu_parse_format("config2:0-63", &f) && f.word == 2, "format config2:0-63");
	OK(pmu_parse_format("config3:0", &f), "format config3 refused");
	OK(pmu_parse_format("config:7-0", &f), "format reversed range refused");
	OK(pmu_parse_format("config:64", &f), "format bit 64 refused");
	OK(pmu_parse_format("config:0-7,32-35", &f), "format split range refused");
	OK(pmu_parse_format("config0-7", &f), "format without colon refused");
}

static struct pmu *pmus;
static int nr_pmus;

static void test_scan(const char *root)
{
	char err[512];

	nr_pmus = pmu_scan(root, &pmus, err, sizeof(err));
	EQ_INT(nr_pmus, 2, "two mlx5_diag PMUs in the fake tree (%s)", err);
	if (nr_pmus != 2)
		exit(tap_done());
	EQ_STR(pmus[0].name, "mlx5_diag_0", "sorted by number");
	EQ_INT(pmus[0].type, 42, "type of mlx5_diag_0");
	EQ_STR(pmus[1].function, "0000:08:00.0", "function of mlx5_diag_1");
	EQ_STR(pmus[1].cpumask, "1", "cpumask of mlx5_diag_1");
	EQ_INT(pmus[0].nr_fields, 17, "format fields of mlx5_diag_0");

	EQ_INT(pmu_pick(pmus, 2, "0", err, sizeof(err)), 0, "pick by number 0");
	EQ_INT(pmu_pick(pmus, 2, "1", err, sizeof(err)), 1, "pick by number 1");
	EQ_INT(pmu_pick(pmus, 2, "mlx5_diag_1", err, sizeof(err)), 1, "pick by name");
	EQ_INT(pmu_pick(pmus, 2, "sim:0", err, sizeof(err)), 0, "pick by function");
	EQ_INT(pmu_pick(pmus, 2, "0000:08:00.0", err, sizeof(err)), 1,
	       "pick by PCI address");
	EQ_INT(pmu_pick(pmus, 2, "08:00.0", err, sizeof(err)), 1,
	       "pick by PCI address without domain");
	EQ_INT(pmu_pick(pmus, 2, "2", err, sizeof(err)), -1, "no PMU 2");
	OK(strstr(err, "no mlx5_diag device '2'") != NULL, "the error names it: %s", err);
	EQ_INT(pmu_pick(pmus, 2, "0x1", err, sizeof(err)), -1, "no hex device numbers");
	EQ_INT(pmu_pick(pmus, 2, NULL, err, sizeof(err)), -1, "two devices need -d");
	EQ_INT(pmu_pick(pmus, 1, NULL, err, sizeof(err)), 0, "one device is the default");
	EQ_INT(pmu_pick(pmus, 0, "0", err, sizeof(err)), -1, "no devices at all");
	OK(strstr(err, "module loaded") != NULL, "the error says what to check: %s", err);
}

/* pmu_first_cpu of a PMU whose cpumask reads MASK */
static int first_cpu_of(const char *mask)
{
	struct pmu p = { 0 };

	snprintf(p.cpumask, sizeof(p.cpumask), "%s", mask);
	return pmu_first_cpu(&p);
}

static void test_first_cpu(void)
{
	EQ_INT(first_cpu_of("1"), 1, "the CPU of a one-CPU cpumask");
	EQ_INT(first_cpu_of("12"), 12, "CPU 12");
	EQ_INT(first_cpu_of("0-3,8"), 0, "a list: its first CPU");
	EQ_INT(first_cpu_of("4,6"), 4, "a list of two: the first");
	EQ_INT(first_cpu_of(""), -1, "an empty cpumask: none");
	EQ_INT(first_cpu_of("x"), -1, "not a CPU list: none");
	EQ_INT(first_cpu_of("-1"), -1, "a negative number: none");
	EQ_INT(first_cpu_of("3x"), -1, "trailing garbage: none");
	EQ_INT(first_cpu_of("99999999999"), -1, "past INT_MAX: none");
}

static void test_events(void)
{
	static const struct {
		const char *s;
		uint64_t c0, c1, c2;
	} good[] = {
		{ "port_rx_bytes,port=1", 0x1020000100000001ull, 0, 0 },
		{ "port_prio_tx_bytes,port=1,prio=3", 0x1140000200000301ull, 0, 0 },
		{ "port_prio_tx_bytes,prio=0xf,port=255", 0x1140000200000fffull, 0, 0 },
		{ "icmc_hits", 0x1180000200000000ull, 0, 0 },
		{ "config=0x1180000200000000", 0x1180000200000000ull, 0, 0 },
		{ "data_id=0x1140000200000301", 0x1140000200000301ull, 0, 0 },
		{ "kind=0x11800002", 0x1180000200000000ull, 0, 0 },
		{ "icmc_hits,period_ns=1000", 0x1180000200000000ull, 0, 1000 },
		{ "icmc_hits,force=1,mode=2", 0x1180000200000000ull,
		  (1ull << 63) | 2, 0 },
		{ "pcie_read_latency_hist_packets,link_xx=1,bin=9", 0x1160000f00090001ull, 0, 0 },
		{ "icmc_hits,kind=0x11800003", 0x1180000300000000ull, 0, 0 },
		{ "config=1,config1=2,config2=3", 1, 2, 3 },
	};
	static const struct { const char *s, *msg; } bad[] = {
		{ "port_rx_bytes", "needs port=N" },
		{ "port_prio_tx_bytes,port=1", "needs prio=N" },
		{ "port_rx_bytes,port=256", "does not fit in 8 bits" },
		{ "port_rx_bytes,port=?", "needs port=N" },
		{ "port_rx_bytes,port=x", "is not a number" },
		{ "port_rx_bytes,port=-1", "is not a number" },
		{ "nosuch", "has no event 'nosuch'" },
		{ "port_rx_bytes.unit", "has no event" },
		{ "port_rx_bytes,bogus=1", "has no field 'bogus'" },
		{ "mlx5_diag_0/icmc_hits/", "bad event" },
		{ "icmc_hits,", "bad event" },
		{ ",icmc_hits", "bad event" },
		{ "icmc_hits,,port=1", "bad event" },
		{ "", "bad event" },
		{ "icmc_hits,port", "is not FIELD=VALUE" },
		{ "=5", "is not FIELD=VALUE" },
		{ "prio=16", "does not fit in 4 bits" },
	};
	uint64_t cfg[3];
	char err[512];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int r = pmu_parse_event(&pmus[0], good[i].s, cfg, err, sizeof(err));

		OK(!r && cfg[0] == good[i].c0 && cfg[1] == good[i].c1 && cfg[2] == good[i].c2,
		   "event '%s' (%s)", good[i].s, r ? err : "parsed");
		if (!r && (cfg[0] != good[i].c0 || cfg[1] != good[i].c1 || cfg[2] != good[i].c2))
			printf("#   got 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n",
			       cfg[0], cfg[1], cfg[2]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = pmu_parse_event(&pmus[0], bad[i].s, cfg, err, sizeof(err));

		OK(r && strstr(err, bad[i].msg), "event '%s' refused: %s", bad[i].s,
		   r ? err : "(accepted)");
	}
}

static int parse(struct record_opts *o, char *err, const char *first, ...)
{
	static char *argv[32];	/* o->cmd points into it */
	int argc = 0;
	va_list ap;
	const char *a;

	argv[argc++] = (char *)"record";
	va_start(ap, first);
	for (a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return record_parse(argc, argv, o, err, 256);
}

static void test_record_args(void)
{
	struct record_opts o;
	char err[256];
	int r;

	r = parse(&o, err, "-e", "icmc_hits", NULL);
	EQ_INT(r, ERR_EXIT_OK, "record -e icmc_hits (%s)", err);
	EQ_U64(o.period_ns, RECORD_DEFAULT_PERIOD_NS, "default period");
	EQ_INT(o.mode, MLX5_DIAG_MODE_DEFAULT, "default mode");
	EQ_INT(o.aux_pages, RECORD_DEFAULT_AUX_PAGES, "default AUX pages");
	EQ_STR(o.output, RECORD_DEFAULT_OUTPUT, "default output");
	EQ_INT(o.clockid, CLOCK_MONOTONIC, "default clock monotonic");
	OK(o.cmd == NULL && o.dev == NULL, "no command, no device");

	r = parse(&o, err, "-d", "sim:1", "-e", "port_rx_bytes,port=0", "-e", "icmc_hits",
		  "-p", "200us", "-m", "single", "--sync", "--clear", "--format", "2",
		  "--ts", "rtc", "--force", "--clockid", "boottime", "-a", "64", "-o",
		  "/tmp/x", "-q", "--duration", "500ms", "--", "sleep", "1", NULL);
	EQ_INT(r, ERR_EXIT_OK, "every record option (%s)", err);
	EQ_STR(o.dev, "sim:1", "-d");
	EQ_INT(o.nr_events, 2, "two -e");
	EQ_STR(o.events[0], "port_rx_bytes,port=0", "the first -e leads");
	EQ_U64(o.period_ns, 200000, "-p 200us");
	EQ_INT(o.mode, MLX5_DIAG_MODE_SINGLE, "-m single");
	OK(o.sync && o.clear && o.force && o.quiet, "--sync --clear --force -q");
	EQ_INT(o.format, 2, "--format 2");
	EQ_INT(o.ts, MLX5_DIAG_TS_RTC, "--ts rtc");
	EQ_INT(o.clockid, CLOCK_BOOTTIME, "--clockid boottime");
	EQ_INT(o.aux_pages, 64, "-a 64");
	EQ_U64(o.duration_ns, 500000000ull, "--duration 500ms");
	OK(o.cmd && !strcmp(o.cmd[0], "sleep") && !strcmp(o.cmd[1], "1"), "the command");

	r = parse(&o, err, "-e", "icmc_hits", "true", "-x", NULL);
	OK(r == ERR_EXIT_OK && o.cmd && !strcmp(o.cmd[1], "-x"),
	   "options after the command are the command's");

	static const struct { const char *a1, *a2, *msg; } bad[] = {
		{ "-p", "1.5ms", "bad period" }, { "-p", "0", "bad period" },
		{ "-m", "on_demand", "bad mode" }, { "--format", "3", "bad format" },
		{ "--ts", "tsc", "bad timestamp source" }, { "-a", "3", "power of 2" },
		{ "-a", "0", "power of 2" }, { "--clockid", "cpu", "bad clock" },
		{ "--duration", "0", "bad duration" }, { "-o", "", "empty output" },
		{ "--bogus", NULL, "unknown option '--bogus'" },
		{ "--clear", NULL, "--clear needs --sync" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = parse(&o, err, "-e", "icmc_hits", bad[i].a1, bad[i].a2, NULL);
		OK(r == ERR_EXIT_USAGE && strstr(err, bad[i].msg), "record %s %s refused: %s",
		   bad[i].a1, bad[i].a2 ? bad[i].a2 : "", err);
	}
	r = parse(&o, err, "-e", "icmc_hits", "--duration", "0.4", NULL);
	OK(r == ERR_EXIT_OK && o.duration_ns == 400000000ull,
	   "--duration 0.4 is 0.4 s: %s", err);
	r = parse(&o, err, "-e", "icmc_hits", "--duration", "-1", NULL);
	OK(r == ERR_EXIT_USAGE && strstr(err, "bad duration '-1': negative"),
	   "--duration -1 refused: %s", err);
	r = parse(&o, err, "-e", "icmc_hits", "-p", "1.5ms", NULL);
	OK(r == ERR_EXIT_USAGE && strstr(err, "a fraction only in seconds"),
	   "-p 1.5ms refused, saying why: %s", err);
	r = parse(&o, err, "-p", "1ms", NULL);
	OK(r == ERR_EXIT_USAGE && strstr(err, "no event"), "no -e refused: %s", err);
	r = parse(&o, err, "-e", "icmc_hits", "-p", NULL);
	OK(r == ERR_EXIT_USAGE && strstr(err, "-p needs an argument"),
	   "-p without a value: %s", err);

	clockid_t id;
	const char *name;

	OK(!record_parse_clockid("CLOCK_MONOTONIC_RAW", &id, &name) &&
	   id == CLOCK_MONOTONIC_RAW && !strcmp(name, "monotonic_raw"), "clock by C name");
	OK(!record_parse_clockid("7", &id, &name) && id == CLOCK_BOOTTIME, "clock by number");
	OK(record_parse_clockid("2", &id, &name), "CPU-time clocks refused");
	OK(strstr(record_open_error_hint(EBUSY, 1), "another agent") != NULL,
	   "EBUSY says who may hold the engine");
	OK(strstr(record_open_error_hint(EACCES, 1), "CAP_PERFMON") != NULL,
	   "EACCES names the capability");
}

static int doca(struct doca_opts *d, char *err, const char *first, ...)
{
	static char *argv[40];	/* d's strings point into it */
	int argc = 0;
	va_list ap;
	const char *a;

	argv[argc++] = (char *)"doca";
	va_start(ap, first);
	for (a = first; a && argc < 39; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return doca_parse(argc, argv, d, err, 256);
}

static void test_doca_args(void)
{
	struct doca_opts d;
	char err[256];
	int r;

	r = doca(&d, err, "-p", "0000:08:00.0", NULL);
	EQ_INT(r, ERR_EXIT_OK, "doca -p (%s)", err);
	EQ_STR(d.output, "/tmp/out.csv", "DOCA default output");
	EQ_INT(d.run_time_s, 1, "DOCA default run time");
	EQ_U64(d.period_ns, 100000, "DOCA default period");
	EQ_INT(d.mode, 1, "DOCA default mode repetitive");
	EQ_INT(d.format, 1, "DOCA default output format 1");
	OK(!d.force && !d.data_ids && !d.reconfig_ns, "no force, ids, reconfig");

	r = doca(&d, err, "-p", "08:00.0", "-di", "/tmp/ids.json", "-o", "/tmp/o.csv",
		 "-rt", "3", "-sp", "200000", "-ns", "12", "-sr", "64", "-sm", "0",
		 "-of", "2", "-f", "-rs", "400000", "-l", "50", NULL);
	EQ_INT(r, ERR_EXIT_OK, "every DOCA flag, short (%s)", err);
	OK(!strcmp(d.pci, "08:00.0") && !strcmp(d.data_ids, "/tmp/ids.json") &&
	   !strcmp(d.output, "/tmp/o.csv"), "-p -di -o");
	OK(d.run_time_s == 3 && d.period_ns == 200000 && d.mode == 0 && d.format == 2 &&
	   d.force && d.reconfig_ns == 400000, "-rt -sp -sm -of -f -rs");
	OK(d.note_log_num && d.note_per_read && d.note_log && d.log_num_samples == 12 &&
	   d.samples_per_read == 64, "-ns -sr -l are noted as having no meaning here");

	r = doca(&d, err, "--pci-addr=sim:0", "--data-ids", "/x", "--output=/y",
		 "--sample-run-time", "2", "--sample-period=300000", "--sample-mode", "1",
		 "--output-format=0", "--force-ownership", "--reconfig-sample-period=5",
		 "--log-num-samples", "8", "--max-samples-per-read=16", "--sdk-log-level", "20",
		 NULL);
	EQ_INT(r, ERR_EXIT_OK, "every DOCA flag, long (%s)", err);
	OK(!strcmp(d.pci, "sim:0") && d.period_ns == 300000 && d.format == 0 &&
	   d.reconfig_ns == 5 && d.force && d.run_time_s == 2, "long forms with and without =");

	r = doca(&d, err, "-e", "/tmp/ex.json", NULL);
	OK(r == ERR_EXIT_OK && !strcmp(d.example, "/tmp/ex.json"), "-e needs no -p");

	static const struct { const char *a1, *a2, *msg; } bad[] = {
		{ "-sm", "2", "on-demand" }, { "-sm", "3", "not a number from 0 to 2" },
		{ "-of", "3", "not a number from 0 to 2" }, { "-j", "/x.json", "not supported" },
		{ "-ns", "256", "0 to 255" }, { "-sr", "300", "0 to 255" },
		{ "-sp", "0", "must not be 0" }, { "-sp", "1ms", "not a number" },
		{ "-x", NULL, "unknown flag '-x'" }, { "--force-ownership=1", NULL, "unknown flag" },
		{ "--pci", "x", "unknown flag" }, { "-rt", NULL, "needs a value" },
		{ "-o", "", "empty path" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = doca(&d, err, "-p", "sim:0", bad[i].a1, bad[i].a2, NULL);
		OK(r == ERR_EXIT_USAGE && strstr(err, bad[i].msg), "doca %s %s refused: %s",
		   bad[i].a1, bad[i].a2 ? bad[i].a2 : "", err);
	}
	r = doca(&d, err, "-sp", "1000", NULL);
	OK(r == ERR_EXIT_USAGE && strstr(err, "PCI address must be provided"),
	   "doca without -p: %s", err);
}

/* ---- exporter options ---- */

/*
 * `mlx5-diag exporter ARGS...` (NULL-terminated), its stderr into MSG
 * (LEN bytes): its exit status.
 */
static int exporter(char *msg, size_t len, ...)
{
	char path[] = "/tmp/mlx5diag-cli-test.XXXXXX";
	char *argv[16] = { "exporter" };
	int argc = 1, fd, save, ret;
	ssize_t n;
	va_list ap;

	va_start(ap, len);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	fd = mkstemp(path);
	fflush(stderr);
	save = dup(2);
	if (fd < 0 || save < 0 || dup2(fd, 2) < 0)
		abort();
	ret = cmd_exporter(argc, argv);
	fflush(stderr);
	if (dup2(save, 2) < 0)
		abort();
	close(save);
	n = pread(fd, msg, len - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return ret;
}

/* Refused before anything starts: the messages decode and plot give. */
static void test_exporter_args(void)
{
	static const struct { const char *a1, *a2, *msg; } bad[] = {
		{ "--bogus", NULL, "mlx5-diag exporter: unknown option --bogus\n" },
		{ "--once=1", NULL, "mlx5-diag exporter: option --once takes no value\n" },
		{ "-x", NULL, "mlx5-diag exporter: unknown option -x\n" },
		{ "--listen", NULL, "mlx5-diag exporter: --listen needs a value\n" },
		{ "-c", NULL, "mlx5-diag exporter: -c needs a value\n" },
		{ "--once", "extra", "mlx5-diag exporter: unexpected argument 'extra'\n" },
		{ "--openmetrics", NULL, "mlx5-diag exporter: --openmetrics is for "
		  "--once (a scraper asks the server for it)\n" },
		{ "--interval", "1s", "mlx5-diag exporter: interval: only the textfile "
		  "mode writes at intervals (a scrape reads when it comes)\n" },
	};
	char msg[512], want[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EQ_INT(exporter(msg, sizeof(msg), bad[i].a1, bad[i].a2, NULL),
		       ERR_EXIT_USAGE, "exporter %s %s refused", bad[i].a1,
		       bad[i].a2 ? bad[i].a2 : "");
		snprintf(want, sizeof(want), "%s(see mlx5-diag exporter --help)\n",
			 bad[i].msg);
		EQ_STR(msg, want, "its message");
	}
}

/* ---- the stream counter ---- */

static unsigned char stream[512];
static size_t stream_len;

static void put(const void *rec, size_t size)
{
	memcpy(stream + stream_len, rec, size);
	stream_len += size;
}

static void build_stream(void)
{
	unsigned char ses_buf[sizeof(struct mlx5_diag_rec_session) +
			     2 * sizeof(struct mlx5_diag_rec_id)] = { 0 };
	struct mlx5_diag_rec_session ses = { 0 };
	struct mlx5_diag_rec_time t = { 0 };
	struct {
		struct mlx5_diag_rec_samples s;
		unsigned char data[5 * 24];
	} smp = { 0 };
	struct mlx5_diag_rec_lost l = { 0 };
	struct mlx5_diag_rec_end e = { 0 };

	/* little-endian host assumed, as the test machines are */
	ses.hdr.type = MLX5_DIAG_REC_SESSION;
	ses.hdr.size = sizeof(ses_buf);
	ses.num_ids = 2;
	memcpy(ses_buf, &ses, sizeof(ses));
	put(ses_buf, sizeof(ses_buf));
	t.hdr.type = MLX5_DIAG_REC_TIME;
	t.hdr.size = sizeof(t);
	put(&t, sizeof(t));
	smp.s.hdr.type = MLX5_DIAG_REC_SAMPLES;
	smp.s.hdr.size = sizeof(smp);
	smp.s.nr_samples = 5;
	smp.s.sample_size = 24;
	put(&smp, sizeof(smp));
	l.hdr.type = MLX5_DIAG_REC_LOST;
	l.hdr.size = sizeof(l);
	l.count = 3;
	put(&l, sizeof(l));
	smp.s.nr_samples = 2;
	smp.s.hdr.size = sizeof(smp.s) + 2 * 24;
	put(&smp, smp.s.hdr.size);
	e.hdr.type = MLX5_DIAG_REC_END;
	e.hdr.size = sizeof(e);
	e.reason = MLX5_DIAG_END_REMOVED;
	put(&e, sizeof(e));
}

static int count_ok(const struct count_state *c)
{
	return c->samples == 7 && c->lost == 3 && c->runs == 1 && c->records == 6 &&
	       c->end_reason == MLX5_DIAG_END_REMOVED && !c->bad && !c->left && !c->have;
}

static void test_count(void)
{
	struct count_state c;
	size_t cut, bad_cuts = 0, i;

	build_stream();
	memset(&c, 0, sizeof(c));
	count_feed(&c, stream, stream_len);
	OK(count_ok(&c), "counter: 7 samples, 3 lost, 1 run, 6 records, END reason");
	for (cut = 0; cut <= stream_len; cut++) {
		memset(&c, 0, sizeof(c));
		count_feed(&c, stream, cut);
		count_feed(&c, stream + cut, stream_len - cut);
		bad_cuts += !count_ok(&c);
	}
	EQ_INT(bad_cuts, 0, "the same at every cut into two pieces");
	memset(&c, 0, sizeof(c));
	for (i = 0; i < stream_len; i++)
		count_feed(&c, stream + i, 1);
	OK(count_ok(&c), "the same fed byte by byte");

	memset(&c, 0, sizeof(c));
	stream[4] = 12;		/* the SESSION record's size: not a multiple of 8 */
	count_feed(&c, stream, stream_len);
	OK(c.bad && c.samples == 0, "a bad record size stops the count");
}

/* --tracepoint: repeatable, 16 at most; the tracefs lookup (fake tree) */
static void test_tracepoints(const char *tracefs)
{
	struct record_opts o;
	struct tp_event tp;
	char err[512];
	const char *argv[2 * RECORD_MAX_TRACEPOINTS + 8];
	int argc = 0, r, i;

	r = parse(&o, err, "-e", "icmc_hits", "-t", "sched:sched_switch",
		  "--tracepoint", "irq:irq_handler_entry", NULL);
	EQ_INT(r, ERR_EXIT_OK, "two tracepoints (%s)", err);
	EQ_INT(o.nr_tracepoints, 2, "-t and --tracepoint");
	EQ_STR(o.tracepoints[1], "irq:irq_handler_entry", "in order");
	argv[argc++] = "record";
	argv[argc++] = "-e";
	argv[argc++] = "icmc_hits";
	for (i = 0; i <= RECORD_MAX_TRACEPOINTS; i++) {
		argv[argc++] = "-t";
		argv[argc++] = "sched:sched_switch";
	}
	argv[argc] = NULL;
	r = record_parse(argc, (char **)argv, &o, err, sizeof(err));
	EQ_INT(r, ERR_EXIT_USAGE, "17 tracepoints are refused");
	OK(strstr(err, "at most 16 tracepoints") != NULL, "saying so: %s", err);

	setenv("MLX5_DIAG_TRACEFS", tracefs, 1);
	EQ_STR(tp_tracefs_events(), tracefs, "MLX5_DIAG_TRACEFS names the events dir");
	r = tp_lookup("sched:sched_switch", &tp, err, sizeof(err));
	EQ_INT(r, 0, "sched:sched_switch is found (%s)", err);
	EQ_U64(tp.id, 118, "its id");
	OK(tp.format && !strncmp(tp.format, "name: sched_switch\nID: 118\nformat:\n", 35),
	   "its format text");
	EQ_STR(tp.sys, "sched", "system");
	EQ_STR(tp.name, "sched_switch", "name");
	tp_free(&tp);
	r = tp_lookup("sched:nosuch", &tp, err, sizeof(err));
	EQ_INT(r, -1, "a missing tracepoint");
	OK(strstr(err, "no tracepoint sched:nosuch: ") && strstr(err, "No such file"),
	   "says which and why: %s", err);
	static const char *const bad[] = { "sched", "sched:", ":x", "a/b:c", "s:c d",
					   "sched:sched_switch:x" };
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		r = tp_lookup(bad[k], &tp, err, sizeof(err));
		OK(r == -1 && strstr(err, "bad tracepoint"), "'%s' is refused: %s",
		   bad[k], err);
	}
	unsetenv("MLX5_DIAG_TRACEFS");
}

/*
 * A run of 1.5 laps of a 2^11-sample buffer at 2^14 clocks on a 156.25 MHz
 * clock, as the default emulator gives it: every sample in sequence, one
 * timestamp each, the period as reported.
 */
static void good_run(struct doctor_run *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->period_ns = 104857;
	r->duration_ms = r->ran_ms = 330;
	r->enable_ns = 1000000000;
	r->have_session = 1;
	r->session.freq_khz = 156250;
	r->session.ts_source = MLX5_DIAG_TS_FRC;
	r->session.log_sample_period = 14;
	r->session.log_num_of_samples = 11;
	r->session.fw_sample_id_bits = 32;
	r->session.period_ns_actual = 104857;
	r->rows = 3072;
	r->last_seq = 3071;
	r->first_perf_time = r->enable_ns + 20000000;
	r->min_step[0] = r->max_step[0] = 16384;
	r->steps[0] = 3071;
	r->sample_id_bits = 32;
	snprintf(r->unit, sizeof(r->unit), "samples");
	snprintf(r->order, sizeof(r->order), "set");
}

/* The verdict and reading of assumption ID in F. */
static const struct doctor_finding *find(const struct doctor_finding *f,
					 const char *id)
{
	for (int i = 0; i < DOCTOR_FINDINGS; i++)
		if (!strcmp(f[i].id, id))
			return &f[i];
	return NULL;
}

/* Judge E: ID has verdict V (reading R, NULL: none), every other holds. */
static void expect_judged(const struct doctor_evidence *e, const char *id,
			  enum doctor_verdict v, const char *reading)
{
	struct doctor_finding f[DOCTOR_FINDINGS];
	const struct doctor_finding *x;
	unsigned int differ = doctor_judge(e, f), others = 0;

	x = find(f, id);
	OK(x && x->verdict == v, "%s: %s (got %s: %s)", id, doctor_verdict_name(v),
	   x ? doctor_verdict_name(x->verdict) : "none", x ? x->detail : "");
	OK(x && (reading ? x->reading && !strcmp(x->reading, reading) : !x->reading),
	   "%s reads '%s' (got '%s')", id, reading ? reading : "(default)",
	   x && x->reading ? x->reading : "(default)");
	for (int i = 0; i < DOCTOR_FINDINGS; i++)
		others += &f[i] != x && f[i].verdict != DV_HOLDS;
	EQ_INT(others, 0, "%s: every other assumption holds", id);
	EQ_INT(differ, v == DV_DIFFERS, "%s: the differing ones counted", id);
}

static void test_doctor_judge(void)
{
	struct doctor_run first, again, change;
	struct doctor_count count = { .unit = "samples", .order = "set" };
	struct doctor_evidence e = { .count = &count, .first = &first,
				     .again = &again, .change = &change };

	good_run(&first, "repetitive");
	good_run(&again, "again");
	good_run(&change, "period_change");
	change.ran_ms = 600;
	change.after_change_ms = 300;
	change.period_seen = 1;
	change.period_seq = 2000;
	change.period_ns_actual = 209715;
	change.rows = 3500;
	change.last_seq = 3499;
	change.rows_after_change = 1500;
	expect_judged(&e, "A1", DV_HOLDS, NULL);
	EQ_INT(doctor_step_ns(&first, 16384), 104857, "2^14 clocks in ns, rounded down");

	first.max_spread = 16383;
	first.unordered = 2000;
	expect_judged(&e, "A2", DV_HANDLED, "entry_jitter");
	first.max_spread = first.unordered = 0;

	/* the slot index: delivery stops at the end of the first lap */
	first.ran_ms = 520;
	first.last_seq = 2047;
	first.rows = 2048;
	first.engine[DC_BAD_SAMPLES] = 1;
	expect_judged(&e, "A1", DV_DIFFERS, "sample_id not a sequence");
	/* an entry stamped back: the drain stops inside the lap */
	first.last_seq = 4;
	first.rows = 5;
	{
		struct doctor_finding f[DOCTOR_FINDINGS];

		doctor_judge(&e, f);
		EQ_INT(find(f, "A2")->verdict, DV_DIFFERS, "a sample refused inside a lap: A2");
		EQ_INT(find(f, "A1")->verdict, DV_UNKNOWN, "and A1 cannot tell");
	}
	/* a lap's samples where a lap and a tenth were due: not the slot index */
	first.ran_ms = 237;
	first.last_seq = 2047;
	first.rows = 2048;
	first.engine[DC_BAD_SAMPLES] = 0;
	expect_judged(&e, "A1", DV_HOLDS, NULL);
	good_run(&first, "repetitive");

	/* a start the driver reckoned tells nothing about where it is */
	first.engine[DC_RECKONED_STARTS] = 1;
	expect_judged(&e, "A1", DV_UNKNOWN, NULL);
	first.engine[DC_RECKONED_STARTS] = 0;

	first.sample_id_bits = 16;
	expect_judged(&e, "A1", DV_HANDLED, "sample_id_bits");
	first.sample_id_bits = 32;
	first.lost[0] = 3;
	expect_judged(&e, "A1", DV_DIFFERS, "sample_id not a sequence");
	first.lost[0] = 0;

	first.min_step[0] = first.max_step[0] = 32768;
	expect_judged(&e, "A9", DV_DIFFERS, "period not reported");
	/* the driver learnt it from the samples: a PERIOD record before any change */
	first.period_learnt = 1;
	first.learnt_log = 15;
	first.learnt_ns = 209715;
	first.learnt_seq = 5;
	first.engine[DC_UNREPORTED_PERIODS] = 1;
	expect_judged(&e, "A9", DV_HANDLED, "period_unreported");
	first.max_step[0] = 65536;
	expect_judged(&e, "A9", DV_DIFFERS, "period not reported");
	first.period_learnt = 0;
	first.engine[DC_UNREPORTED_PERIODS] = 0;
	first.min_step[0] = first.max_step[0] = 16384;

	first.first_perf_time = first.enable_ns + 3600000000000ull;
	expect_judged(&e, "A4", DV_DIFFERS, "another epoch or rate");
	first.first_perf_time = first.enable_ns + 20000000;

	again.first_seq = 12;
	expect_judged(&e, "A5", DV_DIFFERS, "old samples in a new run");
	again.first_seq = 0;

	snprintf(first.unit, sizeof(first.unit), "entries");
	expect_judged(&e, "A7", DV_HANDLED, "num_samples_unit entries");
	snprintf(first.unit, sizeof(first.unit), "samples");

	/* the numbering restarted at the change: two samples, then none */
	change.rows_after_change = 2;
	change.last_seq = 2001;
	expect_judged(&e, "A8", DV_DIFFERS, "numbering restarts");
	change.rows_after_change = 1500;
	change.last_seq = 3499;
	/*
	 * samples enough after the change, but the first of them came 78
	 * periods of 2^15 clocks after it (the drain waited for the new
	 * numbering to reach sample 78)
	 */
	change.first_new_seen = 1;
	change.first_new_gap = 79ull << 15;
	expect_judged(&e, "A8", DV_DIFFERS, "numbering restarts");
	/* one new period after the change, and two: kept */
	change.first_new_gap = 1ull << 15;
	expect_judged(&e, "A8", DV_HOLDS, NULL);
	change.first_new_gap = 2ull << 15;
	expect_judged(&e, "A8", DV_HOLDS, NULL);
	change.lost_after_change = change.lost[MLX5_DIAG_LOST_FW_OVERWRITE] = 40;
	expect_judged(&e, "A8", DV_HANDLED, "period_clear");
	/* the driver saw the numbering restart; the old period's last lost */
	change.lost_after_change = change.lost[MLX5_DIAG_LOST_FW_OVERWRITE] = 2;
	change.engine[DC_PERIOD_RESTARTS] = 1;
	expect_judged(&e, "A8", DV_HANDLED, "period_restart");
	/* but a gap no LOST record accounts for, or too few samples after it */
	change.lost[0] = 1;
	expect_judged(&e, "A8", DV_DIFFERS, "numbering restarts");
	change.lost[0] = 0;
	change.rows_after_change = 2;
	change.last_seq = 2001;
	expect_judged(&e, "A8", DV_DIFFERS, "numbering restarts");
	change.rows_after_change = 1500;
	change.last_seq = 3499;
	change.engine[DC_PERIOD_RESTARTS] = 0;
	change.lost_after_change = change.lost[MLX5_DIAG_LOST_FW_OVERWRITE] = 0;

	snprintf(first.order, sizeof(first.order), "other");
	expect_judged(&e, "A12", DV_HANDLED, "entry_order");
	snprintf(first.order, sizeof(first.order), "set");
	snprintf(count.order, sizeof(count.order), "other");
	expect_judged(&e, "A12", DV_HANDLED, "entry_order");
	e.total[DC_UNUSABLE_ANSWERS] = 2;
	expect_judged(&e, "A12", DV_DIFFERS, "entries in another order");
	e.total[DC_UNUSABLE_ANSWERS] = 0;
	snprintf(count.order, sizeof(count.order), "set");
	e.total[DC_BUSY_ANSWERS] = 7;
	expect_judged(&e, "A17", DV_HANDLED, "busy_every");
	e.total[DC_BUSY_ANSWERS] = 0;
	e.total[DC_COUNTER_RESETS] = 1;
	expect_judged(&e, "A18", DV_DIFFERS, "narrower counters");
}

/* ---- perf_ring.c: a perf event's rings, laid out in memory here ---- */

#define RING_SIZE	128

/*
 * put_record RING OFF TYPE SIZE AT WORD: a record's header at OFF, and WORD
 * at AT (0: none) in it, wrapping; its other bytes are left as they are
 */
static void put_record(unsigned char *ring, uint64_t off, uint32_t type,
		       uint16_t size, size_t at, uint64_t word)
{
	struct perf_event_header h = { .type = type, .size = size };
	size_t i;

	for (i = 0; i < sizeof(h); i++)
		ring[(off + i) % RING_SIZE] = ((unsigned char *)&h)[i];
	for (i = 0; at && i < sizeof(word); i++)
		ring[(off + at + i) % RING_SIZE] = ((unsigned char *)&word)[i];
}

static void test_perf_ring(void)
{
	unsigned char ring[RING_SIZE], aux[32];
	struct perf_ring_seen seen = { 0 };
	struct perf_event_mmap_page *pc;
	struct perf_ring r = { 0 };
	const void *bufs[2];
	size_t lens[2];
	uint64_t end;

	/*
	 * A SAMPLE, a LOST record whose count straddles the end, an AUX
	 * record flagged truncated, one flagged partial only, and a LOST
	 * record too short for its count
	 */
	memset(ring, 0xee, sizeof(ring));
	put_record(ring, 100, PERF_RECORD_SAMPLE, 8, 0, 0);
	put_record(ring, 108, PERF_RECORD_LOST, 24, 16, 0x10000000005ull);
	put_record(ring, 132, PERF_RECORD_AUX, 32, 24,
		   PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL);
	put_record(ring, 164, PERF_RECORD_AUX, 32, 24, PERF_AUX_FLAG_PARTIAL);
	put_record(ring, 196, PERF_RECORD_LOST, 16, 0, 0);
	end = perf_ring_walk(ring, RING_SIZE, 100, 212, &seen);
	EQ_U64(end, 212, "perf_ring_walk: to the head over five records, wrapping");
	OK(seen.truncated == 1 && seen.lost == 0x10000000005ull && seen.samples == 1 &&
	   !seen.broken, "and counted: 1 truncated AUX record (not the partial "
	   "one), 2^40 + 5 lost across the end, 1 sample (%" PRIu64 ", %" PRIu64
	   ", %" PRIu64 ", broken %d)", seen.truncated, seen.lost, seen.samples,
	   seen.broken);
	put_record(ring, 164, PERF_RECORD_LOST, 4, 0, 0);
	memset(&seen, 0, sizeof(seen));
	end = perf_ring_walk(ring, RING_SIZE, 100, 212, &seen);
	OK(end == 164 && seen.broken && seen.truncated == 1 && seen.samples == 1,
	   "a record shorter than its header stops the walk at it, broken (%" PRIu64 ")",
	   end);
	put_record(ring, 164, PERF_RECORD_LOST, 56, 16, 5);
	memset(&seen, 0, sizeof(seen));
	end = perf_ring_walk(ring, RING_SIZE, 100, 212, &seen);
	OK(end == 164 && seen.broken && seen.lost == 0x10000000005ull,
	   "so does one past the head (%" PRIu64 ")", end);

	EQ_INT(perf_ring_span(ring, RING_SIZE, 100, 164, bufs, lens), 2,
	       "perf_ring_span: two pieces across the end");
	OK(bufs[0] == ring + 100 && lens[0] == 28 && bufs[1] == ring && lens[1] == 36,
	   "the end's 28 bytes, then the start's 36");
	EQ_INT(perf_ring_span(ring, RING_SIZE, 256, 384, bufs, lens), 1,
	       "one piece: a whole lap from the start");
	OK(bufs[0] == ring && lens[0] == RING_SIZE, "the whole ring");
	EQ_INT(perf_ring_span(ring, RING_SIZE, 77, 77, bufs, lens), 0, "none: empty");

	/* the user page and a data ring, as perf_ring_map() leaves them */
	pc = calloc(1, sizeof(*pc) + RING_SIZE);
	if (!pc) {
		OK(0, "out of memory");
		return;
	}
	r.base = pc;
	r.pc = pc;
	r.data_size = RING_SIZE;
	r.base_len = sizeof(*pc) + RING_SIZE;
	EQ_INT(perf_ring_aux_new(&r, bufs, lens), 0, "no AUX area: no AUX bytes");
	put_record((unsigned char *)(pc + 1), 40, PERF_RECORD_LOST, 24, 16, 7);
	put_record((unsigned char *)(pc + 1), 64, PERF_RECORD_LOST, 2, 0, 0);
	r.data_tail = 40;
	pc->data_tail = 40;
	pc->data_head = 80;
	memset(&seen, 0, sizeof(seen));
	OK(perf_ring_data_new(&r, &seen, bufs, lens) == 1 && seen.lost == 7 &&
	   seen.broken && bufs[0] == (char *)(pc + 1) + 40 && lens[0] == 24,
	   "perf_ring_data_new: the whole records before a bad one, counted");
	EQ_U64(pc->data_tail, 40, "kept until released");
	perf_ring_data_release(&r);
	OK(r.data_tail == 64 && pc->data_tail == 64,
	   "then given back up to the bad record, which stays (%" PRIu64 ")",
	   (uint64_t)pc->data_tail);
	memset(&seen, 0, sizeof(seen));
	perf_ring_read_data(&r, &seen);
	OK(seen.broken && r.data_tail == 80 && pc->data_tail == 80,
	   "perf_ring_read_data: past a bad record gives the ring back to its "
	   "head (tail %" PRIu64 ")", (uint64_t)pc->data_tail);
	r.aux = aux;
	r.aux_len = sizeof(aux);
	r.aux_tail = 20;
	pc->aux_tail = 20;
	pc->aux_head = 44;
	OK(perf_ring_aux_new(&r, bufs, lens) == 2 && bufs[0] == aux + 20 &&
	   lens[0] == 12 && bufs[1] == aux && lens[1] == 12,
	   "perf_ring_aux_new: the AUX area's 24 new bytes, across its end");
	EQ_U64(pc->aux_tail, 20, "kept until released");
	perf_ring_aux_release(&r);
	OK(r.aux_tail == 44 && pc->aux_tail == 44, "then given back");
	EQ_INT(perf_ring_aux_new(&r, bufs, lens), 0, "nothing new after");
	free(pc);
}

int main(void)
{
	const char *data = getenv("MD_TESTDATA");
	char root[1024], err[256];
	struct pmu *none;

	if (!data) {
		fprintf(stderr, "MD_TESTDATA: the fake sysfs tree (tests/sysfs)\n");
		return 2;
	}
	snprintf(root, sizeof(root), "%s", data);
	test_time();
	test_format();
	test_scan(root);
	test_first_cpu();
	EQ_INT(pmu_scan("/nonexistent-sysfs", &none, err, sizeof(err)), -1,
	       "a missing sysfs directory is an error: %s", err);
	test_events();
	test_record_args();
	test_doca_args();
	test_exporter_args();
	test_count();
	test_perf_ring();
	test_doctor_judge();
	snprintf(root, sizeof(root), "%s/../../../tests/tracefs/events", data);
	test_tracepoints(root);
	pmu_scan_free(pmus, nr_pmus);
	return tap_done();
}
