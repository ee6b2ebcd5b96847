/* SPDX-License-Identifier: MIT */
/* Point-to-point: every send mode, blocking/nonblocking/persistent, eager
 * and long sizes, self messages, wildcards, status and counts,
 * truncation, sendrecv(_replace), PROC_NULL. */
#include "mpitest.h"

static void fill(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 100003 + i;
}

static int same(const int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (b[i] != seed * 100003 + i)
            return 0;
    return 1;
}

/* Ring exchange of n ints in one mode: rank r sends to r+1. */
static void ring_mode(int n, int mode)
{
    int *s = malloc(n * sizeof(int) + 4), *r = malloc(n * sizeof(int) + 4);
    int to = (t_rank + 1) % t_size, from = (t_rank - 1 + t_size) % t_size;
    MPI_Request rq, sq;
    MPI_Status st;
    int cnt;

    fill(s, n, t_rank + mode);
    memset(r, 0, n * sizeof(int));
    MPI_Irecv(r, n, MPI_INT, from, 7 + mode, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);    /* receives are posted: Rsend is legal */
    switch (mode) {
    case 0: MPI_Send(s, n, MPI_INT, to, 7, MPI_COMM_WORLD); break;
    case 1: MPI_Ssend(s, n, MPI_INT, to, 8, MPI_COMM_WORLD); break;
    case 2: MPI_Rsend(s, n, MPI_INT, to, 9, MPI_COMM_WORLD); break;
    case 3: MPI_Isend(s, n, MPI_INT, to, 10, MPI_COMM_WORLD, &sq);
            MPI_Wait(&sq, MPI_STATUS_IGNORE); break;
    case 4: MPI_Issend(s, n, MPI_INT, to, 11, MPI_COMM_WORLD, &sq);
            MPI_Wait(&sq, MPI_STATUS_IGNORE); break;
    case 5: MPI_Irsend(s, n, MPI_INT, to, 12, MPI_COMM_WORLD, &sq);
            MPI_Wait(&sq, MPI_STATUS_IGNORE); break;
    }
    MPI_Wait(&rq, &st);
    CHECK(same(r, n, from + mode));
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 7 + mode);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == n);
    free(s);
    free(r);
}

/* Unexpected messages: the sender goes first, the receiver later. */
static void unexpected(int n, int sync)
{
    int *b = malloc(n * sizeof(int) + 4);
    int to = (t_rank + 1) % t_size, from = (t_rank - 1 + t_size) % t_size;
    MPI_Request sq;
    MPI_Status st;

    fill(b, n, t_rank);
    if (sync)
        MPI_Issend(b, n, MPI_INT, to, 3, MPI_COMM_WORLD, &sq);
    else
        MPI_Isend(b, n, MPI_INT, to, 3, MPI_COMM_WORLD, &sq);
    MPI_Barrier(MPI_COMM_WORLD);    /* it has arrived, or is arriving */
    int *r = malloc(n * sizeof(int) + 4);
    MPI_Recv(r, n, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(same(r, n, from));
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 3);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    free(b);
    free(r);
}

static void ssend_waits(void)
{
    /* A synchronous send cannot complete before the receive starts. */
    int x = 42, flag = 1;
    MPI_Request sq;

    if (t_size < 2)
        return;
    if (t_rank == 0) {
        MPI_Issend(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &sq);
        for (int i = 0; i < 50; i++)
            MPI_Test(&sq, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag);           /* rank 1 has not received yet */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&sq, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 1) {
            MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(x == 42);
        }
    }
}

static void bsend(void)
{
    int n = 20000, size = 2 * (n * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buf = malloc(size);
    int *a = malloc(n * sizeof(int)), *r = malloc(n * sizeof(int)), bsize;
    int to = (t_rank + 1) % t_size, from = (t_rank - 1 + t_size) % t_size;
    void *back;

    MPI_Buffer_attach(buf, size);
    fill(a, n, t_rank);
    MPI_Bsend(a, n, MPI_INT, to, 1, MPI_COMM_WORLD);
    memset(a, 0, n * sizeof(int));      /* the library kept a copy */
    fill(a, 10, t_rank + 1);
    MPI_Request q;
    MPI_Ibsend(a, 10, MPI_INT, to, 2, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Recv(r, n, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(same(r, n, from));
    MPI_Recv(r, 10, MPI_INT, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(same(r, 10, from + 1));
    MPI_Buffer_detach(&back, &bsize);
    CHECK(back == buf && bsize == size);
    free(buf);
    free(a);
    free(r);
}

static void persistent(void)
{
    int s[4], r[4];
    int to = (t_rank + 1) % t_size, from = (t_rank - 1 + t_size) % t_size;
    MPI_Request q[2];

    MPI_Recv_init(r, 4, MPI_INT, from, 9, MPI_COMM_WORLD, &q[0]);
    MPI_Send_init(s, 4, MPI_INT, to, 9, MPI_COMM_WORLD, &q[1]);
    for (int it = 0; it < 5; it++) {
        fill(s, 4, t_rank * 10 + it);
        MPI_Startall(2, q);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        CHECK(same(r, 4, from * 10 + it));
        CHECK(q[0] != MPI_REQUEST_NULL);        /* persistent: kept */
    }
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);
    CHECK(q[0] == MPI_REQUEST_NULL);
    /* every persistent send mode, started one by one with MPI_Start */
    int size = 4 * ((int)sizeof(int) * 4 + MPI_BSEND_OVERHEAD);
    char *bbuf = malloc(size);
    void *back;
    MPI_Buffer_attach(bbuf, size);
    for (int mode = 0; mode < 3; mode++) {
        MPI_Recv_init(r, 4, MPI_INT, from, 20 + mode, MPI_COMM_WORLD, &q[0]);
        if (mode == 0)
            MPI_Bsend_init(s, 4, MPI_INT, to, 20, MPI_COMM_WORLD, &q[1]);
        else if (mode == 1)
            MPI_Ssend_init(s, 4, MPI_INT, to, 21, MPI_COMM_WORLD, &q[1]);
        else
            MPI_Rsend_init(s, 4, MPI_INT, to, 22, MPI_COMM_WORLD, &q[1]);
        for (int it = 0; it < 3; it++) {
            fill(s, 4, t_rank * 7 + mode + it);
            MPI_Start(&q[0]);
            MPI_Barrier(MPI_COMM_WORLD);    /* posted: ready mode legal */
            MPI_Start(&q[1]);
            MPI_Wait(&q[1], MPI_STATUS_IGNORE);
            MPI_Wait(&q[0], MPI_STATUS_IGNORE);
            CHECK(same(r, 4, from * 7 + mode + it));
        }
        MPI_Request_free(&q[0]);
        MPI_Request_free(&q[1]);
    }
    MPI_Buffer_detach(&back, &size);
    free(bbuf);
}

static void misc(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank - 1 + t_size) % t_size;
    int v[3] = { t_rank, t_rank + 1, t_rank + 2 }, w[3], cnt;
    MPI_Status st;

    /* sendrecv and sendrecv_replace around the ring */
    MPI_Sendrecv(v, 3, MPI_INT, to, 4, w, 3, MPI_INT, from, 4,
                 MPI_COMM_WORLD, &st);
    CHECK(w[0] == from && w[2] == from + 2 && st.MPI_SOURCE == from);
    MPI_Sendrecv_replace(v, 3, MPI_INT, to, 5, from, 5, MPI_COMM_WORLD, &st);
    CHECK(v[0] == from && v[1] == from + 1);
    /* PROC_NULL: immediate, empty status */
    MPI_Send(v, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    MPI_Recv(w, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && cnt == 0);
    /* self: standard send before the receive (held), and the reverse */
    MPI_Send(v, 3, MPI_INT, t_rank, 6, MPI_COMM_WORLD);
    MPI_Recv(w, 3, MPI_INT, t_rank, 6, MPI_COMM_WORLD, &st);
    CHECK(w[0] == v[0] && w[2] == v[2] && st.MPI_SOURCE == t_rank);
    MPI_Request q;
    MPI_Irecv(w, 3, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_SELF, &q);
    MPI_Send(v, 3, MPI_INT, 0, 8, MPI_COMM_SELF);
    MPI_Wait(&q, &st);
    CHECK(w[1] == v[1] && st.MPI_SOURCE == 0);
    /* counts: 3 ints = 12 bytes; as doubles undefined */
    MPI_Send(v, 3, MPI_INT, t_rank, 9, MPI_COMM_WORLD);
    MPI_Recv(w, 3, MPI_INT, t_rank, 9, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == 12);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(cnt == MPI_UNDEFINED);
    MPI_Get_elements(&st, MPI_SHORT, &cnt);
    CHECK(cnt == 6);
}

static void truncation(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank - 1 + t_size) % t_size;
    static int big[30000];
    int small[10], rc;
    MPI_Status st;

    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int sz = 20; sz <= 30000; sz *= 1500) {     /* eager, then long */
        MPI_Request q;
        MPI_Isend(big, sz, MPI_INT, to, 1, MPI_COMM_WORLD, &q);
        rc = MPI_Recv(small, 10, MPI_INT, from, 1, MPI_COMM_WORLD, &st);
        CHECK(rc == MPI_ERR_TRUNCATE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "p2p");
    for (int m = 0; m < 6; m++)
        ring_mode(100, m);
    t_report("modes-eager");
    for (int m = 0; m < 6; m++)
        ring_mode(100000, m);
    t_report("modes-long");
    unexpected(10, 0);
    unexpected(50000, 0);
    t_report("unexpected-eager-long");
    unexpected(10, 1);
    unexpected(50000, 1);
    t_report("unexpected-sync");
    ssend_waits();
    t_report("ssend-waits-for-receiver");
    bsend();
    t_report("bsend");
    persistent();
    t_report("persistent");
    misc();
    t_report("sendrecv-procnull-self-counts");
    truncation();
    t_report("truncate");
    return t_finish();
}
