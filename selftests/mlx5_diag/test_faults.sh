#!/bin/sh
# Firmware faults from the emulator's debugfs reach perf as errnos at open
# time and as a logged, survivable poll failure while counting; a stalled
# command delays an open by as long as the emulator says it stalled.
. ./lib.sh
. ./engine_lib.sh

P=$(pmu_of_sim 0)
D=$SIM/dev0
HITS=0x1180000200000000		# icmc_hits
trap 'sim_running 0' EXIT

# (an open meets another state first: a foreign owner's is EBUSY)
expect_eq "the engine starts off" "$(eng "$P" state)" off

echo "1 0x1" >"$D/fail_next"
expect_eq "INT_ERR at open is EIO" "$(perf_open_errno "$P/icmc_hits/")" 5
# RES_BUSY: a command is tried four times before it is the answer
echo "1 0x6" >"$D/fail_next"
expect_eq "one RES_BUSY at open is tried again: the open works" \
	"$(perf_open_errno "$P/icmc_hits/")" 0
echo "4 0x6" >"$D/fail_next"
expect_eq "RES_BUSY on every try at open is EBUSY" "$(perf_open_errno "$P/icmc_hits/")" 16
expect_eq "the next open works" "$(perf_open_errno "$P/icmc_hits/")" 0
check "the firmware status is logged by name" sh -c \
	"dmesg | grep -q 'failed: status RES_BUSY (0x6)'"

# Three polls fail between two steps of the emulator's time: the count
# still ends at exactly the model over both steps.
failed_before=$(cat "$D/stats/commands_failed")
sim_manual 0
perf stat -x';' -e "$P/icmc_hits/" -a -- sh -c "
	. ./lib.sh
	sleep 0.5
	sim_advance 0 2000000 || echo STEP-TIMEOUT
	echo '3 0x1' >$D/fail_next
	sim_wait_cmds 0 3 && sim_advance 0 1000000 || echo STEP-TIMEOUT
" >/tmp/faults.out 2>&1
expect_eq "perf stat survives failing polls" "$?" 0
expect_eq "and reports the count over the failures, exactly" \
	"$(stat_value "$(cat /tmp/faults.out)" icmc_hits)" "$(sim_model 0 $HITS 0 3000000)"
sim_running 0
expect_eq "three commands failed" $(($(cat "$D/stats/commands_failed") - failed_before)) 3
check "poll failures are logged" sh -c \
	"dmesg | grep -q 'QUERY_DIAGNOSTIC_COUNTERS failed: status INT_ERR'"

# One command of the open stalls STALL ms. The emulator accounts the
# stalls and how long each really slept, so the checks need no figure of
# how fast this host runs the guest: the stall happened once, slept at
# least STALL, and the open waited for all of it (it sleeps in the
# command; /proc/uptime has 10 ms steps).
STALL=3000
# timed_open: open an event; sets errno, and ms to how long it took
timed_open() {
	t=$(uptime_ms)
	errno=$(perf_open_errno "$P/icmc_hits/")
	ms=$(($(uptime_ms) - t))
}
stalls=$(cat "$D/stats/stalls")
slept=$(cat "$D/stats/stalled_us")
timed_open
expect_eq "an open without a stall works" "$errno" 0
expect_eq "and did not stall" "$(cat "$D/stats/stalls")" "$stalls"
echo $STALL >"$D/stall_ms"
timed_open
slept=$((($(cat "$D/stats/stalled_us") - slept) / 1000))
diag "the stalled open took $ms ms; the stall slept $slept ms"
expect_eq "a stalled command delays but does not fail an open" "$errno" 0
expect_eq "one command stalled" $(($(cat "$D/stats/stalls") - stalls)) 1
check "it slept at least the stall ($slept ms)" test $slept -ge $STALL
check "the open waited for the whole stall ($ms ms)" test $ms -ge $((slept - 10))
expect_eq "the stall knob is one-shot" "$(cat "$D/stall_ms")" 0

exit $T_FAILED
