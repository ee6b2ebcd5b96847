/* SPDX-License-Identifier: MIT */
/* Flow control: flood rank 0 with more unexpected messages than it has
 * header slots (4096), then with more eager data than its overflow
 * blocks hold (8 MiB), while it waits for one late message.  Its data
 * portal is disabled and recovered (MPIX_Flowctl_count counts it), and
 * every message still arrives exactly once, in order per sender.  Then
 * the same with small blocking sends from one buffer the sender scribbles on as
 * soon as each MPI_Send returns: a small send completes once copied, so a
 * refused one must be re-sent from the library's copy, not the buffer. */
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

/* m small messages by MPI_Send from one buffer, overwritten after each
 * (no long ones: a blocking long send waits for rank 0's receive, which
 * comes only after LAST). */
static void flood_reuse(int m, int bytes)
{
    char *b = malloc(bytes);

    for (int i = 0; i < m; i++) {
        int n = bytes;
        memset(b, (t_rank * 31 + i) & 0xff, n);
        memcpy(b, &i, sizeof(int));
        MPI_Send(b, n, MPI_BYTE, 0, i % 100, MPI_COMM_WORLD);
        memset(b, 0xEE, n);
    }
    MPI_Send(&m, 1, MPI_INT, 0, LAST, MPI_COMM_WORLD);
    free(b);
}

/* Rank 0: wait for every LAST (the flood lands unexpected meanwhile),
 * then receive everything and check order and contents. */
static void drain_all(int m, int bytes, int longs)
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
        ok &= cnt == (longs && i % 97 == 0 ? 100000 : bytes);
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
        drain_all(per, 16, 1);
    else
        flood(per, 16);
    int fc = MPIX_Flowctl_count();
    if (t_rank == 0)
        CHECK(fc >= 1);
    t_report("header-slots-exhausted");

    per = 1200 / (t_size - 1) + 1;             /* > 8 MiB of eager data */
    if (t_rank == 0)
        drain_all(per, 8000, 1);
    else
        flood(per, 8000);
    if (t_rank == 0)
        CHECK(MPIX_Flowctl_count() > fc);
    t_report("overflow-buffers-exhausted");

    fc = MPIX_Flowctl_count();
    per = 5000 / (t_size - 1) + 1;
    if (t_rank == 0)
        drain_all(per, 16, 0);
    else
        flood_reuse(per, 16);
    if (t_rank == 0)
        CHECK(MPIX_Flowctl_count() > fc);
    t_report("send-buffer-reused-at-once");
    return t_finish();
}
