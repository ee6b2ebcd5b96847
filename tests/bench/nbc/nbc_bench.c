/* SPDX-License-Identifier: MIT */
/*
 * nbc_bench.c: MPI_Ibarrier, MPI_Iallreduce and MPI_Ibcast against
 * MPI_Barrier, MPI_Allreduce and MPI_Bcast, and how much of a nonblocking collective the caller can
 * hide behind computation (the measure of the OSU micro-benchmarks):
 *   blocking  microseconds per blocking call
 *   nb        the nonblocking call then MPI_Wait at once
 *   spin, test, idle
 *             the call, C of computation of that kind, MPI_Wait, with
 *             C = nb times FACTOR (1 unless given), each followed by its
 *             overlap: 1 - after / nb, where after is the time from the
 *             end of the computation to the end of MPI_Wait; from 0
 *             (none of the collective done while computing) to 1 (all
 *             of it).  The kinds:
 *     spin    spinning on MPI_Wtime until C has passed, no MPI call
 *     test    the same with an MPI_Test after each sixteenth of C (a
 *             code that lets the library progress now and then)
 *     idle    the CPU given up until C has passed (on a node, asleep in
 *             the kernel, which still takes the NIC's interrupts; on
 *             Linux, nanosleep): work that takes nothing from the host,
 *             whose cores also run the nodes' emulated NICs, so it shows
 *             what the library and kernel do alone
 * A computation can end late (the host takes the CPU from a node, a
 * sleeping node wakes late): after is counted from its real end, so
 * that lengthens the total, not what was left.  Every figure is the median over
 * ITERS rounds on each rank, then the largest over the ranks; rank 0
 * prints
 *   nbc,OP,BYTES,RANKS,blocking,nb,spin,overlap,test,overlap,idle,overlap
 * (times in microseconds) for OP barrier (0 bytes), allreduce (a sum of
 * doubles) of 8 B, 512 B (both triggered: mpi/nbc_tcoll.c) and 8 KiB (a
 * software schedule), bcast from rank 0 of 8 B, 4 KiB (triggered) and
 * 8 KiB (software).
 * Usage: nbc-bench [ITERS [FACTOR]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "mpi.h"
#ifdef __lwk__
#include <lwk/syscall.h>
#endif
#include "../median.h"

#define SLICES 16

static double *sbuf, *rbuf;
static double *t, *t_after;

/* Give the CPU up until t_end (MPI_Wtime). */
static void idle_until(double t_end)
{
#ifdef __lwk__
    struct timespec ts;
    long seen = 0;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    /* Asleep in the kernel until the deadline, waking at each network
     * event of ours (the kernel has handled it by then). */
    long long deadline = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec +
                         (long long)((t_end - MPI_Wtime()) * 1e9);
    while (MPI_Wtime() < t_end)
        seen = lwk_sys_ptl_wait(deadline, seen);
#else
    double left;

    while ((left = t_end - MPI_Wtime()) > 0) {
        struct timespec ts = { (time_t)left,
                               (long)((left - (time_t)left) * 1e9) };
        nanosleep(&ts, NULL);
    }
#endif
}

/* c seconds of computation of kind mode (2 spin, 3 test, 4 idle). */
static void compute(double c, int mode, MPI_Request *rq)
{
    double t0 = MPI_Wtime();
    int flag;

    if (mode == 4) {
        idle_until(t0 + c);
        return;
    }
    for (int s = 1; s <= SLICES; s++) {
        while (MPI_Wtime() - t0 < c * s / SLICES)
            ;
        if (mode == 3)
            MPI_Test(rq, &flag, MPI_STATUS_IGNORE);
    }
}

enum { BARRIER, ALLREDUCE, BCAST };

static void start(int op, int count, MPI_Request *rq)
{
    if (op == BARRIER)
        MPI_Ibarrier(MPI_COMM_WORLD, rq);
    else if (op == ALLREDUCE)
        MPI_Iallreduce(sbuf, rbuf, count, MPI_DOUBLE, MPI_SUM,
                       MPI_COMM_WORLD, rq);
    else
        MPI_Ibcast(sbuf, count, MPI_DOUBLE, 0, MPI_COMM_WORLD, rq);
}

static void blocking(int op, int count)
{
    if (op == BARRIER)
        MPI_Barrier(MPI_COMM_WORLD);
    else if (op == ALLREDUCE)
        MPI_Allreduce(sbuf, rbuf, count, MPI_DOUBLE, MPI_SUM,
                      MPI_COMM_WORLD);
    else
        MPI_Bcast(sbuf, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* One way of doing the collective, iters rounds: mode 0 blocking, 1
 * nonblocking alone, 2..4 with computation c of that kind (compute).
 * Sets *total to the median time per round and *after to the median
 * time from the end of the computation to the end of MPI_Wait (what of
 * the collective was left), each the largest over the ranks. */
static void measure(int op, int count, int mode, double c, int iters,
                    double *total, double *after)
{
    double v[2], worst[2];
    MPI_Request rq = MPI_REQUEST_NULL;

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = -2; i < iters; i++) {           /* two warm-up rounds */
        double t0 = MPI_Wtime(), t1 = t0;
        if (mode == 0)
            blocking(op, count);
        else {
            start(op, count, &rq);
            if (mode >= 2)
                compute(c, mode, &rq);
            t1 = MPI_Wtime();
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
        }
        if (i >= 0) {
            t[i] = MPI_Wtime() - t0;
            t_after[i] = MPI_Wtime() - t1;
        }
    }
    v[0] = bench_median(t, iters);
    v[1] = bench_median(t_after, iters);
    MPI_Allreduce(v, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *total = worst[0];
    if (after != NULL)
        *after = worst[1];
}

/* The fraction of the collective (nb long alone) done by the time the
 * computation ended. */
static double overlap(double after, double nb)
{
    double o = 1.0 - after / nb;

    return o < 0 ? 0 : o > 1 ? 1 : o;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; int op, count; } cases[] = {
        { "barrier", BARRIER, 0 }, { "allreduce", ALLREDUCE, 1 },
        { "allreduce", ALLREDUCE, 64 }, { "allreduce", ALLREDUCE, 1024 },
        { "bcast", BCAST, 1 }, { "bcast", BCAST, 512 },
        { "bcast", BCAST, 1024 },
    };
    int rank, n, iters;
    double factor;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    iters = argc > 1 ? atoi(argv[1]) : 100;
    factor = argc > 2 ? atof(argv[2]) : 1;
    if (iters < 1)
        iters = 1;
    t = malloc(sizeof(double) * (size_t)iters);
    t_after = malloc(sizeof(double) * (size_t)iters);
    sbuf = calloc(1024, sizeof(double));
    rbuf = calloc(1024, sizeof(double));
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        int op = cases[k].op, count = cases[k].count;
        double b, nb, tot, after;

        measure(op, count, 0, 0, iters, &b, NULL);
        measure(op, count, 1, 0, iters, &nb, NULL);
        if (rank == 0)
            printf("nbc,%s,%zu,%d,%.1f,%.1f", cases[k].name,
                   (size_t)count * sizeof(double), n, b * 1e6, nb * 1e6);
        for (int mode = 2; mode <= 4; mode++) {
            measure(op, count, mode, nb * factor, iters, &tot, &after);
            if (rank == 0)
                printf(",%.1f,%.2f", tot * 1e6, overlap(after, nb));
        }
        if (rank == 0)
            printf("\n");
    }
    fflush(stdout);
    free(t);
    free(t_after);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
