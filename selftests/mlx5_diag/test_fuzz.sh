#!/bin/sh
# The firmware fuzzer (the emulator's fuzz_seed and fuzz_rate): at least
# 100000 mutated answers while counting (perf stat), sampling (perf record,
# mlx5-diag record) and snapshot (perf record -S) sessions run on both
# devices, and device 1 leaves and comes back: every invocation returns
# within BOUND s, and one that fails says why on stderr. The harness fails
# the test on any kernel-log splat or kmemleak report. FUZZ_SEED and
# FUZZ_RATE (mutated answers per 1000) replay a run.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SEED=${FUZZ_SEED:-16}
RATE=${FUZZ_RATE:-400}
GOAL=100000
BOUND=60
MAX_S=240
D0=$SIM/dev0
D1=$SIM/dev1

fuzz_off() {
	for d in "$D0" "$D1"; do
		echo 0 >"$d/fuzz_rate"
		echo 50 >"$d/cmd_latency_us"
	done
	echo 1 >"$D1/present"
}
trap fuzz_off EXIT

expect_eq "the fuzzer is off by default" "$(cat "$D0/fuzz_rate")" 0
check "a rate above 1000 is refused" sh -c "! echo 1001 >$D0/fuzz_rate 2>/dev/null"

# answers DEV: answers device DEV's fuzzer mutated so far
answers() { cat "$SIM/dev$1/stats/answers_fuzzed"; }
commands() { cat "$SIM/dev$1/stats/commands"; }

# foreign PMU: the PMU's engine/foreign_configs, 0 when it has none
foreign() { cat "$PMUS/$1/engine/foreign_configs" 2>/dev/null || echo 0; }

a0=$(($(answers 0) + $(answers 1)))
c0=$(($(commands 0) + $(commands 1)))
refused=0
hangs=0
silent=0
runs=0
failed=0

# bounded NAME COMMAND...: run COMMAND for at most BOUND s; a hang, or a
# failure without a word on stderr, is counted (and logged)
bounded() {
	name=$1
	shift
	timeout $BOUND "$@" >/dev/null 2>"/tmp/fuzz.$name.err"
	rc=$?
	echo "$rc" >"/tmp/fuzz.$name.rc"
}

# tally NAME: count the result bounded NAME left
tally() {
	rc=$(cat "/tmp/fuzz.$1.rc")
	runs=$((runs + 1))
	if [ "$rc" = 124 ] || [ "$rc" = 143 ]; then
		hangs=$((hangs + 1))
		diag "$1: did not return within $BOUND s"
	elif [ "$rc" != 0 ]; then
		failed=$((failed + 1))
		if ! grep -q . "/tmp/fuzz.$1.err"; then
			silent=$((silent + 1))
			diag "$1: exit $rc without a message"
		fi
	fi
}

# round: one of each session kind on each device that has a PMU, side by side
round() {
	names=""
	for d in 0 1; do
		p=$(pmu_of_sim $d) || continue
		bounded stat$d perf stat -a -e "$p/icmc_hits/" -e "$p/port_rx_bytes,port=0/" \
			-- sleep 1 &
		bounded rec$d perf record -q -a -o /tmp/fuzz.rec$d.data \
			-e "$p/icmc_hits,period_ns=100000/" -- sleep 1 &
		bounded snap$d perf record -q -a -S -m ,64K -o /tmp/fuzz.snap$d.data \
			-e "$(perf_group "$p")" -- sh -c 'sleep 0.5; kill -USR2 $PPID; sleep 0.3' &
		bounded diag$d "$MLX5_DIAG" record -q -d sim:$d -o /tmp/fuzz.diag$d.data \
			-p 100us --duration 1s -e icmc_hits -e icmc_misses &
		names="$names stat$d rec$d snap$d diag$d"
	done
	wait
	for n in $names; do tally "$n"; done
}

for d in "$D0" "$D1"; do
	echo 0 >"$d/cmd_latency_us"
	echo "$SEED" >"$d/fuzz_seed"
	echo "$RATE" >"$d/fuzz_rate"
done
diag "seed $SEED, rate $RATE per 1000"
t0=$(uptime_ms)
readded=0
while [ $(($(answers 0) + $(answers 1) - a0)) -lt $GOAL ] &&
	[ $(($(uptime_ms) - t0)) -lt $((MAX_S * 1000)) ]; do
	round
	if [ $readded = 0 ] && [ $(($(answers 0) + $(answers 1) - a0)) -ge $((GOAL / 2)) ]; then
		# device 1 leaves while the next round runs, and comes back
		p1=$(pmu_of_sim 1) && refused=$((refused + $(foreign "$p1")))
		(sleep 0.5; echo 0 >"$D1/present"; sleep 0.5
			echo 1 >"$D1/present") &
		round
		readded=1
		diag "device 1 re-added: PMU $(pmu_of_sim 1 || echo refused at probe)"
	fi
done
took=$(($(uptime_ms) - t0))
tried=$(($(answers 0) + $(answers 1) - a0))
cmds=$(($(commands 0) + $(commands 1) - c0))
for d in 0 1; do
	p=$(pmu_of_sim $d) && refused=$((refused + $(foreign "$p")))
done
diag "fuzzed answers $tried of $cmds commands in $took ms; $runs invocations, $failed failed, configurations refused (engine/foreign_configs) $refused"
expect_range "at least $GOAL answers mutated" "$tried" $GOAL 100000000
expect_eq "device 1 left and came back during the run" "$readded" 1
expect_eq "every invocation returned within $BOUND s" "$hangs" 0
expect_eq "every failed invocation said why" "$silent" 0

# The truth again: both devices probe anew and count.
fuzz_off
sim_readd 0
sim_readd 1
for d in 0 1; do
	p=$(pmu_of_sim $d)
	expect_eq "device $d: after the fuzzer, a counting open works" \
		"$(perf_open_errno "$p/icmc_hits/")" 0
done
exit $T_FAILED
