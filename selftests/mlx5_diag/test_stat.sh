#!/bin/sh
# Counting with perf stat: every value is what the emulator's traffic model
# predicts for the time perf says the event ran, within the published
# refresh bound; summed statistics exactly; intervals; two devices at once.
. ./lib.sh

P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
REFRESH=$(cat "$PMUS/$P0/caps/counting_refresh_ms")
# each end of a count may be one refresh (plus a poll's own delay) stale
SLACK_MS=$((REFRESH + 60))

# check_model NAME VALUE RUNTIME_NS RATE: VALUE = RATE per us for RUNTIME
check_model() {
	want=$(($4 * $3 / 1000))
	tol=$(($4 * SLACK_MS * 1000))
	expect_range "$1 follows the model (rate $4/us, ran $(($3 / 1000000)) ms)" \
		"$2" $((want - tol)) $((want + tol))
}

# stat_one NAME EVENT ID SIMDEV
stat_one() {
	set -- "$1" "$2" "$3" "$4" $(perf_stat_value "$2" -a sleep 1)
	if [ "$5" = ERR ]; then
		not_ok "$1: perf stat failed"
		diag "$*"
		return
	fi
	check_model "$1" "$5" "$6" "$(model_rate "$3" "$4")"
}

stat_one "counter per port" "$P0/port_rx_bytes,port=0/" 0x1020000100000000 0
stat_one "counter per port (port 1)" "$P0/port_tx_packets,port=1/" 0x1140000300000001 0
stat_one "counter per port and priority" "$P0/port_prio_tx_bytes,port=1,prio=3/" \
	0x1140000200000301 0
stat_one "counter per host" "$P0/host_rx_buffer_discards,host=0/" 0x1040000100000000 0
stat_one "counter per function" "$P0/function_rx_cqes,function=5/" 0x10c0000200000005 0
stat_one "global counter" "$P0/icmc_hits/" 0x1180000200000000 0
stat_one "counter per PCIe link" "$P0/pcie_in_bytes,link_xx=1/" 0x1160000100000001 0
stat_one "counter per link and tclass" "$P0/pcie_read_stall_ordering_ns,link_xx=0,tclass=7/" \
	0x1160000a00070000 0
stat_one "summed statistic (packets)" "$P0/pcie_read_latency_packets,link_xx=1/" \
	0x1160000c00000001 0
stat_one "second device" "$P1/port_rx_bytes,port=0/" 0x1020000100000000 1

# Total latency is packets x the link's base latency L = 400 + 10 * link,
# sample by sample, so over any run: exactly.
out=$(perf stat -x';' -e "{$P0/pcie_read_latency_packets,link_xx=1/,$P0/pcie_read_latency_total_ns,link_xx=1/}" -a sleep 1 2>&1)
pk=$(echo "$out" | grep packets | cut -d';' -f1)
tot=$(echo "$out" | grep total_ns | cut -d';' -f1)
expect_eq "total latency = 410 ns x packets, exactly" "$tot" "$((pk * 410))"
check "packets were counted" test "${pk:-0}" -gt 0

# Two devices at once, one perf stat: each at its own rate.
out=$(perf stat -x';' -e "$P0/icmc_accesses/,$P1/icmc_accesses/" -a sleep 1 2>&1)
v0=$(echo "$out" | grep "$P0/" | cut -d';' -f1)
r0=$(echo "$out" | grep "$P0/" | cut -d';' -f4)
v1=$(echo "$out" | grep "$P1/" | cut -d';' -f1)
r1=$(echo "$out" | grep "$P1/" | cut -d';' -f4)
check_model "two devices: sim:0" "$v0" "$r0" "$(model_rate 0x1180000100000000 0)"
check_model "two devices: sim:1" "$v1" "$r1" "$(model_rate 0x1180000100000000 1)"

# -e mlx5_diag/... reaches every device.
n=$(perf stat --no-merge -x';' -e mlx5_diag/icmc_misses/ -a sleep 0.2 2>&1 | grep -c icmc_misses)
expect_eq "mlx5_diag/icmc_misses/ opens on both devices" "$n" 2

# Intervals: each 100 ms interval holds at most 2 refreshes' worth, none is
# negative, and they add up to the model's total.
rate=$(model_rate 0x1020000300000000 0)
out=$(perf stat -x';' -I 100 -e "$P0/port_rx_packets,port=0/" -a sleep 1 2>&1)
vals=$(echo "$out" | grep port_rx_packets | cut -d';' -f2)
n=$(echo "$vals" | grep -c .)
check "-I 100 printed 8 or more intervals ($n)" test "$n" -ge 8
sum=0
bad=0
for v in $vals; do
	case "$v" in *[!0-9]*|'') bad=1; continue ;; esac
	sum=$((sum + v))
	[ "$v" -le $((rate * (100 + 2 * SLACK_MS) * 1000)) ] || bad=1
done
expect_eq "every interval is a plausible non-negative count" "$bad" 0
# the last interval ends when counting ended, and may be a partial one
end_ns=$(echo "$out" | grep port_rx_packets | tail -1 | cut -d';' -f1 |
	awk '{ printf "%d", $1 * 1000000000 }')
check_model "intervals add up" "$sum" "$end_ns" "$rate"

exit $T_FAILED
