// SPDX-License-Identifier: GPL-2.0
/* Reading a perf event's mapped rings (perf_ring.h). */
#define _GNU_SOURCE
#include "perf_ring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

int perf_ring_map(struct perf_ring *r, int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->data_size = data_pages * page;
	r->base_len = r->data_size + page;
	r->base = mmap(NULL, r->base_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->pc = r->base;
	return 0;
}

int perf_ring_map_aux(struct perf_ring *r, int fd, size_t aux_pages)
{
	if (!r->pc)
		return -EINVAL;
	r->aux_len = aux_pages * (size_t)sysconf(_SC_PAGESIZE);
	r->pc->aux_offset = r->base_len;
	r->pc->aux_size = r->aux_len;
	r->aux = mmap(NULL, r->aux_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, (off_t)r->base_len);
	if (r->aux == MAP_FAILED) {
		r->aux = NULL;
		return -errno;
	}
	return 0;
}

void perf_ring_unmap(struct perf_ring *r)
{
	if (r->aux)
		munmap(r->aux, r->aux_len);
	if (r->base)
		munmap(r->base, r->base_len);
	r->aux = NULL;
	r->base = NULL;
	r->pc = NULL;
}

void perf_ring_copy(void *dst, const void *ring, size_t size, uint64_t off,
		    size_t len)
{
	size_t o = (size_t)(off % size), first = len < size - o ? len : size - o;

	memcpy(dst, (const char *)ring + o, first);
	memcpy((char *)dst + first, ring, len - first);
}

unsigned int perf_ring_span(const void *ring, size_t size, uint64_t from,
			    uint64_t to, const void *bufs[2], size_t lens[2])
{
	size_t len = (size_t)(to - from), o = (size_t)(from % size);

	if (!len)
		return 0;
	lens[0] = len < size - o ? len : size - o;
	lens[1] = len - lens[0];
	bufs[0] = (const char *)ring + o;
	bufs[1] = ring;
	return lens[1] ? 2 : 1;
}

uint64_t perf_ring_walk(const void *ring, size_t size, uint64_t from,
			uint64_t to, struct perf_ring_seen *seen)
{
	while (from < to) {
		struct perf_event_header h;
		uint64_t v;

		perf_ring_copy(&h, ring, size, from, sizeof(h));
		if (h.size < sizeof(h) || h.size > to - from) {
			seen->broken = 1;
			break;
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			seen->samples++;
		} else if (h.type == PERF_RECORD_LOST && h.size >= 24) {
			perf_ring_copy(&v, ring, size, from + 16, sizeof(v));
			seen->lost += v;
		} else if (h.type == PERF_RECORD_AUX && h.size >= 32) {
			perf_ring_copy(&v, ring, size, from + 24, sizeof(v));
			seen->truncated += !!(v & PERF_AUX_FLAG_TRUNCATED);
		}
		from += h.size;
	}
	return from;
}

unsigned int perf_ring_data_new(struct perf_ring *r, struct perf_ring_seen *seen,
				const void *bufs[2], size_t lens[2])
{
	const char *ring = (const char *)r->base + (r->base_len - r->data_size);

	r->data_head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	r->data_end = perf_ring_walk(ring, r->data_size, r->data_tail,
				     r->data_head, seen);
	return perf_ring_span(ring, r->data_size, r->data_tail, r->data_end,
			      bufs, lens);
}

void perf_ring_data_release(struct perf_ring *r)
{
	r->data_tail = r->data_end;
	__atomic_store_n(&r->pc->data_tail, r->data_end, __ATOMIC_RELEASE);
}

void perf_ring_read_data(struct perf_ring *r, struct perf_ring_seen *seen)
{
	const void *bufs[2];
	size_t lens[2];

	perf_ring_data_new(r, seen, bufs, lens);
	r->data_end = r->data_head;
	perf_ring_data_release(r);
}

unsigned int perf_ring_aux_new(struct perf_ring *r, const void *bufs[2],
			       size_t lens[2])
{
	if (!r->aux)
		return 0;
	r->aux_head = __atomic_load_n(&r->pc->aux_head, __ATOMIC_ACQUIRE);
	return perf_ring_span(r->aux, r->aux_len, r->aux_tail, r->aux_head,
			      bufs, lens);
}

void perf_ring_aux_release(struct perf_ring *r)
{
	r->aux_tail = r->aux_head;
	__atomic_store_n(&r->pc->aux_tail, r->aux_head, __ATOMIC_RELEASE);
}
