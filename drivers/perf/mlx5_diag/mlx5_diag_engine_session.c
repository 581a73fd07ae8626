// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling sessions on the diagnostic engine: a leader claims the whole
 * engine, its members add their data IDs, the session is programmed and its
 * period changed, and the drain fetches its samples from the firmware's
 * cyclic buffer (counting events of its data IDs ride on them). Everything
 * here sleeps, under the engine's lock.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_engine_int.h"

/*
 * The firmware buffer of a session, in samples, at most: half the space
 * of the narrowest sample id, so that a drain tells a sample of the
 * current lap from one of the lap before.
 */
#define MLX5_DIAG_SESSION_LOG_SLOTS_MAX	15
/*
 * Samples a drain's first query reads beyond those due by the device
 * clock: one for a sample whose entries the firmware recorded at slightly
 * different times (the DOCA guide allows it), so that the last one taken
 * dates a little late; one for a sample taken between the clock read and
 * the query. A query that reaches a slot not yet written ends the drain
 * without another one. Each query after one that took every sample it
 * read has twice the slack of the one before (up to a batch): more than
 * that arrived during the query.
 */
#define MLX5_DIAG_DRAIN_SLACK		2
/*
 * Device clocks an RTC time converts to at most: 2^62, 1.5 * 10^11 s at
 * 1 GHz, far beyond any gap between drains. The sums of such counts stay
 * below 2^64.
 */
#define MLX5_DIAG_DRAIN_DUE_MAX_CLOCKS	BIT_ULL(62)

/* A counting event of a data ID the session samples rides on its samples. */
int mlx5_diag_engine_session_ride(struct mlx5_diag_engine *eng, u64 id,
				  const struct mlx5_diag_catalog_entry *e,
				  unsigned int *slot, const char **why)
{
	struct mlx5_diag_engine_slot *s, *free;
	unsigned int i;

	for (i = 0; i < eng->session.num_ids; i++)
		if (eng->session.ids[i] == id)
			break;
	if (i == eng->session.num_ids) {
		*why = "a sampling session holds the engine and does not sample this data ID";
		return -EBUSY;
	}
	s = mlx5_diag_engine_slot_find(eng, id, true, &free);
	if (s) {
		s->users++;
		eng->users++;
		*slot = s - eng->slots;
		return 0;
	}
	if (!free) {
		*why = "the device counts no more data IDs at once";
		return -ENOSPC;
	}
	mlx5_diag_engine_slot_take(eng, free, id, e);
	eng->users++;
	if (eng->session_running)
		mlx5_diag_engine_map(eng, false);
	*slot = free - eng->slots;
	return 0;
}

/**
 * mlx5_diag_engine_session_claim() - a session leader takes the engine
 * @eng: the engine
 * @force: take it from another agent that has it enabled
 * @took_over: set when another agent's configuration is displaced
 *
 * The session holds the engine from here until
 * mlx5_diag_engine_session_release(); its ids are added by
 * mlx5_diag_engine_session_add() and the firmware is programmed by
 * mlx5_diag_engine_session_program(). Sleeps. Return: 0 or a negative
 * errno, the reason logged.
 */
int mlx5_diag_engine_session_claim(struct mlx5_diag_engine *eng, bool force,
				   bool *took_over)
{
	const char *why = NULL;
	int ret = 0;

	*took_over = false;
	mutex_lock(&eng->lock);
	if (eng->state == MLX5_DIAG_ENGINE_GONE) {
		why = "device removed";
		ret = -ENODEV;
	} else if (eng->session_claimed) {
		why = "a sampling session is already open on this device";
		ret = -EBUSY;
	} else if (eng->users > eng->session_users) {
		why = "counting events are open on this device; a session needs the whole engine";
		ret = -EBUSY;
	} else if (!mlx5_diag_engine_owned(eng)) {
		ret = mlx5_diag_fw_query_params(eng->fw, &eng->queried);
		if (ret) {
			why = "could not query the diagnostic engine";
		} else if (eng->queried.enable && !force) {
			eng->state = MLX5_DIAG_ENGINE_FOREIGN;
			why = "another agent has the engine (DOCA, a crashed owner); see force";
			ret = -EBUSY;
		} else if (eng->queried.enable) {
			pr_warn("%s: a sampling session takes the diagnostic engine over from another agent, whose samples stop\n",
				eng->fw->name);
			*took_over = true;
		}
		/* free, or taken by force: no longer FOREIGN, ours to program */
		if (!ret)
			eng->state = MLX5_DIAG_ENGINE_OFF;
	}
	if (!ret) {
		eng->session_claimed = true;
		eng->session_running = false;
		eng->session.num_ids = 0;
	}
	mutex_unlock(&eng->lock);
	if (ret)
		pr_info_ratelimited("%s: sampling session refused: %s\n",
				    eng->fw->name, why);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_claim);

/*
 * The buffer of a session of @num data IDs, log2 of its samples: as large
 * as the device has room for, @num >= 1 and order_base_2(@num) below
 * caps->log_max_samples (mlx5_diag_engine_session_add() sees to both).
 */
static u8 mlx5_diag_engine_session_log_slots(const struct mlx5_diag_caps *caps,
					     unsigned int num)
{
	return min_t(unsigned int, caps->log_max_samples - order_base_2(num),
		     MLX5_DIAG_SESSION_LOG_SLOTS_MAX);
}

/**
 * mlx5_diag_engine_session_add() - one more data ID for the claimed session
 * @eng: the engine
 * @id: the data ID, validated against the catalog and the device
 * @e: its catalog entry
 * @slot: the slot its event reads its count from
 *
 * Sleeps. Return: 0 or a negative errno, the reason logged.
 */
int mlx5_diag_engine_session_add(struct mlx5_diag_engine *eng, u64 id,
				 const struct mlx5_diag_catalog_entry *e,
				 unsigned int *slot)
{
	const struct mlx5_diag_caps *caps = &eng->fw->caps;
	struct mlx5_diag_engine_slot *free;
	const char *why = NULL;
	unsigned int i, n;
	int ret = 0;

	mutex_lock(&eng->lock);
	n = eng->session.num_ids;
	if (eng->state == MLX5_DIAG_ENGINE_GONE) {
		why = "device removed";
		ret = -ENODEV;
		goto out;
	}
	if (eng->session_running) {
		why = "the session runs already: open every member before enabling the leader";
		ret = -EBUSY;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (eng->session.ids[i] == id) {
			why = "data ID already in the session";
			ret = -EINVAL;
			goto out;
		}
	}
	if (n >= caps->max_ids || order_base_2(n + 1) >= caps->log_max_samples) {
		why = "the device samples no more data IDs at once";
		ret = -ENOSPC;
		goto out;
	}
	if (eng->fw->slot_ids &&
	    !mlx5_diag_engine_slots_enough(mlx5_diag_engine_session_log_slots(caps, n + 1))) {
		why = "slot-index ids (engine/slot_ids) need 4 slots: fewer data IDs";
		ret = -ENOSPC;
		goto out;
	}
	mlx5_diag_engine_slot_find(eng, id, false, &free);
	if (!free) {
		why = "the device counts no more data IDs at once";
		ret = -ENOSPC;
		goto out;
	}
	mlx5_diag_engine_slot_take(eng, free, id, e);
	free->members = 1;
	eng->users++;
	eng->session_users++;
	eng->session.ids[eng->session.num_ids++] = id;
	*slot = free - eng->slots;
out:
	mutex_unlock(&eng->lock);
	if (ret)
		pr_info_ratelimited("%s: event 0x%llx refused: %s\n",
				    eng->fw->name, id, why);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_add);

/**
 * mlx5_diag_engine_session_put() - a session event goes away
 * @eng: the engine
 * @slot: from mlx5_diag_engine_session_add()
 *
 * Before the session runs its data ID leaves the session. A member of a
 * session whose leader is gone was in no configuration since: nothing to
 * reprogram. Sleeps.
 */
void mlx5_diag_engine_session_put(struct mlx5_diag_engine *eng,
				  unsigned int slot)
{
	struct mlx5_diag_engine_slot *s = &eng->slots[slot];
	unsigned int i;

	mutex_lock(&eng->lock);
	eng->users--;
	eng->session_users--;
	s->members--;
	if (!--s->users) {
		mlx5_diag_engine_slot_free(eng, s);
		for (i = 0; i < eng->session.num_ids && !eng->session_running &&
		     !s->orphan; i++) {
			if (eng->session.ids[i] != s->id)
				continue;
			memmove(&eng->session.ids[i], &eng->session.ids[i + 1],
				(eng->session.num_ids - i - 1) *
				sizeof(*eng->session.ids));
			eng->session.num_ids--;
			break;
		}
	}
	mutex_unlock(&eng->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_put);

/**
 * mlx5_diag_engine_session_max_period_ns() - the longest period in ns
 * @caps: the device's capabilities (freq_khz not 0, checked at probe)
 *
 * Return: 2^mlx5_diag_fw_max_log_period() device clocks in ns, rounded
 * down: the longest period_ns, sample_period or PERF_EVENT_IOC_PERIOD a
 * session leader takes. At most 2^35 * 10^6 ns (freq_khz >= 1), so a
 * period up to it times freq_khz stays below 2^64.
 */
u64 mlx5_diag_engine_session_max_period_ns(const struct mlx5_diag_caps *caps)
{
	return mul_u64_u32_div(1ULL << mlx5_diag_fw_max_log_period(caps),
			       NSEC_PER_MSEC, caps->freq_khz);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_max_period_ns);

/**
 * mlx5_diag_engine_session_log_period() - a period in ns as the device's
 * @caps: the device's capabilities
 * @period_ns: the requested period, any value
 *
 * A period from mlx5_diag_engine_session_max_period_ns() on is the longest
 * one; below it the clocks are computed without overflow.
 *
 * Return: log2 of the nearest power-of-two number of device clocks, within
 * what the device takes and the driver serves.
 */
u8 mlx5_diag_engine_session_log_period(const struct mlx5_diag_caps *caps,
				       u64 period_ns)
{
	unsigned int max = mlx5_diag_fw_max_log_period(caps), l;
	u64 clocks;

	if (period_ns >= mlx5_diag_engine_session_max_period_ns(caps))
		return max;
	clocks = div_u64(mul_u64_u32_div(period_ns, caps->freq_khz, 1000),
			 1000);
	l = clocks ? ilog2(clocks) : 0;
	if (clocks && clocks - (1ULL << l) >= (2ULL << l) - clocks)
		l++;
	return clamp_t(unsigned int, l, caps->log_min_sample_period, max);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_log_period);

/**
 * mlx5_diag_engine_session_program() - start (or restart) the session
 * @eng: the engine
 * @o: the leader's options
 * @clock_now: the device clock (in the session's timestamp source) read
 *	before this call: every sample of the new run is later
 * @actual: what the firmware runs; @actual->ids (caps.max_ids) gets
 *	the session's ids in firmware order
 *
 * Every call starts a new run: the samples delivered are numbered from 0
 * again, whether the firmware numbers from 0 or on from the run before
 * (A1, learnt by the run's first drain). The SET
 * comes after the disable with clear (mlx5_diag_engine_set_new()):
 * the buffer holds no sample of an earlier run, not even one taken
 * between the clock read and the SET. Sleeps.
 * Return: 0 or a negative errno, the reason logged.
 */
int mlx5_diag_engine_session_program(struct mlx5_diag_engine *eng,
				     const struct mlx5_diag_session_opts *o,
				     u64 clock_now,
				     struct mlx5_diag_fw_params *actual)
{
	const struct mlx5_diag_caps *caps = &eng->fw->caps;
	unsigned int num = eng->session.num_ids, entries;
	const char *why = NULL;
	u8 log_slots;
	u64 *ids;
	int ret;

	mutex_lock(&eng->lock);
	if (eng->state == MLX5_DIAG_ENGINE_GONE) {
		why = "device removed";
		ret = -ENODEV;
		goto out;
	}
	if (!eng->session_claimed || !num) {
		why = "no session, or a session without data IDs";
		ret = -EINVAL;
		goto out;
	}
	if (eng->state == MLX5_DIAG_ENGINE_FOREIGN) {
		why = "another agent took the engine";
		ret = -EBUSY;
		goto out;
	}
	log_slots = mlx5_diag_engine_session_log_slots(caps, num);
	if (eng->fw->slot_ids &&
	    !mlx5_diag_engine_slots_placeable(eng, log_slots, o->rtc,
					      o->log_sample_period)) {
		why = "slot-index ids (engine/slot_ids): laps too long to place by time";
		ret = -EOPNOTSUPP;
		goto out;
	}
	eng->want.enable = true;
	eng->want.mode = o->mode;
	eng->want.sync = o->sync;
	eng->want.clear = o->clear;
	eng->want.rtc = o->rtc;
	eng->want.log_sample_period = o->log_sample_period;
	eng->want.log_num_of_samples = log_slots;
	eng->want.num_ids = num;
	memcpy(eng->want.ids, eng->session.ids, num * sizeof(*eng->want.ids));
	mlx5_diag_engine_unmap(eng);
	eng->session_running = false;
	ret = mlx5_diag_engine_set_new(eng, &eng->want, &why);
	if (ret) {
		eng->stats.set_failures++;
		if (!mlx5_diag_fw_query_params(eng->fw, &eng->queried) &&
		    !eng->queried.enable)
			eng->state = MLX5_DIAG_ENGINE_OFF;
		goto out;
	}
	ret = mlx5_diag_engine_adopt(eng);
	if (ret) {
		why = "the firmware reports a configuration other than the one set";
		goto out;
	}
	eng->state = MLX5_DIAG_ENGINE_SESSION;
	eng->session_running = true;
	mlx5_diag_engine_map(eng, true);
	eng->session_next = 0;
	eng->session_skipped = 0;
	eng->session_bad_seq = U64_MAX;
	eng->session_log_period = eng->programmed.log_sample_period;
	eng->session_log_period_max = eng->programmed.log_sample_period;
	eng->session_log_period_min = eng->programmed.log_sample_period;
	eng->session_period_checked = false;
	eng->session_period_relearn = false;
	eng->session_log_period_shown = U8_MAX;
	eng->session_renumber = MLX5_DIAG_RENUMBER_NONE;
	eng->session_run_first = 0;
	eng->session_seen.known = false;
	eng->session_last_ts = clock_now;
	eng->session_period_ts = clock_now;
	eng->session_ref_next = 0;
	eng->session_ref_ts = eng->run_set_known ? eng->run_set_clock :
						   clock_now;
	eng->session_taken_next = U64_MAX;
	eng->session_step_known = false;
	eng->session_ref_nr_sets = 0;
	eng->session_ref_sets_unknown = false;
	entries = eng->session_outlen /
		  (eng->fw->dialect->sample_entry_bits / 8);
	eng->session_batch = min(1U << eng->programmed.log_num_of_samples,
				 entries / num);
	ids = actual->ids;
	*actual = eng->programmed;
	actual->ids = ids;
	memcpy(ids, eng->programmed.ids, num * sizeof(*ids));
out:
	mutex_unlock(&eng->lock);
	if (ret)
		pr_info_ratelimited("%s: sampling session not started: %s (%d)\n",
				    eng->fw->name, why, ret);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_program);

/*
 * Does a SET of @log_sample_period leave the period the firmware runs as it
 * is? It does when it asks for the period running (@actual), or for the one
 * requested last (@requested), whatever the firmware made of it; and when
 * the firmware raised @requested to @actual, for anything shorter than
 * @actual too: the DOCA guide raises the period by "the number and type of
 * data IDs configured", which the SET does not change. Such a SET changes
 * nothing but may start a new configuration, its samples numbered from 0
 * (part 3 of Documentation/driver-api/mlx5-diag-firmware.rst, A8): the
 * drain, expecting the next number, would lose samples silently.
 */
static bool mlx5_diag_engine_session_period_kept(u8 requested, u8 actual,
						 u8 log_sample_period)
{
	return log_sample_period == actual ||
	       log_sample_period == requested ||
	       (requested < actual && log_sample_period < actual);
}

/*
 * After a period-only SET, sent when the device clock read @sent and
 * answered by @answer (both read, else @known is false): the drain is to
 * see whether the firmware kept the numbering, where the run's numbering
 * is known (from 0 or on across SETs), the firmware fills its buffer, a
 * lap's timestamps compare at the run's longest period, the new one
 * (@log_old the one before) included, and the id expected next is not 0
 * (modulo the numbering's width: a numbering from 0 then writes what the
 * one kept does) (mlx5_diag_engine_session_renumbered()).
 */
static void mlx5_diag_engine_session_set_sent(struct mlx5_diag_engine *eng,
					      bool known, u64 sent, u64 answer,
					      u8 log_old)
{
	u64 seq = eng->seq_base + eng->session_next;
	bool told = known && eng->programmed.mode != MLX5_DIAG_FW_ON_DEMAND &&
		    (eng->seq_start == MLX5_DIAG_SEQ_ZERO ||
		     eng->seq_start == MLX5_DIAG_SEQ_CONTINUED) &&
		    (seq & mlx5_diag_engine_seq_mask(eng)) &&
		    mlx5_diag_engine_lap_in_half_range(eng,
						       eng->session_log_period_max);

	eng->session_renumber = told ? MLX5_DIAG_RENUMBER_UNSURE :
				       MLX5_DIAG_RENUMBER_NONE;
	eng->session_set_seq = seq;
	eng->session_set_next = eng->session_next;
	eng->session_set_known = known;
	eng->session_set_sent = sent;
	eng->session_set_answer = answer;
	eng->session_set_log_old = log_old;
	eng->session_set_first = U64_MAX;
}

/*
 * Would a period-only SET sent at device clock @sent count samples due
 * before it at a period no two samples in a row have shown yet
 * (mlx5_diag_engine_session_learn_period())? The firmware may run a longer
 * one than it reports (A9): the samples due since the reference (the last
 * sample taken, else the run's SET) would count too many, and so would a
 * LOST record where the firmware numbers from 0 again at the SET (A8).
 * After a period change not yet checked, the same from its answer on:
 * those due while it ran count at the period reported. None where less
 * than the period reported has passed since.
 */
static bool mlx5_diag_engine_session_period_unseen(struct mlx5_diag_engine *eng,
						   u64 sent)
{
	u64 from = eng->session_ref_ts, clocks;

	if (eng->session_period_relearn)
		from = max(from, eng->session_set_answer);
	else if (eng->session_period_checked)
		return false;
	return mlx5_diag_engine_clocks_apart(from, sent, eng->programmed.rtc,
					     eng->fw->caps.freq_khz, &clocks) &&
	       clocks >> eng->session_log_period;
}

/*
 * Is there room to keep one more period-only SET: fewer than
 * MLX5_DIAG_DRAIN_DUE_SETS sent after the reference's time, besides one
 * sent before it (the last sample taken came while it ran)?
 */
static bool mlx5_diag_engine_session_set_room(struct mlx5_diag_engine *eng)
{
	unsigned int nr = eng->session_ref_nr_sets;

	return nr < MLX5_DIAG_DRAIN_DUE_SETS ||
	       (nr == MLX5_DIAG_DRAIN_DUE_SETS &&
		eng->session_ref_set[0].sent < eng->session_ref_ts);
}

/**
 * mlx5_diag_engine_session_period() - change a running session's period
 * @eng: the engine
 * @log_sample_period: the new period, log2 of device clocks
 * @actual: the period the firmware runs afterwards
 *
 * The buffer stays. The sample numbering stays, or the firmware numbers
 * from 0 again, from slot 0, which the drain finds out after the SET
 * (A8). A period that would leave the
 * one running as it is sends nothing (see
 * mlx5_diag_engine_session_period_kept()). Where the firmware was seen
 * numbering by slot index (engine/slot_ids), the drain places samples by
 * time at the run's one period: a change is refused, even before this run
 * showed it. A run's first change waits for two of its samples in a row,
 * and a later one for two after the change before it, where that one was
 * to a period shorter than the run was seen running
 * (mlx5_diag_engine_session_period_unseen()). Sleeps.
 * Return: 0; -EBUSY when the engine does not run the session (not ours any
 * more, or never programmed), -ENODEV when the device is gone,
 * -EOPNOTSUPP on firmware that numbers by slot index (one line),
 * -EINPROGRESS while the drains have yet to see the run's period or to go
 * on from the last change's numbering from 0 (nothing sent: ask again after
 * the next drain); or the errno of the failed SET (-EAGAIN where the
 * firmware had no resources for it, NO_RES; the period unchanged).
 */
int mlx5_diag_engine_session_period(struct mlx5_diag_engine *eng,
				    u8 log_sample_period, u8 *actual)
{
	u64 sent = 0, answer = 0;
	u8 requested, log_old;
	bool known;
	int ret;

	mutex_lock(&eng->lock);
	if (eng->state != MLX5_DIAG_ENGINE_SESSION) {
		ret = eng->state == MLX5_DIAG_ENGINE_GONE ? -ENODEV : -EBUSY;
		goto out;
	}
	requested = eng->want.log_sample_period;
	if (mlx5_diag_engine_session_period_kept(requested,
						 eng->session_log_period,
						 log_sample_period)) {
		*actual = eng->session_log_period;
		ret = 0;
		goto out;
	}
	if (eng->fw->slot_ids) {
		pr_info_ratelimited("%s: period not changed: the firmware numbers its samples by slot index, which only a constant period tells apart (engine/slot_ids)\n",
				    eng->fw->name);
		ret = -EOPNOTSUPP;
		goto out;
	}
	/* the drain has yet to go on from the last change's numbering from 0 */
	if (eng->session_renumber == MLX5_DIAG_RENUMBER_FOUND) {
		ret = -EINPROGRESS;
		goto out;
	}
	known = !mlx5_diag_engine_device_clock(eng, eng->programmed.rtc,
					       &sent);
	if (known && mlx5_diag_engine_session_period_unseen(eng, sent)) {
		ret = -EINPROGRESS;
		goto out;
	}
	eng->want.log_sample_period = log_sample_period;
	ret = mlx5_diag_fw_set_params(eng->fw, &eng->want);
	if (ret) {
		eng->stats.set_failures++;
		eng->want.log_sample_period = requested;
		goto out;
	}
	known = known && !mlx5_diag_engine_device_clock(eng,
							eng->programmed.rtc,
							&answer);
	ret = mlx5_diag_engine_adopt(eng);
	if (ret)
		goto out;
	log_old = eng->session_log_period;
	*actual = eng->programmed.log_sample_period;
	eng->session_log_period = *actual;
	/* the period running is shown by two samples taken after the SET */
	eng->session_taken_next = U64_MAX;
	eng->session_step_known = false;
	if (known && mlx5_diag_engine_session_set_room(eng)) {
		eng->session_ref_set[eng->session_ref_nr_sets++] =
			(struct mlx5_diag_engine_period_set){
				.sent = sent, .answer = answer,
				.log_old = log_old,
			};
	} else {
		eng->session_ref_sets_unknown = true;
	}
	eng->session_log_period_max = max(eng->session_log_period_max, *actual);
	eng->session_log_period_min = min(eng->session_log_period_min, *actual);
	mlx5_diag_engine_session_set_sent(eng, known, sent, answer, log_old);
	/*
	 * A step across the change shows neither period; two samples after
	 * its answer show the new one, which the firmware may have raised
	 * without saying so (A9) where it is shorter than one the run was
	 * seen running: a raise depends on the ids alone, as in
	 * mlx5_diag_engine_session_period_kept()
	 */
	eng->session_period_checked = true;
	eng->session_period_relearn = known &&
				      *actual < eng->session_log_period_shown;
out:
	mutex_unlock(&eng->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_period);

/*
 * The timestamp of entry @i of the decoded sample, extended to 64 bits
 * from the dialect's width (RTC timestamps are 64-bit already) as the
 * first reading at or after @floor, less than half the width's range
 * after it; false when there is none: a sample older than @floor (of an
 * earlier run, or a slot never written). Inline: the drain extends every
 * entry it takes.
 */
static inline bool mlx5_diag_engine_session_ts_from(struct mlx5_diag_engine *eng,
						    unsigned int i, u64 floor,
						    u64 *ts)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;
	u64 raw = eng->entries[i].timestamp;

	if (!raw)
		return false;
	if (mlx5_diag_engine_narrow_frc(eng)) {
		u64 mask = (1ULL << bits) - 1;

		if (((raw - floor) & mask) > mask >> 1)
			return false;
		*ts = mlx5_diag_extend(floor, raw, bits);
		return true;
	}
	if (raw < floor)
		return false;
	*ts = raw;
	return true;
}

/* Entry @i's timestamp, at or after the last sample taken. */
static inline bool mlx5_diag_engine_session_ts(struct mlx5_diag_engine *eng,
					       unsigned int i, u64 *ts)
{
	return mlx5_diag_engine_session_ts_from(eng, i, eng->session_last_ts,
						ts);
}

/*
 * The decoded sample's time, its earliest entry's: narrow FRC timestamps
 * read nearest the device clock read in this drain (a sample of the last
 * lap is less than a lap old, where a lap spans less than half their
 * range), others as they are. False for an entry never written.
 */
static bool mlx5_diag_engine_session_near_time(struct mlx5_diag_engine *eng,
					       u64 *t)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits, i;
	u64 ts;

	*t = U64_MAX;
	for (i = 0; i < eng->programmed.num_ids; i++) {
		ts = eng->entries[i].timestamp;
		if (!ts)
			return false;
		if (mlx5_diag_engine_narrow_frc(eng))
			ts = mlx5_diag_extend_near(eng->session_clock, ts, bits);
		*t = min(*t, ts);
	}
	return true;
}

/*
 * A lower bound of the timestamp of the sample @ahead samples after the
 * last one taken (the run's first when none was), less one period, by the
 * run's shortest period alone: each sample comes at least that after the
 * one before; moved on so over samples skipped since (session_period_ts),
 * capped at the device clock read in this drain. Where it stands on
 * 64-bit timestamps or without a clock read.
 * The run's periods are at most 2^30 clocks on narrow timestamps
 * (mlx5_diag_fw_max_log_period()) and @ahead is capped at 2^32: the step
 * is below 2^62.
 */
static u64 mlx5_diag_engine_session_period_floor(struct mlx5_diag_engine *eng,
						 u64 ahead)
{
	u64 from = eng->session_period_ts, step;

	if (!mlx5_diag_engine_narrow_frc(eng) || !eng->session_clock_known ||
	    eng->session_clock <= from)
		return from;
	step = min_t(u64, ahead, U32_MAX) <<
	       min_t(u8, eng->session_log_period_min, 30);
	return from + min(step, eng->session_clock - from);
}

/*
 * The same, @by_period from mlx5_diag_engine_session_period_floor(), where
 * the decoded sample is a later lap's, found in the expected slot, and at
 * least the reference now: the reference that
 * narrow timestamps are extended from over samples the firmware
 * overwrote, so that two samples taken 2^31 clocks apart or more (a long
 * gap between drains) read exactly, rather than the later one as older
 * (A3). By the shortest period alone it is exact while the periods in the
 * gap exceeded the shortest by less than 2^31 clocks in all: always in a
 * run of one period. Past that (a far drain after a period raise), in a
 * repetitive run whose lap at its longest period spans at most a quarter
 * of the timestamps' range (2^30 clocks on 32 bits,
 * mlx5_diag_engine_lap_in_half_range()), it is the decoded sample's time
 * less 3/8 of the range, where that is later: the samples left in the
 * buffer are no more than a lap older than one in it (half a lap more for
 * firmware late). That time is read as at or before the device clock
 * read in this drain, or at most 1/8 of the range (2^29 clocks) past it,
 * as a sample the queries after that read has. A firmware that stopped
 * writing, more than a lap after the last sample taken, 2^32 clocks less
 * 2^29 or more before the clock read in a run whose period changed is not
 * told (A3): its samples left are stamped a multiple of 2^32 clocks late.
 * Nor is one running a longer period than the longest reported (A9): a
 * lap longer than 2^30 clocks can put the oldest sample left below the
 * reference.
 */
static u64 mlx5_diag_engine_session_floor(struct mlx5_diag_engine *eng,
					  u64 by_period)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;
	u64 floor = max(by_period, eng->session_last_ts);
	u64 recent = 3ULL << (bits - 3), clock = eng->session_clock, t;

	if (!mlx5_diag_engine_narrow_frc(eng) || !eng->session_clock_known ||
	    eng->programmed.mode != MLX5_DIAG_FW_REPETITIVE ||
	    eng->session_log_period_min == eng->session_log_period_max ||
	    clock < floor || clock - floor <= recent ||
	    !mlx5_diag_engine_lap_in_half_range(eng,
						eng->session_log_period_max) ||
	    !mlx5_diag_engine_session_near_time(eng, &t))
		return floor;
	/*
	 * Read nearest the clock: a range earlier where that is past it by
	 * more than 1/8 of the range, none where it or that is before 0
	 */
	if (t > clock + (1ULL << (bits - 3))) {
		if (t >= clock + (1ULL << (bits - 1)) || t < 1ULL << bits)
			return floor;
		t -= 1ULL << bits;
	}
	if (t <= floor || t - floor <= recent)
		return floor;
	return t - recent;
}

/*
 * The decoded sample is @delta samples (a whole number of laps) past the
 * next expected one, by its id: is it that sample of this run? Stamped at
 * or after the last one taken (an earlier run's sample left in the buffer
 * is older than the clock at program time, whatever its id); or, on a
 * narrow timestamp read from mlx5_diag_engine_session_floor() (a gap of
 * 2^31 clocks or more since the last one taken), at or after that and
 * less than a quarter of the timestamp's range past the device clock read
 * before the query, which an earlier run's sample read a wrap later is
 * not.
 */
static bool mlx5_diag_engine_session_later_lap(struct mlx5_diag_engine *eng,
					       u64 delta)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;
	u64 floor, ts;

	if (mlx5_diag_engine_session_ts(eng, 0, &ts))
		return true;
	floor = mlx5_diag_engine_session_period_floor(eng, delta);
	floor = mlx5_diag_engine_session_floor(eng, floor);
	return floor != eng->session_last_ts &&
	       mlx5_diag_engine_session_ts_from(eng, 0, floor, &ts) &&
	       (ts <= eng->session_clock ||
		ts - eng->session_clock < 1ULL << (bits - 2));
}

/**
 * mlx5_diag_engine_step_period() - the period a step between two samples shows
 * @clocks: device clocks from one sample to the next (from RTC timestamps,
 *	converted: a clock off either way)
 * @reported: the period QUERY_DIAGNOSTIC_PARAMS reported, log2 of clocks
 * @longest: the longest period served (mlx5_diag_fw_max_log_period())
 *
 * Periods are powers of two: a step within 1/16 of 2^L for an L above
 * @reported and at most @longest shows that the firmware runs 2^L. A step
 * above 2^36 clocks shows none (bounded before the arithmetic).
 *
 * Return: L, or @reported.
 */
u8 mlx5_diag_engine_step_period(u64 clocks, u8 reported, u8 longest)
{
	u64 p;
	u8 lp;

	if (!clocks || clocks > BIT_ULL(MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD + 1))
		return reported;
	/* the nearest power of two: 2^lp in (clocks * 3 / 4, clocks * 3 / 2] */
	lp = ilog2(clocks + clocks / 2);
	p = BIT_ULL(lp);
	if (lp <= reported || lp > longest ||
	    (clocks > p ? clocks - p : p - clocks) > p >> 4)
		return reported;
	return lp;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_step_period);

/*
 * Does the expected slot (id @expect) hold the first entry the drain
 * before read there (its id, narrow FRC timestamp and value), read as
 * then? Then nothing wrote it since, and the drain stops there as that
 * one did. Such a sample, of a ring the firmware stopped writing while it
 * reports itself enabled, reads as a later lap 2^32 clocks on, which its
 * timestamp alone cannot tell (A3). A sample written since carries the
 * same only where its id comes a multiple of 2^16 samples and its time a
 * multiple of 2^32 clocks after the one read, and its value is the same:
 * never within 2^31 clocks (drains come every 32 ms at most), and beyond
 * that it costs a drain (the next one reads it). Asked of a written slot
 * once the numbering's start is known, on narrow FRC timestamps;
 * remembers what this drain read.
 */
static bool mlx5_diag_engine_session_unchanged(struct mlx5_diag_engine *eng,
					       u64 expect)
{
	const struct mlx5_diag_fw_entry *e = &eng->entries[0];
	struct mlx5_diag_engine_seen *seen = &eng->session_seen;
	bool same;

	if (!mlx5_diag_engine_narrow_frc(eng) || !e->timestamp ||
	    eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN)
		return false;
	same = seen->known && seen->expect == expect &&
	       seen->entry.sample_id == e->sample_id &&
	       seen->entry.timestamp == e->timestamp &&
	       seen->entry.value == e->value &&
	       seen->seq_start == eng->seq_start &&
	       seen->renumber == eng->session_renumber &&
	       seen->log_period == eng->session_log_period &&
	       seen->period_checked == eng->session_period_checked;
	seen->entry = *e;
	seen->expect = expect;
	seen->seq_start = eng->seq_start;
	seen->renumber = eng->session_renumber;
	seen->log_period = eng->session_log_period;
	seen->period_checked = eng->session_period_checked;
	seen->known = true;
	return same;
}

/*
 * A sample stamped @earliest was taken: the period-only SETs answered
 * before it are behind the reference now. One sent before it and answered
 * after it stays: the old period may have run up to its answer, and the
 * samples due are counted from the sample on. Those with no clock read, or
 * with no room in the array, are behind it once the sample is after the
 * clock read before the last SET was sent (or that one's clock was not
 * read: taken to be before it): until then the samples due stay unknown.
 * Every SET before the last was answered before that one was sent: the
 * last alone may stay.
 */
static void mlx5_diag_engine_session_ref_sets_from(struct mlx5_diag_engine *eng,
						   u64 earliest)
{
	struct mlx5_diag_engine_period_set *set = eng->session_ref_set;
	unsigned int nr = eng->session_ref_nr_sets, drop = 0;

	if (eng->session_ref_sets_unknown &&
	    (!eng->session_set_known || earliest > eng->session_set_sent)) {
		eng->session_ref_sets_unknown = false;
		nr = 0;
		if (eng->session_set_known)
			set[nr++] = (struct mlx5_diag_engine_period_set){
				.sent = eng->session_set_sent,
				.answer = eng->session_set_answer,
				.log_old = eng->session_set_log_old,
			};
	}
	while (drop < nr && earliest > set[drop].answer)
		drop++;
	memmove(set, set + drop, (nr - drop) * sizeof(*set));
	eng->session_ref_nr_sets = nr - drop;
}

/*
 * Deliver the decoded sample as d->n (d->take()), if all its timestamps
 * are of this run: each entry at or after the last sample taken, in any
 * order among themselves (without synchronized start each entry may be
 * recorded at a slightly different time, A2). The sample's time, which
 * the next one is checked against, is its earliest entry's. Returns the
 * number of ids when it is delivered, else the entry that is not of this
 * run: 0, the sample is not; a later one, its entries disagree (one is
 * older than the sample before).
 */
static unsigned int mlx5_diag_engine_session_take(struct mlx5_diag_engine *eng,
						  struct mlx5_diag_drain *d)
{
	unsigned int i, num = eng->programmed.num_ids;
	u64 earliest = U64_MAX;

	for (i = 0; i < num; i++) {
		if (!mlx5_diag_engine_session_ts(eng, i, &d->ts[i]))
			return i;
		d->val[i] = eng->entries[i].value;
		earliest = min(earliest, d->ts[i]);
	}
	eng->session_step_known = eng->session_taken_next == eng->session_next;
	eng->session_step_from = eng->session_last_ts;
	eng->session_last_ts = earliest;
	eng->session_period_ts = earliest;
	mlx5_diag_engine_fold(eng);
	d->take(d);
	d->n++;
	eng->session_next++;
	eng->session_skipped = 0;
	eng->session_ref_next = eng->session_next;
	eng->session_ref_ts = earliest;
	mlx5_diag_engine_session_ref_sets_from(eng, earliest);
	eng->session_taken_next = eng->session_next;
	return num;
}

/*
 * Does a sample id @delta past the next expected one (modulo the numbering's
 * width, @mask) belong in its slot: the expected one, or a later lap of it?
 */
static bool mlx5_diag_engine_session_placed(u64 delta, u64 mask,
					    unsigned int nslots)
{
	return delta <= mask >> 1 && !(delta & (nslots - 1));
}

/*
 * The decoded sample, in the slot of the next expected one, is @delta
 * (modulo the numbering's width, @mask) past it and not a later lap of this
 * run: is it a new sample all the same, stamped after the last one taken?
 * Then the firmware numbers its samples otherwise (the slot index as id,
 * numbering restarted by a SET: A1, A8), not a sample of the lap before.
 * Where a lap of the buffer spans half the range of 32-bit timestamps or
 * more, a sample of the lap before can read as newer: not told there. The
 * lap is taken at the run's longest period: after a shorter period was set,
 * the lap before may still hold samples taken at the longer one.
 */
static bool mlx5_diag_engine_session_out_of_seq(struct mlx5_diag_engine *eng,
						u64 delta, u64 mask,
						unsigned int nslots)
{
	u64 ts;

	if (mlx5_diag_engine_session_placed(delta, mask, nslots) ||
	    !mlx5_diag_engine_lap_in_half_range(eng,
						eng->session_log_period_max))
		return false;
	return mlx5_diag_engine_session_ts(eng, 0, &ts);
}

/*
 * The decoded sample's time, its earliest entry's, if every entry is
 * stamped at or after the last sample taken (of this run).
 */
static bool mlx5_diag_engine_session_time(struct mlx5_diag_engine *eng, u64 *t)
{
	unsigned int i;
	u64 ts;

	*t = U64_MAX;
	for (i = 0; i < eng->programmed.num_ids; i++) {
		if (!mlx5_diag_engine_session_ts(eng, i, &ts))
			return false;
		*t = min(*t, ts);
	}
	return true;
}

/*
 * Where the firmware numbers by slot, the decoded sample's time (its
 * first entry's, enough to place it): on narrow FRC timestamps the reading
 * nearest the device clock read in this drain, since every slot's sample
 * is less than a lap old and a lap spans less than half their range
 * (mlx5_diag_engine_seq_slot()), however long since the last sample
 * taken (A3); else, or without that read, from the last one taken. False
 * for a slot never written.
 */
static bool mlx5_diag_engine_session_slot_ts(struct mlx5_diag_engine *eng,
					     u64 *ts)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;
	u64 raw = eng->entries[0].timestamp;

	if (!mlx5_diag_engine_narrow_frc(eng) || !eng->session_clock_known)
		return mlx5_diag_engine_session_ts(eng, 0, ts);
	if (!raw)
		return false;
	*ts = mlx5_diag_extend_near(eng->session_clock, raw, bits);
	return true;
}

/*
 * The decoded sample, in the slot of the next expected one and stamped
 * @ts, where the firmware numbers by slot (or before that is known, by
 * slot or from the SET's clock): how many samples past the next expected
 * one it is, a whole number of laps, placed by its time from the last one
 * taken, or from the SET before any (mlx5_diag_engine_slot_seq()).
 */
static u64 mlx5_diag_engine_session_slot_delta(struct mlx5_diag_engine *eng,
					       u64 ts)
{
	u64 clocks, n;

	if (!mlx5_diag_engine_clocks_apart(eng->session_ref_ts, ts,
					   eng->programmed.rtc,
					   eng->fw->caps.freq_khz, &clocks))
		return 0;
	n = mlx5_diag_engine_slot_seq(eng, (eng->seq_base + eng->session_next) &
					   (eng->nslots - 1),
				      clocks, eng->session_ref_next);
	return n > eng->session_next ? n - eng->session_next : 0;
}

/*
 * The decoded sample's time where it is of the last lap (slot 0 after a
 * period change, which a repetitive run writes every lap): nearest the device
 * clock read in this drain where that came 2^31 clocks or more after the
 * last sample taken (narrow FRC timestamps read from that one would then
 * be a multiple of 2^32 clocks short), else from the last one taken. A
 * firmware that stopped writing that long ago with the sample in slot 0
 * (A3) is not told.
 */
static bool mlx5_diag_engine_session_lap_time(struct mlx5_diag_engine *eng,
					      u64 *t)
{
	u64 clocks;

	if (mlx5_diag_engine_narrow_frc(eng) && eng->session_clock_known &&
	    eng->programmed.mode == MLX5_DIAG_FW_REPETITIVE &&
	    mlx5_diag_engine_clocks_apart(eng->session_last_ts,
					  eng->session_clock, false, 0,
					  &clocks) &&
	    clocks >> (eng->fw->dialect->timestamp_bits - 1))
		return mlx5_diag_engine_session_near_time(eng, t);
	return mlx5_diag_engine_session_time(eng, t);
}

/*
 * Is a step of @clocks between two samples one of 2^@lp clocks
 * (mlx5_diag_engine_step_period(): a period the firmware raised without
 * saying so, A9, shows another step)?
 */
static bool mlx5_diag_engine_session_clocks_step_is(struct mlx5_diag_engine *eng,
						    u64 clocks, u8 lp)
{
	return mlx5_diag_engine_step_period(clocks, lp - 1,
					    mlx5_diag_fw_max_log_period(&eng->fw->caps)) ==
	       lp;
}

/* Are two samples stamped @from and @to a step of 2^@lp clocks apart? */
static bool mlx5_diag_engine_session_step_is(struct mlx5_diag_engine *eng,
					     u64 from, u64 to, u8 lp)
{
	u64 clocks;

	return mlx5_diag_engine_clocks_apart(from, to, eng->programmed.rtc,
					     eng->fw->caps.freq_khz, &clocks) &&
	       mlx5_diag_engine_session_clocks_step_is(eng, clocks, lp);
}

/*
 * Are the decoded sample, @k of the answer's @got, and the next one in the
 * answer consecutive and a step of 2^@lp clocks apart? Leaves sample @k
 * decoded.
 */
static bool mlx5_diag_engine_session_answer_step(struct mlx5_diag_engine *eng,
						 unsigned int k,
						 unsigned int got, u8 lp)
{
	u64 id = eng->entries[0].sample_id, t0, t1;
	bool step;

	if (k + 1 >= got || !mlx5_diag_engine_session_near_time(eng, &t0))
		return false;
	step = mlx5_diag_engine_decode_from(eng, eng->session_out, k + 1) &&
	       ((eng->entries[0].sample_id - id) &
		mlx5_diag_engine_seq_mask(eng)) == 1 &&
	       mlx5_diag_engine_session_near_time(eng, &t1) &&
	       mlx5_diag_engine_session_step_is(eng, t0, t1, lp);
	mlx5_diag_engine_decode_from(eng, eng->session_out, k);
	return step;
}

/*
 * The period the run's samples come at now, into *@lp: its one period;
 * after a period change, the one reported for it where two consecutive
 * samples after the last SET were a step of it apart (one raised and not
 * reported, A9, is not): the last two taken, else the decoded sample, @k
 * of the answer's @got, and the next one (mlx5_diag_engine_session_step_is();
 * a pair of samples before the SET shows the period before it, and one
 * across it neither, where the two differ). False where that is not
 * known.
 */
static bool mlx5_diag_engine_session_period_now(struct mlx5_diag_engine *eng,
						unsigned int k,
						unsigned int got, u8 *lp)
{
	*lp = eng->session_log_period_min;
	if (eng->session_log_period_min == eng->session_log_period_max)
		return true;
	*lp = eng->session_log_period;
	if (!*lp)
		return false;
	if (eng->session_step_known &&
	    mlx5_diag_engine_session_step_is(eng, eng->session_step_from,
					     eng->session_ref_ts, *lp))
		return true;
	return mlx5_diag_engine_session_answer_step(eng, k, got, *lp);
}

/*
 * Can stretches from device clock @from to @to be counted one by one and
 * added up? Cut from the span in order, their clocks add up to at most
 * its own: always on the FRC; on the RTC, where each is converted on its
 * own and capped at MLX5_DIAG_DRAIN_DUE_MAX_CLOCKS, where the span is
 * below that cap.
 */
static bool mlx5_diag_engine_session_span_summable(struct mlx5_diag_engine *eng,
						   u64 from, u64 to)
{
	u32 khz = eng->fw->caps.freq_khz;
	u64 clocks;

	return !eng->programmed.rtc ||
	       (mlx5_diag_engine_clocks_apart(from, to, true, khz, &clocks) &&
		clocks < MLX5_DIAG_DRAIN_DUE_MAX_CLOCKS);
}

/*
 * The samples due from device clock *@from, at or before the answer of
 * the first period-only SET answered since the reference (the last sample
 * taken, else the run's SET), to the clock read before the last one was
 * sent, added to *@due: each stretch up to a SET at the period before it
 * (a raise of that one not reported, A9, not seen), none where *@from is
 * later (a sample taken while it ran). *@from becomes the last one's
 * clock, or stays where that is later. The caller checks that the span
 * can be added up so (mlx5_diag_engine_session_span_summable()). False
 * where that is not known: more SETs since the reference than
 * session_ref_set[] keeps (mlx5_diag_engine_session_set_room()), one
 * with no clock read around it, *@from past one's answer, or one sent
 * after @to.
 */
static bool mlx5_diag_engine_session_due_sets(struct mlx5_diag_engine *eng,
					      u64 *from, u64 to, u64 *due)
{
	bool rtc = eng->programmed.rtc;
	u32 khz = eng->fw->caps.freq_khz;
	unsigned int i;
	u64 clocks, start;

	if (eng->session_ref_sets_unknown)
		return false;
	for (i = 0; i < eng->session_ref_nr_sets; i++) {
		const struct mlx5_diag_engine_period_set *set =
			&eng->session_ref_set[i];

		start = max(*from, set->sent);
		if (*from > set->answer || set->sent > to ||
		    !mlx5_diag_engine_clocks_apart(*from, start, rtc, khz,
						   &clocks))
			return false;
		*due += clocks >> set->log_old;
		*from = start;
	}
	return true;
}

/*
 * The samples due from the reference (the last sample taken, else the
 * run's SET) to the device clock read in this drain, into *@due: at the
 * period running (mlx5_diag_engine_session_period_now()); where
 * period-only SETs came since the reference, the time up to the last one
 * as mlx5_diag_engine_session_due_sets() counts it. False where that is
 * not known, or RTC time is MLX5_DIAG_DRAIN_DUE_MAX_CLOCKS or more.
 */
static bool mlx5_diag_engine_session_due_now(struct mlx5_diag_engine *eng,
					     unsigned int k, unsigned int got,
					     u64 *due)
{
	bool rtc = eng->programmed.rtc;
	u32 khz = eng->fw->caps.freq_khz;
	u64 from = eng->session_ref_ts, clocks;
	u8 lp;

	if (!mlx5_diag_engine_session_period_now(eng, k, got, &lp) ||
	    !mlx5_diag_engine_clocks_apart(from, eng->session_clock, rtc, khz,
					   &clocks) ||
	    !mlx5_diag_engine_session_span_summable(eng, from,
						    eng->session_clock))
		return false;
	*due = 0;
	if (eng->session_log_period_min != eng->session_log_period_max &&
	    (eng->session_ref_nr_sets || eng->session_ref_sets_unknown) &&
	    (!mlx5_diag_engine_session_due_sets(eng, &from, eng->session_clock,
						 due) ||
	     !mlx5_diag_engine_clocks_apart(from, eng->session_clock, rtc, khz,
					    &clocks)))
		return false;
	*due += clocks >> lp;
	return true;
}

/*
 * At most the samples a numbering kept wrote after the last one taken up
 * to time @t (after the clock read before the last period-only SET was
 * sent), less one, into *@n. Where two or more SETs were answered since,
 * their clocks all read, each stretch at the period that ran in it as
 * reported (the firmware's, raised or not, is no shorter): the gap up to
 * a SET at the one before it, the window while it ran (from the clock
 * read before it was sent, or the last sample taken where that is later,
 * to the one after its answer, or @t) at the
 * shorter of that and the next, after the last one's answer at the period
 * running, and one more for each stretch but the last, whatever its
 * phase. Else (also where the last sample's time is past a SET's answer,
 * as a later lap skipped can leave it, or the span is 2^63 clocks or
 * more) all at the shorter of the period running and the one before the
 * last SET. False
 * where @t or the last sample's time is no RTC reading.
 */
static bool mlx5_diag_engine_session_kept_reach(struct mlx5_diag_engine *eng,
						u64 t, u64 *n)
{
	const struct mlx5_diag_engine_period_set *set = eng->session_ref_set;
	unsigned int nr = eng->session_ref_nr_sets, i;
	u64 from = eng->session_last_ts, span, gap, window, after, start, end;
	bool rtc = eng->programmed.rtc;
	u32 khz = eng->fw->caps.freq_khz;
	u8 next;

	if (!mlx5_diag_engine_clocks_apart(from, t, rtc, khz, &span))
		return false;
	/* the pieces add up to at most the span, the ones to 2 per SET */
	if (nr < 2 || eng->session_ref_sets_unknown ||
	    !mlx5_diag_engine_session_span_summable(eng, from, t) ||
	    span > U64_MAX / 2)
		goto one_period;
	*n = 0;
	for (i = 0; i < nr; i++) {
		start = max(from, set[i].sent);
		end = min(set[i].answer, t);
		next = i + 1 < nr ? set[i + 1].log_old : eng->session_log_period;
		if (start > end ||
		    !mlx5_diag_engine_clocks_apart(from, start, rtc, khz,
						   &gap) ||
		    !mlx5_diag_engine_clocks_apart(start, end, rtc, khz,
						   &window))
			goto one_period;
		*n += (gap >> set[i].log_old) + 1 +
		      (window >> min(set[i].log_old, next)) + 1;
		from = end;
	}
	if (mlx5_diag_engine_clocks_apart(from, t, rtc, khz, &after)) {
		*n += after >> eng->session_log_period;
		return true;
	}
one_period:
	*n = span >> min(eng->session_log_period, eng->session_set_log_old);
	return true;
}

/*
 * The decoded sample, id @id (@k of the answer's @got), is *@delta past
 * the next expected one modulo
 * the numbering's width (*@mask): placed by the samples due instead where
 * that width no longer tells. A drain that comes half the width's range of
 * samples or more after the last one taken (16-bit ids after 2^15 samples:
 * a snapshot's drains pause while its run goes on) reads a later lap as
 * behind the expected sample, or as k * 2^16 samples nearer. Where the
 * firmware numbers from 0 or on across SETs in a repetitive run at a
 * period known from its samples, the samples due after the expected one
 * (from the last one taken, by the device clock read in this drain:
 * mlx5_diag_engine_session_due_now(); less those skipped since; plus the
 * slack) put the newest sample, and the
 * expected slot holds one of the last lap: the sample is the one of its
 * ids nearest the middle of that lap, in 64 bits from here (*@mask =
 * U64_MAX); an id that puts it behind the expected one is left to the
 * width. Exact while the firmware's samples come within half the width's
 * range, less half a lap, of their period's times. Not asked while the
 * drain is less late than that. An id below the slots is also what
 * firmware that numbers by slot index writes there: read so only where
 * the sample's time places it in the same lap
 * (mlx5_diag_engine_session_slot_delta(): within half a lap, from the
 * last sample taken; where a lap's times compare, as slot-index ids need
 * too), else left to the drain's slot-index tests
 * (mlx5_diag_engine_session_lap_late(), _out_of_seq()). One sample cannot
 * tell the two apart where both put it in the same lap: slot-index
 * firmware not yet learnt is then learnt a lap later.
 */
static void mlx5_diag_engine_session_unalias(struct mlx5_diag_engine *eng,
					     unsigned int k, unsigned int got,
					     u64 id, u64 *delta, u64 *mask,
					     unsigned int nslots)
{
	u64 due, ahead, lo, place, ts;

	if (*mask == U64_MAX ||
	    eng->programmed.mode != MLX5_DIAG_FW_REPETITIVE ||
	    (eng->seq_start != MLX5_DIAG_SEQ_ZERO &&
	     eng->seq_start != MLX5_DIAG_SEQ_CONTINUED) ||
	    eng->session_renumber != MLX5_DIAG_RENUMBER_NONE ||
	    READ_ONCE(eng->fw->slot_ids) || !eng->session_clock_known ||
	    !eng->session_period_checked ||
	    !mlx5_diag_engine_session_due_now(eng, k, got, &due))
		return;
	ahead = eng->session_next - eng->session_ref_next;
	/* a clock 2^62 periods on is none this run reads */
	if (due >= BIT_ULL(62) || due < ahead)
		return;
	due -= ahead;
	if (due + nslots <= *mask >> 1)
		return;
	/* the window of the width's range centred on the last lap (wraps) */
	lo = due + MLX5_DIAG_DRAIN_SLACK - nslots / 2 - (*mask >> 1);
	place = lo + ((*delta - lo) & *mask);
	if ((s64)place < 0)
		return;
	if ((id & *mask) < nslots &&
	    (!mlx5_diag_engine_lap_in_half_range(eng,
						 eng->session_log_period_max) ||
	     !mlx5_diag_engine_session_slot_ts(eng, &ts) ||
	     mlx5_diag_engine_session_slot_delta(eng, ts) != place))
		return;
	*delta = place;
	*mask = U64_MAX;
}

/*
 * The decoded sample carries the id expected next, @expect: is it stamped
 * a lap or more later than that sample can be (*@ts its time)? Firmware
 * that numbers by slot index (A1) writes that id in every lap, and ids
 * below the slots only: asked while @expect is, and placed from the last
 * sample taken at the run's period, unless that changed (from the SET's
 * clock before any sample, unless not read, and once two samples showed
 * the period: one raised and not reported, A9, would place sample 0 laps
 * late). Single mode never laps.
 */
static bool mlx5_diag_engine_session_lap_late(struct mlx5_diag_engine *eng,
					      u64 expect, u64 *ts)
{
	return expect < eng->nslots &&
	       eng->programmed.mode != MLX5_DIAG_FW_SINGLE &&
	       (eng->session_next ?
		eng->session_log_period_min == eng->session_log_period_max :
		eng->run_set_known && eng->session_period_checked) &&
	       mlx5_diag_engine_session_ts(eng, 0, ts) &&
	       mlx5_diag_engine_session_slot_delta(eng, *ts) >= eng->nslots;
}

/*
 * Before the run's first sample is taken, the decoded sample, index @k of
 * the drain's answer of @got, carries the id of the run's sample 0: is it
 * another sample? Firmware that numbers by slot index (A1), on across SETs
 * too, writes that id in that slot whichever sample lands there. While
 * where the numbering starts is unknown, it is another where it is stamped
 * two periods or more (at the run's shortest) after the device clock read
 * before the SET was sent, which sample 0, taken a period after the SET
 * and stamped less than a period apart, never is where the SET took less
 * than a period (a later first sample, or a slower SET, only costs a read
 * of the buffer; the clock read after the answer would take a lap's
 * sample for sample 0 where the answer came a lap late); without that
 * clock read, and once the
 * start was learnt from the buffer's earliest sample, where a later
 * sample in the answer is stamped before it, as far as a lap's times
 * compare (mlx5_diag_engine_lap_in_half_range()). The sample is decoded
 * again after.
 */
static bool mlx5_diag_engine_session_not_first(struct mlx5_diag_engine *eng,
					       unsigned int k, unsigned int got)
{
	unsigned int j = k;
	bool earlier = false;
	u64 first, t;

	if (!mlx5_diag_engine_session_time(eng, &first))
		return false;
	if (eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN && eng->run_set_known)
		return mlx5_diag_engine_clocks_apart(eng->run_set_sent, first,
						     eng->programmed.rtc,
						     eng->fw->caps.freq_khz,
						     &t) &&
		       t >> eng->session_log_period_min >= 2;
	if (!mlx5_diag_engine_lap_in_half_range(eng,
						eng->session_log_period_max))
		return false;
	while (!earlier && ++j < got &&
	       mlx5_diag_engine_decode_from(eng, eng->session_out, j))
		earlier = mlx5_diag_engine_session_time(eng, &t) && t < first;
	mlx5_diag_engine_decode_from(eng, eng->session_out, k);
	return earlier;
}

/*
 * The drain stopped at the next expected sample, which breaks an
 * assumption about the firmware (@why): once per sample, a line and
 * engine/bad_samples + 1.
 */
static void mlx5_diag_engine_session_bad(struct mlx5_diag_engine *eng,
					 const char *why)
{
	if (eng->session_bad_seq == eng->session_next)
		return;
	eng->session_bad_seq = eng->session_next;
	eng->stats.bad_samples++;
	pr_warn_ratelimited("%s: sampling drain stopped at sample %llu: %s (engine/bad_samples)\n",
			    eng->fw->name, eng->session_next, why);
}

/*
 * On the RTC, is the decoded sample, placed next, stamped as the last one
 * taken? Samples a period apart never are: the firmware's RTC stamps
 * stand still (A4). Neither a slot-index numbering nor the samples' times
 * can then be read from them: the drain stops there (a bad sample, one
 * line) and the device refuses RTC sampling from now on
 * (engine/rtc_still).
 */
static bool mlx5_diag_engine_session_rtc_still(struct mlx5_diag_engine *eng)
{
	u64 t;

	if (!eng->programmed.rtc || !eng->session_ref_next ||
	    !mlx5_diag_engine_session_time(eng, &t) ||
	    t != eng->session_ref_ts)
		return false;
	WRITE_ONCE(eng->fw->rtc_still, true);
	mlx5_diag_engine_session_bad(eng,
				     "it is stamped as the sample before it: the firmware's RTC timestamps stand still, and RTC sampling is refused from now on (engine/rtc_still); nothing is delivered");
	return true;
}

/* An RTC reading (seconds << 32 | nanoseconds) in ns; false if it is not. */
static bool mlx5_diag_engine_rtc_ns(u64 rtc, u64 *ns)
{
	u32 nsec = lower_32_bits(rtc);

	if (nsec >= NSEC_PER_SEC)
		return false;
	/* below 2^32 * 10^9 + 10^9 < 2^62 */
	*ns = (u64)upper_32_bits(rtc) * NSEC_PER_SEC + nsec;
	return true;
}

/**
 * mlx5_diag_engine_clocks_apart() - device clocks from one reading to another
 * @from: the earlier reading
 * @to: the later one
 * @rtc: both are RTC readings (seconds << 32 | ns), else FRC clocks
 * @freq_khz: the device clock (not 0, checked at probe)
 * @clocks: out: the clocks from @from to @to, 0 when @to is before @from
 *	(a clock stepped back); on the RTC converted at @freq_khz, at most
 *	MLX5_DIAG_DRAIN_DUE_MAX_CLOCKS
 *
 * Return: false when @rtc and either is no RTC reading.
 */
bool mlx5_diag_engine_clocks_apart(u64 from, u64 to, bool rtc, u32 freq_khz,
				   u64 *clocks)
{
	if (rtc && (!mlx5_diag_engine_rtc_ns(from, &from) ||
		    !mlx5_diag_engine_rtc_ns(to, &to)))
		return false;
	*clocks = to > from ? to - from : 0;
	if (!rtc)
		return true;
	/*
	 * Below 2^62 ns (mlx5_diag_engine_rtc_ns()): a clock of 1 GHz or less
	 * counts no more clocks; a faster one has the ns capped first
	 */
	if (freq_khz > NSEC_PER_MSEC)
		*clocks = min(*clocks,
			      mul_u64_u32_div(MLX5_DIAG_DRAIN_DUE_MAX_CLOCKS,
					      NSEC_PER_MSEC, freq_khz));
	*clocks = mul_u64_u32_div(*clocks, freq_khz, NSEC_PER_MSEC);
	return true;
}

/**
 * mlx5_diag_engine_session_due() - samples a drain's query reads
 * @last: the last sample's timestamp (or the clock at program time)
 * @now: the device clock just read, in the same timestamp source
 * @rtc: both are RTC readings (seconds << 32 | ns), else FRC clocks
 * @log_period: the programmed period, log2 of device clocks
 * @freq_khz: the device clock (not 0, checked at probe)
 * @slack: samples read beyond those due (at most @batch)
 * @batch: the most one query reads (at least 1)
 *
 * The samples the firmware took after @last by @now at the period, plus
 * @slack, at most @batch; @batch when @last or @now is no RTC reading or
 * the period none the firmware runs. An estimate: the drain reads on when
 * it falls short and stops at the first slot not yet written whatever it
 * says.
 *
 * Return: 1 to @batch samples.
 */
VISIBLE_IF_KUNIT unsigned int
mlx5_diag_engine_session_due(u64 last, u64 now, bool rtc, u8 log_period,
			     u32 freq_khz, unsigned int slack,
			     unsigned int batch)
{
	u64 clocks;

	if (log_period > MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD ||
	    !mlx5_diag_engine_clocks_apart(last, now, rtc, freq_khz, &clocks))
		return batch;
	clocks = min_t(u64, clocks >> log_period, batch);
	return clamp_t(u64, clocks + min(slack, batch), 1, batch);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_due);

/* The drain reads the device clock now: session_clock, if it could. */
static bool mlx5_diag_engine_session_read_clock(struct mlx5_diag_engine *eng)
{
	eng->session_clock_known =
		!mlx5_diag_engine_device_clock(eng, eng->programmed.rtc,
					       &eng->session_clock);
	return eng->session_clock_known;
}

/*
 * The size of a drain's next query, from the device clock read now (no
 * command): the samples due since the last one taken plus @slack. A whole
 * batch before the run's first query, which finds out how the firmware
 * reads num_of_samples (see mlx5_diag_engine_query_at()); @fallback when
 * the clock cannot be read.
 */
static unsigned int
mlx5_diag_engine_session_query_size(struct mlx5_diag_engine *eng,
				    unsigned int slack, unsigned int fallback)
{
	if (!eng->reading_known)
		return eng->session_batch;
	if (!mlx5_diag_engine_session_read_clock(eng))
		return fallback;
	return mlx5_diag_engine_session_due(eng->session_last_ts,
					    eng->session_clock,
					    eng->programmed.rtc,
					    eng->session_log_period_min,
					    eng->fw->caps.freq_khz, slack,
					    eng->session_batch);
}

/*
 * A drain's query of @want samples from slot @index. Once the firmware's
 * reading of num_of_samples is known, nothing of the answer is checked
 * here: the drain decodes each sample once, and its ids are checked then
 * (mlx5_diag_engine_decode_from()); until then
 * mlx5_diag_engine_query_at() learns the reading from the answer. Returns
 * how many samples the answer may hold (the leading ones with the
 * programmed ids are), or an errno.
 */
static int mlx5_diag_engine_session_query_into(struct mlx5_diag_engine *eng,
					       void *out, size_t size,
					       unsigned int index,
					       unsigned int want)
{
	int ret;

	if (!eng->reading_known)
		return mlx5_diag_engine_query_at(eng, out, size, index, want);
	ret = mlx5_diag_engine_query_cmd(eng, out, size, index, want);
	return ret ? ret : want;
}

/* mlx5_diag_engine_session_query_into() the drain outbox */
static int mlx5_diag_engine_session_query(struct mlx5_diag_engine *eng,
					  unsigned int index, unsigned int want)
{
	return mlx5_diag_engine_session_query_into(eng, eng->session_out,
						   eng->session_outlen, index,
						   want);
}

/*
 * The run's first sample, where the slot of its sample 0 under a numbering
 * from 0 holds none of the run or another: firmware that numbers across
 * SETs (A1) puts it in the slot of its id. Unless the device clock says no
 * sample is due yet (against the clock read before the run was programmed,
 * eng->session_last_ts while no sample is taken), every
 * slot is read (a lap, a batch at a time; each drain until one finds a
 * sample of the run) and the earliest-stamped sample of the run tells
 * where its numbering starts (mlx5_diag_engine_seq_learn()). Until the
 * reading of num_of_samples is known (firmware that zero-fills unwritten
 * slots, A6), each query's samples are read as far as either reading
 * answers them (mlx5_diag_engine_whole_samples()). Returns 1 when
 * the start was learnt, 0 when the buffer holds no sample of the run yet,
 * or the errno of a failed query.
 */
static int mlx5_diag_engine_session_find_first(struct mlx5_diag_engine *eng)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int nslots = 1U << p->log_num_of_samples;
	unsigned int index, want, whole, k;
	struct mlx5_diag_seq_seen seen;
	u64 now, clocks, t;
	int ret;

	if (!mlx5_diag_engine_device_clock(eng, p->rtc, &now) &&
	    mlx5_diag_engine_clocks_apart(eng->session_last_ts, now, p->rtc,
					  eng->fw->caps.freq_khz, &clocks) &&
	    !(clocks >> eng->session_log_period_min))
		return 0;
	mlx5_diag_engine_seq_seen_init(&seen);
	for (index = 0; index < nslots; index += whole) {
		want = min(eng->session_batch, nslots - index);
		ret = mlx5_diag_engine_session_query(eng, index, want);
		if (ret < 0)
			return ret;
		whole = mlx5_diag_engine_whole_samples(eng, want);
		for (k = 0; k < whole; k++)
			if (mlx5_diag_engine_decode_from(eng, eng->session_out,
							 k) &&
			    mlx5_diag_engine_session_time(eng, &t))
				mlx5_diag_engine_seq_seen_add(eng, &seen,
							      eng->entries[0].sample_id,
							      t);
	}
	if (!seen.written)
		return 0;
	mlx5_diag_engine_seq_learn(eng, &seen);
	/*
	 * Numbered by slot: the samples are placed by their time from the
	 * earliest, not from the SET's clock, read after an answer that may
	 * have come late
	 */
	if (eng->seq_start == MLX5_DIAG_SEQ_SLOT) {
		eng->session_ref_next = eng->seq_first;
		eng->session_ref_ts = seen.first_ts;
	}
	return 1;
}

/*
 * Before the run's samples are placed, the drain's answer of @got: do two
 * samples in adjacent slots, numbered one after the other and both of this
 * run (the first of them the last one taken, where the answer starts at
 * the next and the numbering is no slot index; less than 2^15 periods
 * apart, so not a lap of 16-bit ids), come at the period
 * QUERY_DIAGNOSTIC_PARAMS reported? The DOCA guide
 * has the firmware raise a period too short for the ids ("the actual
 * sampling period may be higher"); firmware that reports the period asked
 * for instead (A9) shows the raise in the samples' times only. A longer
 * step (mlx5_diag_engine_step_period(), between the two samples'
 * earliest entries) becomes the run's period before any sample is placed
 * by it (slot-index ids, a first sample, a lap's length, the samples due
 * before the next period change): one line, engine/unreported_periods + 1,
 * and d->log_period_learnt for the session's PERIOD record. Asked of each
 * answer until one holds such a pair: once from the run's start, and again
 * after each period-only SET to a period shorter than any such pair showed
 * the run running, whose device clocks were read, from two samples both
 * stamped after its answer (a step across the change shows neither
 * period). The answer's samples are decoded again after.
 */
static void mlx5_diag_engine_session_learn_period(struct mlx5_diag_engine *eng,
						  struct mlx5_diag_drain *d,
						  unsigned int got)
{
	bool after_set = eng->session_period_relearn, found = false;
	u64 from = eng->session_set_answer;
	u64 id, prev_id, t = 0, prev_t = eng->session_ref_ts, clocks = 0;
	bool taken_prev = eng->session_next &&
			  eng->session_ref_next == eng->session_next &&
			  eng->seq_start != MLX5_DIAG_SEQ_SLOT &&
			  (!after_set || prev_t > from);
	bool have_prev = taken_prev;
	unsigned int k;
	u8 lp;

	prev_id = eng->seq_base + eng->session_next - 1;
	for (k = 0; k < got && !found; k++) {
		if (!mlx5_diag_engine_decode_from(eng, eng->session_out, k))
			break;
		if (!mlx5_diag_engine_session_time(eng, &t) ||
		    (after_set && t <= from)) {
			have_prev = false;
			continue;
		}
		id = eng->entries[0].sample_id;
		/*
		 * one after the other in any numbering's width, 16 bits up;
		 * the last one taken and a drain's first also less than 2^15
		 * periods apart at the one reported (which the firmware's is
		 * no shorter than): not 2^16 samples apart, as they may be.
		 * Adjacent slots hold samples at most a lap (2^15 slots at
		 * most) apart
		 */
		found = have_prev && ((id - prev_id) & U16_MAX) == 1 &&
			t > prev_t &&
			mlx5_diag_engine_clocks_apart(prev_t, t,
						      eng->programmed.rtc,
						      eng->fw->caps.freq_khz,
						      &clocks) &&
			(k || !taken_prev ||
			 clocks >> eng->session_log_period <= U16_MAX >> 1);
		have_prev = true;
		prev_id = id;
		prev_t = t;
	}
	if (!found)
		return;
	eng->session_period_checked = true;
	eng->session_period_relearn = false;
	lp = mlx5_diag_engine_step_period(clocks, eng->session_log_period,
					  mlx5_diag_fw_max_log_period(&eng->fw->caps));
	/* a step that matched no period (the one reported kept) showed none */
	if (mlx5_diag_engine_session_clocks_step_is(eng, clocks, lp))
		eng->session_log_period_shown =
			min(eng->session_log_period_shown, lp);
	if (lp == eng->session_log_period)
		return;
	pr_info_ratelimited("%s: the firmware samples every 2^%u clocks, not the 2^%u that QUERY_DIAGNOSTIC_PARAMS reports: the run goes on at its samples' period (engine/unreported_periods)\n",
			    eng->fw->name, lp, eng->session_log_period);
	eng->stats.unreported_periods++;
	eng->session_log_period = lp;
	/*
	 * after a SET the shortest stays as it was: a lower bound, below the
	 * run's own where the period reported there never ran
	 */
	if (!after_set)
		eng->session_log_period_min = lp;
	eng->session_log_period_max = max(eng->session_log_period_max, lp);
	d->log_period_learnt = lp;
	d->period_ts = t;
}

/*
 * After a period-only SET, while it is not known whether the firmware kept
 * its numbering (A8): does the sample in slot 0 show what it did? Slot 0
 * is the first a new numbering writes. A sample there stamped after the
 * clock read before the SET was sent (a lap's times compare: see
 * mlx5_diag_engine_session_set_sent()) came after the SET or while it
 * ran. The numbering kept puts there an id at or after the one expected
 * at the SET, by no more than the samples taken since and those due since
 * the last one taken (mlx5_diag_engine_session_kept_reach()); a
 * numbering from 0 an id no larger than the new period's samples due
 * since the SET was sent (16-bit ids that wrapped since the SET fit
 * both). One reading and not the
 * other tells (eng->session_renumber NONE or FOUND; slot 0's time kept);
 * neither leaves it to the next drain; both (the id expected at the SET
 * no more than the samples the SET took, or a first drain after a
 * numbering from 0 reached it) are read as the numbering kept, once the
 * sample came after the SET's answer. The sample is read again by the
 * drain. Returns 0 or the errno of a failed query.
 */
static int mlx5_diag_engine_session_renumbered(struct mlx5_diag_engine *eng)
{
	u64 mask = mlx5_diag_engine_seq_mask(eng), id, t, clocks, taken, reach;
	u64 ahead;
	u8 lp = eng->session_log_period;
	bool rtc = eng->programmed.rtc, kept, from_0;
	u32 khz = eng->fw->caps.freq_khz;
	int ret;

	ret = mlx5_diag_engine_session_query_into(eng, eng->session_slot0_out,
						  eng->session_slot0_outlen, 0,
						  1);
	if (ret <= 0)
		return ret;
	if (!mlx5_diag_engine_decode_from(eng, eng->session_slot0_out, 0) ||
	    !mlx5_diag_engine_session_lap_time(eng, &t) ||
	    !mlx5_diag_engine_clocks_apart(eng->session_set_sent, t, rtc, khz,
					   &clocks) || !clocks)
		return 0;
	id = eng->entries[0].sample_id & mask;
	from_0 = id <= clocks >> lp;
	if (!mlx5_diag_engine_session_kept_reach(eng, t, &reach))
		return 0;
	taken = eng->session_next - eng->session_set_next;
	ahead = (id - eng->session_set_seq) & mask;
	kept = ahead <= taken + 1 || ahead - taken - 1 <= reach;
	if (!kept && !from_0)
		return 0;
	if (kept && from_0 &&
	    (!mlx5_diag_engine_clocks_apart(eng->session_set_answer, t, rtc,
					    khz, &clocks) || !clocks))
		return 0;
	eng->session_renumber = kept ? MLX5_DIAG_RENUMBER_NONE :
				       MLX5_DIAG_RENUMBER_FOUND;
	eng->session_set_first = t;
	return 0;
}

/*
 * Where the firmware numbered from 0 again at a period-only SET, is the
 * decoded sample of the old period, for the drain to take before the new
 * numbering: stamped at or before the device clock read after the SET's
 * answer, and before the new numbering's sample in slot 0.
 */
static bool mlx5_diag_engine_session_old_period(struct mlx5_diag_engine *eng)
{
	u64 t;

	return mlx5_diag_engine_session_time(eng, &t) &&
	       t <= eng->session_set_answer && t < eng->session_set_first;
}

/*
 * The drain took what the buffer kept of the old period where the
 * firmware numbered from 0 again at a period-only SET (A8), and took
 * nothing else yet: it goes on from slot 0, from the next sample. The
 * samples due after the last one taken and before the SET was sent are
 * lost (each in a LOST record; those due while it ran, if any, are not
 * counted: the driver cannot see when it ran; in single mode no more
 * than the run had left to take): where SETs came before this one since
 * the last sample taken, each stretch at the period that ran in it
 * (mlx5_diag_engine_session_due_sets(); a numbering of an earlier one
 * that the buffer still holds is not placed), else, or where those are
 * not known, all at the period before this SET. One line and
 * engine/period_restarts + 1.
 */
static void mlx5_diag_engine_session_renumber(struct mlx5_diag_engine *eng,
					      struct mlx5_diag_drain *d)
{
	u64 from = eng->session_last_ts, clocks, end, lost = 0;

	if (!mlx5_diag_engine_session_span_summable(eng, from,
						    eng->session_set_sent) ||
	    !mlx5_diag_engine_session_due_sets(eng, &from,
					       eng->session_set_sent, &lost) ||
	    from != eng->session_set_sent) {
		lost = 0;
		if (mlx5_diag_engine_clocks_apart(eng->session_last_ts,
						  eng->session_set_sent,
						  eng->programmed.rtc,
						  eng->fw->caps.freq_khz,
						  &clocks))
			lost = clocks >> eng->session_set_log_old;
	}
	/* a single run takes a buffer's samples, no more */
	if (eng->programmed.mode == MLX5_DIAG_FW_SINGLE) {
		end = eng->session_run_first +
		      (1U << eng->programmed.log_num_of_samples);
		lost = min(lost, end - min(eng->session_next, end));
	}
	if (lost) {
		if (!d->lost_count)
			d->lost_first = eng->session_next;
		d->lost_count += lost;
		eng->session_next += lost;
	}
	d->first_seq = eng->session_next;
	eng->seq_base = -eng->session_next;
	eng->session_run_first = eng->session_next;
	eng->session_renumber = MLX5_DIAG_RENUMBER_NONE;
	eng->stats.period_restarts++;
	pr_info_ratelimited("%s: the firmware numbered its samples from 0 again, from slot 0, at the period change: the run goes on from sample %llu, %llu lost (engine/period_restarts)\n",
			    eng->fw->name, eng->session_next, lost);
}

/**
 * mlx5_diag_engine_session_interval() - a session's next drain interval
 * @cur: the interval in force, ns
 * @min_ns: the shortest one
 * @max_ns: the longest one, the plan's for the configuration (>= @min_ns)
 * @fetched: samples the last drain fetched or found lost
 * @nslots: the firmware buffer, in samples
 *
 * A drain that found more than half the buffer halves the interval; one
 * that found at most a quarter doubles it, up to the plan's, so that after
 * a burst the drains are as rare, and their queries as large, as the
 * buffer allows. A doubled interval finds at most half the buffer at the
 * same rate: the two never alternate at a steady rate.
 *
 * Return: the interval, within [@min_ns, @max_ns].
 */
u64 mlx5_diag_engine_session_interval(u64 cur, u64 min_ns, u64 max_ns,
				      u64 fetched, unsigned int nslots)
{
	cur = min(cur, max_ns);
	if (fetched > nslots / 2)
		cur /= 2;
	else if (fetched <= nslots / 4)
		cur = cur > max_ns / 2 ? max_ns : cur * 2;
	return clamp(cur, min_ns, max_ns);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_interval);

/**
 * mlx5_diag_engine_session_drain() - fetch the session's new samples
 * @eng: the engine
 * @d: @d->cap, @d->ts, @d->val and @d->take in; the samples out, each
 *	handed to @d->take as it is taken
 *
 * Reads the cyclic buffer from the slot of the next expected sample (the
 * run's sample n carries id seq_base + n, seq_base 0 unless the run's first
 * drain finds otherwise: mlx5_diag_engine_session_find_first()) until
 * it finds a sample not yet written or @d is full, each query sized by the
 * device clock read just before it (mlx5_diag_engine_session_query_size()):
 * the samples due since the last one taken plus a slack, at most a batch
 * (what the 128 KiB outbox holds, at most the buffer). While a query took
 * every sample it read, the next one reads what arrived since (during the
 * query) with twice the slack; twice the last query when the clock cannot
 * be read. The estimate only sizes the queries: a slot holding a later
 * lap's sample means the firmware overwrote samples: they are reported in
 * @d->lost_* and the drain goes on from the oldest sample still there,
 * read as a lap before that one (where the expected slot holds the oldest
 * left, a gap of whole laps, every slot reads as a later lap: the drain
 * walks the lap back to that slot, and takes it from there); the sample
 * the drain before stopped at is none, however late this one comes
 * (mlx5_diag_engine_session_unchanged()).
 * Counting events of the session's ids fold every sample.
 *
 * Bounded: later laps are skipped only before the first sample taken, a
 * batch of nothing but later laps is followed by one of at most the rest
 * of a lap and one slot, and a batch that took no sample otherwise ends the
 * drain: one drain skips at most a lap of slots and one more (and, until
 * the run's first sample is found, a lap more:
 * mlx5_diag_engine_session_find_first()), and catches up however many laps
 * late it comes (past half the range of narrow ids:
 * mlx5_diag_engine_session_unalias()), unless the firmware writes a lap
 * while it runs. When
 * MLX5_DIAG_DRAIN_MAX_SKIP_LAPS laps of slots were skipped with no sample
 * taken since (firmware that never lets the drain catch up), @d->stalled
 * tells the caller to end the run.
 *
 * A query that fails ends the drain: what the drain took before was
 * handed over and counted in @d (the caller delivers it), and the next
 * drain goes on from there.
 * Sleeps. Return: 0; -EBUSY when the engine does not run the session (not
 * ours any more, or never programmed), -ENODEV when the device is gone,
 * nothing fetched; or the errno of a failed query (-EAGAIN for RES_BUSY).
 */
int mlx5_diag_engine_session_drain(struct mlx5_diag_engine *eng,
				   struct mlx5_diag_drain *d)
{
	unsigned int nslots, size, slack, want, got, taken, k, e;
	unsigned int skipped = 0;
	u64 mask, delta, id, ts, overwritten, expect;
	int ret = 0;

	d->n = 0;
	d->lost_count = 0;
	d->full = false;
	d->stalled = false;
	d->log_period_learnt = 0;
	mutex_lock(&eng->lock);
	if (eng->state != MLX5_DIAG_ENGINE_SESSION || !eng->session_running) {
		ret = eng->state == MLX5_DIAG_ENGINE_GONE ? -ENODEV : -EBUSY;
		goto out;
	}
	nslots = 1U << eng->programmed.log_num_of_samples;
	d->first_seq = eng->session_next;
	eng->stats.polls++;
	eng->session_clock_known = false;
again:
	slack = MLX5_DIAG_DRAIN_SLACK;
	size = mlx5_diag_engine_session_query_size(eng, slack,
						   eng->session_batch);
	while (d->n < d->cap) {
		taken = d->n;
		want = min(size, d->cap - d->n);
		ret = mlx5_diag_engine_session_query(eng,
						     (eng->seq_base +
						      eng->session_next) &
						     (nslots - 1), want);
		if (ret < 0)
			goto done;
		got = ret;
		ret = 0;
		/*
		 * Slot 0 read after the answer: a new numbering writes it
		 * first, so a sample of one in the answer is seen there
		 */
		if (eng->session_renumber == MLX5_DIAG_RENUMBER_UNSURE) {
			ret = mlx5_diag_engine_session_renumbered(eng);
			if (ret)
				goto done;
		}
		if (!eng->session_period_checked ||
		    eng->session_period_relearn)
			mlx5_diag_engine_session_learn_period(eng, d, got);
		for (k = 0; k < got; k++) {
			/* the answer's whole samples end here */
			if (!mlx5_diag_engine_decode_from(eng, eng->session_out,
							  k)) {
				if (mlx5_diag_engine_reordered(eng,
							       eng->session_out,
							       k))
					mlx5_diag_engine_session_bad(eng,
								     "its entries come in another order than the configuration's first sample's (the firmware changed the order within the configuration); nothing is delivered until it comes in that order again");
				got = k;
				break;
			}
			id = eng->entries[0].sample_id;
			mask = mlx5_diag_engine_seq_mask(eng);
			expect = eng->seq_base + eng->session_next;
			delta = (id - expect) & mask;
			/* the slot the last drain stopped at, not written since */
			if (!d->n &&
			    mlx5_diag_engine_session_unchanged(eng, expect))
				goto done;
			/* the old period's, before a numbering from 0 again */
			if (eng->session_renumber == MLX5_DIAG_RENUMBER_FOUND &&
			    (delta || !mlx5_diag_engine_session_old_period(eng)))
				goto done;
			if (!d->n)
				mlx5_diag_engine_session_unalias(eng, k, got,
								 id, &delta,
								 &mask, nslots);
			if (eng->seq_start == MLX5_DIAG_SEQ_SLOT) {
				/* numbered by slot: placed by its time */
				mask = U64_MAX;
				delta = mlx5_diag_engine_session_slot_ts(eng, &ts) ?
					mlx5_diag_engine_session_slot_delta(eng, ts) :
					0;
			} else if (!delta && !eng->session_next &&
				   mlx5_diag_engine_session_not_first(eng, k,
								      got)) {
				if (eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN)
					goto first;
				/* the buffer read found an earlier sample */
				mlx5_diag_engine_session_bad(eng,
							     "its slot holds a later sample numbered as it: the firmware numbers its samples by slot index, which cannot be placed here (no device clock read after the SET, fewer than 4 slots or a lap of half the timestamps' range); nothing is delivered");
				goto done;
			} else if (!delta &&
				   mlx5_diag_engine_session_lap_late(eng, expect,
								     &ts)) {
				/* the expected id, but a lap late: slot index */
				if (!mlx5_diag_engine_seq_slot(eng,
							       eng->seq_base)) {
					mlx5_diag_engine_session_bad(eng,
								     "its slot holds a sample numbered as it but stamped a lap or more later: the firmware numbers its samples by slot index, which time cannot tell apart in fewer than 4 slots or across a period change; nothing is delivered");
					goto done;
				}
				mask = U64_MAX;
				delta = mlx5_diag_engine_session_slot_delta(eng,
									    ts);
			}
			/* another id where a numbering from 0 puts sample 0 */
			if (delta && eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN)
				goto first;
			/*
			 * A sample of this run that the width read by does
			 * not place here, but 16 bits do: read 16 from now on
			 */
			if (!mlx5_diag_engine_session_placed(delta, mask,
							     nslots) &&
			    mlx5_diag_engine_session_placed((id - expect) &
							    U16_MAX, U16_MAX,
							    nslots) &&
			    mlx5_diag_engine_session_ts(eng, 0, &ts) &&
			    mlx5_diag_engine_seq_narrow(eng, id, expect,
							&delta))
				mask = U16_MAX;
			/*
			 * A newer sample numbered by its slot where the
			 * numbering puts a later one: placed by time from now
			 */
			if (delta && eng->seq_start != MLX5_DIAG_SEQ_SLOT &&
			    eng->session_renumber == MLX5_DIAG_RENUMBER_NONE &&
			    id == (expect & (nslots - 1)) &&
			    mlx5_diag_engine_session_out_of_seq(eng, delta, mask,
								nslots) &&
			    mlx5_diag_engine_seq_slot(eng, eng->seq_base) &&
			    mlx5_diag_engine_session_ts(eng, 0, &ts)) {
				mask = U64_MAX;
				delta = mlx5_diag_engine_session_slot_delta(eng,
									    ts);
			}
			/*
			 * A later lap's sample of this run (an earlier run's
			 * left in the buffer is older than the clock at
			 * program time, whatever its sample id)
			 */
			if (delta &&
			    mlx5_diag_engine_session_placed(delta, mask,
							    nslots) &&
			    !d->n &&
			    mlx5_diag_engine_session_later_lap(eng, delta)) {
				/* overwritten: go on from the oldest left */
				overwritten = delta - nslots + 1;
				if (!d->lost_count)
					d->lost_first = eng->session_next;
				d->lost_count += overwritten;
				eng->session_period_ts =
					mlx5_diag_engine_session_period_floor(eng,
									      overwritten);
				eng->session_last_ts =
					mlx5_diag_engine_session_floor(eng,
								       eng->session_period_ts);
				eng->session_next += overwritten;
				d->first_seq = eng->session_next;
				eng->session_skipped++;
				continue;
			}
			if (delta) {
				if (mlx5_diag_engine_session_out_of_seq(eng, delta,
									mask,
									nslots))
					mlx5_diag_engine_session_bad(eng,
								     "its slot holds a newer sample with another number (the firmware numbers its samples otherwise: the slot index, or a restart); nothing is delivered until the numbering comes round");
				goto done;
			}
			if (mlx5_diag_engine_session_rtc_still(eng))
				goto done;
			e = mlx5_diag_engine_session_take(eng, d);
			if (e == eng->programmed.num_ids) {
				if (eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN)
					eng->seq_start = MLX5_DIAG_SEQ_ZERO;
				continue;
			}
			if (e)
				mlx5_diag_engine_session_bad(eng,
							     "one of its entries is stamped before the sample before it; the drain waits there until the firmware overwrites it, then reports it lost");
			else if (eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN)
				goto first;
			goto done;
		}
		/* no sample where a numbering from 0 puts sample 0 */
		if (!got && eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN)
			goto first;
		if (got < want)
			break;
		if (d->n == taken) {
			/*
			 * Only later laps: skip on a batch at a time, the
			 * last one the rest of the lap and one slot, so that
			 * a drain catches up however far the firmware ran
			 * ahead since the last one; a walk of the whole lap
			 * is back at the slot it began at, which held the
			 * oldest sample left: read from there once more
			 */
			skipped += got;
			if (skipped > nslots)
				break;
			size = min(eng->session_batch, nslots + 1 - skipped);
			continue;
		}
		/*
		 * The firmware had more than the query read: those that
		 * arrived since, and more slack for those that arrive during
		 * the next query. Both are at most a batch (2^15).
		 */
		slack = min(2 * slack, eng->session_batch);
		size = mlx5_diag_engine_session_query_size(eng, slack,
							   min(2 * size,
							       eng->session_batch));
		continue;
first:
		ret = mlx5_diag_engine_session_find_first(eng);
		if (ret <= 0)
			goto done;
		ret = 0;
		size = eng->session_batch;
		/*
		 * The run's first query read no device clock: the samples
		 * due place a numbering past half its range from here
		 */
		if (!eng->session_clock_known)
			mlx5_diag_engine_session_read_clock(eng);
	}
done:
	/*
	 * Slot 0 showed a numbering from 0 and the drain took no more of the
	 * old period (after a sample, the next drain goes on): on from slot 0
	 */
	if (!ret && !d->n &&
	    eng->session_renumber == MLX5_DIAG_RENUMBER_FOUND) {
		mlx5_diag_engine_session_renumber(eng, d);
		goto again;
	}
	/* a busy firmware (RES_BUSY) is no other agent */
	if (ret == -EBUSY)
		ret = -EAGAIN;
	if (eng->session_skipped > (u64)MLX5_DIAG_DRAIN_MAX_SKIP_LAPS * nslots)
		d->stalled = true;
	if (eng->programmed.mode == MLX5_DIAG_FW_SINGLE &&
	    eng->session_next - eng->session_run_first >= nslots)
		d->full = true;
out:
	if (d->lost_count)
		eng->stats.lost_samples += d->lost_count;
	if (d->n)
		mlx5_diag_engine_publish(eng);
	mutex_unlock(&eng->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_drain);

/**
 * mlx5_diag_engine_session_owned() - does the firmware still run our session?
 * @eng: the engine
 *
 * If another agent reconfigured it, the engine becomes FOREIGN (counted in
 * engine/takeovers). Sleeps. Return: true while the session is ours.
 */
bool mlx5_diag_engine_session_owned(struct mlx5_diag_engine *eng)
{
	bool owned = false;

	mutex_lock(&eng->lock);
	if (eng->state != MLX5_DIAG_ENGINE_SESSION)
		goto out;
	owned = true;
	if (mlx5_diag_fw_query_params(eng->fw, &eng->queried) ||
	    mlx5_diag_fw_params_equal(&eng->queried, &eng->programmed))
		goto out;
	owned = false;
	eng->stats.takeovers++;
	eng->state = MLX5_DIAG_ENGINE_FOREIGN;
	eng->session_running = false;
	mlx5_diag_engine_unmap(eng);
	pr_warn("%s: another agent reconfigured the diagnostic engine: the sampling session ends\n",
		eng->fw->name);
out:
	mutex_unlock(&eng->lock);
	return owned;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_owned);

/**
 * mlx5_diag_engine_session_release() - the session leader goes away
 * @eng: the engine
 *
 * Disables the firmware if the session ran it. Counting events that rode
 * on the session count on in counting mode; its members left open keep
 * their counts, frozen. Sleeps.
 */
void mlx5_diag_engine_session_release(struct mlx5_diag_engine *eng)
{
	const char *why = NULL;
	unsigned int i;
	bool took_over;
	int ret;

	mutex_lock(&eng->lock);
	eng->session_claimed = false;
	eng->session_running = false;
	eng->session.num_ids = 0;
	/* members left open count nothing more and block no new session */
	for (i = 0; i < eng->fw->caps.max_ids; i++)
		if (eng->slots[i].members)
			eng->slots[i].orphan = true;
	if (eng->state == MLX5_DIAG_ENGINE_GONE)
		goto out;
	if (eng->state == MLX5_DIAG_ENGINE_SESSION ||
	    eng->state == MLX5_DIAG_ENGINE_OFF)
		mlx5_diag_engine_release(eng);
	if (eng->users > eng->session_users &&
	    eng->state == MLX5_DIAG_ENGINE_OFF) {
		ret = mlx5_diag_engine_apply(eng, false, &took_over, &why);
		if (ret)
			pr_warn("%s: counting does not resume after the session: %s (%d)\n",
				eng->fw->name, why, ret);
	}
out:
	mutex_unlock(&eng->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_session_release);
