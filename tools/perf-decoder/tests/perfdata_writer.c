// SPDX-License-Identifier: GPL-2.0
/* perf.data files for tests (perfdata_writer.h). */
#include "perfdata_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *src, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + len)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (len)
		memcpy(b->p + b->len, src, len);
	b->len += len;
}

static void put16(struct buf *b, uint16_t v)
{
	uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	put(b, x, 2);
}

static void put32(struct buf *b, uint32_t v)
{
	put16(b, (uint16_t)v);
	put16(b, (uint16_t)(v >> 16));
}

static void put64(struct buf *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b, (uint32_t)(v >> 32));
}

static void zeros(struct buf *b, size_t n)
{
	static const uint8_t z[64];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		put(b, z, k);
		n -= k;
	}
}

static void ev_header(struct buf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	put32(b, type);
	put16(b, misc);
	put16(b, size);
}

/* perf_event_attr, PDW_ATTR_SIZE bytes */
static void attr(struct buf *b, const struct pdw_attr *a)
{
	size_t start = b->len;

	put32(b, a->type);
	put32(b, PDW_ATTR_SIZE);
	put64(b, a->config);
	put64(b, 1);			/* sample_period */
	put64(b, a->sample_type);
	put64(b, 0);			/* read_format */
	put64(b, a->flags);
	zeros(b, 92 - (b->len - start));
	put32(b, (uint32_t)a->clockid);
	zeros(b, PDW_ATTR_SIZE - (b->len - start));
}

/* a perf string: u32 length (a multiple of 64 with the NUL), then the text */
static void string(struct buf *b, const char *s)
{
	size_t len = (strlen(s) + 1 + 63) / 64 * 64;

	put32(b, (uint32_t)len);
	put(b, s, strlen(s));
	zeros(b, len - strlen(s));
}

static void pmu_mappings(struct pdw *w, struct buf *b)
{
	put32(b, w->nr_pmus);
	for (unsigned int i = 0; i < w->nr_pmus; i++) {
		put32(b, w->pmus[i].type);
		string(b, w->pmus[i].name);
	}
}

static void event_desc(struct pdw *w, struct buf *b)
{
	put32(b, w->nr_attrs);
	put32(b, PDW_ATTR_SIZE);
	for (unsigned int i = 0; i < w->nr_attrs; i++) {
		const struct pdw_attr *a = &w->attrs[i];

		attr(b, a);
		put32(b, a->nr_ids);
		string(b, a->name ? a->name : "");
		for (unsigned int k = 0; k < a->nr_ids; k++)
			put64(b, a->ids[k]);
	}
}

void pdw_init(struct pdw *w, int pipe)
{
	memset(w, 0, sizeof(*w));
	w->pipe = pipe;
}

void pdw_free(struct pdw *w)
{
	free(w->data);
	memset(w, 0, sizeof(*w));
}

void pdw_add_attr(struct pdw *w, const struct pdw_attr *a)
{
	if (w->nr_attrs == PDW_MAX_ATTRS)
		abort();
	w->attrs[w->nr_attrs++] = *a;
}

void pdw_add_pmu(struct pdw *w, uint32_t type, const char *name)
{
	if (w->nr_pmus == PDW_MAX_PMUS)
		abort();
	w->pmus[w->nr_pmus].type = type;
	w->pmus[w->nr_pmus++].name = name;
}

size_t pdw_raw(struct pdw *w, const void *src, size_t len)
{
	struct buf b = { w->data, w->len, w->cap };
	size_t at = w->len;

	put(&b, src, len);
	w->data = b.p;
	w->len = b.len;
	w->cap = b.cap;
	return at;
}

size_t pdw_auxtrace_info(struct pdw *w, uint32_t type, uint64_t abi_version,
			 uint64_t flags, const struct pdw_session *s,
			 unsigned int nr)
{
	struct buf b = { 0 };
	size_t at;

	ev_header(&b, 70, 0, (uint16_t)(16 + 8 * (3 + 2 * nr)));
	put32(&b, type);
	put32(&b, 0);
	put64(&b, abi_version);
	put64(&b, flags);
	put64(&b, nr);
	for (unsigned int i = 0; i < nr; i++) {
		put64(&b, s[i].pmu_type);
		put64(&b, s[i].cpu);
	}
	at = pdw_raw(w, b.p, b.len);
	free(b.p);
	return at;
}

size_t pdw_auxtrace(struct pdw *w, uint32_t idx, uint32_t cpu,
		    const void *data, size_t len)
{
	static uint64_t reference;
	struct buf b = { 0 };
	size_t at;

	ev_header(&b, 71, 0, 48);
	put64(&b, len);
	put64(&b, 0);			/* offset in the AUX area */
	put64(&b, ++reference);
	put32(&b, idx);
	put32(&b, 0xffffffffu);		/* tid: -1, CPU-wide */
	put32(&b, cpu);
	put32(&b, 0);
	put(&b, data, len);
	at = pdw_raw(w, b.p, b.len);
	free(b.p);
	return at;
}

void pdw_aux_stream(struct pdw *w, uint32_t idx, uint32_t cpu,
		    const uint8_t *stream, size_t len, size_t chunk)
{
	for (size_t off = 0; off < len; off += chunk)
		pdw_auxtrace(w, idx, cpu, stream + off,
			     len - off < chunk ? len - off : chunk);
}

static void write_out(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(b->p, 1, b->len, f) != b->len || fclose(f))
		abort();
}

static size_t write_pipe(struct pdw *w, const char *path)
{
	struct buf b = { 0 }, f = { 0 };
	unsigned int i, k;
	size_t size;

	put(&b, "PERFILE2", 8);
	put64(&b, 16);
	for (i = 0; i < w->nr_attrs; i++) {
		ev_header(&b, 64, 0, (uint16_t)(8 + PDW_ATTR_SIZE + 8 * w->attrs[i].nr_ids));
		attr(&b, &w->attrs[i]);
		for (k = 0; k < w->attrs[i].nr_ids; k++)
			put64(&b, w->attrs[i].ids[k]);
	}
	if (w->nr_pmus) {
		pmu_mappings(w, &f);
		ev_header(&b, 80, 0, (uint16_t)(16 + f.len));
		put64(&b, 16);		/* HEADER_PMU_MAPPINGS */
		put(&b, f.p, f.len);
	}
	if (w->tracing) {
		size_t aligned = (w->tracing_len + 7) / 8 * 8;

		ev_header(&b, 66, 0, 16);
		put32(&b, (uint32_t)aligned);
		put32(&b, 0);
		put(&b, w->tracing, w->tracing_len);
		zeros(&b, aligned - w->tracing_len);
	}
	w->data_offset = b.len;
	put(&b, w->data, w->len);
	write_out(path, &b);
	size = b.len;
	free(b.p);
	free(f.p);
	return size;
}

size_t pdw_write(struct pdw *w, const char *path)
{
	struct buf b = { 0 }, feat[3] = { { 0 } };
	size_t ids_off[PDW_MAX_ATTRS], attrs_off, feat_off, size, off;
	unsigned int i, k, nfeat = 0;
	int bits[3];

	if (w->pipe)
		return write_pipe(w, path);
	zeros(&b, 104);
	for (i = 0; i < w->nr_attrs; i++) {
		ids_off[i] = b.len;
		for (k = 0; k < w->attrs[i].nr_ids; k++)
			put64(&b, w->attrs[i].ids[k]);
	}
	attrs_off = b.len;
	for (i = 0; i < w->nr_attrs; i++) {
		attr(&b, &w->attrs[i]);
		put64(&b, ids_off[i]);
		put64(&b, 8ull * w->attrs[i].nr_ids);
	}
	w->data_offset = b.len;
	put(&b, w->data, w->len);
	/* features in bit order: TRACING_DATA 1, EVENT_DESC 12, PMU_MAPPINGS 16 */
	if (w->tracing) {
		bits[nfeat] = 1;
		put(&feat[nfeat++], w->tracing, w->tracing_len);
	}
	if (w->nr_attrs) {
		bits[nfeat] = 12;
		event_desc(w, &feat[nfeat++]);
	}
	if (w->nr_pmus) {
		bits[nfeat] = 16;
		pmu_mappings(w, &feat[nfeat++]);
	}
	feat_off = b.len;
	off = feat_off + 16 * nfeat;
	for (i = 0; i < nfeat; i++) {
		put64(&b, off);
		put64(&b, feat[i].len);
		off += feat[i].len;
	}
	for (i = 0; i < nfeat; i++) {
		put(&b, feat[i].p, feat[i].len);
		free(feat[i].p);
	}
	/* the header */
	memcpy(b.p, "PERFILE2", 8);
	{
		struct buf h = { 0 };

		put64(&h, 104);
		put64(&h, PDW_ATTR_SIZE + 16);
		put64(&h, attrs_off);
		put64(&h, (uint64_t)w->nr_attrs * (PDW_ATTR_SIZE + 16));
		put64(&h, w->data_offset);
		put64(&h, w->len);
		put64(&h, 0);		/* event_types */
		put64(&h, 0);
		memcpy(b.p + 8, h.p, h.len);
		free(h.p);
		for (i = 0; i < nfeat; i++)
			b.p[72 + bits[i] / 8] |= (uint8_t)(1u << (bits[i] % 8));
	}
	write_out(path, &b);
	size = b.len;
	free(b.p);
	return size;
}
