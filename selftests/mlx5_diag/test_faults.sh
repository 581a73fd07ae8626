#!/bin/sh
# Firmware faults from the emulator's debugfs reach perf as errnos at open
# time and as a logged, survivable poll failure while counting.
. ./lib.sh

P=$(pmu_of_sim 0)
D=$SIM/dev0

echo "1 0x1" >"$D/fail_next"
expect_eq "INT_ERR at open is EIO" "$(perf_open_errno "$P/icmc_hits/")" 5
echo "1 0x6" >"$D/fail_next"
expect_eq "RES_BUSY at open is EBUSY" "$(perf_open_errno "$P/icmc_hits/")" 16
expect_eq "the next open works" "$(perf_open_errno "$P/icmc_hits/")" 0
check "the firmware status is logged by name" sh -c \
	"dmesg | grep -q 'failed: status RES_BUSY (0x6)'"

failed_before=$(cat "$D/stats/commands_failed")
perf stat -x';' -e "$P/icmc_hits/" -a sleep 2 >/tmp/faults.out 2>&1 &
pid=$!
sleep 1
echo "3 0x1" >"$D/fail_next"
wait $pid
expect_eq "perf stat survives failing polls" "$?" 0
v=$(grep icmc_hits /tmp/faults.out | cut -d';' -f1)
check "and reports a count ($v)" test "${v:-0}" -gt 0
expect_eq "three commands failed" $(($(cat "$D/stats/commands_failed") - failed_before)) 3
check "poll failures are logged" sh -c \
	"dmesg | grep -q 'QUERY_DIAGNOSTIC_COUNTERS failed: status INT_ERR'"

# One command of the open stalls STALL ms: the open takes that much longer
# than one without the stall (give or take a quarter of it), not more.
STALL=1000
t0=$(uptime_ms)
perf_open_errno "$P/icmc_hits/" >/dev/null
t1=$(uptime_ms)
echo $STALL >"$D/stall_ms"
expect_eq "a stalled command delays but does not fail an open" \
	"$(perf_open_errno "$P/icmc_hits/")" 0
t2=$(uptime_ms)
expect_range "the stall delayed the open by stall_ms (it took $((t2 - t1)) ms, $((t1 - t0)) ms without)" \
	$((t2 - t1 - (t1 - t0))) $((STALL * 3 / 4)) $((STALL * 5 / 4))
expect_eq "the stall knob is one-shot" "$(cat "$D/stall_ms")" 0

exit $T_FAILED
