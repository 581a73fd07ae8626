// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `mlx5-diag exporter`: the exposition of every metric kind
 * in the Prometheus text format and OpenMetrics, exact, and as promtool
 * and an OpenMetrics parser read it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../exposition.h"
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
	snprintf(full, sizeof(full), "%s <%s >%s 2>&1", cmd, in_path, out_path);
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

int main(void)
{
	test_every_kind();
	test_canonical();
	test_nanos();
	test_refusals();
	return tap_done();
}
