/* SPDX-License-Identifier: MIT */
/*
 * threads.c: libportals under threads, built with ThreadSanitizer.
 *
 * Two stations in one process (nids 1 and 2 on the unix: link, each with
 * its own NI), every thread on one NI: on each side 2 threads put to the
 * other side (ACKs counted on a CT, at most 32 in flight, waiting in
 * PtlCTWait), 1 thread waits in PtlEQWait and 1 polls PtlEQGet on the
 * side's EQ.  Each message is 1400 bytes at its own offset; whoever takes
 * its PUT event checks every byte, its sequence number, and that no
 * message arrives twice.  The end: each side puts two STOP messages to
 * itself (a self-send), which the waiter and the poller take and leave.
 *
 *   ptl-test-threads DIR MESSAGES_PER_SENDER
 *
 * Prints "threads: OK ..." and exits 0, or names what was wrong and exits
 * 1 (ThreadSanitizer exits 66 on a race).  PTL_PROGRESS picks the mode.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portals4.h"
#include "ptl_linux.h"

#define SZ       1400
#define INFLIGHT 32
#define SENDERS  2              /* per side */
#define STOP     0xffff

struct side {
    unsigned iface;
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_process_t id;
    uint8_t *rbuf[SENDERS];     /* what the other side's senders put here */
    atomic_uchar *seen[SENDERS];
    atomic_uint received;
    struct side *peer;
};

static struct side sides[2];
static unsigned nmsg;
static atomic_int errors;

static uint8_t pattern(unsigned side, unsigned s, unsigned seq, unsigned i)
{
    return (uint8_t)(side * 131 + s * 71 + seq * 29 + i * 7 + (i >> 8));
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "threads: %s failed: %d\n", what, rc);
    exit(1);
}

#define CHECK(call) do { int rc_ = (call); if (rc_ != PTL_OK) die(#call, rc_); } while (0)

static void bad(const char *fmt, unsigned a, unsigned b, unsigned c)
{
    fprintf(stderr, "threads: ");
    fprintf(stderr, fmt, a, b, c);
    fputc('\n', stderr);
    atomic_fetch_add(&errors, 1);
}

/* A PUT event: the message it names must be whole and new. */
static bool take(struct side *me, const ptl_event_t *ev)
{
    unsigned s = (unsigned)ev->match_bits, seq = (unsigned)ev->hdr_data;
    unsigned from = (unsigned)(me->peer - sides);
    const uint8_t *p = ev->start;

    if (ev->type != PTL_EVENT_PUT)
        return false;
    if (s == STOP)
        return true;
    if (ev->ni_fail_type != PTL_NI_OK || s >= SENDERS || seq >= nmsg ||
        ev->mlength != SZ || p != me->rbuf[s] + (size_t)seq * SZ) {
        bad("bad PUT event: sender %u seq %u fail %u", s, seq,
            ev->ni_fail_type);
        return false;
    }
    for (unsigned i = 0; i < SZ; i++)
        if (p[i] != pattern(from, s, seq, i)) {
            bad("sender %u message %u: byte %u corrupted", s, seq, i);
            break;
        }
    if (atomic_exchange(&me->seen[s][seq], 1) != 0)
        bad("sender %u message %u arrived twice (side %u)", s, seq, from);
    atomic_fetch_add(&me->received, 1);
    return false;
}

static void *waiter(void *arg)
{
    struct side *me = arg;
    ptl_event_t ev;

    for (;;) {
        int rc = PtlEQWait(me->eq, &ev);
        if (rc != PTL_OK)
            die("PtlEQWait", rc);
        if (take(me, &ev))
            return NULL;
    }
}

static void *poller(void *arg)
{
    struct side *me = arg;
    ptl_event_t ev;

    for (;;) {
        int rc = PtlEQGet(me->eq, &ev);
        if (rc == PTL_EQ_EMPTY) {
            sched_yield();
            continue;
        }
        if (rc != PTL_OK)
            die("PtlEQGet", rc);
        if (take(me, &ev))
            return NULL;
    }
}

struct sender {
    struct side *me;
    unsigned s;
    pthread_t t;
};

static void *sender(void *arg)
{
    struct sender *sd = arg;
    struct side *me = sd->me;
    unsigned side = (unsigned)(me - sides);
    uint8_t *buf = malloc((size_t)nmsg * SZ);
    ptl_handle_ct_t ct;
    ptl_handle_md_t md;
    ptl_ct_event_t c;
    ptl_md_t d;

    if (buf == NULL)
        die("malloc", -1);
    CHECK(PtlCTAlloc(me->ni, &ct));
    d = (ptl_md_t){ .start = buf, .length = (ptl_size_t)nmsg * SZ,
                    .options = PTL_MD_EVENT_SUCCESS_DISABLE |
                               PTL_MD_EVENT_CT_ACK,
                    .eq_handle = PTL_EQ_NONE, .ct_handle = ct };
    CHECK(PtlMDBind(me->ni, &d, &md));
    for (unsigned seq = 0; seq < nmsg; seq++) {
        for (unsigned i = 0; i < SZ; i++)
            buf[(size_t)seq * SZ + i] = pattern(side, sd->s, seq, i);
        if (seq >= INFLIGHT)
            CHECK(PtlCTWait(ct, seq - INFLIGHT + 1, &c));
        CHECK(PtlPut(md, (ptl_size_t)seq * SZ, SZ, PTL_ACK_REQ, me->peer->id,
                     0, sd->s, (ptl_size_t)seq * SZ, NULL, seq));
    }
    CHECK(PtlCTWait(ct, nmsg, &c));
    if (c.failure != 0)
        bad("side %u sender %u: %u puts failed", side, sd->s,
            (unsigned)c.failure);
    CHECK(PtlMDRelease(md));
    CHECK(PtlCTFree(ct));
    free(buf);
    return NULL;
}

static void open_side(struct side *me, unsigned iface, const char *spec)
{
    ptl_pt_index_t pt;
    ptl_handle_me_t meh;

    me->iface = iface;
    me->id.phys.nid = iface + 1;
    me->id.phys.pid = 7;
    CHECK(ptl_linux_iface_open(iface, spec, me->id.phys.nid, 7, 0));
    CHECK(PtlNIInit(iface, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 7, NULL, NULL,
                    &me->ni));
    CHECK(PtlEQAlloc(me->ni, 4096, &me->eq));
    CHECK(PtlPTAlloc(me->ni, 0, me->eq, 0, &pt));
    for (unsigned s = 0; s <= SENDERS; s++) {
        ptl_me_t m = { .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                       .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                       .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY } };
        if (s < SENDERS) {
            me->rbuf[s] = calloc(nmsg, SZ);
            me->seen[s] = calloc(nmsg, 1);
            if (me->rbuf[s] == NULL || me->seen[s] == NULL)
                die("calloc", -1);
            m.start = me->rbuf[s];
            m.length = (ptl_size_t)nmsg * SZ;
            m.match_bits = s;
        } else {
            m.match_bits = STOP;
        }
        CHECK(PtlMEAppend(me->ni, 0, &m, PTL_PRIORITY_LIST, NULL, &meh));
    }
}

int main(int argc, char **argv)
{
    char spec[300];
    pthread_t w[2], p[2];
    struct sender sd[2][SENDERS];
    ptl_handle_md_t md;
    ptl_md_t d = { .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE };

    if (argc != 3 || (nmsg = (unsigned)atoi(argv[2])) == 0) {
        fprintf(stderr, "usage: %s DIR MESSAGES_PER_SENDER\n", argv[0]);
        return 2;
    }
    snprintf(spec, sizeof(spec), "unix:%s", argv[1]);
    CHECK(PtlInit());
    sides[0].peer = &sides[1];
    sides[1].peer = &sides[0];
    open_side(&sides[0], 0, spec);
    open_side(&sides[1], 1, spec);
    for (int i = 0; i < 2; i++) {
        pthread_create(&w[i], NULL, waiter, &sides[i]);
        pthread_create(&p[i], NULL, poller, &sides[i]);
        for (unsigned s = 0; s < SENDERS; s++) {
            sd[i][s] = (struct sender){ .me = &sides[i], .s = s };
            pthread_create(&sd[i][s].t, NULL, sender, &sd[i][s]);
        }
    }
    for (int i = 0; i < 2; i++)
        for (unsigned s = 0; s < SENDERS; s++)
            pthread_join(sd[i][s].t, NULL);
    /* Every ACK is in, so every message landed; now stop the consumers
     * with two puts to ourselves. */
    for (int i = 0; i < 2; i++) {
        CHECK(PtlMDBind(sides[i].ni, &d, &md));
        for (int k = 0; k < 2; k++)
            CHECK(PtlPut(md, 0, 0, PTL_NO_ACK_REQ, sides[i].id, 0, STOP, 0,
                         NULL, 0));
        pthread_join(w[i], NULL);
        pthread_join(p[i], NULL);
        if (sides[i].received != SENDERS * nmsg)
            bad("side %u received %u messages of %u", i,
                sides[i].received, SENDERS * nmsg);
    }
    for (int i = 0; i < 2; i++) {
        PtlNIFini(sides[i].ni);
        ptl_linux_iface_close(sides[i].iface);
    }
    PtlFini();
    if (errors != 0) {
        fprintf(stderr, "threads: %d errors\n", errors);
        return 1;
    }
    printf("threads: OK, %u messages of %u bytes each way, every byte "
           "checked (progress %s)\n", SENDERS * nmsg, SZ,
           getenv("PTL_PROGRESS") ? getenv("PTL_PROGRESS") : "thread");
    return 0;
}
