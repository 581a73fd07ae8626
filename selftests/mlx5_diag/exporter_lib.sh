# shellcheck shell=sh
# Helpers for the exporter's selftests (test_exporter, test_prometheus):
# the data IDs they read, its log's lines, the model's sampling windows.
# shellcheck disable=SC2034 # the IDs are for the tests that source it
# Sourced after lib.sh, engine_lib.sh and record_lib.sh; t and window
# read PC and HZ, the session's sample period in clocks and its clock in Hz.

RX=0x1020000100000000
RX1=0x1020000100000001
HITS=0x1180000200000000
PKTS=0x1160000c00000000
TOTAL=0x1160000b00000000
LMAX=0x1160000d00000000
LMIN=0x1160000e00000000
BIN=0x1160000f		# bin b of link 0: BIN << 32 | b << 16

# the log's name of emulated device N's PMU, whatever its number
DEV0='sim:0 (mlx5_diag_[0-9]*)'
DEV1='sim:1 (mlx5_diag_[0-9]*)'

# logged FILE RE N: FILE has at least N lines matching RE (basic regex)
logged() { [ "$(grep -c "$2" "$1")" -ge "$3" ]; }

# value FILE SERIES: the value of SERIES (name{labels}) in FILE
value() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# ns_text NS: NS as the exporter writes seconds (exact, no trailing 0)
ns_text() {
	awk -v ns="$1" 'BEGIN {
		s = int(ns / 1000000000); f = ns - s * 1000000000
		if (!f) { print s; exit }
		t = sprintf("%09d", f); sub(/0+$/, "", t); print s "." t }'
}

# same_number A B: A and B are the same double
same_number() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0 && a != "") }'; }

# t J: engine ns of sample J (due at E + (J + 1) P; t -1 is 0)
t() {
	if [ "$1" -lt 0 ]; then
		echo 0
	else
		clocks_ns 0 $(( ($1 + 1) * PC ))
	fi
}

# window FIRST LAST: "TOTAL PEAK MAX MIN RMAX RMIN" of samples FIRST..LAST
# by the model: the counter's increases (the run's first sample has none),
# the largest times Hz over the period, the latency statistics' extremes,
# and the largest and smallest increase over the period in seconds as
# metrics.def's rx_bytes_GBps takes it (duration_time: clocks * 1e6 / kHz
# ns, times 1e-9) before its scale
window() {
	inc=""
	mx=0
	mn=0
	j=$1
	while [ "$j" -le "$2" ]; do
		[ "$j" -gt 0 ] && inc="$inc $(sim_model 0 $RX "$(t $((j - 1)))" "$(t "$j")")"
		v=$(sim_model 0 $LMAX "$(t $((j - 1)))" "$(t "$j")")
		[ "$v" -gt "$mx" ] && mx=$v
		v=$(sim_model 0 $LMIN "$(t $((j - 1)))" "$(t "$j")")
		[ "$v" -gt 0 ] && { [ "$mn" = 0 ] || [ "$v" -lt "$mn" ]; } && mn=$v
		j=$((j + 1))
	done
	echo "$inc" | awk -v hz="$HZ" -v p="$PC" -v mx="$mx" -v mn="$mn" '{
		sec = p * 1e6 / (hz / 1000) * 1e-9
		for (i = 1; i <= NF; i++) {
			s += $i; r = $i * hz / p; if (r > pk) pk = r
			m = $i / sec
			if (i == 1 || m > mmax) mmax = m
			if (i == 1 || m < mmin) mmin = m
		}
		printf "%d %.17g %d %d %.17g %.17g\n", s, pk, mx, mn, mmax, mmin }'
}

# latency_exporter ERR ARGS...: mlx5-diag exporter sampling sim:0 every
# 1 ms (port 0's bytes received, link 0's read latency extremes and bins
# as a histogram of bounds 1 to 4 ns; 14 data IDs with the totals), with
# ARGS, its log in ERR. Once it samples (a check) and its session runs:
# XPID its pid, PC and HZ the session's period in clocks and clock in Hz.
latency_exporter() {
	err=$1
	shift
	mlx5-diag exporter --device sim:0 --sample 1ms \
		--export 'port_rx_bytes port=0' --export 'pcie_read_latency_max_ns link=0' \
		--export 'pcie_read_latency_min_ns link=0' --per-bin \
		--export 'pcie_read_latency_hist_packets link=0' \
		--histogram-le '1ns 2ns 3ns 4ns' "$@" 2>"$err" &
	XPID=$!
	check "the exporter samples 14 data IDs of sim:0" \
		wait_for logged "$err" "$DEV0: up: sampling 14 data IDs" 1
	grid_wait 0 "$(pmu_of_sim 0)" >/tmp/grid.0
	# shellcheck disable=SC2046 # "E P": two words
	set -- $(cat /tmp/grid.0)
	PC=$2
	HZ=$(( $(cat "$SIM/dev0/caps/device_frequency_khz") * 1000 ))
}
