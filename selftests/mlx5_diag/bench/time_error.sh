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
awk -F'[:,]' -v j0="$1" -v t0="$2" -v j1="$3" -v r="$4" '
	/"type":"sample"/ {
		b = -1
		for (i = 1; i < NF; i++) {
			if ($i == "\"seq\"") seq = $(i + 1)
			if ($i == "\"perf_time\"") t = $(i + 1)
			if ($i == "\"perf_time_bound_ns\"") b = $(i + 1)
		}
		if (seq < j0 || seq > j1 || b < 0) next
		d = t - (t0 + (seq - j0) * r); if (d < 0) d = -d
		n++; e[n] = d; bd[n] = b
	}
	function sort(a, k,   i, j, x) {
		for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	}
	function pct(a, p) { return a[int((n - 1) * p / 100) + 1] }
	END {
		if (!n) { print "no sample with ground truth"; exit 1 }
		sort(e, n); sort(bd, n)
		printf "# %d samples with ground truth, 16 data IDs, 100 ppm drift\n", n
		printf "error ns:  p50 %d  p90 %d  p99 %d  max %d\n", pct(e, 50), pct(e, 90), pct(e, 99), e[n]
		printf "bound ns:  p50 %d  p90 %d  p99 %d  max %d\n", pct(bd, 50), pct(bd, 90), pct(bd, 99), bd[n]
		printf "error/bound at the median: %.2f\n", pct(bd, 50) ? pct(e, 50) / pct(bd, 50) : 0
	}' /tmp/te.json
