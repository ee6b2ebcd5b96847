/* SPDX-License-Identifier: MIT */
/* Nonblocking completion: Wait/Test any/all/some, inactive and null
 * requests, Request_free of an active request, cancel of receives. */
#include "mpitest.h"

static void waitall_ring(void)
{
    int n = 4, to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    int s[4], r[4];
    MPI_Request q[8];
    MPI_Status st[8];

    for (int i = 0; i < n; i++) {
        s[i] = t_rank * 10 + i;
        MPI_Irecv(&r[i], 1, MPI_INT, from, i, MPI_COMM_WORLD, &q[i]);
    }
    for (int i = n - 1; i >= 0; i--)      /* sent in reverse tag order */
        MPI_Isend(&s[i], 1, MPI_INT, to, i, MPI_COMM_WORLD, &q[n + i]);
    MPI_Waitall(2 * n, q, st);
    for (int i = 0; i < n; i++) {
        CHECK(r[i] == from * 10 + i);
        CHECK(st[i].MPI_TAG == i && st[i].MPI_SOURCE == from);
        CHECK(q[i] == MPI_REQUEST_NULL);
    }
}

static void waitany_some(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    int r[3] = { -1, -1, -1 }, s[3] = { 1, 2, 3 }, idx, seen = 0, out, ids[3];
    MPI_Request q[3], sq[3];
    MPI_Status st, sts[3];

    for (int i = 0; i < 3; i++)
        MPI_Irecv(&r[i], 1, MPI_INT, from, 20 + i, MPI_COMM_WORLD, &q[i]);
    MPI_Isend(&s[1], 1, MPI_INT, to, 21, MPI_COMM_WORLD, &sq[1]);
    MPI_Waitany(3, q, &idx, &st);
    CHECK(idx == 1 && r[1] == 2 && st.MPI_TAG == 21);
    CHECK(q[1] == MPI_REQUEST_NULL);
    MPI_Barrier(MPI_COMM_WORLD);    /* nobody sends 20/22 before this */
    MPI_Isend(&s[0], 1, MPI_INT, to, 20, MPI_COMM_WORLD, &sq[0]);
    MPI_Isend(&s[2], 1, MPI_INT, to, 22, MPI_COMM_WORLD, &sq[2]);
    while (seen < 2) {
        MPI_Waitsome(3, q, &out, ids, sts);
        CHECK(out >= 1);
        seen += out;
    }
    CHECK(r[0] == 1 && r[2] == 3);
    MPI_Waitsome(3, q, &out, ids, sts);     /* all null now */
    CHECK(out == MPI_UNDEFINED);
    MPI_Waitany(3, q, &idx, &st);
    CHECK(idx == MPI_UNDEFINED);
    MPI_Waitall(3, sq, MPI_STATUSES_IGNORE);
}

static void tests(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    int v = t_rank, r = -1, flag = 0, idx, out, ids[2];
    MPI_Request q[2], nul = MPI_REQUEST_NULL;
    MPI_Status st;

    MPI_Test(&nul, &flag, &st);             /* null request: done, empty */
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE);
    MPI_Irecv(&r, 1, MPI_INT, from, 30, MPI_COMM_WORLD, &q[0]);
    MPI_Testany(1, q, &idx, &flag, &st);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(!flag);                           /* nobody has sent yet */
    MPI_Isend(&v, 1, MPI_INT, to, 30, MPI_COMM_WORLD, &q[1]);
    do
        MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
    while (!flag);
    CHECK(r == from && q[0] == MPI_REQUEST_NULL && q[1] == MPI_REQUEST_NULL);
    MPI_Irecv(&r, 1, MPI_INT, from, 31, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(&v, 1, MPI_INT, to, 31, MPI_COMM_WORLD, &q[1]);
    int got = 0;
    while (got < 2) {
        MPI_Testsome(2, q, &out, ids, MPI_STATUSES_IGNORE);
        got += out;
    }
    CHECK(r == from);
}

static void free_active(void)
{
    /* Freeing an active send is legal: it still completes. */
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    int big = 20000, *s = malloc(big * sizeof(int)), *r = malloc(big * sizeof(int));
    MPI_Request q;

    for (int i = 0; i < big; i++)
        s[i] = i ^ t_rank;
    MPI_Isend(s, big, MPI_INT, to, 40, MPI_COMM_WORLD, &q);
    MPI_Request_free(&q);
    CHECK(q == MPI_REQUEST_NULL);
    MPI_Recv(r, big, MPI_INT, from, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < big; i++)
        ok &= r[i] == (i ^ from);
    CHECK(ok);
    MPI_Barrier(MPI_COMM_WORLD);    /* every send has been received */
    free(s);
    free(r);
}

static void cancel(void)
{
    int r = -1, flag = 0, v = 5;
    MPI_Request q;
    MPI_Status st;

    MPI_Irecv(&r, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &q);
    MPI_Cancel(&q);
    MPI_Wait(&q, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag && r == -1);
    /* a cancelled receive does not take a later message */
    MPI_Irecv(&r, 1, MPI_INT, t_rank, 98, MPI_COMM_WORLD, &q);
    MPI_Cancel(&q);
    MPI_Wait(&q, &st);
    MPI_Send(&v, 1, MPI_INT, t_rank, 98, MPI_COMM_WORLD);
    MPI_Recv(&r, 1, MPI_INT, t_rank, 98, MPI_COMM_WORLD, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(r == 5 && !flag);
    /* a matched receive cannot be cancelled */
    MPI_Irecv(&r, 1, MPI_INT, t_rank, 97, MPI_COMM_WORLD, &q);
    MPI_Send(&v, 1, MPI_INT, t_rank, 97, MPI_COMM_WORLD);
    MPI_Cancel(&q);
    MPI_Wait(&q, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag && r == 5);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "nonblocking");
    waitall_ring();
    t_report("waitall");
    waitany_some();
    t_report("waitany-waitsome");
    tests();
    t_report("test-testany-testall-testsome");
    free_active();
    t_report("request-free-active");
    cancel();
    t_report("cancel-receive");
    return t_finish();
}
