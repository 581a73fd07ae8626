#!/bin/sh
# Opens by a user without capabilities: at perf_event_paranoid 1 perf core
# refuses a CPU-wide event, and nothing of the open reached the firmware
# before; at -1 the user counts, and the user's opens and closes of other
# IDs (each a new firmware configuration) leave root's count exact; the
# force_ownership module parameter takes nothing over for the user.
. ./lib.sh
. ./engine_lib.sh

NAME=mlx5diag
PARANOID=/proc/sys/kernel/perf_event_paranoid
PARAM=/sys/module/mlx5_diag/parameters/force_ownership
TXP=0x2006		# fw_tx_packets
STEER=0x1001		# fw_rx_steering_packets

# as_user CMD: CMD in a shell of that user, here, with lib.sh
as_user() {
	su -s /bin/sh "$NAME" -c "cd $PWD && PERF=$PERF_BIN T_PREFIX=user . ./lib.sh && $1"
}

# the user's opens and closes of another ID while root counts
OPENS=10

# user_loop PMU DEV: root's workload below. The configuration runs 5
# periods; then $OPENS times the user opens fw_rx_steering_packets (a new
# configuration, 5 periods) and closes it (another one, 5 periods).
user_loop() {
	set -- "$1" "$SIM/dev$2" "$2" $(sample_grid "$2")
	per=$(clocks_ns "$3" "$5")
	seg=$(clocks_ns "$3" $((5 * $5)))
	echo "$per $seg" >/tmp/priv.grid
	sim_advance "$3" "$seg"
	c0=$(cat "$2/stats/configs")
	i=0
	while [ $i -lt $OPENS ]; do
		c=$(cat "$2/stats/configs")
		rm -f /tmp/priv.go
		as_user "perf stat -x';' -e $1/fw_rx_steering_packets/ -a -- \
			sh -c '. ./lib.sh; until [ -e /tmp/priv.go ]; do nap 0.01; done'" \
			>/tmp/priv.user 2>&1 &
		wait_for file_ge "$2/stats/configs" $((c + 2))
		# the user's event joins after the configuration's first poll,
		# under the engine lock its SETs went under: the second poll
		# from here came after the join, and the advance must too
		wait_polls "$1" 2
		sim_advance "$3" "$seg"
		# a read within refresh_ms of a poll is served by it: two
		# polls, so that one came after the advance
		wait_polls "$1" 2
		touch /tmp/priv.go
		wait
		wait_for file_ge "$2/stats/configs" $((c + 4))
		[ $i = 0 ] && cp /tmp/priv.user /tmp/priv.user0
		sim_advance "$3" "$seg"
		i=$((i + 1))
	done
	echo $(($(cat "$2/stats/configs") - c0)) >/tmp/priv.configs
}
if [ "${1:-}" = user_loop ]; then
	user_loop "$2" "$3"
	exit
fi

paranoid0=$(cat $PARANOID)
trap 'echo "$paranoid0" >$PARANOID; echo 0 >$PARAM; sim_running 0; sim_running 1' EXIT
mkdir -p /etc
grep -q "^$NAME:" /etc/passwd 2>/dev/null ||
	echo "$NAME:x:1000:1000::/tmp:/bin/sh" >>/etc/passwd
grep -q "^$NAME:" /etc/group 2>/dev/null || echo "$NAME:x:1000:" >>/etc/group

expect_eq "the user is uid 1000" "$(as_user 'id -u')" 1000
expect_eq "without capabilities" "$(as_user 'grep CapEff /proc/self/status' | cut -f2)" \
	0000000000000000

# ---- paranoid 1: perf core refuses the CPU-wide open after event_init
P=$(pmu_of_sim 0)
D=$SIM/dev0
echo 1 >$PARANOID
cmds=$(cat "$D/stats/commands")
configs=$(cat "$D/stats/configs")
expect_eq "paranoid 1: the user's count is refused (EACCES)" \
	"$(as_user "perf_open_errno $P/icmc_hits/")" 13
expect_eq "paranoid 1: the user's sampling session is refused (EACCES)" \
	"$(as_user "perf_errno record -e $P/icmc_hits/ -c 1000000 -a -o /dev/null true")" 13
expect_eq "no command reached the firmware" "$(cat "$D/stats/commands")" "$cmds"
expect_eq "no configuration either" "$(cat "$D/stats/configs")" "$configs"
expect_eq "the engine was not claimed" "$(eng "$P" state)" off
expect_eq "root counts at paranoid 1" "$(perf_open_errno "$P/icmc_hits/")" 0

# ---- paranoid -1: the user counts; a session needs CAP_PERFMON
echo -1 >$PARANOID
expect_eq "paranoid -1: the user counts" "$(as_user "perf_open_errno $P/icmc_hits/")" 0
expect_eq "paranoid -1: the user's sampling session is refused (EACCES)" \
	"$(as_user "perf_errno record -e $P/icmc_hits/ -c 1000000 -a -o /dev/null true")" 13
check "the refusal says why" sh -c \
	"dmesg | grep -q 'refused: a sampling session takes the whole engine and needs CAP_PERFMON'"

# ---- force_ownership forces nothing for the user
echo 1 >"$D/foreign_owner"
echo 1 >$PARAM
configs=$(cat "$D/stats/configs")
as_user "perf stat -e $P/icmc_hits/ -a true" >/dev/null 2>&1
expect_eq "the user did not take the engine over" "$(cat "$D/foreign_owner")" 1
expect_eq "no SET reached the firmware" "$(cat "$D/stats/configs")" "$configs"
check "the user's event counts nothing, and says so" sh -c \
	"dmesg | grep -q 'event 0x1180000200000000 counts nothing'"
expect_eq "force_ownership forces for root" "$(perf_open_errno "$P/icmc_hits/")" 0
expect_eq "the foreign configuration is gone" "$(cat "$D/foreign_owner")" 0
echo 0 >$PARAM

# ---- the user opens and closes another ID $OPENS times while root counts
# Folded counting (public firmware): a configuration's first sample comes a
# period after its SET. Each configuration runs 5 periods (whole clocks):
# root's first one counts from its first sample, the 2 * $OPENS after it
# from their SETs, where the firmware starts its counters again.
D=$SIM/dev1
echo public >"$D/profile"
sim_readd 1
P=$(pmu_of_sim 1)
sim_manual 1
rm -f /tmp/priv.*
perf stat -x';' -e "$P/fw_tx_packets/" -a -- sh ./test_privilege.sh user_loop "$P" 1 \
	>/tmp/priv.out 2>&1
sim_running 1
set -- $(cat /tmp/priv.grid)
want=$(( $(sim_model 1 $TXP "$1" "$2") + 2 * OPENS * $(sim_model 1 $TXP 0 "$2") ))
expect_eq "each open and close of the user's ID was a new configuration, after the disable with clear" \
	"$(cat /tmp/priv.configs)" $((4 * OPENS))
expect_eq "root's count equals the model over $((2 * OPENS + 1)) configurations" \
	"$(stat_value "$(cat /tmp/priv.out)" fw_tx_packets)" "$want"
expect_eq "the user's count equals the model from its first sample" \
	"$(stat_value "$(cat /tmp/priv.user0)" fw_rx_steering_packets)" \
	"$(sim_model 1 $STEER "$1" "$2")"

echo model64 >"$D/profile"
sim_readd 1
exit $T_FAILED
