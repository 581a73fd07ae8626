// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: the deterministic traffic model of mlx5-diag-firmware.rst
 * part 3: time-varying leaf counts, the data IDs built from them so that
 * the physical relations hold exactly, and what a sample reports.
 */
#include <linux/bits.h>
#include <linux/math64.h>

#include "mlx5_diag_compat.h"
#include "sim_int.h"

/* Time variation: a cycle of 13 weights (mean 8), one per 65536 ns. */
#define SIM_SLOT_SHIFT		16
#define SIM_SLOT_NS		BIT_ULL(SIM_SLOT_SHIFT)
#define SIM_NR_WEIGHTS		13
#define SIM_WEIGHT_SUM		104

static const u8 sim_weights[SIM_NR_WEIGHTS] = {
	8, 11, 5, 9, 12, 6, 10, 4, 7, 11, 5, 9, 7,
};

/* Kinds (bits 63:32) the model builds from others. */
#define SIM_KIND_RX_BYTES		0x10200001
#define SIM_KIND_RX_PRIO_BYTES		0x10200002
#define SIM_KIND_RX_PACKETS		0x10200003
#define SIM_KIND_RX_PRIO_PACKETS	0x10200004
#define SIM_KIND_RX_PRIO_PAUSE		0x10200006
#define SIM_KIND_TX_BYTES		0x11400001
#define SIM_KIND_TX_PRIO_BYTES		0x11400002
#define SIM_KIND_TX_PACKETS		0x11400003
#define SIM_KIND_TX_PRIO_PACKETS	0x11400004
#define SIM_KIND_TX_PRIO_PAUSE		0x11400005
#define SIM_KIND_PCIE_IN_BYTES		0x11600001
#define SIM_KIND_PCIE_OUT_BYTES		0x11600002
#define SIM_KIND_PCIE_IN_DATA		0x11600003
#define SIM_KIND_PCIE_OUT_DATA		0x11600004
#define SIM_KIND_READ_STALL_ORDERING	0x1160000a
#define SIM_KIND_READ_LAT_TOTAL		0x1160000b
#define SIM_KIND_READ_LAT_PACKETS	0x1160000c
#define SIM_KIND_READ_LAT_MAX		0x1160000d
#define SIM_KIND_READ_LAT_MIN		0x1160000e
#define SIM_KIND_READ_LAT_HIST		0x1160000f
#define SIM_KIND_ICMC_ACCESSES		0x11800001
#define SIM_KIND_ICMC_HITS		0x11800002
#define SIM_KIND_ICMC_MISSES		0x11800003

#define SIM_NR_PRIOS		8
#define SIM_NR_BINS		10

/* The integral of the weight over [0, t) ns, phase @phase. */
static u64 sim_weighted_ns(u64 t, u32 phase)
{
	u64 slots = t >> SIM_SLOT_SHIFT;
	u64 cycles, w = 0;
	u32 part, k;

	cycles = div_u64_rem(slots, SIM_NR_WEIGHTS, &part);
	for (k = 0; k < part; k++)
		w += sim_weights[(phase + k) % SIM_NR_WEIGHTS];
	return (cycles * SIM_WEIGHT_SUM + w) * SIM_SLOT_NS +
	       sim_weights[(phase + part) % SIM_NR_WEIGHTS] *
	       (t & (SIM_SLOT_NS - 1));
}

/*
 * A leaf count at engine time @t: base rate b = 1 + (key % 251 + 13 n) % 509
 * events per microsecond, times (1000 + 7 x) / 1000 for instance x, varied
 * by the weights from phase (key + y + n) % 13.
 */
static u64 sim_leaf(u32 key, u32 x, u32 y, unsigned int dev, u64 t)
{
	u32 b = 1 + (key % 251 + 13 * dev) % 509;
	u32 phase = (key % SIM_NR_WEIGHTS + y + dev) % SIM_NR_WEIGHTS;

	return mul_u64_u32_div(sim_weighted_ns(t, phase), b * (1000 + 7 * x),
			       8000000);
}

/* A port's packets or bytes of one priority; @fam = bytes kind - 1. */
static u64 sim_prio_packets(u32 fam, u32 port, u32 prio, unsigned int dev,
			    u64 t)
{
	return sim_leaf(fam + 4, port, prio, dev, t);
}

static u64 sim_prio_bytes(u32 fam, u32 port, u32 prio, unsigned int dev,
			  u64 t)
{
	return 64 * sim_prio_packets(fam, port, prio, dev, t) +
	       sim_leaf(fam + 2, port, prio, dev, t);
}

/* Every priority of a port: packets (@bytes false) or bytes. */
static u64 sim_port_total(u32 fam, u32 port, bool bytes, unsigned int dev,
			  u64 t)
{
	u64 sum = 0;
	u32 q;

	for (q = 0; q < SIM_NR_PRIOS; q++)
		sum += bytes ? sim_prio_bytes(fam, port, q, dev, t) :
			       sim_prio_packets(fam, port, q, dev, t);
	return sum;
}

/* A link's read packets: the sum of its histogram bins. */
static u64 sim_read_packets(u32 link, unsigned int dev, u64 t)
{
	u64 sum = 0;
	u32 bin;

	for (bin = 0; bin < SIM_NR_BINS; bin++)
		sum += sim_leaf(SIM_KIND_READ_LAT_HIST, link, bin, dev, t);
	return sum;
}

bool mlx5_diag_sim_traffic_statistic(u64 id)
{
	u32 kind = id >> 32;

	return kind >= SIM_KIND_READ_LAT_TOTAL &&
	       kind <= SIM_KIND_READ_LAT_HIST;
}

u64 mlx5_diag_sim_traffic_count(u64 id, unsigned int dev, u64 t_ns)
{
	u32 kind = id >> 32;
	u32 inst = (u32)id;
	u32 x = inst & 0xff;
	u32 prio = (inst >> 8) & 0xf;

	switch (kind) {
	case 0:		/* a 16-bit counter id */
		return sim_leaf(inst, 0, 0, dev, t_ns);
	case SIM_KIND_RX_BYTES:
	case SIM_KIND_TX_BYTES:
		return sim_port_total(kind - 1, x, true, dev, t_ns);
	case SIM_KIND_RX_PACKETS:
	case SIM_KIND_TX_PACKETS:
		return sim_port_total(kind - 3, x, false, dev, t_ns);
	case SIM_KIND_RX_PRIO_BYTES:
	case SIM_KIND_TX_PRIO_BYTES:
		return sim_prio_bytes(kind - 2, x, prio, dev, t_ns);
	case SIM_KIND_RX_PRIO_PACKETS:
	case SIM_KIND_TX_PRIO_PACKETS:
		return sim_prio_packets(kind - 4, x, prio, dev, t_ns);
	case SIM_KIND_RX_PRIO_PAUSE:
	case SIM_KIND_TX_PRIO_PAUSE:
		return sim_leaf(kind, x, prio, dev, t_ns);
	case SIM_KIND_PCIE_IN_BYTES:
	case SIM_KIND_PCIE_OUT_BYTES:
		/* data bytes plus headers */
		return sim_leaf(kind + 2, x, 0, dev, t_ns) +
		       sim_leaf(kind, x, 0, dev, t_ns);
	case SIM_KIND_READ_STALL_ORDERING:
	case SIM_KIND_READ_LAT_HIST:
		return sim_leaf(kind, x, inst >> 16, dev, t_ns);
	case SIM_KIND_READ_LAT_PACKETS:
		return sim_read_packets(x, dev, t_ns);
	case SIM_KIND_READ_LAT_TOTAL:
		return (400 + 10 * (x % 64)) * sim_read_packets(x, dev, t_ns);
	case SIM_KIND_READ_LAT_MAX:
	case SIM_KIND_READ_LAT_MIN:
		return 0;	/* no running total */
	case SIM_KIND_ICMC_ACCESSES:
		return sim_leaf(SIM_KIND_ICMC_HITS, 0, 0, dev, t_ns) +
		       sim_leaf(SIM_KIND_ICMC_MISSES, 0, 0, dev, t_ns);
	default:
		return sim_leaf(kind, inst & 0xffff, 0, dev, t_ns);
	}
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_traffic_count);

u64 mlx5_diag_sim_clocks_to_ns(u64 clocks, u32 freq_khz)
{
	if (!freq_khz)
		return 0;
	return mul_u64_u32_div(clocks, 1000000, freq_khz);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_clocks_to_ns);

u64 mlx5_diag_sim_traffic_value(u64 id, unsigned int dev, u64 t_prev_ns,
				u64 t_ns, bool delta, unsigned int wrap_bits)
{
	u32 kind = id >> 32;
	u32 link = id & 0xff;
	u64 lat = 400 + 10 * (link % 64);
	u64 c = mlx5_diag_sim_traffic_count(id, dev, t_ns);
	u64 p, v;

	/* statistics describe [t_prev, t): never a running total */
	switch (kind) {
	case SIM_KIND_READ_LAT_MAX:
	case SIM_KIND_READ_LAT_MIN:
		p = sim_read_packets(link, dev, t_ns) -
		    sim_read_packets(link, dev, t_prev_ns);
		if (!p)
			return 0;
		v = 100 + (t_ns >> SIM_SLOT_SHIFT) % 10;
		return kind == SIM_KIND_READ_LAT_MAX ? lat + v : lat - v;
	default:
		break;
	}
	if (delta || mlx5_diag_sim_traffic_statistic(id))
		c -= mlx5_diag_sim_traffic_count(id, dev, t_prev_ns);
	v = c;
	if (wrap_bits == 32 && !mlx5_diag_sim_traffic_statistic(id))
		v = (u32)v;
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_traffic_value);
