#!/bin/sh
# Firmware of other readings of the public sources (the emulator's debugfs
# "variant" and num_samples_unit), on the manual clock, exactly: folded
# counting on public firmware that zero-fills the slots it never wrote and
# counts num_of_samples in entries, or answers every third command
# RES_BUSY, counts the model and loses nothing; recordings on those
# variants decode every sample with the model's values and contiguous
# sequence numbers, and report as lost exactly what the firmware
# overwrote; a recording across sample 65536 of firmware that numbers its
# samples modulo 2^16 in the modelled 32-bit field goes on without a gap;
# one on firmware that stamps a sample's entries apart, in any order,
# delivers every sample with its earliest and latest time; counting and
# recordings on firmware that returns a sample's entries by data ID, not
# in the SET's order, learn the order and stay exact; recordings on
# firmware that numbers on across SETs are delivered from 0, exact, and
# so is one on firmware that numbers by slot index, across an overrun; one
# on firmware that raises the period and reports the one asked for learns
# the period from the samples; one with a period change on firmware that
# numbers from 0 again there goes on from slot 0, none lost; one on
# firmware whose RTC stamps stand
# still stops at its second sample, and the RTC is refused after; folded
# counting on firmware seen numbering by slot index refuses a buffer of
# fewer than 4 slots. engine/ shows what the driver learnt.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

D0=$SIM/dev0
D1=$SIM/dev1
P0=$(pmu_of_sim 0)
lmin=$(cat "$D0/caps/log_min_sample_period")
restore() {
	sim_running 0
	sim_running 1
	echo none >"$D0/variant"
	echo none >"$D1/variant"
	echo samples >"$D0/num_samples_unit"
	echo samples >"$D1/num_samples_unit"
	echo 0 >"$D0/stall_ms"
	echo "$lmin" >"$D0/caps/log_min_sample_period"
}
trap restore EXIT

# ---- folded counting on public firmware ----
echo public >"$D1/profile"
sim_readd 1
P1=$(pmu_of_sim 1)
expect_eq "the public device counts repetitive samples" \
	"$(cat "$PMUS/$P1/caps/counting_mode")" repetitive

# count_exact NAME UNIT: fw_tx_packets and fw_rx_steering_packets over ten
# steps of 3 ms equal the model over the sample grid (the first sample the
# baseline), nothing lost, no answer refused; the driver learnt that
# num_of_samples counts UNIT
count_exact() {
	u0=$(eng "$P1" unusable_answers)
	l0=$(eng "$P1" lost_samples)
	sim_manual 1
	perf stat -x';' -e "$P1/fw_tx_packets/,$P1/fw_rx_steering_packets/" -a -- sh -c "
		. ./lib.sh; . ./engine_lib.sh
		sample_grid 1 >/tmp/var.grid
		for i in 1 2 3 4 5 6 7 8 9 10; do sim_advance 1 3000000; done
		sim_clock 1 >/tmp/var.now
		eng $P1 lost_samples >/tmp/var.lost
		eng $P1 num_samples_unit >/tmp/var.unit
		eng $P1 entry_order >/tmp/var.order
	" >/tmp/var.out 2>&1
	read -r e per </tmp/var.grid
	due=$((($(cat /tmp/var.now) - e) / per))
	t0=$(clocks_ns 1 "$per")
	t1=$(clocks_ns 1 $((due * per)))
	diag "$1: $due samples of $per clocks"
	expect_eq "$1: fw_tx_packets equals the model" \
		"$(stat_value "$(cat /tmp/var.out)" fw_tx_packets)" \
		"$(sim_model 1 0x2006 "$t0" "$t1")"
	expect_eq "$1: fw_rx_steering_packets equals the model" \
		"$(stat_value "$(cat /tmp/var.out)" fw_rx_steering_packets)" \
		"$(sim_model 1 0x1001 "$t0" "$t1")"
	expect_eq "$1: nothing lost" $(($(cat /tmp/var.lost) - l0)) 0
	expect_eq "$1: no answer refused" $(($(eng "$P1" unusable_answers) - u0)) 0
	expect_eq "$1: num_of_samples learnt as $2" "$(cat /tmp/var.unit)" "$2"
	sim_running 1
}

echo "unwritten_zero 1" >"$D1/variant"
echo entries >"$D1/num_samples_unit"
count_exact "zero-filled slots, entries" entries
echo none >"$D1/variant"
echo samples >"$D1/num_samples_unit"
# a sample's entries by ascending data ID: fw_tx_packets (0x2006) is set
# first, so the firmware's order is not the SET's; learnt from the first
# sample (A12)
echo "entry_order 1" >"$D1/variant"
count_exact "entries by data ID" samples
expect_eq "entries by data ID: the order learnt" "$(cat /tmp/var.order)" other
echo none >"$D1/variant"
echo "busy_every 3" >"$D1/variant"
c0=$(cat "$D1/stats/commands_failed")
count_exact "RES_BUSY every third command" samples
check "RES_BUSY every third command: answered busy" \
	test "$(cat "$D1/stats/commands_failed")" -gt "$c0"
echo none >"$D1/variant"
echo model64 >"$D1/profile"
sim_readd 1

# ---- recordings on the modelled device ----
# EVS, IDS, CLASSES: record_lib.sh's 8 data IDs of device 0

echo "unwritten_zero 1" >"$D0/variant"
echo "busy_every 3" >"$D0/variant"
echo entries >"$D0/num_samples_unit"
expect_eq "variants taken" "$(tr '\n' ' ' <"$D0/variant")" \
	"unwritten_zero 1 busy_every 3 "
# shellcheck disable=SC2086
record_stepped 0 /tmp/var1.data "
	step_samples 0 20
	eng $P0 num_samples_unit >/tmp/var.unit0" -p 100us $EVS
expect_eq "zero-filled, entries, busy: record exits 0" "$?" 0
expect_eq "zero-filled, entries, busy: samples 0..19, contiguous, none lost" \
	"$(stream_runs /tmp/var1.data) $(dec_lines /tmp/var1.data LOST | wc -l)" \
	"1 contiguous 20 0"
# shellcheck disable=SC2086
check "zero-filled, entries, busy: every value equals the model" \
	check_model 0 /tmp/var1.data $CLASSES $IDS
expect_eq "zero-filled, entries, busy: num_of_samples learnt as entries" \
	"$(cat /tmp/var.unit0)" entries

# the firmware overwrites: a buffer of 32 samples, a drain held 300 ms
echo 8 >"$D0/caps/log_max_samples"
sim_readd 0
P0=$(pmu_of_sim 0)
# shellcheck disable=SC2086
record_stepped 0 /tmp/var2.data "
	echo 300 >$D0/stall_ms
	step_samples 0 5
	step_samples 0 100" -p 100us $EVS
over=$(cat "$D0/stats/samples_overwritten")
diag "overwritten by the emulator: $over"
check "zero-filled, entries, busy: the firmware overwrote samples" test "$over" -gt 0
expect_eq "zero-filled, entries, busy: losses decoded = the emulator's overwritten count" \
	"$(dec_lines /tmp/var2.data LOST | awk '/fw_overwrite/ { gsub(/[():]/, "", $6); n += $6 } END { print n + 0 }')" \
	"$over"
expect_eq "zero-filled, entries, busy: contiguous with the losses, 105 in all" \
	"$(stream_runs /tmp/var2.data)" "1 contiguous 105"
# shellcheck disable=SC2086
check "zero-filled, entries, busy: samples after the loss equal the model" \
	check_model 0 /tmp/var2.data $CLASSES $IDS
echo 13 >"$D0/caps/log_max_samples"
echo none >"$D0/variant"
echo samples >"$D0/num_samples_unit"
sim_readd 0
P0=$(pmu_of_sim 0)

# ---- a sample's entries stamped apart, in an order that changes ----
# entry_jitter J, a clock short of the shortest period: entry c of sample
# j is stamped k * J / 7 after the sample's time, k = (c - j) mod 8. In
# format 1 every sample carries its earliest entry's time, which is the
# sample's own, and its latest, J later; none is a bad sample (A2)
J=$(( (1 << $(cat "$D0/caps/log_min_sample_period")) - 1 ))
echo "entry_jitter $J" >"$D0/variant"
expect_eq "entry jitter: variant taken" "$(cat "$D0/variant")" "entry_jitter $J"
b0=$(eng "$P0" bad_samples)
# shellcheck disable=SC2086
record_stepped 0 /tmp/var4.data "step_samples 0 20" -p 100us --format 1 $EVS
expect_eq "entry jitter: record exits 0" "$?" 0
expect_eq "entry jitter: samples 0..19, contiguous, none lost" \
	"$(stream_runs /tmp/var4.data) $(dec_lines /tmp/var4.data LOST | wc -l)" \
	"1 contiguous 20 0"
# shellcheck disable=SC2086
check "entry jitter: every value equals the model" \
	check_model 0 /tmp/var4.data $CLASSES $IDS
read -r e per </tmp/grid.0
expect_eq "entry jitter: each sample from its time to $J clocks later" \
	"$("$MLX5_DIAG" decode -q --format json /tmp/var4.data | awk -F'[:,]' \
		-v e="$e" -v per="$per" -v j="$J" '$2 == "\"sample\"" {
		n++; if ($10 != e + ($6 + 1) * per || $12 != $10 + j) bad++ }
		END { print n + 0, bad + 0 }')" "20 0"
expect_eq "entry jitter: no bad sample" $(($(eng "$P0" bad_samples) - b0)) 0

# ---- a sample's entries by descending data ID, stamped apart (A12) ----
# the order is learnt from the configuration's first sample: every sample
# delivered, each value its own id's
echo "entry_order 2" >"$D0/variant"
expect_eq "entries by data ID: variants taken" "$(tr '\n' ' ' <"$D0/variant")" \
	"entry_jitter $J entry_order 2 "
u0=$(eng "$P0" unusable_answers)
log_mark entry_order
# shellcheck disable=SC2086
record_stepped 0 /tmp/var5.data "
	step_samples 0 20
	eng $P0 entry_order >/tmp/var.order0" -p 100us --format 1 $EVS
expect_eq "entries by data ID: record exits 0" "$?" 0
expect_eq "entries by data ID: samples 0..19, contiguous, none lost" \
	"$(stream_runs /tmp/var5.data) $(dec_lines /tmp/var5.data LOST | wc -l)" \
	"1 contiguous 20 0"
# shellcheck disable=SC2086
check "entries by data ID: every value equals the model" \
	check_model 0 /tmp/var5.data $CLASSES $IDS
expect_eq "entries by data ID: the order learnt" "$(cat /tmp/var.order0)" other
expect_eq "entries by data ID: no bad sample, no answer refused" \
	"$(($(eng "$P0" bad_samples) - b0)) $(($(eng "$P0" unusable_answers) - u0))" "0 0"
expect_eq "entries by data ID: logged once" \
	"$(log_since entry_order | grep -c "the firmware returns a sample's entries in another order than the SET's")" 1
echo none >"$D0/variant"

# ---- a numbering that runs on across SETs (A1) ----
# two recordings: each starts past the last sample of the configuration
# before, in that sample id's slot; each is delivered from 0, exact, and
# engine/ shows the start learnt, read from the run's first samples, not
# reckoned
echo "sample_id_continues 1" >"$D0/variant"
k0=$(eng "$P0" reckoned_starts)
for run in 1 2; do
	# shellcheck disable=SC2086
	record_stepped 0 /tmp/var6.data "
		step_samples 0 20
		eng $P0 sample_id_start >/tmp/var.start0" -p 100us $EVS
	expect_eq "numbered on, recording $run: record exits 0" "$?" 0
	expect_eq "numbered on, recording $run: samples 0..19, contiguous, none lost" \
		"$(stream_runs /tmp/var6.data) $(dec_lines /tmp/var6.data LOST | wc -l)" \
		"1 contiguous 20 0"
	# shellcheck disable=SC2086
	check "numbered on, recording $run: every value equals the model" \
		check_model 0 /tmp/var6.data $CLASSES $IDS
	expect_eq "numbered on, recording $run: the start learnt" \
		"$(cat /tmp/var.start0)" continued
done
expect_eq "numbered on: no start reckoned (engine/reckoned_starts)" \
	$(($(eng "$P0" reckoned_starts) - k0)) 0
echo none >"$D0/variant"

# ---- sample ids that are the slot index (A1) ----
# 8 ids, 1024 slots: the first lap reads as a numbering from 0; sample
# 1024, in slot 0, answers 0 but is newer than sample 1023: from there
# every sample is placed by its time. 2000 samples at once overrun the
# buffer: exactly what the firmware overwrote is lost, in LOST records.
echo "sample_id_slot 1" >"$D0/variant"
o0=$(cat "$D0/stats/samples_overwritten")
log_mark slot_ids
# shellcheck disable=SC2086
record_stepped 0 /tmp/var7.data "
	step_samples 0 600
	step_samples 0 600
	step_samples 0 2000
	step_samples 0 20
	eng $P0 sample_id_start >/tmp/var.start0" -p 100us $EVS
expect_eq "slot ids: record exits 0" "$?" 0
over=$(($(cat "$D0/stats/samples_overwritten") - o0))
check "slot ids: the firmware overwrote samples" test "$over" -gt 0
expect_eq "slot ids: samples 0..3219, contiguous with the LOST records" \
	"$(stream_runs /tmp/var7.data)" "1 contiguous 3220"
expect_eq "slot ids: LOST records count what the firmware overwrote" \
	"$(dec_lines /tmp/var7.data LOST | awk '{ gsub(/[():]/, "", $6); n += $6 } END { print n + 0 }')" \
	"$over"
# the first samples, those around the first lap's end, the first left
# after the overrun and the last: each equals the model (over the gap
# before it where there is one)
check "slot ids: the values equal the model" sh -c "
	. ./lib.sh; . ./record_lib.sh
	dec_samples /tmp/var7.data |
		awk '\$1 < 10 || (\$1 >= 1018 && \$1 <= 1030) ||
		     (\$1 >= 2170 && \$1 <= 2190) || \$1 >= 3190' |
		check_model_lines 0 $CLASSES $IDS"
expect_eq "slot ids: the numbering learnt" "$(cat /tmp/var.start0)" slot
expect_eq "slot ids: logged once" \
	"$(log_since slot_ids | grep -c 'the firmware numbers its samples by slot index')" 1
echo none >"$D0/variant"

# ---- slot-index ids remembered (engine/slot_ids) ----
# 16 slots for one id (log_max_samples 4): the end of the first lap shows
# slot-index ids, and the device is remembered as numbering so. Then a
# session of 3 ids (4 slots) is taken; one of 5 (2 slots, where time
# cannot tell one lap from the next) is refused at its fifth member's
# open, ENOSPC, logged: the session sends no SET. Bound again, forgotten.
log_max=$(cat "$D0/caps/log_max_samples")
echo 4 >"$D0/caps/log_max_samples"
sim_readd 0
P0=$(pmu_of_sim 0)
echo "sample_id_slot 1" >"$D0/variant"
expect_eq "slot ids remembered: not before a sample shows them" \
	"$(eng "$P0" slot_ids)" 0
record_stepped 0 /tmp/var7m.data "step_samples 0 12; step_samples 0 12" \
	-p 100us -e icmc_hits
expect_eq "slot ids remembered: record exits 0" "$?" 0
expect_eq "slot ids remembered: 24 samples, contiguous" \
	"$(stream_runs /tmp/var7m.data)" "1 contiguous 24"
expect_eq "slot ids remembered: engine/slot_ids" "$(eng "$P0" slot_ids)" 1
c0=$(cat "$D0/stats/commands")
log_mark slot_memory
G="$P0/icmc_hits,period_ns=100000/,$P0/icmc_accesses/,$P0/icmc_misses/"
expect_eq "slot ids remembered: 3 ids in 4 slots taken" \
	"$(perf_errno record -a -o /tmp/var7m.data -e "{$G}" true)" 0
c1=$(cat "$D0/stats/commands")
s1=$(cat "$D0/stats/configs")
expect_eq "slot ids remembered: 5 ids in 2 slots refused, ENOSPC" \
	"$(perf_errno record -a -o /tmp/var7m.data \
		-e "{$G,$P0/port_rx_bytes,port=0/,$P0/port_tx_bytes,port=0/}" true)" 28
expect_eq "slot ids remembered: the refused session sent no SET" \
	"$(cat "$D0/stats/configs")" "$s1"
check "slot ids remembered: the 3-id session ran" test "$c1" -gt "$c0"
expect_eq "slot ids remembered: the refusal logged" \
	"$(log_since slot_memory | grep -c 'refused: slot-index ids (engine/slot_ids) need 4 slots')" 1
echo none >"$D0/variant"
echo "$log_max" >"$D0/caps/log_max_samples"
sim_readd 0
P0=$(pmu_of_sim 0)
expect_eq "slot ids remembered: bound again, forgotten" "$(eng "$P0" slot_ids)" 0

# ---- folded counting on slot-index ids (engine/slot_ids) ----
# public firmware (device 1, folded counting) with log_max_samples 4 that
# numbers by slot index: counting one id past its 16-slot buffer's first
# lap shows it. Then 4 ids (4 slots) are counted, and a fifth (2 slots,
# where time cannot tell one lap from the next) is refused at its open,
# ENOSPC, logged.
log_max1=$(cat "$D1/caps/log_max_samples")
echo public >"$D1/profile"
echo 4 >"$D1/caps/log_max_samples"
sim_readd 1
P1=$(pmu_of_sim 1)
echo "sample_id_slot 1" >"$D1/variant"
sim_running 1
perf stat -a -e "$P1/fw_tx_packets/" -- sleep 0.5 >/dev/null 2>&1
expect_eq "fold slot ids: counting past the first lap shows them" \
	"$(eng "$P1" slot_ids)" 1
F="$P1/fw_tx_packets/,$P1/fw_rx_steering_packets/,$P1/fw_sq_stopped_limited_vl/"
F="$F,$P1/fw_line_tx_port1/"
log_mark fold_slots
expect_eq "fold slot ids: 4 ids in 4 slots opened" \
	"$(perf_errno stat -a -e "$F" true)" 0
expect_eq "fold slot ids: 5 ids in 2 slots refused, ENOSPC" \
	"$(perf_errno stat -a -e "$F,$P1/fw_line_tx_port2/" true)" 28
expect_eq "fold slot ids: the refusal logged" \
	"$(log_since fold_slots | grep -c 'refused: slot-index ids (engine/slot_ids): no fold buffer time can place')" 1
echo none >"$D1/variant"
echo "$log_max1" >"$D1/caps/log_max_samples"
echo model64 >"$D1/profile"
sim_readd 1

# ---- a raised period not reported (A9) ----
# the shortest period lowered to 2^10 clocks, which the emulator raises to
# 2^15 for the 8 ids (4 x (6 counters x 512 + 2 statistics x 2048)
# clocks) and QUERY_DIAGNOSTIC_PARAMS reports as asked. The first drain's
# samples show 2^15: after them one PERIOD record, the request unchanged
# and the period learnt, one log line, engine/unreported_periods + 1; every
# sample with the model's values, contiguous.
echo 10 >"$D0/caps/log_min_sample_period"
sim_readd 0
P0=$(pmu_of_sim 0)
echo "period_unreported 1" >"$D0/variant"
min_ns=$(cat "$PMUS/$P0/caps/min_sample_period_ns")
u0=$(eng "$P0" unreported_periods)
log_mark unreported
# shellcheck disable=SC2086
record_stepped 0 /tmp/var8.data "
	step_samples 0 20
	step_samples 0 20" -p "$min_ns" $EVS
expect_eq "period unreported: record exits 0" "$?" 0
read -r e per </tmp/grid.0
expect_eq "period unreported: the emulator samples every 2^15 clocks" "$per" 32768
expect_eq "period unreported: the SESSION record states the period reported" \
	"$(dec_lines /tmp/var8.data SESSION | grep -c ", period $min_ns ns (requested $min_ns),")" 1
expect_eq "period unreported: one PERIOD record, after the first drain" \
	"$(dec_lines /tmp/var8.data PERIOD | sed 's/ at [0-9.]*:/:/')" \
	"PERIOD run 0 from sample 20: 209715 ns (requested $min_ns)"
expect_eq "period unreported: samples 0..39, contiguous, none lost" \
	"$(stream_runs /tmp/var8.data) $(dec_lines /tmp/var8.data LOST | wc -l)" \
	"1 contiguous 40 0"
# shellcheck disable=SC2086
check "period unreported: every value equals the model" \
	check_model 0 /tmp/var8.data $CLASSES $IDS
expect_eq "period unreported: engine/unreported_periods" \
	$(($(eng "$P0" unreported_periods) - u0)) 1
expect_eq "period unreported: logged once" \
	"$(log_since unreported | grep -c 'the firmware samples every 2^15 clocks, not the 2^10 that QUERY_DIAGNOSTIC_PARAMS reports')" 1
echo none >"$D0/variant"
echo "$lmin" >"$D0/caps/log_min_sample_period"
sim_readd 0
P0=$(pmu_of_sim 0)

# ---- a period change that numbers from 0 again (A8) ----
# test_sampling's period change (20 samples at 2^14 clocks, then 2^16) on
# firmware that numbers from 0 again, from slot 0, at a period-only SET:
# the drain sees the new numbering in slot 0 and goes on from there, one
# line and engine/period_restarts + 1; samples 0..59 contiguous, none lost
echo "period_restart 1" >"$D0/variant"
r0=$(eng "$P0" period_restarts)
log_mark period_restart
# shellcheck disable=SC2016
record_period_change /tmp/var13.data 400us 20 \
	'wait_for sample_gap_is 0 0 65536; echo "0 65536" >/tmp/grid.0' 40 \
	-p 100us -e icmc_hits -e icmc_misses
expect_eq "numbered from 0 at the change: record exits 0" "$?" 0
sim_running 0
"$MLX5_DIAG" decode -q --format json /tmp/var13.data >/tmp/var13.json
check "numbered from 0 at the change: a PERIOD record from sample 20" \
	grep -q '"type":"period","run":0,"first_seq":20,.*"period_ns":419430,"period_ns_requested":400000' /tmp/var13.json
expect_eq "numbered from 0 at the change: 2^14 clocks apart before, 2^16 after" \
	"$(period_steps /tmp/var13.json)" \
	"before 16384:19 after 65536:39 "
expect_eq "numbered from 0 at the change: samples 0..59, contiguous, none lost" \
	"$(stream_runs /tmp/var13.data) $(grep -c '"type":"lost"' /tmp/var13.json)" \
	"1 contiguous 60 0"
expect_eq "numbered from 0 at the change: engine/period_restarts + 1" \
	$(($(eng "$P0" period_restarts) - r0)) 1
expect_eq "numbered from 0 at the change: logged once" \
	"$(log_since period_restart | grep -c 'the firmware numbered its samples from 0 again, from slot 0, at the period change: the run goes on from sample 20, 0 lost')" 1
echo none >"$D0/variant"

# ---- RTC stamps that stand still (A4) ----
# every sample stamped with the RTC of its SET: the recording delivers
# sample 0 with the model's values and stops at sample 1, one log line,
# engine/bad_samples + 1, engine/rtc_still 1; an event asking for the RTC
# is refused from then on (EOPNOTSUPP), the free-running clock still
# records, and the device bound again has forgotten it
echo "rtc_still 1" >"$D0/variant"
expect_eq "rtc still: engine/rtc_still before" "$(eng "$P0" rtc_still)" 0
b0=$(eng "$P0" bad_samples)
log_mark rtc_still
# shellcheck disable=SC2086
record_stepped 0 /tmp/var9.data "step_samples 0 10" --ts rtc -p 100us $EVS
expect_eq "rtc still: record exits 0" "$?" 0
expect_eq "rtc still: sample 0 only" \
	"$(dec_samples /tmp/var9.data | cut -d' ' -f1 | tr '\n' ' ')" "0 "
# shellcheck disable=SC2086
check "rtc still: sample 0 equals the model" \
	check_model 0 /tmp/var9.data $CLASSES $IDS
expect_eq "rtc still: engine/bad_samples" $(($(eng "$P0" bad_samples) - b0)) 1
expect_eq "rtc still: engine/rtc_still" "$(eng "$P0" rtc_still)" 1
expect_eq "rtc still: logged once" \
	"$(log_since rtc_still | grep -c "the firmware's RTC timestamps stand still, and RTC sampling is refused from now on")" 1
# a function, not sh -c: EVS spans lines, which split sh -c's script
rtc_refused() {
	# shellcheck disable=SC2086
	! "$MLX5_DIAG" record -q -d sim:0 --ts rtc -o /tmp/var10.data -p 100us $EVS \
		-- true 2>/tmp/var10.err && grep -q 'Operation not supported' /tmp/var10.err
}
check "rtc still: the RTC refused" rtc_refused
# shellcheck disable=SC2086
record_stepped 0 /tmp/var10.data "step_samples 0 5" -p 100us $EVS
expect_eq "rtc still: the free-running clock records" \
	"$(stream_runs /tmp/var10.data | cut -d' ' -f1,2)" "1 contiguous"
sim_running 0
sim_readd 0
P0=$(pmu_of_sim 0)
expect_eq "rtc still: a device bound again has forgotten it" "$(eng "$P0" rtc_still)" 0
echo none >"$D0/variant"

# ---- numbering modulo 2^16 in the 32-bit field, across sample 65536 ----
# two ids: a buffer of 4096 samples, 18 steps of 4000; format 1 (64-bit
# values, 32 bytes a sample) into an AUX area of 4 MiB, which holds the
# whole recording however late the reader
echo "sample_id_bits 16" >"$D0/variant"
record_stepped 0 /tmp/var3.data "
	step_samples 0 4000
	eng $P0 sample_id_bits >/tmp/var.bits0
	for k in \$(seq 17); do step_samples 0 4000; done
	eng $P0 sample_id_bits >/tmp/var.bits1" -p 100us -a 1024 --format 1 \
	-e icmc_hits -e icmc_misses
expect_eq "16-bit numbering: record exits 0" "$?" 0
expect_eq "16-bit numbering: 72000 samples, contiguous, none lost" \
	"$(stream_runs /tmp/var3.data) $(dec_lines /tmp/var3.data LOST | wc -l)" \
	"1 contiguous 72000 0"
check "16-bit numbering: the values around the wrap equal the model" sh -c "
	. ./lib.sh; . ./record_lib.sh
	dec_samples /tmp/var3.data | sed -n '65530,65545p' |
		check_model_lines 0 cc 0x1180000200000000 0x1180000300000000"
expect_eq "16-bit numbering: 32 bits read before the wrap, 16 after" \
	"$(cat /tmp/var.bits0) $(cat /tmp/var.bits1)" "32 16"
check "16-bit numbering: logged" sh -c \
	"dmesg | grep -q 'the firmware numbers its samples modulo 2^16 (in a 32-bit field)'"
echo none >"$D0/variant"

exit $T_FAILED
