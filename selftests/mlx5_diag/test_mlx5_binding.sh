#!/bin/sh
# The mlx5_core binding loads on a kernel without mlx5_core (ours has no
# networking), binds nothing, says nothing, and unloads cleanly, 20 times.
. ./lib.sh

log_mark start
fails=0
i=0
while [ $i -lt 20 ]; do
	insmod "$MODDIR/mlx5_diag_mlx5.ko" || fails=$((fails + 1))
	rmmod mlx5_diag_mlx5 || fails=$((fails + 1))
	i=$((i + 1))
done
expect_eq "20 load/unload cycles" "$fails" 0
insmod "$MODDIR/mlx5_diag_mlx5.ko"
n=0
for d in /sys/bus/auxiliary/devices/mlx5_diag_mlx5.*; do
	[ -e "$d" ] && n=$((n + 1))
done
expect_eq "no device bound without mlx5_core" "$n" 0
n=$(ls -d "$PMUS"/mlx5_diag_* | wc -l)
expect_eq "the emulated PMUs are untouched" "$n" 2
rmmod mlx5_diag_mlx5
expect_eq "the marker is in the log" "$(dmesg | grep -c "mlx5-diag-test: start $$\$")" 1
# what the binding can log: its module's lines and its PCI devices' (the
# mlx5_core ones), not the kernel's own (TCG's "hrtimer: interrupt took")
new=$(log_since start | grep -i mlx5 | grep -v 'taints kernel')
[ -n "$new" ] && echo "$new" | sed 's/^/# /'
expect_eq "nothing logged" "$(echo "$new" | grep -c .)" 0

exit $T_FAILED
