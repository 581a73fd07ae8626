// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: the device clock as an exact function of emulator time,
 * with drift (ppm) and steps, and its inverse (when a clock reading was
 * reached). Pure integer arithmetic, no clock is read here.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "mlx5_diag_compat.h"
#include "sim_int.h"

/* Oscillator rates are clocks per 10^12 ns: freq_khz * (10^6 + ppm). */
#define SIM_CLOCK_DIV	1000000000000ULL
/* 10^12 = SIM_CLOCK_BASE^2: the products below go in two base-10^6 steps */
#define SIM_CLOCK_BASE	1000000ULL

/*
 * The largest rate times SIM_CLOCK_BASE, plus 10^12, fits in 64 bits:
 * 10^7 kHz * (10^6 + 1000) * 10^6 is about 1.001 * 10^19 < 2^64.
 */
static_assert((u64)MLX5_DIAG_SIM_MAX_FREQ_KHZ *
	      (SIM_CLOCK_BASE + MLX5_DIAG_SIM_MAX_DRIFT_PPM) <=
	      (U64_MAX - SIM_CLOCK_DIV) / SIM_CLOCK_BASE);

static u64 sim_clock_rate(const struct sim_clock *clk, s32 ppm)
{
	return (u64)clk->freq_khz * (u64)(1000000 + ppm);
}

/*
 * floor(@r * @rate / 10^12) for @r < 10^12, the remainder in *@rem. Not
 * mul_u64_u64_div_u64(): before Linux 6.11 its generic version (arm64's)
 * drops low bits of a product above 2^62, and a clock one off is a count
 * off. With r = r1 * 10^6 + r0 and r1 * rate = x1 * 10^6 + x0, r * rate is
 * x1 * 10^12 + (x0 * 10^6 + r0 * rate), every term below 2^64.
 */
static u64 sim_clock_mul_rate(u64 r, u64 rate, u64 *rem)
{
	u64 r0, x0, x1, low;

	x1 = div64_u64_rem(div64_u64_rem(r, SIM_CLOCK_BASE, &r0) * rate,
			   SIM_CLOCK_BASE, &x0);
	low = x0 * SIM_CLOCK_BASE + r0 * rate;
	return x1 + div64_u64_rem(low, SIM_CLOCK_DIV, rem);
}

/*
 * floor(@r * 10^12 / @rate) for @r < @rate, the remainder in *@rem: long
 * division in two base-10^6 digits, each dividend below rate * 10^6.
 */
static u64 sim_clock_div_rate(u64 r, u64 rate, u64 *rem)
{
	u64 mid, hi = div64_u64_rem(r * SIM_CLOCK_BASE, rate, &mid);

	return hi * SIM_CLOCK_BASE +
	       div64_u64_rem(mid * SIM_CLOCK_BASE, rate, rem);
}

/*
 * Whole clocks in (frac + d * rate) / 10^12, @frac < 10^12 being the clock
 * fraction already counted; the new fraction in *@frac_out. Exact, no
 * overflow (modulo 2^64 beyond).
 */
static u64 sim_clock_lin(u64 d, u64 rate, u64 frac, u64 *frac_out)
{
	u64 r, q, a, f;

	q = div64_u64_rem(d, SIM_CLOCK_DIV, &r);
	a = sim_clock_mul_rate(r, rate, &f);
	f += frac;
	if (f >= SIM_CLOCK_DIV) {
		f -= SIM_CLOCK_DIV;
		a++;
	}
	if (frac_out)
		*frac_out = f;
	return q * rate + a;
}

/*
 * The least d with sim_clock_lin(d, rate, frac) >= c, for c >= 1:
 * ceil(((c - 1) * 10^12 + (10^12 - frac)) / rate).
 */
static u64 sim_clock_inv(u64 c, u64 rate, u64 frac)
{
	u64 r, q, a, rem;

	q = div64_u64_rem(c - 1, rate, &r);
	a = sim_clock_div_rate(r, rate, &rem);
	return q * SIM_CLOCK_DIV + a +
	       div64_u64(rem + SIM_CLOCK_DIV - frac + rate - 1, rate);
}

void mlx5_diag_sim_clock_init(struct sim_clock *clk, u32 freq_khz, u64 offset)
{
	memset(clk, 0, sizeof(*clk));
	clk->freq_khz = freq_khz;
	clk->offset = offset;
	clk->nr = 1;
	clk->seg[0].adj = offset;
}

/* The segment in force at emulator time @ns (the oldest one before it). */
static const struct sim_clock_seg *sim_clock_seg_ns(const struct sim_clock *clk,
						    u64 ns)
{
	u32 i = clk->nr - 1;

	while (i && clk->seg[i].ns > ns)
		i--;
	return &clk->seg[i];
}

/*
 * The segment an oscillator reading @osc belongs to: the last one that
 * started before the oscillator reached it (a reading taken at a segment's
 * very start belongs to the segment before).
 */
static const struct sim_clock_seg *
sim_clock_seg_osc(const struct sim_clock *clk, u64 osc)
{
	u32 i = clk->nr - 1;

	while (i && clk->seg[i].osc >= osc)
		i--;
	return &clk->seg[i];
}

/* The oscillator and its fraction at @ns; before the history: its start. */
static u64 sim_clock_osc_frac(const struct sim_clock *clk, u64 ns, u64 *frac)
{
	const struct sim_clock_seg *s = sim_clock_seg_ns(clk, ns);

	if (ns < s->ns)
		ns = s->ns;
	return s->osc + sim_clock_lin(ns - s->ns, sim_clock_rate(clk, s->ppm),
				      s->frac, frac);
}

u64 mlx5_diag_sim_clock_osc(const struct sim_clock *clk, u64 ns)
{
	return sim_clock_osc_frac(clk, ns, NULL);
}

u64 mlx5_diag_sim_clock_read(const struct sim_clock *clk, u64 ns)
{
	return mlx5_diag_sim_clock_osc(clk, ns) + sim_clock_seg_ns(clk, ns)->adj;
}

u64 mlx5_diag_sim_clock_at_osc(const struct sim_clock *clk, u64 osc)
{
	return osc + sim_clock_seg_osc(clk, osc)->adj;
}

/*
 * The first emulator time at which the oscillator read @osc; -ENODATA when
 * that lies before the oldest segment held.
 */
int mlx5_diag_sim_clock_osc_to_ns(const struct sim_clock *clk, u64 osc, u64 *ns)
{
	const struct sim_clock_seg *s = sim_clock_seg_osc(clk, osc);

	if (osc <= s->osc)
		return -ENODATA;
	*ns = s->ns + sim_clock_inv(osc - s->osc, sim_clock_rate(clk, s->ppm),
				    s->frac);
	return 0;
}

/* Forget the history: one segment from @ns on, the clock unchanged. */
void mlx5_diag_sim_clock_restart(struct sim_clock *clk, u64 ns)
{
	const struct sim_clock_seg *s = sim_clock_seg_ns(clk, ns);
	struct sim_clock_seg now = {
		.ns = max(ns, s->ns),
		.adj = clk->seg[clk->nr - 1].adj,
		.ppm = clk->seg[clk->nr - 1].ppm,
	};

	now.osc = sim_clock_osc_frac(clk, ns, &now.frac);
	clk->seg[0] = now;
	clk->nr = 1;
}

/* A new segment from @ns on (or the last one changed if it starts at @ns). */
static void sim_clock_push(struct sim_clock *clk, u64 ns, s32 ppm, u64 adj)
{
	struct sim_clock_seg *last = &clk->seg[clk->nr - 1];
	struct sim_clock_seg next = { .ns = ns, .adj = adj, .ppm = ppm };

	if (ns <= last->ns) {
		last->ppm = ppm;
		last->adj = adj;
		return;
	}
	next.osc = sim_clock_osc_frac(clk, ns, &next.frac);
	if (clk->nr == SIM_CLOCK_SEGS) {
		memmove(&clk->seg[0], &clk->seg[1],
			(SIM_CLOCK_SEGS - 1) * sizeof(clk->seg[0]));
		clk->nr--;
	}
	clk->seg[clk->nr++] = next;
}

void mlx5_diag_sim_clock_set_ppm(struct sim_clock *clk, u64 ns, s32 ppm)
{
	sim_clock_push(clk, ns, ppm, clk->seg[clk->nr - 1].adj);
}

void mlx5_diag_sim_clock_step(struct sim_clock *clk, u64 ns, s64 clocks)
{
	const struct sim_clock_seg *last = &clk->seg[clk->nr - 1];

	sim_clock_push(clk, ns, last->ppm, last->adj + (u64)clocks);
}

/* A frequency change keeps the device clock continuous at @ns. */
void mlx5_diag_sim_clock_set_freq(struct sim_clock *clk, u64 ns, u32 freq_khz)
{
	mlx5_diag_sim_clock_restart(clk, ns);
	clk->freq_khz = freq_khz;
}

void mlx5_diag_sim_clock_set_offset(struct sim_clock *clk, u64 offset)
{
	u64 delta = offset - clk->offset;
	u32 i;

	for (i = 0; i < clk->nr; i++)
		clk->seg[i].adj += delta;
	clk->offset = offset;
}

void mlx5_diag_sim_time_init(struct mlx5_diag_sim_time *tm, u64 host)
{
	tm->manual = false;
	tm->base_ns = 0;
	tm->base_host = host;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_time_init);

u64 mlx5_diag_sim_time_now(const struct mlx5_diag_sim_time *tm, u64 host)
{
	if (tm->manual)
		return tm->base_ns;
	return tm->base_ns + (host - tm->base_host);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_time_now);

void mlx5_diag_sim_time_set_manual(struct mlx5_diag_sim_time *tm, u64 host,
				   bool manual)
{
	if (manual == tm->manual)
		return;
	if (manual)
		tm->base_ns = mlx5_diag_sim_time_now(tm, host);
	else
		tm->base_host = host;
	tm->manual = manual;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_time_set_manual);

int mlx5_diag_sim_time_advance(struct mlx5_diag_sim_time *tm, u64 ns)
{
	if (!tm->manual)
		return -EINVAL;
	if (ns > U64_MAX - tm->base_ns)
		return -EOVERFLOW;
	tm->base_ns += ns;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_time_advance);

u64 mlx5_diag_sim_time_to_host(const struct mlx5_diag_sim_time *tm, u64 ns)
{
	if (tm->manual)
		return ns;
	return ns - tm->base_ns + tm->base_host;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_time_to_host);
