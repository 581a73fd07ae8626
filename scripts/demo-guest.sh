#!/bin/sh
# Demo, run inside the test VM by scripts/demo: discovery and counting of the
# emulated devices' diagnostic data IDs with plain perf.
. ./lib.sh
P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
set -x
ls "$PMUS" | grep mlx5_diag
cat "$PMUS/$P0/identifier" "$PMUS/$P0/cpumask"
grep . "$PMUS/$P0"/caps/*
perf list pmu 2>/dev/null | grep "$P0/" | head -12
perf stat -e "$P0/port_rx_bytes,port=0/,$P0/port_tx_bytes,port=0/,$P0/port_prio_rx_packets,port=1,prio=3/" \
	-e "$P0/pcie_read_latency_total_ns,link_xx=0/,$P0/pcie_read_latency_packets,link_xx=0/" \
	-e "$P0/icmc_accesses/,$P0/icmc_hits/" -a sleep 1
perf stat -I 250 -e "mlx5_diag/icmc_misses/" -a sleep 1
perf stat -e "$P0/pcie_read_latency_max_ns,link_xx=0/" -a true || true
echo 1 >"$SIM/dev1/foreign_owner"
perf stat -e "$P1/icmc_hits/" -a true || true
perf stat -e "$P1/icmc_hits,force=1/" -a sleep 0.5
dmesg | grep mlx5_diag | tail -5
