/*
 * A minimal HTTP server over libmicrohttpd for `attest-harness serve`: it buffers each request body up to a cap,
 * hands method, path and body to one handler, and sends back what the handler returns. Written in C because
 * libmicrohttpd's entry points are variadic and its callbacks are called per body chunk.
 */
#ifndef CHTTP_SERVER_H
#define CHTTP_SERVER_H
#include <stddef.h>
#include <stdint.h>

/* `target` is the request target as sent (path and query, undecoded); `headers` is "Name: value\n" per request
 * header. Fills *response (malloc'd; the server frees it), *content_type (static), for a redirect *location
 * (static; NULL for none), and optionally *extra_headers ("Name: value\n" lines, malloc'd; the server frees it;
 * lines with a CR or without ": " are dropped), returns the HTTP status. */
typedef unsigned (*chttp_handler)(void *context, const char *method, const char *target, const char *headers,
                                  const uint8_t *body,
                                  size_t body_length, uint8_t **response, size_t *response_length,
                                  const char **content_type, const char **location, char **extra_headers);

typedef struct chttp_server chttp_server;

/* Listens on 127.0.0.1:port (0 picks a free port). `timeout_seconds` is the idle timeout within a request; a
 * connection with no request under way is closed after 2 s idle (0.2 s once three quarters of `max_connections` are
 * open); each request must also arrive whole within `request_deadline_seconds` (a client dripping its headers or body
 * is cut off), and at most `max_connections` connections, `max_connections_per_client` from one address, are open at
 * once. libmicrohttpd's error log is rate-limited to a line a second, with a count of the lines held back.
 * Returns NULL on failure. */
chttp_server *chttp_start(uint16_t port, size_t max_body, unsigned timeout_seconds, unsigned request_deadline_seconds,
                          unsigned max_connections, unsigned max_connections_per_client, chttp_handler handler,
                          void *context);
uint16_t chttp_port(const chttp_server *server);
void chttp_stop(chttp_server *server);

#endif
