#!/bin/sh
# mlx5-diag decode of the perf.data that the patched perf records
# (tools/perf-decoder/perf) gives exactly what perf script prints: the same
# (perf time, device, data ID, value, seq) tuples as perf script --ns, in
# file mode, pipe mode and with two devices; and of a snapshot recording
# (perf record -S), the same device samples as perf script --itrace=i, the
# whole 64 KiB area (not one chunk), contiguous up to the last sample taken
# and equal to the emulator's model. Each file is recorded once and each
# perf script run once (they are slow under TCG).
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
RXB=0x1020000100000000		# port_rx_bytes,port=0: decode's port_0_rx_bytes
HITS=0x1180000200000000		# icmc_hits: decode's global_icmc_hit

# perf_values: "TIME PMU ID VALUE SEQ" per mlx5_diag line of perf script
# --ns on stdin (the event's name gives the data ID), sorted
perf_values() {
	sed -n 's/.* \([0-9][0-9]*\.[0-9]*\): *mlx5_diag: \([^/]*\)\/\([^,/]*\)[^/]*\/ = \([0-9]*\) seq \([0-9]*\) *$/\1 \2 \3 \4 \5/p' |
		sed "s/ port_rx_bytes / $RXB /; s/ icmc_hits / $HITS /" | sort
}

# decode_values FILE: the same tuples from mlx5-diag decode --timeline of
# FILE, whose sample lines name each stream's PMU:
#   PMU - [CPU] TIME[~]: IDENTIFIER sample: run R seq S dev D NAME=VALUE...
decode_values() {
	"$MLX5_DIAG" decode -q --timeline "$1" | awk -v rxb=$RXB -v hits=$HITS '
		$6 == "sample:" {
			t = $4; sub(/:$/, "", t); sub(/~$/, "", t)
			for (i = 13; i <= NF; i++) {
				split($i, kv, "=")
				id = kv[1] == "port_0_rx_bytes" ? rxb :
				     kv[1] == "global_icmc_hit" ? hits : kv[1]
				print t, $1, id, kv[2], $10
			}
		}' | sort
}

# same_values NAME PERF-SCRIPT-OUTPUT FILE COUNT: the tuples of perf script
# and of mlx5-diag decode of FILE are the same COUNT
same_values() {
	perf_values <"$2" >/tmp/pd.perf
	decode_values "$3" >/tmp/pd.dec
	expect_eq "$1: $4 values in perf script" "$(wc -l </tmp/pd.perf)" "$4"
	if cmp -s /tmp/pd.perf /tmp/pd.dec; then
		ok "$1: mlx5-diag decode gives the same (time, device, id, value, seq)"
	else
		not_ok "$1: mlx5-diag decode gives the same (time, device, id, value, seq)"
		diff /tmp/pd.perf /tmp/pd.dec | head -10 | sed 's/^/# /'
	fi
}

# ---- file mode, with sched_switch ----
sim_manual 0
perf record -q -a -o /tmp/pd1.data -e sched:sched_switch -e "$(perf_group "$P0")" \
	-- sh -c "$(perf_steps 0 "$P0" 3 5)" 2>/tmp/pd1.err
expect_eq "perf record exits 0" "$?" 0
sed 's/^/# /' /tmp/pd1.err
perf script -i /tmp/pd1.data --ns >/tmp/pd1.out 2>/dev/null
same_values "file mode" /tmp/pd1.out /tmp/pd1.data 30
check "file mode: sched_switch lines too" grep -q 'sched:sched_switch:' /tmp/pd1.out
sim_running 0

# ---- pipe mode ----
sim_manual 0
perf record -q -a -o - -e sched:sched_switch -e "$(perf_group "$P0")" \
	-- sh -c "$(perf_steps 0 "$P0" 2 5)" 2>/dev/null >/tmp/pd2.pipe
perf script -i - --ns </tmp/pd2.pipe >/tmp/pd2.out 2>/dev/null
same_values "pipe mode" /tmp/pd2.out /tmp/pd2.pipe 20
sim_running 0

# ---- two devices, each its own PMU and CPU ----
sim_manual 0
sim_manual 1
perf record -q -a -o /tmp/pd3.data -e sched:sched_switch -e "$(perf_group "$P0")" \
	-e "$(perf_group "$P1")" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 1 $P1 >/tmp/grid.1 || exit 1
	$(perf_steps 0 "$P0" 2 4)
	step_samples 1 6" 2>/dev/null
perf script -i /tmp/pd3.data --ns >/tmp/pd3.out 2>/dev/null
same_values "two devices" /tmp/pd3.out /tmp/pd3.data 28
expect_eq "two devices: 12 values of $P1" "$(grep -c " $P1 " /tmp/pd.dec)" 12
sim_running 0
sim_running 1

# ---- snapshot mode: one snapshot of the whole 64 KiB area ----
# 2000 samples due at once (the firmware keeps 4096), all fetched; then
# the workload signals perf (its parent) to take the snapshot
sim_manual 0
perf record -q -a -S -m ,64K -o /tmp/pd4.data -e "$(perf_group "$P0")" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 0 $P0 >/tmp/grid.0 || exit 1
	step_samples 0 2000
	snapshot_taken /tmp/pd4.data" 2>/tmp/pd4.err
expect_eq "perf record -S exits 0" "$?" 0
sed 's/^/# /' /tmp/pd4.err
# "TIME PMU SEQ RXB HITS" per device sample
perf script -i /tmp/pd4.data --ns --itrace=i 2>/dev/null |
	sed -n 's/.* \([0-9][0-9]*\.[0-9]*\): *mlx5_diag_sample: \([^ ]*\) seq \([0-9]*\): port_rx_bytes[^ ]* = \([0-9]*\), icmc_hits = \([0-9]*\) *$/\1 \2 \3 \4 \5/p' \
	>/tmp/pd4.perf
"$MLX5_DIAG" decode --timeline -o /tmp/pd4.tl /tmp/pd4.data 2>/tmp/pd4.derr
expect_eq "decode of the snapshot exits 0" "$?" 0
sed 's/^/# /' /tmp/pd4.derr
awk '$6 == "sample:" { t = $4; sub(/:$/, "", t); sub(/~$/, "", t)
	split($13, a, "="); split($14, b, "=")
	print t, $1, $10, a[2], b[2] }' /tmp/pd4.tl >/tmp/pd4.dec
n=$(wc -l </tmp/pd4.perf)
expect_range "more than 900 samples in the 64 KiB snapshot" "$n" 901 2000
check "perf script --itrace=i and mlx5-diag decode give the same samples" \
	cmp -s /tmp/pd4.perf /tmp/pd4.dec
cmp -s /tmp/pd4.perf /tmp/pd4.dec || diff /tmp/pd4.perf /tmp/pd4.dec | head -10 | sed 's/^/# /'
expect_eq "the last sample is seq 1999" "$(tail -1 /tmp/pd4.dec | cut -d' ' -f3)" 1999
check "contiguous up to it" awk '
	NR > 1 && $3 != last + 1 { print "# seq " $3 " after " last; bad = 1 }
	{ last = $3 } END { exit bad || NR == 0 }' /tmp/pd4.dec
model() {
	cut -d' ' -f3- /tmp/pd4.dec | thinned | check_model_lines 0 cc "$RXB" "$HITS"
}
check "the values equal the model (thinned)" model
expect_eq "one snapshot, decoded from a chunk start" \
	"$(grep -c 'snapshot 1: 65536 bytes, decoded from its first chunk at byte' /tmp/pd4.derr)" 1
sim_running 0

exit $T_FAILED
