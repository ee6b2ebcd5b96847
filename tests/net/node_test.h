/* SPDX-License-Identifier: MIT */
/*
 * node_test.h: what the Portals test programs of tests/net share (they
 * run on compute nodes, and pingpong on Linux too): dying with a reason,
 * checking a Portals call, the clock, opening the NI and finding the
 * peer, and the handshake with it.
 * The including file defines PROG (its name, for messages) and `self`
 * (its nid, once known) before including this.
 */
#ifndef NODE_TEST_H
#define NODE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "portals4.h"

#define DIE(...) do { fprintf(stderr, PROG " (nid %u): ", self); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define CHECK(x) do { int rc_ = (x); if (rc_ != PTL_OK) \
    DIE("%s failed: %d", #x, rc_); } while (0)

static inline double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Portals up, the physical matching NI opened as pid; self is our nid.
   The peer is the other of nids a and b, with the same pid; false if we
   are neither (nothing to do). */
static inline int pair_open(ptl_pid_t pid, unsigned a, unsigned b,
                            ptl_handle_ni_t *ni, ptl_process_t *peer)
{
    ptl_process_t me;

    CHECK(PtlInit());
    CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, pid,
                    NULL, NULL, ni));
    CHECK(PtlGetPhysId(*ni, &me));
    self = me.phys.nid;
    if (self != a && self != b)
        return 0;
    peer->phys.nid = self == a ? b : a;
    peer->phys.pid = pid;
    return 1;
}

/* The peer may not be up yet: put an empty message with match bits
   `hello` (md's events go to ieq) until the peer's entry takes it, every
   20 ms for 60 s. */
static inline void handshake(ptl_handle_md_t md, ptl_handle_eq_t ieq,
                             ptl_pt_index_t pt, ptl_match_bits_t hello,
                             ptl_process_t peer)
{
    double give_up = now_us() + 60e6;
    ptl_event_t ev;

    for (;;) {
        CHECK(PtlPut(md, 0, 0, PTL_ACK_REQ, peer, pt, hello, 0, NULL, 0));
        do {
            CHECK(PtlEQWait(ieq, &ev));
        } while (ev.type != PTL_EVENT_ACK && ev.ni_fail_type == PTL_NI_OK);
        if (ev.ni_fail_type == PTL_NI_OK)
            return;
        if (now_us() > give_up)
            DIE("nid %u did not answer for 60 s (last failure %d)",
                peer.phys.nid, ev.ni_fail_type);
        for (double t = now_us() + 20000; now_us() < t;)
            ;                   /* 20 ms, then again */
    }
}

#endif
