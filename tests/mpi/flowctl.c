/* SPDX-License-Identifier: MIT */
/* Flow control: flood rank 0 with more unexpected messages than it has
 * header slots (4096), then with more eager data than its overflow
 * blocks hold (8 MiB), while it waits for one late message.  Its data
 * portal is disabled and recovered (MPIX_Flowctl_count counts it), and
 * every message still arrives exactly once, in order per sender. */
#include "mpitest.h"

#define LAST 999999

/* Senders: m messages of `bytes` (every 97th one long), then LAST. */
static void flood(int m, int bytes)
{
    MPI_Request *q = malloc((m + 1) * sizeof(*q));
    char **b = malloc(m * sizeof(*b));

    for (int i = 0; i < m; i++) {
        int n = i % 97 == 0 ? 100000 : bytes;
        b[i] = malloc(n);
        memset(b[i], (t_rank * 31 + i) & 0xff, n);
        memcpy(b[i], &i, sizeof(int));
        MPI_Isend(b[i], n, MPI_BYTE, 0, i % 100, MPI_COMM_WORLD, &q[i]);
    }
    MPI_Isend(&m, 1, MPI_INT, 0, LAST, MPI_COMM_WORLD, &q[m]);
    MPI_Waitall(m + 1, q, MPI_STATUSES_IGNORE);
    for (int i = 0; i < m; i++)
        free(b[i]);
    free(b);
    free(q);
}

/* Rank 0: wait for every LAST (the flood lands unexpected meanwhile),
 * then receive everything and check order and contents. */
static void drain_all(int m, int bytes)
{
    char *r = malloc(100000);
    int *next = calloc(t_size, sizeof(int)), dummy, ok = 1;
    MPI_Status st;

    for (int k = 1; k < t_size; k++)
        MPI_Recv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, LAST, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int j = 0; j < m * (t_size - 1); j++) {
        int cnt, idx;
        MPI_Recv(r, 100000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        int s = st.MPI_SOURCE, i = next[s]++;
        memcpy(&idx, r, sizeof(int));
        ok &= idx == i && st.MPI_TAG == i % 100;
        ok &= cnt == (i % 97 == 0 ? 100000 : bytes);
        ok &= (unsigned char)r[cnt - 1] == ((s * 31 + i) & 0xff);
    }
    CHECK(ok);
    free(r);
    free(next);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "flowctl");
    int per = 5000 / (t_size - 1) + 1;         /* > 4096 headers in all */
    if (t_rank == 0)
        drain_all(per, 16);
    else
        flood(per, 16);
    int fc = MPIX_Flowctl_count();
    if (t_rank == 0)
        CHECK(fc >= 1);
    t_report("header-slots-exhausted");

    per = 1200 / (t_size - 1) + 1;             /* > 8 MiB of eager data */
    if (t_rank == 0)
        drain_all(per, 8000);
    else
        flood(per, 8000);
    if (t_rank == 0)
        CHECK(MPIX_Flowctl_count() > fc);
    t_report("overflow-buffers-exhausted");
    return t_finish();
}
