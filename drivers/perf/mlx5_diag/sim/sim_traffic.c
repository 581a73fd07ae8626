// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: the deterministic traffic model of mlx5-diag-firmware.rst
 * part 3 (rates, cumulative counts, counters and statistics per sample).
 */
#include <linux/math64.h>

#include "sim.h"

/* Statistic kinds (bits 63:32); every other identity is a counter. */
#define SIM_KIND_READ_LAT_TOTAL		0x1160000b
#define SIM_KIND_READ_LAT_PACKETS	0x1160000c
#define SIM_KIND_READ_LAT_MAX		0x1160000d
#define SIM_KIND_READ_LAT_MIN		0x1160000e
#define SIM_KIND_READ_LAT_HIST		0x1160000f

u32 mlx5_diag_sim_traffic_rate(u64 id, unsigned int dev)
{
	u64 k = id >> 32;
	u64 i = (u32)id;

	return 1 + (u32)((k % 251 + 7 * i + 13 * (u64)dev) % 509);
}

u64 mlx5_diag_sim_traffic_count(u64 id, unsigned int dev, u64 t_ns)
{
	return mul_u64_u32_div(t_ns, mlx5_diag_sim_traffic_rate(id, dev),
			       1000);
}

u64 mlx5_diag_sim_clocks_to_ns(u64 clocks, u32 freq_khz)
{
	if (!freq_khz)
		return 0;
	return mul_u64_u32_div(clocks, 1000000, freq_khz);
}

u64 mlx5_diag_sim_traffic_value(u64 id, unsigned int dev, u64 t_prev_ns,
				u64 t_ns, u64 j, bool delta,
				unsigned int wrap_bits)
{
	u32 kind = id >> 32;
	u32 inst = (u32)id;
	u64 c = mlx5_diag_sim_traffic_count(id, dev, t_ns);
	u64 p = c - mlx5_diag_sim_traffic_count(id, dev, t_prev_ns);
	u64 lat = 400 + 10 * (inst % 64);
	u64 v;

	/*
	 * The read-latency statistics of a link all describe the link's
	 * packets: p is counted at the rate of the packets id of that link
	 * (bits 15:0 for the histogram, whose bits 31:16 are the bin).
	 */
	if (kind >= SIM_KIND_READ_LAT_TOTAL && kind <= SIM_KIND_READ_LAT_HIST) {
		u64 pid = (u64)SIM_KIND_READ_LAT_PACKETS << 32 |
			  (kind == SIM_KIND_READ_LAT_HIST ? inst & 0xffff :
							    inst & 0xffffff);

		p = mlx5_diag_sim_traffic_count(pid, dev, t_ns) -
		    mlx5_diag_sim_traffic_count(pid, dev, t_prev_ns);
	}

	switch (kind) {
	case SIM_KIND_READ_LAT_TOTAL:
		return p * lat;
	case SIM_KIND_READ_LAT_PACKETS:
		return p;
	case SIM_KIND_READ_LAT_MAX:
		return p ? lat + 100 + j % 10 : 0;
	case SIM_KIND_READ_LAT_MIN:
		return p ? lat - 100 - j % 10 : 0;
	case SIM_KIND_READ_LAT_HIST:
		/* bin ZZZZ = bits 31:16, below 10 for a valid data ID */
		return (inst >> 16) < 63 ? p >> ((inst >> 16) + 1) : 0;
	default:
		break;
	}
	v = delta ? p : c;
	if (wrap_bits == 32)
		v = (u32)v;
	return v;
}
