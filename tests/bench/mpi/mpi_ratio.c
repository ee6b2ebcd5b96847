/* SPDX-License-Identifier: MIT */
/*
 * mpi_ratio.c: MPI against raw Portals in one job, block by block
 * (benchmark, not a test).  Ranks 0 and 1 take turns through six kinds,
 * a block of each, CYCLES times; messages of SIZE bytes:
 *   raw    ping-pong, PtlPut without ACK into a persistent entry (as
 *          tests/net/pingpong.c): the floor
 *   rawack the same, each put asking for an ACK that its sender waits for
 *          before it waits for the answer (what a blocking send needs:
 *          its buffer may not be reused before)
 *   late   MPI_Send, then MPI_Recv (the receive posted after the send)
 *   pre    MPI_Irecv of the answer, MPI_Send, MPI_Wait
 *   rawbw  streaming: WINDOW puts without ACK back to back, an empty put
 *          back once all landed (the OSU suite's windowed bandwidth test)
 *   mpibw  the same with MPI_Isend / pre-posted MPI_Irecv, MPI_Waitall
 * A ping-pong block is ROUNDS round trips, a streaming block ROUNDS / 8
 * windows (at least one).  The raw kinds use a second NI of the same
 * process (physical, matching) beside MPI's.  A block's figure is the
 * median of its rounds' half round trips, or of its windows' time per
 * message; a cycle's ratio is a kind's block against the raw (rawbw)
 * block of the same cycle, milliseconds apart, so a host whose speed
 * drifts over seconds (a loaded 2-core machine running both nodes) moves
 * both alike.  Rank 0 prints per kind the median block (us) and the
 * median and quartiles of the ratios over the cycles.
 * Usage (yod -sz 2): mpi-ratio SIZE [CYCLES [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "portals4.h"
#include "../median.h"

enum { RAW, RAWACK, LATE, PRE, RAWBW, MPIBW, KINDS };
static const char *const kind_name[KINDS] = {
    "raw", "rawack", "late", "pre", "rawbw", "mpibw"
};
/* What each kind is compared with. */
static const int base_of[KINDS] = { RAW, RAW, RAW, RAW, RAWBW, RAWBW };
#define WINDOW 16               /* messages in flight when streaming */

static int rank;
static MPI_Comm pair;                   /* ranks 0 and 1 */
static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq, ieq;
static ptl_handle_md_t md;
static ptl_pt_index_t pt;
static ptl_process_t peer;

#define CHECK(x) do { int rc_ = (x); if (rc_ != PTL_OK) { \
    fprintf(stderr, "mpi-ratio: %s failed: %d\n", #x, rc_); \
    MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

/* The raw kinds' NI, entry and MD; the peer's id comes over MPI. */
static void raw_setup(char *sbuf, char *rbuf, size_t size)
{
    ptl_process_t me;

    CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                    PTL_PID_ANY, NULL, NULL, &ni));
    CHECK(PtlGetPhysId(ni, &me));
    MPI_Sendrecv(&me, sizeof me, MPI_BYTE, 1 - rank, 99, &peer, sizeof peer,
                 MPI_BYTE, 1 - rank, 99, pair, MPI_STATUS_IGNORE);
    CHECK(PtlEQAlloc(ni, 1024, &eq));
    CHECK(PtlEQAlloc(ni, 64, &ieq));
    CHECK(PtlPTAlloc(ni, 0, eq, PTL_PT_ANY, &pt));
    ptl_me_t m = {
        .start = rbuf, .length = size, .ct_handle = PTL_CT_NONE,
        .uid = PTL_UID_ANY, .match_id = peer, .match_bits = 1,
        .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
    };
    ptl_handle_me_t h;
    CHECK(PtlMEAppend(ni, pt, &m, PTL_PRIORITY_LIST, NULL, &h));
    ptl_md_t d = { .start = sbuf, .length = size ? size : 1,
                   .eq_handle = ieq, .ct_handle = PTL_CT_NONE,
                   .options = PTL_MD_EVENT_SEND_DISABLE };
    CHECK(PtlMDBind(ni, &d, &md));
    MPI_Barrier(pair);                  /* both entries are in place */
}

static void raw_wait(ptl_handle_eq_t q, ptl_event_kind_t want)
{
    ptl_event_t ev;

    do {
        CHECK(PtlEQWait(q, &ev));
        if (ev.ni_fail_type != PTL_NI_OK) {
            fprintf(stderr, "mpi-ratio: event %d failed: %d\n", ev.type,
                    ev.ni_fail_type);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } while (ev.type != want);
}

static void raw_put(size_t size, int ack)
{
    CHECK(PtlPut(md, 0, size, ack ? PTL_ACK_REQ : PTL_NO_ACK_REQ, peer, pt,
                 1, 0, NULL, 0));
    if (ack)
        raw_wait(ieq, PTL_EVENT_ACK);
}

/* Streaming, one window: rank 0 sends WINDOW messages back to back,
   rank 1 answers with an empty message once it has them all (the
   windowed bandwidth test of the OSU suite).  MPI: rank 1 posted this
   window's receives before and posts the next window's before it
   answers (`more`), so no message comes before its receive. */
static void window(int k, char *buf, char *wbuf, int size, MPI_Request *rq,
                   int more)
{
    MPI_Request sq[WINDOW];

    if (k == RAWBW) {
        for (int i = 0; i < WINDOW && rank == 0; i++)
            raw_put((size_t)size, 0);
        for (int i = 0; i < (rank == 0 ? 1 : WINDOW); i++)
            raw_wait(eq, PTL_EVENT_PUT);
        if (rank == 1)
            raw_put(0, 0);
        return;
    }
    if (rank == 0) {
        for (int i = 0; i < WINDOW; i++)
            MPI_Isend(buf, size, MPI_BYTE, 1, 1, pair, &sq[i]);
        MPI_Waitall(WINDOW, sq, MPI_STATUSES_IGNORE);
        MPI_Recv(buf, 0, MPI_BYTE, 1, 2, pair, MPI_STATUS_IGNORE);
        return;
    }
    MPI_Waitall(WINDOW, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < WINDOW && more; i++)
        MPI_Irecv(wbuf + (size_t)i * (size_t)size, size, MPI_BYTE, 0, 1, pair,
                  &rq[i]);
    MPI_Send(buf, 0, MPI_BYTE, 0, 2, pair);
}

/* One round trip of kind k; rank 1 answers. */
static void round_trip(int k, char *buf, int size, MPI_Request *rq)
{
    int other = 1 - rank;

    switch (k) {
    case RAW:
    case RAWACK:
        if (rank == 0)
            raw_put((size_t)size, k == RAWACK);
        raw_wait(eq, PTL_EVENT_PUT);
        if (rank == 1)
            raw_put((size_t)size, k == RAWACK);
        break;
    case LATE:
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, other, 0, pair);
            MPI_Recv(buf, size, MPI_BYTE, other, 0, pair,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, other, 0, pair,
                     MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, other, 0, pair);
        }
        break;
    case PRE:                   /* rank 1's receive was posted before */
        if (rank == 0) {
            MPI_Irecv(buf, size, MPI_BYTE, other, 0, pair, rq);
            MPI_Send(buf, size, MPI_BYTE, other, 0, pair);
            MPI_Wait(rq, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(rq, MPI_STATUS_IGNORE);
            MPI_Irecv(buf, size, MPI_BYTE, other, 0, pair, rq);
            MPI_Send(buf, size, MPI_BYTE, other, 0, pair);
        }
        break;
    }
}

/* A block of `rounds` round trips or windows (one more to start it): the
   median of their half round trips, or of their time per message, in us
   (rank 0's figure). */
static double block(int k, char *buf, char *wbuf, int size, int rounds,
                    double *t)
{
    MPI_Request rq[WINDOW];
    int bw = k == RAWBW || k == MPIBW;

    for (int i = 0; i < WINDOW; i++)
        rq[i] = MPI_REQUEST_NULL;
    MPI_Barrier(pair);
    if (k == PRE && rank == 1)
        MPI_Irecv(buf, size, MPI_BYTE, 0, 0, pair, &rq[0]);
    for (int i = 0; i < WINDOW && k == MPIBW && rank == 1; i++)
        MPI_Irecv(wbuf + (size_t)i * (size_t)size, size, MPI_BYTE, 0, 1, pair,
                  &rq[i]);
    if (bw)
        rounds = rounds / 8 > 0 ? rounds / 8 : 1;
    for (int i = -1; i < rounds; i++) {         /* -1 warms up */
        double t0 = MPI_Wtime();

        if (bw)
            window(k, buf, wbuf, size, rq, i < rounds - 1);
        else
            round_trip(k, buf, size, &rq[0]);
        if (i >= 0)
            t[i] = (MPI_Wtime() - t0) / (bw ? WINDOW : 2) * 1e6;
    }
    if (rq[0] != MPI_REQUEST_NULL) {            /* rank 1's last, unused */
        MPI_Cancel(&rq[0]);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    }
    return bench_median(t, rounds);
}

int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 0;
    int cycles = argc > 2 ? atoi(argv[2]) : 20;
    int rounds = argc > 3 ? atoi(argv[3]) : 50;
    char *buf, *sbuf, *rbuf, *wbuf;
    double *t, *fig[KINDS];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    buf = calloc(1, (size_t)size + 1);
    sbuf = calloc(1, (size_t)size + 1);
    rbuf = calloc(1, (size_t)size + 1);
    wbuf = calloc(WINDOW, (size_t)size + 1);
    t = malloc(sizeof(double) * (size_t)(rounds > 0 ? rounds : 1));
    for (int k = 0; k < KINDS; k++)
        fig[k] = malloc(sizeof(double) * (size_t)(cycles > 0 ? cycles : 1));
    if (!buf || !sbuf || !rbuf || !wbuf || !t || !fig[KINDS - 1] || size < 0 ||
        cycles < 1 || rounds < 1) {
        fprintf(stderr, "usage: mpi-ratio SIZE [CYCLES [ROUNDS]] (CYCLES and "
                "ROUNDS at least 1; memory for three SIZE-byte buffers)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (rank < 2) {
        raw_setup(sbuf, rbuf, (size_t)size);
        for (int c = 0; c < cycles; c++)
            for (int k = 0; k < KINDS; k++)
                fig[k][c] = block(k, buf, wbuf, size, rounds, t);
    }
    if (rank == 0) {
        printf("mpi-ratio: %d B, %d cycles of %d round trips per kind\n",
               size, cycles, rounds);
        printf("kind,bytes,us,ratio,q1,q3\n");
        for (int k = KINDS - 1; k >= 0; k--) {     /* bases last: r needs them */
            double r[cycles], rm;

            for (int c = 0; c < cycles; c++)
                r[c] = fig[k][c] / fig[base_of[k]][c];
            rm = bench_median(r, cycles);
            printf("%s,%d,%.2f,%.3f,%.3f,%.3f\n", kind_name[k], size,
                   bench_median(fig[k], cycles), rm, r[cycles / 4],
                   r[(3 * cycles) / 4]);
        }
    }
    MPI_Finalize();
    return 0;
}
