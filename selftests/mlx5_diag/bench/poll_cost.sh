#!/bin/sh
# Benchmark (not a test): what counting costs. For each refresh period, the
# CPU time the kernel workers spend over 10 s while one perf stat counts
# four data IDs on a device, against 10 s with nothing open, measured in one
# run from the workers' schedstat (run time in ns); and the driver's polls.
. ./lib.sh

P=$(pmu_of_sim 0)
SECS=10


w0=$(worker_ns)
sleep $SECS
idle=$(( $(worker_ns) - w0 ))
echo "# idle: workers ran $((idle / 1000)) us in ${SECS} s"

for ms in 5 100; do
	echo $ms >/sys/module/mlx5_diag/parameters/refresh_ms
	p0=$(cat "$PMUS/$P/engine/polls")
	c0=$(cat "$SIM/dev0/stats/commands")
	w0=$(worker_ns)
	perf stat -e "$P/port_rx_bytes,port=0/,$P/port_tx_bytes,port=0/,$P/icmc_hits/,$P/icmc_misses/" \
		-a sleep $SECS >/dev/null 2>&1
	busy=$(( $(worker_ns) - w0 ))
	polls=$(( $(cat "$PMUS/$P/engine/polls") - p0 ))
	cmds=$(( $(cat "$SIM/dev0/stats/commands") - c0 ))
	extra=$((busy - idle))
	echo "refresh ${ms} ms: $polls polls, $cmds commands in ${SECS} s;" \
	     "workers $((busy / 1000)) us, $((extra / 1000)) us above idle:" \
	     "$((extra / (polls > 0 ? polls : 1) / 1000)) us per poll," \
	     "$((extra / (SECS * 10000000))).$(printf %02d $(( (extra / (SECS * 100000)) % 100 ))) % of one CPU"
done

# perf stat -I 100: each interval's count against the mean rate of the whole
# run (the model's rates vary over a 0.85 ms cycle, so over 100 ms they are
# constant to well under 1 %) times the interval's length as perf timed it.
for ms in 5 100; do
	echo $ms >/sys/module/mlx5_diag/parameters/refresh_ms
	perf stat -x';' -I 100 -e "$P/icmc_hits/" -a sleep 5 2>/tmp/bench.iv >/dev/null
	awk -F';' -v ms=$ms '
		/icmc_hits/ { n++; t[n] = $1 + 0; v[n] = $2 + 0 }
		END {
			# the first two intervals include perf starting up
			for (i = 3; i < n; i++) { sum += v[i]; }
			rate = sum / (t[n - 1] - t[2])
			for (i = 3; i < n; i++) {
				e = v[i] / (rate * (t[i] - t[i - 1])) - 1
				if (e < 0) e = -e
				if (e > worst) worst = e
				mean += e; k++
			}
			printf "refresh %s ms: -I 100, %d intervals: mean deviation %.1f %%, worst %.1f %%\n",
			       ms, k, 100 * mean / k, 100 * worst
		}' /tmp/bench.iv
done
echo 5 >/sys/module/mlx5_diag/parameters/refresh_ms
