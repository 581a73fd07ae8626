#!/bin/sh
# Benchmark (not a test): what sampling costs and whether it keeps up. One
# recording of SECS s (default 60) at the device's minimum period with the
# most data IDs it samples at once (16; the firmware raises the period to
# 2^15 clocks for 16 counters), while the kernel workers' CPU time is read
# from their schedstat; against SECS/6 s with nothing open, and against the
# kernel's own copy of the same bytes (dd from a page-cache file to
# /dev/null: copy_to_user), all measured in this one run. The emulator's
# stats/ give what went over the command interface (inbox_bytes,
# outbox_bytes), how many commands per drain (commands against the
# engine/polls the drains count) and the CPU time the emulated firmware
# took inside the commands (exec_ns), which the driver's own cost leaves
# out.
#   scripts/vm-run selftests/mlx5_diag/bench/sampling_cost.sh [SECS]
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

SECS=${1:-60}
P=$(pmu_of_sim 0)


IDLE=$((SECS / 6))
w0=$(worker_ns)
sleep $IDLE
idle=$(( ($(worker_ns) - w0) * SECS / IDLE ))

EVS=$(max_ids_events)
D=$SIM/dev0
in0=$(cat "$D/stats/inbox_bytes")
out0=$(cat "$D/stats/outbox_bytes")
fw0=$(cat "$D/stats/exec_ns")
cmds0=$(cat "$D/stats/commands")
drains0=$(eng "$P" polls)
w0=$(worker_ns)
# shellcheck disable=SC2086
mlx5-diag record -q -d sim:0 -o /tmp/bench.data -p 1ns --duration "${SECS}s" $EVS
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
per=$((extra / (samples > 0 ? samples : 1)))
own=$(((extra - fw) / (samples > 0 ? samples : 1)))
# a firmware entry: 32 bytes in the 64-bit dialect, 16 in the public one
entry=32
[ "$(cat "$D/profile")" = public ] && entry=16
nids=$(echo "$EVS" | grep -o -- '-e' | wc -l)

# the kernel copying the same number of bytes, 64 times over
dd if=/dev/urandom of=/tmp/bench.copy bs=1M count=8 2>/dev/null
reps=$(( bytes * 64 / 8388608 + 1 ))
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt "$reps" ]; do
	dd if=/tmp/bench.copy of=/dev/null bs=1M 2>/dev/null
	i=$((i + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
copy_ns_per_byte=$(awk -v a="$t0" -v b="$t1" -v n="$reps" 'BEGIN { printf "%.4f", (b - a) * 1e9 / (n * 8388608) }')
sample_bytes=$((bytes / (samples > 0 ? samples : 1)))

echo "# $SECS s at the minimum period with $nids data IDs:" \
     "$(grep -o '"period_ns":[0-9]*' /tmp/bench.json | head -1)"
echo "samples: $samples delivered, $lost lost"
echo "command interface: $cmd_bytes bytes (inbox + outbox)," \
     "$((cmd_bytes / (samples > 0 ? samples : 1))) per delivered sample," \
     "whose entries are $((nids * entry)) bytes: ratio" \
     "$(awk -v c="$cmd_bytes" -v s="$samples" -v e="$((nids * entry))" 'BEGIN { printf "%.3f", s ? c / (s * e) : 0 }')"
echo "drains: $drains, $cmds commands:" \
     "$(awk -v c="$cmds" -v d="$drains" 'BEGIN { printf "%.2f", d ? c / d : 0 }') per drain"
echo "workers: $((extra / 1000)) us above idle in ${SECS} s" \
     "($(awk -v e="$extra" -v s="$SECS" 'BEGIN { printf "%.2f", e / (s * 1e7) }') % of one CPU)," \
     "$per ns per sample; the emulated firmware $((fw / 1000)) us of it"
echo "copy: $copy_ns_per_byte ns per byte; a sample is $sample_bytes bytes of recording:" \
     "drain/copy ratio $(awk -v p="$per" -v c="$copy_ns_per_byte" -v b="$sample_bytes" 'BEGIN { printf "%.1f", p / (c * b) }')"
echo "driver: $own ns per sample (workers minus emulated firmware):" \
     "driver/copy ratio $(awk -v p="$own" -v c="$copy_ns_per_byte" -v b="$sample_bytes" 'BEGIN { printf "%.1f", p / (c * b) }')"
