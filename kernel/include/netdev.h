/*
 * The network-device layer (netdev.c): what the rest of the kernel sees of
 * a NIC.  Two drivers (virtio_net.c, e1000e.c); Portals sits on top.
 *
 * Transmit is zero copy: a frame is a short header (Ethernet + protocol,
 * copied into a slot the driver owns) followed by segments the device
 * reads in place.  Each segment is a kernel virtual address of physically
 * contiguous memory (the physmap view of a process region, or kernel
 * memory); it must stay untouched until the device is done with it, which
 * netdev_tx_idle() tells.  Receive hands each frame to one handler, from
 * the interrupt (or from netdev_poll), in a buffer reused once it returns.
 */
#ifndef NETDEV_H
#define NETDEV_H

#include "kernel.h"

#define NETDEV_HDR_MAX      192     /* bytes netdev_tx copies (Portals: 134) */
#define NETDEV_SEG_MAX      4       /* segments after the header */

struct netdev_seg {
    const void *base;           /* kernel virtual, physically contiguous */
    uint32_t len;
};

typedef void (*netdev_rx_fn)(void *ctx, const void *frame, size_t len);

struct netdev_stats {
    uint64_t tx_frames, tx_bytes, tx_full;      /* tx_full: ring had no room */
    uint64_t rx_frames, rx_bytes, rx_dropped;   /* rx_dropped: loss injection */
    uint64_t irqs;
    uint64_t tx_kicks, rx_kicks;                /* doorbells written */
    uint64_t link_changes;                      /* link went down or up */
};

struct netdev;

struct netdev_ops {
    int (*tx)(struct netdev *nd, const void *hdr, size_t hlen,
              const struct netdev_seg *seg, int nseg);
    void (*poll)(struct netdev *nd);
    bool (*tx_idle)(struct netdev *nd);
    void (*irq_to)(struct netdev *nd, uint32_t apic_id);
    /* Optional: announce queued transmissions to the device (write its
       doorbell).  A driver with it writes no doorbell in tx while
       transmissions are held (netdev_tx_hold): it sets tx_unkicked. */
    void (*kick)(struct netdev *nd);
};

struct netdev {
    const char *name;
    uint8_t mac[6];             /* the device's own (from its config) */
    uint32_t mtu;               /* largest frame payload after the 14-byte
                                   Ethernet header the device and link take */
    const struct netdev_ops *ops;
    void *priv;
    netdev_rx_fn rx;
    void (*rx_done)(void *ctx); /* after each batch of received frames */
    void (*rx_held)(void *ctx); /* frames wait while receive is paused */
    void *rx_ctx;
    int tx_hold;                /* netdev_tx_hold depth */
    bool tx_unkicked;           /* frames queued while held, unannounced */
    unsigned loss_ppm;          /* receive loss injection (net.loss=) */
    uint64_t rng;
    struct netdev_stats st;
    int cpu;                    /* the CPU that drives it (0 at boot) */
    bool rx_stop;               /* the handler ended the batch */
    bool rx_paused;             /* netdev_rx_pause .. netdev_rx_resume */
    bool rx_waiting;            /* and frames wait in the ring meanwhile */
    bool link_up;               /* as the driver last saw it */
};

/* Called by drivers when a device is up. */
void netdev_register(struct netdev *nd);
/* Called by drivers for each received frame; applies loss injection and
   calls the handler.  False if the handler paused receive (the driver
   ends the batch with this frame). */
bool netdev_deliver(struct netdev *nd, const void *frame, size_t len);
/* Called by drivers that leave frames in the ring while receive is
   paused (at the end of the batch, or at an interrupt meanwhile). */
void netdev_rx_left(struct netdev *nd);

/* Called by drivers when the link goes down or up: logs it, counts it. */
void netdev_link_changed(struct netdev *nd, bool up);
/* How many NICs are registered (the next one's index). */
int netdev_count(void);
/* Physical address of a transmit segment [p, p+len) if the device may
   read it in place (kernel image or PHYSMAP, which are physically
   contiguous, and RAM): 0, or -EINVAL. */
int netdev_seg_phys(const void *p, uint32_t len, uint64_t *pa);

/* The first (only) NIC, or NULL if the node has none. */
struct netdev *netdev_get(void);
/* The i-th NIC in probe order (tests use two), or NULL. */
struct netdev *netdev_nth(int i);
/* Receive loss injection: drop each received frame with probability
   ppm/1e6, decided by a generator seeded with `seed` (netdev_register
   sets it from net.loss= and the node id). */
void netdev_set_loss(struct netdev *nd, unsigned ppm, uint64_t seed);
void netdev_set_rx(struct netdev *nd, netdev_rx_fn fn, void *ctx);
/* What the handler does once per batch rather than per frame: drivers call
   netdev_rx_done after each batch they deliver (an interrupt's, a poll's),
   and hold transmissions over the batch, so the frames its handling sends
   go with one doorbell. */
void netdev_set_rx_done(struct netdev *nd, void (*done)(void *ctx));
void netdev_rx_done(struct netdev *nd);
/* Pausing receive, for a handler whose consumer should run before more
   frames are taken in (Portals: a process that slept for news has some,
   and may be about to post the receive the next frames are for).
   netdev_rx_pause, from the handler, ends the batch after the frame being
   handled, and interrupts take no frames until netdev_rx_resume (or a
   netdev_poll).  The first time frames wait meanwhile the driver calls
   `held`, so the handler's owner can bound the wait (a timer). */
void netdev_set_rx_held(struct netdev *nd, void (*held)(void *ctx));
void netdev_rx_pause(struct netdev *nd);
void netdev_rx_resume(struct netdev *nd);
/* Hold transmit doorbells until the matching release: the frames of a
   multi-frame message, or everything one batch of received frames causes,
   cost one doorbell (an exit to the emulator each) instead of one per
   frame.  Nests.  netdev_tx_kick announces what is queued now (before
   waiting for the device). */
void netdev_tx_hold(struct netdev *nd);
void netdev_tx_release(struct netdev *nd);
void netdev_tx_kick(struct netdev *nd);
/* Queue one frame: hlen <= NETDEV_HDR_MAX, nseg <= NETDEV_SEG_MAX, total
   <= 14 + mtu.  0, -EAGAIN if the ring is full, -EINVAL if malformed. */
int netdev_tx(struct netdev *nd, const void *hdr, size_t hlen,
              const struct netdev_seg *seg, int nseg);
/* Reclaim finished transmissions and deliver received frames now, without
   waiting for an interrupt (callable with interrupts off); ends a pause. */
void netdev_poll(struct netdev *nd);
/* True when the device holds no transmit segment any more. */
bool netdev_tx_idle(struct netdev *nd);
/* Hand the device to CPU `cpu` (its interrupt goes there; only that CPU
   touches it from now on: the caller makes sure of it). */
void netdev_set_cpu(struct netdev *nd, int cpu);

#endif
