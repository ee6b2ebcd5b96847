/* SPDX-License-Identifier: MIT */
/* Nonblocking collectives: each one against values computed here, while
 * the caller computes and tests; many at once on two communicators with
 * a blocking collective in between; every root, IN_PLACE, a
 * non-commutative op (operand order) in reduce, scan and exscan; barrier
 * semantics for MPI_Ibarrier (the first of a communicator agrees on
 * triggered operations, the later ones use them), and on the nodes, that
 * a triggered barrier completes while another rank computes without any
 * MPI call. */
#include <unistd.h>
#include "mpitest.h"

static int val(int r, int i) { return r * 100 + i; }

/* Computation between the start and the wait, testing now and then. */
static double compute(MPI_Request *q, int n)
{
    double x = 0;
    int flag;

    for (int i = 0; i < 20000; i++) {
        x += (double)i / (i + 1);
        if (i % 2000 == 0)
            MPI_Testall(n, q, &flag, MPI_STATUSES_IGNORE);
    }
    return x;
}

static int digits(int v)
{
    int d = 1;

    while (v >= 10)
        v /= 10, d *= 10;
    return d * 10;
}

/* a o b = a's digits then b's: not commutative */
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;

    (void)dt;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] * digits(b[i]) + b[i];
}

static void bcast_reduce(void)
{
    int n = 9, b[9], s[9], r[9], a[9];
    MPI_Request q[3];

    for (int root = 0; root < t_size; root++) {
        for (int i = 0; i < n; i++) {
            b[i] = t_rank == root ? val(root, i) : -1;
            s[i] = val(t_rank, i);
            r[i] = a[i] = -1;
        }
        MPI_Ibcast(b, n, MPI_INT, root, MPI_COMM_WORLD, &q[0]);
        MPI_Ireduce(s, r, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &q[1]);
        MPI_Iallreduce(s, a, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &q[2]);
        compute(q, 3);
        MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++) {
            int sum = 0;
            for (int k = 0; k < t_size; k++)
                sum += val(k, i);
            CHECK(b[i] == val(root, i));
            CHECK(a[i] == val(t_size - 1, i));
            if (t_rank == root)
                CHECK(r[i] == sum);
        }
    }
    /* in place */
    int v = t_rank + 1;
    MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                   &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    CHECK(v == t_size * (t_size + 1) / 2);
}

/* Ranks 1..n in order: 1234..., whatever the root. */
static void noncommutative(void)
{
    MPI_Op op;
    MPI_Request q[3];
    int mine = t_rank + 1, r = 0, sc = 0, ex = -1, e = 0, ee = 0;

    MPI_Op_create(concat, 0, &op);
    for (int k = 0; k < t_size; k++)
        e = e * 10 + k + 1;
    for (int k = 0; k < t_rank; k++)
        ee = ee * 10 + k + 1;
    MPI_Ireduce(&mine, &r, 1, MPI_INT, op, t_size - 1, MPI_COMM_WORLD, &q[0]);
    MPI_Iscan(&mine, &sc, 1, MPI_INT, op, MPI_COMM_WORLD, &q[1]);
    MPI_Iexscan(&mine, &ex, 1, MPI_INT, op, MPI_COMM_WORLD, &q[2]);
    compute(q, 3);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    if (t_rank == t_size - 1)
        CHECK(r == e);
    CHECK(sc == ee * 10 + t_rank + 1);
    if (t_rank > 0)
        CHECK(ex == ee);
    MPI_Op_free(&op);
}

static void blocks(void)
{
    int n = t_size, *all = malloc(2 * n * sizeof(int)), s2[2], *a2a, *res;
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));
    MPI_Request q[6];
    int sc[2] = { -1, -1 };

    a2a = malloc(n * sizeof(int));
    res = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        a2a[i] = val(t_rank, i);
        cnt[i] = 1;
        dsp[i] = n - 1 - i;     /* reversed */
    }
    s2[0] = val(t_rank, 0), s2[1] = val(t_rank, 1);
    int *gat = malloc(2 * n * sizeof(int)), *scat = malloc(2 * n * sizeof(int));
    for (int i = 0; i < 2 * n; i++)
        scat[i] = val(i / 2, i % 2 + 10);
    int root = n - 1;
    MPI_Iallgather(s2, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &q[0]);
    MPI_Ialltoall(a2a, 1, MPI_INT, res, 1, MPI_INT, MPI_COMM_WORLD, &q[1]);
    MPI_Igather(s2, 2, MPI_INT, gat, 2, MPI_INT, root, MPI_COMM_WORLD, &q[2]);
    MPI_Iscatter(scat, 2, MPI_INT, sc, 2, MPI_INT, 0, MPI_COMM_WORLD, &q[3]);
    int gv[64], one = val(t_rank, 7);
    MPI_Igatherv(&one, 1, MPI_INT, gv, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD,
                 &q[4]);
    int agv[64];
    MPI_Iallgatherv(&one, 1, MPI_INT, agv, cnt, dsp, MPI_INT, MPI_COMM_WORLD,
                    &q[5]);
    compute(q, 6);
    MPI_Waitall(6, q, MPI_STATUSES_IGNORE);
    for (int k = 0; k < n; k++) {
        CHECK(all[2 * k] == val(k, 0) && all[2 * k + 1] == val(k, 1));
        CHECK(res[k] == val(k, t_rank));
        if (t_rank == root)
            CHECK(gat[2 * k] == val(k, 0) && gat[2 * k + 1] == val(k, 1));
        if (t_rank == 0)
            CHECK(gv[n - 1 - k] == val(k, 7));
        CHECK(agv[n - 1 - k] == val(k, 7));
    }
    CHECK(sc[0] == val(t_rank, 10) && sc[1] == val(t_rank, 11));
    /* v-variants of all-to-all and scatter, reduce-scatter */
    int *sv = malloc(n * sizeof(int)), rv = -1;
    for (int i = 0; i < n; i++)
        sv[i] = val(i, 20);
    MPI_Iscatterv(sv, cnt, dsp, MPI_INT, &rv, 1, MPI_INT, 0, MPI_COMM_WORLD,
                  &q[0]);
    int *rs = malloc(2 * n * sizeof(int)), rsb[2] = { -1, -1 }, rsv = -1;
    for (int i = 0; i < 2 * n; i++)
        rs[i] = val(t_rank, i);
    MPI_Ireduce_scatter_block(rs, rsb, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                              &q[1]);
    MPI_Ireduce_scatter(rs, &rsv, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                        &q[2]);
    MPI_Ialltoallv(a2a, cnt, dsp, MPI_INT, res, cnt, dsp, MPI_INT,
                   MPI_COMM_WORLD, &q[3]);
    compute(q, 4);
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    CHECK(rv == val(n - 1 - t_rank, 20));
    int s0 = 0, s1 = 0, sx = 0;
    for (int k = 0; k < n; k++) {
        s0 += val(k, 2 * t_rank);
        s1 += val(k, 2 * t_rank + 1);
        sx += val(k, t_rank);
        /* block for rank i was at n-1-i on both sides */
        CHECK(res[n - 1 - k] == val(k, n - 1 - t_rank));
    }
    CHECK(rsb[0] == s0 && rsb[1] == s1 && rsv == sx);
    free(all), free(a2a), free(res), free(cnt), free(dsp), free(gat);
    free(scat), free(sv), free(rs);
}

/* Several at once on two communicators, a blocking one in between. */
static void many_at_once(void)
{
    MPI_Comm dup;
    MPI_Request q[5];
    int a = t_rank, b = -1, c = 2 * t_rank, d = -1, e = t_rank, f = -1;
    int bc = t_rank == 0 ? 77 : -1;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[0]);
    MPI_Ibarrier(dup, &q[1]);
    MPI_Iallreduce(&c, &d, 1, MPI_INT, MPI_SUM, dup, &q[2]);
    MPI_Allreduce(&e, &f, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Ibcast(&bc, 1, MPI_INT, 0, dup, &q[3]);
    MPI_Ibarrier(MPI_COMM_WORLD, &q[4]);
    MPI_Waitall(5, q, MPI_STATUSES_IGNORE);
    CHECK(b == t_size * (t_size - 1) / 2 && d == 2 * b && f == t_size - 1);
    CHECK(bc == 77);
    MPI_Comm_free(&dup);
}

/* Rank 0 arrives 400 ms late: nobody's barrier completes before.  Three
 * at once first (the first agrees, the others wait for it). */
static void ibarrier(void)
{
    MPI_Request q[3];
    double t0;

    for (int i = 0; i < 3; i++)
        MPI_Ibarrier(MPI_COMM_WORLD, &q[i]);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    for (int round = 0; round < 2; round++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        if (t_rank == 0)
            usleep(400000);
        MPI_Ibarrier(MPI_COMM_WORLD, &q[0]);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        if (t_rank != 0)
            CHECK(MPI_Wtime() - t0 > 0.2);
    }
}

#ifdef __lwk__
/* On the nodes the kernel fires the barrier's puts: rank 0's barrier
 * completes while the last rank computes without calling MPI. */
static void ibarrier_without_cpu(void)
{
    MPI_Request q;
    double t0, waited = 0;
    int busy = t_size - 1;

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Ibarrier(MPI_COMM_WORLD, &q);
    if (t_rank == busy) {
        t0 = MPI_Wtime();
        while (MPI_Wtime() - t0 < 0.5)
            ;                   /* no MPI call: no library progress */
    } else {
        t0 = MPI_Wtime();
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        waited = MPI_Wtime() - t0;
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (t_rank != busy && t_size > 1)
        CHECK(waited < 0.25);
}
#endif

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "nbc");
    bcast_reduce();
    t_report("ibcast-ireduce-iallreduce-every-root");
    noncommutative();
    t_report("noncommutative-ireduce-iscan-iexscan");
    blocks();
    t_report("gather-scatter-allgather-alltoall-v");
    many_at_once();
    t_report("many-at-once-two-comms");
    ibarrier();
    t_report("ibarrier-waits-for-the-last");
#ifdef __lwk__
    ibarrier_without_cpu();
    t_report("ibarrier-while-a-rank-computes");
#endif
    return t_finish();
}
