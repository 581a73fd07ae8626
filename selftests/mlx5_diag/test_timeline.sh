#!/bin/sh
# mlx5-diag record --tracepoint sched:sched_switch records the tracepoint on
# every CPU in the session's file; decode --timeline lists mlx5 samples and
# sched_switch events in one perf-time order: with the emulator's manual
# clock moved one period at a time and a sleep between the steps, a switch
# lies between every two samples, and every value equals the traffic model.
# The timeline of a stock perf record of sched_switch (file and pipe mode)
# prints the same events as perf script --ns.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

rec=/tmp/tl.data
IDS="0x1180000200000000 0x1180000100000000"
rm -f "$rec"

sim_manual 0
out=$(timeout 120 "$MLX5_DIAG" record -d sim:0 --tracepoint sched:sched_switch \
	-e icmc_hits -e icmc_accesses -p 1ms -o "$rec" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 0 $(pmu_of_sim 0) >/tmp/grid.0 || exit 1
	for j in 1 2 3 4 5 6 7 8 9 10; do step_samples 0 1; sleep 0.05; done" 2>&1)
expect_eq "record --tracepoint exits 0" "$?" 0
echo "$out" | sed 's/^/# /'
ntp=$(echo "$out" | sed -n 's/^mlx5-diag: \([0-9]*\) tracepoint events, 0 lost$/\1/p')
expect_range "record counts the sched_switch events, none lost" "${ntp:-0}" 10 10000000

"$MLX5_DIAG" decode -q --timeline -o /tmp/tl.txt "$rec"
expect_eq "decode --timeline exits 0" "$?" 0
sed -n '1,12p' /tmp/tl.txt | sed 's/^/# /'
expect_eq "10 mlx5 samples" "$(grep -c ' sim:0 sample: run 0 seq ' /tmp/tl.txt)" 10
expect_eq "as many sched_switch lines as recorded" \
	"$(grep -c ': sched:sched_switch: prev_comm=' /tmp/tl.txt)" "$ntp"
# times compared as text, seconds padded (busybox awk reads "0123" as octal)
check "every line in perf time order" awk '
	{ if (!match($0, /\] +[0-9]+\.[0-9]+/)) { print "no time: " $0; exit 1 }
	  t = substr($0, RSTART, RLENGTH); sub(/^\] +/, "", t)
	  split(t, p, "."); key = sprintf("%12s.%s", p[1], p[2])
	  if (key < last) { print "out of order: " prev; print "then: " $0; exit 1 }
	  last = key; prev = $0 }' /tmp/tl.txt
# a sample is fetched (its perf time) at each step, and a sleep lies between
check "a sched_switch between every two samples" awk '
	/ sim:0 sample: / { if (seen && !sw) { print "none before " $0; bad = 1 }
			    seen = 1; sw = 0; next }
	/sched:sched_switch/ { sw = 1 }
	END { exit bad }' /tmp/tl.txt
check "the workload's sleep switches out" grep -q 'prev_comm=sleep prev_pid=' /tmp/tl.txt
# names and tids: the task switched out is the sample's (a dead one: -1);
# sleep, forked by sh during the recording, has its exec's name (FORK, then
# COMM), or none after its exit (":PID", or ":-1" for a sample of a dead
# task, whose tid is -1: as perf script); that stock perf prints
# the same lines from the same records is checked on perf.data below
norm() { sed 's/^ *//; s/  */ /g'; }
grep ': sched:sched_switch: ' /tmp/tl.txt | norm >/tmp/tl.sw
check "the tid column is the switched-out task's" awk '
	{ match($0, /prev_pid=[0-9]+/); pid = substr($0, RSTART + 9, RLENGTH - 9)
	  if ($2 != pid && $2 != -1) { print "# " $0; bad = 1 } }
	END { exit bad }' /tmp/tl.sw
check "sleep's switches carry its exec's name, or none after its exit" awk '
	/prev_comm=sleep / { match($0, /prev_pid=[0-9]+/)
		pid = substr($0, RSTART + 9, RLENGTH - 9)
		if ($1 == "sleep") named++
		else if ($1 != ":" pid && !($1 == ":-1" && $2 == -1)) {
			print "# " $0; bad = 1 } }
	END { if (!named) print "# no line names sleep"; exit bad || !named }' /tmp/tl.sw

# the samples of the timeline are those of the text decode, same perf times
"$MLX5_DIAG" decode -q "$rec" | awk '/^0 / { t = $3; sub(/~$/, "", t)
	printf "%s %s", $2, t; for (i = 5; i <= NF; i++) printf " %s", $i; print "" }' \
	>/tmp/tl.text
awk '/ sim:0 sample: / { match($0, /\] +[0-9]+\.[0-9]+/)
	t = substr($0, RSTART, RLENGTH); sub(/^\] +/, "", t)
	sub(/.* sim:0 sample: run 0 seq /, ""); seq = $1
	printf "%s %s", seq, t; for (i = 4; i <= NF; i++) printf " %s", $i; print "" }' \
	/tmp/tl.txt >/tmp/tl.samples
check "timeline samples equal the text decode (values, perf times)" \
	cmp -s /tmp/tl.text /tmp/tl.samples
[ -s /tmp/tl.text ] || diag "no samples in the text decode"
cmp -s /tmp/tl.text /tmp/tl.samples || diff /tmp/tl.text /tmp/tl.samples | sed 's/^/# /'
check "every value equals the model" check_model 0 "$rec" cc $IDS
sim_running 0

out=$("$MLX5_DIAG" record -d sim:0 -e icmc_hits -q -o /tmp/x.data \
	--tracepoint nosuch:event --duration 1 2>&1)
expect_eq "an unknown tracepoint exits 7" "$?" 7
check "naming it" sh -c "echo \"\$1\" | grep -q 'no tracepoint nosuch:event: '" - "$out"

# stock perf: sched_switch on every CPU, the timeline against perf script
perf record -q -e sched:sched_switch -a -o /tmp/p.data -- sleep 0.3 2>/dev/null
expect_eq "perf record (file mode) exits 0" "$?" 0
"$MLX5_DIAG" decode -q --timeline -o /tmp/p.txt /tmp/p.data
expect_eq "decode --timeline of perf.data exits 0" "$?" 0
perf script --ns -i /tmp/p.data 2>/dev/null | norm | sort >/tmp/p.script
norm </tmp/p.txt | sort >/tmp/p.mine
expect_range "perf.data: sched_switch events" "$(wc -l </tmp/p.mine)" 1 10000000
check "perf.data: the same lines as perf script --ns" cmp -s /tmp/p.script /tmp/p.mine
cmp -s /tmp/p.script /tmp/p.mine || diff /tmp/p.script /tmp/p.mine | head -20 | sed 's/^/# /'

perf record -q -e sched:sched_switch -a -o - -- sleep 0.3 >/tmp/pp.data 2>/dev/null
expect_eq "perf record -o - (pipe mode) exits 0" "$?" 0
cat /tmp/pp.data | "$MLX5_DIAG" decode -q --timeline - >/tmp/pp.txt
expect_eq "decode --timeline - of a pipe exits 0" "$?" 0
perf script --ns -i /tmp/pp.data 2>/dev/null | norm | sort >/tmp/pp.script
norm </tmp/pp.txt | sort >/tmp/pp.mine
expect_range "pipe: sched_switch events" "$(wc -l </tmp/pp.mine)" 1 10000000
check "pipe: the same lines as perf script --ns" cmp -s /tmp/pp.script /tmp/pp.mine
cmp -s /tmp/pp.script /tmp/pp.mine || diff /tmp/pp.script /tmp/pp.mine | head -20 | sed 's/^/# /'

exit $T_FAILED
