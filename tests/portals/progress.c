/* SPDX-License-Identifier: MIT */
/*
 * progress.c: does a Linux process make progress when it is not calling
 * Portals, and when it only polls?  Run by tests/portals/run-vde as two
 * stations (PTL_NID 1 the target, 2 the initiator, PTL_PID 1) on a link:
 *
 *   ptl-progress computes   the target posts an entry, tells the
 *                           initiator, then computes for 2 s without a
 *                           Portals call; the initiator's 20 puts must all
 *                           be acknowledged within 1.5 s of that
 *   ptl-progress polls      the target takes 20 puts only by PtlEQGet in a
 *                           loop; the initiator waits for their ACKs only
 *                           by PtlCTGet in a loop
 *   ptl-progress self       one station puts to itself (any PTL_NID)
 *
 * The initiator starts first and waits for the target's "ready" put.
 * Exit 0 and "progress: OK ..." or a line saying what did not happen.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "portals4.h"

#define N   20
#define SZ  3000                /* two frames at MTU 1500 */
#define PT  0

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, int rc)
{
    fprintf(stderr, "progress: %s (%d)\n", what, rc);
    exit(1);
}

#define CHECK(call) do { int rc_ = (call); if (rc_ != PTL_OK) fail(#call, rc_); } while (0)

static uint8_t pattern(unsigned msg, unsigned i)
{
    return (uint8_t)(msg * 37 + i * 11 + (i >> 9));
}

static ptl_process_t peer(ptl_nid_t nid)
{
    ptl_process_t p = { .phys = { .nid = nid, .pid = 1 } };
    return p;
}

static void append(void *buf, ptl_size_t len, ptl_match_bits_t bits)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY, .match_bits = bits,
                    .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY } };
    ptl_handle_me_t h;

    CHECK(PtlMEAppend(ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
}

static ptl_event_t next_put(bool poll_only)
{
    ptl_event_t ev;
    double limit = now_s() + 20;

    for (;;) {
        unsigned which;
        int rc = poll_only ? PtlEQGet(eq, &ev)
                           : PtlEQPoll(&eq, 1, 5000, &ev, &which);
        if (rc == PTL_EQ_EMPTY) {
            if (!poll_only || now_s() > limit)
                fail("no PUT event in time", rc);
            continue;
        }
        if (rc != PTL_OK)
            fail("PtlEQGet/Wait", rc);
        if (ev.type == PTL_EVENT_PUT)
            return ev;
    }
}

/* The target's side: N puts land in buf, each checked. */
static void check_puts(uint8_t *buf, bool poll_only)
{
    for (unsigned k = 0; k < N; k++) {
        ptl_event_t ev = next_put(poll_only);
        unsigned m = (unsigned)ev.hdr_data;

        if (ev.ni_fail_type != PTL_NI_OK || m >= N || ev.mlength != SZ)
            fail("bad PUT event", (int)ev.ni_fail_type);
        for (unsigned i = 0; i < SZ; i++)
            if (buf[m * SZ + i] != pattern(m, i))
                fail("payload corrupted", (int)m);
    }
}

/* The initiator's side: N puts, ACKs counted on ct. */
static void send_puts(ptl_nid_t to, ptl_handle_ct_t ct, uint8_t *src)
{
    ptl_md_t d = { .start = src, .length = N * SZ,
                   .options = PTL_MD_EVENT_SUCCESS_DISABLE |
                              PTL_MD_EVENT_CT_ACK,
                   .eq_handle = PTL_EQ_NONE, .ct_handle = ct };
    ptl_handle_md_t md;

    for (unsigned m = 0; m < N; m++)
        for (unsigned i = 0; i < SZ; i++)
            src[m * SZ + i] = pattern(m, i);
    CHECK(PtlMDBind(ni, &d, &md));
    for (unsigned m = 0; m < N; m++)
        CHECK(PtlPut(md, m * SZ, SZ, PTL_ACK_REQ, peer(to), PT, 1, m * SZ,
                     NULL, m));
}

/* Tell the initiator we are ready (it listens on match bits 2). */
static void send_ready(ptl_nid_t to)
{
    ptl_md_t d = { .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t md;

    CHECK(PtlMDBind(ni, &d, &md));
    CHECK(PtlPut(md, 0, 0, PTL_NO_ACK_REQ, peer(to), PT, 2, 0, NULL, 0));
}

static void busy(double secs)
{
    volatile unsigned long x = 0;
    double end = now_s() + secs;

    while (now_s() < end)
        for (int i = 0; i < 10000; i++)
            x += (unsigned long)i;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    const char *nidv = getenv("PTL_NID");
    ptl_nid_t me = nidv ? (ptl_nid_t)atoi(nidv) : 0;
    static uint8_t buf[N * SZ], src[N * SZ];
    ptl_handle_ct_t ct;
    ptl_ct_event_t c;
    ptl_pt_index_t pt;
    unsigned which;
    double t0;

    CHECK(PtlInit());
    CHECK(PtlNIInit(0, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 1, NULL, NULL,
                    &ni));
    CHECK(PtlEQAlloc(ni, 256, &eq));
    CHECK(PtlPTAlloc(ni, 0, eq, PT, &pt));
    CHECK(PtlCTAlloc(ni, &ct));
    append(buf, sizeof(buf), 1);            /* the puts */
    append(buf, 0, 2);                      /* "ready" */
    if (strcmp(what, "self") == 0) {
        send_puts(me, ct, src);
        check_puts(buf, false);
        CHECK(PtlCTPoll(&ct, &(ptl_size_t){ N }, 1, 5000, &c, &which));
        if (c.failure != 0)
            fail("puts to self failed", (int)c.failure);
        printf("progress: OK, %d puts to myself (nid %u)\n", N, me);
    } else if (strcmp(what, "computes") == 0 && me == 1) {
        /* Let the initiator start, then compute without Portals. */
        send_ready(2);
        busy(2.0);
        check_puts(buf, false);
        printf("progress: OK, target computed 2 s; all %d puts landed\n", N);
    } else if (strcmp(what, "computes") == 0) {
        next_put(false);                    /* the target is computing */
        t0 = now_s();
        send_puts(1, ct, src);
        if (PtlCTPoll(&ct, &(ptl_size_t){ N }, 1, 1500, &c, &which) !=
            PTL_OK) {
            PtlCTGet(ct, &c);
            fprintf(stderr, "progress: only %lu of %d puts acknowledged "
                    "in 1.5 s while the target computed\n",
                    (unsigned long)c.success, N);
            return 1;
        }
        printf("progress: OK, %d puts to a computing target acknowledged "
               "in %.3f s\n", N, now_s() - t0);
    } else if (strcmp(what, "polls") == 0 && me == 1) {
        send_ready(2);
        check_puts(buf, true);
        printf("progress: OK, %d puts taken by PtlEQGet polling\n", N);
    } else if (strcmp(what, "polls") == 0) {
        next_put(false);
        send_puts(1, ct, src);
        t0 = now_s();
        do {
            CHECK(PtlCTGet(ct, &c));
            if (now_s() - t0 > 20)
                fail("ACKs not all seen in 20 s of PtlCTGet polling",
                     (int)c.success);
        } while (c.success + c.failure < N);
        if (c.failure != 0)
            fail("puts failed", (int)c.failure);
        printf("progress: OK, %d ACKs seen by PtlCTGet polling\n", N);
    } else {
        fprintf(stderr, "usage: PTL_NID=1|2 %s computes|polls|self\n",
                argv[0]);
        return 2;
    }
    PtlNIFini(ni);
    PtlFini();
    return 0;
}
