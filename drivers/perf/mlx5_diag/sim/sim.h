/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5_diag_sim: API of the pure firmware core (sim_fw.c and friends), used
 * by the module glue (sim_main.c) and by the KUnit suites, to which the
 * module exports it (EXPORT_SYMBOL_IF_KUNIT).
 */
#ifndef _MLX5_DIAG_SIM_H
#define _MLX5_DIAG_SIM_H

#include <linux/types.h>

struct mlx5_diag_sim_fw;

#define MLX5_DIAG_SIM_MAX_COUNTERS	256	/* ids per configuration, list sizes */
#define MLX5_DIAG_SIM_NUM_KINDS		41	/* DOCA's data-ID table */
#define MLX5_DIAG_SIM_NUM_IDS16		13	/* mlx5ctl's table */
#define MLX5_DIAG_SIM_MAX_LOG_SAMPLES	16	/* sample_index is 16 bits */
#define MLX5_DIAG_SIM_MAX_LOG_PERIOD	35	/* rule 4 */
#define MLX5_DIAG_SIM_MAX_FREQ_KHZ	10000000
#define MLX5_DIAG_SIM_OUT_HDR_BYTES	8	/* status + syndrome */
#define MLX5_DIAG_SIM_MAX_DRIFT_PPM	1000
/* the modelled real-time clock reads this many seconds at device clock 0 */
#define MLX5_DIAG_SIM_RTC_EPOCH_S	1700000000ULL

/**
 * enum mlx5_diag_sim_profile - which firmware the device behaves like
 * @MLX5_DIAG_SIM_MODEL64: the project's model: the capabilities of part 3,
 *	modelled DEBUG bits included
 * @MLX5_DIAG_SIM_PUBLIC: firmware that speaks only the public PRM
 *	interface: 16-bit counter ids, every modelled DEBUG bit reserved (0),
 *	no on-demand mode, sync by the per-counter bits only, and
 *	QUERY_HCA_CAP answered only into a whole capability union
 */
enum mlx5_diag_sim_profile {
	MLX5_DIAG_SIM_MODEL64,
	MLX5_DIAG_SIM_PUBLIC,
};

/**
 * enum mlx5_diag_sim_lie - firmware that answers other than it runs, for
 * fault injection; each lie is off (0) by default
 * @MLX5_DIAG_SIM_LIE_PARAMS_LOG_NUM: while the engine is enabled,
 *	QUERY_DIAGNOSTIC_PARAMS reports this log_num_of_samples (a larger
 *	buffer than the one set)
 * @MLX5_DIAG_SIM_LIE_PARAMS_NUM_IDS: while the engine is enabled,
 *	QUERY_DIAGNOSTIC_PARAMS reports this num_of_counters; the ids past
 *	the engine's read 0, and past the outbox are not written
 * @MLX5_DIAG_SIM_LIE_PARAMS_LOG_PERIOD: while the engine is enabled,
 *	QUERY_DIAGNOSTIC_PARAMS reports this log_sample_period
 * @MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS: the 64-bit dialect's DEBUG capability
 *	reports this max_num_data_ids
 * @MLX5_DIAG_SIM_LIE_RING_AHEAD: 1: QUERY_DIAGNOSTIC_COUNTERS in a periodic
 *	mode answers every slot as one lap ahead of its reader: consecutive
 *	sample ids, the first a lap past what the slot asked for holds (at
 *	least the engine's next sample id), each stamped with the device
 *	clock at the query, so that the reader never catches up
 * @MLX5_DIAG_SIM_LIE_ENTRIES_REVERSED: 1: QUERY_DIAGNOSTIC_COUNTERS
 *	answers the entries of each sample in the reverse of the
 *	configuration's order, each with its id and value; 2: those of the
 *	odd-numbered samples only, an order that changes from sample to
 *	sample (A12 read otherwise: firmware of one other order for a whole
 *	configuration is MLX5_DIAG_SIM_VAR_ENTRY_ORDER)
 * @MLX5_DIAG_SIM_LIE_ENTRY_TS_BACK: J: QUERY_DIAGNOSTIC_COUNTERS answers
 *	the last entry of sample J (of two entries or more) stamped one
 *	clock (on the RTC, one nanosecond) before the sample taken before
 *	it (before the configuration's start for sample 0): older than a
 *	sample before it, which no reading of A2 allows
 * @MLX5_DIAG_SIM_LIE_SAMPLING_STOPS: J: in a periodic mode the engine takes
 *	no sample past a configuration's first J while it reports itself
 *	enabled, as a sampler that stopped: the buffer keeps what it holds
 *	for good; set to 0 while enabled, the engine takes the samples due
 *	since, as if late
 * @MLX5_DIAG_SIM_NR_LIES: how many
 */
enum mlx5_diag_sim_lie {
	MLX5_DIAG_SIM_LIE_PARAMS_LOG_NUM,
	MLX5_DIAG_SIM_LIE_PARAMS_NUM_IDS,
	MLX5_DIAG_SIM_LIE_PARAMS_LOG_PERIOD,
	MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS,
	MLX5_DIAG_SIM_LIE_RING_AHEAD,
	MLX5_DIAG_SIM_LIE_ENTRIES_REVERSED,
	MLX5_DIAG_SIM_LIE_ENTRY_TS_BACK,
	MLX5_DIAG_SIM_LIE_SAMPLING_STOPS,
	MLX5_DIAG_SIM_NR_LIES,
};

/**
 * enum mlx5_diag_sim_variant - firmware that behaves otherwise where the
 * public sources leave the behaviour open: each a reading of those
 * sources that the emulator's default does not take (see the firmware
 * document's table of assumptions); each off (0) by default, any
 * combination allowed
 * @MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO: 1: QUERY_DIAGNOSTIC_COUNTERS answers a
 *	slot never written since the buffer was emptied with every field 0,
 *	the counter ids too (A6)
 * @MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS: 16 or 32: the firmware's sample
 *	numbering wraps at 2^value, whatever the width of the sample_id
 *	field it is written into (16 in the public dialect, 32 in the
 *	modelled one); 0: the field's width (A1)
 * @MLX5_DIAG_SIM_VAR_BUSY_EVERY: N: every Nth command (stats/commands a
 *	multiple of N) is answered RES_BUSY and not run; N >= 2 is a
 *	transient refusal the next try gets past, 1 a lasting one (A17)
 * @MLX5_DIAG_SIM_VAR_PERIOD_RESTART: 1: a SET that changes only the period
 *	restarts the sample numbering: the next sample is 0, in slot 0 (A8)
 * @MLX5_DIAG_SIM_VAR_PERIOD_CLEAR: 1: a SET that changes only the period
 *	empties the buffer (its unreturned samples are discarded) (A8)
 * @MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND: 1: the public profile takes a SET
 *	with on_demand, the public context bit, though no public capability
 *	bit tells it (A16)
 * @MLX5_DIAG_SIM_VAR_ENTRY_JITTER: J (less than 2^log_min_sample_period):
 *	the entries of a sample are stamped up to J clocks (on the RTC,
 *	nanoseconds) apart, in an order that changes from sample to sample:
 *	entry c of sample j k * J / (num - 1) after the sample's time, k =
 *	(c - j) mod num, so that entry j mod num carries the sample's time
 *	(A2)
 * @MLX5_DIAG_SIM_VAR_ENTRY_ORDER: 1 or 2: a sample's entries come by
 *	ascending (1) or descending (2) data ID, not in the SET's order; the
 *	order is the configuration's, taken at the SET that starts it (A12)
 * @MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES: 1: the sample numbering runs on
 *	across the SETs that start configurations: a configuration's first
 *	sample is numbered one past the last sample the one before took, and
 *	sample id i lands in slot i mod 2^log_num_of_samples (A1)
 * @MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT: 1: a written slot's sample_id is the
 *	slot's index, not the sample's number: the samples of one lap are
 *	told from another's only by their time (A1)
 * @MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED: 1: QUERY_DIAGNOSTIC_PARAMS reports
 *	the log_sample_period the SET asked for, not the one the firmware
 *	raised it to: the actual period shows only in the timestamps (A9)
 * @MLX5_DIAG_SIM_VAR_RTC_STILL: 1: samples stamped from the RTC all carry
 *	its reading at the SET that started the configuration: the stamps
 *	stand still while the RTC itself runs on (A4)
 * @MLX5_DIAG_SIM_NR_VARIANTS: how many
 */
enum mlx5_diag_sim_variant {
	MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO,
	MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS,
	MLX5_DIAG_SIM_VAR_BUSY_EVERY,
	MLX5_DIAG_SIM_VAR_PERIOD_RESTART,
	MLX5_DIAG_SIM_VAR_PERIOD_CLEAR,
	MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND,
	MLX5_DIAG_SIM_VAR_ENTRY_JITTER,
	MLX5_DIAG_SIM_VAR_ENTRY_ORDER,
	MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES,
	MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT,
	MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED,
	MLX5_DIAG_SIM_VAR_RTC_STILL,
	MLX5_DIAG_SIM_NR_VARIANTS,
};

/* Firmware status codes (part 1). */
enum mlx5_diag_sim_status {
	MLX5_DIAG_SIM_ST_OK		= 0x0,
	MLX5_DIAG_SIM_ST_INT_ERR	= 0x1,
	MLX5_DIAG_SIM_ST_BAD_OP		= 0x2,
	MLX5_DIAG_SIM_ST_BAD_PARAM	= 0x3,
	MLX5_DIAG_SIM_ST_BAD_SYS_STATE	= 0x4,
	MLX5_DIAG_SIM_ST_BAD_RES	= 0x5,
	MLX5_DIAG_SIM_ST_RES_BUSY	= 0x6,
	MLX5_DIAG_SIM_ST_EXCEED_LIM	= 0x8,
	MLX5_DIAG_SIM_ST_BAD_RES_STATE	= 0x9,
	MLX5_DIAG_SIM_ST_BAD_INDEX	= 0xa,
	MLX5_DIAG_SIM_ST_NO_RES		= 0xf,
	MLX5_DIAG_SIM_ST_BAD_QP_STATE	= 0x10,
	MLX5_DIAG_SIM_ST_BAD_PKT	= 0x30,
	MLX5_DIAG_SIM_ST_BAD_SIZE	= 0x40,
	MLX5_DIAG_SIM_ST_BAD_INP_LEN	= 0x50,
	MLX5_DIAG_SIM_ST_BAD_OUTP_LEN	= 0x51,
};

/*
 * Syndromes: the emulator's own, one per check, so that a test can tell
 * which rule refused a command. Not a firmware contract.
 */
enum mlx5_diag_sim_syndrome {
	MLX5_DIAG_SIM_SYND_NONE			= 0,
	MLX5_DIAG_SIM_SYND_BAD_OPCODE		= 0x5d1a0001,
	MLX5_DIAG_SIM_SYND_BAD_OP_MOD		= 0x5d1a0002,
	MLX5_DIAG_SIM_SYND_SHORT_INPUT		= 0x5d1a0003,
	MLX5_DIAG_SIM_SYND_SHORT_OUTPUT		= 0x5d1a0004,
	/* SET_DIAGNOSTIC_PARAMS, by rule number */
	MLX5_DIAG_SIM_SYND_SINGLE_REPETITIVE	= 0x5d1a0010,	/* rule 1 */
	MLX5_DIAG_SIM_SYND_ON_DEMAND_COMBO	= 0x5d1a0020,	/* rule 2 */
	MLX5_DIAG_SIM_SYND_CLEAR_NO_SYNC	= 0x5d1a0030,	/* rule 3 */
	MLX5_DIAG_SIM_SYND_PERIOD_LOW		= 0x5d1a0040,	/* rule 4 */
	MLX5_DIAG_SIM_SYND_PERIOD_HIGH		= 0x5d1a0041,	/* rule 4 */
	MLX5_DIAG_SIM_SYND_LOG_SAMPLES		= 0x5d1a0050,	/* rule 5 */
	MLX5_DIAG_SIM_SYND_BUFFER_SHARE		= 0x5d1a0051,	/* rule 5 */
	MLX5_DIAG_SIM_SYND_NUM_COUNTERS		= 0x5d1a0080,	/* rule 8 */
	MLX5_DIAG_SIM_SYND_UNSUPPORTED_ID	= 0x5d1a0081,	/* rule 8 */
	MLX5_DIAG_SIM_SYND_NO_SYNC		= 0x5d1a0082,	/* rule 8 */
	MLX5_DIAG_SIM_SYND_BAD_INSTANCE		= 0x5d1a0083,	/* part 2 */
	MLX5_DIAG_SIM_SYND_NO_SINGLE		= 0x5d1a0091,	/* rule 9 */
	MLX5_DIAG_SIM_SYND_NO_REPETITIVE	= 0x5d1a0092,	/* rule 9 */
	MLX5_DIAG_SIM_SYND_NO_ON_DEMAND		= 0x5d1a0093,	/* rule 9 */
	MLX5_DIAG_SIM_SYND_NO_SYNC_START	= 0x5d1a0094,	/* rule 9 */
	MLX5_DIAG_SIM_SYND_NO_DATA_CLEAR	= 0x5d1a0095,	/* rule 9 */
	MLX5_DIAG_SIM_SYND_NO_TRACER_DUMP	= 0x5d1a0096,	/* rule 9 */
	MLX5_DIAG_SIM_SYND_NO_RTC		= 0x5d1a0097,	/* part 2 */
	MLX5_DIAG_SIM_SYND_NO_MODE		= 0x5d1a00a0,
	/* QUERY_DIAGNOSTIC_COUNTERS */
	MLX5_DIAG_SIM_SYND_NOT_CONFIGURED	= 0x5d1a00b0,
	MLX5_DIAG_SIM_SYND_ZERO_SAMPLES		= 0x5d1a00b1,
	MLX5_DIAG_SIM_SYND_SAMPLE_INDEX		= 0x5d1a00b2,
	MLX5_DIAG_SIM_SYND_TOO_MANY_SAMPLES	= 0x5d1a00b3,
	/* any command: busy_every */
	MLX5_DIAG_SIM_SYND_BUSY			= 0x5d1a00c0,
};

/* bad_data_id_reason of the 64-bit dialect (part 2). */
enum mlx5_diag_sim_bad_id_reason {
	MLX5_DIAG_SIM_BAD_ID_NONE		= 0,
	MLX5_DIAG_SIM_BAD_ID_KIND		= 1,
	MLX5_DIAG_SIM_BAD_ID_SYNC		= 2,
	MLX5_DIAG_SIM_BAD_ID_INSTANCE		= 3,
};

/**
 * struct mlx5_diag_sim_caps - the capabilities a device reports
 * @dialect64: the modelled 64-bit data-ID dialect (``diag_data_id_64``);
 *	false: the public 16-bit dialect
 * @nr_kinds: entries in @kinds
 * @kinds: data-ID kinds (bits 63:32) listed in the DEBUG capability, in
 *	order; each one of DOCA's data-ID table, no duplicates
 * @nr_sync_kinds: entries in @sync_kinds
 * @sync_kinds: kinds that support synchronized start (listed or not)
 * @nr_ids: entries in @ids
 * @ids: 16-bit counter ids listed in the public dialect, in order
 * @nr_sync_ids: entries in @sync_ids
 * @sync_ids: 16-bit counter ids that support synchronized start
 * @max_num_data_ids: data IDs selectable at once (64-bit dialect)
 * @log_max_samples: the buffer holds 2^log_max_samples counter values
 * @log_min_sample_period: minimum period, log2 of device clocks
 * @freq_khz: device clock frequency
 * @single: single mode supported
 * @repetitive: repetitive mode supported
 * @on_demand: on-demand mode supported (modelled)
 * @sync_start: synchronized start supported (modelled)
 * @data_clear: clear with synchronized start supported (modelled)
 * @rtc: the real-time clock timestamp source is offered (modelled; with
 *	@dialect64 only)
 * @num_ports: valid port numbers 0..num_ports-1
 * @num_hosts: valid host indices
 * @num_functions: valid function numbers
 * @num_pcie_links: PCIe links known to the device
 */
struct mlx5_diag_sim_caps {
	bool dialect64;
	u32 nr_kinds;
	u32 kinds[MLX5_DIAG_SIM_NUM_KINDS];
	u32 nr_sync_kinds;
	u32 sync_kinds[MLX5_DIAG_SIM_NUM_KINDS];
	u32 nr_ids;
	u16 ids[MLX5_DIAG_SIM_MAX_COUNTERS];
	u32 nr_sync_ids;
	u16 sync_ids[MLX5_DIAG_SIM_MAX_COUNTERS];
	u32 max_num_data_ids;
	u32 log_max_samples;
	u32 log_min_sample_period;
	u32 freq_khz;
	bool single;
	bool repetitive;
	bool on_demand;
	bool sync_start;
	bool data_clear;
	bool rtc;
	u32 num_ports;
	u32 num_hosts;
	u32 num_functions;
	u32 num_pcie_links;
};

/**
 * struct mlx5_diag_sim_stats - what the firmware core counted
 * @samples_produced: samples the engine took (periodic and on demand)
 * @samples_returned: samples a query returned (at least one entry of),
 *	each counted once
 * @samples_overwritten: samples taken over by a newer one before any query
 *	returned them
 * @samples_discarded: samples dropped unreturned by a buffer reset (disable
 *	with clear, a capability or profile change)
 * @configs: accepted SET_DIAGNOSTIC_PARAMS commands, from any agent
 * @commands: commands answered (any status)
 * @commands_failed: commands answered with a status other than OK
 * @answers_fuzzed: answers the fuzzer mutated (after the counts above were
 *	taken: they describe what the firmware did, not what it reported)
 *
 * The four sample counts describe the configuration in force: an accepted
 * SET that starts sampling anew resets them (one that changes only the
 * sample period does not). Samples produced = returned + overwritten +
 * discarded + those still unreturned in the buffer. The last three counts
 * are never reset.
 */
struct mlx5_diag_sim_stats {
	u64 samples_produced;
	u64 samples_returned;
	u64 samples_overwritten;
	u64 samples_discarded;
	u64 configs;
	u64 commands;
	u64 commands_failed;
	u64 answers_fuzzed;
};

/* sim_fw.c: the device */

/**
 * mlx5_diag_sim_default_caps() - the capability defaults of part 3
 * @caps: filled in
 */
void mlx5_diag_sim_default_caps(struct mlx5_diag_sim_caps *caps);

/**
 * mlx5_diag_sim_fw_create() - a device's firmware state, as at creation
 * @index: the device number n (traffic model, identifier "sim:<n>")
 *
 * Default capabilities, engine disabled and unconfigured, device clock at
 * the default clock_offset. May sleep (GFP_KERNEL).
 *
 * Return: the state, or NULL when out of memory.
 */
struct mlx5_diag_sim_fw *mlx5_diag_sim_fw_create(unsigned int index);

/**
 * mlx5_diag_sim_fw_destroy() - free a device's firmware state
 * @fw: from mlx5_diag_sim_fw_create(), or NULL
 */
void mlx5_diag_sim_fw_destroy(struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_exec() - execute one firmware command
 * @fw: the device
 * @now_ns: nanoseconds since the device was created; a value below one
 *	already seen is taken as the one already seen (time never runs back)
 * @in: input mailbox (big-endian, header first)
 * @inlen: its length in bytes
 * @out: output mailbox; zeroed, then the answer is written
 * @outlen: its length in bytes
 *
 * Brings the sampling engine up to date with @now_ns, then answers the
 * command with status and syndrome in @out. Never sleeps, never reads a
 * clock: every result is a function of the arguments and earlier calls.
 * The caller serialises calls on one @fw.
 *
 * Return: 0 when the firmware answered (look at the status in @out);
 * -EINVAL when no answer can be written (NULL mailbox, negative length,
 * @outlen shorter than the output header); -EIO when the fuzzer dropped the
 * answer (see mlx5_diag_sim_fw_set_fuzz()).
 */
int mlx5_diag_sim_fw_exec(struct mlx5_diag_sim_fw *fw, u64 now_ns,
			  const void *in, int inlen, void *out, int outlen);

/**
 * mlx5_diag_sim_fw_sync() - bring the engine up to date without a command
 * @fw: the device
 * @now_ns: nanoseconds since creation
 *
 * Used before reading statistics so that they count every sample due.
 */
void mlx5_diag_sim_fw_sync(struct mlx5_diag_sim_fw *fw, u64 now_ns);

/**
 * mlx5_diag_sim_fw_get_caps() - copy the current capabilities
 * @fw: the device
 * @caps: filled in
 */
void mlx5_diag_sim_fw_get_caps(const struct mlx5_diag_sim_fw *fw,
			       struct mlx5_diag_sim_caps *caps);

/**
 * mlx5_diag_sim_fw_set_caps() - replace the capabilities
 * @fw: the device
 * @now_ns: nanoseconds since creation (a frequency change keeps the device
 *	clock continuous at this instant)
 * @caps: the new capabilities
 *
 * A change of dialect or log_max_samples resets the engine (configuration
 * dropped, buffer emptied and resized; unreturned samples count as
 * discarded). May sleep (GFP_KERNEL).
 *
 * Return: 0; -EINVAL for capabilities out of range (see
 * mlx5_diag_sim_caps_validate()); -EBUSY for a change of dialect,
 * log_max_samples or device_frequency_khz while the engine is enabled;
 * -ENOMEM.
 */
int mlx5_diag_sim_fw_set_caps(struct mlx5_diag_sim_fw *fw, u64 now_ns,
			      const struct mlx5_diag_sim_caps *caps);

/**
 * mlx5_diag_sim_fw_get_stats() - copy the statistics
 * @fw: the device
 * @stats: filled in (as of the last command or mlx5_diag_sim_fw_sync())
 */
void mlx5_diag_sim_fw_get_stats(const struct mlx5_diag_sim_fw *fw,
				struct mlx5_diag_sim_stats *stats);

/**
 * mlx5_diag_sim_fw_clock() - the device clock
 * @fw: the device
 * @now_ns: nanoseconds since creation
 *
 * Without drift or steps: clock_offset + now_ns * device_frequency_khz /
 * 10^6, modulo 2^64. In general the clock_offset, plus every step, plus the
 * clocks of an oscillator that runs device_frequency_khz * (1 + ppm / 10^6)
 * clocks per millisecond (part 3). Times before the clock history held
 * (reset at each enable and frequency change) read as its start.
 *
 * Return: the device clock at @now_ns.
 */
u64 mlx5_diag_sim_fw_clock(const struct mlx5_diag_sim_fw *fw, u64 now_ns);

/**
 * mlx5_diag_sim_fw_read_clock() - what the device's clock registers read
 * @fw: the device
 * @now_ns: nanoseconds since creation
 * @rtc: the real-time clock (s << 32 | ns) rather than the FRC
 * @value: the reading
 *
 * Return: 0, or -EOPNOTSUPP for @rtc on a device that offers no RTC.
 */
int mlx5_diag_sim_fw_read_clock(const struct mlx5_diag_sim_fw *fw, u64 now_ns,
				bool rtc, u64 *value);

/**
 * mlx5_diag_sim_fw_drift_ppm() - the device clock's current drift
 * @fw: the device
 *
 * Return: parts per million, -1000..1000.
 */
s32 mlx5_diag_sim_fw_drift_ppm(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_set_drift_ppm() - let the device clock drift
 * @fw: the device
 * @now_ns: nanoseconds since creation: the drift applies from here on,
 *	the clock stays continuous
 * @ppm: the oscillator runs at device_frequency_khz * (1 + ppm / 10^6)
 *
 * Return: 0, or -EINVAL for @ppm outside -1000..1000.
 */
int mlx5_diag_sim_fw_set_drift_ppm(struct mlx5_diag_sim_fw *fw, u64 now_ns,
				   s32 ppm);

/**
 * mlx5_diag_sim_fw_clock_step() - the device clock jumps
 * @fw: the device
 * @now_ns: nanoseconds since creation
 * @clocks: the jump, may be negative (the clock is modulo 2^64)
 *
 * Samples already due keep their timestamps; the sampling schedule (an
 * oscillator count) is not moved, only the clock values it reads.
 */
void mlx5_diag_sim_fw_clock_step(struct mlx5_diag_sim_fw *fw, u64 now_ns,
				 s64 clocks);

/**
 * mlx5_diag_sim_fw_sample_time() - when a sample was or will be taken
 * @fw: the device
 * @j: the sample's index since the engine was enabled
 * @now_ns: filled in: the first nanosecond (since creation) at which the
 *	sample is due
 * @clock: filled in: the device clock it carries (the FRC value, also
 *	when the RTC timestamp source is selected)
 *
 * Return: 0; -ENODATA when the engine is not enabled in a periodic mode,
 * when a single-mode run never takes sample @j, or when the clock or
 * period changes since the sample are more than the core remembers (16
 * of each); -ERANGE when @j is beyond the device clock's range.
 */
int mlx5_diag_sim_fw_sample_time(const struct mlx5_diag_sim_fw *fw, u64 j,
				 u64 *now_ns, u64 *clock);

/**
 * mlx5_diag_sim_fw_engine_time() - the engine time the traffic model counts
 * @fw: the device
 * @now_ns: nanoseconds since creation
 * @clocks: filled in: oscillator clocks since the configuration in force
 *	started (its enabling SET)
 * @ns: filled in: @clocks in ns, as the traffic model takes them
 *	(mlx5_diag_sim_clocks_to_ns())
 *
 * What a sample taken at @now_ns (an on-demand query's) covers, exactly,
 * whatever the drift, its changes and the fraction of a clock they carry.
 *
 * Return: 0, or -ENODATA when the engine is not enabled.
 */
int mlx5_diag_sim_fw_engine_time(const struct mlx5_diag_sim_fw *fw,
				 u64 now_ns, u64 *clocks, u64 *ns);

/**
 * mlx5_diag_sim_fw_profile() - the firmware profile
 * @fw: the device
 *
 * Return: the profile.
 */
enum mlx5_diag_sim_profile
mlx5_diag_sim_fw_profile(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_set_profile() - behave like other firmware
 * @fw: the device
 * @profile: the new profile
 *
 * A change resets the engine like a change of dialect; the capabilities
 * are kept (the public profile ignores those it has no field for).
 *
 * Return: 0, -EINVAL for an unknown profile, or -EBUSY while the engine
 * is enabled.
 */
int mlx5_diag_sim_fw_set_profile(struct mlx5_diag_sim_fw *fw,
				 enum mlx5_diag_sim_profile profile);

/**
 * mlx5_diag_sim_fw_entries_unit() - how num_of_samples is read
 * @fw: the device
 *
 * Return: true when QUERY_DIAGNOSTIC_COUNTERS reads num_of_samples as
 * entries (mlx5ctl's reading), false for samples (MLNX_OFED's, default).
 */
bool mlx5_diag_sim_fw_entries_unit(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_set_entries_unit() - choose the num_of_samples reading
 * @fw: the device
 * @entries: true for entries, false for samples
 */
void mlx5_diag_sim_fw_set_entries_unit(struct mlx5_diag_sim_fw *fw,
				       bool entries);

/**
 * mlx5_diag_sim_fw_clock_offset() - the device clock at creation
 * @fw: the device
 *
 * Return: the clock offset (default 2^32 minus 5 s of clocks).
 */
u64 mlx5_diag_sim_fw_clock_offset(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_set_clock_offset() - set the device clock at creation
 * @fw: the device
 * @offset: the clock at now_ns = 0
 *
 * Return: 0, or -EBUSY while the engine is enabled (the clock would jump
 * under it).
 */
int mlx5_diag_sim_fw_set_clock_offset(struct mlx5_diag_sim_fw *fw,
				      u64 offset);

/**
 * mlx5_diag_sim_fw_counter_wrap_bits() - width of reported counters
 * @fw: the device
 *
 * Return: 64 or 32.
 */
unsigned int
mlx5_diag_sim_fw_counter_wrap_bits(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_set_counter_wrap_bits() - set the width of counters
 * @fw: the device
 * @bits: 64, or 32 to report counters modulo 2^32 from the next sample on
 *
 * Return: 0, or -EINVAL for another width.
 */
int mlx5_diag_sim_fw_set_counter_wrap_bits(struct mlx5_diag_sim_fw *fw,
					   unsigned int bits);

/**
 * mlx5_diag_sim_fw_fail_next() - fail the next commands
 * @fw: the device
 * @count: how many commands; 0 cancels
 * @status: the status they are answered with (not OK unless @count is 0)
 * @syndrome: the syndrome they are answered with
 *
 * A failed command has no other effect: the answer is the header only.
 *
 * Return: 0, or -EINVAL for @status 0 with a non-zero @count.
 */
int mlx5_diag_sim_fw_fail_next(struct mlx5_diag_sim_fw *fw, u32 count,
			       u8 status, u32 syndrome);

/**
 * mlx5_diag_sim_fw_get_fail_next() - the pending fault injection
 * @fw: the device
 * @count: commands still to fail
 * @status: their status
 * @syndrome: their syndrome
 */
void mlx5_diag_sim_fw_get_fail_next(const struct mlx5_diag_sim_fw *fw,
				    u32 *count, u8 *status, u32 *syndrome);

/**
 * mlx5_diag_sim_fw_set_lie() - answer other than the firmware runs
 * @fw: the device
 * @lie: which answer lies
 * @value: what it reports (see enum mlx5_diag_sim_lie); 0 tells the truth
 *
 * Return: 0, or -EINVAL for an unknown @lie or a @value wider than its
 * field.
 */
int mlx5_diag_sim_fw_set_lie(struct mlx5_diag_sim_fw *fw,
			     enum mlx5_diag_sim_lie lie, u32 value);

/**
 * mlx5_diag_sim_fw_lie() - what a lie reports
 * @fw: the device
 * @lie: which one
 *
 * Return: its value, 0 when it is off.
 */
u32 mlx5_diag_sim_fw_lie(const struct mlx5_diag_sim_fw *fw,
			 enum mlx5_diag_sim_lie lie);

/**
 * mlx5_diag_sim_lie_name() - a lie's name in the debugfs file "lie"
 * @lie: which one
 *
 * Return: the name, or NULL past the last.
 */
const char *mlx5_diag_sim_lie_name(unsigned int lie);

/**
 * mlx5_diag_sim_parse_lie() - parse "<name> <value>", or "none"
 * @buf: NUL-terminated text; the value in C notation
 * @lie: which lie; MLX5_DIAG_SIM_NR_LIES for "none" (every lie off)
 * @value: its value
 *
 * Return: 0, or -EINVAL.
 */
int mlx5_diag_sim_parse_lie(const char *buf, unsigned int *lie, u32 *value);

/**
 * mlx5_diag_sim_fw_set_variant() - behave as firmware of another reading
 * @fw: the device
 * @var: which behaviour
 * @value: see enum mlx5_diag_sim_variant; 0 is the emulator's default
 *
 * Takes effect at the next command that shows it (a query, a period
 * change, any command for MLX5_DIAG_SIM_VAR_BUSY_EVERY).
 *
 * Return: 0, or -EINVAL for an unknown @var or a @value it does not take.
 */
int mlx5_diag_sim_fw_set_variant(struct mlx5_diag_sim_fw *fw,
				 enum mlx5_diag_sim_variant var, u32 value);

/**
 * mlx5_diag_sim_fw_variant() - how the firmware behaves
 * @fw: the device
 * @var: which behaviour
 *
 * Return: its value, 0 for the emulator's default.
 */
u32 mlx5_diag_sim_fw_variant(const struct mlx5_diag_sim_fw *fw,
			     enum mlx5_diag_sim_variant var);

/**
 * mlx5_diag_sim_variant_name() - a variant's name in the debugfs file
 * "variant"
 * @var: which one
 *
 * Return: the name, or NULL past the last.
 */
const char *mlx5_diag_sim_variant_name(unsigned int var);

/**
 * mlx5_diag_sim_parse_variant() - parse "<name> <value>", or "none"
 * @buf: NUL-terminated text; the value in C notation
 * @var: which variant; MLX5_DIAG_SIM_NR_VARIANTS for "none" (the default
 *	behaviour throughout)
 * @value: its value
 *
 * Return: 0, or -EINVAL.
 */
int mlx5_diag_sim_parse_variant(const char *buf, unsigned int *var,
				u32 *value);

/**
 * mlx5_diag_sim_fw_fail_query_at() - fail the query of one buffer slot
 * @fw: the device
 * @index: the buffer slot whose query fails
 * @status: the status it is answered with; 0 cancels
 *
 * A firmware that fails one query in the middle of a drain: the next
 * QUERY_DIAGNOSTIC_COUNTERS whose slots include slot @index (from its
 * sample_index on, wrapping around the buffer) is answered @status (the
 * header only, no other effect); then the fault is gone.
 * Commands before it are answered as usual, whatever their number.
 *
 * Return: 0, or -EINVAL for an @index above 65535.
 */
int mlx5_diag_sim_fw_fail_query_at(struct mlx5_diag_sim_fw *fw, u32 index,
				   u8 status);

/* The fuzzer's rate: answers mutated per this many. */
#define MLX5_DIAG_SIM_FUZZ_RATE_MAX	1000

/**
 * mlx5_diag_sim_fw_set_fuzz() - a firmware whose answers are mutated
 * @fw: the device
 * @seed: the generator starts again from it; the same commands then get
 *	the same mutations
 * @rate: answers mutated per MLX5_DIAG_SIM_FUZZ_RATE_MAX; 0 (the default)
 *	mutates none
 *
 * A mutated answer, after the firmware core executed the command as usual
 * (its state and statistics are the truth), is one of: no answer (exec
 * returns -EIO); another status (OK for a failed command) and syndrome; a
 * shorter answer (zeroes from a random byte on); or one to four 32-bit
 * words changed (the fields that size the rest half the time) to a random
 * value, a value at a field's edge, plus or minus a power of two, or one
 * bit flipped.
 *
 * Return: 0, or -EINVAL for a @rate above MLX5_DIAG_SIM_FUZZ_RATE_MAX.
 */
int mlx5_diag_sim_fw_set_fuzz(struct mlx5_diag_sim_fw *fw, u64 seed,
			      u32 rate);

/**
 * mlx5_diag_sim_fw_get_fuzz() - the fuzzer's knobs
 * @fw: the device
 * @seed: the seed last set (0 at creation)
 * @rate: the rate
 */
void mlx5_diag_sim_fw_get_fuzz(const struct mlx5_diag_sim_fw *fw, u64 *seed,
			       u32 *rate);

/**
 * mlx5_diag_sim_fw_get_fail_query_at() - the pending query fault
 * @fw: the device
 * @index: the slot whose query fails
 * @status: its status, 0 when none is pending
 */
void mlx5_diag_sim_fw_get_fail_query_at(const struct mlx5_diag_sim_fw *fw,
					u32 *index, u8 *status);

/**
 * mlx5_diag_sim_fw_foreign_enable() - another agent takes the engine
 * @fw: the device
 * @now_ns: nanoseconds since creation
 *
 * As a DOCA user over fwctl would: SET_DIAGNOSTIC_PARAMS with enable,
 * repetitive, the first listed kind (instance 0) or 16-bit counter id,
 * log_sample_period = log_min_sample_period and log_num_of_samples =
 * log_max_samples, checked by the same rules as a command.
 *
 * Return: 0 or the status the firmware refused it with (positive).
 */
int mlx5_diag_sim_fw_foreign_enable(struct mlx5_diag_sim_fw *fw, u64 now_ns);

/**
 * mlx5_diag_sim_fw_foreign_disable() - the other agent lets the engine go
 * @fw: the device
 * @now_ns: nanoseconds since creation
 *
 * Disables the engine (enable 0, clear 1) if it runs a foreign
 * configuration; otherwise does nothing.
 */
void mlx5_diag_sim_fw_foreign_disable(struct mlx5_diag_sim_fw *fw,
				      u64 now_ns);

/**
 * mlx5_diag_sim_fw_foreign_owner() - is the engine in foreign hands?
 * @fw: the device
 *
 * Return: true while the engine is enabled with a configuration that did
 * not come through mlx5_diag_sim_fw_exec().
 */
bool mlx5_diag_sim_fw_foreign_owner(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_fw_engine_enabled() - is the engine enabled?
 * @fw: the device
 *
 * Return: the enable bit of the configuration the firmware holds.
 */
bool mlx5_diag_sim_fw_engine_enabled(const struct mlx5_diag_sim_fw *fw);

/**
 * mlx5_diag_sim_status_to_errno() - the errno mlx5_core maps a status to
 * @status: firmware status
 *
 * Return: 0 or a negative errno, as the table of part 1.
 */
int mlx5_diag_sim_status_to_errno(u8 status);

/* sim_clock.c: the emulator's time source (module glue, pure) */

/**
 * struct mlx5_diag_sim_time - maps host time to emulator time (now_ns)
 * @manual: emulator time advances only by mlx5_diag_sim_time_advance()
 * @base_ns: emulator time at @base_host; in manual mode, the emulator time
 * @base_host: host time (CLOCK_MONOTONIC ns) at @base_ns, running mode
 */
struct mlx5_diag_sim_time {
	bool manual;
	u64 base_ns;
	u64 base_host;
};

/**
 * mlx5_diag_sim_time_init() - running time, emulator time 0 at @host
 * @tm: the time source
 * @host: host ns now
 */
void mlx5_diag_sim_time_init(struct mlx5_diag_sim_time *tm, u64 host);

/**
 * mlx5_diag_sim_time_now() - emulator time
 * @tm: the time source
 * @host: host ns now (ignored in manual mode)
 *
 * Return: the emulator time in ns.
 */
u64 mlx5_diag_sim_time_now(const struct mlx5_diag_sim_time *tm, u64 host);

/**
 * mlx5_diag_sim_time_set_manual() - freeze or release emulator time
 * @tm: the time source
 * @host: host ns now
 * @manual: true freezes emulator time where it is; false lets it run on
 *	from there with host time (it never runs backwards)
 */
void mlx5_diag_sim_time_set_manual(struct mlx5_diag_sim_time *tm, u64 host,
				   bool manual);

/**
 * mlx5_diag_sim_time_advance() - move manual time on
 * @tm: the time source
 * @ns: nanoseconds to add
 *
 * Return: 0; -EINVAL in running mode; -EOVERFLOW beyond 2^64 - 1 ns.
 */
int mlx5_diag_sim_time_advance(struct mlx5_diag_sim_time *tm, u64 ns);

/**
 * mlx5_diag_sim_time_to_host() - the time a test compares with
 * @tm: the time source
 * @ns: an emulator time
 *
 * Return: @ns itself in manual mode; in running mode the host time
 * (CLOCK_MONOTONIC ns) that maps to @ns now.
 */
u64 mlx5_diag_sim_time_to_host(const struct mlx5_diag_sim_time *tm, u64 ns);

/* sim_caps.c: capabilities as text (debugfs caps/<name>) */

/**
 * mlx5_diag_sim_caps_validate() - are these capabilities coherent?
 * @caps: the capabilities
 *
 * Return: 0, or -EINVAL when a value is out of range, a kind is not one of
 * DOCA's data-ID table, or a list holds a duplicate.
 */
int mlx5_diag_sim_caps_validate(const struct mlx5_diag_sim_caps *caps);

/**
 * mlx5_diag_sim_cap_count() - number of capability files
 *
 * Return: the number of names mlx5_diag_sim_cap_name() knows.
 */
unsigned int mlx5_diag_sim_cap_count(void);

/**
 * mlx5_diag_sim_cap_name() - name of a capability file
 * @cap: 0 .. mlx5_diag_sim_cap_count() - 1
 *
 * Return: the name, or NULL for @cap out of range.
 */
const char *mlx5_diag_sim_cap_name(unsigned int cap);

/**
 * mlx5_diag_sim_cap_show() - one capability as text
 * @caps: the capabilities
 * @cap: which one
 * @buf: output, NUL-terminated, ends with a newline
 * @size: size of @buf
 *
 * Numbers are decimal, lists are hexadecimal ("0x10200001 0x10200002"),
 * the dialect is "64" or "16", flags are "0" or "1".
 *
 * Return: the length written, or -EINVAL (unknown @cap, @buf too small).
 */
int mlx5_diag_sim_cap_show(const struct mlx5_diag_sim_caps *caps,
			   unsigned int cap, char *buf, size_t size);

/**
 * mlx5_diag_sim_cap_store() - parse one capability from text
 * @caps: updated only on success
 * @cap: which one
 * @buf: NUL-terminated text; a trailing newline is allowed. Lists are
 *	hexadecimal numbers (optional "0x") separated by spaces, tabs,
 *	newlines or commas; an empty list is allowed.
 *
 * Only syntax and the range of this one value are checked here; the
 * caller validates the whole set.
 *
 * Return: 0, or -EINVAL for anything that does not parse or is out of range.
 */
int mlx5_diag_sim_cap_store(struct mlx5_diag_sim_caps *caps, unsigned int cap,
			    const char *buf);

/**
 * mlx5_diag_sim_parse_fail_next() - parse "N STATUS [SYNDROME]"
 * @buf: NUL-terminated text; numbers in C notation (decimal, 0x hex)
 * @count: N; "0" alone cancels
 * @status: 1..255 (0 when @count is 0)
 * @syndrome: optional, default 0
 *
 * Return: 0, or -EINVAL.
 */
int mlx5_diag_sim_parse_fail_next(const char *buf, u32 *count, u8 *status,
				  u32 *syndrome);

/**
 * mlx5_diag_sim_parse_model() - parse "<data_id> <t0_ns> <t1_ns>"
 * @buf: NUL-terminated text: the id in hexadecimal (optional "0x"), the
 *	times in decimal, separated by blanks
 * @id: the identity (64-bit data ID or 16-bit counter id)
 * @t0: start of the interval, engine ns
 * @t1: its end, not before @t0
 *
 * Return: 0, or -EINVAL.
 */
int mlx5_diag_sim_parse_model(const char *buf, u64 *id, u64 *t0, u64 *t1);

/* sim_model64.c: the modelled 64-bit dialect (MODEL) */

/**
 * mlx5_diag_sim_kind_known() - is @kind one of DOCA's data-ID table?
 * @kind: bits 63:32 of a data ID
 *
 * Return: true for the 41 kinds of part 2 (DOCA's data-ID table).
 */
bool mlx5_diag_sim_kind_known(u32 kind);

/**
 * mlx5_diag_sim_check_data_id() - may this data ID be configured?
 * @caps: the device's capabilities
 * @id: the 64-bit data ID
 * @sync: synchronized start requested
 *
 * Checked in the order kind, sync, instance.
 *
 * Return: MLX5_DIAG_SIM_BAD_ID_NONE or the bad_data_id_reason.
 */
enum mlx5_diag_sim_bad_id_reason
mlx5_diag_sim_check_data_id(const struct mlx5_diag_sim_caps *caps, u64 id,
			    bool sync);

/* sim_traffic.c: the traffic model */

/**
 * mlx5_diag_sim_traffic_count() - cumulative count C(t)
 * @id: the counter identity d (64-bit data ID or zero-extended 16-bit id)
 * @dev: the device number n
 * @t_ns: engine time in nanoseconds
 *
 * Return: the count of part 3's traffic model since engine time 0, for a
 * counter and for the statistics that add up (read-latency total,
 * packets and histogram bins); 0 for maximum and minimum latency.
 */
u64 mlx5_diag_sim_traffic_count(u64 id, unsigned int dev, u64 t_ns);

/**
 * mlx5_diag_sim_traffic_value() - the value a sample reports
 * @id: the counter identity
 * @dev: the device number
 * @t_prev_ns: engine time of the previous sample (0 for the first)
 * @t_ns: engine time of this sample
 * @delta: sync and clear are set (counters report the interval)
 * @wrap_bits: 64, or 32 to report counters modulo 2^32
 *
 * With @delta and @wrap_bits 64 this is the ground truth of the debugfs
 * ``model`` file: C(t) - C(t_prev) for a counter.
 *
 * Return: the counter or statistic value of part 3's traffic model.
 */
u64 mlx5_diag_sim_traffic_value(u64 id, unsigned int dev, u64 t_prev_ns,
				u64 t_ns, bool delta, unsigned int wrap_bits);

/**
 * mlx5_diag_sim_clocks_to_ns() - engine time in nanoseconds
 * @clocks: device clocks
 * @freq_khz: device frequency
 *
 * Return: clocks * 10^6 / freq_khz (integer division, no overflow).
 */
u64 mlx5_diag_sim_clocks_to_ns(u64 clocks, u32 freq_khz);

#endif /* _MLX5_DIAG_SIM_H */
