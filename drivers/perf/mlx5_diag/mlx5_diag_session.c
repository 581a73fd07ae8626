// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling sessions: the device's cyclic sample buffer drained into the
 * perf AUX area.
 *
 * A pinned hard hrtimer on the leader's CPU paces; it only queues the drain
 * work on that CPU. The work (process context) issues the firmware commands
 * through the engine, encodes records into a staging buffer, and has them
 * copied into the AUX area on the leader's CPU with interrupts off, where
 * pmu->add/del/start/stop also run, so no perf_aux_output_begin()/end()
 * pair ever interleaves with them. Nothing here issues a firmware command
 * from atomic context.
 *
 * Losses are counted, never hidden: samples the firmware overwrote before a
 * drain (LOST, cause FW_OVERWRITE) and samples that found the AUX area full
 * (LOST, cause AUX_FULL, written when space returns, with
 * PERF_AUX_FLAG_PARTIAL). TRUNCATED is never used: in 6.12 it would stop
 * the event for a loss the stream already reports.
 *
 * Snapshot mode (an AUX area mapped read-only, perf's overwrite mode): the
 * records go in as self-contained chunks (mlx5_diag_rec_put_chunks()) at
 * the free-running head, overwriting the oldest, never short of space. A
 * disable (perf takes a snapshot between DISABLE and ENABLE) pauses the
 * writing, not the run: nothing is written while the leader is disabled,
 * the firmware samples on, and the first drain after ENABLE fetches what it
 * kept and reports what it overwrote in the meantime (LOST, FW_OVERWRITE).
 */
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "mlx5_diag_record.h"
#include "mlx5_diag_session.h"

/* Samples one drain fetches at most. */
#define MLX5_DIAG_DRAIN_MAX_SAMPLES	1024
/* Room kept in the staging buffer for records that are never dropped. */
#define MLX5_DIAG_STAGE_CTRL_BYTES	SZ_8K
/* The AUX area is never filled to the last bytes (CIRC_SPACE, see below). */
#define MLX5_DIAG_AUX_RESERVE		64
/*
 * Bytes one publish copies with interrupts off, at most: records are
 * staged no larger (but for a SAMPLES record of one larger sample).
 */
#define MLX5_DIAG_PUBLISH_BYTES		SZ_64K
#define MLX5_DIAG_DRAIN_MIN_NS		(1 * NSEC_PER_MSEC)
#define MLX5_DIAG_DRAIN_MAX_NS		(32 * NSEC_PER_MSEC)

/* The works a period change answered NO_RES is sent at, in all. */
#define MLX5_DIAG_SESSION_PERIOD_TRIES	8

/* sample_size (__le16) holds a format-0 sample of every id the device has */
static_assert(sizeof(struct mlx5_diag_fmt0_hdr) +
	      MLX5_DIAG_MAX_IDS * sizeof(struct mlx5_diag_fmt0_entry) <= U16_MAX);

static struct workqueue_struct *mlx5_diag_drain_wq;

enum {
	MLX5_DIAG_SESSION_RUNNING,	/* a run is programmed and not ended */
	MLX5_DIAG_SESSION_NEED_RUN,	/* pmu->add: program a new run */
	MLX5_DIAG_SESSION_NEW_PERIOD,	/* PERF_EVENT_IOC_PERIOD */
};

/* The AUX area, mapped contiguously. */
struct mlx5_diag_aux_buf {
	struct mlx5_diag_session *s;	/* whose leader mapped it */
	void *base;
	size_t size;
	bool overwrite;			/* snapshot mode: written as chunks */
};

struct mlx5_diag_session {
	struct mlx5_diag_engine *eng;
	const char *name;		/* the PMU's, in log lines */
	const char *identifier;		/* the device's, in SESSION records */
	struct perf_event *leader;
	struct mlx5_diag_session_req req;
	u64 applied_sample_period;	/* hw.sample_period taken into req */
	struct mutex lock;		/* the work, detach and destroy */
	struct hrtimer timer;
	struct work_struct work;
	u64 interval_ns;
	u64 interval_max_ns;		/* the plan's for the configuration */
	unsigned long flags;
	bool gone;			/* device removed (under lock) */
	bool moving;			/* CPU hotplug moves the leader (under lock) */
	bool disabled_before_move;	/* and it was disabled then (under lock) */
	u32 runs;
	/* NO_RES answers to the change to period_tries_ns (under lock) */
	unsigned int period_tries;
	u64 period_tries_ns;
	struct mlx5_diag_fw_params actual;	/* ids: the session's ids */
	u8 *vclass;
	unsigned int nslots;
	unsigned int drains;
	struct mlx5_diag_drain drain;
	/*
	 * The drain's samples, encoded into the stage as they are taken,
	 * past the records staged (the work's own bytes, see
	 * mlx5_diag_session_drain()): the first SAMPLES record at enc_off,
	 * the others every rec_bytes, each of rec_per samples but the last
	 */
	bool encoding;
	size_t enc_off;
	unsigned int rec_per;
	size_t rec_bytes;
	bool aux_mapped;
	bool aux_overwrite;		/* the last AUX area mapped: snapshot mode */
	/* staged records, and what was written: under stage_lock, irqs off */
	raw_spinlock_t stage_lock;
	u8 *stage;
	size_t stage_len, stage_cap;
	u64 staged_next;		/* seq after the last sample staged */
	struct mlx5_diag_chunk_state chunk;	/* of the records unstaged */
	struct perf_output_handle handle;
};

/* Samples of @num_ids one SAMPLES record holds: within a publish, 1 or more. */
static unsigned int mlx5_diag_session_rec_samples(u8 out_format,
						  unsigned int num_ids)
{
	size_t room = MLX5_DIAG_PUBLISH_BYTES -
		      sizeof(struct mlx5_diag_rec_samples) - MLX5_DIAG_REC_ALIGN;

	return max_t(size_t, 1,
		     room / mlx5_diag_rec_sample_size(out_format, num_ids));
}

/* Bytes @n samples of @num_ids take staged, in records of the size above. */
static size_t mlx5_diag_session_samples_bytes(u8 out_format,
					      unsigned int num_ids,
					      unsigned int n)
{
	unsigned int per = mlx5_diag_session_rec_samples(out_format, num_ids);
	size_t len = (size_t)(n / per) *
		     mlx5_diag_rec_samples_size(out_format, num_ids, per);

	if (n % per)
		len += mlx5_diag_rec_samples_size(out_format, num_ids, n % per);
	return len;
}

static u64 mlx5_diag_session_host_clock(void *arg)
{
	struct perf_event *event = arg;

	return event->clock();
}

/* Clock reads per TIME record: the one with the narrowest bracket counts. */
#define MLX5_DIAG_CLOCK_READS		5

/*
 * Read the device clock in the session's timestamp source, paired with the
 * leader's perf clock. Interrupts are off around each read, but the CPU
 * itself may stall (a hypervisor, SMIs): of a few reads, the tightest pair
 * is kept.
 */
static int mlx5_diag_session_clock(struct mlx5_diag_session *s,
				   struct mlx5_diag_clock_read *r)
{
	struct mlx5_diag_clock_read t = {
		.host_clock = mlx5_diag_session_host_clock,
		.arg = s->leader,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < MLX5_DIAG_CLOCK_READS; i++) {
		ret = mlx5_diag_fw_read_clock(s->eng->fw, s->req.opts.rtc, &t);
		if (ret)
			return ret;
		if (!i || t.host_after - t.host_before <
			  r->host_after - r->host_before)
			*r = t;
	}
	return 0;
}

/* Room for @len more bytes of records; caller holds stage_lock. */
static void *mlx5_diag_session_stage(struct mlx5_diag_session *s, size_t len)
{
	void *p;

	if (s->stage_len + len > s->stage_cap)
		return NULL;
	p = s->stage + s->stage_len;
	s->stage_len += len;
	return p;
}

static void mlx5_diag_aux_copy(struct mlx5_diag_aux_buf *b, u64 head,
			       const void *src, size_t len)
{
	mlx5_diag_rec_ring_copy(b->base, b->size, head, src, len);
}

/*
 * Samples that cannot be written become (or join) a LOST record at @keep,
 * the end of the records kept for the next publish.
 */
static size_t mlx5_diag_session_keep_lost(struct mlx5_diag_session *s,
					  size_t keep, u64 first, u64 count)
{
	struct mlx5_diag_rec_lost *last = NULL;
	size_t pos = 0;

	if (!count)
		return keep;
	while (pos < keep) {
		struct mlx5_diag_rec_hdr *h = (void *)(s->stage + pos);

		last = le16_to_cpu(h->type) == MLX5_DIAG_REC_LOST ?
		       (void *)h : NULL;
		pos += le32_to_cpu(h->size);
	}
	if (last && le32_to_cpu(last->cause) == MLX5_DIAG_LOST_AUX_FULL &&
	    le64_to_cpu(last->first_seq) + le64_to_cpu(last->count) == first) {
		le64_add_cpu(&last->count, count);
		return keep;
	}
	return keep + mlx5_diag_rec_put_lost(s->stage + keep, first, count,
					     MLX5_DIAG_LOST_AUX_FULL);
}

/*
 * Write the first samples of @r that fit in @avail bytes of the AUX area as
 * a record of their own. Returns how many.
 */
static unsigned int mlx5_diag_session_write_part(struct mlx5_diag_session *s,
						 struct mlx5_diag_aux_buf *b,
						 const struct mlx5_diag_rec_samples *r,
						 size_t avail, size_t *written)
{
	static const u8 zero[MLX5_DIAG_REC_ALIGN];
	struct mlx5_diag_rec_samples part = *r;
	size_t ssize = le16_to_cpu(r->sample_size), size, body;
	unsigned int fit;

	if (avail <= sizeof(part) || !ssize)
		return 0;
	fit = min_t(size_t, le32_to_cpu(r->nr_samples),
		    (avail - sizeof(part)) / ssize);
	while (fit && ALIGN(sizeof(part) + fit * ssize, MLX5_DIAG_REC_ALIGN) >
		      avail)
		fit--;
	if (!fit)
		return 0;
	body = fit * ssize;
	size = ALIGN(sizeof(part) + body, MLX5_DIAG_REC_ALIGN);
	part.hdr.size = cpu_to_le32(size);
	part.nr_samples = cpu_to_le32(fit);
	mlx5_diag_aux_copy(b, s->handle.head + *written, &part, sizeof(part));
	mlx5_diag_aux_copy(b, s->handle.head + *written + sizeof(part), r + 1,
			   body);
	mlx5_diag_aux_copy(b, s->handle.head + *written + sizeof(part) + body,
			   zero, size - sizeof(part) - body);
	*written += size;
	return fit;
}

/* The staged records leave unwritten: nobody reads the stream. */
static void mlx5_diag_session_discard(struct mlx5_diag_session *s)
{
	size_t pos;

	for (pos = 0; pos < s->stage_len;
	     pos += le32_to_cpu(((struct mlx5_diag_rec_hdr *)(s->stage + pos))->size))
		mlx5_diag_rec_chunk_track(&s->chunk, s->stage + pos);
	s->stage_len = 0;
}

/*
 * Snapshot mode: the staged records go in, as chunks, MLX5_DIAG_PUBLISH_BYTES
 * at a time, at the free-running head that perf_aux_output_end() publishes. No
 * PERF_RECORD_AUX (size 0, no flag but OVERWRITE): a publish every few
 * milliseconds would fill the data ring of a recorder that reads the area
 * only on demand; losses are in the stream.
 */
static void mlx5_diag_session_publish_chunks(struct mlx5_diag_session *s,
					     struct mlx5_diag_aux_buf *b)
{
	size_t len = 0, size;

	/* whole records, MLX5_DIAG_PUBLISH_BYTES or one at most */
	while (len < s->stage_len) {
		size = le32_to_cpu(((struct mlx5_diag_rec_hdr *)(s->stage + len))->size);
		if (len && len + size > MLX5_DIAG_PUBLISH_BYTES)
			break;
		len += size;
	}
	s->handle.head = mlx5_diag_rec_put_chunks(&s->chunk, s->stage, len,
						  b->base, b->size,
						  s->handle.head);
	memmove(s->stage, s->stage + len, s->stage_len - len);
	s->stage_len -= len;
	/* the reader must see the records before the new aux_head */
	smp_wmb();
	perf_aux_output_end(&s->handle, 0);
}

/*
 * Copy the staged records into the AUX area, on the leader's CPU with
 * interrupts off, stage_lock held. Records that do not fit: samples become
 * an AUX_FULL loss, their TIME record goes, the others stay staged; all in
 * stream order, so the area's reader sees the loss before what follows it.
 * What would take the copy past MLX5_DIAG_PUBLISH_BYTES stays staged as it
 * is, for the next publish.
 */
static void mlx5_diag_session_publish_locked(struct mlx5_diag_session *s)
{
	struct mlx5_diag_aux_buf *b;
	size_t pos = 0, keep = 0, written = 0, space = 0;
	bool blocked = false, partial = false;

	lockdep_assert_irqs_disabled();
	if (!s->stage_len)
		return;
	b = perf_aux_output_begin(&s->handle, s->leader);
	if (!b && !READ_ONCE(s->aux_mapped)) {
		/* no AUX area (stock perf record): nobody reads the stream */
		mlx5_diag_session_discard(s);
		return;
	}
	if (b && b->overwrite) {
		mlx5_diag_session_publish_chunks(s, b);
		return;
	}
	/* handle.size is CIRC_SPACE: never let it reach 0 (6.12 disables) */
	if (b && s->handle.size > MLX5_DIAG_AUX_RESERVE)
		space = s->handle.size - MLX5_DIAG_AUX_RESERVE;
	while (pos < s->stage_len) {
		struct mlx5_diag_rec_hdr *h = (void *)(s->stage + pos);
		size_t size = le32_to_cpu(h->size);
		u16 type = le16_to_cpu(h->type);

		if (!blocked && written &&
		    written + size > MLX5_DIAG_PUBLISH_BYTES) {
			memmove(s->stage + keep, h, s->stage_len - pos);
			keep += s->stage_len - pos;
			break;
		}
		pos += size;
		if (!blocked && written + size <= space) {
			mlx5_diag_aux_copy(b, s->handle.head + written, h, size);
			written += size;
			partial |= type == MLX5_DIAG_REC_LOST;
			mlx5_diag_rec_chunk_track(&s->chunk, h);
			continue;
		}
		if (type == MLX5_DIAG_REC_SAMPLES) {
			struct mlx5_diag_rec_samples *r = (void *)h;
			unsigned int fit = 0;

			if (!blocked)
				fit = mlx5_diag_session_write_part(s, b, r,
								   space - written,
								   &written);
			keep = mlx5_diag_session_keep_lost(s, keep,
							   le64_to_cpu(r->first_seq) + fit,
							   le32_to_cpu(r->nr_samples) - fit);
		} else if (type != MLX5_DIAG_REC_TIME) {
			memmove(s->stage + keep, h, size);
			keep += size;
		} else {
			mlx5_diag_rec_chunk_track(&s->chunk, h);
		}
		blocked = true;
	}
	s->stage_len = keep;
	if (!b)
		return;
	if (partial)
		perf_aux_output_flag(&s->handle, PERF_AUX_FLAG_PARTIAL);
	/* the reader must see the records before the new aux_head */
	smp_wmb();
	perf_aux_output_end(&s->handle, written);
}

/*
 * A stopped leader takes no records (perf may stop and start it around a
 * period change or an AUX unmap), unless it was disabled: then its last
 * records, END included, are written for the reader that drains it. In
 * snapshot mode a disabled leader's area is being copied: it takes none.
 */
static void mlx5_diag_session_publish_ipi(void *arg)
{
	struct mlx5_diag_session *s = arg;

	if ((READ_ONCE(s->leader->hw.state) & PERF_HES_STOPPED) &&
	    (READ_ONCE(s->leader->state) > PERF_EVENT_STATE_OFF ||
	     READ_ONCE(s->aux_overwrite)))
		return;
	raw_spin_lock(&s->stage_lock);
	mlx5_diag_session_publish_locked(s);
	raw_spin_unlock(&s->stage_lock);
}

/* Publish in pieces of MLX5_DIAG_PUBLISH_BYTES while each one takes some. */
static void mlx5_diag_session_publish(struct mlx5_diag_session *s)
{
	size_t before;

	do {
		before = READ_ONCE(s->stage_len);
		smp_call_function_single(READ_ONCE(s->leader->cpu),
					 mlx5_diag_session_publish_ipi, s, 1);
	} while (READ_ONCE(s->stage_len) && READ_ONCE(s->stage_len) < before);
}

/* End the run with an END record; caller holds stage_lock. */
static void mlx5_diag_session_end_locked(struct mlx5_diag_session *s,
					 u32 reason)
{
	void *p;

	if (!test_and_clear_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags))
		return;
	p = mlx5_diag_session_stage(s, sizeof(struct mlx5_diag_rec_end));
	if (p)
		mlx5_diag_rec_put_end(p, s->staged_next, reason);
}

static void mlx5_diag_session_end(struct mlx5_diag_session *s, u32 reason)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&s->stage_lock, flags);
	mlx5_diag_session_end_locked(s, reason);
	raw_spin_unlock_irqrestore(&s->stage_lock, flags);
}

/*
 * A TIME record of clock read @r. The device clock read r->device at some
 * host instant in [host_before, host_after]; the tick r->device began at
 * most one tick before it. So the midpoint is off from the start of the
 * tick by at most half the bracket, rounded up, plus one tick (FRC: a clock
 * period, rounded up; RTC: 1 ns): the uncertainty the record states, and
 * the bound a decoder's error budget starts from.
 */
static void mlx5_diag_session_put_time(struct mlx5_diag_session *s,
				       const struct mlx5_diag_clock_read *r)
{
	void *p = mlx5_diag_session_stage(s, sizeof(struct mlx5_diag_rec_time));
	u64 span = r->host_after - r->host_before;
	u64 tick = s->req.opts.rtc ? 1 :
		   DIV_ROUND_UP(NSEC_PER_MSEC, s->eng->fw->caps.freq_khz);

	if (p)
		mlx5_diag_rec_put_time(p, r->device, r->host_before + span / 2,
				       span - span / 2 + tick);
}

/*
 * The drain interval for the running configuration, the longest one the
 * drains go back to (mlx5_diag_engine_session_interval()).
 */
static void mlx5_diag_session_plan_interval(struct mlx5_diag_session *s)
{
	u64 period = mlx5_diag_rec_period_ns(s->actual.log_sample_period,
					     s->eng->fw->caps.freq_khz);
	u64 ns;

	/*
	 * The buffer holds twice a retrieval, twice again for jitter. A
	 * period over 4 * MLX5_DIAG_DRAIN_MAX_NS gives the longest interval
	 * whatever the buffer: bounded so, period * nslots (2^15 at most)
	 * and period * drain.cap stay far below 2^64.
	 */
	period = min_t(u64, period, 4 * MLX5_DIAG_DRAIN_MAX_NS);
	ns = period * s->nslots / 4;
	ns = min(ns, period * s->drain.cap / 2);
	s->interval_max_ns = clamp_t(u64, ns, MLX5_DIAG_DRAIN_MIN_NS,
				     MLX5_DIAG_DRAIN_MAX_NS);
	WRITE_ONCE(s->interval_ns, s->interval_max_ns);
}

/* Program a new run: SESSION and TIME records start it. */
static void mlx5_diag_session_run(struct mlx5_diag_session *s)
{
	struct mlx5_diag_caps *caps = &s->eng->fw->caps;
	struct mlx5_diag_rec_session_info info;
	struct mlx5_diag_clock_read before, r;
	unsigned long flags;
	unsigned int i;
	void *p;
	int ret;

	clear_bit(MLX5_DIAG_SESSION_NEW_PERIOD, &s->flags);
	s->period_tries = 0;
	s->req.opts.log_sample_period =
		mlx5_diag_engine_session_log_period(caps,
						    READ_ONCE(s->req.period_ns));
	ret = mlx5_diag_session_clock(s, &before);
	if (!ret)
		ret = mlx5_diag_engine_session_program(s->eng,
						       &s->req.opts,
						       before.device,
						       &s->actual);
	if (!ret)
		ret = mlx5_diag_session_clock(s, &r);
	if (ret) {
		pr_warn_ratelimited("%s: sampling session not started (%d): no samples until it is enabled again\n",
				    s->name, ret);
		return;
	}
	for (i = 0; i < s->actual.num_ids; i++) {
		const struct mlx5_diag_catalog_entry *e =
			mlx5_diag_catalog_find(s->actual.ids[i]);

		s->vclass[i] = e ? e->class : MLX5_DIAG_VCLASS_COUNTER;
	}
	s->nslots = 1U << s->actual.log_num_of_samples;
	s->drain.cap = min(s->nslots, MLX5_DIAG_DRAIN_MAX_SAMPLES);
	mlx5_diag_session_plan_interval(s);
	s->drains = 0;
	info = (struct mlx5_diag_rec_session_info) {
		.freq_khz = caps->freq_khz,
		.mode = s->actual.mode == MLX5_DIAG_FW_SINGLE ?
			MLX5_DIAG_MODE_SINGLE : MLX5_DIAG_MODE_REPETITIVE,
		.sync = s->actual.sync,
		.clear = s->actual.clear,
		.out_format = s->req.out_format,
		.ts_source = s->actual.rtc ? MLX5_DIAG_TS_RTC : MLX5_DIAG_TS_FRC,
		.log_sample_period = s->actual.log_sample_period,
		.log_num_of_samples = s->actual.log_num_of_samples,
		.fw_sample_id_bits = s->eng->fw->dialect->sample_id_bits,
		.run = s->runs++,
		.period_ns_requested = READ_ONCE(s->req.period_ns),
		.period_ns_actual =
			mlx5_diag_rec_period_ns(s->actual.log_sample_period,
						caps->freq_khz),
		.identifier = s->identifier,
	};
	raw_spin_lock_irqsave(&s->stage_lock, flags);
	p = mlx5_diag_session_stage(s, mlx5_diag_rec_session_size(s->actual.num_ids));
	if (p) {
		mlx5_diag_rec_put_session(p, &info, s->actual.num_ids,
					  s->actual.ids, s->vclass);
		mlx5_diag_session_put_time(s, &r);
		s->staged_next = 0;
		set_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags);
	}
	raw_spin_unlock_irqrestore(&s->stage_lock, flags);
	if (!p)
		pr_warn_ratelimited("%s: no room for the session's first records: the AUX area is not read\n",
				    s->name);
}

/*
 * Stage a LOST record of @count samples from @first; caller holds
 * stage_lock. The stage keeps room for it (MLX5_DIAG_STAGE_CTRL_BYTES).
 */
static bool mlx5_diag_session_stage_lost(struct mlx5_diag_session *s,
					 u64 first, u64 count, u32 cause)
{
	void *p = mlx5_diag_session_stage(s, sizeof(struct mlx5_diag_rec_lost));

	if (WARN_ON_ONCE(!p))
		return false;
	mlx5_diag_rec_put_lost(p, first, count, cause);
	s->staged_next = first + count;
	return true;
}

/* The run samples at 2^@actual clocks now: the drain interval follows. */
static void mlx5_diag_session_follow_period(struct mlx5_diag_session *s,
					    u8 actual)
{
	s->actual.log_sample_period = actual;
	mlx5_diag_session_plan_interval(s);
}

/*
 * From the next sample staged on, the run samples at 2^@actual clocks,
 * @req_ns asked: the drain interval follows, and a PERIOD record stamped
 * @dev_time says so in the stream (while the run runs).
 */
static void mlx5_diag_session_stage_period(struct mlx5_diag_session *s,
					   u64 dev_time, u64 req_ns, u8 actual)
{
	unsigned long flags;
	void *p;

	mlx5_diag_session_follow_period(s, actual);
	raw_spin_lock_irqsave(&s->stage_lock, flags);
	p = mlx5_diag_session_stage(s, sizeof(struct mlx5_diag_rec_period));
	if (p && test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags))
		mlx5_diag_rec_put_period(p, s->staged_next, dev_time, req_ns,
					 mlx5_diag_rec_period_ns(actual,
								 s->eng->fw->caps.freq_khz),
					 actual);
	else if (p)
		s->stage_len -= sizeof(struct mlx5_diag_rec_period);
	raw_spin_unlock_irqrestore(&s->stage_lock, flags);
}

/*
 * The drain takes sample d->n (mlx5_diag_engine_session_drain(), under the
 * engine's lock): it is encoded in place in its SAMPLES record, in the
 * bytes past the staged records that mlx5_diag_session_drain() set aside.
 */
static void mlx5_diag_session_take(struct mlx5_diag_drain *d)
{
	struct mlx5_diag_session *s = container_of(d, struct mlx5_diag_session,
						   drain);
	u8 f = s->req.out_format;
	unsigned int num = s->actual.num_ids;

	if (!s->encoding)
		return;
	mlx5_diag_rec_put_sample(s->stage + s->enc_off +
				 (size_t)(d->n / s->rec_per) * s->rec_bytes +
				 mlx5_diag_rec_sample_offset(f, num,
							     d->n % s->rec_per),
				 f, num, s->actual.ids, d->first_seq + d->n,
				 d->ts, d->val);
}

/*
 * Fetch new samples and stage them, after a TIME record read after them.
 * While the stage has no room for them (the AUX area's reader lags), they
 * stay in the firmware's buffer, which holds them a while longer. The
 * run's last drains (@last) fetch them anyway: what has no room becomes an
 * AUX_FULL loss, so that END accounts for every sample taken.
 */
static void mlx5_diag_session_drain(struct mlx5_diag_session *s, bool last)
{
	struct mlx5_diag_drain *d = &s->drain;
	struct mlx5_diag_clock_read r;
	unsigned int num = s->actual.num_ids;
	u8 f = s->req.out_format;
	size_t need = sizeof(struct mlx5_diag_rec_lost) +
		      sizeof(struct mlx5_diag_rec_time) +
		      mlx5_diag_session_samples_bytes(f, num, d->cap);
	size_t staged, len = 0;
	void *p, *enc = NULL;
	unsigned long flags;
	int ret, clock_ret;
	unsigned int k;
	bool room;

	/*
	 * Only this work (s->lock) stages records; a publish only unstages,
	 * moving what it keeps within the staged bytes: room seen here stays
	 * until the samples are staged, and the bytes past those staged now
	 * are this work's alone. The samples are encoded there as they are
	 * taken (mlx5_diag_session_take()), after room for their TIME
	 * record, with interrupts on; staging them moves them only when the
	 * records before them are not those foreseen (a LOST record, no
	 * TIME record, or a publish meanwhile).
	 */
	staged = READ_ONCE(s->stage_len);
	room = staged + need + MLX5_DIAG_STAGE_CTRL_BYTES <= s->stage_cap;
	s->encoding = room;
	s->enc_off = staged + sizeof(struct mlx5_diag_rec_time);
	s->rec_per = mlx5_diag_session_rec_samples(f, num);
	s->rec_bytes = mlx5_diag_rec_samples_size(f, num, s->rec_per);
	d->n = 0;
	d->lost_count = 0;
	if (!room && !last)
		return;
	ret = mlx5_diag_engine_session_drain(s->eng, d);
	if (ret == -EBUSY) {
		mlx5_diag_session_end(s, MLX5_DIAG_END_TAKEN);
		return;
	}
	if (ret)
		pr_warn_ratelimited("%s: sampling drain failed (%d) after %u sample(s), %llu lost: those go in the stream, the next drain goes on from there\n",
				    s->name, ret, d->n, d->lost_count);
	WRITE_ONCE(s->interval_ns,
		   mlx5_diag_engine_session_interval(s->interval_ns,
						     MLX5_DIAG_DRAIN_MIN_NS,
						     s->interval_max_ns,
						     d->n + d->lost_count,
						     s->nslots));
	if (!d->n && !d->lost_count)
		goto period;
	/* without a TIME record after them, they are mapped by the last two */
	clock_ret = d->n && room ? mlx5_diag_session_clock(s, &r) : 0;
	if (clock_ret)
		pr_warn_ratelimited("%s: device clock unreadable (%d): %u sample(s) go in the stream without a TIME record after them\n",
				    s->name, clock_ret, d->n);
	raw_spin_lock_irqsave(&s->stage_lock, flags);
	if (test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags)) {
		/*
		 * The samples follow the records staged now and the LOST and
		 * TIME records staged here: moved there first, when they are
		 * not there already, before those records are written
		 */
		if (d->n && room) {
			len = mlx5_diag_session_samples_bytes(f, num, d->n);
			enc = s->stage + s->stage_len +
			      (d->lost_count ? sizeof(struct mlx5_diag_rec_lost) : 0) +
			      (clock_ret ? 0 : sizeof(struct mlx5_diag_rec_time));
			if (enc != s->stage + s->enc_off)
				memmove(enc, s->stage + s->enc_off, len);
		}
		if (d->lost_count &&
		    !mlx5_diag_session_stage_lost(s, d->lost_first,
						  d->lost_count,
						  MLX5_DIAG_LOST_FW_OVERWRITE))
			goto unlock;
		if (d->n && !room) {
			if (!mlx5_diag_session_stage_lost(s, d->first_seq, d->n,
							  MLX5_DIAG_LOST_AUX_FULL))
				goto unlock;
		} else if (d->n) {
			if (!clock_ret)
				mlx5_diag_session_put_time(s, &r);
			/* room was checked: the stage takes them where they are */
			p = mlx5_diag_session_stage(s, len);
			if (WARN_ON_ONCE(p != enc)) {
				if (p)
					s->stage_len -= len;
				goto unlock;
			}
			for (k = 0; k < d->n; k += s->rec_per, p += s->rec_bytes)
				mlx5_diag_rec_put_samples_frame(p, f, num,
								d->first_seq + k,
								min(s->rec_per,
								    d->n - k));
			s->staged_next = d->first_seq + d->n;
		}
		if (d->full)
			mlx5_diag_session_end_locked(s, MLX5_DIAG_END_FULL);
		if (d->stalled)
			mlx5_diag_session_end_locked(s, MLX5_DIAG_END_STALLED);
	}
unlock:
	raw_spin_unlock_irqrestore(&s->stage_lock, flags);
	if (d->lost_count)
		pr_warn_ratelimited("%s: firmware overwrote %llu sample(s) before the drain read them (in the stream as a LOST record)\n",
				    s->name, d->lost_count);
	if (d->stalled)
		pr_warn_ratelimited("%s: the firmware's buffer stays a lap ahead of the drain: the run ends (END, stalled)\n",
				    s->name);
period:
	/*
	 * QUERY_DIAGNOSTIC_PARAMS did not report the period the samples show
	 * (learnt from an answer whose samples may be taken at the next drain)
	 */
	if (d->log_period_learnt)
		mlx5_diag_session_stage_period(s, d->period_ts,
					       READ_ONCE(s->req.period_ns),
					       d->log_period_learnt);
}

/*
 * The run ends: what the firmware took up to now is fetched, drain after
 * drain while each one comes back full or only skipped slots; bounded by
 * the drains a buffer of samples (and the laps a drain may skip) takes.
 */
static void mlx5_diag_session_drain_last(struct mlx5_diag_session *s)
{
	struct mlx5_diag_drain *d = &s->drain;
	unsigned int i, drains;

	if (!test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags))
		return;
	/* a run sets both, cap = min(nslots, MLX5_DIAG_DRAIN_MAX_SAMPLES) */
	drains = s->nslots / d->cap + MLX5_DIAG_DRAIN_MAX_SKIP_LAPS;
	for (i = 0; i <= drains; i++) {
		mlx5_diag_session_drain(s, true);
		if (!test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags))
			return;
		if (d->n < d->cap && (d->n || !d->lost_count))
			return;
	}
}

/*
 * PERF_EVENT_IOC_PERIOD: the firmware's period changes while it runs. A
 * period that rounds to the one running reprograms nothing (a SET could
 * restart the firmware's sample numbering); the PERIOD record still tells
 * the stream the period requested, with the actual one unchanged. A change
 * the drains are not ready for waits for the next work, and so does one
 * the firmware had no resources for (NO_RES), up to
 * MLX5_DIAG_SESSION_PERIOD_TRIES works in all; one the firmware refuses
 * is not sent again: one line, the run goes on at its period, with no
 * PERIOD record.
 */
static void mlx5_diag_session_new_period(struct mlx5_diag_session *s)
{
	struct mlx5_diag_caps *caps = &s->eng->fw->caps;
	u64 req = READ_ONCE(s->req.period_ns);
	struct mlx5_diag_clock_read r;
	u8 log, actual;
	int ret;

	/* another change asked meanwhile gets its own tries */
	if (req != s->period_tries_ns) {
		s->period_tries = 0;
		s->period_tries_ns = req;
	}
	log = mlx5_diag_engine_session_log_period(caps, req);
	ret = mlx5_diag_engine_session_period(s->eng, log, &actual);
	/*
	 * the drains have yet to see the run's period or to follow the last
	 * change, or the firmware had no resources for the SET: at the next
	 * work (NO_RES, MLX5_DIAG_SESSION_PERIOD_TRIES times in all)
	 */
	if (ret == -EINPROGRESS ||
	    (ret == -EAGAIN &&
	     ++s->period_tries < MLX5_DIAG_SESSION_PERIOD_TRIES)) {
		set_bit(MLX5_DIAG_SESSION_NEW_PERIOD, &s->flags);
		return;
	}
	s->period_tries = 0;
	if (ret) {
		pr_warn_ratelimited("%s: the sample period could not be changed (%d): the run goes on at its period\n",
				    s->name, ret);
		return;
	}
	ret = mlx5_diag_session_clock(s, &r);
	if (ret) {
		pr_warn_ratelimited("%s: the sample period changed, but the device clock is unreadable (%d): no PERIOD record\n",
				    s->name, ret);
		mlx5_diag_session_follow_period(s, actual);
		return;
	}
	mlx5_diag_session_stage_period(s, r.device, req, actual);
}

static void mlx5_diag_session_work(struct work_struct *work)
{
	struct mlx5_diag_session *s = container_of(work, struct mlx5_diag_session,
						   work);
	unsigned int checks = mlx5_diag_engine_check_polls();

	mutex_lock(&s->lock);
	if (s->gone)
		goto out;
	/*
	 * perf moves the leader to another CPU: it is off every context (its
	 * state OFF, as if disabled) until installed there, and its AUX area
	 * is then stopped by nobody. The run neither ends nor is published
	 * meanwhile; the leader's start on its new CPU queues the work again.
	 */
	if (s->moving)
		goto out;
	/*
	 * Disabled (not just scheduled out and in again), or disabled before
	 * a move (6.12 enables the events it moves): the run ends; in
	 * snapshot mode it goes on, unwritten until the leader is enabled.
	 */
	if (READ_ONCE(s->leader->state) <= PERF_EVENT_STATE_OFF ||
	    s->disabled_before_move) {
		s->disabled_before_move = false;
		if (READ_ONCE(s->aux_overwrite))
			goto out;
		mlx5_diag_session_drain_last(s);
		mlx5_diag_session_end(s, MLX5_DIAG_END_STOPPED);
		goto publish;
	}
	if (test_and_clear_bit(MLX5_DIAG_SESSION_NEED_RUN, &s->flags) &&
	    !test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags))
		mlx5_diag_session_run(s);
	if (!test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags))
		goto publish;
	mlx5_diag_session_drain(s, false);
	/* a run the drain ended (single mode full): the next starts at it */
	if (test_bit(MLX5_DIAG_SESSION_RUNNING, &s->flags) &&
	    test_and_clear_bit(MLX5_DIAG_SESSION_NEW_PERIOD, &s->flags))
		mlx5_diag_session_new_period(s);
	if (checks && ++s->drains >= checks) {
		s->drains = 0;
		if (!mlx5_diag_engine_session_owned(s->eng))
			mlx5_diag_session_end(s, MLX5_DIAG_END_TAKEN);
	}
publish:
	mlx5_diag_session_publish(s);
out:
	mutex_unlock(&s->lock);
}

static enum hrtimer_restart mlx5_diag_session_tick(struct hrtimer *t)
{
	struct mlx5_diag_session *s = container_of(t, struct mlx5_diag_session,
						   timer);

	if (READ_ONCE(s->leader->hw.state) & PERF_HES_STOPPED)
		return HRTIMER_NORESTART;
	queue_work_on(smp_processor_id(), mlx5_diag_drain_wq, &s->work);
	hrtimer_forward_now(t, ns_to_ktime(READ_ONCE(s->interval_ns)));
	return HRTIMER_RESTART;
}

/* Does the session start its samples in sync (member validation)? */
bool mlx5_diag_session_sync(struct mlx5_diag_session *s)
{
	return s->req.opts.sync;
}

/*
 * pmu->add of the leader (atomic): unless a run is going on (perf
 * rescheduled the group, or re-enabled it before the work saw it
 * disabled), the next work programs a new run.
 */
void mlx5_diag_session_add(struct mlx5_diag_session *s)
{
	set_bit(MLX5_DIAG_SESSION_NEED_RUN, &s->flags);
}

/* pmu->start of the leader (atomic, the leader's CPU). */
void mlx5_diag_session_start(struct mlx5_diag_session *s)
{
	u64 sp = s->leader->hw.sample_period;

	if (sp != s->applied_sample_period) {
		s->applied_sample_period = sp;
		WRITE_ONCE(s->req.period_ns, sp);
		set_bit(MLX5_DIAG_SESSION_NEW_PERIOD, &s->flags);
	}
	hrtimer_start(&s->timer, ns_to_ktime(READ_ONCE(s->interval_ns)),
		      HRTIMER_MODE_REL_PINNED_HARD);
	queue_work_on(smp_processor_id(), mlx5_diag_drain_wq, &s->work);
}

/* pmu->stop of the leader: may run inside the timer callback. */
void mlx5_diag_session_stop(struct mlx5_diag_session *s)
{
	hrtimer_try_to_cancel(&s->timer);
}

/*
 * pmu->del of the leader (the leader's CPU, interrupts off): what was
 * fetched is written. perf also deletes and adds a group to reschedule its
 * CPU context (another event of the PMU enabled there), which must not end
 * the run: the work, queued here, tells a disable (the leader's state is
 * then OFF) and ends the run with END.
 */
void mlx5_diag_session_del(struct mlx5_diag_session *s)
{
	hrtimer_cancel(&s->timer);
	raw_spin_lock(&s->stage_lock);
	mlx5_diag_session_publish_locked(s);
	raw_spin_unlock(&s->stage_lock);
	queue_work_on(smp_processor_id(), mlx5_diag_drain_wq, &s->work);
}

/*
 * The device is going, while the transport still works: the last samples
 * are fetched and the stream ends with END (device removed).
 */
void mlx5_diag_session_detach(struct mlx5_diag_session *s)
{
	mutex_lock(&s->lock);
	mlx5_diag_session_drain_last(s);
	mlx5_diag_session_end(s, MLX5_DIAG_END_REMOVED);
	s->gone = true;
	mlx5_diag_session_publish(s);
	mutex_unlock(&s->lock);
}

/**
 * mlx5_diag_session_moving() - CPU hotplug moves the PMU's events, or is done
 * @s: the session
 * @moving: true before perf_pmu_migrate_context(), false after it
 *
 * Set under the session's lock, which the work holds throughout: no
 * drain, END or publish overlaps the move. A leader disabled when the move
 * begins has its run ended after it, as if it had stayed disabled. Sleeps.
 */
void mlx5_diag_session_moving(struct mlx5_diag_session *s, bool moving)
{
	mutex_lock(&s->lock);
	if (moving)
		s->disabled_before_move =
			READ_ONCE(s->leader->state) <= PERF_EVENT_STATE_OFF;
	s->moving = moving;
	mutex_unlock(&s->lock);
}

static void mlx5_diag_session_free(struct mlx5_diag_session *s)
{
	kfree(s->chunk.session);
	kvfree(s->stage);
	kfree(s->vclass);
	kfree(s->actual.ids);
	kfree(s->drain.ts);
	kfree(s->drain.val);
	mutex_destroy(&s->lock);
	kfree(s);
}

/**
 * mlx5_diag_session_create() - a session for a sampling leader
 * @eng: the device's engine
 * @name: the PMU's name, for log lines
 * @identifier: the device's identifier, for SESSION records
 * @leader: the leader event (its validation done)
 * @req: its options
 * @sp: the session
 *
 * Claims the engine; the leader's own data ID is added by the caller.
 * Sleeps. Return: 0 or a negative errno.
 */
int mlx5_diag_session_create(struct mlx5_diag_engine *eng, const char *name,
			     const char *identifier, struct perf_event *leader,
			     const struct mlx5_diag_session_req *req,
			     struct mlx5_diag_session **sp)
{
	u16 max = eng->fw->caps.max_ids;
	struct mlx5_diag_session *s;
	bool took_over;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->eng = eng;
	s->name = name;
	s->identifier = identifier;
	s->leader = leader;
	s->req = *req;
	s->applied_sample_period = leader->attr.sample_period;
	mutex_init(&s->lock);
	raw_spin_lock_init(&s->stage_lock);
	INIT_WORK(&s->work, mlx5_diag_session_work);
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s->timer.function = mlx5_diag_session_tick;
	s->interval_ns = MLX5_DIAG_DRAIN_MIN_NS;
	s->interval_max_ns = MLX5_DIAG_DRAIN_MIN_NS;
	s->stage_cap = mlx5_diag_session_samples_bytes(MLX5_DIAG_FORMAT_0, max,
						       MLX5_DIAG_DRAIN_MAX_SAMPLES) +
		       2 * MLX5_DIAG_STAGE_CTRL_BYTES;
	s->stage = kvzalloc(s->stage_cap, GFP_KERNEL);
	s->chunk.session_cap = mlx5_diag_rec_session_size(max);
	s->chunk.session = kzalloc(s->chunk.session_cap, GFP_KERNEL);
	s->vclass = kcalloc(max, sizeof(*s->vclass), GFP_KERNEL);
	s->actual.ids = kcalloc(max, sizeof(*s->actual.ids), GFP_KERNEL);
	s->drain.ts = kcalloc(max, sizeof(*s->drain.ts), GFP_KERNEL);
	s->drain.val = kcalloc(max, sizeof(*s->drain.val), GFP_KERNEL);
	s->drain.take = mlx5_diag_session_take;
	ret = -ENOMEM;
	if (!s->stage || !s->chunk.session || !s->vclass || !s->actual.ids ||
	    !s->drain.ts || !s->drain.val)
		goto err;
	ret = mlx5_diag_engine_session_claim(eng, req->force, &took_over);
	if (ret)
		goto err;
	*sp = s;
	return 0;
err:
	mlx5_diag_session_free(s);
	return ret;
}

/* The leader goes (process context): stop everything, give the engine back. */
void mlx5_diag_session_destroy(struct mlx5_diag_session *s)
{
	hrtimer_cancel(&s->timer);
	cancel_work_sync(&s->work);
	mlx5_diag_engine_session_release(s->eng);
	mlx5_diag_session_free(s);
}

/*
 * The AUX area of a session leader, mapped contiguously. In snapshot
 * (overwrite) mode it holds two of the largest chunks the session may
 * need (any group the device takes, in the session's format); otherwise
 * the largest SESSION record (a group of every ID the device takes) and
 * the bytes always kept free, or the stream could never start.
 */
void *mlx5_diag_session_setup_aux(struct mlx5_diag_session *s, void **pages,
				  int nr_pages, bool overwrite)
{
	struct mlx5_diag_aux_buf *b;
	struct page **pglist;
	size_t min;
	int i;

	if (!is_power_of_2(nr_pages)) {
		pr_info_ratelimited("%s: AUX area refused: %d pages, not a power of two\n",
				    s->name, nr_pages);
		return NULL;
	}
	min = 2 * mlx5_diag_rec_chunk_min(s->req.out_format,
					  s->eng->fw->caps.max_ids);
	if (overwrite && ((size_t)nr_pages << PAGE_SHIFT) < min) {
		pr_info_ratelimited("%s: AUX area refused: snapshot mode needs %zu bytes or more (two chunks of %u data IDs in format %u), %d pages have %lu\n",
				    s->name, min,
				    s->eng->fw->caps.max_ids, s->req.out_format,
				    nr_pages, (unsigned long)nr_pages << PAGE_SHIFT);
		return NULL;
	}
	min = mlx5_diag_rec_session_size(s->eng->fw->caps.max_ids) +
	      MLX5_DIAG_AUX_RESERVE;
	if (!overwrite && ((size_t)nr_pages << PAGE_SHIFT) <= min) {
		pr_info_ratelimited("%s: AUX area refused: more than %zu bytes needed (a SESSION record of %u data IDs, %d bytes kept free), %d pages have %lu\n",
				    s->name, min,
				    s->eng->fw->caps.max_ids, MLX5_DIAG_AUX_RESERVE,
				    nr_pages, (unsigned long)nr_pages << PAGE_SHIFT);
		return NULL;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	pglist = kcalloc(nr_pages, sizeof(*pglist), GFP_KERNEL);
	if (!b || !pglist)
		goto err;
	for (i = 0; i < nr_pages; i++)
		pglist[i] = virt_to_page(pages[i]);
	b->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	if (!b->base)
		goto err;
	b->s = s;
	b->size = (size_t)nr_pages << PAGE_SHIFT;
	b->overwrite = overwrite;
	kfree(pglist);
	WRITE_ONCE(s->aux_overwrite, overwrite);
	WRITE_ONCE(s->aux_mapped, true);
	return b;
err:
	kfree(pglist);
	kfree(b);
	return NULL;
}

/*
 * The leader's AUX area goes (unmapped, the leader still there: its mmap
 * holds its file): records are discarded again until another is mapped.
 */
void mlx5_diag_session_free_aux(void *aux)
{
	struct mlx5_diag_aux_buf *b = aux;

	WRITE_ONCE(b->s->aux_mapped, false);
	WRITE_ONCE(b->s->aux_overwrite, false);
	vunmap(b->base);
	kfree(b);
}

int mlx5_diag_session_init(void)
{
	mlx5_diag_drain_wq = alloc_workqueue("mlx5_diag_drain", WQ_HIGHPRI, 0);
	return mlx5_diag_drain_wq ? 0 : -ENOMEM;
}

void mlx5_diag_session_exit(void)
{
	destroy_workqueue(mlx5_diag_drain_wq);
}
