#!/bin/sh
# Device removal while perf stat runs: the emulator's time moves only when
# the test advances it, so perf's counts are exactly the traffic model up to
# the removal. Opening on the removed device is ENODEV; the PMU goes once
# the events close and comes back with the device; a removal in interval
# mode and the emulator's unload with events open leave perf counting the
# other device, exactly. (vm-run fails the run on any splat or leak.)
. ./lib.sh

P=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
RX=0x1020000100000000		# port_rx_bytes, port 0
HITS=0x1180000200000000		# icmc_hits
trap 'sim_running 0; sim_running 1' EXIT

sim_manual 0
perf stat -x';' -e "$P/port_rx_bytes,port=0/" -a -- sh -c "
	. ./lib.sh
	sleep 0.5
	sim_advance 0 4000000 || echo STEP-TIMEOUT
	echo 0 >$SIM/dev0/present
	test -d $PMUS/$P && echo kept >/tmp/unbind.kept
	perf_open_errno $P/icmc_hits/ >/tmp/unbind.errno
" >/tmp/unbind.out 2>&1
expect_eq "perf stat ended cleanly" "$?" 0
expect_eq "the PMU stays while its event is open" "$(cat /tmp/unbind.kept)" kept
expect_eq "opening another event on the removed device is ENODEV" \
	"$(cat /tmp/unbind.errno)" 19
expect_eq "perf stat reported the count up to the removal, exactly" \
	"$(stat_value "$(cat /tmp/unbind.out)" port_rx_bytes)" "$(sim_model 0 $RX 0 4000000)"
check "the PMU is gone after its last event closed" wait_for test ! -d "$PMUS/$P"
expect_eq "no PMU serves the removed device" "$(pmu_of_sim 0 || echo none)" none

echo 1 >"$SIM/dev0/present"
P=$(pmu_of_sim 0)
check "the device came back as a PMU ($P)" test -n "$P"
expect_eq "and counts" "$(perf_open_errno "$P/icmc_hits/")" 0

# Removal during interval mode, with events on both devices: each device's
# intervals add up to its model up to its last step (sim:1 is removed
# after 3 ms, sim:0 counts on to 5 ms).
sim_manual 0
sim_manual 1
perf stat -x';' -I 200 -e "$P/icmc_hits/,$P1/icmc_hits/" -a -- sh -c "
	. ./lib.sh
	sleep 0.5
	sim_advance 0 2000000 && sim_advance 1 3000000 || echo STEP-TIMEOUT
	echo 0 >$SIM/dev1/present
	sleep 0.5
	sim_advance 0 3000000 || echo STEP-TIMEOUT
" >/tmp/unbind2.out 2>&1
expect_eq "interval perf stat survives a removal" "$?" 0
# sum PMU: the intervals' counts of PMU's event
sum() {
	awk -F';' -v e="$1/icmc_hits/" '$4 == e && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' \
		/tmp/unbind2.out
}
expect_eq "the remaining device's intervals add up to its model" "$(sum "$P")" \
	"$(sim_model 0 $HITS 0 5000000)"
expect_eq "the removed device's intervals add up to its model up to the removal" \
	"$(sum "$P1")" "$(sim_model 1 $HITS 0 3000000)"
echo 1 >"$SIM/dev1/present"

# Unloading the emulator with events open: perf ends with both devices'
# counts up to the unload (the model is read before it).
sim_manual 0
sim_manual 1
perf stat -x';' -e "mlx5_diag/icmc_hits/" -a -- sh -c "
	. ./lib.sh
	sleep 0.5
	sim_advance 0 2000000 && sim_advance 1 1000000 || echo STEP-TIMEOUT
	echo \$((\$(sim_model 0 $HITS 0 2000000) + \$(sim_model 1 $HITS 0 1000000))) >/tmp/unbind3.want
	rmmod mlx5_diag_sim && echo unloaded >/tmp/unbind3.rmmod
" >/tmp/unbind3.out 2>&1
expect_eq "perf stat survives the emulator's unload" "$?" 0
expect_eq "emulator unloaded with events open" "$(cat /tmp/unbind3.rmmod)" unloaded
expect_eq "perf counted both devices up to the unload, exactly" \
	"$(stat_value "$(cat /tmp/unbind3.out)" icmc_hits)" "$(cat /tmp/unbind3.want)"
trap - EXIT
insmod "$MODDIR/mlx5_diag_sim.ko"
n=$(ls -d "$PMUS"/mlx5_diag_* | wc -l)
expect_eq "two PMUs again after reload" "$n" 2

exit "$T_FAILED"
