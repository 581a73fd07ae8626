// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of libmlx5diag: every record type, formats 0/1/2, FRC and RTC,
 * the device-to-perf time mapping, resumption at every byte and item, and
 * malformed streams with their error codes and offsets.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5diag.h"
#include "runner.h"
#include "stream_writer.h"

/* ---- a growable list of items ---- */

struct item_list {
	struct mlx5diag_item *v;
	size_t n, cap;
};

static void list_add(struct item_list *l, const struct mlx5diag_item *it,
		     size_t n)
{
	if (!n)
		return;
	if (l->n + n > l->cap) {
		l->cap = (l->n + n) * 2;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	memcpy(l->v + l->n, it, n * sizeof(*it));
	l->n += n;
}

static void list_free(struct item_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* What a decode of a whole stream ended with. */
struct outcome {
	int err;		/* 0 or the negative errno */
	uint64_t err_offset;
	int saw_session_not_last; /* a call returned items after a SESSION item */
};

/*
 * Decode LEN bytes delivered in pieces that end at CUTS[0..ncuts-1] (then
 * at LEN), with an item array of ROOM. Every call gets its input in a
 * buffer of exactly that size (so that ASan sees any read past it).
 */
static struct outcome decode_pieces(const struct mlx5diag_config *cfg,
				    const uint8_t *buf, size_t len,
				    const size_t *cuts, size_t ncuts,
				    size_t room, struct item_list *out)
{
	struct mlx5diag_decoder dec;
	struct mlx5diag_item *items = calloc(room, sizeof(*items));
	uint8_t *pend = malloc(len + 1);
	size_t pend_len = 0, delivered = 0, c;
	struct outcome o = { 0 };
	int ret = 0;

	if (!items || !pend || mlx5diag_decoder_init(&dec, cfg))
		abort();
	for (c = 0; c <= ncuts; c++) {
		size_t end = c < ncuts ? cuts[c] : len;

		memcpy(pend + pend_len, buf + delivered, end - delivered);
		pend_len += end - delivered;
		delivered = end;
		do {
			uint8_t *exact = malloc(pend_len ? pend_len : 1);
			size_t size = pend_len, count = room, i;

			memcpy(exact, pend, pend_len);
			ret = mlx5diag_decode(&dec, exact, &size, items, &count);
			free(exact);
			for (i = 0; i + 1 < count; i++)
				if (items[i].kind == MLX5DIAG_ITEM_SESSION)
					o.saw_session_not_last = 1;
			list_add(out, items, count);
			memmove(pend, pend + size, pend_len - size);
			pend_len -= size;
		} while (ret == MLX5DIAG_MORE_ITEMS);
		if (ret < 0)
			break;
	}
	if (ret >= 0)
		ret = mlx5diag_decode_end(&dec, pend_len);
	if (ret < 0) {
		const char *msg = mlx5diag_error_message(&dec, &o.err_offset);

		o.err = ret;
		CHECK(msg && *msg, "an error has a message");
	}
	mlx5diag_decoder_exit(&dec);
	free(items);
	free(pend);
	return o;
}

static struct outcome decode_whole(const struct stream *s,
				   struct item_list *out)
{
	return decode_pieces(NULL, s->buf, s->len, NULL, 0, 4096, out);
}

static struct outcome decode_bytewise(const struct mlx5diag_config *cfg,
				      const struct stream *s, size_t room,
				      struct item_list *out)
{
	size_t *cuts = malloc((s->len + 1) * sizeof(*cuts)), i;
	struct outcome o;

	for (i = 1; i < s->len; i++)
		cuts[i - 1] = i;
	o = decode_pieces(cfg, s->buf, s->len, cuts,
			  s->len ? s->len - 1 : 0, room, out);
	free(cuts);
	return o;
}

static int same_items(const struct item_list *a, const struct item_list *b)
{
	return a->n == b->n && (!a->n || !memcmp(a->v, b->v, a->n * sizeof(*a->v)));
}

/* ---- common stream pieces ---- */

static const uint64_t ids2[] = { 0x1020000100000001ull, 0x1140000100000001ull };
static const uint64_t ids3[] = { 0x1180000100000000ull, 0x1180000200000000ull,
				 0x1180000300000000ull };

static void session(struct stream *s, uint32_t run, uint8_t format,
		    uint8_t ts_source, uint32_t freq_khz, uint16_t num_ids,
		    const uint64_t *ids)
{
	struct stream_session d = {
		.run = run, .out_format = format, .ts_source = ts_source,
		.freq_khz = freq_khz, .num_ids = num_ids, .ids = ids,
		.period_ns = 100000, .identifier = "0000:08:00.0",
	};

	stream_session(s, &d);
}

static struct stream_samples samples(uint8_t format, uint8_t ts_source,
				     uint16_t num_ids, const uint64_t *ids,
				     uint64_t first_seq, uint32_t nr,
				     uint64_t t0, uint64_t t_step,
				     uint64_t entry_step)
{
	struct stream_samples d = {
		.out_format = format, .ts_source = ts_source,
		.num_ids = num_ids, .ids = ids, .first_seq = first_seq,
		.nr = nr, .t0 = t0, .t_step = t_step, .entry_step = entry_step,
		.value_base = 5000,
	};

	return d;
}

static void check_value(const struct mlx5diag_item *it,
			const struct stream_samples *d, uint64_t seq,
			unsigned int i, uint64_t dev_time,
			uint64_t dev_time_end, uint64_t perf_time,
			uint32_t time_flags)
{
	uint32_t flags = time_flags;
	uint64_t value = stream_value(d, seq, i);

	if (i == 0)
		flags |= MLX5DIAG_F_SAMPLE_FIRST;
	if (i == d->num_ids - 1u)
		flags |= MLX5DIAG_F_SAMPLE_LAST;
	if (d->out_format == MLX5_DIAG_FORMAT_2) {
		flags |= MLX5DIAG_F_VALUE_32BIT;
		value &= 0xffffffffu;
	}
	CHECK_INT(it->kind, MLX5DIAG_ITEM_VALUE, "kind");
	CHECK_U64(it->seq, seq, "seq");
	CHECK_INT(it->id_index, i, "id_index");
	CHECK_U64(it->data_id, d->ids[i], "data_id");
	CHECK_U64(it->value, value, "value");
	CHECK_U64(it->dev_time, dev_time, "dev_time");
	CHECK_U64(it->dev_time_end, dev_time_end, "dev_time_end");
	CHECK_U64(it->perf_time, perf_time, "perf_time");
	CHECK_U64(it->flags, flags, "flags");
}

/* ---- formats ---- */

/*
 * FRC at 1000 kHz: TIME (10000, 1000000) and (20000, 11000000) give 1000 ns
 * per clock, so device time d maps to 11000000 - (20000 - d) * 1000.
 */
static void frc_format(uint8_t format)
{
	struct stream s;
	struct item_list l = { 0 };
	struct stream_samples d = samples(format, MLX5_DIAG_TS_FRC, 2, ids2,
					  0, 2, 12000, 1000, 10);
	struct outcome o;
	const struct mlx5diag_item *v;

	stream_init(&s);
	session(&s, 0, format, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 10000, 1000000, 7);
	stream_time(&s, MLX5_DIAG_TS_FRC, 20000, 11000000, 8);
	stream_samples(&s, &d);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "no error");
	CHECK_U64(l.n, 7, "items: session, 2 time, 4 values");
	if (l.n == 7) {
		CHECK_INT(l.v[0].kind, MLX5DIAG_ITEM_SESSION, "first is SESSION");
		CHECK_INT(l.v[1].kind, MLX5DIAG_ITEM_TIME, "TIME");
		CHECK_U64(l.v[1].dev_time, 10000, "TIME dev_time");
		CHECK_U64(l.v[1].perf_time, 1000000, "TIME perf_time");
		CHECK_U64(l.v[1].time.uncertainty_ns, 7, "TIME uncertainty");
		v = &l.v[3];
		if (format == MLX5_DIAG_FORMAT_0) {
			check_value(&v[0], &d, 0, 0, 12000, 12000, 3000000, 0);
			check_value(&v[1], &d, 0, 1, 12010, 12010, 3010000, 0);
			check_value(&v[2], &d, 1, 0, 13000, 13000, 4000000, 0);
			check_value(&v[3], &d, 1, 1, 13010, 13010, 4010000, 0);
		} else {
			check_value(&v[0], &d, 0, 0, 12000, 12010, 3000000, 0);
			check_value(&v[1], &d, 0, 1, 12000, 12010, 3000000, 0);
			check_value(&v[2], &d, 1, 0, 13000, 13010, 4000000, 0);
			check_value(&v[3], &d, 1, 1, 13000, 13010, 4000000, 0);
		}
	}
	list_free(&l);
	stream_free(&s);
}

static void format0_frc_entries_have_their_own_times(void)
{
	frc_format(MLX5_DIAG_FORMAT_0);
}

static void format1_frc_sample_has_earliest_and_latest(void)
{
	frc_format(MLX5_DIAG_FORMAT_1);
}

static void format2_frc_values_are_low_32_bits(void)
{
	frc_format(MLX5_DIAG_FORMAT_2);
}

/*
 * RTC: ts_h seconds, ts_l ns. TIME (5 s, 100) and (6 s, 1000000100): 1 ns
 * per ns. A format 1 sample at 5.999999990 s whose latest entry is 30 ns
 * later wraps ts_l: its end is 6.000000020 s.
 */
static void rtc_times_normalise_to_ns(void)
{
	struct stream s;
	struct item_list l = { 0 };
	struct stream_samples d1 = samples(MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_RTC,
					   3, ids3, 0, 1, 5999999990ull, 0, 10);
	struct stream_samples d0;
	struct outcome o;

	stream_init(&s);
	session(&s, 3, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_RTC, 0, 3, ids3);
	stream_time(&s, MLX5_DIAG_TS_RTC, 5000000000ull, 100, 0);
	stream_time(&s, MLX5_DIAG_TS_RTC, 6000000000ull, 1000000100ull, 0);
	stream_samples(&s, &d1);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "no error");
	CHECK_U64(l.n, 6, "items");
	if (l.n == 6) {
		CHECK_U64(l.v[1].dev_time, 5000000000ull, "TIME s<<32|ns normalised");
		CHECK_U64(l.v[3].run, 3, "run");
		check_value(&l.v[3], &d1, 0, 0, 5999999990ull, 6000000010ull,
			    1000000090ull, 0);
		check_value(&l.v[5], &d1, 0, 2, 5999999990ull, 6000000010ull,
			    1000000090ull, 0);
	}
	list_free(&l);
	stream_free(&s);

	/* format 0, RTC, one TIME: nominal 1 ns per ns */
	d0 = samples(MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_RTC, 2, ids2, 0, 1,
		     7999999999ull, 0, 2);
	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_RTC, 0, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_RTC, 8000000000ull, 50000, 0);
	stream_samples(&s, &d0);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "no error");
	CHECK_U64(l.n, 4, "items");
	if (l.n == 4) {
		check_value(&l.v[2], &d0, 0, 0, 7999999999ull, 7999999999ull,
			    49999, MLX5DIAG_F_TIME_NOMINAL |
			    MLX5DIAG_F_TIME_EXTRAPOLATED);
		check_value(&l.v[3], &d0, 0, 1, 8000000001ull, 8000000001ull,
			    50001, MLX5DIAG_F_TIME_NOMINAL |
			    MLX5DIAG_F_TIME_EXTRAPOLATED);
	}
	list_free(&l);
	stream_free(&s);
}

/* ---- time mapping ---- */

/*
 * A decoder fed SESSION + the given TIME points, for mapping queries; each
 * states the uncertainty of @unc (0 when NULL).
 */
static void time_decoder(struct mlx5diag_decoder *dec, uint8_t ts_source,
			 uint32_t freq_khz, const uint64_t (*points)[2],
			 unsigned int n, const uint64_t *unc)
{
	struct mlx5diag_item items[8];
	struct stream s;
	size_t size, count = 8;
	unsigned int i;
	int ret;

	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, ts_source, freq_khz, 2, ids2);
	for (i = 0; i < n; i++)
		stream_time(&s, ts_source, points[i][0], points[i][1],
			    unc ? unc[i] : 0);
	mlx5diag_decoder_init(dec, NULL);
	size = s.len;
	ret = mlx5diag_decode(dec, s.buf, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_MORE_ITEMS, "stops after SESSION");
	count = 8;
	ret = mlx5diag_decode(dec, s.buf + size, &(size_t){ s.len - size },
			      items, &count);
	CHECK_INT(ret, MLX5DIAG_DONE, "TIME records decoded");
	stream_free(&s);
}

static void time_maps_between_the_last_two_time_records(void)
{
	static const uint64_t p3[][2] = {
		{ 100, 1000 }, { 1100, 4000 }, { 2100, 5000 },
	};
	struct mlx5diag_decoder dec;
	uint32_t f;

	/* the last two points (1100, 4000), (2100, 5000): 1 ns per clock */
	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, p3, 3, NULL);
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1600, &f), 4500, "midpoint");
	CHECK_U64(f, 0, "interpolated");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 2100, &f), 5000, "last point");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1100, &f), 4000, "prev point");
	CHECK_U64(f, 0, "prev point is inside");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 600, &f), 3500, "before prev");
	CHECK_U64(f, MLX5DIAG_F_TIME_EXTRAPOLATED, "before prev extrapolated");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 2200, &f), 5100, "after last");
	CHECK_U64(f, MLX5DIAG_F_TIME_EXTRAPOLATED, "after last extrapolated");
	mlx5diag_decoder_exit(&dec);
}

static void time_bound_follows_the_stated_uncertainties(void)
{
	/* (1100, 4000) +- 40 ns, then (2100, 5000) +- 10 ns */
	static const uint64_t p[][2] = { { 1100, 4000 }, { 2100, 5000 } };
	static const uint64_t unc[] = { 40, 10 };
	struct mlx5diag_decoder dec;

	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, p, 1, unc);
	CHECK_U64(mlx5diag_perf_time_bound(&dec, 1100), UINT64_MAX,
		  "one record: the nominal rate's error is unknown");
	mlx5diag_decoder_exit(&dec);
	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, p, 2, unc);
	CHECK_U64(mlx5diag_perf_time_bound(&dec, 2100), 10 + 3, "at the last");
	CHECK_U64(mlx5diag_perf_time_bound(&dec, 1100), 40 + 3, "at the previous");
	CHECK_U64(mlx5diag_perf_time_bound(&dec, 1850), 7 + 10 + 3,
		  "a quarter of the way back: 10 * 3/4 + 40 / 4");
	CHECK_U64(mlx5diag_perf_time_bound(&dec, 100), 10 + 80 + 3,
		  "a span before the previous: 10 * 1 + 40 * 2");
	CHECK_U64(mlx5diag_perf_time_bound(&dec, 3100), 20 + 40 + 3,
		  "a span after the last: 10 * 2 + 40 * 1");
	mlx5diag_decoder_exit(&dec);
}

static void time_rounds_the_offset_down(void)
{
	/* 3 ns per 2 clocks: 1 clock before the last is 1.5 ns: 1 */
	static const uint64_t p[][2] = { { 1000, 10000 }, { 1002, 10003 } };
	struct mlx5diag_decoder dec;
	uint32_t f;

	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, p, 2, NULL);
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1001, &f), 10002, "round");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1003, &f), 10004, "round up side");
	mlx5diag_decoder_exit(&dec);
}

static void time_uses_nominal_frequency_before_two_records(void)
{
	/* 250000 kHz: 4 ns per clock */
	static const uint64_t p[][2] = { { 1000000, 777777 } };
	struct mlx5diag_decoder dec;
	uint32_t f;

	time_decoder(&dec, MLX5_DIAG_TS_FRC, 250000, p, 1, NULL);
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1000000 - 100, &f),
		  777777 - 400, "100 clocks before");
	CHECK_U64(f, MLX5DIAG_F_TIME_NOMINAL | MLX5DIAG_F_TIME_EXTRAPOLATED,
		  "nominal flags");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1000000, &f), 777777, "at it");
	CHECK_U64(f, MLX5DIAG_F_TIME_NOMINAL, "at the point: nominal only");
	/* 3 clocks of a 300000 kHz clock are 10 ns */
	mlx5diag_decoder_exit(&dec);
	time_decoder(&dec, MLX5_DIAG_TS_FRC, 300000, p, 1, NULL);
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1000003, &f), 777787, "3 clocks");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 999999, &f), 777774,
		  "1 clock before: 3.33 ns, rounded down");
	mlx5diag_decoder_exit(&dec);
}

static void time_is_exact_for_clocks_near_2_64(void)
{
	/* points (1, 0) and (2^63 + 1, 3 * 2^61): 0.75 ns per clock */
	static const uint64_t p[][2] = {
		{ 1, 0 }, { (1ull << 63) + 1, 3ull << 61 },
	};
	/* near the top: (2^64 - 2e9, 10^18), (2^64 - 1e9, 10^18 + 3e9) */
	static const uint64_t q[][2] = {
		{ 0ull - 2000000000ull, 1000000000000000000ull },
		{ 0ull - 1000000000ull, 1000000003000000000ull },
	};
	struct mlx5diag_decoder dec;
	uint32_t f;

	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, p, 2, NULL);
	/* 2^62 clocks before the last: the product needs 125 bits */
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, (1ull << 62) + 1, &f),
		  3ull << 60, "2^62 clocks back at 0.75");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, UINT64_MAX, &f),
		  (3ull << 61) + (((1ull << 63) - 2) / 4 * 3) +
		  (((1ull << 63) - 2) % 4 * 3) / 4,
		  "to 2^64 - 1 forward");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 0, &f), 0,
		  "2^63 + 1 clocks back is perf time 0");
	mlx5diag_decoder_exit(&dec);

	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, q, 2, NULL);
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 0ull - 1000000000ull - 123456789,
					    &f),
		  1000000003000000000ull - 370370367, "3 ns per clock near 2^64");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, UINT64_MAX, &f),
		  1000000003000000000ull + 2999999997ull, "at 2^64 - 1");
	CHECK_U64(f, MLX5DIAG_F_TIME_EXTRAPOLATED, "past the last point");
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 0, &f), 0,
		  "3 * (2^64 - 10^9) ns back saturates at 0");
	mlx5diag_decoder_exit(&dec);
}

static void time_saturates_at_the_top(void)
{
	static const uint64_t p[][2] = {
		{ 0, UINT64_MAX - 10 }, { 1, UINT64_MAX - 5 },
	};
	struct mlx5diag_decoder dec;
	uint32_t f;

	time_decoder(&dec, MLX5_DIAG_TS_FRC, 1000, p, 2, NULL);
	CHECK_U64(mlx5diag_dev_to_perf_time(&dec, 1000, &f), UINT64_MAX,
		  "saturated");
	mlx5diag_decoder_exit(&dec);
}

/* a * b / c rounded down, saturated at UINT64_MAX, by a 128-bit divide. */
static uint64_t ref_mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	__extension__ unsigned __int128 q = (unsigned __int128)a * b / c;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static uint64_t ref_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * The decoder divides by the TIME records' span with a multiply (the
 * divisor is fixed until the next record): every quotient must be the
 * divide's, for spans and rates across the 64-bit range and device times
 * inside, around and far outside the two points.
 */
static void time_divides_exactly_for_any_span(void)
{
	static const uint64_t spans[] = {
		1, 2, 3, 5, 7, 10, 1000, 156250, 999999937, (1ull << 32) - 1,
		1ull << 32, (1ull << 32) + 1, 0x123456789abcdefull,
		(1ull << 63) - 1, 1ull << 63, (1ull << 63) + 1,
		UINT64_MAX - 1000,
	};
	static const uint64_t rates[] = {
		0, 1, 3, 6400, 1000000007, 1ull << 40, (1ull << 63) + 12345,
	};
	uint64_t rnd = 0x9e3779b97f4a7c15ull;
	unsigned int si, ri, k, bad = 0, checks = 0;

	for (si = 0; si < sizeof(spans) / sizeof(spans[0]); si++) {
		for (ri = 0; ri < sizeof(rates) / sizeof(rates[0]); ri++) {
			uint64_t span = spans[si], num = rates[ri];
			uint64_t prev_dev = span > UINT64_MAX - 500 ? 0 : 500;
			uint64_t prev_perf = num > UINT64_MAX - 7 ? 0 : 7;
			const uint64_t p[][2] = {
				{ prev_dev, prev_perf },
				{ prev_dev + span, prev_perf + num },
			};
			const uint64_t unc[] = { 40 + span % 1000, 9 + num % 77 };
			const uint64_t last_dev = p[1][0], last_perf = p[1][1];
			struct mlx5diag_decoder dec;

			time_decoder(&dec, MLX5_DIAG_TS_FRC, 156250, p, 2, unc);
			for (k = 0; k < 24; k++) {
				uint64_t d, a, wl, off, want, bound;
				uint32_t f;

				rnd ^= rnd << 13;
				rnd ^= rnd >> 7;
				rnd ^= rnd << 17;
				switch (k % 6) {
				case 0: d = last_dev - k / 6 % (span + 1); break;
				case 1: d = prev_dev + k / 6 % (span + 1); break;
				case 2: d = last_dev - rnd % (span + 1); break;
				case 3: d = rnd % (last_dev + 1); break;
				case 4: d = last_dev + rnd % 4096; break;
				default: d = rnd; break;
				}
				if (d <= last_dev) {
					a = last_dev - d;
					off = ref_mul_div(a, num, span);
					want = off > last_perf ? 0 : last_perf - off;
					wl = a <= span ? span - a : a - span;
				} else {
					a = d - last_dev;
					off = ref_mul_div(a, num, span);
					want = ref_add_sat(last_perf, off);
					wl = ref_add_sat(span, a);
				}
				bound = ref_add_sat(ref_add_sat(ref_mul_div(unc[1], wl, span),
								ref_mul_div(unc[0], a, span)), 3);
				checks++;
				if (mlx5diag_dev_to_perf_time(&dec, d, &f) != want ||
				    mlx5diag_perf_time_bound(&dec, d) != bound) {
					if (!bad++)
						CHECK(0, "span %" PRIu64 " rate %" PRIu64
						      " d %" PRIu64 ": perf %" PRIu64
						      " bound %" PRIu64 ", want %" PRIu64
						      " and %" PRIu64, span, num, d,
						      mlx5diag_dev_to_perf_time(&dec, d, &f),
						      mlx5diag_perf_time_bound(&dec, d),
						      want, bound);
				}
			}
			mlx5diag_decoder_exit(&dec);
		}
	}
	CHECK_INT(bad, 0, "mappings off the divide's");
	CHECK_INT(checks, 17 * 7 * 24, "mappings checked");
}

/* ---- loss, period, end, sessions ---- */

static void lost_records_and_gaps_are_items(void)
{
	struct stream s;
	struct item_list l = { 0 };
	struct outcome o;
	struct stream_samples a = samples(MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC,
					  2, ids2, 0, 2, 1000, 10, 1);
	struct stream_samples b = a, c = a;
	static const struct {
		uint8_t kind;
		uint64_t seq, count;
		uint32_t cause;
	} want[] = {
		{ MLX5DIAG_ITEM_LOST, 2, 3, MLX5_DIAG_LOST_FW_OVERWRITE },
		{ MLX5DIAG_ITEM_LOST, 6, 2, MLX5DIAG_LOST_UNACCOUNTED },
		{ MLX5DIAG_ITEM_LOST, 12, 2, MLX5_DIAG_LOST_AUX_FULL },
		{ MLX5DIAG_ITEM_LOST, 9, 5, MLX5DIAG_LOST_UNACCOUNTED },
		{ MLX5DIAG_ITEM_END, 16, 0, MLX5_DIAG_END_TAKEN },
	};
	size_t i, k = 0, values = 0;

	b.first_seq = 5;
	b.nr = 1;
	c.first_seq = 8;
	c.nr = 1;
	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 900, 900000, 0);
	stream_samples(&s, &a);			/* 0, 1 */
	stream_lost(&s, 2, 3, MLX5_DIAG_LOST_FW_OVERWRITE);	/* 2..4 */
	stream_samples(&s, &b);			/* 5 */
	stream_samples(&s, &c);			/* 8: 6, 7 unaccounted */
	stream_lost(&s, 12, 2, MLX5_DIAG_LOST_AUX_FULL);
	/* 9..11 and 14, 15 unaccounted: 5 from 9 */
	stream_end(&s, 16, MLX5_DIAG_END_TAKEN);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "no error");
	for (i = 0; i < l.n; i++) {
		if (l.v[i].kind == MLX5DIAG_ITEM_VALUE) {
			values++;
			continue;
		}
		if (l.v[i].kind != MLX5DIAG_ITEM_LOST &&
		    l.v[i].kind != MLX5DIAG_ITEM_END)
			continue;
		CHECK(k < 5, "more loss/end items than expected");
		if (k >= 5)
			break;
		CHECK_INT(l.v[i].kind, want[k].kind, "kind");
		CHECK_U64(l.v[i].seq, want[k].seq, "seq");
		if (want[k].kind == MLX5DIAG_ITEM_LOST) {
			CHECK_U64(l.v[i].lost.count, want[k].count, "count");
			CHECK_U64(l.v[i].lost.cause, want[k].cause, "cause");
		} else {
			CHECK_U64(l.v[i].end.reason, want[k].cause, "reason");
		}
		k++;
	}
	CHECK_U64(k, 5, "loss and end items");
	CHECK_U64(values, 8, "value items of 4 samples");
	list_free(&l);
	stream_free(&s);
}

/* Kinds, first numbers, counts and causes of the LOST items of a stream. */
static size_t lost_items(const struct stream *s, uint64_t (*out)[3], size_t max)
{
	struct item_list l = { 0 };
	size_t i, k = 0;
	struct outcome o = decode_whole(s, &l);

	CHECK_INT(o.err, 0, "decodes");
	for (i = 0; i < l.n && k < max; i++) {
		if (l.v[i].kind != MLX5DIAG_ITEM_LOST)
			continue;
		out[k][0] = l.v[i].seq;
		out[k][1] = l.v[i].lost.count;
		out[k][2] = l.v[i].lost.cause;
		k++;
	}
	list_free(&l);
	return k;
}

static void lost_records_in_any_order_cover_the_gap(void)
{
	struct stream s;
	struct stream_samples a = samples(MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC,
					  2, ids2, 0, 5, 1000, 10, 1);
	struct stream_samples b = a;
	uint64_t got[4][3];
	size_t k;

	/* 5..9 then 10..12 reported in reverse order: no unaccounted item */
	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 2000, 900000, 0);
	stream_samples(&s, &a);
	stream_lost(&s, 10, 3, MLX5_DIAG_LOST_AUX_FULL);
	stream_lost(&s, 5, 5, MLX5_DIAG_LOST_FW_OVERWRITE);
	b.first_seq = 13;
	b.nr = 1;
	stream_samples(&s, &b);
	k = lost_items(&s, got, 4);
	CHECK_U64(k, 2, "just the two LOST records");
	CHECK(k == 2 && got[0][0] == 10 && got[1][0] == 5, "in stream order");
	stream_free(&s);

	/* 5, 6 reported, 7..9 not: 3 unaccounted from 7 */
	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 2000, 900000, 0);
	stream_samples(&s, &a);
	stream_lost(&s, 5, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	b.first_seq = 10;
	stream_samples(&s, &b);
	k = lost_items(&s, got, 4);
	CHECK_U64(k, 2, "the record and the remainder");
	CHECK(k == 2 && got[1][0] == 7 && got[1][1] == 3 &&
	      got[1][2] == MLX5DIAG_LOST_UNACCOUNTED, "3 unaccounted from 7");
	stream_free(&s);
}

static void period_item_carries_the_new_period(void)
{
	struct stream s;
	struct item_list l = { 0 };
	struct outcome o;

	stream_init(&s);
	session(&s, 1, MLX5_DIAG_FORMAT_2, MLX5_DIAG_TS_FRC, 500000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 1000000, 2000000, 0);
	stream_period(&s, MLX5_DIAG_TS_FRC, 42, 1000500, 200000, 262144, 17);
	stream_end(&s, 0, MLX5_DIAG_END_STOPPED);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "no error");
	CHECK_U64(l.n, 4, "session, time, period, end");
	if (l.n == 4) {
		const struct mlx5diag_item *p = &l.v[2];

		CHECK_INT(p->kind, MLX5DIAG_ITEM_PERIOD, "PERIOD");
		CHECK_U64(p->run, 1, "run");
		CHECK_U64(p->seq, 42, "first seq at the new period");
		CHECK_U64(p->dev_time, 1000500, "dev_time");
		CHECK_U64(p->perf_time, 2001000, "500 clocks at 2 ns");
		CHECK_U64(p->period.ns_requested, 200000, "requested");
		CHECK_U64(p->period.ns_actual, 262144, "actual");
		CHECK_U64(p->period.log_sample_period, 17, "log period");
		CHECK_INT(l.v[3].kind, MLX5DIAG_ITEM_END, "END");
		CHECK_U64(l.v[3].end.reason, MLX5_DIAG_END_STOPPED, "reason");
	}
	list_free(&l);
	stream_free(&s);
}

static void session_item_ends_its_call(void)
{
	struct stream s;
	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[64];
	const struct mlx5diag_session *ss;
	struct stream_samples a = samples(MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC,
					  2, ids2, 0, 3, 1000, 10, 1);
	struct stream_samples b = samples(MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC,
					  3, ids3, 0, 1, 5000, 10, 1);
	size_t off = 0, size, count;
	int ret;

	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 900, 900000, 0);
	stream_samples(&s, &a);
	stream_end(&s, 3, MLX5_DIAG_END_STOPPED);
	session(&s, 1, MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC, 1000, 3, ids3);
	stream_time(&s, MLX5_DIAG_TS_FRC, 5000, 9000000, 0);
	stream_samples(&s, &b);

	mlx5diag_decoder_init(&dec, NULL);
	CHECK(!mlx5diag_session(&dec), "no session before the first");
	size = s.len;
	count = 64;
	ret = mlx5diag_decode(&dec, s.buf, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_MORE_ITEMS, "stops after SESSION");
	CHECK_U64(count, 1, "one item");
	CHECK_INT(items[0].kind, MLX5DIAG_ITEM_SESSION, "SESSION");
	ss = mlx5diag_session(&dec);
	CHECK(ss && ss->num_ids == 2 && ss->out_format == 1 && ss->run == 0 &&
	      ss->freq_khz == 1000 && ss->period_ns_actual == 100000 &&
	      ss->ids[1].data_id == ids2[1] &&
	      !strcmp(ss->identifier, "0000:08:00.0"), "run 0 described");
	off += size;

	size = s.len - off;
	count = 64;
	ret = mlx5diag_decode(&dec, s.buf + off, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_MORE_ITEMS, "stops after the second SESSION");
	CHECK_U64(count, 1 + 6 + 1 + 1, "time, 6 values, end, session");
	CHECK_INT(items[count - 1].kind, MLX5DIAG_ITEM_SESSION, "last is SESSION");
	CHECK_U64(items[count - 1].run, 1, "of run 1");
	ss = mlx5diag_session(&dec);
	CHECK(ss && ss->num_ids == 3 && ss->out_format == 0 && ss->run == 1,
	      "run 1 described");
	off += size;

	size = s.len - off;
	count = 64;
	ret = mlx5diag_decode(&dec, s.buf + off, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_DONE, "done");
	CHECK_U64(count, 4, "time and 3 values, numbered from 0 again");
	CHECK_U64(items[1].seq, 0, "sample 0 of run 1");
	CHECK_U64(off + size, s.len, "all consumed");
	mlx5diag_decoder_exit(&dec);
	stream_free(&s);
}

/* ---- resumption ---- */

/* Two runs, every record type, formats 0 and 2, gaps: about 1.5 KiB. */
static void mixed_stream(struct stream *s)
{
	struct stream_samples a = samples(MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC,
					  3, ids3, 0, 4, 100000, 1000, 7);
	struct stream_samples b = a;
	struct stream_samples c = samples(MLX5_DIAG_FORMAT_2, MLX5_DIAG_TS_RTC,
					  2, ids2, 0, 5, 4999990000ull,
					  100000, 3);

	stream_init(s);
	session(s, 0, MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC, 156250, 3, ids3);
	stream_time(s, MLX5_DIAG_TS_FRC, 99000, 5000000, 3);
	stream_samples(s, &a);
	stream_time(s, MLX5_DIAG_TS_FRC, 105000, 5038400, 3);
	stream_lost(s, 4, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	b.first_seq = 7;
	b.nr = 2;
	b.t0 = 107000;
	stream_samples(s, &b);
	stream_time(s, MLX5_DIAG_TS_FRC, 110000, 5070400, 3);
	stream_period(s, MLX5_DIAG_TS_FRC, 9, 109500, 50000, 65536, 13);
	stream_end(s, 10, MLX5_DIAG_END_STOPPED);
	session(s, 1, MLX5_DIAG_FORMAT_2, MLX5_DIAG_TS_RTC, 0, 2, ids2);
	stream_time(s, MLX5_DIAG_TS_RTC, 5000000000ull, 9000000, 1);
	stream_samples(s, &c);
	stream_time(s, MLX5_DIAG_TS_RTC, 5001000000ull, 10000100, 1);
	stream_lost(s, 5, 1, MLX5_DIAG_LOST_AUX_FULL);
	stream_end(s, 7, MLX5_DIAG_END_REMOVED);
}

static void split_check(struct stream *s);

static void split_at_every_byte_gives_the_same_items(void)
{
	struct stream s;

	mixed_stream(&s);
	split_check(&s);
	stream_free(&s);
}

static void split_check(struct stream *sp)
{
	struct stream s = *sp;
	struct item_list ref = { 0 }, got = { 0 };
	struct outcome o;
	size_t cut, room;
	int mismatches = 0;

	o = decode_whole(&s, &ref);
	CHECK_INT(o.err, 0, "reference decodes");
	CHECK(!o.saw_session_not_last, "SESSION is always last of its call");
	CHECK(ref.n > 30, "reference has %zu items", ref.n);

	for (cut = 0; cut <= s.len; cut++) {
		for (room = 1; room <= 3; room += 2) {
			got.n = 0;
			o = decode_pieces(NULL, s.buf, s.len, &cut, 1, room, &got);
			if (o.err || !same_items(&ref, &got) ||
			    o.saw_session_not_last)
				mismatches++;
		}
	}
	CHECK_INT(mismatches, 0, "two pieces at every offset, rooms 1 and 3");

	for (room = 1; room <= 2; room++) {
		got.n = 0;
		o = decode_bytewise(NULL, &s, room, &got);
		CHECK_INT(o.err, 0, "byte at a time decodes");
		CHECK(same_items(&ref, &got),
		      "byte at a time, room %zu: %zu items, want %zu", room,
		      got.n, ref.n);
	}
	got.n = 0;
	o = decode_pieces(NULL, s.buf, s.len, NULL, 0, 1, &got);
	CHECK(same_items(&ref, &got), "whole input, item array of 1");
	list_free(&ref);
	list_free(&got);
}

static void need_more_consumes_whole_records_only(void)
{
	struct stream s;
	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[256];
	size_t first, last, size, count;
	int ret;

	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	first = s.len;
	mlx5diag_decoder_init(&dec, NULL);
	size = s.len;
	count = 256;
	ret = mlx5diag_decode(&dec, s.buf, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_DONE, "SESSION alone: done");
	stream_time(&s, MLX5_DIAG_TS_FRC, 1, 1, 0);
	last = stream_end(&s, 0, MLX5_DIAG_END_STOPPED);
	size = s.len - 5 - first;
	count = 256;
	ret = mlx5diag_decode(&dec, s.buf + first, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_NEED_MORE, "need more");
	CHECK_U64(size, last - first, "consumed up to the cut record");
	CHECK_U64(count, 1, "the TIME item");
	size = 4;
	count = 256;
	ret = mlx5diag_decode(&dec, s.buf + last, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_NEED_MORE, "less than a header: need more");
	CHECK_U64(size, 0, "nothing consumed");
	CHECK_INT(mlx5diag_decode_end(&dec, 4), -EBADMSG, "ends inside a record");
	CHECK_INT(mlx5diag_decode_end(&dec, 0), -EBADMSG, "and the error stays");
	mlx5diag_decoder_exit(&dec);
	stream_free(&s);
}

static void resuming_on_another_record_is_refused(void)
{
	struct stream s;
	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[4];
	struct stream_samples a = samples(MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC,
					  2, ids2, 0, 3, 1000, 10, 1);
	size_t off, samples_off, size, count;
	uint64_t eoff = 0;
	int ret;

	stream_init(&s);
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(&s, MLX5_DIAG_TS_FRC, 900, 900000, 0);
	samples_off = stream_samples(&s, &a);
	stream_end(&s, 3, MLX5_DIAG_END_STOPPED);
	mlx5diag_decoder_init(&dec, NULL);
	size = s.len;
	count = 4;
	mlx5diag_decode(&dec, s.buf, &size, items, &count);
	off = size;
	size = s.len - off;
	count = 4;
	ret = mlx5diag_decode(&dec, s.buf + off, &size, items, &count);
	CHECK_INT(ret, MLX5DIAG_MORE_ITEMS, "array full inside SAMPLES");
	CHECK_U64(off + size, samples_off, "SAMPLES not consumed yet");
	CHECK_U64(count, 4, "time + 3 values");
	off += size;
	size = s.len - off;
	count = 4;
	/* skip the SAMPLES record: give the END record instead */
	ret = mlx5diag_decode(&dec, s.buf + s.len - 24, &(size_t){ 24 }, items,
			      &count);
	CHECK_INT(ret, -EINVAL, "another record refused");
	CHECK(mlx5diag_error_message(&dec, &eoff) != NULL, "message");
	CHECK_U64(eoff, samples_off, "at the stream offset the decoder was at");
	mlx5diag_decoder_exit(&dec);
	stream_free(&s);
}

/* ---- snapshot mode: chunks ---- */

#define MAX_CHUNKS	8

/*
 * A stream as the driver writes it in snapshot mode, and the same records
 * without the chunk headers (SYNC, SESSION repeat, TIME repeats).
 */
struct chunked {
	struct stream s, ref;
	size_t starts[MAX_CHUNKS];	/* SYNC offsets in s */
	unsigned int header_times[MAX_CHUNKS];
	size_t nr;
};

/* FRC at 156250 kHz (6.4 ns per clock), format 0, the ICMC counters. */
static const struct stream_session chunk_run = {
	.run = 3, .out_format = MLX5_DIAG_FORMAT_0,
	.ts_source = MLX5_DIAG_TS_FRC, .freq_khz = 156250, .num_ids = 3,
	.ids = ids3, .period_ns = 100000, .identifier = "sim:0",
};

/* Clock pairs, 2 ns off the nominal rate per 6400 clocks. */
static const uint64_t chunk_times[][2] = {
	{ 100000, 5000000 }, { 106400, 5040958 }, { 112800, 5081916 },
};

/* SYNC, and unless a run starts, the repeat and the first NT times. */
static void chunk_start(struct chunked *c, int repeat, unsigned int nt)
{
	struct stream_session d = chunk_run;
	unsigned int i;

	c->starts[c->nr] = stream_sync(&c->s);
	c->header_times[c->nr++] = repeat ? nt : 0;
	if (!repeat)
		return;
	d.flags = MLX5_DIAG_SESSION_F_CHUNK;
	stream_session(&c->s, &d);
	for (i = 0; i < nt; i++)
		stream_time(&c->s, MLX5_DIAG_TS_FRC, chunk_times[i][0],
			    chunk_times[i][1], 5);
}

static struct stream_samples chunk_samples(uint64_t first, uint32_t nr,
					   uint64_t t0)
{
	return samples(MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC, 3, ids3, first,
		       nr, t0, 640, 7);
}

/* The same record in both streams. */
static void both_session(struct chunked *c, const struct stream_session *d)
{
	stream_session(&c->s, d);
	stream_session(&c->ref, d);
}

static void both_time(struct chunked *c, unsigned int i)
{
	stream_time(&c->s, MLX5_DIAG_TS_FRC, chunk_times[i][0],
		    chunk_times[i][1], 5);
	stream_time(&c->ref, MLX5_DIAG_TS_FRC, chunk_times[i][0],
		    chunk_times[i][1], 5);
}

static void both_samples(struct chunked *c, uint64_t first, uint32_t nr,
			 uint64_t t0)
{
	struct stream_samples d = chunk_samples(first, nr, t0);

	stream_samples(&c->s, &d);
	stream_samples(&c->ref, &d);
}

/*
 * Run 3: samples 0-2; 3-4 after a new TIME; 5-6 cut from the same batch
 * (a chunk of their own), then a PERIOD; 7-8 lost to the firmware, a TIME
 * and sample 9, END. Then run 4 starts its own chunk.
 */
static void chunked_stream(struct chunked *c)
{
	struct stream_session r4 = chunk_run;
	struct stream *both[2];
	size_t rep, i;

	memset(c, 0, sizeof(*c));
	both[0] = &c->s;
	both[1] = &c->ref;
	chunk_start(c, 0, 0);
	both_session(c, &chunk_run);
	both_time(c, 0);
	both_samples(c, 0, 3, 98000);
	chunk_start(c, 1, 1);
	both_time(c, 1);
	both_samples(c, 3, 2, 101000);
	chunk_start(c, 1, 2);
	both_samples(c, 5, 2, 103000);
	for (i = 0; i < 2; i++)
		stream_period(both[i], MLX5_DIAG_TS_FRC, 7, 106000, 50000,
			      52428, 13);
	chunk_start(c, 1, 2);
	/* this repeat has the period of the PERIOD record */
	rep = c->starts[c->nr - 1] + sizeof(struct mlx5_diag_rec_sync);
	c->s.buf[rep + offsetof(struct mlx5_diag_rec_session,
				log_sample_period)] = 13;
	stream_put64(&c->s, rep + offsetof(struct mlx5_diag_rec_session,
					   period_ns_requested), 50000);
	stream_put64(&c->s, rep + offsetof(struct mlx5_diag_rec_session,
					   period_ns_actual), 52428);
	for (i = 0; i < 2; i++)
		stream_lost(both[i], 7, 2, MLX5_DIAG_LOST_FW_OVERWRITE);
	both_time(c, 2);
	both_samples(c, 9, 1, 110000);
	for (i = 0; i < 2; i++)
		stream_end(both[i], 10, MLX5_DIAG_END_STOPPED);
	r4.run = 4;
	chunk_start(c, 0, 0);
	both_session(c, &r4);
	for (i = 0; i < 2; i++)
		stream_time(both[i], MLX5_DIAG_TS_FRC, 200000, 6000000, 5);
	both_samples(c, 0, 1, 199000);
}

static void chunked_free(struct chunked *c)
{
	stream_free(&c->s);
	stream_free(&c->ref);
}

/* Read from the start of the stream, the chunk headers change nothing. */
static void chunk_headers_continue_the_run(void)
{
	struct chunked c;
	struct item_list ref = { 0 }, got = { 0 };
	struct outcome o;
	size_t i, values = 0;

	chunked_stream(&c);
	o = decode_whole(&c.ref, &ref);
	CHECK_INT(o.err, 0, "the stream without chunk headers decodes");
	o = decode_whole(&c.s, &got);
	CHECK_INT(o.err, 0, "the chunked stream decodes");
	CHECK(same_items(&ref, &got), "the same items: %zu, want %zu", got.n,
	      ref.n);
	/* 2 SESSION, 4 TIME, 9 samples of 3 values, PERIOD, LOST, END */
	CHECK_U64(ref.n, 2 + 4 + 27 + 3, "items");
	for (i = 0; i < ref.n; i++) {
		values += ref.v[i].kind == MLX5DIAG_ITEM_VALUE;
		CHECK(ref.v[i].kind != MLX5DIAG_ITEM_LOST ||
		      ref.v[i].lost.cause == MLX5_DIAG_LOST_FW_OVERWRITE,
		      "item %zu: only the LOST record's loss", i);
	}
	CHECK_U64(values, 27, "values");
	split_check(&c.s);
	list_free(&ref);
	list_free(&got);
	chunked_free(&c);
}

/*
 * From each chunk start: a SESSION item (flags F_CHUNK for a repeat),
 * TIME items of the header's repeats, then exactly the items of the
 * whole-stream decode from that point: values, perf times and their
 * flags, losses, END, and no gap before the first sample.
 */
static void each_chunk_decodes_on_its_own(void)
{
	struct chunked c;
	struct item_list ref = { 0 };
	size_t k, first_ref, i;

	chunked_stream(&c);
	decode_whole(&c.ref, &ref);
	for (k = 0; k < c.nr; k++) {
		struct item_list got = { 0 };
		size_t len = c.s.len - c.starts[k], h = c.header_times[k];
		const struct mlx5diag_session *ss;
		struct mlx5diag_decoder dec;
		struct mlx5diag_item items[4];
		size_t size, count;
		struct outcome o;

		o = decode_pieces(NULL, c.s.buf + c.starts[k], len, NULL, 0,
				  4096, &got);
		CHECK(!o.err, "chunk %zu decodes: %d", k, o.err);
		CHECK(got.n > 1 + h, "chunk %zu: %zu items", k, got.n);
		if (got.n <= 1 + h)
			continue;
		CHECK_INT(got.v[0].kind, MLX5DIAG_ITEM_SESSION, "SESSION first");
		CHECK_U64(got.v[0].run, k == c.nr - 1 ? 4 : 3, "run");
		for (i = 1; i <= h; i++) {
			CHECK_INT(got.v[i].kind, MLX5DIAG_ITEM_TIME, "header TIME");
			CHECK_U64(got.v[i].dev_time, chunk_times[i - 1][0], "dev");
			CHECK_U64(got.v[i].perf_time, chunk_times[i - 1][1], "perf");
		}
		first_ref = ref.n - (got.n - 1 - h);
		CHECK(first_ref <= ref.n && !memcmp(got.v + 1 + h, ref.v + first_ref,
				(got.n - 1 - h) * sizeof(*got.v)),
		      "chunk %zu: the whole decode's last %zu items", k,
		      got.n - 1 - h);
		list_free(&got);

		/* the session says whether the run started before */
		mlx5diag_decoder_init(&dec, NULL);
		size = len;
		count = 4;
		mlx5diag_decode(&dec, c.s.buf + c.starts[k], &size, items, &count);
		ss = mlx5diag_session(&dec);
		CHECK(ss && ss->flags == (h ? MLX5_DIAG_SESSION_F_CHUNK : 0u),
		      "chunk %zu: session flags %u", k, ss ? ss->flags : 99);
		CHECK(ss && ss->period_ns_actual == (k == 3 ? 52428u : 100000u),
		      "chunk %zu: the repeat's period", k);
		mlx5diag_decoder_exit(&dec);
	}
	list_free(&ref);
	chunked_free(&c);
}

/*
 * A snapshot's copy starts at any 8-aligned offset: find_sync gives the
 * next chunk start, in a buffer of exactly the copy's size.
 */
static void find_sync_finds_the_next_chunk(void)
{
	struct chunked c;
	size_t off, k = 0;
	int bad = 0;

	chunked_stream(&c);
	for (off = 0; off <= c.s.len; off += 8) {
		size_t len = c.s.len - off;
		uint8_t *copy = malloc(len ? len : 1);
		long want, got;

		memcpy(copy, c.s.buf + off, len);
		while (k < c.nr && c.starts[k] < off)
			k++;
		want = k < c.nr ? (long)(c.starts[k] - off) : -ENOENT;
		got = mlx5diag_find_sync(copy, len);
		if (got != want) {
			printf("#   at %zu: %ld, want %ld\n", off, got, want);
			bad++;
		}
		free(copy);
	}
	CHECK_INT(bad, 0, "every offset");
	chunked_free(&c);
}

/* find_sync wants the magic, alignment and a whole SESSION after it. */
static void find_sync_checks_what_follows(void)
{
	struct stream s;
	size_t sync, ses;
	uint8_t zero[8] = { 0 };

	CHECK_INT(mlx5diag_find_sync(NULL, 0), -ENOENT, "nothing");
	CHECK_INT(mlx5diag_find_sync(NULL, 8), -EINVAL, "NULL with a size");
	CHECK_INT(mlx5diag_find_sync(zero, sizeof(zero)), -ENOENT, "zeros");

	stream_init(&s);
	stream_raw(&s, MLX5_DIAG_REC_TIME, 24);	/* the tail of a record */
	sync = stream_sync(&s);
	ses = s.len;
	session(&s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), 24, "after 24 bytes");
	CHECK_INT(mlx5diag_find_sync(s.buf + 8, s.len - 8), 16, "from 8");
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len - 1), -ENOENT,
		  "SESSION cut by the end");
	CHECK_INT(mlx5diag_find_sync(s.buf + 4, s.len - 4), -ENOENT,
		  "not at an 8-aligned offset");
	s.buf[sync + 15] ^= 1;
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), -ENOENT, "another magic");
	s.buf[sync + 15] ^= 1;
	stream_put16(&s, ses + offsetof(struct mlx5_diag_rec_session, num_ids), 1);
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), -ENOENT,
		  "SESSION size and num_ids disagree");
	stream_put16(&s, ses + offsetof(struct mlx5_diag_rec_session, num_ids), 2);
	stream_put16(&s, ses, MLX5_DIAG_REC_TIME);
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), -ENOENT, "not a SESSION");
	stream_put16(&s, ses, MLX5_DIAG_REC_SESSION);
	stream_put32(&s, sync + 4, 8);
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), -ENOENT, "SYNC of 8 bytes");
	stream_put32(&s, sync + 4, 16);
	/* the first of two */
	stream_sync(&s);
	session(&s, 1, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), 24, "the first");
	s.buf[sync + 8] = 0;
	CHECK_INT(mlx5diag_find_sync(s.buf, s.len), (long)ses + 112,
		  "the second when the first is broken");
	stream_free(&s);
}

/*
 * A decode that starts inside a run does not know its next sample number
 * until the first SAMPLES or END record: no gap before it; later gaps as
 * usual.
 */
static void a_run_joined_late_has_no_gap_before_it(void)
{
	struct stream s;
	struct item_list l = { 0 };
	struct stream_session d = chunk_run;
	struct stream_samples a = chunk_samples(5, 2, 99000);
	struct stream_samples b = chunk_samples(9, 1, 99500);
	struct outcome o;

	d.flags = MLX5_DIAG_SESSION_F_CHUNK;
	stream_init(&s);
	stream_sync(&s);
	stream_session(&s, &d);
	stream_time(&s, MLX5_DIAG_TS_FRC, 100000, 5000000, 5);
	stream_samples(&s, &a);
	stream_samples(&s, &b);
	stream_end(&s, 12, MLX5_DIAG_END_STOPPED);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "decodes");
	/* SESSION, TIME, 6 values, LOST 7-8, 3 values, LOST 10-11, END */
	CHECK_U64(l.n, 14, "items");
	if (l.n == 14) {
		CHECK_U64(l.v[2].seq, 5, "first sample 5");
		CHECK_INT(l.v[8].kind, MLX5DIAG_ITEM_LOST, "a gap");
		CHECK_U64(l.v[8].seq, 7, "from 7");
		CHECK_U64(l.v[8].lost.count, 2, "2 samples");
		CHECK_U64(l.v[8].lost.cause, MLX5DIAG_LOST_UNACCOUNTED, "unaccounted");
		CHECK_U64(l.v[12].seq, 10, "a gap before END from 10");
		CHECK_U64(l.v[12].lost.count, 2, "2 samples");
		CHECK_INT(l.v[13].kind, MLX5DIAG_ITEM_END, "END");
	}
	list_free(&l);
	stream_free(&s);

	stream_init(&s);
	stream_sync(&s);
	stream_session(&s, &d);
	stream_time(&s, MLX5_DIAG_TS_FRC, 100000, 5000000, 5);
	stream_end(&s, 20, MLX5_DIAG_END_STOPPED);
	o = decode_whole(&s, &l);
	CHECK_INT(o.err, 0, "decodes");
	CHECK_U64(l.n, 3, "SESSION, TIME, END: no gap");
	if (l.n == 3)
		CHECK_U64(l.v[2].seq, 20, "END after 20 samples");
	list_free(&l);
	stream_free(&s);
}

/* ---- malformed streams ---- */

struct bad_case {
	const char *name;
	int err;
	/* builds the stream; returns the offset of the bad record */
	size_t (*build)(struct stream *s);
	uint32_t max_record_size;
	uint32_t max_ids;
};

/* SESSION (2 ids, format 1, FRC) + TIME: 112 + 32 bytes. */
static size_t prologue(struct stream *s)
{
	stream_init(s);
	session(s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	return stream_time(s, MLX5_DIAG_TS_FRC, 1000, 1000000, 0);
}

static struct stream_samples good_samples(void)
{
	return samples(MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 2, ids2, 0, 2,
		       900, 10, 1);
}

static size_t bad_size_not_multiple_of_8(struct stream *s)
{
	size_t off;

	prologue(s);
	off = stream_time(s, MLX5_DIAG_TS_FRC, 1001, 1000001, 0);
	stream_put32(s, off + 4, 36);
	return off;
}

static size_t bad_size_zero(struct stream *s)
{
	prologue(s);
	return stream_raw(s, MLX5_DIAG_REC_TIME, 0);
}

static size_t bad_size_below_struct(struct stream *s)
{
	prologue(s);
	return stream_raw(s, MLX5_DIAG_REC_TIME, 16);
}

static size_t bad_size_over_cap(struct stream *s)
{
	size_t off;

	prologue(s);
	off = stream_raw(s, MLX5_DIAG_REC_SAMPLES, 8);
	stream_put32(s, off + 4, 8192);		/* only the header is there */
	return off;
}

static size_t bad_unknown_type(struct stream *s)
{
	prologue(s);
	return stream_raw(s, 8, 32);
}

static size_t bad_type_zero(struct stream *s)
{
	stream_init(s);
	return stream_raw(s, 0, 8);
}

static size_t bad_abi_version(struct stream *s)
{
	prologue(s);
	stream_put16(s, offsetof(struct mlx5_diag_rec_session, abi_version), 2);
	return 0;
}

static size_t bad_session_size(struct stream *s)
{
	prologue(s);
	stream_put16(s, offsetof(struct mlx5_diag_rec_session, num_ids), 3);
	return 0;
}

static size_t bad_session_no_ids(struct stream *s)
{
	stream_init(s);
	session(s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 0, ids2);
	return 0;
}

static size_t bad_session_too_many_ids(struct stream *s)
{
	prologue(s);	/* max_ids 1 in the case */
	return 0;
}

static size_t bad_session_format(struct stream *s)
{
	prologue(s);
	s->buf[offsetof(struct mlx5_diag_rec_session, out_format)] = 3;
	return 0;
}

static size_t bad_session_ts_source(struct stream *s)
{
	prologue(s);
	s->buf[offsetof(struct mlx5_diag_rec_session, ts_source)] = 2;
	return 0;
}

static size_t bad_session_frc_freq_zero(struct stream *s)
{
	prologue(s);
	stream_put32(s, offsetof(struct mlx5_diag_rec_session, freq_khz), 0);
	return 0;
}

static size_t bad_samples_before_session(struct stream *s)
{
	struct stream_samples d = good_samples();

	stream_init(s);
	return stream_samples(s, &d);
}

static size_t bad_time_before_session(struct stream *s)
{
	stream_init(s);
	return stream_time(s, MLX5_DIAG_TS_FRC, 1, 1, 0);
}

static size_t bad_samples_before_time(struct stream *s)
{
	struct stream_samples d = good_samples();

	stream_init(s);
	session(s, 0, MLX5_DIAG_FORMAT_1, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	return stream_samples(s, &d);
}

static size_t bad_samples_sample_size(struct stream *s)
{
	struct stream_samples d = good_samples();
	size_t off;

	prologue(s);
	off = stream_samples(s, &d);
	stream_put16(s, off + offsetof(struct mlx5_diag_rec_samples, sample_size), 24);
	return off;
}

static size_t bad_samples_format(struct stream *s)
{
	struct stream_samples d = good_samples();

	prologue(s);
	d.out_format = MLX5_DIAG_FORMAT_2;
	return stream_samples(s, &d);
}

static size_t bad_samples_num_ids(struct stream *s)
{
	struct stream_samples d = good_samples();

	prologue(s);
	d.num_ids = 3;
	d.ids = ids3;
	return stream_samples(s, &d);
}

static size_t bad_samples_count(struct stream *s)
{
	struct stream_samples d = good_samples();
	size_t off;

	prologue(s);
	off = stream_samples(s, &d);
	stream_put32(s, off + offsetof(struct mlx5_diag_rec_samples, nr_samples), 3);
	return off;
}

static size_t bad_format0_data_id(struct stream *s)
{
	struct stream_samples d = samples(MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC,
					  2, ids2, 0, 2, 900, 10, 1);
	size_t off;

	stream_init(s);
	session(s, 0, MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(s, MLX5_DIAG_TS_FRC, 1000, 1000000, 0);
	off = stream_samples(s, &d);
	/* sample 1, entry 1 */
	stream_put64(s, off + 24 + 56 + 8 + 24, 0x1234);
	return off;
}

static size_t bad_format0_sample_id(struct stream *s)
{
	struct stream_samples d = samples(MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC,
					  2, ids2, 0, 2, 900, 10, 1);
	size_t off;

	stream_init(s);
	session(s, 0, MLX5_DIAG_FORMAT_0, MLX5_DIAG_TS_FRC, 1000, 2, ids2);
	stream_time(s, MLX5_DIAG_TS_FRC, 1000, 1000000, 0);
	off = stream_samples(s, &d);
	stream_put32(s, off + 24 + 56, 5);
	return off;
}

static size_t bad_time_dev_backwards(struct stream *s)
{
	prologue(s);
	return stream_time(s, MLX5_DIAG_TS_FRC, 999, 1000001, 0);
}

static size_t bad_time_perf_backwards(struct stream *s)
{
	prologue(s);
	return stream_time(s, MLX5_DIAG_TS_FRC, 1001, 999999, 0);
}

static size_t bad_seq_backwards(struct stream *s)
{
	struct stream_samples d = good_samples();

	prologue(s);
	stream_samples(s, &d);
	d.first_seq = 1;
	return stream_samples(s, &d);
}

static size_t bad_seq_overflow(struct stream *s)
{
	struct stream_samples d = good_samples();

	prologue(s);
	d.first_seq = UINT64_MAX;
	return stream_samples(s, &d);
}

static size_t bad_samples_after_end(struct stream *s)
{
	struct stream_samples d = good_samples();

	prologue(s);
	stream_end(s, 0, MLX5_DIAG_END_STOPPED);
	return stream_samples(s, &d);
}

static size_t bad_truncated(struct stream *s)
{
	size_t off;

	prologue(s);
	off = stream_time(s, MLX5_DIAG_TS_FRC, 1001, 1000001, 0);
	s->len -= 8;
	return off;
}

static size_t bad_sync_magic(struct stream *s)
{
	size_t off;

	prologue(s);
	off = stream_sync(s);
	s->buf[off + 8] = 'm';
	return off;
}

/* prologue + a SYNC and a repeat of run 0 as STREAM_SESSION D says */
static size_t repeat_of(struct stream *s, struct stream_session *d)
{
	size_t off;

	prologue(s);
	stream_sync(s);
	d->flags = MLX5_DIAG_SESSION_F_CHUNK;
	off = stream_session(s, d);
	stream_time(s, MLX5_DIAG_TS_FRC, 1000, 1000000, 0);
	return off;
}

static struct stream_session prologue_session(void)
{
	struct stream_session d = {
		.run = 0, .out_format = MLX5_DIAG_FORMAT_1,
		.ts_source = MLX5_DIAG_TS_FRC, .freq_khz = 1000, .num_ids = 2,
		.ids = ids2, .period_ns = 100000, .identifier = "0000:08:00.0",
	};

	return d;
}

static size_t bad_repeat_other_run(struct stream *s)
{
	struct stream_session d = prologue_session();

	d.run = 1;
	return repeat_of(s, &d);
}

static size_t bad_repeat_other_ids(struct stream *s)
{
	struct stream_session d = prologue_session();
	static const uint64_t other[] = { 0x1020000100000001ull, 0x1140000100000002ull };

	d.ids = other;
	return repeat_of(s, &d);
}

static size_t bad_repeat_other_format(struct stream *s)
{
	struct stream_session d = prologue_session();

	d.out_format = MLX5_DIAG_FORMAT_2;
	return repeat_of(s, &d);
}

static size_t bad_repeat_other_identifier(struct stream *s)
{
	struct stream_session d = prologue_session();

	d.identifier = "0000:08:00.1";
	return repeat_of(s, &d);
}

static size_t bad_repeat_after_end(struct stream *s)
{
	struct stream_session d = prologue_session();
	size_t off;

	prologue(s);
	stream_end(s, 0, MLX5_DIAG_END_STOPPED);
	stream_sync(s);
	d.flags = MLX5_DIAG_SESSION_F_CHUNK;
	off = stream_session(s, &d);
	return off;
}

/* after a repeat, a TIME that repeats neither time point is a TIME */
static size_t bad_repeat_time_backwards(struct stream *s)
{
	struct stream_session d = prologue_session();

	repeat_of(s, &d);
	return stream_time(s, MLX5_DIAG_TS_FRC, 999, 1000000, 0);
}

static const struct bad_case bad_cases[] = {
	{ .name = "size not a multiple of 8", .err = -EBADMSG, .build = bad_size_not_multiple_of_8 },
	{ .name = "size 0", .err = -EBADMSG, .build = bad_size_zero },
	{ .name = "size below the type's struct", .err = -EBADMSG, .build = bad_size_below_struct },
	{ .name = "size over the cap", .err = -EMSGSIZE, .build = bad_size_over_cap, .max_record_size = 4096 },
	{ .name = "unknown type 8", .err = -ENOMSG, .build = bad_unknown_type },
	{ .name = "type 0", .err = -ENOMSG, .build = bad_type_zero },
	{ .name = "abi_version 2", .err = -EPROTONOSUPPORT, .build = bad_abi_version },
	{ .name = "SESSION size and num_ids disagree", .err = -EBADMSG, .build = bad_session_size },
	{ .name = "SESSION without ids", .err = -EBADMSG, .build = bad_session_no_ids },
	{ .name = "SESSION over max_ids", .err = -E2BIG, .build = bad_session_too_many_ids, .max_ids = 1 },
	{ .name = "SESSION format 3", .err = -EBADMSG, .build = bad_session_format },
	{ .name = "SESSION ts_source 2", .err = -EBADMSG, .build = bad_session_ts_source },
	{ .name = "SESSION FRC at 0 kHz", .err = -EBADMSG, .build = bad_session_frc_freq_zero },
	{ .name = "SAMPLES before SESSION", .err = -EPROTO, .build = bad_samples_before_session },
	{ .name = "TIME before SESSION", .err = -EPROTO, .build = bad_time_before_session },
	{ .name = "SAMPLES before TIME", .err = -EPROTO, .build = bad_samples_before_time },
	{ .name = "SAMPLES sample_size", .err = -EBADMSG, .build = bad_samples_sample_size },
	{ .name = "SAMPLES format", .err = -EBADMSG, .build = bad_samples_format },
	{ .name = "SAMPLES num_ids", .err = -EBADMSG, .build = bad_samples_num_ids },
	{ .name = "SAMPLES nr_samples vs size", .err = -EBADMSG, .build = bad_samples_count },
	{ .name = "format 0 data ID", .err = -EBADMSG, .build = bad_format0_data_id },
	{ .name = "format 0 sample_id", .err = -EBADMSG, .build = bad_format0_sample_id },
	{ .name = "TIME dev_time backwards", .err = -EPROTO, .build = bad_time_dev_backwards },
	{ .name = "TIME perf_time backwards", .err = -EPROTO, .build = bad_time_perf_backwards },
	{ .name = "sample numbers backwards", .err = -EPROTO, .build = bad_seq_backwards },
	{ .name = "sample numbers past 2^64", .err = -EBADMSG, .build = bad_seq_overflow },
	{ .name = "SAMPLES after END", .err = -EPROTO, .build = bad_samples_after_end },
	{ .name = "stream ends inside a record", .err = -EBADMSG, .build = bad_truncated },
	{ .name = "SYNC magic", .err = -EBADMSG, .build = bad_sync_magic },
	{ .name = "SESSION repeat of another run", .err = -EPROTO, .build = bad_repeat_other_run },
	{ .name = "SESSION repeat of other data IDs", .err = -EPROTO, .build = bad_repeat_other_ids },
	{ .name = "SESSION repeat in another format", .err = -EPROTO, .build = bad_repeat_other_format },
	{ .name = "SESSION repeat of another identifier", .err = -EPROTO, .build = bad_repeat_other_identifier },
	{ .name = "SESSION repeat after END", .err = -EPROTO, .build = bad_repeat_after_end },
	{ .name = "TIME after a repeat going backwards", .err = -EPROTO, .build = bad_repeat_time_backwards },
};

static void malformed_streams_give_code_and_offset(void)
{
	size_t c;

	for (c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++) {
		const struct bad_case *b = &bad_cases[c];
		struct mlx5diag_config cfg = {
			.max_record_size = b->max_record_size,
			.max_ids = b->max_ids,
		};
		struct item_list whole = { 0 }, bytewise = { 0 };
		struct stream s;
		size_t off = b->build(&s);
		struct outcome o1, o2;

		o1 = decode_pieces(&cfg, s.buf, s.len, NULL, 0, 4096, &whole);
		o2 = decode_bytewise(&cfg, &s, 1, &bytewise);
		CHECK(o1.err == b->err && o1.err_offset == off,
		      "%s: error %d (%s) at %llu, want %d at %zu", b->name,
		      o1.err, mlx5diag_strerror(o1.err),
		      (unsigned long long)o1.err_offset, b->err, off);
		CHECK(o2.err == b->err && o2.err_offset == off,
		      "%s, byte at a time: error %d at %llu, want %d at %zu",
		      b->name, o2.err, (unsigned long long)o2.err_offset,
		      b->err, off);
		CHECK(same_items(&whole, &bytewise),
		      "%s: the same items before the error", b->name);
		list_free(&whole);
		list_free(&bytewise);
		stream_free(&s);
	}
}

static void errors_are_sticky_until_reset(void)
{
	struct stream s, good;
	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[16];
	size_t size = 0, count = 16;
	uint64_t off = 99;

	bad_time_before_session(&s);
	mlx5diag_decoder_init(&dec, NULL);
	size = s.len;
	CHECK_INT(mlx5diag_decode(&dec, s.buf, &size, items, &count), -EPROTO,
		  "first");
	CHECK_U64(size, 0, "nothing consumed");
	CHECK_U64(count, 0, "nothing produced");
	prologue(&good);
	size = good.len;
	count = 16;
	CHECK_INT(mlx5diag_decode(&dec, good.buf, &size, items, &count), -EPROTO,
		  "still failing on good input");
	CHECK(mlx5diag_error_message(&dec, &off) != NULL && off == 0,
	      "message and offset kept");
	mlx5diag_decoder_reset(&dec);
	CHECK(mlx5diag_error_message(&dec, NULL) == NULL, "reset clears it");
	size = good.len;
	count = 16;
	CHECK_INT(mlx5diag_decode(&dec, good.buf, &size, items, &count),
		  MLX5DIAG_MORE_ITEMS, "decodes after reset");
	mlx5diag_decoder_exit(&dec);
	stream_free(&s);
	stream_free(&good);
}

static void bad_arguments_are_einval(void)
{
	struct mlx5diag_decoder dec;
	struct mlx5diag_item items[1];
	struct mlx5diag_config big = { .max_ids = 70000 };
	uint8_t b[8] = { 0 };
	size_t size = 8, count = 0;

	CHECK_INT(mlx5diag_decoder_init(&dec, &big), -EINVAL, "max_ids > 65535");
	mlx5diag_decoder_init(&dec, NULL);
	CHECK_INT(mlx5diag_decode(&dec, b, &size, items, &count), -EINVAL,
		  "no room");
	count = 1;
	CHECK_INT(mlx5diag_decode(&dec, NULL, &size, items, &count), -EINVAL,
		  "NULL buffer with a size");
	CHECK_INT(mlx5diag_decode(&dec, b, &size, NULL, &count), -EINVAL,
		  "NULL items");
	size = 0;
	CHECK_INT(mlx5diag_decode(&dec, NULL, &size, items, &count),
		  MLX5DIAG_DONE, "empty input");
	CHECK_U64(count, 0, "no items");
	mlx5diag_decoder_exit(&dec);
}

static void names_cover_every_value(void)
{
	CHECK_STR(mlx5diag_item_kind_name(MLX5DIAG_ITEM_TIME), "time", "kind");
	CHECK_STR(mlx5diag_item_kind_name(0), "unknown", "kind 0");
	CHECK_STR(mlx5diag_item_kind_name(99), "unknown", "kind 99");
	CHECK_STR(mlx5diag_lost_cause_name(0), "unaccounted", "cause 0");
	CHECK_STR(mlx5diag_lost_cause_name(MLX5_DIAG_LOST_RESET), "reset", "cause 3");
	CHECK_STR(mlx5diag_lost_cause_name(4), "unknown", "cause 4");
	CHECK_STR(mlx5diag_end_reason_name(MLX5_DIAG_END_FULL), "full", "reason");
	CHECK_STR(mlx5diag_end_reason_name(MLX5_DIAG_END_STALLED), "stalled", "reason");
	CHECK_STR(mlx5diag_format_name(2), "format2", "format");
	CHECK_STR(mlx5diag_ts_source_name(1), "rtc", "ts source");
	CHECK_STR(mlx5diag_vclass_name(MLX5_DIAG_VCLASS_STAT_MAX), "stat_max",
		  "vclass");
	CHECK_STR(mlx5diag_mode_name(MLX5_DIAG_MODE_SINGLE), "single", "mode");
	CHECK_STR(mlx5diag_strerror(-EPROTO), "records out of order", "EPROTO");
	CHECK_STR(mlx5diag_strerror(MLX5DIAG_NEED_MORE),
		  "the input ends inside a record", "need more");
	CHECK_STR(mlx5diag_strerror(-EIO), "unknown", "foreign errno");
	CHECK_STR(mlx5diag_strerror(-ENOENT),
		  "no chunk start (SYNC, SESSION) in the input", "ENOENT");
	CHECK_STR(mlx5diag_rec_type_name(MLX5_DIAG_REC_SAMPLES), "SAMPLES",
		  "record type");
	CHECK_STR(mlx5diag_rec_type_name(MLX5_DIAG_REC_SYNC), "SYNC", "SYNC");
	CHECK_STR(mlx5diag_rec_type_name(0), "unknown", "record type 0");
	CHECK_STR(mlx5diag_rec_type_name(8), "unknown", "record type 8");
}

static void items_in_words(void)
{
	struct mlx5diag_item it = { .run = 2, .seq = 7, .data_id = 0x1020000100000001ull,
				    .value = 42, .dev_time = 900,
				    .perf_time = 5000000001ull };
	char buf[160];

	it.kind = MLX5DIAG_ITEM_VALUE;
	mlx5diag_item_text(&it, buf, sizeof(buf));
	CHECK_STR(buf, "VALUE run 2 seq 7 id 0x1020000100000001 value 42 dev 900 "
		  "perf 5.000000001", "value");
	it.kind = MLX5DIAG_ITEM_LOST;
	it.lost.count = 3;
	it.lost.cause = MLX5_DIAG_LOST_AUX_FULL;
	mlx5diag_item_text(&it, buf, sizeof(buf));
	CHECK_STR(buf, "LOST run 2 samples 7..9 (3): aux_full", "lost");
	it.kind = MLX5DIAG_ITEM_PERIOD;
	it.period.ns_requested = 1000;
	it.period.ns_actual = 1024;
	mlx5diag_item_text(&it, buf, sizeof(buf));
	CHECK_STR(buf, "PERIOD run 2 from sample 7 at 5.000000001: 1024 ns "
		  "(requested 1000)", "period");
	it.kind = MLX5DIAG_ITEM_END;
	it.end.reason = MLX5_DIAG_END_FULL;
	mlx5diag_item_text(&it, buf, sizeof(buf));
	CHECK_STR(buf, "END run 2 after 7 samples: full", "end");
	it.kind = MLX5DIAG_ITEM_TIME;
	it.time.uncertainty_ns = 250;
	mlx5diag_item_text(&it, buf, sizeof(buf));
	CHECK_STR(buf, "TIME run 2 dev 900 perf 5.000000001 +-250 ns", "time");
	it.kind = MLX5DIAG_ITEM_SESSION;
	mlx5diag_item_text(&it, buf, sizeof(buf));
	CHECK_STR(buf, "SESSION run 2", "session");
	it.kind = 99;
	CHECK_INT(mlx5diag_item_text(&it, buf, 8), 13, "the length it needed");
	CHECK_STR(buf, "unknown", "kind 99, cut to 8 bytes");
}

static void session_in_words(void)
{
	struct mlx5diag_session s = { .run = 3, .num_ids = 16, .freq_khz = 1000000,
				      .mode = MLX5_DIAG_MODE_REPETITIVE,
				      .out_format = MLX5_DIAG_FORMAT_1,
				      .ts_source = MLX5_DIAG_TS_FRC,
				      .period_ns_requested = 100000,
				      .period_ns_actual = 131072,
				      .identifier = "0000:03:00.0" };
	char buf[160];

	mlx5diag_session_text(&s, buf, sizeof(buf));
	CHECK_STR(buf, "SESSION run 3 0000:03:00.0 repetitive format1 frc 1000000 kHz, "
		  "period 131072 ns (requested 100000), 16 data IDs", "frc session");
	s.ts_source = MLX5_DIAG_TS_RTC;
	mlx5diag_session_text(&s, buf, sizeof(buf));
	CHECK_STR(buf, "SESSION run 3 0000:03:00.0 repetitive format1 rtc, "
		  "period 131072 ns (requested 100000), 16 data IDs", "rtc session");
}

int main(void)
{
	RUN(format0_frc_entries_have_their_own_times);
	RUN(format1_frc_sample_has_earliest_and_latest);
	RUN(format2_frc_values_are_low_32_bits);
	RUN(rtc_times_normalise_to_ns);
	RUN(time_maps_between_the_last_two_time_records);
	RUN(time_bound_follows_the_stated_uncertainties);
	RUN(time_rounds_the_offset_down);
	RUN(time_uses_nominal_frequency_before_two_records);
	RUN(time_is_exact_for_clocks_near_2_64);
	RUN(time_saturates_at_the_top);
	RUN(time_divides_exactly_for_any_span);
	RUN(lost_records_and_gaps_are_items);
	RUN(lost_records_in_any_order_cover_the_gap);
	RUN(period_item_carries_the_new_period);
	RUN(session_item_ends_its_call);
	RUN(split_at_every_byte_gives_the_same_items);
	RUN(chunk_headers_continue_the_run);
	RUN(each_chunk_decodes_on_its_own);
	RUN(find_sync_finds_the_next_chunk);
	RUN(find_sync_checks_what_follows);
	RUN(a_run_joined_late_has_no_gap_before_it);
	RUN(need_more_consumes_whole_records_only);
	RUN(resuming_on_another_record_is_refused);
	RUN(malformed_streams_give_code_and_offset);
	RUN(errors_are_sticky_until_reset);
	RUN(bad_arguments_are_einval);
	RUN(names_cover_every_value);
	RUN(items_in_words);
	RUN(session_in_words);
	return runner_done();
}
