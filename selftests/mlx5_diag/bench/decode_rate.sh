#!/bin/sh
# Benchmark (not a test): how fast the decoders print one recording. perf
# record of SECS s (default 60) at the device's minimum period with the
# most data IDs it samples at once (16), then, on that perf.data, mlx5-diag
# decode --format text and --format csv and the patched perf script, each
# into a file whose lines are counted after the clock stops: lines and
# values per second each (a decode sample line holds 16 values, a perf
# script value line "mlx5_diag: EVENT = VALUE seq N" one; perf's error
# lines for lost samples, "lost N from seq S", hold none), all measured in
# this one run, and decode's values per second against perf script's.
# Then where perf script's time goes: perf script again under perf record
# (cpu-clock), its profile by DSO and symbol down to 1% of the samples.
#   scripts/vm-run selftests/mlx5_diag/bench/decode_rate.sh [SECS]
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SECS=${1:-60}
P=$(pmu_of_sim 0)

# group PMU: the 16 events of max_ids_events as one perf group, the leader
# at the minimum period (the driver raises 1 ns to it)
group() {
	max_ids_events | awk -v p="$1" '{
		s = "{"
		for (i = 2; i <= NF; i += 2)
			s = s (i > 2 ? "," : "") p "/" $i (i == 2 ? ",period_ns=1" : "") "/"
		print s "}" }'
}

now_ns() { awk '{ printf "%.0f", $1 * 1e9 }' /proc/uptime; }

# per_s COUNT NS: COUNT per second
per_s() { awk -v c="$1" -v t="$2" 'BEGIN { printf "%.0f", t ? c * 1e9 / t : 0 }'; }

# rate NAME CMD...: CMD's output into /tmp/rate.out, its time in NS and
# its line count in LINES
rate() {
	name=$1
	shift
	t0=$(now_ns)
	"$@" >/tmp/rate.out 2>/tmp/rate.err
	st=$?
	NS=$(($(now_ns) - t0))
	LINES=$(wc -l </tmp/rate.out)
	[ $st = 0 ] || { echo "# $name: exit $st"; sed 's/^/# /' /tmp/rate.err | head -5; }
}

# report NAME VALUES: NAME's lines and VALUES per second; sets VPS
report() {
	VPS=$(per_s "$2" "$NS")
	echo "$1: $LINES lines, $2 values in $(awk -v t="$NS" 'BEGIN { printf "%.2f", t / 1e9 }') s:" \
	     "$(per_s "$LINES" "$NS") lines/s, $VPS values/s"
}

perf record -q -a -o /tmp/rate.data -e "$(group "$P")" -- sleep "$SECS" 2>/tmp/rate.rec
echo "# perf record of $SECS s, 16 data IDs at the minimum period: exit $?," \
     "$(stat -c %s /tmp/rate.data) bytes"
sed 's/^/# /' /tmp/rate.rec | head -5

rate "mlx5-diag decode --format text" mlx5-diag decode -q --format text /tmp/rate.data
samples=$(grep -c '^[0-9]' /tmp/rate.out)
values=$((samples * 16))
report "mlx5-diag decode --format text" $values
text=$VPS
rate "mlx5-diag decode --format csv" mlx5-diag decode -q --format csv /tmp/rate.data
report "mlx5-diag decode --format csv" $values
csv=$VPS
rate "perf script" perf script -i /tmp/rate.data
report "perf script" "$(grep -c 'mlx5_diag: .* = [0-9][0-9]* seq [0-9]' /tmp/rate.out)"
perf=$VPS
echo "values per second, decode text / perf script:" \
     "$(awk -v a="$text" -v b="$perf" 'BEGIN { printf "%.2f", b ? a / b : 0 }')," \
     "decode csv / perf script: $(awk -v a="$csv" -v b="$perf" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
perf record -q -e cpu-clock -o /tmp/rate.prof -- perf script -i /tmp/rate.data >/dev/null 2>&1
echo "where perf script's time goes (exit $?):"
perf report -q -i /tmp/rate.prof --stdio --sort dso,sym --percent-limit 1 2>/dev/null |
	sed '/^$/d; s/^/  /'
rm -f /tmp/rate.data /tmp/rate.out /tmp/rate.prof
