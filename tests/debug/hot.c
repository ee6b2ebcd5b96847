/* SPDX-License-Identifier: MIT */
/*
 * A profile's subject (tests/qemu/suite-debug, docs/debugging.md): each
 * rank spends most of its time in burn(), a tenth of that in warm(),
 * and makes a known number of MPI calls: per step one MPI_Allreduce and
 * a ring exchange (MPI_Sendrecv), then MPI_Barrier twice and one
 * MPI_Bcast.  `hot STEPS ITER` (default 10 steps of 2000000); `hot
 * STEPS ITER thread`: burn() runs in a POSIX thread (on a CPU of its
 * own under yod -threads) while main waits for it.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

static double burn(long n)
{
    double x = 0;

    for (long i = 0; i < n; i++)
        x += (double)i * 0.5;
    return x;
}

static long iter = 2000000;
static double burnt;

static void *burner(void *arg)
{
    (void)arg;
    burnt = burn(iter);
    return NULL;
}

/* burn(iter), in a thread of its own if `threaded`. */
static double burn_step(int threaded)
{
    pthread_t t;

    if (!threaded || pthread_create(&t, NULL, burner, NULL) != 0)
        return burn(iter);
    pthread_join(t, NULL);
    return burnt;
}

static double warm(long n)
{
    double x = 1;

    for (long i = 0; i < n; i++)
        x *= 1.0000001;
    return x;
}

int main(int argc, char **argv)
{
    int rank, size, steps = argc > 1 ? atoi(argv[1]) : 10;
    int threaded = argc > 3 && !strcmp(argv[3], "thread");
    double mine, sum = 0, in;

    if (argc > 2)
        iter = atol(argv[2]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int s = 0; s < steps; s++) {
        mine = burn_step(threaded) + warm(iter / 10);
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Sendrecv(&mine, 1, MPI_DOUBLE, (rank + 1) % size, 0, &in, 1,
                     MPI_DOUBLE, (rank + size - 1) % size, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    sink = sum;
    printf("rank %d: %d steps done\n", rank, steps);
    MPI_Finalize();
    return 0;
}
