// SPDX-License-Identifier: GPL-2.0
/*
 * `mlx5-diag decode`: its arguments, and the sink they choose for the
 * decode pipeline (pipeline.h); decode_doca_csv() for `mlx5-diag doca`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pipeline.h"
#include "sink.h"

static const char decode_usage[] =
"usage: mlx5-diag decode [--format text|csv|json|timeline|perfetto | --timeline]\n"
"                        [--metrics]\n"
"                        [-di FILE]\n"
"                        [-o OUT] [-q] RECORDING\n"
"       mlx5-diag decode --example-json FILE\n"
"\n"
"Decodes the AUX stream of a recording of `mlx5-diag record`, or the\n"
"mlx5_diag AUX data of a perf.data (perf record, file or pipe mode: -o -),\n"
"each mmap index's stream in turn (snapshot mode, perf record -S: each\n"
"snapshot on its own, from its first chunk). RECORDING - reads standard\n"
"input.\n"
"\n"
"  --format text   one line per sample: run, sample number, perf time (s),\n"
"                  device time, then NAME=VALUE per data ID; SESSION, LOST,\n"
"                  PERIOD and END lines (default)\n"
"  --format csv    the CSV of DOCA's telemetry_diag sample (format 0:\n"
"                  sample_id, then data_id, sample_time, NAME per data ID;\n"
"                  formats 1/2: sample_id, sample_time_start,\n"
"                  sample_time_end, NAME per data ID); RTC times as\n"
"                  SECONDS.NANOSECONDS (9 digits), FRC times in clocks\n"
"  --format json   one JSON object per line: session, sample, lost,\n"
"                  period, end\n"
"  --timeline, --format timeline\n"
"                  mlx5 samples and the recording's tracepoint events\n"
"                  (record --tracepoint, or perf record -e sys:name) in one\n"
"                  list ordered by perf time, one line each as\n"
"                  `perf script --ns` prints: comm/PMU, tid, [cpu], time:\n"
"                  event: fields\n"
"  --format perfetto\n"
"                  Perfetto's protobuf trace (open it in ui.perfetto.dev):\n"
"                  a counter track per data ID (and metric) of each device,\n"
"                  runs, period changes, losses and ends as instant events\n"
"                  on the device's track, the recording's sched_switch\n"
"                  events as CPU scheduling; times are the recording's\n"
"                  perf clock (perf record -k mono: CLOCK_MONOTONIC, to\n"
"                  line it up with other traces); needs -o or a redirect\n"
"  --metrics       add the derived metrics (metrics.def) whose data IDs are\n"
"                  present: port and priority bandwidth (GB/s), packets\n"
"                  per second, average PCIe read latency (ns), ICMC hit\n"
"                  and miss rates and accesses per second\n"
"  -di, --data-ids FILE\n"
"                  name data IDs as DOCA's data-ID JSON file does\n"
"  -e, --example-json FILE\n"
"                  write DOCA's example data-ID file (its default data IDs)\n"
"                  and exit; other flags are ignored\n"
"  -o, --output OUT  write to OUT instead of standard output\n"
"  -q, --quiet     no progress and no summary on standard error\n"
"\n"
"A summary (samples, lost samples by cause) goes to standard error.\n"
"\n"
"Exit status: 0 decoded; 2 bad flags or arguments; 3 the -di file is\n"
"unreadable or malformed; 4 the recording or perf.data is unreadable,\n"
"malformed or not one;\n"
"5 its AUX stream is malformed (what was decoded before is written);\n"
"6 the output could not be written.\n";

/* Decode PATH with the sink SINK into OUT: an enum err_exit status. */
static int decode(const char *path, const struct sink_ops *sink, FILE *out,
		  const struct data_id_names *names, int metrics, int quiet)
{
	/* on the heap: the item batch is large */
	struct pipeline *p = calloc(1, sizeof(*p));
	int ret;

	if (!p) {
		err_print("decode", "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	p->path = path;
	p->names = names;
	p->metrics = metrics;
	p->quiet = quiet;
	ret = pipeline_run(p, sink, out);
	free(p);
	return ret;
}

int decode_doca_csv(FILE *outf, const char *recording_path,
		    const struct data_id_names *names)
{
	return decode(recording_path, sink_find("csv"), outf, names, 0, 1);
}

enum { OPT_METRICS = 256, OPT_TIMELINE };

static const struct option decode_longopts[] = {
	{ "format", required_argument, NULL, 'F' },
	{ "metrics", no_argument, NULL, OPT_METRICS },
	{ "timeline", no_argument, NULL, OPT_TIMELINE },
	{ "data-ids", required_argument, NULL, 'D' },
	{ "example-json", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_decode(int argc, char **argv)
{
	const char *format = "text", *di = NULL, *example = NULL;
	const char *output = NULL, *path = NULL;
	struct data_id_names names = { NULL, 0 };
	const struct sink_ops *sink;
	int metrics = 0, quiet = 0, timeline = 0, c, ret;
	char err[512], **args;
	FILE *outf;

	args = data_id_names_argv(argc, argv);
	if (!args) {
		err_print("decode", "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	optind = 0;
	opterr = 0;
	ret = ERR_EXIT_OK;
	while (!ret && (c = getopt_long(argc, args, ":F:e:o:qh", decode_longopts,
					NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(decode_usage, stdout);
			free(args);
			return ERR_EXIT_OK;
		case 'F':
			format = optarg;
			break;
		case OPT_METRICS:
			metrics = 1;
			break;
		case OPT_TIMELINE:
			timeline = 1;
			break;
		case 'D':
			di = optarg;
			break;
		case 'e':
			example = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case ':':
			ret = err_usage("decode", "%s needs a value", args[optind - 1]);
			break;
		default:
			ret = err_bad_option("decode", decode_longopts, optopt,
					     args[optind - 1]);
		}
	}
	if (!ret && optind < argc)
		path = args[optind++];
	if (!ret && optind < argc)
		ret = err_usage("decode", "more than one recording: %s", args[optind]);
	free(args);
	if (ret)
		return ret;
	if (example) {
		/* as DOCA's sample: write the file and exit, flags ignored */
		outf = fopen(example, "w");
		if (!outf || data_id_names_write_example(outf) || fclose(outf)) {
			err_print("decode", "%s: %s", example,
				  strerror(errno));
			return ERR_EXIT_OUTPUT;
		}
		return ERR_EXIT_OK;
	}
	if (!path)
		return err_usage("decode", "no recording given");
	sink = sink_find(format);
	if (!sink) {
		return err_usage("decode", "unknown format %s (%s)", format,
				 sink_names());
	}
	if (timeline && strcmp(format, "text") && strcmp(format, "timeline"))
		return err_usage("decode", "--timeline writes text, not --format %s",
				 format);
	if (timeline)
		sink = sink_find("timeline");
	if (sink->binary && !output && isatty(STDOUT_FILENO))
		return err_usage("decode", "--format %s writes a binary trace: "
				 "give -o FILE or redirect standard output",
				 sink->name);
	if (di && data_id_names_load(&names, di, err, sizeof(err))) {
		err_print("decode", "%s", err);
		return ERR_EXIT_NAMES;
	}
	outf = output ? fopen(output, "w") : stdout;
	if (!outf) {
		err_print("decode", "%s: %s", output,
			  strerror(errno));
		data_id_names_free(&names);
		return ERR_EXIT_OUTPUT;
	}
	ret = decode(path, sink, outf, di ? &names : NULL, metrics, quiet);
	if (output && fclose(outf) && ret == ERR_EXIT_OK) {
		err_print("decode", "%s: %s", output,
			  strerror(errno));
		ret = ERR_EXIT_OUTPUT;
	}
	data_id_names_free(&names);
	return ret;
}
