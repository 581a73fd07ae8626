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

# ---- a refused SET: the firmware keeps its configuration, we keep counting
perf stat -x';' -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	c0=\$(sim_clock 0)
	echo \$c0 >/tmp/eng.c0
	advance_polled 0 $P 1000000
	# PCIe link 5 of 2: only firmware knows, and refuses it (BAD_PARAM)
	perf_open_errno $P/pcie_in_bytes,link_xx=5/ >/tmp/eng.errno
	eng $P set_failures >/tmp/eng.fail
	eng $P state >/tmp/eng.state
	advance_polled 0 $P 2000000
	sim_clock 0 >/tmp/eng.c1
" >/tmp/eng1.out 2>&1
expect_eq "firmware refuses a link it does not have: EINVAL" "$(cat /tmp/eng.errno)" 22
check "the refusal names the data ID" sh -c \
	"dmesg | grep -q 'firmware refused data ID 0x1160000100000005'"
expect_eq "the failed SET is counted" "$(cat /tmp/eng.fail)" 1
expect_eq "the engine stays in COUNT" "$(cat /tmp/eng.state)" count
t=$(clocks_ns 0 $(( $(cat /tmp/eng.c1) - $(cat /tmp/eng.c0) )))
expect_eq "the counting event went on exactly" \
	"$(count_of /tmp/eng1.out port_tx_packets)" "$(sim_model 0 $TXP 0 "$t")"
expect_eq "closing the last event turns the engine off" "$(eng "$P" state)" off

# ---- a failed disable is retried, never taken for another agent
# the bank query, the disable and its first retry fail; the second works
perf stat -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	advance_polled 0 $P 100000
	echo '3 1' >$D/fail_next
" >/dev/null 2>&1
check "the disable is retried until it works" wait_state "$P" off
expect_eq "retries are counted" "$(eng "$P" disable_retries)" 2
check "the failed disable is logged" sh -c "dmesg | grep -q 'could not disable the diagnostic engine; retrying'"
expect_eq "our engine is not mistaken for a foreign one" \
	"$(perf_open_errno "$P/port_tx_packets,port=0/")" 0

# ---- another agent takes the engine: frozen counts, refused opens, resume
perf stat -x';' -I 1000 -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	sim_clock 0 >/tmp/eng.t0
	advance_polled 0 $P 3000000
	sim_clock 0 >/tmp/eng.t1
	echo 1 >$D/foreign_owner
	wait_state $P foreign && echo foreign >/tmp/eng.seen
	perf_open_errno $P/port_rx_bytes,port=0/ >/tmp/eng.busy
	echo 5000000 >$D/advance_ns
	sleep 1.2
	echo 0 >$D/foreign_owner
	wait_state $P count && echo count >>/tmp/eng.seen
	sim_clock 0 >/tmp/eng.t2
	advance_polled 0 $P 7000000
	sim_clock 0 >/tmp/eng.t3
	sleep 1.2
" >/tmp/eng2.out 2>&1
expect_eq "the takeover is seen within the ownership check" \
	"$(tr '\n' ' ' </tmp/eng.seen)" "foreign count "
expect_eq "a new event is refused while the other agent has the engine" \
	"$(cat /tmp/eng.busy)" 16
expect_eq "takeovers are counted" "$(eng "$P" takeovers)" 1
check "the takeover is logged" sh -c "dmesg | grep -q 'another agent reconfigured the diagnostic engine'"
check "its end is logged" sh -c "dmesg | grep -q 'other agent let the diagnostic engine go'"
before=$(sim_model 0 $TXP 0 "$(clocks_ns 0 $(( $(cat /tmp/eng.t1) - $(cat /tmp/eng.t0) )))")
after=$(sim_model 0 $TXP 0 "$(clocks_ns 0 $(( $(cat /tmp/eng.t3) - $(cat /tmp/eng.t2) )))")
total=$(awk -F';' '/port_tx_packets/ { s += $2 } END { print s }' /tmp/eng2.out)
expect_eq "nothing of the other agent's time is counted" "$total" $((before + after))

# ---- a counter that goes backwards is a reset: nothing added
# (the device clock steps back, as after a firmware reset)
perf stat -x';' -e "$P/port_tx_packets,port=0/" -a -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	c0=\$(sim_clock 0)
	advance_polled 0 $P 2000000
	c1=\$(sim_clock 0)
	echo -100000 >$D/clock_step
	wait_polls $P 2
	c2=\$(sim_clock 0)
	advance_polled 0 $P 3000000
	c3=\$(sim_clock 0)
	echo \$c0 \$c1 \$c2 \$c3 >/tmp/eng.clocks
" >/tmp/eng3.out 2>&1
set -- $(cat /tmp/eng.clocks)
expect_eq "the device clock stepped back" $(($2 - $3)) 100000
t1=$(clocks_ns 0 $(($2 - $1)))
t2=$(clocks_ns 0 $(($3 - $1)))
t3=$(clocks_ns 0 $(($4 - $1)))
want=$(( $(sim_model 0 $TXP 0 "$t1") + $(sim_model 0 $TXP "$t2" "$t3") ))
expect_eq "a reset adds nothing: the count is the two runs' sum" \
	"$(count_of /tmp/eng3.out port_tx_packets)" "$want"
expect_eq "the reset is counted" "$(eng "$P" counter_resets)" 1
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
e=$(su nobody -s /bin/sh -c ". ./lib.sh; perf_open_errno $P/port_tx_packets,port=0/")
expect_eq "an unprivileged user meets EBUSY, not the engine" "$e" 16
expect_eq "the other agent's configuration is untouched" "$(cat "$D/foreign_owner")" 1
expect_eq "no SET reached the firmware" "$(cat "$D/stats/configs")" "$configs"

# ---- a refused group leaves the engine untouched, even with force
P1=$(pmu_of_sim 1)
e=$(perf_errno stat -e "{$P1/icmc_hits/,$P/icmc_hits,force=1/}" -a true)
expect_eq "a group across two PMUs is refused: EINVAL" "$e" 22
expect_eq "the other agent keeps the engine" "$(cat "$D/foreign_owner")" 1
expect_eq "no SET reached the firmware after the refused group" \
	"$(cat "$D/stats/configs")" "$configs"
echo 0 >"$D/foreign_owner"
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid

sim_running 0
exit $T_FAILED
