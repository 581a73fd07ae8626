// SPDX-License-Identifier: GPL-2.0
/*
 * `mlx5-diag plot`: its arguments and its output file; the recording goes
 * through the decode pipeline (pipeline.h) into the plot's sink.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "pipeline.h"
#include "plot.h"
#include "run.h"

#define DEFAULT_WIDTH	1600

static const char plot_usage[] =
"usage: mlx5-diag plot [-o FILE.png|FILE.svg|FILE.pdf | -o - --format FMT]\n"
"                      [--ids LIST] [--metrics] [--cpus] [--from TIME]\n"
"                      [--to TIME] [--width PIXELS] [--height PIXELS]\n"
"                      [-di FILE] [-q]\n"
"                      RECORDING\n"
"\n"
"Draws a recording of `mlx5-diag record`, or the mlx5_diag AUX data of a\n"
"perf.data (RECORDING - reads standard input), one lane per data ID of\n"
"each device: counters as rates per second (bytes as KB/s, MB/s, GB/s;\n"
"ns as the time per second), statistics as their values, on one time axis\n"
"in seconds from the first sample. Each pixel column of a lane shows the\n"
"samples that fell into it: a band from their minimum to their maximum\n"
"and a line at their mean. Marks above a lane: lost samples (red) and\n"
"run ends (black). The title names the devices, the period and the data\n"
"IDs. The recording is read once, in memory bounded by the picture.\n"
"\n"
"  -o, --output FILE  the picture, its format by its extension: .png,\n"
"                  .svg or .pdf (default: RECORDING's file name with .png\n"
"                  for its extension, in the current directory;\n"
"                  mlx5-diag-plot.png for standard input); -: standard\n"
"                  output, in the format --format names\n"
"      --format FMT  png, svg or pdf: the format for -o -, or of the\n"
"                  default file (then with that extension); with -o FILE\n"
"                  it must be the one FILE's extension names\n"
"      --ids LIST  only these lanes, in this order: data IDs (0x hex or\n"
"                  decimal) and names (of data IDs, as decode names them,\n"
"                  or of --metrics), separated by commas\n"
"      --metrics   add a lane per derived metric (decode --metrics)\n"
"      --cpus      add a lane per CPU with the task that ran, from the\n"
"                  recording's sched:sched_switch events (record\n"
"                  --tracepoint sched:sched_switch, perf record -e\n"
"                  sched:sched_switch)\n"
"      --from TIME, --to TIME\n"
"                  only the samples from TIME (default 0) up to TIME (default:\n"
"                  the end) after the first: seconds (0.4, 2), or with a\n"
"                  unit ns, us, ms or s (500ms)\n"
"      --width PIXELS   the picture's width (default 1600, 300 to 8192)\n"
"      --height PIXELS  its height (default: 80 pixels a lane, 100 to 8192)\n"
"  -di, --data-ids FILE\n"
"                  name data IDs as DOCA's data-ID JSON file does\n"
"  -q, --quiet     no progress and no summary on standard error\n"
"\n"
"Exit status: 0 drawn; 2 bad flags or arguments, an --ids item not in\n"
"the recording, nothing between --from and --to, a picture too small for\n"
"its lanes, -o - without --format, a PNG or PDF for a terminal; 3 the\n"
"-di file is unreadable or malformed; 4 the recording is unreadable,\n"
"malformed, not one, or has no samples; 5 its AUX stream is malformed\n"
"(what was decoded before is drawn); 6 the picture could not be written.\n";

enum {
	OPT_IDS = 256, OPT_METRICS, OPT_CPUS, OPT_FROM, OPT_TO, OPT_WIDTH,
	OPT_HEIGHT, OPT_FORMAT,
};

static const struct option plot_longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "ids", required_argument, NULL, OPT_IDS },
	{ "metrics", no_argument, NULL, OPT_METRICS },
	{ "cpus", no_argument, NULL, OPT_CPUS },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "data-ids", required_argument, NULL, 'D' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct plot_args {
	struct plot_opts o;
	const char *path, *di;
	int metrics, quiet;
	int have_format;		/* --format, in format */
	enum plot_format format;
	int to_stdout;			/* -o - */
	char *ids_text;			/* --ids, split in place */
	struct plot_id *ids;
	char default_output[4096];
};

/* --ids LIST into a->ids. */
static int parse_ids(struct plot_args *a, const char *list)
{
	char *item, *save = NULL;
	unsigned int n = 1;

	free(a->ids_text);
	free(a->ids);
	a->ids = NULL;
	a->ids_text = strdup(list);
	for (const char *p = list; *p; p++)
		n += *p == ',';
	a->ids = a->ids_text ? calloc(n, sizeof(*a->ids)) : NULL;
	if (!a->ids) {
		err_print("plot", "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	a->o.nr_ids = 0;
	if (!*list || list[strlen(list) - 1] == ',' || strstr(list, ",,") ||
	    *list == ',')
		return err_usage("plot", "--ids '%s': an empty item", list);
	for (item = strtok_r(a->ids_text, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		struct plot_id *id = &a->ids[a->o.nr_ids++];

		id->text = item;
		id->is_id = !args_parse_u64(item, UINT64_MAX, &id->id);
	}
	a->o.ids = a->ids;
	return 0;
}

/* --width/--height PIXELS in [MIN, PLOT_MAX_SIDE]. */
static int parse_side(const char *opt, const char *s, unsigned int min,
		      unsigned int *v)
{
	uint64_t n;

	if (args_parse_u64(s, PLOT_MAX_SIDE, &n) || n < min)
		return err_usage("plot", "%s '%s': a number of pixels from %u to %u",
				 opt, s, min, PLOT_MAX_SIDE);
	*v = (unsigned int)n;
	return 0;
}

static int parse_time_opt(const char *opt, const char *s, int allow_zero,
			  uint64_t *ns)
{
	const char *why = args_parse_time(s, NSEC_PER_SEC, allow_zero, ns);

	if (why)
		return err_usage("plot", "%s '%s': %s (seconds, 0.4 or 2, or with a "
				 "unit ns, us, ms or s: 500ms)", opt, s, why);
	return 0;
}

static int parse(struct plot_args *a, int argc, char **argv)
{
	int c, ret = 0;
	char **args;

	args = data_id_names_argv(argc, argv);
	if (!args) {
		err_print("plot", "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, args, ":o:qh", plot_longopts,
					NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(plot_usage, stdout);
			free(args);
			return -1;
		case 'o':
			a->o.output = optarg;
			break;
		case OPT_FORMAT:
			a->have_format = 1;
			if (plot_format_named(optarg, &a->format))
				ret = err_usage("plot", "--format %s: png, svg or pdf",
						optarg);
			break;
		case OPT_IDS:
			ret = parse_ids(a, optarg);
			break;
		case OPT_METRICS:
			a->metrics = 1;
			break;
		case OPT_CPUS:
			a->o.cpus = 1;
			break;
		case OPT_FROM:
			ret = parse_time_opt("--from", optarg, 1, &a->o.from_ns);
			break;
		case OPT_TO:
			ret = parse_time_opt("--to", optarg, 0, &a->o.to_ns);
			break;
		case OPT_WIDTH:
			ret = parse_side("--width", optarg, PLOT_MIN_WIDTH, &a->o.width);
			break;
		case OPT_HEIGHT:
			ret = parse_side("--height", optarg, 100, &a->o.height);
			break;
		case 'D':
			a->di = optarg;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case ':':
			ret = err_usage("plot", "%s needs a value", args[optind - 1]);
			break;
		default:
			ret = err_bad_option("plot", plot_longopts, optopt,
					     args[optind - 1]);
		}
	}
	if (!ret && optind < argc)
		a->path = args[optind++];
	if (!ret && optind < argc)
		ret = err_usage("plot", "more than one recording: %s", args[optind]);
	free(args);
	if (ret)
		return ret;
	if (!a->path)
		return err_usage("plot", "no recording given");
	if (a->o.to_ns && a->o.to_ns <= a->o.from_ns)
		return err_usage("plot", "--to must come after --from");
	return 0;
}

/*
 * RECORDING's file name with the extension of --format (default .png);
 * for "-" our own, mlx5-diag-plot.
 */
static const char *default_output(struct plot_args *a)
{
	const char *base = strrchr(a->path, '/'), *dot;
	const char *ext = a->have_format ? plot_format_name(a->format) : "png";
	int len;

	if (!strcmp(a->path, "-")) {
		base = "mlx5-diag-plot";
		len = (int)strlen(base);
	} else {
		base = base ? base + 1 : a->path;
		dot = strrchr(base, '.');
		len = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
	}
	snprintf(a->default_output, sizeof(a->default_output), "%.*s.%s", len,
		 base, ext);
	return a->default_output;
}

/*
 * The picture's format and where it goes, from -o and --format: 0, or an
 * exit status (said).
 */
static int choose_output(struct plot_args *a)
{
	if (!a->o.output)
		a->o.output = default_output(a);
	if (!strcmp(a->o.output, "-")) {
		if (!a->have_format)
			return err_usage("plot", "-o -: standard output has no "
					 "extension to tell the format: give "
					 "--format png, svg or pdf");
		a->o.format = a->format;
		if (a->format != PLOT_SVG && isatty(STDOUT_FILENO))
			return err_usage("plot", "--format %s writes a binary "
					 "picture: redirect standard output or "
					 "give -o FILE", plot_format_name(a->format));
		a->to_stdout = 1;
		a->o.output = "standard output";
		return 0;
	}
	if (plot_format_of(a->o.output, &a->o.format))
		return err_usage("plot", "-o %s: the picture's name must end in "
				 ".png, .svg or .pdf (or give -o - --format FMT)",
				 a->o.output);
	if (a->have_format && a->o.format != a->format)
		return err_usage("plot", "--format %s, but -o %s names %s",
				 plot_format_name(a->format), a->o.output,
				 plot_format_name(a->o.format));
	return 0;
}

/*
 * Open the output without truncating it (an existing picture stays until
 * the new one is drawn): its fd (standard output's for -o -), *CREATED
 * when it is a new file, or -1 (said).
 */
static int open_output(const struct plot_args *a, int *created)
{
	struct stat in, out;
	int fd;

	if (a->to_stdout) {
		*created = 0;
		return STDOUT_FILENO;
	}
	*created = 1;
	fd = open(a->o.output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST) {
		*created = 0;
		fd = open(a->o.output, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		err_print("plot", "%s: %s", a->o.output, strerror(errno));
		return -1;
	}
	if (!*created && strcmp(a->path, "-") && !stat(a->path, &in) &&
	    !fstat(fd, &out) && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
		err_print("plot", "%s: is the recording; give another -o",
			  a->o.output);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The picture in BUF (LEN bytes) replaces what FD held, or follows on
 * standard output. 0, or -1 (said).
 */
static int write_output(const struct plot_args *a, int fd, const char *buf,
			size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (!a->to_stdout && ftruncate(fd, 0)) {
		err_print("plot", "%s: %s", a->o.output, strerror(errno));
		return -1;
	}
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err_print("plot", "%s: %s", a->o.output,
				  n < 0 ? strerror(errno) : "nothing written");
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

/* Draw a->path into the output: an enum err_exit status. */
static int plot(struct plot_args *a, const struct data_id_names *names)
{
	struct pipeline *p = calloc(1, sizeof(*p));
	char *buf = NULL;
	size_t len = 0;
	int fd, created, status;
	FILE *mem;

	if (!p) {
		err_print("plot", "out of memory");
		return ERR_EXIT_OUTPUT;
	}
	fd = open_output(a, &created);
	if (fd < 0) {
		free(p);
		return ERR_EXIT_OUTPUT;
	}
	mem = open_memstream(&buf, &len);
	if (!mem) {
		err_print("plot", "out of memory");
		status = ERR_EXIT_OUTPUT;
		goto out;
	}
	p->path = a->path;
	p->names = names;
	p->metrics = a->metrics;
	p->quiet = a->quiet;
	p->sink.opts = &a->o;
	status = pipeline_run(p, &sink_plot, mem);
	if (fclose(mem) && (status == ERR_EXIT_OK || status == ERR_EXIT_STREAM)) {
		err_print("plot", "out of memory");
		status = ERR_EXIT_OUTPUT;
	}
	if ((status == ERR_EXIT_OK || status == ERR_EXIT_STREAM) &&
	    write_output(a, fd, buf, len))
		status = ERR_EXIT_OUTPUT;
out:
	if (!a->to_stdout && close(fd) &&
	    (status == ERR_EXIT_OK || status == ERR_EXIT_STREAM)) {
		err_print("plot", "%s: %s", a->o.output, strerror(errno));
		status = ERR_EXIT_OUTPUT;
	}
	if (status != ERR_EXIT_OK && status != ERR_EXIT_STREAM && created)
		unlink(a->o.output);
	free(buf);
	free(p);
	return status;
}

int cmd_plot(int argc, char **argv)
{
	struct data_id_names names = { NULL, 0 };
	struct plot_args a;
	char err[512];
	int ret;

	memset(&a, 0, sizeof(a));
	a.o.width = DEFAULT_WIDTH;
	ret = parse(&a, argc, argv);
	if (ret) {
		ret = ret < 0 ? ERR_EXIT_OK : ret;
		goto out;
	}
	ret = choose_output(&a);
	if (ret)
		goto out;
	if (a.di && data_id_names_load(&names, a.di, err, sizeof(err))) {
		err_print("plot", "%s", err);
		ret = ERR_EXIT_NAMES;
		goto out;
	}
	ret = plot(&a, a.di ? &names : NULL);
	data_id_names_free(&names);
out:
	free(a.ids_text);
	free(a.ids);
	return ret;
}
