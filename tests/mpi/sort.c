/* SPDX-License-Identifier: MIT */
/* The classic parallel sort (sample sort): each rank sorts its random
 * keys, samples splitters (Allgather), partitions and exchanges buckets
 * (Alltoall of counts, Alltoallv of keys), sorts the bucket; the result
 * is globally ordered and a permutation of the input (checked on rank 0
 * against a serial sort of all keys). */
#include "mpitest.h"

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    enum { M = 5000 };
    int *keys = malloc(M * sizeof(int)), p;
    unsigned s;

    t_init(&argc, &argv, "sort");
    p = t_size;
    s = 12345u + (unsigned)t_rank * 7919u;
    for (int i = 0; i < M; i++) {
        s = s * 1103515245u + 12345u;
        keys[i] = (int)((s >> 8) % 1000000);
    }
    qsort(keys, M, sizeof(int), cmp);
    /* p-1 samples each; everyone picks the same p-1 splitters */
    int *samp = malloc(p * sizeof(int)), *all = malloc(p * p * sizeof(int));
    for (int i = 0; i < p; i++)
        samp[i] = keys[(long)M * (i + 1) / (p + 1)];
    MPI_Allgather(samp, p, MPI_INT, all, p, MPI_INT, MPI_COMM_WORLD);
    qsort(all, p * p, sizeof(int), cmp);
    int *split = malloc(p * sizeof(int));
    for (int i = 0; i < p - 1; i++)
        split[i] = all[(i + 1) * p];
    /* bucket counts and the exchange */
    int *sc = calloc(p, sizeof(int)), *sd = malloc(p * sizeof(int));
    int *rc = malloc(p * sizeof(int)), *rd = malloc(p * sizeof(int));
    for (int i = 0, b = 0; i < M; i++) {
        while (b < p - 1 && keys[i] >= split[b])
            b++;
        sc[b]++;
    }
    for (int i = 0, d = 0; i < p; i++, d += sc[i - 1])
        sd[i] = d;
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int i = 0; i < p; i++) {
        rd[i] = total;
        total += rc[i];
    }
    int *mine = malloc((total + 1) * sizeof(int));
    MPI_Alltoallv(keys, sc, sd, MPI_INT, mine, rc, rd, MPI_INT,
                  MPI_COMM_WORLD);
    qsort(mine, total, sizeof(int), cmp);
    /* globally ordered: my first key >= the previous rank's last key */
    int last = total ? mine[total - 1] : -1, prev = -1;
    MPI_Sendrecv(&last, 1, MPI_INT, (t_rank + 1) % p, 0, &prev, 1, MPI_INT,
                 (t_rank + p - 1) % p, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (t_rank > 0 && total > 0)
        CHECK(mine[0] >= prev);
    /* a permutation of the input: gather both and compare on rank 0 */
    int *counts = malloc(p * sizeof(int)), *displs = malloc(p * sizeof(int));
    MPI_Gather(&total, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int *res = NULL, *orig = NULL;
    if (t_rank == 0) {
        for (int i = 0, d = 0; i < p; i++, d += counts[i - 1])
            displs[i] = d;
        res = malloc(M * p * sizeof(int));
        orig = malloc(M * p * sizeof(int));
    }
    MPI_Gatherv(mine, total, MPI_INT, res, counts, displs, MPI_INT, 0,
                MPI_COMM_WORLD);
    MPI_Gather(keys, M, MPI_INT, orig, M, MPI_INT, 0, MPI_COMM_WORLD);
    if (t_rank == 0) {
        qsort(orig, M * p, sizeof(int), cmp);
        CHECK(memcmp(orig, res, M * p * sizeof(int)) == 0);
    }
    t_report("sample-sort");
    return t_finish();
}
