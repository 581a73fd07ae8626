/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's textfile mode: the exposition written for
 * node_exporter's textfile collector, which reads the .prom files of a
 * directory, replaced atomically so that it never reads half a file.
 */
#ifndef MLX5_DIAG_TEXTFILE_H
#define MLX5_DIAG_TEXTFILE_H

#include <stddef.h>

#define TEXTFILE_NAME	"mlx5_diag.prom"

/*
 * textfile_write - TEXT (LEN bytes) as DIR/NAME: written into a new
 * temporary file of DIR (".NAME.XXXXXX", which the collector does not
 * read), made readable by all (0644), then renamed over DIR/NAME. Returns
 * 0, or -1 with why in ERR; the temporary file is then removed.
 */
int textfile_write(const char *dir, const char *name, const char *text,
		   size_t len, char *err, size_t errlen);

#endif /* MLX5_DIAG_TEXTFILE_H */
