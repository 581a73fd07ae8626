// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5-diag doca: a drop-in for the DOCA telemetry_diag sample. Its flags
 * (the DOCA Telemetry Diag guide, "Running the Sample") become a record
 * session on the PMU whose function is the PCI address; the recording is
 * then written as the sample's CSV by the decoder (cli.h).
 */
#define _GNU_SOURCE
#include "doca.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/mlx5_diag.h>

#include "args.h"
#include "cli.h"
#include "pmu.h"
#include "record.h"

/* The sample's defaults (DOCA telemetry_diag sample). */
#define DOCA_DEFAULT_PERIOD_NS		100000
#define DOCA_DEFAULT_RUN_TIME_S		1
#define DOCA_DEFAULT_LOG_NUM_SAMPLES	10
#define DOCA_DEFAULT_SAMPLES_PER_READ	128
#define DOCA_DEFAULT_OUTPUT		"/tmp/out.csv"

/* The sample's default data IDs (no synchronized start): port 0 rx/tx. */
static const struct {
	uint64_t id;
	const char *name;
} doca_default_ids[] = {
	{ 0x1020000100000000ull, "port_0_rx_bytes" },
	{ 0x1140000100000000ull, "port_0_tx_bytes" },
	{ 0x1020000300000000ull, "port_0_rx_packets" },
	{ 0x1140000300000000ull, "port_0_tx_packets" },
};

static const char doca_usage[] =
"usage: mlx5-diag doca [DOCA Flags] [Program Flags]\n"
"\n"
"The DOCA telemetry_diag sample's flags, run as an mlx5-diag record session\n"
"and written as the sample's CSV.\n"
"\n"
"DOCA Flags:\n"
"  -h, --help                    this text\n"
"  -v, --version                 the version\n"
"  -l, --log-level N             accepted; no meaning here (said on stderr)\n"
"      --sdk-log-level N         accepted; no meaning here (said on stderr)\n"
"  -j, --json PATH               refused: give the flags on the command line\n"
"\n"
"Program Flags:\n"
"  -p, --pci-addr ADDR           the device: the PMU whose function is ADDR\n"
"                                (0000:08:00.0, 08:00.0, or sim:N)\n"
"  -di, --data-ids PATH          data IDs JSON file ({\"data-ids\": [{\"name\",\n"
"                                \"data_id\"}]}); default: port 0 rx/tx bytes\n"
"                                and packets\n"
"  -o, --output PATH             output CSV (default /tmp/out.csv)\n"
"  -rt, --sample-run-time SEC    run time in seconds (default 1)\n"
"  -sp, --sample-period NS       sample period in ns (default 100000)\n"
"  -ns, --log-num-samples N      accepted: the driver sizes the firmware buffer\n"
"  -sr, --max-samples-per-read N accepted: the driver drains the buffer\n"
"  -sm, --sample-mode N          0 single, 1 repetitive (default); 2 (on demand)\n"
"                                is refused: use perf stat for counting\n"
"  -of, --output-format N        0, 1 (default) or 2\n"
"  -f, --force-ownership         take the engine from another agent\n"
"  -e, --example-json-path PATH  write the default data IDs as a JSON file, exit\n"
"  -rs, --reconfig-sample-period NS  after the run, change the period to NS\n"
"                                and run as long again\n"
"\n"
"Timestamps are the device's real-time clock, as the sample's. exit status:\n"
"as mlx5-diag record, and 3 for a bad data IDs file, 4-6 as decode.\n";

enum doca_flag {
	F_HELP, F_VERSION, F_LOG, F_SDK_LOG, F_JSON, F_PCI, F_DATA_IDS, F_OUTPUT,
	F_RUN_TIME, F_PERIOD, F_LOG_NUM, F_PER_READ, F_MODE, F_FORMAT, F_FORCE,
	F_EXAMPLE, F_RECONFIG,
};

static const struct {
	const char *s, *l;
	int arg;
} doca_flags[] = {
	[F_HELP] = { "h", "help", 0 },
	[F_VERSION] = { "v", "version", 0 },
	[F_LOG] = { "l", "log-level", 1 },
	[F_SDK_LOG] = { NULL, "sdk-log-level", 1 },
	[F_JSON] = { "j", "json", 1 },
	[F_PCI] = { "p", "pci-addr", 1 },
	[F_DATA_IDS] = { "di", "data-ids", 1 },
	[F_OUTPUT] = { "o", "output", 1 },
	[F_RUN_TIME] = { "rt", "sample-run-time", 1 },
	[F_PERIOD] = { "sp", "sample-period", 1 },
	[F_LOG_NUM] = { "ns", "log-num-samples", 1 },
	[F_PER_READ] = { "sr", "max-samples-per-read", 1 },
	[F_MODE] = { "sm", "sample-mode", 1 },
	[F_FORMAT] = { "of", "output-format", 1 },
	[F_FORCE] = { "f", "force-ownership", 0 },
	[F_EXAMPLE] = { "e", "example-json-path", 1 },
	[F_RECONFIG] = { "rs", "reconfig-sample-period", 1 },
};

#define NR_FLAGS (int)(sizeof(doca_flags) / sizeof(doca_flags[0]))

void doca_defaults(struct doca_opts *d)
{
	memset(d, 0, sizeof(*d));
	d->output = DOCA_DEFAULT_OUTPUT;
	d->run_time_s = DOCA_DEFAULT_RUN_TIME_S;
	d->period_ns = DOCA_DEFAULT_PERIOD_NS;
	d->log_num_samples = DOCA_DEFAULT_LOG_NUM_SAMPLES;
	d->samples_per_read = DOCA_DEFAULT_SAMPLES_PER_READ;
	d->mode = 1;
	d->format = MLX5_DIAG_FORMAT_1;
}

static int num_arg(const char *flag, const char *v, uint64_t max, uint64_t *out,
		   char *err, size_t errlen)
{
	if (args_parse_u64(v, max, out)) {
		snprintf(err, errlen, "%s: '%s' is not a number from 0 to %" PRIu64,
			 flag, v, max);
		return -1;
	}
	return 0;
}

int doca_parse(int argc, char **argv, struct doca_opts *d, char *err, size_t errlen)
{
	int i, f;

	doca_defaults(d);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq = NULL;
		uint64_t v;

		for (f = 0; f < NR_FLAGS; f++) {
			size_t ll = strlen(doca_flags[f].l);

			if (a[0] != '-')
				continue;
			if (a[1] != '-' && doca_flags[f].s && !strcmp(a + 1, doca_flags[f].s))
				break;
			if (a[1] == '-' && !strncmp(a + 2, doca_flags[f].l, ll) &&
			    (a[2 + ll] == '\0' || (a[2 + ll] == '=' && doca_flags[f].arg))) {
				eq = a[2 + ll] == '=' ? a + 3 + ll : NULL;
				break;
			}
		}
		if (f == NR_FLAGS) {
			snprintf(err, errlen, "unknown flag '%s'", a);
			return ERR_EXIT_USAGE;
		}
		if (doca_flags[f].arg) {
			if (eq) {
				val = eq;
			} else if (i + 1 < argc) {
				val = argv[++i];
			} else {
				snprintf(err, errlen, "%s needs a value", a);
				return ERR_EXIT_USAGE;
			}
		}
		switch (f) {
		case F_HELP:
			d->help = 1;
			break;
		case F_VERSION:
			d->version = 1;
			break;
		case F_LOG:
		case F_SDK_LOG:
			if (num_arg(a, val, 70, &v, err, errlen))
				return ERR_EXIT_USAGE;
			d->note_log = 1;
			break;
		case F_JSON:
			snprintf(err, errlen, "%s: reading the flags from a JSON file is not "
				 "supported; give them on the command line", a);
			return ERR_EXIT_USAGE;
		case F_PCI:
			d->pci = val;
			break;
		case F_DATA_IDS:
			d->data_ids = val;
			break;
		case F_OUTPUT:
			if (!*val) {
				snprintf(err, errlen, "%s: empty path", a);
				return ERR_EXIT_USAGE;
			}
			d->output = val;
			break;
		case F_RUN_TIME:
			if (num_arg(a, val, UINT32_MAX, &v, err, errlen))
				return ERR_EXIT_USAGE;
			d->run_time_s = (uint32_t)v;
			break;
		case F_PERIOD:
			if (num_arg(a, val, UINT32_MAX, &v, err, errlen))
				return ERR_EXIT_USAGE;
			if (!v) {
				snprintf(err, errlen, "%s: the period must not be 0", a);
				return ERR_EXIT_USAGE;
			}
			d->period_ns = v;
			break;
		case F_LOG_NUM:
			if (num_arg(a, val, UINT8_MAX, &v, err, errlen))
				return ERR_EXIT_USAGE;
			d->log_num_samples = (unsigned int)v;
			d->note_log_num = 1;
			break;
		case F_PER_READ:
			if (num_arg(a, val, UINT8_MAX, &v, err, errlen))
				return ERR_EXIT_USAGE;
			d->samples_per_read = (unsigned int)v;
			d->note_per_read = 1;
			break;
		case F_MODE:
			if (num_arg(a, val, 2, &v, err, errlen))
				return ERR_EXIT_USAGE;
			if (v == 2) {
				snprintf(err, errlen, "%s 2: on-demand mode takes no samples "
					 "by itself; count with perf stat instead", a);
				return ERR_EXIT_USAGE;
			}
			d->mode = (int)v;
			break;
		case F_FORMAT:
			if (num_arg(a, val, 2, &v, err, errlen))
				return ERR_EXIT_USAGE;
			d->format = (int)v;
			break;
		case F_FORCE:
			d->force = 1;
			break;
		case F_EXAMPLE:
			d->example = val;
			break;
		case F_RECONFIG:
			if (num_arg(a, val, UINT32_MAX, &v, err, errlen))
				return ERR_EXIT_USAGE;
			d->reconfig_ns = v;
			break;
		}
	}
	if (!d->help && !d->version && !d->example && !d->pci) {
		snprintf(err, errlen, "PCI address must be provided (-p)");
		return ERR_EXIT_USAGE;
	}
	return ERR_EXIT_OK;
}

/* The PMU whose function is the PCI address (pmu_pick). */
static int doca_pick(const char *pci, char *dev, size_t len, char *err, size_t errlen)
{
	struct pmu *pmus;
	int n, idx;

	n = pmu_scan(pmu_sysfs_root(), &pmus, err, errlen);
	if (n < 0)
		return -1;
	idx = pmu_pick(pmus, n, pci, err, errlen);
	if (idx >= 0)
		snprintf(dev, len, "%s", pmus[idx].name);
	pmu_scan_free(pmus, n);
	return idx < 0 ? -1 : 0;
}

int cmd_doca(int argc, char **argv)
{
	struct data_id_names names = { NULL, 0 }, defaults;
	struct data_id_name def_entries[sizeof(doca_default_ids) / sizeof(doca_default_ids[0])];
	char def_names[sizeof(doca_default_ids) / sizeof(doca_default_ids[0])][32];
	char err[512], dev[64], tmp[] = "/tmp/mlx5-diag-doca.XXXXXX";
	char (*ev)[48] = NULL;
	struct record_opts o;
	struct doca_opts d;
	size_t i, nr;
	FILE *out;
	int ret, fd;

	ret = doca_parse(argc, argv, &d, err, sizeof(err));
	if (ret) {
		return err_usage("doca", "%s", err);
	}
	if (d.help) {
		fputs(doca_usage, stdout);
		return ERR_EXIT_OK;
	}
	if (d.version) {
		printf("mlx5-diag doca (DOCA telemetry_diag sample flags)\n");
		return ERR_EXIT_OK;
	}
	if (d.example) {
		/* the sample: "All other flags are ignored" */
		out = fopen(d.example, "w");
		if (!out || data_id_names_write_example(out) || fclose(out)) {
			err_print("doca", "%s: %s", d.example, strerror(errno));
			return ERR_EXIT_OUTPUT;
		}
		return ERR_EXIT_OK;
	}
	if (d.note_log)
		err_print("doca", "-l/--sdk-log-level: no DOCA logging here; ignored");
	if (d.note_log_num)
		err_print("doca", "-ns %u: the driver sizes the firmware "
			  "buffer itself (caps/log_max_samples); ignored", d.log_num_samples);
	if (d.note_per_read)
		err_print("doca", "-sr %u: the driver drains the firmware "
			  "buffer itself; ignored", d.samples_per_read);
	if (doca_pick(d.pci, dev, sizeof(dev), err, sizeof(err))) {
		err_print("doca", "%s", err);
		return ERR_EXIT_DEVICE;
	}
	if (d.data_ids && data_id_names_load(&names, d.data_ids, err, sizeof(err))) {
		err_print("doca", "%s", err);
		return ERR_EXIT_NAMES;
	}
	if (d.data_ids && (!names.nr || names.nr > RECORD_MAX_EVENTS)) {
		err_print("doca", "%s: %zu data IDs (1 to %d)", d.data_ids,
			  names.nr, RECORD_MAX_EVENTS);
		data_id_names_free(&names);
		return ERR_EXIT_NAMES;
	}
	nr = d.data_ids ? names.nr : sizeof(doca_default_ids) / sizeof(doca_default_ids[0]);
	ev = calloc(nr, sizeof(*ev));
	if (!ev) {
		data_id_names_free(&names);
		return ERR_EXIT_OUTPUT;
	}
	record_defaults(&o);
	o.dev = dev;
	for (i = 0; i < nr; i++) {
		snprintf(ev[i], sizeof(ev[i]), "config=0x%" PRIx64,
			 d.data_ids ? names.entries[i].data_id : doca_default_ids[i].id);
		o.events[i] = ev[i];
	}
	o.nr_events = (int)nr;
	o.period_ns = d.period_ns;
	o.mode = d.mode == 0 ? MLX5_DIAG_MODE_SINGLE : MLX5_DIAG_MODE_REPETITIVE;
	o.format = d.format;
	o.ts = MLX5_DIAG_TS_RTC;
	o.force = d.force;
	o.duration_ns = (uint64_t)d.run_time_s * 1000000000ull;
	o.reconfig_period_ns = d.reconfig_ns;
	o.quiet = 1;
	fd = mkstemp(tmp);
	if (fd < 0) {
		err_print("doca", "%s: %s", tmp, strerror(errno));
		ret = ERR_EXIT_OUTPUT;
		goto out;
	}
	close(fd);
	o.output = tmp;
	if (!d.run_time_s)
		err_print("doca", "-rt 0: sampling until SIGINT");
	ret = record_run(&o);
	if (ret && ret != ERR_EXIT_ENDED)
		goto out_tmp;
	out = fopen(d.output, "w");
	if (!out) {
		err_print("doca", "%s: %s", d.output, strerror(errno));
		ret = ERR_EXIT_OUTPUT;
		goto out_tmp;
	}
	{
		int csv;

		for (i = 0; i < sizeof(def_entries) / sizeof(def_entries[0]); i++) {
			snprintf(def_names[i], sizeof(def_names[i]), "%s",
				 doca_default_ids[i].name);
			def_entries[i].data_id = doca_default_ids[i].id;
			def_entries[i].name = def_names[i];
		}
		defaults.entries = def_entries;
		defaults.nr = sizeof(def_entries) / sizeof(def_entries[0]);
		csv = decode_doca_csv(out, tmp, d.data_ids ? &names : &defaults);

		if (fclose(out) && !csv) {
			err_print("doca", "%s: %s", d.output, strerror(errno));
			csv = ERR_EXIT_OUTPUT;
		}
		if (csv)
			ret = csv;
	}
out_tmp:
	unlink(tmp);
out:
	free(ev);
	data_id_names_free(&names);
	return ret;
}
