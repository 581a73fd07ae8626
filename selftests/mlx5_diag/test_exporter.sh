#!/bin/sh
# mlx5-diag exporter on the emulator with a manual clock, in its textfile
# mode (the guest has no network; SIGUSR1 writes the file at once, which
# ends a sampling window there). Counting: each counter of the default set
# equals the traffic model's count since the open, exactly, at two clock
# steps; an engine held by another agent shows as mlx5_diag_up 0 with
# reason busy and comes up once the agent lets go; a device removed gives
# a gap (its series gone) and comes back, the exporter running on.
# Sampling: samples folded into the window equal the model's: the total,
# the peak rate over one sample period (largest increase * Hz / period),
# the window's maximum and minimum read latency, metrics.def's receive
# rate's largest and smallest (the pipeline's metrics on the folded
# samples), the latency bins as a histogram with the read latency total
# as its sum; a second window only has its own samples.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh
. ./exporter_lib.sh

# scrape PID FILE: have exporter PID write FILE now, and wait for it
scrape() {
	rm -f "$2"
	kill -USR1 "$1"
	wait_for test -s "$2"
}

P0=$(pmu_of_sim 0)
rm -rf /tmp/xc /tmp/xs
mkdir -p /tmp/xc /tmp/xs

# ---- counting: exact counts at two clock steps, both devices ----
sim_manual 0
echo 1 >"$SIM/dev1/foreign_owner"
mlx5-diag exporter --device sim:0 --device sim:1 --textfile /tmp/xc \
	--interval 3600 2>/tmp/xc.err &
xc=$!
check "the exporter counts the default set on sim:0 (15 data IDs)" \
	wait_for logged /tmp/xc.err "$DEV0: up: counting 15 data IDs" 1
check "sim:1, held by another agent, is down: busy" \
	wait_for logged /tmp/xc.err "$DEV1: down (busy)" 1
F=/tmp/xc/mlx5_diag.prom
# every event opened at the frozen clock: engine time 0
sim_advance 0 2000000
scrape $xc $F
expect_eq "port 0 bytes received: the model's over 2 ms" \
	"$(value $F 'mlx5_diag_port_rx_bytes_total{device="sim:0",port="0"}')" \
	"$(sim_model 0 $RX 0 2000000)"
expect_eq "port 1 bytes received" \
	"$(value $F 'mlx5_diag_port_rx_bytes_total{device="sim:0",port="1"}')" \
	"$(sim_model 0 $RX1 0 2000000)"
expect_eq "ICM cache hits" "$(value $F 'mlx5_diag_icmc_hits_total{device="sim:0"}')" \
	"$(sim_model 0 $HITS 0 2000000)"
expect_eq "link 0 reads measured (a sum)" \
	"$(value $F 'mlx5_diag_pcie_read_latency_packets_total{device="sim:0",link="0"}')" \
	"$(sim_model 0 $PKTS 0 2000000)"
expect_eq "link 0 read latency total, in seconds" \
	"$(value $F 'mlx5_diag_pcie_read_latency_total_seconds_total{device="sim:0",link="0"}')" \
	"$(ns_text "$(sim_model 0 $TOTAL 0 2000000)")"
expect_eq "sim:0 is up" "$(value $F 'mlx5_diag_up{device="sim:0"}')" 1
expect_eq "sim:1 is down, reason busy" \
	"$(value $F 'mlx5_diag_up{device="sim:1",reason="busy"}')" 0
expect_eq "and has no counter" "$(grep -c 'device="sim:1",port' $F)" 0
check "device info: sim:0, firmware 28.0.0, model64, 156250 kHz" grep -qF \
	"mlx5_diag_device_info{device=\"sim:0\",pmu=\"$P0\",firmware_version=\"28.0.0\",dialect=\"model64\",frequency_khz=\"156250\"} 1" $F
sim_advance 0 3000000
scrape $xc $F
expect_eq "port 0 bytes received: the model's over 5 ms" \
	"$(value $F 'mlx5_diag_port_rx_bytes_total{device="sim:0",port="0"}')" \
	"$(sim_model 0 $RX 0 5000000)"
sim_running 0

echo 0 >"$SIM/dev1/foreign_owner"
check "once the agent lets go, sim:1 comes up (a retry within 5 s)" \
	wait_for logged /tmp/xc.err "$DEV1: up: counting 15 data IDs" 1
scrape $xc $F
expect_eq "sim:1 is up" "$(value $F 'mlx5_diag_up{device="sim:1"}')" 1

# a device removed: its series end; back, they start again
echo 0 >"$SIM/dev0/present"
check "sim:0 removed: its series end" wait_for logged /tmp/xc.err "$DEV0: gone" 1
scrape $xc $F
expect_eq "no sim:0 series" "$(grep -c 'device="sim:0"' $F)" 0
echo 1 >"$SIM/dev0/present"
check "sim:0 back: counted again" \
	wait_for logged /tmp/xc.err "$DEV0: up: counting 15 data IDs" 2
scrape $xc $F
expect_eq "sim:0 is up again" "$(value $F 'mlx5_diag_up{device="sim:0"}')" 1
check "the exporter ran on" kill -0 $xc
kill -TERM $xc
wait $xc
expect_eq "SIGTERM: exit 0" "$?" 0

# ---- sampling: the window's values against the model ----
sim_manual 0
latency_exporter /tmp/xs.err --textfile /tmp/xs --interval 3600
xs=$XPID
diag "sample period: $PC clocks at $HZ Hz"
F=/tmp/xs/mlx5_diag.prom
scrape $xs $F
expect_eq "nothing folded before the clock moves" \
	"$(value $F 'mlx5_diag_samples_total{device="sim:0"}')" 0




step_samples 0 8
scrape $xs $F
# shellcheck disable=SC2046 # six words
set -- $(window 0 7)
expect_eq "8 samples folded" "$(value $F 'mlx5_diag_samples_total{device="sim:0"}')" 8
expect_eq "none lost" \
	"$(value $F 'mlx5_diag_lost_samples_total{device="sim:0",cause="fw_overwrite"}')" 0
expect_eq "port 0 bytes: the model's increase over samples 0..7" \
	"$(value $F 'mlx5_diag_port_rx_bytes_total{device="sim:0",port="0"}')" "$1"
got=$(value $F 'mlx5_diag_port_rx_bytes_peak_per_second{device="sim:0",port="0"}')
check "the peak rate is the largest increase of one period, per second ($got, model $2)" \
	same_number "$got" "$2"
expect_eq "the window's largest read latency" \
	"$(value $F 'mlx5_diag_pcie_read_latency_max_seconds{device="sim:0",link="0"}')" \
	"$(ns_text "$3")"
expect_eq "the window's smallest read latency" \
	"$(value $F 'mlx5_diag_pcie_read_latency_min_seconds{device="sim:0",link="0"}')" \
	"$(ns_text "$4")"
got=$(value $F 'mlx5_diag_port_rx_bytes_per_second_max{device="sim:0",port="0"}')
check "metrics.def's receive rate, its window's largest ($got, model $5)" \
	same_number "$got" "$5"
got=$(value $F 'mlx5_diag_port_rx_bytes_per_second_min{device="sim:0",port="0"}')
check "and its smallest ($got, model $6)" same_number "$got" "$6"
# the bins' sums over samples 0..7 add up to the model over [0, t7)
cum=0
for b in 0 1 2 3 4 5 6 7 8 9; do
	cum=$((cum + $(sim_model 0 "$(printf '0x%x%04x0000' $BIN $b)" 0 "$(t 7)")))
	case $b in
	0) le=1e-09 ;;
	1) le=2e-09 ;;
	2) le=3e-09 ;;
	3) le=4e-09 ;;
	*) continue ;;
	esac
	expect_eq "histogram bucket le=$le: bins 0..$b" \
		"$(value $F "mlx5_diag_pcie_read_latency_seconds_bucket{device=\"sim:0\",link=\"0\",le=\"$le\"}")" \
		"$cum"
done
expect_eq "histogram +Inf and count: every bin" \
	"$(value $F 'mlx5_diag_pcie_read_latency_seconds_count{device="sim:0",link="0"}')" "$cum"
expect_eq "histogram sum: the read latency total" \
	"$(value $F 'mlx5_diag_pcie_read_latency_seconds_sum{device="sim:0",link="0"}')" \
	"$(ns_text "$(sim_model 0 $TOTAL 0 "$(t 7)")")"

step_samples 0 4
scrape $xs $F
# shellcheck disable=SC2046 # six words
set -- $(window 8 11)
expect_eq "a second window: 12 samples in all" \
	"$(value $F 'mlx5_diag_samples_total{device="sim:0"}')" 12
expect_eq "port 0 bytes: the total goes on" \
	"$(value $F 'mlx5_diag_port_rx_bytes_total{device="sim:0",port="0"}')" \
	"$(( $(sim_model 0 $RX "$(t 0)" "$(t 7)") + $1 ))"
got=$(value $F 'mlx5_diag_port_rx_bytes_peak_per_second{device="sim:0",port="0"}')
check "the peak of samples 8..11 only ($got, model $2)" same_number "$got" "$2"
expect_eq "their largest read latency" \
	"$(value $F 'mlx5_diag_pcie_read_latency_max_seconds{device="sim:0",link="0"}')" \
	"$(ns_text "$3")"
got=$(value $F 'mlx5_diag_port_rx_bytes_per_second_max{device="sim:0",port="0"}')
check "their receive rate's largest ($got, model $5)" same_number "$got" "$5"

echo 0 >"$SIM/dev0/present"
check "sim:0 removed: the session ends, its series end" \
	wait_for logged /tmp/xs.err "$DEV0: gone" 1
check "the exporter ran on" kill -0 $xs
echo 1 >"$SIM/dev0/present"
sim_running 0
kill -TERM $xs
wait $xs
expect_eq "SIGTERM: exit 0" "$?" 0
grep -v ': up: ' /tmp/xc.err /tmp/xs.err | sed 's/^/# /'

exit $T_FAILED
