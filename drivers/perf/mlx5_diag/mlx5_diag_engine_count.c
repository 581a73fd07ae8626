// SPDX-License-Identifier: GPL-2.0
/*
 * Counting on the diagnostic engine: the slots that open events read, each
 * a data ID's running count; the poller that folds firmware samples into
 * them (on-demand, or the folded repetitive ring); the events' get and put;
 * and the read side (mlx5_diag_engine_read(), mlx5_diag_engine_snapshot(),
 * the group read transactions), which perf calls from any context, NMI
 * included, and which takes no lock. All else sleeps, under the engine's
 * lock.
 */
#include <linux/bitmap.h>
#include <linux/crc32.h>
#include <linux/kernel.h>
#include <linux/sort.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_engine_int.h"

/*
 * A slot read only by members of a session whose leader is gone: frozen,
 * in no configuration, shared with no new event.
 */
static bool mlx5_diag_engine_slot_dead(const struct mlx5_diag_engine_slot *s)
{
	return s->orphan && s->users == s->members;
}

/*
 * Tie each id firmware holds for us (@eng->programmed) to the slot of an
 * open event counting it. @restart: a new configuration, so the sample
 * numbering starts again, and so do the firmware's counters (engine time
 * 0, Documentation/driver-api/mlx5-diag-firmware.rst): a counter the last
 * configuration counted up to the bank (in_fw, primed) counts on from 0,
 * every other one from its first sample.
 */
void mlx5_diag_engine_map(struct mlx5_diag_engine *eng, bool restart)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int i, s;

	for (s = 0; s < eng->fw->caps.max_ids; s++) {
		struct mlx5_diag_engine_slot *sl = &eng->slots[s];

		if (restart) {
			sl->cs.primed = sl->in_fw && sl->cs.primed;
			sl->cs.last = 0;
		}
		sl->in_fw = false;
	}
	for (i = 0; i < p->num_ids; i++) {
		eng->fw_slot[i] = -1;
		for (s = 0; s < eng->fw->caps.max_ids; s++) {
			if (eng->slots[s].users && eng->slots[s].id == p->ids[i] &&
			    !eng->slots[s].in_fw &&
			    !mlx5_diag_engine_slot_dead(&eng->slots[s])) {
				eng->slots[s].in_fw = true;
				eng->fw_slot[i] = s;
				break;
			}
		}
	}
	if (!restart)
		return;
	eng->reading_known = false;
	eng->entries_reading = false;
	eng->seq_bits = eng->fw->dialect->sample_id_bits;
	eng->entry_order = MLX5_DIAG_ORDER_UNKNOWN;
	eng->seq_start = MLX5_DIAG_SEQ_UNKNOWN;
	eng->seq_base = 0;
	eng->next_sample = 0;
	eng->fold_last_ts = eng->run_set_known ? eng->run_set_clock : 0;
	eng->fold_last_known = eng->run_set_known;
	eng->fold_last_full = eng->run_set_known;
	eng->fold_poll_clock = eng->run_set_clock;
	eng->fold_poll_known = eng->run_set_known;
	eng->fold_answer_known = false;
	eng->nslots = 1U << p->log_num_of_samples;
	eng->polls_since_check = 0;
	eng->poll_unusable = false;
}

/*
 * Publish every taken slot's running count to the readers: each copy of
 * the latch in turn, while readers take the other one. Each publish is
 * numbered (64 bits: never wraps), so a snapshot tells which it is of.
 */
void mlx5_diag_engine_publish(struct mlx5_diag_engine *eng)
{
	unsigned int c, i;

	lockdep_assert_held(&eng->lock);
	eng->published++;
	for (c = 0; c < 2; c++) {
		raw_write_seqcount_latch(&eng->vseq);
		WRITE_ONCE(eng->vgen[c], eng->published);
		WRITE_ONCE(eng->vnr[c], eng->nr_published);
		for (i = 0; i < eng->nr_published; i++)
			WRITE_ONCE(eng->vcopy[c][i], eng->slots[i].value);
	}
}

/* A free slot starts counting @id for its first event, from 0. */
void mlx5_diag_engine_slot_take(struct mlx5_diag_engine *eng,
				struct mlx5_diag_engine_slot *s, u64 id,
				const struct mlx5_diag_catalog_entry *e)
{
	s->id = id;
	s->entry = e;
	s->users = 1;
	s->members = 0;
	s->orphan = false;
	s->value = 0;
	s->cs.primed = false;
	eng->nr_published = max_t(unsigned int, eng->nr_published,
				  s - eng->slots + 1);
	mlx5_diag_engine_publish(eng);
}

/*
 * The slot already counting @id for open events, if @share, else NULL;
 * *@free gets the first slot no event uses, or NULL.
 */
struct mlx5_diag_engine_slot *
mlx5_diag_engine_slot_find(struct mlx5_diag_engine *eng, u64 id, bool share,
			   struct mlx5_diag_engine_slot **free)
{
	unsigned int i;

	*free = NULL;
	for (i = 0; i < eng->fw->caps.max_ids; i++) {
		struct mlx5_diag_engine_slot *s = &eng->slots[i];

		if (share && s->users && s->id == id &&
		    !mlx5_diag_engine_slot_dead(s))
			return s;
		if (!s->users && !*free)
			*free = s;
	}
	return NULL;
}

/* No event counts @s any more: nothing folds into it from now on. */
void mlx5_diag_engine_slot_free(struct mlx5_diag_engine *eng,
				struct mlx5_diag_engine_slot *s)
{
	unsigned int i;

	for (i = 0; i < eng->programmed.num_ids; i++)
		if (eng->fw_slot[i] == s - eng->slots)
			eng->fw_slot[i] = -1;
	s->in_fw = false;
	s->entry = NULL;
}

/*
 * Fold one decoded sample (entries in firmware order) into the running
 * counts; readers see them at the next mlx5_diag_engine_publish().
 */
void mlx5_diag_engine_fold(struct mlx5_diag_engine *eng)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int i, resets = 0;
	u64 delta;

	for (i = 0; i < p->num_ids; i++) {
		struct mlx5_diag_engine_slot *s;
		enum mlx5_diag_class class;

		if (eng->fw_slot[i] < 0)
			continue;
		s = &eng->slots[eng->fw_slot[i]];
		/* with data clear a counter's value is its increase */
		class = s->entry->class;
		if (p->clear && class == MLX5_DIAG_CLASS_COUNTER)
			class = MLX5_DIAG_CLASS_STAT_SUM;
		switch (mlx5_diag_count_fold(&s->cs, class, 64,
					     eng->entries[i].value, &delta)) {
		case MLX5_DIAG_FOLD_ADDED:
			s->value += delta;
			break;
		case MLX5_DIAG_FOLD_RESET:
			resets++;
			break;
		case MLX5_DIAG_FOLD_PRIMED:
			break;
		}
	}
	if (resets) {
		eng->stats.counter_resets += resets;
		pr_warn_ratelimited("%s: %u counter(s) went backwards (firmware reset or another agent): counting restarts from the new value, nothing added\n",
				    eng->fw->name, resets);
	}
}

/*
 * Does the sample decoded into eng->raw carry every programmed id exactly
 * once (a configuration's ids are distinct)? Its order into @order (entry
 * k carries programmed.ids[order[k]]) when not NULL. O(num^2).
 */
static bool mlx5_diag_engine_permutation(struct mlx5_diag_engine *eng,
					 u16 *order)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int k, i, num = p->num_ids;

	bitmap_zero(eng->order_used, num);
	for (k = 0; k < num; k++) {
		for (i = 0; i < num; i++)
			if (eng->raw[k].id == p->ids[i] &&
			    !test_bit(i, eng->order_used))
				break;
		if (i == num)
			return false;
		__set_bit(i, eng->order_used);
		if (order)
			order[k] = i;
	}
	return true;
}

/*
 * Learn the order of a sample's entries (A12) from the sample decoded into
 * eng->raw: every programmed id exactly once, in any order. No source
 * states the order; OFED reads the SET's. Returns false, nothing learnt,
 * when the sample is not one of ours (not written, other ids, or one
 * twice). The SET's order costs O(num); another O(num^2), once per
 * configuration (and once per answer while no sample shows an order).
 */
static bool mlx5_diag_engine_learn_order(struct mlx5_diag_engine *eng)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int k;

	for (k = 0; k < p->num_ids && eng->raw[k].id == p->ids[k]; k++)
		eng->order[k] = k;
	if (k == p->num_ids) {
		eng->entry_order = MLX5_DIAG_ORDER_SET;
		return true;
	}
	if (!mlx5_diag_engine_permutation(eng, eng->order))
		return false;
	eng->entry_order = MLX5_DIAG_ORDER_OTHER;
	pr_info_ratelimited("%s: the firmware returns a sample's entries in another order than the SET's: read so in this configuration (engine/entry_order)\n",
			    eng->fw->name);
	return true;
}

/*
 * Sample @s of the outbox did not decode: does it carry every programmed
 * id all the same, in another order than the one learnt (the firmware
 * changed the order within a configuration)? O(num^2): call it only where
 * a sample did not decode, once per answer.
 */
bool mlx5_diag_engine_reordered(struct mlx5_diag_engine *eng, const void *out,
				unsigned int s)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;

	if (eng->entry_order == MLX5_DIAG_ORDER_UNKNOWN)
		return false;
	mlx5_diag_fw_query_counters_entries(eng->fw->dialect, out,
					    s * p->num_ids, p->num_ids,
					    eng->raw);
	return mlx5_diag_engine_permutation(eng, NULL);
}

/*
 * Decode sample @s of the outbox into eng->entries, every entry of it, in
 * the SET's order of the ids. The first sample of a configuration that
 * carries every programmed id teaches the order the firmware returns them
 * in. Returns false when its entries do not carry the programmed ids in
 * that order (not returned, or not ours).
 */
bool mlx5_diag_engine_decode_from(struct mlx5_diag_engine *eng, const void *out,
				  unsigned int s)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int i, k;

	if (eng->entry_order == MLX5_DIAG_ORDER_SET) {
		mlx5_diag_fw_query_counters_entries(eng->fw->dialect, out,
						    s * p->num_ids, p->num_ids,
						    eng->entries);
		for (i = 0; i < p->num_ids; i++)
			if (eng->entries[i].id != p->ids[i])
				return false;
		return true;
	}
	mlx5_diag_fw_query_counters_entries(eng->fw->dialect, out,
					    s * p->num_ids, p->num_ids,
					    eng->raw);
	if (eng->entry_order == MLX5_DIAG_ORDER_UNKNOWN &&
	    !mlx5_diag_engine_learn_order(eng))
		return false;
	for (k = 0; k < p->num_ids; k++) {
		i = eng->order[k];
		if (eng->raw[k].id != p->ids[i])
			return false;
		eng->entries[i] = eng->raw[k];
	}
	return true;
}

static bool mlx5_diag_engine_decode(struct mlx5_diag_engine *eng,
				    unsigned int s)
{
	return mlx5_diag_engine_decode_from(eng, eng->out, s);
}

/*
 * Is sample @s of the outbox zero-filled, every field of every entry 0,
 * the ids too? Firmware that fills the slots it never wrote so (A6 of the
 * firmware document) answers them that way; no sample of ours has id 0.
 */
static bool mlx5_diag_engine_zero_from(struct mlx5_diag_engine *eng,
				       const void *out, unsigned int s)
{
	unsigned int i, num = eng->programmed.num_ids;
	struct mlx5_diag_fw_entry e;

	for (i = 0; i < num; i++) {
		mlx5_diag_fw_query_counters_entry(eng->fw->dialect, out,
						  s * num + i, &e);
		if (e.id || e.sample_id || e.timestamp || e.value)
			return false;
	}
	return true;
}

/*
 * QUERY_DIAGNOSTIC_COUNTERS into @out (@size bytes) for @nsamples samples
 * from slot @index, num_of_samples read as the engine has learnt. Nothing
 * of the answer is checked: the caller decodes it with
 * mlx5_diag_engine_decode_from(), which tells a whole sample with the
 * programmed ids. Returns 0 or an errno.
 */
int mlx5_diag_engine_query_cmd(struct mlx5_diag_engine *eng, void *out,
			       size_t size, unsigned int index,
			       unsigned int nsamples)
{
	unsigned int num = eng->programmed.num_ids;
	size_t outlen;
	u32 in[4];

	outlen = mlx5_diag_fw_query_counters_outlen(eng->fw->dialect,
						    nsamples * num);
	if (outlen > size)
		return -EOVERFLOW;
	mlx5_diag_fw_query_counters_in(in, eng->entries_reading ?
				       nsamples * num : nsamples, index);
	return mlx5_diag_fw_cmd(eng->fw, in, sizeof(in), out, outlen);
}

/*
 * mlx5_diag_engine_query_cmd(); returns the number of leading whole
 * samples with the programmed ids, or an errno.
 */
static int mlx5_diag_engine_query_once(struct mlx5_diag_engine *eng, void *out,
				       size_t size, unsigned int index,
				       unsigned int nsamples)
{
	unsigned int got;
	int ret;

	ret = mlx5_diag_engine_query_cmd(eng, out, size, index, nsamples);
	if (ret)
		return ret;
	for (got = 0; got < nsamples; got++)
		if (!mlx5_diag_engine_decode_from(eng, out, got))
			break;
	return got;
}

/*
 * Does the outbox's first entry carry the id a sample starts with, in the
 * order learnt (mlx5_diag_engine_learn_order())?
 */
static bool mlx5_diag_engine_first_entry(struct mlx5_diag_engine *eng,
					 const void *out)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	struct mlx5_diag_fw_entry e;

	if (eng->entry_order == MLX5_DIAG_ORDER_UNKNOWN)
		return false;
	mlx5_diag_fw_query_counters_entry(eng->fw->dialect, out, 0, &e);
	return e.id == p->ids[eng->order[0]];
}

/*
 * How this firmware reads num_of_samples, from a query of one sample at
 * slot @index, whose first entry carries the id a sample starts with: firmware
 * that counts samples answers the whole sample, one that counts entries
 * that entry alone (the rest of the outbox stays zero). Learnt only from
 * an answer that shows it. Returns 0 or the query's errno.
 */
static int mlx5_diag_engine_reading_probe(struct mlx5_diag_engine *eng,
					  void *out, unsigned int index)
{
	struct mlx5_diag_fw_entry e;
	u32 in[4];
	int ret;

	mlx5_diag_fw_query_counters_in(in, 1, index);
	ret = mlx5_diag_fw_cmd(eng->fw, in, sizeof(in), out,
			       mlx5_diag_fw_query_counters_outlen(eng->fw->dialect,
								  eng->programmed.num_ids));
	if (ret)
		return ret;
	if (mlx5_diag_engine_decode_from(eng, out, 0)) {
		eng->reading_known = true;
		return 0;
	}
	mlx5_diag_fw_query_counters_entry(eng->fw->dialect, out, 1, &e);
	if (mlx5_diag_engine_first_entry(eng, out) &&
	    !e.id && !e.sample_id && !e.timestamp && !e.value) {
		eng->reading_known = true;
		eng->entries_reading = true;
	}
	return 0;
}

/*
 * QUERY_DIAGNOSTIC_COUNTERS into @out (@size bytes) for @nsamples samples
 * from slot @index. Public sources read num_of_samples two ways: samples
 * (MLNX_OFED) or entries (mlx5ctl), and the first is asked until the
 * reading is known. An answer of more whole samples than entries could
 * hold shows samples; otherwise, once the first slot asked for carries
 * the ids, a query of that one sample shows which (and the query is run
 * again, read as learnt). Firmware that zero-fills the slots it never
 * wrote (A6) leaves the reading unknown until it wrote one. Learnt once
 * per configuration (mlx5_diag_engine_map()); with one id the readings
 * agree. Returns the number of whole samples with the programmed ids, or
 * an errno.
 */
int mlx5_diag_engine_query_at(struct mlx5_diag_engine *eng, void *out,
			      size_t size, unsigned int index,
			      unsigned int nsamples)
{
	unsigned int num = eng->programmed.num_ids;
	int got, ret;

	got = mlx5_diag_engine_query_once(eng, out, size, index, nsamples);
	if (got < 0 || eng->reading_known)
		return got;
	if (num == 1 || got > nsamples / num) {
		eng->reading_known = true;
		return got;
	}
	if (!got)
		return 0;
	ret = mlx5_diag_engine_reading_probe(eng, out, index);
	if (ret)
		return ret;
	return mlx5_diag_engine_query_once(eng, out, size, index, nsamples);
}

static int mlx5_diag_engine_query(struct mlx5_diag_engine *eng,
				  unsigned int nsamples)
{
	return mlx5_diag_engine_query_at(eng, eng->out, eng->outlen, 0,
					 nsamples);
}

/*
 * Of an answer to a query of @n samples, the leading samples that are whole
 * however the firmware reads num_of_samples: all @n once the reading is
 * known; until then what a firmware that counts entries answers, @n /
 * num_of_counters (at least 1).
 */
unsigned int mlx5_diag_engine_whole_samples(const struct mlx5_diag_engine *eng,
					    unsigned int n)
{
	return eng->reading_known ? n : max(n / eng->programmed.num_ids, 1U);
}

/*
 * The whole folded ring into the outbox, from slot 0. Until the reading of
 * num_of_samples is known (firmware that zero-fills the slots it never
 * wrote, A6, and wrote none a query started at), the ring is read on from
 * the first written slot either reading shows: a query that starts there
 * teaches it (mlx5_diag_engine_query_at()), and the ring is read again.
 * Returns what mlx5_diag_engine_query_at() returns.
 */
static int mlx5_diag_engine_query_ring(struct mlx5_diag_engine *eng)
{
	unsigned int index = 0, seen, k;
	int got;

	for (;;) {
		got = mlx5_diag_engine_query_at(eng, eng->out, eng->outlen,
						index, eng->nslots - index);
		if (got < 0 || eng->reading_known)
			break;
		seen = mlx5_diag_engine_whole_samples(eng, eng->nslots - index);
		for (k = 0; k < seen && !mlx5_diag_engine_decode(eng, k); k++)
			;
		/* none written, or a written first slot that taught nothing */
		if (!k || index + k >= eng->nslots)
			return got;
		index += k;
	}
	if (got < 0 || !index)
		return got;
	return mlx5_diag_engine_query(eng, eng->nslots);
}

/* On-demand counting: one new sample of every programmed id. */
static int mlx5_diag_engine_poll_on_demand(struct mlx5_diag_engine *eng)
{
	int got = mlx5_diag_engine_query(eng, 1);

	if (got < 0)
		return got;
	if (got < 1 || !mlx5_diag_engine_decode(eng, 0))
		return -EPROTO;
	mlx5_diag_engine_fold(eng);
	return 0;
}

/* The sample ids of the numbering read by, as a mask of its width. */
u64 mlx5_diag_engine_seq_mask(const struct mlx5_diag_engine *eng)
{
	return eng->seq_bits >= 64 ? ~0ULL : (1ULL << eng->seq_bits) - 1;
}

/**
 * mlx5_diag_engine_seq_narrow() - is the firmware's numbering 16 bits wide?
 * @eng: the engine
 * @id: the sample id of a sample of this configuration, in the slot where
 *	the engine expects sample @expect or a later lap of it, which the
 *	width it reads by does not place there
 * @expect: the extended sequence number expected there
 * @d16: how far @id is past @expect modulo 2^16
 *
 * Firmware may number its samples modulo 2^16 in the modelled dialect's
 * 32-bit field (A1: no source gives the width). That shows once the
 * numbering passed 2^16: an id below 2^16 where the sequence is at 2^16
 * or more, and no further than half of 2^16 ahead of it. A wider numbering
 * never writes such an id there: its later laps read as such by its own
 * width. Then the engine reads 16 bits for the rest of the configuration,
 * says so once, and shows it in engine/sample_id_bits.
 *
 * Return: true when the engine now reads 16 bits (*@d16 set).
 */
bool mlx5_diag_engine_seq_narrow(struct mlx5_diag_engine *eng, u64 id,
				 u64 expect, u64 *d16)
{
	u64 d = (id - expect) & U16_MAX;

	if (eng->seq_bits <= 16 || id > U16_MAX || d > U16_MAX >> 1 ||
	    expect + d <= U16_MAX)
		return false;
	eng->seq_bits = 16;
	*d16 = d;
	pr_info_ratelimited("%s: the firmware numbers its samples modulo 2^16 (in a %u-bit field): read so in this configuration (engine/sample_id_bits)\n",
			    eng->fw->name, eng->fw->dialect->sample_id_bits);
	return true;
}

/* Nothing seen yet of a read of the whole buffer. */
void mlx5_diag_engine_seq_seen_init(struct mlx5_diag_seq_seen *seen)
{
	*seen = (struct mlx5_diag_seq_seen){
		.first_ts = U64_MAX,
		.ids_in_slots = true,
	};
}

/*
 * One more written slot of the buffer read whole: its sample's @id and its
 * time @t (its earliest entry, extended as the reader does).
 */
void mlx5_diag_engine_seq_seen_add(const struct mlx5_diag_engine *eng,
				   struct mlx5_diag_seq_seen *seen, u64 id,
				   u64 t)
{
	seen->written++;
	seen->ids_in_slots = seen->ids_in_slots && id < eng->nslots;
	seen->tied = t == seen->first_ts || (seen->tied && t > seen->first_ts);
	if (t < seen->first_ts) {
		seen->first_ts = t;
		seen->first_id = id;
	}
}

/*
 * The periods (at the run's shortest, @lp) from the device clock @from to
 * the time @ts of the buffer's earliest sample, rounded up; U64_MAX where
 * @ts is not after @from.
 */
static u64 mlx5_diag_engine_periods_to(const struct mlx5_diag_engine *eng,
				       u64 from, u64 ts, u8 lp)
{
	u64 clocks;

	if (!mlx5_diag_engine_clocks_apart(from, ts, eng->programmed.rtc,
					   eng->fw->caps.freq_khz, &clocks))
		return U64_MAX;
	return (clocks >> lp) + !!(clocks & ((1ULL << lp) - 1));
}

/*
 * The number of the buffer's earliest sample, in slot @id of firmware
 * that numbers by slot index, from its periods after the clocks read
 * around the SET: @r after the answer's, @r_sent (at least @r) after the
 * one before it was sent. The firmware started the configuration between
 * the two, so the sample is one of r - 1 to r_sent - 1: the one that
 * firmware writing sample 0 in slot 0 puts in slot @id, where one is; else
 * r - 1, exact where the SET was answered within a period.
 */
static u64 mlx5_diag_engine_slot_first(const struct mlx5_diag_engine *eng,
				       u64 id, u64 r, u64 r_sent)
{
	u64 n = r ? r - 1 : 0;
	u64 in_slot = n + ((id - n) & (eng->nslots - 1));

	return in_slot < r_sent ? in_slot : n;
}

/*
 * Are the device clocks read before the configuration's SET was sent and
 * after its answer a period (at @lp) or more apart? When in between the
 * firmware ran the SET (a slow SET, or a late answer) the driver cannot
 * see, so a first read after a lap finds its oldest sample left one of
 * several.
 */
static bool mlx5_diag_engine_set_answered_late(const struct mlx5_diag_engine *eng,
					       u8 lp)
{
	u64 clocks;

	return eng->run_set_known &&
	       mlx5_diag_engine_clocks_apart(eng->run_set_sent,
					     eng->run_set_clock,
					     eng->programmed.rtc,
					     eng->fw->caps.freq_khz, &clocks) &&
	       clocks >> lp;
}

/*
 * Where the numbering starts is reckoned, the earliest sample left taken
 * for sample @n of the run (the firmware could have numbered it otherwise,
 * by as many samples as the SET took periods): one line,
 * engine/reckoned_starts + 1.
 */
static void mlx5_diag_engine_seq_reckoned(struct mlx5_diag_engine *eng, u64 n)
{
	eng->stats.reckoned_starts++;
	pr_warn_ratelimited("%s: the firmware lapped its buffer before the configuration's first read, and the SET took a period or more to answer: its earliest sample left is reckoned to be sample %llu from the device clock, and the sequence numbers and loss before it may be off by as many samples as the SET took periods (engine/reckoned_starts)\n",
			    eng->fw->name, n);
}

/**
 * mlx5_diag_engine_seq_learn() - where the configuration's numbering starts
 * @eng: the engine
 * @seen: the samples of the configuration that a read of the whole buffer
 *	found: the earliest-stamped one's id and time (its earliest entry,
 *	extended to 64 bits: FRC clocks, or an RTC reading)
 *
 * After the disable with clear before the SET (A5) every written slot
 * holds a sample of the configuration. Where the buffer has not lapped
 * (it is not full, or in single mode, which never laps), the earliest is
 * its sample 0, and its id is where the numbering starts: 0, or past the
 * configuration before where the firmware numbers across SETs (A1).
 * Where it may have lapped, the earliest left is its sample r - 1 or
 * later: r the periods (at the run's shortest) from the device clock read
 * after the SET's answer to its time, rounded up; r_sent - 1 or earlier,
 * from the clock read before the SET was sent (mlx5_diag_engine_set_new()):
 * firmware that takes its first sample one period after the SET starts
 * between the two. Firmware that numbers from 0 numbers it so (one more
 * where it takes the first sample at the SET); an id beyond that is of a
 * numbering across SETs that starts r - 1 before it. A full buffer whose
 * ids are all below the slots holds a sample numbered 0 or one past the
 * last slot unless the firmware numbers by slot index: so where its
 * earliest is not numbered 0, or is stamped a period or more after the
 * SET's answer, it does (mlx5_diag_engine_seq_slot(), the earliest sample
 * as mlx5_diag_engine_slot_first() numbers it, in eng->seq_first: the
 * drain places the samples after it from it). Without the clock read the
 * numbering is taken to start at 0; so it is where two samples share the
 * earliest time, which samples a period apart never do (firmware that
 * stamps them otherwise; the drain then meets what it writes as it would
 * from 0). Either reading after a lap is sure only where the SET took
 * less than a period, sent to answered: otherwise it is reckoned, said
 * in one line and engine/reckoned_starts (mlx5_diag_engine_seq_reckoned());
 * a session's work drains right after the SET, so that takes a SET that
 * took a lap. Sets eng->seq_base and eng->seq_start; says that the
 * numbering continues once per configuration (rate-limited); the drain
 * and the folded poll count the loss from the ids.
 */
void mlx5_diag_engine_seq_learn(struct mlx5_diag_engine *eng,
				const struct mlx5_diag_seq_seen *seen)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	u64 id = seen->first_id & mlx5_diag_engine_seq_mask(eng);
	u64 r = U64_MAX, r_sent = U64_MAX, n;
	/* at most MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD (adopted so) */
	u8 lp = eng->state == MLX5_DIAG_ENGINE_SESSION ?
		eng->session_log_period_min : p->log_sample_period;

	if (eng->run_set_known) {
		r = mlx5_diag_engine_periods_to(eng, eng->run_set_clock,
						seen->first_ts, lp);
		r_sent = mlx5_diag_engine_periods_to(eng, eng->run_set_sent,
						     seen->first_ts, lp);
		if (r == U64_MAX)
			r_sent = U64_MAX;
	}
	n = r == U64_MAX ? 0 : mlx5_diag_engine_slot_first(eng, id, r, r_sent);
	if (!seen->tied &&
	    (seen->written < eng->nslots || p->mode == MLX5_DIAG_FW_SINGLE)) {
		eng->seq_base = id;
		eng->seq_start = id ? MLX5_DIAG_SEQ_CONTINUED :
				      MLX5_DIAG_SEQ_ZERO;
	} else if (!seen->tied && seen->ids_in_slots && r != U64_MAX &&
		   (id || r > 1) && mlx5_diag_engine_seq_slot(eng, id - n)) {
		eng->seq_first = n;
		if (mlx5_diag_engine_set_answered_late(eng, lp))
			mlx5_diag_engine_seq_reckoned(eng, n);
		return;
	} else if (seen->tied || id <= r_sent) {
		eng->seq_base = 0;
		eng->seq_start = MLX5_DIAG_SEQ_ZERO;
	} else {
		r = r ? r - 1 : 0;
		eng->seq_base = id - r;
		eng->seq_start = MLX5_DIAG_SEQ_CONTINUED;
		if (mlx5_diag_engine_set_answered_late(eng, lp))
			mlx5_diag_engine_seq_reckoned(eng, r);
	}
	if (eng->seq_start == MLX5_DIAG_SEQ_CONTINUED)
		pr_info_ratelimited("%s: the firmware numbers its samples on from the configuration before (this one from %llu): read so in this configuration (engine/sample_id_start)\n",
				    eng->fw->name, eng->seq_base);
}

/* A lap of 2^@log_slots samples at 2^@log_period clocks in half the range */
static bool mlx5_diag_engine_lap_fits(const struct mlx5_diag_engine *eng,
				      u8 log_slots, bool rtc, u8 log_period)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;

	return bits >= 64 || rtc || log_slots + log_period < bits - 1;
}

/**
 * mlx5_diag_engine_slots_placeable() - can time tell a buffer's laps apart?
 * @eng: the engine
 * @log_slots: the buffer, log2 of its samples
 * @rtc: its timestamps come from the RTC
 * @log_period: the longest period of its samples, log2 clocks
 *
 * Return: true where the buffer has MLX5_DIAG_SLOT_IDS_MIN_SLOTS slots or
 * more and a lap of it at 2^@log_period clocks spans less than half the
 * range of the timestamps (always on 64-bit and RTC ones), so that of two
 * samples of the same slot the newer reads as newer.
 */
bool mlx5_diag_engine_slots_placeable(const struct mlx5_diag_engine *eng,
				      u8 log_slots, bool rtc, u8 log_period)
{
	return mlx5_diag_engine_slots_enough(log_slots) &&
	       mlx5_diag_engine_lap_fits(eng, log_slots, rtc, log_period);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_slots_placeable);

/**
 * mlx5_diag_engine_lap_in_half_range() - do a lap's timestamps compare?
 * @eng: the engine
 * @log_period: the longest period of the buffer's samples, log2 clocks
 *
 * Return: true where a lap of the programmed buffer at 2^@log_period
 * clocks spans less than half the range of the timestamps, so that of two
 * samples of the same slot the newer reads as newer: always on 64-bit and
 * RTC ones.
 */
bool mlx5_diag_engine_lap_in_half_range(const struct mlx5_diag_engine *eng,
					u8 log_period)
{
	return mlx5_diag_engine_lap_fits(eng,
					 eng->programmed.log_num_of_samples,
					 eng->programmed.rtc, log_period);
}

/**
 * mlx5_diag_engine_seq_slot() - the firmware numbers its samples by slot
 * @eng: the engine
 * @base: the slot of the configuration's sample 0 (modulo the slots)
 *
 * A sample numbered by its slot where the numbering puts a later number,
 * yet newer than the last one read, or a lapped buffer's earliest sample
 * numbered more than half a lap below where its time puts it: the firmware
 * writes the slot index as sample_id (A1). Its laps are then told apart by
 * time alone (mlx5_diag_engine_slot_seq()): the engine reads so for the
 * rest of the configuration, says so once and shows it in
 * engine/sample_id_start. The device is remembered as numbering so
 * (engine/slot_ids), whether or not this configuration can be read.
 *
 * Return: false where time cannot tell the laps apart: fewer than
 * MLX5_DIAG_SLOT_IDS_MIN_SLOTS slots, a session whose period changed
 * during the run (its earlier samples came at another period), or a lap
 * that spans half the range of narrow timestamps or more (a sample a lap
 * old may read as newer).
 */
bool mlx5_diag_engine_seq_slot(struct mlx5_diag_engine *eng, u64 base)
{
	bool session = eng->state == MLX5_DIAG_ENGINE_SESSION;

	WRITE_ONCE(eng->fw->slot_ids, true);
	if ((session &&
	     eng->session_log_period_min != eng->session_log_period_max) ||
	    !mlx5_diag_engine_slots_placeable(eng,
					      eng->programmed.log_num_of_samples,
					      eng->programmed.rtc,
					      session ?
					      eng->session_log_period_max :
					      eng->programmed.log_sample_period))
		return false;
	eng->seq_start = MLX5_DIAG_SEQ_SLOT;
	eng->seq_base = base & (eng->nslots - 1);
	pr_info_ratelimited("%s: the firmware numbers its samples by slot index: one lap is told from another by time in this configuration (engine/sample_id_start)\n",
			    eng->fw->name);
	return true;
}

/* Periods of 2^@lp clocks in @clocks, rounded to the nearest. */
static u64 mlx5_diag_engine_periods_in(u64 clocks, u8 lp)
{
	return lp ? (clocks >> lp) + ((clocks >> (lp - 1)) & 1) : clocks;
}

/**
 * mlx5_diag_engine_slot_seq() - a sample's number under slot-index ids
 * @eng: the engine, whose firmware numbers by slot (MLX5_DIAG_SEQ_SLOT)
 * @slot: the slot the sample is in
 * @clocks: device clocks from the reference to the sample's time (its
 *	earliest entry): from the last sample read, or from the device clock
 *	read after the SET's answer before any
 * @ref_next: the number after the reference's: the last one read's + 1, or
 *	0 for the SET
 *
 * Of the numbers that land in @slot (seq_base + n in slot (seq_base + n)
 * mod the slots), the one nearest to where the sample's time puts it:
 * sample ref_next - 1 + m, m the periods in @clocks, rounded (the
 * programmed period, in a session the run's: learnt where unreported, A9).
 * Exact while the sample is stamped within half a lap of that, as samples
 * a period apart are (MLX5_DIAG_SLOT_IDS_MIN_SLOTS); m is capped at 2^48
 * periods, later than any read comes.
 *
 * Return: the number, at least @ref_next.
 */
u64 mlx5_diag_engine_slot_seq(const struct mlx5_diag_engine *eng,
			      unsigned int slot, u64 clocks, u64 ref_next)
{
	/* at most MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD (adopted or learnt so) */
	u8 lp = eng->state == MLX5_DIAG_ENGINE_SESSION ?
		eng->session_log_period_min : eng->programmed.log_sample_period;
	u64 m, n, off;

	m = mlx5_diag_engine_periods_in(clocks, lp);
	n = ref_next + min_t(u64, m ? m - 1 : 0, 1ULL << 48);
	off = (slot - eng->seq_base - n) & (eng->nslots - 1);
	n += off;
	if (off > eng->nslots / 2 && n - ref_next >= eng->nslots)
		n -= eng->nslots;
	return n;
}

/* A sample of the folded ring: its extended id, its place and its time. */
struct mlx5_diag_ring_sample {
	u64 seq;
	unsigned int pos;
	u64 ts;
};

static int mlx5_diag_ring_sample_cmp(const void *a, const void *b)
{
	const struct mlx5_diag_ring_sample *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The time of the decoded sample: its earliest entry's timestamp, narrow
 * FRC timestamps extended back from the device clock @now read after the
 * query (NULL: not read), the latest they can be.
 */
static u64 mlx5_diag_engine_sample_time(struct mlx5_diag_engine *eng,
					const u64 *now)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;
	u64 t = U64_MAX, ts;
	unsigned int i;

	for (i = 0; i < eng->programmed.num_ids; i++) {
		ts = eng->entries[i].timestamp;
		if (!eng->programmed.rtc && now)
			ts = mlx5_diag_extend_back(*now, ts, bits);
		t = min(t, ts);
	}
	return t;
}

/*
 * Are the times mlx5_diag_engine_sample_time() gives the poll full (see
 * fold_last_ts): 64-bit and RTC timestamps, or narrow FRC ones extended
 * from the device clock read after the query (@now) where a lap of the
 * ring spans less than half their range, so that every sample the
 * firmware wrote in the last lap extends right.
 */
static bool mlx5_diag_engine_fold_full(const struct mlx5_diag_engine *eng,
				       const u64 *now)
{
	return (now || !mlx5_diag_engine_narrow_frc(eng)) &&
	       mlx5_diag_engine_lap_in_half_range(eng,
						  eng->programmed.log_sample_period);
}

/*
 * Do the poll's full times (@full) compare in 64 bits? 64-bit and RTC
 * ones do. Narrow FRC ones only in a poll half their range or more after
 * the one before, by the device clock (@now): polls nearer compare them
 * modulo their width, which reads a sample of a ring the firmware stopped
 * writing (stamped 2^32 clocks or more before, extended as recent) as
 * older, as it is.
 */
static bool mlx5_diag_engine_fold_wide(const struct mlx5_diag_engine *eng,
				       bool full, const u64 *now)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;

	if (!full || !mlx5_diag_engine_narrow_frc(eng))
		return full;
	return eng->fold_poll_known &&
	       *now - eng->fold_poll_clock >= 1ULL << (bits - 1);
}

/*
 * Device clocks from the last sample folded to time @t (a sample's, as
 * mlx5_diag_engine_sample_time() gives it): false unless @t is later.
 * Narrow FRC timestamps compare modulo their width, unless @wide
 * (mlx5_diag_engine_fold_wide()) and the last one folded is full too.
 */
static bool mlx5_diag_engine_fold_after(struct mlx5_diag_engine *eng, u64 t,
					bool wide, u64 *clocks)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;

	if (mlx5_diag_engine_narrow_frc(eng) &&
	    !(wide && eng->fold_last_full)) {
		u64 mask = (1ULL << bits) - 1;

		*clocks = (t - eng->fold_last_ts) & mask;
		return *clocks && *clocks <= mask >> 1;
	}
	return t > eng->fold_last_ts &&
	       mlx5_diag_engine_clocks_apart(eng->fold_last_ts, t,
					     eng->programmed.rtc,
					     eng->fw->caps.freq_khz, clocks);
}

/*
 * The period the ring's samples run at, log2 clocks: the programmed one,
 * or a longer one the firmware raised it to without reporting it (A9,
 * mlx5_diag_engine_step_period()), as two steps in a row between written
 * slots holding consecutive samples (numbered modulo @mask + 1) show it:
 * one step may read long where a sample's earliest entry came late (A2),
 * the next then reads short. False where no two steps agree. Decodes the
 * ring's slots.
 */
static bool mlx5_diag_engine_ring_period(struct mlx5_diag_engine *eng,
					 const u64 *now, u64 mask, u8 *lp)
{
	u8 longest = mlx5_diag_fw_max_log_period(&eng->fw->caps), step;
	u64 id, t, prev_id = 0, prev_t = 0, clocks;
	bool prev = false, stepped = false;
	unsigned int s;

	for (s = 0; s < eng->nslots; s++) {
		if (!mlx5_diag_engine_decode(eng, s) ||
		    !eng->entries[0].timestamp ||
		    (eng->entries[0].sample_id & (eng->nslots - 1)) != s) {
			prev = false;
			continue;
		}
		id = eng->entries[0].sample_id;
		t = mlx5_diag_engine_sample_time(eng, now);
		if (prev && ((id - prev_id) & mask) == 1 && t > prev_t &&
		    mlx5_diag_engine_clocks_apart(prev_t, t,
						  eng->programmed.rtc,
						  eng->fw->caps.freq_khz,
						  &clocks)) {
			step = mlx5_diag_engine_step_period(clocks,
							    eng->programmed.log_sample_period,
							    longest);
			if (stepped && step == *lp)
				return true;
			*lp = step;
			stepped = true;
		}
		prev = true;
		prev_id = id;
		prev_t = t;
	}
	return false;
}

/*
 * Is a sample @due periods after the last one folded half the numbering's
 * range (@mask) or more past the one expected next, less a lap: a poll
 * stalled 2^15 samples on 16-bit ids, which the id alone cannot place? No
 * poll comes 2^48 periods late.
 */
static bool mlx5_diag_engine_fold_far(const struct mlx5_diag_engine *eng,
				      u64 due, u64 mask)
{
	return due && due <= BIT_ULL(48) && due - 1 + eng->nslots > mask >> 1;
}

/*
 * A far sample (mlx5_diag_engine_fold_far()) @due periods after the last
 * one folded is about @due - 1 past the one expected next: of the
 * distances its id allows (@d, modulo @mask + 1) the nearest to that goes
 * in @d, 1. 0 where it is not far; -1 where the nearest is behind the last
 * one folded.
 */
static int mlx5_diag_engine_fold_unalias(const struct mlx5_diag_engine *eng,
					 u64 due, u64 mask, u64 *d)
{
	s64 lo, place;

	if (!mlx5_diag_engine_fold_far(eng, due, mask))
		return 0;
	lo = (s64)(due - 1) - (s64)(mask >> 1);
	place = lo + (s64)((*d - (u64)lo) & mask);
	if (place < 0)
		return -1;
	*d = place;
	return 1;
}

/*
 * Does the sample @clocks after the last one folded, at 2^@lp clocks a
 * sample, come @d past the one expected next, within half a lap?
 */
static bool mlx5_diag_engine_fold_on_time(const struct mlx5_diag_engine *eng,
					  u64 clocks, u8 lp, u64 d)
{
	u64 m = mlx5_diag_engine_periods_in(clocks, lp);
	u64 at = m ? m - 1 : 0;

	return (d > at ? d - at : at - d) < eng->nslots / 2;
}

/*
 * The CRC-32 of the ring as the poll's answer carries it, into *@crc: is it
 * that of the last answer a poll read (mlx5_diag_engine_poll_folded())?
 * Then nothing was written since, and nothing is new. Narrow FRC times
 * cannot tell that in a poll 2^31 clocks or more after the one before
 * (mlx5_diag_engine_fold_wide()), where the samples of a ring the firmware
 * stopped writing extend as 2^32 clocks newer (A3). A ring written since
 * whose answer has the same CRC (one in 2^32, or laps alike byte for
 * byte: idle counters at a period of 2^16 clocks) is taken as unchanged:
 * its samples are left to the next poll, which, within 2^31 clocks,
 * compares modulo 2^32 and counts a gap that long short.
 */
static bool mlx5_diag_engine_fold_unchanged(struct mlx5_diag_engine *eng,
					    u32 *crc)
{
	size_t len = mlx5_diag_fw_query_counters_outlen(eng->fw->dialect,
							eng->nslots *
							eng->programmed.num_ids);

	*crc = crc32_le(~0, eng->out, min(len, eng->outlen));
	return eng->fold_answer_known && *crc == eng->fold_answer_crc;
}

/*
 * Folded counting: read the whole ring and fold, in order, every sample not
 * folded before. A slot holds sample id i at position i mod nslots; one
 * whose sample id does not match its position, or whose timestamp is 0,
 * was not written in this configuration, nor was one zero-filled (A6); any
 * other slot without the programmed ids in order makes the answer
 * unusable. Until the firmware's reading of num_of_samples is known (it
 * wrote no slot yet) nothing is folded; until the start of the numbering
 * is (mlx5_diag_engine_seq_learn(), from the earliest-stamped slot) the
 * ring is read for it. Where the firmware numbers by slot index
 * (mlx5_diag_engine_seq_slot(): a sample older than the next by its id
 * but newer than the last folded), the samples stamped after the last
 * folded are the new ones, each placed by its time. A poll half the
 * numbering's range late (16-bit ids: 2^15 samples) places each sample by
 * the periods since the last one folded (mlx5_diag_engine_fold_unalias()),
 * at the period two consecutive ones show; on narrow FRC timestamps
 * counted modulo their width, or in 64 bits where the poll comes half
 * their range after the one before (mlx5_diag_engine_fold_wide(): the
 * device clock, read at every poll, extends them; there an answer the
 * last poll read, unchanged, is nothing new:
 * mlx5_diag_engine_fold_unchanged()). Samples overwritten
 * before this poll are counted as lost: counters lose nothing (their next
 * value carries the increase), sums lose those samples' values.
 */
static int mlx5_diag_engine_poll_folded(struct mlx5_diag_engine *eng)
{
	struct mlx5_diag_ring_sample ring[1U << MLX5_DIAG_FOLD_LOG_SLOTS];
	u64 expect = eng->next_sample, t, now, *nowp = NULL, clocks, base;
	bool narrow_frc = mlx5_diag_engine_narrow_frc(eng);
	bool full, wide, ring_read = false, ring_known = false;
	struct mlx5_diag_seq_seen seen;
	unsigned int n, s;
	u8 ring_lp = 0;
	int got, far;
	u32 crc;

	got = mlx5_diag_engine_query_ring(eng);
	if (got < 0)
		return got;
	if ((eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN || narrow_frc) &&
	    !mlx5_diag_engine_device_clock(eng, eng->programmed.rtc, &now))
		nowp = &now;
	full = mlx5_diag_engine_fold_full(eng, nowp);
	wide = mlx5_diag_engine_fold_wide(eng, full, nowp);
	/* compared in 64 bits: a ring the firmware stopped reads as newer */
	if (narrow_frc && mlx5_diag_engine_fold_unchanged(eng, &crc) && wide)
		goto read;
again:
	n = 0;
	mlx5_diag_engine_seq_seen_init(&seen);
	for (s = 0; s < eng->nslots; s++) {
		u64 mask = mlx5_diag_engine_seq_mask(eng), d, place;

		if (!mlx5_diag_engine_decode(eng, s)) {
			if (mlx5_diag_engine_zero_from(eng, eng->out, s))
				continue;
			return -EPROTO;
		}
		if (!eng->entries[0].timestamp ||
		    (eng->entries[0].sample_id & (eng->nslots - 1)) != s)
			continue;
		t = mlx5_diag_engine_sample_time(eng, nowp);
		if (eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN) {
			mlx5_diag_engine_seq_seen_add(eng, &seen,
						      eng->entries[0].sample_id,
						      t);
			continue;
		}
		if (eng->seq_start == MLX5_DIAG_SEQ_SLOT) {
			if (!mlx5_diag_engine_fold_after(eng, t, wide, &clocks))
				continue;	/* folded by an earlier poll */
			ring[n].seq = mlx5_diag_engine_slot_seq(eng, s, clocks,
								expect);
			goto add;
		}
		d = (eng->entries[0].sample_id - expect) & mask;
		/*
		 * Half the numbering's range or more since the last one
		 * folded at the programmed period (the firmware's is no
		 * shorter): placed by the periods in the gap, at the period
		 * the ring's samples show
		 */
		if (eng->fold_last_known &&
		    mlx5_diag_engine_fold_after(eng, t, wide, &clocks) &&
		    mlx5_diag_engine_fold_far(eng,
					      clocks >> eng->programmed.log_sample_period,
					      mask)) {
			if (!ring_read) {
				ring_read = true;
				ring_known = mlx5_diag_engine_ring_period(eng,
									  nowp,
									  mask,
									  &ring_lp);
				goto again;
			}
			place = d;
			far = ring_known ?
			      mlx5_diag_engine_fold_unalias(eng,
							    clocks >> ring_lp,
							    mask, &place) : 0;
			/*
			 * an id below the slots, which slot-index firmware
			 * writes: so read only where its time agrees
			 */
			if (far && eng->entries[0].sample_id < eng->nslots &&
			    (far < 0 ||
			     !mlx5_diag_engine_fold_on_time(eng, clocks,
							    ring_lp, place)))
				far = 0;
			if (far < 0)
				continue;	/* older than its time says */
			if (far) {
				d = place;
				goto placed;
			}
		}
		if (d > mask >> 1) {
			/* numbered modulo 2^16: read the ring again so */
			if (mlx5_diag_engine_seq_narrow(eng,
							eng->entries[0].sample_id,
							expect, &d))
				goto again;
			/* newer all the same: numbered by slot, read so */
			base = eng->seq_base;
			if (eng->entries[0].sample_id < eng->nslots &&
			    mlx5_diag_engine_fold_after(eng, t, wide, &clocks) &&
			    mlx5_diag_engine_seq_slot(eng, base)) {
				expect -= base;
				goto again;
			}
			continue;	/* folded by an earlier poll */
		}
placed:
		ring[n].seq = expect + d;
add:
		ring[n].pos = s;
		ring[n++].ts = t;
	}
	if (!eng->reading_known)
		goto read;
	if (eng->seq_start == MLX5_DIAG_SEQ_UNKNOWN) {
		if (!seen.written)
			goto read;
		mlx5_diag_engine_seq_learn(eng, &seen);
		expect = eng->seq_start == MLX5_DIAG_SEQ_SLOT ? 0 :
			 eng->seq_base;
		goto again;
	}
	sort(ring, n, sizeof(ring[0]), mlx5_diag_ring_sample_cmp, NULL);
	for (s = 0; s < n; s++) {
		if (ring[s].seq > expect) {
			eng->stats.lost_samples += ring[s].seq - expect;
			pr_warn_ratelimited("%s: firmware overwrote %llu sample(s) before they were read: sums miss them (engine/lost_samples)\n",
					    eng->fw->name, ring[s].seq - expect);
		}
		mlx5_diag_engine_decode(eng, ring[s].pos);
		mlx5_diag_engine_fold(eng);
		expect = ring[s].seq + 1;
		eng->fold_last_ts = ring[s].ts;
		eng->fold_last_known = true;
		eng->fold_last_full = full;
	}
	eng->next_sample = expect;
read:
	/*
	 * The ring was read up to this clock: the next poll's gap counts
	 * from here, not from a poll whose answer was unusable
	 */
	if (nowp) {
		eng->fold_poll_clock = now;
		eng->fold_poll_known = true;
	}
	if (narrow_frc) {
		eng->fold_answer_crc = crc;
		eng->fold_answer_known = true;
	}
	return 0;
}

int mlx5_diag_engine_poll_samples(struct mlx5_diag_engine *eng)
{
	int ret;

	/* a session's samples are drained by the session, and folded there */
	if (!eng->programmed.num_ids || eng->state == MLX5_DIAG_ENGINE_SESSION)
		return 0;
	eng->stats.polls++;
	if (eng->programmed.mode == MLX5_DIAG_FW_ON_DEMAND)
		ret = mlx5_diag_engine_poll_on_demand(eng);
	else
		ret = mlx5_diag_engine_poll_folded(eng);
	mlx5_diag_engine_publish(eng);
	return ret;
}

/**
 * mlx5_diag_engine_count_get() - count data ID @id for one more event
 * @eng: the engine
 * @id: the data ID (or fw counter), validated against the catalog
 * @e: its catalog entry
 * @force: take the engine over from another agent
 * @slot: the slot the event reads
 * @took_over: set when this call displaced another agent's configuration
 * @join: if not NULL, where the event joins the slot's count, read under the
 *	lock: the count of the last publish and its number. An event that
 *	counts from its join counts from it (a poll that ran between the join
 *	and a later read would be lost to it), and reads 0 from a snapshot of
 *	an earlier publish (mlx5_diag_engine_txn_read())
 *
 * Sleeps. Return: 0 or a negative errno, with the reason logged.
 */
int mlx5_diag_engine_count_get(struct mlx5_diag_engine *eng, u64 id,
			       const struct mlx5_diag_catalog_entry *e,
			       bool force, unsigned int *slot, bool *took_over,
			       struct mlx5_diag_engine_join *join)
{
	struct mlx5_diag_engine_slot *s, *free;
	const char *why = NULL;
	int ret = 0;

	*took_over = false;
	mutex_lock(&eng->lock);
	if (eng->state == MLX5_DIAG_ENGINE_GONE) {
		why = "device removed";
		ret = -ENODEV;
		goto out;
	}
	if (eng->session_claimed) {
		ret = mlx5_diag_engine_session_ride(eng, id, e, slot, &why);
		goto out;
	}
	if (eng->state == MLX5_DIAG_ENGINE_FOREIGN && !force) {
		ret = mlx5_diag_engine_foreign_recheck(eng, &why);
		if (ret)
			goto out;
	}
	if (eng->state == MLX5_DIAG_ENGINE_FOREIGN && !force) {
		why = "another agent holds the diagnostic engine; see force";
		ret = -EBUSY;
		goto out;
	}
	s = mlx5_diag_engine_slot_find(eng, id,
				       eng->state != MLX5_DIAG_ENGINE_FOREIGN,
				       &free);
	if (s) {
		s->users++;
		eng->users++;
		*slot = s - eng->slots;
		goto out;
	}
	if (!free) {
		why = "the device counts no more data IDs at once";
		ret = -ENOSPC;
		goto out;
	}
	mlx5_diag_engine_slot_take(eng, free, id, e);
	ret = mlx5_diag_engine_fold_placeable(eng, &why);
	if (!ret)
		ret = mlx5_diag_engine_apply(eng, force, took_over, &why);
	if (ret) {
		free->users = 0;
		mlx5_diag_engine_slot_free(eng, free);
		goto out;
	}
	eng->users++;
	*slot = free - eng->slots;
out:
	if (!ret && join) {
		join->base = mlx5_diag_engine_read(eng, *slot);
		join->gen = eng->published;
	}
	mutex_unlock(&eng->lock);
	if (ret)
		pr_info_ratelimited("%s: event 0x%llx refused: %s\n",
				    eng->fw->name, id, why);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_count_get);

/**
 * mlx5_diag_engine_count_put() - an event counting @slot goes away
 * @eng: the engine
 * @slot: from mlx5_diag_engine_count_get()
 * @unscheduled_taker: the event took the engine over from another agent
 *	and was never scheduled (its open failed after event_init, or it
 *	never ran): if nothing else was scheduled since and nothing else is
 *	counted, the displaced configuration is put back.
 *
 * Sleeps.
 */
void mlx5_diag_engine_count_put(struct mlx5_diag_engine *eng, unsigned int slot,
				bool unscheduled_taker)
{
	struct mlx5_diag_engine_slot *s = &eng->slots[slot];
	const char *why = NULL;
	bool took_over;
	int ret;

	mutex_lock(&eng->lock);
	eng->users--;
	if (--s->users)
		goto out;
	mlx5_diag_engine_slot_free(eng, s);
	if (eng->state == MLX5_DIAG_ENGINE_GONE || eng->session_claimed)
		goto out;
	if (unscheduled_taker && !eng->users && eng->displaced_valid &&
	    !READ_ONCE(eng->takeover_final) &&
	    eng->state == MLX5_DIAG_ENGINE_COUNT) {
		mlx5_diag_engine_unmap(eng);
		eng->displaced_valid = false;
		if (mlx5_diag_fw_set_params(eng->fw, &eng->displaced))
			mlx5_diag_engine_release(eng);
		else
			eng->state = MLX5_DIAG_ENGINE_OFF;
		pr_info("%s: the event that took the engine over never ran: the other agent's configuration is restored\n",
			eng->fw->name);
		goto out;
	}
	ret = mlx5_diag_engine_apply(eng, false, &took_over, &why);
	if (ret)
		pr_err_ratelimited("%s: releasing data ID 0x%llx: %s (%d)\n",
				   eng->fw->name, s->id, why, ret);
out:
	mutex_unlock(&eng->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_count_put);

/*
 * The running count of @slot as of the last poll or drain. Any context
 * (NMI, hard IRQ, PREEMPT_RT), no lock: it retries only when a publish
 * completed meanwhile, never waits for one.
 */
u64 mlx5_diag_engine_read(struct mlx5_diag_engine *eng, unsigned int slot)
{
	unsigned int seq;
	u64 v;

	do {
		seq = raw_read_seqcount_latch(&eng->vseq);
		v = READ_ONCE(eng->vcopy[seq & 1][slot]);
	} while (read_seqcount_latch_retry(&eng->vseq, seq));
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_read);

/*
 * Every slot's count as of one poll, for a group read in which all
 * siblings must see the same generation, and in @gen the publish it is.
 * Any context, as mlx5_diag_engine_read(). The number of slots is the
 * copy's own, read as its counts are (through the sequence): one read
 * beside it could be of another publish on a weakly ordered CPU.
 */
VISIBLE_IF_KUNIT void mlx5_diag_engine_snapshot(struct mlx5_diag_engine *eng,
						u64 *values, u64 *gen)
{
	unsigned int i, n, seq;

	do {
		seq = raw_read_seqcount_latch(&eng->vseq);
		*gen = READ_ONCE(eng->vgen[seq & 1]);
		n = READ_ONCE(eng->vnr[seq & 1]);
		for (i = 0; i < n; i++)
			values[i] = READ_ONCE(eng->vcopy[seq & 1][i]);
	} while (read_seqcount_latch_retry(&eng->vseq, seq));
	for (; i < eng->fw->caps.max_ids; i++)
		values[i] = 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_snapshot);

/*
 * @by holds @eng's counts on this CPU (interrupts off). The first holder
 * takes the snapshot, complete before @held sends reads to it, as an NMI
 * read may land anywhere in between; a later one keeps it: a group read
 * while the PMU is disabled reads the counts of the disable.
 */
void mlx5_diag_engine_txn_hold(struct mlx5_diag_engine *eng,
			       struct mlx5_diag_engine_txn *txn,
			       enum mlx5_diag_engine_hold by)
{
	unsigned int held = READ_ONCE(txn->held);

	if (!held)
		mlx5_diag_engine_snapshot(eng, txn->values, &txn->gen);
	barrier();
	WRITE_ONCE(txn->held, held | by);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_txn_hold);

/* @by lets go; once no holder is left, reads are live again. */
void mlx5_diag_engine_txn_release(struct mlx5_diag_engine_txn *txn,
				  enum mlx5_diag_engine_hold by)
{
	WRITE_ONCE(txn->held, READ_ONCE(txn->held) & ~by);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_txn_release);

/*
 * A slot's count since @join (NULL: since 0): of the first hold's snapshot
 * while any holder is left. A snapshot taken before the join (a deferred
 * event joins from a work item while this CPU holds) shows the event's
 * count as 0, not its base taken from a count it never saw: for a shared
 * slot that would wrap to near 2^64, for a slot taken again by another ID
 * it would be the old ID's count. A live read needs no check: a reader
 * that saw the join (the caller's acquire) sees its publish or a later one.
 */
u64 mlx5_diag_engine_txn_read(struct mlx5_diag_engine *eng,
			      const struct mlx5_diag_engine_txn *txn,
			      unsigned int slot,
			      const struct mlx5_diag_engine_join *join)
{
	u64 base = join ? join->base : 0;

	if (!READ_ONCE(txn->held))
		return mlx5_diag_engine_read(eng, slot) - base;
	if (join && txn->gen < join->gen)
		return 0;
	return txn->values[slot] - base;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_txn_read);
