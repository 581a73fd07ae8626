#!/bin/sh
# Sampling sessions recorded with mlx5-diag: with the emulator's manual
# clock every decoded value equals its traffic model, sequence numbers are
# contiguous and every loss is counted exactly where it happened.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

P0=$(pmu_of_sim 0)
D0=$SIM/dev0

# EVS, IDS, CLASSES: record_lib.sh's 8 data IDs of device 0

# record DEV FILE N [OPTIONS]: N samples on the manual clock of DEV with the
# 8 ids (options before them), then stop
record_steps() {
	dev=$1 file=$2 n=$3
	shift 3
	# shellcheck disable=SC2086
	record_stepped "$dev" "$file" "step_samples $dev $n" "$@" $EVS
}

diag "ids: $(for k in $IDS; do printf '%s ' "$k"; done)"

# ---- exact values, manual clock ----
record_steps 0 /tmp/r1.data 20 -p 100us
rc=$?
expect_eq "record exits 0" "$rc" 0
expect_eq "20 samples decoded" "$(dec_samples /tmp/r1.data | wc -l)" 20
expect_eq "sequence numbers 0..19, contiguous" \
	"$(dec_samples /tmp/r1.data | awk '{ s = s $1 " " } END { print s }')" \
	"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
expect_eq "nothing lost" "$(dec_lines /tmp/r1.data LOST | wc -l)" 0
expect_eq "the run ends when recording stops" "$(dec_lines /tmp/r1.data END)" \
	"END run 0 after 20 samples: stopped"
check "every value equals the model" check_model 0 /tmp/r1.data $CLASSES $IDS
expect_eq "produced = returned = decoded" \
	"$(cat $D0/stats/samples_produced) $(cat $D0/stats/samples_returned)" "20 20"
# 6 counters and 2 statistics take more than a quarter of 2^14 clocks
expect_eq "the stream has the period the firmware raised to (2^15 clocks)" \
	"$(dec_lines /tmp/r1.data SESSION | sed 's/.*, period //')" \
	"209715 ns (requested 100000), 8 data IDs"
expect_eq "the engine is off again" "$(eng "$P0" state)" off

check "perf times are monotonic" sh -c "
	$MLX5_DIAG decode -q --format json /tmp/r1.data |
	awk -F'\"perf_time\":' '/\"sample\"/ { split(\$2, a, \",\"); if (a[1] + 0 < last) bad = 1; last = a[1] + 0 } END { exit bad }'"

diag "at $(uptime_ms) ms"
# ---- formats 1 and 2, and single mode ----
record_steps 0 /tmp/r2.data 10 -p 100us --format 1
check "format 1 decodes exactly" check_model 0 /tmp/r2.data $CLASSES $IDS
expect_eq "format 1: 10 samples" "$(dec_samples /tmp/r2.data | wc -l)" 10
record_steps 0 /tmp/r3.data 10 -p 100us --format 2
expect_eq "format 2: 10 samples" "$(dec_samples /tmp/r3.data | wc -l)" 10
check "format 2 carries the low 32 bits" sh -c "
	$MLX5_DIAG decode -q /tmp/r3.data | awk '/^0 / { split(\$5, kv, \"=\"); exit !(kv[2] < 4294967296) }'"

diag "at $(uptime_ms) ms"
# single mode: a buffer of 2^10 samples (8 ids in 2^13 values) fills and ends
sim_manual 0
"$MLX5_DIAG" record -q -d sim:0 -o /tmp/r4.data -p 100us -m single $EVS -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 0 $P0 >/tmp/grid.0 || exit 1
	step_samples 0 1100
	sleep 0.3"
expect_eq "single mode: the buffer's 1024 samples" "$(dec_samples /tmp/r4.data | wc -l)" 1024
expect_eq "single mode: the run ends full" "$(dec_lines /tmp/r4.data END | head -1)" \
	"END run 0 after 1024 samples: full"

diag "at $(uptime_ms) ms"
# ---- firmware overwrite, counted exactly ----
# a buffer of 2^8 values: 32 samples of the 8 ids
echo 8 >"$D0/caps/log_max_samples"
sim_readd 0
P0=$(pmu_of_sim 0)
sim_manual 0
"$MLX5_DIAG" record -q -d sim:0 -o /tmp/r5.data -p 100us $EVS -- sh -c "
	. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
	grid_wait 0 $P0 >/tmp/grid.0 || exit 1
	echo 300 >$D0/stall_ms
	step_samples 0 5
	step_samples 0 100"
over=$(cat $D0/stats/samples_overwritten)
diag "overwritten by the emulator: $over"
check "the firmware overwrote samples" test "$over" -gt 0
expect_eq "decoded firmware losses equal the emulator's overwritten count" \
	"$(dec_lines /tmp/r5.data LOST | awk '/fw_overwrite/ { gsub(/[():]/, "", $6); n += $6 } END { print n + 0 }')" "$over"
expect_eq "decoded samples + lost = produced" \
	"$(( $(dec_samples /tmp/r5.data | wc -l) + over ))" "$(cat $D0/stats/samples_produced)"
check "samples after the loss equal the model" check_model 0 /tmp/r5.data $CLASSES $IDS
sim_running 0
echo 13 >"$D0/caps/log_max_samples"
sim_readd 0

diag "at $(uptime_ms) ms"
# ---- an AUX area too small for the SESSION record is refused ----
# 256 data IDs: their SESSION record (16 bytes an ID) takes more than a
# page, which the stream could then never start with
echo 256 >"$D0/caps/max_num_data_ids"
sim_readd 0
P0=$(pmu_of_sim 0)
"$MLX5_DIAG" record -q -d sim:0 -o /tmp/r6.data -a 1 -p 100us \
	--duration 200ms -e icmc_hits >/tmp/r6.out 2>&1
check "a recording with a 1-page AUX area fails" test $? -ne 0
check "the refusal says why" sh -c \
	"dmesg | grep -q 'AUX area refused: more than [0-9]* bytes needed (a SESSION record of 256 data IDs'"
"$MLX5_DIAG" record -q -d sim:0 -o /tmp/r7.data -a 2 -p 100us \
	--duration 200ms -e icmc_hits
expect_eq "2 pages are enough" "$?" 0
check "and the stream starts with its SESSION record" \
	sh -c "$MLX5_DIAG decode -q /tmp/r7.data | head -1 | grep -q '^SESSION '"
echo 16 >"$D0/caps/max_num_data_ids"
sim_readd 0

sim_running 0
exit $T_FAILED
