/* SPDX-License-Identifier: MIT */
/*
 * mpitest.h: a tiny harness for the MPI test programs.  CHECK() counts a
 * failure on this rank (and says where on stderr); t_report(name) is
 * collective: rank 0 prints "PASS mpi.PROG.nSIZE.name" only if no rank
 * failed since the last report.  Expected values are computed here,
 * independently of the library.
 */
#ifndef MPITEST_H
#define MPITEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static int t_rank, t_size, t_fail;
static const char *t_prog;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            t_fail++;                                                      \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", t_rank,  \
                    __FILE__, __LINE__, #cond);                            \
        }                                                                  \
    } while (0)

static inline void t_init(int *argc, char ***argv, const char *prog)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    t_prog = prog;
}

static inline void t_report(const char *name)
{
    int all = 0;

    MPI_Allreduce(&t_fail, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (t_rank == 0)
        printf("%s mpi.%s.n%d.%s\n", all ? "FAIL" : "PASS", t_prog, t_size,
               name);
    fflush(stdout);
    t_fail = 0;
}

static inline int t_finish(void)
{
    MPI_Finalize();
    return 0;
}

#endif
