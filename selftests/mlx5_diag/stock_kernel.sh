#!/bin/sh
# On a Debian stock kernel (booted by scripts/stock-vm-run, nothing loaded;
# our modules where DKMS installs them, Debian's perf of the kernel's series
# as /usr/bin/perf): the commands of the install guide's "Checking" and "Dry
# run" (Documentation/admin-guide/perf/mlx5-diag-pmu.rst). The binding pulls
# in Debian's own mlx5_core, binds nothing, logs nothing and unloads in
# either order with the PMU driver; then the emulator and the PMU driver pass
# the sysfs, counting and bad-attribute selftests, and where the patched
# perf is there too (arm64), the sampling selftests.
. ./lib.sh

KREL=$(uname -r)
T_PREFIX="stock $KREL"
# where scripts/stock-vm-run puts the perf of tools/perf-decoder/perf, and
# what runs with it
PATCHED_PERF=/usr/libexec/mlx5-diag/perf
SAMPLING_TESTS="test_sampling test_removal test_perf test_perf_decode test_record_cli"

count() { ls -d "$@" 2>/dev/null | wc -l; }

# bind_round FIRST SECOND: load the binding and the PMU driver in that
# order, check that nothing binds, unload in the same order.
bind_round() {
	check "modprobe $1, then $2" sh -c "modprobe $1 && modprobe $2"
	expect_eq "$1 then $2: no device offered to the PMU driver" \
		"$(count /sys/bus/auxiliary/devices/mlx5_diag_mlx5.*)" 0
	expect_eq "$1 then $2: no PMU" "$(count "$PMUS"/mlx5_diag*)" 0
	check "unload $1, then $2" \
		sh -c "rmmod $1 && rmmod $2 && ! grep -q '^mlx5_diag' /proc/modules"
}

start=$(cut -d. -f1 /proc/uptime)
log_mark binding
bind_round mlx5_diag_mlx5 mlx5_diag
bind_round mlx5_diag mlx5_diag_mlx5
modprobe mlx5_diag_mlx5
expect_eq "the binding pulled in Debian's mlx5_core and uses it" \
	"$(sed -n 's/^mlx5_core [0-9]* [0-9]* \([^ ]*\).*/\1/p' /proc/modules)" "mlx5_diag_mlx5,"
rmmod mlx5_diag_mlx5
# without the kernel's own notes on loading an unsigned out-of-tree module
logged=$(log_since binding |
	grep -v -e 'loading out-of-tree module taints kernel' \
		-e 'module verification failed: signature and/or required key missing')
expect_eq "the binding logs nothing" "$logged" ""
check "mlx5_core unloads after the binding" \
	sh -c "modprobe -r mlx5_core && ! grep -q '^mlx5_core ' /proc/modules"
diag "binding checks took $(($(cut -d. -f1 /proc/uptime) - start))s"

# run_test TEST: one selftest with $PERF, its verdicts and time
run_test() {
	start=$(cut -d. -f1 /proc/uptime)
	T_PREFIX="stock $KREL: $1 [$("${PERF:-perf}" --version)]" timeout 600 sh "./$1.sh" >/tmp/test.out 2>&1
	rc=$?
	cat /tmp/test.out
	if grep -q '^not ok' /tmp/test.out; then
		T_FAILED=1
	elif [ $rc != 0 ]; then
		not_ok "$1 exited with $rc"
	fi
	diag "$1 took $(($(cut -d. -f1 /proc/uptime) - start))s"
}

check "modprobe mlx5_diag_sim, then mlx5_diag" sh -c "modprobe mlx5_diag_sim && modprobe mlx5_diag"
for t in test_sysfs test_stat test_bad_attrs; do
	run_test $t
done
# The arm64 guests, which no debug VM covers, have the patched perf and the
# mlx5-diag CLI too: sampling, removal, perf record and perf script with
# sched_switch, snapshots, mlx5-diag record and decode; then recordings for
# the host to decode (cross_recordings.sh).
if [ -x "$PATCHED_PERF" ]; then
	for t in $SAMPLING_TESTS cross_recordings; do
		PERF=$PATCHED_PERF MODDIR=/lib/modules/$KREL/updates/dkms run_test $t
	done
fi
check "rmmod mlx5_diag_sim mlx5_diag" rmmod mlx5_diag_sim mlx5_diag
exit $T_FAILED
