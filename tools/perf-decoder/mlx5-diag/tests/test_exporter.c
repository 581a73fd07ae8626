// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `mlx5-diag exporter`: the exposition of every metric kind
 * in the Prometheus text format and OpenMetrics, exact, and as promtool
 * and an OpenMetrics parser read it; the HTTP server: Accept negotiation,
 * listen addresses, paths, methods, malformed requests, the connection
 * limit and idle timeout; the textfile mode's atomic replace; the table
 * of kinds against the kernel catalog; the configuration's settings,
 * refusals and what a device exports; a scrape's families from counts,
 * and from samples folded through the decode pipeline; the dashboard's
 * PromQL, from metrics.def, as promtool reads it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>

#include <linux/perf_event.h>
#include <perf/core.h>

#include "../counting.h"
#include "../dashboard.h"
#include "../exporter_config.h"
#include "../exposition.h"
#include "../families.h"
#include "../fold.h"
#include "../http_server.h"
#include "../pipeline.h"
#include "../scrape.h"
#include "../textfile.h"
#include "kernel_catalog.h"
#include "stream_writer.h"
#include "tap.h"

#define PROMTOOL	"promtool"
/* Debian's python3 (python3-prometheus-client), whatever python3 is first */
#define PYTHON		"/usr/bin/python3"

/* A test that cannot run here: "ok N - WHAT # SKIP WHY". */
#define SKIP(why, ...) do {						\
	tap_n++;							\
	printf("ok %d - ", tap_n);					\
	printf(__VA_ARGS__);						\
	printf(" # SKIP %s\n", why);					\
} while (0)

/* ---- helpers ---- */

/* Whether the program PROG is found on $PATH (or is the path PROG). */
static int have_program(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/*
 * Run the shell command CMD with TEXT on its standard input; its standard
 * output and error into OUT (OUTLEN bytes). Returns its exit status, or
 * -1 if it could not be run.
 */
static int run_with_input(const char *cmd, const char *text, size_t len,
			  char *out, size_t outlen)
{
	char in_path[] = "/tmp/md-test-exporter-in.XXXXXX";
	char out_path[] = "/tmp/md-test-exporter-out.XXXXXX";
	char full[1024];
	int in_fd, out_fd, status;
	ssize_t n;

	in_fd = mkstemp(in_path);
	out_fd = mkstemp(out_path);
	if (in_fd < 0 || out_fd < 0)
		return -1;
	if (write(in_fd, text, len) != (ssize_t)len)
		status = -1;
	close(in_fd);
	snprintf(full, sizeof(full), "(%s) <%s >%s 2>&1", cmd, in_path, out_path);
	status = system(full);
	n = read(out_fd, out, outlen - 1);
	out[n > 0 ? n : 0] = '\0';
	close(out_fd);
	unlink(in_path);
	unlink(out_path);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* promtool check metrics has nothing to say of TEXT (0.0.4). */
static void check_promtool(const char *text, size_t len, const char *what)
{
	char out[4096];
	int st;

	if (!have_program(PROMTOOL)) {
		SKIP("no promtool (Debian package prometheus)",
		     "promtool check metrics of %s", what);
		return;
	}
	st = run_with_input(PROMTOOL " check metrics", text, len, out, sizeof(out));
	OK(st == 0 && !out[0], "promtool check metrics has nothing to say of %s",
	   what);
	if (st || out[0])
		printf("#   status %d, said:\n%s", st, out);
}

/*
 * Python's OpenMetrics parser (python3-prometheus-client) reads TEXT and
 * finds the families it prints: "name type samples" a line each.
 */
static void check_openmetrics(const char *text, size_t len, const char *want,
			      const char *what)
{
	static const char prog[] = PYTHON " -c '"
		"import sys\n"
		"from prometheus_client.openmetrics.parser import "
		"text_string_to_metric_families as parse\n"
		"for f in parse(sys.stdin.read()):\n"
		"    print(f.name, f.type, len(f.samples))\n'";
	char out[4096];
	int st;

	if (access(PYTHON, X_OK) ||
	    system(PYTHON " -c 'import prometheus_client' 2>/dev/null")) {
		SKIP("no " PYTHON " with prometheus_client (Debian package "
		     "python3-prometheus-client)", "the OpenMetrics parser on %s",
		     what);
		return;
	}
	st = run_with_input(prog, text, len, out, sizeof(out));
	OK(st == 0 && !strcmp(out, want),
	   "the OpenMetrics parser reads %s family by family", what);
	if (st || strcmp(out, want))
		printf("#   status %d, got:\n%s#   want:\n%s", st, out, want);
}

static void eq_text(const char *got, const char *want, const char *what)
{
	OK(got && !strcmp(got, want), "%s", what);
	if (got && strcmp(got, want))
		printf("#   got:\n%s#   want:\n%s", got, want);
}

/* ---- exposition ---- */

/* A set of every kind: the families the tests render. */
static void build_every_kind(struct expo_set *s)
{
	static const double le[] = { 0.0000005, 0.000001, 0.0000025 };
	static const uint64_t bucket[] = { 3, 10, 12 };
	struct expo_label dev0[] = { { "device", "sim:0" }, { "port", "0" } };
	struct expo_label dev1[] = { { "device", "sim:1" }, { "port", "1" } };
	struct expo_label link[] = { { "device", "sim:0" }, { "link", "000000" } };
	struct expo_label info[] = {
		{ "device", "sim:0" }, { "dialect", "model64" },
		{ "frequency_khz", "156250" },
	};
	struct expo_label odd[] = {
		{ "device", "a \"quoted\" \\ back\nslash, caf\xc3\xa9" },
	};
	struct expo_family *f;
	struct expo_metric *m;

	f = expo_family(s, "mlx5_diag_port_rx_bytes", EXPO_COUNTER, "bytes",
			"Bytes received on the physical port");
	m = expo_metric(s, f, dev0, 2);
	expo_set_value(m, expo_u64(18446744073709551615ull));
	expo_set_created(m, expo_nanos(1700000000123456789ull));
	m = expo_metric(s, f, dev1, 2);
	expo_set_value(m, expo_u64(0));

	f = expo_family(s, "mlx5_diag_pcie_read_stall_ordering_seconds",
			EXPO_COUNTER, "seconds",
			"Time reads \\ stalled for \"ordering\"");
	m = expo_metric(s, f, link, 2);
	expo_set_value(m, expo_nanos(1500000001ull));

	f = expo_family(s, "mlx5_diag_port_rx_bytes_peak_per_second",
			EXPO_GAUGE, NULL, "Peak rate over one sample period");
	m = expo_metric(s, f, dev0, 2);
	expo_set_value(m, expo_f64(2.5e9));

	f = expo_family(s, "mlx5_diag_pcie_read_latency_seconds",
			EXPO_HISTOGRAM, "seconds", "PCIe read latency");
	m = expo_metric(s, f, link, 2);
	expo_set_histogram(s, m, 3, le, bucket, expo_nanos(7000), 13);
	expo_set_created(m, expo_nanos(1700000000000000000ull));

	f = expo_family(s, "mlx5_diag_device", EXPO_INFO, NULL,
			"The device a PMU serves");
	expo_metric(s, f, info, 3);

	f = expo_family(s, "mlx5_diag_up", EXPO_GAUGE, NULL,
			"Whether the device's values are exported");
	m = expo_metric(s, f, odd, 1);
	expo_set_value(m, expo_u64(1));

	/* no metric: left out */
	expo_family(s, "mlx5_diag_unused", EXPO_GAUGE, NULL, "never set");
}

static const char every_kind_prometheus[] =
"# HELP mlx5_diag_port_rx_bytes_total Bytes received on the physical port\n"
"# TYPE mlx5_diag_port_rx_bytes_total counter\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:0\",port=\"0\"} 18446744073709551615\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:1\",port=\"1\"} 0\n"
"# HELP mlx5_diag_pcie_read_stall_ordering_seconds_total Time reads \\\\ stalled for \"ordering\"\n"
"# TYPE mlx5_diag_pcie_read_stall_ordering_seconds_total counter\n"
"mlx5_diag_pcie_read_stall_ordering_seconds_total{device=\"sim:0\",link=\"000000\"} 1.500000001\n"
"# HELP mlx5_diag_port_rx_bytes_peak_per_second Peak rate over one sample period\n"
"# TYPE mlx5_diag_port_rx_bytes_peak_per_second gauge\n"
"mlx5_diag_port_rx_bytes_peak_per_second{device=\"sim:0\",port=\"0\"} 2.5e+09\n"
"# HELP mlx5_diag_pcie_read_latency_seconds PCIe read latency\n"
"# TYPE mlx5_diag_pcie_read_latency_seconds histogram\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"5e-07\"} 3\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"1e-06\"} 10\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"2.5e-06\"} 12\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"+Inf\"} 13\n"
"mlx5_diag_pcie_read_latency_seconds_sum{device=\"sim:0\",link=\"000000\"} 0.000007\n"
"mlx5_diag_pcie_read_latency_seconds_count{device=\"sim:0\",link=\"000000\"} 13\n"
"# HELP mlx5_diag_device_info The device a PMU serves\n"
"# TYPE mlx5_diag_device_info gauge\n"
"mlx5_diag_device_info{device=\"sim:0\",dialect=\"model64\",frequency_khz=\"156250\"} 1\n"
"# HELP mlx5_diag_up Whether the device's values are exported\n"
"# TYPE mlx5_diag_up gauge\n"
"mlx5_diag_up{device=\"a \\\"quoted\\\" \\\\ back\\nslash, caf\xc3\xa9\"} 1\n";

static const char every_kind_openmetrics[] =
"# TYPE mlx5_diag_port_rx_bytes counter\n"
"# UNIT mlx5_diag_port_rx_bytes bytes\n"
"# HELP mlx5_diag_port_rx_bytes Bytes received on the physical port\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:0\",port=\"0\"} 18446744073709551615\n"
"mlx5_diag_port_rx_bytes_created{device=\"sim:0\",port=\"0\"} 1700000000.123456789\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:1\",port=\"1\"} 0\n"
"# TYPE mlx5_diag_pcie_read_stall_ordering_seconds counter\n"
"# UNIT mlx5_diag_pcie_read_stall_ordering_seconds seconds\n"
"# HELP mlx5_diag_pcie_read_stall_ordering_seconds Time reads \\\\ stalled for \\\"ordering\\\"\n"
"mlx5_diag_pcie_read_stall_ordering_seconds_total{device=\"sim:0\",link=\"000000\"} 1.500000001\n"
"# TYPE mlx5_diag_port_rx_bytes_peak_per_second gauge\n"
"# HELP mlx5_diag_port_rx_bytes_peak_per_second Peak rate over one sample period\n"
"mlx5_diag_port_rx_bytes_peak_per_second{device=\"sim:0\",port=\"0\"} 2.5e+09\n"
"# TYPE mlx5_diag_pcie_read_latency_seconds histogram\n"
"# UNIT mlx5_diag_pcie_read_latency_seconds seconds\n"
"# HELP mlx5_diag_pcie_read_latency_seconds PCIe read latency\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"5e-07\"} 3\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"1e-06\"} 10\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"2.5e-06\"} 12\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"000000\",le=\"+Inf\"} 13\n"
"mlx5_diag_pcie_read_latency_seconds_sum{device=\"sim:0\",link=\"000000\"} 0.000007\n"
"mlx5_diag_pcie_read_latency_seconds_count{device=\"sim:0\",link=\"000000\"} 13\n"
"mlx5_diag_pcie_read_latency_seconds_created{device=\"sim:0\",link=\"000000\"} 1700000000\n"
"# TYPE mlx5_diag_device info\n"
"# HELP mlx5_diag_device The device a PMU serves\n"
"mlx5_diag_device_info{device=\"sim:0\",dialect=\"model64\",frequency_khz=\"156250\"} 1\n"
"# TYPE mlx5_diag_up gauge\n"
"# HELP mlx5_diag_up Whether the device's values are exported\n"
"mlx5_diag_up{device=\"a \\\"quoted\\\" \\\\ back\\nslash, caf\xc3\xa9\"} 1\n"
"# EOF\n";

static void test_every_kind(void)
{
	struct expo_set s;
	char *text;
	size_t len;

	expo_set_init(&s);
	build_every_kind(&s);
	EQ_STR(s.err, "", "a set of every kind is built without a mistake");

	EQ_INT(expo_render(&s, EXPO_PROMETHEUS, &text, &len), 0,
	       "rendered as Prometheus text 0.0.4");
	eq_text(text, every_kind_prometheus,
		"Prometheus text: _total in TYPE, info as a gauge, no UNIT, "
		"no _created, HELP escapes \\ and newline only");
	EQ_INT(len, strlen(every_kind_prometheus), "its length");
	check_promtool(text, len, "every kind in Prometheus text");
	free(text);

	EQ_INT(expo_render(&s, EXPO_OPENMETRICS, &text, &len), 0,
	       "rendered as OpenMetrics");
	eq_text(text, every_kind_openmetrics,
		"OpenMetrics: TYPE, UNIT, HELP, _created, info, # EOF");
	check_openmetrics(text, len,
			  "mlx5_diag_port_rx_bytes counter 3\n"
			  "mlx5_diag_pcie_read_stall_ordering_seconds counter 1\n"
			  "mlx5_diag_port_rx_bytes_peak_per_second gauge 1\n"
			  "mlx5_diag_pcie_read_latency_seconds histogram 7\n"
			  "mlx5_diag_device info 1\n"
			  "mlx5_diag_up gauge 1\n",
			  "every kind in OpenMetrics");
	free(text);
	expo_set_free(&s);

	expo_set_init(&s);
	EQ_INT(expo_render(&s, EXPO_OPENMETRICS, &text, &len), 0,
	       "an empty set renders");
	eq_text(text, "# EOF\n", "an empty OpenMetrics exposition is # EOF");
	free(text);
	EQ_INT(expo_render(&s, EXPO_PROMETHEUS, &text, &len), 0,
	       "an empty set in Prometheus text");
	EQ_INT(len, 0, "is empty");
	free(text);
	expo_set_free(&s);
}

static void test_canonical(void)
{
	static const struct { double v; const char *text; } cases[] = {
		/* OpenMetrics' examples of canonical numbers */
		{ 0.0, "0.0" }, { 0.001, "0.001" }, { 0.002, "0.002" },
		{ 0.01, "0.01" }, { 0.1, "0.1" }, { 0.9, "0.9" }, { 0.95, "0.95" },
		{ 0.99, "0.99" }, { 0.999, "0.999" }, { 1.0, "1.0" }, { 1.7, "1.7" },
		{ 10.0, "10.0" }, { 1e-10, "1e-10" }, { 1e-09, "1e-09" },
		{ 1e-05, "1e-05" }, { 0.0001, "0.0001" }, { 100000.0, "100000.0" },
		{ 1e+06, "1e+06" }, { 1e+10, "1e+10" }, { 1e+23, "1e+23" },
		{ 1.1e+23, "1.1e+23" },
		/* and ours */
		{ 2.5e-06, "2.5e-06" }, { 123.456, "123.456" }, { -1.5, "-1.5" },
		{ 123456.0, "123456.0" }, { 1234567.0, "1.234567e+06" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 1.0 / 3, "0.3333333333333333" },
		{ 5e-324, "5e-324" }, { 1.7976931348623157e308, "1.7976931348623157e+308" },
		{ INFINITY, "+Inf" }, { -INFINITY, "-Inf" },
	};
	char buf[48];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		expo_canonical(cases[i].v, buf, sizeof(buf));
		EQ_STR(buf, cases[i].text, "canonical %s", cases[i].text);
	}
	expo_canonical(NAN, buf, sizeof(buf));
	EQ_STR(buf, "NaN", "canonical NaN");
}

/* The seconds of whole nanoseconds, exact. */
static void test_nanos(void)
{
	static const struct { uint64_t ns; const char *text; } cases[] = {
		{ 0, "0" }, { 1, "0.000000001" }, { 1500000000, "1.5" },
		{ 2000000000, "2" }, { 999999999, "0.999999999" },
		{ 18446744073709551615ull, "18446744073.709551615" },
	};
	struct expo_family *f;
	struct expo_set s;
	char *text, want[128];
	size_t len;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		expo_set_init(&s);
		f = expo_family(&s, "x_seconds", EXPO_GAUGE, "seconds", "h");
		expo_set_value(expo_metric(&s, f, NULL, 0), expo_nanos(cases[i].ns));
		expo_render(&s, EXPO_PROMETHEUS, &text, &len);
		snprintf(want, sizeof(want), "# HELP x_seconds h\n# TYPE x_seconds "
			 "gauge\nx_seconds %s\n", cases[i].text);
		eq_text(text, want, cases[i].text);
		free(text);
		expo_set_free(&s);
	}
}

/* What the set refuses, in its words; a refusal fails the rendering. */
static void test_refusals(void)
{
	static const double up[] = { 1, 2 }, down[] = { 2, 1 }, inf[] = { 1, INFINITY };
	static const uint64_t cum[] = { 1, 2 }, notcum[] = { 2, 1 };
	struct expo_label a = { "a", "1" }, b = { "b", "2" };
	struct expo_label ab[] = { a, b }, ba[] = { b, a }, aa[] = { a, a };
	struct expo_label le = { "le", "1" }, under = { "__x", "1" };
	struct expo_label dash = { "a-b", "1" }, bad_utf8 = { "a", "\xc3\x28" };
	struct expo_label surrogate = { "a", "\xed\xa0\x80" };
	struct expo_family *f;
	struct expo_set s;
	char *text;
	size_t len;

#define REFUSED(what, want) do {					\
	EQ_STR(s.err, want, what);					\
	EQ_INT(expo_render(&s, EXPO_OPENMETRICS, &text, &len), -1,	\
	       "%s: the rendering fails", what);			\
	OK(!text && !len, "%s: no text", what);				\
	expo_set_free(&s);						\
} while (0)

	expo_set_init(&s);
	expo_family(&s, "1abc", EXPO_GAUGE, NULL, "h");
	REFUSED("a name starting with a digit", "bad metric name '1abc'");
	expo_set_init(&s);
	expo_family(&s, "a-b", EXPO_GAUGE, NULL, "h");
	REFUSED("a name with a dash", "bad metric name 'a-b'");
	expo_set_init(&s);
	expo_family(&s, "x_total", EXPO_COUNTER, NULL, "h");
	REFUSED("a counter named _total",
		"metric name x_total ends in _total, a suffix of samples");
	expo_set_init(&s);
	expo_family(&s, "x_count", EXPO_GAUGE, NULL, "h");
	REFUSED("a gauge named _count",
		"metric name x_count ends in _count, a suffix of samples");
	expo_set_init(&s);
	expo_family(&s, "x_bytes", EXPO_GAUGE, "seconds", "h");
	REFUSED("a unit that is not the suffix",
		"metric name x_bytes does not end in _seconds, its unit");
	expo_set_init(&s);
	expo_family(&s, "seconds", EXPO_GAUGE, "seconds", "h");
	REFUSED("a name that is only its unit",
		"metric name seconds does not end in _seconds, its unit");
	expo_set_init(&s);
	expo_family(&s, "x", EXPO_GAUGE, NULL, "two\nlines");
	REFUSED("a help of two lines", "the help of x is not one line of UTF-8");
	expo_set_init(&s);
	expo_family(&s, "x", EXPO_GAUGE, NULL, "h");
	expo_family(&s, "x", EXPO_COUNTER, NULL, "h");
	REFUSED("a family added again as another type",
		"family x added twice, as a gauge and as a counter");

	expo_set_init(&s);
	f = expo_family(&s, "x", EXPO_GAUGE, NULL, "h");
	OK(expo_family(&s, "x", EXPO_GAUGE, NULL, "h") == f,
	   "a family added again as it is: the same family");
	expo_metric(&s, f, ab, 2);
	expo_metric(&s, f, ba, 2);
	REFUSED("a label set given twice, in another order",
		"x: a label set given twice");
	expo_set_init(&s);
	expo_metric(&s, expo_family(&s, "x", EXPO_GAUGE, NULL, "h"), aa, 2);
	REFUSED("a label given twice", "x: a label given twice (a)");
	expo_set_init(&s);
	expo_metric(&s, expo_family(&s, "x", EXPO_GAUGE, NULL, "h"), &under, 1);
	REFUSED("a label name starting with __",
		"x: a label name starting with __ (reserved) (__x)");
	expo_set_init(&s);
	expo_metric(&s, expo_family(&s, "x", EXPO_GAUGE, NULL, "h"), &dash, 1);
	REFUSED("a label name with a dash", "x: a bad label name (a-b)");
	expo_set_init(&s);
	expo_metric(&s, expo_family(&s, "x", EXPO_HISTOGRAM, NULL, "h"), &le, 1);
	REFUSED("le on a histogram", "x: the label le on a histogram (le)");
	expo_set_init(&s);
	expo_metric(&s, expo_family(&s, "x", EXPO_GAUGE, NULL, "h"), &bad_utf8, 1);
	REFUSED("a label value that is not UTF-8",
		"x: a label value that is not UTF-8 (a)");
	expo_set_init(&s);
	expo_metric(&s, expo_family(&s, "x", EXPO_GAUGE, NULL, "h"), &surrogate, 1);
	REFUSED("a UTF-16 surrogate in a label value",
		"x: a label value that is not UTF-8 (a)");

	expo_set_init(&s);
	f = expo_family(&s, "x", EXPO_HISTOGRAM, NULL, "h");
	EQ_INT(expo_set_histogram(&s, expo_metric(&s, f, NULL, 0), 2, down, cum,
				  expo_u64(0), 2), -1, "decreasing bounds");
	REFUSED("decreasing bounds",
		"histogram bounds not finite and increasing (bound 1)");
	expo_set_init(&s);
	f = expo_family(&s, "x", EXPO_HISTOGRAM, NULL, "h");
	expo_set_histogram(&s, expo_metric(&s, f, NULL, 0), 2, inf, cum,
			   expo_u64(0), 2);
	REFUSED("an infinite bound",
		"histogram bounds not finite and increasing (bound 1)");
	expo_set_init(&s);
	f = expo_family(&s, "x", EXPO_HISTOGRAM, NULL, "h");
	expo_set_histogram(&s, expo_metric(&s, f, NULL, 0), 2, up, notcum,
			   expo_u64(0), 2);
	REFUSED("counts that are not cumulative",
		"histogram bucket 1 not cumulative");
	expo_set_init(&s);
	f = expo_family(&s, "x", EXPO_HISTOGRAM, NULL, "h");
	expo_set_histogram(&s, expo_metric(&s, f, NULL, 0), 2, up, cum,
			   expo_u64(0), 1);
	REFUSED("a bucket above the count", "histogram bucket 1 not cumulative");

	expo_set_init(&s);
	expo_family(&s, "1x", EXPO_GAUGE, NULL, "h");
	expo_family(&s, "y", EXPO_GAUGE, NULL, "h");
	REFUSED("after a mistake, the first one is kept", "bad metric name '1x'");
#undef REFUSED
}


/* ---- the HTTP server ---- */

static void test_negotiate(void)
{
	static const struct { const char *accept; enum expo_format want; } cases[] = {
		{ NULL, EXPO_PROMETHEUS },
		{ "", EXPO_PROMETHEUS },
		/* what Prometheus 2.42 sends */
		{ "application/openmetrics-text;version=1.0.0,application/"
		  "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
		  "q=0.5,*/*;q=0.1", EXPO_OPENMETRICS },
		/* with scrape_classic... and the text format preferred */
		{ "text/plain;version=0.0.4;q=1,application/openmetrics-text;"
		  "version=1.0.0;q=0.5", EXPO_PROMETHEUS },
		{ "application/openmetrics-text", EXPO_OPENMETRICS },
		{ "Application/OpenMetrics-Text; Version=\"1.0.0\"", EXPO_OPENMETRICS },
		{ "application/openmetrics-text;version=0.0.1", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;version=1.0.0;q=0", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;q=0.5,*/*;q=0.6", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;q=0.7,*/*;q=0.6", EXPO_OPENMETRICS },
		/* equal q: the more specific range wins, else the default */
		{ "application/openmetrics-text,*/*", EXPO_OPENMETRICS },
		{ "application/openmetrics-text,text/plain", EXPO_PROMETHEUS },
		{ "application/*;q=0.9,text/plain;q=0.8", EXPO_OPENMETRICS },
		{ "text/plain;version=0.0.5,application/openmetrics-text;q=0.1",
		  EXPO_OPENMETRICS },
		{ "*/*", EXPO_PROMETHEUS },
		{ "application/json", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;q=1.5", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;q=0.1234", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;q=", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;version=\"1.0.0,x\";q=1",
		  EXPO_PROMETHEUS },
		{ "garbage;;;,,,/,=;q=0.5", EXPO_PROMETHEUS },
		{ "application/openmetrics-text;charset=utf-8;q=0.9 , text/plain;q=0.2",
		  EXPO_OPENMETRICS },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		EQ_INT(http_negotiate(cases[i].accept), cases[i].want,
		       "Accept '%s': %s", cases[i].accept ? cases[i].accept : "(none)",
		       cases[i].want == EXPO_OPENMETRICS ? "OpenMetrics" :
		       "Prometheus text");
}

static void test_listen(void)
{
	static const struct { const char *s; int any, family; unsigned int port; } good[] = {
		{ "9855", 1, 0, 9855 }, { ":9855", 1, 0, 9855 }, { "0", 1, 0, 0 },
		{ "127.0.0.1:80", 0, AF_INET, 80 }, { "[::1]:65535", 0, AF_INET6, 65535 },
		{ "[fe80::1]:1", 0, AF_INET6, 1 },
	};
	static const struct { const char *s, *why; } bad[] = {
		{ "", "the port is not a number 0-65535" },
		{ ":", "the port is not a number 0-65535" },
		{ "65536", "the port is not a number 0-65535" },
		{ "-1", "the port is not a number 0-65535" },
		{ "localhost:80", "not a numeric IPv4 address" },
		{ "::1:80", "an IPv6 address is written [ADDRESS]:PORT" },
		{ "[::1:80", "an IPv6 address is written [ADDRESS]:PORT" },
		{ "[::1]x:80", "an IPv6 address is written [ADDRESS]:PORT" },
		{ "[1.2.3.4]:80", "not a numeric IPv6 address" },
		{ "1.2.3.4:8x", "the port is not a number 0-65535" },
	};
	struct http_listen l;
	char err[256], want[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int ok = !http_parse_listen(good[i].s, &l, err, sizeof(err)) &&
			 l.any == good[i].any && l.port == good[i].port &&
			 (l.any || l.addr.ss_family == good[i].family);

		OK(ok, "listen '%s'", good[i].s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want), "bad listen address '%s': %s (PORT, "
			 ":PORT, IPV4:PORT or [IPV6]:PORT)", bad[i].s, bad[i].why);
		err[0] = '\0';
		OK(http_parse_listen(bad[i].s, &l, err, sizeof(err)) == -1,
		   "listen '%s' is refused", bad[i].s);
		EQ_STR(err, want, "listen '%s': why", bad[i].s);
	}
}

/* The collector of the server tests: every kind, or a failure. */
struct test_collect {
	int fail;
	int calls;
};

static int collect_every_kind(void *ctx, enum expo_format format, char **text,
			      size_t *len, char *err, size_t errlen)
{
	struct test_collect *tc = ctx;
	struct expo_set s;
	int ret;

	tc->calls++;
	if (tc->fail) {
		snprintf(err, errlen, "no device answered");
		return -1;
	}
	expo_set_init(&s);
	build_every_kind(&s);
	ret = expo_render(&s, format, text, len);
	if (ret)
		snprintf(err, errlen, "%s", s.err);
	expo_set_free(&s);
	return ret;
}

static int connect_to(unsigned int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read FD until the server closes it (or 5 s pass): the bytes read. */
static size_t read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	return got;
}

struct http_reply {
	int status;
	char content_type[128];
	char allow[64];
	const char *body;
	size_t body_len;
	char raw[65536];
};

/* Send REQ (LEN bytes) on a new connection; the reply, status 0 if none. */
static void http_exchange(unsigned int port, const char *req, size_t len,
			  struct http_reply *r)
{
	const char *head_end, *h;
	int fd = connect_to(port);
	size_t got;

	memset(r, 0, sizeof(*r));
	r->body = "";
	if (fd < 0)
		return;
	if (write(fd, req, len) != (ssize_t)len) {
		close(fd);
		return;
	}
	got = read_all(fd, r->raw, sizeof(r->raw));
	close(fd);
	if (sscanf(r->raw, "HTTP/1.%*c %d", &r->status) != 1)
		return;
	head_end = strstr(r->raw, "\r\n\r\n");
	if (!head_end)
		return;
	r->body = head_end + 4;
	r->body_len = got - (size_t)(r->body - r->raw);
	h = strcasestr(r->raw, "\r\nContent-Type: ");
	if (h && h < head_end)
		sscanf(h + 16, "%127[^\r]", r->content_type);
	h = strcasestr(r->raw, "\r\nAllow: ");
	if (h && h < head_end)
		sscanf(h + 9, "%63[^\r]", r->allow);
}

static void http_get(unsigned int port, const char *method, const char *path,
		     const char *accept, struct http_reply *r)
{
	char req[1024];

	snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: localhost\r\n%s%s%s"
		 "Connection: close\r\n\r\n", method, path, accept ? "Accept: " : "",
		 accept ? accept : "", accept ? "\r\n" : "");
	http_exchange(port, req, strlen(req), r);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * As many idle connections as allowed (4, 30 s timeout): a 5th waits,
 * unanswered and not collected, until one of them closes.
 */
static void test_connection_limit(void)
{
	struct http_opts o = { .max_connections = 4, .timeout_s = 30 };
	struct timeval short_wait = { .tv_usec = 500000 }, long_wait = { .tv_sec = 5 };
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
		"Connection: close\r\n\r\n";
	struct test_collect tc = { 0 };
	struct http_server *srv;
	char err[256], buf[256];
	int idle[4], fd, i;
	ssize_t n;

	http_parse_listen("127.0.0.1:0", &o.listen, err, sizeof(err));
	srv = http_start(&o, collect_every_kind, &tc, err, sizeof(err));
	if (!srv) {
		OK(0, "a server for the connection limit: %s", err);
		return;
	}
	for (i = 0; i < 4; i++)
		idle[i] = connect_to(http_port(srv));
	fd = connect_to(http_port(srv));
	OK(fd >= 0 && write(fd, req, sizeof(req) - 1) == sizeof(req) - 1,
	   "with 4 idle connections open (the limit), a 5th sends a scrape");
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &short_wait, sizeof(short_wait));
	n = read(fd, buf, sizeof(buf));
	OK(n < 0 && errno == EAGAIN, "no answer within 0.5 s");
	EQ_INT(tc.calls, 0, "nothing collected");
	close(idle[0]);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &long_wait, sizeof(long_wait));
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	OK(!strncmp(buf, "HTTP/1.1 200 ", 13), "once one closes, the scrape is "
	   "answered 200");
	EQ_INT(tc.calls, 1, "and collected once");
	close(fd);
	for (i = 1; i < 4; i++)
		close(idle[i]);
	http_stop(srv);
}

static void test_server(void)
{
	struct http_opts o = { .max_connections = 4, .timeout_s = 1 };
	struct test_collect tc = { 0 };
	static struct http_reply r;
	struct http_server *srv;
	char err[256], *big;
	unsigned int port;
	double t0;
	int fd;
	size_t i;

	http_parse_listen("127.0.0.1:0", &o.listen, err, sizeof(err));
	srv = http_start(&o, collect_every_kind, &tc, err, sizeof(err));
	OK(srv != NULL, "the server starts on 127.0.0.1, a free port: %s",
	   srv ? "" : err);
	if (!srv)
		return;
	port = http_port(srv);
	OK(port > 0, "it says which port: %u", port);

	http_get(port, "GET", "/metrics", NULL, &r);
	EQ_INT(r.status, 200, "GET /metrics without Accept: 200");
	EQ_STR(r.content_type, EXPO_CONTENT_TYPE_PROMETHEUS, "in Prometheus text");
	OK(r.body_len == strlen(every_kind_prometheus) &&
	   !strcmp(r.body, every_kind_prometheus), "the collector's exposition");

	http_get(port, "GET", "/metrics?x=1", "application/openmetrics-text;"
		 "version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
		 "text/plain;version=0.0.4;q=0.5,*/*;q=0.1", &r);
	EQ_INT(r.status, 200, "GET /metrics as Prometheus asks (with a query): 200");
	EQ_STR(r.content_type, EXPO_CONTENT_TYPE_OPENMETRICS, "in OpenMetrics");
	OK(!strcmp(r.body, every_kind_openmetrics), "the OpenMetrics exposition");

	http_get(port, "HEAD", "/metrics", NULL, &r);
	EQ_INT(r.status, 200, "HEAD /metrics: 200");
	EQ_INT(r.body_len, 0, "without a body");
	OK(strcasestr(r.raw, "\r\nContent-Length: ") != NULL, "with its length");

	http_get(port, "GET", "/", NULL, &r);
	EQ_INT(r.status, 404, "GET /: 404");
	EQ_STR(r.body, "not found: the metrics are at /metrics\n", "saying where");
	http_get(port, "GET", "/metrics/", NULL, &r);
	EQ_INT(r.status, 404, "GET /metrics/: 404");
	http_get(port, "POST", "/metrics", NULL, &r);
	EQ_INT(r.status, 405, "POST /metrics: 405");
	EQ_STR(r.allow, "GET, HEAD", "Allow: GET, HEAD");

	static const char with_body[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
		"Content-Length: 5\r\nConnection: close\r\n\r\nhello";
	http_exchange(port, with_body, sizeof(with_body) - 1, &r);
	EQ_INT(r.status, 413, "GET /metrics with a body: 413");

	static const char garbage[] = "GARBAGE\r\n\r\n";
	http_exchange(port, garbage, sizeof(garbage) - 1, &r);
	OK(r.status == 0 && !r.raw[0], "a request line of one word: closed "
	   "unanswered");
	static const char bin[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n";
	http_exchange(port, bin, sizeof(bin) - 1, &r);
	OK(r.status == 0 && !r.raw[0], "a TLS hello: closed unanswered");
	static const char no_version[] = "GET /metrics\r\n\r\n";
	http_exchange(port, no_version, sizeof(no_version) - 1, &r);
	EQ_INT(r.status, 400, "a request line without a version: 400");
	static const char no_host[] = "GET /metrics HTTP/1.1\r\n\r\n";
	http_exchange(port, no_host, sizeof(no_host) - 1, &r);
	EQ_INT(r.status, 400, "HTTP/1.1 without Host: 400");
	static const char no_colon[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
		"Bad Header\r\n\r\n";
	http_exchange(port, no_colon, sizeof(no_colon) - 1, &r);
	EQ_INT(r.status, 400, "a header line without a colon: 400");
	static const char bad_version[] = "GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n";
	http_exchange(port, bad_version, sizeof(bad_version) - 1, &r);
	EQ_INT(r.status, 505, "HTTP/9.9: 505");
	static const char http10[] = "GET /metrics HTTP/1.0\r\n\r\n";
	http_exchange(port, http10, sizeof(http10) - 1, &r);
	EQ_INT(r.status, 200, "HTTP/1.0 without Host: 200");

	big = malloc(HTTP_REQUEST_MEMORY * 2 + 256);
	if (big) {
		strcpy(big, "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");
		i = strlen(big);
		memset(big + i, 'a', HTTP_REQUEST_MEMORY * 2);
		strcpy(big + i + HTTP_REQUEST_MEMORY * 2, "\r\n\r\n");
		http_exchange(port, big, strlen(big), &r);
		EQ_INT(r.status, 431, "headers over %d bytes: 431", HTTP_REQUEST_MEMORY);
		free(big);
	}

	/* slow clients: a partial request is closed after the idle timeout */
	fd = connect_to(port);
	t0 = now_s();
	OK(fd >= 0 && write(fd, "GET /metr", 9) == 9, "a client sends half a line");
	i = fd >= 0 ? read_all(fd, r.raw, sizeof(r.raw)) : 1;
	OK(i == 0 && now_s() - t0 < 4, "and is closed within the idle timeout "
	   "(%.1f s, 1 s timeout)", now_s() - t0);
	if (fd >= 0)
		close(fd);

	tc.fail = 1;
	http_get(port, "GET", "/metrics", NULL, &r);
	EQ_INT(r.status, 500, "a failed collection: 500");
	EQ_STR(r.body, "the exposition failed: no device answered\n", "saying why");

	http_stop(srv);
	fd = connect_to(port);
	OK(fd < 0, "after http_stop nothing listens on the port");
	if (fd >= 0)
		close(fd);

	test_connection_limit();

	/* a port in use */
	http_parse_listen("127.0.0.1:0", &o.listen, err, sizeof(err));
	srv = http_start(&o, collect_every_kind, &tc, err, sizeof(err));
	if (srv) {
		char addr[64], want[128];
		struct http_server *again;

		snprintf(addr, sizeof(addr), "127.0.0.1:%u", http_port(srv));
		http_parse_listen(addr, &o.listen, err, sizeof(err));
		again = http_start(&o, collect_every_kind, &tc, err, sizeof(err));
		snprintf(want, sizeof(want), "cannot listen on port %u: Address "
			 "already in use", http_port(srv));
		OK(!again, "a second server on the same port fails");
		EQ_STR(err, want, "saying why");
		http_stop(again);
		http_stop(srv);
	}
}

/* ---- the textfile mode ---- */

struct replace_race {
	const char *dir;
	char *a, *b;			/* two expositions, written in turn */
	size_t a_len, b_len;
	int writes, failed_writes;
	volatile int done;
};

static void *replace_often(void *arg)
{
	struct replace_race *rr = arg;
	char err[256];

	for (rr->writes = 0; rr->writes < 300; rr->writes++) {
		int b = rr->writes & 1;

		if (textfile_write(rr->dir, TEXTFILE_NAME, b ? rr->b : rr->a,
				   b ? rr->b_len : rr->a_len, err, sizeof(err)))
			rr->failed_writes++;
	}
	rr->done = 1;
	return NULL;
}

/* The number of entries of DIR besides . and .. */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_textfile(void)
{
	char dir[] = "/tmp/md-test-textfile.XXXXXX", path[256], err[512], want[512];
	struct replace_race rr = { 0 };
	size_t cap = 1 << 20, i;
	int reads = 0, torn = 0;
	pthread_t writer;
	struct stat st;
	char *buf;
	mode_t old;

	if (!mkdtemp(dir)) {
		OK(0, "a directory for the textfile tests: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, TEXTFILE_NAME);
	old = umask(077);
	EQ_INT(textfile_write(dir, TEXTFILE_NAME, "x 1\n", 4, err, sizeof(err)), 0,
	       "textfile_write into a directory");
	umask(old);
	OK(!stat(path, &st) && (st.st_mode & 0777) == 0644 && st.st_size == 4,
	   "DIR/%s, 4 bytes, mode 0644 whatever the umask (077)", TEXTFILE_NAME);
	EQ_INT(dir_entries(dir), 1, "and no other file");

	/* two large expositions in turn; a reader only ever sees whole ones */
	rr.dir = dir;
	rr.a_len = 200000;
	rr.b_len = 300000;
	rr.a = malloc(rr.a_len);
	rr.b = malloc(rr.b_len);
	buf = malloc(cap);
	if (!rr.a || !rr.b || !buf) {
		OK(0, "memory for the replace race");
		goto out;
	}
	for (i = 0; i < rr.a_len; i++)
		rr.a[i] = i % 64 == 63 ? '\n' : 'a';
	for (i = 0; i < rr.b_len; i++)
		rr.b[i] = i % 64 == 63 ? '\n' : 'b';
	pthread_create(&writer, NULL, replace_often, &rr);
	while (!rr.done) {
		FILE *f = fopen(path, "rb");
		size_t n;

		if (!f) {
			torn++;
			continue;
		}
		n = fread(buf, 1, cap, f);
		fclose(f);
		reads++;
		if (!(n == rr.a_len && !memcmp(buf, rr.a, n)) &&
		    !(n == rr.b_len && !memcmp(buf, rr.b, n)) &&
		    !(n == 4 && !memcmp(buf, "x 1\n", 4)))
			torn++;
	}
	pthread_join(writer, NULL);
	EQ_INT(rr.failed_writes, 0, "300 replaces of 200 kB and 300 kB files");
	OK(reads > 0 && !torn, "%d reads meanwhile, each a whole file (%d not)",
	   reads, torn);
	EQ_INT(dir_entries(dir), 1, "no temporary file left");

	snprintf(want, sizeof(want), "%s/none: cannot create a file there: No such "
		 "file or directory", dir);
	snprintf(path, sizeof(path), "%s/none", dir);
	EQ_INT(textfile_write(path, TEXTFILE_NAME, "x", 1, err, sizeof(err)), -1,
	       "a directory that does not exist");
	EQ_STR(err, want, "saying so");
	snprintf(path, sizeof(path), "%s/%s", dir, TEXTFILE_NAME);
	snprintf(want, sizeof(want), "%s: cannot create a file there: Not a "
		 "directory", path);
	EQ_INT(textfile_write(path, TEXTFILE_NAME, "x", 1, err, sizeof(err)), -1,
	       "a file for a directory");
	EQ_STR(err, want, "saying so");
	{
		/* a write that fails (over RLIMIT_FSIZE): nothing is replaced */
		struct rlimit lim, small;
		void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);

		/* the soft limit only: a lowered hard one would stay lowered */
		getrlimit(RLIMIT_FSIZE, &lim);
		small = (struct rlimit){ 1000, lim.rlim_max };
		setrlimit(RLIMIT_FSIZE, &small);
		snprintf(path, sizeof(path), "%s/%s", dir, TEXTFILE_NAME);
		EQ_INT(textfile_write(dir, TEXTFILE_NAME, rr.a, 5000, err,
				      sizeof(err)), -1,
		       "a write over the file size limit fails");
		setrlimit(RLIMIT_FSIZE, &lim);
		signal(SIGXFSZ, old_xfsz);
		snprintf(want, sizeof(want), "%s: writing %s/.%s.", path, dir,
			 TEXTFILE_NAME);
		OK(!strncmp(err, want, strlen(want)) &&
		   strstr(err, ": File too large"), "saying why: %s", err);
		OK(!stat(path, &st) && st.st_size == (off_t)rr.b_len,
		   "the last file written is still there");
		EQ_INT(dir_entries(dir), 1, "the temporary file is removed");
	}
out:
	free(rr.a);
	free(rr.b);
	free(buf);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		printf("# could not remove %s\n", dir);
}

/* ---- the kinds, against the kernel catalog ---- */

static void test_families(void)
{
	static const char *const groups[] = {
		"GLOBAL", "PORT", "PORT_PRIO", "HOST", "FUNCTION", "PCIE_LINK",
		"PCIE_LINK_TCLASS", "PCIE_LINK_BIN",
	};
	static const char *const classes[] = { "COUNTER", "STAT_SUM", "STAT_MAX",
					       "STAT_MIN" };
	static const char *const units[] = {
		[DATA_KIND_UNIT_UNKNOWN] = "?", [DATA_KIND_UNIT_COUNT] = "NONE",
		[DATA_KIND_UNIT_BYTES] = "BYTES", [DATA_KIND_UNIT_NS] = "NS",
	};
	struct catalog_row rows[64];
	const struct data_kind *k;
	uint32_t v[DATA_KIND_MAX_FIELDS];
	char name[128];
	int n, i, bad = 0, nr_kinds = 0;

	n = catalog_read(MD_TOP_DIR "/" KERNEL_CATALOG_PATH, rows, 64);
	OK(n == 41, "the kernel catalog has 41 data-ID kinds (read %d)", n);
	for (i = 0; i < n; i++) {
		k = data_kind_by_event(rows[i].name);
		if (!k || k->kind != rows[i].kind || strcmp(groups[k->group], rows[i].group) ||
		    strcmp(classes[k->class], rows[i].class) ||
		    strcmp(units[k->unit], rows[i].unit)) {
			printf("# catalog %s 0x%08x %s %s %s: data_kinds.def %s\n",
			       rows[i].name, rows[i].kind, rows[i].group, rows[i].class,
			       rows[i].unit, k ? "differs" : "lacks it");
			bad++;
		}
	}
	for (nr_kinds = 0; data_kind_at((size_t)nr_kinds); nr_kinds++) {
		k = data_kind_at((size_t)nr_kinds);
		if ((k->unit == DATA_KIND_UNIT_BYTES && !strstr(k->event, "_bytes")) ||
		    (k->unit == DATA_KIND_UNIT_NS &&
		     strcmp(k->event + strlen(k->event) - 3, "_ns"))) {
			printf("# %s: its name does not end in its unit\n", k->event);
			bad++;
		}
	}
	OK(!bad && nr_kinds == n, "data_kinds.def is the catalog's kinds (%d), each "
	   "as it says, named by its unit", nr_kinds);

	k = data_kind_by_event("port_prio_tx_bytes");
	v[0] = 1;
	v[1] = 3;
	EQ_U64(data_kind_id(k, v), 0x1140000200000301ull,
	       "port_prio_tx_bytes port=1 prio=3 is 0x1140000200000301");
	k = data_kind_by_id(0x1160000f00090001ull);
	OK(k && !strcmp(k->event, "pcie_read_latency_hist_packets"),
	   "0x1160000f00090001 is pcie_read_latency_hist_packets");
	data_kind_instance(k, 0x1160000f00090001ull, v);
	OK(v[0] == 1 && v[1] == 9, "link 1, bin 9");
	EQ_U64(data_kind_id(k, v), 0x1160000f00090001ull, "and back");
	fam_base_name(data_kind_by_event("pcie_read_stall_ordering_ns"), name, sizeof(name));
	EQ_STR(name, "mlx5_diag_pcie_read_stall_ordering_seconds", "ns made seconds");
	EQ_STR(fam_unit_name(data_kind_by_event("pcie_read_stall_ordering_ns")), "seconds",
	       "in seconds");
	fam_base_name(data_kind_by_event("port_rx_bytes"), name, sizeof(name));
	EQ_STR(name, "mlx5_diag_port_rx_bytes", "bytes as they are");
	OK(data_kind_by_id(0x0401) == NULL, "a 16-bit firmware counter is no kind of it");
	EQ_INT(data_kind_field_max(DATA_KIND_F_FUNCTION), 65535, "a function is 16 bits");
	EQ_INT(data_kind_field_max(DATA_KIND_F_PRIO), 15, "a priority 4 bits");
}

/* ---- the configuration ---- */

static const struct xcfg_device_caps sim_caps = {
	.num_ports = 2, .num_hosts = 1, .num_functions = 8, .num_pcie_links = 2,
	.max_data_ids = 16,
};

static void test_config_settings(void)
{
	static const char text[] =
		"# every setting\n"
		"listen 127.0.0.1:9100\n"
		"  max-connections\t4   # comment\r\n"
		"timeout 30\n"
		"\n"
		"textfile /var/lib/node_exporter\n"
		"interval 500ms\n"
		"sample 200us\n"
		"per-prio yes\n"
		"per-bin yes\n"
		"histogram-le 250ns 500ns 1us 2ms 1.5\n"
		"device 0000:08:00.0\n"
		"device sim:1\n"
		"export port_prio_rx_bytes port=1 prio=0-2,7\n"
		"export icmc_hits\n";
	struct xcfg c;
	char err[512];

	xcfg_defaults(&c);
	EQ_STR(c.listen_text, ":9855", "listen defaults to :9855");
	OK(c.max_connections == 16 && c.timeout_s == 10 && !c.sample_ns &&
	   !c.per_prio && !c.per_bin && !c.nr_exports && !c.textfile[0],
	   "16 connections, 10 s, counting, per-prio and per-bin off, the "
	   "default set, HTTP");
	EQ_INT(xcfg_parse(&c, text, sizeof(text) - 1, "x.conf", err, sizeof(err)), 0,
	       "a file of every setting");
	EQ_STR(c.listen_text, "127.0.0.1:9100", "listen");
	OK(c.listen.port == 9100 && !c.listen.any, "as an address");
	EQ_INT(c.max_connections, 4, "max-connections (tab, comment, CRLF)");
	EQ_INT(c.timeout_s, 30, "timeout in seconds without a unit");
	EQ_STR(c.textfile, "/var/lib/node_exporter", "textfile");
	EQ_U64(c.interval_ns, 500000000ull, "interval");
	EQ_U64(c.sample_ns, 200000ull, "sample");
	OK(c.per_prio && c.per_bin, "per-prio, per-bin");
	OK(c.nr_le == 5 && c.le[0] == 250e-9 && c.le[2] == 1e-6 && c.le[3] == 2e-3 &&
	   c.le[4] == 1.5, "histogram-le in seconds");
	OK(c.nr_devices == 2 && !strcmp(c.devices[1], "sim:1"), "devices");
	OK(c.nr_exports == 2 && c.exports[0].kind == data_kind_by_event("port_prio_rx_bytes") &&
	   !c.exports[0].fields[0].all && c.exports[0].fields[0].nr == 1 &&
	   c.exports[0].fields[1].nr == 2 && c.exports[0].fields[1].r[0].hi == 2 &&
	   c.exports[0].fields[1].r[1].lo == 7 && c.exports[1].kind->kind == 0x11800002,
	   "exports, their ranges");
	EQ_INT(xcfg_check(&c, err, sizeof(err)), 0, "and together they hold");

	/* options after the file: a scalar replaces, a switch is yes */
	EQ_INT(xcfg_apply(&c, "listen", ":9200", 0, err, sizeof(err)), 0,
	       "--listen after the file");
	EQ_STR(c.listen_text, ":9200", "replaces its listen");
	c.per_prio = 0;
	EQ_INT(xcfg_apply(&c, "per-prio", NULL, 0, err, sizeof(err)), 0, "--per-prio");
	EQ_INT(c.per_prio, 1, "is yes");
	xcfg_defaults(&c);
	EQ_INT(xcfg_parse(&c, "per-bin\n", 8, "x", err, sizeof(err)), 0,
	       "a switch alone in the file");
	EQ_INT(c.per_bin, 1, "is yes too");
}

static void test_config_refusals(void)
{
	static const struct { const char *text, *err; } cases[] = {
		{ "bogus 1\n", "x.conf:1: unknown setting 'bogus'" },
		{ "\n\nlisten 1\nlisten 2\n", "x.conf:4: listen given twice (line 3 before)" },
		{ "listen\n", "x.conf:1: listen takes one value" },
		{ "listen a b\n", "x.conf:1: listen takes one value" },
		{ "listen host:80\n", "x.conf:1: bad listen address 'host:80': not a "
		  "numeric IPv4 address (PORT, :PORT, IPV4:PORT or [IPV6]:PORT)" },
		{ "max-connections 0\n", "x.conf:1: max-connections: '0' is not 1-1024" },
		{ "max-connections 1025\n", "x.conf:1: max-connections: '1025' is not 1-1024" },
		{ "timeout 1.5\n", "x.conf:1: timeout: whole seconds, 1-3600" },
		{ "timeout 500ms\n", "x.conf:1: timeout: bad time '500ms': too short" },
		{ "timeout 2h\n", "x.conf:1: timeout: bad time '2h': unknown unit" },
		{ "sample 0\n", "x.conf:1: sample: bad time '0': zero" },
		{ "sample -1ms\n", "x.conf:1: sample: bad time '-1ms': negative" },
		{ "interval 10ms\n", "x.conf:1: interval: bad time '10ms': too short" },
		{ "per-prio maybe\n", "x.conf:1: per-prio: 'maybe' is neither yes nor no" },
		{ "per-bin yes no\n", "x.conf:1: per-bin takes one value" },
		{ "histogram-le\n", "x.conf:1: histogram-le needs bounds (times: 500ns 1us ...)" },
		{ "histogram-le 1us 1us\n", "x.conf:1: histogram-le: bad bound '1us': not "
		  "above the bound before it" },
		{ "histogram-le 1ns 2ns 3ns 4ns 5ns 6ns 7ns 8ns 9ns 10ns 11ns\n",
		  "x.conf:1: histogram-le: more "
		  "than 10 bounds (the bins)" },
		{ "histogram-le 0.5us\n", "x.conf:1: histogram-le: bad bound '0.5us': a "
		  "fraction only in seconds" },
		{ "export\n", "x.conf:1: export needs an event (port_rx_bytes ...)" },
		{ "export port_rx_byte\n", "x.conf:1: export: unknown event 'port_rx_byte'" },
		{ "export port_rx_bytes prio=1\n", "x.conf:1: export port_rx_bytes: 'prio=' "
		  "is not one of its fields (FIELD=VALUES)" },
		{ "export port_rx_bytes port\n", "x.conf:1: export port_rx_bytes: 'port' is "
		  "not one of its fields (FIELD=VALUES)" },
		{ "export icmc_hits port=0\n", "x.conf:1: export icmc_hits: 'port=' is not "
		  "one of its fields (FIELD=VALUES)" },
		{ "export port_rx_bytes port=0 port=1\n", "x.conf:1: export port_rx_bytes: "
		  "port given twice" },
		{ "export port_rx_bytes port=1-0\n", "x.conf:1: port=1-0: not *, or up to 16 "
		  "numbers 0-255 and ranges N-M, comma-separated" },
		{ "export port_rx_bytes port=256\n", "x.conf:1: port=256: not *, or up to 16 "
		  "numbers 0-255 and ranges N-M, comma-separated" },
		{ "export port_rx_bytes port=1,,2\n", "x.conf:1: port=1,,2: not *, or up to "
		  "16 numbers 0-255 and ranges N-M, comma-separated" },
		{ "export port_rx_bytes port=\n", "x.conf:1: port=: not *, or up to 16 "
		  "numbers 0-255 and ranges N-M, comma-separated" },
		{ "export port_rx_bytes port=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n",
		  "x.conf:1: port=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16: not *, or up "
		  "to 16 numbers 0-255 and ranges N-M, comma-separated" },
		{ "device\n", "x.conf:1: device takes one value" },
		{ "listen 1\n\0listen 2\n", "x.conf:2: a NUL byte" },
	};
	struct xcfg c;
	char err[512], long_line[XCFG_MAX_LINE + 16];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i].text);

		if (strstr(cases[i].err, "NUL"))
			len = 23;
		xcfg_defaults(&c);
		err[0] = '\0';
		OK(xcfg_parse(&c, cases[i].text, len, "x.conf", err, sizeof(err)) == -1,
		   "refused: %s", cases[i].err);
		EQ_STR(err, cases[i].err, "in those words");
	}
	memset(long_line, 'a', sizeof(long_line));
	xcfg_defaults(&c);
	OK(xcfg_parse(&c, long_line, sizeof(long_line), "x.conf", err, sizeof(err)) == -1,
	   "a line over %d bytes", XCFG_MAX_LINE);
	EQ_STR(err, "x.conf:1: longer than 4096 bytes", "is refused");
	xcfg_defaults(&c);
	OK(xcfg_parse(&c, long_line, XCFG_MAX_FILE + 1, "x.conf", err, sizeof(err)) == -1 &&
	   !strcmp(err, "x.conf: larger than 1048576 bytes"), "a file over 1 MiB");
	xcfg_defaults(&c);
	for (i = 0; i < XCFG_MAX_EXPORTS; i++)
		xcfg_apply(&c, "export", "icmc_hits", (unsigned int)i + 1, err, sizeof(err));
	OK(xcfg_apply(&c, "export", "icmc_hits", 99, err, sizeof(err)) == -1 &&
	   !strcmp(err, "more than 64 export lines"), "65 export lines");
	xcfg_defaults(&c);
	snprintf(long_line, sizeof(long_line), "device %0200d\n", 1);
	OK(xcfg_parse(&c, long_line, strlen(long_line), "x.conf", err, sizeof(err)) == -1 &&
	   !strcmp(err, "x.conf:1: device: the value is longer than 127 bytes"),
	   "a device name over 127 bytes");
	xcfg_load(&c, "/nonexistent/x.conf", err, sizeof(err));
	EQ_STR(err, "/nonexistent/x.conf: No such file or directory", "a missing file");
}

static void test_config_check(void)
{
	static const struct { const char *text, *err; } cases[] = {
		{ "export port_prio_tx_bytes\n", "export port_prio_tx_bytes: per-priority "
		  "series are off (per-prio yes turns them on)" },
		{ "export pcie_read_latency_hist_packets\n", "export "
		  "pcie_read_latency_hist_packets: per-bin series are off (per-bin yes "
		  "turns them on)" },
		{ "export pcie_read_latency_max_ns\n", "export pcie_read_latency_max_ns: "
		  "a maximum or minimum is only sampled (sample PERIOD), never counted" },
		{ "histogram-le 1us\n", "histogram-le: the histogram is of the latency "
		  "bins, per-bin yes turns them on" },
		{ "interval 1\n", "interval: only the textfile mode writes at intervals "
		  "(a scrape reads when it comes)" },
	};
	struct xcfg c;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		xcfg_defaults(&c);
		xcfg_parse(&c, cases[i].text, strlen(cases[i].text), "x", err, sizeof(err));
		err[0] = '\0';
		OK(xcfg_check(&c, err, sizeof(err)) == -1, "refused together: %.*s",
		   (int)strcspn(cases[i].text, "\n"), cases[i].text);
		EQ_STR(err, cases[i].err, "saying why");
	}
	xcfg_defaults(&c);
	xcfg_apply(&c, "interval", "1", 0, err, sizeof(err));
	OK(xcfg_check(&c, err, sizeof(err)) == -1, "--interval without --textfile too");
	xcfg_defaults(&c);
	xcfg_apply(&c, "sample", "1ms", 0, err, sizeof(err));
	xcfg_apply(&c, "export", "pcie_read_latency_max_ns", 0, err, sizeof(err));
	EQ_INT(xcfg_check(&c, err, sizeof(err)), 0, "a maximum when sampling");

	struct xcfg a, b;

	xcfg_defaults(&a);
	xcfg_defaults(&b);
	OK(!xcfg_restart_needed(&a, &b), "the same settings need no restart");
	xcfg_apply(&b, "export", "icmc_hits", 1, err, sizeof(err));
	xcfg_apply(&b, "per-prio", "yes", 2, err, sizeof(err));
	OK(!xcfg_restart_needed(&a, &b), "nor other exports and per-prio");
	xcfg_apply(&b, "sample", "1ms", 3, err, sizeof(err));
	EQ_STR(xcfg_restart_needed(&a, &b), "sample", "sample does");
	xcfg_apply(&b, "listen", "1", 4, err, sizeof(err));
	EQ_STR(xcfg_restart_needed(&a, &b), "listen", "and listen");
}

/* The selection as "kind/instance" words, for exact comparisons. */
static void selection_text(const struct xcfg_selection *sel, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < sel->nr && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRIx64, i ? " " : "",
				      sel->ids[i]);
}

static void test_config_select(void)
{
	struct xcfg_selection sel;
	struct xcfg c;
	char err[512], got[4096];

	xcfg_defaults(&c);
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), 0,
	       "the default set on the emulator's device");
	selection_text(&sel, got, sizeof(got));
	EQ_STR(got, "1020000100000000 1020000100000001 1140000100000000 "
	       "1140000100000001 1020000300000000 1020000300000001 1140000300000000 "
	       "1140000300000001 1180000100000000 1180000200000000 1180000300000000 "
	       "1160000b00000000 1160000b00000001 1160000c00000000 1160000c00000001",
	       "15 IDs: 4 kinds of both ports, the ICM cache, both links' reads");
	OK(sel.kinds[14] == data_kind_by_event("pcie_read_latency_packets"), "with their kinds");

	xcfg_apply(&c, "per-prio", "yes", 1, err, sizeof(err));
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), -1,
	       "with per-prio, more than the device takes");
	EQ_STR(err, "47 data IDs selected, the device takes 16 at once "
	       "(caps/max_data_ids)", "saying so");

	xcfg_defaults(&c);
	xcfg_apply(&c, "per-prio", "yes", 1, err, sizeof(err));
	xcfg_apply(&c, "export", "port_prio_tx_bytes port=1 prio=6-7,0", 2, err, sizeof(err));
	xcfg_apply(&c, "export", "port_prio_tx_bytes prio=0", 3, err, sizeof(err));
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), 0, "ranges and lists");
	selection_text(&sel, got, sizeof(got));
	EQ_STR(got, "1140000200000601 1140000200000701 1140000200000001 "
	       "1140000200000000", "in their order, each ID once");

	xcfg_defaults(&c);
	xcfg_apply(&c, "export", "port_rx_bytes port=2", 1, err, sizeof(err));
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), -1,
	       "a port the device lacks");
	EQ_STR(err, "export port_rx_bytes: port 2: the device has port 0-1", "saying so");

	xcfg_defaults(&c);
	xcfg_apply(&c, "per-bin", "yes", 1, err, sizeof(err));
	xcfg_apply(&c, "histogram-le", "1us 2us", 2, err, sizeof(err));
	xcfg_apply(&c, "export", "pcie_read_latency_hist_packets link=1 bin=0-4", 3,
		   err, sizeof(err));
	xcfg_apply(&c, "export", "host_rx_buffer_discards", 4, err, sizeof(err));
	xcfg_apply(&c, "export", "pcie_read_latency_hist_packets link=1 bin=5-9", 5,
		   err, sizeof(err));
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), 0,
	       "histogram bins with bounds");
	selection_text(&sel, got, sizeof(got));
	EQ_STR(got, "1160000f00000001 1160000f00010001 1160000f00020001 "
	       "1160000f00030001 1160000f00040001 1040000100000000 "
	       "1160000f00050001 1160000f00060001 1160000f00070001 "
	       "1160000f00080001 1160000f00090001 1160000b00000001",
	       "add their link's latency total (the histogram's sum)");

	struct xcfg_device_caps no_hosts = sim_caps;

	no_hosts.num_hosts = 0;
	EQ_INT(xcfg_select(&c, &no_hosts, &sel, err, sizeof(err)), -1,
	       "a device without hosts");
	EQ_STR(err, "export host_rx_buffer_discards: the device has no host", "saying so");

	/* the default set: of the kinds and instances the device has */
	struct xcfg_device_caps few = {
		.num_ports = 1, .max_data_ids = 16, .nr_kinds = 3,
		.kinds = { 0x10200001, 0x11800002, 0x1160000b },
	};

	xcfg_defaults(&c);
	EQ_INT(xcfg_select(&c, &few, &sel, err, sizeof(err)), 0,
	       "the default set on a device of 3 kinds, 1 port and no link");
	selection_text(&sel, got, sizeof(got));
	EQ_STR(got, "1020000100000000 1180000200000000", "its port's bytes and the "
	       "ICM cache hits");
	xcfg_apply(&c, "export", "icmc_misses", 1, err, sizeof(err));
	EQ_INT(xcfg_select(&c, &few, &sel, err, sizeof(err)), -1,
	       "an export of an event it lacks");
	EQ_STR(err, "export icmc_misses: the device has no such event (events/)",
	       "is refused");
}

/* ---- scrapes ---- */

/* S rendered in FORMAT, checked against WANT; promtool on 0.0.4. */
static void check_scrape(struct expo_set *s, enum expo_format format,
			 const char *want, const char *what)
{
	char *text;
	size_t len;

	OK(!expo_render(s, format, &text, &len), "%s renders: %s", what, s->err);
	eq_text(text, want, what);
	if (text && format == EXPO_PROMETHEUS)
		check_promtool(text, len, what);
	free(text);
}

static void test_scrape_counting(void)
{
	static const uint64_t counts[] = {
		1000, 2000, 3000, 4000, 10, 20, 30, 40, 7, 5, 2,
		1500000000, 3000000001, 3, 6,
	};
	struct xcfg_selection sel;
	struct scrape_device d = {
		.device = "sim:0", .pmu = "mlx5_diag_0", .firmware_version = "28.0.0",
		.dialect = "model64",
		.freq_khz = 156250, .up = 1, .sel = &sel, .counts = counts,
		.created_ns = 1700000000000000000ull,
	};
	struct scrape_device down = {
		.device = "0000:08:00.0", .pmu = "mlx5_diag_1", .firmware_version = "28.0.0",
		.dialect = "model64",
		.freq_khz = 156250, .up = 0, .reason = "busy", .sel = &sel,
	};
	struct expo_set s;
	struct xcfg c;
	char err[256];

	xcfg_defaults(&c);
	xcfg_select(&c, &sim_caps, &sel, err, sizeof(err));
	expo_set_init(&s);
	scrape_begin(&s);
	EQ_INT(scrape_device(&s, &c, &down), 0, "a device that is down");
	EQ_INT(scrape_device(&s, &c, &d), 0, "a device counting the default set");
	check_scrape(&s, EXPO_PROMETHEUS,
"# HELP mlx5_diag_up Whether the exporter reads the device: 1, or 0 with the reason\n"
"# TYPE mlx5_diag_up gauge\n"
"mlx5_diag_up{device=\"0000:08:00.0\",reason=\"busy\"} 0\n"
"mlx5_diag_up{device=\"sim:0\"} 1\n"
"# HELP mlx5_diag_device_info The device a PMU serves, its firmware version and dialect, its clock\n"
"# TYPE mlx5_diag_device_info gauge\n"
"mlx5_diag_device_info{device=\"0000:08:00.0\",pmu=\"mlx5_diag_1\",firmware_version=\"28.0.0\",dialect=\"model64\",frequency_khz=\"156250\"} 1\n"
"mlx5_diag_device_info{device=\"sim:0\",pmu=\"mlx5_diag_0\",firmware_version=\"28.0.0\",dialect=\"model64\",frequency_khz=\"156250\"} 1\n"
"# HELP mlx5_diag_port_rx_bytes_total Bytes received on the physical port\n"
"# TYPE mlx5_diag_port_rx_bytes_total counter\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:0\",port=\"0\"} 1000\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:0\",port=\"1\"} 2000\n"
"# HELP mlx5_diag_port_tx_bytes_total Bytes transmitted on the physical port (no loopback)\n"
"# TYPE mlx5_diag_port_tx_bytes_total counter\n"
"mlx5_diag_port_tx_bytes_total{device=\"sim:0\",port=\"0\"} 3000\n"
"mlx5_diag_port_tx_bytes_total{device=\"sim:0\",port=\"1\"} 4000\n"
"# HELP mlx5_diag_port_rx_packets_total Packets received on the physical port\n"
"# TYPE mlx5_diag_port_rx_packets_total counter\n"
"mlx5_diag_port_rx_packets_total{device=\"sim:0\",port=\"0\"} 10\n"
"mlx5_diag_port_rx_packets_total{device=\"sim:0\",port=\"1\"} 20\n"
"# HELP mlx5_diag_port_tx_packets_total Packets transmitted on the physical port (no loopback)\n"
"# TYPE mlx5_diag_port_tx_packets_total counter\n"
"mlx5_diag_port_tx_packets_total{device=\"sim:0\",port=\"0\"} 30\n"
"mlx5_diag_port_tx_packets_total{device=\"sim:0\",port=\"1\"} 40\n"
"# HELP mlx5_diag_icmc_accesses_total Accesses to the ICM cache\n"
"# TYPE mlx5_diag_icmc_accesses_total counter\n"
"mlx5_diag_icmc_accesses_total{device=\"sim:0\"} 7\n"
"# HELP mlx5_diag_icmc_hits_total ICM cache accesses that hit\n"
"# TYPE mlx5_diag_icmc_hits_total counter\n"
"mlx5_diag_icmc_hits_total{device=\"sim:0\"} 5\n"
"# HELP mlx5_diag_icmc_misses_total ICM cache accesses that missed\n"
"# TYPE mlx5_diag_icmc_misses_total counter\n"
"mlx5_diag_icmc_misses_total{device=\"sim:0\"} 2\n"
"# HELP mlx5_diag_pcie_read_latency_total_seconds_total Latency of the device's PCIe reads on the link, summed over the reads\n"
"# TYPE mlx5_diag_pcie_read_latency_total_seconds_total counter\n"
"mlx5_diag_pcie_read_latency_total_seconds_total{device=\"sim:0\",link=\"0\"} 1.5\n"
"mlx5_diag_pcie_read_latency_total_seconds_total{device=\"sim:0\",link=\"1\"} 3.000000001\n"
"# HELP mlx5_diag_pcie_read_latency_packets_total PCIe reads whose latency was measured on the link\n"
"# TYPE mlx5_diag_pcie_read_latency_packets_total counter\n"
"mlx5_diag_pcie_read_latency_packets_total{device=\"sim:0\",link=\"0\"} 3\n"
"mlx5_diag_pcie_read_latency_packets_total{device=\"sim:0\",link=\"1\"} 6\n",
		     "counting: up, info, the default set's counters, ns as seconds");
	expo_set_free(&s);
}

static void test_scrape_histogram(void)
{
	/* bins 0-9 of link 1 and its latency total */
	static const uint64_t counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 123456 };
	struct xcfg_selection sel;
	struct scrape_device d = {
		.device = "sim:0", .pmu = "mlx5_diag_0", .firmware_version = "28.0.0",
		.dialect = "model64",
		.freq_khz = 156250, .up = 1, .sel = &sel, .counts = counts,
		.created_ns = 1700000000000000000ull,
	};
	struct expo_set s;
	struct xcfg c;
	char err[256];

	xcfg_defaults(&c);
	xcfg_apply(&c, "per-bin", "yes", 1, err, sizeof(err));
	xcfg_apply(&c, "histogram-le", "500ns 1us 2us", 2, err, sizeof(err));
	xcfg_apply(&c, "export", "pcie_read_latency_hist_packets link=1", 3, err,
		   sizeof(err));
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), 0,
	       "the bins of link 1 with 3 bounds");
	EQ_INT(sel.nr, 11, "10 bins and the latency total");
	expo_set_init(&s);
	scrape_begin(&s);
	EQ_INT(scrape_device(&s, &c, &d), 0, "as a histogram");
	check_scrape(&s, EXPO_OPENMETRICS,
"# TYPE mlx5_diag_up gauge\n"
"# HELP mlx5_diag_up Whether the exporter reads the device: 1, or 0 with the reason\n"
"mlx5_diag_up{device=\"sim:0\"} 1\n"
"# TYPE mlx5_diag_device info\n"
"# HELP mlx5_diag_device The device a PMU serves, its firmware version and dialect, its clock\n"
"mlx5_diag_device_info{device=\"sim:0\",pmu=\"mlx5_diag_0\",firmware_version=\"28.0.0\",dialect=\"model64\",frequency_khz=\"156250\"} 1\n"
"# TYPE mlx5_diag_pcie_read_latency_seconds histogram\n"
"# UNIT mlx5_diag_pcie_read_latency_seconds seconds\n"
"# HELP mlx5_diag_pcie_read_latency_seconds Latency of the device's PCIe reads on the link, by the bins of pcie_read_latency_hist_packets with the configured bounds\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"5e-07\"} 1\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"1e-06\"} 3\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"2e-06\"} 6\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"+Inf\"} 55\n"
"mlx5_diag_pcie_read_latency_seconds_sum{device=\"sim:0\",link=\"1\"} 0.000123456\n"
"mlx5_diag_pcie_read_latency_seconds_count{device=\"sim:0\",link=\"1\"} 55\n"
"mlx5_diag_pcie_read_latency_seconds_created{device=\"sim:0\",link=\"1\"} 1700000000\n"
"# TYPE mlx5_diag_pcie_read_latency_total_seconds counter\n"
"# UNIT mlx5_diag_pcie_read_latency_total_seconds seconds\n"
"# HELP mlx5_diag_pcie_read_latency_total_seconds Latency of the device's PCIe reads on the link, summed over the reads\n"
"mlx5_diag_pcie_read_latency_total_seconds_total{device=\"sim:0\",link=\"1\"} 0.000123456\n"
"mlx5_diag_pcie_read_latency_total_seconds_created{device=\"sim:0\",link=\"1\"} 1700000000\n"
"# EOF\n", "the bins as a histogram: cumulative, the rest in +Inf, the "
		     "latency total its sum");
	check_scrape(&s, EXPO_PROMETHEUS,
"# HELP mlx5_diag_up Whether the exporter reads the device: 1, or 0 with the reason\n"
"# TYPE mlx5_diag_up gauge\n"
"mlx5_diag_up{device=\"sim:0\"} 1\n"
"# HELP mlx5_diag_device_info The device a PMU serves, its firmware version and dialect, its clock\n"
"# TYPE mlx5_diag_device_info gauge\n"
"mlx5_diag_device_info{device=\"sim:0\",pmu=\"mlx5_diag_0\",firmware_version=\"28.0.0\",dialect=\"model64\",frequency_khz=\"156250\"} 1\n"
"# HELP mlx5_diag_pcie_read_latency_seconds Latency of the device's PCIe reads on the link, by the bins of pcie_read_latency_hist_packets with the configured bounds\n"
"# TYPE mlx5_diag_pcie_read_latency_seconds histogram\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"5e-07\"} 1\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"1e-06\"} 3\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"2e-06\"} 6\n"
"mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"1\",le=\"+Inf\"} 55\n"
"mlx5_diag_pcie_read_latency_seconds_sum{device=\"sim:0\",link=\"1\"} 0.000123456\n"
"mlx5_diag_pcie_read_latency_seconds_count{device=\"sim:0\",link=\"1\"} 55\n"
"# HELP mlx5_diag_pcie_read_latency_total_seconds_total Latency of the device's PCIe reads on the link, summed over the reads\n"
"# TYPE mlx5_diag_pcie_read_latency_total_seconds_total counter\n"
"mlx5_diag_pcie_read_latency_total_seconds_total{device=\"sim:0\",link=\"1\"} 0.000123456\n",
		     "and in Prometheus text");
	expo_set_free(&s);

	xcfg_apply(&c, "export", "pcie_read_latency_hist_packets link=0 bin=0-8", 4,
		   err, sizeof(err));
	EQ_INT(xcfg_select(&c, &sim_caps, &sel, err, sizeof(err)), -1,
	       "a histogram without all its bins");
	EQ_STR(err, "histogram-le: link 0 lacks bin 9 (the histogram takes "
	       "bins 0-9)", "is refused");
}

/* One sample of NR_IDS IDS at T; column I's value is V + I * X. */
static void fold_sample_at(struct stream *st, const uint64_t *ids, uint16_t nr_ids,
			   uint64_t seq, uint64_t t, uint64_t v)
{
	struct stream_samples smp = {
		.out_format = MLX5_DIAG_FORMAT_1, .ts_source = MLX5_DIAG_TS_FRC,
		.num_ids = nr_ids, .ids = ids, .first_seq = seq, .nr = 1, .t0 = t,
		.t_step = 1000, .entry_step = 0,
	};

	smp.value_base = v - seq * 1000003u;
	stream_samples(st, &smp);
}

static void test_fold(void)
{
	/* a counter, a sum, a maximum, a minimum; 1 GHz: a clock is 1 ns */
	static const uint64_t ids[] = {
		0x1020000100000000ull, 0x1160000c00000000ull,
		0x1160000d00000000ull, 0x1160000e00000000ull,
	};
	static const uint8_t vclass[] = {
		MLX5_DIAG_VCLASS_COUNTER, MLX5_DIAG_VCLASS_STAT_SUM,
		MLX5_DIAG_VCLASS_STAT_MAX, MLX5_DIAG_VCLASS_STAT_MIN,
	};
	struct stream_session sess = {
		.run = 0, .out_format = MLX5_DIAG_FORMAT_1,
		.ts_source = MLX5_DIAG_TS_FRC, .freq_khz = 1000000, .num_ids = 4,
		.ids = ids, .vclass = vclass, .period_ns = 1000,
		.identifier = "sim:0",
	};
	struct sink_stream si = { .desc = "AUX stream", .pmu = "mlx5_diag_0" };
	struct pipeline p = { .path = "fold test", .quiet = 1 };
	struct xcfg_selection sel = { .nr = 4 };
	struct scrape_device d = {
		.device = "sim:0", .pmu = "mlx5_diag_0", .firmware_version = "28.0.0",
		.dialect = "model64",
		.freq_khz = 1000000, .up = 1, .sel = &sel,
		.created_ns = 1700000000000000000ull,
	};
	const uint64_t x = 0x100000001ull;	/* column I is I * X above 0 */
	struct fold_view v;
	struct expo_set s;
	struct stream st;
	struct fold f;
	struct xcfg c;
	unsigned int i;

	xcfg_defaults(&c);
	for (i = 0; i < 4; i++) {
		sel.ids[i] = ids[i];
		sel.kinds[i] = data_kind_by_id(ids[i]);
	}
	fold_init(&f);
	OK(!pipeline_init(&p, &fold_sink, &f, NULL), "a live pipeline into the fold");
	stream_init(&st);
	stream_session(&st, &sess);
	stream_time(&st, MLX5_DIAG_TS_FRC, 0, 1000, 10);
	/* the counter goes up 50, 300, 50 in periods of 1000 ns */
	fold_sample_at(&st, ids, 4, 0, 0, 100);
	fold_sample_at(&st, ids, 4, 1, 1000, 150);
	fold_sample_at(&st, ids, 4, 2, 2000, 450);
	fold_sample_at(&st, ids, 4, 3, 3000, 500);
	stream_lost(&st, 4, 5, MLX5_DIAG_LOST_FW_OVERWRITE);
	pipeline_stream_begin(&p, &si, 0);
	EQ_INT(pipeline_feed(&p, st.buf, st.len), 0, "a session of 4 samples and a loss");
	stream_free(&st);

	OK(!fold_take(&f, &v), "the window taken");
	EQ_U64(v.samples, 4, "4 samples folded");
	EQ_U64(v.lost[MLX5_DIAG_LOST_FW_OVERWRITE], 5, "5 lost to the firmware");
	EQ_U64(v.period_ns, 1000, "the period");
	d.fold = &v;
	expo_set_init(&s);
	scrape_begin(&s);
	EQ_INT(scrape_device(&s, &c, &d), 0, "a sampled device");
	/*
	 * counter: total 400, peak 300 in 1000 ns; sum: the 4 values
	 * (100 + 150 + 450 + 500 + 4 X), peak (500 + X) / 1 us (the first
	 * has no interval); max 500 + 2 X ns; min 100 + 3 X ns
	 */
	check_scrape(&s, EXPO_PROMETHEUS,
"# HELP mlx5_diag_up Whether the exporter reads the device: 1, or 0 with the reason\n"
"# TYPE mlx5_diag_up gauge\n"
"mlx5_diag_up{device=\"sim:0\"} 1\n"
"# HELP mlx5_diag_device_info The device a PMU serves, its firmware version and dialect, its clock\n"
"# TYPE mlx5_diag_device_info gauge\n"
"mlx5_diag_device_info{device=\"sim:0\",pmu=\"mlx5_diag_0\",firmware_version=\"28.0.0\",dialect=\"model64\",frequency_khz=\"1000000\"} 1\n"
"# HELP mlx5_diag_samples_total Device samples folded since the exporter started sampling\n"
"# TYPE mlx5_diag_samples_total counter\n"
"mlx5_diag_samples_total{device=\"sim:0\"} 4\n"
"# HELP mlx5_diag_lost_samples_total Device samples lost before the exporter could fold them, by cause\n"
"# TYPE mlx5_diag_lost_samples_total counter\n"
"mlx5_diag_lost_samples_total{device=\"sim:0\",cause=\"fw_overwrite\"} 5\n"
"mlx5_diag_lost_samples_total{device=\"sim:0\",cause=\"aux_full\"} 0\n"
"mlx5_diag_lost_samples_total{device=\"sim:0\",cause=\"reset\"} 0\n"
"mlx5_diag_lost_samples_total{device=\"sim:0\",cause=\"other\"} 0\n"
"# HELP mlx5_diag_sample_period_seconds The sample period the device runs\n"
"# TYPE mlx5_diag_sample_period_seconds gauge\n"
"mlx5_diag_sample_period_seconds{device=\"sim:0\"} 0.000001\n"
"# HELP mlx5_diag_port_rx_bytes_total Bytes received on the physical port\n"
"# TYPE mlx5_diag_port_rx_bytes_total counter\n"
"mlx5_diag_port_rx_bytes_total{device=\"sim:0\",port=\"0\"} 400\n"
"# HELP mlx5_diag_port_rx_bytes_peak_per_second The largest rate of one sample period since the last scrape: Bytes received on the physical port\n"
"# TYPE mlx5_diag_port_rx_bytes_peak_per_second gauge\n"
"mlx5_diag_port_rx_bytes_peak_per_second{device=\"sim:0\",port=\"0\"} 3e+08\n"
"# HELP mlx5_diag_pcie_read_latency_packets_total PCIe reads whose latency was measured on the link\n"
"# TYPE mlx5_diag_pcie_read_latency_packets_total counter\n"
"mlx5_diag_pcie_read_latency_packets_total{device=\"sim:0\",link=\"0\"} 17179870388\n"
"# HELP mlx5_diag_pcie_read_latency_packets_peak_per_second The largest rate of one sample period since the last scrape: PCIe reads whose latency was measured on the link\n"
"# TYPE mlx5_diag_pcie_read_latency_packets_peak_per_second gauge\n"
"mlx5_diag_pcie_read_latency_packets_peak_per_second{device=\"sim:0\",link=\"0\"} 4.294967797e+15\n"
"# HELP mlx5_diag_pcie_read_latency_max_seconds Longest latency of a PCIe read on the link, of the samples since the last scrape\n"
"# TYPE mlx5_diag_pcie_read_latency_max_seconds gauge\n"
"mlx5_diag_pcie_read_latency_max_seconds{device=\"sim:0\",link=\"0\"} 8.589935094\n"
"# HELP mlx5_diag_pcie_read_latency_min_seconds Shortest latency of a PCIe read on the link, of the samples since the last scrape\n"
"# TYPE mlx5_diag_pcie_read_latency_min_seconds gauge\n"
"mlx5_diag_pcie_read_latency_min_seconds{device=\"sim:0\",link=\"0\"} 12.884901991\n",
		     "the window: totals, peak rates, the maximum and the minimum");
	expo_set_free(&s);
	fold_view_free(&v);

	/* an empty window: totals only */
	fold_take(&f, &v);
	OK(v.nr == 4 && !v.series[0].n && !v.series[2].n && v.series[0].total == 400,
	   "a window without samples keeps the totals, no peak or extreme");
	fold_view_free(&v);

	/* on: +100, +1000; a new run, whose first sample starts its counts */
	stream_init(&st);
	fold_sample_at(&st, ids, 4, 4, 4000, 600);
	fold_sample_at(&st, ids, 4, 5, 5000, 1600);
	stream_end(&st, 6, MLX5_DIAG_END_STOPPED);
	sess.run = 1;
	stream_session(&st, &sess);
	stream_time(&st, MLX5_DIAG_TS_FRC, 10000, 20000, 10);
	fold_sample_at(&st, ids, 4, 0, 10000, 10);
	fold_sample_at(&st, ids, 4, 1, 12000, 20);
	EQ_INT(pipeline_feed(&p, st.buf, st.len), 0, "2 samples, an end, a new run of 2");
	stream_free(&st);
	fold_take(&f, &v);
	OK(v.series[0].total == 1510 && v.series[0].peak_rate == 1e9 &&
	   v.runs == 2 && v.samples == 8 && p.end_reason == MLX5_DIAG_END_STOPPED,
	   "total 400 + 1100 + 10, peak 1000 per us, 2 runs, 8 samples (got %"
	   PRIu64 ", %g)", v.series[0].total, v.series[0].peak_rate);
	OK(v.series[2].extreme == 1600 + 2 * x && v.series[3].extreme == 10 + 3 * x,
	   "this window's maximum and minimum only");
	fold_view_free(&v);
	EQ_INT(pipeline_stream_end(&p, 0), 0, "the stream ends whole");
	pipeline_exit(&p);
	fold_free(&f);
}

/* The fold's window of metrics.def's metric NAME of instance ID, or NULL. */
static const struct fold_metric *fold_metric_of(const struct fold_view *v,
						const char *name, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < v->nr_metrics; i++)
		if (!strcmp(v->metrics[i].name, name) && v->metrics[i].anchor_id == id)
			return &v->metrics[i];
	return NULL;
}

/* LINE is in TEXT, with VALUE (as the exposition writes it) at its end. */
static void has_series(const char *text, const char *line, double value)
{
	char want[512], num[64];

	expo_canonical(value, num, sizeof(num));
	snprintf(want, sizeof(want), "\n%s %s\n", line, num);
	OK(text && strstr(text, want), "the scrape has %s %s", line, num);
}

static void test_fold_metrics(void)
{
	/* port 0 bytes, link 0's latency total and reads, the ICM cache */
	static const uint64_t ids[] = {
		0x1020000100000000ull, 0x1160000b00000000ull,
		0x1160000c00000000ull, 0x1180000100000000ull,
		0x1180000200000000ull,
	};
	static const uint8_t vclass[] = {
		MLX5_DIAG_VCLASS_COUNTER, MLX5_DIAG_VCLASS_STAT_SUM,
		MLX5_DIAG_VCLASS_STAT_SUM, MLX5_DIAG_VCLASS_COUNTER,
		MLX5_DIAG_VCLASS_COUNTER,
	};
	struct stream_session sess = {
		.run = 0, .out_format = MLX5_DIAG_FORMAT_1,
		.ts_source = MLX5_DIAG_TS_FRC, .freq_khz = 1000000, .num_ids = 5,
		.ids = ids, .vclass = vclass, .period_ns = 1000,
		.identifier = "sim:0",
	};
	struct sink_stream si = { .desc = "AUX stream", .pmu = "mlx5_diag_0" };
	struct pipeline p = { .path = "fold test", .quiet = 1, .metrics = 1 };
	struct xcfg_selection sel = { .nr = 5 };
	struct scrape_device d = {
		.device = "sim:0", .pmu = "mlx5_diag_0", .firmware_version = "28.0.0",
		.dialect = "model64",
		.freq_khz = 1000000, .up = 1, .sel = &sel,
		.created_ns = 1700000000000000000ull,
	};
	const uint64_t x = 0x100000001ull;	/* column I is I * X above V */
	const struct fold_metric *rx, *lat, *hit, *acc;
	struct fold_view v;
	struct expo_set s;
	struct stream st;
	struct fold f;
	struct xcfg c;
	unsigned int i;
	size_t len;
	char *text;

	xcfg_defaults(&c);
	for (i = 0; i < 5; i++) {
		sel.ids[i] = ids[i];
		sel.kinds[i] = data_kind_by_id(ids[i]);
	}
	fold_init(&f);
	OK(!pipeline_init(&p, &fold_sink, &f, NULL), "a live pipeline with metrics");
	stream_init(&st);
	stream_session(&st, &sess);
	stream_time(&st, MLX5_DIAG_TS_FRC, 0, 1000, 10);
	/* V 100, 150, 450, 500 at 0, 1, 2 and 4 us: increases 50, 300, 50 */
	fold_sample_at(&st, ids, 5, 0, 0, 100);
	fold_sample_at(&st, ids, 5, 1, 1000, 150);
	fold_sample_at(&st, ids, 5, 2, 2000, 450);
	fold_sample_at(&st, ids, 5, 3, 4000, 500);
	pipeline_stream_begin(&p, &si, 0);
	EQ_INT(pipeline_feed(&p, st.buf, st.len), 0, "a session of 4 samples");
	stream_free(&st);

	OK(!fold_take(&f, &v), "the window taken");
	EQ_INT(v.nr_metrics, 4, "4 metrics of metrics.def on these columns");
	rx = fold_metric_of(&v, "rx_bytes_GBps", ids[0]);
	lat = fold_metric_of(&v, "avg_read_latency_ns", ids[1]);
	acc = fold_metric_of(&v, "icmc_accesses_per_s", ids[3]);
	hit = fold_metric_of(&v, "icmc_hit_rate", ids[4]);
	OK(rx && lat && acc && hit, "port 0's receive rate, link 0's read latency, "
	   "the ICM cache's accesses per second and hit rate");
	if (!rx || !lat || !acc || !hit) {
		fold_view_free(&v);
		pipeline_exit(&p);
		fold_free(&f);
		return;
	}
	/* an increase over the seconds between two samples (none at the first) */
	OK(rx->n == 3 && rx->max == 300 / (1000 * 1e-9) && rx->min == 50 / (2000 * 1e-9),
	   "bytes per second: 3 samples, 300 in 1 us the most, 50 in 2 us the least "
	   "(got %g, %g)", rx->max, rx->min);
	OK(acc->n == 3 && acc->max == rx->max && acc->min == rx->min,
	   "accesses per second: the same increases");
	OK(hit->n == 3 && hit->max == 1 && hit->min == 1, "hits per access: 1");
	/* a sum over a sum: every sample, the total (column 1) by the reads (2) */
	OK(lat->n == 4 &&
	   lat->max == (double)(500 + x) / (double)(500 + 2 * x) &&
	   lat->min == (double)(100 + x) / (double)(100 + 2 * x),
	   "the read latency in ns: 4 samples, at V 500 the most, at V 100 the least");

	d.fold = &v;
	expo_set_init(&s);
	scrape_begin(&s);
	EQ_INT(scrape_device(&s, &c, &d), 0, "a sampled device with metrics");
	OK(!expo_render(&s, EXPO_PROMETHEUS, &text, &len), "renders: %s", s.err);
	has_series(text, "mlx5_diag_port_rx_bytes_per_second_max{device=\"sim:0\",port=\"0\"}",
		   rx->max);
	has_series(text, "mlx5_diag_port_rx_bytes_per_second_min{device=\"sim:0\",port=\"0\"}",
		   rx->min);
	has_series(text, "mlx5_diag_pcie_avg_read_latency_seconds_max{device=\"sim:0\",link=\"0\"}",
		   lat->max * 1e-9);
	has_series(text, "mlx5_diag_pcie_avg_read_latency_seconds_min{device=\"sim:0\",link=\"0\"}",
		   lat->min * 1e-9);
	has_series(text, "mlx5_diag_icmc_accesses_per_second_max{device=\"sim:0\"}", acc->max);
	has_series(text, "mlx5_diag_icmc_hit_rate_min{device=\"sim:0\"}", 1);
	OK(text && strstr(text, "# HELP mlx5_diag_icmc_hit_rate_max The largest value of one "
			  "sample since the last scrape: ICM cache hits per access\n"
			  "# TYPE mlx5_diag_icmc_hit_rate_max gauge\n"),
	   "a metric's family says what it is and that it is a gauge");
	if (text)
		check_promtool(text, len, "a scrape with metrics");
	free(text);
	expo_set_free(&s);
	fold_view_free(&v);

	/* the next window has its own: V 600 at 5 us */
	stream_init(&st);
	fold_sample_at(&st, ids, 5, 4, 5000, 600);
	EQ_INT(pipeline_feed(&p, st.buf, st.len), 0, "one more sample");
	stream_free(&st);
	fold_take(&f, &v);
	rx = fold_metric_of(&v, "rx_bytes_GBps", ids[0]);
	lat = fold_metric_of(&v, "avg_read_latency_ns", ids[1]);
	OK(rx && rx->n == 1 && rx->max == 100 / (1000 * 1e-9) && rx->min == rx->max &&
	   lat && lat->n == 1 && lat->max == (double)(600 + x) / (double)(600 + 2 * x),
	   "a new window: this sample's values only");
	fold_view_free(&v);

	/* an empty window: no metric families */
	fold_take(&f, &v);
	expo_set_init(&s);
	scrape_begin(&s);
	scrape_device(&s, &c, &d);
	OK(!expo_render(&s, EXPO_PROMETHEUS, &text, &len) && !strstr(text, "_per_second_max"),
	   "a window without samples shows no metric");
	free(text);
	expo_set_free(&s);
	fold_view_free(&v);
	EQ_INT(pipeline_stream_end(&p, 0), 0, "the stream ends whole");
	pipeline_exit(&p);
	fold_free(&f);
}

/* metrics.def's metrics */
static const struct {
	const char *name, *expr, *unit;
} metrics[] = {
#define MD_EVENT(name, kind, class, group)
#define MD_METRIC(name, expr, scale, unit, group, desc) { name, expr, unit },
#include "../metrics.def"
#undef MD_EVENT
#undef MD_METRIC
};

/* The family name of metrics.def's Ith metric into NAME: 0, or -1. */
static int metric_family(size_t i, char *name, size_t len, double *factor)
{
	const struct data_kind *k;
	char first[64];

	if (sscanf(metrics[i].expr, "%63[a-z_]", first) != 1)
		return -1;
	k = data_kind_by_event(first);
	return k ? fam_metric_name(k, metrics[i].name, metrics[i].unit, name, len,
				   factor) : -1;
}

/*
 * Each metric of metrics.def has a family name in base units, from the
 * group of its first event; each kind's event starts with its group's
 * prefix, which those names take.
 */
static void test_metric_names(void)
{
	static const char *const want[] = {
		"mlx5_diag_port_rx_bytes_per_second", "mlx5_diag_port_tx_bytes_per_second",
		"mlx5_diag_port_prio_rx_bytes_per_second",
		"mlx5_diag_port_prio_tx_bytes_per_second",
		"mlx5_diag_port_rx_packets_per_second", "mlx5_diag_port_tx_packets_per_second",
		"mlx5_diag_pcie_avg_read_latency_seconds", "mlx5_diag_icmc_hit_rate",
		"mlx5_diag_icmc_miss_rate", "mlx5_diag_icmc_accesses_per_second",
	};
	static const char *const prefixes[] = {
		[DATA_KIND_GROUP_GLOBAL] = "", [DATA_KIND_GROUP_PORT] = "port_",
		[DATA_KIND_GROUP_PORT_PRIO] = "port_prio_", [DATA_KIND_GROUP_HOST] = "host_",
		[DATA_KIND_GROUP_FUNCTION] = "function_", [DATA_KIND_GROUP_PCIE_LINK] = "pcie_",
		[DATA_KIND_GROUP_PCIE_LINK_TCLASS] = "pcie_",
		[DATA_KIND_GROUP_PCIE_LINK_BIN] = "pcie_",
	};
	const struct data_kind *k;
	char name[176];
	double factor;
	size_t i;
	int bad = 0;

	EQ_INT(sizeof(metrics) / sizeof(metrics[0]), sizeof(want) / sizeof(want[0]),
	       "metrics.def's metrics");
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]) &&
		    i < sizeof(want) / sizeof(want[0]); i++)
		OK(!metric_family(i, name, sizeof(name), &factor) &&
		   !strcmp(name, want[i]) &&
		   factor == (strcmp(metrics[i].unit, "ns") ? 1 : 1e-9),
		   "%s (%s): %s", metrics[i].name, metrics[i].expr, want[i]);
	for (i = 0; (k = data_kind_at(i)); i++)
		if (strncmp(k->event, prefixes[k->group], strlen(prefixes[k->group]))) {
			printf("# %s: not %s...\n", k->event, prefixes[k->group]);
			bad++;
		}
	OK(!bad, "every kind's event starts with its group's prefix");
	k = data_kind_by_event("icmc_hits");
	EQ_INT(fam_metric_name(k, "icmc_hits_GBps", "bytes/h", name, sizeof(name),
			       &factor), -1, "a unit the table does not know");
	EQ_INT(fam_metric_name(k, "icmc_hits_per_h", "GB/s", name, sizeof(name),
			       &factor), -1, "a name without its unit's suffix");
}

/* ---- the dashboard ---- */

static void test_promql(void)
{
	static const struct { const char *expr, *scale, *want; } good[] = {
		{ "port_rx_bytes / duration_time", "1e-9",
		  "(rate(mlx5_diag_port_rx_bytes_total{device=~\"$device\"}"
		  "[$__rate_interval]) / 1) * 1e-9" },
		{ "pcie_read_latency_total_ns / pcie_read_latency_packets", "1",
		  "(rate(mlx5_diag_pcie_read_latency_total_seconds_total{device=~"
		  "\"$device\"}[$__rate_interval]) * 1e9) / rate("
		  "mlx5_diag_pcie_read_latency_packets_total{device=~\"$device\"}"
		  "[$__rate_interval])" },
		{ "(icmc_hits + icmc_misses) / (2 * icmc_accesses)", "1",
		  "(rate(mlx5_diag_icmc_hits_total{device=~\"$device\"}"
		  "[$__rate_interval]) + rate(mlx5_diag_icmc_misses_total{device=~"
		  "\"$device\"}[$__rate_interval])) / (2 * rate("
		  "mlx5_diag_icmc_accesses_total{device=~\"$device\"}"
		  "[$__rate_interval]))" },
		{ "icmc_hits / (icmc_accesses - (icmc_misses - 0.5 * icmc_hits))", "1",
		  "rate(mlx5_diag_icmc_hits_total{device=~\"$device\"}[$__rate_interval]) / "
		  "(rate(mlx5_diag_icmc_accesses_total{device=~\"$device\"}[$__rate_interval]) - "
		  "(rate(mlx5_diag_icmc_misses_total{device=~\"$device\"}[$__rate_interval]) - "
		  "0.5 * rate(mlx5_diag_icmc_hits_total{device=~\"$device\"}[$__rate_interval])))" },
	};
	static const struct { const char *expr, *why; } bad[] = {
		{ "port_rx_bytes * port_tx_bytes / duration_time",
		  "not a ratio of increases or an increase per second, which a "
		  "rate cannot express" },
		{ "port_rx_bytes", "not a ratio of increases or an increase per "
		  "second, which a rate cannot express" },
		{ "port_rx_bytes + 1", "terms of unlike dimensions added" },
		{ "bogus / duration_time", "an unknown event (not an MD_EVENT)" },
		{ "pcie_read_latency_max_ns / duration_time",
		  "an unknown event (not an MD_EVENT)" },
		{ "(icmc_hits / icmc_accesses", "a '(' without its ')'" },
		{ "icmc_hits / icmc_accesses )", "text after the expression" },
		{ "icmc_hits / ", "a number, name or '(' expected" },
		{ "icmc_hits - (icmc_misses - icmc_accesses) / duration_time",
		  "terms of unlike dimensions added" },
	};
	char out[2048], err[512], want[512];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		OK(!dashboard_promql(good[i].expr, good[i].scale, out, sizeof(out), err,
				     sizeof(err)), "PromQL of %s", good[i].expr);
		EQ_STR(out, good[i].want, "is rates of the counters");
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want), "%s: %s", bad[i].expr, bad[i].why);
		OK(dashboard_promql(bad[i].expr, "1", out, sizeof(out), err,
				    sizeof(err)) == -1, "no PromQL of %s", bad[i].expr);
		EQ_STR(err, want, "saying why");
	}
}

/* Each panel query of DASH (JSON) as a recording rule, into RULES. */
static int dashboard_rules(const char *dash, char *rules, size_t len, int *nr)
{
	struct json_object *root = json_tokener_parse(dash), *panels, *p, *targets;
	size_t n = 0, i, j, k;

	*nr = 0;
	if (!root || !json_object_object_get_ex(root, "panels", &panels))
		return -1;
	n += (size_t)snprintf(rules + n, len - n, "groups:\n- name: dashboard\n  rules:\n");
	for (i = 0; i < json_object_array_length(panels); i++) {
		p = json_object_array_get_idx(panels, i);
		if (!json_object_object_get_ex(p, "targets", &targets))
			continue;
		for (j = 0; j < json_object_array_length(targets); j++) {
			struct json_object *t = json_object_array_get_idx(targets, j), *e;
			const char *q;

			if (!json_object_object_get_ex(t, "expr", &e))
				return -1;
			q = json_object_get_string(e);
			n += (size_t)snprintf(rules + n, len - n, "  - record: panel_%d\n"
					      "    expr: '", ++*nr);
			/* the dashboard's variables as Grafana fills them */
			for (k = 0; q[k] && n + 8 < len; k++) {
				if (!strncmp(q + k, "$device", 7)) {
					n += (size_t)snprintf(rules + n, len - n, ".*");
					k += 6;
				} else if (!strncmp(q + k, "$__rate_interval", 16)) {
					n += (size_t)snprintf(rules + n, len - n, "1m");
					k += 15;
				} else {
					rules[n++] = q[k];
				}
			}
			n += (size_t)snprintf(rules + n, len - n, "'\n");
		}
	}
	json_object_put(root);
	return n < len ? 0 : -1;
}

/* The dashboard of settings "KEY VALUE" lines KEYS, in *TEXT (to free). */
static int dashboard_of(const char *keys, char **text)
{
	char err[256];
	size_t len = 0;
	struct xcfg c;
	FILE *f;
	int ret;

	xcfg_defaults(&c);
	if (xcfg_parse(&c, keys, strlen(keys), "test", err, sizeof(err))) {
		printf("#   %s\n", err);
		return -1;
	}
	f = open_memstream(text, &len);
	ret = dashboard_write(f, &c);
	fclose(f);
	return ret;
}

static void test_dashboard(void)
{
	static char rules[65536];
	char *text = NULL, out[4096];
	int nr, st;

	EQ_INT(dashboard_of("sample 1ms\nper-bin yes\nhistogram-le 1us 2us\n", &text), 0,
	       "the dashboard of a sampling exporter of the default set with a histogram");
	OK(!dashboard_rules(text, rules, sizeof(rules), &nr) && nr == 22,
	   "is JSON with 22 panel queries (got %d): up, the 8 of metrics.def's 10 "
	   "whose events the default set has (not the per-priority bandwidths), 2 "
	   "peaks, those 8 metrics' windows, samples, losses, the 99th percentile", nr);
	OK(!strstr(text, "prio"), "no panel of per-priority data, which it does not export");
	free(text);
	text = NULL;
	EQ_INT(dashboard_of("export port_rx_bytes port=0\nsample 1ms\n", &text), 0,
	       "the dashboard of one export");
	OK(!dashboard_rules(text, rules, sizeof(rules), &nr) && nr == 6,
	   "has 6 panel queries (got %d): up, the receive bandwidth, its peak and "
	   "window, samples, losses", nr);
	free(text);
	text = NULL;
	EQ_INT(dashboard_of("sample 1ms\nper-prio yes\nper-bin yes\nhistogram-le 1us 2us\n",
			    &text), 0, "the dashboard with per-priority data too");
	OK(!dashboard_rules(text, rules, sizeof(rules), &nr) && nr == 26,
	   "is JSON with 26 panel queries (got %d): up, 10 of metrics.def, 2 "
	   "peaks, 10 metrics' windows, samples, losses, the 99th percentile", nr);
	OK(strstr(text, "\"expr\":\"{__name__=~\\\"mlx5_diag_port_prio_rx_bytes_per_second_"
		   "(max|min)\\\", device=~\\\"$device\\\"}\"") &&
	   strstr(text, "\"legendFormat\":\"{{device}} port {{port}} prio {{prio}} "
		  "{{__name__}}\""),
	   "a metric's window: its two gauges, labelled by its instance's fields");
	free(text);
	if (!have_program(PROMTOOL)) {
		SKIP("no promtool (Debian package prometheus)", "promtool check rules "
		     "of the dashboard's queries");
		return;
	}
	st = run_with_input("f=$(mktemp --suffix=.yml) && cat >$f && " PROMTOOL
			    " check rules $f; s=$?; rm -f $f; exit $s", rules,
			    strlen(rules), out, sizeof(out));
	OK(st == 0 && strstr(out, "SUCCESS: 26 rules found"),
	   "promtool parses each query (as a recording rule)");
	if (st)
		printf("#   status %d:\n%s", st, out);
}

/* ---- counting through libperf, on the software PMU ---- */

static void test_counting(void)
{
	struct xcfg_selection sel = {
		.nr = 2, .ids = { PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK },
	};
	struct counting cnt;
	uint64_t counts[2] = { 0, 0 };
	char err[256];
	volatile uint64_t spin = 0;
	double t0;
	int ret;

	sel.kinds[0] = sel.kinds[1] = data_kind_by_event("icmc_hits");	/* names in errors */
	libperf_init(NULL);
	ret = counting_open(&cnt, PERF_TYPE_SOFTWARE, 0, &sel, err, sizeof(err));
	if (ret == -EACCES || ret == -EPERM) {
		SKIP("perf_event_open not permitted here", "counting on CPU 0");
		return;
	}
	EQ_INT(ret, 0, "counting_open: two software events on CPU 0 (%s)",
	       ret ? err : "");
	if (ret)
		return;
	for (t0 = now_s(); now_s() - t0 < 0.02;)
		spin++;
	EQ_INT(counting_read(&cnt, counts), 0, "counting_read");
	OK(counts[0] > 0, "cpu-clock counted %" PRIu64 " ns", counts[0]);
	counting_close(&cnt);
	EQ_INT(cnt.nr, 0, "counting_close");

	ret = counting_open(&cnt, 0x7fffffff, 0, &sel, err, sizeof(err));
	OK(ret < 0, "a PMU type that does not exist is refused (%d)", ret);
	OK(!strncmp(err, "icmc_hits (0x0000000000000000): ", 32),
	   "naming the event: %s", err);
}

/* ---- the example settings, the documentation ---- */

static void test_shipped_files(void)
{
	static char doc[262144];
	struct xcfg c;
	char err[512], name[200], want[220];
	const struct data_kind *k;
	FILE *f;
	size_t len, i;
	int missing = 0;

	xcfg_defaults(&c);
	EQ_INT(xcfg_load(&c, MD_TOP_DIR "/tools/perf-decoder/systemd/exporter.conf",
			 err, sizeof(err)), 0, "systemd/exporter.conf loads: %s", err);
	EQ_INT(xcfg_check(&c, err, sizeof(err)), 0, "and holds together");
	OK(!strcmp(c.listen_text, ":9855") && c.max_connections == 16 &&
	   c.timeout_s == 10 && !c.per_prio && !c.per_bin && !c.nr_exports,
	   "its settings are the defaults");

	f = fopen(MD_TOP_DIR "/Documentation/admin-guide/perf/mlx5-diag-pmu.rst", "r");
	len = f ? fread(doc, 1, sizeof(doc) - 1, f) : 0;
	if (f)
		fclose(f);
	doc[len] = '\0';
	for (i = 0; (k = data_kind_at(i)); i++) {
		fam_base_name(k, name, sizeof(name));
		snprintf(want, sizeof(want), "``%s%s``", name,
			 k->class == DATA_KIND_CLASS_COUNTER ||
			 k->class == DATA_KIND_CLASS_STAT_SUM ? "_total" : "");
		if (!strstr(doc, want)) {
			printf("# the admin guide lacks %s\n", want);
			missing++;
		}
	}
	OK(len && !missing, "the admin guide lists every family of data_kinds.def (%zu)", i);
	missing = 0;
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		double factor;

		if (metric_family(i, name, sizeof(name), &factor))
			missing++;
		snprintf(want, sizeof(want), "``%s``", name);
		if (!strstr(doc, want)) {
			printf("# the admin guide lacks %s\n", want);
			missing++;
		}
	}
	OK(len && !missing, "the admin guide lists every metric's family (%zu)", i);
}

int main(void)
{
	test_every_kind();
	test_canonical();
	test_nanos();
	test_refusals();
	test_negotiate();
	test_listen();
	test_server();
	test_textfile();
	test_families();
	test_config_settings();
	test_config_refusals();
	test_config_check();
	test_config_select();
	test_scrape_counting();
	test_scrape_histogram();
	test_fold();
	test_fold_metrics();
	test_metric_names();
	test_promql();
	test_dashboard();
	test_counting();
	test_shipped_files();
	return tap_done();
}
