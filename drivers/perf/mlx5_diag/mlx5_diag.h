/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5_diag PMU driver internals: device state, firmware command layer,
 * data-ID catalog and counting engine, shared by the driver's files.
 */
#ifndef _MLX5_DIAG_H
#define _MLX5_DIAG_H

#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uapi/linux/mlx5_diag.h>

#include "mlx5_diag_aux.h"

#define MLX5_DIAG_PMU_NAME_LEN		32
#define MLX5_DIAG_NUM_PRIOS		8
#define MLX5_DIAG_NUM_TCLASSES		8
#define MLX5_DIAG_NUM_HIST_BINS		10
/* The deepest log_sample_period the firmware takes (2^35 clocks). */
#define MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD	35

/* ---- catalog: what each data ID or firmware counter id means ---- */

enum mlx5_diag_group {
	MLX5_DIAG_GRP_GLOBAL,
	MLX5_DIAG_GRP_PORT,
	MLX5_DIAG_GRP_PORT_PRIO,
	MLX5_DIAG_GRP_HOST,
	MLX5_DIAG_GRP_FUNCTION,
	MLX5_DIAG_GRP_PCIE_LINK,
	MLX5_DIAG_GRP_PCIE_LINK_TCLASS,
	MLX5_DIAG_GRP_PCIE_LINK_BIN,
	MLX5_DIAG_GRP_FW_COUNTER,	/* public 16-bit counter id */
};

/*
 * How a value behaves, and what it means in counting mode (perf stat):
 * COUNTER: monotonic, the count is the increase over the interval.
 * STAT_SUM: cleared at each sample; the count is the sum of the samples,
 *	i.e. the total over the interval (latency ns, packets, bin hits).
 * STAT_MAX, STAT_MIN: cleared at each sample; no sum means anything, so
 *	counting refuses them (they are for sampling).
 */
enum mlx5_diag_class {
	MLX5_DIAG_CLASS_COUNTER,
	MLX5_DIAG_CLASS_STAT_SUM,
	MLX5_DIAG_CLASS_STAT_MAX,
	MLX5_DIAG_CLASS_STAT_MIN,
};

struct mlx5_diag_catalog_entry {
	u32 kind;		/* data ID bits 63:32, or 0 for a fw counter */
	u16 fw_counter;		/* public 16-bit counter id, group FW_COUNTER */
	enum mlx5_diag_group group;
	enum mlx5_diag_class class;
	const char *name;	/* perf event alias */
	const char *unit;	/* NULL, "Bytes", "ns" or device "clocks" */
	const char *scale;	/* NULL or a perf scale string */
};

extern const struct mlx5_diag_catalog_entry mlx5_diag_catalog[];
extern const unsigned int mlx5_diag_catalog_size;

struct mlx5_diag_caps;
const struct mlx5_diag_catalog_entry *mlx5_diag_catalog_find(u64 id);
int mlx5_diag_catalog_check_instance(const struct mlx5_diag_catalog_entry *e,
				     u64 id, const struct mlx5_diag_caps *caps,
				     const char **why);
int mlx5_diag_catalog_event_string(const struct mlx5_diag_catalog_entry *e,
				   char *buf, size_t len);

/* ---- firmware capabilities and command layer ---- */

/* One entry of the device's capability list: a kind or a 16-bit counter. */
struct mlx5_diag_cap_entry {
	u64 id;		/* kind << 32 (64-bit dialect) or the counter id */
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
	u8 num_ports, num_hosts, num_pcie_links;
	u16 num_functions;
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
 * The firmware dialect: the public 16-bit counter interface or the modelled
 * 64-bit data-ID one (mlx5_diag_fw_model64.c). Chosen once per device from
 * the DEBUG capability.
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
	void (*sample_entry_get)(const void *entry, struct mlx5_diag_fw_entry *e);
};

extern const struct mlx5_diag_fw_dialect mlx5_diag_fw_public16;
extern const struct mlx5_diag_fw_dialect mlx5_diag_fw_model64;

int mlx5_diag_fw_status_to_errno(u8 status);
const char *mlx5_diag_fw_status_name(u8 status);

/* Pure encoders and decoders (KUnit-tested). Lengths are in bytes. */
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
size_t mlx5_diag_fw_query_counters_in(void *in, u16 num_samples, u16 index);
size_t mlx5_diag_fw_query_counters_outlen(const struct mlx5_diag_fw_dialect *d,
					  u16 num_samples, u16 num_ids);
void mlx5_diag_fw_query_counters_entry(const struct mlx5_diag_fw_dialect *d,
				       const void *out, unsigned int n,
				       struct mlx5_diag_fw_entry *e);
u8 mlx5_diag_fw_out_status(const void *out, u32 *syndrome);

/* Extend a wrapping @bits-wide hardware value to 64 bits, given the last one. */
static inline u64 mlx5_diag_extend(u64 last, u64 raw, unsigned int bits)
{
	u64 mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

	if (bits >= 64)
		return raw;
	return last + ((raw - last) & mask);
}

/* Increase of a @bits-wide counter from @last to @raw, allowing one wrap. */
static inline u64 mlx5_diag_counter_delta(u64 last, u64 raw, unsigned int bits)
{
	u64 mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

	return (raw - last) & mask;
}

/* ---- the device ---- */

/* A data ID counted on behalf of open events, with its running value. */
struct mlx5_diag_count {
	u64 id;
	const struct mlx5_diag_catalog_entry *entry;
	unsigned int users;	/* open events naming it */
	bool in_fw;		/* part of the configuration firmware runs */
	bool primed;		/* a first sample set @last */
	u64 last;		/* last raw firmware value */
	u64 value;		/* running 64-bit count, read under vlock */
};

struct mlx5_diag_event_attr;

struct mlx5_diag_dev {
	struct mlx5_diag_aux_dev *aux;
	struct device *dev;
	const struct mlx5_diag_fw_dialect *dialect;
	struct mlx5_diag_caps caps;
	int index;			/* n in mlx5_diag_<n> */
	char name[MLX5_DIAG_PMU_NAME_LEN];

	/* transport: read side around exec, write side sets @gone */
	struct rw_semaphore exec_lock;
	bool gone;

	/* engine configuration and the counting set, under cfg_lock */
	struct mutex cfg_lock;
	struct mlx5_diag_count *counts;	/* caps.max_ids slots */
	u64 *fw_ids;			/* ids firmware runs, in slot order */
	unsigned int num_fw_ids;
	bool owned;			/* we enabled the engine */
	struct mlx5_diag_fw_params fw_state;	/* as found before taking it */
	struct delayed_work poll_work;
	void *poll_out;			/* QUERY_DIAGNOSTIC_COUNTERS outbox */
	spinlock_t vlock;		/* counts[].value for pmu->read */

	/* perf */
	struct pmu pmu;
	bool registered;
	int cpu;			/* handles the events; cpumask */
	unsigned int preferred_cpu;
	struct hlist_node cpuhp_node;
	refcount_t refs;		/* device + one per event */
	struct work_struct release_work;
	struct mlx5_diag_event_attr *event_attrs;
	struct attribute **event_attr_ptrs;
	unsigned int num_event_attrs;
	struct attribute_group events_group;
	const struct attribute_group *attr_groups[5];
};

int mlx5_diag_cmd(struct mlx5_diag_dev *dd, const void *in, size_t inlen,
		  void *out, size_t outlen, u32 *syndrome);
int mlx5_diag_fw_query_caps(struct mlx5_diag_dev *dd);
int mlx5_diag_fw_set_params(struct mlx5_diag_dev *dd,
			    const struct mlx5_diag_fw_params *p);
int mlx5_diag_fw_query_params(struct mlx5_diag_dev *dd,
			      struct mlx5_diag_fw_params *p);
void mlx5_diag_fw_free_caps(struct mlx5_diag_caps *caps);

/* counting engine and perf glue (mlx5_diag_pmu.c) */
int mlx5_diag_pmu_register(struct mlx5_diag_dev *dd);
void mlx5_diag_pmu_remove(struct mlx5_diag_dev *dd);
int mlx5_diag_pmu_init(void);
void mlx5_diag_pmu_exit(void);

/* mlx5_diag_count.c */
u64 mlx5_diag_count_update(struct mlx5_diag_count *c, u64 raw);

/* mlx5_diag_main.c */
void mlx5_diag_dev_free(struct mlx5_diag_dev *dd);

#endif /* _MLX5_DIAG_H */
