/* SPDX-License-Identifier: MIT */
/*
 * aborts: a compute-node program for tests/qemu/suite-jobs: one rank
 * ends the job in one of the ways a program does, while every other rank
 * waits where it would wait forever (a barrier, a receive) if the job were
 * not ended for it.
 *
 *   aborts mpi R CODE     rank R calls MPI_Abort(MPI_COMM_WORLD, CODE);
 *                         the others wait in MPI_Barrier
 *   aborts nx R           rank R crecv()s rank 0's 100-byte message into
 *                         a 10-byte buffer (an NX fatal error); the
 *                         others wait in gsync()
 *   aborts abort R        rank R calls abort() (its SIGABRT handler
 *                         prints "SIGABRT handler ran"); the others spin
 *   aborts assert R       rank R fails an assert(); the others spin
 *   aborts job R CODE     rank R calls ptl_job_abort(CODE, ...)
 *   aborts exit R CODE    rank R leaves the job (ptl_job_fini) and exits
 *                         CODE after printing a line; the others spin
 *                         (only -kill-on-error ends them: a rank that
 *                         left properly is independent)
 *   aborts mixed          rank r exits with status r * 10 (after rank 0
 *                         printed): yod's status is the highest, 30 of 4
 * Every rank prints "rank R waiting" and then passes a barrier, so when
 * rank R ends the job the test knows every rank was running.
 */
#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lwk/lwk.h>
#include <mpi.h>
#include <nx.h>
#include <ptl_job.h>

static long rank;

static void waiting(void)
{
    printf("rank %ld waiting\n", rank);
    fflush(stdout);
}

static void on_abort(int sig)
{
    static const char line[] = "SIGABRT handler ran\n";

    (void)sig;
    write(1, line, sizeof(line) - 1);
}

static void spin(void)
{
    for (volatile unsigned long i = 0;; i++)
        ;
}

static int mpi(long r, int code)
{
    MPI_Init(NULL, NULL);
    waiting();
    MPI_Barrier(MPI_COMM_WORLD);        /* every rank said so */
    if (rank == r)
        MPI_Abort(MPI_COMM_WORLD, code);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %ld passed a barrier it should never pass\n", rank);
    return 0;
}

static int nx(long r)
{
    char big[100] = "NX", small[10];

    waiting();
    gsync();                            /* every rank said so */
    if (mynode() == 0 && r != 0)
        csend(7, big, sizeof(big), r, 0);
    if (mynode() == r)
        crecv(7, small, sizeof(small));   /* too small: fatal */
    gsync();
    printf("rank %ld passed gsync it should never pass\n", rank);
    return 0;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "";
    long r = argc > 2 ? atol(argv[2]) : 0;
    int code = argc > 3 ? atoi(argv[3]) : 0;

    rank = lwk_rank();
    if (!strcmp(how, "mpi") && argc == 4)
        return mpi(r, code);
    if (!strcmp(how, "nx") && argc == 3)
        return nx(r);
    if (!strcmp(how, "mixed")) {
        if (rank != 0) {
            for (volatile unsigned long i = 0; i < 20000000; i++)
                ;           /* rank 0's line first, while all run */
        }
        printf("rank %ld exits %ld\n", rank, rank * 10);
        return (int)(rank * 10);
    }
    waiting();
    if (lwk_size() > 1) {               /* not under lwkrun */
        if (ptl_job_init(&(struct ptl_job){ 0 }) != PTL_OK)
            return 3;
        ptl_job_barrier();              /* every rank said so */
    }
    if (rank != r)
        spin();
    if (!strcmp(how, "abort")) {
        signal(SIGABRT, on_abort);      /* POSIX: runs, then the end */
        abort();
    }
    if (!strcmp(how, "assert"))
        assert(rank != r);
    if (!strcmp(how, "job") && argc == 4)
        ptl_job_abort(code, "aborts: ptl_job_abort on purpose");
    if (!strcmp(how, "exit") && argc == 4) {
        if (lwk_size() > 1)
            ptl_job_fini();
        printf("rank %ld exits %d\n", rank, code);
        return code;
    }
    fprintf(stderr, "aborts: bad arguments\n");
    return 2;
}
