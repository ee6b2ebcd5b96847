/* SPDX-License-Identifier: MIT */
/*
 * tp_packet.c: raw Ethernet through an AF_PACKET socket bound to one
 * interface and to our ethertype (a tap, a bridge, a veth, or a real NIC
 * for hardware compute nodes).  Needs CAP_NET_RAW.  sendmsg takes the
 * scatter list directly, so a frame is not gathered first.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ptl_tp.h"
#include "ptl_wire.h"

struct pkt {
    int fd;
    int ifindex;
};

static int pkt_tx(struct ptl_tp *tp, const struct ptl_iov *iov, int niov)
{
    struct pkt *p = tp->priv;
    struct iovec v[4];
    struct sockaddr_ll sa = { .sll_family = AF_PACKET,
                              .sll_protocol = htons(PTL_ETHERTYPE),
                              .sll_ifindex = p->ifindex, .sll_halen = 6 };
    struct msghdr mh = { .msg_name = &sa, .msg_namelen = sizeof(sa),
                         .msg_iov = v, .msg_iovlen = (size_t)niov };
    size_t total = 0;

    if (niov > 4 || niov < 1 || iov[0].len < PTL_ETH_HLEN)
        return -1;
    for (int i = 0; i < niov; i++) {
        v[i].iov_base = (void *)iov[i].base;
        v[i].iov_len = iov[i].len;
        total += iov[i].len;
    }
    memcpy(sa.sll_addr, iov[0].base, 6);
    return sendmsg(p->fd, &mh, 0) == (ssize_t)total ? 0 : -1;
}

static long pkt_rx(struct ptl_tp *tp, void *buf, size_t len)
{
    struct pkt *p = tp->priv;
    ssize_t n = recv(p->fd, buf, len, MSG_DONTWAIT);

    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    return n;
}

static int pkt_fd(struct ptl_tp *tp)
{
    struct pkt *p = tp->priv;
    return p->fd;
}

static void pkt_close(struct ptl_tp *tp)
{
    struct pkt *p = tp->priv;

    close(p->fd);
    free(p);
}

static const struct ptl_tp_ops pkt_ops = {
    .tx = pkt_tx, .rx = pkt_rx, .fd = pkt_fd, .close = pkt_close,
};

int ptl_tp_packet_open(struct ptl_tp *tp, const char *ifname)
{
    struct pkt *p = calloc(1, sizeof(*p));
    struct sockaddr_ll sa = { .sll_family = AF_PACKET,
                              .sll_protocol = htons(PTL_ETHERTYPE) };

    if (p == NULL)
        return -1;
    p->ifindex = (int)if_nametoindex(ifname);
    p->fd = socket(AF_PACKET, SOCK_RAW, htons(PTL_ETHERTYPE));
    sa.sll_ifindex = p->ifindex;
    if (p->ifindex == 0 || p->fd < 0 ||
        bind(p->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        fprintf(stderr, "portals: AF_PACKET on %s: %s\n", ifname,
                strerror(errno));
        if (p->fd >= 0)
            close(p->fd);
        free(p);
        return -1;
    }
    tp->ops = &pkt_ops;
    tp->priv = p;
    return 0;
}
