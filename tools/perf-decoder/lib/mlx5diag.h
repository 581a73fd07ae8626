/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmlx5diag: decode the AUX record stream of an mlx5_diag sampling session
 * (include/uapi/linux/mlx5_diag.h, "Sampling sessions") into items: one per
 * data-ID value of a sample, plus session, time-sync, lost, period and end
 * items. Pure decoding: no perf headers, no I/O, no allocation after
 * mlx5diag_decoder_init().
 *
 * Typical use:
 *
 *	struct mlx5diag_decoder dec;
 *	struct mlx5diag_item items[256];
 *
 *	mlx5diag_decoder_init(&dec, NULL);
 *	for each chunk of the stream, appended to what was left over:
 *		do {
 *			size_t size = avail;
 *			size_t count = 256;
 *			ret = mlx5diag_decode(&dec, p, &size, items, &count);
 *			use items[0 .. count - 1];
 *			p += size; avail -= size;
 *		} while (ret == MLX5DIAG_MORE_ITEMS);
 *		if (ret < 0) report mlx5diag_error_message(&dec, &offset);
 *		keep the avail bytes left (ret == MLX5DIAG_NEED_MORE) for next time
 *	at the end of the stream: mlx5diag_decode_end(&dec, avail);
 *	mlx5diag_decoder_exit(&dec);
 *
 * A snapshot (a copy of an AUX area in snapshot mode, starting anywhere
 * inside a record): mlx5diag_decoder_reset(), then decode from
 * mlx5diag_find_sync()'s offset to the end of the copy, one snapshot per
 * decode (consecutive snapshots overlap, or not).
 */
#ifndef MLX5DIAG_H
#define MLX5DIAG_H

#include <stddef.h>
#include <stdint.h>

#include <linux/mlx5_diag.h>

/* ---- return codes of mlx5diag_decode() (errors are negative errno) ---- */

/*
 * MLX5DIAG_DONE: every byte of the input was decoded (it ended on a record
 * boundary) and every item of it returned.
 * MLX5DIAG_NEED_MORE: the input ends inside a record: the bytes from
 * buf + *size_inout on are an incomplete record the decoder did not
 * consume; pass them again, followed by more of the stream.
 * MLX5DIAG_MORE_ITEMS: the call stopped before the end of the input, with
 * items still to come: the item array is full, or the last item returned
 * is a SESSION item (a call always stops after one, so that
 * mlx5diag_session() describes every item the caller holds). Call again
 * with buf + *size_inout and the remaining length.
 *
 * Errors (the decoder keeps the first one until mlx5diag_decoder_reset();
 * mlx5diag_error_message() gives the text and the stream offset):
 *   -EBADMSG         a record whose size or layout is wrong for its type
 *                    (size not a multiple of 8, smaller than its struct,
 *                    SESSION size and num_ids disagree, SAMPLES
 *                    sample_size/format/size disagree with the session,
 *                    format 0 data ID or sample_id not the expected one,
 *                    a bad format, ts_source, FRC freq_khz 0, a SYNC
 *                    without MLX5_DIAG_SYNC_MAGIC), or a stream that ends
 *                    inside a record (mlx5diag_decode_end())
 *   -EMSGSIZE        a record larger than the decoder's max_record_size
 *   -ENOMSG          an unknown record type
 *   -EPROTONOSUPPORT a SESSION record of an unknown abi_version
 *   -EPROTO          records out of order: SAMPLES/TIME/LOST/PERIOD/END
 *                    before any SESSION, SAMPLES before a TIME record of
 *                    its run, a TIME record whose dev_time or perf_time
 *                    goes backwards, sample numbers that go backwards, a
 *                    SESSION repeat (MLX5_DIAG_SESSION_F_CHUNK) of another
 *                    run than the open one, after its END, or describing
 *                    the run otherwise (data IDs, format, clock, mode,
 *                    identifier)
 *   -E2BIG           a SESSION with more data IDs than max_ids
 *   -EINVAL          a wrong argument, or a resumed call whose input does
 *                    not start with the record the decoder was inside
 *   -ENOMEM          (init only) the id table could not be allocated
 */
enum mlx5diag_status {
	MLX5DIAG_DONE		= 0,
	MLX5DIAG_NEED_MORE	= 1,
	MLX5DIAG_MORE_ITEMS	= 2,
};

/* ---- items ---- */

enum mlx5diag_item_kind {
	MLX5DIAG_ITEM_VALUE	= 1,	/* one data ID's value in one sample */
	MLX5DIAG_ITEM_LOST	= 2,	/* samples that will never be seen */
	MLX5DIAG_ITEM_SESSION	= 3,	/* a run starts: see mlx5diag_session() */
	MLX5DIAG_ITEM_PERIOD	= 4,	/* the sample period changed */
	MLX5DIAG_ITEM_END	= 5,	/* the run ended */
	MLX5DIAG_ITEM_TIME	= 6,	/* a device/perf clock pair (TIME record) */
};

/* Item flags. */
/* perf_time not between two TIME records that bracket the device time */
#define MLX5DIAG_F_TIME_EXTRAPOLATED	(1u << 0)
/* perf_time from the nominal clock rate: fewer than two TIME records yet */
#define MLX5DIAG_F_TIME_NOMINAL		(1u << 1)
/* the value is the low 32 bits of the device's value (format 2) */
#define MLX5DIAG_F_VALUE_32BIT		(1u << 2)
/* the first / last VALUE item of its sample */
#define MLX5DIAG_F_SAMPLE_FIRST		(1u << 3)
#define MLX5DIAG_F_SAMPLE_LAST		(1u << 4)

/* The cause of a LOST item that no LOST record accounted for. */
#define MLX5DIAG_LOST_UNACCOUNTED	0

/*
 * One decoded item. Device times are normalised: FRC clocks (64-bit
 * extended), or for RTC nanoseconds (seconds * 10^9 + nanoseconds). perf
 * times are in the session's perf clock (attr.clockid), nanoseconds.
 *
 * Fields by kind (others are 0):
 *   VALUE:   seq (sample number in its run), id_index (column in the
 *            session), data_id, vclass, value, dev_time (format 0: the
 *            entry's timestamp; 1/2: the sample's earliest), dev_time_end
 *            (format 0: = dev_time; 1/2: the sample's latest), perf_time
 *            (of dev_time), sample.perf_time_bound_ns
 *            (mlx5diag_perf_time_bound() of dev_time), flags
 *   LOST:    seq (first lost), lost.count, lost.cause (enum
 *            mlx5_diag_lost_cause): a LOST record as the driver wrote it;
 *            or cause MLX5DIAG_LOST_UNACCOUNTED: at a SAMPLES or END
 *            record, the samples missing since the last delivered one
 *            that the LOST records in between do not account for (count:
 *            the gap minus their counts; seq: the first number they do not
 *            cover). Emitted before the record's own items. A run the
 *            decoder started at a SESSION repeat (flags
 *            MLX5_DIAG_SESSION_F_CHUNK) has no gap before its first
 *            SAMPLES or END record: its earlier samples are simply not
 *            in the input.
 *   SESSION: run, dev_time and perf_time 0; mlx5diag_session() has the rest.
 *            A SESSION record repeating the open run at a chunk start
 *            (MLX5_DIAG_SESSION_F_CHUNK) gives no item, nor do the TIME
 *            records right after it that repeat one of the two the
 *            decoder maps time with; SYNC records give none.
 *   PERIOD:  seq (first sample at the new period), dev_time, perf_time,
 *            period.ns_requested, period.ns_actual, period.log_sample_period
 *   END:     seq (the run's next_seq: samples taken), end.reason
 *   TIME:    dev_time, perf_time (the record's pair), time.uncertainty_ns
 * run is set for every kind: the run of the session the item belongs to.
 */
struct mlx5diag_item {
	uint8_t kind;		/* enum mlx5diag_item_kind */
	uint8_t vclass;		/* enum mlx5_diag_value_class */
	uint16_t id_index;
	uint32_t flags;		/* MLX5DIAG_F_* */
	uint32_t run;
	uint32_t reserved;
	uint64_t seq;
	uint64_t data_id;
	uint64_t value;
	uint64_t dev_time;
	uint64_t dev_time_end;
	uint64_t perf_time;
	union {
		struct {
			uint64_t count;
			uint32_t cause;
		} lost;
		struct {
			uint64_t ns_requested;
			uint64_t ns_actual;
			uint8_t log_sample_period;
		} period;
		struct {
			uint32_t reason;	/* enum mlx5_diag_end_reason */
		} end;
		struct {
			uint64_t uncertainty_ns;
		} time;
		struct {
			uint64_t perf_time_bound_ns;
		} sample;
	};
};

/* ---- the current session ---- */

struct mlx5diag_id {
	uint64_t data_id;
	uint8_t vclass;		/* enum mlx5_diag_value_class */
};

/*
 * What the last SESSION record said (host byte order). flags has
 * MLX5_DIAG_SESSION_F_CHUNK when the decoder started at a repeat, inside
 * the run (a snapshot); the period fields are those of the SESSION record
 * the run started from (PERIOD items tell later changes).
 */
struct mlx5diag_session {
	uint32_t run;
	uint32_t flags;
	uint16_t abi_version;
	uint16_t num_ids;
	uint32_t freq_khz;
	uint8_t mode;
	uint8_t sync;
	uint8_t clear;
	uint8_t out_format;	/* enum mlx5_diag_out_format */
	uint8_t ts_source;	/* enum mlx5_diag_ts_source */
	uint8_t log_sample_period;
	uint8_t log_num_of_samples;
	uint8_t fw_sample_id_bits;
	uint64_t period_ns_requested;
	uint64_t period_ns_actual;
	char identifier[33];	/* NUL-terminated */
	const struct mlx5diag_id *ids;	/* num_ids entries */
};

/* ---- the decoder ---- */

#define MLX5DIAG_DEFAULT_MAX_IDS		1024
#define MLX5DIAG_DEFAULT_MAX_RECORD_SIZE	(64u << 20)

struct mlx5diag_config {
	uint32_t max_ids;		/* 0: MLX5DIAG_DEFAULT_MAX_IDS */
	uint32_t max_record_size;	/* 0: MLX5DIAG_DEFAULT_MAX_RECORD_SIZE */
};

/*
 * A device/perf clock pair of a TIME record, device time normalised, with
 * the uncertainty the record states.
 */
struct mlx5diag_time_point {
	uint64_t dev_time;
	uint64_t perf_time;
	uint64_t uncertainty_ns;
};

/*
 * The decoder. The caller owns the storage; the fields are private to the
 * library (declared here so that it can live on the stack or in the
 * caller's structure).
 */
struct mlx5diag_decoder {
	/* configuration, fixed at init */
	uint32_t max_ids;
	uint32_t max_record_size;
	struct mlx5diag_id *ids;	/* max_ids entries */

	/* the current run */
	struct mlx5diag_session session;
	int have_session;		/* a SESSION record was seen */
	int run_open;			/* ... and no END record since */
	int seq_unknown;		/* started inside the run: no sample yet */
	int chunk_repeat;		/* in a chunk header, after a SESSION repeat */
	uint64_t next_seq;		/* the sample number expected next */
	uint64_t pending_lost;		/* LOST counts since the last sample */
	uint64_t pending_lost_first;	/* ... the lowest number they cover */
	uint64_t pending_lost_end;	/* ... one past the highest */
	unsigned int nr_time_points;	/* 0, 1 or 2 (saturates) */
	struct mlx5diag_time_point time_prev, time_last;
	/*
	 * The mapping of the time points (set with them): perf time moves
	 * map_num / map_den per device clock; map_magic, map_sh1, map_sh2
	 * divide by map_den without a divide instruction.
	 */
	uint64_t map_num, map_den, map_magic;
	uint8_t map_sh1, map_sh2;

	/* a record being decoded across calls (item array full) */
	int in_record;
	uint16_t rec_type;
	uint32_t rec_size;
	uint32_t rec_sample;		/* the next sample of the record */
	uint32_t rec_id;		/* the next id of that sample */
	int rec_gap_done;		/* the unaccounted-gap item is out */

	/* position and error */
	uint64_t stream_offset;		/* bytes consumed in earlier calls */
	int error;			/* first error, negative errno, sticky */
	uint64_t error_offset;
	char error_message[160];
};

/*
 * mlx5diag_decoder_init - prepare a decoder
 * @dec: storage for the decoder
 * @config: limits, or NULL for the defaults
 *
 * Allocates the id table (max_ids entries): the only allocation the
 * library makes. Returns 0 or -ENOMEM / -EINVAL (max_ids > 65535).
 */
int mlx5diag_decoder_init(struct mlx5diag_decoder *dec,
			  const struct mlx5diag_config *config);

/*
 * mlx5diag_decoder_reset - forget the stream (session, times, cursor,
 * offset, error) and start again at offset 0. Keeps the configuration.
 */
void mlx5diag_decoder_reset(struct mlx5diag_decoder *dec);

/* mlx5diag_decoder_exit - free what init allocated. */
void mlx5diag_decoder_exit(struct mlx5diag_decoder *dec);

/*
 * mlx5diag_decode - decode records into items
 * @dec: the decoder
 * @buf: stream bytes, starting on a record boundary (or, after
 *       MLX5DIAG_MORE_ITEMS, at buf + *size_inout of the previous call)
 * @size_inout: in: bytes at @buf; out: bytes consumed, always whole
 *       records. A record that did not fit in the item array is not
 *       counted until its last item is returned: the next call must be
 *       given the same record again, unchanged, at the start of @buf, and
 *       the decoder continues inside it where it stopped.
 * @items: the item array
 * @count_inout: in: room in @items (at least 1); out: items produced
 *
 * Returns MLX5DIAG_DONE, MLX5DIAG_NEED_MORE, MLX5DIAG_MORE_ITEMS (see
 * enum mlx5diag_status) or a negative errno. On error, *size_inout and
 * *count_inout still report what was consumed and produced before the bad
 * record; the bad record's stream offset is in mlx5diag_error_message().
 * Never reads outside [buf, buf + *size_inout).
 */
int mlx5diag_decode(struct mlx5diag_decoder *dec, const void *buf,
		    size_t *size_inout, struct mlx5diag_item *items,
		    size_t *count_inout);

/*
 * mlx5diag_decode_end - the stream ended with @unconsumed bytes that no
 * call consumed. Returns 0 when there are none, else -EBADMSG (a record cut
 * short) with the offset of that record; or the decoder's earlier error.
 */
int mlx5diag_decode_end(struct mlx5diag_decoder *dec, size_t unconsumed);

/*
 * mlx5diag_find_sync - where a chunk starts in a snapshot
 * @buf: a copy of (part of) the stream from an 8-byte aligned stream
 *       offset, which may start inside a record (snapshot mode)
 * @size: its bytes (at most LONG_MAX)
 *
 * Returns the offset of the first SYNC record at an 8-aligned offset of
 * @buf with MLX5_DIAG_SYNC_MAGIC, whose size is sane and that is followed
 * by a whole SESSION record whose size fits its num_ids (at least one);
 * -ENOENT when there is none, -EINVAL for a NULL @buf with a @size. The
 * SESSION's contents are the decoder's to judge: decode from there with a
 * reset decoder. After a decode error inside a snapshot, the bytes after
 * the bad record's offset may be searched again.
 */
long mlx5diag_find_sync(const void *buf, size_t size);

/*
 * mlx5diag_session - the session the items returned so far belong to, or
 * NULL before the first SESSION item. Valid until the next call.
 */
const struct mlx5diag_session *
mlx5diag_session(const struct mlx5diag_decoder *dec);

/*
 * mlx5diag_error_message - the decoder's error (negative errno) in words,
 * or NULL when there is none; *offset (when @offset is not NULL) gets the
 * stream offset of the record at fault.
 */
const char *mlx5diag_error_message(const struct mlx5diag_decoder *dec,
				   uint64_t *offset);

/*
 * mlx5diag_dev_to_perf_time - map a normalised device time to perf time
 * as the decoder would now; *flags (not NULL) gets MLX5DIAG_F_TIME_* bits.
 * Anchored at the latest TIME record: perf = last.perf -/+ |d - last.dev|
 * * rate, the offset rounded down, where rate is (last.perf - prev.perf) /
 * (last.dev - prev.dev) with two TIME records in the run, else nominal
 * (FRC: 10^6 / freq_khz ns per clock; RTC: 1). Saturates at 0 and
 * UINT64_MAX. Returns 0 with no TIME record in the current run.
 */
uint64_t mlx5diag_dev_to_perf_time(const struct mlx5diag_decoder *dec,
				   uint64_t dev_time, uint32_t *flags);

/*
 * mlx5diag_perf_time_bound - how far mlx5diag_dev_to_perf_time(@dec, @d)
 * may be from the perf-clock instant at which the device clock read @d,
 * from what the two TIME records it maps with state, for a device clock
 * whose rate is constant between them: with f = (last.dev - d) /
 * (last.dev - prev.dev), |1 - f| * last.uncertainty + |f| *
 * prev.uncertainty, plus 3 ns for the roundings. At most the larger
 * uncertainty between the two records; it grows with the distance
 * outside them. UINT64_MAX with fewer than two TIME records in the run
 * (the nominal rate's error is the device clock's drift, which nothing
 * states). Saturates at UINT64_MAX.
 */
uint64_t mlx5diag_perf_time_bound(const struct mlx5diag_decoder *dec,
				  uint64_t d);

/* ---- names (static strings; "unknown" for values without one) ---- */

const char *mlx5diag_strerror(int err);	/* a decoder return code */
const char *mlx5diag_item_kind_name(unsigned int kind);
const char *mlx5diag_lost_cause_name(unsigned int cause);
const char *mlx5diag_end_reason_name(unsigned int reason);
const char *mlx5diag_format_name(unsigned int out_format);
const char *mlx5diag_ts_source_name(unsigned int ts_source);
const char *mlx5diag_vclass_name(unsigned int vclass);
const char *mlx5diag_mode_name(unsigned int mode);
/* enum mlx5_diag_rec_type: "SESSION", "SAMPLES", ... */
const char *mlx5diag_rec_type_name(unsigned int type);

/*
 * mlx5diag_item_text - IT in words, one line without a newline, into BUF
 * (LEN bytes); perf times as seconds with 9 decimals:
 *   VALUE run R seq S id 0xID value V dev DEVTIME perf PERFTIME
 *   LOST run R samples FIRST..LAST (COUNT): CAUSE
 *   SESSION run R                      (mlx5diag_session() has the rest)
 *   PERIOD run R from sample S at PERFTIME: NS ns (requested NS)
 *   END run R after N samples: REASON
 *   TIME run R dev DEVTIME perf PERFTIME +-U ns
 * Returns what snprintf() returns.
 */
int mlx5diag_item_text(const struct mlx5diag_item *it, char *buf, size_t len);

/*
 * mlx5diag_session_text - session S in words, one line without a newline:
 *   SESSION run R IDENTIFIER MODE FORMAT CLOCK, period NS ns (requested NS),
 *   N data IDs
 * where CLOCK is "frc F kHz" or "rtc". Returns what snprintf() returns.
 */
int mlx5diag_session_text(const struct mlx5diag_session *s, char *buf,
			  size_t len);

/*
 * mlx5diag_rtc_split - an RTC device time (ns) back into seconds and
 * nanoseconds, as the firmware's ts_h / ts_l.
 */
static inline void mlx5diag_rtc_split(uint64_t ns, uint32_t *sec,
				      uint32_t *nsec)
{
	*sec = (uint32_t)(ns / 1000000000u);
	*nsec = (uint32_t)(ns % 1000000000u);
}

#endif /* MLX5DIAG_H */
