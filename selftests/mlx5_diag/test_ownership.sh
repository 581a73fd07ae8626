#!/bin/sh
# Ownership: an engine enabled by another agent is refused with EBUSY unless
# force ownership is asked (event bit or module parameter); the last event
# releases the engine.
. ./lib.sh

P=$(pmu_of_sim 1)
D=$SIM/dev1
PARAM=/sys/module/mlx5_diag/parameters/force_ownership

echo 1 >"$D/foreign_owner"
expect_eq "foreign agent holds the engine" "$(cat "$D/foreign_owner")" 1
expect_eq "EBUSY while another agent owns the engine" \
	"$(perf_open_errno "$P/icmc_hits/")" 16
check "the refusal says why" sh -c \
	"dmesg | grep -q 'enabled by another agent'"
expect_eq "the foreign configuration is untouched" "$(cat "$D/foreign_owner")" 1

expect_eq "force=1 takes the engine over" "$(perf_open_errno "$P/icmc_hits,force=1/")" 0
check "the takeover is logged" sh -c "dmesg | grep -q 'taking the diagnostic engine over'"
expect_eq "closing the last event released the engine" "$(cat "$D/foreign_owner")" 0

echo 1 >"$D/foreign_owner"
echo 1 >"$PARAM"
expect_eq "force_ownership=1 takes the engine over" "$(perf_open_errno "$P/icmc_hits/")" 0
echo 0 >"$PARAM"

# Our own engine is shared, not refused: a second perf stat on the device.
perf stat -e "$P/icmc_accesses/" -a sleep 2 >/tmp/own1.out 2>&1 &
sleep 1
expect_eq "a second user of the same device shares the engine" \
	"$(perf_open_errno "$P/icmc_misses/")" 0
wait
check "the first user counted on" grep -q icmc_accesses /tmp/own1.out

exit $T_FAILED
