// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the exporter's configuration parser: the input is
 * a configuration file, parsed as `mlx5-diag exporter --config` reads it,
 * from seeds that `gen_corpus --exporter-config` writes. A refusal must
 * say where ("fuzz:LINE: " or "fuzz: "); accepted settings must be within
 * their bounds, and what they select on a device must be distinct data IDs
 * of the kinds said, no more than the device takes. Any other result,
 * crash, sanitizer report or leak is a finding.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporter_config.h"

static void check_settings(const struct xcfg *c)
{
	unsigned int i, j, f;

	if (c->nr_exports > XCFG_MAX_EXPORTS || c->nr_le > XCFG_MAX_LE ||
	    c->nr_devices > XCFG_MAX_DEVICES || !c->max_connections ||
	    c->max_connections > 1024 || !c->timeout_s || c->timeout_s > 3600 ||
	    strnlen(c->listen_text, sizeof(c->listen_text)) == sizeof(c->listen_text) ||
	    strnlen(c->textfile, sizeof(c->textfile)) == sizeof(c->textfile))
		abort();
	for (i = 0; i < c->nr_le; i++)
		if (!(c->le[i] > 0) || (i && c->le[i] <= c->le[i - 1]))
			abort();
	for (i = 0; i < c->nr_devices; i++)
		if (strnlen(c->devices[i], sizeof(c->devices[i])) == sizeof(c->devices[i]))
			abort();
	for (i = 0; i < c->nr_exports; i++) {
		const struct xcfg_export *e = &c->exports[i];
		const enum data_kind_field *fields;
		unsigned int nr;

		if (!e->kind)
			abort();
		nr = data_kind_fields(e->kind->group, &fields);
		for (f = 0; f < nr; f++) {
			const struct xcfg_ranges *r = &e->fields[f];

			if (!r->all && (!r->nr || r->nr > XCFG_MAX_RANGES))
				abort();
			for (j = 0; j < r->nr; j++)
				if (r->r[j].lo > r->r[j].hi ||
				    r->r[j].hi > data_kind_field_max(fields[f]))
					abort();
		}
	}
}

static void check_selection(const struct xcfg *c, const struct xcfg_device_caps *caps)
{
	static struct xcfg_selection sel;
	char err[512];
	unsigned int i, j;

	if (xcfg_select(c, caps, &sel, err, sizeof(err))) {
		if (!err[0])
			abort();
		return;
	}
	if (sel.nr > caps->max_data_ids)
		abort();
	for (i = 0; i < sel.nr; i++) {
		if (data_kind_by_id(sel.ids[i]) != sel.kinds[i])
			abort();
		for (j = 0; j < i; j++)
			if (sel.ids[j] == sel.ids[i])
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct xcfg_device_caps sim = {
		.num_ports = 2, .num_hosts = 1, .num_functions = 8,
		.num_pcie_links = 2, .max_data_ids = 16,
	};
	static const struct xcfg_device_caps big = {
		.num_ports = 255, .num_hosts = 255, .num_functions = 65535,
		.num_pcie_links = 255, .max_data_ids = 2048,
	};
	static struct xcfg c;
	char err[512];

	xcfg_defaults(&c);
	err[0] = '\0';
	if (xcfg_parse(&c, (const char *)data, size, "fuzz", err, sizeof(err))) {
		if (strncmp(err, "fuzz:", 5))
			abort();
		return 0;
	}
	check_settings(&c);
	if (xcfg_check(&c, err, sizeof(err)) && !err[0])
		abort();
	check_selection(&c, &sim);
	check_selection(&c, &big);
	return 0;
}
