// SPDX-License-Identifier: GPL-2.0
/*
 * Data-ID names: the default names of DOCA's data kinds (data_kinds.h)
 * and their units, its example data-ID file, and the data-ID JSON file
 * (-di) read into names, both with json-c, the library DOCA's sample
 * reads and writes them with.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>

#include "data_ids.h"

/*
 * The instance part of a default name (port_0, port_0_prio_3, global):
 * the kind's instance fields (data_kinds.h, the kernel catalog's groups).
 * PCIe links are named by their id bytes in hex (pcie_ZZYYXX), since
 * which byte is bus, device or function is not public.
 */
int data_id_instance_name(uint64_t id, char *buf, size_t len)
{
	const struct data_kind *k = data_kind_by_id(id);

	if (!k)
		return -1;
	switch (k->group) {
	case DATA_KIND_GROUP_GLOBAL:
		snprintf(buf, len, "global");
		break;
	case DATA_KIND_GROUP_PORT:
		snprintf(buf, len, "port_%u", data_kind_field_value(DATA_KIND_F_PORT, id));
		break;
	case DATA_KIND_GROUP_PORT_PRIO:
		snprintf(buf, len, "port_%u_prio_%u", data_kind_field_value(DATA_KIND_F_PORT, id),
			 data_kind_field_value(DATA_KIND_F_PRIO, id));
		break;
	case DATA_KIND_GROUP_HOST:
		snprintf(buf, len, "host_%u", data_kind_field_value(DATA_KIND_F_HOST, id));
		break;
	case DATA_KIND_GROUP_FUNCTION:
		snprintf(buf, len, "func_%u", data_kind_field_value(DATA_KIND_F_FUNCTION, id));
		break;
	case DATA_KIND_GROUP_PCIE_LINK:
		snprintf(buf, len, "pcie_%02x%02x%02x",
			 data_kind_field_value(DATA_KIND_F_LINK_ZZ, id),
			 data_kind_field_value(DATA_KIND_F_LINK_YY, id),
			 data_kind_field_value(DATA_KIND_F_LINK, id));
		break;
	case DATA_KIND_GROUP_PCIE_LINK_TCLASS:
		snprintf(buf, len, "pcie_%02x%02x_tclass_%u",
			 data_kind_field_value(DATA_KIND_F_LINK_YY, id),
			 data_kind_field_value(DATA_KIND_F_LINK, id),
			 data_kind_field_value(DATA_KIND_F_TCLASS, id));
		break;
	case DATA_KIND_GROUP_PCIE_LINK_BIN:
		snprintf(buf, len, "pcie_%02x%02x_bin_%u",
			 data_kind_field_value(DATA_KIND_F_LINK_YY, id),
			 data_kind_field_value(DATA_KIND_F_LINK, id),
			 data_kind_field_value(DATA_KIND_F_BIN, id));
		break;
	}
	return 0;
}

/*
 * The name of a data ID with no -di name: "<instance>_<kind>", the way
 * DOCA's sample names its defaults (port_0_rx_bytes, global_icmc_hit).
 * Unknown kinds and firmware counter ids: the id in hex.
 */
void data_id_default_name(uint64_t id, char *buf, size_t len)
{
	char inst[64];

	if (data_id_instance_name(id, inst, sizeof(inst)))
		snprintf(buf, len, "0x%016" PRIx64, id);
	else
		snprintf(buf, len, "%s_%s", inst, data_kind_by_id(id)->doca_name);
}

enum data_kind_unit data_id_unit(uint64_t id)
{
	const struct data_kind *k = data_kind_by_id(id);

	return k ? k->unit : DATA_KIND_UNIT_UNKNOWN;
}

char **data_id_names_argv(int argc, char **argv)
{
	char **args = calloc((size_t)argc + 1, sizeof(*args));

	if (!args)
		return NULL;
	for (int i = 0; i < argc; i++)
		args[i] = strcmp(argv[i], "-di") ? argv[i] : "--data-ids";
	return args;
}

/* DOCA's sample's default data IDs (no synchronized start). */
static const uint64_t doca_example_ids[] = {
	0x1020000100000000ull, 0x1140000100000000ull,
	0x1020000300000000ull, 0x1140000300000000ull,
};

/* KEY: the string S, added to the object O: 0, or -1 (out of memory). */
static int add_string(struct json_object *o, const char *key, const char *s)
{
	struct json_object *v = json_object_new_string(s);

	if (!v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

/* { "name": NAME, "data_id": "0x<ID>" } added to ARRAY: 0 or -1. */
static int example_entry(struct json_object *array, uint64_t id)
{
	struct json_object *e = json_object_new_object();
	char name[64], hex[24];

	data_id_default_name(id, name, sizeof(name));
	snprintf(hex, sizeof(hex), "0x%" PRIx64, id);
	if (!e || add_string(e, "name", name) || add_string(e, "data_id", hex) ||
	    json_object_array_add(array, e)) {
		json_object_put(e);
		return -1;
	}
	return 0;
}

int data_id_names_write_example(FILE *out)
{
	size_t i, n = sizeof(doca_example_ids) / sizeof(doca_example_ids[0]);
	struct json_object *root = json_object_new_object();
	struct json_object *array = json_object_new_array();
	const char *text = NULL;
	int ret = -1;

	if (!root || !array || json_object_object_add(root, "data-ids", array)) {
		json_object_put(array);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (example_entry(array, doca_example_ids[i]))
			goto out;
	/* as the sample writes it: json-c's pretty layout, no newline at the end */
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
	if (text && fputs(text, out) >= 0 && !fflush(out))
		ret = 0;
out:
	if (ret && !text)
		errno = ENOMEM;
	json_object_put(root);
	return ret;
}

void data_id_names_free(struct data_id_names *names)
{
	size_t i;

	for (i = 0; i < names->nr; i++)
		free(names->entries[i].name);
	free(names->entries);
	names->entries = NULL;
	names->nr = 0;
}

/*
 * The file's text into *TEXT (malloc'd, a NUL after it), its length into
 * *LEN: 0, or -1 with a message in ERR. Less than 16 MiB, whatever the
 * file claims.
 */
static int read_text(const char *path, char **text, size_t *len,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, got;
	char *buf = NULL;

	*len = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (*len == cap) {
			char *grown = cap < (1u << 24) ? realloc(buf, cap ? cap * 2 : 4096) : NULL;

			if (!grown) {
				snprintf(err, errlen, "%s: larger than 16 MiB or out of memory",
					 path);
				goto fail;
			}
			buf = grown;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	buf[*len] = '\0';	/* the loop ends with room left */
	*text = buf;
	return 0;
fail:
	free(buf);
	fclose(f);
	return -1;
}

/*
 * TEXT (LEN bytes, a NUL after them) as one JSON value, by json-c's strict
 * tokener (no trailing commas, no comments, lowercase literals, at most 32
 * levels), then white space only: 0 and the value in *ROOT (NULL for
 * null), or -1 with "PATH: byte N: what is wrong" in ERR, json-c's words
 * for malformed JSON.
 */
static int parse_text(const char *path, const char *text, size_t len,
		      struct json_object **root, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	const char *why, *nul;
	size_t end;

	*root = NULL;
	if (!tok) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	/* what follows the value is ours to refuse, in our words */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_ALLOW_TRAILING_CHARS);
	/* with the NUL, json-c's end of the text: a value there is whole */
	*root = json_tokener_parse_ex(tok, text, (int)len + 1);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_success && end == len)
		return 0;
	if (end > len)		/* in a string, json-c says one byte on */
		end = len;
	nul = memchr(text, '\0', len);
	if (jerr == json_tokener_success) {	/* after the white space */
		why = "text after the JSON object";
	} else if (nul && (size_t)(nul - text) <= end) {
		why = "a NUL byte";
		end = (size_t)(nul - text);
	} else {
		why = json_tokener_error_desc(jerr);
	}
	json_object_put(*root);
	*root = NULL;
	snprintf(err, errlen, "%s: byte %zu: %s", path, end, why);
	return -1;
}

/*
 * The string member KEY of the object E into *OUT (NULL: absent): NULL,
 * or what is wrong with it.
 */
static const char *member_string(struct json_object *e, const char *key,
				 const char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(e, key, &v))
		return NULL;
	if (!json_object_is_type(v, json_type_string))
		return "is not a string";
	*out = json_object_get_string(v);
	if (strlen(*out) != (size_t)json_object_get_string_len(v))
		return "holds a NUL character";
	return NULL;
}

/* Entry E, { "name": "...", "data_id": "0x..." }: NULL, or what is wrong. */
static const char *entry_name(struct json_object *e, struct data_id_name *out,
			      char *why, size_t whylen)
{
	static const char *const keys[] = { "name", "data_id" };
	const char *val[2], *bad;
	char *end;
	int k;

	if (!json_object_is_type(e, json_type_object))
		return "not an object";
	for (k = 0; k < 2; k++) {
		bad = member_string(e, keys[k], &val[k]);
		if (bad) {
			snprintf(why, whylen, "\"%s\" %s", keys[k], bad);
			return why;
		}
	}
	for (k = 0; k < 2; k++) {
		if (!val[k]) {
			snprintf(why, whylen, "an entry without \"%s\"", keys[k]);
			return why;
		}
	}
	/* DOCA reads data_id with sscanf("%" SCNx64): hex, 0x optional */
	errno = 0;
	out->data_id = strtoull(val[1], &end, 16);
	if (errno || end == val[1] || *end || val[1][0] == '-' || val[1][0] == '+')
		return "\"data_id\" is not a hexadecimal number";
	out->name = strdup(val[0]);
	if (!out->name)
		return "out of memory";
	return NULL;
}

int data_id_names_load(struct data_id_names *names, const char *path,
		       char *err, size_t errlen)
{
	struct json_object *root, *ids;
	const char *why = NULL;
	char buf[96];
	size_t i, n, len;
	char *text;

	names->entries = NULL;
	names->nr = 0;
	if (read_text(path, &text, &len, err, errlen))
		return -1;
	if (parse_text(path, text, len, &root, err, errlen)) {
		free(text);
		return -1;
	}
	free(text);
	/* a key given twice: json-c keeps the last, as DOCA's sample reads it */
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "data-ids", &ids))
		why = "no \"data-ids\" array";
	else if (!json_object_is_type(ids, json_type_array))
		why = "\"data-ids\" is not an array";
	else if (!json_object_array_length(ids))
		why = "the \"data-ids\" array is empty";
	if (why) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto fail;
	}
	n = json_object_array_length(ids);
	names->entries = calloc(n, sizeof(*names->entries));
	if (!names->entries) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	for (i = 0; i < n; i++, names->nr++) {
		why = entry_name(json_object_array_get_idx(ids, i),
				 &names->entries[i], buf, sizeof(buf));
		if (why) {
			snprintf(err, errlen, "%s: data-ids[%zu]: %s", path, i, why);
			goto fail;
		}
	}
	json_object_put(root);
	return 0;
fail:
	data_id_names_free(names);
	json_object_put(root);
	return -1;
}
