/* SPDX-License-Identifier: MIT */
/*
 * ptl_linux.h: Linux-only extensions of libportals (the portable API is
 * portals4.h).  A Linux process normally needs none of this: PtlInit()
 * opens interface 0 from the environment (portals/README.md):
 *
 *   PTL_IFACE  vde:///path/to/switch-dir | packet:IFNAME | mem:
 *   PTL_NID    this station's nid (decimal); its MAC is 02:50:<nid BE32>
 *   PTL_PID    pid (default: the first PtlNIInit's pid argument)
 *   PTL_MTU    link MTU in bytes after the Ethernet header (default 1500)
 *   PTL_UID / PTL_JID   identity carried in every header (default getuid/0)
 *
 * Tests and tools may open further interfaces (one per simulated station)
 * and drive the in-process "mem:" network, which can drop, duplicate,
 * reorder, delay, corrupt and truncate frames on command and runs on a
 * virtual clock so timeouts cost no real time.
 */
#ifndef PTL_LINUX_H
#define PTL_LINUX_H

#include <stdint.h>

#include "portals4.h"
#include "ptl_host.h"

/* Open interface number iface (0..PTL_MAX_IFACES-1) on a link given as in
 * PTL_IFACE.  mtu 0 means 1500.  Returns PTL_OK or an error. */
int ptl_linux_iface_open(unsigned iface, const char *spec, ptl_nid_t nid,
                         ptl_pid_t pid, uint32_t mtu);
/* Same, with full control of the core's table sizes and timers. */
int ptl_linux_iface_open_params(unsigned iface, const char *spec,
                                const struct ptl_lib_params *p);
/* The parameters that depend on the link spec names (its window, whether
 * ACKs are held), for ptl_linux_iface_open_params. */
void ptl_linux_link_defaults(const char *spec, uint32_t mtu,
                             struct ptl_lib_params *p);
void ptl_linux_iface_close(unsigned iface);
/* Sign this station's frames with the cluster's transport key (k0, k1:
 * yod_transport_key of the cluster's secret, yod/yod_proto.h), and from
 * then on let only signed frames change what a signing peer owns
 * (PROTOCOL.md 2.3).  Stations without the key, ptlrun's jobs among
 * them, neither sign nor check. */
int ptl_linux_auth(unsigned iface, const uint64_t key[2]);
struct ptl_lib *ptl_linux_lib(unsigned iface);

/* ---- the in-process network ("mem:") ---- */
struct ptl_memnet_faults {
    unsigned loss_pct, dup_pct, reorder_pct, corrupt_pct, truncate_pct;
    uint64_t delay_ns;          /* base one-way delay (default 10 us) */
    uint64_t jitter_ns;         /* extra delay for reordered frames */
    uint64_t seed;
    uint64_t drop_nth;          /* lose the nth frame sent from now on
                                 * (1 the next; 0 none) */
    uint64_t busy_until_ns;     /* until then (virtual time) every send is
                                 * "not taken now", as a full loop queue
                                 * or ring says it */
};

struct ptl_memnet_stats {
    uint64_t sent, delivered, lost, duplicated, reordered, corrupted,
             truncated;
};

void ptl_memnet_set_faults(const struct ptl_memnet_faults *f);
void ptl_memnet_get_stats(struct ptl_memnet_stats *st);
/* Deliver what is due, run every station's timers; advance the virtual
 * clock to the next event if nothing was due.  Returns frames delivered. */
int ptl_memnet_pump(void);
uint64_t ptl_memnet_now(void);
/* Drop every frame in flight and reset the clock (between tests). */
void ptl_memnet_reset(void);

#endif /* PTL_LINUX_H */
