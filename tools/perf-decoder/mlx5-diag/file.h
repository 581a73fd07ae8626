/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording file of `mlx5-diag record`: a header, then chunks.
 * Documentation/file-format.md describes the layout; this is its writer
 * and reader. Everything is little-endian on disk.
 *
 *   header: "MLX5DIAG" (8 bytes), le32 version, le32 reserved (0)
 *   chunk:  le32 type, le32 reserved (0), le64 size, size bytes of payload,
 *           zero padding to a multiple of 8
 *
 * The first chunk is META; AUX chunks follow in stream order.
 */
#ifndef MLX5_DIAG_FILE_H
#define MLX5_DIAG_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MDF_MAGIC		"MLX5DIAG"
#define MDF_VERSION		1
#define MDF_HDR_SIZE		16
#define MDF_CHUNK_HDR_SIZE	16
#define MDF_ALIGN		8
/* A META chunk larger than this is not a recording of ours. */
#define MDF_META_MAX		(1u << 20)

enum mdf_chunk_type {
	MDF_CHUNK_META	= 1,	/* key=value text lines */
	MDF_CHUNK_AUX	= 2,	/* bytes of the AUX stream, in order */
	MDF_CHUNK_PERF	= 3,	/* data-ring records (reserved, not written yet) */
};

enum mdf_err {
	MDF_OK = 0,
	MDF_E_IO,		/* read or write failed: errno in mdf_*.sys_errno */
	MDF_E_MAGIC,		/* not a recording */
	MDF_E_VERSION,		/* a version this reader does not know */
	MDF_E_TRUNCATED,	/* the file ends inside a header or payload */
	MDF_E_FORMAT,		/* a malformed header, chunk or META */
	MDF_E_NOMEM,
	MDF_E_INVAL,		/* the caller's argument (a key or value) */
};

/* ---- writer ---- */

struct mdf_writer {
	FILE *f;
	uint64_t offset;	/* bytes written so far */
	int sys_errno;
	char err[256];
};

/* Create PATH ("-": stdout) and write the header. */
int mdf_writer_open(struct mdf_writer *w, const char *path);
/* One chunk whose payload is the concatenation of N buffers. */
int mdf_write_chunkv(struct mdf_writer *w, uint32_t type,
		     const void *const *bufs, const size_t *lens, int n);
int mdf_write_chunk(struct mdf_writer *w, uint32_t type, const void *buf,
		    size_t len);
int mdf_writer_flush(struct mdf_writer *w);
/* Flush and close; returns the first error of the close. */
int mdf_writer_close(struct mdf_writer *w);

/* META under construction: text, one "key=value\n" per line. */
struct mdf_meta_buf {
	char *text;
	size_t len, cap;
};

/*
 * Append key=value. The key is [A-Za-z0-9_.]+, the value any text without
 * a newline or NUL. MDF_E_INVAL otherwise.
 */
int mdf_meta_add(struct mdf_meta_buf *m, const char *key, const char *value);
int mdf_meta_addf(struct mdf_meta_buf *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The event line: "event=IDX config=0x.. config1=0x.. config2=0x.. name=STRING". */
int mdf_meta_add_event(struct mdf_meta_buf *m, unsigned int index,
		       uint64_t config, uint64_t config1, uint64_t config2,
		       const char *name);
void mdf_meta_buf_free(struct mdf_meta_buf *m);

/* ---- reader ---- */

struct mdf_kv {
	char *key;
	char *value;
};

struct mdf_event {
	unsigned int index;
	uint64_t config, config1, config2;
	char *name;		/* the user's event string */
};

struct mdf_reader {
	FILE *f;
	uint32_t version;
	uint64_t offset;	/* of the next chunk header */
	uint64_t file_size;	/* 0 when not a regular file */
	struct mdf_kv *meta;	/* in file order */
	size_t nr_meta;
	struct mdf_event *events;	/* in index order, 0..nr_events-1 */
	size_t nr_events;
	void *buf;		/* the last chunk's payload */
	size_t buf_cap;
	int error;		/* the first error (enum mdf_err), sticky */
	int sys_errno;
	char err[256];
};

/*
 * Open PATH, check the header and read the META chunk (which must come
 * first). Returns MDF_OK or an error; r->err says what and where.
 */
int mdf_reader_open(struct mdf_reader *r, const char *path);
/*
 * The same on F, opened by the caller, of which HEAD_LEN bytes (at most
 * the 16 of the header: a caller that looked at the magic) were read and
 * are at HEAD. PATH names it in messages. mdf_reader_close() closes F
 * unless it is stdin.
 */
int mdf_reader_fopen(struct mdf_reader *r, FILE *f, const char *path,
		     const void *head, size_t head_len);
/* The value of the first META line with KEY, or NULL. */
const char *mdf_meta_get(const struct mdf_reader *r, const char *key);
/*
 * The next chunk after META: *type, and its payload in *data (valid until
 * the next call), *len bytes. Returns 1 for a chunk, 0 at the end of the
 * file, or -(enum mdf_err) on error.
 */
int mdf_next_chunk(struct mdf_reader *r, uint32_t *type, const void **data,
		   size_t *len);
/*
 * Call CB for every AUX chunk from the current position to the end (other
 * chunk types are skipped). A non-zero return of CB stops and is returned.
 * Returns 0 at the end, or -(enum mdf_err) on error.
 */
typedef int (*mdf_aux_cb)(void *ctx, const void *data, size_t len);
int mdf_for_each_aux(struct mdf_reader *r, mdf_aux_cb cb, void *ctx);
void mdf_reader_close(struct mdf_reader *r);

const char *mdf_strerror(int err);

#endif /* MLX5_DIAG_FILE_H */
