#!/bin/sh
# CPU hotplug: when the CPU in a PMU's cpumask goes offline, its events
# move to another CPU and keep counting: with the emulator's time moved by
# the test, the count over both sides of the move is exactly the model. A
# sampling session's run goes on across the move (one run, every sample
# delivered, exact) while another device's recordings map and unmap AUX
# areas; no splat.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

HITS=0x1180000200000000		# icmc_hits

# Fresh PMU numbers: devices spread over the CPUs by PMU number, so
# mlx5_diag_1 sits on cpu1, which (unlike cpu0) can go offline.
rmmod mlx5_diag_sim && rmmod mlx5_diag
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "mlx5_diag_0 on cpu0" "$(cat "$PMUS/mlx5_diag_0/cpumask")" 0
expect_eq "mlx5_diag_1 on cpu1" "$(cat "$PMUS/mlx5_diag_1/cpumask")" 1
P=mlx5_diag_1
cpu=1
dev=$(cut -d: -f2 "$PMUS/$P/function")
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

# The PMU stays on cpu0 when cpu1 returns; the move below, and the tests
# after this one (any share of them, in either guest), expect the devices
# spread over the CPUs as after a load: load the modules again.
sim_running "$dev"
rmmod mlx5_diag_sim && rmmod mlx5_diag
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "reloaded: mlx5_diag_1 on cpu1 again" "$(cat "$PMUS/mlx5_diag_1/cpumask")" 1

# ---- a sampling run across the move ----
# mlx5_diag_1's session on the manual clock: 20 samples on cpu1, 20 while
# cpu1 is offline, 20 after it returns. Meanwhile mlx5_diag_0's recordings
# start and stop, each mapping and unmapping an AUX area. One run, samples
# 0..59 without a gap, no loss, values exact.
dev=$(cut -d: -f2 "$PMUS/$P/function")
other=$(cut -d: -f2 "$PMUS/mlx5_diag_0/function")
trap 'sim_running $dev; rm -f /tmp/hp.stop' EXIT
rm -f /tmp/hp.stop /tmp/hp.other
(
	while [ ! -e /tmp/hp.stop ]; do
		"$MLX5_DIAG" record -q -d "sim:$other" -o /tmp/hp.other.data \
			-p 100us --duration 30ms -e icmc_hits
		echo $? >>/tmp/hp.other
	done
) &
churn=$!
record_stepped "$dev" /tmp/hp.data "
	step_samples $dev 20
	echo 0 >/sys/devices/system/cpu/cpu$cpu/online
	cat $PMUS/$P/cpumask >/tmp/hp.mask
	step_samples $dev 20
	echo 1 >/sys/devices/system/cpu/cpu$cpu/online
	step_samples $dev 20" -p 100us -e icmc_hits -e icmc_accesses
expect_eq "record across the move exits 0" "$?" 0
touch /tmp/hp.stop
wait $churn
sim_running "$dev"
expect_eq "the session moved to cpu0" "$(cat /tmp/hp.mask)" 0
expect_eq "one run, samples 0..59 without a gap" "$(stream_runs /tmp/hp.data)" \
	"1 contiguous 60"
expect_eq "no loss" "$(dec_lines /tmp/hp.data LOST | wc -l)" 0
expect_eq "the run ends when recording stops" "$(dec_lines /tmp/hp.data END)" \
	"END run 0 after 60 samples: stopped"
check "every value equals the model" \
	check_model "$dev" /tmp/hp.data cc $HITS 0x1180000100000000
diag "$(wc -l </tmp/hp.other) recordings of mlx5_diag_0 meanwhile"
expect_eq "each of them exits 0" "$(sort -u /tmp/hp.other)" 0

# The tests after this one expect the devices spread over the CPUs.
rmmod mlx5_diag_sim && rmmod mlx5_diag
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "reloaded: mlx5_diag_1 on cpu1 again" "$(cat "$PMUS/mlx5_diag_1/cpumask")" 1

exit "$T_FAILED"
