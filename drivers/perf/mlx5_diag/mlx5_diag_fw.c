// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware command layer: encode and decode the diagnostic-counter commands
 * (the dialects' entry layouts are in mlx5_diag_fw_public16.c and
 * mlx5_diag_fw_model64.c) and run them over the device's transport.
 */
#include <linux/errno.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_fields.h"
#include "mlx5_diag_fw.h"
#include "mlx5_diag_ifc.h"

static const struct {
	u8 status;
	int err;
	const char *name;
} mlx5_diag_fw_statuses[] = {
	{ MLX5_DIAG_STATUS_OK,		  0,	   "OK" },
	{ MLX5_DIAG_STATUS_INT_ERR,	  -EIO,	   "INT_ERR" },
	{ MLX5_DIAG_STATUS_BAD_OP,	  -EINVAL, "BAD_OP" },
	{ MLX5_DIAG_STATUS_BAD_PARAM,	  -EINVAL, "BAD_PARAM" },
	{ MLX5_DIAG_STATUS_BAD_SYS_STATE, -EIO,	   "BAD_SYS_STATE" },
	{ MLX5_DIAG_STATUS_BAD_RES,	  -EINVAL, "BAD_RES" },
	{ MLX5_DIAG_STATUS_RES_BUSY,	  -EBUSY,  "RES_BUSY" },
	{ MLX5_DIAG_STATUS_EXCEED_LIM,	  -ENOMEM, "EXCEED_LIM" },
	{ MLX5_DIAG_STATUS_BAD_RES_STATE, -EINVAL, "BAD_RES_STATE" },
	{ MLX5_DIAG_STATUS_BAD_INDEX,	  -EINVAL, "BAD_INDEX" },
	{ MLX5_DIAG_STATUS_NO_RES,	  -EAGAIN, "NO_RES" },
	{ MLX5_DIAG_STATUS_BAD_QP_STATE,  -EINVAL, "BAD_QP_STATE" },
	{ MLX5_DIAG_STATUS_BAD_PKT,	  -EINVAL, "BAD_PKT" },
	{ MLX5_DIAG_STATUS_BAD_SIZE,	  -EINVAL, "BAD_SIZE" },
	{ MLX5_DIAG_STATUS_BAD_INP_LEN,	  -EIO,	   "BAD_INP_LEN" },
	{ MLX5_DIAG_STATUS_BAD_OUTP_LEN,  -EIO,	   "BAD_OUTP_LEN" },
};

static int mlx5_diag_fw_status_index(u8 status)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5_diag_fw_statuses); i++)
		if (mlx5_diag_fw_statuses[i].status == status)
			return i;
	return -1;
}

/* The errno mlx5_core's cmd_status_to_err() gives a firmware status. */
VISIBLE_IF_KUNIT int mlx5_diag_fw_status_to_errno(u8 status)
{
	int i = mlx5_diag_fw_status_index(status);

	return i < 0 ? -EIO : mlx5_diag_fw_statuses[i].err;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_status_to_errno);

VISIBLE_IF_KUNIT const char *mlx5_diag_fw_status_name(u8 status)
{
	int i = mlx5_diag_fw_status_index(status);

	return i < 0 ? "UNKNOWN" : mlx5_diag_fw_statuses[i].name;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_status_name);

VISIBLE_IF_KUNIT u8 mlx5_diag_fw_out_status(const void *out, u32 *syndrome)
{
	if (syndrome)
		*syndrome = MLX5_DIAG_GET(cmd_out, out, syndrome);
	return MLX5_DIAG_GET(cmd_out, out, status);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_out_status);

static void mlx5_diag_fw_cmd_hdr(void *in, u16 opcode, u16 op_mod)
{
	MLX5_DIAG_SET(cmd_in, in, opcode, opcode);
	MLX5_DIAG_SET(cmd_in, in, op_mod, op_mod);
}

/* ---- QUERY_HCA_CAP ---- */

#define MLX5_DIAG_CAP_OFF	MLX5_DIAG_BYTES(query_hca_cap_out)

VISIBLE_IF_KUNIT size_t mlx5_diag_fw_query_cap_in(void *in, u16 cap_type)
{
	memset(in, 0, MLX5_DIAG_BYTES(cmd_in));
	mlx5_diag_fw_cmd_hdr(in, MLX5_DIAG_CMD_OP_QUERY_HCA_CAP,
			     MLX5_DIAG_CAP_OP_MOD(cap_type));
	return MLX5_DIAG_BYTES(cmd_in);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_cap_in);

/*
 * QUERY_HCA_CAP outboxes are at least the whole capability union, as
 * mlx5_core passes them; firmware may refuse a shorter one (BAD_OUTP_LEN).
 */
static size_t mlx5_diag_fw_cap_outlen(size_t cap_bytes)
{
	return MLX5_DIAG_CAP_OFF + max_t(size_t, cap_bytes,
					 MLX5_DIAG_HCA_CAP_UNION_BYTES);
}

VISIBLE_IF_KUNIT size_t mlx5_diag_fw_general_cap_outlen(void)
{
	return mlx5_diag_fw_cap_outlen(MLX5_DIAG_BYTES(general_cap));
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_general_cap_outlen);

VISIBLE_IF_KUNIT size_t
mlx5_diag_fw_debug_cap_outlen(const struct mlx5_diag_fw_dialect *d,
			      u16 num_entries)
{
	return mlx5_diag_fw_cap_outlen(MLX5_DIAG_BYTES(debug_cap) +
				       (size_t)num_entries * d->cap_entry_bits / 8);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_debug_cap_outlen);

VISIBLE_IF_KUNIT int mlx5_diag_fw_parse_general_cap(const void *out,
						    struct mlx5_diag_caps *caps)
{
	const void *cap = out + MLX5_DIAG_CAP_OFF;
	u32 mhz;

	caps->debug = MLX5_DIAG_GET(general_cap, cap, debug);
	caps->num_entries = MLX5_DIAG_GET(general_cap, cap,
					  num_of_diagnostic_counters);
	caps->freq_khz = MLX5_DIAG_GET(general_cap, cap, device_frequency_khz);
	mhz = MLX5_DIAG_GET(general_cap, cap, device_frequency_mhz);
	if (!caps->freq_khz && mhz <= U32_MAX / 1000)
		caps->freq_khz = mhz * 1000;
	if (!caps->debug || !caps->num_entries)
		return -EOPNOTSUPP;
	if (!caps->freq_khz)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_parse_general_cap);

/* The DEBUG capability's scalar fields; returns the dialect they announce. */
VISIBLE_IF_KUNIT const struct mlx5_diag_fw_dialect *
mlx5_diag_fw_parse_debug_cap(const void *out, struct mlx5_diag_caps *caps)
{
	const void *cap = out + MLX5_DIAG_CAP_OFF;

	caps->log_max_samples = MLX5_DIAG_GET(debug_cap, cap, log_max_samples);
	caps->log_min_sample_period = MLX5_DIAG_GET(debug_cap, cap,
						    log_min_sample_period);
	caps->single = MLX5_DIAG_GET(debug_cap, cap, single);
	caps->repetitive = MLX5_DIAG_GET(debug_cap, cap, repetitive);
	caps->on_demand = MLX5_DIAG_GET(debug_cap, cap, on_demand);
	caps->sync_start = MLX5_DIAG_GET(debug_cap, cap, sync_start);
	caps->data_clear = MLX5_DIAG_GET(debug_cap, cap, data_clear);
	caps->model64 = MLX5_DIAG_GET(debug_cap, cap, diag_data_id_64);
	caps->rtc = caps->model64 &&
		    MLX5_DIAG_GET(debug_cap, cap, rtc_timestamp);
	caps->limits.num_ports = MLX5_DIAG_GET(debug_cap, cap, num_ports);
	caps->limits.num_hosts = MLX5_DIAG_GET(debug_cap, cap, num_hosts);
	caps->limits.num_functions = MLX5_DIAG_GET(debug_cap, cap,
						   num_functions);
	caps->num_pcie_links = MLX5_DIAG_GET(debug_cap, cap, num_pcie_links);
	if (caps->model64) {
		caps->max_ids = MLX5_DIAG_GET(debug_cap, cap, max_num_data_ids);
		return &mlx5_diag_fw_model64;
	}
	caps->max_ids = caps->num_entries;
	return &mlx5_diag_fw_public16;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_parse_debug_cap);

VISIBLE_IF_KUNIT int
mlx5_diag_fw_parse_cap_entries(const struct mlx5_diag_fw_dialect *d,
			       const void *out, struct mlx5_diag_caps *caps)
{
	const void *list = out + MLX5_DIAG_CAP_OFF + MLX5_DIAG_BYTES(debug_cap);
	unsigned int i;

	caps->entries = kcalloc(caps->num_entries, sizeof(*caps->entries),
				GFP_KERNEL);
	if (!caps->entries)
		return -ENOMEM;
	for (i = 0; i < caps->num_entries; i++)
		d->cap_entry_get(list + i * d->cap_entry_bits / 8,
				 &caps->entries[i]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_parse_cap_entries);

void mlx5_diag_fw_free_caps(struct mlx5_diag_caps *caps)
{
	kfree(caps->entries);
	caps->entries = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_free_caps);

/**
 * mlx5_diag_fw_max_log_period() - the longest sample period served
 * @caps: the device's capabilities
 *
 * The firmware takes up to 2^35 device clocks. The drain extends a W-bit
 * FRC timestamp from the last one it took, reading a later one as at most
 * 2^(W-1) - 1 clocks on: two consecutive samples must be nearer than that
 * whatever the drain's jitter, so with a timestamp narrower than 64 bits
 * (the public dialect's 32) the period is at most 2^(W-2) clocks.
 *
 * Return: log2 of the longest period, in device clocks.
 */
u8 mlx5_diag_fw_max_log_period(const struct mlx5_diag_caps *caps)
{
	const struct mlx5_diag_fw_dialect *d = caps->model64 ?
		&mlx5_diag_fw_model64 : &mlx5_diag_fw_public16;

	if (d->timestamp_bits >= 64)
		return MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD;
	return min_t(unsigned int, MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD,
		     d->timestamp_bits - 2);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_max_log_period);

/* Would a device with @b publish the same PMU (events, formats, caps) as @a? */
bool mlx5_diag_fw_caps_equal(const struct mlx5_diag_caps *a,
			     const struct mlx5_diag_caps *b)
{
	unsigned int i;

	if (a->model64 != b->model64 || a->num_entries != b->num_entries ||
	    a->max_ids != b->max_ids || a->log_max_samples != b->log_max_samples ||
	    a->log_min_sample_period != b->log_min_sample_period ||
	    a->freq_khz != b->freq_khz || a->single != b->single ||
	    a->repetitive != b->repetitive || a->on_demand != b->on_demand ||
	    a->sync_start != b->sync_start || a->data_clear != b->data_clear ||
	    a->rtc != b->rtc ||
	    a->num_pcie_links != b->num_pcie_links ||
	    memcmp(&a->limits, &b->limits, sizeof(a->limits)))
		return false;
	for (i = 0; i < a->num_entries; i++)
		if (a->entries[i].id != b->entries[i].id ||
		    a->entries[i].sync != b->entries[i].sync)
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_caps_equal);

/* The capability entry listing @id's kind (or fw counter), or NULL. */
const struct mlx5_diag_cap_entry *
mlx5_diag_fw_cap_lookup(const struct mlx5_diag_caps *caps, u64 id)
{
	u64 key = caps->model64 ? id & mlx5_diag_field_mask(MLX5_DIAG_F_KIND) : id;
	unsigned int i;

	for (i = 0; i < caps->num_entries; i++)
		if (caps->entries[i].id == key)
			return &caps->entries[i];
	return NULL;
}

/* ---- SET/QUERY_DIAGNOSTIC_PARAMS ---- */

/* The context follows the 0x40-bit header of the SET input and QUERY output. */
#define MLX5_DIAG_CTX_OFF	MLX5_DIAG_BYTES(set_diagnostic_params_in)
#define MLX5_DIAG_CTX_IDS_OFF \
	(MLX5_DIAG_CTX_OFF + MLX5_DIAG_BYTES(diagnostic_params_context))

/* Bytes of a SET input or QUERY output holding @num_ids ids. */
VISIBLE_IF_KUNIT size_t
mlx5_diag_fw_params_len(const struct mlx5_diag_fw_dialect *d, u16 num_ids)
{
	return MLX5_DIAG_CTX_IDS_OFF + (size_t)num_ids * d->param_id_bits / 8;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_params_len);

VISIBLE_IF_KUNIT size_t
mlx5_diag_fw_set_params_in(const struct mlx5_diag_fw_dialect *d, void *in,
			   const struct mlx5_diag_fw_params *p)
{
	size_t len = mlx5_diag_fw_params_len(d, p->num_ids);
	void *ctx = in + MLX5_DIAG_CTX_OFF;
	unsigned int i;

	memset(in, 0, len);
	mlx5_diag_fw_cmd_hdr(in, MLX5_DIAG_CMD_OP_SET_DIAGNOSTIC_PARAMS, 0);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, num_of_counters,
		      p->num_ids);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, log_num_of_samples,
		      p->log_num_of_samples);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, single,
		      p->mode == MLX5_DIAG_FW_SINGLE);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, repetitive,
		      p->mode == MLX5_DIAG_FW_REPETITIVE);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, on_demand,
		      p->mode == MLX5_DIAG_FW_ON_DEMAND);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, sync, p->sync);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, clear, p->clear);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, enable, p->enable);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, timestamp_rtc, p->rtc);
	MLX5_DIAG_SET(diagnostic_params_context, ctx, log_sample_period,
		      p->log_sample_period);
	for (i = 0; i < p->num_ids; i++)
		d->param_id_set(in + MLX5_DIAG_CTX_IDS_OFF +
				i * d->param_id_bits / 8, p->ids[i]);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_set_params_in);

/* MODEL: which data ID a refused SET named, and why (part 2). */
VISIBLE_IF_KUNIT void mlx5_diag_fw_set_params_bad_id(const void *out,
						     u16 *index, u8 *reason)
{
	*index = MLX5_DIAG_GET(set_diagnostic_params_out, out, bad_data_id_index);
	*reason = MLX5_DIAG_GET(set_diagnostic_params_out, out,
				bad_data_id_reason);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_set_params_bad_id);

VISIBLE_IF_KUNIT size_t mlx5_diag_fw_query_params_in(void *in)
{
	memset(in, 0, MLX5_DIAG_BYTES(cmd_in));
	mlx5_diag_fw_cmd_hdr(in, MLX5_DIAG_CMD_OP_QUERY_DIAGNOSTIC_PARAMS, 0);
	return MLX5_DIAG_BYTES(cmd_in);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_params_in);

/* Decode a QUERY_DIAGNOSTIC_PARAMS answer; @p->ids holds @max_ids. */
VISIBLE_IF_KUNIT int
mlx5_diag_fw_query_params_out(const struct mlx5_diag_fw_dialect *d,
			      const void *out, size_t outlen,
			      struct mlx5_diag_fw_params *p, u16 max_ids)
{
	const void *ctx = out + MLX5_DIAG_CTX_OFF;
	unsigned int i;

	p->num_ids = MLX5_DIAG_GET(diagnostic_params_context, ctx,
				   num_of_counters);
	if (p->num_ids > max_ids ||
	    mlx5_diag_fw_params_len(d, p->num_ids) > outlen)
		return -EPROTO;
	p->enable = MLX5_DIAG_GET(diagnostic_params_context, ctx, enable);
	p->sync = MLX5_DIAG_GET(diagnostic_params_context, ctx, sync);
	p->clear = MLX5_DIAG_GET(diagnostic_params_context, ctx, clear);
	p->rtc = MLX5_DIAG_GET(diagnostic_params_context, ctx, timestamp_rtc);
	p->log_num_of_samples = MLX5_DIAG_GET(diagnostic_params_context, ctx,
					      log_num_of_samples);
	p->log_sample_period = MLX5_DIAG_GET(diagnostic_params_context, ctx,
					     log_sample_period);
	if (MLX5_DIAG_GET(diagnostic_params_context, ctx, on_demand))
		p->mode = MLX5_DIAG_FW_ON_DEMAND;
	else if (MLX5_DIAG_GET(diagnostic_params_context, ctx, single))
		p->mode = MLX5_DIAG_FW_SINGLE;
	else
		p->mode = MLX5_DIAG_FW_REPETITIVE;
	for (i = 0; i < p->num_ids; i++)
		p->ids[i] = d->param_id_get(out + MLX5_DIAG_CTX_IDS_OFF +
					    i * d->param_id_bits / 8);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_params_out);

/* The same configuration but for the period: mode, geometry, ids in order. */
bool mlx5_diag_fw_params_equal_but_period(const struct mlx5_diag_fw_params *a,
					  const struct mlx5_diag_fw_params *b)
{
	return a->enable == b->enable && a->mode == b->mode &&
	       a->sync == b->sync && a->clear == b->clear && a->rtc == b->rtc &&
	       a->log_num_of_samples == b->log_num_of_samples &&
	       a->num_ids == b->num_ids &&
	       !memcmp(a->ids, b->ids, a->num_ids * sizeof(*a->ids));
}

/* The same configuration: mode, geometry, period and ids in order. */
bool mlx5_diag_fw_params_equal(const struct mlx5_diag_fw_params *a,
			       const struct mlx5_diag_fw_params *b)
{
	return a->log_sample_period == b->log_sample_period &&
	       mlx5_diag_fw_params_equal_but_period(a, b);
}

/* ---- QUERY_DIAGNOSTIC_COUNTERS ---- */

#define MLX5_DIAG_SAMPLES_OFF	MLX5_DIAG_BYTES(query_diagnostic_counters_out)

size_t mlx5_diag_fw_query_counters_in(void *in, u16 num_samples, u16 index)
{
	size_t len = MLX5_DIAG_BYTES(query_diagnostic_counters_in);

	memset(in, 0, len);
	mlx5_diag_fw_cmd_hdr(in, MLX5_DIAG_CMD_OP_QUERY_DIAGNOSTIC_COUNTERS, 0);
	MLX5_DIAG_SET(query_diagnostic_counters_in, in, num_of_samples,
		      num_samples);
	MLX5_DIAG_SET(query_diagnostic_counters_in, in, sample_index, index);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_counters_in);

/* Bytes of an outbox holding @num_entries sample entries. */
size_t mlx5_diag_fw_query_counters_outlen(const struct mlx5_diag_fw_dialect *d,
					  unsigned int num_entries)
{
	return MLX5_DIAG_SAMPLES_OFF +
	       (size_t)num_entries * d->sample_entry_bits / 8;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_counters_outlen);

/* Entries @first .. @first + @n - 1 of a QUERY_DIAGNOSTIC_COUNTERS outbox. */
void mlx5_diag_fw_query_counters_entries(const struct mlx5_diag_fw_dialect *d,
					 const void *out, unsigned int first,
					 unsigned int n,
					 struct mlx5_diag_fw_entry *e)
{
	d->sample_entries_get(out + MLX5_DIAG_SAMPLES_OFF +
			      (size_t)first * d->sample_entry_bits / 8, n, e);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_counters_entries);

void mlx5_diag_fw_query_counters_entry(const struct mlx5_diag_fw_dialect *d,
				       const void *out, unsigned int n,
				       struct mlx5_diag_fw_entry *e)
{
	mlx5_diag_fw_query_counters_entries(d, out, n, 1, e);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_counters_entry);

/* ---- running commands on a device ---- */

static const char *mlx5_diag_fw_opcode_name(u16 opcode)
{
	switch (opcode) {
	case MLX5_DIAG_CMD_OP_QUERY_HCA_CAP:
		return "QUERY_HCA_CAP";
	case MLX5_DIAG_CMD_OP_QUERY_DIAGNOSTIC_PARAMS:
		return "QUERY_DIAGNOSTIC_PARAMS";
	case MLX5_DIAG_CMD_OP_SET_DIAGNOSTIC_PARAMS:
		return "SET_DIAGNOSTIC_PARAMS";
	case MLX5_DIAG_CMD_OP_QUERY_DIAGNOSTIC_COUNTERS:
		return "QUERY_DIAGNOSTIC_COUNTERS";
	}
	return "unknown command";
}

void mlx5_diag_fw_init(struct mlx5_diag_fw *fw, const char *name,
		       struct mlx5_diag_aux_dev *aux)
{
	fw->name = name;
	fw->aux = aux;
	init_rwsem(&fw->lock);
	atomic64_set(&fw->busy_answers, 0);
	fw->clear_learnt = MLX5_DIAG_CAP_UNKNOWN;
	fw->rtc_still = false;
	fw->slot_ids = false;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_init);

/*
 * Capabilities the public layouts do not carry (A15, A16): the modelled
 * DEBUG bits tell them on the modelled dialect; on public firmware
 * synchronized start is each counter's own sync bit, data clear is learnt
 * by trying it (mlx5_diag_fw_learn_clear()) and on-demand mode is never
 * tried (counting folds repetitive samples there).
 */
const char *mlx5_diag_cap_known_name(enum mlx5_diag_cap_known k)
{
	static const char * const names[] = {
		[MLX5_DIAG_CAP_UNKNOWN] = "unknown",
		[MLX5_DIAG_CAP_NO] = "no",
		[MLX5_DIAG_CAP_YES] = "yes",
	};

	return k < ARRAY_SIZE(names) ? names[k] : "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_cap_known_name);

static enum mlx5_diag_cap_known mlx5_diag_cap_bit(bool present)
{
	return present ? MLX5_DIAG_CAP_YES : MLX5_DIAG_CAP_NO;
}

enum mlx5_diag_cap_known mlx5_diag_fw_sync_known(const struct mlx5_diag_fw *fw)
{
	const struct mlx5_diag_caps *caps = &fw->caps;
	unsigned int i;

	if (caps->model64)
		return mlx5_diag_cap_bit(caps->sync_start);
	for (i = 0; i < caps->num_entries; i++)
		if (caps->entries[i].sync)
			return MLX5_DIAG_CAP_YES;
	return MLX5_DIAG_CAP_NO;
}

enum mlx5_diag_cap_known mlx5_diag_fw_clear_known(const struct mlx5_diag_fw *fw)
{
	if (fw->caps.model64)
		return mlx5_diag_cap_bit(fw->caps.data_clear);
	return READ_ONCE(fw->clear_learnt);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_clear_known);

enum mlx5_diag_cap_known
mlx5_diag_fw_on_demand_known(const struct mlx5_diag_fw *fw)
{
	if (fw->caps.model64)
		return mlx5_diag_cap_bit(fw->caps.on_demand);
	return MLX5_DIAG_CAP_UNKNOWN;
}

/**
 * mlx5_diag_fw_learn_clear() - learn data clear from a SET that asked for it
 * @fw: the firmware handle
 * @p: the configuration set
 * @ret: what mlx5_diag_fw_set_params() returned for it
 *
 * On public firmware, the first enabling SET with @p->clear while data
 * clear is unknown tries it: taken, it is there; refused as a bad
 * parameter (-EINVAL), it is not, since every other field was checked
 * against the capabilities before (sync against each counter's own bit).
 * Any other failure teaches nothing. Once learnt, for the device's
 * lifetime: opens asking for clear get -EOPNOTSUPP. Caller holds the
 * engine lock.
 */
void mlx5_diag_fw_learn_clear(struct mlx5_diag_fw *fw,
			      const struct mlx5_diag_fw_params *p, int ret)
{
	if (fw->caps.model64 || !p->enable || !p->clear ||
	    fw->clear_learnt != MLX5_DIAG_CAP_UNKNOWN)
		return;
	if (!ret) {
		WRITE_ONCE(fw->clear_learnt, MLX5_DIAG_CAP_YES);
		pr_info_ratelimited("%s: the firmware takes data clear (caps/clear yes)\n",
				    fw->name);
	} else if (ret == -EINVAL) {
		WRITE_ONCE(fw->clear_learnt, MLX5_DIAG_CAP_NO);
		pr_info_ratelimited("%s: the firmware refused data clear: refused from now on (caps/clear no)\n",
				    fw->name);
	}
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_learn_clear);

/* The provider's device (again): commands reach it from now on. */
void mlx5_diag_fw_attach(struct mlx5_diag_fw *fw, struct mlx5_diag_aux_dev *aux)
{
	down_write(&fw->lock);
	fw->aux = aux;
	up_write(&fw->lock);
}

/*
 * The provider's device is going: once this returns, no command is running
 * and none will reach it.
 */
void mlx5_diag_fw_detach(struct mlx5_diag_fw *fw)
{
	down_write(&fw->lock);
	fw->aux = NULL;
	up_write(&fw->lock);
}

/*
 * RES_BUSY: the firmware did not run the command, the resource was busy
 * for the moment. A command is tried this many times, 1-2 ms apart, before
 * RES_BUSY is its answer.
 */
#define MLX5_DIAG_FW_BUSY_TRIES		4

/*
 * Run one command. Sleeps; -ENODEV once the device is detached. A command
 * answered RES_BUSY is tried again (MLX5_DIAG_FW_BUSY_TRIES in all). A
 * firmware status becomes an errno and one rate-limited log line.
 */
int mlx5_diag_fw_cmd(struct mlx5_diag_fw *fw, const void *in, size_t inlen,
		     void *out, size_t outlen)
{
	u16 opcode = MLX5_DIAG_GET(cmd_in, in, opcode);
	unsigned int tries = 0;
	u32 synd;
	u8 status;
	int ret;

	might_sleep();
again:
	down_read(&fw->lock);
	if (fw->aux)
		ret = fw->aux->ops->exec(fw->aux, in, inlen, out, outlen);
	else
		ret = -ENODEV;
	up_read(&fw->lock);
	if (ret) {
		if (ret != -ENODEV)
			pr_err_ratelimited("%s: %s: transport error %d\n", fw->name,
					   mlx5_diag_fw_opcode_name(opcode), ret);
		return ret;
	}
	status = mlx5_diag_fw_out_status(out, &synd);
	if (status == MLX5_DIAG_STATUS_OK)
		return 0;
	if (status == MLX5_DIAG_STATUS_RES_BUSY) {
		atomic64_inc(&fw->busy_answers);
		if (++tries < MLX5_DIAG_FW_BUSY_TRIES) {
			usleep_range(1000, 2000);
			goto again;
		}
	}
	pr_err_ratelimited("%s: %s failed: status %s (0x%x), syndrome 0x%x\n",
			   fw->name, mlx5_diag_fw_opcode_name(opcode),
			   mlx5_diag_fw_status_name(status), status, synd);
	return mlx5_diag_fw_status_to_errno(status);
}

/**
 * mlx5_diag_fw_read_clock() - read the device clock, paired with a host clock
 * @fw: the firmware handle
 * @rtc: the real-time clock rather than the free-running counter
 * @r: @r->host_clock and @r->arg in; the reading out
 *
 * Sleeps. Return: 0, -ENODEV when the device is gone, -EOPNOTSUPP.
 */
int mlx5_diag_fw_read_clock(struct mlx5_diag_fw *fw, bool rtc,
			    struct mlx5_diag_clock_read *r)
{
	int ret = -ENODEV;

	might_sleep();
	down_read(&fw->lock);
	if (fw->aux)
		ret = fw->aux->ops->read_clock ?
		      fw->aux->ops->read_clock(fw->aux, rtc, r) : -EOPNOTSUPP;
	up_read(&fw->lock);
	return ret;
}

/* Discover the engine: general then DEBUG capabilities; picks the dialect. */
int mlx5_diag_fw_query_caps(struct mlx5_diag_fw *fw,
			    struct mlx5_diag_caps *caps,
			    const struct mlx5_diag_fw_dialect **dialect)
{
	u32 in[MLX5_DIAG_DWORDS(cmd_in)];
	size_t outlen;
	void *out;
	int ret;

	memset(caps, 0, sizeof(*caps));
	outlen = mlx5_diag_fw_general_cap_outlen();
	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5_diag_fw_query_cap_in(in, MLX5_DIAG_CAP_GENERAL);
	ret = mlx5_diag_fw_cmd(fw, in, sizeof(in), out, outlen);
	if (!ret)
		ret = mlx5_diag_fw_parse_general_cap(out, caps);
	kfree(out);
	if (ret == -EOPNOTSUPP || ret == -EINVAL)
		pr_err("%s: %s\n", fw->name, ret == -EOPNOTSUPP ?
		       "no diagnostic counters (debug capability off)" :
		       "device reports no clock frequency");
	if (ret)
		return ret;

	/* Sized for the longer of the two dialects' lists, so either fits. */
	outlen = mlx5_diag_fw_debug_cap_outlen(&mlx5_diag_fw_model64,
					       caps->num_entries);
	out = kvzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5_diag_fw_query_cap_in(in, MLX5_DIAG_CAP_DEBUG);
	ret = mlx5_diag_fw_cmd(fw, in, sizeof(in), out, outlen);
	if (ret)
		goto out;
	*dialect = mlx5_diag_fw_parse_debug_cap(out, caps);
	if (!caps->max_ids || caps->log_max_samples > 31 ||
	    caps->log_min_sample_period > mlx5_diag_fw_max_log_period(caps)) {
		pr_err("%s: inconsistent DEBUG capability (max ids %u, log_max_samples %u, log_min_sample_period %u, the longest period served %u)\n",
		       fw->name, caps->max_ids, caps->log_max_samples,
		       caps->log_min_sample_period,
		       mlx5_diag_fw_max_log_period(caps));
		ret = -EPROTO;
		goto out;
	}
	if (!caps->single && !caps->repetitive && !caps->on_demand) {
		pr_err("%s: the DEBUG capability offers no sampling mode (single, repetitive or on-demand): nothing could count or sample, device refused\n",
		       fw->name);
		ret = -EPROTO;
		goto out;
	}
	if (caps->max_ids > MLX5_DIAG_MAX_IDS) {
		pr_err("%s: the device selects %u data IDs at once, this driver serves at most %u: device refused\n",
		       fw->name, caps->max_ids, MLX5_DIAG_MAX_IDS);
		ret = -EOPNOTSUPP;
		goto out;
	}
	ret = mlx5_diag_fw_parse_cap_entries(*dialect, out, caps);
out:
	kvfree(out);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_caps);

int mlx5_diag_fw_set_params(struct mlx5_diag_fw *fw,
			    const struct mlx5_diag_fw_params *p)
{
	/* read on -EINVAL, which a transport that sent nothing returns too */
	u32 out[MLX5_DIAG_DWORDS(set_diagnostic_params_out)] = {};
	size_t inlen = mlx5_diag_fw_params_len(fw->dialect, p->num_ids);
	u16 bad_index;
	u8 reason;
	void *in;
	int ret;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mlx5_diag_fw_set_params_in(fw->dialect, in, p);
	ret = mlx5_diag_fw_cmd(fw, in, inlen, out, sizeof(out));
	if (ret == -EINVAL && fw->caps.model64) {
		mlx5_diag_fw_set_params_bad_id(out, &bad_index, &reason);
		if (bad_index < p->num_ids)
			pr_err_ratelimited("%s: firmware refused data ID 0x%016llx (reason %u)\n",
					   fw->name, p->ids[bad_index], reason);
	}
	kfree(in);
	return ret;
}

/* What the firmware holds; @p->ids has room for caps.max_ids. */
int mlx5_diag_fw_query_params(struct mlx5_diag_fw *fw,
			      struct mlx5_diag_fw_params *p)
{
	size_t outlen = mlx5_diag_fw_params_len(fw->dialect, fw->caps.max_ids);
	u32 in[MLX5_DIAG_DWORDS(cmd_in)];
	void *out;
	int ret;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5_diag_fw_query_params_in(in);
	ret = mlx5_diag_fw_cmd(fw, in, sizeof(in), out, outlen);
	if (!ret)
		ret = mlx5_diag_fw_query_params_out(fw->dialect, out, outlen, p,
						    fw->caps.max_ids);
	kfree(out);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_fw_query_params);
