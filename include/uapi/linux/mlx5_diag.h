/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User ABI of the mlx5_diag PMU: how perf_event_attr names a diagnostic data
 * ID and its options. The sysfs format/ directory publishes the same fields;
 * the driver builds it from these bit ranges, so this is the one place they
 * are written down.
 */
#ifndef _UAPI_LINUX_MLX5_DIAG_H
#define _UAPI_LINUX_MLX5_DIAG_H

#include <linux/types.h>

/*
 * attr.config: a 64-bit data ID of the DOCA Telemetry Diagnostics guide.
 * Bits 63:32 name the kind of data, bits 31:0 the instance (port, priority,
 * host, function, PCIe link, bin or tclass). On a device that only speaks
 * the public 16-bit interface, attr.config is a firmware counter id: bits
 * 15:0, bits 63:16 zero. No data ID has bits 63:32 zero, so the two spaces
 * never meet.
 *
 * Each field is a bit range LO..HI (inclusive) of one attr word.
 */
#define MLX5_DIAG_DATA_ID_LO		0
#define MLX5_DIAG_DATA_ID_HI		63
#define MLX5_DIAG_KIND_LO		32
#define MLX5_DIAG_KIND_HI		63
#define MLX5_DIAG_PORT_LO		0
#define MLX5_DIAG_PORT_HI		7
#define MLX5_DIAG_PRIO_LO		8
#define MLX5_DIAG_PRIO_HI		11
#define MLX5_DIAG_HOST_LO		0
#define MLX5_DIAG_HOST_HI		7
#define MLX5_DIAG_FUNCTION_LO		0
#define MLX5_DIAG_FUNCTION_HI		15
#define MLX5_DIAG_LINK_XX_LO		0
#define MLX5_DIAG_LINK_XX_HI		7
#define MLX5_DIAG_LINK_YY_LO		8
#define MLX5_DIAG_LINK_YY_HI		15
#define MLX5_DIAG_LINK_ZZ_LO		16
#define MLX5_DIAG_LINK_ZZ_HI		23
#define MLX5_DIAG_TCLASS_LO		16
#define MLX5_DIAG_TCLASS_HI		31
#define MLX5_DIAG_BIN_LO		16
#define MLX5_DIAG_BIN_HI		31
#define MLX5_DIAG_FW_COUNTER_LO		0
#define MLX5_DIAG_FW_COUNTER_HI		15

#define MLX5_DIAG_KIND_SHIFT		MLX5_DIAG_KIND_LO
#define MLX5_DIAG_FW_COUNTER_MASK	0xffffULL

/*
 * attr.config1: options. Sampling options are read from a session's leader
 * only (see "Sampling sessions" below); a counting event or a session
 * member sets none of them.
 */
#define MLX5_DIAG_MODE_LO		0	/* sampling mode */
#define MLX5_DIAG_MODE_HI		1
#define MLX5_DIAG_MODE_DEFAULT		0	/* repetitive */
#define MLX5_DIAG_MODE_SINGLE		1
#define MLX5_DIAG_MODE_REPETITIVE	2
#define MLX5_DIAG_MODE_ON_DEMAND	3	/* not a sampling mode: refused */
#define MLX5_DIAG_SYNC_LO		2	/* synchronized start */
#define MLX5_DIAG_SYNC_HI		2
#define MLX5_DIAG_CLEAR_LO		3	/* clear at each sample (with sync) */
#define MLX5_DIAG_CLEAR_HI		3
#define MLX5_DIAG_OUT_FORMAT_LO		4	/* output format 0..2 */
#define MLX5_DIAG_OUT_FORMAT_HI		5
#define MLX5_DIAG_TS_SOURCE_LO		6	/* 0: FRC, 1: RTC */
#define MLX5_DIAG_TS_SOURCE_HI		6
/* Take the engine even if another agent (DOCA over fwctl) has it enabled. */
#define MLX5_DIAG_FORCE_LO		63
#define MLX5_DIAG_FORCE_HI		63

#define MLX5_DIAG_CFG1_SYNC		(1ULL << MLX5_DIAG_SYNC_LO)
#define MLX5_DIAG_CFG1_CLEAR		(1ULL << MLX5_DIAG_CLEAR_LO)
/* Bits that only a session leader may set. */
#define MLX5_DIAG_CFG1_SAMPLING_MASK	0x7fULL
#define MLX5_DIAG_CFG1_FORCE_OWNERSHIP	(1ULL << MLX5_DIAG_FORCE_LO)

/*
 * attr.config2: the requested firmware sample period in nanoseconds
 * (session leader only). 0: the leader's attr.sample_period is the period
 * in ns. PERF_EVENT_IOC_PERIOD on the leader changes it while running.
 */
#define MLX5_DIAG_PERIOD_NS_LO		0
#define MLX5_DIAG_PERIOD_NS_HI		63

/* ---- Sampling sessions: the AUX record ABI ---- */

/*
 * A session is an event group on one PMU: the leader (a sampling event,
 * attr.sample_period != 0) owns the AUX area and names the first data ID;
 * each sibling of the PMU names one more. The AUX area carries a stream of
 * records, little-endian, each starting with struct mlx5_diag_rec_hdr and
 * a multiple of 8 bytes long. A stream starts with MLX5_DIAG_REC_SESSION and
 * a MLX5_DIAG_REC_TIME record; a later SESSION record starts a new run (the
 * firmware was programmed again: sample numbering restarts at 0).
 *
 * A decoder that meets an abi_version it does not know stops there.
 * Records are never split by the driver, but may wrap at the end of the
 * AUX ring; a reader that copies the ring out in order sees whole records.
 *
 * Snapshot mode (the AUX area mapped read-only: perf's overwrite mode, as
 * `perf record -S` maps it): the driver writes on at aux_head whether read
 * or not, overwriting the oldest bytes, so a copy of the area starts
 * anywhere inside a record. The stream is then made of chunks that decode
 * on their own. Each publish of the driver writes one or more chunks; a
 * chunk is
 *   MLX5_DIAG_REC_SYNC,
 *   MLX5_DIAG_REC_SESSION of the open run with MLX5_DIAG_SESSION_F_CHUNK
 *     set (a repeat: the same run, no new run), its period as of that
 *     point of the stream (PERIOD records before it included),
 *   MLX5_DIAG_REC_TIME records repeating the run's last two in the
 *     stream (of different dev_time; one when the run has only one), so
 *     that a decoder that starts at the chunk maps device time exactly as
 *     one that read the stream from its start (which ignores them),
 *   then the records that follow in the stream (SAMPLES, TIME, LOST,
 *     PERIOD, END);
 * or, when a new run starts with the chunk, SYNC then the run's own
 * SESSION (flags 0) and TIME. No chunk is larger than half the AUX area
 * (a bigger batch of samples is cut into several chunks, each with its own
 * SYNC, SESSION and TIME; a chunk holds at least one record after its
 * header), so a copy of the whole area holds at least its last half in
 * whole chunks. SYNC records appear in snapshot mode only; a stream read
 * in the normal mode is as described above. In snapshot mode a disable of
 * the leader (perf copies the area between DISABLE and ENABLE) pauses the
 * writing, not the run: no END record, nothing written until the enable,
 * sample numbering goes on (what the firmware overwrote meanwhile is a
 * LOST record).
 */
#define MLX5_DIAG_ABI_VERSION		1
#define MLX5_DIAG_REC_ALIGN		8

enum mlx5_diag_rec_type {
	MLX5_DIAG_REC_SESSION	= 1,	/* struct mlx5_diag_rec_session */
	MLX5_DIAG_REC_SAMPLES	= 2,	/* struct mlx5_diag_rec_samples */
	MLX5_DIAG_REC_TIME	= 3,	/* struct mlx5_diag_rec_time */
	MLX5_DIAG_REC_LOST	= 4,	/* struct mlx5_diag_rec_lost */
	MLX5_DIAG_REC_PERIOD	= 5,	/* struct mlx5_diag_rec_period */
	MLX5_DIAG_REC_END	= 6,	/* struct mlx5_diag_rec_end */
	MLX5_DIAG_REC_SYNC	= 7,	/* struct mlx5_diag_rec_sync */
};

struct mlx5_diag_rec_hdr {
	__le16 type;		/* enum mlx5_diag_rec_type */
	__le16 reserved;	/* 0 */
	__le32 size;		/* whole record, bytes, multiple of 8 */
};

/* How a data ID's value behaves (the DOCA guide's Counter / Statistic). */
enum mlx5_diag_value_class {
	MLX5_DIAG_VCLASS_COUNTER	= 0,	/* monotonic, may wrap at 64 bits */
	MLX5_DIAG_VCLASS_STAT_SUM	= 1,	/* per period: total */
	MLX5_DIAG_VCLASS_STAT_MAX	= 2,	/* per period: maximum */
	MLX5_DIAG_VCLASS_STAT_MIN	= 3,	/* per period: minimum */
};

/* Sample layouts: the output formats of the DOCA Telemetry Diagnostics guide. */
enum mlx5_diag_out_format {
	MLX5_DIAG_FORMAT_0	= 0,	/* per data ID: id, timestamp, u64 value */
	MLX5_DIAG_FORMAT_1	= 1,	/* one timestamp range, u64 values */
	MLX5_DIAG_FORMAT_2	= 2,	/* one timestamp range, u32 values */
};

enum mlx5_diag_ts_source {
	MLX5_DIAG_TS_FRC	= 0,	/* free-running device clock, (h << 32) | l */
	MLX5_DIAG_TS_RTC	= 1,	/* real-time clock: h = s, l = ns */
};

struct mlx5_diag_rec_id {
	__le64 data_id;		/* attr.config: a data ID or fw counter id */
	__u8 vclass;		/* enum mlx5_diag_value_class */
	__u8 reserved[7];
};

/*
 * MLX5_DIAG_REC_SESSION: what the firmware runs. size = sizeof(this) +
 * num_ids * sizeof(struct mlx5_diag_rec_id); ids[i] is column i of every
 * sample, in the group's order (leader first).
 */
struct mlx5_diag_rec_session {
	struct mlx5_diag_rec_hdr hdr;
	__le16 abi_version;		/* MLX5_DIAG_ABI_VERSION */
	__le16 num_ids;
	__le32 freq_khz;		/* device clock frequency (FRC) */
	__u8 mode;			/* MLX5_DIAG_MODE_SINGLE or _REPETITIVE */
	__u8 sync;
	__u8 clear;
	__u8 out_format;		/* enum mlx5_diag_out_format */
	__u8 ts_source;			/* enum mlx5_diag_ts_source */
	__u8 log_sample_period;		/* actual period: 2^this device clocks */
	__u8 log_num_of_samples;	/* firmware buffer: 2^this samples */
	__u8 fw_sample_id_bits;		/* width the firmware numbers samples in */
	__le32 run;			/* 0, 1, ...: programmings of this event */
	__le32 flags;			/* MLX5_DIAG_SESSION_F_* */
	__le64 period_ns_requested;
	__le64 period_ns_actual;	/* 2^log_sample_period clocks in ns */
	char identifier[32];		/* the PMU's function, NUL-padded */
	struct mlx5_diag_rec_id ids[];
};

/*
 * The record repeats the SESSION of the open run at the start of a chunk
 * (snapshot mode): the run goes on, sample numbering too. Its period
 * fields are the period at that point of the stream. A decoder that has
 * not seen the run starts from it (the run's earlier samples are not in
 * its input); one that has checks that it matches and goes on.
 */
#define MLX5_DIAG_SESSION_F_CHUNK	(1U << 0)

/*
 * MLX5_DIAG_REC_SAMPLES: nr_samples consecutive samples, the first numbered
 * first_seq (samples of a run are numbered 0, 1, ... in 64 bits; the
 * firmware's narrower sample ids are extended by the driver). Each sample
 * is sample_size bytes in out_format:
 *   format 0: struct mlx5_diag_fmt0_hdr, then num_ids
 *             struct mlx5_diag_fmt0_entry;
 *   format 1: struct mlx5_diag_fmt12_hdr, then num_ids __le64 values;
 *   format 2: struct mlx5_diag_fmt12_hdr, then num_ids __le32 values
 *             (the low 32 bits);
 * then zero padding to a multiple of 8 bytes for the whole record.
 * Timestamps are in the session's ts_source: FRC values are the device
 * clock extended to 64 bits by the driver, RTC values are as the firmware
 * gives them. sample_id is the low 32 bits of the extended sequence number.
 */
struct mlx5_diag_rec_samples {
	struct mlx5_diag_rec_hdr hdr;
	__le64 first_seq;
	__le32 nr_samples;
	__le16 sample_size;
	__u8 out_format;
	__u8 reserved;
};

struct mlx5_diag_fmt0_hdr {
	__le32 sample_id;
	__le32 reserved;
};

struct mlx5_diag_fmt0_entry {
	__le64 data_id;
	__le32 ts_h;
	__le32 ts_l;
	__le64 value;
};

/*
 * Format 1 and 2: the earliest and latest timestamps of the sample's
 * entries; the latest's high word is earliest_ts_h, plus one if
 * latest_ts_l < earliest_ts_l (the low word wrapped).
 */
struct mlx5_diag_fmt12_hdr {
	__le32 sample_id;
	__le32 earliest_ts_h;
	__le32 earliest_ts_l;
	__le32 latest_ts_l;
};

/*
 * MLX5_DIAG_REC_TIME: the device clock and perf's clock, read as close
 * together as the transport allows. dev_time is in the representation of
 * the session's timestamps (FRC: 64-bit clock; RTC: s << 32 | ns);
 * perf_time is perf_event_clock() (the event's clock, attr.clockid) at the
 * middle of the read, and uncertainty_ns how far perf_time may be from the
 * instant the device clock began to read dev_time: half the time the read
 * took, rounded up, plus one tick of the device clock (FRC: a clock period,
 * rounded up to whole ns; RTC: 1 ns).
 * One at the start of each run, then periodically.
 */
struct mlx5_diag_rec_time {
	struct mlx5_diag_rec_hdr hdr;
	__le64 dev_time;
	__le64 perf_time;
	__le64 uncertainty_ns;
};

enum mlx5_diag_lost_cause {
	MLX5_DIAG_LOST_FW_OVERWRITE	= 1,	/* the firmware buffer wrapped */
	MLX5_DIAG_LOST_AUX_FULL		= 2,	/* no room in the AUX area */
	MLX5_DIAG_LOST_RESET		= 3,	/* discarded by a reset/reprogram */
};

/* MLX5_DIAG_REC_LOST: samples first_seq .. first_seq + count - 1 are lost. */
struct mlx5_diag_rec_lost {
	struct mlx5_diag_rec_hdr hdr;
	__le64 first_seq;
	__le64 count;
	__le32 cause;			/* enum mlx5_diag_lost_cause */
	__le32 reserved;
};

/*
 * MLX5_DIAG_REC_PERIOD: the firmware period changed (PERF_EVENT_IOC_PERIOD)
 * at device time dev_time; samples numbered first_seq on are taken at the
 * new period.
 */
struct mlx5_diag_rec_period {
	struct mlx5_diag_rec_hdr hdr;
	__le64 first_seq;
	__le64 dev_time;
	__le64 period_ns_requested;
	__le64 period_ns_actual;
	__u8 log_sample_period;
	__u8 reserved[7];
};

enum mlx5_diag_end_reason {
	MLX5_DIAG_END_STOPPED	= 1,	/* the event was closed or disabled */
	MLX5_DIAG_END_REMOVED	= 2,	/* the device was removed */
	MLX5_DIAG_END_TAKEN	= 3,	/* another agent took the engine */
	MLX5_DIAG_END_FULL	= 4,	/* single mode: the firmware buffer is full */
	MLX5_DIAG_END_STALLED	= 5,	/* the firmware never let the drain catch up */
};

/* MLX5_DIAG_REC_END: the run ends; next_seq samples were taken. */
struct mlx5_diag_rec_end {
	struct mlx5_diag_rec_hdr hdr;
	__le64 next_seq;
	__le32 reason;			/* enum mlx5_diag_end_reason */
	__le32 reserved;
};

/* "MLX5DSYN": the bytes of the magic, as a little-endian __le64 reads them */
#define MLX5_DIAG_SYNC_MAGIC		0x4e59534435584c4dULL

/*
 * MLX5_DIAG_REC_SYNC: a chunk starts here (snapshot mode only); the next
 * record is a SESSION. A reader of a copy that starts inside a record
 * looks for it at 8-byte aligned offsets (the area and every record are
 * multiples of 8 bytes).
 */
struct mlx5_diag_rec_sync {
	struct mlx5_diag_rec_hdr hdr;
	__le64 magic;			/* MLX5_DIAG_SYNC_MAGIC */
};

#endif /* _UAPI_LINUX_MLX5_DIAG_H */
