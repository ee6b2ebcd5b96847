/* SPDX-License-Identifier: MIT */
/* The classic parallel matrix multiply C = A x B: rows of A scattered
 * (Scatterv: uneven split), B broadcast, rows of C gathered (Gatherv),
 * checked against a serial product. */
#include <math.h>
#include "mpitest.h"

#define N 60

int main(int argc, char **argv)
{
    static double A[N][N], B[N][N], Cm[N][N], ref[N][N];
    int counts[64], displs[64];

    t_init(&argc, &argv, "matmul");
    for (int k = 0, d = 0; k < t_size; k++) {
        int rows = N / t_size + (k < N % t_size);
        counts[k] = rows * N;
        displs[k] = d;
        d += rows * N;
    }
    if (t_rank == 0)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                A[i][j] = (i * 7 + j * 3) % 11 - 5;
                B[i][j] = (i * 5 + j) % 13 * 0.5;
            }
    int myrows = counts[t_rank] / N;
    double (*a)[N] = malloc(sizeof(double) * N * (myrows + 1));
    double (*c)[N] = malloc(sizeof(double) * N * (myrows + 1));
    MPI_Scatterv(A, counts, displs, MPI_DOUBLE, a, counts[t_rank], MPI_DOUBLE,
                 0, MPI_COMM_WORLD);
    MPI_Bcast(B, N * N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < myrows; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * B[k][j];
            c[i][j] = s;
        }
    MPI_Gatherv(c, counts[t_rank], MPI_DOUBLE, Cm, counts, displs, MPI_DOUBLE,
                0, MPI_COMM_WORLD);
    if (t_rank == 0) {
        double err = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < N; k++)
                    s += A[i][k] * B[k][j];
                ref[i][j] = s;
                err = fmax(err, fabs(ref[i][j] - Cm[i][j]));
            }
        CHECK(err == 0);
    }
    t_report("rows-scatter-gather-matches-serial");
    free(a);
    free(c);
    return t_finish();
}
