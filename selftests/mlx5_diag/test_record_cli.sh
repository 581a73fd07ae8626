#!/bin/sh
# mlx5-diag record on the emulator with a manual clock: a session of two
# data IDs while the clock moves on exactly ten periods records exactly
# samples 0..9, which decode with the period that ran and counter increases
# equal to the traffic model's; mode, format, timestamp source and sync
# reach the device; samples that do not fit the AUX area are lost in-band
# and counted; SIGINT ends a recording cleanly; a session
# refused with EBUSY (counting open) exits 8 naming the cause; doca writes
# the sample's CSV, and -rs changes the period after the first run time.
. ./lib.sh
. ./engine_lib.sh

P=$(pmu_of_sim 0)
HITS=0x1180000200000000
rec=/tmp/rec.data
rm -f "$rec"

sim_manual 0
# the command (sh -c "$cmd" - N): once the session runs, move the clock on
# by N periods in whole clocks, whatever the phase earlier tests left the
# manual time in (sample j is due at E + (j + 1) * P), and wait until the
# driver drained them (step_samples)
cmd='. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
n=$1
sampling() { echo 0 2>/dev/null >"$SIM/dev0/sample_time"; }
wait_for sampling || exit 3
sample_grid 0 >/tmp/grid.0
step_samples 0 "$n" || exit 4'
out=$(timeout 120 mlx5-diag record -d sim:0 -e icmc_hits -e icmc_accesses -p 1ms \
	-o "$rec" -- sh -c "$cmd" - 10 2>&1)
rc=$?
expect_eq "record exits 0" "$rc" 0
[ "$rc" = 0 ] || echo "$out" | sed 's/^/# /'
check "the summary counts 10 samples" sh -c "echo \"\$1\" | grep -q '^mlx5-diag: 10 samples, 0 lost, 1 run'" - "$out"

pc=$(cut -d" " -f2 /tmp/grid.0 2>/dev/null)
dec=$(mlx5-diag decode -q "$rec" 2>&1)
expect_eq "decode exits 0" "$?" 0
{ echo "$out"; echo "$dec" | grep -v '^0 '; } | sed 's/^/# /'
samples=$(echo "$dec" | grep -E '^0 [0-9]+ ')
expect_eq "10 samples in run 0" "$(echo "$samples" | grep -c .)" 10
expect_eq "numbered 0..9" "$(echo "$samples" | cut -d' ' -f2 | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 8 9 "
period_ns=$(clocks_ns 0 "${pc:-0}")
check "SESSION: sim:0, two data IDs, the period that ran ($period_ns ns)" \
	sh -c "echo \"\$1\" | grep -q '^SESSION run 0 sim:0 .*, period $period_ns ns (requested 1000000), 2 data IDs'" - "$dec"
check "END: stopped after 10 samples" \
	sh -c "echo \"\$1\" | grep -q '^END run 0 after 10 samples: stopped'" - "$dec"
# icmc_hits is the first column: its increase from sample 0 to sample 9 is
# the model's over engine time [t0, t9], t_j = (j + 1) * P
v0=$(echo "$samples" | sed -n 1p | cut -d' ' -f5 | cut -d= -f2)
v9=$(echo "$samples" | sed -n 10p | cut -d' ' -f5 | cut -d= -f2)
want=$(sim_model 0 $HITS "$(clocks_ns 0 "${pc:-0}")" "$(clocks_ns 0 $((10 * ${pc:-0})))")
expect_range "the model counts hits over 9 periods" "$want" 1 1000000000000
expect_eq "icmc_hits rose by the model's count" "$((v9 - v0))" "$want"

# the session options reach the device: single mode, format 1, RTC, sync
rm -f "$rec"
out=$(timeout 120 mlx5-diag record -d sim:0 -e icmc_hits -e icmc_misses -p 1ms -m single \
	--format 1 --ts rtc --sync --clear -q -o "$rec" -- sh -c "$cmd" - 3 2>&1)
expect_eq "single, format 1, RTC, sync and clear: record exits 0" "$?" 0
[ -z "$out" ] || echo "$out" | sed "s/^/# /"
mlx5-diag decode -q -o /tmp/rec.txt "$rec"
expect_eq "and decodes" "$?" 0
check "SESSION: single format1 rtc" grep -qE '^SESSION run 0 sim:0 single format1 rtc, period' /tmp/rec.txt
expect_eq "3 samples" "$(grep -cE '^0 [0-9]+ ' /tmp/rec.txt)" 3

# an AUX area of 2 pages and 400 samples due at once: what does not fit is
# lost in-band (LOST, aux_full), counted, and no sample goes unaccounted
rm -f "$rec"
out=$(timeout 120 mlx5-diag record -d sim:0 -e icmc_hits -e icmc_misses -p 1ms -a 2 \
	-o "$rec" -- sh -c "$cmd" - 400 2>&1)
expect_eq "a small AUX area: record exits 0" "$?" 0
echo "$out" | sed 's/^/# /'
n=$(echo "$out" | sed -n 's/^mlx5-diag: \([0-9]*\) samples, \([0-9]*\) lost, .*/\1 \2/p')
expect_eq "samples and lost add up to 400" "$((${n% *} + ${n#* }))" 400
expect_range "some were lost" "${n#* }" 1 399
mlx5-diag decode -q -o /tmp/rec.txt "$rec"
expect_eq "and it decodes" "$?" 0
expect_eq "decoded samples as counted" "$(grep -cE '^0 [0-9]+ ' /tmp/rec.txt)" "${n% *}"
lost=$(sed -n 's/^LOST run 0 samples [0-9.]* (\([0-9]*\)): aux_full$/\1/p' /tmp/rec.txt |
	awk '{ s += $1 } END { print s + 0 }')
expect_eq "LOST aux_full records as counted" "$lost" "${n#* }"
sim_running 0

# no command: until SIGINT
rm -f "$rec"
mlx5-diag record -d sim:0 -e icmc_hits -p 1ms -q -o "$rec" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
expect_eq "record until SIGINT exits 0" "$?" 0
mlx5-diag decode -q -o /tmp/rec.txt "$rec"
expect_eq "and its recording decodes" "$?" 0
check "from sample 0" grep -qE '^0 0 ' /tmp/rec.txt
check "to an END record" grep -qE '^END run 0 after [1-9][0-9]* samples: stopped' /tmp/rec.txt

# counting holds the engine: the session is refused
count_until /tmp/busy.release "$P/icmc_misses/"
spid=$!
wait_state "$P" count
out=$(mlx5-diag record -d sim:0 -e icmc_hits -q -o /tmp/busy.data --duration 1 2>&1)
expect_eq "a session while counting exits 8" "$?" 8
check "naming EBUSY and who may hold the engine" \
	sh -c "echo \"\$1\" | grep -q 'Device or resource busy (EBUSY)' && echo \"\$1\" | grep -q 'counting (perf stat)'" - "$out"
check "no recording is left" test ! -e /tmp/busy.data
touch /tmp/busy.release
wait $spid

rm -f /tmp/x.data
out=$(mlx5-diag record -d sim:0 -e icmc_hits -q -o /tmp/x.data -- /nonexistent/cmd 2>&1)
expect_eq "a command that cannot run exits 9" "$?" 9
check "and says why" sh -c "echo \"\$1\" | grep -q 'cannot run /nonexistent/cmd: No such file'" - "$out"
check "and leaves no recording" test ! -e /tmp/x.data
out=$(mlx5-diag record -d sim:0 -e icmc_hits -q -o /nonexistent/x.data -- true 2>&1)
expect_eq "an output that cannot be written exits 6" "$?" 6
check "and names it" sh -c "echo \"\$1\" | grep -q 'cannot create /nonexistent/x.data'" - "$out"

# doca: the sample's default data IDs (port 0), format 1, RTC times
rm -f /tmp/out.csv
out=$(timeout 120 mlx5-diag doca -p sim:0 -rt 1 -ns 8 -o /tmp/out.csv 2>&1)
expect_eq "doca exits 0" "$?" 0
check "doca says -ns has no meaning here" sh -c "echo \"\$1\" | grep -q '^mlx5-diag doca: -ns 8: .*ignored'" - "$out"
expect_eq "doca CSV header" "$(head -1 /tmp/out.csv)" \
	"sample_id, sample_time_start, sample_time_end, port_0_rx_bytes, port_0_tx_bytes, port_0_rx_packets, port_0_tx_packets"
rows=$(grep -cE '^[0-9]+, 1[0-9]{9}\.[0-9]{9}, ' /tmp/out.csv)
expect_range "doca CSV rows with RTC times" "$rows" 1 100000

# doca -rs: after -rt, the period changes (2^15 clocks for 2^14) and as long
# again: sample times step by the first period, then by the second. Rows
# the firmware overwrote before the drain read them (a slow host) are
# missing, so the steps are taken between consecutive sample ids.
rm -f /tmp/out.csv
timeout 120 mlx5-diag doca -p sim:0 -rt 1 -sp 104858 -rs 209716 -o /tmp/out.csv
expect_eq "doca -rs exits 0" "$?" 0
# step first|last: ns between the starts (RTC SECONDS.NANOSECONDS) of the
# first or the last two rows whose sample ids follow each other. The
# nanoseconds lose their leading zeros first: busybox awk reads a number
# with a leading 0 as octal ("000123456" + 0 is 42798)
step() {
	grep -E '^[0-9]+, ' /tmp/out.csv |
		awk -F', ' -v which="$1" '{ split($2, t, "."); sec = t[1]; ns = t[2]; sub(/^0+/, "", ns); ns += 0 }
			NR > 1 && $1 == id + 1 {
				d = (sec - lsec) * 1000000000 + ns - lns
				if (!found) first = d
				found = 1
			}
			{ id = $1; lsec = sec; lns = ns }
			END { print which == "first" ? first : d }'
}
expect_range "first period between consecutive samples" "$(step first)" 104857 104858
expect_range "second period between the last two consecutive ones" "$(step last)" 209715 209716

exit $T_FAILED
