/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The diagnostic engine of one device: the only code that issues
 * SET_DIAGNOSTIC_PARAMS. A state machine (OFF, COUNT, RELEASING, FOREIGN,
 * GONE, SESSION; see Documentation/driver-api/mlx5-diag-firmware.rst, part
 * 4) over the counted data IDs (mlx5_diag_engine.c), the poller that folds
 * firmware samples into the 64-bit counts perf reads
 * (mlx5_diag_engine_count.c), and sampling sessions
 * (mlx5_diag_engine_session.c).
 */
#ifndef _MLX5_DIAG_ENGINE_H
#define _MLX5_DIAG_ENGINE_H

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/workqueue.h>

#include "mlx5_diag_count.h"
#include "mlx5_diag_fw.h"

enum mlx5_diag_engine_state {
	MLX5_DIAG_ENGINE_OFF,		/* we run nothing */
	MLX5_DIAG_ENGINE_COUNT,		/* firmware runs the counted ids */
	MLX5_DIAG_ENGINE_RELEASING,	/* our disable failed; retried */
	MLX5_DIAG_ENGINE_FOREIGN,	/* another agent holds the engine */
	MLX5_DIAG_ENGINE_GONE,		/* the device was removed */
	MLX5_DIAG_ENGINE_SESSION,	/* firmware runs a sampling session */
};

/* A data ID counted on behalf of open events. */
struct mlx5_diag_engine_slot {
	u64 id;
	const struct mlx5_diag_catalog_entry *entry;
	unsigned int users;
	unsigned int members;		/* of the users, session events */
	bool orphan;			/* its members' session ended */
	bool in_fw;			/* firmware's configuration has it */
	struct mlx5_diag_count_state cs;
	u64 value;			/* running count, under lock */
};

struct mlx5_diag_engine_stats {
	u64 polls;
	u64 lost_samples;	/* folded counting: overwritten before a poll */
	u64 counter_resets;
	u64 takeovers;		/* another agent took the engine from us */
	u64 set_failures;
	u64 disable_retries;
	u64 foreign_configs;	/* a QUERY after our SET reported another */
	/* counting polls began to get answers they could not use (EPROTO) */
	u64 unusable_answers;
	/* samples a drain stopped at that break A1 or A2 (not of the run) */
	u64 bad_samples;
	/* runs whose samples came at a longer period than reported (A9) */
	u64 unreported_periods;
	/*
	 * configurations whose numbering start a first read after a lap
	 * could only reckon: the SET answered a period late or more (A1)
	 */
	u64 reckoned_starts;
	/* period-only SETs after which the firmware numbered from 0 (A8) */
	u64 period_restarts;
};

/* A session's options, as its leader asked for them. */
struct mlx5_diag_session_opts {
	enum mlx5_diag_fw_mode mode;	/* SINGLE or REPETITIVE */
	bool sync, clear, rtc;
	u8 log_sample_period;
};

/* The order of a sample's entries, as far as the engine learnt it. */
enum mlx5_diag_engine_order {
	MLX5_DIAG_ORDER_UNKNOWN,
	MLX5_DIAG_ORDER_SET,		/* the SET's order of the ids */
	MLX5_DIAG_ORDER_OTHER,		/* another, the same in every sample */
};

/* What a period-only SET did to the firmware's sample numbering (A8). */
enum mlx5_diag_engine_renumber {
	MLX5_DIAG_RENUMBER_NONE,	/* kept it, or no such SET */
	MLX5_DIAG_RENUMBER_UNSURE,	/* not seen yet */
	MLX5_DIAG_RENUMBER_FOUND,	/* from 0 again, from slot 0 */
};

/* Where the firmware numbers a configuration's first sample (A1). */
enum mlx5_diag_engine_seq_start {
	MLX5_DIAG_SEQ_UNKNOWN,
	MLX5_DIAG_SEQ_ZERO,		/* at 0: the numbering restarts */
	MLX5_DIAG_SEQ_CONTINUED,	/* past the configuration before */
	MLX5_DIAG_SEQ_SLOT,		/* the slot index: laps told by time */
};

/*
 * Laps of slots a session's drains may skip (the firmware overwrote them)
 * with no sample taken since, before the run ends (END, STALLED): catching
 * up after a real overrun skips at most the lap the firmware wrote ahead
 * plus what it writes meanwhile; firmware whose every slot stays a lap
 * ahead of the drain never lets it catch up.
 */
#define MLX5_DIAG_DRAIN_MAX_SKIP_LAPS	4

/*
 * Period-only SETs a drain counts the samples due across (those sent after
 * the last sample taken), at most, and one more answered after it: beyond
 * them, or past one whose device clock was not read, the samples due are
 * unknown until a sample taken after them.
 */
#define MLX5_DIAG_DRAIN_DUE_SETS	4

/*
 * A period-only SET: the device clock read before it was sent and after
 * its answer, the period before it.
 */
struct mlx5_diag_engine_period_set {
	u64 sent;
	u64 answer;
	u8 log_old;
};

/*
 * Samples a session drain fetched, handed to @take one at a time as they
 * are taken, extended to 64 bits: for sample k, sequence number
 * first_seq + k (first_seq no longer moves once a sample is taken), the
 * drain sets ts[i] and val[i] of entry i (in firmware order) and calls
 * take() with n == k, then counts it in n. take() runs under the engine's
 * lock: it only stores the sample. lost_count samples from lost_first
 * were overwritten by the firmware before this drain read them.
 */
struct mlx5_diag_drain {
	unsigned int cap;		/* samples a drain takes at most */
	unsigned int n;
	u64 first_seq;
	u64 *ts, *val;			/* the sample taken: one per id */
	void (*take)(struct mlx5_diag_drain *d);
	u64 lost_first, lost_count;
	bool full;			/* single mode: the run took its last sample */
	bool stalled;			/* the drain never catches up: end the run */
	/*
	 * the run's period, learnt in this drain from two consecutive
	 * samples (the later stamped @period_ts), the run's first or the
	 * first after a period change, where it is longer than
	 * QUERY_DIAGNOSTIC_PARAMS reported (A9); 0: none
	 */
	u8 log_period_learnt;
	u64 period_ts;
};

/*
 * A sample a drain read in the expected slot and did not take (its first
 * entry, raw), and what the drain read it as
 * (mlx5_diag_engine_session_unchanged())
 */
struct mlx5_diag_engine_seen {
	struct mlx5_diag_fw_entry entry;
	u64 expect;				/* the id expected there */
	enum mlx5_diag_engine_seq_start seq_start;
	enum mlx5_diag_engine_renumber renumber;
	u8 log_period;				/* session_log_period */
	bool period_checked;			/* session_period_checked */
	bool known;
};

struct mlx5_diag_engine {
	struct mlx5_diag_fw *fw;
	struct workqueue_struct *wq;	/* NULL: the owner calls poll() */
	struct mutex lock;
	enum mlx5_diag_engine_state state;
	struct mlx5_diag_engine_slot *slots;	/* caps.max_ids */
	unsigned int users;			/* open events, all slots */
	/* what firmware holds on our behalf; num_ids 0 when nothing */
	struct mlx5_diag_fw_params programmed;
	int *fw_slot;			/* slot of programmed.ids[i], or -1 */
	struct mlx5_diag_fw_params want, queried;
	/* a foreign configuration that a forced open took over */
	struct mlx5_diag_fw_params displaced;
	bool displaced_valid;
	bool takeover_final;		/* an event was scheduled since */
	/* how QUERY_DIAGNOSTIC_COUNTERS reads num_of_samples */
	bool entries_reading, reading_known;
	/* the width the firmware numbers its samples in (A1), learnt */
	u8 seq_bits;
	/*
	 * The order of a sample's entries (A12), learnt per configuration;
	 * once known, entry k of a sample carries programmed.ids[order[k]]
	 */
	enum mlx5_diag_engine_order entry_order;
	/*
	 * Where the numbering of a configuration starts (A1), learnt from
	 * its first samples: its sample n carries id seq_base + n, modulo
	 * the numbering's width, in slot (seq_base + n) mod the slots
	 */
	enum mlx5_diag_engine_seq_start seq_start;
	u64 seq_base;
	/*
	 * numbered by slot from a read of the whole buffer: the number of
	 * its earliest sample (mlx5_diag_engine_seq_learn())
	 */
	u64 seq_first;
	/*
	 * The device clock read after the answer of the SET that started
	 * it, and before the SET was sent: the firmware started it between
	 * the two (the one after where the one before was not read)
	 */
	bool run_set_known;
	u64 run_set_clock;
	u64 run_set_sent;
	/*
	 * The time of the last sample folded (the SET's clock before any):
	 * under slot-index ids the folded poll places samples from it, and
	 * a poll half the numbering's range late does. Known: a time (the
	 * SET's clock was read, or a sample folded). Full: in 64 bits
	 * (narrow FRC timestamps extended from a device clock read), not
	 * modulo their width.
	 */
	u64 fold_last_ts;
	bool fold_last_known;
	bool fold_last_full;
	/* the device clock read at the last poll (the SET's before any) */
	u64 fold_poll_clock;
	bool fold_poll_known;
	/* the CRC-32 of the ring in the last answer a poll read */
	u32 fold_answer_crc;
	bool fold_answer_known;
	u16 *order;
	unsigned long *order_used;	/* learning: the ids found so far */
	struct mlx5_diag_fw_entry *raw;	/* one sample, as answered */
	/* folded (repetitive) counting */
	u64 next_sample;		/* extended sample id expected next */
	unsigned int nslots;
	unsigned int polls_since_check;
	bool poll_unusable;		/* the last poll's answer was (EPROTO) */
	void *out;			/* QUERY_DIAGNOSTIC_COUNTERS outbox */
	size_t outlen;
	struct mlx5_diag_fw_entry *entries;	/* one sample, decoded */
	/* a sampling session: claimed by its leader, ids added by members */
	bool session_claimed, session_running;
	struct mlx5_diag_fw_params session;
	unsigned int session_users;	/* slot users that are session events */
	u64 session_next;		/* the run's sample expected next */
	u64 session_skipped;		/* slots skipped since the last taken */
	u64 session_last_ts;		/* last sample's time: earliest entry */
	/* the same moved on over samples skipped by the shortest period alone */
	u64 session_period_ts;
	u64 session_bad_seq;		/* bad sample a drain stopped at */
	/*
	 * Where slot-index ids are placed from: the number after the last
	 * sample taken and its time; before any, 0 and the SET's clock, or
	 * the number and time of the buffer's earliest sample where a read
	 * of the whole buffer learnt slot-index ids (placed as the nearest
	 * number in its slot, that one too)
	 */
	u64 session_ref_next, session_ref_ts;
	/*
	 * The number after the last sample taken (U64_MAX before any since
	 * the last SET), and where the sample taken before it was stamped,
	 * when it was the one just before (a step of the period running)
	 */
	u64 session_taken_next, session_step_from;
	bool session_step_known;
	/*
	 * Period-only SETs answered after the reference's time (the first
	 * may have been sent before it), oldest first; whether one of them
	 * came with no device clock read or the array was full
	 */
	struct mlx5_diag_engine_period_set
		session_ref_set[MLX5_DIAG_DRAIN_DUE_SETS + 1];
	u8 session_ref_nr_sets;
	bool session_ref_sets_unknown;
	/* the run's period now: as reported, or as its samples show (A9) */
	u8 session_log_period;
	u8 session_log_period_max;	/* the run's longest period */
	u8 session_log_period_min;	/* the run's shortest period */
	/* against two samples in a row: a first period change waits for it */
	bool session_period_checked;
	/*
	 * Checked again after a period-only SET to a period shorter than the
	 * shortest two samples in a row showed the run running (U8_MAX: none
	 * yet), against two both stamped after its answer (session_set_answer)
	 */
	bool session_period_relearn;
	u8 session_log_period_shown;
	/*
	 * After a period-only SET (A8): whether the firmware kept its
	 * numbering, the id expected next when the SET was sent and
	 * session_next then, whether the device clock was read around it,
	 * the device clock read before it was sent and after its answer,
	 * the period before it, the time of the sample in slot 0 that told
	 */
	enum mlx5_diag_engine_renumber session_renumber;
	u64 session_set_seq, session_set_next;
	bool session_set_known;
	u64 session_set_sent, session_set_answer, session_set_first;
	u8 session_set_log_old;
	u64 session_run_first;		/* the firmware's sample 0 */
	bool session_clock_known;	/* the drain read session_clock */
	u64 session_clock;		/* device clock before its query */
	struct mlx5_diag_engine_seen session_seen;	/* the last one */
	void *session_out;		/* drain outbox */
	size_t session_outlen;
	void *session_slot0_out;	/* slot 0 read after a period change */
	size_t session_slot0_outlen;
	unsigned int session_batch;	/* samples one drain query reads, at most */
	/*
	 * The counts perf reads, published after each poll or drain as a
	 * latch: two copies of slots[0..nr_published).value, each with the
	 * number of its publish and its nr_published, written under @lock;
	 * a reader in any context (NMI, hard IRQ, PREEMPT_RT) takes the copy
	 * not being written, never waits and never deadlocks.
	 */
	seqcount_latch_t vseq;
	u64 *vcopy[2];
	u64 vgen[2];
	unsigned int vnr[2];
	u64 published;			/* publishes so far */
	unsigned int nr_published;	/* slots ever taken: 0..n */
	struct delayed_work poll_work;
	struct mlx5_diag_engine_stats stats;
};

const char *mlx5_diag_engine_state_name(enum mlx5_diag_engine_state state);
unsigned int mlx5_diag_engine_refresh_ms(void);
unsigned int mlx5_diag_engine_check_polls(void);

int mlx5_diag_engine_init(struct mlx5_diag_engine *eng, struct mlx5_diag_fw *fw,
			  struct workqueue_struct *wq);
void mlx5_diag_engine_free(struct mlx5_diag_engine *eng);
/*
 * Where an event joined a slot's count: the count then, and the publish it
 * was read from. A snapshot of an earlier publish predates the event, which
 * counted nothing in it.
 */
struct mlx5_diag_engine_join {
	u64 base;
	u64 gen;
};

int mlx5_diag_engine_count_get(struct mlx5_diag_engine *eng, u64 id,
			       const struct mlx5_diag_catalog_entry *e,
			       bool force, unsigned int *slot, bool *took_over,
			       struct mlx5_diag_engine_join *join);
void mlx5_diag_engine_count_put(struct mlx5_diag_engine *eng, unsigned int slot,
				bool unscheduled_taker);
void mlx5_diag_engine_scheduled(struct mlx5_diag_engine *eng);
u64 mlx5_diag_engine_read(struct mlx5_diag_engine *eng, unsigned int slot);

/*
 * The counts one engine shows on one CPU while perf core needs them to
 * stand still (the PMU keeps one per CPU per device): from the first hold
 * to the last release, the engine's slots read @values, taken at the first
 * hold, so that every event of a group starts, stops and is read at the
 * same poll. Holders are bits of @held: a group read transaction, and the
 * PMU disabled (perf core scheduling groups in or out).
 */
enum mlx5_diag_engine_hold {
	MLX5_DIAG_HOLD_GROUP_READ = BIT(0),
	MLX5_DIAG_HOLD_PMU_DISABLED = BIT(1),
};

struct mlx5_diag_engine_txn {
	unsigned int held;	/* enum mlx5_diag_engine_hold bits */
	u64 gen;		/* the publish @values are of */
	u64 values[];		/* every slot's count (caps.max_ids) */
};

void mlx5_diag_engine_txn_hold(struct mlx5_diag_engine *eng,
			       struct mlx5_diag_engine_txn *txn,
			       enum mlx5_diag_engine_hold by);
void mlx5_diag_engine_txn_release(struct mlx5_diag_engine_txn *txn,
				  enum mlx5_diag_engine_hold by);
u64 mlx5_diag_engine_txn_read(struct mlx5_diag_engine *eng,
			      const struct mlx5_diag_engine_txn *txn,
			      unsigned int slot,
			      const struct mlx5_diag_engine_join *join);
void mlx5_diag_engine_detach(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_attach(struct mlx5_diag_engine *eng,
			     struct mlx5_diag_aux_dev *aux);
int mlx5_diag_engine_session_claim(struct mlx5_diag_engine *eng, bool force,
				   bool *took_over);
int mlx5_diag_engine_session_add(struct mlx5_diag_engine *eng, u64 id,
				 const struct mlx5_diag_catalog_entry *e,
				 unsigned int *slot);
void mlx5_diag_engine_session_put(struct mlx5_diag_engine *eng,
				  unsigned int slot);
int mlx5_diag_engine_session_program(struct mlx5_diag_engine *eng,
				     const struct mlx5_diag_session_opts *o,
				     u64 clock_now,
				     struct mlx5_diag_fw_params *actual);
int mlx5_diag_engine_session_period(struct mlx5_diag_engine *eng,
				    u8 log_sample_period, u8 *actual);
int mlx5_diag_engine_session_drain(struct mlx5_diag_engine *eng,
				   struct mlx5_diag_drain *d);
u64 mlx5_diag_engine_session_interval(u64 cur, u64 min_ns, u64 max_ns,
				      u64 fetched, unsigned int nslots);
bool mlx5_diag_engine_session_owned(struct mlx5_diag_engine *eng);
void mlx5_diag_engine_session_release(struct mlx5_diag_engine *eng);
u64 mlx5_diag_engine_session_max_period_ns(const struct mlx5_diag_caps *caps);
u8 mlx5_diag_engine_session_log_period(const struct mlx5_diag_caps *caps,
				       u64 period_ns);
void mlx5_diag_engine_status(struct mlx5_diag_engine *eng,
			     enum mlx5_diag_engine_state *state,
			     struct mlx5_diag_engine_stats *stats);
bool mlx5_diag_engine_gone(struct mlx5_diag_engine *eng);

/* How the firmware reads num_of_samples, as far as the engine learnt it. */
enum mlx5_diag_engine_reading {
	MLX5_DIAG_READING_UNKNOWN,
	MLX5_DIAG_READING_SAMPLES,
	MLX5_DIAG_READING_ENTRIES,
};

/*
 * What the engine learnt of the firmware in the configuration it runs (or
 * ran last): where the public sources leave its behaviour open.
 */
struct mlx5_diag_engine_learnt {
	enum mlx5_diag_engine_reading reading;
	u8 sample_id_bits;	/* the sample numbering's width */
	enum mlx5_diag_engine_order entry_order;
	enum mlx5_diag_engine_seq_start sample_id_start;
};

void mlx5_diag_engine_learnt(struct mlx5_diag_engine *eng,
			     struct mlx5_diag_engine_learnt *l);

#endif /* _MLX5_DIAG_ENGINE_H */
