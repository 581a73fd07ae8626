// SPDX-License-Identifier: GPL-2.0
/*
 * The mlx5_diag AUX record decoder: records in, items out, resumable at
 * any byte of the input and at any item of the output.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5diag.h"

__extension__ typedef unsigned __int128 u128;

#define NSEC_PER_SEC	1000000000ull
#define HDR_SIZE	sizeof(struct mlx5_diag_rec_hdr)

/* What decode_record() tells the loop. */
enum record_result {
	RECORD_DONE,		/* every item of the record is out */
	RECORD_STOP,		/* done, and the call stops here (SESSION) */
	RECORD_PARTIAL,		/* the item array filled inside the record */
};

/* ---- little-endian field access ---- */

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

/* A field of a record struct of the uapi header, read from bytes. */
#define FIELD16(rec, type, field) get_le16((rec) + offsetof(type, field))
#define FIELD32(rec, type, field) get_le32((rec) + offsetof(type, field))
#define FIELD64(rec, type, field) get_le64((rec) + offsetof(type, field))
#define FIELD8(rec, type, field) ((rec)[offsetof(type, field)])

static size_t min_record_size(unsigned int type)
{
	switch (type) {
	case MLX5_DIAG_REC_SESSION:
		return sizeof(struct mlx5_diag_rec_session);
	case MLX5_DIAG_REC_SAMPLES:
		return sizeof(struct mlx5_diag_rec_samples);
	case MLX5_DIAG_REC_TIME:
		return sizeof(struct mlx5_diag_rec_time);
	case MLX5_DIAG_REC_LOST:
		return sizeof(struct mlx5_diag_rec_lost);
	case MLX5_DIAG_REC_PERIOD:
		return sizeof(struct mlx5_diag_rec_period);
	case MLX5_DIAG_REC_END:
		return sizeof(struct mlx5_diag_rec_end);
	case MLX5_DIAG_REC_SYNC:
		return sizeof(struct mlx5_diag_rec_sync);
	default:
		return 0;
	}
}

/* Bytes of one sample in FORMAT with NUM_IDS data IDs. */
static uint64_t sample_size_of(unsigned int format, unsigned int num_ids)
{
	switch (format) {
	case MLX5_DIAG_FORMAT_0:
		return sizeof(struct mlx5_diag_fmt0_hdr) +
		       (uint64_t)num_ids * sizeof(struct mlx5_diag_fmt0_entry);
	case MLX5_DIAG_FORMAT_1:
		return sizeof(struct mlx5_diag_fmt12_hdr) + (uint64_t)num_ids * 8;
	default:
		return sizeof(struct mlx5_diag_fmt12_hdr) + (uint64_t)num_ids * 4;
	}
}

/* ---- errors ---- */

static int fail(struct mlx5diag_decoder *dec, uint64_t offset, int err,
		const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct mlx5diag_decoder *dec, uint64_t offset, int err,
		const char *fmt, ...)
{
	va_list ap;

	dec->error = err;
	dec->error_offset = offset;
	va_start(ap, fmt);
	vsnprintf(dec->error_message, sizeof(dec->error_message), fmt, ap);
	va_end(ap);
	return err;
}

/* ---- time ---- */

/* A device timestamp (ts_h, ts_l) in the session's normalised unit. */
static inline uint64_t dev_time_of(const struct mlx5diag_decoder *dec,
				   uint32_t ts_h, uint32_t ts_l)
{
	if (dec->session.ts_source == MLX5_DIAG_TS_RTC)
		return ts_h * NSEC_PER_SEC + ts_l;
	return (uint64_t)ts_h << 32 | ts_l;
}

/*
 * The divisor of the time mapping, set with the time points: a divide by
 * a 64-bit divisor costs tens of cycles, and format 0 maps each value's
 * own time. Division by an invariant integer (Granlund and Montgomery,
 * "Division by Invariant Integers using Multiplication", PLDI 1994,
 * figure 4.1): for 1 <= den < 2^64, l = ceil(log2 den), magic =
 * floor(2^64 * (2^l - den) / den) + 1, and for every 64-bit n
 *   n / den = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0),
 *   t = (magic * n) >> 64.
 */
static void time_map_set(struct mlx5diag_decoder *dec, uint64_t num,
			 uint64_t den)
{
	unsigned int l = den > 1 ? 64 - (unsigned int)__builtin_clzll(den - 1) : 0;

	dec->map_num = num;
	dec->map_den = den;
	dec->map_magic = (uint64_t)((((u128)1 << l) - den) * ((u128)1 << 64) /
				    den + 1);
	dec->map_sh1 = (uint8_t)(l < 1 ? l : 1);
	dec->map_sh2 = (uint8_t)(l > 1 ? l - 1 : 0);
}

/* The mapping of the time points: nominal with one, measured with two. */
static void time_map_update(struct mlx5diag_decoder *dec)
{
	if (dec->nr_time_points >= 2)
		time_map_set(dec, dec->time_last.perf_time - dec->time_prev.perf_time,
			     dec->time_last.dev_time - dec->time_prev.dev_time);
	else if (dec->session.ts_source == MLX5_DIAG_TS_RTC)
		time_map_set(dec, 1, 1);
	else
		time_map_set(dec, 1000000, dec->session.freq_khz);
}

/* a * b / map_den, rounded down, saturated at UINT64_MAX. */
static inline uint64_t mul_div(const struct mlx5diag_decoder *dec, uint64_t a,
			       uint64_t b)
{
	uint64_t product, t;
	u128 wide;

	if (!__builtin_mul_overflow(a, b, &product)) {
		t = (uint64_t)(((u128)dec->map_magic * product) >> 64);
		return (t + ((product - t) >> dec->map_sh1)) >> dec->map_sh2;
	}
	wide = (u128)a * b / dec->map_den;
	return wide > UINT64_MAX ? UINT64_MAX : (uint64_t)wide;
}

static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Device time D to perf time (returned), with its MLX5DIAG_F_TIME_* flags
 * and the bound mlx5diag_perf_time_bound() states. Anchored at the latest
 * TIME record: perf = last.perf -/+ |d - last.dev| * map_num / map_den, the
 * offset rounded down, saturated at 0 and UINT64_MAX. The bound, with two
 * time points (map_den is then their span): with f = (last.dev - d) /
 * span, |1 - f| * last.uncertainty + |f| * prev.uncertainty, + 3.
 * Inlined where values are made: most of a format 0 value's work.
 */
static inline __attribute__((always_inline)) uint64_t
time_of(const struct mlx5diag_decoder *dec, uint64_t d, uint32_t *flags,
	uint64_t *bound)
{
	const struct mlx5diag_time_point *last = &dec->time_last;
	const struct mlx5diag_time_point *prev = &dec->time_prev;
	uint64_t span = dec->map_den, a, wl, perf;

	*bound = UINT64_MAX;
	if (dec->nr_time_points >= 2)
		*flags = d < prev->dev_time || d > last->dev_time ?
			 MLX5DIAG_F_TIME_EXTRAPOLATED : 0;
	else if (dec->nr_time_points)
		*flags = MLX5DIAG_F_TIME_NOMINAL |
			 (d != last->dev_time ? MLX5DIAG_F_TIME_EXTRAPOLATED : 0);
	else
		return *flags = 0;
	if (d <= last->dev_time) {
		a = last->dev_time - d;		/* f = a / span */
		wl = a <= span ? span - a : a - span;
		perf = mul_div(dec, a, dec->map_num);
		perf = perf > last->perf_time ? 0 : last->perf_time - perf;
	} else {
		a = d - last->dev_time;		/* f = -a / span */
		wl = add_sat(span, a);
		perf = add_sat(last->perf_time, mul_div(dec, a, dec->map_num));
	}
	/* two points never share a device time (decode_time) */
	if (dec->nr_time_points >= 2)
		*bound = add_sat(add_sat(mul_div(dec, last->uncertainty_ns, wl),
					 mul_div(dec, prev->uncertainty_ns, a)), 3);
	return perf;
}

uint64_t mlx5diag_dev_to_perf_time(const struct mlx5diag_decoder *dec,
				   uint64_t d, uint32_t *flags)
{
	uint64_t bound;

	return time_of(dec, d, flags, &bound);
}

uint64_t mlx5diag_perf_time_bound(const struct mlx5diag_decoder *dec,
				  uint64_t d)
{
	uint64_t bound;
	uint32_t flags;

	time_of(dec, d, &flags, &bound);
	return bound;
}

/* ---- items ---- */

static struct mlx5diag_item *new_item(struct mlx5diag_decoder *dec,
				      struct mlx5diag_item *items, size_t *n,
				      unsigned int kind)
{
	struct mlx5diag_item *it = &items[(*n)++];

	memset(it, 0, sizeof(*it));
	it->kind = (uint8_t)kind;
	it->run = dec->session.run;
	return it;
}

/*
 * The run's samples next_seq .. UPTO - 1 were not delivered. LOST records
 * since the last delivered sample account for pending_lost of them (their
 * ranges are contiguous but may come in any order); the rest get one LOST
 * item of cause MLX5DIAG_LOST_UNACCOUNTED, numbered from the first sample
 * no LOST record covers. Once per record: rec_gap_done survives a stop
 * inside the record.
 */
static void gap_item(struct mlx5diag_decoder *dec, struct mlx5diag_item *items,
		     size_t *n, uint64_t upto)
{
	uint64_t gap, first = dec->next_seq;
	struct mlx5diag_item *it;

	if (dec->rec_gap_done || dec->seq_unknown || upto <= dec->next_seq)
		return;
	gap = upto - dec->next_seq;
	if (dec->pending_lost >= gap)
		return;
	if (dec->pending_lost && dec->pending_lost_first <= dec->next_seq &&
	    dec->pending_lost_end > first)
		first = dec->pending_lost_end;
	it = new_item(dec, items, n, MLX5DIAG_ITEM_LOST);
	it->seq = first;
	it->lost.count = gap - dec->pending_lost;
	it->lost.cause = MLX5DIAG_LOST_UNACCOUNTED;
	dec->rec_gap_done = 1;
}

/* Samples up to UPTO - 1 are accounted for: start counting LOST afresh. */
static void settle_lost(struct mlx5diag_decoder *dec, uint64_t upto)
{
	if (upto > dec->next_seq)
		dec->next_seq = upto;
	dec->pending_lost = 0;
	dec->pending_lost_first = 0;
	dec->pending_lost_end = 0;
}

/* ---- records ---- */

/*
 * A SESSION record flagged MLX5_DIAG_SESSION_F_CHUNK repeats the open
 * run's at the start of a chunk: it must be that run, described the same
 * (its period fields follow PERIOD records, which said it already). No
 * item; the TIME records right after it that repeat the decoder's two
 * time points give none either and change nothing.
 */
static int continue_session(struct mlx5diag_decoder *dec, const uint8_t *rec,
			    uint64_t offset)
{
	typedef struct mlx5_diag_rec_session S;
	const struct mlx5diag_session *s = &dec->session;
	uint32_t run = FIELD32(rec, S, run);
	const char *what = NULL;
	const uint8_t *id = rec + sizeof(S);
	unsigned int i;

	if (!dec->run_open)
		return fail(dec, offset, -EPROTO,
			    "SESSION repeat of run %u after the END of run %u",
			    run, s->run);
	if (run != s->run)
		return fail(dec, offset, -EPROTO,
			    "SESSION repeat of run %u in run %u", run, s->run);
	if (FIELD16(rec, S, num_ids) != s->num_ids)
		what = "num_ids";
	else if (FIELD32(rec, S, freq_khz) != s->freq_khz)
		what = "freq_khz";
	else if (FIELD8(rec, S, mode) != s->mode ||
		 FIELD8(rec, S, sync) != s->sync ||
		 FIELD8(rec, S, clear) != s->clear)
		what = "mode, sync or clear";
	else if (FIELD8(rec, S, out_format) != s->out_format ||
		 FIELD8(rec, S, ts_source) != s->ts_source)
		what = "out_format or ts_source";
	else if (FIELD8(rec, S, log_num_of_samples) != s->log_num_of_samples ||
		 FIELD8(rec, S, fw_sample_id_bits) != s->fw_sample_id_bits)
		what = "log_num_of_samples or fw_sample_id_bits";
	else if (memcmp(rec + offsetof(S, identifier), s->identifier, 32))
		what = "identifier";
	for (i = 0; !what && i < s->num_ids;
	     i++, id += sizeof(struct mlx5_diag_rec_id))
		if (get_le64(id) != dec->ids[i].data_id ||
		    id[offsetof(struct mlx5_diag_rec_id, vclass)] !=
		    dec->ids[i].vclass)
			what = "data IDs";
	if (what)
		return fail(dec, offset, -EPROTO,
			    "SESSION repeat of run %u differs from the run's SESSION in %s",
			    run, what);
	dec->chunk_repeat = 1;
	return RECORD_DONE;
}

static int decode_session(struct mlx5diag_decoder *dec, const uint8_t *rec,
			  uint32_t size, uint64_t offset,
			  struct mlx5diag_item *items, size_t *n)
{
	typedef struct mlx5_diag_rec_session S;
	struct mlx5diag_session *s = &dec->session;
	uint16_t abi = FIELD16(rec, S, abi_version);
	uint16_t num_ids = FIELD16(rec, S, num_ids);
	uint64_t want = sizeof(S) + (uint64_t)num_ids * sizeof(struct mlx5_diag_rec_id);
	uint8_t format = FIELD8(rec, S, out_format);
	uint8_t ts_source = FIELD8(rec, S, ts_source);
	uint32_t freq_khz = FIELD32(rec, S, freq_khz);
	uint32_t flags = FIELD32(rec, S, flags);
	const uint8_t *id;
	unsigned int i;

	if (abi != MLX5_DIAG_ABI_VERSION)
		return fail(dec, offset, -EPROTONOSUPPORT,
			    "SESSION of abi_version %u (this decoder knows %u)",
			    abi, MLX5_DIAG_ABI_VERSION);
	if (!num_ids)
		return fail(dec, offset, -EBADMSG, "SESSION with no data ID");
	if (size != want)
		return fail(dec, offset, -EBADMSG,
			    "SESSION of %u bytes for %u data IDs (want %llu)",
			    size, num_ids, (unsigned long long)want);
	if (num_ids > dec->max_ids)
		return fail(dec, offset, -E2BIG,
			    "SESSION with %u data IDs (decoder limit %u)",
			    num_ids, dec->max_ids);
	if (format > MLX5_DIAG_FORMAT_2)
		return fail(dec, offset, -EBADMSG, "SESSION of output format %u",
			    format);
	if (ts_source > MLX5_DIAG_TS_RTC)
		return fail(dec, offset, -EBADMSG,
			    "SESSION of timestamp source %u", ts_source);
	if (ts_source == MLX5_DIAG_TS_FRC && !freq_khz)
		return fail(dec, offset, -EBADMSG,
			    "SESSION with FRC timestamps and freq_khz 0");
	if ((flags & MLX5_DIAG_SESSION_F_CHUNK) && dec->have_session)
		return continue_session(dec, rec, offset);

	s->run = FIELD32(rec, S, run);
	s->flags = flags;
	s->abi_version = abi;
	s->num_ids = num_ids;
	s->freq_khz = freq_khz;
	s->mode = FIELD8(rec, S, mode);
	s->sync = FIELD8(rec, S, sync);
	s->clear = FIELD8(rec, S, clear);
	s->out_format = format;
	s->ts_source = ts_source;
	s->log_sample_period = FIELD8(rec, S, log_sample_period);
	s->log_num_of_samples = FIELD8(rec, S, log_num_of_samples);
	s->fw_sample_id_bits = FIELD8(rec, S, fw_sample_id_bits);
	s->period_ns_requested = FIELD64(rec, S, period_ns_requested);
	s->period_ns_actual = FIELD64(rec, S, period_ns_actual);
	memcpy(s->identifier, rec + offsetof(S, identifier), 32);
	s->identifier[32] = '\0';
	id = rec + sizeof(S);
	for (i = 0; i < num_ids; i++, id += sizeof(struct mlx5_diag_rec_id)) {
		dec->ids[i].data_id = get_le64(id);
		dec->ids[i].vclass = id[offsetof(struct mlx5_diag_rec_id, vclass)];
	}
	s->ids = dec->ids;
	dec->have_session = 1;
	dec->run_open = 1;
	settle_lost(dec, 0);
	dec->next_seq = 0;
	/* started inside the run: its first sample number is not known */
	dec->seq_unknown = !!(flags & MLX5_DIAG_SESSION_F_CHUNK);
	dec->nr_time_points = 0;
	new_item(dec, items, n, MLX5DIAG_ITEM_SESSION);
	return RECORD_STOP;
}

static int same_point(const struct mlx5diag_time_point *a,
		      const struct mlx5diag_time_point *b, int valid)
{
	return valid && a->dev_time == b->dev_time &&
	       a->perf_time == b->perf_time;
}

static int decode_time(struct mlx5diag_decoder *dec, const uint8_t *rec,
		       uint64_t offset, int repeat, struct mlx5diag_item *items,
		       size_t *n)
{
	typedef struct mlx5_diag_rec_time T;
	uint64_t raw = FIELD64(rec, T, dev_time);
	struct mlx5diag_time_point tp = {
		.dev_time = dev_time_of(dec, (uint32_t)(raw >> 32), (uint32_t)raw),
		.perf_time = FIELD64(rec, T, perf_time),
		.uncertainty_ns = FIELD64(rec, T, uncertainty_ns),
	};
	struct mlx5diag_item *it;

	/* a chunk header's repeats of the two time points: known already */
	if (repeat && (same_point(&tp, &dec->time_last, dec->nr_time_points >= 1) ||
		       same_point(&tp, &dec->time_prev, dec->nr_time_points >= 2))) {
		dec->chunk_repeat = 1;
		return RECORD_DONE;
	}
	if (dec->nr_time_points) {
		const struct mlx5diag_time_point *last = &dec->time_last;

		if (tp.dev_time < last->dev_time)
			return fail(dec, offset, -EPROTO,
				    "TIME dev_time %llu before the previous %llu",
				    (unsigned long long)tp.dev_time,
				    (unsigned long long)last->dev_time);
		if (tp.perf_time < last->perf_time)
			return fail(dec, offset, -EPROTO,
				    "TIME perf_time %llu before the previous %llu",
				    (unsigned long long)tp.perf_time,
				    (unsigned long long)last->perf_time);
	}
	if (dec->nr_time_points && tp.dev_time == dec->time_last.dev_time) {
		/* the same device instant read again: keep the newer pair */
		dec->time_last = tp;
	} else {
		dec->time_prev = dec->time_last;
		dec->time_last = tp;
		if (dec->nr_time_points < 2)
			dec->nr_time_points++;
	}
	time_map_update(dec);
	it = new_item(dec, items, n, MLX5DIAG_ITEM_TIME);
	it->dev_time = tp.dev_time;
	it->perf_time = tp.perf_time;
	it->time.uncertainty_ns = tp.uncertainty_ns;
	return RECORD_DONE;
}

/* What a VALUE item has of its sample (format 0: of its entry). */
struct value_time {
	uint32_t run, flags;
	uint64_t seq, dev_time, dev_time_end, perf_time, bound;
};

/*
 * A VALUE item, every byte stored from registers (the bytes a value does
 * not use 0, as new_item() leaves them). Not a copy of a template item in
 * memory: loading a template right after storing its sample's fields
 * stalls on store-to-load forwarding, which cost most of a format 0 value.
 */
static inline void value_item(struct mlx5diag_item *it,
			      const struct value_time *vt,
			      const struct mlx5diag_id *id, unsigned int i,
			      uint64_t value)
{
	const size_t used = offsetof(struct mlx5diag_item, sample) +
			    sizeof(it->sample);

	it->kind = MLX5DIAG_ITEM_VALUE;
	it->vclass = id->vclass;
	it->id_index = (uint16_t)i;
	it->flags = vt->flags;
	it->run = vt->run;
	it->reserved = 0;
	it->seq = vt->seq;
	it->data_id = id->data_id;
	it->value = value;
	it->dev_time = vt->dev_time;
	it->dev_time_end = vt->dev_time_end;
	it->perf_time = vt->perf_time;
	it->sample.perf_time_bound_ns = vt->bound;
	memset((char *)it + used, 0, sizeof(*it) - used);
}

/*
 * FIRST / LAST on the items IT[0 .. END - I - 1] of a sample's values I up
 * to END (of NUM_IDS), where they are.
 */
static inline void sample_ends(struct mlx5diag_item *it, unsigned int i,
			       unsigned int end, unsigned int num_ids)
{
	if (i == 0 && end > 0)
		it[0].flags |= MLX5DIAG_F_SAMPLE_FIRST;
	if (end == num_ids && end > i)
		it[end - 1 - i].flags |= MLX5DIAG_F_SAMPLE_LAST;
}

/*
 * The VALUE items of a format 0 sample SMP, entries I up to END, into IT
 * on: each entry's data ID checked against the session's and its own time
 * mapped. Returns END, or the entry whose data ID is not the session's
 * (the items before it are out).
 */
static unsigned int fmt0_values(const struct mlx5diag_decoder *dec,
				const uint8_t *smp, struct value_time vt,
				unsigned int i, unsigned int end,
				struct mlx5diag_item *it)
{
	typedef struct mlx5_diag_fmt0_entry E;
	const struct mlx5diag_id *ids = dec->ids;
	const uint8_t *e = smp + sizeof(struct mlx5_diag_fmt0_hdr) +
			   (size_t)i * sizeof(E);

	for (; i < end; i++, it++, e += sizeof(E)) {
		if (FIELD64(e, E, data_id) != ids[i].data_id)
			return i;
		vt.dev_time = dev_time_of(dec, FIELD32(e, E, ts_h),
					  FIELD32(e, E, ts_l));
		vt.dev_time_end = vt.dev_time;
		vt.perf_time = time_of(dec, vt.dev_time, &vt.flags, &vt.bound);
		value_item(it, &vt, &ids[i], i, FIELD64(e, E, value));
	}
	return end;
}

/*
 * The VALUE items of a format 1 or 2 sample, values of WIDTH bytes (8 or
 * 4) at V, I up to END, into IT on: value_item()'s bytes, the 64-bit
 * fields stored in pairs (a vector of two is laid out as an array on any
 * byte order): four 16-byte stores instead of eight, about a tenth of a
 * format 1 value's time with gcc 12 and clang 14.
 */
static inline void fmt12_values(const struct mlx5diag_id *ids, const uint8_t *v,
				unsigned int width, struct value_time vt,
				unsigned int i, unsigned int end,
				struct mlx5diag_item *it)
{
	typedef uint64_t u64x2 __attribute__((vector_size(16)));
	typedef struct mlx5diag_item I;
	const u64x2 end_perf = { vt.dev_time_end, vt.perf_time };
	const u64x2 bound_0 = { vt.bound, 0 };
	const uint64_t zero = 0;

	for (; i < end; i++, it++) {
		const u64x2 seq_id = { vt.seq, ids[i].data_id };
		const u64x2 value_time = {
			width == 8 ? get_le64(v + (size_t)i * 8) :
				     get_le32(v + (size_t)i * 4),
			vt.dev_time,
		};

		it->kind = MLX5DIAG_ITEM_VALUE;
		it->vclass = ids[i].vclass;
		it->id_index = (uint16_t)i;
		it->flags = vt.flags;
		it->run = vt.run;
		it->reserved = 0;
		memcpy((char *)it + offsetof(I, seq), &seq_id, 16);
		memcpy((char *)it + offsetof(I, value), &value_time, 16);
		memcpy((char *)it + offsetof(I, dev_time_end), &end_perf, 16);
		memcpy((char *)it + offsetof(I, sample), &bound_0, 16);
		memcpy((char *)it + offsetof(I, sample) + 16, &zero, 8);
	}
}

/* The pairs fmt12_values() stores, and the union's 24 bytes after them. */
_Static_assert(offsetof(struct mlx5diag_item, data_id) ==
	       offsetof(struct mlx5diag_item, seq) + 8, "seq, data_id");
_Static_assert(offsetof(struct mlx5diag_item, dev_time) ==
	       offsetof(struct mlx5diag_item, value) + 8, "value, dev_time");
_Static_assert(offsetof(struct mlx5diag_item, perf_time) ==
	       offsetof(struct mlx5diag_item, dev_time_end) + 8,
	       "dev_time_end, perf_time");
_Static_assert(sizeof(struct mlx5diag_item) ==
	       offsetof(struct mlx5diag_item, sample) + 24, "the union last");

static int decode_samples(struct mlx5diag_decoder *dec, const uint8_t *rec,
			  uint32_t size, uint64_t offset,
			  struct mlx5diag_item *items, size_t *n, size_t room)
{
	typedef struct mlx5_diag_rec_samples R;
	const struct mlx5diag_session *s = &dec->session;
	uint64_t first_seq = FIELD64(rec, R, first_seq);
	uint32_t nr_samples = FIELD32(rec, R, nr_samples);
	uint16_t sample_size = FIELD16(rec, R, sample_size);
	uint8_t format = FIELD8(rec, R, out_format);
	uint64_t want_sample = sample_size_of(s->out_format, s->num_ids);
	uint64_t want_size;
	unsigned int num_ids = s->num_ids;
	uint32_t si;

	if (!dec->nr_time_points)
		return fail(dec, offset, -EPROTO,
			    "SAMPLES before a TIME record of run %u", s->run);
	if (format != s->out_format)
		return fail(dec, offset, -EBADMSG,
			    "SAMPLES in format %u, session in format %u",
			    format, s->out_format);
	if (sample_size != want_sample)
		return fail(dec, offset, -EBADMSG,
			    "SAMPLES of sample_size %u, want %llu for %u data IDs in format %u",
			    sample_size, (unsigned long long)want_sample,
			    num_ids, format);
	want_size = sizeof(R) + (uint64_t)nr_samples * sample_size;
	want_size = (want_size + MLX5_DIAG_REC_ALIGN - 1) &
		    ~(uint64_t)(MLX5_DIAG_REC_ALIGN - 1);
	if (size != want_size)
		return fail(dec, offset, -EBADMSG,
			    "SAMPLES of %u bytes for %u samples of %u bytes (want %llu)",
			    size, nr_samples, sample_size,
			    (unsigned long long)want_size);
	if (first_seq > UINT64_MAX - nr_samples)
		return fail(dec, offset, -EBADMSG,
			    "SAMPLES numbers past 2^64 (first %llu, %u samples)",
			    (unsigned long long)first_seq, nr_samples);
	if (first_seq < dec->next_seq)
		return fail(dec, offset, -EPROTO,
			    "SAMPLES from number %llu, after %llu",
			    (unsigned long long)first_seq,
			    (unsigned long long)dec->next_seq);

	gap_item(dec, items, n, first_seq);

	for (si = dec->rec_sample; si < nr_samples; si++) {
		const uint8_t *smp = rec + sizeof(R) + (size_t)si * sample_size;
		uint64_t seq = first_seq + si;
		unsigned int i = si == dec->rec_sample ? dec->rec_id : 0;
		unsigned int end = num_ids;
		struct value_time vt = { .run = s->run, .seq = seq };

		/* the values that fit in the item array */
		if (room - *n < end - i)
			end = i + (unsigned int)(room - *n);
		if (format == MLX5_DIAG_FORMAT_0) {
			uint32_t sample_id = get_le32(smp);
			unsigned int bad;

			if (sample_id != (uint32_t)seq)
				return fail(dec, offset, -EBADMSG,
					    "SAMPLES sample %llu has sample_id %u",
					    (unsigned long long)seq, sample_id);
			bad = fmt0_values(dec, smp, vt, i, end, items + *n);
			sample_ends(items + *n, i, bad, num_ids);
			*n += bad - i;
			if (bad < end)
				return fail(dec, offset, -EBADMSG,
					    "SAMPLES sample %llu entry %u has data ID 0x%llx, session 0x%llx",
					    (unsigned long long)seq, bad,
					    (unsigned long long)FIELD64(smp + sizeof(struct mlx5_diag_fmt0_hdr) +
									(size_t)bad * sizeof(struct mlx5_diag_fmt0_entry),
									struct mlx5_diag_fmt0_entry, data_id),
					    (unsigned long long)dec->ids[bad].data_id);
		} else {
			typedef struct mlx5_diag_fmt12_hdr H;
			uint32_t h = FIELD32(smp, H, earliest_ts_h);
			uint32_t l0 = FIELD32(smp, H, earliest_ts_l);
			uint32_t l1 = FIELD32(smp, H, latest_ts_l);

			vt.dev_time = dev_time_of(dec, h, l0);
			vt.dev_time_end = dev_time_of(dec, h + (l1 < l0), l1);
			vt.perf_time = time_of(dec, vt.dev_time, &vt.flags, &vt.bound);
			if (format == MLX5_DIAG_FORMAT_1) {
				fmt12_values(dec->ids, smp + sizeof(H), 8, vt, i,
					     end, items + *n);
			} else {
				vt.flags |= MLX5DIAG_F_VALUE_32BIT;
				fmt12_values(dec->ids, smp + sizeof(H), 4, vt, i,
					     end, items + *n);
			}
			sample_ends(items + *n, i, end, num_ids);
			*n += end - i;
		}
		if (end < num_ids) {
			dec->rec_sample = si;
			dec->rec_id = end;
			return RECORD_PARTIAL;
		}
	}
	settle_lost(dec, first_seq + nr_samples);
	dec->seq_unknown = 0;
	return RECORD_DONE;
}

static int decode_lost(struct mlx5diag_decoder *dec, const uint8_t *rec,
		       uint64_t offset, struct mlx5diag_item *items, size_t *n)
{
	typedef struct mlx5_diag_rec_lost L;
	uint64_t first_seq = FIELD64(rec, L, first_seq);
	uint64_t count = FIELD64(rec, L, count);
	struct mlx5diag_item *it;

	if (count > UINT64_MAX - first_seq)
		return fail(dec, offset, -EBADMSG,
			    "LOST numbers past 2^64 (first %llu, count %llu)",
			    (unsigned long long)first_seq,
			    (unsigned long long)count);
	it = new_item(dec, items, n, MLX5DIAG_ITEM_LOST);
	it->seq = first_seq;
	it->lost.count = count;
	it->lost.cause = FIELD32(rec, L, cause);
	if (!dec->pending_lost || first_seq < dec->pending_lost_first)
		dec->pending_lost_first = first_seq;
	if (!dec->pending_lost || first_seq + count > dec->pending_lost_end)
		dec->pending_lost_end = first_seq + count;
	dec->pending_lost = count > UINT64_MAX - dec->pending_lost ?
			    UINT64_MAX : dec->pending_lost + count;
	return RECORD_DONE;
}

static int decode_period(struct mlx5diag_decoder *dec, const uint8_t *rec,
			 struct mlx5diag_item *items, size_t *n)
{
	typedef struct mlx5_diag_rec_period P;
	uint64_t raw = FIELD64(rec, P, dev_time);
	struct mlx5diag_item *it = new_item(dec, items, n, MLX5DIAG_ITEM_PERIOD);

	it->seq = FIELD64(rec, P, first_seq);
	it->dev_time = dev_time_of(dec, (uint32_t)(raw >> 32), (uint32_t)raw);
	it->perf_time = mlx5diag_dev_to_perf_time(dec, it->dev_time, &it->flags);
	it->period.ns_requested = FIELD64(rec, P, period_ns_requested);
	it->period.ns_actual = FIELD64(rec, P, period_ns_actual);
	it->period.log_sample_period = FIELD8(rec, P, log_sample_period);
	return RECORD_DONE;
}

static int decode_end(struct mlx5diag_decoder *dec, const uint8_t *rec,
		      struct mlx5diag_item *items, size_t *n, size_t room)
{
	typedef struct mlx5_diag_rec_end E;
	uint64_t next_seq = FIELD64(rec, E, next_seq);
	struct mlx5diag_item *it;

	gap_item(dec, items, n, next_seq);
	if (*n == room)
		return RECORD_PARTIAL;
	it = new_item(dec, items, n, MLX5DIAG_ITEM_END);
	it->seq = next_seq;
	it->end.reason = FIELD32(rec, E, reason);
	settle_lost(dec, next_seq);
	dec->seq_unknown = 0;
	dec->run_open = 0;
	return RECORD_DONE;
}

static int decode_sync(struct mlx5diag_decoder *dec, const uint8_t *rec,
		       uint64_t offset)
{
	uint64_t magic = FIELD64(rec, struct mlx5_diag_rec_sync, magic);

	if (magic != MLX5_DIAG_SYNC_MAGIC)
		return fail(dec, offset, -EBADMSG, "SYNC of magic 0x%llx",
			    (unsigned long long)magic);
	return RECORD_DONE;
}

/* One whole record of SIZE bytes at REC, at stream offset OFFSET. */
static int decode_record(struct mlx5diag_decoder *dec, const uint8_t *rec,
			 unsigned int type, uint32_t size, uint64_t offset,
			 struct mlx5diag_item *items, size_t *n, size_t room)
{
	int repeat = dec->chunk_repeat;

	dec->chunk_repeat = 0;
	if (type == MLX5_DIAG_REC_SYNC)
		return decode_sync(dec, rec, offset);
	if (type == MLX5_DIAG_REC_SESSION)
		return decode_session(dec, rec, size, offset, items, n);
	if (!dec->run_open)
		return fail(dec, offset, -EPROTO, "%s record %s",
			    mlx5diag_rec_type_name(type),
			    dec->have_session ? "after the run's END" :
						"before any SESSION");
	switch (type) {
	case MLX5_DIAG_REC_SAMPLES:
		return decode_samples(dec, rec, size, offset, items, n, room);
	case MLX5_DIAG_REC_TIME:
		return decode_time(dec, rec, offset, repeat, items, n);
	case MLX5_DIAG_REC_LOST:
		return decode_lost(dec, rec, offset, items, n);
	case MLX5_DIAG_REC_PERIOD:
		return decode_period(dec, rec, items, n);
	default:
		return decode_end(dec, rec, items, n, room);
	}
}

/* Header checks that need no more than the header. */
static int check_header(struct mlx5diag_decoder *dec, unsigned int type,
			uint32_t size, uint64_t offset)
{
	size_t min;

	if (size < HDR_SIZE || size % MLX5_DIAG_REC_ALIGN)
		return fail(dec, offset, -EBADMSG,
			    "record of type %u has size %u (not a multiple of %u, at least %zu)",
			    type, size, MLX5_DIAG_REC_ALIGN, HDR_SIZE);
	if (size > dec->max_record_size)
		return fail(dec, offset, -EMSGSIZE,
			    "record of type %u has size %u (decoder limit %u)",
			    type, size, dec->max_record_size);
	min = min_record_size(type);
	if (!min)
		return fail(dec, offset, -ENOMSG, "unknown record type %u",
			    type);
	if (size < min)
		return fail(dec, offset, -EBADMSG,
			    "%s record of %u bytes (at least %zu)",
			    mlx5diag_rec_type_name(type), size, min);
	return 0;
}

int mlx5diag_decode(struct mlx5diag_decoder *dec, const void *buf,
		    size_t *size_inout, struct mlx5diag_item *items,
		    size_t *count_inout)
{
	const uint8_t *p = buf;
	size_t avail, pos = 0, n = 0, room;
	int ret;

	if (!dec || !size_inout || !count_inout || !items || !*count_inout ||
	    (!buf && *size_inout))
		return -EINVAL;
	avail = *size_inout;
	room = *count_inout;
	if (dec->error) {
		ret = dec->error;
		goto out;
	}
	for (;;) {
		uint64_t offset = dec->stream_offset + pos;
		const uint8_t *rec;
		unsigned int type;
		uint32_t size;

		if (avail - pos < HDR_SIZE) {
			ret = pos == avail ? MLX5DIAG_DONE : MLX5DIAG_NEED_MORE;
			break;
		}
		rec = p + pos;
		type = FIELD16(rec, struct mlx5_diag_rec_hdr, type);
		size = FIELD32(rec, struct mlx5_diag_rec_hdr, size);
		ret = check_header(dec, type, size, offset);
		if (ret)
			break;
		if (avail - pos < size) {
			ret = MLX5DIAG_NEED_MORE;
			break;
		}
		if (dec->in_record &&
		    (type != dec->rec_type || size != dec->rec_size)) {
			ret = fail(dec, offset, -EINVAL,
				   "resumed on a %u-byte record of type %u, was inside a %u-byte record of type %u",
				   size, type, dec->rec_size, dec->rec_type);
			break;
		}
		if (n == room) {
			ret = MLX5DIAG_MORE_ITEMS;
			break;
		}
		ret = decode_record(dec, rec, type, size, offset, items, &n,
				    room);
		if (ret < 0)
			break;
		if (ret == RECORD_PARTIAL) {
			dec->in_record = 1;
			dec->rec_type = (uint16_t)type;
			dec->rec_size = size;
			ret = MLX5DIAG_MORE_ITEMS;
			break;
		}
		dec->in_record = 0;
		dec->rec_sample = 0;
		dec->rec_id = 0;
		dec->rec_gap_done = 0;
		pos += size;
		if (ret == RECORD_STOP) {
			ret = pos == avail ? MLX5DIAG_DONE : MLX5DIAG_MORE_ITEMS;
			break;
		}
	}
	dec->stream_offset += pos;
out:
	*size_inout = pos;
	*count_inout = n;
	return ret;
}

int mlx5diag_decode_end(struct mlx5diag_decoder *dec, size_t unconsumed)
{
	if (!dec)
		return -EINVAL;
	if (dec->error)
		return dec->error;
	if (!unconsumed)
		return 0;
	return fail(dec, dec->stream_offset, -EBADMSG,
		    "the stream ends %zu bytes into a record", unconsumed);
}

long mlx5diag_find_sync(const void *buf, size_t size)
{
	typedef struct mlx5_diag_rec_session S;
	const size_t sync_min = sizeof(struct mlx5_diag_rec_sync);
	const uint8_t *p = buf;
	size_t off;

	if (!buf && size)
		return -EINVAL;
	for (off = 0; off + sync_min + sizeof(S) <= size;
	     off += MLX5_DIAG_REC_ALIGN) {
		const uint8_t *sync = p + off, *rec;
		uint32_t sync_size = FIELD32(sync, struct mlx5_diag_rec_hdr, size);
		uint32_t rec_size;
		uint16_t num_ids;

		if (FIELD16(sync, struct mlx5_diag_rec_hdr, type) !=
		    MLX5_DIAG_REC_SYNC ||
		    FIELD64(sync, struct mlx5_diag_rec_sync, magic) !=
		    MLX5_DIAG_SYNC_MAGIC ||
		    sync_size < sync_min || sync_size % MLX5_DIAG_REC_ALIGN ||
		    sync_size > size - off - sizeof(S))
			continue;
		rec = sync + sync_size;
		rec_size = FIELD32(rec, struct mlx5_diag_rec_hdr, size);
		num_ids = FIELD16(rec, S, num_ids);
		if (FIELD16(rec, struct mlx5_diag_rec_hdr, type) ==
		    MLX5_DIAG_REC_SESSION && num_ids &&
		    rec_size == sizeof(S) + num_ids * sizeof(struct mlx5_diag_rec_id) &&
		    rec_size <= size - off - sync_size)
			return (long)off;
	}
	return -ENOENT;
}

const struct mlx5diag_session *
mlx5diag_session(const struct mlx5diag_decoder *dec)
{
	return dec->have_session ? &dec->session : NULL;
}

const char *mlx5diag_error_message(const struct mlx5diag_decoder *dec,
				   uint64_t *offset)
{
	if (!dec->error)
		return NULL;
	if (offset)
		*offset = dec->error_offset;
	return dec->error_message;
}

void mlx5diag_decoder_reset(struct mlx5diag_decoder *dec)
{
	struct mlx5diag_id *ids = dec->ids;
	uint32_t max_ids = dec->max_ids, max_record_size = dec->max_record_size;

	memset(dec, 0, sizeof(*dec));
	dec->ids = ids;
	dec->max_ids = max_ids;
	dec->max_record_size = max_record_size;
}

int mlx5diag_decoder_init(struct mlx5diag_decoder *dec,
			  const struct mlx5diag_config *config)
{
	uint32_t max_ids = config && config->max_ids ? config->max_ids :
						       MLX5DIAG_DEFAULT_MAX_IDS;
	uint32_t max_record = config && config->max_record_size ?
				      config->max_record_size :
				      MLX5DIAG_DEFAULT_MAX_RECORD_SIZE;

	if (!dec)
		return -EINVAL;
	memset(dec, 0, sizeof(*dec));
	if (max_ids > UINT16_MAX)
		return -EINVAL;
	dec->ids = calloc(max_ids, sizeof(*dec->ids));
	if (!dec->ids)
		return -ENOMEM;
	dec->max_ids = max_ids;
	dec->max_record_size = max_record;
	return 0;
}

void mlx5diag_decoder_exit(struct mlx5diag_decoder *dec)
{
	free(dec->ids);
	dec->ids = NULL;
}
