// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag record: open a sampling session (an event group on one
 * mlx5_diag PMU, tools/perf-decoder/CONTRACT.md), copy its AUX stream into a
 * recording file (Documentation/file-format.md) while a command runs or until
 * a signal or --duration, then drain and close.
 */
#define _GNU_SOURCE
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>
#include <linux/perf_event.h>

#include "args.h"
#include "cli.h"
#include "clock_ns.h"
#include "count.h"
#include "file.h"
#include "perf_ring.h"
#include "perf_sys.h"
#include "pmu.h"
#include "tprecord.h"

#define RECORD_VERSION		"0.1"
#define POLL_MS			100

void record_defaults(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->period_ns = RECORD_DEFAULT_PERIOD_NS;
	o->mode = MLX5_DIAG_MODE_DEFAULT;
	o->format = MLX5_DIAG_FORMAT_0;
	o->ts = MLX5_DIAG_TS_FRC;
	o->clockid = CLOCK_MONOTONIC;
	o->clock_name = "monotonic";
	o->aux_pages = RECORD_DEFAULT_AUX_PAGES;
	o->output = RECORD_DEFAULT_OUTPUT;
}

static const struct {
	const char *name;
	clockid_t id;
} clocks[] = {
	{ "monotonic", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

int record_parse_clockid(const char *s, clockid_t *id, const char **name)
{
	uint64_t v;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(s, clocks[i].name) ||
		    (!strncasecmp(s, "CLOCK_", 6) && !strcasecmp(s + 6, clocks[i].name))) {
			*id = clocks[i].id;
			*name = clocks[i].name;
			return 0;
		}
	}
	if (args_parse_u64(s, 64, &v))
		return -1;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (clocks[i].id == (clockid_t)v) {
			*id = clocks[i].id;
			*name = clocks[i].name;
			return 0;
		}
	}
	return -1;
}

static const char record_usage[] =
"usage: mlx5-diag record [-d DEV] -e EVENT [-e EVENT]... [options] [-- CMD [ARGS]]\n"
"\n"
"Record a sampling session of one device into a file. The first -e names\n"
"the leader. Stops when CMD exits, at SIGINT/SIGTERM or after --duration.\n"
"\n"
"  -d, --device DEV      PMU number (0: mlx5_diag_0), PMU name or function\n"
"                        (0000:08:00.0, sim:0); default: the only device\n"
"  -e, --event EVENT     an events/ alias with its fields (port_rx_bytes,port=0)\n"
"                        or FIELD=VALUE terms (config=0x1180000200000000)\n"
"  -p, --period PERIOD   sample period: ns, or with a unit ns/us/ms/s\n"
"                        (default 1ms; a fraction in seconds alone: 0.5s)\n"
"  -m, --mode MODE       single or repetitive (default: the driver's, repetitive)\n"
"      --sync            synchronized start\n"
"      --clear           clear counters at each sample (with --sync)\n"
"      --format N        output format 0, 1 or 2 (default 0)\n"
"      --ts SRC          timestamps: frc (default) or rtc\n"
"      --force           take the engine from another agent (CAP_PERFMON)\n"
"      --clockid CLOCK   perf clock: monotonic (default), monotonic_raw,\n"
"                        realtime, boottime, tai, or a number\n"
"  -a, --aux-pages N     AUX area size in pages, a power of 2 (default 256)\n"
"  -o, --output FILE     the recording (default mlx5-diag.data)\n"
"      --duration TIME   stop after TIME: seconds (0.4, 2), or with a unit\n"
"                        ns/us/ms/s (500ms; a fraction in seconds alone)\n"
"      --then-period PERIOD  after --duration, change the sample period\n"
"                        (PERF_EVENT_IOC_PERIOD) and record --duration more\n"
"  -t, --tracepoint SYS:NAME  also record this tracepoint (sched:sched_switch)\n"
"                        on every online CPU with the same clock, for\n"
"                        `mlx5-diag decode --timeline`; repeatable (16)\n"
"  -q, --quiet           no status line (samples, samples/s, lost; each second\n"
"                        when stderr is a terminal) and no summary\n"
"\n"
"exit status: 0 ok, 2 usage, 6 the output could not be written, 7 no such\n"
"device or event, 8 the kernel refused the session, 9 CMD could not be\n"
"started, 10 the session ended early (AUX area full, device removed, engine\n"
"taken by another agent)\n";

enum { OPT_SYNC = 256, OPT_CLEAR, OPT_FORMAT, OPT_TS, OPT_FORCE, OPT_CLOCKID,
       OPT_DURATION, OPT_THEN_PERIOD };

static const struct option record_longopts[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "event", required_argument, NULL, 'e' },
	{ "period", required_argument, NULL, 'p' },
	{ "mode", required_argument, NULL, 'm' },
	{ "sync", no_argument, NULL, OPT_SYNC },
	{ "clear", no_argument, NULL, OPT_CLEAR },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "ts", required_argument, NULL, OPT_TS },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "clockid", required_argument, NULL, OPT_CLOCKID },
	{ "aux-pages", required_argument, NULL, 'a' },
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "then-period", required_argument, NULL, OPT_THEN_PERIOD },
	{ "tracepoint", required_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * A period (UNIT_NS 1: ns without a unit) or a duration (seconds) S into
 * *NS: 0, or -1 with why S is refused in ERR.
 */
static int parse_time(const char *s, uint64_t unit_ns, uint64_t *ns, char *err,
		      size_t errlen)
{
	const char *why = args_parse_time(s, unit_ns, 0, ns);

	if (!why)
		return 0;
	if (unit_ns == 1)
		snprintf(err, errlen, "bad period '%s': %s (a positive number of "
			 "ns, or with a unit ns, us, ms or s: 200us, 1ms, 0.5s)", s,
			 why);
	else
		snprintf(err, errlen, "bad duration '%s': %s (positive seconds, "
			 "0.4 or 2, or with a unit ns, us, ms or s: 500ms)", s, why);
	return -1;
}

int record_parse(int argc, char **argv, struct record_opts *o, char *err,
		 size_t errlen)
{
	uint64_t v;
	int c;

	record_defaults(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+d:e:p:m:a:o:t:qh", record_longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dev = optarg;
			break;
		case 'e':
			if (o->nr_events == RECORD_MAX_EVENTS) {
				snprintf(err, errlen, "at most %d events", RECORD_MAX_EVENTS);
				return ERR_EXIT_USAGE;
			}
			o->events[o->nr_events++] = optarg;
			break;
		case 'p':
			if (parse_time(optarg, 1, &o->period_ns, err, errlen))
				return ERR_EXIT_USAGE;
			break;
		case 'm':
			if (!strcmp(optarg, "single")) {
				o->mode = MLX5_DIAG_MODE_SINGLE;
			} else if (!strcmp(optarg, "repetitive")) {
				o->mode = MLX5_DIAG_MODE_REPETITIVE;
			} else {
				snprintf(err, errlen, "bad mode '%s': single or repetitive",
					 optarg);
				return ERR_EXIT_USAGE;
			}
			break;
		case OPT_SYNC:
			o->sync = 1;
			break;
		case OPT_CLEAR:
			o->clear = 1;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case OPT_FORMAT:
			if (args_parse_u64(optarg, 2, &v)) {
				snprintf(err, errlen, "bad format '%s': 0, 1 or 2", optarg);
				return ERR_EXIT_USAGE;
			}
			o->format = (int)v;
			break;
		case OPT_TS:
			if (!strcmp(optarg, "frc")) {
				o->ts = MLX5_DIAG_TS_FRC;
			} else if (!strcmp(optarg, "rtc")) {
				o->ts = MLX5_DIAG_TS_RTC;
			} else {
				snprintf(err, errlen, "bad timestamp source '%s': frc or rtc",
					 optarg);
				return ERR_EXIT_USAGE;
			}
			break;
		case OPT_CLOCKID:
			if (record_parse_clockid(optarg, &o->clockid, &o->clock_name)) {
				snprintf(err, errlen, "bad clock '%s': monotonic, "
					 "monotonic_raw, realtime, boottime, tai", optarg);
				return ERR_EXIT_USAGE;
			}
			break;
		case 'a':
			if (args_parse_u64(optarg, 1u << 20, &v) || !v || (v & (v - 1))) {
				snprintf(err, errlen, "bad AUX pages '%s': a power of 2, "
					 "1 to 1048576", optarg);
				return ERR_EXIT_USAGE;
			}
			o->aux_pages = (unsigned int)v;
			break;
		case 'o':
			if (!*optarg) {
				snprintf(err, errlen, "empty output file name");
				return ERR_EXIT_USAGE;
			}
			o->output = optarg;
			break;
		case OPT_DURATION:
			if (parse_time(optarg, 1000000000ull, &o->duration_ns, err,
				       errlen))
				return ERR_EXIT_USAGE;
			break;
		case OPT_THEN_PERIOD:
			if (parse_time(optarg, 1, &o->reconfig_period_ns, err, errlen))
				return ERR_EXIT_USAGE;
			break;
		case 't':
			if (o->nr_tracepoints == RECORD_MAX_TRACEPOINTS) {
				snprintf(err, errlen, "at most %d tracepoints",
					 RECORD_MAX_TRACEPOINTS);
				return ERR_EXIT_USAGE;
			}
			o->tracepoints[o->nr_tracepoints++] = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			fputs(record_usage, stdout);
			return -1;
		default:
			if (optopt && optopt < 256 && strchr("depmaot", optopt))
				snprintf(err, errlen, "option -%c needs an argument", optopt);
			else
				snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return ERR_EXIT_USAGE;
		}
	}
	if (!o->nr_events) {
		snprintf(err, errlen, "no event: give at least one -e EVENT");
		return ERR_EXIT_USAGE;
	}
	if (o->clear && !o->sync) {
		snprintf(err, errlen, "--clear needs --sync (the device clears "
			 "counters only with synchronized start)");
		return ERR_EXIT_USAGE;
	}
	if (o->reconfig_period_ns && !o->duration_ns) {
		snprintf(err, errlen, "--then-period needs --duration (the time "
			 "recorded before and after the change)");
		return ERR_EXIT_USAGE;
	}
	if (optind < argc)
		o->cmd = argv + optind;
	return ERR_EXIT_OK;
}

const char *record_open_error_hint(int err, int leader)
{
	switch (err) {
	case EBUSY:
		return "the device's diagnostic engine is busy: counting (perf stat), "
		       "another recording session, or another agent such as DOCA over "
		       "fwctl holds it (--force takes it from another agent); see dmesg";
	case EINVAL:
		return leader ? "the driver refused the event or its options; the reason "
				"is in dmesg" :
				"the driver refused this group member; the reason is in dmesg";
	case EOPNOTSUPP:
		return "not supported by this device or driver (the data ID, the mode, "
		       "or sampling itself); see dmesg";
	case ENOSPC:
		return "more data IDs than the device samples at once (caps/max_data_ids)";
	case EACCES:
		return "--force needs CAP_PERFMON or CAP_SYS_ADMIN";
	case EPERM:
		return "not permitted: run as root or lower "
		       "/proc/sys/kernel/perf_event_paranoid";
	case ENODEV:
		return "the device was removed";
	case ENOENT:
		return "no such PMU type: was the driver unloaded?";
	case EMFILE:
		return "too many open files";
	}
	return "see dmesg";
}

/* ---- the session ---- */

struct session {
	const struct record_opts *o;
	int fds[RECORD_MAX_EVENTS];
	int nr_fds;
	struct perf_ring ring;		/* the leader's */
	struct perf_ring_seen seen;	/* its data ring's records */
	struct mdf_writer w;
	int write_failed;
	struct count_state count;
	uint64_t aux_bytes;
	pid_t child;
	int child_status;
	struct tp_session tp;	/* --tracepoint */
};

static volatile sig_atomic_t got_stop, got_chld;

static void on_stop(int sig)
{
	(void)sig;
	got_stop = 1;
}

static void on_chld(int sig)
{
	(void)sig;
	got_chld = 1;
}

static void drain_aux(struct session *s)
{
	const void *bufs[2];
	size_t lens[2];
	unsigned int i, n = perf_ring_aux_new(&s->ring, bufs, lens);

	for (i = 0; i < n; i++) {
		count_feed(&s->count, bufs[i], lens[i]);
		s->aux_bytes += lens[i];
	}
	if (n && !s->write_failed &&
	    mdf_write_chunkv(&s->w, MDF_CHUNK_AUX, bufs, lens, n))
		s->write_failed = 1;
	perf_ring_aux_release(&s->ring);
}

static void drain_tp(struct session *s)
{
	if (s->tp.nr_tps && !s->write_failed && tp_drain(&s->tp, &s->w))
		s->write_failed = 1;
}

static void status_line(struct session *s, uint64_t t0, uint64_t *last_t,
			uint64_t *last_samples, int final)
{
	uint64_t t = clock_now_ns(CLOCK_MONOTONIC), dt = t - *last_t;
	double rate;

	if (s->o->quiet || !isatty(STDERR_FILENO))
		return;
	if (!final && dt < 1000000000ull)
		return;
	rate = dt ? (double)(s->count.samples - *last_samples) * 1e9 / (double)dt : 0;
	fprintf(stderr, "\r%.1fs: %" PRIu64 " samples, %.0f samples/s, %" PRIu64
		" lost, %.1f MB   ", (double)(t - t0) / 1e9, s->count.samples,
		rate, s->count.lost, (double)s->aux_bytes / 1e6);
	*last_t = t;
	*last_samples = s->count.samples;
	if (final)
		fputc('\n', stderr);
}

static int write_meta(struct session *s, const struct pmu *p, int cpu,
		      const uint64_t (*cfg)[3])
{
	const struct record_opts *o = s->o;
	struct mdf_meta_buf m = { 0 };
	struct timespec rt;
	int ret = 0, i;

	clock_gettime(CLOCK_REALTIME, &rt);
	ret |= mdf_meta_add(&m, "tool", "mlx5-diag record " RECORD_VERSION);
	ret |= mdf_meta_add(&m, "pmu", p->name);
	ret |= mdf_meta_addf(&m, "pmu_type", "%d", p->type);
	ret |= mdf_meta_add(&m, "identifier", p->function);
	ret |= mdf_meta_addf(&m, "cpu", "%d", cpu);
	ret |= mdf_meta_addf(&m, "clockid", "%d", (int)o->clockid);
	ret |= mdf_meta_add(&m, "clock", o->clock_name);
	ret |= mdf_meta_addf(&m, "period", "%" PRIu64, o->period_ns);
	ret |= mdf_meta_addf(&m, "options", "mode=%s sync=%d clear=%d format=%d ts=%s force=%d",
			     o->mode == MLX5_DIAG_MODE_SINGLE ? "single" : "repetitive",
			     o->sync, o->clear, o->format,
			     o->ts == MLX5_DIAG_TS_RTC ? "rtc" : "frc", o->force);
	ret |= mdf_meta_addf(&m, "aux_pages", "%u", o->aux_pages);
	ret |= mdf_meta_addf(&m, "start_time", "%lld.%09ld", (long long)rt.tv_sec,
			     rt.tv_nsec);
	for (i = 0; i < o->nr_events; i++)
		ret |= mdf_meta_add_event(&m, (unsigned int)i, cfg[i][0], cfg[i][1],
					  cfg[i][2], o->events[i]);
	if (s->tp.nr_tps)
		ret |= tp_meta(&s->tp, &m);
	if (ret) {
		mdf_meta_buf_free(&m);
		err_print(NULL, "an event string has a newline");
		return ERR_EXIT_USAGE;
	}
	ret = mdf_write_chunk(&s->w, MDF_CHUNK_META, m.text, m.len);
	mdf_meta_buf_free(&m);
	if (!ret && s->tp.nr_tps)
		ret = tp_synth_comms(&s->w);
	if (ret) {
		err_print(NULL, "%s: %s", o->output, s->w.err);
		return ERR_EXIT_OUTPUT;
	}
	return ERR_EXIT_OK;
}

static int open_session(struct session *s, const struct pmu *p, int cpu,
			const uint64_t (*cfg)[3])
{
	const struct record_opts *o = s->o;
	long page = sysconf(_SC_PAGESIZE);
	int i, e;

	for (i = 0; i < o->nr_events; i++) {
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = (uint32_t)p->type;
		a.config = cfg[i][0];
		a.config1 = cfg[i][1];
		a.config2 = cfg[i][2];
		a.disabled = 1;
		a.use_clockid = 1;
		a.clockid = o->clockid;
		if (i == 0) {
			a.sample_period = o->period_ns;
			a.config1 |= (uint64_t)o->mode << MLX5_DIAG_MODE_LO;
			a.config1 |= (uint64_t)o->sync << MLX5_DIAG_SYNC_LO;
			a.config1 |= (uint64_t)o->clear << MLX5_DIAG_CLEAR_LO;
			a.config1 |= (uint64_t)o->format << MLX5_DIAG_OUT_FORMAT_LO;
			a.config1 |= (uint64_t)o->ts << MLX5_DIAG_TS_SOURCE_LO;
			if (o->force)
				a.config1 |= MLX5_DIAG_CFG1_FORCE_OWNERSHIP;
			a.aux_watermark = (uint32_t)(o->aux_pages * (size_t)page / 4);
		}
		fd = perf_open_on_cpu(&a, cpu, i ? s->fds[0] : -1);
		if (fd < 0) {
			e = errno;
			fprintf(stderr, "mlx5-diag: cannot open %s '%s' on %s: %s (%s)\n"
				"  %s\n", i ? "event" : "leader", o->events[i], p->name,
				strerror(e), strerrorname_np(e) ? strerrorname_np(e) : "?",
				record_open_error_hint(e, i == 0));
			return ERR_EXIT_OPEN;
		}
		s->fds[s->nr_fds++] = fd;
	}
	e = perf_ring_map(&s->ring, s->fds[0], PERF_RING_DATA_PAGES);
	if (e) {
		err_print(NULL, "cannot map the data ring of %s: %s",
			  p->name, strerror(-e));
		return ERR_EXIT_OPEN;
	}
	e = perf_ring_map_aux(&s->ring, s->fds[0], o->aux_pages);
	if (e) {
		fprintf(stderr, "mlx5-diag: cannot map an AUX area of %u pages on %s: %s\n  %s\n",
			o->aux_pages, p->name, strerror(-e),
			e == -EPERM || e == -ENOMEM ?
			"over the locked-memory limit: use a smaller -a, or raise "
			"/proc/sys/kernel/perf_event_mlock_kb or ulimit -l" :
			"the driver has no AUX area for this event (no sampling support?)");
		return ERR_EXIT_OPEN;
	}
	return ERR_EXIT_OK;
}

static void close_session(struct session *s)
{
	perf_ring_unmap(&s->ring);
	while (s->nr_fds)
		close(s->fds[--s->nr_fds]);
}

/* fork and exec CMD; the exec error comes back through a close-on-exec pipe. */
static int start_child(struct session *s, char **cmd)
{
	int p[2], e = 0;
	ssize_t n;

	if (pipe2(p, O_CLOEXEC)) {
		perror("mlx5-diag: pipe");
		return ERR_EXIT_CMD;
	}
	s->child = fork();
	if (s->child < 0) {
		perror("mlx5-diag: fork");
		close(p[0]);
		close(p[1]);
		return ERR_EXIT_CMD;
	}
	if (!s->child) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(p[0]);
		execvp(cmd[0], cmd);
		e = errno;
		/* the parent reads errno here; nothing else to do if this fails */
		n = write(p[1], &e, sizeof(e));
		_exit(n == sizeof(e) ? 127 : 126);
	}
	close(p[1]);
	do
		n = read(p[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == sizeof(e)) {
		err_print(NULL, "cannot run %s: %s", cmd[0], strerror(e));
		waitpid(s->child, NULL, 0);
		s->child = 0;
		return ERR_EXIT_CMD;
	}
	return ERR_EXIT_OK;
}

/* Drain until DEADLINE (CLOCK_MONOTONIC ns) or a stop condition. */
/* The deadline DURATION after T (0: none), at most UINT64_MAX. */
static uint64_t deadline_after(uint64_t t, uint64_t duration)
{
	if (!duration)
		return 0;
	return duration > UINT64_MAX - t ? UINT64_MAX : t + duration;
}

static void drain_until(struct session *s, uint64_t deadline, int stop_on_events,
			uint64_t t0, uint64_t *last_t, uint64_t *last_samples)
{
	struct pollfd pfd = { .fd = s->fds[0], .events = POLLIN };

	for (;;) {
		uint64_t t = clock_now_ns(CLOCK_MONOTONIC);
		int ms = POLL_MS;

		if (deadline && t >= deadline)
			break;
		if (deadline && (deadline - t) / 1000000 < (uint64_t)ms)
			ms = (int)((deadline - t) / 1000000) + 1;
		poll(&pfd, 1, ms);
		perf_ring_read_data(&s->ring, &s->seen);
		drain_aux(s);
		drain_tp(s);
		status_line(s, t0, last_t, last_samples, 0);
		if (!stop_on_events)
			continue;
		if (got_stop)
			break;
		if (got_chld && s->child) {
			int st;

			if (waitpid(s->child, &st, WNOHANG) == s->child) {
				s->child_status = st;
				s->child = 0;
				break;
			}
		}
		/*
		 * The AUX area filled (the kernel stopped the event), or the
		 * device went or another agent took it. A single-mode run that
		 * filled the firmware buffer (END_FULL) just has no more
		 * samples: the command runs on.
		 */
		if (s->seen.truncated || s->count.end_reason == MLX5_DIAG_END_REMOVED ||
		    s->count.end_reason == MLX5_DIAG_END_TAKEN ||
		    s->count.end_reason == MLX5_DIAG_END_STALLED)
			break;
		if (pfd.revents & (POLLHUP | POLLERR))
			break;
	}
}

static const char *end_reason_text(uint32_t r)
{
	switch (r) {
	case MLX5_DIAG_END_STOPPED:	return "stopped";
	case MLX5_DIAG_END_REMOVED:	return "the device was removed";
	case MLX5_DIAG_END_TAKEN:	return "another agent took the engine";
	case MLX5_DIAG_END_FULL:	return "single mode: the firmware buffer is full";
	case MLX5_DIAG_END_STALLED:	return "the firmware never let the drain catch up";
	}
	return "unknown reason";
}

int record_run(const struct record_opts *o)
{
	uint64_t (*cfg)[3] = calloc(RECORD_MAX_EVENTS, sizeof(*cfg));
	uint64_t t0, last_t, last_samples = 0, end_wait;
	struct sigaction sa = { 0 };
	struct session s = { 0 };
	struct pmu *pmus = NULL;
	struct tp_event tps[RECORD_MAX_TRACEPOINTS];
	int n = 0, idx, cpu, i, ret, nr_tps = 0;
	char err[512];

	if (!cfg) {
		err_print(NULL, "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	s.o = o;
	ret = ERR_EXIT_DEVICE;
	n = pmu_scan(pmu_sysfs_root(), &pmus, err, sizeof(err));
	if (n < 0) {
		err_print(NULL, "%s", err);
		goto out;
	}
	idx = pmu_pick(pmus, n, o->dev, err, sizeof(err));
	if (idx < 0) {
		err_print(NULL, "%s", err);
		goto out;
	}
	for (i = 0; i < o->nr_events; i++) {
		if (pmu_parse_event(&pmus[idx], o->events[i], cfg[i], err, sizeof(err))) {
			err_print(NULL, "%s", err);
			goto out;
		}
	}
	cpu = pmu_first_cpu(&pmus[idx]);
	if (cpu < 0 || pmus[idx].type < 0) {
		err_print(NULL, "%s: unreadable type or cpumask in %s",
			  pmus[idx].name, pmus[idx].dir);
		goto out;
	}
	for (i = 0; i < o->nr_tracepoints; i++) {
		if (tp_lookup(o->tracepoints[i], &tps[i], err, sizeof(err))) {
			err_print(NULL, "%s", err);
			goto out;
		}
		nr_tps++;
	}
	ret = open_session(&s, &pmus[idx], cpu, (const uint64_t (*)[3])cfg);
	if (ret)
		goto out;
	if (nr_tps && tp_open(&s.tp, tps, nr_tps, o->clockid, &i)) {
		if (i == EACCES || i == EPERM)
			fprintf(stderr, "  %s\n", record_open_error_hint(EPERM, 0));
		ret = ERR_EXIT_OPEN;
		goto out;
	}
	if (mdf_writer_open(&s.w, o->output)) {
		err_print(NULL, "%s", s.w.err);
		ret = ERR_EXIT_OUTPUT;
		goto out;
	}
	ret = write_meta(&s, &pmus[idx], cpu, (const uint64_t (*)[3])cfg);
	if (ret)
		goto out;

	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);

	if (nr_tps)
		tp_enable(&s.tp, 1);
	if (ioctl(s.fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
		int e = errno;

		fprintf(stderr, "mlx5-diag: cannot enable the session: %s\n  %s\n",
			strerror(e), record_open_error_hint(e, 1));
		ret = ERR_EXIT_OPEN;
		goto out;
	}
	t0 = last_t = clock_now_ns(CLOCK_MONOTONIC);
	if (o->cmd) {
		ret = start_child(&s, o->cmd);
		if (ret) {
			/* nothing was recorded: no file */
			ioctl(s.fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
			if (nr_tps)
				tp_enable(&s.tp, 0);
			mdf_writer_close(&s.w);
			if (strcmp(o->output, "-"))
				unlink(o->output);
			goto out;
		}
	}
	drain_until(&s, deadline_after(t0, o->duration_ns), 1, t0, &last_t,
		    &last_samples);
	if (o->reconfig_period_ns && !got_stop && !s.seen.truncated &&
	    s.count.end_reason != MLX5_DIAG_END_REMOVED &&
	    s.count.end_reason != MLX5_DIAG_END_TAKEN) {
		uint64_t p = o->reconfig_period_ns, t1;

		if (ioctl(s.fds[0], PERF_EVENT_IOC_PERIOD, &p)) {
			err_print(NULL, "cannot change the period to %" PRIu64
				  " ns: %s", p, strerror(errno));
		} else {
			t1 = clock_now_ns(CLOCK_MONOTONIC);
			drain_until(&s, deadline_after(t1, o->duration_ns), 1, t0,
				    &last_t, &last_samples);
		}
	}
	/* the driver's work drains to the disable and ends the run with END */
	ioctl(s.fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	end_wait = clock_now_ns(CLOCK_MONOTONIC) + RECORD_END_WAIT_MS * 1000000ull;
	do {
		perf_ring_read_data(&s.ring, &s.seen);
		drain_aux(&s);
		drain_tp(&s);
		if (s.count.run_ended || !s.count.runs)
			break;
		usleep(5000);
	} while (clock_now_ns(CLOCK_MONOTONIC) < end_wait);
	if (nr_tps) {
		tp_enable(&s.tp, 0);
		drain_tp(&s);
	}
	status_line(&s, t0, &last_t, &last_samples, 1);

	ret = ERR_EXIT_OK;
	if (s.write_failed || mdf_writer_close(&s.w)) {
		err_print(NULL, "%s: %s", o->output, s.w.err);
		ret = ERR_EXIT_OUTPUT;
	}
	if (s.seen.truncated) {
		err_print(NULL, "the AUX area filled up and the kernel stopped "
			  "the session; use a larger -a (now %u pages)", o->aux_pages);
		ret = ret ? ret : ERR_EXIT_ENDED;
	}
	if (!s.count.runs && !s.count.bad)
		err_print(NULL, "warning: no run was recorded: the session never "
			  "started (a recording too short for it, or the driver "
			  "refused it: see dmesg)");
	if (s.count.end_reason && s.count.end_reason != MLX5_DIAG_END_STOPPED) {
		err_print(NULL, "the session ended early: %s",
			  end_reason_text(s.count.end_reason));
		if (s.count.end_reason != MLX5_DIAG_END_FULL)
			ret = ret ? ret : ERR_EXIT_ENDED;
	}
	if (s.count.bad)
		err_print(NULL, "warning: a record of the AUX stream has a "
			  "bad size; the recording may not decode");
	if (s.seen.lost)
		err_print(NULL, "warning: %" PRIu64 " data-ring records lost",
			  s.seen.lost);
	if (s.seen.broken)
		err_print(NULL, "warning: the data ring held a record of a bad "
			  "size: the records after it, up to the ring's head "
			  "then, were skipped");
	if (s.tp.seen.broken)
		err_print(NULL, "warning: a tracepoint ring held a record "
			  "of a bad size; the rest of that ring was not recorded");
	if (nr_tps && !o->quiet)
		err_print(NULL, "%" PRIu64 " tracepoint events, %" PRIu64
			  " lost", s.tp.seen.samples, s.tp.seen.lost);
	if (!o->quiet)
		err_print(NULL, "%" PRIu64 " samples, %" PRIu64 " lost, %u run%s, "
			  "%" PRIu64 " bytes of AUX data in %s", s.count.samples,
			  s.count.lost, s.count.runs, s.count.runs == 1 ? "" : "s",
			  s.aux_bytes, o->output);
	if (s.child) {
		kill(s.child, SIGTERM);
		waitpid(s.child, &s.child_status, 0);
	} else if (o->cmd && !o->quiet && WIFEXITED(s.child_status) &&
		   WEXITSTATUS(s.child_status)) {
		err_print(NULL, "%s exited with status %d", o->cmd[0],
			  WEXITSTATUS(s.child_status));
	}
out:
	if (s.w.f)
		mdf_writer_close(&s.w);
	tp_close(&s.tp);
	for (i = 0; i < nr_tps; i++)
		tp_free(&tps[i]);
	close_session(&s);
	pmu_scan_free(pmus, n > 0 ? n : 0);
	free(cfg);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	char err[256];
	int ret;

	ret = record_parse(argc, argv, &o, err, sizeof(err));
	if (ret < 0)
		return ERR_EXIT_OK;
	if (ret) {
		return err_usage("record", "%s", err);
	}
	return record_run(&o);
}
