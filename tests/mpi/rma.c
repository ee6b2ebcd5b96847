/* SPDX-License-Identifier: MIT */
/* One-sided communication: puts and gets with derived types under fence;
 * every accumulate op on several types from every rank into one target
 * (the expected values folded here over the ranks); MAXLOC/MINLOC on pair
 * types (the lock path); fetch-and-op tickets that must come out all
 * different; a compare-and-swap spin lock guarding a plain counter; an
 * exclusive lock guarding a read-modify-write; post-start-complete-wait
 * on a ring; request-based operations; dynamic and allocated windows;
 * range and synchronisation errors; every call that takes a target rank
 * given MPI_PROC_NULL, which succeeds and does nothing. */
#include "mpitest.h"

#define N 16
#define ROUNDS 20

static int to_rank(int d) { return (t_rank + d + t_size) % t_size; }

static void fence_put_get(void)
{
    int *mem = malloc(N * sizeof(int)), src[N], got[N], ok = 1;
    MPI_Win w;
    MPI_Datatype every2, blocks;
    int lens[2] = { 2, 3 }, disp[2] = { 10, 1 };

    for (int i = 0; i < N; i++) {
        mem[i] = -1;
        src[i] = t_rank * 100 + i;
    }
    MPI_Win_create(mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    /* into the next rank: src[0..3] at 2..5 */
    MPI_Put(src, 4, MPI_INT, to_rank(1), 2, 4, MPI_INT, w);
    MPI_Win_fence(0, w);
    for (int i = 0; i < N; i++)
        ok &= mem[i] == (i >= 2 && i < 6 ? to_rank(-1) * 100 + i - 2 : -1);
    CHECK(ok);
    MPI_Win_fence(0, w);        /* nobody writes before we have looked */
    /* every second int of the origin into an indexed layout: 10,11,1,2,3 */
    MPI_Type_vector(5, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    MPI_Type_indexed(2, lens, disp, MPI_INT, &blocks);
    MPI_Type_commit(&blocks);
    MPI_Put(src, 1, every2, to_rank(1), 0, 1, blocks, w);
    MPI_Win_fence(0, w);
    int from = to_rank(-1) * 100;
    CHECK(mem[10] == from && mem[11] == from + 2 && mem[1] == from + 4 &&
          mem[2] == from + 6 && mem[3] == from + 8 && mem[4] == from + 2);
    MPI_Win_fence(0, w);
    /* get them back the same way round from the previous rank */
    for (int i = 0; i < N; i++)
        got[i] = -7;
    MPI_Get(got, 1, every2, to_rank(-1), 0, 1, blocks, w);
    MPI_Win_fence(0, w);
    int back = to_rank(-2) * 100;      /* what that rank's window holds */
    CHECK(got[0] == back && got[2] == back + 2 && got[4] == back + 4 &&
          got[6] == back + 6 && got[8] == back + 8 && got[1] == -7);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
    MPI_Type_free(&every2);
    MPI_Type_free(&blocks);
    MPI_Win_free(&w);
    CHECK(w == MPI_WIN_NULL);
    free(mem);
}

/* Every rank accumulates values into rank 0 with every op the type has;
 * the result is the fold over the ranks, computed here. */
#define ACC_TEST(T, MT, INTLIKE)                                            \
static void acc_##T(void)                                                   \
{                                                                           \
    MPI_Op ops[] = { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND,         \
                     MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR,        \
                     MPI_REPLACE };                                         \
    int nops = INTLIKE ? 11 : 4;                                            \
    T *mem = malloc(12 * sizeof(T)), v[3];                                  \
    MPI_Win w;                                                              \
    MPI_Win_create(mem, 12 * sizeof(T), sizeof(T), MPI_INFO_NULL,           \
                   MPI_COMM_WORLD, &w);                                     \
    for (int o = 0; o < nops; o++) {                                        \
        for (int i = 0; i < 12; i++)                                        \
            mem[i] = (T)(i % 3 + 1);                                        \
        for (int i = 0; i < 3; i++)                                         \
            v[i] = (T)((t_rank + i) % 4 + (i == 2 ? 0 : 1));                \
        MPI_Win_fence(0, w);                                                \
        MPI_Accumulate(v, 3, MT, 0, 3 * o % 9, 3, MT, ops[o], w);           \
        MPI_Win_fence(0, w);                                                \
        if (t_rank != 0)                                                    \
            continue;                                                       \
        for (int i = 0; i < 3; i++) {                                       \
            T e = (T)(i + 1);                                               \
            int seen_replace = 0;                                           \
            for (int r = 0; r < t_size; r++) {                              \
                T x = (T)((r + i) % 4 + (i == 2 ? 0 : 1));                  \
                e = fold_##T(ops[o], e, x);                                 \
                seen_replace |= mem[3 * o % 9 + i] == x;                    \
            }                                                               \
            if (ops[o] == MPI_REPLACE)  /* some rank's, whole */            \
                CHECK(seen_replace);                                        \
            else                                                            \
                CHECK(mem[3 * o % 9 + i] == e);                             \
        }                                                                   \
    }                                                                       \
    MPI_Win_free(&w);                                                       \
    free(mem);                                                              \
}

#define FOLD_BODY                                                           \
    if (op == MPI_SUM) return a + b;                                        \
    if (op == MPI_PROD) return a * b;                                       \
    if (op == MPI_MAX) return a > b ? a : b;                                \
    if (op == MPI_MIN) return a < b ? a : b;

static long fold_long(MPI_Op op, long a, long b)
{
    FOLD_BODY
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    if (op == MPI_BXOR) return a ^ b;
    return b;
}

static int fold_int(MPI_Op op, int a, int b)
{
    return (int)fold_long(op, a, b);
}

typedef unsigned char uchar;
static uchar fold_uchar(MPI_Op op, uchar a, uchar b)
{
    return (uchar)fold_long(op, a, b);
}

static double fold_double(MPI_Op op, double a, double b)
{
    FOLD_BODY
    return b;
}

static float fold_float(MPI_Op op, float a, float b)
{
    FOLD_BODY
    return b;
}

ACC_TEST(int, MPI_INT, 1)
ACC_TEST(long, MPI_LONG, 1)
ACC_TEST(uchar, MPI_UNSIGNED_CHAR, 1)
ACC_TEST(double, MPI_DOUBLE, 0)
ACC_TEST(float, MPI_FLOAT, 0)

/* MAXLOC and MINLOC on pairs: the lock path, from every rank at once. */
static void acc_pairs(void)
{
    struct { double v; int i; } mem[2], mine[2];
    struct { int v; int i; } imem[1], imine[1];
    MPI_Win w, wi;

    mem[0].v = -1e9, mem[0].i = -1;     /* MAXLOC */
    mem[1].v = 1e9, mem[1].i = -1;      /* MINLOC */
    imem[0].v = -100, imem[0].i = -1;
    MPI_Win_create(mem, sizeof(mem), sizeof(mem[0]), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_create(imem, sizeof(imem), sizeof(imem[0]), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &wi);
    mine[0].v = mine[1].v = (t_rank * 7) % 5;   /* ties: lowest index */
    mine[0].i = mine[1].i = t_rank;
    imine[0].v = t_rank % 2;
    imine[0].i = t_rank;
    MPI_Win_lock_all(0, w);
    MPI_Win_lock_all(0, wi);
    for (int k = 0; k < 3; k++) {       /* repeated: contention */
        MPI_Accumulate(&mine[0], 1, MPI_DOUBLE_INT, 0, 0, 1, MPI_DOUBLE_INT,
                       MPI_MAXLOC, w);
        MPI_Accumulate(&mine[1], 1, MPI_DOUBLE_INT, 0, 1, 1, MPI_DOUBLE_INT,
                       MPI_MINLOC, w);
        MPI_Accumulate(imine, 1, MPI_2INT, 0, 0, 1, MPI_2INT, MPI_MAXLOC,
                       wi);
    }
    MPI_Win_unlock_all(wi);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        double best = -1, worst = 10;
        int bi = -1, wi_ = -1, ib = -1, ibi = -1;
        for (int r = 0; r < t_size; r++) {
            double v = (r * 7) % 5;
            if (v > best) best = v, bi = r;
            if (v < worst) worst = v, wi_ = r;
            if (r % 2 > ib) ib = r % 2, ibi = r;
        }
        CHECK(mem[0].v == best && mem[0].i == bi);
        CHECK(mem[1].v == worst && mem[1].i == wi_);
        CHECK(imem[0].v == ib && imem[0].i == ibi);
    }
    MPI_Win_free(&wi);
    MPI_Win_free(&w);
}

/* Tickets from one counter: all different, 0..n*ROUNDS-1. */
static void fetch_and_op(void)
{
    long counter = 0, one = 1, mine[ROUNDS], *all = NULL;
    MPI_Win w;

    MPI_Win_create(&counter, sizeof(long), sizeof(long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_lock_all(0, w);
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Fetch_and_op(&one, &mine[k], MPI_LONG, 0, 0, MPI_SUM, w);
        MPI_Win_flush(0, w);
    }
    MPI_Win_unlock_all(w);
    if (t_rank == 0)
        all = calloc((size_t)t_size * ROUNDS, sizeof(long));
    MPI_Gather(mine, ROUNDS, MPI_LONG, all, ROUNDS, MPI_LONG, 0,
               MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        char *seen = calloc((size_t)t_size * ROUNDS, 1);
        int ok = counter == (long)t_size * ROUNDS;
        for (int i = 0; i < t_size * ROUNDS; i++) {
            ok &= all[i] >= 0 && all[i] < t_size * ROUNDS && !seen[all[i]];
            if (all[i] >= 0 && all[i] < t_size * ROUNDS)
                seen[all[i]] = 1;
        }
        CHECK(ok);
        free(seen);
        free(all);
    }
    /* MPI_NO_OP reads, MPI_REPLACE swaps */
    long old = -1, nine = 9;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
    MPI_Fetch_and_op(NULL, &old, MPI_LONG, 0, 0, MPI_NO_OP, w);
    MPI_Win_unlock(0, w);
    CHECK(old == (long)t_size * ROUNDS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == t_size - 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
        MPI_Fetch_and_op(&nine, &old, MPI_LONG, 0, 0, MPI_REPLACE, w);
        MPI_Win_unlock(0, w);
        CHECK(old == (long)t_size * ROUNDS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0)
        CHECK(counter == 9);
    MPI_Win_free(&w);
}

/* A spin lock made of compare-and-swap guards a plain read-modify-write
 * of a counter at rank 0: without mutual exclusion updates are lost. */
static void cas_lock(void)
{
    int mem[2] = { 0, 0 }, zero = 0, me = t_rank + 1, old, v;
    MPI_Win w;

    MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_lock_all(0, w);
    for (int k = 0; k < ROUNDS; k++) {
        do {
            MPI_Compare_and_swap(&me, &zero, &old, MPI_INT, 0, 0, w);
            MPI_Win_flush(0, w);
        } while (old != 0);
        MPI_Get(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, w);
        MPI_Win_flush(0, w);
        v++;
        MPI_Put(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, w);
        MPI_Win_flush(0, w);
        MPI_Compare_and_swap(&zero, &me, &old, MPI_INT, 0, 0, w);
        MPI_Win_flush(0, w);
        CHECK(old == me);
    }
    double d = 1.5;
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK(MPI_Compare_and_swap(&d, &d, &d, MPI_DOUBLE, 0, 0, w) ==
          MPI_ERR_TYPE);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0)
        CHECK(mem[1] == t_size * ROUNDS && mem[0] == 0);
    MPI_Win_free(&w);
}

/* An exclusive lock serialises get, add, put on one element. */
static void exclusive_lock(void)
{
    long mem = 0, v;
    MPI_Win w;

    MPI_Win_create(&mem, sizeof(long), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &w);
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t_size - 1, 0, w);
        MPI_Get(&v, 1, MPI_LONG, t_size - 1, 0, 1, MPI_LONG, w);
        MPI_Win_flush(t_size - 1, w);
        v += t_rank + 1;
        MPI_Put(&v, 1, MPI_LONG, t_size - 1, 0, 1, MPI_LONG, w);
        MPI_Win_unlock(t_size - 1, w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == t_size - 1)
        CHECK(mem == (long)ROUNDS * t_size * (t_size + 1) / 2);
    MPI_Win_free(&w);
}

/* Post to the rank before, start on the rank after, on a ring. */
static void pscw(void)
{
    int mem[4] = { -1, -1, -1, -1 }, v[2];
    MPI_Group world, prev, next;
    MPI_Win w;
    int p = to_rank(-1), n = to_rank(1);

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &p, &prev);
    MPI_Group_incl(world, 1, &n, &next);
    MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    for (int k = 0; k < 3; k++) {
        v[0] = t_rank * 10 + k;
        v[1] = -t_rank - k;
        MPI_Win_post(prev, 0, w);
        MPI_Win_start(next, 0, w);
        MPI_Put(v, 2, MPI_INT, n, k % 3, 2, MPI_INT, w);
        MPI_Win_complete(w);
        MPI_Win_wait(w);
        CHECK(mem[k % 3] == p * 10 + k && mem[k % 3 + 1] == -p - k);
    }
    /* MPI_Win_test until it says the exposure epoch is over */
    int flag = 0;
    MPI_Win_post(prev, 0, w);
    MPI_Win_start(next, 0, w);
    MPI_Accumulate(v, 1, MPI_INT, n, 3, 1, MPI_INT, MPI_SUM, w);
    MPI_Win_complete(w);
    while (!flag)
        MPI_Win_test(w, &flag);
    CHECK(mem[3] == (-p - 2) + (p * 10 + 2));  /* the last put, plus */
    MPI_Win_free(&w);
    MPI_Group_free(&prev);
    MPI_Group_free(&next);
    MPI_Group_free(&world);
}

/* Request-based operations complete on their own. */
static void requests(void)
{
    double *mem, src[8], got[8];
    MPI_Win w;
    MPI_Request q[3];

    MPI_Win_allocate(8 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &mem, &w);
    for (int i = 0; i < 8; i++) {
        mem[i] = 0;
        src[i] = t_rank + i / 8.0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, w);
    MPI_Rput(src, 4, MPI_DOUBLE, to_rank(1), 0, 4, MPI_DOUBLE, w, &q[0]);
    MPI_Raccumulate(src, 2, MPI_DOUBLE, to_rank(1), 6, 2, MPI_DOUBLE,
                    MPI_SUM, w, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);        /* every put is in */
    MPI_Win_lock_all(0, w);
    MPI_Rget(got, 8, MPI_DOUBLE, to_rank(-1), 0, 8, MPI_DOUBLE, w, &q[2]);
    MPI_Wait(&q[2], MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(w);
    int src2 = to_rank(-2);             /* it wrote into that window */
    CHECK(got[0] == src2 && got[3] == src2 + 3 / 8.0 && got[4] == 0);
    CHECK(got[6] == src2 && got[7] == src2 + 1 / 8.0);
    int flag;
    void *base;
    MPI_Aint *size;
    int *unit, *flavor;
    MPI_Win_get_attr(w, MPI_WIN_BASE, &base, &flag);
    CHECK(flag && base == mem);
    MPI_Win_get_attr(w, MPI_WIN_SIZE, &size, &flag);
    CHECK(flag && *size == 8 * sizeof(double));
    MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == sizeof(double));
    MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE);
    MPI_Win_free(&w);
}

/* A dynamic window: memory attached after creation, reached by address. */
static void dynamic(void)
{
    int *buf = malloc(4 * sizeof(int)), v[2] = { t_rank, -t_rank };
    MPI_Aint mine, *addr = malloc(t_size * sizeof(MPI_Aint));
    MPI_Win w;

    buf[0] = buf[1] = buf[2] = buf[3] = 99;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_attach(w, buf, 4 * sizeof(int));
    MPI_Get_address(buf + 1, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    MPI_Win_fence(0, w);
    MPI_Put(v, 2, MPI_INT, to_rank(1), addr[to_rank(1)], 2, MPI_INT, w);
    MPI_Win_fence(0, w);
    CHECK(buf[0] == 99 && buf[1] == to_rank(-1) && buf[2] == -to_rank(-1) &&
          buf[3] == 99);
    /* a second region, attached after the origins learnt the first */
    long *more = malloc(8 * sizeof(long)), lv = 1000 + t_rank;
    more[5] = -1;
    MPI_Win_attach(w, more, 8 * sizeof(long));
    MPI_Get_address(more + 5, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    MPI_Win_fence(0, w);
    MPI_Accumulate(&lv, 1, MPI_LONG, to_rank(1), addr[to_rank(1)], 1,
                   MPI_LONG, MPI_REPLACE, w);
    /* and an address in no region the target attached */
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK(MPI_Put(v, 1, MPI_INT, to_rank(1), addr[to_rank(1)] + 64, 1,
                  MPI_INT, w) == MPI_ERR_RMA_RANGE);
    MPI_Win_fence(0, w);
    CHECK(more[5] == 1000 + to_rank(-1));
    MPI_Win_detach(w, more);
    MPI_Win_detach(w, buf);
    CHECK(MPI_Win_detach(w, buf) == MPI_ERR_RMA_ATTACH);
    MPI_Win_free(&w);
    free(more);
    free(buf);
    free(addr);
}

static void errors(void)
{
    int mem[4], v = 1;
    MPI_Win w;

    MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w) == MPI_ERR_RMA_SYNC);
    MPI_Win_fence(0, w);
    CHECK(MPI_Put(&v, 1, MPI_INT, 0, 4, 1, MPI_INT, w) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put(&v, 1, MPI_INT, t_size, 0, 1, MPI_INT, w) == MPI_ERR_RANK);
    CHECK(MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_MAXLOC, w) ==
          MPI_ERR_OP);
    CHECK(MPI_Win_unlock(0, w) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_lock(99, 0, 0, w) == MPI_ERR_LOCKTYPE);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
    MPI_Win_free(&w);
}

/* MPI_PROC_NULL is a valid target of every RMA call (MPI-3.1 11.3):
 * nothing moves, nothing is locked, and every call succeeds, inside
 * each kind of epoch and, for the passive target calls, outside one. */
static void proc_null(void)
{
    int mem[4] = { 5, 6, 7, 8 }, v = 1, r = -3, c = 0, n = MPI_PROC_NULL;
    MPI_Request q;
    MPI_Group g;
    MPI_Win w;

    MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    /* passive target on MPI_PROC_NULL alone */
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, n, 0, w) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT, n, 0, 1, MPI_INT, w) == MPI_SUCCESS);
    CHECK(MPI_Get(&r, 1, MPI_INT, n, 0, 1, MPI_INT, w) == MPI_SUCCESS);
    CHECK(MPI_Accumulate(&v, 1, MPI_INT, n, 0, 1, MPI_INT, MPI_SUM, w) ==
          MPI_SUCCESS);
    CHECK(MPI_Get_accumulate(&v, 1, MPI_INT, &r, 1, MPI_INT, n, 0, 1,
                             MPI_INT, MPI_SUM, w) == MPI_SUCCESS);
    CHECK(MPI_Fetch_and_op(&v, &r, MPI_INT, n, 0, MPI_SUM, w) ==
          MPI_SUCCESS);
    CHECK(MPI_Compare_and_swap(&v, &c, &r, MPI_INT, n, 0, w) ==
          MPI_SUCCESS);
    CHECK(MPI_Rput(&v, 1, MPI_INT, n, 0, 1, MPI_INT, w, &q) == MPI_SUCCESS);
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Rget(&r, 1, MPI_INT, n, 0, 1, MPI_INT, w, &q) == MPI_SUCCESS);
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Raccumulate(&v, 1, MPI_INT, n, 0, 1, MPI_INT, MPI_SUM, w,
                          &q) == MPI_SUCCESS);
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Rget_accumulate(&v, 1, MPI_INT, &r, 1, MPI_INT, n, 0, 1,
                              MPI_INT, MPI_SUM, w, &q) == MPI_SUCCESS);
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Win_flush(n, w) == MPI_SUCCESS);
    CHECK(MPI_Win_flush_local(n, w) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(n, w) == MPI_SUCCESS);
    CHECK(r == -3);                     /* nothing came back */
    /* ... while a real target is locked, and under lock_all */
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, to_rank(1), 0, w) == MPI_SUCCESS);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, n, 0, w) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT, n, 0, 1, MPI_INT, w) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(n, w) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(to_rank(1), w) == MPI_SUCCESS);
    CHECK(MPI_Win_lock_all(0, w) == MPI_SUCCESS);
    CHECK(MPI_Fetch_and_op(&v, &r, MPI_INT, n, 0, MPI_SUM, w) ==
          MPI_SUCCESS);
    CHECK(MPI_Win_flush(n, w) == MPI_SUCCESS);
    CHECK(MPI_Win_flush_local(n, w) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock_all(w) == MPI_SUCCESS);
    /* fence and post-start-complete-wait epochs */
    MPI_Win_fence(0, w);
    CHECK(MPI_Put(&v, 1, MPI_INT, n, 0, 1, MPI_INT, w) == MPI_SUCCESS);
    CHECK(MPI_Accumulate(&v, 1, MPI_INT, n, 0, 1, MPI_INT, MPI_MAX, w) ==
          MPI_SUCCESS);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
    MPI_Comm_group(MPI_COMM_SELF, &g);
    MPI_Win_post(g, 0, w);
    MPI_Win_start(g, 0, w);
    CHECK(MPI_Get(&r, 1, MPI_INT, n, 0, 1, MPI_INT, w) == MPI_SUCCESS);
    MPI_Win_complete(w);
    MPI_Win_wait(w);
    MPI_Group_free(&g);
    CHECK(r == -3);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mem[0] == 5 && mem[1] == 6 && mem[2] == 7 && mem[3] == 8);
    MPI_Win_free(&w);
}

static void accumulates(void)
{
    acc_int();
    acc_long();
    acc_uchar();
    acc_double();
    acc_float();
}

static const struct {
    const char *name;
    void (*fn)(void);
} parts[] = {
    { "fence-put-get-derived-types", fence_put_get },
    { "accumulate-every-op-every-rank", accumulates },
    { "maxloc-minloc-lock-path", acc_pairs },
    { "fetch-and-op-tickets", fetch_and_op },
    { "compare-and-swap-spin-lock", cas_lock },
    { "exclusive-lock-read-modify-write", exclusive_lock },
    { "post-start-complete-wait", pscw },
    { "request-based-allocated", requests },
    { "dynamic-window", dynamic },
    { "errors", errors },
    { "proc-null", proc_null },
};

/* rma [NAME...]: the parts named, or all. */
int main(int argc, char **argv)
{
    t_init(&argc, &argv, "rma");
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        int want = argc < 2;
        for (int k = 1; k < argc; k++)
            want |= strcmp(argv[k], parts[i].name) == 0;
        if (!want)
            continue;
        parts[i].fn();
        t_report(parts[i].name);
    }
    return t_finish();
}
