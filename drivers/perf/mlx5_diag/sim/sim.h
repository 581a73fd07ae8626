/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5_diag_sim: API of the pure firmware core (sim_fw.c and friends), used
 * by the module glue (sim_main.c) and by KUnit suites that include the core.
 */
#ifndef _MLX5_DIAG_SIM_H
#define _MLX5_DIAG_SIM_H

#include <linux/types.h>

struct mlx5_diag_sim_fw;

#define MLX5_DIAG_SIM_MAX_COUNTERS	256	/* ids per configuration, list sizes */
#define MLX5_DIAG_SIM_NUM_KINDS		41	/* the seed's table */
#define MLX5_DIAG_SIM_NUM_IDS16		13	/* mlx5ctl's table */
#define MLX5_DIAG_SIM_MAX_LOG_SAMPLES	16	/* sample_index is 16 bits */
#define MLX5_DIAG_SIM_MAX_LOG_PERIOD	35	/* rule 4 */
#define MLX5_DIAG_SIM_MAX_FREQ_KHZ	10000000
#define MLX5_DIAG_SIM_OUT_HDR_BYTES	8	/* status + syndrome */

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
	MLX5_DIAG_SIM_SYND_NO_MODE		= 0x5d1a00a0,
	/* QUERY_DIAGNOSTIC_COUNTERS */
	MLX5_DIAG_SIM_SYND_NOT_CONFIGURED	= 0x5d1a00b0,
	MLX5_DIAG_SIM_SYND_ZERO_SAMPLES		= 0x5d1a00b1,
	MLX5_DIAG_SIM_SYND_SAMPLE_INDEX		= 0x5d1a00b2,
	MLX5_DIAG_SIM_SYND_TOO_MANY_SAMPLES	= 0x5d1a00b3,
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
 *	order; each one of the seed's table, no duplicates
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
	u32 num_ports;
	u32 num_hosts;
	u32 num_functions;
	u32 num_pcie_links;
};

/**
 * struct mlx5_diag_sim_stats - what the firmware core counted
 * @samples_produced: samples the engine took (periodic and on demand)
 * @samples_overwritten: samples taken over by a newer one before any query
 *	returned them
 * @commands: commands answered (any status)
 * @commands_failed: commands answered with a status other than OK
 */
struct mlx5_diag_sim_stats {
	u64 samples_produced;
	u64 samples_overwritten;
	u64 commands;
	u64 commands_failed;
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
 * @outlen shorter than the output header).
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
 * dropped, buffer emptied and resized). May sleep (GFP_KERNEL).
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
 * Return: clock_offset + now_ns * device_frequency_khz / 10^6, modulo 2^64.
 */
u64 mlx5_diag_sim_fw_clock(const struct mlx5_diag_sim_fw *fw, u64 now_ns);

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

/* sim_caps.c: capabilities as text (debugfs caps/<name>) */

/**
 * mlx5_diag_sim_caps_validate() - are these capabilities coherent?
 * @caps: the capabilities
 *
 * Return: 0, or -EINVAL when a value is out of range, a kind is not one of
 * the seed's table, or a list holds a duplicate.
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

/* sim_model64.c: the modelled 64-bit dialect (MODEL) */

/**
 * mlx5_diag_sim_kind_known() - is @kind one of the seed's table?
 * @kind: bits 63:32 of a data ID
 *
 * Return: true for the 41 kinds of part 2.
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
 * mlx5_diag_sim_traffic_rate() - events per microsecond
 * @id: the counter identity d (64-bit data ID or zero-extended 16-bit id)
 * @dev: the device number n
 *
 * Return: 1 + (k % 251 + 7 * i + 13 * n) % 509.
 */
u32 mlx5_diag_sim_traffic_rate(u64 id, unsigned int dev);

/**
 * mlx5_diag_sim_traffic_count() - cumulative count C(t)
 * @id: the counter identity
 * @dev: the device number
 * @t_ns: engine time in nanoseconds
 *
 * Return: rate * t_ns / 1000 (integer division, no overflow).
 */
u64 mlx5_diag_sim_traffic_count(u64 id, unsigned int dev, u64 t_ns);

/**
 * mlx5_diag_sim_traffic_value() - the value a sample reports
 * @id: the counter identity
 * @dev: the device number
 * @t_prev_ns: engine time of the previous sample (0 for the first)
 * @t_ns: engine time of this sample
 * @j: the sample's index since enable
 * @delta: sync and clear are set (counters report the interval)
 * @wrap_bits: 64, or 32 to report counters modulo 2^32
 *
 * Return: the counter or statistic value of part 3's traffic model.
 */
u64 mlx5_diag_sim_traffic_value(u64 id, unsigned int dev, u64 t_prev_ns,
				u64 t_ns, u64 j, bool delta,
				unsigned int wrap_bits);

/**
 * mlx5_diag_sim_clocks_to_ns() - engine time in nanoseconds
 * @clocks: device clocks
 * @freq_khz: device frequency
 *
 * Return: clocks * 10^6 / freq_khz (integer division, no overflow).
 */
u64 mlx5_diag_sim_clocks_to_ns(u64 clocks, u32 freq_khz);

#endif /* _MLX5_DIAG_SIM_H */
