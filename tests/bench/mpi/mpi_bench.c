/* SPDX-License-Identifier: MIT */
/*
 * mpi_bench.c: MPI ping-pong half round trip between ranks 0 and 1
 * (MPI_Send/MPI_Recv, pre-posted receive not assumed), the same method as
 * tests/bench/portals/ptl_bench.c: one warm-up round trip, then ITERS;
 * rank 0 prints microseconds per one-way trip: the mean over the ITERS
 * round trips, then their median (tests/bench/median.h).  With "pre",
 * each rank posts its next receive (MPI_Irecv) before it sends, so every
 * message finds its receive waiting (an eager one lands in place); without,
 * the receive is posted after the send returns and the message may arrive
 * first (an eager one is copied out of an overflow block).
 * With "stream", rank 0 sends ITERS messages back to back (MPI_Send),
 * rank 1 receives them and answers once at the end; rank 0 prints
 * microseconds per message (one-way message rate: a send that waits for
 * its message's acknowledgement pays a round trip each), best of 3.
 * Ranks 0 and 1 say on stderr how many of their receives the message
 * reached first (copied out of an overflow block: MPIX_Unexpected_count)
 * and how many long ones they fetched.
 * Usage (under tools/ptlrun -n 2): mpi-bench SIZE ITERS [pre|stream]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "../median.h"

int main(int argc, char **argv)
{
    int rank, size = argc > 1 ? atoi(argv[1]) : 0;
    int iters = argc > 2 ? atoi(argv[2]) : 100;
    int pre = argc > 3 && strcmp(argv[3], "pre") == 0;
    int stream = argc > 3 && strcmp(argv[3], "stream") == 0;
    MPI_Request rq = MPI_REQUEST_NULL;
    char *buf;
    double t0 = 0, tr = 0, best = 0, *rtt;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    buf = calloc(1, (size_t)size + 1);
    rtt = malloc(sizeof(double) * (size_t)(iters > 0 ? iters : 1));
    if (buf == NULL || rtt == NULL || iters < 1) {
        fprintf(stderr, "mpi-bench: ITERS must be at least 1 (and memory "
                "for SIZE bytes is needed)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int rep = 0; stream && rep < 3; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        for (int i = 0; i < iters && rank < 2; i++)
            if (rank == 0)
                MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            else
                MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        if (rank == 0)
            MPI_Recv(buf, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        else if (rank == 1)
            MPI_Send(buf, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        t = (MPI_Wtime() - t) / iters * 1e6;
        best = rep == 0 || t < best ? t : best;
    }
    if (rank == 0 && stream)
        printf("%.2f\n", best);
    for (int i = 0; i < iters + 1 && !stream; i++) {
        double t = MPI_Wtime();
        if (i == 1)
            t0 = t;                 /* the first round trip warms up */
        if (i > 1)
            rtt[i - 2] = (t - tr) / 2 * 1e6;
        tr = t;
        if (pre && rank < 2) {
            int peer = 1 - rank;
            if (rank == 1 && i == 0)
                MPI_Irecv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &rq);
            if (rank == 0) {
                MPI_Irecv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
                MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
            } else {
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                if (i < iters)
                    MPI_Irecv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                              &rq);
                MPI_Send(buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            }
        } else if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0 && !stream) {
        double t = MPI_Wtime();
        rtt[iters - 1] = (t - tr) / 2 * 1e6;
        printf("%.2f %.2f\n", (t - t0) / iters / 2 * 1e6,
               bench_median(rtt, iters));
    }
    if (rank < 2 && !stream)    /* how the receives fared, on stderr */
        fprintf(stderr, "mpi-bench: rank %d: %d of %d messages came before "
                "their receive, %d fetched\n", rank, MPIX_Unexpected_count(),
                iters + 1, MPIX_Fetch_count());
    free(rtt);
    free(buf);
    MPI_Finalize();
    return 0;
}
