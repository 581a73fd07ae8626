// SPDX-License-Identifier: GPL-2.0
/*
 * `mlx5-diag decode`: a recording's AUX stream through libmlx5diag into
 * text, DOCA telemetry_diag CSV or JSON lines, with derived metrics; and
 * the DOCA data-ID JSON file (-di, --example-json).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "mlx5diag.h"
#include "perfdata.h"
#include "timeline.h"

#define ITEM_BATCH	1024
#define PIECE_READ	(1u << 20)	/* AUX bytes of perf.data read at once */
#define NSEC_PER_SEC	UINT64_C(1000000000)

static const char decode_usage[] =
"usage: mlx5-diag decode [--format text|csv|json | --timeline] [--metrics]\n"
"                        [-di FILE]\n"
"                        [-o OUT] [-q] RECORDING\n"
"       mlx5-diag decode --example-json FILE\n"
"\n"
"Decodes the AUX stream of a recording of `mlx5-diag record`, or the\n"
"mlx5_diag AUX data of a perf.data (perf record, file or pipe mode: -o -),\n"
"each mmap index's stream in turn (snapshot mode, perf record -S: each\n"
"snapshot on its own, from its first chunk). RECORDING - reads standard\n"
"input.\n"
"\n"
"  --format text   one line per sample: run, sample number, perf time (s),\n"
"                  device time, then NAME=VALUE per data ID; SESSION, LOST,\n"
"                  PERIOD and END lines (default)\n"
"  --format csv    the CSV of DOCA's telemetry_diag sample (format 0:\n"
"                  sample_id, then data_id, sample_time, NAME per data ID;\n"
"                  formats 1/2: sample_id, sample_time_start,\n"
"                  sample_time_end, NAME per data ID); RTC times as\n"
"                  SECONDS.NANOSECONDS (9 digits), FRC times in clocks\n"
"  --format json   one JSON object per line: session, sample, lost,\n"
"                  period, end\n"
"  --timeline      mlx5 samples and the recording's tracepoint events\n"
"                  (record --tracepoint, or perf record -e sys:name) in one\n"
"                  list ordered by perf time, one line each as\n"
"                  `perf script --ns` prints: comm/PMU, tid, [cpu], time:\n"
"                  event: fields\n"
"  --metrics       add derived metrics where their data IDs are present:\n"
"                  byte-counter bandwidth (GB/s), average PCIe read\n"
"                  latency (ns), ICMC hit and miss rates\n"
"  -di, --data-ids FILE\n"
"                  name data IDs as DOCA's data-ID JSON file does\n"
"  -e, --example-json FILE\n"
"                  write DOCA's example data-ID file (its default data IDs)\n"
"                  and exit; other flags are ignored\n"
"  -o, --output OUT  write to OUT instead of standard output\n"
"  -q, --quiet     no progress and no summary on standard error\n"
"\n"
"A summary (samples, lost samples by cause) goes to standard error.\n"
"\n"
"Exit status: 0 decoded; 2 bad flags or arguments; 3 the -di file is\n"
"unreadable or malformed; 4 the recording or perf.data is unreadable,\n"
"malformed or not one;\n"
"5 its AUX stream is malformed (what was decoded before is written);\n"
"6 the output could not be written.\n";

/* ---- data-ID names ---- */

enum instance_kind {
	INST_GLOBAL,		/* no instance part */
	INST_PORT,		/* XX */
	INST_PORT_PRIO,		/* Y, XX */
	INST_HOST,		/* XX */
	INST_FUNC,		/* XXXX */
	INST_PCIE,		/* ZZYYXX */
	INST_PCIE_TCLASS,	/* ZZZZ tclass, YYXX link */
	INST_PCIE_BIN,		/* ZZZZ bin, YYXX link */
};

/* The kinds of data of DOCA's data-ID table: id bits 63:32. */
static const struct data_kind {
	uint32_t kind;
	enum instance_kind inst;
	const char *name;
} data_kinds[] = {
	{ 0x10200001, INST_PORT, "rx_bytes" },
	{ 0x10200002, INST_PORT_PRIO, "rx_bytes" },
	{ 0x10200003, INST_PORT, "rx_packets" },
	{ 0x10200004, INST_PORT_PRIO, "rx_packets" },
	{ 0x10200005, INST_PORT, "rx_drops_no_buffer" },
	{ 0x10200006, INST_PORT_PRIO, "rx_pause" },
	{ 0x10400001, INST_HOST, "rx_buffer_discards" },
	{ 0x10800001, INST_HOST, "rxt_to_scatter_packets" },
	{ 0x10800002, INST_HOST, "rx_drops_no_wqe" },
	{ 0x10800003, INST_HOST, "rx_drops_no_wqe_hairpin" },
	{ 0x10800004, INST_PORT, "np_ecn_marked_roce_packets" },
	{ 0x10800005, INST_PORT, "rp_cnp_handled" },
	{ 0x11000001, INST_PORT, "np_cnp_sent" },
	{ 0x11000002, INST_GLOBAL, "qp_cc_descheduled" },
	{ 0x11400001, INST_PORT, "tx_bytes" },
	{ 0x11400002, INST_PORT_PRIO, "tx_bytes" },
	{ 0x11400003, INST_PORT, "tx_packets" },
	{ 0x11400004, INST_PORT_PRIO, "tx_packets" },
	{ 0x11400005, INST_PORT_PRIO, "tx_pause" },
	{ 0x11600001, INST_PCIE, "rx_bytes" },
	{ 0x11600002, INST_PCIE, "tx_bytes" },
	{ 0x11600003, INST_PCIE, "rx_data_bytes" },
	{ 0x11600004, INST_PCIE, "tx_data_bytes" },
	{ 0x11600005, INST_PCIE, "posted_write_stall_data_ns" },
	{ 0x11600006, INST_PCIE, "posted_write_stall_header_ns" },
	{ 0x11600007, INST_PCIE, "nonposted_read_stall_data_ns" },
	{ 0x11600008, INST_PCIE, "nonposted_read_stall_header_ns" },
	{ 0x11600009, INST_PCIE, "read_stall_no_completion_buffer_ns" },
	{ 0x1160000a, INST_PCIE_TCLASS, "read_stall_ordering_ns" },
	{ 0x1160000b, INST_PCIE, "read_latency_total_ns" },
	{ 0x1160000c, INST_PCIE, "read_packets" },
	{ 0x1160000d, INST_PCIE, "read_latency_max_ns" },
	{ 0x1160000e, INST_PCIE, "read_latency_min_ns" },
	{ 0x1160000f, INST_PCIE_BIN, "read_latency_hist_packets" },
	{ 0x10c00001, INST_GLOBAL, "rx_cqes" },
	{ 0x10c00002, INST_FUNC, "rx_cqes" },
	{ 0x10c00004, INST_GLOBAL, "tx_cqes" },
	{ 0x10c00005, INST_FUNC, "tx_cqes" },
	{ 0x11800001, INST_GLOBAL, "icmc_request" },
	{ 0x11800002, INST_GLOBAL, "icmc_hit" },
	{ 0x11800003, INST_GLOBAL, "icmc_miss" },
};

#define KIND_OF(id)	((uint32_t)((id) >> 32))
#define KIND_PORT_RX_BYTES	0x10200001u
#define KIND_PRIO_RX_BYTES	0x10200002u
#define KIND_PORT_TX_BYTES	0x11400001u
#define KIND_PRIO_TX_BYTES	0x11400002u
#define KIND_PCIE_READ_LAT_SUM	0x1160000bu
#define KIND_PCIE_READ_PACKETS	0x1160000cu
#define KIND_ICMC_REQUEST	0x11800001u
#define KIND_ICMC_HIT		0x11800002u
#define KIND_ICMC_MISS		0x11800003u

/*
 * The name of a data ID with no -di name: "<instance>_<kind>", the way
 * DOCA's sample names its defaults (port_0_rx_bytes, global_icmc_hit).
 * PCIe links are named by their id bits in hex (pcie_ZZYYXX_...), since
 * which byte is bus, device or function is not public. Unknown kinds and
 * firmware counter ids: the id in hex.
 */
static void default_name(uint64_t id, char *buf, size_t len)
{
	uint32_t inst = (uint32_t)id;
	size_t i;

	for (i = 0; i < sizeof(data_kinds) / sizeof(data_kinds[0]); i++) {
		const struct data_kind *k = &data_kinds[i];

		if (k->kind != KIND_OF(id))
			continue;
		switch (k->inst) {
		case INST_GLOBAL:
			snprintf(buf, len, "global_%s", k->name);
			return;
		case INST_PORT:
			snprintf(buf, len, "port_%u_%s", inst & 0xff, k->name);
			return;
		case INST_PORT_PRIO:
			snprintf(buf, len, "port_%u_prio_%u_%s", inst & 0xff,
				 (inst >> 8) & 0xf, k->name);
			return;
		case INST_HOST:
			snprintf(buf, len, "host_%u_%s", inst & 0xff, k->name);
			return;
		case INST_FUNC:
			snprintf(buf, len, "func_%u_%s", inst & 0xffff, k->name);
			return;
		case INST_PCIE:
			snprintf(buf, len, "pcie_%06x_%s", inst & 0xffffff, k->name);
			return;
		case INST_PCIE_TCLASS:
			snprintf(buf, len, "pcie_%04x_tclass_%u_%s", inst & 0xffff,
				 inst >> 16, k->name);
			return;
		case INST_PCIE_BIN:
			snprintf(buf, len, "pcie_%04x_bin_%u_%s", inst & 0xffff,
				 inst >> 16, k->name);
			return;
		}
	}
	snprintf(buf, len, "0x%016" PRIx64, id);
}

/* DOCA's sample's default data IDs (no synchronized start). */
static const uint64_t doca_example_ids[] = {
	0x1020000100000000ull, 0x1140000100000000ull,
	0x1020000300000000ull, 0x1140000300000000ull,
};

int decode_names_write_example(FILE *out)
{
	size_t i, n = sizeof(doca_example_ids) / sizeof(doca_example_ids[0]);
	char name[64];

	/* json-c's JSON_C_TO_STRING_PRETTY layout, as the sample writes it */
	if (fputs("{\n  \"data-ids\":[\n", out) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		default_name(doca_example_ids[i], name, sizeof(name));
		if (fprintf(out, "    {\n      \"name\":\"%s\",\n"
			    "      \"data_id\":\"0x%" PRIx64 "\"\n    }%s\n",
			    name, doca_example_ids[i], i + 1 < n ? "," : "") < 0)
			return -1;
	}
	if (fputs("  ]\n}", out) < 0 || fflush(out))
		return -1;
	return 0;
}

/* ---- a small JSON reader for the data-ID file ---- */

struct json_in {
	const char *p, *end;
	const char *err;
	int depth;
};

#define JSON_MAX_DEPTH 32

static void json_ws(struct json_in *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int json_expect(struct json_in *j, char c)
{
	json_ws(j);
	if (j->p >= j->end || *j->p != c) {
		j->err = "unexpected character";
		return -1;
	}
	j->p++;
	return 0;
}

/*
 * A JSON string into OUT (malloc'd, NUL-terminated; NULL: skip). \uXXXX
 * escapes of ASCII are decoded, others refused (names are ASCII).
 */
static int json_string(struct json_in *j, char **out)
{
	char *s = NULL;
	size_t n = 0;

	if (json_expect(j, '"'))
		return -1;
	if (out) {
		s = malloc((size_t)(j->end - j->p) + 1);
		if (!s) {
			j->err = "out of memory";
			return -1;
		}
	}
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if ((unsigned char)c < 0x20)
			goto bad;
		if (c == '\\') {
			if (j->p >= j->end)
				goto bad;
			c = *j->p++;
			switch (c) {
			case '"': case '\\': case '/':
				break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned int v = 0, k;

				if (j->end - j->p < 4)
					goto bad;
				for (k = 0; k < 4; k++) {
					char h = *j->p++;

					v <<= 4;
					if (h >= '0' && h <= '9')
						v |= (unsigned int)(h - '0');
					else if (h >= 'a' && h <= 'f')
						v |= (unsigned int)(h - 'a' + 10);
					else if (h >= 'A' && h <= 'F')
						v |= (unsigned int)(h - 'A' + 10);
					else
						goto bad;
				}
				if (!v || v > 0x7f)
					goto bad;
				c = (char)v;
				break;
			}
			default:
				goto bad;
			}
		}
		if (s)
			s[n++] = c;
	}
	if (j->p >= j->end)
		goto bad;
	j->p++;
	if (s) {
		s[n] = '\0';
		*out = s;
	}
	return 0;
bad:
	free(s);
	j->err = "bad string";
	return -1;
}

static int json_skip(struct json_in *j);

/* Skip a value of any type. */
static int json_skip(struct json_in *j)
{
	json_ws(j);
	if (j->p >= j->end) {
		j->err = "unexpected end";
		return -1;
	}
	if (*j->p == '"')
		return json_string(j, NULL);
	if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';
		int object = close == '}';

		if (++j->depth > JSON_MAX_DEPTH) {
			j->err = "nested too deep";
			return -1;
		}
		j->p++;
		json_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return 0;
		}
		for (;;) {
			if (object && (json_string(j, NULL) || json_expect(j, ':')))
				return -1;
			if (json_skip(j))
				return -1;
			json_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (json_expect(j, close))
				return -1;
			j->depth--;
			return 0;
		}
	}
	/* number, true, false, null */
	if (!strchr("-0123456789tfn", *j->p)) {
		j->err = "unexpected character";
		return -1;
	}
	while (j->p < j->end && strchr("+-.0123456789eEtruefalsn", *j->p))
		j->p++;
	return 0;
}

/* One { "name": "...", "data_id": "0x..." } entry of "data-ids". */
static int json_entry(struct json_in *j, struct decode_name *e)
{
	char *key = NULL, *id = NULL, *end;
	int ret = -1;

	if (json_expect(j, '{'))
		return -1;
	json_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		goto check;
	}
	for (;;) {
		if (json_string(j, &key) || json_expect(j, ':'))
			goto out;
		if (!strcmp(key, "name") || !strcmp(key, "data_id")) {
			char **dst = key[0] == 'n' ? &e->name : &id;

			json_ws(j);
			if (j->p >= j->end || *j->p != '"') {
				j->err = key[0] == 'n' ? "\"name\" is not a string" :
					 "\"data_id\" is not a string";
				goto out;
			}
			free(*dst);
			*dst = NULL;
			if (json_string(j, dst))
				goto out;
		} else if (json_skip(j)) {
			goto out;
		}
		free(key);
		key = NULL;
		json_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (json_expect(j, '}'))
			goto out;
		break;
	}
check:
	if (!e->name || !id) {
		j->err = !e->name ? "an entry without \"name\"" :
				    "an entry without \"data_id\"";
		goto out;
	}
	/* DOCA reads data_id with sscanf("%" SCNx64): hex, 0x optional */
	errno = 0;
	e->data_id = strtoull(id, &end, 16);
	if (errno || end == id || *end || id[0] == '-' || id[0] == '+') {
		j->err = "\"data_id\" is not a hexadecimal number";
		goto out;
	}
	ret = 0;
out:
	free(key);
	free(id);
	return ret;
}

static int json_data_ids(struct json_in *j, struct decode_names *names)
{
	char *key = NULL;
	int found = 0;

	if (json_expect(j, '{'))
		return -1;
	for (;;) {
		json_ws(j);
		if (j->p < j->end && *j->p == '}' && !found) {
			j->err = "no \"data-ids\" array";
			return -1;
		}
		if (json_string(j, &key) || json_expect(j, ':')) {
			free(key);
			return -1;
		}
		if (!strcmp(key, "data-ids") && !found) {
			found = 1;
			if (json_expect(j, '['))
				goto fail;
			json_ws(j);
			if (j->p < j->end && *j->p == ']') {
				j->err = "the \"data-ids\" array is empty";
				goto fail;
			}
			for (;;) {
				struct decode_name *grown;

				grown = realloc(names->entries,
						(names->nr + 1) * sizeof(*grown));
				if (!grown) {
					j->err = "out of memory";
					goto fail;
				}
				names->entries = grown;
				memset(&grown[names->nr], 0, sizeof(*grown));
				names->nr++;
				if (json_entry(j, &grown[names->nr - 1]))
					goto fail;
				json_ws(j);
				if (j->p < j->end && *j->p == ',') {
					j->p++;
					continue;
				}
				if (json_expect(j, ']'))
					goto fail;
				break;
			}
		} else if (json_skip(j)) {
			goto fail;
		}
		free(key);
		key = NULL;
		json_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (json_expect(j, '}'))
			return -1;
		if (!found) {
			j->err = "no \"data-ids\" array";
			return -1;
		}
		json_ws(j);
		if (j->p != j->end) {
			j->err = "text after the JSON object";
			return -1;
		}
		return 0;
	}
fail:
	free(key);
	return -1;
}

void decode_names_free(struct decode_names *names)
{
	size_t i;

	for (i = 0; i < names->nr; i++)
		free(names->entries[i].name);
	free(names->entries);
	names->entries = NULL;
	names->nr = 0;
}

int decode_names_load(struct decode_names *names, const char *path,
		      char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct json_in j = { 0 };
	char *text = NULL;
	size_t len = 0, cap = 0, got;

	names->entries = NULL;
	names->nr = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			char *grown = cap < (1u << 24) ? realloc(text, cap ? cap * 2 : 4096) : NULL;

			if (!grown) {
				snprintf(err, errlen, "%s: larger than 16 MiB or out of memory",
					 path);
				free(text);
				fclose(f);
				return -1;
			}
			text = grown;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(text + len, 1, cap - len, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(text);
		fclose(f);
		return -1;
	}
	fclose(f);
	j.p = text;
	j.end = text + len;
	if (json_data_ids(&j, names)) {
		snprintf(err, errlen, "%s: byte %zu: %s", path,
			 (size_t)(j.p - text), j.err ? j.err : "malformed JSON");
		decode_names_free(names);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/* ---- the decode ---- */

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_TIMELINE };

/* The current run's columns: one per data ID of its session. */
struct column {
	uint64_t data_id;
	uint8_t vclass;
	char name[128];
	uint64_t value;			/* in the current sample */
	uint64_t dev_time;		/* of the value (format 0: its own) */
	uint64_t prev_value;		/* in the previous sample of the run */
	uint64_t prev_dev_time;
};

/* A derived metric: KIND of columns A (and B). */
enum metric_kind { METRIC_BANDWIDTH, METRIC_AVG_LATENCY, METRIC_RATIO };

struct metric {
	enum metric_kind kind;
	unsigned int a, b;		/* column indexes */
	char name[160];
};

struct decode_ctx {
	enum out_format format;
	int metrics;
	int quiet;
	FILE *out;
	const char *path;
	const struct decode_names *names;

	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[ITEM_BATCH];
	uint8_t *pend;			/* bytes of a record cut by a chunk */
	size_t pend_len, pend_cap;

	struct mlx5diag_session session;	/* of the current run */
	struct column *cols;
	unsigned int nr_cols;
	struct metric *metrics_v;
	unsigned int nr_metrics;
	int have_prev;			/* the run has a previous sample */
	uint64_t sample_seq, sample_dev_time, sample_dev_time_end;
	uint64_t sample_perf_time;
	uint64_t sample_perf_time_bound;
	uint32_t sample_flags;
	char csv_layout[64];		/* what the last CSV header was for */
	int csv_header_done;

	/* summary */
	uint64_t samples, runs, lost[4], lost_other;
	uint64_t aux_bytes, file_size;
	double start, last_progress;
	int write_error;

	char stream_desc[96];		/* "AUX stream", in messages */
	uint64_t stream_base;		/* where in it the decode started */
	unsigned char *piece;		/* perf.data: AUX bytes read */

	/* --timeline: lines go to tl_text(tl), then sorted into final_out */
	struct tl *tl;
	FILE *final_out;
	char pmu_name[64];		/* of the current stream */
	unsigned int cpu;
	uint64_t tl_last;		/* the stream's latest perf time */
	char **tl_pending;		/* lines waiting for a perf time */
	size_t nr_pending, cap_pending;
	size_t tl_attrs_done;		/* perf.data: attributes given to tl */
	int tl_tracing_done;
	int input_error;		/* reported: no second message */
};

static double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *column_name(const struct decode_ctx *c, uint64_t id,
			       char *buf, size_t len)
{
	size_t i;

	if (c->names)
		for (i = 0; i < c->names->nr; i++)
			if (c->names->entries[i].data_id == id)
				return c->names->entries[i].name;
	default_name(id, buf, len);
	return buf;
}

static int find_column(const struct decode_ctx *c, uint32_t kind,
		       uint32_t inst, int match_inst)
{
	unsigned int i;

	for (i = 0; i < c->nr_cols; i++)
		if (KIND_OF(c->cols[i].data_id) == kind &&
		    (!match_inst || (uint32_t)c->cols[i].data_id == inst))
			return (int)i;
	return -1;
}

static void add_metric(struct decode_ctx *c, enum metric_kind kind,
		       unsigned int a, unsigned int b, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add_metric(struct decode_ctx *c, enum metric_kind kind,
		       unsigned int a, unsigned int b, const char *fmt, ...)
{
	struct metric *m = &c->metrics_v[c->nr_metrics++];
	va_list ap;

	m->kind = kind;
	m->a = a;
	m->b = b;
	va_start(ap, fmt);
	vsnprintf(m->name, sizeof(m->name), fmt, ap);
	va_end(ap);
}

/* The metrics this run's data IDs allow. */
static void plan_metrics(struct decode_ctx *c)
{
	unsigned int i;
	int j;

	c->nr_metrics = 0;
	for (i = 0; i < c->nr_cols; i++) {
		uint32_t kind = KIND_OF(c->cols[i].data_id);
		uint32_t inst = (uint32_t)c->cols[i].data_id;

		switch (kind) {
		case KIND_PORT_RX_BYTES:
		case KIND_PRIO_RX_BYTES:
		case KIND_PORT_TX_BYTES:
		case KIND_PRIO_TX_BYTES:
			add_metric(c, METRIC_BANDWIDTH, i, i, "%s_GBps",
				   c->cols[i].name);
			break;
		case KIND_PCIE_READ_LAT_SUM:
			j = find_column(c, KIND_PCIE_READ_PACKETS, inst, 1);
			if (j >= 0)
				add_metric(c, METRIC_AVG_LATENCY, i, (unsigned int)j,
					   "pcie_%06x_avg_read_latency_ns",
					   inst & 0xffffff);
			break;
		case KIND_ICMC_HIT:
		case KIND_ICMC_MISS:
			j = find_column(c, KIND_ICMC_REQUEST, 0, 0);
			if (j >= 0)
				add_metric(c, METRIC_RATIO, i, (unsigned int)j,
					   "global_icmc_%s_rate",
					   kind == KIND_ICMC_HIT ? "hit" : "miss");
			break;
		}
	}
}

/* A counter's increase since the previous sample (its value when cleared). */
static uint64_t counter_delta(const struct decode_ctx *c,
			      const struct column *col)
{
	uint64_t d;

	if (c->session.clear)
		return col->value;
	d = col->value - col->prev_value;
	if (c->session.out_format == MLX5_DIAG_FORMAT_2)
		d &= 0xffffffffu;
	return d;
}

/* Device time difference in ns. */
static double dev_ns(const struct decode_ctx *c, uint64_t from, uint64_t to)
{
	double d = (double)(to - from);

	if (c->session.ts_source == MLX5_DIAG_TS_RTC)
		return d;
	return d * 1e6 / c->session.freq_khz;
}

/* Metric M of the current sample: 0 and *value, or -1 (no value). */
static int metric_value(const struct decode_ctx *c, const struct metric *m,
			double *value)
{
	const struct column *a = &c->cols[m->a], *b = &c->cols[m->b];
	uint64_t da, db;
	double ns;

	switch (m->kind) {
	case METRIC_BANDWIDTH:
		if (c->session.clear && c->session.sync) {
			ns = (double)c->session.period_ns_actual;
			da = a->value;
		} else {
			if (!c->have_prev)
				return -1;
			ns = dev_ns(c, a->prev_dev_time, a->dev_time);
			da = counter_delta(c, a);
		}
		if (ns <= 0)
			return -1;
		*value = (double)da / ns;	/* bytes per ns: GB/s */
		return 0;
	case METRIC_AVG_LATENCY:
		if (!b->value)
			return -1;
		*value = (double)a->value / (double)b->value;
		return 0;
	case METRIC_RATIO:
		if (!c->have_prev && !c->session.clear)
			return -1;
		da = counter_delta(c, a);
		db = counter_delta(c, b);
		if (!db)
			return -1;
		*value = (double)da / (double)db;
		return 0;
	}
	return -1;
}

/* Device time as the CSV prints it: FRC clocks, RTC s.nnnnnnnnn. */
static void fmt_dev_time(const struct decode_ctx *c, uint64_t t, char *buf,
			 size_t len)
{
	uint32_t s, ns;

	if (c->session.ts_source == MLX5_DIAG_TS_RTC) {
		mlx5diag_rtc_split(t, &s, &ns);
		snprintf(buf, len, "%u.%09u", s, ns);
	} else {
		snprintf(buf, len, "%" PRIu64, t);
	}
}

static void fmt_perf_time(uint64_t t, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, t / NSEC_PER_SEC,
		 t % NSEC_PER_SEC);
}

static void out(struct decode_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct decode_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(c->out, fmt, ap) < 0)
		c->write_error = errno ? errno : EIO;
	va_end(ap);
}

/* A JSON string of NAME (names come from files: escape them). */
static void out_json_string(struct decode_ctx *c, const char *s)
{
	out(c, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			out(c, "\\%c", ch);
		else if (ch < 0x20)
			out(c, "\\u%04x", ch);
		else
			out(c, "%c", ch);
	}
	out(c, "\"");
}

static void csv_header(struct decode_ctx *c)
{
	char layout[sizeof(c->csv_layout)];
	unsigned int i;

	/* a new header only when the columns change (DOCA writes one) */
	snprintf(layout, sizeof(layout), "%u/%u/%u", c->session.out_format,
		 c->nr_cols, c->nr_metrics);
	if (c->csv_header_done && !strcmp(layout, c->csv_layout)) {
		for (i = 0; i < c->nr_cols; i++)
			if (c->cols[i].data_id != c->session.ids[i].data_id)
				break;
		if (i == c->nr_cols)
			return;
	}
	if (c->csv_header_done)
		out(c, "\n");
	strcpy(c->csv_layout, layout);
	c->csv_header_done = 1;
	if (c->session.out_format == MLX5_DIAG_FORMAT_0) {
		out(c, "sample_id");
		for (i = 0; i < c->nr_cols; i++)
			out(c, ", data_id, sample_time, %s", c->cols[i].name);
	} else {
		out(c, "sample_id, sample_time_start, sample_time_end");
		for (i = 0; i < c->nr_cols; i++)
			out(c, ", %s", c->cols[i].name);
	}
	for (i = 0; i < c->nr_metrics; i++)
		out(c, ", %s", c->metrics_v[i].name);
}


/* ---- --timeline lines of the mlx5 stream ---- */

/*
 * One timeline line: PMU, "-", [cpu], perf time, "IDENTIFIER WHAT:",
 * BODY. Its place in the timeline is the stream's latest time so far, so
 * that the stream's lines keep their order.
 */
static void tl_put(struct decode_ctx *c, uint64_t t, int extrapolated,
		   const char *what, const char *body)
{
	long mark = tl_mark(c->tl);

	if (t > c->tl_last)
		c->tl_last = t;
	out(c, "%16s %7s [%03u] %5" PRIu64 ".%09" PRIu64 "%s: %s %s: %s\n",
	    c->pmu_name, "-", c->cpu, t / NSEC_PER_SEC, t % NSEC_PER_SEC,
	    extrapolated ? "~" : "", c->session.identifier, what, body);
	if (tl_line(c->tl, mark, c->tl_last) < 0)
		c->write_error = ENOMEM;
}

/* The lines that wait for a time (SESSION, LOST) get T. */
static void tl_flush_pending(struct decode_ctx *c, uint64_t t)
{
	for (size_t i = 0; i < c->nr_pending; i++) {
		char *what = c->tl_pending[i], *body = strchr(what, '\t');

		*body++ = '\0';
		tl_put(c, t, 0, what, body);
		free(what);
	}
	c->nr_pending = 0;
}

/* A line without a perf time of its own: it takes the next sample's. */
static void tl_pend(struct decode_ctx *c, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void tl_pend(struct decode_ctx *c, const char *what, const char *fmt, ...)
{
	char *body, *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&body, fmt, ap);
	va_end(ap);
	if (n < 0 || c->nr_pending == c->cap_pending) {
		size_t cap = c->cap_pending ? 2 * c->cap_pending : 16;
		char **g = n < 0 ? NULL : realloc(c->tl_pending, cap * sizeof(*g));

		if (!g) {
			if (n >= 0)
				free(body);
			c->write_error = ENOMEM;
			return;
		}
		c->tl_pending = g;
		c->cap_pending = cap;
	}
	if (asprintf(&line, "%s\t%s", what, body) < 0) {
		free(body);
		c->write_error = ENOMEM;
		return;
	}
	free(body);
	c->tl_pending[c->nr_pending++] = line;
}

static void on_session(struct decode_ctx *c)
{
	const struct mlx5diag_session *s = mlx5diag_session(&c->dec);
	unsigned int i;
	char buf[128];

	c->session = *s;
	c->nr_cols = s->num_ids;
	for (i = 0; i < s->num_ids; i++) {
		struct column *col = &c->cols[i];

		memset(col, 0, sizeof(*col));
		col->data_id = s->ids[i].data_id;
		col->vclass = s->ids[i].vclass;
		snprintf(col->name, sizeof(col->name), "%s",
			 column_name(c, col->data_id, buf, sizeof(buf)));
	}
	if (c->metrics)
		plan_metrics(c);
	else
		c->nr_metrics = 0;
	c->have_prev = 0;
	c->runs++;

	switch (c->format) {
	case OUT_TEXT:
		out(c, "SESSION run %u %s %s %s ", s->run, s->identifier,
		    mlx5diag_mode_name(s->mode),
		    mlx5diag_format_name(s->out_format));
		if (s->ts_source == MLX5_DIAG_TS_RTC)
			out(c, "rtc");
		else
			out(c, "frc %u kHz", s->freq_khz);
		out(c, ", period %" PRIu64 " ns (requested %" PRIu64
		    "), %u data IDs\n", s->period_ns_actual,
		    s->period_ns_requested, s->num_ids);
		break;
	case OUT_TIMELINE:
		if (s->ts_source == MLX5_DIAG_TS_RTC)
			snprintf(buf, sizeof(buf), "rtc");
		else
			snprintf(buf, sizeof(buf), "frc %u kHz", s->freq_khz);
		tl_pend(c, "SESSION", "run %u %s %s %s, period %" PRIu64 " ns "
			"(requested %" PRIu64 "), %u data IDs", s->run,
			mlx5diag_mode_name(s->mode),
			mlx5diag_format_name(s->out_format), buf,
			s->period_ns_actual, s->period_ns_requested, s->num_ids);
		break;
	case OUT_CSV:
		csv_header(c);
		break;
	case OUT_JSON:
		out(c, "{\"type\":\"session\",\"run\":%u,\"identifier\":", s->run);
		out_json_string(c, s->identifier);
		out(c, ",\"mode\":\"%s\",\"sync\":%u,\"clear\":%u,\"format\":%u,"
		    "\"ts_source\":\"%s\",\"freq_khz\":%u,\"period_ns\":%" PRIu64
		    ",\"period_ns_requested\":%" PRIu64 ",\"data_ids\":[",
		    mlx5diag_mode_name(s->mode), s->sync, s->clear,
		    s->out_format, mlx5diag_ts_source_name(s->ts_source),
		    s->freq_khz, s->period_ns_actual, s->period_ns_requested);
		for (i = 0; i < c->nr_cols; i++) {
			out(c, "%s{\"id\":\"0x%016" PRIx64 "\",\"name\":",
			    i ? "," : "", c->cols[i].data_id);
			out_json_string(c, c->cols[i].name);
			out(c, ",\"class\":\"%s\"}",
			    mlx5diag_vclass_name(c->cols[i].vclass));
		}
		out(c, "]}\n");
		break;
	}
}

static void emit_sample(struct decode_ctx *c)
{
	char t0[32], t1[32];
	unsigned int i;
	double v;

	switch (c->format) {
	case OUT_TEXT:
		fmt_perf_time(c->sample_perf_time, t0, sizeof(t0));
		fmt_dev_time(c, c->sample_dev_time, t1, sizeof(t1));
		out(c, "%u %" PRIu64 " %s%s %s", c->session.run, c->sample_seq,
		    t0, c->sample_flags & MLX5DIAG_F_TIME_EXTRAPOLATED ? "~" : "",
		    t1);
		for (i = 0; i < c->nr_cols; i++)
			out(c, " %s=%" PRIu64, c->cols[i].name, c->cols[i].value);
		for (i = 0; i < c->nr_metrics; i++)
			if (!metric_value(c, &c->metrics_v[i], &v))
				out(c, " %s=%.6g", c->metrics_v[i].name, v);
		out(c, "\n");
		break;
	case OUT_TIMELINE: {
		char *body = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&body, &len);

		if (!m) {
			c->write_error = ENOMEM;
			break;
		}
		fmt_dev_time(c, c->sample_dev_time, t1, sizeof(t1));
		fprintf(m, "run %u seq %" PRIu64 " dev %s", c->session.run,
			c->sample_seq, t1);
		for (i = 0; i < c->nr_cols; i++)
			fprintf(m, " %s=%" PRIu64, c->cols[i].name, c->cols[i].value);
		for (i = 0; i < c->nr_metrics; i++)
			if (!metric_value(c, &c->metrics_v[i], &v))
				fprintf(m, " %s=%.6g", c->metrics_v[i].name, v);
		if (fclose(m)) {
			free(body);
			c->write_error = ENOMEM;
			break;
		}
		tl_flush_pending(c, c->sample_perf_time);
		tl_put(c, c->sample_perf_time,
		       !!(c->sample_flags & MLX5DIAG_F_TIME_EXTRAPOLATED), "sample",
		       body);
		free(body);
		break;
	}
	case OUT_CSV:
		out(c, "\n%u", (uint32_t)c->sample_seq);
		if (c->session.out_format == MLX5_DIAG_FORMAT_0) {
			for (i = 0; i < c->nr_cols; i++) {
				fmt_dev_time(c, c->cols[i].dev_time, t0, sizeof(t0));
				out(c, ", 0x%016" PRIx64 ", %s, %" PRIu64,
				    c->cols[i].data_id, t0, c->cols[i].value);
			}
		} else {
			fmt_dev_time(c, c->sample_dev_time, t0, sizeof(t0));
			fmt_dev_time(c, c->sample_dev_time_end, t1, sizeof(t1));
			out(c, ", %s, %s", t0, t1);
			for (i = 0; i < c->nr_cols; i++)
				out(c, ", %" PRIu64, c->cols[i].value);
		}
		for (i = 0; i < c->nr_metrics; i++) {
			if (!metric_value(c, &c->metrics_v[i], &v))
				out(c, ", %.6g", v);
			else
				out(c, ", ");
		}
		break;
	case OUT_JSON:
		out(c, "{\"type\":\"sample\",\"run\":%u,\"seq\":%" PRIu64
		    ",\"perf_time\":%" PRIu64 ",\"dev_time\":%" PRIu64
		    ",\"dev_time_end\":%" PRIu64 ",\"time_extrapolated\":%s",
		    c->session.run, c->sample_seq,
		    c->sample_perf_time, c->sample_dev_time,
		    c->sample_dev_time_end,
		    c->sample_flags & MLX5DIAG_F_TIME_EXTRAPOLATED ? "true" : "false");
		if (c->sample_perf_time_bound != UINT64_MAX)
			out(c, ",\"perf_time_bound_ns\":%" PRIu64,
			    c->sample_perf_time_bound);
		out(c, ",\"values\":{");
		for (i = 0; i < c->nr_cols; i++) {
			out(c, "%s", i ? "," : "");
			out_json_string(c, c->cols[i].name);
			out(c, ":%" PRIu64, c->cols[i].value);
		}
		out(c, "}");
		if (c->nr_metrics) {
			out(c, ",\"metrics\":{");
			for (i = 0; i < c->nr_metrics; i++) {
				out(c, "%s\"%s\":", i ? "," : "",
				    c->metrics_v[i].name);
				if (!metric_value(c, &c->metrics_v[i], &v))
					out(c, "%.6g", v);
				else
					out(c, "null");
			}
			out(c, "}");
		}
		out(c, "}\n");
		break;
	}
	for (i = 0; i < c->nr_cols; i++) {
		c->cols[i].prev_value = c->cols[i].value;
		c->cols[i].prev_dev_time = c->cols[i].dev_time;
	}
	c->have_prev = 1;
	c->samples++;
}

static void on_item(struct decode_ctx *c, const struct mlx5diag_item *it)
{
	struct column *col;
	char t[32];

	switch (it->kind) {
	case MLX5DIAG_ITEM_SESSION:
		on_session(c);
		return;
	case MLX5DIAG_ITEM_VALUE:
		col = &c->cols[it->id_index];
		col->value = it->value;
		col->dev_time = it->dev_time;
		if (it->flags & MLX5DIAG_F_SAMPLE_FIRST) {
			c->sample_seq = it->seq;
			c->sample_dev_time = it->dev_time;
			c->sample_dev_time_end = it->dev_time_end;
			c->sample_perf_time = it->perf_time;
			c->sample_perf_time_bound = it->sample.perf_time_bound_ns;
			c->sample_flags = it->flags;
		}
		if (it->flags & MLX5DIAG_F_SAMPLE_LAST)
			emit_sample(c);
		return;
	case MLX5DIAG_ITEM_LOST:
		if (it->lost.cause < 4)
			c->lost[it->lost.cause] += it->lost.count;
		else
			c->lost_other += it->lost.count;
		if (c->format == OUT_TEXT)
			out(c, "LOST run %u samples %" PRIu64 "..%" PRIu64
			    " (%" PRIu64 "): %s\n", it->run, it->seq,
			    it->seq + it->lost.count - 1, it->lost.count,
			    mlx5diag_lost_cause_name(it->lost.cause));
		else if (c->format == OUT_TIMELINE)
			tl_pend(c, "LOST", "run %u samples %" PRIu64 "..%" PRIu64
				" (%" PRIu64 "): %s", it->run, it->seq,
				it->seq + it->lost.count - 1, it->lost.count,
				mlx5diag_lost_cause_name(it->lost.cause));
		else if (c->format == OUT_JSON)
			out(c, "{\"type\":\"lost\",\"run\":%u,\"first_seq\":%" PRIu64
			    ",\"count\":%" PRIu64 ",\"cause\":\"%s\"}\n", it->run,
			    it->seq, it->lost.count,
			    mlx5diag_lost_cause_name(it->lost.cause));
		return;
	case MLX5DIAG_ITEM_PERIOD:
		c->session.period_ns_actual = it->period.ns_actual;
		c->session.period_ns_requested = it->period.ns_requested;
		if (c->format == OUT_TIMELINE) {
			char body[160];

			snprintf(body, sizeof(body), "run %u from sample %" PRIu64
				 ": %" PRIu64 " ns (requested %" PRIu64 ")", it->run,
				 it->seq, it->period.ns_actual,
				 it->period.ns_requested);
			tl_flush_pending(c, it->perf_time);
			tl_put(c, it->perf_time, 0, "PERIOD", body);
		} else if (c->format == OUT_TEXT) {
			fmt_perf_time(it->perf_time, t, sizeof(t));
			out(c, "PERIOD run %u from sample %" PRIu64 " at %s: %"
			    PRIu64 " ns (requested %" PRIu64 ")\n", it->run,
			    it->seq, t, it->period.ns_actual,
			    it->period.ns_requested);
		} else if (c->format == OUT_JSON) {
			out(c, "{\"type\":\"period\",\"run\":%u,\"first_seq\":%"
			    PRIu64 ",\"perf_time\":%" PRIu64 ",\"dev_time\":%"
			    PRIu64 ",\"period_ns\":%" PRIu64
			    ",\"period_ns_requested\":%" PRIu64 "}\n", it->run,
			    it->seq, it->perf_time, it->dev_time,
			    it->period.ns_actual, it->period.ns_requested);
		}
		return;
	case MLX5DIAG_ITEM_END:
		if (c->format == OUT_TIMELINE) {
			char body[96];

			snprintf(body, sizeof(body), "run %u after %" PRIu64
				 " samples: %s", it->run, it->seq,
				 mlx5diag_end_reason_name(it->end.reason));
			tl_flush_pending(c, c->tl_last);
			tl_put(c, c->tl_last, 0, "END", body);
		} else if (c->format == OUT_TEXT)
			out(c, "END run %u after %" PRIu64 " samples: %s\n",
			    it->run, it->seq,
			    mlx5diag_end_reason_name(it->end.reason));
		else if (c->format == OUT_JSON)
			out(c, "{\"type\":\"end\",\"run\":%u,\"next_seq\":%" PRIu64
			    ",\"reason\":\"%s\"}\n", it->run, it->seq,
			    mlx5diag_end_reason_name(it->end.reason));
		return;
	default:	/* TIME: folded into the samples' perf times */
		return;
	}
}

static void progress(struct decode_ctx *c)
{
	double now = monotonic_now();

	if (c->quiet || now - c->last_progress < 1.0 || now - c->start < 1.0)
		return;
	c->last_progress = now;
	if (c->file_size)
		fprintf(stderr, "mlx5-diag decode: %" PRIu64 " MiB of AUX data, %"
			PRIu64 " samples (%.0f%% of the file)\n",
			c->aux_bytes >> 20, c->samples,
			100.0 * (double)c->aux_bytes / (double)c->file_size);
	else
		fprintf(stderr, "mlx5-diag decode: %" PRIu64 " MiB of AUX data, %"
			PRIu64 " samples\n", c->aux_bytes >> 20, c->samples);
}

/* Decode what is pending; keeps a cut record for the next chunk. */
static int decode_pending(struct decode_ctx *c)
{
	size_t done = 0;
	int ret;

	do {
		size_t size = c->pend_len - done, count = ITEM_BATCH, i;

		ret = mlx5diag_decode(&c->dec, c->pend + done, &size, c->items,
				      &count);
		for (i = 0; i < count; i++)
			on_item(c, &c->items[i]);
		done += size;
	} while (ret == MLX5DIAG_MORE_ITEMS);
	memmove(c->pend, c->pend + done, c->pend_len - done);
	c->pend_len -= done;
	return ret < 0 ? ret : 0;
}

static int on_aux_chunk(void *ctx, const void *data, size_t len)
{
	struct decode_ctx *c = ctx;

	if (c->pend_len + len > c->pend_cap) {
		size_t cap = c->pend_cap ? c->pend_cap : 1 << 16;
		uint8_t *grown;

		while (cap < c->pend_len + len)
			cap *= 2;
		grown = realloc(c->pend, cap);
		if (!grown)
			return -ENOMEM;
		c->pend = grown;
		c->pend_cap = cap;
	}
	memcpy(c->pend + c->pend_len, data, len);
	c->pend_len += len;
	c->aux_bytes += len;
	progress(c);
	return decode_pending(c);
}

static void summary(const struct decode_ctx *c)
{
	uint64_t lost = c->lost[0] + c->lost[1] + c->lost[2] + c->lost[3] +
			c->lost_other;

	fprintf(stderr, "mlx5-diag decode: %" PRIu64 " samples in %" PRIu64
		" run%s, %" PRIu64 " lost (fw_overwrite %" PRIu64
		", aux_full %" PRIu64 ", reset %" PRIu64 ", unaccounted %"
		PRIu64 "%s)\n", c->samples, c->runs, c->runs == 1 ? "" : "s",
		lost, c->lost[MLX5_DIAG_LOST_FW_OVERWRITE],
		c->lost[MLX5_DIAG_LOST_AUX_FULL], c->lost[MLX5_DIAG_LOST_RESET],
		c->lost[MLX5DIAG_LOST_UNACCOUNTED],
		c->lost_other ? ", other causes" : "");
}

/* A new AUX stream starts: the decoder and the columns start afresh. */
static void stream_begin(struct decode_ctx *c, const char *desc)
{
	mlx5diag_decoder_reset(&c->dec);
	c->pend_len = 0;
	c->nr_cols = 0;
	c->nr_metrics = 0;
	c->have_prev = 0;
	c->tl_last = 0;
	c->stream_base = 0;
	snprintf(c->stream_desc, sizeof(c->stream_desc), "%s", desc);
}

/*
 * The AUX stream ended, RET being what feeding it returned: 0, a negative
 * errno of the decoder or -ENOMEM, or another negative value for an error
 * of the input (which the caller reports). Returns a decode_exit status,
 * or -1 for the caller's error.
 */
static int stream_end(struct decode_ctx *c, int ret)
{
	uint64_t offset = 0;
	const char *msg;

	if (!ret)
		ret = mlx5diag_decode_end(&c->dec, c->pend_len);
	if (c->tl)
		tl_flush_pending(c, c->tl_last);
	if (ret == -ENOMEM) {
		fprintf(stderr, "mlx5-diag decode: out of memory\n");
		return DECODE_EXIT_OUTPUT;
	}
	if (ret < 0 && (msg = mlx5diag_error_message(&c->dec, &offset))) {
		fprintf(stderr, "mlx5-diag decode: %s: %s byte %" PRIu64
			": %s (%s)\n", c->path, c->stream_desc,
			c->stream_base + offset, msg, mlx5diag_strerror(ret));
		return DECODE_EXIT_STREAM;
	}
	return ret < 0 ? -1 : DECODE_EXIT_OK;
}

/* ---- --timeline of a recording: META and PERF chunks ---- */

#define TL_MAX_TPS	64

static int meta_fail(struct decode_ctx *c, const char *what, const char *v)
{
	fprintf(stderr, "mlx5-diag decode: %s: malformed META: %s '%.80s'\n",
		c->path, what, v);
	return -1;
}

/*
 * The tracepoints of META (Documentation/file-format.md): "tracepoint",
 * "tracepoint_format" and "sample_id" lines, and pmu, cpu and long_size.
 */
static int mdf_timeline_meta(struct decode_ctx *c, const struct mdf_reader *r)
{
	struct {
		int set;
		uint64_t config, sample_type;
		char name[132];
		char *text;
		size_t len;
	} tp[TL_MAX_TPS];
	const char *v;
	char err[256];
	int ret = -1, i;
	size_t k;

	memset(tp, 0, sizeof(tp));
	v = mdf_meta_get(r, "pmu");
	snprintf(c->pmu_name, sizeof(c->pmu_name), "%s", v ? v : "mlx5_diag");
	v = mdf_meta_get(r, "cpu");
	c->cpu = v ? (unsigned int)strtoul(v, NULL, 10) : 0;
	v = mdf_meta_get(r, "long_size");
	if (v && strcmp(v, "4") && strcmp(v, "8"))
		return meta_fail(c, "long_size", v);
	if (v)
		tl_set_long_size(c->tl, atoi(v));
	for (k = 0; k < r->nr_meta; k++) {
		const char *key = r->meta[k].key;
		char *val = r->meta[k].value, *end;
		unsigned long idx;
		int n = 0;

		if (strcmp(key, "tracepoint") && strcmp(key, "tracepoint_format"))
			continue;
		errno = 0;
		idx = strtoul(val, &end, 10);
		if (errno || end == val || idx >= TL_MAX_TPS || *end != ' ') {
			meta_fail(c, key, val);
			goto out;
		}
		if (!strcmp(key, "tracepoint")) {
			unsigned long long config, st;

			if (sscanf(end, " config=%llu sample_type=0x%llx name=%n",
				   &config, &st, &n) != 2 || !n || !end[n] ||
			    strlen(end + n) >= sizeof(tp[0].name) || tp[idx].set) {
				meta_fail(c, key, val);
				goto out;
			}
			tp[idx].set = 1;
			tp[idx].config = config;
			tp[idx].sample_type = st;
			strcpy(tp[idx].name, end + n);
		} else {
			size_t add = strlen(end + 1) + 1;
			char *g = realloc(tp[idx].text, tp[idx].len + add + 1);

			if (!g) {
				fprintf(stderr, "mlx5-diag decode: out of memory\n");
				goto out;
			}
			tp[idx].text = g;
			memcpy(g + tp[idx].len, end + 1, add - 1);
			g[tp[idx].len + add - 1] = '\n';
			tp[idx].len += add;
			g[tp[idx].len] = '\0';
		}
	}
	for (i = 0; i < TL_MAX_TPS; i++) {
		if (!tp[i].set && tp[i].text) {
			fprintf(stderr, "mlx5-diag decode: %s: malformed META: a "
				"format of tracepoint %d, which is not described\n",
				c->path, i);
			goto out;
		}
		if (tp[i].set && tl_tracepoint(c->tl, tp[i].config, tp[i].name,
					       tp[i].text ? tp[i].text : "",
					       tp[i].len, err, sizeof(err))) {
			fprintf(stderr, "mlx5-diag decode: %s: %s\n", c->path, err);
			goto out;
		}
	}
	for (k = 0; k < r->nr_meta; k++) {
		unsigned long long id;
		unsigned int idx;
		int cpu;

		if (strcmp(r->meta[k].key, "sample_id"))
			continue;
		if (sscanf(r->meta[k].value, "%llu tracepoint=%u cpu=%d", &id, &idx,
			   &cpu) != 3 || idx >= TL_MAX_TPS || !tp[idx].set) {
			meta_fail(c, "sample_id", r->meta[k].value);
			goto out;
		}
		if (tl_event(c->tl, id, 2, tp[idx].config, tp[idx].sample_type, 0, 1)) {
			fprintf(stderr, "mlx5-diag decode: out of memory\n");
			goto out;
		}
	}
	ret = 0;
out:
	for (i = 0; i < TL_MAX_TPS; i++)
		free(tp[i].text);
	return ret;
}

/* A PERF chunk at file offset AT: whole perf records, back to back. */
static int perf_chunk(struct decode_ctx *c, const unsigned char *p, size_t len,
		      uint64_t at)
{
	char err[256];
	size_t off = 0;

	while (off < len) {
		size_t size = len - off >= 8 ? pd_le16(p + off + 6) : 0;

		if (size < 8 || size > len - off) {
			fprintf(stderr, "mlx5-diag decode: %s: the PERF chunk at "
				"offset %" PRIu64 ": a record of %zu bytes at byte %zu "
				"of %zu\n", c->path, at, size, off, len);
			c->input_error = 1;
			return -1;
		}
		if (tl_perf_record(c->tl, p + off, size, err, sizeof(err))) {
			fprintf(stderr, "mlx5-diag decode: %s: the PERF chunk at "
				"offset %" PRIu64 ", byte %zu: %s\n", c->path, at,
				off, err);
			c->input_error = 1;
			return -1;
		}
		off += size;
	}
	return 0;
}

/* Every chunk after META: AUX to the decoder, PERF to the timeline. */
static int mdf_chunks(struct decode_ctx *c, struct mdf_reader *r)
{
	const void *data = NULL;
	uint32_t type;
	size_t len;
	uint64_t at = r->offset;
	int ret;

	while ((ret = mdf_next_chunk(r, &type, &data, &len)) == 1) {
		if (type == MDF_CHUNK_AUX)
			ret = on_aux_chunk(c, data, len);
		else if (type == MDF_CHUNK_PERF && c->tl)
			ret = perf_chunk(c, data, len, at);
		else
			ret = 0;
		if (ret)
			return ret;
		at = r->offset;
	}
	return ret;
}

/* A recording of `mlx5-diag record`; HEAD: its first HEAD_LEN bytes, read. */
static int decode_mdf(struct decode_ctx *c, FILE *f, const unsigned char *head,
		      size_t head_len)
{
	struct mdf_reader r;
	int ret, status;

	ret = mdf_reader_fopen(&r, f, c->path, head, head_len);
	if (ret == MDF_E_MAGIC) {
		fprintf(stderr, "mlx5-diag decode: %s: neither an mlx5-diag "
			"recording (MLX5DIAG) nor a perf.data file (PERFILE2)\n",
			c->path);
		mdf_reader_close(&r);
		return DECODE_EXIT_FILE;
	}
	if (ret) {
		fprintf(stderr, "mlx5-diag decode: %s: %s\n", c->path,
			r.err[0] ? r.err : mdf_strerror(ret));
		mdf_reader_close(&r);
		return DECODE_EXIT_FILE;
	}
	c->file_size = r.file_size;
	if (c->tl && mdf_timeline_meta(c, &r)) {
		mdf_reader_close(&r);
		return DECODE_EXIT_FILE;
	}
	stream_begin(c, "AUX stream");
	status = stream_end(c, mdf_chunks(c, &r));
	if (status < 0 && !c->input_error)
		fprintf(stderr, "mlx5-diag decode: %s: %s\n", c->path,
			r.err[0] ? r.err : mdf_strerror(r.error));
	if (status < 0)
		status = DECODE_EXIT_FILE;
	mdf_reader_close(&r);
	return status;
}

/* ---- perf.data ---- */

/*
 * AUX bytes of one AUXTRACE event: at OFF in the input (file mode) or
 * spool; the event is at EV_OFF in the input.
 */
struct aux_piece {
	uint64_t off, len, ev_off;
};

/* The AUX data of one mmap index (idx): one record stream. */
struct aux_stream {
	uint32_t idx, cpu;
	uint32_t pmu_type;		/* the session's on that CPU */
	uint64_t bytes;
	struct aux_piece *pieces;
	size_t nr, cap;
};

/* A session of AUXTRACE_INFO: a device PMU and the CPU of its events. */
struct info_session {
	uint32_t pmu_type, cpu;
};

struct perf_input {
	struct pd_reader r;
	FILE *spool;			/* pipe mode: the AUX bytes, copied */
	uint64_t spool_len;
	struct aux_stream *streams;
	size_t nr_streams;
	int have_info;
	int snapshot;			/* perf record -S: buffers are windows */
	struct info_session sessions[PD_MLX5_INFO_MAX_PMUS];
	unsigned int nr_sessions;
	/* what perf says was lost: PERF_RECORD_AUX flags, PERF_RECORD_LOST */
	uint64_t aux_truncated, aux_collision, lost_records;
};

static int perf_fail(struct decode_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perf_fail(struct decode_ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mlx5-diag decode: %s: ", c->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* priv[I] of the AUXTRACE_INFO event at P */
static uint64_t info_priv(const unsigned char *p, uint64_t i)
{
	return pd_le64(p + PD_AUXTRACE_INFO_SIZE + 8 * i);
}

/*
 * PERF_RECORD_AUXTRACE_INFO of mlx5_diag (perfdata.h): the record ABI,
 * the flags and the sessions' (PMU type, CPU) pairs, each checked.
 */
static int perf_auxtrace_info(struct decode_ctx *c, struct perf_input *in,
			      const struct pd_event *ev)
{
	const unsigned char *p = ev->data;
	uint64_t abi, flags, nr, need;
	uint32_t type;

	if (ev->size < PD_AUXTRACE_INFO_SIZE)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": size %u", ev->offset, ev->size);
	type = pd_le32(p + 8);
	if (type != PD_AUXTRACE_MLX5_DIAG)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": AUX area data of type %" PRIu32 ", not mlx5_diag"
				 " (%d)", ev->offset, type, PD_AUXTRACE_MLX5_DIAG);
	if (ev->size < PD_AUXTRACE_INFO_SIZE + 8 * PD_MLX5_INFO_PMUS)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": %u bytes of private data, mlx5_diag's has at "
				 "least 24 (record ABI, flags, number of sessions)",
				 ev->offset, ev->size - PD_AUXTRACE_INFO_SIZE);
	if (in->have_info)
		return perf_fail(c, "a second PERF_RECORD_AUXTRACE_INFO at offset %"
				 PRIu64, ev->offset);
	abi = info_priv(p, PD_MLX5_INFO_ABI);
	flags = info_priv(p, PD_MLX5_INFO_FLAGS);
	nr = info_priv(p, PD_MLX5_INFO_NR_PMUS);
	/* 0: the driver did not say (no caps/record_abi) */
	if (abi && abi != MLX5_DIAG_ABI_VERSION)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": record ABI version %" PRIu64 ", this decoder "
				 "knows version %d", ev->offset, abi,
				 MLX5_DIAG_ABI_VERSION);
	if (flags & ~PD_MLX5_INFO_F_SNAPSHOT)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": flags 0x%" PRIx64 " (this decoder knows bit 0, "
				 "snapshot mode, alone)", ev->offset, flags);
	if (!nr || nr > PD_MLX5_INFO_MAX_PMUS)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": %" PRIu64 " mlx5_diag sessions (1 to %d)",
				 ev->offset, nr, PD_MLX5_INFO_MAX_PMUS);
	need = 8 * (PD_MLX5_INFO_PMUS + 2 * nr);
	if (ev->size - PD_AUXTRACE_INFO_SIZE < need)
		return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %" PRIu64
				 ": %u bytes of private data, %" PRIu64 " sessions "
				 "need %" PRIu64, ev->offset,
				 ev->size - PD_AUXTRACE_INFO_SIZE, nr, need);
	for (unsigned int i = 0; i < nr; i++) {
		uint64_t pmu = info_priv(p, PD_MLX5_INFO_PMUS + 2 * i);
		uint64_t cpu = info_priv(p, PD_MLX5_INFO_PMUS + 2 * i + 1);

		if (pmu > UINT32_MAX)
			return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %"
					 PRIu64 ": session %u: PMU type %" PRIu64,
					 ev->offset, i, pmu);
		if (cpu > INT32_MAX)
			return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at offset %"
					 PRIu64 ": session %u: CPU %" PRIu64,
					 ev->offset, i, cpu);
		for (unsigned int k = 0; k < i; k++)
			if (in->sessions[k].cpu == cpu)
				return perf_fail(c, "PERF_RECORD_AUXTRACE_INFO at "
						 "offset %" PRIu64 ": sessions %u and "
						 "%u are both on CPU %" PRIu64 ": "
						 "their AUX data cannot be told apart",
						 ev->offset, k, i, cpu);
		in->sessions[i].pmu_type = (uint32_t)pmu;
		in->sessions[i].cpu = (uint32_t)cpu;
	}
	in->nr_sessions = (unsigned int)nr;
	in->snapshot = !!(flags & PD_MLX5_INFO_F_SNAPSHOT);
	in->have_info = 1;
	return 0;
}

/*
 * The stream of IDX, made on its first AUX data: its PMU is the session's
 * on its CPU. NULL after a message.
 */
static struct aux_stream *stream_of(struct decode_ctx *c, struct perf_input *in,
				    const struct pd_event *ev, uint32_t idx,
				    uint32_t cpu)
{
	struct aux_stream *grown;
	char cpus[PD_MLX5_INFO_MAX_PMUS * 12] = "";
	size_t i, n = 0;

	for (i = 0; i < in->nr_streams; i++) {
		if (in->streams[i].idx != idx)
			continue;
		if (in->streams[i].cpu == cpu)
			return &in->streams[i];
		perf_fail(c, "PERF_RECORD_AUXTRACE at offset %" PRIu64 ": AUX "
			  "data of idx %" PRIu32 " on CPU %" PRIu32 ", the idx's "
			  "earlier data was on CPU %" PRIu32, ev->offset, idx, cpu,
			  in->streams[i].cpu);
		return NULL;
	}
	for (i = 0; i < in->nr_sessions && in->sessions[i].cpu != cpu; i++)
		n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, "%s%" PRIu32,
				      i ? ", " : "", in->sessions[i].cpu);
	if (i == in->nr_sessions) {
		perf_fail(c, "PERF_RECORD_AUXTRACE at offset %" PRIu64 ": AUX data "
			  "of CPU %" PRIu32 ", on which no session of the "
			  "PERF_RECORD_AUXTRACE_INFO is (their CPUs: %s)",
			  ev->offset, cpu, cpus);
		return NULL;
	}
	grown = realloc(in->streams, (in->nr_streams + 1) * sizeof(*grown));
	if (!grown) {
		perf_fail(c, "out of memory");
		return NULL;
	}
	in->streams = grown;
	grown = &in->streams[in->nr_streams++];
	memset(grown, 0, sizeof(*grown));
	grown->idx = idx;
	grown->cpu = cpu;
	grown->pmu_type = in->sessions[i].pmu_type;
	return grown;
}

/* PERF_RECORD_AUXTRACE: AUX bytes of one mmap index follow the event. */
static int perf_auxtrace(struct decode_ctx *c, struct perf_input *in,
			 const struct pd_event *ev)
{
	uint32_t idx = pd_le32(ev->data + 32), cpu = pd_le32(ev->data + 40);
	struct aux_stream *s;
	struct aux_piece *p;

	if (!in->have_info)
		return perf_fail(c, "PERF_RECORD_AUXTRACE at offset %" PRIu64
				 " before any PERF_RECORD_AUXTRACE_INFO", ev->offset);
	if (ev->payload_size % MLX5_DIAG_REC_ALIGN)
		return perf_fail(c, "PERF_RECORD_AUXTRACE at offset %" PRIu64
				 ": %" PRIu64 " bytes of AUX data, not a multiple of "
				 "8", ev->offset, ev->payload_size);
	if (!ev->payload_size)
		return 0;
	s = stream_of(c, in, ev, idx, cpu);
	if (!s)
		return -1;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		p = realloc(s->pieces, cap * sizeof(*p));
		if (!p)
			return perf_fail(c, "out of memory");
		s->pieces = p;
		s->cap = cap;
	}
	p = &s->pieces[s->nr++];
	p->len = ev->payload_size;
	p->ev_off = ev->offset;
	s->bytes += ev->payload_size;
	if (!in->r.pipe) {
		p->off = ev->payload_offset;
		return 0;
	}
	/* a pipe cannot be read again: keep the bytes for after the scan */
	p->off = in->spool_len;
	if (!in->spool && !(in->spool = tmpfile()))
		return perf_fail(c, "cannot create a temporary file for the AUX "
				 "data of the pipe: %s", strerror(errno));
	for (uint64_t left = ev->payload_size; left; ) {
		size_t n = left < PIECE_READ ? (size_t)left : PIECE_READ;

		if (pd_read_payload(&in->r, c->piece, n)) {
			fprintf(stderr, "mlx5-diag decode: %s\n", in->r.err);
			return -1;
		}
		if (fwrite(c->piece, 1, n, in->spool) != n)
			return perf_fail(c, "writing the AUX data of the pipe to a "
					 "temporary file: %s", strerror(errno));
		left -= n;
	}
	in->spool_len += ev->payload_size;
	return 0;
}

/*
 * --timeline: the attributes and tracing data known so far go to the
 * timeline (in a pipe they come as events, before the samples), then the
 * event.
 */
static int perf_tl_event(struct decode_ctx *c, struct perf_input *in,
			 const struct pd_event *ev)
{
	char err[256];

	while (c->tl_attrs_done < in->r.nr_attrs) {
		const struct pd_attr *a = &in->r.attrs[c->tl_attrs_done++];
		int sid_all = !!(a->flags & PD_ATTR_SAMPLE_ID_ALL);

		for (size_t k = 0; k < a->nr_ids || (!k && !a->nr_ids); k++)
			if (tl_event(c->tl, a->nr_ids ? a->ids[k] : 0, a->type,
				     a->config, a->sample_type, a->read_format,
				     sid_all))
				return perf_fail(c, "out of memory");
	}
	if (!c->tl_tracing_done && in->r.tracing_data) {
		c->tl_tracing_done = 1;
		if (tl_tracing_data(c->tl, in->r.tracing_data,
				    in->r.tracing_data_len, err, sizeof(err)))
			return perf_fail(c, "HEADER_TRACING_DATA: %s", err);
	}
	switch (ev->type) {
	case PD_RECORD_SAMPLE:
	case PD_RECORD_COMM:
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
	case PD_RECORD_LOST:
	case PD_RECORD_LOST_SAMPLES:
		if (tl_perf_record(c->tl, ev->data, ev->size, err, sizeof(err)))
			return perf_fail(c, "the event at offset %" PRIu64 ": %s",
					 ev->offset, err);
	}
	return 0;
}

static int stream_cmp(const void *a, const void *b)
{
	const struct aux_stream *x = a, *y = b;

	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * What perf.data says was lost: PERF_RECORD_AUX flagged TRUNCATED (the
 * AUX area filled and the kernel stopped the event) or COLLISION, and
 * PERF_RECORD_LOST of the data ring (the timeline counts those itself).
 */
static void perf_losses(struct perf_input *in, const struct pd_event *ev,
			int count_lost)
{
	if (ev->type == PD_RECORD_AUX && ev->size >= 32) {
		uint64_t flags = pd_le64(ev->data + 24);

		in->aux_truncated += !!(flags & PD_AUX_FLAG_TRUNCATED);
		in->aux_collision += !!(flags & PD_AUX_FLAG_COLLISION);
	} else if (ev->type == PD_RECORD_LOST && ev->size >= 24 && count_lost) {
		in->lost_records += pd_le64(ev->data + 16);
	}
}

/* Read the events of the data section; AUX data is found, not decoded. */
static int perf_scan(struct decode_ctx *c, struct perf_input *in)
{
	struct pd_event ev;
	int ret;

	while ((ret = pd_next(&in->r, &ev)) == 1) {
		switch (ev.type) {
		case PD_RECORD_AUXTRACE_INFO:
			ret = perf_auxtrace_info(c, in, &ev);
			break;
		case PD_RECORD_AUXTRACE:
			ret = perf_auxtrace(c, in, &ev);
			break;
		default:
			perf_losses(in, &ev, !c->tl);
			ret = c->tl ? perf_tl_event(c, in, &ev) : 0;
		}
		if (ret)
			return -1;
	}
	if (ret < 0) {
		fprintf(stderr, "mlx5-diag decode: %s\n", in->r.err);
		return -1;
	}
	/* a timeline of tracepoint events alone is a timeline all the same */
	if (!in->have_info && !c->tl)
		return perf_fail(c, "no mlx5_diag AUX data: the perf.data has no "
				 "PERF_RECORD_AUXTRACE_INFO");
	if (!in->have_info && !c->quiet)
		fprintf(stderr, "mlx5-diag decode: %s: no mlx5_diag AUX data, "
			"tracepoint events only\n", c->path);
	if (in->nr_streams > 1)
		qsort(in->streams, in->nr_streams, sizeof(*in->streams),
		      stream_cmp);
	return 0;
}

/* N AUX bytes at OFF of SRC into BUF: 0, or -1 (said). */
static int read_aux(struct decode_ctx *c, FILE *src, uint64_t off, void *buf,
		    size_t n)
{
	if (fseeko(src, (off_t)off, SEEK_SET))
		return perf_fail(c, "seeking to AUX data at %" PRIu64 ": %s", off,
				 strerror(errno));
	if (fread(buf, 1, n, src) != n)
		return perf_fail(c, "reading AUX data at %" PRIu64 ": %s", off,
				 ferror(src) ? strerror(errno) : "end of file");
	return 0;
}

/* One idx's AUX bytes, in the order of their AUXTRACE events: one stream. */
static int perf_decode_stream(struct decode_ctx *c, struct perf_input *in,
			      const struct aux_stream *s)
{
	FILE *src = in->r.pipe ? in->spool : in->r.f;
	char desc[64];
	int ret = 0, status;

	snprintf(desc, sizeof(desc), "idx %" PRIu32 " (cpu %" PRIu32 ") AUX stream",
		 s->idx, s->cpu);
	stream_begin(c, desc);
	for (size_t i = 0; i < s->nr && !ret; i++) {
		uint64_t off = s->pieces[i].off, left = s->pieces[i].len;

		while (left && !ret) {
			size_t n = left < PIECE_READ ? (size_t)left : PIECE_READ;

			if (read_aux(c, src, off, c->piece, n))
				return DECODE_EXIT_FILE;
			ret = on_aux_chunk(c, c->piece, n);
			left -= n;
			off += n;
		}
	}
	status = stream_end(c, ret);
	return status < 0 ? DECODE_EXIT_FILE : status;
}

/*
 * Snapshot mode: each AUXTRACE buffer of the idx is a window of the
 * overwritten AUX area that starts anywhere, decoded on its own with a
 * reset decoder from its first chunk (mlx5diag_find_sync); a window
 * without one is said and skipped.
 */
static int perf_decode_windows(struct decode_ctx *c, struct perf_input *in,
			       const struct aux_stream *s)
{
	FILE *src = in->r.pipe ? in->spool : in->r.f;

	for (size_t i = 0; i < s->nr; i++) {
		const struct aux_piece *w = &s->pieces[i];
		unsigned char *win;
		char desc[96];
		long start;
		int ret = 0, status;

		snprintf(desc, sizeof(desc), "idx %" PRIu32 " (cpu %" PRIu32 ") "
			 "snapshot %zu", s->idx, s->cpu, i + 1);
		win = w->len <= SIZE_MAX ? malloc((size_t)w->len) : NULL;
		if (!win) {
			perf_fail(c, "%s: out of memory for its %" PRIu64 " bytes",
				  desc, w->len);
			return DECODE_EXIT_OUTPUT;
		}
		if (read_aux(c, src, w->off, win, (size_t)w->len)) {
			free(win);
			return DECODE_EXIT_FILE;
		}
		start = mlx5diag_find_sync(win, (size_t)w->len);
		if (start < 0) {
			/* data not decoded: said even with -q */
			fprintf(stderr, "mlx5-diag decode: %s: warning: %s (the "
				"PERF_RECORD_AUXTRACE at offset %" PRIu64 "): no chunk "
				"starts in its %" PRIu64 " bytes, none of it is decoded "
				"(a window smaller than one chunk of the driver)\n",
				c->path, desc, w->ev_off, w->len);
			free(win);
			continue;
		}
		if (!c->quiet)
			fprintf(stderr, "mlx5-diag decode: %s: %s: %" PRIu64 " bytes, "
				"decoded from its first chunk at byte %ld\n", c->path,
				desc, w->len, start);
		stream_begin(c, desc);
		c->stream_base = (uint64_t)start;
		for (size_t off = (size_t)start; off < w->len && !ret; ) {
			size_t n = w->len - off < PIECE_READ ? (size_t)w->len - off :
							       PIECE_READ;

			ret = on_aux_chunk(c, win + off, n);
			off += n;
		}
		free(win);
		status = stream_end(c, ret);
		if (status)
			return status < 0 ? DECODE_EXIT_FILE : status;
	}
	return DECODE_EXIT_OK;
}

/* The AUX data of one idx, as a stream or as snapshot windows. */
static int perf_decode_idx(struct decode_ctx *c, struct perf_input *in,
			   const struct aux_stream *s)
{
	const char *pmu = pd_pmu_name(&in->r, s->pmu_type);

	snprintf(c->pmu_name, sizeof(c->pmu_name), "%s", pmu ? pmu : "mlx5_diag");
	c->cpu = s->cpu;
	if (!c->quiet)
		fprintf(stderr, "mlx5-diag decode: %s: idx %" PRIu32 " (cpu %"
			PRIu32 "): %" PRIu64 " bytes of AUX data of %s (PMU type %"
			PRIu32 ")", c->path, s->idx, s->cpu, s->bytes,
			pmu ? pmu : "an unnamed PMU", s->pmu_type);
	if (!c->quiet && in->snapshot)
		fprintf(stderr, " in %zu snapshot%s", s->nr, s->nr == 1 ? "" : "s");
	if (!c->quiet)
		fputc('\n', stderr);
	if (in->snapshot)
		return perf_decode_windows(c, in, s);
	return perf_decode_stream(c, in, s);
}

/* A perf.data file or pipe; its 8 magic bytes are read. */
static int decode_perf(struct decode_ctx *c, FILE *f)
{
	struct perf_input in;
	int status = DECODE_EXIT_OK;
	size_t i;

	memset(&in, 0, sizeof(in));
	if (pd_open(&in.r, f, c->path)) {
		fprintf(stderr, "mlx5-diag decode: %s\n", in.r.err);
		status = DECODE_EXIT_FILE;
		goto out;
	}
	c->piece = malloc(PIECE_READ);
	if (!c->piece) {
		fprintf(stderr, "mlx5-diag decode: out of memory\n");
		status = DECODE_EXIT_OUTPUT;
		goto out;
	}
	c->file_size = in.r.file_size;
	if (perf_scan(c, &in)) {
		status = DECODE_EXIT_FILE;
		goto out;
	}
	if (in.spool && fflush(in.spool)) {
		perf_fail(c, "writing a temporary file: %s", strerror(errno));
		status = DECODE_EXIT_FILE;
		goto out;
	}
	for (i = 0; i < in.nr_streams && status == DECODE_EXIT_OK; i++)
		status = perf_decode_idx(c, &in, &in.streams[i]);
	if (!c->quiet && (in.aux_truncated || in.aux_collision))
		fprintf(stderr, "mlx5-diag decode: %s: warning: PERF_RECORD_AUX "
			"flagged %" PRIu64 " time%s truncated (the AUX area filled "
			"and the kernel stopped the event: use larger -m ,PAGES) and %"
			PRIu64 " time%s collision\n", c->path, in.aux_truncated,
			in.aux_truncated == 1 ? "" : "s", in.aux_collision,
			in.aux_collision == 1 ? "" : "s");
	if (!c->quiet && in.lost_records)
		fprintf(stderr, "mlx5-diag decode: %s: warning: %" PRIu64 " perf "
			"records lost (PERF_RECORD_LOST)\n", c->path,
			in.lost_records);
out:
	pd_close(&in.r);
	if (in.spool)
		fclose(in.spool);
	for (i = 0; i < in.nr_streams; i++)
		free(in.streams[i].pieces);
	free(in.streams);
	free(c->piece);
	c->piece = NULL;
	return status;
}

/* Decode C->path (a recording or a perf.data) into C->out: a decode_exit. */
static int decode_recording(struct decode_ctx *c)
{
	unsigned char magic[8];
	size_t got;
	FILE *f;
	int status;

	f = strcmp(c->path, "-") ? fopen(c->path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "mlx5-diag decode: %s: %s\n", c->path,
			strerror(errno));
		return DECODE_EXIT_FILE;
	}
	c->cols = calloc(MLX5DIAG_DEFAULT_MAX_IDS, sizeof(*c->cols));
	c->metrics_v = calloc(MLX5DIAG_DEFAULT_MAX_IDS, sizeof(*c->metrics_v));
	if (!c->cols || !c->metrics_v ||
	    mlx5diag_decoder_init(&c->dec, NULL)) {
		fprintf(stderr, "mlx5-diag decode: out of memory\n");
		if (f != stdin)
			fclose(f);
		free(c->cols);
		free(c->metrics_v);
		return DECODE_EXIT_OUTPUT;
	}
	c->start = monotonic_now();
	c->last_progress = c->start;
	if (c->format == OUT_TIMELINE) {
		c->tl = tl_new();
		if (!c->tl) {
			fprintf(stderr, "mlx5-diag decode: out of memory\n");
			if (f != stdin)
				fclose(f);
			mlx5diag_decoder_exit(&c->dec);
			free(c->cols);
			free(c->metrics_v);
			return DECODE_EXIT_OUTPUT;
		}
		c->final_out = c->out;
		c->out = tl_text(c->tl);
	}

	got = fread(magic, 1, sizeof(magic), f);
	if (got == sizeof(magic) && !memcmp(magic, PD_MAGIC, 8)) {
		status = decode_perf(c, f);
	} else if (got == sizeof(magic) && !memcmp(magic, PD_MAGIC_SWAPPED, 8)) {
		fprintf(stderr, "mlx5-diag decode: %s: a perf.data of the other "
			"byte order (big-endian) is not supported\n", c->path);
		if (f != stdin)
			fclose(f);
		status = DECODE_EXIT_FILE;
	} else {
		status = decode_mdf(c, f, magic, got);
	}
	if (c->format == OUT_CSV && !c->csv_header_done && status == DECODE_EXIT_OK)
		fprintf(stderr, "mlx5-diag decode: %s: no session in the recording\n",
			c->path);
	if (c->tl) {
		char err[256];

		c->out = c->final_out;
		if ((status == DECODE_EXIT_OK || status == DECODE_EXIT_STREAM) &&
		    !c->write_error && tl_write(c->tl, c->out, err, sizeof(err))) {
			fprintf(stderr, "mlx5-diag decode: %s: %s\n", c->path, err);
			status = DECODE_EXIT_FILE;
		}
	}
	if (fflush(c->out) && !c->write_error)
		c->write_error = errno;
	if (c->write_error) {
		fprintf(stderr, "mlx5-diag decode: writing the output: %s\n",
			strerror(c->write_error));
		status = DECODE_EXIT_OUTPUT;
	}
	if (!c->quiet)
		summary(c);
	if (c->tl && !c->quiet)
		fprintf(stderr, "mlx5-diag decode: %" PRIu64 " tracepoint events, %"
			PRIu64 " lost\n", tl_tracepoint_samples(c->tl),
			tl_lost_events(c->tl));
	for (size_t i = 0; i < c->nr_pending; i++)
		free(c->tl_pending[i]);
	free(c->tl_pending);
	tl_free(c->tl);
	c->tl = NULL;
	mlx5diag_decoder_exit(&c->dec);
	free(c->pend);
	free(c->cols);
	free(c->metrics_v);
	return status;
}

static struct decode_ctx *new_ctx(void)
{
	struct decode_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		fprintf(stderr, "mlx5-diag decode: out of memory\n");
	return c;
}

int mlx5diag_write_csv(FILE *outf, const char *recording_path,
		       const struct decode_names *names)
{
	struct decode_ctx *c = new_ctx();
	int ret;

	if (!c)
		return DECODE_EXIT_OUTPUT;
	c->format = OUT_CSV;
	c->quiet = 1;
	c->out = outf;
	c->path = recording_path;
	c->names = names;
	ret = decode_recording(c);
	free(c);
	return ret;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "mlx5-diag decode: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see mlx5-diag decode --help)\n");
	return DECODE_EXIT_USAGE;
}

int cmd_decode(int argc, char **argv)
{
	const char *format = "text", *di = NULL, *example = NULL;
	const char *output = NULL, *path = NULL;
	struct decode_names names = { NULL, 0 };
	struct decode_ctx *c;
	int metrics = 0, quiet = 0, timeline = 0, i, ret;
	char err[512];
	FILE *outf;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **value = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(decode_usage, stdout);
			return DECODE_EXIT_OK;
		} else if (!strcmp(a, "--format") || !strcmp(a, "-F")) {
			value = &format;
		} else if (!strncmp(a, "--format=", 9)) {
			format = a + 9;
		} else if (!strcmp(a, "--metrics")) {
			metrics = 1;
		} else if (!strcmp(a, "--timeline")) {
			timeline = 1;
		} else if (!strcmp(a, "-di") || !strcmp(a, "--data-ids")) {
			value = &di;
		} else if (!strcmp(a, "-e") || !strcmp(a, "--example-json")) {
			value = &example;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			value = &output;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (!strcmp(a, "--")) {
			if (i + 1 < argc && !path)
				path = argv[++i];
			if (i + 1 < argc)
				return usage_error("more than one recording: %s",
						   argv[i + 1]);
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option %s", a);
		} else if (path) {
			return usage_error("more than one recording: %s", a);
		} else {
			path = a;
		}
		if (value) {
			if (i + 1 >= argc)
				return usage_error("%s needs a value", a);
			*value = argv[++i];
		}
	}
	if (example) {
		/* as DOCA's sample: write the file and exit, flags ignored */
		outf = fopen(example, "w");
		if (!outf || decode_names_write_example(outf) || fclose(outf)) {
			fprintf(stderr, "mlx5-diag decode: %s: %s\n", example,
				strerror(errno));
			return DECODE_EXIT_OUTPUT;
		}
		return DECODE_EXIT_OK;
	}
	if (!path)
		return usage_error("%s", "no recording given");
	c = new_ctx();
	if (!c)
		return DECODE_EXIT_OUTPUT;
	if (!strcmp(format, "text")) {
		c->format = OUT_TEXT;
	} else if (!strcmp(format, "csv")) {
		c->format = OUT_CSV;
	} else if (!strcmp(format, "json")) {
		c->format = OUT_JSON;
	} else {
		free(c);
		return usage_error("unknown format %s (text, csv, json)", format);
	}
	if (timeline && c->format != OUT_TEXT) {
		free(c);
		return usage_error("--timeline writes text, not --format %s", format);
	}
	if (timeline)
		c->format = OUT_TIMELINE;
	if (di && decode_names_load(&names, di, err, sizeof(err))) {
		fprintf(stderr, "mlx5-diag decode: %s\n", err);
		free(c);
		return DECODE_EXIT_NAMES;
	}
	outf = output ? fopen(output, "w") : stdout;
	if (!outf) {
		fprintf(stderr, "mlx5-diag decode: %s: %s\n", output,
			strerror(errno));
		decode_names_free(&names);
		free(c);
		return DECODE_EXIT_OUTPUT;
	}
	c->metrics = metrics;
	c->quiet = quiet;
	c->out = outf;
	c->path = path;
	c->names = di ? &names : NULL;
	ret = decode_recording(c);
	if (output && fclose(outf) && ret == DECODE_EXIT_OK) {
		fprintf(stderr, "mlx5-diag decode: %s: %s\n", output,
			strerror(errno));
		ret = DECODE_EXIT_OUTPUT;
	}
	decode_names_free(&names);
	free(c);
	return ret;
}
