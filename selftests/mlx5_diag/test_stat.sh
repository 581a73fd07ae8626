#!/bin/sh
# Counting with perf stat, exactly: the emulator's time stands still and
# moves on only when perf's workload advances it, so every count equals the
# traffic model (the emulator's model file) over the engine time the events
# saw. Every class of data ID on both devices, summed statistics, physical
# relations, two events 0.7 % apart, the device clock, a drifting one,
# intervals, one event on both devices.
. ./lib.sh

P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
trap 'sim_running 0; sim_running 1' EXIT
# 25 ms of engine time: a multiple of 32 ns, whole clocks at 156.25 MHz
STEP=25000000

# stat_exact NAME EVENT ID DEV: EVENT over one step counts the model
stat_exact() {
	out=$(stat_stepped "$2" "$4:$STEP")
	v=$(stat_value "$out" "$2")
	expect_eq "$1 counts exactly the model" "$v" "$(sim_model "$4" "$3" 0 $STEP)"
	case "$v" in ''|*[!0-9]*) diag "$out" ;; esac
}

stat_exact "counter per port" "$P0/port_rx_bytes,port=0/" 0x1020000100000000 0
stat_exact "counter per port (port 1)" "$P0/port_tx_packets,port=1/" 0x1140000300000001 0
stat_exact "counter per port and priority" "$P0/port_prio_tx_bytes,port=1,prio=3/" \
	0x1140000200000301 0
stat_exact "pause per port and priority" "$P1/port_prio_rx_pause,port=0,prio=7/" \
	0x1020000600000700 1
stat_exact "counter per host" "$P0/host_rx_buffer_discards,host=0/" 0x1040000100000000 0
stat_exact "counter per function" "$P1/function_rx_cqes,function=5/" 0x10c0000200000005 1
stat_exact "global counter" "$P0/icmc_hits/" 0x1180000200000000 0
stat_exact "global counter (sim:1)" "$P1/qp_cc_rate_limit_descheduled/" 0x1100000200000000 1
stat_exact "counter per PCIe link" "$P0/pcie_in_bytes,link_xx=1/" 0x1160000100000001 0
stat_exact "counter per link and tclass" "$P1/pcie_read_stall_ordering_ns,link_xx=0,tclass=7/" \
	0x1160000a00070000 1
stat_exact "summed statistic (packets)" "$P0/pcie_read_latency_packets,link_xx=1/" \
	0x1160000c00000001 0
stat_exact "summed statistic (histogram bin)" "$P1/pcie_read_latency_hist_packets,link_xx=1,bin=4/" \
	0x1160000f00040001 1

# Total latency is packets x the link's base latency L = 400 + 10 * link.
out=$(stat_stepped "{$P0/pcie_read_latency_packets,link_xx=1/,$P0/pcie_read_latency_total_ns,link_xx=1/}" \
	0:$STEP)
pk=$(echo "$out" | grep packets | cut -d';' -f1)
tot=$(echo "$out" | grep total_ns | cut -d';' -f1)
expect_eq "read packets in a group" "$pk" "$(sim_model 0 0x1160000c00000001 0 $STEP)"
expect_eq "total latency = 410 ns x packets" "$tot" "$((pk * 410))"

# ICMC hits + misses = accesses, through perf.
ev="$P1/icmc_accesses/,$P1/icmc_hits/,$P1/icmc_misses/"
out=$(stat_stepped "$ev" 1:$STEP)
acc=$(stat_value "$out" icmc_accesses)
hit=$(stat_value "$out" icmc_hits)
miss=$(stat_value "$out" icmc_misses)
expect_eq "icmc_accesses" "$acc" "$(sim_model 1 0x1180000100000000 0 $STEP)"
expect_eq "icmc_hits" "$hit" "$(sim_model 1 0x1180000200000000 0 $STEP)"
expect_eq "hits + misses = accesses" "$((hit + miss))" "$acc"

# Two events whose rates differ by 0.7 %: a driver that reads the wrong
# entry reports plausible numbers, never these.
out=$(stat_stepped "$P0/port_rx_packets,port=0/,$P0/port_rx_packets,port=1/" 0:$STEP)
a=$(stat_value "$out" "port=0/")
b=$(stat_value "$out" "port=1/")
expect_eq "port 0 of two close rates" "$a" "$(sim_model 0 0x1020000300000000 0 $STEP)"
expect_eq "port 1 of two close rates" "$b" "$(sim_model 0 0x1020000300000001 0 $STEP)"
check "they differ by less than 1 % ($a, $b)" test $((b - a)) -gt 0 -a $((100 * (b - a))) -lt "$a"

# Two devices at once, one perf stat, each at its own rate and steps.
out=$(stat_stepped "$P0/icmc_accesses/,$P1/icmc_accesses/" 0:$STEP 1:$((2 * STEP)))
expect_eq "two devices: sim:0" "$(stat_value "$out" "$P0/")" \
	"$(sim_model 0 0x1180000100000000 0 $STEP)"
expect_eq "two devices: sim:1" "$(stat_value "$out" "$P1/")" \
	"$(sim_model 1 0x1180000100000000 0 $((2 * STEP)))"

# The emulator's own arithmetic on this kernel: 100 s of emulator time are
# exactly 15,625,000,000 clocks of 156.25 MHz however long ago the clock's
# segment began (the generic mul_u64_u64_div_u64() of kernels before 6.11,
# arm64's, dropped low bits: 64 clocks short here, and one clock too many
# in counts).
sim_manual 0
c0=$(sim_clock 0)
echo 100000000000 >"$SIM/dev0/advance_ns"
expect_eq "the device clock over 100 s of emulator time" \
	"$(($(sim_clock 0) - c0))" 15625000000

# A drifting device clock (-250 ppm from wherever the oscillator stands,
# its fraction of a clock carried) and a step of no whole number of
# clocks: the count
# is the model over the engine time the emulator reports (engine_time),
# read after the step has been polled.
sim_manual 1
echo 1000003 >"$SIM/dev1/advance_ns"
echo -250 >"$SIM/dev1/drift_ppm"
out=$(timeout 120 "$PERF_BIN" stat -x';' -e "$P1/icmc_hits/" -a -- sh -c \
	". ./lib.sh; sleep 0.5; sim_advance 1 25000017 || echo STEP-TIMEOUT
	cat $SIM/dev1/engine_time >/tmp/stat.engine_time" 2>&1)
echo 0 >"$SIM/dev1/drift_ppm"
read -r ens eclocks </tmp/stat.engine_time
diag "engine time after the step: $ens ns, $eclocks clocks"
expect_eq "drifting clock: the count is the model over the engine time" \
	"$(stat_value "$out" icmc_hits)" "$(sim_model 1 0x1180000200000000 0 "$ens")"

# -e mlx5_diag/... reaches every device.
n=$(perf stat --no-merge -x';' -e mlx5_diag/icmc_misses/ -a sleep 0.2 2>&1 | grep -c icmc_misses)
expect_eq "mlx5_diag/icmc_misses/ opens on both devices" "$n" 2

# Intervals: the count moves only when a step is polled, so every interval
# ends on a step's running total (two steps may share one interval) and the
# intervals add up to the model over the three steps.
id=0x1020000300000000
s1=3200000
s2=6400000
s3=9600000
out=$(stat_stepped -I 100 "$P0/port_rx_packets,port=0/" 0:$s1 0:$s2 0:$s3)
c1=$(sim_model 0 $id 0 $s1)
c2=$(sim_model 0 $id 0 $((s1 + s2)))
c3=$(sim_model 0 $id 0 $((s1 + s2 + s3)))
vals=$(echo "$out" | grep port_rx_packets | cut -d';' -f2)
n=$(echo "$vals" | grep -c .)
check "-I 100 printed intervals ($n)" test "$n" -ge 10
sum=0
bad=0
for v in $vals; do
	case "$v" in *[!0-9]*|'') bad=1; continue ;; 0) continue ;; esac
	sum=$((sum + v))
	case " $c1 $c2 $c3 " in *" $sum "*) ;; *) bad=1 ;; esac
done
expect_eq "every interval ends on a step" "$bad" 0
expect_eq "intervals add up to the model" "$sum" "$c3"

exit $T_FAILED
