#!/bin/sh
# Counts read from interrupt context: perf record of a group led by
# cpu-clock with PERF_SAMPLE_READ ({cpu-clock,PMU/icmc_hits/}:S) on the
# PMU's CPU, so that every timer interrupt reads the mlx5 count while the
# poller folds and publishes new ones. Every value read equals the
# emulator's model at one of the manual clock's steps (no torn or stale
# generation), the last one the model over all of them; the kernel log
# verdict holds lockdep to it. (NMI reads need a hardware PMU, which the
# TCG guest has not: KUnit's engine_read_concurrent_test covers reads
# from a context that interrupts the poller.)
. ./lib.sh
. ./engine_lib.sh

P=$(pmu_of_sim 0)
HITS=0x1180000200000000		# icmc_hits
STEP=1000000
STEPS=10
trap 'sim_running 0' EXIT

cpu=$(cat "$PMUS/$P/cpumask")
sim_manual 0
timeout 120 "$PERF_BIN" record -q -o /tmp/irq.data -C "$cpu" -c 1000000 \
	-e "{cpu-clock,$P/icmc_hits/}:S" -- sh -c "
	. ./lib.sh
	sleep 0.5
	for k in \$(seq $STEPS); do
		sim_advance 0 $STEP || echo STEP-TIMEOUT
		sleep 0.1
	done
	sleep 0.3" >/tmp/irq.out 2>&1
expect_eq "perf record exits 0" "$?" 0
expect_eq "every step polled" "$(grep -c STEP-TIMEOUT /tmp/irq.out)" 0
sim_running 0

# the group's values of each sample: the leader's, then icmc_hits'
perf report -D -i /tmp/irq.data 2>/dev/null | awk '
	/^\.\.\.\. group nr/ { k = 0; next }
	/^\.\.\.\.\. id / { if (++k == 2) { sub(/.*value /, ""); sub(/,.*/, ""); print } }' \
	>/tmp/irq.hex
n=$(wc -l </tmp/irq.hex)
diag "$n samples of cpu-clock on CPU $cpu read icmc_hits"
check "the timer interrupt read the count many times" test "$n" -ge 100
# the model at each step, and the distinct values read
k=0
: >/tmp/irq.model
while [ $k -le $STEPS ]; do
	sim_model 0 $HITS 0 $((k * STEP)) >>/tmp/irq.model
	k=$((k + 1))
done
sort -u /tmp/irq.hex | while read -r h; do echo $((0x$h)); done >/tmp/irq.seen
diag "values read: $(tr '\n' ' ' </tmp/irq.seen)"
expect_eq "every value read is the model at a step" \
	"$(grep -cvxFf /tmp/irq.model /tmp/irq.seen)" 0
check "values of several steps were read" test "$(wc -l </tmp/irq.seen)" -ge 3
expect_eq "the last value read is the model over every step" \
	"$(($(tail -1 /tmp/irq.hex | sed 's/^/0x/')))" \
	"$(tail -1 /tmp/irq.model)"

exit $T_FAILED
