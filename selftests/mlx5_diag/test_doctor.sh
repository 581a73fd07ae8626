#!/bin/sh
# mlx5-diag doctor against the emulator: on the default firmware every
# assumption holds, exit 0, the JSON report says so with the run's exact
# period and steps, and the engine is left off; each firmware variant and
# lie it can see is named, in text and JSON, with the exit status it
# deserves (0 handled, 1 differs); an engine another agent holds is
# refused (exit 8) with the other agent's configuration untouched, or
# taken with --force; an engine perf uses is refused untouched. On public
# firmware its sync-and-clear run teaches the driver data clear.
. ./lib.sh
. ./engine_lib.sh

D0=$SIM/dev0
D1=$SIM/dev1
P0=$(pmu_of_sim 0)
log_min=$(cat "$D0/caps/log_min_sample_period")
restore() {
	echo 0 >"$D0/stall_ms"
	echo none >"$D0/variant"
	echo none >"$D0/lie"
	echo samples >"$D0/num_samples_unit"
	echo 0 >"$D0/foreign_owner"
	echo "$log_min" >"$D0/caps/log_min_sample_period"
	sim_readd 0
	echo model64 >"$D1/profile"
	sim_readd 1
}
trap restore EXIT

# doctor NAME ARGS...: run doctor; its text in $out, its exit status in $st
doctor() {
	name=$1
	shift
	out=$(mlx5-diag doctor "$@" 2>&1)
	st=$?
	diag "$name: exit $st"
	echo "$out" | sed 's/^/#   /'
}

# finding ID: the verdict word of assumption ID in $out
finding() { echo "$out" | awk -v id="$1" '$1 == id { print $2 }'; }
# reading ID: the reading named in brackets of assumption ID in $out
reading() { echo "$out" | awk -v id="$1" '$1 == id' | sed -n 's/^[^[]*\[\([^]]*\)\].*/\1/p'; }
# json KEY: the first value of KEY in the JSON report $out
json() { echo "$out" | sed -n "s/^ *\"$1\":\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" | head -1; }

# others_hold NAME ID...: every assumption in $out but the IDs holds
# (the check named after NAME)
others_hold() {
	oh_name=$1
	shift
	others=$(echo "$out" | awk -v ids=" $* " '$1 ~ /^A[0-9]+$/ &&
		index(ids, " " $1 " ") == 0 && $2 != "holds"')
	expect_eq "$oh_name: every other assumption holds" "$others" ""
}

# expect_only ID VERDICT READING: ID has VERDICT and READING, every other
# assumption holds
expect_only() {
	expect_eq "$name: $1 $2" "$(finding "$1")" "$2"
	expect_eq "$name: $1 names the reading" "$(reading "$1")" "$3"
	others_hold "$name" "$1"
}

# ---- the default firmware ----
doctor default -d sim:0
expect_eq "default: exit 0" "$st" 0
expect_eq "default: ten assumptions judged, each holds" \
	"$(echo "$out" | awk '$1 ~ /^A[0-9]+$/ && $2 == "holds"' | wc -l)" 10
expect_eq "default: the verdict" "$(echo "$out" | tail -1)" \
	"verdict: every assumption holds or is handled"
expect_eq "default: the engine found and left off" "$(echo "$out" | grep '^  engine')" \
	"  engine off before, off after"
expect_eq "default: engine/state off" "$(eng "$P0" state)" off

c0=$(cat "$D0/stats/configs")
doctor json -d sim:0 --json
expect_eq "json: exit 0" "$st" 0
expect_eq "json: the verdict" "$(echo "$out" | tail -2 | head -1 | tr -d ' ')" '"verdict":"ok"'
expect_eq "json: the first run at the shortest period" "$(json period_ns)" \
	"$(cat "$PMUS/$P0/caps/min_sample_period_ns")"
expect_eq "json: its samples 2^log_min_sample_period clocks apart, exactly" \
	"$(json step_min) $(json step_max)" "$((1 << log_min)) $((1 << log_min))"
log_num=$(json log_num_of_samples)
# numbered from 0: the first sample delivered is the first not lost (a
# slow guest's first drain may come after a lap)
expect_eq "json: numbered from 0" "$(json first_seq)" "$(json lost_at_start)"
expect_eq "json: the firmware's numbering learnt from 0" "$(json sample_id_start)" zero
check "json: one and a half laps of the buffer at least" \
	test "$(($(json last_seq) + 1))" -ge $((3 << log_num >> 1))
expect_eq "json: nothing unaccounted" "$(json lost_unaccounted)" 0
expect_eq "json: no spread" "$(json entry_spread_max)" 0
expect_eq "json: engine off after" "$(json engine_after)" off
check "json: doctor configured the device" test "$(cat "$D0/stats/configs")" -gt "$c0"

# ---- --long: on past sample 2^16, through a 2.5 s stall of the drain ----
# Once the run has produced more samples than its first 300 ms hold
# (whatever the guest's speed: the emulator's clock runs in real time,
# and a slow drain's losses do not hold it back), the drain's next
# command stalls 2.5 s. The run over laps counts a stall
# in the driver's drains, not in time, and goes on: the stall ends in
# losses, not in a run cut short.
stalls=$(cat "$D0/stats/stalls")
(wait_for file_ge "$D0/stats/samples_produced" 20000 && echo 2500 >"$D0/stall_ms") &
staller=$!
doctor long -d sim:0 --long --json
wait $staller
expect_eq "long: exit 0" "$st" 0
expect_eq "long: one command of its drain stalled" \
	$(($(cat "$D0/stats/stalls") - stalls)) 1
expect_eq "long: the report says so" "$(json long)" true
log_num=$(json log_num_of_samples)
check "long: past sample 2^16, and one and a half laps more" \
	test "$(($(json last_seq) + 1))" -ge $(((1 << 16) + (3 << log_num >> 1)))
expect_eq "long: nothing unaccounted" "$(json lost_unaccounted)" 0
expect_eq "long: the 32-bit numbering kept" "$(json sample_id_bits)" 32
check "long: A1 holds, no wrap at 2^16" sh -c \
	"echo \"\$1\" | grep -q '\"detail\":\".*32-bit numbering, past sample 2^16 without a wrap\"'" - "$out"

# ---- variants the driver follows ----
echo "sample_id_bits 16" >"$D0/variant"
doctor sample_id_bits -d sim:0
expect_eq "sample_id_bits 16, without --long: exit 0" "$st" 0
check "sample_id_bits 16, without --long: not seen" sh -c \
	"echo \"\$1\" | grep -q '^  A1   holds .*: samples .*not seen to wrap (--long runs past sample 2^16)\$'" - "$out"
doctor sample_id_bits_long -d sim:0 --long
expect_eq "sample_id_bits 16: exit 0" "$st" 0
expect_only A1 handled sample_id_bits
check "sample_id_bits 16: the wrap named" sh -c \
	"echo \"\$1\" | grep -q '^  A1 .*the numbering wraps at 2^16 in the 32-bit field\$'" - "$out"
echo none >"$D0/variant"

echo "entry_jitter $(((1 << log_min) - 1))" >"$D0/variant"
doctor entry_jitter -d sim:0 --json
expect_eq "entry_jitter: exit 0" "$st" 0
expect_eq "entry_jitter: the spread is the jitter" "$(json entry_spread_max)" \
	$(((1 << log_min) - 1))
doctor entry_jitter -d sim:0
expect_only A2 handled entry_jitter
echo none >"$D0/variant"

echo "busy_every 3" >"$D0/variant"
f0=$(cat "$D0/stats/commands_failed")
b0=$(eng "$P0" busy_answers)
doctor busy_every -d sim:0
expect_eq "busy_every: exit 0" "$st" 0
expect_only A17 handled busy_every
busy=$(($(eng "$P0" busy_answers) - b0))
expect_eq "busy_every: engine/busy_answers counts the firmware's refusals" \
	"$busy" $(($(cat "$D0/stats/commands_failed") - f0))
check "busy_every: doctor says how many" sh -c \
	"echo \"\$1\" | grep -q '^  A17 .*: $busy command(s) answered RES_BUSY'" - "$out"
echo none >"$D0/variant"

echo "sample_id_continues 1" >"$D0/variant"
doctor sample_id_continues -d sim:0
expect_eq "sample_id_continues: exit 0" "$st" 0
expect_only A1 handled sample_id_continues
echo none >"$D0/variant"

# slot-index ids: the sampling run goes past its first lap, each sample
# placed by its time, and the device is remembered as numbering so
# (engine/slot_ids): from then on the driver refuses a period change, even
# in a run's first lap (perf core says EINVAL), and a check's change run
# finds A8 unknown, saying why. Bound again, the device is forgotten.
echo "sample_id_slot 1" >"$D0/variant"
doctor sample_id_slot -d sim:0 --json
expect_eq "sample_id_slot: exit 0" "$st" 0
check "sample_id_slot: delivery goes past the first lap" \
	test "$(json last_seq)" -ge $((1 << $(json log_num_of_samples)))
expect_eq "sample_id_slot: remembered, engine/slot_ids" "$(eng "$P0" slot_ids)" 1
log_mark slot_period
doctor "sample_id_slot again" -d sim:0
expect_eq "sample_id_slot again: exit 0" "$st" 0
expect_eq "sample_id_slot again: A1 handled" "$(finding A1)" handled
expect_eq "sample_id_slot again: A1 names the reading" "$(reading A1)" sample_id_slot
expect_eq "sample_id_slot again: A8 unknown" "$(finding A8)" unknown
check "sample_id_slot again: A8 says why" sh -c \
	"echo \"\$1\" | grep -q '^  A8 .*refuses a period change where the firmware numbers its samples by slot index (see A1): the period change was refused: Invalid argument'" - "$out"
others_hold "sample_id_slot again" A1 A8
expect_eq "sample_id_slot again: the refusal logged once" \
	"$(log_since slot_period | grep -c 'period change refused: the firmware numbers its samples by slot index')" 1
echo none >"$D0/variant"
sim_readd 0
P0=$(pmu_of_sim 0)
expect_eq "sample_id_slot: bound again, forgotten" "$(eng "$P0" slot_ids)" 0

# RTC stamps that stand still (A4): the rtc run stops at its second
# sample and the driver refuses the RTC from then on; a second check finds
# it refused already; the device bound again forgets it
echo "rtc_still 1" >"$D0/variant"
doctor rtc_still -d sim:0
expect_eq "rtc_still: exit 0" "$st" 0
expect_only A4 handled rtc_still
check "rtc_still: seen in the rtc run" sh -c \
	"echo \"\$1\" | grep -q '^  A4 .*two samples stamped alike in the rtc run'" - "$out"
doctor rtc_still_again -d sim:0
expect_eq "rtc_still again: exit 0" "$st" 0
check "rtc_still again: the rtc run refused" sh -c \
	"echo \"\$1\" | grep -q '^ *rtc  *refused: leader .*: Operation not supported\$'" - "$out"
check "rtc_still again: seen before" sh -c \
	"echo \"\$1\" | grep -q '^  A4 .*handled .*seen before this check'" - "$out"
echo none >"$D0/variant"
sim_readd 0
P0=$(pmu_of_sim 0)

echo "entry_order 1" >"$D0/variant"
doctor entry_order -d sim:0
expect_eq "entry_order: exit 0" "$st" 0
expect_only A12 handled entry_order
echo none >"$D0/variant"

# a raised period (A9): the shortest period lowered to 2^10 clocks, which
# the emulator raises to 2^13 for doctor's four counters (4 x 4 x 512
# clocks); reported, it holds; not reported, the driver learns it from the
# first run's samples (a PERIOD record, engine/unreported_periods)
echo 10 >"$D0/caps/log_min_sample_period"
sim_readd 0
P0=$(pmu_of_sim 0)
doctor "raised, reported" -d sim:0
expect_eq "raised, reported: exit 0" "$st" 0
expect_eq "raised, reported: A9 holds" "$(finding A9)" holds
check "raised, reported: at 2^13 clocks" sh -c \
	"echo \"\$1\" | grep -q '^  A9 .*samples 2^13 clocks (52428 ns) apart, as reported'" - "$out"
echo "period_unreported 1" >"$D0/variant"
doctor period_unreported -d sim:0
expect_eq "period_unreported: exit 0" "$st" 0
expect_only A9 handled period_unreported
check "period_unreported: what was learnt" sh -c \
	"echo \"\$1\" | grep -q '^  A9 .*samples 2^13 clocks (52428 ns) apart, 2^10 reported; the driver took the samples. period (a PERIOD record at sample [0-9]*, engine/unreported_periods +1)\$'" - "$out"
doctor period_unreported -d sim:0 --json
expect_eq "period_unreported, json: exit 0" "$st" 0
expect_eq "period_unreported, json: learnt 2^13" "$(json learnt_log_sample_period)" 13
expect_eq "period_unreported, json: engine/unreported_periods" "$(json unreported_periods)" 1
echo none >"$D0/variant"
echo "$log_min" >"$D0/caps/log_min_sample_period"
sim_readd 0
P0=$(pmu_of_sim 0)

echo entries >"$D0/num_samples_unit"
doctor entries -d sim:0
expect_eq "entries: exit 0" "$st" 0
expect_only A7 handled "num_samples_unit entries"
echo samples >"$D0/num_samples_unit"

# a period change after which the firmware numbers from 0 again, from
# slot 0: the driver sees it (engine/period_restarts) and goes on from there
echo "period_restart 1" >"$D0/variant"
doctor period_restart -d sim:0 --json
expect_eq "period_restart: exit 0" "$st" 0
expect_eq "period_restart, json: one restart seen, in the period change's run" \
	"$(echo "$out" | sed -n 's/^ *"period_restarts":\([0-9]*\),*$/\1/p' | awk '{ s += $1 } END { print s }')" 1
expect_eq "period_restart, json: A8 handled, period_restart" \
	"$(echo "$out" | awk '/"id":"A8"/ { a = 1 } a && /"verdict"|"reading"/ { sub(/^ */, ""); printf "%s", $0 } a && /"reading"/ { exit }')" \
	'"verdict":"handled","reading":"period_restart",'
doctor period_restart -d sim:0
expect_eq "period_restart: exit 0" "$st" 0
expect_only A8 handled "period_restart"
echo none >"$D0/variant"

# ---- readings the driver cannot follow ----


# sample 2500 of the first run (1.5 laps of 2048 slots), which even a
# slow guest's late first drain reads before the firmware overwrites it
echo "entry_ts_back 2500" >"$D0/lie"
doctor entry_ts_back -d sim:0
expect_eq "entry_ts_back: exit 1" "$st" 1
expect_eq "entry_ts_back: A2 differs" "$(finding A2)" differs
check "entry_ts_back: at sample 2500" sh -c \
	"echo \"\$1\" | grep -q '^  A2 .*delivery stopped after sample 2499\$'" - "$out"
expect_eq "entry_ts_back: A1 cannot tell" "$(finding A1)" unknown
echo none >"$D0/lie"

# every other sample's entries reversed: no one order to learn
echo "entries_reversed 2" >"$D0/lie"
doctor entries_reversed -d sim:0
expect_eq "entries_reversed: exit 1" "$st" 1
expect_eq "entries_reversed: A12 differs" "$(finding A12)" differs
expect_eq "entries_reversed: A12 names it" "$(reading A12)" "entries in another order"
echo none >"$D0/lie"

# ---- public firmware ----
echo public >"$D1/profile"
sim_readd 1
doctor public -d sim:1
expect_eq "public: exit 0" "$st" 0
check "public: the dialect" sh -c "echo \"\$1\" | grep -q '^mlx5_diag_[0-9]* (sim:1): firmware .*, dialect public16\$'" - "$out"
check "public: its sync-and-clear run taught the driver data clear" sh -c \
	"echo \"\$1\" | grep -qx '  data clear learnt: caps/clear yes, was unknown'" - "$out"
expect_eq "public: caps/clear yes" "$(cat "$PMUS/$(pmu_of_sim 1)/caps/clear")" yes

# ---- engines doctor must not touch ----
echo 1 >"$D0/foreign_owner"
c0=$(cat "$D0/stats/configs")
doctor foreign -d sim:0
expect_eq "foreign: exit 8" "$st" 8
check "foreign: says another agent holds it" sh -c \
	"echo \"\$1\" | grep -q 'another agent'" - "$out"
expect_eq "foreign: the device was not configured" "$(cat "$D0/stats/configs")" "$c0"
expect_eq "foreign: the other agent still holds it" "$(cat "$D0/foreign_owner")" 1
doctor foreign_force -d sim:0 --force
expect_eq "--force: exit 0" "$st" 0
expect_eq "--force: the engine left off" "$(eng "$P0" state)" off
echo 0 >"$D0/foreign_owner"

perf stat -e "$P0/icmc_hits/" -a -- sleep 30 >/dev/null 2>&1 &
pid=$!
wait_state "$P0" count
c0=$(cat "$D0/stats/configs")
doctor busy_engine -d sim:0
expect_eq "in use: exit 8" "$st" 8
check "in use: says so" sh -c "echo \"\$1\" | grep -q 'engine is in use (engine/state count)'" - "$out"
expect_eq "in use: the device was not configured" "$(cat "$D0/stats/configs")" "$c0"
kill -INT "$pid"
wait "$pid"

mlx5-diag doctor --bogus >/dev/null 2>&1
expect_eq "a bad option exits 2" "$?" 2
mlx5-diag doctor -d sim:9 >/dev/null 2>&1
expect_eq "an unknown device exits 7" "$?" 7
exit $T_FAILED
