#!/bin/sh
# Benchmark (not a test): what the pictures cost against a decode. One
# recording of SECS s (default 60) at the device's minimum period with the
# most data IDs it samples at once (16, as sampling_cost records them) and
# sched:sched_switch; then the CPU time (user + system, busybox time, 10 ms
# steps), the largest resident set and the output's size of mlx5-diag
# decode to CSV and text, decode --format perfetto, and plot to PNG (also
# with --cpus and --metrics), SVG and PDF, each of that one file, with
# each CPU time's ratio to the CSV decode's.
#   scripts/bench picture_cost
#   scripts/vm-run selftests/mlx5_diag/bench/picture_cost.sh [SECS]
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SECS=${1:-60}
rec=/tmp/picture.data

# shellcheck disable=SC2046 # one -e option per word
"$MLX5_DIAG" record -q -d sim:0 -o "$rec" -p 1ns --duration "${SECS}s" \
	--tracepoint sched:sched_switch $(max_ids_events) || exit 1
samples=$("$MLX5_DIAG" decode -q --format csv "$rec" | grep -c '^[0-9]')
echo "# $SECS s at the minimum period, 16 data IDs: $samples samples," \
     "$(stat -c %s "$rec") bytes of recording"

csv_cpu=
# cost NAME OUT CMD...: run CMD (writing OUT) under busybox time; one line
# of its CPU time, largest resident set, OUT's size and the ratio to the
# CSV decode (the first one measured)
cost() {
	name=$1
	out=$2
	shift 2
	busybox time -v "$@" 2>/tmp/picture.time >/dev/null || {
		echo "$name: failed"
		grep -v '^	' /tmp/picture.time | sed 's/^/# /'
		return
	}
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' \
		/tmp/picture.time)
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' /tmp/picture.time)
	[ -n "$csv_cpu" ] || csv_cpu=$cpu
	echo "$name: $cpu s CPU, max RSS $rss KB, $(stat -c %s "$out") bytes;" \
	     "to CSV decode $(awk -v a="$cpu" -v b="$csv_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
}

cost "decode --format csv" /tmp/picture.csv \
	"$MLX5_DIAG" decode -q --format csv -o /tmp/picture.csv "$rec"
cost "decode (text)" /tmp/picture.txt \
	"$MLX5_DIAG" decode -q -o /tmp/picture.txt "$rec"
cost "decode --format perfetto" /tmp/picture.pftrace \
	"$MLX5_DIAG" decode -q --format perfetto -o /tmp/picture.pftrace "$rec"
cost "plot PNG" /tmp/picture.png \
	"$MLX5_DIAG" plot -q -o /tmp/picture.png "$rec"
cost "plot PNG --cpus --metrics" /tmp/picture.cpus.png \
	"$MLX5_DIAG" plot -q --cpus --metrics -o /tmp/picture.cpus.png "$rec"
cost "plot SVG" /tmp/picture.svg \
	"$MLX5_DIAG" plot -q -o /tmp/picture.svg "$rec"
cost "plot PDF" /tmp/picture.pdf \
	"$MLX5_DIAG" plot -q -o /tmp/picture.pdf "$rec"
rm -f "$rec" /tmp/picture.*
