#!/bin/sh
# The mlx5_core binding loads on a kernel without mlx5_core (ours has no
# networking), binds nothing, says nothing, and unloads cleanly, 20 times.
. ./lib.sh

before=$(dmesg | wc -l)
fails=0
i=0
while [ $i -lt 20 ]; do
	insmod "$MODDIR/mlx5_diag_mlx5.ko" || fails=$((fails + 1))
	rmmod mlx5_diag_mlx5 || fails=$((fails + 1))
	i=$((i + 1))
done
expect_eq "20 load/unload cycles" "$fails" 0
insmod "$MODDIR/mlx5_diag_mlx5.ko"
n=$(ls /sys/bus/auxiliary/devices | grep -c '^mlx5_diag_mlx5\.')
expect_eq "no device bound without mlx5_core" "$n" 0
n=$(ls -d "$PMUS"/mlx5_diag_* | wc -l)
expect_eq "the emulated PMUs are untouched" "$n" 2
rmmod mlx5_diag_mlx5
new=$(dmesg | tail -n +$((before + 1)) | grep -v 'taints kernel' | grep -ci 'mlx5_diag_mlx5')
expect_eq "nothing logged" "$new" 0

exit $T_FAILED
