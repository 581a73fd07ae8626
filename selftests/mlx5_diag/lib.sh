# shellcheck shell=sh
# Helpers for the in-guest selftests: TAP lines, the emulator's debugfs, the
# PMUs' sysfs and the traffic model of Documentation/driver-api/mlx5-diag-firmware.rst.
# Every test prints "ok - NAME" or "not ok - NAME" lines; run.sh counts them.

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

# The PMU (mlx5_diag_<n>) serving emulated device <sim index>.
pmu_of_sim() {
	for p in "$PMUS"/mlx5_diag_*; do
		[ "$(cat "$p/identifier" 2>/dev/null)" = "sim:$1" ] && basename "$p" && return 0
	done
	return 1
}

# Re-add an emulated device so the driver binds it again with new caps.
sim_readd() {
	echo 0 >"$SIM/dev$1/present" && echo 1 >"$SIM/dev$1/present"
}

# The traffic model's rate r(d, n) in events per microsecond.
model_rate() {
	id=$1
	n=$2
	k=$(( (id >> 32) & 0xffffffff ))
	i=$(( id & 0xffffffff ))
	echo $(( 1 + (k % 251 + 7 * i + 13 * n) % 509 ))
}

# perf stat -x';' one event (event names contain commas); prints
# "value runtime_ns", or "ERR <perf's output>".
perf_stat_value() {
	ev=$1
	shift
	out=$(timeout 60 "$PERF_BIN" stat -x';' -e "$ev" "$@" 2>&1)
	line=$(echo "$out" | grep -F "$ev" | grep -v '^#' | tail -1)
	val=$(echo "$line" | cut -d';' -f1)
	run=$(echo "$line" | cut -d';' -f4)
	case "$val" in
	''|*[!0-9]*) echo "ERR $out" ;;
	*) echo "$val $run" ;;
	esac
}

# perf_errno PERF-ARGS...: run perf with -vv and print the errno of the
# first failed perf_event_open, or 0 when every open worked. (perf stat
# shows some refusals only as "<not supported>"; -vv tells the errno.)
perf_errno() {
	sub=$1
	shift
	out=$(timeout 60 "$PERF_BIN" "$sub" -vv "$@" 2>&1)
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
