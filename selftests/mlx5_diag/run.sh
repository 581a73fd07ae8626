#!/bin/sh
# All in-guest tests: the KUnit suites, every test_*.sh, and some of them
# again with Debian's own perf. Run by scripts/run-tests through
# scripts/vm-run (modules already loaded); "run.sh kunit" runs the KUnit
# suites only. Each test is one block for the host:
#   # ==== BEGIN <test>
#   its output: a suite's debugfs results, or a test's check lines
#   # ==== END <test> status <exit status>
# The host (scripts/results.sh) knows from the tree which tests must appear
# and judges each block. Exits non-zero when anything failed.
. ./lib.sh

# Run again with Debian's perf; scripts/results.sh reads this line.
DEBIAN_PERF_TESTS="test_sysfs test_stat test_bad_attrs"

failed=0
end_block() {
	echo "# ==== END $1 status $2"
	[ "$2" = 0 ] || failed=1
}

# Every suite module of the build; its suites are the debugfs entries it adds.
for ko in "$MODDIR"/*_kunit.ko; do
	m=$(basename "$ko" .ko)
	before=$(ls /sys/kernel/debug/kunit 2>/dev/null)
	if ! insmod "$ko"; then
		echo "# insmod $m failed"
		failed=1
		continue
	fi
	for d in /sys/kernel/debug/kunit/*; do
		s=$(basename "$d")
		echo "$before" | grep -qx "$s" && continue
		r=$d/results
		echo "# ==== BEGIN kunit $s"
		cat "$r"
		end_block "kunit $s" $?
		grep -q '^not ok' "$r" && failed=1
	done
	rmmod "$m" || { echo "# rmmod $m failed"; failed=1; }
done
[ "$1" = kunit ] && exit $failed

# run_test NAME SCRIPT: one block; a hung test is stopped.
run_test() {
	echo "# ==== BEGIN $1"
	start=$(cut -d. -f1 /proc/uptime)
	timeout 600 sh "$2"
	rc=$?
	echo "# took $(($(cut -d. -f1 /proc/uptime) - start))s"
	end_block "$1" $rc
}

for t in ./test_*.sh; do
	T_PREFIX=$(basename "$t" .sh)
	export T_PREFIX
	run_test "selftest $T_PREFIX" "$t"
done

echo "# Debian perf: $(perf-debian --version 2>&1)"
export PERF=perf-debian
for t in $DEBIAN_PERF_TESTS; do
	export T_PREFIX="$t [Debian perf]"
	run_test "selftest $t with Debian perf" "./$t.sh"
done
exit $failed
