/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's HTTP server (libmicrohttpd): GET and HEAD of /metrics in
 * the format the scraper's Accept asks for, 404 for any other path, 405
 * for any other method; a bounded number of connections, each closed
 * when idle too long.
 */
#ifndef MLX5_DIAG_HTTP_SERVER_H
#define MLX5_DIAG_HTTP_SERVER_H

#include <stddef.h>
#include <sys/socket.h>

#include "exposition.h"

#define HTTP_PATH		"/metrics"
#define HTTP_DEFAULT_LISTEN	":9855"
#define HTTP_DEFAULT_MAX_CONNECTIONS	16
#define HTTP_DEFAULT_TIMEOUT_S	10
/* a request's line and headers: more is answered 431 */
#define HTTP_REQUEST_MEMORY	(16 * 1024)

/*
 * The exposition of a scrape in FORMAT, into *TEXT (malloc'd, freed by
 * the server) and *LEN: 0, or -1 with what went wrong in ERR (the
 * response is then 500 with that text).
 */
typedef int (*http_collect_fn)(void *ctx, enum expo_format format, char **text,
			       size_t *len, char *err, size_t errlen);

struct http_listen {
	struct sockaddr_storage addr;
	socklen_t addr_len;
	int any;		/* every address, IPv6 and IPv4 */
	unsigned int port;
};

struct http_opts {
	struct http_listen listen;
	unsigned int max_connections;	/* at once; more are closed at accept */
	unsigned int timeout_s;		/* a connection idle that long is closed */
};

struct http_server;

/*
 * http_parse_listen - "PORT", ":PORT" (every address), "IPV4:PORT" or
 * "[IPV6]:PORT", numeric addresses only, PORT 0-65535 (0: any free
 * port). Returns 0, or -1 with why in ERR.
 */
int http_parse_listen(const char *s, struct http_listen *l, char *err,
		      size_t errlen);

/*
 * http_negotiate - the format for the Accept header ACCEPT (NULL: none):
 * OpenMetrics 1.0 when the scraper prefers it (by q, the most specific
 * media range deciding for each format) to the Prometheus text format;
 * Prometheus text otherwise, also when it accepts neither.
 */
enum expo_format http_negotiate(const char *accept);

/*
 * http_start - serve O->listen from a thread of libmicrohttpd's; each
 * scrape calls COLLECT(CTX, ...) from it, one at a time. Returns the
 * server, or NULL with why in ERR.
 */
struct http_server *http_start(const struct http_opts *o, http_collect_fn collect,
			       void *ctx, char *err, size_t errlen);

/* http_port - the port the server listens on (what port 0 became). */
unsigned int http_port(const struct http_server *s);

/* http_stop - close every connection and the listening socket. */
void http_stop(struct http_server *s);

#endif /* MLX5_DIAG_HTTP_SERVER_H */
