#!/bin/sh
# The emulator's debugfs contract (mlx5-diag-firmware.rst part 3) as the
# module glue implements it: profile, num_samples_unit, variant, manual
# time, drift and steps, the clock pair, sample times, the engine time, the
# model file and the statistics, the errno of each kind of bad input, and
# one value per open.
. ./lib.sh

# ---- the profile module parameter, and fresh devices for what follows
rmmod mlx5_diag_sim
check "profile=public16 is refused" sh -c "! insmod $MODDIR/mlx5_diag_sim.ko profile=public16 2>/dev/null"
insmod "$MODDIR/mlx5_diag_sim.ko" profile=public
expect_eq "profile=public: sim:0" "$(cat "$SIM/dev0/profile")" public
expect_eq "profile=public: sim:1" "$(cat "$SIM/dev1/profile")" public
rmmod mlx5_diag_sim
insmod "$MODDIR/mlx5_diag_sim.ko"
expect_eq "model64 by default" "$(cat "$SIM/dev0/profile")" model64

D=$SIM/dev1
restore() {
	echo 0 >"$D/foreign_owner"
	echo 0 >"$D/drift_ppm"
	echo running >"$D/clock_mode"
	echo model64 >"$D/profile"
	echo samples >"$D/num_samples_unit"
	echo none >"$D/variant"
}
trap restore EXIT

# write_err FILE TEXT: "ok", or the error text the write got (the shell's
# echo reports it, printf does not)
write_err() {
	if err=$( (echo "$2" >"$1") 2>&1); then
		echo ok
	else
		echo "${err##*: }"
	fi
}

# read_err FILE: the error text a read gets, or "ok"
read_err() {
	if err=$(cat "$1" 2>&1 >/dev/null); then
		echo ok
	else
		echo "${err##*: }"
	fi
}

EINVAL="Invalid argument"
EBUSY="Device or resource busy"
ENODATA="No data available"
EOVERFLOW="Value too large for defined data type"

# ---- the paced empty work, the benchmarks' floor (sim_pace.c): works
# are counted, never more than the ticks its interval allows, none after a
# stop, and unloading the module stops it
P=$SIM/pace
expect_eq "pace: no works before a start" "$(cat "$P")" 0
expect_eq "pace: below 1 ms" "$(write_err "$P" "999999 0")" "$EINVAL"
expect_eq "pace: above 1 s" "$(write_err "$P" "1000000001 0")" "$EINVAL"
expect_eq "pace: a CPU that is not online" "$(write_err "$P" "1000000 $(nproc)")" "$EINVAL"
expect_eq "pace: no CPU" "$(write_err "$P" 1000000)" "$EINVAL"
expect_eq "pace: a third field" "$(write_err "$P" "1000000 0 1")" "$EINVAL"
expect_eq "pace: not a number" "$(write_err "$P" "1ms 0")" "$EINVAL"
t0=$(cut -d' ' -f1 /proc/uptime)
expect_eq "pace: 2 ms on CPU 0" "$(write_err "$P" "2000000 0")" ok
expect_eq "pace: a second start" "$(write_err "$P" "1000000 1")" "$EBUSY"
sleep 0.5
expect_eq "pace: stop" "$(write_err "$P" stop)" ok
t1=$(cut -d' ' -f1 /proc/uptime)
n=$(cat "$P")
# /proc/uptime counts hundredths: the pace ran less than t1 - t0 + 0.01 s
most=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a + 0.01) * 500 }')
check "pace: $n works, at least one" test "$n" -gt 0
check "pace: $n works, at most one per 2 ms ($most)" test "$n" -le "$most"
sleep 0.1
expect_eq "pace: none after the stop" "$(cat "$P")" "$n"
expect_eq "pace: a stop when stopped" "$(write_err "$P" stop)" ok
expect_eq "pace: a start on CPU 1" "$(write_err "$P" "1000000 1")" ok
check "the module unloads with its pace running" rmmod mlx5_diag_sim
insmod "$MODDIR/mlx5_diag_sim.ko"

# ---- profile and num_samples_unit
expect_eq "profile public" "$(write_err "$D/profile" public)" ok
expect_eq "profile reads public" "$(cat "$D/profile")" public
expect_eq "profile: unknown name" "$(write_err "$D/profile" public16)" "$EINVAL"
echo 1 >"$D/foreign_owner"
expect_eq "profile: busy while enabled" "$(write_err "$D/profile" model64)" "$EBUSY"
echo 0 >"$D/foreign_owner"
expect_eq "profile back to model64" "$(write_err "$D/profile" model64)" ok
expect_eq "num_samples_unit samples by default" "$(cat "$D/num_samples_unit")" samples
expect_eq "num_samples_unit entries" "$(write_err "$D/num_samples_unit" entries)" ok
expect_eq "num_samples_unit reads entries" "$(cat "$D/num_samples_unit")" entries
expect_eq "num_samples_unit: unknown name" "$(write_err "$D/num_samples_unit" bytes)" "$EINVAL"
echo samples >"$D/num_samples_unit"

# ---- variants
expect_eq "no variant by default" "$(cat "$D/variant")" none
expect_eq "variant unwritten_zero 1" "$(write_err "$D/variant" "unwritten_zero 1")" ok
expect_eq "variant sample_id_bits 16" "$(write_err "$D/variant" "sample_id_bits 16")" ok
expect_eq "variants read back, one a line" "$(tr '\n' ' ' <"$D/variant")" \
	"unwritten_zero 1 sample_id_bits 16 "
expect_eq "variant sample_id_bits 8" "$(write_err "$D/variant" "sample_id_bits 8")" "$EINVAL"
expect_eq "variant period_clear 2" "$(write_err "$D/variant" "period_clear 2")" "$EINVAL"
lmin=$(cat "$D/caps/log_min_sample_period")
expect_eq "variant entry_jitter: a clock short of the shortest period" \
	"$(write_err "$D/variant" "entry_jitter $(((1 << lmin) - 1))")" ok
expect_eq "variant entry_jitter: the shortest period" \
	"$(write_err "$D/variant" "entry_jitter $((1 << lmin))")" "$EINVAL"
echo "entry_jitter 0" >"$D/variant"
expect_eq "variant entry_order 2" "$(write_err "$D/variant" "entry_order 2")" ok
expect_eq "variant entry_order 3" "$(write_err "$D/variant" "entry_order 3")" "$EINVAL"
echo "entry_order 0" >"$D/variant"
expect_eq "variant sample_id_continues 1" "$(write_err "$D/variant" "sample_id_continues 1")" ok
expect_eq "variant sample_id_continues 2" "$(write_err "$D/variant" "sample_id_continues 2")" "$EINVAL"
echo "sample_id_continues 0" >"$D/variant"
expect_eq "variant sample_id_slot 1" "$(write_err "$D/variant" "sample_id_slot 1")" ok
expect_eq "variant sample_id_slot 2" "$(write_err "$D/variant" "sample_id_slot 2")" "$EINVAL"
expect_eq "lie sample_id_slot: a variant now" "$(write_err "$D/lie" "sample_id_slot 1")" "$EINVAL"
echo "sample_id_slot 0" >"$D/variant"
expect_eq "variant period_unreported 1" "$(write_err "$D/variant" "period_unreported 1")" ok
expect_eq "variant period_unreported 2" "$(write_err "$D/variant" "period_unreported 2")" "$EINVAL"
echo "period_unreported 0" >"$D/variant"
expect_eq "variant rtc_still 1" "$(write_err "$D/variant" "rtc_still 1")" ok
expect_eq "variant rtc_still 2" "$(write_err "$D/variant" "rtc_still 2")" "$EINVAL"
echo "rtc_still 0" >"$D/variant"
expect_eq "variant: unknown name" "$(write_err "$D/variant" "ring_ahead 1")" "$EINVAL"
expect_eq "variant: no value" "$(write_err "$D/variant" busy_every)" "$EINVAL"
expect_eq "variant unwritten_zero 0" "$(write_err "$D/variant" "unwritten_zero 0")" ok
expect_eq "one variant left" "$(cat "$D/variant")" "sample_id_bits 16"
expect_eq "variant none" "$(write_err "$D/variant" none)" ok
expect_eq "none left" "$(cat "$D/variant")" none

# ---- manual time
expect_eq "clock_mode running by default" "$(cat "$D/clock_mode")" running
expect_eq "advance_ns refused while running" "$(write_err "$D/advance_ns" 1000)" "$EINVAL"
expect_eq "clock_mode: unknown name" "$(write_err "$D/clock_mode" stopped)" "$EINVAL"
sim_manual 1
t0=$(cat "$D/now_ns")
set -- $(cat "$D/clock")
h0=$1
c0=$2
sleep 0.2
expect_eq "manual time stands still" "$(cat "$D/now_ns")" "$t0"
set -- $(cat "$D/clock")
check "the clock pair carries the host time of the read" test "$1" -gt "$h0"
expect_eq "the device clock stands still" "$2" "$c0"
expect_eq "advance_ns 32000" "$(write_err "$D/advance_ns" 32000)" ok
expect_eq "now_ns moved by 32000" "$(cat "$D/now_ns")" $((t0 + 32000))
set -- $(cat "$D/clock")
expect_eq "the device clock moved by 5000 clocks" "$2" $((c0 + 5000))
expect_eq "advance_ns: not a number" "$(write_err "$D/advance_ns" 1e6)" "$EINVAL"
expect_eq "advance_ns: negative" "$(write_err "$D/advance_ns" -5)" "$EINVAL"
expect_eq "advance_ns: past 2^64 ns" \
	"$(write_err "$D/advance_ns" 18446744073709551615)" "$EOVERFLOW"
expect_eq "a refused step moves nothing" "$(cat "$D/now_ns")" $((t0 + 32000))

# ---- drift and steps
expect_eq "drift_ppm 0 by default" "$(cat "$D/drift_ppm")" 0
expect_eq "drift_ppm 1000" "$(write_err "$D/drift_ppm" 1000)" ok
expect_eq "drift_ppm: 1001" "$(write_err "$D/drift_ppm" 1001)" "$EINVAL"
expect_eq "drift_ppm: not a number" "$(write_err "$D/drift_ppm" fast)" "$EINVAL"
set -- $(cat "$D/clock")
c0=$2
echo 1000000000 >"$D/advance_ns"
set -- $(cat "$D/clock")
expect_eq "1 s at +1000 ppm is 156406250 clocks" "$2" $((c0 + 156406250))
echo -250 >"$D/drift_ppm"
expect_eq "drift_ppm reads -250" "$(cat "$D/drift_ppm")" -250
echo 2000000000 >"$D/advance_ns"
set -- $(cat "$D/clock")
expect_eq "2 s at -250 ppm are 312421875 clocks" "$2" $((c0 + 156406250 + 312421875))
echo 0 >"$D/drift_ppm"
set -- $(cat "$D/clock")
c0=$2
expect_eq "clock_step -1000" "$(write_err "$D/clock_step" -1000)" ok
set -- $(cat "$D/clock")
expect_eq "the clock stepped back by 1000" "$2" $((c0 - 1000))
expect_eq "clock_step: not a number" "$(write_err "$D/clock_step" 1.5)" "$EINVAL"

# ---- sample times, exact: another agent samples every 2^14 clocks
expect_eq "sample_time without sampling" "$(write_err "$D/sample_time" 0)" "$ENODATA"
set -- $(cat "$D/clock")
e=$2
cfg=$(cat "$D/stats/configs")
echo 1 >"$D/foreign_owner"
expect_eq "the other agent's SET counts as a configuration" \
	"$(cat "$D/stats/configs")" $((cfg + 1))
expect_eq "sample_time 2" "$(write_err "$D/sample_time" 2)" ok
set -- $(cat "$D/sample_time")
expect_eq "sample 2 carries E + 3 periods" "$3" $((e + 3 * 16384))
due=$2
now=$(cat "$D/now_ns")
echo $((due - now - 1)) >"$D/advance_ns"
expect_eq "one ns before its time: two samples" "$(cat "$D/stats/samples_produced")" 2
echo 1 >"$D/advance_ns"
expect_eq "at its time: three" "$(cat "$D/stats/samples_produced")" 3
expect_eq "sample_time: not a number" "$(write_err "$D/sample_time" x)" "$EINVAL"
echo 0 >"$D/foreign_owner"
expect_eq "disable discards the three unread samples" \
	"$(cat "$D/stats/samples_discarded")" 3
expect_eq "none was returned" "$(cat "$D/stats/samples_returned")" 0
expect_eq "sample_time after disable" "$(read_err "$D/sample_time")" "$ENODATA"
sim_running 1
t0=$(cat "$D/now_ns")
sleep 0.1
check "running time runs on from where it stood" test "$(cat "$D/now_ns")" -gt "$t0"

# ---- engine time: the oscillator's clocks since the enabling SET, under
# a drift that changed at a fraction of a clock
expect_eq "engine_time without an engine" "$(read_err "$D/engine_time")" "$ENODATA"
sim_manual 1
echo 1000003 >"$D/advance_ns"
echo -250 >"$D/drift_ppm"
echo 1 >"$D/foreign_owner"
expect_eq "engine_time at the enabling SET" "$(cat "$D/engine_time")" "0 0"
read -r _ c0 <"$D/clock"
echo 999999997 >"$D/advance_ns"
read -r _ c1 <"$D/clock"
read -r ens eclocks <"$D/engine_time"
expect_eq "engine_time: the device clocks since the SET" "$eclocks" $((c1 - c0))
expect_eq "engine_time: those clocks in ns, as the model counts" "$ens" \
	$((eclocks * 1000000 / $(cat "$D/caps/device_frequency_khz")))
echo 0 >"$D/foreign_owner"
echo 0 >"$D/drift_ppm"
expect_eq "engine_time after the disable" "$(read_err "$D/engine_time")" "$ENODATA"
sim_running 1

# ---- the model file
expect_eq "model before a question" "$(read_err "$SIM/dev0/model")" "$ENODATA"
expect_eq "icmc_hits of sim:1 over 1 ms" "$(sim_model 1 0x1180000200000000 0 1000000)" 70148
expect_eq "max read latency, link 1" "$(sim_model 1 0x1160000d00000001 0 1000000)" 515
expect_eq "model: t0 after t1" "$(write_err "$D/model" "0x1180000200000000 5 4")" "$EINVAL"
expect_eq "model: two fields" "$(write_err "$D/model" "0x1180000200000000 5")" "$EINVAL"

# ---- one value per open: its text is made at the open's first read, and
# a reader coming back for the rest (or for EOF) gets that text's rest,
# however the value changed meanwhile
seed0=$(cat "$D/fuzz_seed")
echo 5 >"$D/fuzz_seed"
exec 3<"$D/fuzz_seed"
first=$(dd bs=1 count=1 <&3 2>/dev/null)
echo 123456 >"$D/fuzz_seed"
rest=$(cat <&3)
exec 3<&-
expect_eq "one open reads one value, though it grew a few digits meanwhile" \
	"$first$rest" 5
expect_eq "the next open reads the new one" "$(cat "$D/fuzz_seed")" 123456
echo "$seed0" >"$D/fuzz_seed"

exit $T_FAILED
