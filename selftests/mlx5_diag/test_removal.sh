#!/bin/sh
# Removal with events open: nothing of the provider is touched afterwards
# (function and engine files stay readable), counts freeze, new opens get
# ENODEV, the same PMU comes back with the device and its open events count
# again, exactly; a kept PMU goes once no event is left; a device back with
# other firmware gets a new PMU. Then REMOVALS removals while other
# processes open, read and close events, and RETURNS returns as new PMUs
# while others open.
. ./lib.sh
. ./engine_lib.sh

REMOVALS=20
RETURNS=10

P=$(pmu_of_sim 1)
D=$SIM/dev1
HITS=0x1180000200000000		# icmc_hits

sim_manual 1
perf stat -x';' -e "$P/icmc_hits/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sim_advance 1 4000000
	sim_engine_ns 1 >/tmp/rm.engine1
	echo 0 >$D/present
	cat $PMUS/$P/function >/tmp/rm.id
	eng $P state >/tmp/rm.state
	perf_open_errno $P/icmc_hits/ >/tmp/rm.errno
	echo 6000000 >$D/advance_ns
	echo 1 >$D/present
	pmu_of_sim 1 >/tmp/rm.back
	sim_advance 1 5000000
	sim_engine_ns 1 >/tmp/rm.engine2
" >/tmp/rm1.out 2>&1
expect_eq "the function stays readable after removal" "$(cat /tmp/rm.id)" sim:1
expect_eq "the engine of a removed device is gone" "$(cat /tmp/rm.state)" gone
expect_eq "opening on a removed device: ENODEV" "$(cat /tmp/rm.errno)" 19
check "the refusal says why" sh -c "dmesg | grep -q 'refused: device removed'"
expect_eq "the device came back as the same PMU" "$(cat /tmp/rm.back)" "$P"
check "the return is logged" sh -c "dmesg | grep -q 're-attached: open events count again'"
# the engine's time at the removal and at the end: each SET starts it at 0
want=$(( $(sim_model 1 $HITS 0 "$(cat /tmp/rm.engine1)") +
	 $(sim_model 1 $HITS 0 "$(cat /tmp/rm.engine2)") ))
expect_eq "counts froze while the device was away, then went on exactly" \
	"$(stat_value "$(cat /tmp/rm1.out)" icmc_hits)" "$want"
sim_running 1

# a kept PMU goes once its last event is closed
count_until /tmp/rm.release "$P/icmc_hits/"
pid=$!
wait_state "$P" count
echo 0 >"$D/present"
check "the PMU stays while its event is open" test -d "$PMUS/$P"
touch /tmp/rm.release
wait $pid
check "and goes after its last event closed" wait_for test ! -d "$PMUS/$P"
echo 1 >"$D/present"
P=$(pmu_of_sim 1)
check "the device is back as a PMU ($P)" test -n "$P"

# back with other firmware while an event is open: a new PMU, which tells
# the new version; the old one stays for its event, then goes
count_until /tmp/rm.release "$P/icmc_hits/"
pid=$!
wait_state "$P" count
echo 0 >"$D/present"
echo 28.41.1000 >"$D/firmware_version"
echo 1 >"$D/present"
NEW=$(pmu_of_sim 1)
check "back with firmware 28.41.1000: a new PMU ($NEW), not $P" test "$NEW" != "$P"
expect_eq "its firmware_version" "$(cat "$PMUS/$NEW/firmware_version")" 28.41.1000
expect_eq "the old PMU's, kept for its event" "$(cat "$PMUS/$P/firmware_version")" 28.0.0
check "the new firmware is logged" sh -c \
	"dmesg | grep -q 'is back with firmware 28.41.1000 (was 28.0.0): it gets a new PMU'"
check "and the new PMU's probe names it" sh -c \
	"dmesg | grep -q '$NEW: sim:1, firmware 28.41.1000, model64 dialect'"
touch /tmp/rm.release
wait $pid
check "the old PMU goes after its last event closed" wait_for test ! -d "$PMUS/$P"
echo 28.0.0 >"$D/firmware_version"
sim_readd 1
P=$(pmu_of_sim 1)

# ---- $REMOVALS removals while other processes open, read and close events
rm -f /tmp/rm.stop
for w in 1 2 3; do
	( while [ ! -e /tmp/rm.stop ]; do
		perf stat -e "mlx5_diag/icmc_hits/" -a sleep 0.02 >/dev/null 2>&1
	  done ) &
done
( while [ ! -e /tmp/rm.stop ]; do
	cat "$PMUS"/mlx5_diag_*/identifier "$PMUS"/mlx5_diag_*/function \
	    "$PMUS"/mlx5_diag_*/engine/* \
	    "$PMUS"/mlx5_diag_*/caps/* >/dev/null 2>&1
  done ) &
perf stat -I 100 -e "mlx5_diag/icmc_hits/" -a sleep 30 >/dev/null 2>&1 &
i=0
while [ $i -lt $REMOVALS ]; do
	echo 0 >"$D/present" && echo 1 >"$D/present" || break
	i=$((i + 1))
done
touch /tmp/rm.stop
wait
expect_eq "$REMOVALS removals and returns" "$i" $REMOVALS
# nothing_left AFTER: once the events closed, only the two devices' PMUs
# are left, and no event: each event holds a reference on the module, and
# one left would keep every later removed PMU registered, failing every
# open of mlx5_diag/.../
two_pmus() { [ "$(ls -d "$PMUS"/mlx5_diag_* | wc -l)" = 2 ]; }
module_uses() { awk '$1 == "mlx5_diag" { print $3 }' /proc/modules; }
unused() { [ "$(module_uses)" = 0 ]; }
nothing_left() {
	wait_for two_pmus
	expect_eq "after $1, no PMU is left behind" "$(ls -d "$PMUS"/mlx5_diag_* | wc -l)" 2
	wait_for unused
	expect_eq "after $1, no event is left behind (the module's use count)" \
		"$(module_uses)" 0
}
nothing_left "the removals"

# ---- $RETURNS returns while other processes open and close events: whenever no
# event is open at the return, the device gets a new PMU, which takes the
# type of the one just unregistered. Opens that find a PMU being registered
# or unregistered get ENODEV (Linux 6.1 makes a type findable before its
# PMU is complete, and unfindable only after the unregistering's grace
# period): the kernel log stays clean and no event is left behind.
log_mark returns
rm -f /tmp/rm.stop
for w in 1 2; do
	( while [ ! -e /tmp/rm.stop ]; do
		perf stat -e "mlx5_diag/icmc_hits/" -a true >/dev/null 2>&1
	  done ) &
done
i=0
while [ $i -lt $RETURNS ]; do
	sim_readd 1 || break
	i=$((i + 1))
done
touch /tmp/rm.stop
wait
expect_eq "$RETURNS returns" "$i" $RETURNS
diag "new PMUs among them: $(log_since returns | grep -c ': sim:1, firmware .* at once$')"
nothing_left "the returns"
P=$(pmu_of_sim 1)
out=$(stat_stepped "$P/icmc_hits/" 1:3000000)
expect_eq "the device counts exactly after the stress" \
	"$(stat_value "$out" icmc_hits)" "$(sim_model 1 $HITS 0 3000000)"
sim_running 1

exit $T_FAILED
