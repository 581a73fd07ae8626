#!/bin/sh
# Recordings for another machine to decode (scripts/stock-vm-run, on an arm64
# guest): a perf.data of sim:0 with sched_switch from the patched perf and a
# recording of mlx5-diag record, each made on the manual clock, printed in
# base64 between CROSS-FILE markers, each followed by what this machine
# decodes from it (perf script --ns; mlx5-diag decode) between CROSS-DECODE
# markers. The host decodes the files with its own binaries and compares.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

P0=$(pmu_of_sim 0)

# export NAME FILE DECODE...: FILE in base64, then the output of DECODE FILE
export_recording() {
	name=$1 file=$2
	shift 2
	echo "CROSS-FILE-BEGIN $name"
	base64 "$file"
	echo "CROSS-FILE-END $name"
	echo "CROSS-DECODE-BEGIN $name"
	"$@" "$file" 2>/dev/null
	echo "CROSS-DECODE-END $name"
}

sim_manual 0
perf record -q -a -o /tmp/cross.data -e sched:sched_switch -e "$(perf_group "$P0")" \
	-- sh -c "$(perf_steps 0 "$P0" 2 3)" 2>/tmp/cross.err
expect_eq "perf record of sim:0 with sched_switch exits 0" "$?" 0
cmd='. ./lib.sh; . ./engine_lib.sh; . ./record_lib.sh
grid_wait 0 '"$P0"' >/tmp/grid.0 || exit 3
step_samples 0 6 || exit 4'
"$MLX5_DIAG" record -q -d sim:0 -e icmc_hits -e icmc_accesses -p 1ms \
	-o /tmp/cross.mdf -- sh -c "$cmd"
expect_eq "mlx5-diag record of sim:0 exits 0" "$?" 0
sim_running 0

export_recording perf.data /tmp/cross.data perf script --ns -i
export_recording mlx5-diag.rec /tmp/cross.mdf "$MLX5_DIAG" decode -q
exit $T_FAILED
