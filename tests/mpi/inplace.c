/* SPDX-License-Identifier: MIT */
/* MPI_IN_PLACE in every collective that has it (MPI-3.1 5.2.3), blocking
 * and nonblocking: the arguments the standard says are ignored get
 * values that would be errors if they were read (count -1,
 * MPI_DATATYPE_NULL, NULL arrays and buffers), and every result is
 * checked against values computed here.  Also the receive arguments of
 * non-root ranks of gather, and the send ones of scatter, which are
 * ignored without MPI_IN_PLACE.  An all-to-all in place also goes with
 * a non-contiguous receive type. */
#include "mpitest.h"

#define NB 3                    /* ints per block */
#define BAD MPI_DATATYPE_NULL

static int nonblocking;

/* Rank r's k-th int for rank j. */
static int v(int r, int j, int k) { return 1000 * r + 10 * j + k; }

/* Wait for q if nonblocking; rc is the call's. */
static int done(int rc, MPI_Request *q)
{
    if (rc == MPI_SUCCESS && nonblocking)
        rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    return rc;
}

static void gathers(void)
{
    int n = t_size, root = n - 1, *all = malloc(n * NB * sizeof(int));
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));
    MPI_Request q;
    int rc;

    for (int i = 0; i < n; i++)
        cnt[i] = NB, dsp[i] = (n - 1 - i) * NB;     /* blocks reversed */
    for (int pass = 0; pass < 2; pass++) {     /* gather, gatherv */
        for (int i = 0; i < n * NB; i++)
            all[i] = -1;
        int mine[NB];
        for (int k = 0; k < NB; k++)
            mine[k] = v(t_rank, 0, k);
        if (t_rank == root)     /* the root's block already in place */
            for (int k = 0; k < NB; k++)
                all[(pass ? dsp[root] : root * NB) + k] = v(root, 0, k);
        const void *s = t_rank == root ? MPI_IN_PLACE : mine;
        int sc = t_rank == root ? -1 : NB;
        MPI_Datatype st = t_rank == root ? BAD : MPI_INT;
        void *r = t_rank == root ? all : NULL;
        int rcnt = t_rank == root ? NB : -1;
        MPI_Datatype rt = t_rank == root ? MPI_INT : BAD;
        if (pass == 0)
            rc = nonblocking ? MPI_Igather(s, sc, st, r, rcnt, rt, root,
                                           MPI_COMM_WORLD, &q)
                             : MPI_Gather((void *)s, sc, st, r, rcnt, rt,
                                          root, MPI_COMM_WORLD);
        else
            rc = nonblocking ? MPI_Igatherv(s, sc, st, r,
                                            t_rank == root ? cnt : NULL,
                                            t_rank == root ? dsp : NULL, rt,
                                            root, MPI_COMM_WORLD, &q)
                             : MPI_Gatherv((void *)s, sc, st, r,
                                           t_rank == root ? cnt : NULL,
                                           t_rank == root ? dsp : NULL, rt,
                                           root, MPI_COMM_WORLD);
        CHECK(done(rc, &q) == MPI_SUCCESS);
        for (int i = 0; t_rank == root && i < n; i++)
            for (int k = 0; k < NB; k++)
                CHECK(all[(pass ? dsp[i] : i * NB) + k] == v(i, 0, k));
    }
    free(all);
    free(cnt);
    free(dsp);
}

static void scatters(void)
{
    int n = t_size, root = n / 2, *all = malloc(n * NB * sizeof(int));
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));
    MPI_Request q;
    int rc;

    for (int i = 0; i < n; i++)
        cnt[i] = NB, dsp[i] = (n - 1 - i) * NB;
    for (int pass = 0; pass < 2; pass++) {     /* scatter, scatterv */
        int got[NB] = { -1, -1, -1 };
        for (int i = 0; i < n; i++)
            for (int k = 0; k < NB; k++)
                all[(pass ? dsp[i] : i * NB) + k] = v(root, i, k);
        const void *s = t_rank == root ? all : NULL;
        int sc = t_rank == root ? NB : -1;
        MPI_Datatype st = t_rank == root ? MPI_INT : BAD;
        void *r = t_rank == root ? MPI_IN_PLACE : got;
        int rcnt = t_rank == root ? -1 : NB;
        MPI_Datatype rt = t_rank == root ? BAD : MPI_INT;
        const int *c = t_rank == root ? cnt : NULL;
        const int *d = t_rank == root ? dsp : NULL;
        if (pass == 0)
            rc = nonblocking ? MPI_Iscatter(s, sc, st, r, rcnt, rt, root,
                                            MPI_COMM_WORLD, &q)
                             : MPI_Scatter((void *)s, sc, st, r, rcnt, rt,
                                           root, MPI_COMM_WORLD);
        else
            rc = nonblocking ? MPI_Iscatterv(s, c, d, st, r, rcnt, rt, root,
                                             MPI_COMM_WORLD, &q)
                             : MPI_Scatterv((void *)s, (int *)c, (int *)d,
                                            st, r, rcnt, rt, root,
                                            MPI_COMM_WORLD);
        CHECK(done(rc, &q) == MPI_SUCCESS);
        for (int k = 0; k < NB; k++)
            CHECK(t_rank == root ? all[(pass ? dsp[root] : root * NB) + k] ==
                                   v(root, root, k)
                                 : got[k] == v(root, t_rank, k));
    }
    free(all);
    free(cnt);
    free(dsp);
}

static void allgathers(void)
{
    int n = t_size, *all = malloc(2 * n * NB * sizeof(int));
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));
    MPI_Request q;
    int rc;

    for (int i = 0; i < n; i++)     /* v: blocks of i%NB+1, gaps between */
        cnt[i] = i % NB + 1, dsp[i] = 2 * NB * (n - 1 - i) + 1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 2 * n * NB; i++)
            all[i] = -1;
        int at = pass ? dsp[t_rank] : t_rank * NB;
        for (int k = 0; k < (pass ? cnt[t_rank] : NB); k++)
            all[at + k] = v(t_rank, 0, k);
        if (pass == 0)
            rc = nonblocking ? MPI_Iallgather(MPI_IN_PLACE, -1, BAD, all, NB,
                                              MPI_INT, MPI_COMM_WORLD, &q)
                             : MPI_Allgather(MPI_IN_PLACE, -1, BAD, all, NB,
                                             MPI_INT, MPI_COMM_WORLD);
        else
            rc = nonblocking ? MPI_Iallgatherv(MPI_IN_PLACE, -1, BAD, all,
                                               cnt, dsp, MPI_INT,
                                               MPI_COMM_WORLD, &q)
                             : MPI_Allgatherv(MPI_IN_PLACE, -1, BAD, all,
                                              cnt, dsp, MPI_INT,
                                              MPI_COMM_WORLD);
        CHECK(done(rc, &q) == MPI_SUCCESS);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < (pass ? cnt[i] : NB); k++)
                CHECK(all[(pass ? dsp[i] : i * NB) + k] == v(i, 0, k));
        if (pass)                       /* the gaps untouched */
            CHECK(all[0] == -1);
    }
    free(all);
    free(cnt);
    free(dsp);
}

/* In place, each rank sends rcounts[j] to j and receives as much: the
 * counts must be symmetric, c(r, j) == c(j, r). */
static int pair_count(int r, int j) { return (r + j) % NB + 1; }

static void alltoalls(void)
{
    int n = t_size, *all = malloc(2 * n * NB * sizeof(int) * 2);
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));
    MPI_Datatype strided;
    MPI_Request q;
    int rc;

    /* alltoall: block j of NB ints for j, replaced by j's block for me */
    for (int j = 0; j < n; j++)
        for (int k = 0; k < NB; k++)
            all[j * NB + k] = v(t_rank, j, k);
    rc = nonblocking ? MPI_Ialltoall(MPI_IN_PLACE, -1, BAD, all, NB, MPI_INT,
                                     MPI_COMM_WORLD, &q)
                     : MPI_Alltoall(MPI_IN_PLACE, -1, BAD, all, NB, MPI_INT,
                                    MPI_COMM_WORLD);
    CHECK(done(rc, &q) == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < NB; k++)
            CHECK(all[j * NB + k] == v(j, t_rank, k));
    /* the same with every other int: a receive type with holes */
    MPI_Type_vector(NB, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (int i = 0; i < 2 * n * NB; i++)
        all[i] = -1;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < NB; k++)
            all[j * (2 * NB - 1) + 2 * k] = v(t_rank, j, k);
    rc = nonblocking ? MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_INT, all, 1,
                                     strided, MPI_COMM_WORLD, &q)
                     : MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, all, 1,
                                    strided, MPI_COMM_WORLD);
    CHECK(done(rc, &q) == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < NB; k++) {
            CHECK(all[j * (2 * NB - 1) + 2 * k] == v(j, t_rank, k));
            if (k < NB - 1)
                CHECK(all[j * (2 * NB - 1) + 2 * k + 1] == -1);
        }
    MPI_Type_free(&strided);
    /* alltoallv: blocks of pair_count ints, in reverse order, gaps */
    for (int j = 0, at = 1; j < n; j++) {
        int jj = n - 1 - j;
        cnt[jj] = pair_count(t_rank, jj);
        dsp[jj] = at;
        at += cnt[jj] + 1;
    }
    for (int i = 0; i < 2 * n * NB; i++)
        all[i] = -1;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < cnt[j]; k++)
            all[dsp[j] + k] = v(t_rank, j, k);
    rc = nonblocking ? MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, BAD, all, cnt,
                                      dsp, MPI_INT, MPI_COMM_WORLD, &q)
                     : MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, BAD, all, cnt,
                                     dsp, MPI_INT, MPI_COMM_WORLD);
    CHECK(done(rc, &q) == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < cnt[j]; k++)
            CHECK(all[dsp[j] + k] == v(j, t_rank, k));
    CHECK(all[0] == -1);
    free(all);
    free(cnt);
    free(dsp);
}

/* The sum over ranks 0..last of v(r, 0, k) + j. */
static int sum(int last, int j, int k)
{
    int s = 0;

    for (int r = 0; r <= last; r++)
        s += v(r, 0, k) + j;
    return s;
}

static void reductions(void)
{
    int n = t_size, root = (n + 1) / 2 % n, buf[NB], *all;
    int *cnt = malloc(n * sizeof(int)), tot = 0, off = 0;
    MPI_Request q;
    int rc;

    /* reduce: the root's operand in its receive buffer, the others'
       receive buffer ignored (NULL) */
    for (int k = 0; k < NB; k++)
        buf[k] = v(t_rank, 0, k);
    rc = nonblocking
         ? MPI_Ireduce(t_rank == root ? MPI_IN_PLACE : buf,
                       t_rank == root ? buf : NULL, NB, MPI_INT, MPI_SUM,
                       root, MPI_COMM_WORLD, &q)
         : MPI_Reduce(t_rank == root ? MPI_IN_PLACE : buf,
                      t_rank == root ? buf : NULL, NB, MPI_INT, MPI_SUM, root,
                      MPI_COMM_WORLD);
    CHECK(done(rc, &q) == MPI_SUCCESS);
    for (int k = 0; k < NB && t_rank == root; k++)
        CHECK(buf[k] == sum(n - 1, 0, k));
    /* allreduce, scan, exscan */
    for (int op = 0; op < 3; op++) {
        for (int k = 0; k < NB; k++)
            buf[k] = v(t_rank, 0, k);
        if (op == 0)
            rc = nonblocking ? MPI_Iallreduce(MPI_IN_PLACE, buf, NB, MPI_INT,
                                              MPI_SUM, MPI_COMM_WORLD, &q)
                             : MPI_Allreduce(MPI_IN_PLACE, buf, NB, MPI_INT,
                                             MPI_SUM, MPI_COMM_WORLD);
        else if (op == 1)
            rc = nonblocking ? MPI_Iscan(MPI_IN_PLACE, buf, NB, MPI_INT,
                                         MPI_SUM, MPI_COMM_WORLD, &q)
                             : MPI_Scan(MPI_IN_PLACE, buf, NB, MPI_INT,
                                        MPI_SUM, MPI_COMM_WORLD);
        else
            rc = nonblocking ? MPI_Iexscan(MPI_IN_PLACE, buf, NB, MPI_INT,
                                           MPI_SUM, MPI_COMM_WORLD, &q)
                             : MPI_Exscan(MPI_IN_PLACE, buf, NB, MPI_INT,
                                          MPI_SUM, MPI_COMM_WORLD);
        CHECK(done(rc, &q) == MPI_SUCCESS);
        int last = op == 0 ? n - 1 : op == 1 ? t_rank : t_rank - 1;
        for (int k = 0; k < NB && last >= 0; k++)   /* exscan: rank 0 */
            CHECK(buf[k] == sum(last, 0, k));       /* undefined */
    }
    /* reduce_scatter: the whole vector comes in the receive buffer, my
       part goes to its start; then the block form */
    for (int i = 0; i < n; i++)
        tot += cnt[i] = i % NB + 1;
    all = malloc(tot * sizeof(int) + n * NB * sizeof(int));
    for (int i = 0; i < tot; i++)
        all[i] = v(t_rank, 0, 0) + i;
    rc = nonblocking ? MPI_Ireduce_scatter(MPI_IN_PLACE, all, cnt, MPI_INT,
                                           MPI_SUM, MPI_COMM_WORLD, &q)
                     : MPI_Reduce_scatter(MPI_IN_PLACE, all, cnt, MPI_INT,
                                          MPI_SUM, MPI_COMM_WORLD);
    CHECK(done(rc, &q) == MPI_SUCCESS);
    for (int i = 0; i < t_rank; i++)
        off += cnt[i];
    for (int k = 0; k < cnt[t_rank]; k++)
        CHECK(all[k] == sum(n - 1, off + k, 0));
    for (int i = 0; i < n * NB; i++)
        all[i] = v(t_rank, 0, 0) + i;
    rc = nonblocking
         ? MPI_Ireduce_scatter_block(MPI_IN_PLACE, all, NB, MPI_INT, MPI_SUM,
                                     MPI_COMM_WORLD, &q)
         : MPI_Reduce_scatter_block(MPI_IN_PLACE, all, NB, MPI_INT, MPI_SUM,
                                    MPI_COMM_WORLD);
    CHECK(done(rc, &q) == MPI_SUCCESS);
    for (int k = 0; k < NB; k++)
        CHECK(all[k] == sum(n - 1, t_rank * NB + k, 0));
    free(all);
    free(cnt);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } parts[] = { { "gather-gatherv", gathers },
                  { "scatter-scatterv", scatters },
                  { "allgather-allgatherv", allgathers },
                  { "alltoall-alltoallv", alltoalls },
                  { "reductions-scans-reduce-scatter", reductions } };
    char name[80];

    t_init(&argc, &argv, "inplace");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (nonblocking = 0; nonblocking < 2; nonblocking++)
        for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
            parts[i].fn();
            snprintf(name, sizeof(name), "%s%s", parts[i].name,
                     nonblocking ? "-nonblocking" : "");
            t_report(name);
        }
    return t_finish();
}
