# shellcheck shell=sh
# Helpers for the in-guest selftests: TAP lines, the emulator's debugfs, the
# PMUs' sysfs and the traffic model of Documentation/driver-api/mlx5-diag-firmware.rst.
# Every test prints "ok - NAME" or "not ok - NAME" lines, one per check, and
# exits non-zero when one failed; a test that cannot run prints "# SKIP REASON"
# and exits 0 (the host accepts only reasons declared in scripts/allowed-skips).

SIM=/sys/kernel/debug/mlx5_diag_sim
PMUS=/sys/bus/event_source/devices
MODDIR=${MODDIR:-/lib/modules/mlx5_diag}
T_FAILED=0
T_PREFIX=${T_PREFIX:-$(basename "$0" .sh)}

# PERF names the perf binary to test with (default: the one built from the
# test kernel's source; run.sh also runs tests with Debian's perf-debian).
PERF_BIN=${PERF:-perf}
perf() { command "$PERF_BIN" "$@"; }

ok() { echo "ok - $T_PREFIX: $*"; }
not_ok() { echo "not ok - $T_PREFIX: $*"; T_FAILED=1; }
diag() { echo "# $*"; }

# check NAME COMMAND...: ok when COMMAND succeeds
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1 (got '$2', want '$3')"
	fi
}

# expect_range NAME VALUE LOW HIGH (integers)
expect_range() {
	if [ "$2" -ge "$3" ] 2>/dev/null && [ "$2" -le "$4" ]; then
		ok "$1 ($2 in [$3, $4])"
	else
		not_ok "$1 (got '$2', want [$3, $4])"
	fi
}

# Milliseconds since boot (10 ms resolution: /proc/uptime has two
# decimals).
uptime_ms() {
	read -r up _ </proc/uptime
	echo $((${up%.*} * 1000 + 1${up#*.} * 10 - 1000))
}

# The PMU (mlx5_diag_<n>) serving emulated device <sim index> (not one kept
# after its device left while events were open: its engine is "gone").
pmu_of_sim() {
	for p in "$PMUS"/mlx5_diag_*; do
		pf=""
		ps=""
		read -r pf 2>/dev/null <"$p/function"
		[ "$pf" = "sim:$1" ] || continue
		read -r ps 2>/dev/null <"$p/engine/state"
		[ "$ps" != gone ] && echo "${p##*/}" && return 0
	done
	return 1
}

# Re-add an emulated device so the driver binds it again with new caps.
sim_readd() {
	echo 0 >"$SIM/dev$1/present" && echo 1 >"$SIM/dev$1/present"
}

# The emulator's time on device DEV stands still (sim_manual DEV) or follows
# the host again (sim_running DEV).
sim_manual() { echo manual >"$SIM/dev$1/clock_mode"; }
sim_running() { echo running >"$SIM/dev$1/clock_mode"; }

# sim_clock DEV: the device clock now
sim_clock() { read -r _ clock_v <"$SIM/dev$1/clock" && echo "$clock_v"; }

# sim_model DEV ID T0 T1: the traffic model of device DEV (the emulator's own
# code): C(T1) - C(T0) for a counter, or the value of a statistic over
# [T0, T1), engine ns (ns since the engine's enable on the device clock).
sim_model() {
	echo "$2 $3 $4" >"$SIM/dev$1/model" && read -r model_v <"$SIM/dev$1/model" &&
		echo "$model_v"
}

# log_mark NAME: a line marking this point in the kernel log; log_since
# NAME: the kernel log after it (a count of lines in the whole log stops
# working once the ring is full). The shell's pid keeps the marker unique.
log_mark() { echo "mlx5-diag-test: $1 $$" >/dev/kmsg; }
log_since() { dmesg | sed -n "/mlx5-diag-test: $1 $$\$/,\$p" | tail -n +2; }

# nap SECS: sleep SECS (a fraction allowed) without starting a process: a
# read that times out on a FIFO no one writes to (fd 9, opened once per
# shell that sources this). Under TCG with the debug kernel a process
# costs about 0.3 s of guest time, so a polling loop of sleep and cat
# keeps a vCPU busy by itself, and the driver and the emulator it waits
# for run at half speed; the loops here start none.
nap_fifo=/tmp/nap.$$
mkfifo "$nap_fifo" && exec 9<>"$nap_fifo" && rm -f "$nap_fifo" ||
	not_ok "no FIFO for nap at $nap_fifo: every wait would end at once"
nap() { read -r -t "$1" _ <&9 || :; }

# wait_every SECS TRIES COMMAND...: until COMMAND (a program or a shell
# function) succeeds, trying every SECS s; fails after TRIES tries (a
# loaded host only makes the wait longer, never a check wrong).
wait_every() {
	every=$1
	most=$2
	shift 2
	tries=0
	until "$@"; do
		tries=$((tries + 1))
		[ $tries -ge "$most" ] && return 1
		nap "$every"
	done
}

# wait_for COMMAND...: wait_every 10 ms, 6000 tries (60 s or more)
wait_for() { wait_every 0.01 6000 "$@"; }

# file_ge FILE N: FILE holds a number of at least N (read by the shell:
# the predicates that wait_for polls start no process)
file_ge() { read -r fv <"$1" && [ "$fv" -ge "$2" ]; }

# sim_wait_cmds DEV N: wait until device DEV answered N more commands than
# when called.
sim_wait_cmds() {
	read -r wc0 <"$SIM/dev$1/stats/commands" &&
		wait_for file_ge "$SIM/dev$1/stats/commands" $((wc0 + $2))
}

# count_until FILE EVENT: perf stat counts EVENT system-wide in the
# background until FILE exists ($! is its pid): the event stays open for
# as long as the test needs it, however slowly the host runs the guest.
count_until() {
	rm -f "$1"
	perf stat -e "$2" -a -- sh -c ". ./lib.sh; until [ -e $1 ]; do nap 0.01; done" \
		>/dev/null 2>&1 &
}

# sim_advance DEV NS: move the manual time of device DEV on by NS ns and
# return after three more commands: the driver's next poll has then been
# answered and folded into its counts. Use multiples of 32 ns: whole
# clocks of the 156.25 MHz default, so engine time moves by exactly NS.
sim_advance() {
	echo "$2" >"$SIM/dev$1/advance_ns" && sim_wait_cmds "$1" 3
}

# stat_stepped [-I MS] [-T SECS] [-M] EVENTS DEV:NS...: perf stat -x';' (per
# MS ms intervals with -I; with -M, EVENTS are metrics, -M EVENTS, and the
# output JSON lines, -j) of EVENTS system-wide while the manual time of each
# device DEV (frozen here) moves on by NS, one step after the other, 0.3 s
# apart, after 0.5 s for perf to enable the counters, then SECS s more
# (-T; 0 by default). The engine time starts
# at 0 when perf opens the events, so a counter ends at exactly
# sim_model DEV ID 0 <the sum of DEV's steps>. Prints perf's output (and
# STEP-TIMEOUT if the driver did not poll after a step).
stat_stepped() {
	opts=""
	sel=-e
	fmt=-x';'
	tail=0
	while :; do
		case "$1" in
		-I) opts="-I $2"; shift 2 ;;
		-T) tail=$2; shift 2 ;;
		-M) sel=-M; fmt=-j; shift ;;
		*) break ;;
		esac
	done
	evs=$1
	shift
	steps=""
	for s in "$@"; do
		sim_manual "${s%%:*}"
		steps="$steps sleep 0.3; sim_advance ${s%%:*} ${s#*:} || echo STEP-TIMEOUT;"
	done
	# shellcheck disable=SC2086
	timeout 120 "$PERF_BIN" stat $opts "$fmt" "$sel" "$evs" -a -- \
		sh -c ". ./lib.sh; sleep 0.5; $steps sleep $tail" 2>&1
}

# stat_value OUTPUT EVENT: the count of EVENT in perf stat -x';' OUTPUT
stat_value() {
	sval=""
	while IFS= read -r line; do
		case "$line" in
		"#"*) ;;
		*"$2"*) sval=${line%%;*} ;;
		esac
	done <<EOF
$1
EOF
	echo "$sval"
}

# perf_errno PERF-ARGS...: run perf with -vv and print the errno of the
# first failed perf_event_open, or 0 when every open worked. (perf stat
# shows some refusals only as "<not supported>"; -vv tells the errno.)
# KILL after 60 s: perf 6.12 retrying a group member's open for ever
# (EOPNOTSUPP, with and without exclude_guest) did not end on SIGTERM.
perf_errno() {
	sub=$1
	shift
	out=$(timeout -s KILL 60 "$PERF_BIN" "$sub" -vv "$@" 2>&1)
	# A failure perf retries is not the answer: one it announces
	# ("switching off ..."), and EINVAL for an attempt with exclude_guest
	# or exclude_host set, which the driver refuses and perf then retries
	# without (perf 6.1 announces that only for its first event).
	e=$(echo "$out" | awk '
		/^perf_event_attr:/ { excl = 0 }
		/^  exclude_(guest|host) / { excl = 1 }
		/^sys_perf_event_open failed, error -/ {
			if (!(excl && $NF == "-22")) p = substr($NF, 2)
			next
		}
		/^switching off/ { p = ""; next }
		/^sys_perf_event_open:/ { if (p != "") { print p; done = 1; exit } }
		END { if (!done && p != "") print p }')
	if [ -n "$e" ]; then
		echo "$e"
	elif echo "$out" | grep -q '^sys_perf_event_open: '; then
		echo 0
	else
		echo "$out" | tail -3 | sed 's/^/# perf: /' >&2
		echo unknown
	fi
}

# The errno perf_event_open gives a system-wide counting event, or 0.
perf_open_errno() {
	perf_errno stat -e "$1" -a true
}

# worker_ns: run time of every kernel worker thread, summed (schedstat, ns)
worker_ns() {
	t=0
	for d in /proc/[0-9]*; do
		case "$(cat "$d/comm" 2>/dev/null)" in
		kworker*) t=$((t + $(cut -d' ' -f1 "$d/schedstat" 2>/dev/null || echo 0))) ;;
		esac
	done
	echo $t
}
