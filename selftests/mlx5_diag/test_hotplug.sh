#!/bin/sh
# CPU hotplug: when the CPU in a PMU's cpumask goes offline, its events
# move to another CPU and keep counting.
. ./lib.sh

# Fresh PMU numbers: devices spread over the CPUs by PMU number, so
# mlx5_diag_1 sits on cpu1, which (unlike cpu0) can go offline.
rmmod mlx5_diag_sim && rmmod mlx5_diag
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "mlx5_diag_0 on cpu0" "$(cat "$PMUS/mlx5_diag_0/cpumask")" 0
expect_eq "mlx5_diag_1 on cpu1" "$(cat "$PMUS/mlx5_diag_1/cpumask")" 1
P=mlx5_diag_1
cpu=1
perf stat -x';' -I 500 -e "$P/icmc_hits/" -a sleep 3 >/tmp/hp.out 2>&1 &
pid=$!
sleep 1
echo 0 >/sys/devices/system/cpu/cpu$cpu/online
expect_eq "cpumask moved to cpu0, the one left" "$(cat "$PMUS/$P/cpumask")" 0
wait $pid
expect_eq "perf stat survived the CPU going offline" "$?" 0
# intervals ending after 1.5 s (the CPU went offline at 1 s); the last,
# partial interval may hold no refresh, so count them together
after=$(grep icmc_hits /tmp/hp.out | awk -F';' '$1 > 1.5 { s += $2 } END { print s + 0 }')
check "and counted after the move ($after)" test "$after" -gt 0
echo 1 >/sys/devices/system/cpu/cpu$cpu/online
expect_eq "counting works after the CPU returns" "$(perf_open_errno "$P/icmc_hits/")" 0

exit $T_FAILED
