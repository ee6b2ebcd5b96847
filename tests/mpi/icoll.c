/* SPDX-License-Identifier: MIT */
/* Collectives on intercommunicators (MPI-3.1 5.2.2), each blocking and
 * nonblocking, between groups of unequal size: A = world ranks r with
 * r % 3 == 0, B = the rest (5 ranks: 2 and 3).  What each process must
 * get is computed here from the world ranks of the other group.  Then
 * intercommunicators made from one (MPI_Comm_split, MPI_Comm_create),
 * MPI_Comm_idup of intra- and intercommunicators, and scans refused. */
#include <unistd.h>
#include "mpitest.h"

static MPI_Comm inter;
static int inA, lrank, lsize, rsize;
static int lw[64], rw[64];      /* world ranks of my group, the other */

/* The world ranks of group a (1: A, 0: B), in rank order. */
static int members(int a, int *w)
{
    int n = 0;

    for (int r = 0; r < t_size; r++)
        if ((r % 3 == 0) == a)
            w[n++] = r;
    return n;
}

/* The blocking call, or the nonblocking one and a wait. */
#define RUN(nb, call, icall, ...)                                         \
    do {                                                                  \
        if (nb) {                                                         \
            MPI_Request rq_;                                              \
            CHECK(icall(__VA_ARGS__, &rq_) == MPI_SUCCESS);               \
            CHECK(MPI_Wait(&rq_, MPI_STATUS_IGNORE) == MPI_SUCCESS);      \
        } else {                                                          \
            CHECK(call(__VA_ARGS__) == MPI_SUCCESS);                      \
        }                                                                 \
    } while (0)

/* The root argument for a rooted call whose root is local rank rr of
 * group A (rootA) or of B. */
static int root_arg(bool rootA, int rr)
{
    if (inA == rootA)
        return lrank == rr ? MPI_ROOT : MPI_PROC_NULL;
    return rr;
}

static void barrier(int nb)
{
    double t0;

    if (!inA)
        usleep(200000);         /* B comes late: A must wait for it */
    t0 = MPI_Wtime();
    if (nb) {
        MPI_Request rq;
        MPI_Ibarrier(inter, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(inter);
    }
    if (inA)
        CHECK(MPI_Wtime() - t0 > 0.1);
}

static void bcast(int nb, bool rootA)
{
    int ws[64], rr = members(rootA, ws) - 1;     /* the last of its group */
    int buf[3] = { -1, -1, -1 }, root = root_arg(rootA, rr);

    if (root == MPI_ROOT)
        buf[0] = 7, buf[1] = t_rank, buf[2] = 9;
    RUN(nb, MPI_Bcast, MPI_Ibcast, buf, 3, MPI_INT, root, inter);
    if (inA != rootA) {             /* the receiving group */
        CHECK(buf[0] == 7 && buf[1] == rw[rr] && buf[2] == 9);
    } else if (root == MPI_PROC_NULL) {
        CHECK(buf[0] == -1);        /* left alone */
    }
}

static void gather_scatter(int nb, bool rootA)
{
    int rr = 0, root = root_arg(rootA, rr), n = rsize;
    int mine[2] = { t_rank, 10 * t_rank }, all[128], cnt[64], dsp[64];

    /* gather: the root gets the other group's pairs, in rank order */
    memset(all, -1, sizeof(all));
    RUN(nb, MPI_Gather, MPI_Igather, mine, 2, MPI_INT, all, 2, MPI_INT, root,
        inter);
    for (int j = 0; root == MPI_ROOT && j < n; j++)
        CHECK(all[2 * j] == rw[j] && all[2 * j + 1] == 10 * rw[j]);
    /* gatherv: remote rank j gives j+1 ints at 3j */
    int v[64];
    for (int k = 0; k < lrank + 1; k++)
        v[k] = 100 * t_rank + k;
    for (int j = 0; j < n; j++)
        cnt[j] = j + 1, dsp[j] = 3 * j;
    memset(all, -1, sizeof(all));
    RUN(nb, MPI_Gatherv, MPI_Igatherv, v, lrank + 1, MPI_INT, all, cnt, dsp,
        MPI_INT, root, inter);
    for (int j = 0; root == MPI_ROOT && j < n; j++)
        for (int k = 0; k < j + 1; k++)
            CHECK(all[3 * j + k] == 100 * rw[j] + k);
    /* scatter: the root sends remote rank j the pair (j, 5j) */
    for (int j = 0; j < n; j++)
        all[2 * j] = j, all[2 * j + 1] = 5 * j;
    int got[64] = { -1, -1 };
    RUN(nb, MPI_Scatter, MPI_Iscatter, all, 2, MPI_INT, got, 2, MPI_INT, root,
        inter);
    if (inA != rootA)
        CHECK(got[0] == lrank && got[1] == 5 * lrank);
    /* scatterv: remote rank j gets j+1 ints from 3j */
    for (int j = 0; j < 3 * n; j++)
        all[j] = 1000 + j;
    memset(got, -1, sizeof(got));
    RUN(nb, MPI_Scatterv, MPI_Iscatterv, all, cnt, dsp, MPI_INT, got,
        lrank + 1, MPI_INT, root, inter);
    for (int k = 0; inA != rootA && k < lrank + 1; k++)
        CHECK(got[k] == 1000 + 3 * lrank + k);
}

static void allgather_alltoall(int nb)
{
    int mine[2] = { t_rank, -t_rank }, all[256], cnt[64], dsp[64];

    memset(all, -1, sizeof(all));
    RUN(nb, MPI_Allgather, MPI_Iallgather, mine, 2, MPI_INT, all, 2, MPI_INT,
        inter);
    for (int j = 0; j < rsize; j++)
        CHECK(all[2 * j] == rw[j] && all[2 * j + 1] == -rw[j]);
    /* allgatherv: remote rank j gave j+1 ints */
    int v[64];
    for (int k = 0; k < lrank + 1; k++)
        v[k] = 7 * t_rank + k;
    for (int j = 0, at = 0; j < rsize; at += 2 + j, j++)
        cnt[j] = j + 1, dsp[j] = at;
    memset(all, -1, sizeof(all));
    RUN(nb, MPI_Allgatherv, MPI_Iallgatherv, v, lrank + 1, MPI_INT, all, cnt,
        dsp, MPI_INT, inter);
    for (int j = 0; j < rsize; j++)
        for (int k = 0; k < j + 1; k++)
            CHECK(all[dsp[j] + k] == 7 * rw[j] + k);
    /* alltoall: block j to remote rank j is 1000*me + its world rank */
    int s[64], r[64];
    for (int j = 0; j < rsize; j++)
        s[j] = 1000 * t_rank + rw[j];
    memset(r, -1, sizeof(r));
    RUN(nb, MPI_Alltoall, MPI_Ialltoall, s, 1, MPI_INT, r, 1, MPI_INT, inter);
    for (int j = 0; j < rsize; j++)
        CHECK(r[j] == 1000 * rw[j] + t_rank);
    /* alltoallv: j+1 copies to remote rank j, from 2j; received lrank+1
     * from each, at 4j */
    int sc[64], sd[64], rc[64], rd[64];
    for (int j = 0; j < rsize; j++) {
        sc[j] = j + 1, sd[j] = 2 * j, rc[j] = lrank + 1, rd[j] = 4 * j;
        for (int k = 0; k < j + 1; k++)
            s[2 * j + k] = 1000 * t_rank + rw[j];
    }
    memset(r, -1, sizeof(r));
    RUN(nb, MPI_Alltoallv, MPI_Ialltoallv, s, sc, sd, MPI_INT, r, rc, rd,
        MPI_INT, inter);
    for (int j = 0; j < rsize; j++)
        for (int k = 0; k < lrank + 1; k++)
            CHECK(r[4 * j + k] == 1000 * rw[j] + t_rank);
    /* alltoallw: to remote rank j two ints (bytes 8j), received as one
     * pair type at 16j bytes */
    MPI_Datatype pair, st[64], rt[64];
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int j = 0; j < rsize; j++) {
        s[2 * j] = t_rank, s[2 * j + 1] = rw[j];
        sc[j] = 2, sd[j] = 8 * j, st[j] = MPI_INT;
        rc[j] = 1, rd[j] = 16 * j, rt[j] = pair;
    }
    memset(r, -1, sizeof(r));
    RUN(nb, MPI_Alltoallw, MPI_Ialltoallw, s, sc, sd, st, r, rc, rd, rt,
        inter);
    for (int j = 0; j < rsize; j++)
        CHECK(r[4 * j] == rw[j] && r[4 * j + 1] == t_rank);
    MPI_Type_free(&pair);
}

/* A non-commutative op: 2x2 integer matrices, multiplied mod 1009. */
static void matmul(void *in, void *io, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = io;

    (void)dt;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        int c[4] = { (a[0] * b[0] + a[1] * b[2]) % 1009,
                     (a[0] * b[1] + a[1] * b[3]) % 1009,
                     (a[2] * b[0] + a[3] * b[2]) % 1009,
                     (a[2] * b[1] + a[3] * b[3]) % 1009 };
        memcpy(b, c, sizeof(c));
    }
}

static void mat_of(int w, int *m)
{
    m[0] = w + 1, m[1] = 2, m[2] = w % 3, m[3] = 1;
}

static void reductions(int nb, bool rootA)
{
    int root = root_arg(rootA, 0), v[2] = { t_rank, 1 }, s[2] = { -1, -1 };
    int sum = 0, mx = -1;

    for (int j = 0; j < rsize; j++)
        sum += rw[j], mx = rw[j] > mx ? rw[j] : mx;
    RUN(nb, MPI_Reduce, MPI_Ireduce, v, s, 2, MPI_INT, MPI_SUM, root, inter);
    if (root == MPI_ROOT)
        CHECK(s[0] == sum && s[1] == rsize);
    /* the other group's matrices, in its rank order */
    MPI_Op op;
    MPI_Datatype m4;
    int m[4], p[4] = { 1, 0, 0, 1 }, got[4] = { -1 };
    MPI_Type_contiguous(4, MPI_INT, &m4);
    MPI_Type_commit(&m4);
    MPI_Op_create(matmul, 0, &op);
    mat_of(t_rank, m);
    for (int j = 0; j < rsize; j++) {
        int q[4], one = 1;
        mat_of(rw[j], q);
        matmul(p, q, &one, NULL);   /* q = p * q */
        memcpy(p, q, sizeof(p));
    }
    RUN(nb, MPI_Reduce, MPI_Ireduce, m, got, 1, m4, op, root, inter);
    if (root == MPI_ROOT)
        CHECK(memcmp(got, p, sizeof(p)) == 0);
    /* allreduce: each group gets the other's */
    s[0] = s[1] = -1;
    RUN(nb, MPI_Allreduce, MPI_Iallreduce, v, s, 1, MPI_INT, MPI_MAX, inter);
    CHECK(s[0] == mx);
    memset(got, -1, sizeof(got));
    RUN(nb, MPI_Allreduce, MPI_Iallreduce, m, got, 1, m4, op, inter);
    CHECK(memcmp(got, p, sizeof(p)) == 0);
    MPI_Op_free(&op);
    MPI_Type_free(&m4);
}

/* reduce_scatter: vectors of 12 everywhere, dealt by my group's counts;
 * reduce_scatter_block: lsize*rsize elements, blocks of rsize here */
static void reduce_scatter(int nb)
{
    int cnt[64], vec[128], got[128], at = 0;

    for (int i = 0; i < lsize; i++)
        cnt[i] = 12 / lsize + (i < 12 % lsize);
    for (int i = 0; i < lrank; i++)
        at += cnt[i];
    for (int e = 0; e < 12; e++)
        vec[e] = 100 * t_rank + e;
    memset(got, -1, sizeof(got));
    RUN(nb, MPI_Reduce_scatter, MPI_Ireduce_scatter, vec, got, cnt, MPI_INT,
        MPI_SUM, inter);
    for (int k = 0; k < cnt[lrank]; k++) {
        int want = 0;
        for (int j = 0; j < rsize; j++)
            want += 100 * rw[j] + at + k;
        CHECK(got[k] == want);
    }
    int n = lsize * rsize;
    for (int e = 0; e < n; e++)
        vec[e] = t_rank * e;
    memset(got, -1, sizeof(got));
    RUN(nb, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, vec, got,
        rsize, MPI_INT, MPI_SUM, inter);
    for (int k = 0; k < rsize; k++) {
        int want = 0;
        for (int j = 0; j < rsize; j++)
            want += rw[j] * (lrank * rsize + k);
        CHECK(got[k] == want);
    }
}

/* MPI_Comm_split on the intercommunicator: each group by local rank
 * parity, keys reversed; a parity one group lacks makes none. */
static void split_create(void)
{
    MPI_Comm sub;
    int color = lrank % 2, n = 0, rn = 0, size, rs, sum, want = 0;

    MPI_Comm_split(inter, color, -lrank, &sub);
    for (int i = 0; i < lsize; i++)
        n += i % 2 == color;
    for (int j = 0; j < rsize; j++)
        rn += j % 2 == color;
    if (rn == 0) {
        CHECK(sub == MPI_COMM_NULL);
    } else {
        int flag = 0;
        MPI_Comm_test_inter(sub, &flag);
        MPI_Comm_size(sub, &size);
        MPI_Comm_remote_size(sub, &rs);
        CHECK(flag && size == n && rs == rn);
        /* the remote group in reversed rank order: its rank 0 is the
         * highest local rank of that parity */
        for (int j = 0; j < rsize; j++)
            if (j % 2 == color)
                want += rw[j];
        MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, sub);
        CHECK(sum == want);
        int hi = -1;
        for (int j = 0; j < rsize; j++)
            if (j % 2 == color)
                hi = j;
        MPI_Group g, wg;
        int zero = 0, w = -1;
        MPI_Comm_remote_group(sub, &g);
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(g, 1, &zero, wg, &w);
        CHECK(w == rw[hi]);
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
        MPI_Comm_free(&sub);
    }
    t_report("comm-split");

    /* MPI_Comm_create: A gives all of its group, B all but its rank 0 */
    MPI_Group lg, part;
    int drop = 0;
    MPI_Comm_group(inter, &lg);
    if (inA)
        MPI_Group_excl(lg, 0, &drop, &part);
    else
        MPI_Group_excl(lg, 1, &drop, &part);
    MPI_Comm_create(inter, part, &sub);
    int bs[64], bparts = members(0, bs) - 1;
    if ((!inA && lrank == 0) || bparts == 0) {
        CHECK(sub == MPI_COMM_NULL);
    } else {
        MPI_Comm_size(sub, &size);
        MPI_Comm_remote_size(sub, &rs);
        CHECK(size == (inA ? lsize : lsize - 1));
        CHECK(rs == (inA ? rsize - 1 : rsize));
        MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, sub);
        want = 0;
        for (int j = inA ? 1 : 0; j < rsize; j++)
            want += rw[j];
        CHECK(sum == want);
        MPI_Comm_free(&sub);
    }
    MPI_Group_free(&part);
    MPI_Group_free(&lg);
    t_report("comm-create");
}

/* MPI_Comm_idup of the intercommunicator and of world at once, with a
 * blocking dup between: three new contexts, messages never crossing. */
static void idups(void)
{
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL, c;
    MPI_Request rq[2];
    int res;

    CHECK(MPI_Comm_idup(inter, &a, &rq[0]) == MPI_SUCCESS);
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &b, &rq[1]) == MPI_SUCCESS);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECK(a != MPI_COMM_NULL && b != MPI_COMM_NULL);
    MPI_Comm_compare(b, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_CONGRUENT);
    MPI_Comm_compare(b, c, &res);
    CHECK(res == MPI_CONGRUENT);
    int flag = 0, rs = -1;
    MPI_Comm_test_inter(a, &flag);
    MPI_Comm_remote_size(a, &rs);
    CHECK(flag && rs == rsize);
    /* the same tag on b and c: each receive gets its own communicator's */
    int peer = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    int x = -1, y = -1, one = 1, two = 2;
    MPI_Request s[2];
    MPI_Isend(&one, 1, MPI_INT, peer, 5, b, &s[0]);
    MPI_Isend(&two, 1, MPI_INT, peer, 5, c, &s[1]);
    MPI_Recv(&y, 1, MPI_INT, from, 5, c, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, from, 5, b, MPI_STATUS_IGNORE);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    CHECK(x == 1 && y == 2);
    int sum = 0, want = 0;
    for (int j = 0; j < rsize; j++)
        want += rw[j];
    MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, a);
    CHECK(sum == want);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    MPI_Comm_free(&c);
    t_report("comm-idup");
}

int main(int argc, char **argv)
{
    MPI_Comm half;

    t_init(&argc, &argv, "icoll");
    if (t_size < 2) {
        t_report("needs-two-ranks");
        return t_finish();
    }
    inA = t_rank % 3 == 0;
    lsize = members(inA, lw);
    rsize = members(!inA, rw);
    MPI_Comm_split(MPI_COMM_WORLD, inA, t_rank, &half);
    MPI_Comm_rank(half, &lrank);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, inA ? 1 : 0, 31, &inter);
    for (int nb = 0; nb < 2; nb++) {
        const char *how = nb ? "nonblocking" : "blocking";
        char name[64];
        barrier(nb);
        snprintf(name, sizeof name, "barrier-waits-for-other-group-%s", how);
        t_report(name);
        bcast(nb, true);
        bcast(nb, false);
        snprintf(name, sizeof name, "bcast-%s", how);
        t_report(name);
        gather_scatter(nb, true);
        gather_scatter(nb, false);
        snprintf(name, sizeof name, "gather-scatter-v-%s", how);
        t_report(name);
        allgather_alltoall(nb);
        snprintf(name, sizeof name, "allgather-alltoall-v-w-%s", how);
        t_report(name);
        reductions(nb, true);
        reductions(nb, false);
        snprintf(name, sizeof name, "reduce-allreduce-noncommutative-%s",
                 how);
        t_report(name);
        reduce_scatter(nb);
        snprintf(name, sizeof name, "reduce-scatter-block-%s", how);
        t_report(name);
    }
    /* no scans on intercommunicators */
    int v = 1, s;
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    CHECK(MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, inter) != MPI_SUCCESS);
    CHECK(MPI_Bcast(&v, 1, MPI_INT, rsize, inter) != MPI_SUCCESS);
    t_report("scan-and-bad-root-refused");
    split_create();
    idups();
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return t_finish();
}
