// SPDX-License-Identifier: GPL-2.0
/*
 * Data-ID names: DOCA's table of data kinds (the default names), its
 * example data-ID file, and the data-ID JSON file (-di) read into names.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_ids.h"

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


/*
 * The name of a data ID with no -di name: "<instance>_<kind>", the way
 * DOCA's sample names its defaults (port_0_rx_bytes, global_icmc_hit).
 * PCIe links are named by their id bits in hex (pcie_ZZYYXX_...), since
 * which byte is bus, device or function is not public. Unknown kinds and
 * firmware counter ids: the id in hex.
 */
void data_id_default_name(uint64_t id, char *buf, size_t len)
{
	uint32_t inst = (uint32_t)id;
	size_t i;

	for (i = 0; i < sizeof(data_kinds) / sizeof(data_kinds[0]); i++) {
		const struct data_kind *k = &data_kinds[i];

		if (k->kind != DATA_ID_KIND(id))
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
		data_id_default_name(doca_example_ids[i], name, sizeof(name));
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
