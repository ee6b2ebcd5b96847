/* SPDX-License-Identifier: MIT */
/* The classic 2-D Jacobi relaxation on an N x N grid, decomposed into
 * blocks over a Cartesian process grid, with halo exchange (rows
 * contiguous, columns as a vector type) and a global residual.  The
 * result is compared with the same iteration run serially on rank 0. */
#include <math.h>
#include "mpitest.h"

#define N 48
#define ITERS 60

static double boundary(int i, int j)
{
    return (i == 0) ? 1.0 : (j == N - 1) ? 0.5 * i / N : 0.0;
}

/* Serial reference: the whole grid. */
static void serial(double out[N][N])
{
    static double a[N][N], b[N][N];

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            a[i][j] = b[i][j] = (i == 0 || j == 0 || i == N - 1 ||
                                 j == N - 1) ? boundary(i, j) : 0.0;
    for (int it = 0; it < ITERS; it++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] +
                                  a[i][j + 1]);
        memcpy(a, b, sizeof(a));
    }
    memcpy(out, a, sizeof(a));
}

int main(int argc, char **argv)
{
    int dims[2] = { 0, 0 }, per[2] = { 0, 0 }, c[2], up, down, left, right;
    MPI_Comm cart;

    t_init(&argc, &argv, "jacobi");
    MPI_Dims_create(t_size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
    MPI_Cart_coords(cart, t_rank, 2, c);
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    /* my block: rows r0..r1-1, cols c0..c1-1, plus a halo of 1 */
    int r0 = c[0] * N / dims[0], r1 = (c[0] + 1) * N / dims[0];
    int c0 = c[1] * N / dims[1], c1 = (c[1] + 1) * N / dims[1];
    int R = r1 - r0 + 2, C = c1 - c0 + 2;
    double *a = calloc(R * C, sizeof(double)), *b = calloc(R * C, sizeof(double));
#define A(p, i, j) (p)[(i) * C + (j)]
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int gi = r0 + i - 1, gj = c0 + j - 1;
            if (gi >= 0 && gi < N && gj >= 0 && gj < N &&
                (gi == 0 || gj == 0 || gi == N - 1 || gj == N - 1))
                A(a, i, j) = A(b, i, j) = boundary(gi, gj);
        }
    MPI_Datatype col;
    MPI_Type_vector(R - 2, 1, C, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    double diff = 0;
    for (int it = 0; it < ITERS; it++) {
        /* halos: rows up/down, columns left/right */
        MPI_Sendrecv(&A(a, 1, 1), C - 2, MPI_DOUBLE, up, 0,
                     &A(a, R - 1, 1), C - 2, MPI_DOUBLE, down, 0, cart,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&A(a, R - 2, 1), C - 2, MPI_DOUBLE, down, 1,
                     &A(a, 0, 1), C - 2, MPI_DOUBLE, up, 1, cart,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&A(a, 1, 1), 1, col, left, 2, &A(a, 1, C - 1), 1, col,
                     right, 2, cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&A(a, 1, C - 2), 1, col, right, 3, &A(a, 1, 0), 1, col,
                     left, 3, cart, MPI_STATUS_IGNORE);
        double local = 0;
        for (int i = 1; i < R - 1; i++)
            for (int j = 1; j < C - 1; j++) {
                int gi = r0 + i - 1, gj = c0 + j - 1;
                if (gi == 0 || gj == 0 || gi == N - 1 || gj == N - 1)
                    continue;
                A(b, i, j) = 0.25 * (A(a, i - 1, j) + A(a, i + 1, j) +
                                     A(a, i, j - 1) + A(a, i, j + 1));
                local += fabs(A(b, i, j) - A(a, i, j));
            }
        for (int i = 1; i < R - 1; i++)
            for (int j = 1; j < C - 1; j++)
                A(a, i, j) = A(b, i, j);
        MPI_Allreduce(&local, &diff, 1, MPI_DOUBLE, MPI_SUM, cart);
    }
    /* gather the interior blocks on rank 0 and compare with serial */
    static double ref[N][N], got[N][N];
    double *mine = malloc((R - 2) * (C - 2) * sizeof(double));
    for (int i = 1; i < R - 1; i++)
        for (int j = 1; j < C - 1; j++)
            mine[(i - 1) * (C - 2) + j - 1] = A(a, i, j);
    int meta[4] = { r0, r1, c0, c1 };
    if (t_rank == 0) {
        serial(ref);
        for (int k = 0; k < t_size; k++) {
            int m[4];
            double *blk;
            if (k == 0) {
                memcpy(m, meta, sizeof(m));
                blk = mine;
            } else {
                MPI_Recv(m, 4, MPI_INT, k, 10, cart, MPI_STATUS_IGNORE);
                blk = malloc((m[1] - m[0]) * (m[3] - m[2]) * sizeof(double));
                MPI_Recv(blk, (m[1] - m[0]) * (m[3] - m[2]), MPI_DOUBLE, k, 11,
                         cart, MPI_STATUS_IGNORE);
            }
            for (int i = m[0]; i < m[1]; i++)
                for (int j = m[2]; j < m[3]; j++)
                    got[i][j] = blk[(i - m[0]) * (m[3] - m[2]) + j - m[2]];
            if (k != 0)
                free(blk);
        }
        double err = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                err = fmax(err, fabs(got[i][j] - ref[i][j]));
        CHECK(err < 1e-12);
    } else {
        MPI_Send(meta, 4, MPI_INT, 0, 10, cart);
        MPI_Send(mine, (R - 2) * (C - 2), MPI_DOUBLE, 0, 11, cart);
    }
    CHECK(diff > 0 && diff < 1e6);
    t_report("halo-exchange-matches-serial");
    MPI_Type_free(&col);
    MPI_Comm_free(&cart);
    free(a);
    free(b);
    free(mine);
    return t_finish();
}
