#!/bin/sh
# The demo's picture, run inside the test VM by scripts/demo-plot: sim:0's
# port 0 bytes and ICMC counters recorded at 200 us with sched:sched_switch
# while a workload copies and sleeps in turn, drawn by mlx5-diag plot (the
# counters as rates, the ICMC hit rate, a lane per CPU) as a PNG on
# standard output, in base64 between the lines PLOT-PNG-BEGIN and
# PLOT-PNG-END.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

rec=/tmp/demo-plot.data
"$MLX5_DIAG" record -q -d sim:0 -p 200us --tracepoint sched:sched_switch \
	-e port_rx_bytes,port=0 -e port_tx_bytes,port=0 -e icmc_accesses \
	-e icmc_hits -o "$rec" -- sh -c 'for i in 1 2 3 4; do
		dd if=/dev/zero of=/dev/null bs=64k count=500 2>/dev/null
		sleep 0.25
	done' || exit 1
"$MLX5_DIAG" plot -q --metrics --cpus --width 1200 \
	--ids port_0_rx_bytes,port_0_tx_bytes,global_icmc_request,global_icmc_hit_rate \
	--format png -o - "$rec" >/tmp/demo-plot.png 2>/tmp/demo-plot.err
status=$?
sed 's/^/# /' /tmp/demo-plot.err
if [ $status = 0 ]; then
	echo PLOT-PNG-BEGIN
	base64 /tmp/demo-plot.png
	echo PLOT-PNG-END
fi
rm -f "$rec" /tmp/demo-plot.png /tmp/demo-plot.err
exit $status
