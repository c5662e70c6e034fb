#include "chttp_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

struct chttp_server {
    struct MHD_Daemon *daemon;
    size_t max_body;
    chttp_handler handler;
    void *context;
    uint16_t port;
};

/* Per-request state: the raw target, the body so far, or the fact that it outgrew the cap. */
struct request {
    char *target;
    int started;
    uint8_t *body;
    size_t length;
    int too_large;
};

/* Called with the undecoded request target before anything else: it starts the per-request state. */
static void *log_target(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls; (void)connection;
    struct request *request = calloc(1, sizeof *request);
    if (request != NULL) request->target = strdup(uri);
    return request;
}

/* Collects the request headers as "Name: value\n" lines. */
struct header_buffer {
    char *text;
    size_t length;
};

static enum MHD_Result collect_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct header_buffer *buffer = cls;
    size_t add = strlen(key) + 2 + (value ? strlen(value) : 0) + 1;
    char *grown = realloc(buffer->text, buffer->length + add + 1);
    if (grown == NULL) return MHD_NO;
    buffer->text = grown;
    buffer->length += (size_t)snprintf(grown + buffer->length, add + 1, "%s: %s\n", key, value ? value : "");
    return MHD_YES;
}

static enum MHD_Result respond(struct MHD_Connection *connection, unsigned status, uint8_t *body, size_t length,
                               const char *content_type, const char *location) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_MUST_FREE);
    if (response == NULL) { free(body); return MHD_NO; }
    MHD_add_response_header(response, "Content-Type", content_type);
    if (location != NULL) MHD_add_response_header(response, "Location", location);
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **con_cls) {
    (void)version;
    struct chttp_server *server = cls;
    struct request *request = *con_cls;
    if (request == NULL) return MHD_NO;
    if (!request->started) {
        request->started = 1;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (!request->too_large) {
            if (request->length + *upload_data_size > server->max_body) {
                request->too_large = 1;
                free(request->body);
                request->body = NULL;
                request->length = 0;
            } else {
                uint8_t *grown = realloc(request->body, request->length + *upload_data_size);
                if (grown == NULL) return MHD_NO;
                memcpy(grown + request->length, upload_data, *upload_data_size);
                request->body = grown;
                request->length += *upload_data_size;
            }
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (request->too_large) {
        static const char message[] = "{\"error\":\"request body larger than the server accepts\"}";
        uint8_t *body = malloc(sizeof message - 1);
        if (body == NULL) return MHD_NO;
        memcpy(body, message, sizeof message - 1);
        return respond(connection, 413, body, sizeof message - 1, "application/json", NULL);
    }
    uint8_t *response = NULL;
    size_t response_length = 0;
    const char *content_type = "application/json";
    const char *location = NULL;
    struct header_buffer headers = {NULL, 0};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, &collect_header, &headers);
    unsigned status = server->handler(server->context, method, request->target ? request->target : url,
                                      headers.text ? headers.text : "", request->body, request->length, &response,
                                      &response_length, &content_type, &location);
    free(headers.text);
    if (response == NULL) response_length = 0;
    return respond(connection, status, response, response_length, content_type, location);
}

static void request_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                              enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    struct request *request = *con_cls;
    if (request != NULL) {
        free(request->target);
        free(request->body);
        free(request);
        *con_cls = NULL;
    }
}

chttp_server *chttp_start(uint16_t port, size_t max_body, unsigned timeout_seconds, chttp_handler handler,
                          void *context) {
    struct chttp_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->max_body = max_body;
    server->handler = handler;
    server->context = context;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    server->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG, port, NULL, NULL,
        &access_handler, server,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_NOTIFY_COMPLETED, &request_completed, NULL,
        MHD_OPTION_URI_LOG_CALLBACK, &log_target, NULL,
        MHD_OPTION_END);
    if (server->daemon == NULL) { free(server); return NULL; }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info != NULL ? info->port : port;
    return server;
}

uint16_t chttp_port(const chttp_server *server) { return server->port; }

void chttp_stop(chttp_server *server) {
    if (server == NULL) return;
    MHD_stop_daemon(server->daemon);
    free(server);
}
