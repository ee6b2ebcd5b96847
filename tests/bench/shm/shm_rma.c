/* SPDX-License-Identifier: MIT */
/*
 * shm_rma.c: one-sided latency between two ranks of one node, rank 0 the
 * origin, rank 1 the target, under MPI_Win_lock_all:
 *   portals  MPI_Put / MPI_Get of SIZE bytes, then MPI_Win_flush, on a
 *            window of MPI_Win_allocate (through Portals and the kernel's
 *            loop queues)
 *   shared   the same calls on a window of MPI_Win_allocate_shared (still
 *            Portals: the library moves the bytes the same way)
 *   direct   a store (memcpy into the target's segment through the
 *            pointer MPI_Win_shared_query gives), or a load, then
 *            MPI_Win_sync: the shared memory itself
 * Each operation is timed ITERS times; rank 0 prints the median in
 * microseconds as "rma,KIND,put|get,SIZE,US" (tests/bench/median.h); the
 * target says so on stderr if it did not see the last puts' bytes.
 * Usage (2 ranks on one node, yod -vn): shm-rma ITERS SIZE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "../median.h"

static int iters;
static double *t;

enum kind { PORTALS, SHARED, DIRECT };
static const char *const names[] = { "portals", "shared", "direct" };

/* One operation of `kind` on the target's first `size` bytes. */
static void op(enum kind kind, int put, char *buf, char *target, int size,
               MPI_Win win)
{
    if (kind == DIRECT) {
        if (put)
            memcpy(target, buf, (size_t)size);
        else
            memcpy(buf, target, (size_t)size);
        MPI_Win_sync(win);
        return;
    }
    if (put)
        MPI_Put(buf, size, MPI_BYTE, 1, 0, size, MPI_BYTE, win);
    else
        MPI_Get(buf, size, MPI_BYTE, 1, 0, size, MPI_BYTE, win);
    MPI_Win_flush(1, win);
}

static void measure(enum kind kind, int size, MPI_Win win, char *target,
                    int rank)
{
    char *buf = malloc((size_t)size);

    MPI_Win_lock_all(0, win);
    for (int put = 1; put >= 0; put--) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; rank == 0 && i < iters; i++) {
            memset(buf, i + put, (size_t)size);
            double t0 = MPI_Wtime();
            op(kind, put, buf, target, size, win);
            t[i] = (MPI_Wtime() - t0) * 1e6;
        }
        if (rank == 0)
            printf("rma,%s,%s,%d,%.3f\n", names[kind], put ? "put" : "get",
                   size, bench_median(t, iters));
    }
    MPI_Win_unlock_all(win);
    free(buf);
}

int main(int argc, char **argv)
{
    int rank, nsizes = argc - 2, max = 1;
    MPI_Win plain, shared;
    char *pbase, *sbase, *target;
    MPI_Aint size;
    int unit;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    iters = argc > 1 ? atoi(argv[1]) : 0;
    for (int s = 0; s < nsizes; s++)
        if (atoi(argv[2 + s]) > max)
            max = atoi(argv[2 + s]);
    if (iters < 1 || nsizes < 1 || (t = malloc(sizeof(*t) * iters)) == NULL) {
        fprintf(stderr, "usage: shm-rma ITERS SIZE... (2 ranks of one "
                "node)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Win_allocate(max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &pbase, &plain);
    if (MPI_Win_allocate_shared(max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &sbase,
                                &shared) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Win_shared_query(shared, 1, &size, &unit, &target);
    for (int s = 0; s < nsizes; s++) {
        int n = atoi(argv[2 + s]);
        measure(PORTALS, n, plain, NULL, rank);
        measure(SHARED, n, shared, NULL, rank);
        measure(DIRECT, n, shared, target, rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && (pbase[0] != (char)iters || sbase[0] != (char)iters))
        fprintf(stderr, "shm-rma: the target did not see the puts\n");
    MPI_Win_free(&shared);
    MPI_Win_free(&plain);
    free(t);
    MPI_Finalize();
    return 0;
}
