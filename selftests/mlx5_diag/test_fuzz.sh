#!/bin/sh
# The firmware fuzzer (the emulator's fuzz_seed and fuzz_rate) end to end:
# counting (perf stat), sampling (perf record, mlx5-diag record) and
# snapshot (perf record -S) sessions run on both devices until each device
# mutated GOAL answers (a slower host only takes longer; the volume is a
# seed's in the KUnit engine_fuzz_test), and device 1 leaves and comes back
# in the middle of its sessions (then once more with its fuzzer paused for
# the probe, for its own phase): every invocation returns within
# BOUND s, and one that fails says why on stderr. Both devices count again
# afterwards. The harness fails the test on any kernel-log splat or
# kmemleak report. FUZZ_SEED and FUZZ_RATE (mutated answers per 1000)
# replay a run.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SEED=${FUZZ_SEED:-16}
RATE=${FUZZ_RATE:-700}
GOAL=1000
BOUND=120
# rounds of sessions a phase runs at most (a round takes seconds and
# mutates dozens to hundreds of answers)
MAX_ROUNDS=100
D0=$SIM/dev0
D1=$SIM/dev1
REFRESH=/sys/module/mlx5_diag/parameters/refresh_ms
refresh0=$(cat $REFRESH)

fuzz_off() {
	for d in "$D0" "$D1"; do
		echo 0 >"$d/fuzz_rate"
		echo 50 >"$d/cmd_latency_us"
	done
	echo "$refresh0" >$REFRESH
	echo 1 >"$D1/present"
	touch /tmp/fuzz.stop
}
trap fuzz_off EXIT

expect_eq "the fuzzer is off by default" "$(cat "$D0/fuzz_rate")" 0
check "a rate above 1000 is refused" sh -c "! echo 1001 >$D0/fuzz_rate 2>/dev/null"

# answers DEV: answers device DEV's fuzzer mutated so far
answers() { read -r av <"$SIM/dev$1/stats/answers_fuzzed" && echo "$av"; }
commands() { read -r cv <"$SIM/dev$1/stats/commands" && echo "$cv"; }
fuzzed() { echo $(($(answers 0) + $(answers 1) - a0)); }
# fuzzed_on DEV: answers device DEV mutated in this run
fuzzed_on() {
	if [ "$1" = 0 ]; then
		echo $(($(answers 0) - a0_0))
	else
		echo $(($(answers 1) - a0_1))
	fi
}

# foreign PMU: the PMU's engine/foreign_configs, 0 when it has none
foreign() { cat "$PMUS/$1/engine/foreign_configs" 2>/dev/null || echo 0; }

# bounded NAME SECONDS COMMAND...: run COMMAND for at most SECONDS; NAME.rc gets
# its exit status, or "hang" after the kernel stacks of the process and
# its children went to the log and they were killed
bounded() {
	name=$1
	bound=$2
	shift 2
	"$@" >/dev/null 2>"/tmp/fuzz.$name.err" &
	pid=$!
	s=0
	while kill -0 $pid 2>/dev/null && [ $s -lt $((bound * 5)) ]; do
		nap 0.2
		s=$((s + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		for p in $pid $(pgrep -P $pid); do
			diag "$name: pid $p ($(cat /proc/$p/comm)) after $bound s:"
			cat /proc/$p/task/*/stack | sed 's/^/#   /'
		done
		kill -KILL $(pgrep -P $pid) $pid
		wait $pid
		echo hang >"/tmp/fuzz.$name.rc"
	else
		wait $pid
		echo $? >"/tmp/fuzz.$name.rc"
	fi
}

runs=0
failed=0
hangs=0
silent=0
# tally NAME: count the result bounded NAME left
tally() {
	rc=$(cat "/tmp/fuzz.$1.rc")
	runs=$((runs + 1))
	if [ "$rc" = hang ]; then
		hangs=$((hangs + 1))
		diag "$1: did not return in time"
	elif [ "$rc" != 0 ]; then
		failed=$((failed + 1))
		if ! grep -q . "/tmp/fuzz.$1.err"; then
			silent=$((silent + 1))
			diag "$1: exit $rc without a message"
		fi
	fi
}

# sessions DEV: a sampling, a snapshot and a mlx5-diag session on device
# DEV, one after the other, each taking the engine back from "another
# agent" (a fuzzed answer makes the driver take the engine for foreign)
sessions() {
	p=$(pmu_of_sim "$1") || return 0
	bounded rec$1 $BOUND perf record -q -a -o /tmp/fuzz.rec.data \
		-e "$p/force=1,icmc_hits,period_ns=100000/" -- sleep 1
	tally rec$1
	bounded snap$1 $BOUND perf record -q -a -S -m ,64K -o /tmp/fuzz.snap.data \
		-e "{$p/force=1,port_rx_bytes,port=0,period_ns=100000/,$p/icmc_hits/}" \
		-- sh -c 'sleep 0.5; kill -USR2 $PPID; sleep 0.3'
	tally snap$1
	bounded diag$1 $BOUND "$MLX5_DIAG" record -q --force -d sim:$1 \
		-o /tmp/fuzz.diag.data -p 100us --duration 1s \
		-e icmc_hits -e icmc_misses
	tally diag$1
}

# count DEV: counting on device DEV (with force: it also polls a foreign
# engine, every refresh) until /tmp/fuzz.stop exists; $! is the job
count() {
	p=$(pmu_of_sim "$1")
	bounded stat$1 $((MAX_ROUNDS * 15)) perf stat -a -e "$p/force=1,icmc_hits/" \
		-e "$p/port_rx_bytes,port=0/" -- \
		sh -c ". ./lib.sh; while [ ! -e /tmp/fuzz.stop ]; do nap 0.2; done" &
}

# phase C S UNTIL: counting on device C, opened with the fuzzer off (its
# polls are most of the answers mutated), while sessions run on device S
# under the fuzzer, until device C mutated UNTIL answers (one round at
# least, MAX_ROUNDS at most) or its counting ended (its perf stat failed:
# then device C falls short of UNTIL, and the rounds would only wait)
phase() {
	fuzz 0
	rm -f /tmp/fuzz.stop
	count "$1"
	job=$!
	wait_for state_is "$(pmu_of_sim "$1")" count
	fuzz "$RATE"
	sessions "$2"
	r=1
	while [ "$(fuzzed_on "$1")" -lt "$3" ] && [ $r -lt $MAX_ROUNDS ] &&
		kill -0 $job 2>/dev/null; do
		sessions "$2"
		r=$((r + 1))
	done
	kill -0 $job 2>/dev/null ||
		diag "device $1: counting ended after $r round(s): $(head -3 "/tmp/fuzz.stat$1.err")"
	touch /tmp/fuzz.stop
	wait $job
	tally "stat$1"
}

# fuzz RATE: both devices' fuzzers at RATE, each from its own seed
fuzz() {
	echo $((SEED + 0)) >"$D0/fuzz_seed"
	echo $((SEED + 1)) >"$D1/fuzz_seed"
	echo "$1" >"$D0/fuzz_rate"
	echo "$1" >"$D1/fuzz_rate"
}

rm -f /tmp/fuzz.*
a0_0=$(answers 0)
a0_1=$(answers 1)
a0=$((a0_0 + a0_1))
c0=$(($(commands 0) + $(commands 1)))
echo 1 >$REFRESH
echo 0 >"$D0/cmd_latency_us"
echo 0 >"$D1/cmd_latency_us"
diag "seeds $SEED (device 0) and $((SEED + 1)) (device 1), rate $RATE per 1000"
t0=$(uptime_ms)
# device 1 leaves in the middle of its sessions, once it mutated a fifth of
# GOAL answers, and comes back
(
	while a=$(answers 1) &&
		[ $((a - a0_1)) -lt $((GOAL / 5)) ] && [ ! -e /tmp/fuzz.stop ]; do
		nap 1
	done
	foreign "$(pmu_of_sim 1)" >/tmp/fuzz.refused1
	echo 0 >"$D1/present"; sleep 1; echo 1 >"$D1/present"
	echo done >/tmp/fuzz.readd
) &
readd=$!
log_mark fuzz_readd
phase 0 1 $GOAL
wait $readd
diag "device 1 re-added at $(($(uptime_ms) - t0)) ms: PMU $(pmu_of_sim 1 || echo refused at probe)"
readded=$(cat /tmp/fuzz.readd)
# A mutated answer to the probe's commands refuses the device, as it
# should (the log says why), or becomes a capability the probe cannot
# tell from real firmware's, one that may leave nothing to count with. The
# device comes back once more with its fuzzer paused for the probe, so
# that its phase runs on its own capabilities.
pmu_of_sim 1 >/dev/null ||
	log_since fuzz_readd | grep -e 'mlx5_diag_sim.diag.1' -e 'sim:1' | tail -3 | sed 's/^/#   /'
echo 0 >"$D1/fuzz_rate"
sim_readd 1
echo "$RATE" >"$D1/fuzz_rate"
diag "device 1 re-added with its fuzzer paused: PMU $(pmu_of_sim 1 || echo refused at probe)"
pmu_of_sim 1 >/dev/null && phase 1 0 $GOAL
took=$(($(uptime_ms) - t0))
tried=$(fuzzed)
cmds=$(($(commands 0) + $(commands 1) - c0))
refused=$(cat /tmp/fuzz.refused1)
for d in 0 1; do
	p=$(pmu_of_sim $d) && refused=$((refused + $(foreign "$p")))
done
diag "fuzzed answers $tried of $cmds commands in $took ms; $runs invocations, $failed failed, configurations refused (engine/foreign_configs) $refused"
for d in 0 1; do
	expect_range "device $d: at least $GOAL answers mutated" \
		"$(fuzzed_on $d)" $GOAL 100000000
done
expect_eq "device 1 left and came back during the run" "$readded" done
expect_eq "every invocation returned within $BOUND s" "$hangs" 0
expect_eq "every failed invocation said why" "$silent" 0

# The truth again: force=1 takes each device's engine back (a lost answer
# can leave it enabled, as another agent's), and counting works.
fuzz_off
for d in 0 1; do
	p=$(pmu_of_sim $d)
	expect_eq "device $d: after the fuzzer, force=1 counts" \
		"$(perf_open_errno "$p/force=1,icmc_hits/")" 0
	expect_eq "device $d: and so does a plain open" \
		"$(perf_open_errno "$p/icmc_hits/")" 0
done
# What the driver learnt from mutated answers stays for the device's life
# (a fuzzed id can show slot-index numbering, engine/slot_ids, which then
# refuses period changes): the tests after this one in the guest get both
# devices new.
for d in 0 1; do
	sim_readd $d
	p=$(pmu_of_sim $d)
	expect_eq "device $d: re-added, it has learnt nothing" \
		"$(cat "$PMUS/$p/engine/slot_ids")" 0
done
exit $T_FAILED
