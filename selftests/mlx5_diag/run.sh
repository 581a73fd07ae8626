#!/bin/sh
# All in-guest tests: the KUnit suites, then every test_*.sh, as TAP lines.
# Run by scripts/run-tests through scripts/vm-run (modules already loaded).
# "run.sh kunit" runs the KUnit suites only.
. ./lib.sh

for ko in mlx5_diag_kunit mlx5_diag_sim_kunit; do
	before=$(ls /sys/kernel/debug/kunit 2>/dev/null)
	if ! insmod "$MODDIR/$ko.ko"; then
		echo "not ok - kunit: insmod $ko"
		continue
	fi
	for s in $(ls /sys/kernel/debug/kunit); do
		echo "$before" | grep -qx "$s" && continue
		r=/sys/kernel/debug/kunit/$s/results
		sed 's/^/# /' "$r"
		# test cases are the KTAP lines one level in
		sed -n 's/^    \(not ok\|ok\) [0-9]* \([^ #]*\).*/\1 - kunit: '"$s"': \2/p' "$r"
		grep -q '^ok ' "$r" || grep -q "^not ok " "$r" ||
			echo "not ok - kunit: $s: no result"
	done
	rmmod "$ko"
done

# run_test SCRIPT: its TAP lines; a script that failed without saying which
# check failed still fails, and a hung one is stopped.
run_test() {
	start=$(cut -d. -f1 /proc/uptime)
	timeout 600 sh "$1" >/tmp/test.out 2>&1
	rc=$?
	cat /tmp/test.out
	echo "# $T_PREFIX took $(($(cut -d. -f1 /proc/uptime) - start))s"
	if [ $rc != 0 ] && ! grep -q '^not ok' /tmp/test.out; then
		echo "not ok - $T_PREFIX: exited with $rc"
	fi
}

[ "$1" = kunit ] && exit 0

for t in ./test_*.sh; do
	[ -e "$t" ] || continue
	echo "# ---- $t"
	export T_PREFIX="$(basename "$t" .sh)"
	run_test "$t"
done

# Debian's own perf 6.12 sees the same PMUs.
ver=$(perf-debian --version 2>&1)
echo "# ---- Debian perf: $ver"
export PERF=perf-debian
for t in ./test_sysfs.sh ./test_stat.sh ./test_bad_attrs.sh; do
	export T_PREFIX="$(basename "$t" .sh) [$ver]"
	run_test "$t"
done
