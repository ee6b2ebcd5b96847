/* SPDX-License-Identifier: MIT */
/*
 * tp_unix.c: frames as unix datagrams, one socket per station named
 * DIR/<nid> ("unix:DIR").  No switch and no libvdeplug, so programs built
 * with ThreadSanitizer or AddressSanitizer can use it (libvdeplug dlopens
 * its back ends with RTLD_DEEPBIND, which the sanitizer runtimes refuse):
 * the thread-safety and progress tests run over it.  A frame for a nid
 * nobody bound, or for a full queue, is dropped as a switch would drop it;
 * the reliable layer resends.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "ptl_tp.h"
#include "ptl_wire.h"

struct ux {
    int fd;
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path) - 12];
    char self[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

static int ux_addr(const struct ux *u, uint32_t nid, struct sockaddr_un *sa)
{
    memset(sa, 0, sizeof(*sa));
    sa->sun_family = AF_UNIX;
    return snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%u", u->dir,
                    nid) < (int)sizeof(sa->sun_path) ? 0 : -1;
}

static int ux_tx(struct ptl_tp *tp, const struct ptl_iov *iov, int niov)
{
    struct ux *u = tp->priv;
    struct iovec v[4];
    struct sockaddr_un sa;
    struct msghdr mh = { .msg_name = &sa, .msg_namelen = sizeof(sa),
                         .msg_iov = v, .msg_iovlen = (size_t)niov };
    uint32_t nid;

    if (niov > 4 || niov < 1 || iov[0].len < PTL_ETH_HLEN ||
        ptl_wire_mac_nid(iov[0].base, &nid) != 0 || ux_addr(u, nid, &sa))
        return -1;
    for (int i = 0; i < niov; i++) {
        v[i].iov_base = (void *)iov[i].base;
        v[i].iov_len = iov[i].len;
    }
    if (sendmsg(u->fd, &mh, MSG_DONTWAIT) >= 0)
        return 0;
    /* Nobody there (yet) is a lost frame; a full queue is "not sent". */
    return errno == EAGAIN || errno == ENOBUFS ? -1 : 0;
}

static long ux_rx(struct ptl_tp *tp, void *buf, size_t len)
{
    struct ux *u = tp->priv;
    ssize_t n = recv(u->fd, buf, len, MSG_DONTWAIT);

    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    return n;
}

static int ux_fd(struct ptl_tp *tp)
{
    struct ux *u = tp->priv;
    return u->fd;
}

static void ux_close(struct ptl_tp *tp)
{
    struct ux *u = tp->priv;

    close(u->fd);
    unlink(u->self);
    free(u);
}

static const struct ptl_tp_ops ux_ops = {
    .tx = ux_tx, .rx = ux_rx, .fd = ux_fd, .close = ux_close,
};

int ptl_tp_unix_open(struct ptl_tp *tp, const char *dir)
{
    struct ux *u = calloc(1, sizeof(*u));
    struct sockaddr_un sa;
    int buf = 4 << 20;

    if (u == NULL)
        return -1;
    if (strlen(dir) >= sizeof(u->dir)) {
        fprintf(stderr, "portals: unix:%s: directory name too long\n", dir);
        free(u);
        return -1;
    }
    strcpy(u->dir, dir);
    ux_addr(u, tp->nid, &sa);
    strcpy(u->self, sa.sun_path);
    unlink(u->self);        /* a station that died left its name */
    u->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (u->fd < 0 || bind(u->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        fprintf(stderr, "portals: unix:%s: cannot bind %s: %s (does the "
                "directory exist and is it writable?)\n", dir, u->self,
                strerror(errno));
        if (u->fd >= 0)
            close(u->fd);
        free(u);
        return -1;
    }
    setsockopt(u->fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
    setsockopt(u->fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
    tp->ops = &ux_ops;
    tp->priv = u;
    return 0;
}
