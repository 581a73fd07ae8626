#!/bin/sh
# CPU hotplug: when the CPU in a PMU's cpumask goes offline, its events
# move to another CPU and keep counting.
. ./lib.sh

P=$(pmu_of_sim 1)
cpu=$(cat "$PMUS/$P/cpumask")
if [ ! -e /sys/devices/system/cpu/cpu$cpu/online ]; then
	P=$(pmu_of_sim 0)
	cpu=$(cat "$PMUS/$P/cpumask")
fi
check "a PMU sits on a CPU that can go offline (cpu$cpu)" \
	test -e /sys/devices/system/cpu/cpu$cpu/online
perf stat -x';' -I 500 -e "$P/icmc_hits/" -a sleep 3 >/tmp/hp.out 2>&1 &
pid=$!
sleep 1
echo 0 >/sys/devices/system/cpu/cpu$cpu/online
new=$(cat "$PMUS/$P/cpumask")
check "cpumask moved off cpu$cpu (now $new)" test "$new" != "$cpu"
wait $pid
expect_eq "perf stat survived the CPU going offline" "$?" 0
last=$(grep icmc_hits /tmp/hp.out | tail -1 | cut -d';' -f2)
check "and counted after the move ($last)" test "${last:-0}" -gt 0
echo 1 >/sys/devices/system/cpu/cpu$cpu/online
expect_eq "counting works after the CPU returns" "$(perf_open_errno "$P/icmc_hits/")" 0

exit $T_FAILED
