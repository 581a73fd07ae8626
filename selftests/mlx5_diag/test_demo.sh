#!/bin/sh
# The demo (scripts/demo, the README's first command) runs here too, and
# shows what it promises: both PMUs, caps, perf list, counts, intervals,
# perf record / script / report -D, the refusals and the ownership takeover.
. ./lib.sh

P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
sh ./demo.sh >/tmp/demo.out 2>&1
expect_eq "the demo exits 0" "$?" 0
sed 's/^/# /' /tmp/demo.out

# section TEXT: the output (but blank lines) of the demo's command whose
# "$ " line holds TEXT
section() {
	awk -v t="$1" '/^\$ / { on = index($0, t) > 0; next } on && NF' /tmp/demo.out
}
# counted TEXT: section TEXT's perf stat lines with a count
counted() {
	section "$1" | grep -E '^ +[0-9]+ '
}

expect_eq "ls shows both PMUs" "$(section "ls $PMUS" | tr '\n' ' ')" \
	"mlx5_diag_0 mlx5_diag_1 "
expect_eq "function, identifier and cpumask" \
	"$(section "$P0/function" | head -2 | tr '\n' ' ')" "sim:0 model64 "
expect_eq "caps shown" "$(section "caps/max_data_ids" | grep -c '/caps/max_data_ids:16$')" 1
expect_eq "perf list shows 12 events" \
	"$(section "perf list" | grep -c '^  mlx5_diag/.*\[Kernel PMU event\]')" 12

s="port_tx_bytes,port=0/"
expect_eq "perf stat counts all 7 events" "$(counted "$s" | wc -l)" 7
pk=$(counted "$s" | awk '/pcie_read_latency_packets/ { print $1 }')
tot=$(counted "$s" | awk '/pcie_read_latency_total_ns/ { print $1 }')
expect_eq "total latency = 400 ns x packets on link 0" "$tot" "$((${pk:-0} * 400))"

# four intervals by count (--interval-count), not by a workload's length:
# a 1 s sleep gave 2 intervals, not 4, with a host core hogged
for p in "$P0" "$P1"; do
	expect_eq "intervals count on $p" \
		"$(section "-I 250" | grep -cE "^ +[0-9.]+ +CPU[0-9]+ +[0-9]+ +$p/icmc_misses/")" 4
done

expect_eq "perf script: 6 value lines" \
	"$(section "perf script --ns -i" | grep -c " mlx5_diag: $P0/")" 6
expect_eq "perf script: a sleep's sched_switch between each two samples" \
	"$(section "perf script --ns -i" | awk '/ mlx5_diag: / { if (!v) n++; v = 1 }
		/sched:sched_switch: prev_comm=sleep / { v = 0 } END { print n }')" 3
expect_eq "perf script --itrace=i: 3 device samples" \
	"$(section "--itrace=i" | grep -c "mlx5_diag_sample: $P0 seq [0-2]: port_rx_bytes")" 3
expect_eq "perf report -D: the session record first" \
	"$(section "perf report -D" | sed -n '2s/^\.  [0-9a-f]*: //p' | sed 's/ .*//')" SESSION

expect_eq "port 7 refused" "$(section "port=7/" | grep -c '<not supported>')" 1
expect_eq "max statistic refused" \
	"$(section "pcie_read_latency_max_ns" | grep -c '<not supported>')" 1
expect_eq "a foreign owner makes the open EBUSY" "$(section "$P1/icmc_hits/" |
	grep -c "returned with 16 (Device or resource busy) for event ($P1/icmc_hits/)")" 1
expect_eq "force=1 counts" "$(counted "icmc_hits,force=1/" | wc -l)" 1
expect_eq "the log shows the takeover" \
	"$(section "dmesg" | grep -c "$P1: taking the diagnostic engine over")" 1

exit "$T_FAILED"
