// SPDX-License-Identifier: GPL-2.0
/*
 * The recording file: writer and reader (file.h, Documentation/file-format.md).
 */
#define _GNU_SOURCE
#include "file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The reader refuses a chunk larger than this (a corrupt size field). */
#define MDF_CHUNK_MAX	(1ull << 32)

static const unsigned char zeros[MDF_ALIGN];

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_le32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static size_t pad8(uint64_t n)
{
	return (size_t)((MDF_ALIGN - n % MDF_ALIGN) % MDF_ALIGN);
}

const char *mdf_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case MDF_OK:		return "success";
	case MDF_E_IO:		return "I/O error";
	case MDF_E_MAGIC:	return "not an mlx5-diag recording (bad magic)";
	case MDF_E_VERSION:	return "unsupported recording version";
	case MDF_E_TRUNCATED:	return "truncated recording";
	case MDF_E_FORMAT:	return "malformed recording";
	case MDF_E_NOMEM:	return "out of memory";
	case MDF_E_INVAL:	return "invalid argument";
	}
	return "unknown error";
}

/* ---- writer ---- */

static int w_fail(struct mdf_writer *w, int err, const char *what)
{
	w->sys_errno = errno;
	if (!w->err[0])
		snprintf(w->err, sizeof(w->err), "%s: %s", what,
			 err == MDF_E_IO ? strerror(w->sys_errno) : mdf_strerror(err));
	return err;
}

static int w_put(struct mdf_writer *w, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, w->f) != len)
		return w_fail(w, MDF_E_IO, "write");
	w->offset += len;
	return MDF_OK;
}

int mdf_writer_open(struct mdf_writer *w, const char *path)
{
	unsigned char hdr[MDF_HDR_SIZE];

	memset(w, 0, sizeof(*w));
	if (!strcmp(path, "-")) {
		w->f = stdout;
	} else {
		w->f = fopen(path, "wb");
		if (!w->f) {
			w->sys_errno = errno;
			snprintf(w->err, sizeof(w->err), "cannot create %s: %s",
				 path, strerror(errno));
			return MDF_E_IO;
		}
	}
	memcpy(hdr, MDF_MAGIC, 8);
	put_le32(hdr + 8, MDF_VERSION);
	put_le32(hdr + 12, 0);
	return w_put(w, hdr, sizeof(hdr));
}

int mdf_write_chunkv(struct mdf_writer *w, uint32_t type,
		     const void *const *bufs, const size_t *lens, int n)
{
	unsigned char hdr[MDF_CHUNK_HDR_SIZE];
	uint64_t size = 0;
	int i, ret;

	for (i = 0; i < n; i++)
		size += lens[i];
	put_le32(hdr, type);
	put_le32(hdr + 4, 0);
	put_le64(hdr + 8, size);
	ret = w_put(w, hdr, sizeof(hdr));
	for (i = 0; !ret && i < n; i++)
		ret = w_put(w, bufs[i], lens[i]);
	if (!ret)
		ret = w_put(w, zeros, pad8(size));
	return ret;
}

int mdf_write_chunk(struct mdf_writer *w, uint32_t type, const void *buf,
		    size_t len)
{
	return mdf_write_chunkv(w, type, &buf, &len, 1);
}

int mdf_writer_flush(struct mdf_writer *w)
{
	if (fflush(w->f))
		return w_fail(w, MDF_E_IO, "write");
	return MDF_OK;
}

int mdf_writer_close(struct mdf_writer *w)
{
	int ret = MDF_OK;

	if (!w->f)
		return MDF_OK;
	if (fflush(w->f))
		ret = w_fail(w, MDF_E_IO, "write");
	if (w->f != stdout && fclose(w->f) && !ret)
		ret = w_fail(w, MDF_E_IO, "close");
	w->f = NULL;
	return ret;
}

static int meta_append(struct mdf_meta_buf *m, const char *s, size_t n)
{
	if (m->len + n + 1 > m->cap) {
		size_t cap = m->cap ? m->cap : 256;
		char *t;

		while (cap < m->len + n + 1)
			cap *= 2;
		t = realloc(m->text, cap);
		if (!t)
			return MDF_E_NOMEM;
		m->text = t;
		m->cap = cap;
	}
	memcpy(m->text + m->len, s, n);
	m->len += n;
	m->text[m->len] = '\0';
	return MDF_OK;
}

static int key_ok(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!(*k == '_' || *k == '.' || (*k >= '0' && *k <= '9') ||
		      (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z')))
			return 0;
	return 1;
}

int mdf_meta_add(struct mdf_meta_buf *m, const char *key, const char *value)
{
	int ret;

	if (!key_ok(key) || strchr(value, '\n'))
		return MDF_E_INVAL;
	if (m->len + strlen(key) + strlen(value) + 2 > MDF_META_MAX)
		return MDF_E_INVAL;
	ret = meta_append(m, key, strlen(key));
	if (!ret)
		ret = meta_append(m, "=", 1);
	if (!ret)
		ret = meta_append(m, value, strlen(value));
	if (!ret)
		ret = meta_append(m, "\n", 1);
	return ret;
}

int mdf_meta_addf(struct mdf_meta_buf *m, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&v, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return MDF_E_NOMEM;
	ret = mdf_meta_add(m, key, v);
	free(v);
	return ret;
}

int mdf_meta_add_event(struct mdf_meta_buf *m, unsigned int index,
		       uint64_t config, uint64_t config1, uint64_t config2,
		       const char *name)
{
	return mdf_meta_addf(m, "event", "%u config=0x%" PRIx64 " config1=0x%"
			     PRIx64 " config2=0x%" PRIx64 " name=%s", index,
			     config, config1, config2, name);
}

void mdf_meta_buf_free(struct mdf_meta_buf *m)
{
	free(m->text);
	memset(m, 0, sizeof(*m));
}

/* ---- reader ---- */

static int r_fail(struct mdf_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int r_fail(struct mdf_reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (!r->error)
		r->error = err;
	if (!r->err[0]) {
		va_start(ap, fmt);
		vsnprintf(r->err, sizeof(r->err), fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Read exactly LEN bytes; MDF_E_TRUNCATED if the file ends first. */
static int r_get(struct mdf_reader *r, void *buf, size_t len, const char *what)
{
	size_t got = fread(buf, 1, len, r->f);

	if (got == len)
		return MDF_OK;
	if (ferror(r->f)) {
		r->sys_errno = errno;
		return r_fail(r, MDF_E_IO, "reading %s at offset %" PRIu64 ": %s",
			      what, r->offset, strerror(errno));
	}
	return r_fail(r, MDF_E_TRUNCATED,
		      "truncated recording: %s at offset %" PRIu64
		      " needs %zu bytes, the file has %zu", what, r->offset,
		      len, got);
}

/*
 * Read a chunk header and its payload into r->buf. 1: a chunk, 0: clean end
 * of file, else -(error).
 */
static int r_chunk(struct mdf_reader *r, uint32_t *type, size_t *len)
{
	unsigned char hdr[MDF_CHUNK_HDR_SIZE];
	uint64_t size, total;
	size_t got;
	int ret;

	got = fread(hdr, 1, sizeof(hdr), r->f);
	if (got == 0 && feof(r->f))
		return 0;
	if (got != sizeof(hdr)) {
		if (ferror(r->f)) {
			r->sys_errno = errno;
			return -r_fail(r, MDF_E_IO, "reading at offset %" PRIu64
				       ": %s", r->offset, strerror(errno));
		}
		return -r_fail(r, MDF_E_TRUNCATED,
			       "truncated recording: chunk header at offset %"
			       PRIu64 " has %zu of %d bytes", r->offset, got,
			       MDF_CHUNK_HDR_SIZE);
	}
	*type = get_le32(hdr);
	size = get_le64(hdr + 8);
	if (get_le32(hdr + 4))
		return -r_fail(r, MDF_E_FORMAT, "chunk at offset %" PRIu64
			       ": reserved field is not 0", r->offset);
	if (*type < MDF_CHUNK_META || *type > MDF_CHUNK_PERF)
		return -r_fail(r, MDF_E_FORMAT, "chunk at offset %" PRIu64
			       ": unknown type %" PRIu32, r->offset, *type);
	if (size > MDF_CHUNK_MAX)
		return -r_fail(r, MDF_E_FORMAT, "chunk at offset %" PRIu64
			       ": size %" PRIu64 " is too large", r->offset, size);
	total = size + pad8(size);
	if (r->file_size &&
	    r->offset + MDF_CHUNK_HDR_SIZE + total > r->file_size)
		return -r_fail(r, MDF_E_TRUNCATED,
			       "truncated recording: chunk at offset %" PRIu64
			       " has %" PRIu64 " bytes, the file ends %" PRIu64
			       " bytes after its header", r->offset, total,
			       r->file_size - r->offset - MDF_CHUNK_HDR_SIZE);
	if (total + 1 > r->buf_cap) {
		void *b = realloc(r->buf, total + 1);

		if (!b)
			return -r_fail(r, MDF_E_NOMEM, "out of memory for a chunk of %"
				       PRIu64 " bytes", size);
		r->buf = b;
		r->buf_cap = total + 1;
	}
	ret = r_get(r, r->buf, total, "chunk payload");
	if (ret)
		return -ret;
	((char *)r->buf)[size] = '\0';
	r->offset += MDF_CHUNK_HDR_SIZE + total;
	*len = (size_t)size;
	return 1;
}

static int parse_hex(const char **p, const char *prefix, uint64_t *v)
{
	size_t n = strlen(prefix);
	char *end;

	if (strncmp(*p, prefix, n) || strncmp(*p + n, "0x", 2))
		return 0;
	*p += n + 2;
	if (!((**p >= '0' && **p <= '9') || (**p >= 'a' && **p <= 'f') ||
	      (**p >= 'A' && **p <= 'F')))
		return 0;
	errno = 0;
	*v = strtoull(*p, &end, 16);
	if (errno)
		return 0;
	*p = end;
	return 1;
}

static int parse_event(const char *v, struct mdf_event *ev)
{
	unsigned long idx;
	char *end;

	if (*v < '0' || *v > '9')
		return 0;
	errno = 0;
	idx = strtoul(v, &end, 10);
	if (errno || idx > 4095)
		return 0;
	ev->index = (unsigned int)idx;
	v = end;
	if (!parse_hex(&v, " config=", &ev->config) ||
	    !parse_hex(&v, " config1=", &ev->config1) ||
	    !parse_hex(&v, " config2=", &ev->config2) ||
	    strncmp(v, " name=", 6) || !v[6])
		return 0;
	ev->name = strdup(v + 6);
	return ev->name != NULL;
}

static int event_cmp(const void *a, const void *b)
{
	const struct mdf_event *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int parse_meta(struct mdf_reader *r, char *text, size_t len)
{
	size_t nlines = 0, i;
	char *line, *next;

	if (memchr(text, '\0', len))
		return r_fail(r, MDF_E_FORMAT, "META has a NUL byte");
	if (len && text[len - 1] != '\n')
		return r_fail(r, MDF_E_FORMAT, "META does not end with a newline");
	for (i = 0; i < len; i++)
		nlines += text[i] == '\n';
	r->meta = calloc(nlines ? nlines : 1, sizeof(*r->meta));
	r->events = calloc(nlines ? nlines : 1, sizeof(*r->events));
	if (!r->meta || !r->events)
		return r_fail(r, MDF_E_NOMEM, "out of memory for META");
	for (line = text; line < text + len; line = next) {
		char *nl = strchr(line, '\n'), *eq;
		struct mdf_kv *kv = &r->meta[r->nr_meta];

		next = nl + 1;
		*nl = '\0';
		eq = strchr(line, '=');
		if (!eq)
			return r_fail(r, MDF_E_FORMAT,
				      "META line %zu has no '=': '%.40s'",
				      r->nr_meta + 1, line);
		*eq = '\0';
		if (!key_ok(line))
			return r_fail(r, MDF_E_FORMAT,
				      "META line %zu: bad key '%.40s'",
				      r->nr_meta + 1, line);
		kv->key = strdup(line);
		kv->value = strdup(eq + 1);
		if (!kv->key || !kv->value) {
			free(kv->key);
			free(kv->value);
			return r_fail(r, MDF_E_NOMEM, "out of memory for META");
		}
		r->nr_meta++;
		if (!strcmp(kv->key, "event")) {
			if (!parse_event(kv->value, &r->events[r->nr_events]))
				return r_fail(r, MDF_E_FORMAT,
					      "META line %zu: bad event '%.60s'",
					      r->nr_meta, kv->value);
			r->nr_events++;
		}
	}
	qsort(r->events, r->nr_events, sizeof(*r->events), event_cmp);
	for (i = 0; i < r->nr_events; i++)
		if (r->events[i].index != i)
			return r_fail(r, MDF_E_FORMAT,
				      "META events are not numbered 0..%zu",
				      r->nr_events - 1);
	return MDF_OK;
}

int mdf_reader_open(struct mdf_reader *r, const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return mdf_reader_fopen(r, stdin, path, NULL, 0);
	f = fopen(path, "rb");
	if (!f) {
		memset(r, 0, sizeof(*r));
		r->sys_errno = errno;
		return r_fail(r, MDF_E_IO, "cannot open %s: %s", path,
			      strerror(errno));
	}
	return mdf_reader_fopen(r, f, path, NULL, 0);
}

int mdf_reader_fopen(struct mdf_reader *r, FILE *f, const char *path,
		     const void *head, size_t head_len)
{
	unsigned char hdr[MDF_HDR_SIZE];
	struct stat st;
	uint32_t type;
	size_t len;
	int ret;

	memset(r, 0, sizeof(*r));
	r->f = f;
	if (head_len > sizeof(hdr))
		return r_fail(r, MDF_E_INVAL, "%s: %zu header bytes given", path,
			      head_len);
	if (!fstat(fileno(r->f), &st) && S_ISREG(st.st_mode))
		r->file_size = (uint64_t)st.st_size;
	if (head_len)
		memcpy(hdr, head, head_len);
	r->offset = head_len;
	ret = r_get(r, hdr + head_len, sizeof(hdr) - head_len, "file header");
	if (ret == MDF_E_TRUNCATED && memcmp(hdr, MDF_MAGIC,
					     r->file_size < 8 ? r->file_size : 8)) {
		r->err[0] = '\0';
		r->error = 0;
		ret = r_fail(r, MDF_E_MAGIC, "%s: not an mlx5-diag recording",
			     path);
	}
	if (ret)
		return ret;
	if (memcmp(hdr, MDF_MAGIC, 8))
		return r_fail(r, MDF_E_MAGIC, "%s: not an mlx5-diag recording "
			      "(no MLX5DIAG magic)", path);
	r->version = get_le32(hdr + 8);
	if (r->version != MDF_VERSION)
		return r_fail(r, MDF_E_VERSION, "%s: recording version %" PRIu32
			      ", this reader knows version %d", path,
			      r->version, MDF_VERSION);
	if (get_le32(hdr + 12))
		return r_fail(r, MDF_E_FORMAT, "%s: reserved header field is not 0",
			      path);
	r->offset = MDF_HDR_SIZE;
	ret = r_chunk(r, &type, &len);
	if (ret < 0)
		return -ret;
	if (ret == 0)
		return r_fail(r, MDF_E_TRUNCATED,
			      "truncated recording: %s has no META chunk", path);
	if (type != MDF_CHUNK_META)
		return r_fail(r, MDF_E_FORMAT,
			      "%s: the first chunk is type %" PRIu32 ", not META",
			      path, type);
	if (len > MDF_META_MAX)
		return r_fail(r, MDF_E_FORMAT, "%s: META of %zu bytes is too large",
			      path, len);
	return parse_meta(r, r->buf, len);
}

const char *mdf_meta_get(const struct mdf_reader *r, const char *key)
{
	for (size_t i = 0; i < r->nr_meta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].value;
	return NULL;
}

int mdf_next_chunk(struct mdf_reader *r, uint32_t *type, const void **data,
		   size_t *len)
{
	uint64_t at = r->offset;
	int ret;

	if (r->error)
		return -r->error;
	ret = r_chunk(r, type, len);
	if (ret != 1)
		return ret;
	if (*type == MDF_CHUNK_META)
		return -r_fail(r, MDF_E_FORMAT,
			       "a second META chunk at offset %" PRIu64, at);
	*data = r->buf;
	return 1;
}

int mdf_for_each_aux(struct mdf_reader *r, mdf_aux_cb cb, void *ctx)
{
	const void *data = NULL;
	uint32_t type;
	size_t len;
	int ret;

	while ((ret = mdf_next_chunk(r, &type, &data, &len)) == 1) {
		if (type != MDF_CHUNK_AUX)
			continue;
		ret = cb(ctx, data, len);
		if (ret)
			return ret;
	}
	return ret;
}

void mdf_reader_close(struct mdf_reader *r)
{
	size_t i;

	if (r->f && r->f != stdin)
		fclose(r->f);
	for (i = 0; i < r->nr_meta; i++) {
		free(r->meta[i].key);
		free(r->meta[i].value);
	}
	for (i = 0; i < r->nr_events; i++)
		free(r->events[i].name);
	free(r->meta);
	free(r->events);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
