// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnostic engine of one device, its state machine: the
 * configuration planner, apply (what open events count, programmed with
 * SET_DIAGNOSTIC_PARAMS), release, and the ownership checks against other
 * agents (takeover, FOREIGN and its end, removal and return of the
 * device). Counting is in mlx5_diag_engine_count.c, sampling sessions in
 * mlx5_diag_engine_session.c: all three under the engine's one lock, in its
 * one state. Everything here sleeps.
 */
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "mlx5_diag_compat.h"
#include "mlx5_diag_engine_int.h"

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

/* Samples of the folded poll period in one refresh interval, at least. */
#define MLX5_DIAG_FOLD_SAMPLES_PER_POLL	4

/*
 * Folded counting's buffer and period for @nr data IDs (order_base_2(@nr)
 * below caps->log_max_samples): 2^MLX5_DIAG_FOLD_LOG_SLOTS samples, less
 * where the ids would not fit, about a quarter of @refresh_ms apart.
 */
static void mlx5_diag_engine_fold_shape(const struct mlx5_diag_caps *caps,
					unsigned int nr,
					unsigned int refresh_ms,
					struct mlx5_diag_fw_params *p)
{
	u64 clocks;

	p->log_num_of_samples = min_t(unsigned int, MLX5_DIAG_FOLD_LOG_SLOTS,
				      caps->log_max_samples - order_base_2(nr));
	/* num_of_samples is 16 bits, and may count entries */
	while (p->log_num_of_samples &&
	       (nr << p->log_num_of_samples) > U16_MAX)
		p->log_num_of_samples--;
	clocks = div_u64((u64)refresh_ms * caps->freq_khz,
			 MLX5_DIAG_FOLD_SAMPLES_PER_POLL);
	p->log_sample_period = clamp_t(unsigned int, clocks ? ilog2(clocks) : 0,
				       caps->log_min_sample_period,
				       MLX5_DIAG_MAX_LOG_SAMPLE_PERIOD);
}

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
VISIBLE_IF_KUNIT int
mlx5_diag_engine_plan(const struct mlx5_diag_engine_plan *in,
		      struct mlx5_diag_fw_params *p, const char **why)
{
	const struct mlx5_diag_caps *caps = in->caps;
	unsigned int i, j;

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
	if (order_base_2(in->nr_count) >= caps->log_max_samples) {
		*why = "the firmware buffer is too small for this many data IDs";
		return -ENOSPC;
	}
	p->mode = MLX5_DIAG_FW_REPETITIVE;
	mlx5_diag_engine_fold_shape(caps, in->nr_count, in->refresh_ms, p);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_plan);

bool mlx5_diag_engine_owned(const struct mlx5_diag_engine *eng)
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
void mlx5_diag_engine_unmap(struct mlx5_diag_engine *eng)
{
	unsigned int i;

	eng->programmed.num_ids = 0;
	for (i = 0; i < eng->fw->caps.max_ids; i++)
		eng->slots[i].in_fw = false;
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
 * Firmware, queried right after a SET of ours (or a failed one), runs a
 * configuration that is not ours or that counting cannot poll: FOREIGN,
 * left alone as another agent's, counted in engine/foreign_configs. The
 * caller logs why.
 */
static void mlx5_diag_engine_not_ours(struct mlx5_diag_engine *eng)
{
	eng->stats.foreign_configs++;
	eng->state = MLX5_DIAG_ENGINE_FOREIGN;
	mlx5_diag_engine_unmap(eng);
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
int mlx5_diag_engine_adopt(struct mlx5_diag_engine *eng)
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
	mlx5_diag_engine_not_ours(eng);
	eng->session_running = false;
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

/**
 * mlx5_diag_engine_disable_params() - the disable: enable = 0, clear = 1
 * @caps: the device's capabilities
 * @p: filled in; no ids
 *
 * Nothing public says which of the SET's other rules firmware checks on a
 * disable (the period range, rule 4, names no exception, unlike rule 3's
 * clear), so the disable carries what an enabling SET may: a periodic mode
 * the device offers (single, else repetitive; never on_demand, which
 * rule 2 forbids with clear) and the device's minimum period. Pure.
 */
VISIBLE_IF_KUNIT void
mlx5_diag_engine_disable_params(const struct mlx5_diag_caps *caps,
				struct mlx5_diag_fw_params *p)
{
	p->enable = false;
	p->mode = caps->single || !caps->repetitive ? MLX5_DIAG_FW_SINGLE :
						      MLX5_DIAG_FW_REPETITIVE;
	p->sync = false;
	p->clear = true;
	p->rtc = false;
	p->log_num_of_samples = 0;
	p->log_sample_period = caps->log_min_sample_period;
	p->num_ids = 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_disable_params);

static u64 mlx5_diag_engine_host_ns(void *arg)
{
	return local_clock();
}

/*
 * Read the device clock in @rtc's timestamp source (the RTC, else the
 * free-running counter) into *@clock. Sleeps. Returns 0 or an errno.
 */
int mlx5_diag_engine_device_clock(struct mlx5_diag_engine *eng, bool rtc,
				  u64 *clock)
{
	struct mlx5_diag_clock_read r = {
		.host_clock = mlx5_diag_engine_host_ns,
	};
	int ret;

	ret = mlx5_diag_fw_read_clock(eng->fw, rtc, &r);
	if (!ret)
		*clock = r.device;
	return ret;
}

/* SET the disable. Returns 0 or the errno of the failed command. */
static int mlx5_diag_engine_disable(struct mlx5_diag_engine *eng)
{
	struct mlx5_diag_fw_params off = {};

	mlx5_diag_engine_disable_params(&eng->fw->caps, &off);
	return mlx5_diag_fw_set_params(eng->fw, &off);
}

/*
 * The enabling SET of a new configuration @p, with the disable with clear
 * before it where @p fills the buffer (repetitive or single mode, A5): no
 * source says what an enabling SET does to the samples the buffer holds,
 * of the configuration before it or of another agent's; mlx5ctl documents
 * the disable with clear as emptying it. So every sample in the buffer is
 * of the new configuration, whatever the firmware makes of the SET. Not
 * for a period-only SET (A8: it keeps the buffer and the run; not sent
 * here) nor an on-demand configuration (it reads no buffer). The device
 * clock is read before the SET is sent and after its answer: the
 * configuration started between eng->run_set_sent and eng->run_set_clock
 * (not known after a refusal). The SET's answer teaches data clear
 * (mlx5_diag_fw_learn_clear()). Returns 0, or the errno of the refused
 * command, *@why saying which; a refused disable leaves the SET unsent.
 */
int mlx5_diag_engine_set_new(struct mlx5_diag_engine *eng,
			     const struct mlx5_diag_fw_params *p,
			     const char **why)
{
	bool fills = p->enable && p->mode != MLX5_DIAG_FW_ON_DEMAND;
	bool sent_known = false;
	u64 sent = 0;
	int ret = 0;

	eng->run_set_known = false;
	if (fills)
		ret = mlx5_diag_engine_disable(eng);
	if (ret) {
		*why = "the firmware refused the disable with clear that empties its buffer first";
		return ret;
	}
	if (fills)
		sent_known = !mlx5_diag_engine_device_clock(eng, p->rtc, &sent);
	ret = mlx5_diag_fw_set_params(eng->fw, p);
	mlx5_diag_fw_learn_clear(eng->fw, p, ret);
	if (ret) {
		*why = "the firmware refused the configuration";
		return ret;
	}
	if (fills)
		eng->run_set_known =
			!mlx5_diag_engine_device_clock(eng, p->rtc,
						       &eng->run_set_clock);
	eng->run_set_sent = sent_known ? sent : eng->run_set_clock;
	return 0;
}

/* Give the engine back: the disable, enable = 0 and clear = 1. */
void mlx5_diag_engine_release(struct mlx5_diag_engine *eng)
{
	mlx5_diag_engine_unmap(eng);
	eng->displaced_valid = false;
	if (!mlx5_diag_engine_owned(eng)) {
		if (eng->state != MLX5_DIAG_ENGINE_GONE)
			eng->state = MLX5_DIAG_ENGINE_OFF;
		return;
	}
	if (mlx5_diag_engine_disable(eng)) {
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
 * What firmware holds after a failed SET is not ours, or counting cannot
 * poll it (mlx5_diag_engine_not_ours()), logged with @why. Open events'
 * counts stop until it is released.
 */
static void mlx5_diag_engine_learnt_foreign(struct mlx5_diag_engine *eng,
					    const char *why)
{
	const struct mlx5_diag_fw_params *q = &eng->queried;

	mlx5_diag_engine_not_ours(eng);
	pr_warn_ratelimited("%s: a SET failed and the firmware runs a configuration %s (%u data IDs, 2^%u samples, period 2^%u clocks): not ours, left alone; counts of open events stop until it is released\n",
			    eng->fw->name, why, q->num_ids,
			    q->log_num_of_samples, q->log_sample_period);
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
		mlx5_diag_engine_learnt_foreign(eng, "counting cannot poll");
		return;
	}
	for (i = 0; i < eng->queried.num_ids; i++) {
		for (s = 0; s < eng->fw->caps.max_ids; s++)
			if (eng->slots[s].users > eng->slots[s].members &&
			    eng->slots[s].id == eng->queried.ids[i])
				break;
		if (s == eng->fw->caps.max_ids) {
			mlx5_diag_engine_learnt_foreign(eng,
							"with data IDs no event counts");
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

/**
 * mlx5_diag_engine_fold_placeable() - can a new id's open be folded?
 * @eng: the engine, the new id's slot taken
 * @why: set to the reason where not
 *
 * On a device seen numbering its samples by slot index (engine/slot_ids),
 * folded counting places its samples by time (A1): the buffer that the
 * ids wanted would be planned (mlx5_diag_engine_plan()) must be one time
 * can read, else the open is refused before any command. Asked at the
 * open of an id not yet counted only: a configuration accepted before
 * goes on as it was.
 *
 * Return: 0, or -ENOSPC.
 */
int mlx5_diag_engine_fold_placeable(struct mlx5_diag_engine *eng,
				    const char **why)
{
	const struct mlx5_diag_caps *caps = &eng->fw->caps;
	unsigned int nr = mlx5_diag_engine_wanted(eng);
	struct mlx5_diag_fw_params p = {};

	lockdep_assert_held(&eng->lock);
	if (!READ_ONCE(eng->fw->slot_ids) || eng->session_claimed ||
	    caps->on_demand || !caps->repetitive ||
	    order_base_2(nr) >= caps->log_max_samples)
		return 0;
	mlx5_diag_engine_fold_shape(caps, nr, mlx5_diag_engine_refresh_ms(),
				    &p);
	if (mlx5_diag_engine_slots_placeable(eng, p.log_num_of_samples, false,
					     p.log_sample_period))
		return 0;
	*why = "slot-index ids (engine/slot_ids): no fold buffer time can place";
	return -ENOSPC;
}

/*
 * Program the firmware with every id open events count, or disable it when
 * none is left. What the old configuration counted is banked first. An
 * engine enabled by another agent is taken over only when @force.
 */
int mlx5_diag_engine_apply(struct mlx5_diag_engine *eng, bool force,
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
	ret = mlx5_diag_engine_set_new(eng, &eng->want, why);
	if (ret) {
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
int mlx5_diag_engine_foreign_recheck(struct mlx5_diag_engine *eng,
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

/* An event was scheduled: a takeover it or others forced is final. Atomic. */
void mlx5_diag_engine_scheduled(struct mlx5_diag_engine *eng)
{
	if (!READ_ONCE(eng->takeover_final))
		WRITE_ONCE(eng->takeover_final, true);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_scheduled);

/*
 * A counting poll's outcome, the firmware still running our configuration.
 * An answer it could not use (-EPROTO: a sample without the configured ids
 * in order, a short answer) counts nothing; the first of a row of them is
 * logged and counted in engine/unusable_answers, the rest are not.
 */
static void mlx5_diag_engine_poll_answer(struct mlx5_diag_engine *eng,
					 int ret)
{
	if (ret != -EPROTO) {
		if (!ret)
			eng->poll_unusable = false;
		return;
	}
	if (eng->poll_unusable)
		return;
	eng->poll_unusable = true;
	eng->stats.unusable_answers++;
	if (eng->programmed.mode == MLX5_DIAG_FW_ON_DEMAND)
		pr_warn_ratelimited("%s: counting poll: the firmware's answer does not start with a sample of the configured data IDs in order: counts stop until it does (engine/unusable_answers)\n",
				    eng->fw->name);
	else
		pr_warn_ratelimited("%s: counting poll: the firmware's answer does not hold every slot of the ring with the configured data IDs in order: counts stop until it does (engine/unusable_answers)\n",
				    eng->fw->name);
}

/**
 * mlx5_diag_engine_poll() - one refresh: fold new samples, watch ownership
 * @eng: the engine
 *
 * The body of the poll work; KUnit calls it directly. Sleeps.
 */
VISIBLE_IF_KUNIT void mlx5_diag_engine_poll(struct mlx5_diag_engine *eng)
{
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
		if (eng->state == MLX5_DIAG_ENGINE_COUNT)
			mlx5_diag_engine_poll_answer(eng, ret);
		break;
	case MLX5_DIAG_ENGINE_RELEASING:
		eng->stats.disable_retries++;
		if (!mlx5_diag_engine_disable(eng)) {
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
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_poll);

static void mlx5_diag_engine_poll_work(struct work_struct *work)
{
	mlx5_diag_engine_poll(container_of(to_delayed_work(work),
					   struct mlx5_diag_engine, poll_work));
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
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_detach);

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
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_attach);

void mlx5_diag_engine_status(struct mlx5_diag_engine *eng,
			     enum mlx5_diag_engine_state *state,
			     struct mlx5_diag_engine_stats *stats)
{
	mutex_lock(&eng->lock);
	*state = eng->state;
	*stats = eng->stats;
	mutex_unlock(&eng->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_status);

/* The device was removed; under the lock, so ordered against the removal. */
bool mlx5_diag_engine_gone(struct mlx5_diag_engine *eng)
{
	bool gone;

	mutex_lock(&eng->lock);
	gone = eng->state == MLX5_DIAG_ENGINE_GONE;
	mutex_unlock(&eng->lock);
	return gone;
}

void mlx5_diag_engine_learnt(struct mlx5_diag_engine *eng,
			     struct mlx5_diag_engine_learnt *l)
{
	mutex_lock(&eng->lock);
	if (!eng->reading_known)
		l->reading = MLX5_DIAG_READING_UNKNOWN;
	else if (eng->entries_reading)
		l->reading = MLX5_DIAG_READING_ENTRIES;
	else
		l->reading = MLX5_DIAG_READING_SAMPLES;
	l->sample_id_bits = eng->seq_bits;
	l->entry_order = eng->entry_order;
	l->sample_id_start = eng->seq_start;
	mutex_unlock(&eng->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_learnt);

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
	eng->seq_bits = fw->dialect->sample_id_bits;
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
	eng->session_slot0_outlen =
		mlx5_diag_fw_query_counters_outlen(fw->dialect, max);
	eng->session_slot0_out = kzalloc(eng->session_slot0_outlen, GFP_KERNEL);
	eng->slots = kcalloc(max, sizeof(*eng->slots), GFP_KERNEL);
	eng->vcopy[0] = kcalloc(max, sizeof(u64), GFP_KERNEL);
	eng->vcopy[1] = kcalloc(max, sizeof(u64), GFP_KERNEL);
	eng->fw_slot = kcalloc(max, sizeof(*eng->fw_slot), GFP_KERNEL);
	eng->entries = kcalloc(max, sizeof(*eng->entries), GFP_KERNEL);
	eng->raw = kcalloc(max, sizeof(*eng->raw), GFP_KERNEL);
	eng->order = kcalloc(max, sizeof(*eng->order), GFP_KERNEL);
	eng->order_used = bitmap_zalloc(max, GFP_KERNEL);
	eng->programmed.ids = mlx5_diag_engine_ids(max);
	eng->want.ids = mlx5_diag_engine_ids(max);
	eng->queried.ids = mlx5_diag_engine_ids(max);
	eng->displaced.ids = mlx5_diag_engine_ids(max);
	eng->session.ids = mlx5_diag_engine_ids(max);
	if (!eng->out || !eng->session_out || !eng->session_slot0_out ||
	    !eng->session.ids ||
	    !eng->slots || !eng->vcopy[0] || !eng->vcopy[1] ||
	    !eng->fw_slot || !eng->entries || !eng->raw || !eng->order ||
	    !eng->order_used ||
	    !eng->programmed.ids || !eng->want.ids || !eng->queried.ids ||
	    !eng->displaced.ids) {
		mlx5_diag_engine_free(eng);
		return -ENOMEM;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_init);

void mlx5_diag_engine_free(struct mlx5_diag_engine *eng)
{
	kvfree(eng->out);
	kvfree(eng->session_out);
	kfree(eng->session_slot0_out);
	kfree(eng->session.ids);
	kfree(eng->slots);
	kfree(eng->vcopy[0]);
	kfree(eng->vcopy[1]);
	kfree(eng->fw_slot);
	kfree(eng->entries);
	kfree(eng->raw);
	kfree(eng->order);
	bitmap_free(eng->order_used);
	kfree(eng->programmed.ids);
	kfree(eng->want.ids);
	kfree(eng->queried.ids);
	kfree(eng->displaced.ids);
	mutex_destroy(&eng->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_diag_engine_free);
