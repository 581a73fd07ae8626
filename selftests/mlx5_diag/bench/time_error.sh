#!/bin/sh
# Benchmark (not a test): how close perf times come to when the device took
# each sample, on the running clock. A recording of SECS s (default 10) of
# 16 data IDs at the minimum period with the device clock drifting 100 ppm;
# each sample's perf time against the emulator's ground truth (sample_time),
# as a distribution, next to the bounds the TIME records state. The test
# suite checks only that every error is within its bound (test_sampling).
#   scripts/vm-run selftests/mlx5_diag/bench/time_error.sh [SECS]
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SECS=${1:-10}
P=$(pmu_of_sim 0)
D=$SIM/dev0

echo 100 >"$D/drift_ppm"
# shellcheck disable=SC2086
mlx5-diag record -q -d sim:0 -o /tmp/te.data -p 100us --clockid monotonic \
	$(max_ids_events) -- sh -c "
	. ./lib.sh; . ./engine_lib.sh
	wait_state $P session || exit 1
	sleep $SECS
	n=\$(cat $D/stats/samples_produced)
	for j in 0 \$((n - 1)); do
		echo \$j >$D/sample_time
		read -r a b c <$D/sample_time
		echo \"\$a \$b\"
	done >/tmp/te.truth"
echo 0 >"$D/drift_ppm"
mlx5-diag decode -q --format json /tmp/te.data >/tmp/te.json
set -- $(awk 'NR == 1 { j0 = $1; t0 = $2 } END { printf "%s %s %s %.9f\n", j0, t0, $1, ($2 - t0) / ($1 - j0) }' /tmp/te.truth)
sample_times /tmp/te.json | awk -v j0="$1" -v t0="$2" -v j1="$3" -v r="$4" '
	$1 >= j0 && $1 <= j1 && $3 >= 0 {
		d = $2 - (t0 + ($1 - j0) * r); if (d < 0) d = -d
		printf "%.0f %d\n", d, $3
	}' >/tmp/te.pairs
# pct COLUMN: p50, p90, p99 and max of a column of /tmp/te.pairs
pct() {
	cut -d' ' -f"$1" /tmp/te.pairs | sort -n | awk '{ v[NR] = $1 }
		function at(p) { return v[int((NR - 1) * p / 100) + 1] }
		END { printf "p50 %d  p90 %d  p99 %d  max %d", at(50), at(90), at(99), v[NR] }'
}
n=$(wc -l </tmp/te.pairs)
[ "$n" -gt 0 ] || { echo "no sample with ground truth"; exit 1; }
echo "# $n samples with ground truth, 16 data IDs, 100 ppm drift"
echo "error ns:  $(pct 1)"
echo "bound ns:  $(pct 2)"
f=$(cat "$D/caps/device_frequency_khz")
echo "errors above their bound and one clock: $(awk -v t=$(((1000000 + f - 1) / f)) '$1 > $2 + t' /tmp/te.pairs | wc -l)"
