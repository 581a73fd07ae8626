// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnostic engine of one device: the state machine that owns
 * SET_DIAGNOSTIC_PARAMS, and the poller that folds firmware samples into the
 * running counts of the counted data IDs. Everything here sleeps except the
 * read side (mlx5_diag_engine_read(), mlx5_diag_engine_snapshot()), which
 * perf calls from any context, NMI included, and which takes no lock.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/time64.h>

#include "mlx5_diag_engine.h"

static unsigned int mlx5_diag_refresh = 5;
static unsigned int mlx5_diag_check_polls = 20;

static int mlx5_diag_refresh_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	if (ms < 1 || ms > 10000)
		return -ERANGE;
	WRITE_ONCE(mlx5_diag_refresh, ms);
	return 0;
}

static const struct kernel_param_ops mlx5_diag_refresh_ops = {
	.set = mlx5_diag_refresh_set,
	.get = param_get_uint,
};
module_param_cb(refresh_ms, &mlx5_diag_refresh_ops, &mlx5_diag_refresh, 0644);
MODULE_PARM_DESC(refresh_ms,
		 "Counting: firmware poll period and staleness bound, ms (1-10000, default 5)");
module_param_named(ownership_check_polls, mlx5_diag_check_polls, uint, 0644);
MODULE_PARM_DESC(ownership_check_polls,
		 "Counting: check every N polls that no other agent took the engine (default 20, 0: never)");

unsigned int mlx5_diag_engine_check_polls(void)
{
	return READ_ONCE(mlx5_diag_check_polls);
}

unsigned int mlx5_diag_engine_refresh_ms(void)
{
	return READ_ONCE(mlx5_diag_refresh);
}

const char *mlx5_diag_engine_state_name(enum mlx5_diag_engine_state state)
{
	static const char * const names[] = {
		[MLX5_DIAG_ENGINE_OFF] = "off",
		[MLX5_DIAG_ENGINE_COUNT] = "count",
		[MLX5_DIAG_ENGINE_RELEASING] = "releasing",
		[MLX5_DIAG_ENGINE_FOREIGN] = "foreign",
		[MLX5_DIAG_ENGINE_GONE] = "gone",
		[MLX5_DIAG_ENGINE_SESSION] = "session",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "unknown";
}

/* Samples a folded-counting buffer holds: a few polls' worth. */
#define MLX5_DIAG_FOLD_LOG_SLOTS	4
/* Samples of the folded poll period in one refresh interval, at least. */
#define MLX5_DIAG_FOLD_SAMPLES_PER_POLL	4

/*
 * The firmware configuration for what is counted and sampled. Pure.
 *
 * Nothing counted and no session: disable (enable 0, clear 1). A session:
 * its configuration, provided every counted id is one of its ids (counting
 * then rides on its samples). Counting alone: on-demand mode where the
 * firmware offers it; otherwise repetitive mode with a period of about a
 * quarter of the refresh interval and a buffer of 2^MLX5_DIAG_FOLD_LOG_SLOTS
 * samples (less where the ids would not fit), every sample folded in.
 */
int mlx5_diag_engine_plan(const struct mlx5_diag_engine_plan *in,
			  struct mlx5_diag_fw_params *p, const char **why)
{
	const struct mlx5_diag_caps *caps = in->caps;
	unsigned int i, j, order;
	u64 clocks;

	p->enable = false;
	p->mode = MLX5_DIAG_FW_ON_DEMAND;
	p->sync = false;
	p->clear = false;
	p->rtc = false;
	p->log_num_of_samples = 0;
	p->log_sample_period = caps->log_min_sample_period;
	p->num_ids = 0;
	if (in->session) {
		for (i = 0; i < in->nr_count; i++) {
			for (j = 0; j < in->session->num_ids; j++)
				if (in->session->ids[j] == in->count_ids[i])
					break;
			if (j == in->session->num_ids) {
				*why = "a counted data ID is not part of the sampling session";
				return -EBUSY;
			}
		}
		memcpy(p->ids, in->session->ids,
		       in->session->num_ids * sizeof(*p->ids));
		*p = (struct mlx5_diag_fw_params) {
			.enable = true,
			.mode = in->session->mode,
			.sync = in->session->sync,
			.clear = in->session->clear,
			.rtc = in->session->rtc,
			.log_num_of_samples = in->session->log_num_of_samples,
			.log_sample_period = in->session->log_sample_period,
			.num_ids = in->session->num_ids,
			.ids = p->ids,
		};
		return 0;
	}
	if (!in->nr_count) {
		p->clear = true;
		return 0;
	}
	if (in->nr_count > caps->max_ids) {
		*why = "the device counts no more data IDs at once";
		return -ENOSPC;
	}
	memcpy(p->ids, in->count_ids, in->nr_count * sizeof(*p->ids));
	p->num_ids = in->nr_count;
	p->enable = true;
	if (caps->on_demand)
		return 0;
	if (!caps->repetitive) {
		*why = "the device offers neither on-demand nor repetitive sampling";
		return -EOPNOTSUPP;
	}
	/* 2^(log_max_samples - log_num_of_samples) >= num_of_counters */
	order = order_base_2(in->nr_count);
	if (order >= caps->log_max_samples) {
		*why = "the firmware buffer is too small for this many data IDs";
		return -ENOSPC;
	}
	p->mode = MLX5_DIAG_FW_REPETITIVE;
	p->log_num_of_samples = min_t(unsigned int, MLX5_DIAG_FOLD_LOG_SLOTS,
				      caps->log_max_samples - order);
	/* num_of_samples is 16 bits, and may count entries */
	while (p->log_num_of_samples &&
	       (in->nr_count << p->log_num_of_samples) > U16_MAX)
		p->log_num_of_samples--;
	clocks = div_u64((u64)in->refresh_ms * caps->freq_khz,
			 MLX5_DIAG_FOLD_SAMPLES_PER_POLL);
	p->log_sample_period = clamp_t(unsigned int, clocks ? ilog2(clocks) : 0,
				       caps->log_min_sample_period,
				       MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD);
	return 0;
}

static bool mlx5_diag_engine_owned(const struct mlx5_diag_engine *eng)
{
	return eng->state == MLX5_DIAG_ENGINE_COUNT ||
	       eng->state == MLX5_DIAG_ENGINE_RELEASING ||
	       eng->state == MLX5_DIAG_ENGINE_SESSION;
}

static void mlx5_diag_engine_kick(struct mlx5_diag_engine *eng)
{
	if (eng->wq)
		mod_delayed_work(eng->wq, &eng->poll_work,
				 msecs_to_jiffies(mlx5_diag_engine_refresh_ms()));
}

/* Firmware holds nothing of ours (any more, or as far as we know). */
static void mlx5_diag_engine_unmap(struct mlx5_diag_engine *eng)
{
	unsigned int i;

	eng->programmed.num_ids = 0;
	for (i = 0; i < eng->fw->caps.max_ids; i++)
		eng->slots[i].in_fw = false;
}

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
static void mlx5_diag_engine_map(struct mlx5_diag_engine *eng, bool restart)
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
	eng->next_sample = 0;
	eng->nslots = 1U << p->log_num_of_samples;
	eng->polls_since_check = 0;
}

/*
 * Publish every taken slot's running count to the readers: each copy of
 * the latch in turn, while readers take the other one.
 */
static void mlx5_diag_engine_publish(struct mlx5_diag_engine *eng)
{
	unsigned int c, i;

	lockdep_assert_held(&eng->lock);
	for (c = 0; c < 2; c++) {
		raw_write_seqcount_latch(&eng->vseq);
		for (i = 0; i < eng->nr_published; i++)
			WRITE_ONCE(eng->vcopy[c][i], eng->slots[i].value);
	}
}

/* A free slot starts counting @id for its first event, from 0. */
static void mlx5_diag_engine_slot_take(struct mlx5_diag_engine *eng,
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
static struct mlx5_diag_engine_slot *
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
static void mlx5_diag_engine_slot_free(struct mlx5_diag_engine *eng,
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
static void mlx5_diag_engine_fold(struct mlx5_diag_engine *eng)
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
 * Decode sample @s of the outbox into eng->entries. Returns false when its
 * entries do not carry the programmed ids in order (not returned, or not
 * ours).
 */
static bool mlx5_diag_engine_decode_from(struct mlx5_diag_engine *eng,
					 const void *out, unsigned int s)
{
	const struct mlx5_diag_fw_params *p = &eng->programmed;
	unsigned int i;

	for (i = 0; i < p->num_ids; i++) {
		mlx5_diag_fw_query_counters_entry(eng->fw->dialect, out,
						  s * p->num_ids + i,
						  &eng->entries[i]);
		if (eng->entries[i].id != p->ids[i])
			return false;
	}
	return true;
}

static bool mlx5_diag_engine_decode(struct mlx5_diag_engine *eng,
				    unsigned int s)
{
	return mlx5_diag_engine_decode_from(eng, eng->out, s);
}

/*
 * QUERY_DIAGNOSTIC_COUNTERS into @out (@size bytes) for @nsamples samples
 * from slot @index. Public
 * sources read num_of_samples two ways: samples (MLNX_OFED) or entries
 * (mlx5ctl). The first query of a configuration asks for samples with an
 * outbox that holds them all; firmware that counts entries fills only the
 * first @nsamples entries, which tells the two apart (with two or more ids).
 * Returns the number of whole samples with the programmed ids, or an errno.
 */
static int mlx5_diag_engine_query_at(struct mlx5_diag_engine *eng, void *out,
				     size_t size, unsigned int index,
				     unsigned int nsamples)
{
	unsigned int num = eng->programmed.num_ids, got;
	size_t outlen;
	u32 in[4];
	int ret;

	outlen = mlx5_diag_fw_query_counters_outlen(eng->fw->dialect,
						    nsamples * num);
	if (outlen > size)
		return -EOVERFLOW;
	mlx5_diag_fw_query_counters_in(in, eng->entries_reading ?
				       nsamples * num : nsamples, index);
	ret = mlx5_diag_fw_cmd(eng->fw, in, sizeof(in), out, outlen);
	if (ret)
		return ret;
	for (got = 0; got < nsamples; got++)
		if (!mlx5_diag_engine_decode_from(eng, out, got))
			break;
	if (!eng->reading_known && num > 1 && got == nsamples / num &&
	    got < nsamples) {
		eng->reading_known = true;
		eng->entries_reading = true;
		return mlx5_diag_engine_query_at(eng, out, size, index,
						 nsamples);
	}
	eng->reading_known = true;
	return got;
}

static int mlx5_diag_engine_query(struct mlx5_diag_engine *eng,
				  unsigned int nsamples)
{
	return mlx5_diag_engine_query_at(eng, eng->out, eng->outlen, 0,
					 nsamples);
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

/* A sample of the folded ring: its extended id and its place. */
struct mlx5_diag_ring_sample {
	u64 seq;
	unsigned int pos;
};

static int mlx5_diag_ring_sample_cmp(const void *a, const void *b)
{
	const struct mlx5_diag_ring_sample *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Folded counting: read the whole ring and fold, in order, every sample not
 * folded before. A slot holds sample j at position j mod nslots; one whose
 * sample id does not match its position, or whose timestamp is 0, was not
 * written in this configuration. Samples overwritten before this poll are
 * counted as lost: counters lose nothing (their next value carries the
 * increase), sums lose those samples' values.
 */
static int mlx5_diag_engine_poll_folded(struct mlx5_diag_engine *eng)
{
	unsigned int bits = eng->fw->dialect->sample_id_bits;
	u64 mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	struct mlx5_diag_ring_sample ring[1U << MLX5_DIAG_FOLD_LOG_SLOTS];
	unsigned int n = 0, s;
	u64 expect = eng->next_sample;
	int got;

	got = mlx5_diag_engine_query(eng, eng->nslots);
	if (got < 0)
		return got;
	if (got < eng->nslots)
		return -EPROTO;
	for (s = 0; s < eng->nslots; s++) {
		u64 d;

		mlx5_diag_engine_decode(eng, s);
		if (!eng->entries[0].timestamp ||
		    (eng->entries[0].sample_id & (eng->nslots - 1)) != s)
			continue;
		d = (eng->entries[0].sample_id - expect) & mask;
		if (d > mask >> 1)
			continue;	/* folded by an earlier poll */
		ring[n].seq = expect + d;
		ring[n++].pos = s;
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
	}
	eng->next_sample = expect;
	return 0;
}

static int mlx5_diag_engine_poll_samples(struct mlx5_diag_engine *eng)
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

/* @dst gets the configuration @src (ids copied: caps.max_ids each). */
static void mlx5_diag_engine_params_copy(struct mlx5_diag_fw_params *dst,
					 const struct mlx5_diag_fw_params *src)
{
	u64 *ids = dst->ids;

	*dst = *src;
	dst->ids = ids;
	memcpy(ids, src->ids, src->num_ids * sizeof(*ids));
}

/*
 * After a SET of eng->want, what firmware runs becomes eng->programmed.
 * The QUERY must report the configuration that was set: the same ids in
 * order, mode, flags and buffer size, and a period the firmware may have
 * raised, but within [the one set, the longest served]. Anything else is
 * not our configuration (another agent's, or firmware this driver cannot
 * serve): the engine is FOREIGN, counted in engine/foreign_configs. When
 * the QUERY itself fails, what was set is taken as programmed.
 * Returns 0 or -EBUSY (FOREIGN), logged.
 */
static int mlx5_diag_engine_adopt(struct mlx5_diag_engine *eng)
{
	const struct mlx5_diag_fw_params *w = &eng->want, *q = &eng->queried;
	int ret;

	ret = mlx5_diag_fw_query_params(eng->fw, &eng->queried);
	if (ret && ret != -EPROTO) {
		mlx5_diag_engine_params_copy(&eng->programmed, w);
		return 0;
	}
	if (!ret && mlx5_diag_fw_params_equal_but_period(q, w) &&
	    q->log_sample_period >= w->log_sample_period &&
	    q->log_sample_period <=
	    mlx5_diag_fw_max_log_period(&eng->fw->caps)) {
		swap(eng->queried, eng->programmed);
		return 0;
	}
	eng->stats.foreign_configs++;
	eng->state = MLX5_DIAG_ENGINE_FOREIGN;
	eng->session_running = false;
	mlx5_diag_engine_unmap(eng);
	if (ret)
		pr_warn_ratelimited("%s: the firmware's configuration after a SET is unreadable (more data IDs than the device selects): not ours, left alone\n",
				    eng->fw->name);
	else
		pr_warn_ratelimited("%s: the firmware reports a configuration other than the one set (%u data IDs, 2^%u samples, period 2^%u clocks; set: %u, 2^%u, 2^%u): not ours, left alone\n",
				    eng->fw->name, q->num_ids,
				    q->log_num_of_samples, q->log_sample_period,
				    w->num_ids, w->log_num_of_samples,
				    w->log_sample_period);
	return -EBUSY;
}

/*
 * Is firmware still running what we programmed? If not, another agent took
 * the engine: stop counting (never add its values) until it lets go.
 */
static void mlx5_diag_engine_check_owner(struct mlx5_diag_engine *eng)
{
	eng->polls_since_check = 0;
	if (mlx5_diag_fw_query_params(eng->fw, &eng->queried))
		return;
	if (mlx5_diag_fw_params_equal(&eng->queried, &eng->programmed))
		return;
	eng->stats.takeovers++;
	eng->state = MLX5_DIAG_ENGINE_FOREIGN;
	mlx5_diag_engine_unmap(eng);
	pr_warn("%s: another agent reconfigured the diagnostic engine: counts of open events stop, new events are refused until it lets go\n",
		eng->fw->name);
}

/* Collect the ids counting events count into eng->want's id list. */
static unsigned int mlx5_diag_engine_wanted(struct mlx5_diag_engine *eng)
{
	unsigned int i, n = 0;

	for (i = 0; i < eng->fw->caps.max_ids; i++)
		if (eng->slots[i].users > eng->slots[i].members)
			eng->want.ids[n++] = eng->slots[i].id;
	return n;
}

/* Give the engine back: disable is enable = 0, clear = 1. */
static void mlx5_diag_engine_release(struct mlx5_diag_engine *eng)
{
	struct mlx5_diag_fw_params off = { .clear = true };

	mlx5_diag_engine_unmap(eng);
	eng->displaced_valid = false;
	if (!mlx5_diag_engine_owned(eng)) {
		if (eng->state != MLX5_DIAG_ENGINE_GONE)
			eng->state = MLX5_DIAG_ENGINE_OFF;
		return;
	}
	if (mlx5_diag_fw_set_params(eng->fw, &off)) {
		if (eng->state != MLX5_DIAG_ENGINE_RELEASING)
			pr_warn("%s: could not disable the diagnostic engine; retrying every poll\n",
				eng->fw->name);
		eng->state = MLX5_DIAG_ENGINE_RELEASING;
		mlx5_diag_engine_kick(eng);
		return;
	}
	eng->state = MLX5_DIAG_ENGINE_OFF;
}

/*
 * A SET failed: learn what firmware holds and go on with that. Firmware
 * that refuses a SET (BAD_PARAM) keeps its old configuration, which is then
 * polled as before; an unknown configuration is another agent's.
 */
static void mlx5_diag_engine_learn(struct mlx5_diag_engine *eng)
{
	unsigned int i, s;

	eng->stats.set_failures++;
	if (mlx5_diag_fw_query_params(eng->fw, &eng->queried)) {
		mlx5_diag_engine_unmap(eng);
		return;
	}
	if (!eng->queried.enable) {
		mlx5_diag_engine_unmap(eng);
		eng->state = MLX5_DIAG_ENGINE_OFF;
		return;
	}
	if (eng->programmed.num_ids &&
	    mlx5_diag_fw_params_equal(&eng->queried, &eng->programmed)) {
		mlx5_diag_engine_map(eng, false);
		return;
	}
	/* counting polls it: no single mode, no more than the folded ring */
	if (eng->queried.mode == MLX5_DIAG_FW_SINGLE ||
	    eng->queried.log_num_of_samples > MLX5_DIAG_FOLD_LOG_SLOTS ||
	    eng->queried.log_sample_period >
	    mlx5_diag_fw_max_log_period(&eng->fw->caps)) {
		mlx5_diag_engine_unmap(eng);
		eng->state = MLX5_DIAG_ENGINE_FOREIGN;
		return;
	}
	for (i = 0; i < eng->queried.num_ids; i++) {
		for (s = 0; s < eng->fw->caps.max_ids; s++)
			if (eng->slots[s].users > eng->slots[s].members &&
			    eng->slots[s].id == eng->queried.ids[i])
				break;
		if (s == eng->fw->caps.max_ids) {
			mlx5_diag_engine_unmap(eng);
			eng->state = MLX5_DIAG_ENGINE_FOREIGN;
			return;
		}
	}
	/* ours, though not what we last knew: poll it from new baselines */
	mlx5_diag_engine_unmap(eng);
	swap(eng->queried, eng->programmed);
	eng->state = MLX5_DIAG_ENGINE_COUNT;
	mlx5_diag_engine_map(eng, true);
	mlx5_diag_engine_poll_samples(eng);
	mlx5_diag_engine_kick(eng);
}

/*
 * Program the firmware with every id open events count, or disable it when
 * none is left. What the old configuration counted is banked first. An
 * engine enabled by another agent is taken over only when @force.
 */
static int mlx5_diag_engine_apply(struct mlx5_diag_engine *eng, bool force,
				  bool *took_over, const char **why)
{
	struct mlx5_diag_engine_plan plan = {
		.caps = &eng->fw->caps,
		.count_ids = eng->want.ids,
		.refresh_ms = mlx5_diag_engine_refresh_ms(),
	};
	int ret;

	lockdep_assert_held(&eng->lock);
	if (eng->state == MLX5_DIAG_ENGINE_GONE)
		return -ENODEV;
	if (eng->session_claimed) {
		*why = "a sampling session holds the engine";
		return -EBUSY;
	}
	if (eng->state == MLX5_DIAG_ENGINE_COUNT)
		mlx5_diag_engine_poll_samples(eng);
	plan.nr_count = mlx5_diag_engine_wanted(eng);
	if (!plan.nr_count) {
		mlx5_diag_engine_release(eng);
		return 0;
	}
	if (!mlx5_diag_engine_owned(eng)) {
		ret = mlx5_diag_fw_query_params(eng->fw, &eng->queried);
		if (ret) {
			*why = "could not query the diagnostic engine";
			return ret;
		}
		if (eng->queried.enable && !force) {
			eng->state = MLX5_DIAG_ENGINE_FOREIGN;
			*why = "another agent has the engine (DOCA, a crashed owner); see force";
			return -EBUSY;
		}
		if (eng->queried.enable) {
			pr_warn("%s: taking the diagnostic engine over from another agent, whose samples stop\n",
				eng->fw->name);
			swap(eng->displaced, eng->queried);
			eng->displaced_valid = true;
			eng->takeover_final = false;
			*took_over = true;
		}
	}
	ret = mlx5_diag_engine_plan(&plan, &eng->want, why);
	if (ret)
		return ret;
	ret = mlx5_diag_fw_set_params(eng->fw, &eng->want);
	if (ret) {
		*why = "the firmware refused the configuration";
		mlx5_diag_engine_learn(eng);
		return ret;
	}
	ret = mlx5_diag_engine_adopt(eng);
	if (ret) {
		*why = "the firmware reports a configuration other than the one set";
		return ret;
	}
	eng->state = MLX5_DIAG_ENGINE_COUNT;
	mlx5_diag_engine_map(eng, true);
	/* the first sample sets every counter's baseline */
	mlx5_diag_engine_poll_samples(eng);
	mlx5_diag_engine_kick(eng);
	return 0;
}

/*
 * FOREIGN: is the other agent still there? If it disabled the engine, the
 * engine is ours again (OFF), and open events count from new baselines.
 * Returns 0, or the errno of a failed query.
 */
static int mlx5_diag_engine_foreign_recheck(struct mlx5_diag_engine *eng,
					    const char **why)
{
	bool took_over;
	int ret;

	ret = mlx5_diag_fw_query_params(eng->fw, &eng->queried);
	if (ret) {
		*why = "could not query the diagnostic engine";
		return ret;
	}
	if (eng->queried.enable)
		return 0;
	eng->state = MLX5_DIAG_ENGINE_OFF;
	if (eng->users) {
		pr_info("%s: the other agent let the diagnostic engine go: counting resumes\n",
			eng->fw->name);
		mlx5_diag_engine_apply(eng, false, &took_over, why);
	}
	return 0;
}

/* ---- sampling sessions ---- */

/* The drain outbox: this many bytes of samples per query, at most. */
#define MLX5_DIAG_DRAIN_OUTBOX_BYTES	SZ_128K
/* a sample of every id fits: the 64-bit dialect's entries are 32 bytes */
static_assert(MLX5_DIAG_MAX_IDS * 32 <= MLX5_DIAG_DRAIN_OUTBOX_BYTES);
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
 * without another one.
 */
#define MLX5_DIAG_DRAIN_SLACK		2
/*
 * Nanoseconds of RTC time the estimate converts to clocks at most:
 * ns * freq_khz / 10^6 stays below 2^64 (freq_khz < 2^32). Beyond it the
 * estimate falls short of a period over 2^51 ns / 2^32 kHz, and the drain
 * reads on as for any short estimate.
 */
#define MLX5_DIAG_DRAIN_DUE_MAX_NS	BIT_ULL(51)

/* A counting event of a data ID the session samples rides on its samples. */
static int mlx5_diag_engine_session_ride(struct mlx5_diag_engine *eng, u64 id,
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

/**
 * mlx5_diag_engine_session_program() - start (or restart) the session
 * @eng: the engine
 * @o: the leader's options
 * @clock_now: the device clock (in the session's timestamp source) read
 *	before this call: every sample of the new run is later, every sample
 *	left in the buffer by an earlier run is earlier
 * @actual: what the firmware runs; @actual->ids (caps.max_ids) gets
 *	the session's ids in firmware order
 *
 * Every call starts a new run: sample numbering restarts at 0. Sleeps.
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
	eng->want.enable = true;
	eng->want.mode = o->mode;
	eng->want.sync = o->sync;
	eng->want.clear = o->clear;
	eng->want.rtc = o->rtc;
	eng->want.log_sample_period = o->log_sample_period;
	eng->want.log_num_of_samples =
		min_t(unsigned int, caps->log_max_samples - order_base_2(num),
		      MLX5_DIAG_SESSION_LOG_SLOTS_MAX);
	eng->want.num_ids = num;
	memcpy(eng->want.ids, eng->session.ids, num * sizeof(*eng->want.ids));
	mlx5_diag_engine_unmap(eng);
	eng->session_running = false;
	ret = mlx5_diag_fw_set_params(eng->fw, &eng->want);
	if (ret) {
		why = "the firmware refused the session's configuration";
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
	eng->session_last_ts = clock_now;
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

/**
 * mlx5_diag_engine_session_period() - change a running session's period
 * @eng: the engine
 * @log_sample_period: the new period, log2 of device clocks
 * @actual: the period the firmware runs afterwards
 *
 * The buffer and the sample numbering stay. Sleeps.
 * Return: 0; -EBUSY when the engine does not run the session (not ours any
 * more, or never programmed), -ENODEV when the device is gone; or the errno
 * of the failed command.
 */
int mlx5_diag_engine_session_period(struct mlx5_diag_engine *eng,
				    u8 log_sample_period, u8 *actual)
{
	int ret;

	mutex_lock(&eng->lock);
	if (eng->state != MLX5_DIAG_ENGINE_SESSION) {
		ret = eng->state == MLX5_DIAG_ENGINE_GONE ? -ENODEV : -EBUSY;
		goto out;
	}
	eng->want.log_sample_period = log_sample_period;
	ret = mlx5_diag_fw_set_params(eng->fw, &eng->want);
	if (ret) {
		eng->stats.set_failures++;
		eng->want.log_sample_period = eng->programmed.log_sample_period;
		goto out;
	}
	ret = mlx5_diag_engine_adopt(eng);
	if (ret)
		goto out;
	*actual = eng->programmed.log_sample_period;
out:
	mutex_unlock(&eng->lock);
	return ret;
}

/*
 * The timestamp of entry @i of the decoded sample, extended to 64 bits
 * from the dialect's width (RTC timestamps are 64-bit already), or false
 * when it is older than the last one: a sample of an earlier run, or a
 * slot never written.
 */
static bool mlx5_diag_engine_session_ts(struct mlx5_diag_engine *eng,
					unsigned int i, u64 *ts)
{
	unsigned int bits = eng->fw->dialect->timestamp_bits;
	u64 raw = eng->entries[i].timestamp;

	if (!raw)
		return false;
	if (bits < 64 && !eng->programmed.rtc) {
		u64 mask = (1ULL << bits) - 1;

		if (((raw - eng->session_last_ts) & mask) > mask >> 1)
			return false;
		*ts = mlx5_diag_extend(eng->session_last_ts, raw, bits);
		return true;
	}
	if (raw < eng->session_last_ts)
		return false;
	*ts = raw;
	return true;
}

/*
 * Deliver the decoded sample as d->n, if all its timestamps are of this
 * run. Returns false otherwise.
 */
static bool mlx5_diag_engine_session_take(struct mlx5_diag_engine *eng,
					  struct mlx5_diag_drain *d)
{
	unsigned int i, num = eng->programmed.num_ids;
	u64 *ts = &d->ts[(size_t)d->n * num];
	u64 last = eng->session_last_ts;

	for (i = 0; i < num; i++) {
		if (!mlx5_diag_engine_session_ts(eng, i, &ts[i])) {
			eng->session_last_ts = last;
			return false;
		}
		d->val[(size_t)d->n * num + i] = eng->entries[i].value;
		eng->session_last_ts = max(eng->session_last_ts, ts[i]);
	}
	mlx5_diag_engine_fold(eng);
	d->n++;
	eng->session_next++;
	eng->session_skipped = 0;
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
 * mlx5_diag_engine_session_due() - samples a drain's first query reads
 * @last: the last sample's timestamp (or the clock at program time)
 * @now: the device clock just read, in the same timestamp source
 * @rtc: both are RTC readings (seconds << 32 | ns), else FRC clocks
 * @log_period: the programmed period, log2 of device clocks
 * @freq_khz: the device clock (not 0, checked at probe)
 * @batch: the most one query reads (at least 1)
 *
 * The samples the firmware took after @last by @now at the period, plus
 * MLX5_DIAG_DRAIN_SLACK, at most @batch; @batch when @last or @now is no
 * RTC reading or the period none the firmware runs. An estimate: the
 * drain reads on when it falls short and stops at the first slot not yet
 * written whatever it says.
 *
 * Return: 1 to @batch samples.
 */
unsigned int mlx5_diag_engine_session_due(u64 last, u64 now, bool rtc,
					  u8 log_period, u32 freq_khz,
					  unsigned int batch)
{
	u64 clocks;

	if (log_period > MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD)
		return batch;
	if (rtc && (!mlx5_diag_engine_rtc_ns(last, &last) ||
		    !mlx5_diag_engine_rtc_ns(now, &now)))
		return batch;
	/* a clock before the last sample (stepped back): none due */
	clocks = now > last ? now - last : 0;
	if (rtc)
		clocks = mul_u64_u32_div(min(clocks, MLX5_DIAG_DRAIN_DUE_MAX_NS),
					 freq_khz, NSEC_PER_MSEC);
	clocks = min_t(u64, clocks >> log_period, batch);
	return min_t(u64, clocks + MLX5_DIAG_DRAIN_SLACK, batch);
}

static u64 mlx5_diag_engine_host_ns(void *arg)
{
	return local_clock();
}

/*
 * The size of a drain's first query: a whole batch for the run's first
 * one, which finds out how the firmware reads num_of_samples (see
 * mlx5_diag_engine_query_at()), or when the device clock cannot be read;
 * otherwise the samples due.
 */
static unsigned int
mlx5_diag_engine_session_first_query(struct mlx5_diag_engine *eng)
{
	struct mlx5_diag_clock_read r = {
		.host_clock = mlx5_diag_engine_host_ns,
	};

	if (!eng->reading_known ||
	    mlx5_diag_fw_read_clock(eng->fw, eng->programmed.rtc, &r))
		return eng->session_batch;
	return mlx5_diag_engine_session_due(eng->session_last_ts, r.device,
					    eng->programmed.rtc,
					    eng->programmed.log_sample_period,
					    eng->fw->caps.freq_khz,
					    eng->session_batch);
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

/**
 * mlx5_diag_engine_session_drain() - fetch the session's new samples
 * @eng: the engine
 * @d: @d->cap, @d->ts and @d->val in; the samples out
 *
 * Reads the cyclic buffer from the slot of the next expected sample until
 * it finds a sample not yet written or @d is full: first the samples due
 * by the device clock (mlx5_diag_engine_session_first_query()), then,
 * while a query took every sample it read, twice as many, up to a batch
 * (what the 128 KiB outbox holds, at most the buffer). A slot
 * holding a later lap's sample means the firmware overwrote samples: they
 * are reported in @d->lost_* and the drain goes on from the oldest sample
 * still there. Counting events of the session's ids fold every sample.
 *
 * Bounded: later laps are skipped only before the first sample taken, and
 * a batch that took no sample ends the drain, so one drain skips at most
 * one batch, at most one lap. When MLX5_DIAG_DRAIN_MAX_SKIP_LAPS laps of
 * slots were skipped with no sample taken since (firmware that never lets
 * the drain catch up), @d->stalled tells the caller to end the run.
 *
 * A query that fails ends the drain: @d still holds what the drain fetched
 * before (the caller delivers it), and the next drain goes on from there.
 * Sleeps. Return: 0; -EBUSY when the engine does not run the session (not
 * ours any more, or never programmed), -ENODEV when the device is gone,
 * nothing fetched; or the errno of a failed query (-EAGAIN for RES_BUSY).
 */
int mlx5_diag_engine_session_drain(struct mlx5_diag_engine *eng,
				   struct mlx5_diag_drain *d)
{
	unsigned int bits, nslots, size, want, got, taken, k;
	u64 mask, delta, ts;
	int ret = 0;

	d->n = 0;
	d->lost_count = 0;
	d->full = false;
	d->stalled = false;
	mutex_lock(&eng->lock);
	if (eng->state != MLX5_DIAG_ENGINE_SESSION || !eng->session_running) {
		ret = eng->state == MLX5_DIAG_ENGINE_GONE ? -ENODEV : -EBUSY;
		goto out;
	}
	bits = eng->fw->dialect->sample_id_bits;
	mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	nslots = 1U << eng->programmed.log_num_of_samples;
	d->first_seq = eng->session_next;
	eng->stats.polls++;
	size = mlx5_diag_engine_session_first_query(eng);
	while (d->n < d->cap) {
		taken = d->n;
		want = min(size, d->cap - d->n);
		ret = mlx5_diag_engine_query_at(eng, eng->session_out,
						eng->session_outlen,
						eng->session_next & (nslots - 1),
						want);
		if (ret < 0) {
			/* a busy firmware (RES_BUSY) is no other agent */
			if (ret == -EBUSY)
				ret = -EAGAIN;
			goto done;
		}
		got = ret;
		ret = 0;
		for (k = 0; k < got; k++) {
			mlx5_diag_engine_decode_from(eng, eng->session_out, k);
			delta = (eng->entries[0].sample_id - eng->session_next) &
				mask;
			/*
			 * A later lap's sample of this run (an earlier run's
			 * left in the buffer is older than the clock at
			 * program time, whatever its sample id)
			 */
			if (delta && delta <= mask >> 1 &&
			    !(delta & (nslots - 1)) && !d->n &&
			    mlx5_diag_engine_session_ts(eng, 0, &ts)) {
				/* overwritten: go on from the oldest left */
				if (!d->lost_count)
					d->lost_first = eng->session_next;
				d->lost_count += delta - nslots + 1;
				eng->session_next += delta - nslots + 1;
				d->first_seq = eng->session_next;
				eng->session_skipped++;
				continue;
			}
			if (delta || !mlx5_diag_engine_session_take(eng, d))
				goto done;
		}
		if (got < want || d->n == taken)
			break;
		/* fewer were due than the firmware had: read on, more */
		size = min(2 * size, eng->session_batch);
	}
done:
	if (eng->session_skipped > (u64)MLX5_DIAG_DRAIN_MAX_SKIP_LAPS * nslots)
		d->stalled = true;
	if (eng->programmed.mode == MLX5_DIAG_FW_SINGLE &&
	    eng->session_next >= nslots)
		d->full = true;
out:
	if (d->lost_count)
		eng->stats.lost_samples += d->lost_count;
	if (d->n)
		mlx5_diag_engine_publish(eng);
	mutex_unlock(&eng->lock);
	return ret;
}

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

/**
 * mlx5_diag_engine_count_get() - count data ID @id for one more event
 * @eng: the engine
 * @id: the data ID (or fw counter), validated against the catalog
 * @e: its catalog entry
 * @force: take the engine over from another agent
 * @slot: the slot the event reads
 * @took_over: set when this call displaced another agent's configuration
 *
 * Sleeps. Return: 0 or a negative errno, with the reason logged.
 */
int mlx5_diag_engine_count_get(struct mlx5_diag_engine *eng, u64 id,
			       const struct mlx5_diag_catalog_entry *e,
			       bool force, unsigned int *slot, bool *took_over)
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
	ret = mlx5_diag_engine_apply(eng, force, took_over, &why);
	if (ret) {
		free->users = 0;
		mlx5_diag_engine_slot_free(eng, free);
		goto out;
	}
	eng->users++;
	*slot = free - eng->slots;
out:
	mutex_unlock(&eng->lock);
	if (ret)
		pr_info_ratelimited("%s: event 0x%llx refused: %s\n",
				    eng->fw->name, id, why);
	return ret;
}

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

/* An event was scheduled: a takeover it or others forced is final. Atomic. */
void mlx5_diag_engine_scheduled(struct mlx5_diag_engine *eng)
{
	if (!READ_ONCE(eng->takeover_final))
		WRITE_ONCE(eng->takeover_final, true);
}

/**
 * mlx5_diag_engine_poll() - one refresh: fold new samples, watch ownership
 * @eng: the engine
 *
 * The body of the poll work; KUnit calls it directly. Sleeps.
 */
void mlx5_diag_engine_poll(struct mlx5_diag_engine *eng)
{
	struct mlx5_diag_fw_params off = { .clear = true };
	unsigned int checks = READ_ONCE(mlx5_diag_check_polls);
	const char *why;
	bool took_over;
	int ret;

	mutex_lock(&eng->lock);
	switch (eng->state) {
	case MLX5_DIAG_ENGINE_COUNT:
		if (!eng->programmed.num_ids) {
			/* a failed SET left nothing known programmed */
			if (eng->users)
				mlx5_diag_engine_apply(eng, false, &took_over,
						       &why);
			break;
		}
		ret = mlx5_diag_engine_poll_samples(eng);
		if (ret == -EPROTO || ret == -EIO ||
		    (checks && ++eng->polls_since_check >= checks))
			mlx5_diag_engine_check_owner(eng);
		break;
	case MLX5_DIAG_ENGINE_RELEASING:
		eng->stats.disable_retries++;
		if (!mlx5_diag_fw_set_params(eng->fw, &off)) {
			eng->state = MLX5_DIAG_ENGINE_OFF;
			pr_info("%s: diagnostic engine disabled after %llu retries\n",
				eng->fw->name, eng->stats.disable_retries);
			if (eng->users)
				mlx5_diag_engine_apply(eng, false, &took_over,
						       &why);
		}
		break;
	case MLX5_DIAG_ENGINE_FOREIGN:
		if (eng->users)
			mlx5_diag_engine_foreign_recheck(eng, &why);
		break;
	case MLX5_DIAG_ENGINE_OFF:
		/* open events whose configuration a failed command lost */
		if (eng->users)
			mlx5_diag_engine_apply(eng, false, &took_over, &why);
		break;
	case MLX5_DIAG_ENGINE_GONE:
	case MLX5_DIAG_ENGINE_SESSION:
		break;
	}
	if ((eng->state == MLX5_DIAG_ENGINE_COUNT && eng->programmed.num_ids) ||
	    eng->state == MLX5_DIAG_ENGINE_RELEASING ||
	    (eng->users && (eng->state == MLX5_DIAG_ENGINE_FOREIGN ||
			    eng->state == MLX5_DIAG_ENGINE_OFF ||
			    eng->state == MLX5_DIAG_ENGINE_COUNT)))
		mlx5_diag_engine_kick(eng);
	mutex_unlock(&eng->lock);
}

static void mlx5_diag_engine_poll_work(struct work_struct *work)
{
	mlx5_diag_engine_poll(container_of(to_delayed_work(work),
					   struct mlx5_diag_engine, poll_work));
}

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

/*
 * Every slot's count as of one poll, for a group read in which all
 * siblings must see the same generation. Any context, as
 * mlx5_diag_engine_read().
 */
void mlx5_diag_engine_snapshot(struct mlx5_diag_engine *eng, u64 *values)
{
	unsigned int i, n, seq;

	do {
		seq = raw_read_seqcount_latch(&eng->vseq);
		n = READ_ONCE(eng->nr_published);
		for (i = 0; i < n; i++)
			values[i] = READ_ONCE(eng->vcopy[seq & 1][i]);
	} while (read_seqcount_latch_retry(&eng->vseq, seq));
	for (; i < eng->fw->caps.max_ids; i++)
		values[i] = 0;
}

/*
 * A transaction of @eng begins on this CPU (interrupts off): for a group
 * read, the snapshot is complete before the flag sends reads to it, as an
 * NMI read may land anywhere in between.
 */
void mlx5_diag_engine_txn_start(struct mlx5_diag_engine *eng,
				struct mlx5_diag_engine_txn *txn,
				bool group_read)
{
	if (group_read)
		mlx5_diag_engine_snapshot(eng, txn->values);
	barrier();
	WRITE_ONCE(txn->group_read, group_read);
}

void mlx5_diag_engine_txn_end(struct mlx5_diag_engine_txn *txn)
{
	WRITE_ONCE(txn->group_read, false);
}

/* A slot's count: of the transaction's start while a group read runs. */
u64 mlx5_diag_engine_txn_read(struct mlx5_diag_engine *eng,
			      const struct mlx5_diag_engine_txn *txn,
			      unsigned int slot)
{
	if (READ_ONCE(txn->group_read))
		return txn->values[slot];
	return mlx5_diag_engine_read(eng, slot);
}

/*
 * The device is going: give the engine back while the transport works,
 * then fence the transport. Counts stay frozen for open events.
 */
void mlx5_diag_engine_detach(struct mlx5_diag_engine *eng)
{
	mutex_lock(&eng->lock);
	eng->session_running = false;
	if (mlx5_diag_engine_owned(eng)) {
		mlx5_diag_engine_poll_samples(eng);
		mlx5_diag_engine_release(eng);
		if (eng->state == MLX5_DIAG_ENGINE_RELEASING)
			pr_warn("%s: could not disable the diagnostic engine on removal\n",
				eng->fw->name);
	}
	mlx5_diag_engine_unmap(eng);
	eng->state = MLX5_DIAG_ENGINE_GONE;
	eng->displaced_valid = false;
	mlx5_diag_fw_detach(eng->fw);
	mutex_unlock(&eng->lock);
	cancel_delayed_work_sync(&eng->poll_work);
}

/* The same device is back: counting resumes for the events still open. */
void mlx5_diag_engine_attach(struct mlx5_diag_engine *eng,
			     struct mlx5_diag_aux_dev *aux)
{
	const char *why = NULL;
	bool took_over;
	int ret;

	mutex_lock(&eng->lock);
	mlx5_diag_fw_attach(eng->fw, aux);
	eng->state = MLX5_DIAG_ENGINE_OFF;
	/* a session ended with the removal; its events stay frozen */
	eng->session_running = false;
	if (eng->users && !eng->session_claimed) {
		ret = mlx5_diag_engine_apply(eng, false, &took_over, &why);
		if (ret)
			pr_warn("%s: counting does not resume: %s (%d)\n",
				eng->fw->name, why, ret);
	}
	mutex_unlock(&eng->lock);
}

void mlx5_diag_engine_status(struct mlx5_diag_engine *eng,
			     enum mlx5_diag_engine_state *state,
			     struct mlx5_diag_engine_stats *stats)
{
	mutex_lock(&eng->lock);
	*state = eng->state;
	*stats = eng->stats;
	mutex_unlock(&eng->lock);
}

static u64 *mlx5_diag_engine_ids(u16 n)
{
	return kcalloc(n, sizeof(u64), GFP_KERNEL);
}

int mlx5_diag_engine_init(struct mlx5_diag_engine *eng, struct mlx5_diag_fw *fw,
			  struct workqueue_struct *wq)
{
	u16 max = fw->caps.max_ids;
	unsigned int entries;

	memset(eng, 0, sizeof(*eng));
	eng->fw = fw;
	eng->wq = wq;
	mutex_init(&eng->lock);
	seqcount_latch_init(&eng->vseq);
	INIT_DELAYED_WORK(&eng->poll_work, mlx5_diag_engine_poll_work);
	/* the folded ring is the largest read: 2^LOG_SLOTS samples */
	entries = (1U << MLX5_DIAG_FOLD_LOG_SLOTS) * max;
	eng->outlen = mlx5_diag_fw_query_counters_outlen(fw->dialect, entries);
	eng->out = kvzalloc(eng->outlen, GFP_KERNEL);
	entries = MLX5_DIAG_DRAIN_OUTBOX_BYTES / (fw->dialect->sample_entry_bits / 8);
	eng->session_outlen = mlx5_diag_fw_query_counters_outlen(fw->dialect,
								 entries);
	eng->session_out = kvzalloc(eng->session_outlen, GFP_KERNEL);
	eng->slots = kcalloc(max, sizeof(*eng->slots), GFP_KERNEL);
	eng->vcopy[0] = kcalloc(max, sizeof(u64), GFP_KERNEL);
	eng->vcopy[1] = kcalloc(max, sizeof(u64), GFP_KERNEL);
	eng->fw_slot = kcalloc(max, sizeof(*eng->fw_slot), GFP_KERNEL);
	eng->entries = kcalloc(max, sizeof(*eng->entries), GFP_KERNEL);
	eng->programmed.ids = mlx5_diag_engine_ids(max);
	eng->want.ids = mlx5_diag_engine_ids(max);
	eng->queried.ids = mlx5_diag_engine_ids(max);
	eng->displaced.ids = mlx5_diag_engine_ids(max);
	eng->session.ids = mlx5_diag_engine_ids(max);
	if (!eng->out || !eng->session_out || !eng->session.ids ||
	    !eng->slots || !eng->vcopy[0] || !eng->vcopy[1] ||
	    !eng->fw_slot || !eng->entries ||
	    !eng->programmed.ids || !eng->want.ids || !eng->queried.ids ||
	    !eng->displaced.ids) {
		mlx5_diag_engine_free(eng);
		return -ENOMEM;
	}
	return 0;
}

void mlx5_diag_engine_free(struct mlx5_diag_engine *eng)
{
	kvfree(eng->out);
	kvfree(eng->session_out);
	kfree(eng->session.ids);
	kfree(eng->slots);
	kfree(eng->vcopy[0]);
	kfree(eng->vcopy[1]);
	kfree(eng->fw_slot);
	kfree(eng->entries);
	kfree(eng->programmed.ids);
	kfree(eng->want.ids);
	kfree(eng->queried.ids);
	kfree(eng->displaced.ids);
	mutex_destroy(&eng->lock);
}
