# shellcheck shell=sh
# Helpers for the engine selftests: the emulator's manual clock and model,
# the PMU's engine/ files, and waiting for driver polls. Sourced after lib.sh.

# eng PMU FILE: a file of the PMU's engine/ directory
eng() { cat "$PMUS/$1/engine/$2"; }

# sim_manual DEV: the emulator's clock of device DEV advances only on demand
sim_manual() { echo manual >"$SIM/dev$1/clock_mode"; }
sim_running() { echo running >"$SIM/dev$1/clock_mode"; }

# sim_clock DEV: the device clock now
sim_clock() { cut -d' ' -f2 "$SIM/dev$1/clock"; }

# sim_model DEV ID T0_NS T1_NS: the model's value of ID over engine time
sim_model() {
	echo "$2 $3 $4" >"$SIM/dev$1/model" && cat "$SIM/dev$1/model"
}

# clocks_ns DEV CLOCKS: device clocks as engine ns (whole ns, as the model)
clocks_ns() {
	f=$(cat "$SIM/dev$1/caps/device_frequency_khz")
	echo $(( $2 * 1000000 / f ))
}

# wait_polls PMU N: until the driver polled the device N more times (10 s)
wait_polls() {
	p0=$(eng "$1" polls)
	i=0
	while [ "$(eng "$1" polls)" -lt $((p0 + $2)) ] && [ $i -lt 1000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	[ "$(eng "$1" polls)" -ge $((p0 + $2)) ]
}

# wait_state PMU STATE: until engine/state reads STATE (10 s)
wait_state() {
	i=0
	while [ "$(eng "$1" state)" != "$2" ] && [ $i -lt 1000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	[ "$(eng "$1" state)" = "$2" ]
}

# advance_polled DEV PMU NS: advance the manual clock, then wait for two
# polls so that the driver has folded everything up to the new time
advance_polled() {
	echo "$3" >"$SIM/dev$1/advance_ns" && wait_polls "$2" 2
}

# count_of FILE EVENT: the value perf stat -x';' printed for EVENT
count_of() {
	grep -F "$2" "$1" | grep -v '^#' | tail -1 | cut -d';' -f1
}

# sample_grid DEV: "E P", the enable clock and the period in clocks of a
# periodic configuration (sample j falls due at E + (j + 1) * P)
sample_grid() {
	echo 0 >"$SIM/dev$1/sample_time"
	s0=$(cut -d' ' -f3 "$SIM/dev$1/sample_time")
	echo 1 >"$SIM/dev$1/sample_time"
	s1=$(cut -d' ' -f3 "$SIM/dev$1/sample_time")
	echo $((s0 - (s1 - s0))) $((s1 - s0))
}
