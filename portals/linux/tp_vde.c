/* SPDX-License-Identifier: MIT */
/*
 * tp_vde.c: a station on a VDE switch through libvdeplug (the default
 * link: vde_switch on a unix socket, no root).  The URL goes to libvdeplug
 * unchanged, so its other back ends (tap://, vxvde://) work too.
 * libvdeplug sends one contiguous buffer, so a frame is gathered once.
 */
#define _GNU_SOURCE             /* pthread_timedjoin_np */
#include <poll.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libvdeplug.h>

#include "ptl_tp.h"
#include "ptl_wire.h"

struct vde {
    VDECONN *conn;
    uint8_t buf[PTL_ETH_HLEN + PTL_MTU_MAX];
};

/* Never waits: the data socket is non-blocking (ptl_tp_vde_open).  A switch
 * that cannot take the frame now (its queue full: a switch starved of
 * CPU on a loaded host) made send() block with the process-wide lock
 * held (progress.c): every thread of the process stood still, yod's
 * lease PINGs with them, for seconds.  Now that is -1, "the host could
 * not take it": the core retries soon (tx_stalled) and carries on. */
static int vde_tx(struct ptl_tp *tp, const struct ptl_iov *iov, int niov)
{
    struct vde *v = tp->priv;
    size_t len = ptl_tp_gather(v->buf, sizeof(v->buf), iov, niov);

    if (len == 0)
        return -1;
    return vde_send(v->conn, v->buf, len, 0) == (ssize_t)len ? 0 : -1;
}

static long vde_rx(struct ptl_tp *tp, void *buf, size_t len)
{
    struct vde *v = tp->priv;
    struct pollfd pfd = { .fd = vde_datafd(v->conn), .events = POLLIN };

    if (poll(&pfd, 1, 0) <= 0)
        return 0;
    return vde_recv(v->conn, buf, len, 0);
}

static int vde_fd(struct ptl_tp *tp)
{
    struct vde *v = tp->priv;
    return vde_datafd(v->conn);
}

static void vde_close_tp(struct ptl_tp *tp)
{
    struct vde *v = tp->priv;

    vde_close(v->conn);
    free(v);
}

static const struct ptl_tp_ops vde_ops = {
    .tx = vde_tx, .rx = vde_rx, .fd = vde_fd, .close = vde_close_tp,
};

/* vde_open waits for the switch's answer, and a switch with no free port
 * never answers: the attach runs in a thread of its own, given
 * ATTACH_SECS (PTL_VDE_ATTACH_S overrides it; a process that gives up
 * leaves that thread blocked, and its few bytes, behind). */
#define ATTACH_SECS 10

static int attach_secs(void)
{
    const char *s = getenv("PTL_VDE_ATTACH_S");
    int n = s ? atoi(s) : 0;

    return n > 0 ? n : ATTACH_SECS;
}

struct attach {
    char *url;
    char descr[32];
    VDECONN *conn;
};

static void *attach(void *arg)
{
    struct attach *a = arg;
    struct vde_open_args args = { .port = 0, .group = NULL, .mode = 0700 };

    a->conn = vde_open(a->url, a->descr, &args);
    return NULL;
}

static VDECONN *attach_in_time(const char *url, unsigned nid)
{
    struct attach *a = calloc(1, sizeof(*a));
    struct timespec until;
    int secs = attach_secs();
    pthread_t t;
    VDECONN *conn;

    if (a == NULL || (a->url = strdup(url)) == NULL)
        return NULL;
    snprintf(a->descr, sizeof(a->descr), "portals nid %u", nid);
    if (pthread_create(&t, NULL, attach, a) != 0) {
        attach(a);
    } else {
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += secs;
        if (pthread_timedjoin_np(t, NULL, &until) != 0) {
            pthread_detach(t);
            fprintf(stderr, "portals: the VDE switch %s did not take us in "
                    "%d s: it may have no free port left (every node, yod "
                    "and showmesh holds one); end some of them, or boot the "
                    "cluster again\n", url, secs);
            return NULL;
        }
    }
    conn = a->conn;
    free(a->url);
    free(a);
    if (conn == NULL)
        fprintf(stderr, "portals: cannot attach to VDE switch %s\n", url);
    return conn;
}

int ptl_tp_vde_open(struct ptl_tp *tp, const char *url)
{
    struct vde *v = calloc(1, sizeof(*v));
    int fd;

    if (v == NULL)
        return -1;
    v->conn = attach_in_time(url, tp->nid);
    if (v->conn == NULL) {
        free(v);
        return -1;
    }
    /* Set once here, not polled for at every frame (vde_tx). */
    fd = vde_datafd(v->conn);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    tp->ops = &vde_ops;
    tp->priv = v;
    return 0;
}
