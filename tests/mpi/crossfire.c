/* SPDX-License-Identifier: MIT */
/*
 * crossfire.c: every rank starts TOTAL small sends (spread over every
 * other rank) before it posts a single receive, so each process has far
 * more operations to its peers in flight than Portals has message slots
 * (1024 on Linux, 256 on a node), while its peers do the same to it.
 * Every message must arrive, with the right tag and value.  Before the
 * library capped its operations in flight, both sides filled their slots
 * and could acknowledge nothing: "message to rank 1 failed".
 * Usage: crossfire [TOTAL]   (default 3000; posted receives are Portals
 * match entries too, so a node takes at most ~1000)
 */
#include "mpitest.h"

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "crossfire");
    int total = argc > 1 ? atoi(argv[1]) : 3000;
    int per = t_size > 1 ? total / (t_size - 1) : 0, k = 0;
    MPI_Request *rq = malloc(sizeof(*rq) * (size_t)(2 * per * t_size + 1));
    int *sb = malloc(sizeof(int) * (size_t)(per + 1));
    int *rb = malloc(sizeof(int) * (size_t)(per * t_size + 1));

    for (int i = 0; i < per; i++)
        sb[i] = i * 7 + t_rank;
    for (int i = 0; i < per; i++)
        for (int p = 0; p < t_size; p++)
            if (p != t_rank)
                MPI_Isend(&sb[i], 1, MPI_INT, p, i, MPI_COMM_WORLD, &rq[k++]);
    for (int p = 0; p < t_size; p++)
        for (int i = 0; p != t_rank && i < per; i++)
            MPI_Irecv(&rb[p * per + i], 1, MPI_INT, p, i, MPI_COMM_WORLD,
                      &rq[k++]);
    CHECK(MPI_Waitall(k, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    for (int p = 0; p < t_size; p++)
        for (int i = 0; p != t_rank && i < per; i++)
            CHECK(rb[p * per + i] == i * 7 + p);
    t_report("all-arrive");
    free(rq);
    free(sb);
    free(rb);
    return t_finish();
}
