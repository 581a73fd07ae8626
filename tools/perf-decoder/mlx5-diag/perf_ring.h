/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A perf event's mapped rings (perf_event_open(2), "MMAP layout"), read as
 * the kernel writes them: whole records from the data ring's tail to its
 * head, and the new bytes of either ring as one or two pieces where they
 * wrap. `mlx5-diag record`, the live sampling sessions and the tracepoint
 * recording all read their rings so.
 */
#ifndef MLX5_DIAG_PERF_RING_H
#define MLX5_DIAG_PERF_RING_H

#include <stddef.h>
#include <stdint.h>

struct perf_event_mmap_page;

/* The data ring of an event with an AUX area: PERF_RECORD_AUX and _LOST */
#define PERF_RING_DATA_PAGES	16

/* One event's user page and data ring, and its AUX area if mapped. */
struct perf_ring {
	void *base;			/* user page and data ring */
	size_t base_len, data_size;
	struct perf_event_mmap_page *pc;
	uint64_t data_tail, data_head, data_end;
	void *aux;			/* NULL: none mapped */
	size_t aux_len;
	uint64_t aux_tail, aux_head;
};

/* What the data ring's records said, added up over reads. */
struct perf_ring_seen {
	uint64_t samples;		/* PERF_RECORD_SAMPLE */
	uint64_t lost;			/* PERF_RECORD_LOST's counts */
	uint64_t truncated;		/* PERF_RECORD_AUX flagged truncated */
	int broken;			/* a record of a bad size came */
};

/*
 * perf_ring_map - map FD's user page and a data ring of DATA_PAGES pages.
 * Returns 0, or a negative errno with nothing mapped.
 */
int perf_ring_map(struct perf_ring *r, int fd, size_t data_pages);

/*
 * perf_ring_map_aux - map an AUX area of AUX_PAGES pages after the data
 * ring, once perf_ring_map() has mapped that. Returns 0, or a negative
 * errno with no AUX area mapped (-EINVAL: no data ring).
 */
int perf_ring_map_aux(struct perf_ring *r, int fd, size_t aux_pages);

void perf_ring_unmap(struct perf_ring *r);

/*
 * perf_ring_copy - LEN bytes (at most SIZE) at offset OFF of RING, SIZE
 * bytes, wrapping.
 */
void perf_ring_copy(void *dst, const void *ring, size_t size, uint64_t off,
		    size_t len);

/*
 * perf_ring_span - the bytes from offset FROM to TO (at most SIZE apart) of
 * RING as BUFS and LENS. Returns how many pieces: 0 (none), 1, or 2 where
 * they wrap.
 */
unsigned int perf_ring_span(const void *ring, size_t size, uint64_t from,
			    uint64_t to, const void *bufs[2], size_t lens[2]);

/*
 * perf_ring_walk - the records of RING (SIZE bytes) from offset FROM up
 * to TO, counted into SEEN. Returns the offset after the last whole one:
 * TO, or where a record of a bad size (shorter than its header, or past
 * TO) starts, with SEEN->broken set.
 */
uint64_t perf_ring_walk(const void *ring, size_t size, uint64_t from,
			uint64_t to, struct perf_ring_seen *seen);

/*
 * perf_ring_data_new - the data ring's whole records from its tail up to
 * its head, or to a record of a bad size, counted into SEEN, as BUFS and
 * LENS; returns how many pieces (0: none). They stay the reader's until
 * perf_ring_data_release().
 */
unsigned int perf_ring_data_new(struct perf_ring *r, struct perf_ring_seen *seen,
				const void *bufs[2], size_t lens[2]);

/*
 * perf_ring_data_release - give the records of perf_ring_data_new() back;
 * a record of a bad size and those after it stay, unread.
 */
void perf_ring_data_release(struct perf_ring *r);

/*
 * perf_ring_read_data - the data ring's records up to its head, counted
 * into SEEN, and given back to the kernel; past a record of a bad size,
 * the ring is given back up to its head (a record's start: the kernel
 * moves it by whole records).
 */
void perf_ring_read_data(struct perf_ring *r, struct perf_ring_seen *seen);

/*
 * perf_ring_aux_new - the AUX area's bytes the kernel wrote since the
 * last perf_ring_aux_release(), as BUFS and LENS; returns how many pieces
 * (0: none, or no AUX area). They stay the reader's until
 * perf_ring_aux_release().
 */
unsigned int perf_ring_aux_new(struct perf_ring *r, const void *bufs[2],
			       size_t lens[2]);

/* perf_ring_aux_release - give the bytes of perf_ring_aux_new() back. */
void perf_ring_aux_release(struct perf_ring *r);

#endif /* MLX5_DIAG_PERF_RING_H */
