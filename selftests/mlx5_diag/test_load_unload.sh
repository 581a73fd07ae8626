#!/bin/sh
# Load and unload the emulator and the driver CYCLES times, in both orders,
# with devices removed and re-added and a count taken in between.
# (vm-run checks kmemleak and the kernel log afterwards.)
. ./lib.sh

CYCLES=12

rmmod mlx5_diag_sim && rmmod mlx5_diag
fails=0
i=0
while [ $i -lt $CYCLES ]; do
	if [ $((i % 2)) = 0 ]; then
		insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko" || fails=$((fails + 1))
	else
		insmod "$MODDIR/mlx5_diag_sim.ko" nr_devices=3 && insmod "$MODDIR/mlx5_diag.ko" || fails=$((fails + 1))
	fi
	if [ $((i % 5)) = 0 ]; then
		echo 0 >"$SIM/dev1/present" && echo 1 >"$SIM/dev1/present" || fails=$((fails + 1))
		perf stat -e mlx5_diag/icmc_hits/ -a true >/dev/null 2>&1 || fails=$((fails + 1))
	fi
	if [ $((i % 2)) = 0 ]; then
		rmmod mlx5_diag_sim && rmmod mlx5_diag || fails=$((fails + 1))
	else
		rmmod mlx5_diag && rmmod mlx5_diag_sim || fails=$((fails + 1))
	fi
	i=$((i + 1))
done
expect_eq "$CYCLES load/unload cycles without a failure" "$fails" 0
insmod "$MODDIR/mlx5_diag.ko" && insmod "$MODDIR/mlx5_diag_sim.ko"
n=$(ls -d "$PMUS"/mlx5_diag_* | wc -l)
expect_eq "two PMUs after the cycles" "$n" 2

exit $T_FAILED
