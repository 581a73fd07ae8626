// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_diag_sim: capability validation and the text form of capabilities
 * and fault injection used by the debugfs files (pure, no allocation).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "mlx5_diag_compat.h"
#include "sim_int.h"

enum sim_cap_type {
	SIM_CAPT_DIALECT,
	SIM_CAPT_KINDS,
	SIM_CAPT_SYNC_KINDS,
	SIM_CAPT_IDS,
	SIM_CAPT_SYNC_IDS,
	SIM_CAPT_U32,
	SIM_CAPT_BOOL,
};

struct sim_cap_desc {
	const char *name;
	enum sim_cap_type type;
	size_t off;		/* SIM_CAPT_U32, SIM_CAPT_BOOL */
	u32 min;
	u32 max;
};

#define SIM_CAP_LIST(_name, _type) { .name = _name, .type = _type }
#define SIM_CAP_U32(_name, _field, _min, _max) {			\
	.name = _name, .type = SIM_CAPT_U32,				\
	.off = offsetof(struct mlx5_diag_sim_caps, _field),		\
	.min = _min, .max = _max }
#define SIM_CAP_BOOL(_name, _field) {					\
	.name = _name, .type = SIM_CAPT_BOOL,				\
	.off = offsetof(struct mlx5_diag_sim_caps, _field),		\
	.min = 0, .max = 1 }

static const struct sim_cap_desc sim_caps_desc[] = {
	SIM_CAP_LIST("dialect", SIM_CAPT_DIALECT),
	SIM_CAP_LIST("kinds", SIM_CAPT_KINDS),
	SIM_CAP_LIST("sync_kinds", SIM_CAPT_SYNC_KINDS),
	SIM_CAP_LIST("counter_ids", SIM_CAPT_IDS),
	SIM_CAP_LIST("sync_counter_ids", SIM_CAPT_SYNC_IDS),
	SIM_CAP_U32("max_num_data_ids", max_num_data_ids, 1,
		    MLX5_DIAG_SIM_MAX_COUNTERS),
	SIM_CAP_U32("log_max_samples", log_max_samples, 0,
		    MLX5_DIAG_SIM_MAX_LOG_SAMPLES),
	SIM_CAP_U32("log_min_sample_period", log_min_sample_period, 0,
		    MLX5_DIAG_SIM_MAX_LOG_PERIOD),
	SIM_CAP_U32("device_frequency_khz", freq_khz, 1,
		    MLX5_DIAG_SIM_MAX_FREQ_KHZ),
	SIM_CAP_BOOL("single", single),
	SIM_CAP_BOOL("repetitive", repetitive),
	SIM_CAP_BOOL("on_demand", on_demand),
	SIM_CAP_BOOL("sync_start", sync_start),
	SIM_CAP_BOOL("data_clear", data_clear),
	SIM_CAP_BOOL("rtc_timestamp", rtc),
	SIM_CAP_U32("num_ports", num_ports, 0, 0xff),
	SIM_CAP_U32("num_hosts", num_hosts, 0, 0xff),
	SIM_CAP_U32("num_functions", num_functions, 0, 0xffff),
	SIM_CAP_U32("num_pcie_links", num_pcie_links, 0, 0xff),
};

unsigned int mlx5_diag_sim_cap_count(void)
{
	return ARRAY_SIZE(sim_caps_desc);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_cap_count);

const char *mlx5_diag_sim_cap_name(unsigned int cap)
{
	return cap < ARRAY_SIZE(sim_caps_desc) ? sim_caps_desc[cap].name : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_cap_name);

/* Do two of the @nr values of @size bytes at @v match? */
static bool sim_has_dup(const void *v, u32 nr, size_t size)
{
	u32 i, j;

	for (i = 0; i < nr; i++)
		for (j = i + 1; j < nr; j++)
			if (!memcmp(v + i * size, v + j * size, size))
				return true;
	return false;
}

static bool sim_kinds_ok(const u32 *kinds, u32 nr)
{
	u32 i;

	if (nr > MLX5_DIAG_SIM_NUM_KINDS || sim_has_dup(kinds, nr, sizeof(*kinds)))
		return false;
	for (i = 0; i < nr; i++)
		if (!mlx5_diag_sim_kind_known(kinds[i]))
			return false;
	return true;
}

int mlx5_diag_sim_caps_validate(const struct mlx5_diag_sim_caps *caps)
{
	const struct sim_cap_desc *d;
	unsigned int i;
	u32 v;

	if (!sim_kinds_ok(caps->kinds, caps->nr_kinds) ||
	    !sim_kinds_ok(caps->sync_kinds, caps->nr_sync_kinds))
		return -EINVAL;
	if (caps->nr_ids > MLX5_DIAG_SIM_MAX_COUNTERS ||
	    caps->nr_sync_ids > MLX5_DIAG_SIM_MAX_COUNTERS ||
	    sim_has_dup(caps->ids, caps->nr_ids, sizeof(*caps->ids)) ||
	    sim_has_dup(caps->sync_ids, caps->nr_sync_ids,
			sizeof(*caps->sync_ids)))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(sim_caps_desc); i++) {
		d = &sim_caps_desc[i];
		if (d->type != SIM_CAPT_U32)
			continue;
		v = *(const u32 *)((const u8 *)caps + d->off);
		if (v < d->min || v > d->max)
			return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_caps_validate);

/*
 * Next token of @buf from *@pos: separators are blanks, newlines and
 * commas. Return: token length, 0 at the end, -EINVAL if too long.
 */
static int sim_next_token(const char *buf, size_t *pos, char *tok,
			  size_t size)
{
	size_t n = 0;

	while (buf[*pos] && strchr(" \t\n,", buf[*pos]))
		(*pos)++;
	while (buf[*pos] && !strchr(" \t\n,", buf[*pos])) {
		if (n + 1 >= size)
			return -EINVAL;
		tok[n++] = buf[(*pos)++];
	}
	tok[n] = '\0';
	return n;
}

/* A hexadecimal list into @vals; at most @max entries, each <= @limit. */
static int sim_parse_list(const char *buf, u32 *vals, u32 max, u32 limit,
			  u32 *nr)
{
	size_t pos = 0;
	char tok[24];
	u32 n = 0;
	int len;

	while ((len = sim_next_token(buf, &pos, tok, sizeof(tok))) > 0) {
		u32 v;

		if (n == max || kstrtou32(tok, 16, &v) || v > limit)
			return -EINVAL;
		vals[n++] = v;
	}
	if (len < 0)
		return len;
	*nr = n;
	return 0;
}

/* Exactly one number (C notation) in @buf. */
static int sim_parse_one(const char *buf, u32 *val)
{
	size_t pos = 0;
	char tok[24];
	int len;

	len = sim_next_token(buf, &pos, tok, sizeof(tok));
	if (len <= 0 || kstrtou32(tok, 0, val))
		return -EINVAL;
	len = sim_next_token(buf, &pos, tok, sizeof(tok));
	return len ? -EINVAL : 0;
}

static int sim_store_kinds(u32 *dst, u32 *nr_dst, const char *buf)
{
	u32 kinds[MLX5_DIAG_SIM_NUM_KINDS];
	u32 nr, i;

	if (sim_parse_list(buf, kinds, ARRAY_SIZE(kinds), U32_MAX, &nr))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (!mlx5_diag_sim_kind_known(kinds[i]))
			return -EINVAL;
	if (sim_has_dup(kinds, nr, sizeof(*kinds)))
		return -EINVAL;
	memcpy(dst, kinds, nr * sizeof(kinds[0]));
	*nr_dst = nr;
	return 0;
}

static int sim_store_ids(u16 *dst, u32 *nr_dst, const char *buf)
{
	u32 vals[MLX5_DIAG_SIM_MAX_COUNTERS];
	u32 nr, i;

	if (sim_parse_list(buf, vals, ARRAY_SIZE(vals), U16_MAX, &nr) ||
	    sim_has_dup(vals, nr, sizeof(*vals)))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		dst[i] = vals[i];
	*nr_dst = nr;
	return 0;
}

int mlx5_diag_sim_cap_store(struct mlx5_diag_sim_caps *caps, unsigned int cap,
			    const char *buf)
{
	const struct sim_cap_desc *d;
	u16 ids[MLX5_DIAG_SIM_MAX_COUNTERS];
	u32 v, nr;

	if (cap >= ARRAY_SIZE(sim_caps_desc))
		return -EINVAL;
	d = &sim_caps_desc[cap];
	switch (d->type) {
	case SIM_CAPT_DIALECT:
		if (sim_parse_one(buf, &v) || (v != 64 && v != 16))
			return -EINVAL;
		caps->dialect64 = v == 64;
		return 0;
	case SIM_CAPT_KINDS:
		return sim_store_kinds(caps->kinds, &caps->nr_kinds, buf);
	case SIM_CAPT_SYNC_KINDS:
		return sim_store_kinds(caps->sync_kinds, &caps->nr_sync_kinds,
				       buf);
	case SIM_CAPT_IDS:
	case SIM_CAPT_SYNC_IDS:
		if (sim_store_ids(ids, &nr, buf))
			return -EINVAL;
		if (d->type == SIM_CAPT_IDS) {
			memcpy(caps->ids, ids, nr * sizeof(ids[0]));
			caps->nr_ids = nr;
		} else {
			memcpy(caps->sync_ids, ids, nr * sizeof(ids[0]));
			caps->nr_sync_ids = nr;
		}
		return 0;
	case SIM_CAPT_U32:
		if (sim_parse_one(buf, &v) || v < d->min || v > d->max)
			return -EINVAL;
		*(u32 *)((u8 *)caps + d->off) = v;
		return 0;
	case SIM_CAPT_BOOL:
		if (sim_parse_one(buf, &v) || v > 1)
			return -EINVAL;
		*(bool *)((u8 *)caps + d->off) = v;
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_cap_store);

/* Append to @buf at *@len; -EINVAL when it does not fit. */
static __printf(4, 5) int sim_append(char *buf, size_t size, size_t *len,
				     const char *fmt, ...)
{
	va_list args;
	int n;

	if (*len >= size)
		return -EINVAL;
	va_start(args, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, args);
	va_end(args);
	if (n < 0 || (size_t)n >= size - *len)
		return -EINVAL;
	*len += n;
	return 0;
}

int mlx5_diag_sim_cap_show(const struct mlx5_diag_sim_caps *caps,
			   unsigned int cap, char *buf, size_t size)
{
	const struct sim_cap_desc *d;
	const u32 *kinds = NULL;
	const u16 *ids = NULL;
	size_t len = 0;
	u32 nr = 0, i, v;
	int err = 0;

	if (cap >= ARRAY_SIZE(sim_caps_desc) || !size)
		return -EINVAL;
	d = &sim_caps_desc[cap];
	switch (d->type) {
	case SIM_CAPT_DIALECT:
		err = sim_append(buf, size, &len, "%u\n",
				 caps->dialect64 ? 64U : 16U);
		return err ? err : len;
	case SIM_CAPT_U32:
		v = *(const u32 *)((const u8 *)caps + d->off);
		err = sim_append(buf, size, &len, "%u\n", v);
		return err ? err : len;
	case SIM_CAPT_BOOL:
		v = *(const bool *)((const u8 *)caps + d->off);
		err = sim_append(buf, size, &len, "%u\n", v);
		return err ? err : len;
	case SIM_CAPT_KINDS:
		kinds = caps->kinds;
		nr = caps->nr_kinds;
		break;
	case SIM_CAPT_SYNC_KINDS:
		kinds = caps->sync_kinds;
		nr = caps->nr_sync_kinds;
		break;
	case SIM_CAPT_IDS:
		ids = caps->ids;
		nr = caps->nr_ids;
		break;
	case SIM_CAPT_SYNC_IDS:
		ids = caps->sync_ids;
		nr = caps->nr_sync_ids;
		break;
	}
	buf[0] = '\0';
	for (i = 0; i < nr && !err; i++) {
		if (kinds)
			err = sim_append(buf, size, &len,
					 i ? " 0x%08x" : "0x%08x", kinds[i]);
		else
			err = sim_append(buf, size, &len,
					 i ? " 0x%04x" : "0x%04x", ids[i]);
	}
	if (!err)
		err = sim_append(buf, size, &len, "\n");
	return err ? err : len;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_cap_show);

int mlx5_diag_sim_parse_fail_next(const char *buf, u32 *count, u8 *status,
				  u32 *syndrome)
{
	u32 v[3] = {};
	size_t pos = 0;
	char tok[24];
	int n = 0, len;

	while ((len = sim_next_token(buf, &pos, tok, sizeof(tok))) > 0) {
		if (n == ARRAY_SIZE(v) || kstrtou32(tok, 0, &v[n]))
			return -EINVAL;
		n++;
	}
	if (len < 0 || !n)
		return -EINVAL;
	if (v[0] && (n < 2 || !v[1] || v[1] > 0xff))
		return -EINVAL;
	if (!v[0] && n > 1)
		return -EINVAL;
	*count = v[0];
	*status = v[0] ? v[1] : 0;
	*syndrome = v[0] ? v[2] : 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_parse_fail_next);

static const char *const sim_lie_names[MLX5_DIAG_SIM_NR_LIES] = {
	[MLX5_DIAG_SIM_LIE_PARAMS_LOG_NUM]	= "params_log_num_of_samples",
	[MLX5_DIAG_SIM_LIE_PARAMS_NUM_IDS]	= "params_num_of_counters",
	[MLX5_DIAG_SIM_LIE_PARAMS_LOG_PERIOD]	= "params_log_sample_period",
	[MLX5_DIAG_SIM_LIE_CAPS_MAX_IDS]	= "caps_max_num_data_ids",
	[MLX5_DIAG_SIM_LIE_RING_AHEAD]		= "ring_ahead",
	[MLX5_DIAG_SIM_LIE_ENTRIES_REVERSED]	= "entries_reversed",
	[MLX5_DIAG_SIM_LIE_ENTRY_TS_BACK]	= "entry_ts_back",
	[MLX5_DIAG_SIM_LIE_SAMPLING_STOPS]	= "sampling_stops",
};

const char *mlx5_diag_sim_lie_name(unsigned int lie)
{
	return lie < MLX5_DIAG_SIM_NR_LIES ? sim_lie_names[lie] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_lie_name);

/* "<name> <value>" with a name of @names (@nr), or "none" (index @nr). */
static int sim_parse_named(const char *buf, const char *const *names,
			   unsigned int nr, unsigned int *index, u32 *value)
{
	size_t pos = 0;
	char tok[32];
	unsigned int i;

	if (sim_next_token(buf, &pos, tok, sizeof(tok)) <= 0)
		return -EINVAL;
	if (!strcmp(tok, "none")) {
		*index = nr;
		*value = 0;
		return sim_next_token(buf, &pos, tok, sizeof(tok)) ? -EINVAL : 0;
	}
	for (i = 0; i < nr; i++)
		if (!strcmp(tok, names[i]))
			break;
	if (i == nr)
		return -EINVAL;
	*index = i;
	return sim_parse_one(buf + pos, value);
}

int mlx5_diag_sim_parse_lie(const char *buf, unsigned int *lie, u32 *value)
{
	return sim_parse_named(buf, sim_lie_names, MLX5_DIAG_SIM_NR_LIES, lie,
			       value);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_parse_lie);

static const char *const sim_variant_names[MLX5_DIAG_SIM_NR_VARIANTS] = {
	[MLX5_DIAG_SIM_VAR_UNWRITTEN_ZERO]	= "unwritten_zero",
	[MLX5_DIAG_SIM_VAR_SAMPLE_ID_BITS]	= "sample_id_bits",
	[MLX5_DIAG_SIM_VAR_BUSY_EVERY]		= "busy_every",
	[MLX5_DIAG_SIM_VAR_PERIOD_RESTART]	= "period_restart",
	[MLX5_DIAG_SIM_VAR_PERIOD_CLEAR]	= "period_clear",
	[MLX5_DIAG_SIM_VAR_PUBLIC_ON_DEMAND]	= "public_on_demand",
	[MLX5_DIAG_SIM_VAR_ENTRY_JITTER]	= "entry_jitter",
	[MLX5_DIAG_SIM_VAR_ENTRY_ORDER]		= "entry_order",
	[MLX5_DIAG_SIM_VAR_SAMPLE_ID_CONTINUES]	= "sample_id_continues",
	[MLX5_DIAG_SIM_VAR_SAMPLE_ID_SLOT]	= "sample_id_slot",
	[MLX5_DIAG_SIM_VAR_PERIOD_UNREPORTED]	= "period_unreported",
	[MLX5_DIAG_SIM_VAR_RTC_STILL]		= "rtc_still",
};

const char *mlx5_diag_sim_variant_name(unsigned int var)
{
	return var < MLX5_DIAG_SIM_NR_VARIANTS ? sim_variant_names[var] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_variant_name);

int mlx5_diag_sim_parse_variant(const char *buf, unsigned int *var,
				u32 *value)
{
	return sim_parse_named(buf, sim_variant_names,
			       MLX5_DIAG_SIM_NR_VARIANTS, var, value);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_parse_variant);

int mlx5_diag_sim_parse_model(const char *buf, u64 *id, u64 *t0, u64 *t1)
{
	u64 v[3];
	size_t pos = 0;
	char tok[24];
	int n = 0, len;

	while ((len = sim_next_token(buf, &pos, tok, sizeof(tok))) > 0) {
		if (n == ARRAY_SIZE(v) || kstrtou64(tok, n ? 10 : 16, &v[n]))
			return -EINVAL;
		n++;
	}
	if (len < 0 || n != ARRAY_SIZE(v) || v[1] > v[2])
		return -EINVAL;
	*id = v[0];
	*t0 = v[1];
	*t1 = v[2];
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_sim_parse_model);
