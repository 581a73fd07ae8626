#!/bin/sh
# Sample periods above the longest the device takes (caps/max_sample_period_ns:
# 2^35 clocks, 2^30 with the public dialect's 32-bit timestamps) are refused
# with EINVAL and a log line, through period_ns, perf record -c and
# PERF_EVENT_IOC_PERIOD, on both dialects; the longest itself is taken.
# A PERF_EVENT_IOC_PERIOD that rounds to the period running reprograms
# nothing and loses no sample, on the manual clock.
. ./lib.sh
. ./record_lib.sh

EINVAL=22
D0=$SIM/dev0
D1=$SIM/dev1
trap 'echo 0 >"$D0/fail_next"; sim_running 0; echo model64 >"$D1/profile"; sim_readd 1' EXIT

# ---- a period change that rounds to the period running ----
# kept NAME FILE PERIOD ARGS...: a recording of device 0 on its manual
# clock with ARGS: 20 samples, then PERF_EVENT_IOC_PERIOD to PERIOD
# (mlx5-diag record --then-period, once the workload has exited), then 40
# more, and SIGINT. The period rounds to the one the firmware runs: no SET
# goes out (one would start a new configuration numbered from 0 in the
# emulator, and the drain, waiting for sample 20 while the new numbering
# got there, lost the samples before it without a LOST record), so the
# emulator counts two configurations (the run's and the disable) and 60
# samples, and the stream has samples 0..59 and a PERIOD record with the
# period requested and the one running.
kept() {
	kn=$1
	kf=$2
	kp=$3
	shift 3
	configs=$(cat "$D0/stats/configs")
	# the ioctl follows the workload's exit at once (0.2 s for it), and
	# two drains after that the driver's work has acted on it, however
	# slow the guest, before the next samples (a broken driver would lose
	# them); the grid stays
	# shellcheck disable=SC2016
	record_period_change "$kf" "$kp" 20 'nap 0.2; wait_polls "$(pmu_of_sim 0)" 2' 40 \
		"$@" 2>/tmp/periods.err
	expect_eq "$kn: record exits 0" "$?" 0
	check "$kn: the ioctl worked" sh -c '! grep -q "cannot change the period" /tmp/periods.err'
	expect_eq "$kn: the disable with clear, the run's SET and the disable, no SET for the period" \
		$(($(cat "$D0/stats/configs") - configs)) 3
	expect_eq "$kn: the emulator took 60 samples and returned them" \
		"$(cat "$D0/stats/samples_produced") $(cat "$D0/stats/samples_returned")" "60 60"
	expect_eq "$kn: samples 0..59, contiguous, none lost" \
		"$(dec_samples "$kf" | awk '$1 != NR - 1 { bad++ } END { print NR, bad + 0 }') $(dec_lines "$kf" LOST | wc -l)" \
		"60 0 0"
	expect_eq "$kn: END after 60 samples" "$(dec_lines "$kf" END)" \
		"END run 0 after 60 samples: stopped"
	sim_running 0
}

kept "2^14 clocks, 110 us" /tmp/periods1.data 110us -p 100us \
	-e icmc_hits -e icmc_accesses
expect_eq "2^14 clocks, 110 us: the PERIOD record" \
	"$(dec_lines /tmp/periods1.data PERIOD | sed 's/ at [0-9.]*:/:/')" \
	"PERIOD run 0 from sample 20: 104857 ns (requested 110000)"
check "2^14 clocks, 110 us: every value equals the model" \
	check_model 0 /tmp/periods1.data cc 0x1180000200000000 0x1180000100000000
# 16 counters: the firmware raised the 2^14 clocks requested to 2^15;
# 200 us rounds to 2^15 clocks, the period running
# shellcheck disable=SC2046
kept "16 IDs, raised to 2^15 clocks, 200 us" /tmp/periods2.data 200us \
	-p 100us -a 1024 $(max_ids_events)
expect_eq "16 IDs, raised to 2^15 clocks, 200 us: the PERIOD record" \
	"$(dec_lines /tmp/periods2.data PERIOD | sed 's/ at [0-9.]*:/:/')" \
	"PERIOD run 0 from sample 20: 209715 ns (requested 200000)"

# ---- a period change the firmware has no resources for ----
# From sample 20 on every command is answered NO_RES (fail_next), the
# drains' queries too, which the next drain recovers from. The change is
# sent at 8 works in all (MLX5_DIAG_SESSION_PERIOD_TRIES: engine/
# set_failures + 8), then given up with one log line; with fail_next
# cleared, 20 more samples come at the period running: 0..39 contiguous,
# none lost, no PERIOD record, and no configuration for the change in the
# emulator's count.
P0=$(pmu_of_sim 0)
configs=$(cat "$D0/stats/configs")
sf=$(cat "$PMUS/$P0/engine/set_failures")
log_mark nores
# shellcheck disable=SC2016
record_stepped 0 /tmp/periods3.data '
step_samples 0 20
echo "1000000 0xf" >'"$D0"'/fail_next
sh_pid=$$
rec=$PPID
(
	while kill -0 $sh_pid 2>/dev/null; do nap 0.01; done
	wait_for file_ge '"$PMUS/$P0"'/engine/set_failures '"$((sf + 8))"'
	echo 0 >'"$D0"'/fail_next
	step_samples 0 20
	kill -INT $rec
) >/dev/null 2>&1 &' --duration 120 --then-period 800us -p 100us \
	-e icmc_hits -e icmc_accesses 2>/tmp/periods.err
expect_eq "NO_RES: record exits 0" "$?" 0
expect_eq "NO_RES: the change sent 8 times (engine/set_failures)" \
	$(($(cat "$PMUS/$P0/engine/set_failures") - sf)) 8
expect_eq "NO_RES: the change given up, one log line" \
	"$(log_since nores | grep -c 'the sample period could not be changed (-11): the run goes on at its period')" 1
expect_eq "NO_RES: the disable with clear, the run's SET and the disable" \
	$(($(cat "$D0/stats/configs") - configs)) 3
expect_eq "NO_RES: samples 0..39, contiguous, none lost" \
	"$(dec_samples /tmp/periods3.data | awk '$1 != NR - 1 { bad++ } END { print NR, bad + 0 }') $(dec_lines /tmp/periods3.data LOST | wc -l)" \
	"40 0 0"
expect_eq "NO_RES: no PERIOD record" "$(dec_lines /tmp/periods3.data PERIOD | wc -l)" 0
check "NO_RES: every value equals the model" \
	check_model 0 /tmp/periods3.data cc 0x1180000200000000 0x1180000100000000
sim_running 0

# rec_errno EVENT [PERF-OPTIONS]: errno of a 0.1 s perf record of EVENT
rec_errno() {
	ev=$1
	shift
	perf_errno record -o /tmp/periods.data "$@" -e "$ev" -a sleep 0.1
}

# periods DEV NAME EVENT LONGEST: every way a period is given, on DEV
periods() {
	P=$(pmu_of_sim "$1")
	max=$(cat "$PMUS/$P/caps/max_sample_period_ns")
	expect_eq "$2: the longest period in ns" "$max" "$4"
	expect_eq "$2: period_ns=2^64-1 is EINVAL" \
		"$(rec_errno "$P/$3,period_ns=0xffffffffffffffff/")" $EINVAL
	expect_eq "$2: period_ns one above the longest is EINVAL" \
		"$(rec_errno "$P/$3,period_ns=$((max + 1))/")" $EINVAL
	expect_eq "$2: period_ns the longest is taken" \
		"$(rec_errno "$P/$3,period_ns=$max/")" 0
	expect_eq "$2: -c 2^62 is EINVAL" \
		"$(rec_errno "$P/$3/" -c 4611686018427387904)" $EINVAL
	expect_eq "$2: -c one above the longest is EINVAL" \
		"$(rec_errno "$P/$3/" -c $((max + 1)))" $EINVAL
	expect_eq "$2: -c the longest is taken" "$(rec_errno "$P/$3/" -c "$max")" 0
	# PERF_EVENT_IOC_PERIOD, through mlx5-diag record --then-period
	for p in 4611686018427387904 $((max + 1)); do
		"$MLX5_DIAG" record -q -d "sim:$1" -o /tmp/periods.data -p 100us \
			--duration 50ms --then-period "$p" -e "$3" 2>/tmp/periods.err
		expect_eq "$2: the ioctl to $p ns: the recording ends well" "$?" 0
		check "$2: the ioctl to $p ns is EINVAL" \
			grep -q "cannot change the period to $p ns: Invalid argument" /tmp/periods.err
	done
	"$MLX5_DIAG" record -q -d "sim:$1" -o /tmp/periods.data -p 100us \
		--duration 50ms --then-period "$max" -e "$3" 2>/tmp/periods.err
	expect_eq "$2: the ioctl to the longest period works" "$?" 0
	# a PERIOD record, or the SESSION record where the driver's worker
	# started the run after the change (a slow guest)
	check "$2: and the stream has it" sh -c "'$MLX5_DIAG' decode -q --format json \
		/tmp/periods.data | grep -qE '\"type\":\"(period|session)\".*\"period_ns_requested\":$max'"
}

# 2^35 clocks at 156.25 MHz: 219902325555.2 ns
periods 0 model64 icmc_hits 219902325555
echo public >"$D1/profile"
sim_readd 1
# 2^30 clocks: 6871947673.6 ns
periods 1 public16 fw_tx_packets 6871947673
check "refusals are logged" sh -c \
	"dmesg | grep -q 'period 219902325556 ns is above the longest the device takes, 219902325555 ns'"
check "ioctl refusals are logged" sh -c \
	"dmesg | grep -q 'period 6871947674 ns refused: above the longest the device takes, 6871947673 ns'"
exit $T_FAILED
