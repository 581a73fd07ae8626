// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag doctor: the bring-up check of a device. Short counting and
 * sampling runs in each mode the device offers, then what this firmware
 * does where the public documents leave it open, assumption by
 * assumption, with a verdict and an exit status; as text or as a JSON
 * report for a bug report.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json_object.h>

#include <linux/mlx5_diag.h>

#include "cli.h"
#include "doctor.h"
#include "record.h"

static const char doctor_usage[] =
"usage: mlx5-diag doctor [-d DEV] [--json] [--long] [--force]\n"
"\n"
"The bring-up check of a device, for a first run on new hardware or\n"
"firmware. It reads the capabilities and runs, for a few seconds in all:\n"
"configuration round trips, a counting run, and short sampling runs\n"
"(repetitive, once more right after, a period change midway, single mode,\n"
"synchronized start with clear, the real-time clock: each the device\n"
"offers). Then, assumption by assumption (the A-numbers of the driver's\n"
"firmware document), what this firmware does: holds (as the driver\n"
"assumes), handled (otherwise, in a way the driver follows), differs (the\n"
"data is doubtful: attach the --json report to a bug report) or unknown.\n"
"It leaves the engine as it found it, and refuses one that perf or another\n"
"agent holds.\n"
"\n"
"  -d, --device DEV  a PMU number, name or function (default: the only one)\n"
"  -j, --json        the report as JSON on stdout\n"
"  -l, --long        run the first sampling run on past sample 65,536 (up\n"
"                    to a minute): a numbering that wraps at 2^16 in a\n"
"                    wider field shows only there\n"
"      --force       take the engine from another agent (CAP_PERFMON); its\n"
"                    configuration is lost\n"
"\n"
"exit status: 0 every assumption holds or is handled, 1 one differs,\n"
"2 usage, 7 no such device, 8 the engine is held (or the kernel refused\n"
"every run)\n";

#define DOCTOR_RUN_MS		300
#define DOCTOR_RESTORE_MS	2000

enum run_role { RUN_FIRST, RUN_AGAIN, RUN_CHANGE, RUN_SINGLE, RUN_SYNC, RUN_RTC,
		RUN_NR };

struct doctor {
	struct doctor_dev dev;
	int long_run;			/* --long */
	struct doctor_latency latency;
	struct doctor_count count;
	struct doctor_run runs[RUN_NR];
	int ran[RUN_NR];
	struct doctor_finding findings[DOCTOR_FINDINGS];
	unsigned int differ;
	char state_after[32];
	char clear_after[16];		/* caps/clear after the runs */
};

static void plan(struct doctor *dr)
{
	const struct doctor_dev *d = &dr->dev;
	uint64_t p = d->min_period_ns > 1000000 ? d->min_period_ns : 1000000;
	static const char *const names[RUN_NR] = {
		[RUN_FIRST] = "repetitive", [RUN_AGAIN] = "again",
		[RUN_CHANGE] = "period_change", [RUN_SINGLE] = "single",
		[RUN_SYNC] = "sync_clear", [RUN_RTC] = "rtc",
	};

	for (int i = 0; i < RUN_NR; i++) {
		struct doctor_run *r = &dr->runs[i];

		r->name = names[i];
		r->mode = MLX5_DIAG_MODE_REPETITIVE;
		r->format = MLX5_DIAG_FORMAT_0;
		r->ts = MLX5_DIAG_TS_FRC;
		r->period_ns = p;
		r->duration_ms = DOCTOR_RUN_MS;
		dr->ran[i] = 1;
	}
	dr->runs[RUN_FIRST].period_ns = d->min_period_ns ? d->min_period_ns : p;
	dr->runs[RUN_FIRST].laps = 1;
	dr->runs[RUN_FIRST].past_16_bits = dr->long_run;
	dr->runs[RUN_CHANGE].change_to_ns = 2 * p;
	dr->runs[RUN_CHANGE].duration_ms = 2 * DOCTOR_RUN_MS;
	dr->runs[RUN_SINGLE].mode = MLX5_DIAG_MODE_SINGLE;
	dr->ran[RUN_SINGLE] = strstr(d->modes, "single") != NULL;
	dr->runs[RUN_SYNC].sync = 1;
	dr->runs[RUN_SYNC].clear = 1;
	/* tried where unknown: the driver learns data clear so (caps/clear) */
	dr->ran[RUN_SYNC] = strcmp(d->sync, "no") && strcmp(d->clear, "no") &&
			    d->nr_sync;
	dr->runs[RUN_RTC].ts = MLX5_DIAG_TS_RTC;
	dr->runs[RUN_RTC].format = MLX5_DIAG_FORMAT_1;
}

/* Wait until the engine is back in the state doctor found it in. */
static void wait_restored(struct doctor *dr)
{
	const struct timespec tick = { .tv_nsec = 20000000 };
	const char *want = strcmp(dr->dev.state, "foreign") ? dr->dev.state : "off";

	for (int waited = 0; waited <= DOCTOR_RESTORE_MS; waited += 20) {
		doctor_engine_state(dr->dev.pmu, dr->state_after, sizeof(dr->state_after));
		if (!strcmp(dr->state_after, want))
			return;
		nanosleep(&tick, NULL);
	}
}

static void examine(struct doctor *dr)
{
	struct doctor_evidence e = { .count = &dr->count };
	uint64_t before[DC_NR];

	plan(dr);
	doctor_engine_counters(dr->dev.pmu, before);
	doctor_latency(&dr->dev, &dr->latency);
	doctor_count(&dr->dev, DOCTOR_RUN_MS, &dr->count);
	for (int i = 0; i < RUN_NR; i++)
		if (dr->ran[i])
			doctor_sample(&dr->dev, &dr->runs[i]);
	wait_restored(dr);
	if (pmu_read_line(dr->dev.pmu->dir, "caps/clear", dr->clear_after,
			  sizeof(dr->clear_after)))
		dr->clear_after[0] = '\0';
	doctor_engine_delta(dr->dev.pmu, before, e.total);
	e.rtc_still = pmu_read_u64(dr->dev.pmu->dir, "engine/rtc_still", 1) != 0;
	e.slot_ids = pmu_read_u64(dr->dev.pmu->dir, "engine/slot_ids", 1) != 0;
	e.first = &dr->runs[RUN_FIRST];
	e.again = &dr->runs[RUN_AGAIN];
	e.change = &dr->runs[RUN_CHANGE];
	dr->differ = doctor_judge(&e, dr->findings);
}

/* ---- text ---- */

static const char *end_name(uint32_t reason)
{
	return reason ? mlx5diag_end_reason_name(reason) : "none";
}

static void print_run(const struct doctor_run *r)
{
	if (r->open_errno) {
		printf("  %-14s refused: %s\n", r->name, r->open_error);
		return;
	}
	printf("  %-14s %" PRIu64 " ns asked, %" PRIu64 " ns set, %u ms: %" PRIu64
	       " samples, %" PRIu64 " lost, end %s", r->name, r->period_ns,
	       r->session.period_ns_actual, r->ran_ms, r->rows,
	       doctor_lost_total(r), end_name(r->end_reason));
	if (r->steps[0])
		printf(", %" PRIu64 " ns apart", doctor_step_ns(r, r->min_step[0]));
	if (r->period_learnt)
		printf(" (%" PRIu64 " ns as learnt at sample %" PRIu64 ")", r->learnt_ns,
		       r->learnt_seq);
	if (r->period_seen)
		printf(", then %" PRIu64 " ns from sample %" PRIu64, r->period_ns_actual,
		       r->period_seq);
	printf("%s%s\n", r->stop_why[0] ? "; " : "", r->stop_why);
}

static void print_text(const struct doctor *dr)
{
	const struct doctor_dev *d = &dr->dev;

	printf("%s (%s): firmware %s, dialect %s%s\n", d->pmu->name, d->pmu->function,
	       d->firmware[0] ? d->firmware : "?", d->dialect,
	       strcmp(d->dialect, "model64") ? "" :
	       " (capabilities from the emulator's modelled bits)");
	printf("  modes %s; sync %s; clear %s; %u data IDs; periods %" PRIu64 " to %"
	       PRIu64 " ns; clock %" PRIu64 " kHz; counting %s\n", d->modes,
	       d->sync, d->clear, d->max_ids,
	       d->min_period_ns, d->max_period_ns, d->freq_khz,
	       d->counting_mode[0] ? d->counting_mode : "?");
	printf("  engine %s before, %s after\n", d->state, dr->state_after);
	if (strcmp(d->clear, dr->clear_after))
		printf("  data clear learnt: caps/clear %s, was %s\n", dr->clear_after,
		       d->clear);
	printf("runs (events");
	for (unsigned int i = 0; i < d->nr; i++)
		printf(" %s", d->events[i]);
	printf("):\n");
	if (dr->latency.open_errno)
		printf("  %-14s refused: %s\n", "configuration", strerror(dr->latency.open_errno));
	else
		printf("  %-14s %.0f us median of %d (%.0f to %.0f)\n", "configuration",
		       dr->latency.median_ns / 1e3, DOCTOR_LATENCY_TRIES,
		       dr->latency.min_ns / 1e3, dr->latency.max_ns / 1e3);
	if (dr->count.open_errno)
		printf("  %-14s refused: %s\n", "counting", dr->count.open_error);
	else
		printf("  %-14s %u IDs counted for %d ms\n", "counting", d->nr, DOCTOR_RUN_MS);
	for (int i = 0; i < RUN_NR; i++)
		if (dr->ran[i])
			print_run(&dr->runs[i]);
		else
			printf("  %-14s not offered\n", dr->runs[i].name);
	printf("assumptions:\n");
	for (int i = 0; i < DOCTOR_FINDINGS; i++) {
		const struct doctor_finding *f = &dr->findings[i];

		printf("  %-4s %-8s %s", f->id, doctor_verdict_name(f->verdict), f->what);
		if (f->reading)
			printf(" [%s]", f->reading);
		printf(": %s\n", f->detail);
	}
	printf("verdict: %s\n", dr->differ ?
	       "the firmware differs where the driver cannot follow: its data is doubtful" :
	       "every assumption holds or is handled");
}

/* ---- JSON ---- */

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static struct json_object *str(const char *s)
{
	return json_object_new_string(s);
}

static struct json_object *run_json(const struct doctor_run *r)
{
	struct json_object *o = json_object_new_object();

	add(o, "name", str(r->name));
	add(o, "mode", str(mlx5diag_mode_name((unsigned int)r->mode)));
	add(o, "format", u64((uint64_t)r->format));
	add(o, "ts_source", str(mlx5diag_ts_source_name((unsigned int)r->ts)));
	add(o, "sync", json_object_new_boolean(r->sync));
	add(o, "clear", json_object_new_boolean(r->clear));
	add(o, "period_ns", u64(r->period_ns));
	add(o, "duration_ms", u64(r->ran_ms));
	if (r->open_errno) {
		add(o, "errno", u64((uint64_t)r->open_errno));
		add(o, "error", str(r->open_error));
		return o;
	}
	add(o, "period_ns_actual", u64(r->session.period_ns_actual));
	add(o, "log_sample_period", u64(r->session.log_sample_period));
	add(o, "log_num_of_samples", u64(r->session.log_num_of_samples));
	add(o, "samples", u64(r->rows));
	add(o, "first_seq", u64(r->first_seq));
	add(o, "lost_at_start", u64(r->lost_at_start));
	add(o, "last_seq", u64(r->last_seq));
	add(o, "lost_overwritten", u64(r->lost[MLX5_DIAG_LOST_FW_OVERWRITE]));
	add(o, "lost_aux_full", u64(r->lost[MLX5_DIAG_LOST_AUX_FULL]));
	add(o, "lost_reset", u64(r->lost[MLX5_DIAG_LOST_RESET]));
	add(o, "lost_unaccounted", u64(r->lost[0]));
	add(o, "step_min", u64(r->min_step[0]));
	add(o, "step_max", u64(r->max_step[0]));
	add(o, "entry_spread_max", u64(r->max_spread));
	add(o, "samples_out_of_order", u64(r->unordered));
	add(o, "first_sample_after_enable_ns",
	    json_object_new_int64((int64_t)(r->first_perf_time - r->enable_ns)));
	if (r->period_learnt) {
		add(o, "learnt_at_seq", u64(r->learnt_seq));
		add(o, "learnt_period_ns", u64(r->learnt_ns));
		add(o, "learnt_log_sample_period", u64(r->learnt_log));
	}
	if (r->period_seen) {
		add(o, "changed_at_seq", u64(r->period_seq));
		add(o, "changed_period_ns_actual", u64(r->period_ns_actual));
		add(o, "samples_after_change", u64(r->rows_after_change));
		add(o, "step_after_change_min", u64(r->min_step[1]));
		add(o, "step_after_change_max", u64(r->max_step[1]));
	}
	add(o, "end", str(end_name(r->end_reason)));
	if (r->stop_why[0])
		add(o, "stopped", str(r->stop_why));
	add(o, "bad_samples", u64(r->engine[DC_BAD_SAMPLES]));
	add(o, "unusable_answers", u64(r->engine[DC_UNUSABLE_ANSWERS]));
	add(o, "busy_answers", u64(r->engine[DC_BUSY_ANSWERS]));
	add(o, "unreported_periods", u64(r->engine[DC_UNREPORTED_PERIODS]));
	add(o, "rtc_still", u64(r->engine[DC_RTC_STILL]));
	add(o, "reckoned_starts", u64(r->engine[DC_RECKONED_STARTS]));
	add(o, "period_restarts", u64(r->engine[DC_PERIOD_RESTARTS]));
	add(o, "num_samples_unit", str(r->unit));
	add(o, "sample_id_bits", u64(r->sample_id_bits));
	add(o, "entry_order", str(r->order));
	add(o, "sample_id_start", str(r->id_start));
	return o;
}

static int print_json(const struct doctor *dr)
{
	const struct doctor_dev *d = &dr->dev;
	struct json_object *o = json_object_new_object(), *a, *v;
	int ret;

	add(o, "pmu", str(d->pmu->name));
	add(o, "function", str(d->pmu->function));
	add(o, "firmware_version", str(d->firmware));
	v = json_object_new_object();
	add(v, "dialect", str(d->dialect));
	add(v, "modes", str(d->modes));
	add(v, "sync", str(d->sync));
	add(v, "clear", str(d->clear));
	add(v, "max_data_ids", u64(d->max_ids));
	add(v, "min_sample_period_ns", u64(d->min_period_ns));
	add(v, "max_sample_period_ns", u64(d->max_period_ns));
	add(v, "device_frequency_khz", u64(d->freq_khz));
	add(v, "counting_mode", str(d->counting_mode));
	add(o, "caps", v);
	add(o, "caps_clear_after", str(dr->clear_after));
	add(o, "engine_before", str(d->state));
	add(o, "engine_after", str(dr->state_after));
	add(o, "long", json_object_new_boolean(dr->long_run));
	a = json_object_new_array();
	for (unsigned int i = 0; i < d->nr; i++)
		json_object_array_add(a, str(d->events[i]));
	add(o, "events", a);
	v = json_object_new_object();
	if (dr->latency.open_errno) {
		add(v, "errno", u64((uint64_t)dr->latency.open_errno));
	} else {
		add(v, "min_ns", u64(dr->latency.min_ns));
		add(v, "median_ns", u64(dr->latency.median_ns));
		add(v, "max_ns", u64(dr->latency.max_ns));
	}
	add(o, "configuration_latency", v);
	v = json_object_new_object();
	if (dr->count.open_errno) {
		add(v, "errno", u64((uint64_t)dr->count.open_errno));
		add(v, "error", str(dr->count.open_error));
	} else {
		add(v, "counter_resets", u64(dr->count.engine[DC_COUNTER_RESETS]));
		add(v, "num_samples_unit", str(dr->count.unit));
		add(v, "entry_order", str(dr->count.order));
	}
	add(o, "counting", v);
	a = json_object_new_array();
	for (int i = 0; i < RUN_NR; i++)
		if (dr->ran[i])
			json_object_array_add(a, run_json(&dr->runs[i]));
	add(o, "runs", a);
	a = json_object_new_array();
	for (int i = 0; i < DOCTOR_FINDINGS; i++) {
		const struct doctor_finding *f = &dr->findings[i];

		v = json_object_new_object();
		add(v, "id", str(f->id));
		add(v, "assumption", str(f->what));
		add(v, "verdict", str(doctor_verdict_name(f->verdict)));
		add(v, "reading", f->reading ? str(f->reading) : NULL);
		add(v, "detail", str(f->detail));
		json_object_array_add(a, v);
	}
	add(o, "assumptions", a);
	add(o, "verdict", str(dr->differ ? "differs" : "ok"));
	ret = puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return ret < 0 ? -1 : 0;
}

/* ---- the command ---- */

/* Whether doctor may use the engine as it is: 0, or ERR_EXIT_OPEN said. */
static int engine_free(const struct doctor_dev *d)
{
	if (!strcmp(d->state, "off"))
		return 0;
	if (!strcmp(d->state, "foreign")) {
		if (d->force)
			return 0;
		err_print("doctor", "%s: another agent (DOCA over fwctl, say) holds the "
			  "diagnostic engine: doctor leaves it alone (--force takes it, "
			  "and its configuration is lost)", d->pmu->name);
		return ERR_EXIT_OPEN;
	}
	err_print("doctor", "%s: the engine is in use (engine/state %s): stop the perf "
		  "sessions on it first, doctor's runs would reprogram it",
		  d->pmu->name, d->state[0] ? d->state : "unreadable");
	return ERR_EXIT_OPEN;
}

int cmd_doctor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "long", no_argument, NULL, 'l' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = NULL;
	struct doctor *dr;
	struct pmu *pmus = NULL;
	int json = 0, long_run = 0, force = 0, c, n, idx, ret;
	char err[512];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+d:jlh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'l':
			long_run = 1;
			break;
		case 'F':
			force = 1;
			break;
		case 'h':
			fputs(doctor_usage, stdout);
			return ERR_EXIT_OK;
		default:
			return err_bad_option("doctor", longopts, optopt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return err_usage("doctor", "unexpected argument '%s'", argv[optind]);
	n = pmu_scan(pmu_sysfs_root(), &pmus, err, sizeof(err));
	if (n <= 0) {
		err_print("doctor", "%s", n < 0 ? err : "no mlx5_diag device");
		return ERR_EXIT_DEVICE;
	}
	idx = pmu_pick(pmus, n, dev, err, sizeof(err));
	dr = calloc(1, sizeof(*dr));
	if (idx < 0 || !dr) {
		err_print("doctor", "%s", dr ? err : "out of memory");
		ret = dr ? ERR_EXIT_DEVICE : ERR_EXIT_OPEN;
		goto out;
	}
	dr->dev.force = force;
	dr->long_run = long_run;
	if (doctor_dev_read(&dr->dev, &pmus[idx], err, sizeof(err))) {
		err_print("doctor", "%s", err);
		ret = ERR_EXIT_DEVICE;
		goto out;
	}
	ret = engine_free(&dr->dev);
	if (ret)
		goto out;
	examine(dr);
	if (dr->runs[RUN_FIRST].open_errno && dr->count.open_errno) {
		err_print("doctor", "%s: the kernel refused every run: %s: %s", pmus[idx].name,
			  dr->runs[RUN_FIRST].open_error,
			  record_open_error_hint(dr->runs[RUN_FIRST].open_errno, 1));
		ret = ERR_EXIT_OPEN;
		goto out;
	}
	if (json ? print_json(dr) : (print_text(dr), fflush(stdout))) {
		err_print("doctor", "writing the report failed");
		ret = ERR_EXIT_OUTPUT;
		goto out;
	}
	ret = dr->differ ? ERR_EXIT_FINDINGS : ERR_EXIT_OK;
out:
	free(dr);
	pmu_scan_free(pmus, n > 0 ? n : 0);
	return ret;
}
