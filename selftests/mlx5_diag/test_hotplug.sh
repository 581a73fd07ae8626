#!/bin/sh
# CPU hotplug: when the CPU in a PMU's cpumask goes offline, its events
# move to another CPU and keep counting: with the emulator's time moved by
# the test, the count over both sides of the move is exactly the model.
. ./lib.sh

HITS=0x1180000200000000		# icmc_hits

# Fresh PMU numbers: devices spread over the CPUs by PMU number, so
# mlx5_diag_1 sits on cpu1, which (unlike cpu0) can go offline.
rmmod mlx5_diag_sim && rmmod mlx5_diag
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "mlx5_diag_0 on cpu0" "$(cat "$PMUS/mlx5_diag_0/cpumask")" 0
expect_eq "mlx5_diag_1 on cpu1" "$(cat "$PMUS/mlx5_diag_1/cpumask")" 1
P=mlx5_diag_1
cpu=1
dev=$(cut -d: -f2 "$PMUS/$P/identifier")
trap 'sim_running $dev' EXIT
sim_manual "$dev"
perf stat -x';' -e "$P/icmc_hits/" -a -- sh -c "
	. ./lib.sh
	sleep 0.5
	sim_advance $dev 2000000 || echo STEP-TIMEOUT
	echo 0 >/sys/devices/system/cpu/cpu$cpu/online
	cat $PMUS/$P/cpumask >/tmp/hp.mask
	sim_advance $dev 3000000 || echo STEP-TIMEOUT
" >/tmp/hp.out 2>&1
expect_eq "perf stat survived the CPU going offline" "$?" 0
expect_eq "cpumask moved to cpu0, the one left" "$(cat /tmp/hp.mask)" 0
expect_eq "and counted on after the move, exactly" \
	"$(stat_value "$(cat /tmp/hp.out)" icmc_hits)" "$(sim_model "$dev" $HITS 0 5000000)"
echo 1 >/sys/devices/system/cpu/cpu$cpu/online
expect_eq "counting works after the CPU returns" "$(perf_open_errno "$P/icmc_hits/")" 0

# The PMU stays on cpu0 when cpu1 returns; the tests after this one (any
# share of them, in either guest) expect the devices spread over the CPUs
# as after a load: load the modules again.
sim_running "$dev"
rmmod mlx5_diag_sim && rmmod mlx5_diag
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "reloaded: mlx5_diag_1 on cpu1 again" "$(cat "$PMUS/mlx5_diag_1/cpumask")" 1

exit "$T_FAILED"
