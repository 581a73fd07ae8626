#!/bin/sh
# All in-guest tests: the KUnit suites, then every test_*.sh, as TAP lines.
# Run by scripts/run-tests through scripts/vm-run (modules already loaded).
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

for t in ./test_*.sh; do
	[ -e "$t" ] || continue
	echo "# ---- $t"
	# a hung test is a failed test, not a hung run
	timeout 600 sh "$t" >/tmp/test.out 2>&1
	rc=$?
	cat /tmp/test.out
	# a script that failed without saying which check failed still fails
	if [ $rc != 0 ] && ! grep -q '^not ok' /tmp/test.out; then
		echo "not ok - $t: exited with $rc"
	fi
done
