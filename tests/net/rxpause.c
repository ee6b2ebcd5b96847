/* SPDX-License-Identifier: MIT */
/*
 * rxpause: a process the kernel wakes with news runs before the rest of
 * what the NIC received is taken in (kernel/portals.c, "receive paused"),
 * and what waited is taken in within the bound all the same.
 *
 *   rxpause NID_A NID_B     (run on both nodes; the cluster booted with
 *                            ptl.rx_defer_us=BOUND, 300000 in the suite)
 *
 * NID_A sends, NID_B receives and reports.
 *   held:    A puts X, then Y at once.  B sleeps in PtlEQWait until X
 *            lands, then computes for SPIN_MS (no Portals call), then
 *            appends the entry for Y.  Y must land in that entry
 *            (PTL_EVENT_PUT): taken in while B computed, it would have
 *            gone to the overflow list (PTL_EVENT_PUT_OVERFLOW).
 *   bounded: A waits for B's GO, puts W, then Z at once.  B, woken by W,
 *            never calls into Portals again: it polls its event queue in
 *            memory.  Z's event must still come, by the network timer,
 *            within the bound and a margin for a loaded host.
 * B prints "rxpause: held ..." and "rxpause: bounded ..." with the times,
 * then "rxpause: OK"; any failure ends the process with status 1 and a
 * reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "portals4.h"

#define PROG "rxpause"
static unsigned self;
#include "node_test.h"

enum { HELLO = 1, X, Y, W, Z, GO };
#define LEN         4096        /* bytes of Y and Z */
#define SPIN_MS     20          /* B computes after X: Y arrives meanwhile */
#define BOUND_MAX_MS 5000       /* the bound (300 ms) and a loaded host */

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq, ieq;
static ptl_pt_index_t pt;
static ptl_handle_md_t md;
static uint8_t sbuf[LEN], ybuf[LEN], zbuf[LEN], obuf[4 * LEN];

static double now_ms(void)
{
    return now_us() / 1e3;
}

static void append(void *start, ptl_size_t len, ptl_match_bits_t bits,
                   ptl_list_t list, unsigned opts)
{
    ptl_me_t me = {
        .start = start, .length = len, .ct_handle = PTL_CT_NONE,
        .uid = PTL_UID_ANY, .match_bits = bits,
        .match_id = { .phys = { PTL_NID_ANY, PTL_PID_ANY } },
        .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE | opts,
    };
    ptl_handle_me_t h;

    CHECK(PtlMEAppend(ni, pt, &me, list, NULL, &h));
}

static void put(ptl_process_t to, ptl_size_t len, ptl_match_bits_t bits)
{
    CHECK(PtlPut(md, 0, len, PTL_NO_ACK_REQ, to, pt, bits, 0, NULL, 0));
}

/* The next arrival matching bits: in the kernel (asleep) or, with spin,
   only by looking at the queue in memory.  Fails after BOUND_MAX_MS. */
static ptl_event_t arrival(ptl_match_bits_t bits, int spin)
{
    double give_up = now_ms() + BOUND_MAX_MS;
    ptl_event_t ev;
    unsigned which;
    int rc;

    for (;;) {
        rc = spin ? PtlEQGet(eq, &ev) : PtlEQPoll(&eq, 1, 100, &ev, &which);
        if (rc == PTL_OK && ev.match_bits == bits)
            break;
        if (rc != PTL_OK && rc != PTL_EQ_EMPTY)
            DIE("waiting for %llu: %d", (unsigned long long)bits, rc);
        if (now_ms() > give_up)
            DIE("message %llu never arrived (%d ms)", (unsigned long long)bits,
                BOUND_MAX_MS);
    }
    if (ev.ni_fail_type != PTL_NI_OK)
        DIE("message %llu failed: ni_fail_type %d", (unsigned long long)bits,
            ev.ni_fail_type);
    return ev;
}

static void sender(ptl_process_t peer)
{
    handshake(md, ieq, pt, HELLO, peer);
    put(peer, 0, X);
    put(peer, LEN, Y);
    arrival(GO, 0);
    put(peer, 0, W);
    put(peer, LEN, Z);
}

static void receiver(ptl_process_t peer)
{
    ptl_event_t ev;
    double t;

    arrival(X, 0);              /* asleep in the kernel until X lands */
    for (t = now_ms() + SPIN_MS; now_ms() < t;)
        ;                       /* Y arrives meanwhile */
    append(ybuf, LEN, Y, PTL_PRIORITY_LIST, PTL_ME_USE_ONCE);
    ev = arrival(Y, 0);
    if (ev.type != PTL_EVENT_PUT || ev.ptl_list != PTL_PRIORITY_LIST ||
        memcmp(ybuf, sbuf, LEN) != 0)
        DIE("Y was taken in while the process X woke computed (event %d, "
            "list %d): the NIC's receive was not paused", ev.type,
            ev.ptl_list);
    printf("rxpause: held: Y waited %d ms for its entry and landed in it\n",
           SPIN_MS);

    put(peer, 0, GO);
    arrival(W, 0);              /* asleep until W: then never a call */
    t = now_ms();
    ev = arrival(Z, 1);
    if (memcmp(zbuf, sbuf, LEN) != 0)
        DIE("Z landed with the wrong bytes");
    printf("rxpause: bounded: Z came %.1f ms after W to a process that "
           "made no call\n", now_ms() - t);
}

int main(int argc, char **argv)
{
    ptl_process_t peer;
    unsigned a, b;

    if (argc != 3) {
        fprintf(stderr, "usage: rxpause NID_A NID_B\n");
        return 2;
    }
    a = (unsigned)atoi(argv[1]);
    b = (unsigned)atoi(argv[2]);
    if (!pair_open(9, a, b, &ni, &peer))
        return 0;
    for (int i = 0; i < LEN; i++)
        sbuf[i] = (uint8_t)(i * 7 + 3);

    CHECK(PtlEQAlloc(ni, 64, &eq));
    CHECK(PtlEQAlloc(ni, 64, &ieq));
    CHECK(PtlPTAlloc(ni, 0, eq, PTL_PT_ANY, &pt));
    append(NULL, 0, X, PTL_PRIORITY_LIST, 0);
    append(NULL, 0, W, PTL_PRIORITY_LIST, 0);
    append(NULL, 0, GO, PTL_PRIORITY_LIST, 0);
    append(zbuf, LEN, Z, PTL_PRIORITY_LIST, 0);
    /* What finds no entry (Y, if taken in early) waits here. */
    ptl_me_t o = {
        .start = obuf, .length = sizeof(obuf), .ct_handle = PTL_CT_NONE,
        .uid = PTL_UID_ANY, .ignore_bits = ~0ull, .min_free = LEN,
        .match_id = { .phys = { PTL_NID_ANY, PTL_PID_ANY } },
        .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                   PTL_ME_EVENT_LINK_DISABLE,
    };
    ptl_handle_me_t h;
    CHECK(PtlMEAppend(ni, pt, &o, PTL_OVERFLOW_LIST, NULL, &h));
    append(NULL, 0, HELLO, PTL_PRIORITY_LIST, 0);       /* ready: the last */

    ptl_md_t d = { .start = sbuf, .length = LEN, .eq_handle = ieq,
                   .ct_handle = PTL_CT_NONE };
    CHECK(PtlMDBind(ni, &d, &md));

    if (self == a)
        sender(peer);
    else
        receiver(peer);
    if (self == b)
        printf("rxpause: OK\n");
    PtlNIFini(ni);
    PtlFini();
    return 0;
}
