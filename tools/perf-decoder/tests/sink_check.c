// SPDX-License-Identifier: GPL-2.0
/*
 * An AUX stream written as a recording; a recording decoded through every
 * sink of the decode pipeline, each into a memory stream, and the outputs
 * checked; a file's text (sink_check.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>

#include "cli.h"
#include "file.h"
#include "perfetto_trace.pb-c.h"
#include "pipeline.h"
#include "sink.h"
#include "sink_check.h"

void recording_write(const char *path, const void *aux, size_t len,
		     size_t chunk)
{
	struct mdf_meta_buf m = { 0 };
	struct mdf_writer w;
	size_t off, n;

	if (mdf_writer_open(&w, path) || mdf_meta_add(&m, "pmu", "mlx5_diag_0") ||
	    mdf_write_chunk(&w, MDF_CHUNK_META, m.text, m.len))
		abort();
	mdf_meta_buf_free(&m);
	for (off = 0; off < len; off += n) {
		n = chunk && len - off > chunk ? chunk : len - off;
		if (mdf_write_chunk(&w, MDF_CHUNK_AUX, (const char *)aux + off, n))
			abort();
	}
	if (mdf_writer_close(&w))
		abort();
}

int recording_memfd(const void *aux, size_t len, size_t chunk, char *path)
{
	int fd = memfd_create("recording", 0);

	if (fd < 0)
		abort();
	snprintf(path, 64, "/proc/self/fd/%d", fd);
	recording_write(path, aux, len, chunk);
	return fd;
}

/* Every line of BUF (LEN bytes) a JSON object with a string "type". */
static void check_json_lines(const char *buf, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	const char *line = buf, *nl;

	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	for (; line < buf + len; line = nl + 1) {
		struct json_object *o, *type;

		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			abort();	/* a line without its newline */
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, line, (int)(nl - line));
		if (!o || json_tokener_get_parse_end(tok) != (size_t)(nl - line) ||
		    !json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "type", &type) ||
		    !json_object_is_type(type, json_type_string)) {
			fprintf(stderr, "not a JSON object: %.*s\n",
				(int)(nl - line), line);
			abort();
		}
		json_object_put(o);
	}
	json_tokener_free(tok);
}

/* BUF (LEN bytes) a Perfetto Trace that protobuf-c unpacks. */
static void check_trace(const char *buf, size_t len)
{
	Perfetto__Protos__Trace *t =
		perfetto__protos__trace__unpack(NULL, len, (const uint8_t *)buf);

	if (!t) {
		fprintf(stderr, "not a Perfetto trace (%zu bytes)\n", len);
		abort();
	}
	perfetto__protos__trace__free_unpacked(t, NULL);
}

/* PATH through OPS (NULL: decode_doca_csv()); its output checked. */
static int check_one(const char *path, const struct sink_ops *ops,
		     const struct data_id_names *names, int metrics)
{
	struct pipeline *p = calloc(1, sizeof(*p));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int status;

	if (!p || !out)
		abort();
	if (ops) {
		p->path = path;
		p->names = names;
		p->metrics = metrics;
		p->quiet = 1;
		status = pipeline_run(p, ops, out);
	} else {
		status = decode_doca_csv(out, path, names);
	}
	if (fclose(out))
		abort();
	if (ops && ops->binary)
		check_trace(buf, len);
	else if (memchr(buf, '\0', len))
		abort();
	if (ops && !strcmp(ops->name, "json"))
		check_json_lines(buf, len);
	free(buf);
	free(p);
	return status;
}

int sink_check_all(const char *path, const struct data_id_names *names,
		   int metrics)
{
	const struct sink_ops *ops;
	int status = check_one(path, NULL, names, 0);
	size_t i;

	for (i = 0; (ops = sink_at(i)); i++)
		if (check_one(path, ops, names, metrics) != status) {
			fprintf(stderr, "sink %s: not the status of the others\n",
				ops->name);
			abort();
		}
	return status;
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = calloc(1, 1 << 16);
	size_t n;

	if (!f || !text)
		abort();
	n = fread(text, 1, (1 << 16) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}
