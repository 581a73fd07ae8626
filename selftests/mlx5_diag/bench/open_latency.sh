#!/bin/sh
# Benchmark (not a test): how long perf_event_open of a counting event takes
# on an emulated device (event_init: the firmware commands that program the
# engine), N times (default 20), with perf stat -a true timed around it
# (10 ms steps of /proc/uptime) and the commands each open sends counted
# by the emulator. The test suite checks only what an open does, never how
# fast (test_faults measures a stall by the emulator's own accounting).
#   scripts/vm-run selftests/mlx5_diag/bench/open_latency.sh [N]
. ./lib.sh

N=${1:-20}
P=$(pmu_of_sim 0)
D=$SIM/dev0

: >/tmp/ol.ms
i=0
c0=$(cat "$D/stats/commands")
while [ $i -lt "$N" ]; do
	t=$(uptime_ms)
	perf stat -e "$P/icmc_hits/" -a true >/dev/null 2>&1
	echo $(($(uptime_ms) - t)) >>/tmp/ol.ms
	i=$((i + 1))
done
cmds=$(($(cat "$D/stats/commands") - c0))
sort -n /tmp/ol.ms | awk -v n="$N" -v c="$cmds" '
	{ v[NR] = $1; s += $1 }
	END {
		printf "# perf stat -a true on one event, %d times; %d firmware commands each\n", n, c / n
		printf "open+close ms: min %d  median %d  mean %d  max %d\n", v[1], v[int((NR + 1) / 2)], s / NR, v[NR]
	}'
