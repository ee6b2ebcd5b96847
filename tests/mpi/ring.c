/* SPDX-License-Identifier: MIT */
/* The classic ring: a token goes round the ring many times, each rank
 * adding its rank; then a large buffer goes round once. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    int to, from, token = 0, laps = 20;

    t_init(&argc, &argv, "ring");
    to = (t_rank + 1) % t_size;
    from = (t_rank + t_size - 1) % t_size;
    for (int lap = 0; lap < laps; lap++) {
        if (t_rank == 0) {
            token += 0;
            MPI_Send(&token, 1, MPI_INT, to, lap, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, from, lap, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, from, lap, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            token += t_rank;
            MPI_Send(&token, 1, MPI_INT, to, lap, MPI_COMM_WORLD);
        }
    }
    if (t_rank == 0)
        CHECK(token == laps * t_size * (t_size - 1) / 2);
    t_report("token-laps");

    int n = 100000, *b = malloc(n * sizeof(int)), ok = 1;
    if (t_rank == 0) {
        for (int i = 0; i < n; i++)
            b[i] = i;
        MPI_Send(b, n, MPI_INT, to, 99, MPI_COMM_WORLD);
        MPI_Recv(b, n, MPI_INT, from, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++)
            ok &= b[i] == i + t_size - 1;
    } else {
        MPI_Recv(b, n, MPI_INT, from, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++)
            b[i]++;
        MPI_Send(b, n, MPI_INT, to, 99, MPI_COMM_WORLD);
    }
    CHECK(ok);
    free(b);
    t_report("large-buffer");
    return t_finish();
}
