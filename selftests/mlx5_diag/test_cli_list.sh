#!/bin/sh
# mlx5-diag list against the emulator's devices: every PMU with its
# function, cpumask and dialect, its capabilities and events as sysfs has
# them; a device named by number, name or function; bad arguments and
# unknown devices or events give their exit codes (2 usage, 7 device/event).
. ./lib.sh

P0=$(pmu_of_sim 0)
P1=$(pmu_of_sim 1)
out=$(mlx5-diag list 2>&1)
expect_eq "list exits 0" "$?" 0
for p in "$P0" "$P1"; do
	fn=$(cat "$PMUS/$p/function")
	line=$(echo "$out" | grep "^$p ")
	expect_eq "$p listed with function, cpumask and dialect" "$line" \
		"$p  function $fn  cpumask $(cat "$PMUS/$p/cpumask")  dialect $(cat "$PMUS/$p/caps/dialect")"
done
n=$(ls "$PMUS/$P0/events" | grep -vc '\.')
expect_eq "events counted as sysfs has them" \
	"$(echo "$out" | grep -c "^  events ($n):")" 2
check "an event with its required field" \
	sh -c "echo \"\$1\" | grep -qx '    port_rx_bytes,port=?'" - "$out"
check "an event with two required fields" \
	sh -c "echo \"\$1\" | grep -qx '    port_prio_tx_bytes,port=?,prio=?'" - "$out"
check "an event without fields" sh -c "echo \"\$1\" | grep -qx '    icmc_hits'" - "$out"
check "capabilities line" sh -c "echo \"\$1\" | grep -q \
	'^  capabilities: max_data_ids=$(cat "$PMUS/$P0/caps/max_data_ids"), log_max_samples='" - "$out"

out=$(mlx5-diag list -v sim:1 2>&1)
expect_eq "list -v sim:1 exits 0" "$?" 0
expect_eq "list sim:1 shows one device" "$(echo "$out" | grep -c '^mlx5_diag_')" 1
check "list sim:1 shows $P1" sh -c "echo \"\$1\" | grep -q '^$P1 '" - "$out"
check "-v: every capability" sh -c "echo \"\$1\" | grep -qE '^    min_sample_period_ns +$(cat "$PMUS/$P1/caps/min_sample_period_ns")\$'" - "$out"
check "-v: the format fields" sh -c "echo \"\$1\" | grep -qE '^    port +config:0-7\$'" - "$out"
check "-v: an event's definition and unit" sh -c "echo \"\$1\" | grep -qE \
	'^    port_rx_bytes,port=\\? +kind=0x10200001,port=\\?  unit Bytes\$'" - "$out"
check "-v: the engine state" sh -c "echo \"\$1\" | grep -qE '^    state +[a-z]+\$'" - "$out"

num=${P0#mlx5_diag_}
expect_eq "a device by number" "$(mlx5-diag list "$num" | grep -c "^$P0 ")" 1
expect_eq "a device by PMU name" "$(mlx5-diag list "$P0" | grep -c "^$P0 ")" 1

out=$(mlx5-diag list sim:9 2>&1)
expect_eq "an unknown device exits 7" "$?" 7
check "and says so" sh -c "echo \"\$1\" | grep -q \"no mlx5_diag device 'sim:9'\"" - "$out"
mlx5-diag list --bogus >/dev/null 2>&1
expect_eq "a bad option exits 2" "$?" 2
mlx5-diag bogus >/dev/null 2>&1
expect_eq "an unknown command exits 2" "$?" 2

# record checks its events against sysfs before it opens anything
rm -f /tmp/cli_list.data
out=$(mlx5-diag record -d sim:0 -e nosuch -o /tmp/cli_list.data 2>&1)
expect_eq "record with an unknown event exits 7" "$?" 7
check "and names it" sh -c "echo \"\$1\" | grep -q \"has no event 'nosuch'\"" - "$out"
out=$(mlx5-diag record -d sim:0 -e port_rx_bytes -o /tmp/cli_list.data 2>&1)
expect_eq "record without a required field exits 7" "$?" 7
check "and names the field" sh -c "echo \"\$1\" | grep -q 'needs port=N'" - "$out"
check "no file was written" test ! -e /tmp/cli_list.data

exit $T_FAILED
