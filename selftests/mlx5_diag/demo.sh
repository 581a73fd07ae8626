#!/bin/sh
# Demo, run inside the test VM by scripts/demo (and checked by test_demo.sh
# in every test run): discovery and counting of the emulated devices'
# diagnostic data IDs with plain perf.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh
P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)

show() {
	echo
	echo "\$ $*"
	"$@" 2>&1
}

echo "\$ ls $PMUS | grep mlx5_diag"
# shellcheck disable=SC2010 # shown as an operator types it
ls "$PMUS" | grep mlx5_diag
show cat "$PMUS/$P0/function" "$PMUS/$P0/identifier" "$PMUS/$P0/cpumask"
show grep . "$PMUS/$P0"/caps/max_data_ids "$PMUS/$P0"/caps/min_sample_period_ns \
	"$PMUS/$P0"/caps/modes "$PMUS/$P0"/caps/dialect "$PMUS/$P0"/caps/counting_refresh_ms
show cat "$PMUS/$P0/events/port_prio_tx_bytes" "$PMUS/$P0/format/prio"
echo
echo "\$ perf list pmu | grep mlx5_diag/ | head -12"
perf list pmu 2>/dev/null | grep mlx5_diag/ | head -12
show perf stat -e "$P0/port_rx_bytes,port=0/,$P0/port_tx_bytes,port=0/,$P0/port_prio_rx_packets,port=1,prio=3/" \
	-e "{$P0/pcie_read_latency_total_ns,link_xx=0/,$P0/pcie_read_latency_packets,link_xx=0/}" \
	-e "$P0/icmc_accesses/,$P0/icmc_hits/" -a sleep 1
show perf stat --no-merge -I 250 --interval-count 4 -e mlx5_diag/icmc_misses/ -a
show perf stat -e "$P0/port_rx_bytes,port=7/" -a true
show perf stat -e "$P0/pcie_read_latency_max_ns,link_xx=0/" -a true
# The emulator's clock stands still and the workload steps it one sample
# period at a time, sleeping between steps: every device sample has
# sched_switch events around it, however fast the host runs the guest
# (those of the workload's sleeps: the filter keeps the listing short).
echo
echo "\$ echo manual > $SIM/dev0/clock_mode    # the device's time moves when stepped"
sim_manual 0
show perf record -q -a -o /tmp/demo.data -e sched:sched_switch --filter 'prev_comm == "sleep"' \
	-e "{$P0/port_rx_bytes,port=0,period_ns=10000000/,$P0/icmc_hits/}" -- \
	sh -c "$(perf_steps 0 "$P0" 4 1)"
sim_running 0
echo
echo "\$ perf script --ns -i /tmp/demo.data | awk '/ mlx5_diag: / { n++ } n && n <= 6'"
perf script --ns -i /tmp/demo.data 2>/dev/null | awk '/ mlx5_diag: / { n++ } n && n <= 6'
echo
echo "\$ perf script --ns --itrace=i -i /tmp/demo.data | grep -m 3 mlx5_diag_sample"
perf script --ns --itrace=i -i /tmp/demo.data 2>/dev/null | grep -m 3 mlx5_diag_sample
echo
echo "\$ perf report -D -i /tmp/demo.data | grep -m 1 -A 8 'mlx5_diag data'"
perf report -D -i /tmp/demo.data 2>/dev/null | grep -m 1 -A 8 'mlx5_diag data'
echo
echo "\$ echo 1 > $SIM/dev1/foreign_owner    # a DOCA user takes the engine"
echo 1 >"$SIM/dev1/foreign_owner"
show perf stat -e "$P1/icmc_hits/" -a true
show perf stat -e "$P1/icmc_hits,force=1/" -a sleep 0.5
echo
echo "\$ dmesg | grep mlx5_diag | tail -5"
dmesg | grep mlx5_diag | tail -5
