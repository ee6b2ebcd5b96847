/* SPDX-License-Identifier: MIT */
/*
 * heat: a 1-D heat equation on a ring of ranks, the small MPI program
 * with a bug that docs/debugging.md walks through, and
 * tests/qemu/suite-debug's subject for core files and stack summaries.
 * Each rank owns CELLS cells and swaps its edges with its neighbours
 * every step.
 *   heat fault R   rank R writes through a bad pointer in stencil() on
 *                  step 1; the others soon wait for an edge in MPI_Recv
 *                  (R's neighbours for R's, the next ones for theirs)
 *   heat abort R   rank R calls abort() in check() on step 1
 *   heat hang      rank 0 never sends its last edge: everyone waits
 *   heat           runs to the end and prints the total
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS   64
#define STEPS   5

static double u[CELLS + 2], v[CELLS + 2];
static int rank, size, bad_rank = -1;
static const char *mode = "";

void stencil(double *out, const double *in, int step)
{
    double *cell = out;

    if (rank == bad_rank && step == 1 && !strcmp(mode, "fault"))
        cell = NULL;            /* the bug */
    for (int i = 1; i <= CELLS; i++)
        cell[i] = in[i] + 0.25 * (in[i - 1] - 2 * in[i] + in[i + 1]);
}

void check(int step)
{
    if (rank == bad_rank && step == 1 && !strcmp(mode, "abort"))
        abort();
}

void halo_exchange(double *a, int step)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    if (!(rank == 0 && step == STEPS - 1 && !strcmp(mode, "hang")))
        MPI_Send(&a[CELLS], 1, MPI_DOUBLE, right, step, MPI_COMM_WORLD);
    MPI_Recv(&a[0], 1, MPI_DOUBLE, left, step, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Send(&a[1], 1, MPI_DOUBLE, left, step, MPI_COMM_WORLD);
    MPI_Recv(&a[CELLS + 1], 1, MPI_DOUBLE, right, step, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    double local = 0, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        mode = argv[1];
    if (argc > 2)
        bad_rank = atoi(argv[2]);
    for (int i = 1; i <= CELLS; i++)
        u[i] = rank * CELLS + i;
    for (int step = 0; step < STEPS; step++) {
        halo_exchange(u, step);
        stencil(v, u, step);
        check(step);
        memcpy(u, v, sizeof(u));
    }
    for (int i = 1; i <= CELLS; i++)
        local += u[i];
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("heat: total %.3f\n", total);
    MPI_Finalize();
    return 0;
}
