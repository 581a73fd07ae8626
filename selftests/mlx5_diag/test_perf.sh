#!/bin/sh
# perf record / perf script / perf report -D with the patched perf
# (tools/perf-decoder/perf): device values are synthesized samples, merged
# by time with sched:sched_switch, exactly the emulator's model on its
# manual clock; pipe mode; firmware loss in perf's lost-sample accounting;
# two devices in one recording; corrupted AUX data gives an error line;
# perf stat -M and perf list metric of the derived metrics (patch 0006).
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
D0=$SIM/dev0
RXB=0x1020000100000000		# port_rx_bytes,port=0
HITS=0x1180000200000000		# icmc_hits

# samples FILE PMU [SCRIPT OPTIONS]: "SEQ V1 V2 ..." per device sample of
# PMU, from perf script --itrace=i
samples() {
	f=$1 pmu=$2
	shift 2
	perf script -i "$f" --itrace=i --ns "$@" 2>/dev/null |
		sed -n "s/.*mlx5_diag_sample: $pmu seq \([0-9]*\):\(.*\)/\1 \2/p" |
		awk '{ line = $1
		       for (i = 2; i <= NF; i++) if ($i == "=") { v = $(i + 1); sub(/,$/, "", v); line = line " " v }
		       print line }'
}

# model FILE PMU DEV: every device sample of PMU in FILE equals DEV's model
model() {
	samples "$1" "$2" | check_model_lines "$3" cc $RXB $HITS
}

# line_times FILE: the timestamp of every line of perf script --ns, with M for a
# device value line and S for a sched_switch one
line_times() {
	perf script -i "$1" --ns 2>/dev/null | awk '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t); break }
		  k = /mlx5_diag:/ ? "M" : /sched:sched_switch:/ ? "S" : "?"
		  print t, k }'
}

# ---- interleaved with sched_switch, exact, none missing ----
sim_manual 0
perf record -q -a -o /tmp/perf1.data -e sched:sched_switch -e "$(perf_group "$P0")" \
	-- sh -c "$(perf_steps 0 "$P0" 4 5)" 2>/tmp/perf1.err
expect_eq "perf record exits 0" "$?" 0
expect_eq "20 device samples, seq 0..19" \
	"$(samples /tmp/perf1.data "$P0" | awk '{ s = s $1 " " } END { print s }')" \
	"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
check "every value equals the model" model /tmp/perf1.data "$P0" 0
expect_eq "one mlx5_diag line per value (--itrace=o, the default)" \
	"$(perf script -i /tmp/perf1.data 2>/dev/null | grep -c ' mlx5_diag: ')" 40
line_times /tmp/perf1.data >/tmp/perf1.times
check "every line in timestamp order" sh -c \
	"cut -d' ' -f1 /tmp/perf1.times | sort -c -n"
expect_eq "no line without a timestamp or kind" "$(grep -c '?' /tmp/perf1.times)" 0
# the device values come in (at least) 4 blocks, sched_switch lines between
expect_range "values interleave with sched_switch" \
	"$(awk '{ if ($2 == "M" && prev != "M") n++; prev = $2 } END { print n + 0 }' /tmp/perf1.times)" 4 40
expect_eq "the value lines name the event and its value" \
	"$(perf script -i /tmp/perf1.data 2>/dev/null | grep ' mlx5_diag: ' | head -2 |
	   sed 's/.*mlx5_diag: //; s/ = [0-9]* / = V /')" \
	"$P0/port_rx_bytes,port=0,period_ns=100000/ = V seq 0 
$P0/icmc_hits/ = V seq 0 "
expect_eq "-F selects fields as for other synthesized events" \
	"$(perf script -i /tmp/perf1.data -F synth:cpu,event,synth 2>/dev/null |
	   grep -m1 ' mlx5_diag: ' | sed 's/ = [0-9]*/ = V/; s/  */ /g')" \
	"[000] mlx5_diag: $P0/port_rx_bytes,port=0,period_ns=100000/ = V seq 0 "

# ---- perf inject --itrace: the synthesized samples written to a file ----
perf inject --itrace=i -i /tmp/perf1.data -o /tmp/perf1.inj 2>/dev/null
expect_eq "perf inject --itrace=i exits 0" "$?" 0
expect_eq "the injected file has the same device samples" \
	"$(perf script -i /tmp/perf1.inj --ns 2>/dev/null |
	   sed -n "s/.*mlx5_diag_sample: //p" | md5sum)" \
	"$(perf script -i /tmp/perf1.data --itrace=i --ns 2>/dev/null |
	   sed -n "s/.*mlx5_diag_sample: //p" | md5sum)"
expect_eq "... 20 of them" \
	"$(perf script -i /tmp/perf1.inj 2>/dev/null | grep -c "mlx5_diag_sample: $P0 seq")" 20

# ---- perf report -D: every record, readably ----
perf report -D -i /tmp/perf1.data >/tmp/perf1.dump 2>&1
expect_eq "report -D shows the session" \
	"$(grep -c '^\.  [0-9a-f]*: SESSION' /tmp/perf1.dump)" 1
expect_eq "report -D shows every value, in the library's words" \
	"$(grep -c '^\.   VALUE run [0-9]* seq [0-9]* id 0x[0-9a-f]* value ' /tmp/perf1.dump)" 40
expect_eq "report -D describes the session, its clock and buffer" \
	"$(grep -c '^\.   SESSION run [0-9]* .* data IDs, 2^[0-9]* clocks per period, buffer 2^[0-9]* samples$' /tmp/perf1.dump)" 1
check "report -D shows TIME and SAMPLES records" sh -c \
	"grep -q '^\.  [0-9a-f]*: TIME ' /tmp/perf1.dump && grep -q '^\.  [0-9a-f]*: SAMPLES ' /tmp/perf1.dump"
expect_eq "report -D decodes without an error" "$(grep -c '^\. error' /tmp/perf1.dump)" 0
sim_running 0

# ---- pipe mode ----
sim_manual 0
perf record -q -a -o - -e sched:sched_switch -e "$(perf_group "$P0")" \
	-- sh -c "$(perf_steps 0 "$P0" 2 5)" 2>/dev/null >/tmp/perf2.pipe
expect_eq "pipe mode: 10 device samples" \
	"$(samples - "$P0" </tmp/perf2.pipe | wc -l)" 10
check "pipe mode: every value equals the model" model - "$P0" 0 </tmp/perf2.pipe
check "pipe mode: sched_switch lines too" sh -c \
	"$PERF_BIN script -i - </tmp/perf2.pipe 2>/dev/null | grep -q 'sched:sched_switch:'"
sim_running 0

# ---- two devices in one recording ----
sim_manual 0
sim_manual 1
perf record -q -a -o /tmp/perf3.data -e sched:sched_switch -e "$(perf_group "$P0")" \
	-e "$(perf_group "$P1")" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 1 $P1 >/tmp/grid.1 || exit 1
	$(perf_steps 0 "$P0" 2 4)
	step_samples 1 6" 2>/dev/null
expect_eq "two devices: 8 samples of $P0" "$(samples /tmp/perf3.data "$P0" | wc -l)" 8
expect_eq "two devices: 6 samples of $P1" "$(samples /tmp/perf3.data "$P1" | wc -l)" 6
check "two devices: $P0 equals its model" model /tmp/perf3.data "$P0" 0
check "two devices: $P1 equals its model" model /tmp/perf3.data "$P1" 1
sim_running 0
sim_running 1

# ---- firmware loss: counted as lost samples, and an error line ----
# a buffer of 2^8 values: 128 samples of the 2 ids
echo 8 >"$D0/caps/log_max_samples"
sim_readd 0
P0=$(pmu_of_sim 0)
sim_manual 0
perf record -q -a -o /tmp/perf4.data -e "$(perf_group "$P0")" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 0 $P0 >/tmp/grid.0 || exit 1
	step_samples 0 5
	echo 300 >$D0/stall_ms
	step_samples 0 400" 2>/dev/null
over=$(cat $D0/stats/samples_overwritten)
diag "overwritten by the emulator: $over"
check "the firmware overwrote samples" test "$over" -gt 0
perf script -i /tmp/perf4.data --itrace=ie >/tmp/perf4.out 2>&1
expect_eq "the error lines count the emulator's overwritten samples" \
	"$(sed -n 's/.*: lost \([0-9]*\) from seq [0-9]* (fw_overwrite).*/\1/p' /tmp/perf4.out |
	   awk '{ n += $1 } END { print n + 0 }')" "$over"
expect_eq "samples + lost = produced" \
	"$(( $(grep -c 'mlx5_diag_sample:' /tmp/perf4.out) + over ))" \
	"$(cat $D0/stats/samples_produced)"
expect_eq "perf's lost-sample accounting has them" \
	"$(perf report -i /tmp/perf4.data --stdio 2>/dev/null |
	   sed -n 's/^# Total Lost Samples: //p')" "$over"
sim_running 0
echo 13 >"$D0/caps/log_max_samples"
sim_readd 0
P0=$(pmu_of_sim 0)

# ---- flight recorder: perf record -S keeps the newest samples, SIGUSR2 ----
# 2000 samples of about 50 bytes overwrite a 64 KiB area; the snapshot
# decodes on its own from its first chunk to the last sample taken
sim_manual 0
perf record -q -a -S -m ,64K -o /tmp/perf6.data -e "$(perf_group "$P0")" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 0 $P0 >/tmp/grid.0 || exit 1
	step_samples 0 2000
	snapshot_taken /tmp/perf6.data" 2>/tmp/perf6.err
expect_eq "snapshot: perf record exits 0" "$?" 0
sed 's/^/# /' /tmp/perf6.err
samples /tmp/perf6.data "$P0" >/tmp/perf6.samples
first=$(head -1 /tmp/perf6.samples | cut -d' ' -f1)
diag "snapshot: samples $first..$(tail -1 /tmp/perf6.samples | cut -d' ' -f1)"
expect_eq "snapshot: it ends with the last sample taken" \
	"$(tail -1 /tmp/perf6.samples | cut -d' ' -f1)" 1999
expect_eq "snapshot: the samples in it are contiguous" \
	"$(awk -v f="$first" '$1 != f + NR - 1 { bad++ } END { print bad + 0 }' /tmp/perf6.samples)" 0
expect_range "snapshot: the whole area decodes, not one chunk (samples)" \
	"$(wc -l </tmp/perf6.samples)" 900 2000
snapshot_model() { thinned </tmp/perf6.samples | check_model_lines 0 cc $RXB $HITS; }
check "snapshot: the values equal the model (thinned)" snapshot_model
expect_eq "snapshot: no error line" \
	"$(perf script -i /tmp/perf6.data 2>&1 | grep -c 'error type')" 0
check "snapshot: report -D says snapshot mode" sh -c \
	"$PERF_BIN report -D -i /tmp/perf6.data 2>/dev/null | grep -q '^  Snapshot mode      1'"
sim_running 0

# ---- corrupted AUX data: an error line, never a crash ----
# the first AUXTRACE event's data starts 48 bytes after its header: make
# its first record's type unknown
off=$(perf report -D -i /tmp/perf1.data 2>/dev/null |
	sed -n 's/^\(0x[0-9a-f]*\)@.*: event: 71$/\1/p' | head -1)
cp /tmp/perf1.data /tmp/perf5.data
printf '\377\377' | dd of=/tmp/perf5.data bs=1 seek=$((off + 48)) conv=notrunc 2>/dev/null
perf script -i /tmp/perf5.data >/tmp/perf5.out 2>/tmp/perf5.err
rc=$?
check "perf script on corrupted AUX data is not killed by a signal ($rc)" test "$rc" -lt 128
check "an error line in the output" grep -q "$P0: bad data at offset 0" /tmp/perf5.out
check "the decoder's message on stderr" grep -q "unknown record type" /tmp/perf5.err
expect_eq "the other events still print" \
	"$(grep -c 'sched:sched_switch:' /tmp/perf5.out)" \
	"$(perf script -i /tmp/perf1.data 2>/dev/null | grep -c 'sched:sched_switch:')"

# ---- perf stat -M: the metrics of patch 0006 (mlx5-diag/metrics.def) ----
# Both devices frozen, sim:0 stepped by MSTEP and sim:1 by twice that. perf
# opens a metric's events on both PMUs and computes it on their sums: a
# ratio is exactly the two models' sums divided, as perf prints it (%f). A
# rate is checked in interval mode (-I $MI): there perf divides each
# interval's count by the interval as given, $MI ms (builtin-stat.c
# process_interval()), where a whole run's rate divides by a wall time no
# test can know (t1 - t0: from enabling the events to the workload's end;
# the duration_time counter starts earlier, when it is opened). Each
# interval's rate is its count per $MI ms as perf prints it (%f), and the
# intervals' counts add up to the models' sum: the workload sleeps 1 s
# after the last step, so two interval ends come after it.
MSTEP=25000000
MI=400
ACC=0x1180000100000000		# icmc_accesses
MISS=0x1180000300000000		# icmc_misses

# mvalue OUT NAME: metric NAME's value in perf stat -j output OUT
mvalue() {
	echo "$1" | grep -F " $2\"" |
		sed -n 's/.*"metric-value" : "\([^"]*\)".*/\1/p' | head -1
}

# both ID: the two devices' models over their steps, summed
both() {
	echo $(($(sim_model 0 "$1" 0 $MSTEP) + $(sim_model 1 "$1" 0 $((2 * MSTEP)))))
}

# ratio_is OUT NAME ID ID2: metric NAME is both ID / both ID2
ratio_is() {
	expect_eq "perf stat -M $2: the models' ratio" "$(mvalue "$1" "$2")" \
		"$(awk -v n="$(both "$3")" -v d="$(both "$4")" 'BEGIN { printf "%f", n / d }')"
}

# rate_is OUT NAME ID SCALE: in every interval of OUT, metric NAME is the
# interval's count of both ID per second of $MI ms, times SCALE, as perf
# prints it; the intervals' counts add up to both ID
rate_is() {
	lines=$(echo "$1" | grep -F " $2\"")
	c=$(both "$3")
	sum=$(echo "$lines" | awk '{ v = $0; sub(/.*"counter-value" : "/, "", v)
		sub(/\..*/, "", v); s += v } END { printf "%.0f", s }')
	expect_eq "perf stat -M $2: its event counted the models' sum in intervals" \
		"$sum" "$c"
	bad=$(echo "$lines" | awk -v t=$((MI * 1000000)) -v s="$4" '
		{ v = $0; sub(/.*"counter-value" : "/, "", v); sub(/".*/, "", v)
		  m = $0; sub(/.*"metric-value" : "/, "", m); sub(/".*/, "", m)
		  w = sprintf("%f", v / (t * 1e-9) * s); n++
		  if (m != w) print "interval " n ": count " v ", rate " m ", want " w }
		END { if (n < 2) print "intervals: " n }')
	check "perf stat -M $2: each interval's count per second ($bad)" test -z "$bad"
	# what perf printed, its running times with it
	[ -z "$bad" ] && [ "$sum" = "$c" ] || echo "$1" | sed 's/^/# /'
}

# rates_stepped METRICS: metrics_stepped in $MI ms intervals, 1 s after
rates_stepped() {
	stat_stepped -I $MI -T 1 -M "$1" 0:$MSTEP 1:$((2 * MSTEP))
}

# metrics_stepped METRICS: perf stat -j -M METRICS over the two steps
metrics_stepped() {
	stat_stepped -M "$1" 0:$MSTEP 1:$((2 * MSTEP))
}

# The ICMC metrics one perf stat each: they share icmc_accesses, and perf
# 6.12 sums an event of one metric's group with the same event of every
# later group on another PMU (util/stat.c, evsel__merge_aliases()), which
# counts a device twice when two metrics of one perf stat share an event.
out=$(metrics_stepped mlx5_diag_global_icmc_hit_rate)
ratio_is "$out" mlx5_diag_global_icmc_hit_rate $HITS $ACC
[ -n "$(mvalue "$out" mlx5_diag_global_icmc_hit_rate)" ] ||
	echo "$out" | sed 's/^/# /'	# what perf printed instead
out=$(metrics_stepped mlx5_diag_global_icmc_miss_rate)
ratio_is "$out" mlx5_diag_global_icmc_miss_rate $MISS $ACC
out=$(rates_stepped mlx5_diag_global_icmc_accesses_per_s)
rate_is "$out" mlx5_diag_global_icmc_accesses_per_s $ACC 1

out=$(metrics_stepped mlx5_diag_pcie_000000_avg_read_latency_ns,mlx5_diag_pcie_000001_avg_read_latency_ns)
for l in 0 1; do
	ratio_is "$out" mlx5_diag_pcie_00000${l}_avg_read_latency_ns \
		0x1160000b0000000$l 0x1160000c0000000$l
done

m=""
for p in 0 1; do
	for d in rx tx; do
		m="$m,mlx5_diag_port_${p}_${d}_bytes_GBps,mlx5_diag_port_${p}_${d}_packets_per_s"
	done
done
out=$(rates_stepped "${m#,}")
for p in 0 1; do
	rate_is "$out" mlx5_diag_port_${p}_rx_bytes_GBps 0x102000010000000$p 1e-9
	rate_is "$out" mlx5_diag_port_${p}_tx_bytes_GBps 0x114000010000000$p 1e-9
	rate_is "$out" mlx5_diag_port_${p}_rx_packets_per_s 0x102000030000000$p 1
	rate_is "$out" mlx5_diag_port_${p}_tx_packets_per_s 0x114000030000000$p 1
done

# every priority of a port in one perf stat: 16 events, max_data_ids (port
# 1: its instance has both the port's and the priority's bits)
m=""
for q in 0 1 2 3 4 5 6 7; do
	m="$m,mlx5_diag_port_1_prio_${q}_rx_bytes_GBps,mlx5_diag_port_1_prio_${q}_tx_bytes_GBps"
done
out=$(rates_stepped "${m#,}")
for q in 0 1 2 3 4 5 6 7; do
	inst=$(printf %08x $((q << 8 | 1)))
	rate_is "$out" mlx5_diag_port_1_prio_${q}_rx_bytes_GBps "0x10200002$inst" 1e-9
	rate_is "$out" mlx5_diag_port_1_prio_${q}_tx_bytes_GBps "0x11400002$inst" 1e-9
done
sim_running 0
sim_running 1

# ---- perf list metric: the metrics of patch 0006 (mlx5-diag/metrics.def) ----
# perf offers them on PMUs whose identifier matches their Compat (model64)
list=$(perf list metric 2>&1)
expect_eq "perf list metric shows the 45 mlx5_diag metrics" \
	"$(echo "$list" | grep -oE 'mlx5_diag_(global|port|pcie)_[A-Za-z0-9_]+' | sort -u | wc -l)" 45
check "with their descriptions" sh -c \
	"echo \"\$1\" | grep -qF 'ICM cache hits per access: global'" - "$list"

exit $T_FAILED
