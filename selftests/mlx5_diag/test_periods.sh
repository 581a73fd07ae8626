#!/bin/sh
# Sample periods above the longest the device takes (caps/max_sample_period_ns:
# 2^35 clocks, 2^30 with the public dialect's 32-bit timestamps) are refused
# with EINVAL and a log line, through period_ns, perf record -c and
# PERF_EVENT_IOC_PERIOD, on both dialects; the longest itself is taken.
. ./lib.sh
. ./record_lib.sh

EINVAL=22
D1=$SIM/dev1
trap 'echo model64 >"$D1/profile"; sim_readd 1' EXIT

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
	check "$2: and the stream has it" sh -c "'$MLX5_DIAG' decode -q --format json \
		/tmp/periods.data | grep -q '\"type\":\"period\".*\"period_ns_requested\":$max'"
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
