// SPDX-License-Identifier: GPL-2.0
/*
 * The emulator's firmware core, compiled into the driver's KUnit module for
 * the round-trip tests (driver encode -> emulator -> driver decode).
 */
#include "../sim/sim_fw.c"
#include "../sim/sim_clock.c"
#include "../sim/sim_model64.c"
#include "../sim/sim_traffic.c"
#include "../sim/sim_caps.c"
#include "../sim/sim_fuzz.c"
