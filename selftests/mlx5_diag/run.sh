#!/bin/sh
# In-guest test runner: the KUnit suites, every test_*.sh, and some of them
# again with Debian's own perf, each test under its own time limit. Run by
# scripts/run-tests through scripts/vm-run (modules already loaded):
#   run.sh              everything
#   run.sh ITEM...      only these: "kunit" (every suite), "test_foo", or
#                       "test_foo@debian" (test_foo with Debian's perf);
#                       scripts/run-tests gives each of its guests a share
# Each test is one block for the host:
#   # ==== BEGIN <test>
#   its output: a suite's debugfs results, or a test's check lines
#   # ==== END <test> status <exit status>
# The host (scripts/results.sh) knows from the tree which tests must appear
# and judges each block. Exits non-zero when anything failed.
. ./lib.sh

# Run again with Debian's perf; scripts/results.sh reads this line.
# test_stat and test_bad_attrs run with Debian's perf on the stock kernels
# (stock_kernel.sh), the 6.12 kernel with this same perf 6.12. Here,
# under TCG with the debug kernel, one perf stat of it (55 shared
# libraries) took 13-16 s of guest time, the static perf's 3-4 s:
# test_bad_attrs with it took about 370 s.
DEBIAN_PERF_TESTS="test_sysfs"

failed=0
end_block() {
	echo "# ==== END $1 status $2"
	[ "$2" = 0 ] || failed=1
}

# Every suite module of the build; its suites are the debugfs entries it adds.
run_kunit() {
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
}

paced_idle=0
paced_took=0
# test_times ITEM: "IDLE LIMIT" from test-times, "60 600" if unlisted
test_times() {
	awk -v t="$1" '$1 == t { print $2, $3; found = 1; exit }
		END { if (!found) print 60, 600 }' ./test-times
}

# limit ITEM: the test's time limit in seconds. Its own (test-times, 600
# if unlisted), or more on a guest that runs slow: four times the test's
# idle time (test-times, 60 if unlisted) scaled by this guest's pace so
# far, the time the tests before it took over their idle times. On a host
# whose cores are all busy, a guest's tests ran 2.2 to 8 times their idle
# time where one busy core gave at most 4.9 times, so no fixed limit fits
# every load; the pace of the same guest does, and a hung test still runs
# out (the pace only counts tests that passed). Four, not two: tests that
# start many perf processes slow down more than the guest's average
# (test_bad_attrs with Debian's perf, test_record_cli: about 2x their
# guest's pace of 3.8-4.0 with both host cores hogged), and a limit is
# twice that.
limit() {
	set -- $(test_times "$1")
	awk -v idle="$1" -v lim="$2" -v pi=$paced_idle -v pt=$paced_took 'BEGIN {
		if (pi > 0 && 4 * idle * pt / pi > lim)
			lim = int(4 * idle * pt / pi) + 1
		print lim
	}'
}

# pace ITEM TOOK: a test that passed in TOOK seconds sets the guest's pace
pace() {
	paced_took=$((paced_took + $2))
	set -- $(test_times "$1")
	paced_idle=$((paced_idle + $1))
}

# calibrate: the guest's pace before its first test, from a fixed
# CPU-bound loop whose idle time test-times lists ("calibrate"): without
# it the first test's limit is its own, which a guest ten times slower
# than idle (its host busy with more than the guests) runs out of; with
# it that limit scales too. The tests that pass add to the pace after.
calibrate() {
	start=$(cut -d' ' -f1 /proc/uptime)
	awk 'BEGIN { for (i = 0; i < 300000; i++) s += i % 7; exit s < 0 }'
	took=$(awk -v a="$start" -v b="$(cut -d' ' -f1 /proc/uptime)" \
		'BEGIN { t = int(b - a + 0.5); print (t > 0 ? t : 1) }')
	echo "# calibrate: ${took}s"
	pace calibrate "$took"
}

# fresh_modules: the state every test starts from, after one that failed
# (it may have been stopped half-way, with a device removed or a knob set):
# the modules reloaded, so the emulator's devices and knobs are new.
fresh_modules() {
	for m in mlx5_diag_mlx5 mlx5_diag_sim mlx5_diag; do
		if grep -q "^$m " /proc/modules && ! rmmod "$m"; then
			echo "# rmmod $m failed: the next tests start from what is left"
			return
		fi
	done
	insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko" ||
		echo "# reloading the modules failed"
}

# run_test ITEM: one block. The test runs in a session of its own: every
# process it leaves behind is killed when it ends. One that runs out of its
# limit is stopped (TERM, then KILL after 5 s) and fails with a check line
# that names it and the limit; the rest run on.
run_test() {
	t=${1%@debian}
	if [ "$t" = "$1" ]; then
		name="selftest $t"
		T_PREFIX=$t PERF=perf
	else
		name="selftest $t with Debian perf"
		T_PREFIX="$t [Debian perf]" PERF=perf-debian
	fi
	export T_PREFIX PERF
	lim=$(limit "$1")
	echo "# ==== BEGIN $name"
	echo "# limit ${lim}s"
	start=$(cut -d. -f1 /proc/uptime)
	rm -f /tmp/run.timed_out
	# not a group leader (no job control): setsid makes it one, pgid = pid
	setsid sh "./$t.sh" &
	pid=$!
	setsid sh -c "sleep $lim; touch /tmp/run.timed_out
		kill -TERM -- -$pid; sleep 5; kill -KILL -- -$pid" 2>/dev/null &
	dog=$!
	wait $pid
	rc=$?
	kill -KILL -- -$dog -$pid 2>/dev/null
	took=$(($(cut -d. -f1 /proc/uptime) - start))
	if [ -e /tmp/run.timed_out ]; then
		echo "not ok - $T_PREFIX: ran out of its time limit ($lim s)"
		[ $rc != 0 ] || rc=1
	fi
	echo "# took ${took}s"
	end_block "$name" $rc
	if [ $rc = 0 ]; then
		pace "$1" "$took"
	else
		fresh_modules
	fi
}

if [ $# = 0 ]; then
	set -- kunit
	for t in ./test_*.sh; do
		set -- "$@" "$(basename "$t" .sh)"
	done
	for t in $DEBIAN_PERF_TESTS; do
		set -- "$@" "$t@debian"
	done
fi
case " $* " in
*@debian*) echo "# Debian perf: $(perf-debian --version 2>&1)" ;;
esac
calibrate
for item in "$@"; do
	case "$item" in
	kunit) run_kunit ;;
	test_*) run_test "$item" ;;
	*) echo "# run.sh: no such item: $item"; failed=1 ;;
	esac
done
exit $failed
