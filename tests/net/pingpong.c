/* SPDX-License-Identifier: MIT */
/*
 * pingpong: Portals put ping-pong between two processes, every size from
 * 0 B to MAX (powers of two), with the data checked.  The same source runs
 * on a compute node (lwkcc) and on Linux (libportals), so it measures both
 * and tests them against each other.
 *
 *   pingpong [-s MINBYTES] [-m MAXBYTES] [-r ROUNDS] [-a] [-k] [-o] [-p PID]
 *            NID_A NID_B
 *
 * Sizes go from MINBYTES (default 0) to MAXBYTES.
 * The process on NID_A pings, the one on NID_B answers; a process on any
 * other nid has nothing to do and exits 0.  Each round puts `size` bytes
 * into the peer's buffer and waits for the same back.  Bytes carry a
 * pattern of (size, round, sender): the first and last round of every size
 * are checked byte by byte (every round with -a).  With -k every ping and
 * pong asks for an ACK and its sender waits for it before going on, as a
 * blocking MPI_Send does (the cost of the ACK on this path).  NID_A prints one CSV
 * line per size, "pp,<bytes>,<rounds>,<half-rtt us>,<MB/s>,<median us>",
 * then "pingpong: OK"; any error ends the process with status 1 and a
 * reason.  The first figure is the mean over the timed rounds, the last
 * the median of the rounds' own half round trips: on a shared host a
 * burst of stolen CPU time moves the mean of a whole size, the median
 * only if it lasts through half the rounds.
 *
 * With -o (one way) NID_A only sends, without ACKs, and times each put
 * from PtlPut to its SEND event (the link has acknowledged every frame:
 * the buffer may be reused); NID_B only receives and checks.  Its lines
 * are "ow,<bytes>,<rounds>,<mean us>,<MB/s>,<median us>".  After each
 * size, untimed, NID_B says it has checked the last round (a 0-byte put)
 * before NID_A sends the next size into the same buffer.  A receiver
 * that waits owes nothing it could carry in data, so its link ACK should
 * come at once, not after the node's ACK delay (ptl.ack_us).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "portals4.h"
#include "../bench/median.h"

#define PROG "pingpong"
static unsigned self;
#include "node_test.h"

#define HELLO   1ull            /* match bits: the handshake */
#define DATA    2ull            /* match bits: a ping or pong */

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_pt_index_t pt;
static ptl_handle_md_t md;
static uint8_t *sbuf, *rbuf;

static uint8_t pat(uint64_t size, int round, unsigned from, uint64_t i)
{
    return (uint8_t)(i * 131 + (i >> 8) + size * 7 + (unsigned)round * 29 +
                     from * 101);
}

static void fill(uint64_t size, int round)
{
    for (uint64_t i = 0; i < size; i++)
        sbuf[i] = pat(size, round, self, i);
}

static void verify(uint64_t size, int round, unsigned from)
{
    for (uint64_t i = 0; i < size; i++)
        if (rbuf[i] != pat(size, round, from, i))
            DIE("size %llu round %d: byte %llu is %u, expected %u",
                (unsigned long long)size, round, (unsigned long long)i,
                rbuf[i], pat(size, round, from, i));
}

/* The next ping or pong that landed in our buffer; any failed event ends
   the test. */
static ptl_event_t wait_put(void)
{
    ptl_event_t ev;

    for (;;) {
        int rc = PtlEQWait(eq, &ev);
        if (rc != PTL_OK)
            DIE("PtlEQWait: %d", rc);
        if (ev.ni_fail_type != PTL_NI_OK)
            DIE("event %d failed: ni_fail_type %d", ev.type,
                ev.ni_fail_type);
        if (ev.type == PTL_EVENT_PUT && ev.match_bits == DATA)
            return ev;          /* (the peer's hello is not a ping) */
    }
}

static ptl_handle_eq_t ieq;
static int acks;                /* -k */
static int oneway;              /* -o */

/* Send size bytes; with -k, return once the target's ACK is in, with -o
   once the SEND event is. */
static void put(ptl_process_t to, uint64_t size, ptl_match_bits_t bits)
{
    ptl_event_t ev;

    CHECK(PtlPut(md, 0, size, acks ? PTL_ACK_REQ : PTL_NO_ACK_REQ, to, pt,
                 bits, 0, NULL, 0));
    while (acks || oneway) {
        CHECK(PtlEQWait(ieq, &ev));
        if (ev.ni_fail_type != PTL_NI_OK)
            DIE("event %d failed: ni_fail_type %d", ev.type,
                ev.ni_fail_type);
        if (ev.type == (acks ? PTL_EVENT_ACK : PTL_EVENT_SEND))
            break;
    }
}

static int rounds_for(uint64_t size, int fixed)
{
    if (fixed)
        return fixed;
    if (size <= 4096)
        return 200;
    return size >= (1u << 20) ? 5 : (int)(800000 / size) + 5;
}

int main(int argc, char **argv)
{
    uint64_t max = 4u << 20, min = 0;
    int fixed = 0, all = 0, i;
    /* Under yod a rank may open only its job map's pid (PTL_PID); alone
       on a node (tools/cluster --run) or on Linux, 7 unless -p says. */
    ptl_pid_t pid = getenv("PTL_PID") ? (ptl_pid_t)atoi(getenv("PTL_PID")) : 7;
    ptl_process_t peer;
    unsigned a, b;

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-a"))
            all = 1;
        else if (!strcmp(argv[i], "-k"))
            acks = 1;
        else if (!strcmp(argv[i], "-o"))
            oneway = 1;
        else if (!strcmp(argv[i], "-m") && i + 1 < argc)
            max = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            min = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            fixed = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p") && i + 1 < argc)
            pid = (ptl_pid_t)atoi(argv[++i]);
        else
            break;
    }
    if (argc - i != 2 || (acks && oneway)) {
        fprintf(stderr, "usage: pingpong [-s MINBYTES] [-m MAXBYTES] "
                "[-r ROUNDS] [-a] [-k | -o] [-p PID] NID_A NID_B\n");
        return 2;
    }
    a = (unsigned)atoi(argv[i]);
    b = (unsigned)atoi(argv[i + 1]);

    if (!pair_open(pid, a, b, &ni, &peer))
        return 0;
    if (!(sbuf = malloc(max ? max : 1)) || !(rbuf = malloc(max ? max : 1)))
        DIE("no memory for two %llu-byte buffers", (unsigned long long)max);

    CHECK(PtlEQAlloc(ni, 1024, &eq));
    CHECK(PtlEQAlloc(ni, 64, &ieq));
    CHECK(PtlPTAlloc(ni, 0, eq, PTL_PT_ANY, &pt));
    ptl_me_t me_data = {
        .start = rbuf, .length = max, .ct_handle = PTL_CT_NONE,
        .uid = PTL_UID_ANY, .match_id = peer, .match_bits = DATA,
        .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
    }, me_hello = me_data;
    me_hello.start = NULL, me_hello.length = 0, me_hello.match_bits = HELLO;
    ptl_handle_me_t h;
    CHECK(PtlMEAppend(ni, pt, &me_hello, PTL_PRIORITY_LIST, NULL, &h));
    CHECK(PtlMEAppend(ni, pt, &me_data, PTL_PRIORITY_LIST, NULL, &h));
    /* Handshake puts report to ieq; pings and pongs raise no initiator
       events (the answer tells they arrived), unless -k asks for ACKs. */
    ptl_md_t d = { .start = sbuf, .length = max, .eq_handle = ieq,
                   .ct_handle = PTL_CT_NONE };
    CHECK(PtlMDBind(ni, &d, &md));

    handshake(md, ieq, pt, HELLO, peer);
    d.eq_handle = acks || oneway ? ieq : PTL_EQ_NONE;
    CHECK(PtlMDRelease(md));
    CHECK(PtlMDBind(ni, &d, &md));

    double *rtt = malloc(sizeof(double) * (size_t)(fixed > 200 ? fixed : 200));
    if (!rtt)
        DIE("no memory for the round times");
    int div = oneway ? 1 : 2;   /* a round: one put, or a round trip */

    for (uint64_t size = min; size <= max; size = size ? size * 2 : 1) {
        int n = rounds_for(size, fixed);
        double t0 = 0, tr = 0;

        for (int r = 0; r < n; r++) {
            int check = all || r == 0 || r == n - 1;
            double t = now_us();
            if (r == 1)
                t0 = t;         /* round 0 warms up */
            if (r > 1)
                rtt[r - 2] = (t - tr) / div;
            tr = t;
            if (self == a) {
                if (check)
                    fill(size, r);
                put(peer, size, DATA);
                if (oneway)
                    continue;
                ptl_event_t ev = wait_put();
                if (ev.mlength != size)
                    DIE("size %llu: pong of %llu bytes",
                        (unsigned long long)size,
                        (unsigned long long)ev.mlength);
                if (check)
                    verify(size, r, peer.phys.nid);
            } else {
                ptl_event_t ev = wait_put();
                if (ev.mlength != size)
                    DIE("size %llu: ping of %llu bytes",
                        (unsigned long long)size,
                        (unsigned long long)ev.mlength);
                if (check)
                    verify(size, r, peer.phys.nid);
                if (oneway)
                    continue;
                if (check)
                    fill(size, r);
                put(peer, size, DATA);
            }
        }
        if (self == a && n > 1) {
            double t = now_us(), half = (t - t0) / (n - 1) / div;
            rtt[n - 2] = (t - tr) / div;
            printf("%s,%llu,%d,%.1f,%.1f,%.1f\n", oneway ? "ow" : "pp",
                   (unsigned long long)size, n, half, size / half,
                   bench_median(rtt, n - 1));
            fflush(stdout);
        }
        if (oneway && self == a)
            wait_put();             /* checked: the buffer is free */
        else if (oneway)
            put(peer, 0, DATA);
        if (size == max)
            break;
    }
    if (self == a)
        printf("pingpong: OK\n");
    PtlNIFini(ni);
    PtlFini();
    return 0;
}
