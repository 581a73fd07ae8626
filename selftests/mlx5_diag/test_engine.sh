#!/bin/sh
# The engine state machine through perf, with the emulator's manual clock:
# a refused SET keeps counting exactly, a failed disable is retried, another
# agent's takeover freezes counts and refuses opens until it lets go, a
# counter reset adds nothing, force needs CAP_PERFMON, and a refused group
# leaves the engine untouched.
. ./lib.sh
. ./engine_lib.sh

P=$(pmu_of_sim 0)
D=$SIM/dev0
TXP=0x1140000300000000		# port_tx_packets, port 0

sim_manual 0
expect_eq "the engine starts off" "$(eng "$P" state)" off
# engine/ counters count since the device was bound: compare increases
retries0=$(eng "$P" disable_retries)
takeovers0=$(eng "$P" takeovers)
resets0=$(eng "$P" counter_resets)

# ---- a refused SET: the firmware keeps its configuration, we keep counting
failed0=$(cat "$D/stats/commands_failed")
setfail0=$(eng "$P" set_failures)
perf stat -x';' -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sim_advance 0 1000000
	# PCIe link 5 of 2: only firmware knows, and refuses it (BAD_PARAM)
	perf_open_errno $P/pcie_in_bytes,link_xx=5/ >/tmp/eng.errno
	echo \$((\$(eng $P set_failures) - $setfail0)) >/tmp/eng.fail
	echo \$((\$(cat $D/stats/commands_failed) - $failed0)) >/tmp/eng.refused
	eng $P state >/tmp/eng.state
	sim_advance 0 2000000
	sim_engine_ns 0 >/tmp/eng.e1
" >/tmp/eng1.out 2>&1
expect_eq "firmware refuses a link it does not have: EINVAL" "$(cat /tmp/eng.errno)" 22
check "the refusal names the data ID" sh -c \
	"dmesg | grep -q 'firmware refused data ID 0x1160000100000005'"
check "firmware refused SETs ($(cat /tmp/eng.refused))" test "$(cat /tmp/eng.refused)" -ge 1
expect_eq "every refused SET is counted" "$(cat /tmp/eng.fail)" "$(cat /tmp/eng.refused)"
expect_eq "the engine stays in COUNT" "$(cat /tmp/eng.state)" count
# the engine's own time: the refused SETs did not restart it
expect_eq "the counting event went on exactly" \
	"$(stat_value "$(cat /tmp/eng1.out)" port_tx_packets)" \
	"$(sim_model 0 $TXP 0 "$(cat /tmp/eng.e1)")"
expect_eq "closing the last event turns the engine off" "$(eng "$P" state)" off

# ---- a failed disable is retried, never taken for another agent
# Polls 2 s apart, so that the close meets the faults: the bank query, the
# disable and its first retry fail; the second retry works.
REFRESH=/sys/module/mlx5_diag/parameters/refresh_ms
perf stat -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sim_advance 0 100000
	echo 2000 >$REFRESH
	sleep 0.1
	echo '3 1' >$D/fail_next
" >/dev/null 2>&1
expect_eq "the failed disable leaves the engine releasing" "$(eng "$P" state)" releasing
check "the disable is retried until it works" wait_state "$P" off
echo 5 >$REFRESH
expect_eq "retries are counted" $(($(eng "$P" disable_retries) - retries0)) 2
check "the failed disable is logged" sh -c "dmesg | grep -q 'could not disable the diagnostic engine; retrying'"
expect_eq "our engine is not mistaken for a foreign one" \
	"$(perf_open_errno "$P/port_tx_packets,port=0/")" 0

# ---- another agent takes the engine: frozen counts, refused opens, resume
perf stat -x';' -I 1000 -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sim_advance 0 3000000
	sim_engine_ns 0 >/tmp/eng.e1
	echo 1 >$D/foreign_owner
	wait_state $P foreign && echo foreign >/tmp/eng.seen
	perf_open_errno $P/port_rx_bytes,port=0/ >/tmp/eng.busy
	echo 5000000 >$D/advance_ns
	sleep 1.2
	echo 0 >$D/foreign_owner
	wait_state $P count && echo count >>/tmp/eng.seen
	sim_advance 0 7000000
	sim_engine_ns 0 >/tmp/eng.e2
	sleep 1.2
" >/tmp/eng2.out 2>&1
expect_eq "the takeover is seen within the ownership check" \
	"$(tr '\n' ' ' </tmp/eng.seen)" "foreign count "
expect_eq "a new event is refused while the other agent has the engine" \
	"$(cat /tmp/eng.busy)" 16
expect_eq "takeovers are counted" $(($(eng "$P" takeovers) - takeovers0)) 1
check "the takeover is logged" sh -c "dmesg | grep -q 'another agent reconfigured the diagnostic engine'"
check "its end is logged" sh -c "dmesg | grep -q 'other agent let the diagnostic engine go'"
# the engine's time before the takeover, and since the SET that resumed
before=$(sim_model 0 $TXP 0 "$(cat /tmp/eng.e1)")
after=$(sim_model 0 $TXP 0 "$(cat /tmp/eng.e2)")
total=$(awk -F';' '/port_tx_packets/ { s += $2 } END { print s }' /tmp/eng2.out)
expect_eq "nothing of the other agent's time is counted" "$total" $((before + after))

# ---- a counter that goes backwards is a reset: nothing added
# With 32-bit counters, the firmware value falls back when the count passes
# 2^32. Counting declares no width below 64 bits, so that is a reset: the
# count is the run before it plus the run after it. The model tells when
# port_tx_packets passes 2^32 (to 1 ms of engine time; multiples of 32 ns
# are whole clocks).
WRAP=4294967296
hi=1000000000
while [ "$(sim_model 0 $TXP 0 $hi)" -lt $WRAP ]; do hi=$((hi * 2)); done
lo=0
while [ $((hi - lo)) -gt 1000000 ]; do
	mid=$(( (lo + hi) / 64 * 32 ))
	if [ "$(sim_model 0 $TXP 0 $mid)" -ge $WRAP ]; then hi=$mid; else lo=$mid; fi
done
t1=$((hi / 64 * 32))
t2=$hi
t3=$((hi + 2000000))
echo 32 >"$D/counter_wrap_bits"
perf stat -x';' -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh
	sim_advance 0 $t1 && sim_advance 0 $((t2 - t1)) && sim_advance 0 $((t3 - t2))
" >/tmp/eng3.out 2>&1
echo 64 >"$D/counter_wrap_bits"
want=$(( $(sim_model 0 $TXP 0 "$t1") + $(sim_model 0 $TXP "$t2" "$t3") ))
expect_eq "a reset adds nothing: the count is the two runs' sum" \
	"$(stat_value "$(cat /tmp/eng3.out)" port_tx_packets)" "$want"
expect_eq "the reset is counted" $(($(eng "$P" counter_resets) - resets0)) 1
check "the reset is logged" sh -c "dmesg | grep -q 'went backwards'"

# ---- force needs CAP_PERFMON
mkdir -p /etc
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 1 >"$D/foreign_owner"
configs=$(cat "$D/stats/configs")
e=$(su nobody -s /bin/sh -c ". ./lib.sh; perf_open_errno $P/port_tx_packets,port=0,force=1/")
expect_eq "force without CAP_PERFMON: EACCES" "$e" 13
check "the refusal says why" sh -c "dmesg | grep -q 'needs CAP_PERFMON'"
# (an unprivileged open joins the engine after perf core's checks, when
# perf first schedules it: it opens, and counts nothing)
e=$(su nobody -s /bin/sh -c ". ./lib.sh; perf_open_errno $P/port_tx_packets,port=0/")
expect_eq "an unprivileged user's event opens" "$e" 0
check "and counts nothing, and says why" sh -c \
	"dmesg | grep -q 'event 0x1140000300000000 counts nothing'"
expect_eq "the other agent's configuration is untouched" "$(cat "$D/foreign_owner")" 1
expect_eq "no SET reached the firmware" "$(cat "$D/stats/configs")" "$configs"

# ---- a refused group leaves the engine untouched, even with force
# (perf splits groups across PMUs itself; a software leader on another CPU
# than the PMU's reaches the kernel as a group)
other=$(( ($(cat "$PMUS/$P/cpumask") + 1) % 2 ))
e=$(perf_errno stat -e "{cpu-clock,$P/icmc_hits,force=1/}" -C $other true)
expect_eq "a group led from another CPU is refused: EINVAL" "$e" 22
check "the refusal says why" sh -c "dmesg | grep -q \"must be on the PMU's CPU\""
expect_eq "the other agent keeps the engine" "$(cat "$D/foreign_owner")" 1
expect_eq "no SET reached the firmware after the refused group" \
	"$(cat "$D/stats/configs")" "$configs"
echo 0 >"$D/foreign_owner"
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
expect_eq "once the other agent lets go, an open works" "$(perf_open_errno "$P/icmc_hits/")" 0
expect_eq "and leaves the engine off" "$(eng "$P" state)" off

sim_running 0
exit $T_FAILED
