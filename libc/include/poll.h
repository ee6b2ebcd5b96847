/* SPDX-License-Identifier: MIT */
/*
 * poll.h: poll() (XBD <poll.h>, Linux's values).  A node program's files
 * are yod's and are read by request, not watched: poll() with no
 * descriptors is a sleep of the timeout, with any it fails ENOSYS
 * (libc/files.c).
 */
#ifndef LWK_POLL_H
#define LWK_POLL_H

#ifdef __cplusplus
extern "C" {
#endif

#define POLLIN          0x001
#define POLLPRI         0x002
#define POLLOUT         0x004
#define POLLERR         0x008
#define POLLHUP         0x010
#define POLLNVAL        0x020
#define POLLRDNORM      0x040
#define POLLRDBAND      0x080
#define POLLWRNORM      0x100
#define POLLWRBAND      0x200

typedef unsigned long nfds_t;
struct pollfd {
    int fd;
    short events;               /* asked */
    short revents;              /* returned */
};

int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif
