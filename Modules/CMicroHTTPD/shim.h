#ifndef RECEPTION_CMICROHTTPD_SHIM_H
#define RECEPTION_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/resource.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_daemon_info) nor import macros that are casts
// (MHD_SIZE_UNKNOWN, MHD_CONTENT_READER_END_*). These helpers are the fixed-argument view the emulator needs.

// Starts a daemon bound to the numeric IPv4 address `host` and `port` (0 = any free port): an internal event loop
// (epoll on Linux, poll elsewhere, chosen by MHD_USE_AUTO) spread over `thread_pool_size` worker threads, with
// suspend/resume allowed, so a waiting event stream or a delayed answer parks its connection instead of holding a
// thread. At most `connection_limit` connections at once; a connection idle for `connection_timeout_seconds` is
// closed (a suspended one never times out). NULL when the address does not parse or the socket cannot be bound.
static inline struct MHD_Daemon *reception_mhd_start(const char *host, uint16_t port,
                                                     MHD_AccessHandlerCallback handler, void *handler_cls,
                                                     MHD_RequestCompletedCallback completed, void *completed_cls,
                                                     unsigned int connection_timeout_seconds,
                                                     unsigned int thread_pool_size, unsigned int connection_limit) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
    return MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME,
                            port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_END);
}

// Raises this process's soft limit of open files towards `wanted` (never above the hard limit) and returns the soft
// limit in force afterwards, so the connection limit can be chosen below it. 0 when it cannot be read.
static inline uint64_t reception_raise_open_file_limit(uint64_t wanted) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        struct rlimit raised = limit;
        raised.rlim_cur = (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > wanted) ? wanted : limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? wanted : (uint64_t)limit.rlim_cur;
}

// The port the daemon's listening socket is bound to (the answer to port 0), or 0 when it cannot be read.
static inline uint16_t reception_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (info == NULL) return 0;
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(info->listen_fd, (struct sockaddr *)&address, &length) != 0) return 0;
    return ntohs(address.sin_port);
}

// MHD_SIZE_UNKNOWN: a streamed response of unknown length (sent chunked).
static inline uint64_t reception_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

// MHD_CONTENT_READER_END_OF_STREAM: a content reader has no more data.
static inline ssize_t reception_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

#endif
