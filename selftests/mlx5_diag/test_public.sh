#!/bin/sh
# Counting on firmware that speaks only the public interface: no on-demand
# bit, so the driver counts in repetitive mode and folds every new sample.
# With the manual clock every count is exact, and a buffer too small for the
# polls loses exactly the samples the firmware overwrote, counted in sysfs.
# Data clear, which the public capabilities do not carry, is learnt by
# trying it: yes once taken, no once refused (then EOPNOTSUPP at open).
. ./lib.sh
. ./engine_lib.sh

D=$SIM/dev1
TXP=0x2006		# fw_tx_packets
STEER=0x1001		# fw_rx_steering_packets

echo public >"$D/profile"
sim_readd 1
P=$(pmu_of_sim 1)
check "the public device is a PMU ($P)" test -n "$P"
expect_eq "public dialect" "$(cat "$PMUS/$P/caps/dialect")" public16
expect_eq "no on-demand mode is offered" "$(cat "$PMUS/$P/caps/modes")" "single repetitive "
expect_eq "counting folds repetitive samples" "$(cat "$PMUS/$P/caps/counting_mode")" repetitive
check "format/ has fw_counter" test -e "$PMUS/$P/format/fw_counter"
check "format/ has no data-ID fields" test ! -e "$PMUS/$P/format/port"

sim_manual 1
perf stat -x';' -e "$P/fw_tx_packets/,$P/fw_rx_steering_packets/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sample_grid 1 >/tmp/pub.grid
	i=0
	while [ \$i -lt 10 ]; do
		sim_advance 1 3000000
		i=\$((i + 1))
	done
	sim_clock 1 >/tmp/pub.now
	eng $P lost_samples >/tmp/pub.lost
" >/tmp/pub1.out 2>&1
set -- $(cat /tmp/pub.grid)
E=$1
PER=$2
due=$(( ($(cat /tmp/pub.now) - E) / PER ))
diag "enable clock $E, period $PER clocks, $due samples"
# the first sample is the baseline; the last one taken ends the count
t0=$(clocks_ns 1 "$PER")
t1=$(clocks_ns 1 $((due * PER)))
expect_eq "fw_tx_packets equals the model over the sample grid" \
	"$(stat_value "$(cat /tmp/pub1.out)" fw_tx_packets)" "$(sim_model 1 $TXP "$t0" "$t1")"
expect_eq "fw_rx_steering_packets too" \
	"$(stat_value "$(cat /tmp/pub1.out)" fw_rx_steering_packets)" "$(sim_model 1 $STEER "$t0" "$t1")"
expect_eq "no sample was lost" "$(cat /tmp/pub.lost)" 0

# a 4-sample buffer, 20 periods between polls: 16 overwritten each time
echo 2 >"$D/caps/log_max_samples"
sim_readd 1
P=$(pmu_of_sim 1)
perf stat -x';' -e "$P/fw_tx_packets/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	set -- \$(sample_grid 1)
	per_ns=\$(clocks_ns 1 \$2)
	sim_advance 1 \$((20 * per_ns + per_ns / 2))
	sim_advance 1 \$((20 * per_ns))
	eng $P lost_samples >/tmp/pub.lost
	cat $D/stats/samples_overwritten >/tmp/pub.over
" >/tmp/pub2.out 2>&1
expect_eq "the driver counts every overwritten sample as lost" \
	"$(cat /tmp/pub.lost)" "$(cat /tmp/pub.over)"
expect_eq "that is 16 + 16 samples" "$(cat /tmp/pub.lost)" 32
check "the loss is logged" sh -c "dmesg | grep -q 'overwrote .* sample(s) before they were read'"
sim_running 1

echo 13 >"$D/caps/log_max_samples"

# ---- capabilities the public layouts do not carry ----
sim_readd 1
P=$(pmu_of_sim 1)
sid=$(head -1 "$PMUS/$P/caps/sync_ids")
expect_eq "sync: each counter's own bit says it" "$(cat "$PMUS/$P/caps/sync")" yes
expect_eq "data clear: unknown until tried" "$(cat "$PMUS/$P/caps/clear")" unknown
expect_eq "on-demand: never tried" "$(cat "$PMUS/$P/caps/on_demand")" unknown
# record_clear FILE: a 0.3 s recording of sid with sync and clear
record_clear() {
	mlx5-diag record -q -d sim:1 -e "fw_counter=$sid" --sync --clear -p 1ms \
		--duration 0.3 -o "$1" >/tmp/pub.rec 2>&1
}
record_clear /tmp/pub-clear.data
expect_eq "firmware that takes clear: recorded" "$?" 0
check "with samples" test "$(mlx5-diag decode -q /tmp/pub-clear.data | grep -vc '^[A-Z]')" -gt 0
expect_eq "data clear: yes once taken" "$(cat "$PMUS/$P/caps/clear")" yes
check "that is logged" sh -c "dmesg | grep -q 'the firmware takes data clear (caps/clear yes)'"

echo 0 >"$D/caps/data_clear"
sim_readd 1
P=$(pmu_of_sim 1)
expect_eq "another device: unknown again" "$(cat "$PMUS/$P/caps/clear")" unknown
c0=$(cat "$D/stats/configs")
record_clear /tmp/pub-noclear.data
expect_eq "the first try returns" "$?" 0
check "it records nothing and warns so" \
	grep -q 'warning: no run was recorded: the session never started' /tmp/pub.rec
expect_eq "no configuration taken but the disable with clear before it" \
	"$(cat "$D/stats/configs")" $((c0 + 1))
expect_eq "firmware that refuses clear: caps/clear no" "$(cat "$PMUS/$P/caps/clear")" no
check "that is logged" sh -c \
	"dmesg | grep -q 'the firmware refused data clear: refused from now on (caps/clear no)'"
c0=$(cat "$D/stats/configs")
record_clear /tmp/pub-noclear.data
expect_eq "then asking for clear fails to open (exit 8)" "$?" 8
check "EOPNOTSUPP" grep -q 'Operation not supported' /tmp/pub.rec
expect_eq "without a command to the firmware" "$(cat "$D/stats/configs")" "$c0"
echo 1 >"$D/caps/data_clear"

echo model64 >"$D/profile"
sim_readd 1
expect_eq "back to the 64-bit dialect" "$(cat "$PMUS/$(pmu_of_sim 1)/caps/dialect")" model64

exit $T_FAILED
