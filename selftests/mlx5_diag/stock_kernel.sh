#!/bin/sh
# On a Debian stock kernel (booted by scripts/stock-vm-run, nothing loaded):
# the real-device binding beside Debian's own mlx5_core binds nothing, logs
# nothing and unloads in either order with the PMU driver; then the emulator
# and the PMU driver pass the sysfs, counting and bad-attribute selftests
# with Debian's perf of the kernel's series (/usr/bin/perf).
# /stock/mlx5_core.deps lists mlx5_core and its dependencies in load order.
. ./lib.sh

KREL=$(uname -r)
T_PREFIX="stock $KREL"
DEPS=$(cat /stock/mlx5_core.deps)

kmsg() { echo "mlx5-diag-stock: $*" >/dev/kmsg; }

# The kernel log after marker $1, without the kernel's own notes on loading
# an unsigned out-of-tree module.
log_since() {
	dmesg | sed -n "/mlx5-diag-stock: $1\$/,\$p" | sed 1d |
		grep -v -e 'loading out-of-tree module taints kernel' \
			-e 'module verification failed: signature and/or required key missing'
}

modname() { basename "$1" .ko | tr - _; }
count() { ls -d "$@" 2>/dev/null | wc -l; }

load_mlx5_core() {
	for m in $DEPS; do
		insmod "$m" || return 1
	done
}

unload_mlx5_core() {
	for m in $(echo "$DEPS" | tr ' ' '\n' | sed -n '1!G;h;$p'); do
		rmmod "$(modname "$m")" || return 1
	done
}

# bind_round FIRST SECOND: load the binding and the PMU driver in that
# order, check that nothing binds, unload in the same order.
bind_round() {
	check "load $1, then $2" sh -c "insmod $MODDIR/$1.ko && insmod $MODDIR/$2.ko"
	expect_eq "$1 then $2: no device offered to the PMU driver" \
		"$(count /sys/bus/auxiliary/devices/mlx5_diag_mlx5.*)" 0
	expect_eq "$1 then $2: no PMU" "$(count "$PMUS"/mlx5_diag*)" 0
	check "unload $1, then $2" sh -c "rmmod $1 && rmmod $2 && ! grep -q '^mlx5_diag' /proc/modules"
}

start=$(cut -d. -f1 /proc/uptime)
check "Debian's mlx5_core and its dependencies load" load_mlx5_core
kmsg "binding"
bind_round mlx5_diag_mlx5 mlx5_diag
bind_round mlx5_diag mlx5_diag_mlx5
insmod "$MODDIR/mlx5_diag_mlx5.ko"
expect_eq "the binding uses Debian's mlx5_core" \
	"$(sed -n 's/^mlx5_core [0-9]* [0-9]* \([^ ]*\).*/\1/p' /proc/modules)" "mlx5_diag_mlx5,"
rmmod mlx5_diag_mlx5
kmsg "binding done"
logged=$(log_since binding | grep -v 'mlx5-diag-stock: binding done')
expect_eq "the binding logs nothing" "$logged" ""
check "mlx5_core unloads after the binding" unload_mlx5_core
diag "binding checks took $(($(cut -d. -f1 /proc/uptime) - start))s"

check "the PMU driver and the emulator load" \
	sh -c "insmod $MODDIR/mlx5_diag.ko && insmod $MODDIR/mlx5_diag_sim.ko"
ver=$(perf --version)
for t in test_sysfs test_stat test_bad_attrs; do
	start=$(cut -d. -f1 /proc/uptime)
	T_PREFIX="stock $KREL: $t [$ver]" timeout 600 sh "./$t.sh" >/tmp/test.out 2>&1
	rc=$?
	cat /tmp/test.out
	if grep -q '^not ok' /tmp/test.out; then
		T_FAILED=1
	elif [ $rc != 0 ]; then
		not_ok "$t exited with $rc"
	fi
	diag "$t took $(($(cut -d. -f1 /proc/uptime) - start))s"
done
check "the emulator and the PMU driver unload" \
	sh -c "rmmod mlx5_diag_sim && rmmod mlx5_diag"
exit $T_FAILED
