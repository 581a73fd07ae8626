#!/bin/sh
# sysfs discovery: one PMU per emulated device, format/, events/, caps/,
# cpumask, identifier (the dialect), function and firmware_version as the
# emulator's default capabilities say, and perf list showing every event.
. ./lib.sh

n=$(ls -d "$PMUS"/mlx5_diag_* 2>/dev/null | wc -l)
expect_eq "one PMU per emulated device" "$n" 2
P0=$PMUS/$(pmu_of_sim 0)
P1=$PMUS/$(pmu_of_sim 1)
check "PMU for sim:0 found" test -d "$P0"
check "PMU for sim:1 found" test -d "$P1"

expect_eq "format kind" "$(cat "$P0/format/kind")" "config:32-63"
expect_eq "format port" "$(cat "$P0/format/port")" "config:0-7"
expect_eq "format prio" "$(cat "$P0/format/prio")" "config:8-11"
expect_eq "format function" "$(cat "$P0/format/function")" "config:0-15"
expect_eq "format link_zz" "$(cat "$P0/format/link_zz")" "config:16-23"
expect_eq "format bin" "$(cat "$P0/format/bin")" "config:16-31"
expect_eq "format force" "$(cat "$P0/format/force")" "config1:63"
expect_eq "format mode" "$(cat "$P0/format/mode")" "config1:0-1"
expect_eq "format out_format" "$(cat "$P0/format/out_format")" "config1:4-5"
expect_eq "format ts_source" "$(cat "$P0/format/ts_source")" "config1:6"
expect_eq "format period_ns" "$(cat "$P0/format/period_ns")" "config2:0-63"
check "no fw_counter field on a 64-bit device" test ! -e "$P0/format/fw_counter"

aliases=$(ls "$P0/events" | grep -vc '\.')
expect_eq "an alias for each of the 41 data ID kinds" "$aliases" 41
expect_eq "port_rx_bytes alias" "$(cat "$P0/events/port_rx_bytes")" \
	"kind=0x10200001,port=?"
expect_eq "port_prio_tx_bytes alias" "$(cat "$P0/events/port_prio_tx_bytes")" \
	"kind=0x11400002,port=?,prio=?"
expect_eq "pcie_read_latency_hist_packets alias" \
	"$(cat "$P0/events/pcie_read_latency_hist_packets")" "kind=0x1160000f,link_xx=?,bin=?"
expect_eq "icmc_hits alias" "$(cat "$P0/events/icmc_hits")" "kind=0x11800002"
expect_eq "port_rx_bytes unit" "$(cat "$P0/events/port_rx_bytes.unit")" "Bytes"
expect_eq "pcie_read_latency_total_ns unit" \
	"$(cat "$P0/events/pcie_read_latency_total_ns.unit")" "ns"
check "no unit on packet counts" test ! -e "$P0/events/port_rx_packets.unit"

expect_eq "caps max_data_ids" "$(cat "$P0/caps/max_data_ids")" 16
expect_eq "caps log_max_samples" "$(cat "$P0/caps/log_max_samples")" 13
expect_eq "caps device_frequency_khz" "$(cat "$P0/caps/device_frequency_khz")" 156250
# 2^14 clocks at 156.25 MHz = 104857.6 ns
expect_eq "caps min_sample_period_ns" "$(cat "$P0/caps/min_sample_period_ns")" 104857
expect_eq "caps modes" "$(cat "$P0/caps/modes")" "single repetitive on_demand"
expect_eq "caps sync" "$(cat "$P0/caps/sync")" yes
expect_eq "caps clear" "$(cat "$P0/caps/clear")" yes
expect_eq "caps on_demand" "$(cat "$P0/caps/on_demand")" yes
expect_eq "caps dialect" "$(cat "$P0/caps/dialect")" model64
expect_eq "caps record_abi" "$(cat "$P0/caps/record_abi")" 1
expect_eq "caps num_ports" "$(cat "$P0/caps/num_ports")" 2
expect_eq "caps counting_refresh_ms" "$(cat "$P0/caps/counting_refresh_ms")" 5
expect_eq "caps counting_mode" "$(cat "$P0/caps/counting_mode")" on_demand
# sync only on the PCIe (0x116...) and ICMC (0x118...) kinds: 15 + 3
expect_eq "caps sync_ids" "$(grep -c . "$P0/caps/sync_ids")" 18
check "caps sync_ids lists icmc" grep -qx 0x1180000100000000 "$P0/caps/sync_ids"
expect_eq "caps sync_ids omits ports" "$(grep -c '^0x102' "$P0/caps/sync_ids")" 0

cpus=$(cat "$P0/cpumask")
case "$cpus" in
*[!0-9]*|'') not_ok "cpumask is one CPU (got '$cpus')" ;;
*) ok "cpumask is one CPU ($cpus)" ;;
esac
expect_eq "function sim:0" "$(cat "$P0/function")" "sim:0"
expect_eq "function sim:1" "$(cat "$P1/function")" "sim:1"
expect_eq "identifier: the firmware dialect (sim:0)" "$(cat "$P0/identifier")" model64
expect_eq "identifier: the firmware dialect (sim:1)" "$(cat "$P1/identifier")" model64
expect_eq "firmware_version: the emulator's (sim:0)" "$(cat "$P0/firmware_version")" 28.0.0

# perf 6.6 and later list mlx5_diag_0, mlx5_diag_1 as one mlx5_diag/ entry;
# older perf (Debian's 6.1) lists each PMU
list=$(perf list pmu 2>&1)
names=mlx5_diag
echo "$list" | grep -q " $(basename "$P0")/" && names="$(basename "$P0") $(basename "$P1")"
for pmu in $names; do
	n=$(echo "$list" | grep -c " $pmu/port_rx_bytes,port=?/")
	expect_eq "perf list shows $pmu/port_rx_bytes with its port field" "$n" 1
	n=$(echo "$list" | grep -c " $pmu/.*Kernel PMU event")
	expect_eq "perf list shows all 41 events of $pmu" "$n" 41
done

exit $T_FAILED
