#!/bin/sh
# Device removal while perf stat runs: perf ends cleanly with the counts up
# to the removal, the PMU goes once the events close, and comes back with
# the device. (vm-run fails the run on any splat or kmemleak report.)
. ./lib.sh

P=$(pmu_of_sim 0)
perf stat -x';' -e "$P/port_rx_bytes,port=0/" -a sleep 4 >/tmp/unbind.out 2>&1 &
pid=$!
sleep 1
echo 0 >"$SIM/dev0/present"
check "the PMU stays while its event is open" test -d "$PMUS/$P"
expect_eq "opening another event on the removed device is ENODEV" \
	"$(perf_open_errno "$P/icmc_hits/")" 19
check "(while the first event was still open)" kill -0 $pid
wait $pid
expect_eq "perf stat ended cleanly" "$?" 0
v=$(grep port_rx_bytes /tmp/unbind.out | cut -d';' -f1)
check "perf stat reported the count up to the removal ($v)" test "${v:-0}" -gt 0
sleep 1
check "the PMU is gone after its last event closed" test ! -d "$PMUS/$P"
expect_eq "no PMU serves the removed device" "$(pmu_of_sim 0 || echo none)" none

echo 1 >"$SIM/dev0/present"
P=$(pmu_of_sim 0)
check "the device came back as a PMU ($P)" test -n "$P"
expect_eq "and counts" "$(perf_open_errno "$P/icmc_hits/")" 0

# Removal during interval mode, with events on both devices.
P1=$(pmu_of_sim 1)
perf stat -I 200 -e "$P/icmc_hits/,$P1/icmc_hits/" -a sleep 2 >/tmp/unbind2.out 2>&1 &
pid=$!
sleep 1
echo 0 >"$SIM/dev1/present"
wait $pid
expect_eq "interval perf stat survives a removal" "$?" 0
echo 1 >"$SIM/dev1/present"

# Unloading the emulator with events open.
perf stat -e "mlx5_diag/icmc_hits/" -a sleep 2 >/tmp/unbind3.out 2>&1 &
pid=$!
sleep 1
rmmod mlx5_diag_sim
expect_eq "emulator unloaded with events open" "$?" 0
wait $pid
expect_eq "perf stat survives the emulator's unload" "$?" 0
insmod "$MODDIR/mlx5_diag_sim.ko"
n=$(ls -d "$PMUS"/mlx5_diag_* | wc -l)
expect_eq "two PMUs again after reload" "$n" 2

exit $T_FAILED
