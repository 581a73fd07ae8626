// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's HTTP server (http_server.h): libmicrohttpd serving
 * /metrics from its own thread on a socket bound here, the Accept header
 * negotiated into an exposition format, and the listen address parsed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http_server.h"

struct http_server {
	struct MHD_Daemon *daemon;
	int fd;
	unsigned int port;
	http_collect_fn collect;
	void *ctx;
};

/* ---- the listen address ---- */

static int parse_port(const char *s, unsigned int *port)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 65535)
		return -1;
	*port = (unsigned int)v;
	return 0;
}

int http_parse_listen(const char *s, struct http_listen *l, char *err,
		      size_t errlen)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)&l->addr;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&l->addr;
	const char *colon, *why;
	char host[64];
	size_t n;

	memset(l, 0, sizeof(*l));
	colon = strrchr(s, ':');
	if (!colon) {
		l->any = 1;
		colon = s - 1;		/* PORT alone */
	}
	if (parse_port(colon + 1, &l->port)) {
		why = "the port is not a number 0-65535";
		goto bad;
	}
	n = (size_t)(colon - s);
	if (colon < s || !n) {
		l->any = 1;
		return 0;
	}
	if (s[0] == '[') {
		if (n < 2 || s[n - 1] != ']' || n - 2 >= sizeof(host)) {
			why = "an IPv6 address is written [ADDRESS]:PORT";
			goto bad;
		}
		memcpy(host, s + 1, n - 2);
		host[n - 2] = '\0';
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1) {
			why = "not a numeric IPv6 address";
			goto bad;
		}
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)l->port);
		l->addr_len = sizeof(*in6);
		return 0;
	}
	if (n >= sizeof(host)) {
		why = "not a numeric IPv4 address";
		goto bad;
	}
	memcpy(host, s, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, &in4->sin_addr) != 1) {
		why = strchr(host, ':') ? "an IPv6 address is written [ADDRESS]:PORT" :
					  "not a numeric IPv4 address";
		goto bad;
	}
	in4->sin_family = AF_INET;
	in4->sin_port = htons((uint16_t)l->port);
	l->addr_len = sizeof(*in4);
	return 0;
bad:
	snprintf(err, errlen, "bad listen address '%s': %s (PORT, :PORT, "
		 "IPV4:PORT or [IPV6]:PORT)", s, why);
	return -1;
}

/* ---- Accept ---- */

static const struct http_offer {
	enum expo_format format;
	const char *type, *subtype, *version;
} offers[] = {
	{ EXPO_OPENMETRICS, "application", "openmetrics-text", "1.0.0" },
	{ EXPO_PROMETHEUS, "text", "plain", "0.0.4" },
};

#define NR_OFFERS	(sizeof(offers) / sizeof(offers[0]))

/* A token of the header: [P, END) with the white space around it cut. */
struct span {
	const char *p, *end;
};

static struct span trim(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return (struct span){ p, end };
}

static int span_is(struct span s, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(s.end - s.p) == n && !strncasecmp(s.p, word, n);
}

/* Where the next SEP outside a quoted string is, or END. */
static const char *next_sep(const char *p, const char *end, char sep)
{
	int quoted = 0;

	for (; p < end; p++) {
		if (quoted && *p == '\\' && p + 1 < end)
			p++;
		else if (*p == '"')
			quoted = !quoted;
		else if (!quoted && *p == sep)
			return p;
	}
	return end;
}

/* A q value: 0, 0.x, 1, 1.0 (at most 3 decimals); -1 if malformed. */
static double parse_q(struct span v)
{
	double q = 0, scale = 0.1;
	const char *p = v.p;

	if (p == v.end || (*p != '0' && *p != '1'))
		return -1;
	q = *p++ - '0';
	if (p == v.end)
		return q;
	if (*p++ != '.' || v.end - p > 3)
		return -1;
	for (; p < v.end; p++, scale /= 10) {
		if (*p < '0' || *p > '9' || (q == 1 && *p != '0'))
			return -1;
		q += (*p - '0') * scale;
	}
	return q;
}

/*
 * How specifically the media range [P, END) names offer O: 0 not at all,
 * 1 any type ("*" "/" "*"), 2 its type with any subtype, 3 its type and
 * subtype, 4 those with O's version; the range's q in *Q.
 */
static int range_match(const char *p, const char *end, const struct http_offer *o,
		       double *q)
{
	const char *semi = next_sep(p, end, ';'), *slash;
	struct span type, sub, name, value;
	int level, version_ok = -1;

	*q = 1;
	type = trim(p, semi);
	slash = memchr(type.p, '/', (size_t)(type.end - type.p));
	if (!slash)
		return 0;
	sub = trim(slash + 1, type.end);
	type = trim(type.p, slash);
	if (span_is(type, "*") && span_is(sub, "*"))
		level = 1;
	else if (span_is(type, o->type) && span_is(sub, "*"))
		level = 2;
	else if (span_is(type, o->type) && span_is(sub, o->subtype))
		level = 3;
	else
		return 0;
	while (semi < end) {
		const char *param = semi + 1, *eq;

		semi = next_sep(param, end, ';');
		eq = memchr(param, '=', (size_t)(semi - param));
		if (!eq)
			continue;
		name = trim(param, eq);
		value = trim(eq + 1, semi);
		if (value.end - value.p >= 2 && *value.p == '"' && value.end[-1] == '"') {
			value.p++;
			value.end--;
		}
		if (span_is(name, "q")) {
			*q = parse_q(value);
			if (*q < 0)
				return 0;	/* a malformed range names nothing */
		} else if (span_is(name, "version") && level == 3) {
			version_ok = span_is(value, o->version);
		}
	}
	if (version_ok == 0)
		return 0;
	return version_ok == 1 ? 4 : level;
}

enum expo_format http_negotiate(const char *accept)
{
	int best_level[NR_OFFERS] = { 0 };
	double best_q[NR_OFFERS] = { 0 };
	const char *p, *end, *comma;
	size_t i;

	if (!accept)
		return EXPO_PROMETHEUS;
	end = accept + strlen(accept);
	for (p = accept; p < end; p = comma + 1) {
		comma = next_sep(p, end, ',');
		for (i = 0; i < NR_OFFERS; i++) {
			double q;
			int level = range_match(p, comma, &offers[i], &q);

			/* the most specific range decides; the first of equals */
			if (level > best_level[i]) {
				best_level[i] = level;
				best_q[i] = q;
			}
		}
		if (comma == end)
			break;
	}
	/* offers[0] is OpenMetrics: only when preferred, else the default */
	if (best_q[0] > best_q[1] ||
	    (best_q[0] > 0 && best_q[0] == best_q[1] && best_level[0] > best_level[1]))
		return EXPO_OPENMETRICS;
	return EXPO_PROMETHEUS;
}

/* ---- serving ---- */

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status,
				  const char *text, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				    "text/plain; charset=utf-8") != MHD_YES ||
	    (allow && MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow) != MHD_YES)) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_metrics(struct http_server *s, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	enum expo_format format = http_negotiate(accept);
	struct MHD_Response *r;
	enum MHD_Result ret;
	char err[256], msg[300];
	char *text;
	size_t len;

	if (s->collect(s->ctx, format, &text, &len, err, sizeof(err))) {
		snprintf(msg, sizeof(msg), "the exposition failed: %s\n", err);
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, msg, NULL);
	}
	r = MHD_create_response_from_buffer_with_free_callback(len, text, free);
	if (!r) {
		free(text);
		return MHD_NO;
	}
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				    expo_content_type(format)) != MHD_YES) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * libmicrohttpd's callback: once with the headers, then with each piece
 * of a body (read and dropped), then once more to answer.
 */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version,
			      const char *upload_data, size_t *upload_data_size,
			      void **req_cls)
{
	static int headers_seen, body_seen;
	struct http_server *s = cls;

	(void)version;
	(void)upload_data;
	if (!*req_cls) {
		*req_cls = &headers_seen;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		*req_cls = &body_seen;
		return MHD_YES;
	}
	if (strcmp(url, HTTP_PATH))
		return reply_text(c, MHD_HTTP_NOT_FOUND,
				  "not found: the metrics are at " HTTP_PATH "\n", NULL);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "only GET and HEAD of " HTTP_PATH "\n", "GET, HEAD");
	if (*req_cls == &body_seen)
		return reply_text(c, MHD_HTTP_CONTENT_TOO_LARGE,
				  "a scrape has no request body\n", NULL);
	return reply_metrics(s, c);
}

/* The listening socket for L: bound and listening, or -1 with ERR. */
static int listen_socket(const struct http_listen *l, char *err, size_t errlen)
{
	struct sockaddr_storage any;
	const struct sockaddr *addr = (const struct sockaddr *)&l->addr;
	socklen_t len = l->addr_len;
	int fd, one = 1, zero = 0;

	if (l->any) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&any;

		memset(&any, 0, sizeof(any));
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
		in6->sin6_port = htons((uint16_t)l->port);
		addr = (const struct sockaddr *)&any;
		len = sizeof(*in6);
	}
	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 && l->any && errno == EAFNOSUPPORT) {
		/* no IPv6 here: every IPv4 address */
		struct sockaddr_in *in4 = (struct sockaddr_in *)&any;

		memset(&any, 0, sizeof(any));
		in4->sin_family = AF_INET;
		in4->sin_addr.s_addr = htonl(INADDR_ANY);
		in4->sin_port = htons((uint16_t)l->port);
		len = sizeof(*in4);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	}
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (addr->sa_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, addr, len) || listen(fd, 64)) {
		snprintf(err, errlen, "cannot listen on port %u: %s", l->port,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned int bound_port(int fd)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len))
		return 0;
	if (a.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
	return ntohs(((struct sockaddr_in *)&a)->sin_port);
}

struct http_server *http_start(const struct http_opts *o, http_collect_fn collect,
			       void *ctx, char *err, size_t errlen)
{
	struct http_server *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->collect = collect;
	s->ctx = ctx;
	s->fd = listen_socket(&o->listen, err, errlen);
	if (s->fd < 0) {
		free(s);
		return NULL;
	}
	s->port = bound_port(s->fd);
	/*
	 * One thread polls every connection: scrapes are served one at a
	 * time. Strict parsing: HTTP/1.1 without Host, or a header line
	 * without a colon, is answered 400.
	 */
	s->daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL,
				     answer, s,
				     MHD_OPTION_LISTEN_SOCKET, s->fd,
				     MHD_OPTION_STRICT_FOR_CLIENT, 1,
				     MHD_OPTION_CONNECTION_LIMIT,
				     (unsigned int)o->max_connections,
				     MHD_OPTION_CONNECTION_TIMEOUT,
				     (unsigned int)o->timeout_s,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				     (size_t)HTTP_REQUEST_MEMORY,
				     MHD_OPTION_END);
	if (!s->daemon) {
		snprintf(err, errlen, "libmicrohttpd could not start on port %u",
			 s->port);
		/* unless libmicrohttpd closed it already */
		if (fcntl(s->fd, F_GETFD) != -1)
			close(s->fd);
		free(s);
		return NULL;
	}
	return s;
}

unsigned int http_port(const struct http_server *s)
{
	return s->port;
}

void http_stop(struct http_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->daemon);	/* closes the listening socket */
	free(s);
}
