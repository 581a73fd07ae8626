#!/bin/sh
# Benchmark (not a test): what sampling costs and whether it keeps up. A
# recording of SECS s (default 60) at the device's minimum period with the
# most data IDs it samples at once (16; the firmware raises the period to
# 2^15 clocks for 16 counters), while the kernel workers' CPU time is read
# from their schedstat; against SECS/6 s with nothing open, and against
# copies of the same bytes, by the kernel (dd of the recording to
# /dev/null: copy_to_user) and by memcpy(), all measured in this one
# run. The emulator's stats/ give what went over the command interface
# (inbox_bytes, outbox_bytes), how many commands per drain (commands
# against the engine/polls the drains count) and the CPU time the
# workers spent inside the emulator's commands (exec_ns: its firmware,
# its lock and sleeping out its latency, as the schedstat the workers'
# time is read from counts it), which the driver's own cost leaves out.
# ROUNDS recordings (default 3), each against its own copies, then the
# median of each figure: on a shared host one recording is one draw (the
# same code read 4,436 to 6,200 ns per sample in four boots).
# Last, the driver's cost split into a part per drain and a part per
# sample: one more recording, at a period longer than the drain interval
# (each drain takes one sample or none), gives a second equation beside
# the median round's, own = PER_DRAIN * drains + PER_SAMPLE * samples. The
# split tells which lever a goal needs: the part per drain over the most
# samples one drain can take (the buffer's) is the floor no per-sample
# work removes. Then the pacing: an empty work as often as the drains (the
# emulator's debugfs pace) costs the workers what no drain paced so can
# spend less than; the driver's cost above it is its own work.
#   scripts/vm-run selftests/mlx5_diag/bench/sampling_cost.sh [SECS [ROUNDS]]
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SECS=${1:-60}
ROUNDS=${2:-3}
P=$(pmu_of_sim 0)

IDLE=$((SECS / 6))
w0=$(worker_ns)
sleep $IDLE
idle=$(( ($(worker_ns) - w0) * SECS / IDLE ))

EVS=$(max_ids_events)
D=$SIM/dev0
# a firmware entry: 32 bytes in the 64-bit dialect, 16 in the public one
entry=32
[ "$(cat "$D/profile")" = public ] && entry=16
nids=$(echo "$EVS" | grep -o -- '-e' | wc -l)

# ratio NS_PER_SAMPLE NS_PER_BYTE BYTES: a sample's cost over the copy of
# its BYTES
ratio() {
	awk -v p="$1" -v c="$2" -v b="$3" 'BEGIN { printf "%.1f", (c > 0 ? p / (c * b) : 0) }'
}

# record PERIOD: one recording of SECS s of the data IDs at PERIOD (an
# mlx5-diag record -p value), into /tmp/bench.data and its JSON decode;
# sets samples, lost, drains, cmds, cmd_bytes, bytes, fw (the emulated
# firmware's ns), extra (the workers' ns above idle) and own (extra less
# fw)
record() {
	in0=$(cat "$D/stats/inbox_bytes")
	out0=$(cat "$D/stats/outbox_bytes")
	fw0=$(cat "$D/stats/exec_ns")
	cmds0=$(cat "$D/stats/commands")
	drains0=$(eng "$P" polls)
	w0=$(worker_ns)
	# shellcheck disable=SC2086
	mlx5-diag record -q -d sim:0 -o /tmp/bench.data -p "$1" --duration "${SECS}s" $EVS
	busy=$(( $(worker_ns) - w0 ))
	fw=$(( $(cat "$D/stats/exec_ns") - fw0 ))
	cmd_bytes=$(( $(cat "$D/stats/inbox_bytes") - in0 + $(cat "$D/stats/outbox_bytes") - out0 ))
	cmds=$(( $(cat "$D/stats/commands") - cmds0 ))
	drains=$(( $(eng "$P" polls) - drains0 ))
	mlx5-diag decode -q --format json /tmp/bench.data >/tmp/bench.json
	samples=$(grep -c '"type":"sample"' /tmp/bench.json)
	lost=$(awk -F'"count":' '/"type":"lost"/ { split($2, a, ","); n += a[1] } END { print n + 0 }' /tmp/bench.json)
	bytes=$(stat -c %s /tmp/bench.data)
	extra=$((busy - idle))
	own=$((extra - fw))
}

# round K: one recording at the minimum period and its figures; appends
# "DRIVER_NS KERNEL_RATIO MEMCPY_RATIO OWN DRAINS SAMPLES SAMPLE_BYTES
# MEMCPY_NS_PER_BYTE" to /tmp/bench.rounds
round() {
	record 1ns
	# the counts to divide by: at least 1
	samples_div=$((samples > 0 ? samples : 1))
	drains_div=$((drains > 0 ? drains : 1))
	per=$((extra / samples_div))
	own_per=$((own / samples_div))

	# The same bytes copied, two ways. The kernel: one dd reads the
	# recording (in the page cache: copy_to_user from its pages), the
	# fastest of 8 reads (a dd per 8 MiB would time its exec too: half as
	# much again). User space: memcpy() (perf bench, glibc) of the
	# recording's bytes in pieces of one drain's bytes.
	kernel_ns=
	i=0
	while [ $i -lt 8 ]; do
		t0=$(cut -d' ' -f1 /proc/uptime)
		dd if=/tmp/bench.data of=/dev/null bs=64k 2>/dev/null
		t1=$(cut -d' ' -f1 /proc/uptime)
		kernel_ns=$(awk -v a="$t0" -v b="$t1" -v m="$kernel_ns" 'BEGIN {
			t = (b - a) * 1e9; print (m == "" || t < m) ? t : m }')
		i=$((i + 1))
	done
	copy_ns_per_byte=$(awk -v t="$kernel_ns" -v n="$bytes" 'BEGIN { printf "%.4f", t / n }')
	piece=$((bytes / drains_div))
	memcpy_bps=$(perf bench --format=simple mem memcpy -f default -s "$piece" \
		-l "$drains_div" | tail -1)
	memcpy_ns_per_byte=$(awk -v b="$memcpy_bps" 'BEGIN { printf "%.4f", (b > 0 ? 1e9 / b : 0) }')
	sample_bytes=$((bytes / samples_div))

	echo "# round $1: $SECS s at the minimum period with $nids data IDs:" \
	     "$(grep -o '"period_ns":[0-9]*' /tmp/bench.json | head -1)"
	echo "samples: $samples delivered, $lost lost"
	echo "command interface: $cmd_bytes bytes (inbox + outbox)," \
	     "$((cmd_bytes / samples_div)) per delivered sample," \
	     "whose entries are $((nids * entry)) bytes: ratio" \
	     "$(awk -v c="$cmd_bytes" -v s="$samples" -v e="$((nids * entry))" 'BEGIN { printf "%.3f", s ? c / (s * e) : 0 }')"
	echo "drains: $drains, $cmds commands:" \
	     "$(awk -v c="$cmds" -v d="$drains" 'BEGIN { printf "%.2f", d ? c / d : 0 }') per drain"
	echo "workers: $((extra / 1000)) us above idle in ${SECS} s" \
	     "($(awk -v e="$extra" -v s="$SECS" 'BEGIN { printf "%.2f", e / (s * 1e7) }') % of one CPU)," \
	     "$per ns per sample; the emulated firmware $((fw / 1000)) us of it"
	echo "copy: a sample is $sample_bytes bytes of recording; the kernel copies" \
	     "$copy_ns_per_byte ns per byte (dd of the recording), memcpy()" \
	     "$memcpy_ns_per_byte (pieces of $piece bytes)"
	echo "drain: $per ns per sample: $(ratio "$per" "$copy_ns_per_byte" "$sample_bytes") kernel" \
	     "copies, $(ratio "$per" "$memcpy_ns_per_byte" "$sample_bytes") memcpy()s"
	echo "driver: $own_per ns per sample (workers minus emulated firmware):" \
	     "$(ratio "$own_per" "$copy_ns_per_byte" "$sample_bytes") kernel copies," \
	     "$(ratio "$own_per" "$memcpy_ns_per_byte" "$sample_bytes") memcpy()s"
	echo "$own_per $(ratio "$own_per" "$copy_ns_per_byte" "$sample_bytes")" \
	     "$(ratio "$own_per" "$memcpy_ns_per_byte" "$sample_bytes")" \
	     "$own $drains $samples $sample_bytes $memcpy_ns_per_byte" >>/tmp/bench.rounds
}

: >/tmp/bench.rounds
k=1
while [ $k -le "$ROUNDS" ]; do
	round $k
	k=$((k + 1))
done
# median_row COLUMN: the round in the middle by COLUMN (the lower middle of
# an even number); median COLUMN: its value of COLUMN
median_row() {
	sort -n -k "$1" /tmp/bench.rounds | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2)'
}
median() {
	median_row "$1" | cut -d' ' -f"$1"
}
echo "median of $ROUNDS rounds: driver $(median 1) ns per sample," \
     "$(median 2) kernel copies, $(median 3) memcpy()s"

# The split. The median round by the driver's ns per sample, and a
# recording at 2^23 clocks (53.7 ms at 156.25 MHz; -p takes the nearest
# power of two), longer than the longest drain interval (32 ms).
median_row 1 >/tmp/bench.median
freq=$(cat "$D/caps/device_frequency_khz")
record "$(( (1 << 23) * 1000000 / freq ))ns"
echo "# split: $SECS s at $(grep -o '"period_ns":[0-9]*' /tmp/bench.json | head -1):" \
     "$samples samples, $lost lost in $drains drains; the driver" \
     "$((own / 1000)) us"
# The pacing: the emulator's paced empty work (its debugfs pace), as often
# as the median round's drains and on the leader's CPU, for SECS s: what
# the pacing alone costs the workers on this kernel and machine, which no
# drain paced so can spend less than.
d_med=$(cut -d' ' -f5 /tmp/bench.median)
interval=$((SECS * 1000000000 / (d_med > 0 ? d_med : 1)))
cpu=$(sed 's/[-,].*//' "/sys/bus/event_source/devices/$P/cpumask")
# The pace runs between the two reads of the workers' time, as a
# recording does: every work it counts, wake-up and sleep included, falls
# within both reads, however long a read takes (it walks every process:
# seconds in the debug kernel) and wherever in it the pace's worker is read.
w0=$(worker_ns)
echo "$interval $cpu" >"$SIM/pace"
sleep "$SECS"
echo stop >"$SIM/pace"
works=$(cat "$SIM/pace")
pace_busy=$(( $(worker_ns) - w0 ))
pace_ns=$(( (pace_busy - idle) / (works > 0 ? works : 1) ))
echo "# pacing: an empty work paced every $interval ns on CPU $cpu for $SECS s:" \
     "$works works, $((pace_busy - idle)) ns above idle, $pace_ns ns per work"
# the device's buffer at this many data IDs: 2^(log_max_samples -
# ceil(log2(IDs))) samples, 2^15 at most (the driver's and the format's)
log_ids=0
while [ $((1 << log_ids)) -lt "$nids" ]; do
	log_ids=$((log_ids + 1))
done
log_slots=$(($(cat "$D/caps/log_max_samples") - log_ids))
[ $log_slots -le 15 ] || log_slots=15
awk -v own2="$own" -v d2="$drains" -v s2="$samples" -v slots=$((1 << log_slots)) \
	-v pace="$pace_ns" '
	{ own1 = $4; d1 = $5; s1 = $6; b = $7; c = $8 }
	END {
		# own = F * drains + M * samples, two recordings
		det = d1 * s2 - d2 * s1
		if (det == 0 || s1 == 0 || c == 0) {
			print "split: the two recordings do not tell the parts apart"
			exit
		}
		f = (own1 * s2 - own2 * s1) / det
		m = (d1 * own2 - d2 * own1) / det
		mc = c * b
		printf "split: %.0f ns per drain, %.0f ns per sample (%.1f memcpy()s of a sample)\n", f, m, m / mc
		printf "per drain over the samples a drain took at the minimum period (%.1f): %.0f ns per sample, %.1f memcpy()s\n",
		       s1 / d1, f * d1 / s1, f * d1 / (s1 * mc)
		printf "floor, a drain of the whole buffer (%d samples): %.0f ns per sample, %.1f memcpy()s\n",
		       slots, f / slots + m, (f / slots + m) / mc
		printf "pacing, an empty work per drain at the minimum period: %.0f ns per sample, %.1f memcpy()s\n",
		       pace * d1 / s1, pace * d1 / (s1 * mc)
		printf "driver above the pacing: %.0f ns per drain, %.0f ns per sample, %.1f memcpy()s\n",
		       f - pace, (own1 - pace * d1) / s1, (own1 - pace * d1) / (s1 * mc)
	}' /tmp/bench.median
