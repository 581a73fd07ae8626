# shellcheck shell=sh
# Helpers for the sampling selftests: sessions recorded with mlx5-diag on
# the emulator, with its manual clock, and their decoded output. Sourced
# after lib.sh and engine_lib.sh.

MLX5_DIAG=${MLX5_DIAG:-mlx5-diag}

# max_ids_events: -e options for 16 counters of a 64-bit emulated device,
# the most it samples at once (the firmware raises the period to 2^15
# clocks for them)
max_ids_events() {
	for k in 0x10200001 0x10200003 0x10200005 0x10800002 0x10800003 \
		 0x10800004 0x10800005 0x11000001 0x11400001 0x11400003; do
		printf ' -e kind=%s,port=0' $k
	done
	for k in 0x10200001 0x10200003 0x11400001 0x11400003; do
		printf ' -e kind=%s,port=1' $k
	done
	printf ' -e icmc_hits -e icmc_misses'
}

# The recordings' usual set, 8 data IDs of device 0: six counters and two
# statistics (EVS, options of mlx5-diag record), their IDs in that order
# (IDS) and classes (CLASSES: c counter, s statistic), for check_model;
# each one line, for sh -c
# shellcheck disable=SC2034 # for the tests that source this
EVS="-e port_rx_bytes,port=0 -e port_tx_bytes,port=0 -e port_rx_packets,port=0\
 -e port_tx_packets,port=0 -e icmc_accesses -e icmc_hits\
 -e pcie_read_latency_total_ns,link_xx=0 -e pcie_read_latency_packets,link_xx=0"
# shellcheck disable=SC2034 # for the tests that source this
IDS="0x1020000100000000 0x1140000100000000 0x1020000300000000 0x1140000300000000\
 0x1180000100000000 0x1180000200000000 0x1160000b00000000 0x1160000c00000000"
CLASSES=ccccccss

# file_is FILE VALUE: FILE reads VALUE
file_is() { read -r fv <"$1" && [ "$fv" = "$2" ]; }

# wait_file_eq FILE VALUE: until FILE reads VALUE
wait_file_eq() { wait_for file_is "$1" "$2"; }

# grid_wait DEV PMU: once the session runs, print "E P" (sample_grid)
grid_wait() {
	wait_state "$2" session && sample_grid "$1"
}

# advance_samples DEV N: with the session's grid in /tmp/grid.DEV, move
# the manual time on until N more samples are due (whole clocks)
advance_samples() {
	set -- "$1" "$2" $(cat "/tmp/grid.$1")
	f=$(cat "$SIM/dev$1/caps/device_frequency_khz")
	echo $(( ($2 * $4 * 1000000 + f - 1) / f + 32 )) >"$SIM/dev$1/advance_ns"
}

# step_samples DEV N: advance_samples, then wait until the driver fetched
# every sample produced that the firmware did not overwrite
step_samples() {
	advance_samples "$1" "$2"
	wait_drained "$1"
}

# drained DEV: samples_returned + samples_overwritten is samples_produced
drained() {
	read -r dr <"$SIM/dev$1/stats/samples_returned" &&
		read -r dw <"$SIM/dev$1/stats/samples_overwritten" &&
		read -r dp <"$SIM/dev$1/stats/samples_produced" &&
		[ $((dr + dw)) = "$dp" ]
}

# wait_drained DEV: until the driver fetched every sample the firmware
# produced and did not overwrite
wait_drained() { wait_for drained "$1"; }

# record_stepped DEV FILE WORKLOAD ARGS...: mlx5-diag record of DEV on its
# manual clock into FILE, with ARGS (period, events...); WORKLOAD (shell,
# these helpers sourced) runs once the session's grid is in /tmp/grid.DEV.
# Returns mlx5-diag's exit status.
record_stepped() {
	rs_dev=$1
	rs_file=$2
	rs_work=$3
	shift 3
	sim_manual "$rs_dev"
	"$MLX5_DIAG" record -q -d "sim:$rs_dev" -o "$rs_file" "$@" -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait $rs_dev $(pmu_of_sim "$rs_dev") >/tmp/grid.$rs_dev || exit 1
	$rs_work"
}

# record_period_change FILE PERIOD N1 ACTED N2 ARGS...: a recording of
# device 0 on its manual clock into FILE with ARGS: N1 samples, then
# PERF_EVENT_IOC_PERIOD to PERIOD (mlx5-diag record --then-period, once
# the workload has exited); once the shell commands ACTED return (the
# driver has acted on the change, and /tmp/grid.0 holds the period the
# device runs), N2 more samples, and SIGINT. Returns mlx5-diag's exit
# status.
record_period_change() {
	rp_file=$1
	rp_period=$2
	rp_n1=$3
	rp_acted=$4
	rp_n2=$5
	shift 5
	# shellcheck disable=SC2016
	record_stepped 0 "$rp_file" '
	step_samples 0 '"$rp_n1"'
	sh_pid=$$
	rec=$PPID
	(
		while kill -0 $sh_pid 2>/dev/null; do nap 0.01; done
		'"$rp_acted"'
		step_samples 0 '"$rp_n2"'
		kill -INT $rec
	) >/dev/null 2>&1 &' --duration 120 --then-period "$rp_period" "$@"
}

# period_steps JSON: the device-time steps between consecutive samples of
# a record_period_change recording with N1 = 20, decoded to JSON: "before
# STEP:COUNT ..." among samples 0..19, "after STEP:COUNT ..." from sample
# 20 on (the step across the change, to sample 20, left out)
period_steps() {
	sample_dev_times "$1" | awk '{ seq = $1; t = $2
		if (seq >= 1 && seq <= 19) b[t - last]++
		if (seq >= 21) a[t - last]++
		last = t
	}
	END { for (g in b) printf "before %d:%d ", g, b[g]; for (g in a) printf "after %d:%d ", g, a[g] }'
}

# sample_dev_times JSON: "SEQ DEV_TIME" per sample of the JSON decode JSON
sample_dev_times() {
	awk '/"type":"sample"/ {
		match($0, /"seq":[0-9]+/); seq = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, /"dev_time":[0-9]+/)
		print seq, substr($0, RSTART + 11, RLENGTH - 11) }' "$1"
}

# stream_runs FILE: "RUNS SEQ END" of a recording, up to its first END
# record: the SESSION records, "contiguous" when its samples and LOST
# records number 0, 1, 2... in order up to the count END gives (else
# "gap"), and that count
stream_runs() {
	"$MLX5_DIAG" decode -q "$1" | awk '
		BEGIN { seq = 0 }
		ended { next }
		/^SESSION / { runs++; next }
		/^PERIOD / { next }
		/^LOST / { split($5, r, /\.\./); if (r[1] != seq) bad++; seq = r[2] + 1; next }
		/^END / { end = $5; ended = 1; next }
		{ if ($2 != seq) bad++; seq = $2 + 1 }
		END { print runs + 0, (bad || !ended || seq != end) ? "gap" : "contiguous", end + 0 }'
}

# sample_ns DEV J: engine ns at which sample J is taken (grid in /tmp/grid.DEV)
sample_ns() {
	set -- "$1" "$2" $(cat "/tmp/grid.$1")
	clocks_ns "$1" $(( ($2 + 1) * $4 ))
}

# dec_samples FILE: "SEQ V1 V2 ..." per sample, from the text decode
dec_samples() {
	"$MLX5_DIAG" decode -q "$1" | awk '
		/^(SESSION|LOST|PERIOD|END) / { next }
		{ line = $2
		  for (i = 5; i <= NF; i++) { split($i, kv, "="); line = line " " kv[2] }
		  print line }'
}

# dec_lines FILE KIND: the decoded lines of KIND (SESSION, LOST, PERIOD, END)
dec_lines() {
	"$MLX5_DIAG" decode -q "$1" | grep "^$2 "
}

# check_model DEV FILE CLASSES IDS...: every sample of the text decode of
# FILE equals the emulator's model (check_model_lines)
check_model() {
	dev=$1
	file=$2
	shift 2
	dec_samples "$file" | check_model_lines "$dev" "$@"
}

# thinned: the first 100 lines of stdin, then every 10th, and the last.
# For counters only: check_model_lines compares a counter's increase over
# the lines left out with the model over them, so every value it reads is
# checked exactly and the ones between count in the sums. Under TCG with
# the debug kernel one query of the model file takes about 50 ms: a
# snapshot's 1,000 samples of two counters took 110 s of guest time.
thinned() {
	awk '{ last = $0 } NR <= 100 || NR % 10 == 0 { print; p = NR }
		END { if (NR > p) print last }'
}

# check_model_lines DEV CLASSES IDS...: every "SEQ V1 V2 ..." line of stdin
# equals the emulator's model: a counter's increase from the sample before
# (a run's first sample is its baseline; a sample after a gap is compared
# with the model over the gap), a statistic's value over its period.
# CLASSES has one letter per id (c counter, s statistic). Prints each
# mismatch; one awk process queries the model file for all of them.
check_model_lines() {
	dev=$1
	classes=$2
	shift 2
	awk -v model="$SIM/dev$dev/model" -v ids="$*" \
		-v classes="$classes" -v per="$(cut -d' ' -f2 "/tmp/grid.$dev")" \
		-v f="$(cat "$SIM/dev$dev/caps/device_frequency_khz")" '
	function ns(j) { return int((j + 1) * per * 1000000 / f) }
	function q(id, t0, t1,   v) {
		printf "%s %.0f %.0f\n", id, t0, t1 > model
		close(model)
		getline v < model
		close(model)
		return v
	}
	BEGIN { n = split(ids, id, " "); bad = 0; have = 0 }
	{
		seq = $1
		for (i = 1; i <= n; i++) {
			c = substr(classes, i, 1)
			v = $(i + 1)
			t0 = seq ? ns(seq - 1) : 0
			if (c == "s") {
				want = q(id[i], t0, ns(seq)); got = v
			} else if (have) {
				want = q(id[i], ns(last), ns(seq)); got = v - prev[i]
			} else
				continue
			if (got != want) { print "sample " seq " id " id[i] ": " got ", model " want; bad = 1 }
		}
		for (i = 1; i <= n; i++) prev[i] = $(i + 1)
		last = seq; have = 1
	}
	END { exit bad }'
}

# perf_group PMU: a perf record group, a session of port_rx_bytes and
# icmc_hits at 100 us
perf_group() {
	echo "{$1/port_rx_bytes,port=0,period_ns=100000/,$1/icmc_hits/}"
}

# perf_steps DEV PMU STEPS N: a perf record workload; STEPS times N samples
# due on DEV's manual clock, 0.2 s apart (the shell sleeps: sched_switch
# events between)
perf_steps() {
	echo ". ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait $1 $2 >/tmp/grid.$1 || exit 1
	for k in \$(seq $3); do step_samples $1 $4; sleep 0.2; done"
}

# size_above FILE BYTES: FILE is larger than BYTES
size_above() { [ "$(wc -c <"$1")" -gt "$2" ]; }

# snapshot_taken FILE: a perf record -S workload's last step: SIGUSR2 to
# perf (its parent), then until perf wrote the snapshot of a 64 KiB area
# into FILE (it grew by more than half the area)
snapshot_taken() {
	s0=$(wc -c <"$1")
	kill -USR2 "$PPID"
	wait_for size_above "$1" $((s0 + 32768))
}

# sample_times FILE: "SEQ PERF_TIME BOUND" per sample of the JSON decode
# FILE, BOUND its perf_time_bound_ns (-1 where the decode has none). The
# fields stand at fixed places in a sample's line (decoder.md): no loop
# over a line's fields, which busybox awk takes minutes for on a long
# recording under TCG.
sample_times() {
	awk -F'[:,]' '$2 == "\"sample\"" {
		print $6, $8, ($15 == "\"perf_time_bound_ns\"" ? $16 : -1) }' "$1"
}
