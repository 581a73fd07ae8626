#!/bin/sh
# Ownership: an engine enabled by another agent is refused with EBUSY and
# left untouched unless force ownership is asked (event bit, which needs
# CAP_PERFMON, or module parameter); the last event gives the engine back;
# two users of our own engine share it.
. ./lib.sh
. ./engine_lib.sh

P=$(pmu_of_sim 1)
D=$SIM/dev1
PARAM=/sys/module/mlx5_diag/parameters/force_ownership
ACC=0x1180000100000000		# icmc_accesses

echo 1 >"$D/foreign_owner"
expect_eq "foreign agent holds the engine" "$(cat "$D/foreign_owner")" 1
configs=$(cat "$D/stats/configs")
expect_eq "EBUSY while another agent owns the engine" \
	"$(perf_open_errno "$P/icmc_hits/")" 16
check "the refusal says why" sh -c \
	"dmesg | grep -q 'refused: another agent has the engine (DOCA, a crashed owner)'"
expect_eq "the foreign configuration is untouched" "$(cat "$D/foreign_owner")" 1
expect_eq "no SET reached the firmware" "$(cat "$D/stats/configs")" "$configs"
expect_eq "the engine is seen as foreign" "$(eng "$P" state)" foreign

expect_eq "force=1 takes the engine over" "$(perf_open_errno "$P/icmc_hits,force=1/")" 0
check "the takeover is logged" sh -c "dmesg | grep -q 'taking the diagnostic engine over'"
expect_eq "our configuration, then the disable, reached the firmware" \
	"$(cat "$D/stats/configs")" $((configs + 2))
expect_eq "closing the last event turned the engine off" "$(eng "$P" state)" off
expect_eq "a plain open works now: the engine was given back" \
	"$(perf_open_errno "$P/icmc_hits/")" 0

echo 1 >"$D/foreign_owner"
echo 1 >"$PARAM"
expect_eq "force_ownership=1 takes the engine over" "$(perf_open_errno "$P/icmc_hits/")" 0
echo 0 >"$PARAM"
expect_eq "and gives it back" "$(perf_open_errno "$P/icmc_hits/")" 0

# Our own engine is shared, not refused: a second user while the first
# counts, and the first one's count stays exact (the second user's open and
# close each reprogram the engine at the frozen time: engine time starts
# again from 0 there, and nothing is lost; the emulator's engine_time gives
# each stretch).
sim_manual 1
perf stat -x';' -e "$P/icmc_accesses/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sim_advance 1 2000000
	sim_engine_ns 1 >/tmp/own.e1
	perf_open_errno $P/icmc_misses/ >/tmp/own.errno
	sim_advance 1 3000000
	sim_engine_ns 1 >/tmp/own.e2
" >/tmp/own1.out 2>&1
sim_running 1
expect_eq "a second user of the same device shares the engine" "$(cat /tmp/own.errno)" 0
expect_eq "the first user counted on, exactly" "$(stat_value "$(cat /tmp/own1.out)" icmc_accesses)" \
	$(( $(sim_model 1 $ACC 0 "$(cat /tmp/own.e1)") +
	    $(sim_model 1 $ACC 0 "$(cat /tmp/own.e2)") ))

exit $T_FAILED
