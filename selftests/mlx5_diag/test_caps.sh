#!/bin/sh
# sysfs follows the emulator's capabilities when they change (the driver
# reads them when it binds), and a public 16-bit device gets its own events.
. ./lib.sh

D=$SIM/dev1
C=$D/caps
save_kinds=$(cat "$C/kinds")

# A smaller, wider device without the ICMC miss counter.
echo 8 >"$C/max_num_data_ids"
echo 4 >"$C/num_ports"
echo "$save_kinds" | tr ' ' '\n' | grep -v 0x11800003 | tr '\n' ' ' >"$C/kinds"
sim_readd 1
P=$(pmu_of_sim 1)
expect_eq "caps/max_data_ids follows the device" "$(cat "$PMUS/$P/caps/max_data_ids")" 8
expect_eq "caps/num_ports follows the device" "$(cat "$PMUS/$P/caps/num_ports")" 4
check "a kind the device dropped has no event" test ! -e "$PMUS/$P/events/icmc_misses"
expect_eq "40 aliases" "$(ls "$PMUS/$P/events" | grep -vc '\.')" 40
expect_eq "the dropped kind is refused" "$(perf_open_errno "$P/kind=0x11800003/")" 95
expect_eq "port 3 is valid now" "$(perf_open_errno "$P/port_rx_bytes,port=3/")" 0
evs=""
for k in 0x10200001 0x10200003 0x10200005; do
	for port in 0 1 2; do
		evs="$evs${evs:+,}$P/kind=$k,port=$port/"
	done
done
expect_eq "9 data IDs on a device that counts 8" "$(perf_open_errno "$evs")" 28

# The public 16-bit interface: firmware counters, not data IDs.
echo 16 >"$C/dialect"
sim_readd 1
P=$(pmu_of_sim 1)
expect_eq "caps/dialect" "$(cat "$PMUS/$P/caps/dialect")" public16
expect_eq "13 firmware counter events" "$(ls "$PMUS/$P/events" | grep -vc '\.')" 13
expect_eq "fw_tx_packets alias" "$(cat "$PMUS/$P/events/fw_tx_packets")" "fw_counter=0x2006"
expect_eq "fw_pcie_rx_data counts 128-byte units" \
	"$(cat "$PMUS/$P/events/fw_pcie_rx_data.scale")" 128
expect_eq "device clocks shown in ns" \
	"$(cat "$PMUS/$P/events/fw_pcie_dl_backpressure.unit")" ns
expect_eq "6.4 ns per clock at 156.25 MHz" \
	"$(cat "$PMUS/$P/events/fw_pcie_dl_backpressure.scale")" 6.400000
check "fw_counter field shown" test -e "$PMUS/$P/format/fw_counter"
check "data-ID fields hidden" test ! -e "$PMUS/$P/format/port"
expect_eq "caps/max_data_ids = number of counters" "$(cat "$PMUS/$P/caps/max_data_ids")" 13
expect_eq "a data ID on a 16-bit device is refused" \
	"$(perf_open_errno "$P/config=0x1180000100000000/")" 95
# exactly the model over 25 ms of manual time
out=$(stat_stepped "$P/fw_tx_packets/" 1:25000000)
sim_running 1
expect_eq "fw_tx_packets counts exactly the model" "$(stat_value "$out" "$P/fw_tx_packets/")" \
	"$(sim_model 1 0x2006 0 25000000)"

# Back to the defaults.
echo 64 >"$C/dialect"
echo 16 >"$C/max_num_data_ids"
echo 2 >"$C/num_ports"
echo "$save_kinds" >"$C/kinds"
sim_readd 1
P=$(pmu_of_sim 1)
expect_eq "defaults restored" "$(ls "$PMUS/$P/events" | grep -vc '\.')" 41

exit $T_FAILED
