/* SPDX-License-Identifier: MIT */
/* Ordering: messages from one sender on one communicator are received in
 * the order sent (non-overtaking), mixing eager and long sizes and the
 * wildcard, even when the receives are posted late. */
#include <unistd.h>
#include "mpitest.h"

int main(int argc, char **argv)
{
    enum { M = 40 };
    t_init(&argc, &argv, "order");
    if (t_rank != 0) {
        MPI_Request q[M];
        int *bufs[M];
        for (int i = 0; i < M; i++) {
            int n = (i % 3 == 0) ? 20000 : 1 + i;  /* long and eager mixed */
            bufs[i] = malloc(n * sizeof(int));
            for (int k = 0; k < n; k++)
                bufs[i][k] = t_rank * 100000 + i;
            MPI_Isend(bufs[i], n, MPI_INT, 0, 1, MPI_COMM_WORLD, &q[i]);
        }
        MPI_Waitall(M, q, MPI_STATUSES_IGNORE);
        for (int i = 0; i < M; i++)
            free(bufs[i]);
    } else {
        int next[64] = { 0 }, *r = malloc(20000 * sizeof(int));
        usleep(200000);     /* let most of them arrive unexpected */
        for (int i = 0; i < M * (t_size - 1); i++) {
            MPI_Status st;
            int cnt;
            MPI_Recv(r, 20000, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            int s = st.MPI_SOURCE, j = next[s]++;
            CHECK(r[0] == s * 100000 + j && r[cnt - 1] == r[0]);
            CHECK(cnt == ((j % 3 == 0) ? 20000 : 1 + j));
        }
        free(r);
    }
    t_report("non-overtaking-any-source");
    /* posted receives with specific tags take the first matching message */
    int a = 1, b = 2, x = 0, y = 0;
    if (t_rank == 1) {
        MPI_Send(&a, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    } else if (t_rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(x == 1 && y == 2);
    }
    t_report("same-tag-in-order");
    return t_finish();
}
