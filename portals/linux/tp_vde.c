/* SPDX-License-Identifier: MIT */
/*
 * tp_vde.c: a station on a VDE switch through libvdeplug (the default
 * link: vde_switch on a unix socket, no root).  The URL goes to libvdeplug
 * unchanged, so its other back ends (tap://, vxvde://) work too.
 * libvdeplug sends one contiguous buffer, so a frame is gathered once.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvdeplug.h>

#include "ptl_tp.h"
#include "ptl_wire.h"

struct vde {
    VDECONN *conn;
    uint8_t buf[PTL_ETH_HLEN + PTL_MTU_MAX];
};

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

int ptl_tp_vde_open(struct ptl_tp *tp, const char *url)
{
    struct vde_open_args args = { .port = 0, .group = NULL, .mode = 0700 };
    struct vde *v = calloc(1, sizeof(*v));
    char descr[32];

    if (v == NULL)
        return -1;
    snprintf(descr, sizeof(descr), "portals nid %u", tp->nid);
    v->conn = vde_open((char *)url, descr, &args);
    if (v->conn == NULL) {
        fprintf(stderr, "portals: cannot attach to VDE switch %s\n", url);
        free(v);
        return -1;
    }
    tp->ops = &vde_ops;
    tp->priv = v;
    return 0;
}
