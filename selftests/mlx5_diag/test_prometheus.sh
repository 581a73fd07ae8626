#!/bin/sh
# mlx5-diag exporter scraped by a real Prometheus: Debian's, on the host,
# through QEMU's port forward (scripts/vm-run VM_PROMETHEUS=1), its HTTP
# API asked from here. On the emulator's manual clock, what Prometheus
# stored equals the model exactly: the raw samples of a counter are the
# model's count at each clock step, a PromQL sum the model's sum; promtool
# has nothing to say of a real scrape; a device removed and added again
# mid-run gives a gap in its series while the scrapes go on. Sampling: the
# peak-rate gauge, the window's extremes and metrics.def's receive rate
# that Prometheus stored between two steps are the model's over those
# samples, however its scrapes fell; histogram_quantile() over the latency
# histogram is what Prometheus's interpolation gives on the model's bins.
# Every query of the Grafana dashboard of the running settings returns
# data.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh
. ./exporter_lib.sh

PROM=$(cat /vm-prometheus 2>/dev/null)
if [ -z "$PROM" ]; then
	not_ok "a Prometheus to scrape the guest: run this test with scripts/vm-run VM_PROMETHEUS=1"
	exit 1
fi
diag "Prometheus's API at $PROM"

# urlencode S: S for a URL's query string
urlencode() {
	Q=$1 awk 'BEGIN {
		s = ENVIRON["Q"]
		for (i = 1; i < 128; i++) ord[sprintf("%c", i)] = i
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c ~ /[A-Za-z0-9_.~-]/) printf "%s", c
			else printf "%%%02X", ord[c]
		}
	}'
}

# pq QUERY: Prometheus's JSON answer to the instant query QUERY, now
pq() { wget -q -O - "http://$PROM/api/v1/query?query=$(urlencode "$1")" 2>/dev/null; }

# vector_values: the value of each sample of an instant vector answer
vector_values() {
	awk '{ n = split($0, a, /"value":\[/)
		for (i = 2; i <= n; i++) { v = a[i]; sub(/^[^,]*,"/, "", v); sub(/".*/, "", v); print v } }'
}

# raw_samples: "TIME VALUE" of each raw sample of a range vector answer
# of one series
raw_samples() {
	awk '{ i = index($0, "\"values\":["); if (!i) exit
		s = substr($0, i + 10)
		while (match(s, /^\[[0-9.e+-]+,"[^"]*"\]/)) {
			p = substr(s, 2, RLENGTH - 2); split(p, f, ",")
			v = f[2]; gsub(/"/, "", v); print f[1], v
			s = substr(s, RLENGTH + 1); sub(/^,/, "", s)
		} }'
}

# stored QUERY: the values of QUERY's answer now, one line
stored() { pq "$1" | vector_values | tr '\n' ' ' | sed 's/ $//'; }

# prom_until COMMAND...: until COMMAND succeeds, asking every 0.25 s;
# fails after 1200 tries (5 min or more: Prometheus scrapes every 4 s)
prom_until() { wait_every 0.25 1200 "$@"; }

stored_is() { [ "$(stored "$1")" = "$2" ]; }
# prom_wait QUERY VALUES: until Prometheus answers QUERY with VALUES
prom_wait() { prom_until stored_is "$1" "$2"; }
answer_empty() { pq "$1" | grep -q '"status":"success".*"result":\[\]'; }
answer_has_data() { pq "$1" | grep -q '"status":"success".*"result":\[{'; }
# stored_now QUERY: stored, once QUERY has an answer. A scrape that ran
# past its 4 s timeout on a loaded host marks the target's series stale
# until the next one that does not: their instant queries answer nothing,
# even right after one that answered (seen in CI), so the value is the
# first non-empty answer itself, asked every 0.25 s as prom_until does.
stored_now() {
	sn_try=0
	while [ $sn_try -lt 1200 ]; do
		sn_v=$(stored "$1")
		if [ -n "$sn_v" ]; then
			echo "$sn_v"
			return 0
		fi
		nap 0.25
		sn_try=$((sn_try + 1))
	done
	return 1
}

S0='mlx5_diag_port_rx_bytes_total{device="sim:0",port="0"}'
S1='mlx5_diag_port_rx_bytes_total{device="sim:0",port="1"}'
U1='mlx5_diag_up{device="sim:1"}'

# ---- counting: what Prometheus stored, at three clock steps ----
sim_manual 0
mlx5-diag exporter --device sim:0 --device sim:1 2>/tmp/xp.err &
xp=$!
check "the exporter counts the default set on sim:0 and sim:1" \
	wait_for logged /tmp/xp.err "$DEV1: up: counting 15 data IDs" 1
check "Prometheus scrapes it: port 0 bytes received, 0 on the frozen clock" \
	prom_wait "$S0" 0
sim_advance 0 2000000
V1=$(sim_model 0 $RX 0 2000000)
check "Prometheus stored the model's count over 2 ms" prom_wait "$S0" "$V1"
sim_advance 0 3000000
V2=$(sim_model 0 $RX 0 5000000)
check "and over 5 ms" prom_wait "$S0" "$V2"
expect_eq "the raw samples it stored, each value once: 0, the model at 2 ms, at 5 ms" \
	"$(pq "${S0}[1h]" | raw_samples | awk 'NR == 1 || $2 != last { printf "%s ", $2; last = $2 }')" \
	"0 $V1 $V2 "
Q='sum(mlx5_diag_port_rx_bytes_total{device="sim:0"})'
A=$(stored_now "$Q")
expect_eq "PromQL $Q: the model's sum over both ports" "$A" \
	"$(( V2 + $(sim_model 0 $RX1 0 5000000) ))"
diag "PromQL: $Q = $A"
expect_eq "ICM cache hits" "$(stored_now 'mlx5_diag_icmc_hits_total{device="sim:0"}')" \
	"$(sim_model 0 $HITS 0 5000000)"
expect_eq "port 1: the model" "$(stored_now "$S1")" "$(sim_model 0 $RX1 0 5000000)"
wget -q -O /tmp/scrape.txt http://127.0.0.1:9855/metrics
check "promtool check metrics has nothing to say of a scrape" \
	sh -c 'promtool check metrics </tmp/scrape.txt >/tmp/promtool.out 2>&1 && ! [ -s /tmp/promtool.out ]'
sed 's/^/# promtool: /' /tmp/promtool.out
grep -E '^mlx5_diag_(up|port_rx_bytes_total)\{device="sim:0"' /tmp/scrape.txt | sed 's/^/# scrape: /'

# a device removed mid-run: a gap in its series, the scrapes going on
check "sim:1 is up in Prometheus" prom_wait "$U1" 1
echo 0 >"$SIM/dev1/present"
check "sim:1 removed" wait_for logged /tmp/xp.err "$DEV1: gone" 1
check "Prometheus sees its series end" prom_until answer_empty "$U1"
check "while Prometheus's scrapes of the exporter go on" \
	prom_wait 'up{job="mlx5_diag"}' 1
echo 1 >"$SIM/dev1/present"
check "sim:1 back: counted again" \
	wait_for logged /tmp/xp.err "$DEV1: up: counting 15 data IDs" 2
check "and up in Prometheus again" prom_wait "$U1" 1
gap=$(pq "${U1}[1h]" | raw_samples | awk 'NR > 1 && $1 - last > g { g = $1 - last } { last = $1 } END { print g + 0 }')
check "its raw samples have a gap of two scrapes or more ($gap s, scrapes every 4 s)" \
	awk -v g="$gap" 'BEGIN { exit !(g >= 7.5) }'
check "the exporter ran on" kill -0 $xp
expect_eq "sim:0 counted on: the model at 5 ms" "$(stored_now "$S0")" "$V2"
kill -TERM $xp
wait $xp
expect_eq "SIGTERM: exit 0" "$?" 0

# ---- sampling: the windows Prometheus stored, against the model ----
SAMPLES='mlx5_diag_samples_total{device="sim:0"}'
PEAK='mlx5_diag_port_rx_bytes_peak_per_second{device="sim:0",port="0"}'
LATMAX='mlx5_diag_pcie_read_latency_max_seconds{device="sim:0",link="0"}'
LATMIN='mlx5_diag_pcie_read_latency_min_seconds{device="sim:0",link="0"}'
RMAX='mlx5_diag_port_rx_bytes_per_second_max{device="sim:0",port="0"}'
RMIN='mlx5_diag_port_rx_bytes_per_second_min{device="sim:0",port="0"}'
BUCKETS='mlx5_diag_pcie_read_latency_seconds_bucket{device="sim:0",link="0"}'
latency_exporter /tmp/xs.err
xs=$XPID
check "Prometheus stored no sample folded before the clock moves" prom_wait "$SAMPLES" 0
step_samples 0 8
check "8 samples folded, in Prometheus" prom_wait "$SAMPLES" 8
step_samples 0 4
check "12, in Prometheus" prom_wait "$SAMPLES" 12
pq "${SAMPLES}[1h]" | raw_samples >/tmp/samples.raw

# in_windows SERIES LO HI max|min: the largest or smallest value SERIES
# had at the scrapes that found more than LO samples folded and at most
# HI (a gauge and the samples' counter of one scrape share its time)
in_windows() {
	pq "${1}[1h]" | raw_samples |
		awk -v lo="$2" -v hi="$3" -v op="$4" '
		NR == FNR { n[$1] = $2; next }
		($1 in n) && n[$1] > lo && n[$1] <= hi {
			if (!seen || (op == "max" ? $2 + 0 > r + 0 : $2 + 0 < r + 0)) r = $2
			seen = 1
		}
		END { if (seen) print r }' /tmp/samples.raw -
}

for w in "0 7 0 8" "8 11 8 12"; do
	# shellcheck disable=SC2086 # four words
	set -- $w
	lo=$3
	hi=$4
	# shellcheck disable=SC2046 # six words
	set -- $(window "$1" "$2")
	got=$(in_windows "$PEAK" $lo $hi max)
	check "samples $lo..$((hi - 1)): the peak rate Prometheus stored ($got, model $2)" \
		same_number "$got" "$2"
	got=$(in_windows "$LATMAX" $lo $hi max)
	check "their largest read latency ($got, model $3 ns)" same_number "$got" "$(ns_text "$3")"
	got=$(in_windows "$LATMIN" $lo $hi min)
	check "their smallest read latency ($got, model $4 ns)" same_number "$got" "$(ns_text "$4")"
	got=$(in_windows "$RMAX" $lo $hi max)
	check "metrics.def's receive rate, its largest ($got, model $5)" same_number "$got" "$5"
	got=$(in_windows "$RMIN" $lo $hi min)
	check "and its smallest ($got, model $6)" same_number "$got" "$6"
done

# the bins of samples 0..11 add up to the model over [0, t11): the
# buckets le=1..4 ns, +Inf every bin
cum=""
c=0
for b in 0 1 2 3 4 5 6 7 8 9; do
	c=$((c + $(sim_model 0 "$(printf '0x%x%04x0000' $BIN $b)" 0 "$(t 11)")))
	[ $b -le 3 ] && cum="$cum $c"
done
cum="$cum $c"
diag "cumulative bins (le 1, 2, 3, 4 ns, +Inf): $cum"
# quantile Q: Prometheus's bucketQuantile on the model's buckets
quantile() {
	echo "$cum" | awk -v q="$1" '{
		split("1e-09 2e-09 3e-09 4e-09", le, " ")
		n = NF; rank = q * $n
		for (b = 1; b < n && $b < rank; b++) ;
		if (b == n) { print le[n - 1]; exit }
		start = 0; count = $b
		if (b > 1) { start = le[b - 1]; count -= $(b - 1); rank -= $(b - 1) }
		printf "%.17g\n", start + (le[b] - start) * (rank / count) }'
}
for q in 0.25 0.5 0.9 0.99; do
	Q="histogram_quantile($q, $BUCKETS)"
	got=$(stored_now "$Q")
	check "$Q: $got, from the model's bins $(quantile $q)" same_number "$got" "$(quantile $q)"
done
diag "PromQL: histogram_quantile(0.5, $BUCKETS) = $(stored_now "histogram_quantile(0.5, $BUCKETS)")"
kill -TERM $xs
wait $xs
expect_eq "SIGTERM: exit 0" "$?" 0

# ---- the dashboard: each of its queries returns data ----
# At 1 ms on the running clock, a scrape of the debug guest under TCG took
# Prometheus's whole 4 s timeout (scrape_duration_seconds 4.0, up 0): 10 ms
sim_running 0
mlx5-diag exporter --device sim:0 --sample 10ms 2>/tmp/xd.err &
xd=$!
check "the exporter samples the default set on sim:0" \
	wait_for logged /tmp/xd.err "$DEV0: up: sampling 15 data IDs" 1
mlx5-diag exporter --dashboard --sample 10ms >/tmp/dashboard.json
# its queries, Grafana's variables filled in: every device, a 1 min window
awk '{ while ((i = index($0, "\"expr\":\"")) > 0) {
		$0 = substr($0, i + 8); q = ""
		while ($0 != "" && substr($0, 1, 1) != "\"") {
			c = substr($0, 1, 1)
			if (c == "\\") { q = q substr($0, 2, 1); $0 = substr($0, 3) }
			else { q = q c; $0 = substr($0, 2) }
		}
		print q } }' /tmp/dashboard.json |
	sed 's/\$device/.*/g; s/\$__rate_interval/1m/g' >/tmp/dashboard.queries
expect_eq "the dashboard has 21 queries (no histogram: no bins exported)" \
	"$(wc -l </tmp/dashboard.queries)" 21
while read -r q; do
	check "dashboard query returns data: $q" prom_until answer_has_data "$q"
done </tmp/dashboard.queries
check "the exporter ran on" kill -0 $xd
kill -TERM $xd
wait $xd
expect_eq "SIGTERM: exit 0" "$?" 0
grep -v ': up: ' /tmp/xp.err /tmp/xs.err /tmp/xd.err | sed 's/^/# /'

exit $T_FAILED
