/* SPDX-License-Identifier: MIT */
/*
 * leave: one rank of an MPI (and NX) job leaves it without finalizing,
 * in one of the ways a program leaves, while every other rank waits
 * where it needs that rank.  The launcher must end the job with the
 * leaving rank's status and name it, promptly: no rank may wait for a
 * peer that is gone until the time limit.  Portable (MPI, NX, ptl_job.h
 * and POSIX): built for the nodes with mpicc --lwk (tests/qemu/suite-
 * jobs), as a Linux program for the nodes with mpicc --linux-node
 * (suite-linux).
 *
 *   leave HOW WHERE [CODE]
 *
 * HOW, rank 1 (the last rank of a job of one):
 *   _exit       _exit(CODE)
 *   exit        exit(CODE): atexit handlers run, MPI_Finalize is not
 *   return      return CODE from main
 *   fault       a write to address 16 (a page fault: 139)
 *   kill        kill(getpid(), SIGKILL) (137)
 *   finalize    MPI_Finalize, then exit(CODE): it left properly, so the
 *               others finish and the job's status is CODE
 * WHERE the others wait:
 *   finalize    MPI_Finalize (its closing barrier)
 *   barrier     MPI_Barrier
 *   recv        MPI_Recv from rank 1
 *   gsync       NX gsync()
 *   crecv       NX crecv() of a message only rank 1 would send
 *   job         ptl_job_barrier()
 * Every rank prints "rank R waiting" and passes a barrier first, so the
 * test knows every rank was running when rank 1 left.  A rank that gets
 * through WHERE prints "rank R passed WHERE" and returns 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <nx.h>
#include <ptl_job.h>

static int leave(const char *how, int code)
{
    if (!strcmp(how, "_exit"))
        _exit(code);
    if (!strcmp(how, "exit"))
        exit(code);
    if (!strcmp(how, "return"))
        return code;
    if (!strcmp(how, "fault"))     /* an address the compiler cannot see */
        *(volatile int *)strtoul("16", NULL, 0) = 1;
    if (!strcmp(how, "kill"))
        kill(getpid(), SIGKILL);
    if (!strcmp(how, "finalize")) {
        MPI_Finalize();
        exit(code);
    }
    fprintf(stderr, "leave: no way to leave called '%s'\n", how);
    return 2;
}

static int wait_in(const char *where, int rank)
{
    char buf[8];

    if (!strcmp(where, "finalize"))
        MPI_Finalize();
    else if (!strcmp(where, "barrier"))
        MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(where, "recv"))
        MPI_Recv(buf, sizeof(buf), MPI_CHAR, 1, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    else if (!strcmp(where, "gsync"))
        gsync();
    else if (!strcmp(where, "crecv"))
        crecv(7, buf, sizeof(buf));
    else if (!strcmp(where, "job"))
        ptl_job_barrier();
    else {
        fprintf(stderr, "leave: no place to wait called '%s'\n", where);
        return 2;
    }
    printf("rank %d passed %s\n", rank, where);
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size;

    if (argc < 3) {
        fprintf(stderr, "usage: leave HOW WHERE [CODE]\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    (void)mynode();                     /* NX too: both libraries joined */
    printf("rank %d waiting\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);        /* every rank said so */
    if (rank == (size > 1 ? 1 : 0))
        return leave(argv[1], argc > 3 ? atoi(argv[3]) : 0);
    return wait_in(argv[2], rank);
}
