#!/bin/sh
# Firmware that lies (the emulator's debugfs "lie"): a QUERY after a SET
# that reports a larger buffer, other data IDs or a period of 2^64 clocks
# leaves the engine FOREIGN (engine/foreign_configs) and the open or the run
# refused; a ring whose every slot is a lap ahead of the drain ends the run
# with LOST records and END (stalled); a device that says it selects 5000
# data IDs at once is refused at probe. The recorders return, no splat.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

D0=$SIM/dev0
D1=$SIM/dev1
P0=$(pmu_of_sim 0)
EBUSY=16
trap 'echo none >"$D0/lie"; echo none >"$D1/lie"' EXIT

expect_eq "no lie by default" "$(cat "$D0/lie")" none

# taken_back NAME: force=1 takes the engine back, and closing lets it go
taken_back() {
	expect_eq "$1: force=1 takes the engine back" \
		"$(perf_open_errno "$P0/icmc_hits,force=1/")" 0
	expect_eq "$1: and closing lets it go" "$(eng "$P0" state)" off
}

# lied_count NAME LIE: a counting open meets LIE
lied_count() {
	f0=$(eng "$P0" foreign_configs)
	echo "$2" >"$D0/lie"
	expect_eq "$1: the counting open is EBUSY" \
		"$(perf_open_errno "$P0/icmc_hits/")" $EBUSY
	echo none >"$D0/lie"
	expect_foreign "$1" "$P0" "$f0"
	taken_back "$1"
}

lied_count "a larger buffer" "params_log_num_of_samples 20"
lied_count "more data IDs" "params_num_of_counters 3"
lied_count "more data IDs than the device selects" "params_num_of_counters 5000"
lied_count "a period of 2^64 clocks" "params_log_sample_period 64"
check "a lie is logged" sh -c \
	"dmesg | grep -q 'the firmware reports a configuration other than the one set'"

# lied_session NAME LIE: a session's run meets LIE
lied_session() {
	f0=$(eng "$P0" foreign_configs)
	echo "$2" >"$D0/lie"
	"$MLX5_DIAG" record -q -d sim:0 -o /tmp/lies.data -p 100us --duration 200ms \
		-e icmc_hits -e icmc_misses
	expect_eq "$1: mlx5-diag record returns" "$?" 0
	echo none >"$D0/lie"
	expect_eq "$1: no run started" "$(dec_lines /tmp/lies.data SESSION | wc -l)" 0
	expect_foreign "$1" "$P0" "$f0"
	taken_back "$1"
}

lied_session "session, a larger buffer" "params_log_num_of_samples 16"
lied_session "session, more data IDs" "params_num_of_counters 16"
lied_session "session, a period of 2^64 clocks" "params_log_sample_period 64"

# Every slot a lap ahead: LOST records, then END (stalled); both recorders
# return long before their time is up.
echo "ring_ahead 1" >"$D0/lie"
t=$(uptime_ms)
"$MLX5_DIAG" record -q -d sim:0 -o /tmp/lies.data -p 100us --duration 60s \
	-e icmc_hits -e icmc_misses 2>/tmp/lies.err
expect_eq "ring ahead: the session ended early (exit 10)" "$?" 10
diag "mlx5-diag record returned after $(($(uptime_ms) - t)) ms"
check "ring ahead: and says why" \
	grep -q "the session ended early: the firmware never let the drain catch up" /tmp/lies.err
expect_eq "ring ahead: no sample" "$(dec_samples /tmp/lies.data | wc -l)" 0
end=$(dec_lines /tmp/lies.data END)
diag "$end"
lost=$(dec_lines /tmp/lies.data LOST | awk '/fw_overwrite/ { gsub(/[():]/, "", $6); n += $6 } END { print n + 0 }')
check "ring ahead: samples reported lost" test "$lost" -gt 0
expect_eq "ring ahead: one END, stalled, after exactly the samples lost" "$end" \
	"END run 0 after $lost samples: stalled"
timeout 120 perf record -q -a -o /tmp/lies.perf \
	-e "$P0/icmc_hits,period_ns=100000/" -- sleep 3
expect_eq "ring ahead: perf record returns" "$?" 0
echo none >"$D0/lie"
check "ring ahead: logged" sh -c \
	"dmesg | grep -q 'the firmware.s buffer stays a lap ahead of the drain'"
expect_eq "ring ahead: the engine is free again" "$(eng "$P0" state)" off

# A device that says it selects 5000 data IDs at once: refused at probe.
echo "caps_max_num_data_ids 5000" >"$D1/lie"
sim_readd 1
expect_eq "5000 data IDs: no PMU" "$(pmu_of_sim 1)" ""
check "5000 data IDs: logged" sh -c \
	"dmesg | grep -q 'selects 5000 data IDs at once, this driver serves at most 2048: device refused'"
echo none >"$D1/lie"
sim_readd 1
P1=$(pmu_of_sim 1)
expect_eq "the truth again: the PMU is back" "$(cat "$PMUS/$P1/caps/max_data_ids")" 16
exit $T_FAILED
