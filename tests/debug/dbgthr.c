/* SPDX-License-Identifier: MIT */
/*
 * dbgthr: dbgmpi.c's work in a POSIX thread (yod -threads: the thread runs
 * on CPU 1), for gdb on a thread (tests/qemu/suite-debug): rank 1's thread
 * stops in work, the test prints n and local, steps a line, sets local to
 * 1000 and detaches; the main thread joins it and prints the result.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int bias;

int work(int n)
{
    int local = n * 3;
    int result = local + bias;          /* the line after `next` */

    return result;
}

static void *thread(void *arg)
{
    int *v = arg;

    *v = work(*v);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size, v;
    pthread_t t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bias = 1;
    v = rank + 10;
    if (pthread_create(&t, NULL, thread, &v) != 0) {
        printf("rank %d: no thread (run it with yod -threads)\n", rank);
        return 1;
    }
    pthread_join(t, NULL);
    printf("rank %d: result %d\n", rank, v);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
