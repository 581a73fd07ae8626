# shellcheck shell=sh
# Helpers for the engine selftests: the PMU's engine/
# files, waiting for driver polls and the sample grid. Sourced after lib.sh
# (which has the device clock, the manual clock and the model).

# eng PMU FILE: a file of the PMU's engine/ directory
eng() { cat "$PMUS/$1/engine/$2"; }

# sim_engine_ns DEV: the engine time (ns since the enabling SET) of the
# emulator's DEV, as its model counts it
sim_engine_ns() { cut -d' ' -f1 "$SIM/dev$1/engine_time"; }

# clocks_ns DEV CLOCKS: device clocks as engine ns (whole ns, as the model)
clocks_ns() {
	f=$(cat "$SIM/dev$1/caps/device_frequency_khz")
	echo $(( $2 * 1000000 / f ))
}

# wait_polls PMU N: until the driver polled the device N more times
wait_polls() {
	wait_for file_ge "$PMUS/$1/engine/polls" $(($(eng "$1" polls) + $2))
}

# state_is PMU STATE: engine/state reads STATE
state_is() { read -r sv <"$PMUS/$1/engine/state" && [ "$sv" = "$2" ]; }

# wait_state PMU STATE: until engine/state reads STATE
wait_state() { wait_for state_is "$1" "$2"; }

# expect_foreign NAME PMU F0: the engine of PMU is FOREIGN (a QUERY
# reported a configuration other than the one set), counted once in
# engine/foreign_configs since it read F0
expect_foreign() {
	expect_eq "$1: the engine is foreign" "$(eng "$2" state)" foreign
	expect_eq "$1: counted in engine/foreign_configs" \
		$(($(eng "$2" foreign_configs) - $3)) 1
}

# sample_clock DEV J: the device clock sample J of the running
# configuration carries (fails where sample_time has none)
sample_clock() {
	echo "$2" >"$SIM/dev$1/sample_time" &&
		read -r _ _ sc_v <"$SIM/dev$1/sample_time" && echo "$sc_v"
}

# sample_grid DEV: "E P", the enable clock and the period in clocks of a
# periodic configuration (sample j falls due at E + (j + 1) * P)
sample_grid() {
	s0=$(sample_clock "$1" 0) && s1=$(sample_clock "$1" 1) &&
		echo $((s0 - (s1 - s0))) $((s1 - s0))
}

# sample_gap_is DEV J P: samples J and J + 1 of the running configuration
# fall due P device clocks apart
sample_gap_is() {
	sg_a=$(sample_clock "$1" "$2") && sg_b=$(sample_clock "$1" $(($2 + 1))) &&
		[ $((sg_b - sg_a)) = "$3" ]
}
