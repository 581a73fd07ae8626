// SPDX-License-Identifier: GPL-2.0
/* The kernel catalog's KIND() rows read as text (kernel_catalog.h). */
#include <stdio.h>
#include <string.h>

#include "kernel_catalog.h"

int catalog_read(const char *path, struct catalog_row *rows, int max)
{
	static char text[65536];
	FILE *f = fopen(path, "r");
	size_t len;
	char *p;
	int n = 0;

	if (!f)
		return -1;
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	for (p = strstr(text, "\tKIND("); p && n < max; p = strstr(p + 1, "\tKIND(")) {
		struct catalog_row *r = &rows[n];
		char rest[64];

		/* KIND(0x..., GROUP, CLASS,\n\t     "name", unit) */
		if (sscanf(p, "\tKIND(0x%x, %31[A-Z_], %15[A-Z_], \"%63[a-z0-9_]\", %63[^)])",
			   &r->kind, r->group, r->class, r->name, rest) != 5)
			return -1;
		if (!strcmp(rest, "NULL"))
			strcpy(r->unit, "NONE");
		else if (!strcmp(rest, "\"Bytes\""))
			strcpy(r->unit, "BYTES");
		else if (!strcmp(rest, "\"ns\""))
			strcpy(r->unit, "NS");
		else
			return -1;
		n++;
	}
	return n;
}
