/* SPDX-License-Identifier: MIT */
/*
 * ptl_node.c: one process of the multi-process tests through a real VDE
 * switch.  Usage: ptl-node NPROCS (identity from PTL_IFACE/PTL_NID/PTL_PID;
 * rank = nid - 1, pid 1).  Every rank puts messages of many sizes (one of
 * them 1 MiB, so fragmentation and reassembly are exercised) to every other
 * rank, gets a block from each, adds to a counter on rank 0 with fetch-
 * atomics, then says "done" to all.  Exit status 0 only if every byte and
 * every event checked out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "portals4.h"
#ifndef __lwk__                 /* also built for the compute nodes */
#include "ptl_linux.h"
#endif

#define K        12                 /* puts per peer */
#define SLOT     70000
#define BIG      (1 << 20)
#define REGION   ((K - 1) * SLOT + BIG)
#define GETLEN   200000
#define NATOMIC  10
#define B_PUT    0ull
#define B_GET    (1ull << 32)
#define B_ATOM   (2ull << 32)
#define B_DONE   (3ull << 32)
#define B_HELLO  (4ull << 32)

static int nprocs, rank, base = 1;
static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq, hello_eq;
static ptl_pt_index_t pt;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: %s:%d: %s\n", \
    rank, __FILE__, __LINE__, #c); exit(1); } } while (0)

static uint32_t size_of(int k)
{
    return k == K - 1 ? BIG : (uint32_t)((k * 7919u) % SLOT);
}

static uint8_t pat(int src, int dst, int k, uint32_t i)
{
    return (uint8_t)(src * 17 + dst * 5 + k * 3 + i + (i >> 9));
}

static ptl_process_t who(int r)
{
    ptl_process_t p = { .phys = { (ptl_nid_t)(r + base), 1 } };
    return p;
}

static void append(void *buf, ptl_size_t len, ptl_match_bits_t bits,
                   ptl_process_t from, unsigned opts)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY,
                    .options = opts | PTL_ME_EVENT_LINK_DISABLE,
                    .match_id = from, .match_bits = bits };
    ptl_handle_me_t h;

    CHECK(PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &h) == PTL_OK);
}

static ptl_handle_md_t bind(void *buf, ptl_size_t len)
{
    ptl_md_t md = { .start = buf, .length = len, .eq_handle = eq,
                    .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t h;

    CHECK(PtlMDBind(ni, &md, &h) == PTL_OK);
    return h;
}

/* Counts of what we expect; the event loop decrements them. */
static int want_acks, want_replies, want_sends, want_puts, want_dones;
static uint8_t **inbox;

static void check_put(const ptl_event_t *ev)
{
    int src = (int)ev->initiator.phys.nid - base, k = (int)ev->hdr_data;
    const uint8_t *p = ev->start;

    CHECK(src >= 0 && src < nprocs && k >= 0 && k < K);
    CHECK(ev->mlength == size_of(k));
    CHECK(p == inbox[src] + (size_t)k * SLOT);
    for (uint32_t i = 0; i < ev->mlength; i++)
        CHECK(p[i] == pat(src, rank, k, i));
}

static void on_event(const ptl_event_t *ev)
{
#ifndef __lwk__
    if (ev->ni_fail_type != PTL_NI_OK) {
        struct ptl_lib_stats st;

        ptl_lib_get_stats(ptl_linux_lib(0), &st);
        fprintf(stderr, "rank %d: event %d failed (%d) bits %llx hdr %llu; "
                "tx %lu rx %lu rtx %lu dup %lu ooo %lu bad %lu mis %lu "
                "notready %lu\n", rank, ev->type, ev->ni_fail_type,
                (unsigned long long)ev->match_bits,
                (unsigned long long)ev->hdr_data,
                (unsigned long)st.tx_frames, (unsigned long)st.rx_frames,
                (unsigned long)st.rtx_frames, (unsigned long)st.rx_dup,
                (unsigned long)st.rx_ooo, (unsigned long)st.rx_bad,
                (unsigned long)st.rx_misaddressed,
                (unsigned long)st.rx_notready);
    }
#endif
    if (ev->ni_fail_type != PTL_NI_OK)
        fprintf(stderr, "rank %d: event %d from nid %u failed: %d\n", rank,
                ev->type, ev->initiator.phys.nid, ev->ni_fail_type);
    CHECK(ev->ni_fail_type == PTL_NI_OK);
    switch (ev->type) {
    case PTL_EVENT_SEND: want_sends--; break;
    case PTL_EVENT_ACK: want_acks--; break;
    case PTL_EVENT_REPLY: want_replies--; break;
    case PTL_EVENT_GET: case PTL_EVENT_FETCH_ATOMIC: break;
    case PTL_EVENT_PUT:
        if (ev->match_bits == B_DONE) {
            want_dones--;
        } else {
            check_put(ev);
            want_puts--;
        }
        break;
    default:
        CHECK(!"unexpected event");
    }
}

static void wait_until(int *a, int *b, int *c)
{
    ptl_event_t ev;
    unsigned which;

    while (*a > 0 || *b > 0 || *c > 0) {
        int rc = PtlEQPoll(&eq, 1, 20000, &ev, &which);
        if (rc != PTL_OK)
            fprintf(stderr, "rank %d: PtlEQPoll: %d (waiting for %d %d %d)\n",
                    rank, rc, *a, *b, *c);
        CHECK(rc == PTL_OK);
        on_event(&ev);
    }
}

static void pause_ms(int ms)
{
    struct timespec ts, now;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    do
        clock_gettime(CLOCK_MONOTONIC, &now);
    while ((now.tv_sec - ts.tv_sec) * 1000 +
           (now.tv_nsec - ts.tv_nsec) / 1000000 < ms);
}

/* Peers start when their node gets round to it: put an empty hello to
 * each until it is acknowledged without failure (its portal table entry
 * and entries exist), so no measured message finds a peer not ready. */
static void hello(int n)
{
    static uint8_t nothing;
    ptl_md_t d = { .start = &nothing, .length = 0, .eq_handle = PTL_EQ_NONE,
                   .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t md;
    ptl_event_t ev;

    CHECK(PtlEQAlloc(ni, 64, &hello_eq) == PTL_OK);
    d.eq_handle = hello_eq;
    CHECK(PtlMDBind(ni, &d, &md) == PTL_OK);
    for (int r = 0; r < n; r++) {
        for (int tries = 0; r != rank; tries++) {
            CHECK(PtlPut(md, 0, 0, PTL_ACK_REQ, who(r), pt, B_HELLO, 0, NULL,
                         0) == PTL_OK);
            do
                CHECK(PtlEQWait(hello_eq, &ev) == PTL_OK);
            while (ev.type != PTL_EVENT_ACK);
            if (ev.ni_fail_type == PTL_NI_OK)
                break;
            CHECK(tries < 3000);            /* a minute */
            pause_ms(20);
        }
    }
    CHECK(PtlMDRelease(md) == PTL_OK);
}

/* PtlTriggeredMEAppend/MEUnlink (on a node: ptl calls 45 and 46): an
 * entry that links when its counter reaches 1 and unlinks at 2. */
static void triggered_entries(void)
{
    ptl_me_t me = { .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                    .options = PTL_ME_OP_PUT,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY } };
    ptl_handle_ct_t ct;
    ptl_handle_eq_t e;
    ptl_handle_me_t h;
    ptl_pt_index_t p;
    ptl_event_t ev;

    CHECK(PtlEQAlloc(ni, 8, &e) == PTL_OK);
    CHECK(PtlPTAlloc(ni, 0, e, 1, &p) == PTL_OK);
    CHECK(PtlCTAlloc(ni, &ct) == PTL_OK);
    CHECK(PtlTriggeredMEAppend(ni, p, &me, PTL_PRIORITY_LIST, (void *)0x7e,
                               &h, ct, 1) == PTL_OK);
    CHECK(PtlEQGet(e, &ev) == PTL_EQ_EMPTY);            /* not yet */
    CHECK(PtlTriggeredMEUnlink(h, ct, 2) == PTL_OK);
    CHECK(PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 }) == PTL_OK);
    CHECK(PtlEQGet(e, &ev) == PTL_OK && ev.type == PTL_EVENT_LINK &&
          ev.user_ptr == (void *)0x7e);
    CHECK(PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 }) == PTL_OK);
    CHECK(PtlMEUnlink(h) == PTL_ARG_INVALID);           /* unlinked */
    CHECK(PtlPTFree(ni, p) == PTL_OK);
    CHECK(PtlCTFree(ct) == PTL_OK);
    CHECK(PtlEQFree(e) == PTL_OK);
}

int main(int argc, char **argv)
{
    static uint8_t out[REGION], getbuf[GETLEN], expose[GETLEN];
    static uint64_t counter, one = 1, fetched[NATOMIC];
    ptl_process_t me, anyone = { .phys = { PTL_NID_ANY, PTL_PID_ANY } };
    ptl_handle_md_t mdout, mdget, mdone, mdfetch;
    int nz = 0;

    CHECK(argc == 2 || argc == 3);
    nprocs = atoi(argv[1]);
    if (argc == 3)
        base = atoi(argv[2]);
    CHECK(PtlInit() == PTL_OK);
    CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                    1, NULL, NULL, &ni) == PTL_OK);
    CHECK(PtlGetPhysId(ni, &me) == PTL_OK);
    rank = (int)me.phys.nid - base;
    CHECK(PtlEQAlloc(ni, 4096, &eq) == PTL_OK);
    CHECK(PtlPTAlloc(ni, 0, eq, 0, &pt) == PTL_OK);
    triggered_entries();
    inbox = calloc((size_t)nprocs, sizeof(*inbox));
    for (int r = 0; r < nprocs; r++) {
        if (r == rank)
            continue;
        inbox[r] = calloc(1, REGION);
        append(inbox[r], REGION, B_PUT, who(r), PTL_ME_OP_PUT);
    }
    for (uint32_t i = 0; i < GETLEN; i++)
        expose[i] = (uint8_t)(rank * 11 + i);
    append(expose, GETLEN, B_GET, anyone, PTL_ME_OP_GET);
    append(&counter, 8, B_ATOM, anyone, PTL_ME_OP_PUT | PTL_ME_OP_GET);
    append(NULL, 0, B_DONE, anyone, PTL_ME_OP_PUT);
    append(NULL, 0, B_HELLO, anyone,
           PTL_ME_OP_PUT | PTL_ME_EVENT_COMM_DISABLE);
    hello(nprocs);
    mdout = bind(out, REGION);
    mdget = bind(getbuf, GETLEN);
    mdone = bind(&one, 8);
    mdfetch = bind(fetched, sizeof(fetched));

    want_puts = (nprocs - 1) * K;
    want_dones = nprocs - 1;
    printf("rank %d of %d: up\n", rank, nprocs);
    fflush(stdout);
    for (int r = 0; r < nprocs; r++) {
        if (r == rank)
            continue;
        for (int k = 0; k < K; k++) {
            uint8_t *p = out + (size_t)k * SLOT;
            for (uint32_t i = 0; i < size_of(k); i++)
                p[i] = pat(rank, r, k, i);
            want_sends++, want_acks++;
            CHECK(PtlPut(mdout, (size_t)k * SLOT, size_of(k), PTL_ACK_REQ,
                         who(r), pt, B_PUT, (size_t)k * SLOT, NULL,
                         (ptl_hdr_data_t)k) == PTL_OK);
            /* the same source bytes go to the next peer: wait */
            wait_until(&want_sends, &want_acks, &nz);
        }
        want_replies++;
        CHECK(PtlGet(mdget, 0, GETLEN, who(r), pt, B_GET, 0, NULL) ==
              PTL_OK);
        wait_until(&want_replies, &nz, &nz);
        for (uint32_t i = 0; i < GETLEN; i++)
            CHECK(getbuf[i] == (uint8_t)(r * 11 + i));
    }
    if (rank != 0) {
        for (int i = 0; i < NATOMIC; i++) {
            want_sends++, want_replies++;
            CHECK(PtlFetchAtomic(mdfetch, (size_t)i * 8, mdone, 0, 8,
                                 who(0), pt, B_ATOM, 0, NULL, 0, PTL_SUM,
                                 PTL_UINT64_T) == PTL_OK);
        }
        wait_until(&want_sends, &want_replies, &nz);
    }
    for (int r = 0; r < nprocs; r++) {
        if (r == rank)
            continue;
        want_sends++;
        CHECK(PtlPut(mdone, 0, 0, PTL_NO_ACK_REQ, who(r), pt, B_DONE, 0,
                     NULL, 0) == PTL_OK);
    }
    wait_until(&want_sends, &want_puts, &want_dones);
    if (rank == 0)
        CHECK(counter == (uint64_t)NATOMIC * (uint64_t)(nprocs - 1));
    printf("rank %d of %d: ok\n", rank, nprocs);
    PtlNIFini(ni);
    PtlFini();
    return 0;
}
