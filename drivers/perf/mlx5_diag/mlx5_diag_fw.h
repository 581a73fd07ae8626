/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The firmware command layer of mlx5_diag: capabilities, the two dialects of
 * the diagnostic-counter commands, pure encoders and decoders, and the
 * transport handle commands run over.
 */
#ifndef _MLX5_DIAG_FW_H
#define _MLX5_DIAG_FW_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/rwsem.h>
#include <linux/types.h>

#include "mlx5_diag_aux.h"
#include "mlx5_diag_catalog.h"

/* The deepest log_sample_period the firmware takes (2^35 clocks). */
#define MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD	35

/*
 * The most data IDs the driver selects at once; a device whose capability
 * says more is refused at probe. Each of these holds it: the per-CPU group
 * snapshot (u64 each, within PCPU_MIN_UNIT_SIZE), one sample of the 64-bit
 * dialect in the 128 KiB drain outbox (32 bytes an entry), and a format-0
 * sample's sample_size (__le16: 8 + 24 bytes an id).
 */
#define MLX5_DIAG_MAX_IDS		2048

/* One entry of the device's capability list: a kind or a 16-bit counter. */
struct mlx5_diag_cap_entry {
	u64 id;		/* kind in place (64-bit dialect) or the counter id */
	bool sync;
};

struct mlx5_diag_caps {
	bool debug;
	bool model64;			/* MODEL: the 64-bit dialect */
	u16 num_entries;		/* num_of_diagnostic_counters */
	struct mlx5_diag_cap_entry *entries;
	u16 max_ids;			/* selectable at once */
	u8 log_max_samples;
	u8 log_min_sample_period;
	u32 freq_khz;
	bool single, repetitive, on_demand, sync_start, data_clear;
	bool rtc;			/* MODEL: RTC timestamp source offered */
	u8 num_pcie_links;
	struct mlx5_diag_instance_limits limits;
};

enum mlx5_diag_fw_mode {
	MLX5_DIAG_FW_SINGLE,
	MLX5_DIAG_FW_REPETITIVE,
	MLX5_DIAG_FW_ON_DEMAND,
};

/* What SET_DIAGNOSTIC_PARAMS programs, and QUERY_DIAGNOSTIC_PARAMS returns. */
struct mlx5_diag_fw_params {
	bool enable;
	enum mlx5_diag_fw_mode mode;
	bool sync, clear;
	bool rtc;			/* MODEL: timestamps from the RTC */
	u8 log_num_of_samples;
	u8 log_sample_period;
	u16 num_ids;
	u64 *ids;
};

/* One decoded sample entry, ids and timestamp as the firmware gave them. */
struct mlx5_diag_fw_entry {
	u64 id;
	u32 sample_id;
	u64 timestamp;
	u64 value;
};

/*
 * The firmware dialect: the public 16-bit counter interface
 * (mlx5_diag_fw_public16.c) or the modelled 64-bit data-ID one
 * (mlx5_diag_fw_model64.c). Chosen once per device from the DEBUG capability.
 */
struct mlx5_diag_fw_dialect {
	const char *name;
	unsigned int cap_entry_bits;	/* DEBUG cap list entry */
	unsigned int param_id_bits;	/* params context id entry */
	unsigned int sample_entry_bits;	/* QUERY_DIAGNOSTIC_COUNTERS entry */
	unsigned int sample_id_bits;	/* width of sample_id before extension */
	unsigned int timestamp_bits;	/* width of the timestamp */
	void (*cap_entry_get)(const void *entry, struct mlx5_diag_cap_entry *e);
	void (*param_id_set)(void *entry, u64 id);
	u64 (*param_id_get)(const void *entry);
	/* @n consecutive entries: a whole sample in one call */
	void (*sample_entries_get)(const void *entries, unsigned int n,
				   struct mlx5_diag_fw_entry *e);
};

extern const struct mlx5_diag_fw_dialect mlx5_diag_fw_public16;
extern const struct mlx5_diag_fw_dialect mlx5_diag_fw_model64;

void mlx5_diag_fw_free_caps(struct mlx5_diag_caps *caps);
u8 mlx5_diag_fw_max_log_period(const struct mlx5_diag_caps *caps);
bool mlx5_diag_fw_caps_equal(const struct mlx5_diag_caps *a,
			     const struct mlx5_diag_caps *b);
const struct mlx5_diag_cap_entry *
mlx5_diag_fw_cap_lookup(const struct mlx5_diag_caps *caps, u64 id);
bool mlx5_diag_fw_params_equal_but_period(const struct mlx5_diag_fw_params *a,
					  const struct mlx5_diag_fw_params *b);
bool mlx5_diag_fw_params_equal(const struct mlx5_diag_fw_params *a,
			       const struct mlx5_diag_fw_params *b);

/* Pure encoders and decoders (KUnit-tested). Lengths are in bytes. */
size_t mlx5_diag_fw_query_counters_in(void *in, u16 num_samples, u16 index);
size_t mlx5_diag_fw_query_counters_outlen(const struct mlx5_diag_fw_dialect *d,
					  unsigned int num_entries);
void mlx5_diag_fw_query_counters_entry(const struct mlx5_diag_fw_dialect *d,
				       const void *out, unsigned int n,
				       struct mlx5_diag_fw_entry *e);
void mlx5_diag_fw_query_counters_entries(const struct mlx5_diag_fw_dialect *d,
					 const void *out, unsigned int first,
					 unsigned int n,
					 struct mlx5_diag_fw_entry *e);

#if IS_ENABLED(CONFIG_KUNIT)
/* Static but for KUnit (VISIBLE_IF_KUNIT): the command layer's own. */
int mlx5_diag_fw_status_to_errno(u8 status);
const char *mlx5_diag_fw_status_name(u8 status);
u8 mlx5_diag_fw_out_status(const void *out, u32 *syndrome);
size_t mlx5_diag_fw_query_cap_in(void *in, u16 cap_type);
size_t mlx5_diag_fw_general_cap_outlen(void);
size_t mlx5_diag_fw_debug_cap_outlen(const struct mlx5_diag_fw_dialect *d,
				     u16 num_entries);
int mlx5_diag_fw_parse_general_cap(const void *out, struct mlx5_diag_caps *caps);
const struct mlx5_diag_fw_dialect *
mlx5_diag_fw_parse_debug_cap(const void *out, struct mlx5_diag_caps *caps);
int mlx5_diag_fw_parse_cap_entries(const struct mlx5_diag_fw_dialect *d,
				   const void *out, struct mlx5_diag_caps *caps);
size_t mlx5_diag_fw_params_len(const struct mlx5_diag_fw_dialect *d, u16 num_ids);
size_t mlx5_diag_fw_set_params_in(const struct mlx5_diag_fw_dialect *d, void *in,
				  const struct mlx5_diag_fw_params *p);
void mlx5_diag_fw_set_params_bad_id(const void *out, u16 *index, u8 *reason);
size_t mlx5_diag_fw_query_params_in(void *in);
int mlx5_diag_fw_query_params_out(const struct mlx5_diag_fw_dialect *d,
				  const void *out, size_t outlen,
				  struct mlx5_diag_fw_params *p, u16 max_ids);
#endif

/* Extend a wrapping @bits-wide hardware value to 64 bits, given the last one. */
static inline u64 mlx5_diag_extend(u64 last, u64 raw, unsigned int bits)
{
	u64 mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

	if (bits >= 64)
		return raw;
	return last + ((raw - last) & mask);
}

/* The same, as the 64-bit value at or before @now (a clock read after it). */
static inline u64 mlx5_diag_extend_back(u64 now, u64 raw, unsigned int bits)
{
	if (bits >= 64)
		return raw;
	return now - ((now - raw) & ((1ULL << bits) - 1));
}

/* The same, as the 64-bit value nearest @near (within half the range). */
static inline u64 mlx5_diag_extend_near(u64 near, u64 raw, unsigned int bits)
{
	if (bits >= 64)
		return raw;
	return near + sign_extend64((raw - near) & ((1ULL << bits) - 1),
				    bits - 1);
}

/**
 * struct mlx5_diag_fw - a device's firmware, as the command layer sees it
 * @name: the PMU name, for log lines (never the provider's device name:
 *	nothing here points into the provider once it is detached)
 * @aux: the provider's device while attached, NULL once it is gone
 * @lock: read side around each command, write side to attach or detach
 * @dialect: chosen from the DEBUG capability
 * @caps: the capabilities found at bind time
 * @busy_answers: RES_BUSY answers, retried or not
 * @clear_learnt: public firmware: data clear as tried (enum
 *	mlx5_diag_cap_known), written under the engine lock
 * @rtc_still: two samples were seen stamped alike on the RTC: its stamps
 *	stand still and RTC sampling is refused (A4); written under the
 *	engine lock
 * @slot_ids: the firmware was seen numbering its samples by slot index
 *	(A1): sessions whose laps time cannot tell apart are refused;
 *	written under the engine lock
 */
struct mlx5_diag_fw {
	const char *name;
	struct mlx5_diag_aux_dev *aux;
	struct rw_semaphore lock;
	const struct mlx5_diag_fw_dialect *dialect;
	struct mlx5_diag_caps caps;
	atomic64_t busy_answers;
	u8 clear_learnt;
	bool rtc_still;
	bool slot_ids;
};

/**
 * enum mlx5_diag_cap_known - what the driver knows of a capability
 * @MLX5_DIAG_CAP_UNKNOWN: not carried by the public layouts, not tried yet
 * @MLX5_DIAG_CAP_NO: absent, or refused when tried
 * @MLX5_DIAG_CAP_YES: present, or taken when tried
 */
enum mlx5_diag_cap_known {
	MLX5_DIAG_CAP_UNKNOWN,
	MLX5_DIAG_CAP_NO,
	MLX5_DIAG_CAP_YES,
};

const char *mlx5_diag_cap_known_name(enum mlx5_diag_cap_known k);
enum mlx5_diag_cap_known mlx5_diag_fw_sync_known(const struct mlx5_diag_fw *fw);
enum mlx5_diag_cap_known mlx5_diag_fw_clear_known(const struct mlx5_diag_fw *fw);
enum mlx5_diag_cap_known
mlx5_diag_fw_on_demand_known(const struct mlx5_diag_fw *fw);
void mlx5_diag_fw_learn_clear(struct mlx5_diag_fw *fw,
			      const struct mlx5_diag_fw_params *p, int ret);

void mlx5_diag_fw_init(struct mlx5_diag_fw *fw, const char *name,
		       struct mlx5_diag_aux_dev *aux);
void mlx5_diag_fw_attach(struct mlx5_diag_fw *fw, struct mlx5_diag_aux_dev *aux);
void mlx5_diag_fw_detach(struct mlx5_diag_fw *fw);
int mlx5_diag_fw_cmd(struct mlx5_diag_fw *fw, const void *in, size_t inlen,
		     void *out, size_t outlen);
int mlx5_diag_fw_query_caps(struct mlx5_diag_fw *fw,
			    struct mlx5_diag_caps *caps,
			    const struct mlx5_diag_fw_dialect **dialect);
int mlx5_diag_fw_set_params(struct mlx5_diag_fw *fw,
			    const struct mlx5_diag_fw_params *p);
int mlx5_diag_fw_query_params(struct mlx5_diag_fw *fw,
			      struct mlx5_diag_fw_params *p);
int mlx5_diag_fw_read_clock(struct mlx5_diag_fw *fw, bool rtc,
			    struct mlx5_diag_clock_read *r);

#endif /* _MLX5_DIAG_FW_H */
