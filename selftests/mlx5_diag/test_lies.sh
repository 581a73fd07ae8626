#!/bin/sh
# Firmware that lies (the emulator's debugfs "lie"): a QUERY after a SET
# that reports a larger buffer, other data IDs or a period of 2^64 clocks
# leaves the engine FOREIGN (engine/foreign_configs) and the open or the run
# refused; a ring whose every slot is a lap ahead of the drain ends the run
# with LOST records and END (stalled); counting polls whose answers carry
# the ids in another order, and drains that meet samples stamped out of
# order, are logged and counted once each; a public device whose sampler
# stops while it reports itself enabled has its samples delivered once and
# nothing counted lost however long the run goes on; a device
# that says it selects 5000 data IDs at once is refused at probe. The
# recorders return (mlx5-diag record warning that a session never
# started), no splat.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

D0=$SIM/dev0
D1=$SIM/dev1
P0=$(pmu_of_sim 0)
EBUSY=16
trap 'sim_running 0; echo none >"$D0/lie"; echo none >"$D1/lie"' EXIT

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
		-e icmc_hits -e icmc_misses 2>/tmp/lies.err
	expect_eq "$1: mlx5-diag record returns" "$?" 0
	check "$1: and warns that the session never started" \
		grep -q 'warning: no run was recorded: the session never started' /tmp/lies.err
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

# ---- answers the driver cannot take: one line and one count each ----
# bad_lines_from NAME: a mark NAME in the kernel log, after the kernel's
# ratelimit interval for the driver's lines (5 s, 10 lines: the lines the
# tests before this one caused cannot suppress this one's); bad_lines NAME:
# "D C", the drain's and the counting poll's lines since, the log since
# left in /tmp/lies.log
bad_lines_from() {
	sleep 5
	log_mark "$1"
}
bad_lines() {
	log_since "$1" >/tmp/lies.log
	echo "$(grep -c 'sampling drain stopped at sample' /tmp/lies.log) $(grep -c "counting poll: the firmware's answer does not" /tmp/lies.log)"
}

# A counting poll whose on-demand sample carries the two ids in the
# reverse of the order the configuration's first answer had counts
# nothing: the first of a row of them is logged and counted in
# engine/unusable_answers, the others are not; a poll that counts ends the
# row. Two rows: two lines, two counts, no takeover.
bad_lines_from reversed
u0=$(eng "$P0" unusable_answers)
t0=$(eng "$P0" takeovers)
count_until /tmp/lies.stop "$P0/icmc_hits/,$P0/icmc_accesses/"
wait_state "$P0" count
# the configuration's first answer teaches the driver its order (A12)
wait_polls "$P0" 1
for k in 1 2; do
	echo "entries_reversed 1" >"$D0/lie"
	wait_polls "$P0" 4
	echo none >"$D0/lie"
	wait_polls "$P0" 4
done
touch /tmp/lies.stop
wait
expect_eq "entries reversed: two rows, counted in engine/unusable_answers" \
	$(($(eng "$P0" unusable_answers) - u0)) 2
expect_eq "entries reversed: two lines" \
	"$(bad_lines reversed)" "0 2"
expect_eq "entries reversed: no takeover" "$(eng "$P0" takeovers)" "$t0"

# Sample 30's last entry is stamped a clock before sample 29: the drain
# takes 0..29 and stops there: one line, engine/bad_samples + 1.
bad_lines_from ts_back
b0=$(eng "$P0" bad_samples)
echo "entry_ts_back 30" >"$D0/lie"
record_stepped 0 /tmp/lies3.data "
	advance_samples 0 50
	wait_for file_ge $PMUS/$P0/engine/bad_samples $((b0 + 1))
	wait_polls $P0 10" -p 100us -e icmc_hits -e icmc_accesses
expect_eq "entry stamped back: record exits 0" "$?" 0
echo none >"$D0/lie"
sim_running 0
expect_eq "entry stamped back: samples 0..29, none lost" \
	"$(dec_samples /tmp/lies3.data | awk '$1 != NR - 1 { bad++ } END { print NR, bad + 0 }') $(dec_lines /tmp/lies3.data LOST | wc -l)" \
	"30 0 0"
expect_eq "entry stamped back: counted once in engine/bad_samples" \
	$(($(eng "$P0" bad_samples) - b0)) 1
expect_eq "entry stamped back: logged once" "$(bad_lines ts_back)" "1 0"
check "entry stamped back: the line says where and why" \
	grep -q 'sampling drain stopped at sample 30: one of its entries is stamped before the sample before it' /tmp/lies.log

# A public device (16-bit sample ids, 32-bit timestamps, a small buffer) whose
# sampler stops after sample 39 while it reports itself enabled: drains
# 2^16 samples (2^30 clocks at the shortest period) apart for 3 * 2^32
# clocks, then one 2^19 samples on, deliver samples 0..39 once each and
# nothing lost, where the stale samples read as a later lap every 2^32
# clocks.
echo public >"$D1/profile"
echo 6 >"$D1/caps/log_max_samples"
sim_readd 1
P1=$(pmu_of_sim 1)
echo "sampling_stops 40" >"$D1/lie"
record_stepped 1 /tmp/lies4.data "
	for k in 1 2 3 4; do
		step_samples 1 10
	done
	i=0
	while [ \$i -lt 12 ]; do
		advance_samples 1 65536
		wait_polls $P1 2
		i=\$((i + 1))
	done
	advance_samples 1 524288
	wait_polls $P1 2" -p 100us -e fw_tx_packets -e fw_rx_steering_packets
expect_eq "sampler stopped: record exits 0" "$?" 0
expect_eq "sampler stopped: the firmware overwrote nothing" \
	"$(cat "$D1/stats/samples_overwritten")" 0
echo none >"$D1/lie"
sim_running 1
expect_eq "sampler stopped: samples 0..39 once each, nothing lost" \
	"$(dec_samples /tmp/lies4.data | awk '$1 != NR - 1 { bad++ } END { print NR, bad + 0 }') $(dec_lines /tmp/lies4.data LOST | wc -l)" \
	"40 0 0"
echo 13 >"$D1/caps/log_max_samples"
echo model64 >"$D1/profile"
sim_readd 1

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
