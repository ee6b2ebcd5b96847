/* SPDX-License-Identifier: MIT */
/* A rank that dies while the other ranks of its node use its memory
 * (tests/qemu/suite-smartmap).  Every rank of the node allocates its own
 * segment of a shared window (alloc_shared_noncontig); then the rank with
 * node rank VICTIM executes an invalid instruction (status 132, SIGILL),
 * while every other rank
 * reads and writes the victim's segment through the window for ever.
 * Once the victim's memory is freed the others must fault (the kernel
 * empties its SMARTMAP slot first), not go on using memory that is no
 * longer the victim's: a rank that still can after 60 s says so and
 * exits 3.  Not a PASS/FAIL program: the suite judges the job's end.
 * Usage: shmfault VICTIM */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpi.h"

#define N (1 << 17)             /* a 1 MiB segment of int64s */

int main(int argc, char **argv)
{
    int victim = argc > 1 ? atoi(argv[1]) : 1, me, nr;
    volatile int64_t *theirs;
    int64_t *mine, sum = 0;
    MPI_Comm node;
    MPI_Info info;
    MPI_Win win;
    MPI_Aint size;
    int unit;

    MPI_Init(&argc, &argv);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &me);
    MPI_Comm_size(node, &nr);
    if (victim < 0 || victim >= nr) {
        fprintf(stderr, "shmfault: VICTIM must be a node rank, 0..%d\n",
                nr - 1);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Win_allocate_shared(N * 8, 8, info, node, &mine, &win);
    MPI_Info_free(&info);
    for (int i = 0; i < N; i++)
        mine[i] = i;
    MPI_Win_shared_query(win, victim, &size, &unit, &theirs);
    MPI_Win_sync(win);
    MPI_Barrier(node);
    if (me == victim) {
        printf("shmfault: node rank %d executes an invalid instruction\n",
               me);
        fflush(stdout);
        __builtin_trap();       /* ud2: killed, status 132 */
    }
    printf("shmfault: node rank %d uses node rank %d's memory at %p\n", me,
           victim, (void *)theirs);
    fflush(stdout);
    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < 60;)
        for (int i = 0; i < N; i += 512) {
            sum += theirs[i];
            theirs[i] = sum;
        }
    fprintf(stderr, "shmfault: node rank %d: node rank %d's memory is still "
            "there after 60 s\n", me, victim);
    return 3;
}
