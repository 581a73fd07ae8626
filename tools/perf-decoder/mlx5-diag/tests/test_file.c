// SPDX-License-Identifier: GPL-2.0
/* The recording file: writer/reader round trip, truncation and bad input. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "../file.h"
#include "tap.h"

static char dir[] = "/tmp/mlx5-diag-test-file.XXXXXX";
static char path[256], cut_path[256];

/* The chunks written after META, to compare with what is read back. */
struct chunk {
	uint32_t type;
	size_t len;
	unsigned char data[64];
};

static struct chunk chunks[] = {
	{ MDF_CHUNK_AUX, 16, "0123456789abcdef" },
	{ MDF_CHUNK_AUX, 3, "xyz" },		/* padded to 8 */
	{ MDF_CHUNK_PERF, 5, "perf!" },
	{ MDF_CHUNK_AUX, 0, "" },
	{ MDF_CHUNK_AUX, 24, "wrapped: head|tail parts" },	/* written as 2 */
};
#define NR_CHUNKS (sizeof(chunks) / sizeof(chunks[0]))

static uint64_t boundaries[NR_CHUNKS + 1];	/* file size after META, after each chunk */

static long write_sample(void)
{
	struct mdf_meta_buf m = { 0 };
	struct mdf_writer w;
	size_t i;

	OK(mdf_writer_open(&w, path) == MDF_OK, "writer opens %s", path);
	OK(!mdf_meta_add(&m, "pmu", "mlx5_diag_0") &&
	   !mdf_meta_add(&m, "identifier", "sim:0") &&
	   !mdf_meta_addf(&m, "period", "%d", 100000) &&
	   !mdf_meta_add(&m, "empty", "") &&
	   !mdf_meta_add_event(&m, 1, 0x1180000200000000ull, 0, 0, "icmc_hits") &&
	   !mdf_meta_add_event(&m, 0, 0x1020000100000001ull, 0x15, 1000,
			       "port_rx_bytes,port=1"), "META lines added");
	EQ_INT(mdf_meta_add(&m, "bad key", "x"), MDF_E_INVAL, "a key with a space is refused");
	EQ_INT(mdf_meta_add(&m, "k", "two\nlines"), MDF_E_INVAL, "a value with a newline is refused");
	EQ_INT(mdf_meta_add(&m, "", "x"), MDF_E_INVAL, "an empty key is refused");
	OK(mdf_write_chunk(&w, MDF_CHUNK_META, m.text, m.len) == MDF_OK, "META written");
	mdf_meta_buf_free(&m);
	boundaries[0] = w.offset;
	for (i = 0; i < NR_CHUNKS; i++) {
		struct chunk *c = &chunks[i];

		if (i == NR_CHUNKS - 1) {
			const void *bufs[2] = { c->data, c->data + 13 };
			size_t lens[2] = { 13, c->len - 13 };

			OK(mdf_write_chunkv(&w, c->type, bufs, lens, 2) == MDF_OK,
			   "chunk %zu written from two buffers", i);
		} else {
			OK(mdf_write_chunk(&w, c->type, c->data, c->len) == MDF_OK,
			   "chunk %zu written", i);
		}
		EQ_INT(w.offset % 8, 0, "chunk %zu ends 8-aligned", i);
		boundaries[i + 1] = w.offset;
	}
	OK(mdf_writer_close(&w) == MDF_OK, "writer closes");
	return (long)boundaries[NR_CHUNKS];
}

struct aux_seen {
	size_t n;
	size_t idx[NR_CHUNKS];
	int mismatch;
};

static int aux_cb(void *ctx, const void *data, size_t len)
{
	struct aux_seen *s = ctx;
	size_t i, k = 0;

	/* the n-th AUX chunk written */
	for (i = 0; i < NR_CHUNKS; i++) {
		if (chunks[i].type != MDF_CHUNK_AUX)
			continue;
		if (k++ == s->n)
			break;
	}
	if (i == NR_CHUNKS || chunks[i].len != len ||
	    memcmp(chunks[i].data, data, len))
		s->mismatch = 1;
	s->n++;
	return 0;
}

static void test_round_trip(void)
{
	struct mdf_reader r;
	struct aux_seen seen = { 0 };
	const void *data;
	uint32_t type;
	size_t len, i;
	int ret, same = 1;

	ret = mdf_reader_open(&r, path);
	OK(ret == MDF_OK, "reader opens the recording (%s)", r.err);
	EQ_INT(r.version, MDF_VERSION, "version");
	EQ_STR(mdf_meta_get(&r, "pmu"), "mlx5_diag_0", "META pmu");
	EQ_STR(mdf_meta_get(&r, "identifier"), "sim:0", "META identifier");
	EQ_STR(mdf_meta_get(&r, "period"), "100000", "META period");
	EQ_STR(mdf_meta_get(&r, "empty"), "", "META empty value");
	OK(mdf_meta_get(&r, "nosuchkey") == NULL, "META missing key is NULL");
	EQ_INT(r.nr_events, 2, "two events");
	if (r.nr_events == 2) {
		EQ_INT(r.events[0].index, 0, "events sorted by index");
		EQ_STR(r.events[0].name, "port_rx_bytes,port=1", "event 0 string with commas");
		EQ_U64(r.events[0].config, 0x1020000100000001ull, "event 0 config");
		EQ_U64(r.events[0].config1, 0x15, "event 0 config1");
		EQ_U64(r.events[0].config2, 1000, "event 0 config2");
		EQ_STR(r.events[1].name, "icmc_hits", "event 1 string");
		EQ_U64(r.events[1].config, 0x1180000200000000ull, "event 1 config");
	}
	for (i = 0; i < NR_CHUNKS; i++) {
		ret = mdf_next_chunk(&r, &type, &data, &len);
		if (ret != 1 || type != chunks[i].type || len != chunks[i].len ||
		    memcmp(data, chunks[i].data, len)) {
			same = 0;
			printf("#   chunk %zu: ret %d type %u len %zu\n", i, ret, type, len);
		}
	}
	OK(same, "every chunk reads back with its type and bytes");
	EQ_INT(mdf_next_chunk(&r, &type, &data, &len), 0, "then the end of the file");
	mdf_reader_close(&r);

	OK(mdf_reader_open(&r, path) == MDF_OK, "reopened");
	EQ_INT(mdf_for_each_aux(&r, aux_cb, &seen), 0, "for_each_aux reaches the end");
	EQ_INT(seen.n, 4, "for_each_aux gives the 4 AUX chunks, not PERF");
	OK(!seen.mismatch, "AUX spans in order with their bytes");
	mdf_reader_close(&r);
}

static int stop_cb(void *ctx, const void *data, size_t len)
{
	(void)data;
	(void)len;
	return ++*(int *)ctx == 2 ? 42 : 0;
}

static void test_cb_stops(void)
{
	struct mdf_reader r;
	int calls = 0;

	OK(mdf_reader_open(&r, path) == MDF_OK, "opened for the stop test");
	EQ_INT(mdf_for_each_aux(&r, stop_cb, &calls), 42, "a callback's non-zero return stops the walk");
	EQ_INT(calls, 2, "after the second AUX chunk");
	mdf_reader_close(&r);
}

static void cut_copy(long n, const unsigned char *all)
{
	FILE *f = fopen(cut_path, "wb");

	if (!f || (n && fwrite(all, 1, (size_t)n, f) != (size_t)n)) {
		perror(cut_path);
		exit(2);
	}
	fclose(f);
}

/* Read everything; the error (>0), or 0 and the number of chunks after META. */
static int read_all(const char *p, size_t *nchunks, char *err, size_t errlen)
{
	struct mdf_reader r;
	const void *data;
	uint32_t type;
	size_t len;
	int ret;

	*nchunks = 0;
	ret = mdf_reader_open(&r, p);
	if (!ret)
		while ((ret = mdf_next_chunk(&r, &type, &data, &len)) == 1)
			(*nchunks)++;
	snprintf(err, errlen, "%s", r.err);
	mdf_reader_close(&r);
	return ret < 0 ? -ret : ret;
}

static void test_truncation(long size)
{
	unsigned char *all = malloc((size_t)size);
	FILE *f = fopen(path, "rb");
	int bad_cut = 0, bad_boundary = 0, msg_ok = 1;
	char err[256];
	size_t n, k;
	long cut;

	if (!all || !f || fread(all, 1, (size_t)size, f) != (size_t)size) {
		perror(path);
		exit(2);
	}
	fclose(f);
	for (cut = 0; cut < size; cut++) {
		int ret, boundary = -1;

		cut_copy(cut, all);
		ret = read_all(cut_path, &n, err, sizeof(err));
		for (k = 0; k <= NR_CHUNKS; k++)
			if ((uint64_t)cut == boundaries[k])
				boundary = (int)k;
		if (boundary >= 0) {
			/* a recording that stopped between chunks is whole */
			if (ret != 0 || n != (size_t)boundary) {
				bad_boundary++;
				printf("#   cut at %ld: ret %d, %zu chunks\n", cut, ret, n);
			}
		} else if (ret != MDF_E_TRUNCATED) {
			bad_cut++;
			printf("#   cut at %ld: ret %d (%s), want truncated\n", cut, ret, err);
		} else if (!strstr(err, "truncated")) {
			msg_ok = 0;
		}
	}
	EQ_INT(bad_cut, 0, "every cut inside a header or payload (%ld cuts) is reported as truncated", size);
	EQ_INT(bad_boundary, 0, "a cut between chunks reads as the chunks before it");
	OK(msg_ok, "truncation messages say 'truncated'");
	free(all);
}

/* Patch byte OFF of a copy of the recording, read it, expect ERR. */
static void expect_patched(long size, long off, const void *bytes, size_t nb,
			   int want, const char *what)
{
	unsigned char *all = malloc((size_t)size);
	FILE *f = fopen(path, "rb");
	char err[256];
	size_t n;
	int ret;

	if (!all || !f || fread(all, 1, (size_t)size, f) != (size_t)size) {
		perror(path);
		exit(2);
	}
	fclose(f);
	memcpy(all + off, bytes, nb);
	cut_copy(size, all);
	ret = read_all(cut_path, &n, err, sizeof(err));
	EQ_INT(ret, want, "%s: %s", what, err);
	free(all);
}

static void write_raw(const char *text)
{
	struct mdf_writer w;

	mdf_writer_open(&w, cut_path);
	mdf_write_chunk(&w, MDF_CHUNK_META, text, strlen(text));
	mdf_writer_close(&w);
}

static void test_bad_input(long size)
{
	const long meta_hdr = MDF_HDR_SIZE;
	const long c0 = (long)boundaries[0];
	const unsigned char huge[8] = { 0, 0, 0, 0, 0, 1, 0, 0 };
	const unsigned char meta_type[4] = { 1, 0, 0, 0 };
	const unsigned char aux_type[4] = { 2, 0, 0, 0 };
	const unsigned char bad_type[4] = { 9, 0, 0, 0 };
	const unsigned char one[4] = { 1, 0, 0, 0 };
	const unsigned char v2[4] = { 2, 0, 0, 0 };
	char err[256];
	size_t n;

	expect_patched(size, 0, "MLX5DIAH", 8, MDF_E_MAGIC, "bad magic");
	expect_patched(size, 8, v2, 4, MDF_E_VERSION, "unknown version");
	expect_patched(size, 12, one, 4, MDF_E_FORMAT, "reserved header field");
	expect_patched(size, meta_hdr, aux_type, 4, MDF_E_FORMAT, "first chunk is not META");
	expect_patched(size, meta_hdr + 4, one, 4, MDF_E_FORMAT, "reserved chunk field");
	expect_patched(size, c0, bad_type, 4, MDF_E_FORMAT, "unknown chunk type");
	expect_patched(size, c0, meta_type, 4, MDF_E_FORMAT, "a second META");
	expect_patched(size, c0 + 8, huge, 8, MDF_E_FORMAT, "chunk size of 2^40");

	cut_copy(5, (const unsigned char *)"hello");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_MAGIC,
	       "a short file of other bytes is not a recording: %s", err);
	EQ_INT(read_all("/nonexistent/x", &n, err, sizeof(err)), MDF_E_IO,
	       "a missing file: %s", err);

	write_raw("pmu=x\nno equals sign\n");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "META line without '=': %s", err);
	write_raw("pmu=x");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "META without final newline: %s", err);
	write_raw("event=0 config=0x1 config1=0x0 name=x\n");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "event line without config2: %s", err);
	write_raw("event=0 config=1 config1=0x0 config2=0x0 name=x\n");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "event config not hex: %s", err);
	write_raw("event=0 config=0x1 config1=0x0 config2=0x0 name=\n");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "event without a name: %s", err);
	write_raw("event=1 config=0x1 config1=0x0 config2=0x0 name=a\n");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "events not numbered from 0: %s", err);
	write_raw("event=0 config=0x1 config1=0x0 config2=0x0 name=a\n"
		  "event=0 config=0x2 config1=0x0 config2=0x0 name=b\n");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_E_FORMAT, "an event index twice: %s", err);
	write_raw("");
	EQ_INT(read_all(cut_path, &n, err, sizeof(err)), MDF_OK, "an empty META is valid");
}

int main(void)
{
	long size;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/rec", dir);
	snprintf(cut_path, sizeof(cut_path), "%s/cut", dir);
	size = write_sample();
	test_round_trip();
	test_cb_stops();
	test_truncation(size);
	test_bad_input(size);
	unlink(path);
	unlink(cut_path);
	rmdir(dir);
	return tap_done();
}
