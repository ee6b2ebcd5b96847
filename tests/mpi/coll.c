/* SPDX-License-Identifier: MIT */
/* Collectives: every collective, every root, every built-in op on several
 * types (expected values computed here by looping over ranks), user ops
 * (non-commutative: operand order), IN_PLACE, v-variants. */
#include <math.h>
#include <unistd.h>
#include "mpitest.h"

static int val(int r, int i) { return (r * 7 + i * 3) % 5 + 1; }

/* Reduce and allreduce of n elements of C type T for op, checked against
 * a fold computed here. */
#define RED_TEST(T, MT, OPS)                                               \
static void red_##MT(void)                                                 \
{                                                                          \
    enum { N = 7 };                                                        \
    MPI_Op ops[] = OPS;                                                    \
    for (unsigned o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)            \
        for (int root = 0; root < t_size; root++) {                        \
            T s[N], r[N], a[N], e[N];                                      \
            for (int i = 0; i < N; i++) {                                  \
                s[i] = (T)val(t_rank, i);                                  \
                e[i] = (T)val(0, i);                                       \
            }                                                              \
            for (int k = 1; k < t_size; k++)                               \
                for (int i = 0; i < N; i++)                                \
                    e[i] = fold(ops[o], e[i], (T)val(k, i));               \
            MPI_Reduce(s, r, N, MT, ops[o], root, MPI_COMM_WORLD);         \
            MPI_Allreduce(s, a, N, MT, ops[o], MPI_COMM_WORLD);            \
            for (int i = 0; i < N; i++) {                                  \
                if (t_rank == root)                                        \
                    CHECK(r[i] == e[i]);                                   \
                CHECK(a[i] == e[i]);                                       \
            }                                                              \
        }                                                                  \
}

#define FOLD_ARITH(a, b) \
    op == MPI_MAX ? ((a) > (b) ? (a) : (b)) : \
    op == MPI_MIN ? ((a) < (b) ? (a) : (b)) : \
    op == MPI_SUM ? (a) + (b) : (a) * (b)

static long double fold_ld(MPI_Op op, long double a, long double b)
{
    return FOLD_ARITH(a, b);
}

static long long fold_ll(MPI_Op op, long long a, long long b)
{
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    if (op == MPI_BXOR) return a ^ b;
    return FOLD_ARITH(a, b);
}

#define fold(op, a, b) _Generic((a), float: fold_ld, double: fold_ld,     \
                                long double: fold_ld, default: fold_ll)    \
                                ((op), (a), (b))

#define ALL_INT_OPS { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,      \
                      MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR }
#define ARITH_OPS { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD }

RED_TEST(int, MPI_INT, ALL_INT_OPS)
RED_TEST(short, MPI_SHORT, ALL_INT_OPS)
RED_TEST(long, MPI_LONG, ALL_INT_OPS)
RED_TEST(unsigned, MPI_UNSIGNED, ALL_INT_OPS)
RED_TEST(unsigned char, MPI_UNSIGNED_CHAR, ALL_INT_OPS)
RED_TEST(long long, MPI_LONG_LONG, ALL_INT_OPS)
RED_TEST(uint64_t, MPI_UINT64_T, ALL_INT_OPS)
RED_TEST(int16_t, MPI_INT16_T, ALL_INT_OPS)
RED_TEST(float, MPI_FLOAT, ARITH_OPS)
RED_TEST(double, MPI_DOUBLE, ARITH_OPS)
RED_TEST(long double, MPI_LONG_DOUBLE, ARITH_OPS)

static void byte_ops(void)
{
    unsigned char s = (unsigned char)(1u << (t_rank % 8)), r = 0, e = 0;

    for (int k = 0; k < t_size; k++)
        e |= (unsigned char)(1u << (k % 8));
    MPI_Allreduce(&s, &r, 1, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    CHECK(r == e);
}

static void maxloc(void)
{
    struct { double v; int i; } d = { val(t_rank, 0), t_rank }, dr;
    struct { int v; int i; } n = { -val(t_rank, 1), t_rank }, nr;
    struct { float v; int i; } f = { 1.0f, t_rank }, fr;  /* ties */
    double best = -1;
    int bi = -1, low = 1 << 30, li = -1;

    for (int k = 0; k < t_size; k++) {
        if (val(k, 0) > best) { best = val(k, 0); bi = k; }
        if (-val(k, 1) < low) { low = -val(k, 1); li = k; }
    }
    MPI_Allreduce(&d, &dr, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(dr.v == best && dr.i == bi);
    MPI_Allreduce(&n, &nr, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(nr.v == low && nr.i == li);
    MPI_Allreduce(&f, &fr, 1, MPI_FLOAT_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(fr.v == 1.0f && fr.i == 0);       /* tie: lowest index */
}

/* Non-commutative: "concatenate digits", left operand first. */
static int digits(int x) { int p = 10; while (x >= p) p *= 10; return p; }
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] * digits(b[i]) + b[i];
}

static void user_ops(void)
{
    MPI_Op op;
    int mine = t_rank + 1, r = 0, e = 0;

    MPI_Op_create(concat, 0, &op);
    for (int k = 0; k < t_size; k++)
        e = e * 10 + k + 1;             /* 12345 for 5 ranks */
    for (int root = 0; root < t_size; root++) {
        r = 0;
        MPI_Reduce(&mine, &r, 1, MPI_INT, op, root, MPI_COMM_WORLD);
        if (t_rank == root)
            CHECK(r == e);
    }
    MPI_Scan(&mine, &r, 1, MPI_INT, op, MPI_COMM_WORLD);
    e = 0;
    for (int k = 0; k <= t_rank; k++)
        e = e * 10 + k + 1;
    CHECK(r == e);
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL);
}

static void scan_sum(void)
{
    double d = t_rank + 0.5, dr;
    int v[3] = { t_rank, 1, -t_rank }, vr[3];

    MPI_Scan(&d, &dr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK(dr == t_rank * (t_rank + 1) / 2.0 + 0.5 * (t_rank + 1));
    MPI_Scan(v, vr, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(vr[0] == t_rank * (t_rank + 1) / 2 && vr[1] == t_rank + 1);
}

/* MPI-2's exclusive scan (sum, and the order-keeping user op), the
 * equal-block reduce-scatter and the local reduction. */
static void mpi2_reductions(void)
{
    int mine = t_rank + 1, r = -99, e = 0, n = 3 * t_size;
    int *v = malloc(n * sizeof(int)), blk[3];
    MPI_Op op;
    double a[4] = { 1, 2, 3, 4 }, b[4] = { 10, 20, 30, 40 };

    MPI_Exscan(&mine, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (t_rank > 0)                     /* rank 0's is undefined */
        CHECK(r == t_rank * (t_rank + 1) / 2);
    MPI_Op_create(concat, 0, &op);
    r = -99;
    MPI_Exscan(&mine, &r, 1, MPI_INT, op, MPI_COMM_WORLD);
    for (int k = 0; k < t_rank; k++)
        e = e * 10 + k + 1;             /* 1234 on rank 4 */
    if (t_rank > 0)
        CHECK(r == e);
    r = mine;
    MPI_Exscan(MPI_IN_PLACE, &r, 1, MPI_INT, op, MPI_COMM_WORLD);
    if (t_rank > 0)
        CHECK(r == e);
    MPI_Op_free(&op);
    for (int i = 0; i < n; i++)
        v[i] = val(t_rank, i);
    MPI_Reduce_scatter_block(v, blk, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++) {
        int want = 0;
        for (int k = 0; k < t_size; k++)
            want += val(k, 3 * t_rank + i);
        CHECK(blk[i] == want);
    }
    MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_PROD);
    CHECK(b[0] == 10 && b[1] == 40 && b[2] == 90 && b[3] == 160);
    CHECK(a[3] == 4);
    free(v);
}

static void bcast(void)
{
    for (int n = 10; n <= 20000; n *= 2000)
        for (int root = 0; root < t_size; root++) {
            int *b = malloc(n * sizeof(int)), ok = 1;
            for (int i = 0; i < n; i++)
                b[i] = t_rank == root ? root * 1000 + i : -1;
            MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++)
                ok &= b[i] == root * 1000 + i;
            CHECK(ok);
            free(b);
        }
}

/* Rank 0 arrives 500 ms after the others; they must wait for it.  The
 * first barrier lines the ranks up, and the margin (250 ms) is for how
 * far apart they leave it on a loaded host (TCG nodes: over 50 ms). */
static void barrier(void)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0)
        usleep(500000);
    t0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank != 0)        /* nobody leaves before rank 0 arrived */
        CHECK(MPI_Wtime() - t0 > 0.25);
}

static void gather_scatter(void)
{
    int n = 3, *all = malloc(n * t_size * sizeof(int)), mine[3], ok;

    for (int root = 0; root < t_size; root++) {
        for (int i = 0; i < n; i++)
            mine[i] = t_rank * 10 + i;
        memset(all, 0xff, n * t_size * sizeof(int));
        MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD);
        if (t_rank == root) {
            ok = 1;
            for (int k = 0; k < t_size; k++)
                for (int i = 0; i < n; i++)
                    ok &= all[k * n + i] == k * 10 + i;
            CHECK(ok);
        }
        if (t_rank == root)
            for (int k = 0; k < t_size * n; k++)
                all[k] = 1000 * root + k;
        MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, root, MPI_COMM_WORLD);
        for (int i = 0; i < n; i++)
            CHECK(mine[i] == 1000 * root + t_rank * n + i);
    }
    /* allgather, and with IN_PLACE */
    for (int i = 0; i < n; i++)
        mine[i] = t_rank * 10 + i;
    MPI_Allgather(mine, n, MPI_INT, all, n, MPI_INT, MPI_COMM_WORLD);
    ok = 1;
    for (int k = 0; k < t_size * n; k++)
        ok &= all[k] == (k / n) * 10 + k % n;
    CHECK(ok);
    for (int k = 0; k < t_size * n; k++)
        all[k] = k / n == t_rank ? t_rank * 10 + k % n : -1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_INT,
                  MPI_COMM_WORLD);
    ok = 1;
    for (int k = 0; k < t_size * n; k++)
        ok &= all[k] == (k / n) * 10 + k % n;
    CHECK(ok);
    free(all);
}

static void vvariants(void)
{
    int n = t_size, total = n * (n + 1) / 2, *counts = malloc(n * sizeof(int));
    int *displs = malloc(n * sizeof(int)), *all = malloc(2 * total * sizeof(int));
    int *mine = malloc((t_rank + 1) * sizeof(int)), ok;

    for (int k = 0, d = 0; k < n; k++) {
        counts[k] = k + 1;
        displs[k] = d + k;      /* a gap of k between blocks */
        d += k + 1;
    }
    for (int root = 0; root < n; root++) {
        for (int i = 0; i <= t_rank; i++)
            mine[i] = t_rank * 100 + i;
        MPI_Gatherv(mine, t_rank + 1, MPI_INT, all, counts, displs, MPI_INT,
                    root, MPI_COMM_WORLD);
        if (t_rank == root) {
            ok = 1;
            for (int k = 0; k < n; k++)
                for (int i = 0; i <= k; i++)
                    ok &= all[displs[k] + i] == k * 100 + i;
            CHECK(ok);
            for (int k = 0; k < n; k++)
                for (int i = 0; i <= k; i++)
                    all[displs[k] + i] = root * 7 + k * 100 + i;
        }
        MPI_Scatterv(all, counts, displs, MPI_INT, mine, t_rank + 1, MPI_INT,
                     root, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i <= t_rank; i++)
            ok &= mine[i] == root * 7 + t_rank * 100 + i;
        CHECK(ok);
    }
    for (int i = 0; i <= t_rank; i++)
        mine[i] = t_rank * 100 + i;
    MPI_Allgatherv(mine, t_rank + 1, MPI_INT, all, counts, displs, MPI_INT,
                   MPI_COMM_WORLD);
    ok = 1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i <= k; i++)
            ok &= all[displs[k] + i] == k * 100 + i;
    CHECK(ok);
    /* reduce_scatter: rank k gets counts[k] sums */
    int *src = malloc(total * sizeof(int)), *got = malloc(n * sizeof(int));
    for (int i = 0; i < total; i++)
        src[i] = t_rank + i;
    MPI_Reduce_scatter(src, got, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int off = t_rank * (t_rank + 1) / 2;
    ok = 1;
    for (int i = 0; i <= t_rank; i++)
        ok &= got[i] == n * (n - 1) / 2 + n * (off + i);
    CHECK(ok);
    free(src);
    free(got);
    free(counts);
    free(displs);
    free(all);
    free(mine);
}

static void alltoall(void)
{
    int n = t_size, m = 2, *s = malloc(n * m * sizeof(int));
    int *r = malloc(n * m * sizeof(int)), ok = 1;

    for (int k = 0; k < n * m; k++)
        s[k] = t_rank * 1000 + k;
    MPI_Alltoall(s, m, MPI_INT, r, m, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < m; i++)
            ok &= r[k * m + i] == k * 1000 + t_rank * m + i;
    CHECK(ok);
    /* alltoallv: rank j sends k+1 ints to rank k */
    int *sc = malloc(n * sizeof(int)), *sd = malloc(n * sizeof(int));
    int *rc = malloc(n * sizeof(int)), *rd = malloc(n * sizeof(int));
    int *sv = malloc(n * n * sizeof(int)), *rv = malloc(n * n * sizeof(int));
    for (int k = 0; k < n; k++) {
        sc[k] = k + 1;
        sd[k] = k * n;
        rc[k] = t_rank + 1;
        rd[k] = k * n;
        for (int i = 0; i <= k; i++)
            sv[k * n + i] = t_rank * 100 + k * 10 + i;
    }
    MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD);
    ok = 1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i <= t_rank; i++)
            ok &= rv[k * n + i] == k * 100 + t_rank * 10 + i;
    CHECK(ok);
    free(s); free(r); free(sc); free(sd); free(rc); free(rd);
    free(sv); free(rv);
}

static void in_place(void)
{
    int v[2] = { t_rank, 1 }, e = t_size * (t_size - 1) / 2;

    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(v[0] == e && v[1] == t_size);
    v[0] = t_rank;
    if (t_rank == 0)
        MPI_Reduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    else
        MPI_Reduce(v, NULL, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (t_rank == 0)
        CHECK(v[0] == e);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "coll");
    barrier();
    t_report("barrier");
    bcast();
    t_report("bcast-every-root");
    red_MPI_INT(); red_MPI_SHORT(); red_MPI_LONG(); red_MPI_UNSIGNED();
    red_MPI_UNSIGNED_CHAR(); red_MPI_LONG_LONG(); red_MPI_UINT64_T();
    red_MPI_INT16_T();
    byte_ops();
    t_report("reduce-allreduce-integer-types-all-ops");
    red_MPI_FLOAT(); red_MPI_DOUBLE(); red_MPI_LONG_DOUBLE();
    t_report("reduce-allreduce-float-types");
    maxloc();
    t_report("maxloc-minloc");
    user_ops();
    t_report("user-op-noncommutative-reduce-scan");
    scan_sum();
    t_report("scan");
    mpi2_reductions();
    t_report("exscan-reduce-scatter-block-reduce-local");
    gather_scatter();
    t_report("gather-scatter-allgather");
    vvariants();
    t_report("gatherv-scatterv-allgatherv-reduce-scatter");
    alltoall();
    t_report("alltoall-alltoallv");
    in_place();
    t_report("in-place");
    return t_finish();
}
