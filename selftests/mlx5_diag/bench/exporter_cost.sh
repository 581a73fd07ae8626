#!/bin/sh
# Benchmark (not a test): what the exporter costs. Both emulated devices
# sampled at the minimum period with 16 data IDs each (max_ids_events'
# set) for SECS s (default 60): mlx5-diag exporter --sample, scraped every
# 2 s from the guest's loopback as Prometheus would, then 200 scrapes back
# to back; against the same session recorded to files by mlx5-diag record
# (one per device, side by side). The exporter's CPU time per sample
# folded and per scrape, and its CPU against the recordings', all measured
# in this one run (CPU from /proc: 10 ms ticks).
#   scripts/vm-run selftests/mlx5_diag/bench/exporter_cost.sh [SECS]
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh
. ./exporter_lib.sh

SECS=${1:-60}
TICK_NS=10000000

# cpu_ns PID: the user and system time of PID so far
cpu_ns() { awk -v t=$TICK_NS '{ printf "%.0f", ($14 + $15) * t }' "/proc/$1/stat"; }

now_ns() { awk '{ printf "%.0f", $1 * 1e9 }' /proc/uptime; }

# exports: the --export options of max_ids_events' 16 data IDs
exports() {
	for e in port_rx_bytes port_rx_packets port_rx_no_buffer_discards \
		 port_rx_no_wqe_drops port_rx_hairpin_no_wqe_drops \
		 port_rx_ecn_marked_roce port_rp_cnp_handled port_np_cnp_sent \
		 port_tx_bytes port_tx_packets; do
		echo "--export '$e port=0'"
	done
	for e in port_rx_bytes port_rx_packets port_tx_bytes port_tx_packets; do
		echo "--export '$e port=1'"
	done
	echo "--export icmc_hits --export icmc_misses"
}

# folded: the samples the exporter folded, both devices, from a scrape
folded() {
	wget -q -O - http://127.0.0.1:9855/metrics |
		awk '/^mlx5_diag_samples_total\{/ { s += $2 } END { printf "%.0f", s }'
}

# per NUM DEN: NUM / DEN, 1 decimal
per() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? a / b : 0 }'; }

eval "set -- $(exports | tr '\n' ' ')"
mlx5-diag exporter --device sim:0 --device sim:1 --sample 1ns "$@" 2>/tmp/xb.err &
xb=$!
wait_for logged /tmp/xb.err "$DEV1: up: sampling 16 data IDs" 1 &&
	wait_for logged /tmp/xb.err "$DEV0: up: sampling 16 data IDs" 1 ||
	{ echo "# the exporter did not start:"; sed 's/^/# /' /tmp/xb.err; exit 1; }
s0=$(folded)
c0=$(cpu_ns $xb)
scrapes=0
end=$(($(now_ns) + SECS * 1000000000))
while [ "$(now_ns)" -lt $end ]; do
	sleep 2
	wget -q -O /tmp/xb.scrape http://127.0.0.1:9855/metrics && scrapes=$((scrapes + 1))
done
c1=$(cpu_ns $xb)
s1=$(folded)
samples=$((s1 - s0))
fold_ns=$((c1 - c0))
echo "exporter, $SECS s, a scrape every 2 s: $samples samples folded, $scrapes scrapes" \
     "of $(wc -c </tmp/xb.scrape) bytes, $((fold_ns / 1000000)) ms of CPU:" \
     "$(per "$fold_ns" "$samples") ns per sample"
t0=$(now_ns)
c0=$(cpu_ns $xb)
i=0
while [ $i -lt 200 ]; do
	wget -q -O /dev/null http://127.0.0.1:9855/metrics
	i=$((i + 1))
done
burst_ns=$(($(now_ns) - t0))
burst_cpu=$(($(cpu_ns $xb) - c0))
# what folding took meanwhile, at the rate measured above
scrape_cpu=$((burst_cpu - fold_ns * (burst_ns / 1000000) / (SECS * 1000)))
echo "exporter, 200 scrapes in $((burst_ns / 1000000)) ms: $((burst_cpu / 1000000)) ms of" \
     "CPU, $((scrape_cpu / 1000000)) ms less folding meanwhile:" \
     "$(per "$scrape_cpu" 200000) us per scrape"
kill -TERM $xb
wait $xb

# the recordings from a shell of their own, whose /proc stat has its
# children's CPU once it waited for them
cat >/tmp/xb-rec.sh <<EOF
mlx5-diag record -q -d sim:0 -o /tmp/xb0.data -p 1ns --duration ${SECS}s $(max_ids_events) &
mlx5-diag record -q -d sim:1 -o /tmp/xb1.data -p 1ns --duration ${SECS}s $(max_ids_events) &
wait
awk -v t=$TICK_NS '{ printf "%.0f\\n", (\$16 + \$17) * t }' /proc/\$\$/stat
EOF
sh /tmp/xb-rec.sh >/tmp/xb.rec
rec_ns=$(cat /tmp/xb.rec)
recorded=0
for f in /tmp/xb0.data /tmp/xb1.data; do
	recorded=$((recorded + $(mlx5-diag decode -q --format csv "$f" | grep -c '^[0-9]')))
done
echo "mlx5-diag record, both devices, $SECS s: $recorded samples, $((rec_ns / 1000000)) ms" \
     "of CPU: $(per "$rec_ns" "$recorded") ns per sample," \
     "$(stat -c %s /tmp/xb0.data) + $(stat -c %s /tmp/xb1.data) bytes"
echo "exporter / record, CPU per sample: $(awk -v a="$fold_ns" -v b="$samples" \
	-v c="$rec_ns" -v d="$recorded" 'BEGIN { printf "%.2f", (b && c) ? (a / b) / (c / d) : 0 }')"
rm -f /tmp/xb0.data /tmp/xb1.data /tmp/xb.scrape
