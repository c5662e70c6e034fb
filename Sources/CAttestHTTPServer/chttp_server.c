#include "chttp_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/* A live connection and when its current request began (its accept, or the end of its previous request). */
struct tracked_connection {
    int fd;
    struct timespec started;
    /* Set while a request is under way (its request line has arrived), cleared when it completes. */
    int busy;
    struct tracked_connection *next;
};

/* A connection that has not begun a request within this many seconds of its accept (or of its previous request's
 * end) is closed; once the server holds three quarters of its connections, within a tenth of that. A flood of idle
 * connections then holds its slots for a moment, not for the whole request deadline, so other clients get in. */
#define CHTTP_IDLE_SECONDS 2.0
#define CHTTP_IDLE_UNDER_PRESSURE 0.2

/* libmicrohttpd's error log ("reached connection limit" once per refused connection) is rate-limited: at most one
 * line a second, then how many were held back. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct timespec last_log = {0, 0};
static unsigned long held_back = 0;

static void rate_limited_log(void *cls, const char *format, va_list arguments) {
    (void)cls;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&log_lock);
    double since = (double)(now.tv_sec - last_log.tv_sec) + (double)(now.tv_nsec - last_log.tv_nsec) / 1e9;
    if (last_log.tv_sec != 0 && since < 1.0) {
        held_back++;
        pthread_mutex_unlock(&log_lock);
        return;
    }
    last_log = now;
    unsigned long skipped = held_back;
    held_back = 0;
    pthread_mutex_unlock(&log_lock);
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    size_t length = strcspn(line, "\r\n");
    if (skipped > 0) {
        fprintf(stderr, "attest-harness serve: %.*s (%lu more such messages in the last second)\n", (int)length, line, skipped);
    } else {
        fprintf(stderr, "attest-harness serve: %.*s\n", (int)length, line);
    }
}

struct chttp_server {
    struct MHD_Daemon *daemon;
    size_t max_body;
    chttp_handler handler;
    void *context;
    uint16_t port;
    /* The total per-request deadline: a client that drips its headers or body is cut off after it. */
    unsigned request_deadline;
    unsigned max_connections;
    pthread_mutex_t lock;
    struct tracked_connection *connections;
    pthread_t watchdog;
    int stopping;
};

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Starts and ends the tracking of each connection. */
static void notify_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
    struct chttp_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        struct tracked_connection *tracked = calloc(1, sizeof *tracked);
        if (tracked == NULL || info == NULL) { free(tracked); return; }
        tracked->fd = info->connect_fd;
        clock_gettime(CLOCK_MONOTONIC, &tracked->started);
        pthread_mutex_lock(&server->lock);
        tracked->next = server->connections;
        server->connections = tracked;
        pthread_mutex_unlock(&server->lock);
        *socket_context = tracked;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct tracked_connection *tracked = *socket_context;
        if (tracked == NULL) return;
        pthread_mutex_lock(&server->lock);
        for (struct tracked_connection **link = &server->connections; *link != NULL; link = &(*link)->next) {
            if (*link == tracked) { *link = tracked->next; break; }
        }
        pthread_mutex_unlock(&server->lock);
        free(tracked);
        *socket_context = NULL;
    }
}

/* Twenty times a second, shuts down the sockets of requests older than the deadline and of connections idle past
 * the idle deadline; libmicrohttpd then sees the connection fail and closes it. */
static void *watchdog(void *cls) {
    struct chttp_server *server = cls;
    for (;;) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&server->lock);
        if (server->stopping) { pthread_mutex_unlock(&server->lock); return NULL; }
        unsigned open = 0;
        for (struct tracked_connection *tracked = server->connections; tracked != NULL; tracked = tracked->next) open++;
        double idle = open * 4 >= server->max_connections * 3 ? CHTTP_IDLE_UNDER_PRESSURE : CHTTP_IDLE_SECONDS;
        for (struct tracked_connection *tracked = server->connections; tracked != NULL; tracked = tracked->next) {
            double age = seconds_since(&tracked->started);
            if (age > (double)server->request_deadline || (!tracked->busy && age > idle)) shutdown(tracked->fd, SHUT_RDWR);
        }
        pthread_mutex_unlock(&server->lock);
    }
}

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
    struct chttp_server *server = cls;
    /* A request line has arrived: the connection is no longer idle. */
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (server != NULL && info != NULL && info->socket_context != NULL) {
        pthread_mutex_lock(&server->lock);
        ((struct tracked_connection *)info->socket_context)->busy = 1;
        pthread_mutex_unlock(&server->lock);
    }
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
                               const char *content_type, const char *location, char *extra_headers) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_MUST_FREE);
    if (response == NULL) { free(body); free(extra_headers); return MHD_NO; }
    MHD_add_response_header(response, "Content-Type", content_type);
    if (location != NULL) MHD_add_response_header(response, "Location", location);
    /* Each "Name: value" line; the text is ours to cut up and free. */
    for (char *line = extra_headers, *next; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        char *separator = strstr(line, ": ");
        if (separator == NULL || strchr(line, '\r') != NULL) continue;
        *separator = '\0';
        MHD_add_response_header(response, line, separator + 2);
    }
    free(extra_headers);
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
        return respond(connection, 413, body, sizeof message - 1, "application/json", NULL, NULL);
    }
    uint8_t *response = NULL;
    size_t response_length = 0;
    const char *content_type = "application/json";
    const char *location = NULL;
    char *extra_headers = NULL;
    struct header_buffer headers = {NULL, 0};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, &collect_header, &headers);
    unsigned status = server->handler(server->context, method, request->target ? request->target : url,
                                      headers.text ? headers.text : "", request->body, request->length, &response,
                                      &response_length, &content_type, &location, &extra_headers);
    free(headers.text);
    if (response == NULL) response_length = 0;
    return respond(connection, status, response, response_length, content_type, location, extra_headers);
}

static void request_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                              enum MHD_RequestTerminationCode code) {
    (void)code;
    struct chttp_server *server = cls;
    /* The next request on this connection gets a deadline of its own. */
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (info != NULL && info->socket_context != NULL) {
        pthread_mutex_lock(&server->lock);
        clock_gettime(CLOCK_MONOTONIC, &((struct tracked_connection *)info->socket_context)->started);
        ((struct tracked_connection *)info->socket_context)->busy = 0;
        pthread_mutex_unlock(&server->lock);
    }
    struct request *request = *con_cls;
    if (request != NULL) {
        free(request->target);
        free(request->body);
        free(request);
        *con_cls = NULL;
    }
}

chttp_server *chttp_start(uint16_t port, size_t max_body, unsigned timeout_seconds, unsigned request_deadline_seconds,
                          unsigned max_connections, unsigned max_connections_per_client, chttp_handler handler,
                          void *context) {
    struct chttp_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    pthread_mutex_init(&server->lock, NULL);
    server->request_deadline = request_deadline_seconds;
    server->max_connections = max_connections;
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
        /* First, so that libmicrohttpd logs nothing before it is in place. */
        MHD_OPTION_EXTERNAL_LOGGER, &rate_limited_log, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)max_connections_per_client,
        MHD_OPTION_NOTIFY_COMPLETED, &request_completed, server,
        MHD_OPTION_NOTIFY_CONNECTION, &notify_connection, server,
        MHD_OPTION_URI_LOG_CALLBACK, &log_target, server,
        MHD_OPTION_END);
    if (server->daemon == NULL) { pthread_mutex_destroy(&server->lock); free(server); return NULL; }
    if (pthread_create(&server->watchdog, NULL, &watchdog, server) != 0) {
        MHD_stop_daemon(server->daemon);
        pthread_mutex_destroy(&server->lock);
        free(server);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info != NULL ? info->port : port;
    return server;
}

uint16_t chttp_port(const chttp_server *server) { return server->port; }

void chttp_stop(chttp_server *server) {
    if (server == NULL) return;
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_mutex_unlock(&server->lock);
    pthread_join(server->watchdog, NULL);
    MHD_stop_daemon(server->daemon);
    pthread_mutex_destroy(&server->lock);
    free(server);
}
