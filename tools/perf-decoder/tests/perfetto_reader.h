/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For test_decode_output.c: a Perfetto trace read by an independent
 * reader, protoc --decode with the schema subset, then taken the way
 * Perfetto's importer takes it, into lines of text a test compares.
 */
#ifndef MLX5DIAG_PERFETTO_READER_H
#define MLX5DIAG_PERFETTO_READER_H

#include <stddef.h>

/*
 * pf_read - decode the trace at PATH with `protoc
 * --decode=perfetto.protos.Trace` and the schema perfetto_trace.proto in
 * SCHEMA_DIR, and read its packets in file order as Perfetto's importer
 * does: each TracePacket's sequence keeps its interned event names and
 * default track from the last packet that cleared its incremental state.
 * Returns one line per item (malloc'd text):
 *
 *   track PATH [UNIT]            a TrackDescriptor: its name, after its
 *                                parent's and "/"; a counter's unit
 *   counter TIME PATH VALUE      a TYPE_COUNTER event on track PATH
 *   instant TIME PATH NAME K=V...  a TYPE_INSTANT event, its annotations
 *   switch CPU TIME pid=PID prev_comm=C prev_pid=P prev_prio=P
 *          prev_state=S next_comm=C next_pid=P next_prio=P
 *
 * (a switch on one line), integers in decimal, doubles as "%.17g". NULL
 * with ERR when protoc fails, or the trace breaks a rule of the importer:
 * a packet that needs incremental state before its sequence cleared it, an
 * event without a timestamp, on a track not described before it (or a
 * counter on a track that is not a counter's), an interned name not
 * defined on its sequence, a track uuid of 0 or described twice.
 */
char *pf_read(const char *schema_dir, const char *path, char *err,
	      size_t errlen);

/* pf_lines - the lines of TEXT that start with PREFIX (malloc'd). */
char *pf_lines(const char *text, const char *prefix);

#endif /* MLX5DIAG_PERFETTO_READER_H */
