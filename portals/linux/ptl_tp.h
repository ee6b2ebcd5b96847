/* SPDX-License-Identifier: MIT */
/*
 * ptl_tp.h: the Linux library's link transports (VDE, AF_PACKET, the
 * in-process network).  A transport moves whole Ethernet frames; all
 * Portals logic stays in the portable core.
 */
#ifndef PTL_TP_H
#define PTL_TP_H

#include <stddef.h>
#include <stdint.h>

#include "ptl_host.h"

struct ptl_tp;

struct ptl_tp_ops {
    int (*tx)(struct ptl_tp *tp, const struct ptl_iov *iov, int niov);
    /* Non-blocking receive: frame length, 0 if none, <0 on error. */
    long (*rx)(struct ptl_tp *tp, void *buf, size_t len);
    /* A descriptor to poll for input, or -1 (the in-process network). */
    int (*fd)(struct ptl_tp *tp);
    void (*close)(struct ptl_tp *tp);
};

struct ptl_tp {
    const struct ptl_tp_ops *ops;
    uint32_t nid;
    unsigned iface;
    void *priv;
};

/* Each returns 0 and fills tp, or -1 with a message on stderr. */
int ptl_tp_vde_open(struct ptl_tp *tp, const char *path);
int ptl_tp_packet_open(struct ptl_tp *tp, const char *ifname);
int ptl_tp_mem_open(struct ptl_tp *tp);
int ptl_tp_unix_open(struct ptl_tp *tp, const char *dir);

/* Gather iov into buf (at most cap bytes); returns the frame length. */
size_t ptl_tp_gather(uint8_t *buf, size_t cap, const struct ptl_iov *iov,
                     int niov);

/* host.c: a fresh incarnation number, and when it began (realtime ns). */
uint32_t ptl_linux_new_epoch(void);
uint64_t ptl_linux_born(void);

/* progress.c: feed a received frame to interface iface (takes the
 * lock); the process-wide lock around the core. */
void ptl_host_deliver(unsigned iface, const void *frame, size_t len);
void ptl_host_lock(void);
void ptl_host_unlock(void);

/* tp_mem.c: the in-process network's virtual clock and pump. */
uint64_t ptl_memnet_clock(void);
int ptl_memnet_wait(uint64_t deadline);
int ptl_memnet_poll(void);

#endif /* PTL_TP_H */
