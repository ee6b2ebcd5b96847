/*
 * What the files of the kernel's Portals host share (portals.c,
 * ptlendpoint.c, ptlhost.c, ptlloop.c; see portals.c).  Private to them:
 * the rest of the kernel uses include/portals.h.
 */
#ifndef PORTALS_INTERNAL_H
#define PORTALS_INTERNAL_H

#include "portals.h"

#include "ptl_host.h"
#include "ptl_wire.h"

struct netdev;

/* A loop queue slot holds a frame of the node's MTU (portals_init). */
#define LOOP_SLOT_BYTES (PTL_ETH_HLEN + kptl_params.mtu)
#define LOOP_BYTES      ((uint64_t)LOOP_SLOTS * LOOP_SLOT_BYTES)

extern uint64_t node_id;                /* main.c */

/* ---- portals.c ------------------------------------------------------------ */
extern struct netdev *kptl_nic;         /* NULL: Portals is disabled */
extern struct ptl_lib_params kptl_params;       /* every endpoint's */
extern uint8_t kptl_own_mac[6];         /* 02:50:<nid> */
/* Tell a process waiting in its library to look again. */
void kptl_wake(struct kptl *kp);
/* Program the network timer for the endpoints' earliest deadline. */
void kptl_arm_timer(void);
/* Pause the NIC's receive after this frame: a process asleep for news
   has some (kptl_rx).  Frames that wait are taken in after its next call,
   at its next wait, or by the network timer within ptl.rx_defer_us. */
void kptl_rx_pause(void);

/* ---- ptlendpoint.c -------------------------------------------------------- */
extern struct kptl *kptl_live[NPROC];   /* the endpoints in use, packed */
extern int kptl_nlive;
struct kptl *kptl_of_pid(uint32_t pid);
/* At boot: each endpoint takes mem bytes (the core's tables, the loop
   queue); set the spares aside. */
void kptl_endpoints_init(uint64_t mem);

/* ---- ptlhost.c ------------------------------------------------------------ */
extern const struct ptl_host_ops kptl_host_ops;
extern uint64_t kptl_rx_unclaimed;      /* frames for no process here */
void kptl_copy_in(void *ctx, void *dst, const void *app, size_t len);
/* The key to sign a RESET answering frame h with (NULL: unsigned). */
const uint64_t *kptl_reset_key(const void *frame, const struct ptl_whdr *h);
/* The NIC's receive path: each frame, then once per batch. */
void kptl_rx(void *ctx, const void *frame, size_t len);
void kptl_rx_done(void *ctx);
/* The node's receive counters, for an endpoint's statistics. */
void kptl_log_node_rx(void);

/* ---- ptlloop.c ------------------------------------------------------------ */
/* A frame to an endpoint of this node: 0, or -1 to have it sent again. */
int kptl_loop_tx(struct kptl *kp, const struct ptl_iov *iov, int niov);
/* Deliver what the loop queues hold (after a call, interrupt or timer). */
void kptl_loop_drain_all(void);
/* kp is going: forget the frames queued to it. */
void kptl_loop_drop(struct kptl *kp);

#endif
