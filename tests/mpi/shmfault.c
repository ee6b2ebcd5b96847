/* SPDX-License-Identifier: MIT */
/* A rank that dies while the other ranks of its node use its memory
 * (tests/qemu/suite-smartmap).  Every rank of the node allocates its own
 * segment of a shared window (alloc_shared_noncontig); then the rank with
 * node rank VICTIM ends, as HOW says, while every other rank reads and
 * writes the victim's segment through the window for ever:
 *   trap     an invalid instruction (the default; status 132, SIGILL)
 *   kill     kill(getpid(), SIGKILL) (137)
 *   exit N   _exit(N) without MPI_Finalize: it leaves its job
 * Once the victim's memory is freed the others must fault (the kernel
 * empties its SMARTMAP slot first), not go on using memory that is no
 * longer the victim's: a rank that still can after 60 s says so and
 * exits 3.  Not a PASS/FAIL program: the suite judges the job's end.
 * With -contig the window has the default layout, every segment in node
 * rank 0's memory, and each other rank uses its own segment: with VICTIM
 * 0 a rank's own window memory goes when another rank ends.
 * Usage: shmfault [-contig] VICTIM [trap | kill | exit N] */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpi.h"

#define N (1 << 17)             /* a 1 MiB segment of int64s */

/* Where node rank r marks the victim's segment once it uses it: an
   element the loop below never writes (not a multiple of 512). */
#define MARK(r) (N - 1 - (r))

/* The victim waits until every other rank uses its memory (at most 60 s),
   so they are in the loop, not in MPI, when it ends: an end that ends the
   job (leaving it) must still find them there. */
static void wait_for_users(volatile int64_t *mine, int me, int nr)
{
    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < 60;) {
        int n = 0;
        for (int r = 0; r < nr; r++)
            n += r != me && mine[MARK(r)] == 1;
        if (n == nr - 1)
            return;
    }
}

/* The victim's end, as HOW (and CODE, for exit) say. */
static void die(int me, const char *how, int code)
{
    printf("shmfault: node rank %d ends: %s\n", me, how);
    fflush(stdout);
    if (!strcmp(how, "kill"))
        kill(getpid(), SIGKILL);
    else if (!strcmp(how, "exit"))
        _exit(code);
    __builtin_trap();           /* ud2: killed, status 132 */
}

int main(int argc, char **argv)
{
    int contig = argc > 1 && !strcmp(argv[1], "-contig");
    char **arg = argv + contig;
    int narg = argc - contig;
    int victim = narg > 1 ? atoi(arg[1]) : 1, me, nr;
    const char *how = narg > 2 ? arg[2] : "trap";
    int code = narg > 3 ? atoi(arg[3]) : 0;
    volatile int64_t *theirs, *use;
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
    if (strcmp(how, "trap") && strcmp(how, "kill") && strcmp(how, "exit")) {
        fprintf(stderr, "shmfault: HOW must be trap, kill or exit N\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", contig ? "false" : "true");
    MPI_Win_allocate_shared(N * 8, 8, info, node, &mine, &win);
    MPI_Info_free(&info);
    for (int i = 0; i < N; i++)
        mine[i] = i;
    MPI_Win_shared_query(win, victim, &size, &unit, &theirs);
    MPI_Win_sync(win);
    MPI_Barrier(node);
    if (me == victim) {
        wait_for_users(mine, me, nr);
        die(me, how, code);
    }
    printf("shmfault: node rank %d uses node rank %d's memory at %p\n", me,
           victim, contig ? (void *)mine : (void *)theirs);
    fflush(stdout);
    theirs[MARK(me)] = 1;
    use = contig ? mine : theirs;
    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < 60;)
        for (int i = 0; i < N; i += 512) {
            sum += use[i];
            use[i] = sum;
        }
    fprintf(stderr, "shmfault: node rank %d: node rank %d's memory is still "
            "there after 60 s\n", me, victim);
    return 3;
}
