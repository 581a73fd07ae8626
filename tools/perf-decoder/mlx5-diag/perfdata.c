// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader (perfdata.h): file mode and pipe mode, read
 * sequentially, every size checked against what holds it.
 */
#define _GNU_SOURCE
#include "perfdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PIPE_HDR_SIZE		16
#define FILE_HDR_SIZE		104	/* with the 256-bit feature bitmap */
#define FILE_HDR_SIZE_V0	72	/* before the feature bitmap */
#define ATTR_SIZE_VER0		64
#define ATTR_MAX		4096	/* attributes in one file */
#define IDS_MAX			(1u << 20)
#define FEATURE_MAX		(64u << 20)
#define TRACING_DATA_MAX	(256u << 20)

static int fail(struct pd_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct pd_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->err[0])
		return -1;
	n = snprintf(r->err, sizeof(r->err), "%s: ", r->name);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Read exactly LEN bytes at r->pos; a short read is a truncated file. */
static int get(struct pd_reader *r, void *buf, size_t len, const char *what)
{
	size_t got = fread(buf, 1, len, r->f);

	if (got != len) {
		if (ferror(r->f))
			return fail(r, "reading %s at offset %" PRIu64 ": %s", what,
				    r->pos, strerror(errno));
		return fail(r, "truncated perf.data: %s at offset %" PRIu64
			    " needs %zu bytes, the input has %zu", what, r->pos,
			    len, got);
	}
	r->pos += len;
	return 0;
}

static int seek(struct pd_reader *r, uint64_t off, const char *what)
{
	if (r->file_size && off > r->file_size)
		return fail(r, "truncated perf.data: %s at offset %" PRIu64
			    " is past the end of the file (%" PRIu64 " bytes)",
			    what, off, r->file_size);
	if (fseeko(r->f, (off_t)off, SEEK_SET))
		return fail(r, "seeking to %s at offset %" PRIu64 ": %s", what, off,
			    strerror(errno));
	r->pos = off;
	return 0;
}

/* A section [off, off + size) must lie in the file. */
static int section_ok(struct pd_reader *r, uint64_t off, uint64_t size,
		      const char *what)
{
	if (off > r->file_size || size > r->file_size - off)
		return fail(r, "truncated or malformed perf.data: %s at offset %"
			    PRIu64 " of %" PRIu64 " bytes runs past the end of "
			    "the file (%" PRIu64 " bytes)", what, off, size,
			    r->file_size);
	return 0;
}

static int add_attr(struct pd_reader *r, const unsigned char *p, size_t len,
		    const unsigned char *ids, size_t nr_ids, const char *where)
{
	struct pd_attr *a, *grown;
	uint32_t size;

	if (r->nr_attrs == ATTR_MAX)
		return fail(r, "%s: more than %d attributes", where, ATTR_MAX);
	size = pd_le32(p + 4);
	if (!size)
		size = ATTR_SIZE_VER0;
	if (len < ATTR_SIZE_VER0 || size < ATTR_SIZE_VER0 || size > len)
		return fail(r, "%s: malformed attribute (attr.size %" PRIu32
			    " in %zu bytes)", where, pd_le32(p + 4), len);
	grown = realloc(r->attrs, (r->nr_attrs + 1) * sizeof(*grown));
	if (!grown)
		return fail(r, "out of memory");
	r->attrs = grown;
	a = &r->attrs[r->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->type = pd_le32(p);
	a->config = pd_le64(p + 8);
	a->sample_type = pd_le64(p + 24);
	a->read_format = pd_le64(p + 32);
	a->flags = pd_le64(p + 40);
	a->use_clockid = (a->flags >> 25) & 1;
	if (size >= 96)
		a->clockid = (int32_t)pd_le32(p + 92);
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(*a->ids));
		if (!a->ids)
			return fail(r, "out of memory");
		for (size_t i = 0; i < nr_ids; i++)
			a->ids[i] = pd_le64(ids + 8 * i);
		a->nr_ids = nr_ids;
	}
	r->nr_attrs++;
	return 0;
}

/* A perf string: u32 len, then len bytes, NUL-padded. */
static int get_string(const unsigned char **p, const unsigned char *end,
		      char **out)
{
	uint32_t len;

	if (end - *p < 4)
		return -1;
	len = pd_le32(*p);
	*p += 4;
	if ((size_t)(end - *p) < len || !len || !memchr(*p, '\0', len))
		return -1;
	*out = strdup((const char *)*p);
	*p += len;
	return *out ? 0 : -1;
}

/* HEADER_PMU_MAPPINGS: u32 nr, then nr { u32 type, string name }. */
static int parse_pmu_mappings(struct pd_reader *r, const unsigned char *p,
			      size_t len)
{
	const unsigned char *end = p + len;
	uint32_t nr, i;

	if (len < 4)
		return fail(r, "malformed HEADER_PMU_MAPPINGS (%zu bytes)", len);
	nr = pd_le32(p);
	p += 4;
	if (nr > len / 8)
		return fail(r, "malformed HEADER_PMU_MAPPINGS: %" PRIu32
			    " PMUs in %zu bytes", nr, len);
	r->pmus = calloc(nr ? nr : 1, sizeof(*r->pmus));
	if (!r->pmus)
		return fail(r, "out of memory");
	for (i = 0; i < nr; i++) {
		struct pd_pmu *m = &r->pmus[r->nr_pmus];

		if (end - p < 4)
			return fail(r, "malformed HEADER_PMU_MAPPINGS: PMU %" PRIu32
				    " is cut short", i);
		m->type = pd_le32(p);
		p += 4;
		if (get_string(&p, end, &m->name))
			return fail(r, "malformed HEADER_PMU_MAPPINGS: the name of "
				    "PMU %" PRIu32 " is cut short or not a string", i);
		r->nr_pmus++;
	}
	return 0;
}

static int take_tracing_data(struct pd_reader *r, unsigned char *buf, size_t len)
{
	free(r->tracing_data);
	r->tracing_data = buf;
	r->tracing_data_len = len;
	return 0;
}

static int feature(struct pd_reader *r, unsigned int feat,
		   const unsigned char *p, size_t len)
{
	unsigned char *copy;

	switch (feat) {
	case PD_FEAT_PMU_MAPPINGS:
		return r->pmus ? 0 : parse_pmu_mappings(r, p, len);
	case PD_FEAT_TRACING_DATA:
		copy = malloc(len ? len : 1);
		if (!copy)
			return fail(r, "out of memory");
		memcpy(copy, p, len);
		return take_tracing_data(r, copy, len);
	}
	return 0;
}

/* File mode: the feature sections after the data section. */
static int read_features(struct pd_reader *r, const unsigned char *bitmap,
			 uint64_t feat_offset)
{
	unsigned char sec[16];
	unsigned int bit, n = 0;

	for (bit = 1; bit < PD_FEAT_BITS; bit++) {
		uint64_t off, size;
		unsigned char *buf;
		int ret;

		if (!(bitmap[bit / 8] & (1u << (bit % 8))))
			continue;
		if (seek(r, feat_offset + 16ull * n++, "a feature section") ||
		    get(r, sec, sizeof(sec), "a feature section"))
			return -1;
		if (bit != PD_FEAT_PMU_MAPPINGS && bit != PD_FEAT_TRACING_DATA)
			continue;
		off = pd_le64(sec);
		size = pd_le64(sec + 8);
		if (section_ok(r, off, size, "a feature") )
			return -1;
		if (size > (bit == PD_FEAT_TRACING_DATA ? TRACING_DATA_MAX : FEATURE_MAX))
			return fail(r, "feature %u of %" PRIu64 " bytes is too large",
				    bit, size);
		buf = malloc(size ? size : 1);
		if (!buf)
			return fail(r, "out of memory");
		if (seek(r, off, "a feature") || get(r, buf, size, "a feature")) {
			free(buf);
			return -1;
		}
		if (bit == PD_FEAT_TRACING_DATA) {
			take_tracing_data(r, buf, size);
			continue;
		}
		ret = feature(r, bit, buf, size);
		free(buf);
		if (ret)
			return -1;
	}
	return 0;
}

static int open_file_mode(struct pd_reader *r, const unsigned char *hdr,
			  uint64_t hdr_size)
{
	uint64_t attr_size = pd_le64(hdr + 16);
	uint64_t attrs_off = pd_le64(hdr + 24), attrs_size = pd_le64(hdr + 32);
	uint64_t data_off = pd_le64(hdr + 40), data_size = pd_le64(hdr + 48);
	unsigned char *entry;
	uint64_t i, nr;
	int have_features = hdr_size == FILE_HDR_SIZE;

	if (!r->file_size)
		return fail(r, "a perf.data in file mode must be a regular file "
			    "(to read a pipe, record with perf record -o -)");
	if (attr_size < ATTR_SIZE_VER0 + 16 || attr_size > 4096 + 16)
		return fail(r, "malformed perf.data header: attr_size %" PRIu64,
			    attr_size);
	if (attrs_size % attr_size)
		return fail(r, "malformed perf.data header: attrs section of %"
			    PRIu64 " bytes is not a multiple of attr_size %" PRIu64,
			    attrs_size, attr_size);
	if (section_ok(r, attrs_off, attrs_size, "the attrs section") ||
	    section_ok(r, data_off, data_size, "the data section"))
		return -1;
	if (data_off < hdr_size)
		return fail(r, "malformed perf.data header: the data section at %"
			    PRIu64 " overlaps the header", data_off);
	nr = attrs_size / attr_size;
	if (nr > ATTR_MAX)
		return fail(r, "malformed perf.data header: %" PRIu64 " attributes",
			    nr);
	entry = malloc(attr_size);
	if (!entry)
		return fail(r, "out of memory");
	for (i = 0; i < nr; i++) {
		uint64_t ids_off, ids_size;
		unsigned char *ids = NULL;
		char where[64];
		int ret;

		snprintf(where, sizeof(where), "attribute %" PRIu64, i);
		if (seek(r, attrs_off + i * attr_size, where) ||
		    get(r, entry, attr_size, where))
			goto fail;
		ids_off = pd_le64(entry + attr_size - 16);
		ids_size = pd_le64(entry + attr_size - 8);
		if (ids_size % 8 || ids_size / 8 > IDS_MAX) {
			fail(r, "malformed perf.data: %s has an ids section of %"
			     PRIu64 " bytes", where, ids_size);
			goto fail;
		}
		if (section_ok(r, ids_off, ids_size, "an ids section"))
			goto fail;
		if (ids_size) {
			ids = malloc(ids_size);
			if (!ids) {
				fail(r, "out of memory");
				goto fail;
			}
			if (seek(r, ids_off, "an ids section") ||
			    get(r, ids, ids_size, "an ids section")) {
				free(ids);
				goto fail;
			}
		}
		ret = add_attr(r, entry, attr_size - 16, ids, ids_size / 8, where);
		free(ids);
		if (ret)
			goto fail;
	}
	free(entry);
	/* a data size of 0: perf record did not finish; data to the end */
	if (!data_size) {
		r->data_end = r->file_size;
	} else {
		r->data_end = data_off + data_size;
		if (have_features && read_features(r, hdr + 72, r->data_end))
			return -1;
	}
	return seek(r, data_off, "the data section");
fail:
	free(entry);
	return -1;
}

int pd_open(struct pd_reader *r, FILE *f, const char *name)
{
	unsigned char hdr[FILE_HDR_SIZE];
	uint64_t size;
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name;
	r->pos = 8;
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode))
		r->file_size = (uint64_t)st.st_size;
	memcpy(hdr, PD_MAGIC, 8);
	if (get(r, hdr + 8, 8, "the perf.data header"))
		return -1;
	size = pd_le64(hdr + 8);
	if (size == PIPE_HDR_SIZE) {
		r->pipe = 1;
		r->data_end = UINT64_MAX;
		return 0;
	}
	if (size != FILE_HDR_SIZE && size != FILE_HDR_SIZE_V0)
		return fail(r, "malformed perf.data header: size %" PRIu64
			    " (pipe mode: 16, file mode: 104)", size);
	if (get(r, hdr + 16, size - 16, "the perf.data header"))
		return -1;
	return open_file_mode(r, hdr, size);
}

static int skip_payload(struct pd_reader *r)
{
	unsigned char buf[4096];

	if (!r->payload_left)
		return 0;
	if (!r->pipe) {
		uint64_t to = r->pos + r->payload_left;

		r->payload_left = 0;
		return seek(r, to, "the next event");
	}
	while (r->payload_left) {
		size_t n = r->payload_left < sizeof(buf) ? r->payload_left : sizeof(buf);

		if (get(r, buf, n, "AUX data"))
			return -1;
		r->payload_left -= n;
	}
	return 0;
}

int pd_read_payload(struct pd_reader *r, void *buf, size_t len)
{
	if (len > r->payload_left)
		return fail(r, "reading %zu bytes of AUX data, %" PRIu64 " left",
			    len, r->payload_left);
	if (get(r, buf, len, "AUX data"))
		return -1;
	r->payload_left -= len;
	return 0;
}

/* A header event of a pipe (or of a file, where perf puts none). */
static int header_event(struct pd_reader *r, struct pd_event *ev)
{
	const unsigned char *p = ev->data + 8;
	size_t len = ev->size - 8u;
	char where[64];

	snprintf(where, sizeof(where), "PERF_RECORD_HEADER_ATTR at offset %"
		 PRIu64, ev->offset);
	switch (ev->type) {
	case PD_RECORD_HEADER_ATTR: {
		uint32_t size = len >= 8 ? pd_le32(p + 4) : 0;

		if (!size)
			size = ATTR_SIZE_VER0;
		if (len < ATTR_SIZE_VER0 || size > len || (len - size) % 8)
			return fail(r, "%s: malformed (attr.size %" PRIu32 " in %zu"
				    " bytes)", where, size, len);
		return add_attr(r, p, size, p + size, (len - size) / 8, where);
	}
	case PD_RECORD_HEADER_FEATURE:
		if (len < 8)
			return fail(r, "PERF_RECORD_HEADER_FEATURE at offset %" PRIu64
				    ": size %u", ev->offset, ev->size);
		return feature(r, (unsigned int)pd_le64(p), p + 8, len - 8);
	case PD_RECORD_HEADER_TRACING_DATA: {
		uint32_t size;
		unsigned char *buf;

		if (len < 8)
			return fail(r, "PERF_RECORD_HEADER_TRACING_DATA at offset %"
				    PRIu64 ": size %u", ev->offset, ev->size);
		size = pd_le32(p);
		if (size > TRACING_DATA_MAX || size > r->data_end - r->pos)
			return fail(r, "PERF_RECORD_HEADER_TRACING_DATA at offset %"
				    PRIu64 ": %" PRIu32 " bytes of tracing data run "
				    "past the end of the data", ev->offset, size);
		buf = malloc(size ? size : 1);
		if (!buf)
			return fail(r, "out of memory");
		if (get(r, buf, size, "tracing data")) {
			free(buf);
			return -1;
		}
		return take_tracing_data(r, buf, size);
	}
	}
	return 0;
}

int pd_next(struct pd_reader *r, struct pd_event *ev)
{
	size_t got;

	if (r->err[0] || skip_payload(r))
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->offset = r->pos;
	if (r->pos == r->data_end)
		return 0;
	if (!r->pipe && r->data_end - r->pos < 8)
		return fail(r, "malformed perf.data: %" PRIu64 " bytes at offset %"
			    PRIu64 " at the end of the data section are not an "
			    "event", r->data_end - r->pos, r->pos);
	got = fread(r->ev, 1, 8, r->f);
	if (got == 0 && r->pipe && feof(r->f))
		return 0;
	if (got != 8) {
		if (ferror(r->f))
			return fail(r, "reading at offset %" PRIu64 ": %s", r->pos,
				    strerror(errno));
		return fail(r, "truncated perf.data: the event header at offset %"
			    PRIu64 " has %zu of 8 bytes", r->pos, got);
	}
	r->pos += 8;
	ev->type = pd_le32(r->ev);
	ev->misc = pd_le16(r->ev + 4);
	ev->size = pd_le16(r->ev + 6);
	ev->data = r->ev;
	if (ev->size < 8)
		return fail(r, "malformed perf.data: the event at offset %" PRIu64
			    " (type %" PRIu32 ") has size %u, less than its header",
			    ev->offset, ev->type, ev->size);
	if (ev->size - 8u > r->data_end - r->pos)
		return fail(r, "malformed perf.data: the event at offset %" PRIu64
			    " (type %" PRIu32 ", %u bytes) runs past the end of the "
			    "data section at %" PRIu64, ev->offset, ev->type,
			    ev->size, r->data_end);
	if (get(r, r->ev + 8, ev->size - 8u, "an event"))
		return -1;
	switch (ev->type) {
	case PD_RECORD_AUXTRACE:
		if (ev->size < PD_AUXTRACE_SIZE)
			return fail(r, "malformed perf.data: PERF_RECORD_AUXTRACE at "
				    "offset %" PRIu64 " has size %u (at least %d)",
				    ev->offset, ev->size, PD_AUXTRACE_SIZE);
		ev->payload_size = pd_le64(r->ev + 8);
		ev->payload_offset = r->pos;
		if (ev->payload_size > r->data_end - r->pos)
			return fail(r, "malformed perf.data: PERF_RECORD_AUXTRACE at "
				    "offset %" PRIu64 ": %" PRIu64 " bytes of AUX data "
				    "run past the end of the data section at %" PRIu64,
				    ev->offset, ev->payload_size, r->data_end);
		if (r->file_size && ev->payload_size > r->file_size - r->pos)
			return fail(r, "truncated perf.data: PERF_RECORD_AUXTRACE at "
				    "offset %" PRIu64 ": %" PRIu64 " bytes of AUX data, "
				    "the file ends %" PRIu64 " bytes after the event",
				    ev->offset, ev->payload_size,
				    r->file_size - r->pos);
		r->payload_left = ev->payload_size;
		break;
	case PD_RECORD_COMPRESSED:
		return fail(r, "PERF_RECORD_COMPRESSED at offset %" PRIu64 ": a "
			    "compressed perf.data (perf record -z) is not supported; "
			    "perf inject can write it uncompressed", ev->offset);
	case PD_RECORD_HEADER_ATTR:
	case PD_RECORD_HEADER_FEATURE:
	case PD_RECORD_HEADER_TRACING_DATA:
		if (header_event(r, ev))
			return -1;
		break;
	}
	return 1;
}

const char *pd_pmu_name(const struct pd_reader *r, uint32_t type)
{
	for (size_t i = 0; i < r->nr_pmus; i++)
		if (r->pmus[i].type == type)
			return r->pmus[i].name;
	return NULL;
}

void pd_close(struct pd_reader *r)
{
	size_t i;

	if (r->f && r->f != stdin)
		fclose(r->f);
	for (i = 0; i < r->nr_attrs; i++)
		free(r->attrs[i].ids);
	for (i = 0; i < r->nr_pmus; i++)
		free(r->pmus[i].name);
	free(r->attrs);
	free(r->pmus);
	free(r->tracing_data);
	r->f = NULL;
	r->attrs = NULL;
	r->pmus = NULL;
	r->tracing_data = NULL;
	r->nr_attrs = r->nr_pmus = 0;
}
