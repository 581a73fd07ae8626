# The mlx5-diag CLI and its host tests, as a fragment: tools/perf-decoder/
# Makefile includes it, and scripts/build-mlx5-diag runs it on its own:
#   make -C tools/perf-decoder -f mlx5-diag/mlx5-diag.mk O=DIR LIBPERF_DIR=DIR \
#	MHD_DIR=DIR DIR/mlx5-diag
# Targets: $(O)/mlx5-diag, the static binary; mlx5-diag-test, the host tests
# (test_file, test_cli, test_exporter) built with gcc, clang and clang
# ASan+UBSan and run by tests/run-tests. LIBPERF_DIR holds include/, libperf.a and libapi.a as
# scripts/build-mlx5-diag builds them (default: ask the script, which builds
# libperf once into the cache, only when a rule here needs it). MHD_DIR
# holds include/microhttpd.h and libmicrohttpd.a built without HTTPS, for
# the static binary (default: ask the script, which builds it from
# Debian's source once into the cache); the host tests link the system's.

MD_SRC := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
MD_TOP := $(MD_SRC)/../../..
O ?= build
LIBPERF_DIR ?= $(shell $(MD_TOP)/scripts/build-mlx5-diag --libperf-dir)
MHD_DIR ?= $(shell $(MD_TOP)/scripts/build-mlx5-diag --libmicrohttpd-dir)

# Perfetto's trace schema as sink_perfetto.c writes it, compiled by protoc-c
# (protobuf-c-compiler) into $(MD_GEN)
MD_GEN = $(O)/gen
MD_PROTO_SRCS = $(MD_GEN)/perfetto_trace.pb-c.c
MD_PROTO_HDRS = $(MD_GEN)/perfetto_trace.pb-c.h

MD_CFLAGS = -std=c11 -Wall -Wextra -Werror -g -I$(MD_SRC) -I$(MD_SRC)/../lib \
	-I$(MD_TOP)/include/uapi -I$(LIBPERF_DIR)/include -I$(MD_GEN)
MD_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# libtraceevent-dev, libjson-c-dev, libprotobuf-c-dev: their static
# libraries are linked in
MD_LIBS = $(LIBPERF_DIR)/libperf.a $(LIBPERF_DIR)/libapi.a -ltraceevent -ljson-c \
	-lprotobuf-c
# libmicrohttpd-dev: the exporter's HTTP server (the host tests link it)
MD_HTTP_LIBS := -lmicrohttpd
MD_HDRS := $(wildcard $(MD_SRC)/*.h $(MD_SRC)/*.def $(MD_SRC)/tests/*.h $(MD_SRC)/../lib/*.h) \
	$(MD_TOP)/include/uapi/linux/mlx5_diag.h $(MD_PROTO_HDRS)

$(MD_GEN)/%.pb-c.c $(MD_GEN)/%.pb-c.h: $(MD_SRC)/%.proto
	@mkdir -p $(MD_GEN)
	protoc-c --proto_path=$(MD_SRC) --c_out=$(MD_GEN) $<

# `mlx5-diag decode`, its pipeline (pipeline.h, run.h, metrics.h, source.h,
# sink.h): the command, the data-ID names and kinds, the loop and metrics,
# the sources and the sinks (one file each),
# outbuf.c their output buffer, the Perfetto schema's code; and errors.c,
# the messages of every subcommand, clock_ns.c the clock read of every one.
MD_DECODE_SRCS := $(addprefix $(MD_SRC)/,decode.c data_ids.c data_kinds.c pipeline.c metrics.c \
	source_mdf.c source_perf.c sinks.c outbuf.c errors.c clock_ns.c) \
	$(wildcard $(MD_SRC)/sink_*.c) \
	$(MD_PROTO_SRCS)

# `mlx5-diag exporter`'s host-testable parts: the exposition of metric
# families, the HTTP server, the textfile mode, the kinds it exports, its
# configuration, folding and scrapes, the dashboard.
MD_EXPORTER_SRCS := $(addprefix $(MD_SRC)/,exposition.c http_server.c textfile.c \
	families.c exporter_config.c pmu.c args.c fold.c scrape.c dashboard.c)
# what test_exporter adds: the decode pipeline, the stream writer and the
# kernel catalog's reader
MD_EXPORTER_TEST_SRCS := $(MD_DECODE_SRCS) $(addprefix $(MD_SRC)/,perfdata.c \
	timeline.c file.c) $(wildcard $(MD_SRC)/../lib/*.c) \
	$(addprefix $(MD_SRC)/../tests/,stream_writer.c kernel_catalog.c)

# The decode pipeline and lib/ are the decoder's (cli.h); the rest is the CLI's.
MD_CLI_SRCS := $(addprefix $(MD_SRC)/,record.c list.c doca.c count.c file.c perfdata.c \
	tprecord.c timeline.c exporter.c counting.c sampling.c perf_ring.c perf_sys.c \
	doctor.c doctor_runs.c doctor_judge.c) $(MD_EXPORTER_SRCS) \
	$(MD_DECODE_SRCS) $(wildcard $(MD_SRC)/../lib/*.c)

# `mlx5-diag plot` (plot.h) draws with cairo (libcairo2-dev), linked in
# statically with what it uses of pixman, fontconfig, expat, freetype,
# libpng, zlib and brotli (their Debian -dev packages ship the archives).
MD_PLOT_SRCS := $(addprefix $(MD_SRC)/,plot.c plot_sink.c plot_reduce.c \
	plot_sched.c plot_draw.c)
MD_PLOT_LIBS := -lcairo -lpixman-1 -lfontconfig -lexpat -lfreetype -lpng16 -lz \
	-lbrotlidec -lbrotlicommon -lm -pthread
MD_CLI_SRCS += $(MD_PLOT_SRCS)
MD_LIBS += $(MD_PLOT_LIBS)

$(O)/mlx5-diag: $(MD_SRC)/main.c $(MD_CLI_SRCS) $(MD_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(MD_CFLAGS) -I$(MHD_DIR)/include -O2 -static -o $@ $(MD_SRC)/main.c \
		$(MD_CLI_SRCS) $(MD_LIBS) $(MHD_DIR)/libmicrohttpd.a -pthread

# md_test VARIANT COMPILER FLAGS
define md_test
$(O)/md-$(1)/test_file: $(MD_SRC)/tests/test_file.c $(MD_SRC)/file.c $(MD_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $$(MD_CFLAGS) $(3) -o $$@ $(MD_SRC)/tests/test_file.c $(MD_SRC)/file.c

$(O)/md-$(1)/test_cli: $(MD_SRC)/tests/test_cli.c $(MD_CLI_SRCS) $(MD_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $$(MD_CFLAGS) $(3) -o $$@ $(MD_SRC)/tests/test_cli.c $(MD_CLI_SRCS) $$(MD_LIBS) \
		$(MD_HTTP_LIBS) -pthread

$(O)/md-$(1)/test_exporter: $(MD_SRC)/tests/test_exporter.c $(MD_EXPORTER_SRCS) \
		$(MD_EXPORTER_TEST_SRCS) $(MD_SRC)/counting.c $(MD_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $$(MD_CFLAGS) $(3) -DMD_TOP_DIR='"$(abspath $(MD_TOP))"' \
		-I$(MD_SRC)/../tests -o $$@ $(MD_SRC)/tests/test_exporter.c \
		$(MD_EXPORTER_SRCS) $(MD_EXPORTER_TEST_SRCS) $(MD_SRC)/counting.c \
		$$(MD_LIBS) $(MD_HTTP_LIBS) -pthread
endef
$(eval $(call md_test,gcc,gcc,-O2))
$(eval $(call md_test,clang,clang,-O2))
$(eval $(call md_test,san,clang,-O1 $(MD_SAN)))

MD_TESTS := $(foreach v,gcc clang san,$(O)/md-$(v)/test_file $(O)/md-$(v)/test_cli \
	$(O)/md-$(v)/test_exporter)

.PHONY: mlx5-diag mlx5-diag-test
mlx5-diag: $(O)/mlx5-diag

mlx5-diag-test: $(MD_TESTS)
	@MD_TESTDATA=$(MD_SRC)/tests/sysfs $(MD_SRC)/../tests/run-tests $(MD_TESTS)
