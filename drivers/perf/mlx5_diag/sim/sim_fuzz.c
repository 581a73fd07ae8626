// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: the firmware fuzzer - mutates a share of the command
 * answers at random (status and syndrome, the answer's length, fields and
 * entries, or no answer at all), from a seed, so a run can be replayed.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/prandom.h>

#include "sim_int.h"
#include "sim_layout.h"

/* Answer header (status, syndrome): the first two 32-bit words. */
#define SIM_FUZZ_HDR_BYTES	8

/* Values at the edges of the fields' ranges, as a 32-bit word or a byte. */
static const u32 sim_fuzz_edges[] = {
	0, 1, 2, 15, 16, 31, 32, 63, 64, 0x7f, 0x80, 0xff, 0x100, 0x1000,
	0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
};

void mlx5_diag_sim_fuzz_seed(struct sim_fuzz *fz, u64 seed)
{
	fz->seed = seed;
	prandom_seed_state(&fz->rnd, seed);
}

/* A number in [0, @n), @n > 0 (the small bias of % does not matter). */
static u32 sim_fuzz_below(struct sim_fuzz *fz, u32 n)
{
	return prandom_u32_state(&fz->rnd) % n;
}

/* A new value for the 32-bit word @v. */
static u32 sim_fuzz_value(struct sim_fuzz *fz, u32 v)
{
	u32 shift, edge = sim_fuzz_edges[sim_fuzz_below(fz,
							ARRAY_SIZE(sim_fuzz_edges))];

	switch (sim_fuzz_below(fz, 6)) {
	case 0:
		return prandom_u32_state(&fz->rnd);
	case 1:
		return edge;
	case 2:
		return v + (1U << sim_fuzz_below(fz, 32));
	case 3:
		return v - (1U << sim_fuzz_below(fz, 32));
	case 4:
		return v ^ (1U << sim_fuzz_below(fz, 32));
	default:
		/* one byte: most fields are a byte or two of a word */
		shift = 8 * sim_fuzz_below(fz, 4);
		return (v & ~(0xffU << shift)) | (edge & 0xff) << shift;
	}
}

/*
 * Mutate one 32-bit word of the answer's @used bytes past the header: half
 * the time one of the first @head words (the fields that size the rest).
 */
static void sim_fuzz_word(struct sim_fuzz *fz, u8 *out, size_t used,
			  u32 head)
{
	size_t words = (used - SIM_FUZZ_HDR_BYTES) / 4;
	u32 off;

	if (!words)
		return;
	if (head && sim_fuzz_below(fz, 2))
		words = min_t(size_t, words, head);
	off = 8 * SIM_FUZZ_HDR_BYTES + 32 * sim_fuzz_below(fz, words);
	sim_set_bits(out, used, off, 32,
		     sim_fuzz_value(fz, sim_get_bits(out, used, off, 32)));
}

int mlx5_diag_sim_fuzz_answer(struct sim_fuzz *fz, void *out, size_t outlen,
			      size_t used, u32 head)
{
	u8 *o = out;
	u32 i, n;
	u8 status;

	if (!fz->rate || sim_fuzz_below(fz, MLX5_DIAG_SIM_FUZZ_RATE_MAX) >=
	    fz->rate)
		return 0;
	fz->mutated++;
	used = clamp(used, SIM_FUZZ_HDR_BYTES, outlen);
	switch (sim_fuzz_below(fz, 16)) {
	case 0:
		/* no answer: the transport reports an error */
		return -EIO;
	case 1:
	case 2:
		/* another status (OK for a failed command) and syndrome */
		status = sim_get(o, outlen, 0, SIM_OUT_STATUS) &&
			 sim_fuzz_below(fz, 2) ? 0 :
			 1 + sim_fuzz_below(fz, 0xff);
		sim_set(o, outlen, 0, SIM_OUT_STATUS, status);
		sim_set(o, outlen, 0, SIM_OUT_SYNDROME,
			prandom_u32_state(&fz->rnd));
		return 0;
	case 3:
	case 4:
		/* a shorter answer: zeroes from a random byte on */
		if (used > SIM_FUZZ_HDR_BYTES) {
			i = SIM_FUZZ_HDR_BYTES +
			    sim_fuzz_below(fz, used - SIM_FUZZ_HDR_BYTES);
			memset(o + i, 0, outlen - i);
		}
		return 0;
	default:
		/* one to four fields or entry words */
		n = 1 + sim_fuzz_below(fz, 4);
		for (i = 0; i < n; i++)
			sim_fuzz_word(fz, o, used, head);
		return 0;
	}
}
