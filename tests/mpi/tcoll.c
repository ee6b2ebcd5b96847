/* SPDX-License-Identifier: MIT */
/* Triggered MPI_Ibcast (up to 4 KiB) and MPI_Iallreduce (up to 512 B of
 * an op Portals atomics carry), mpi/nbc_tcoll.c, each result against
 * values computed here:
 *   rounds      24 rounds of 6 Ibcast/Iallreduce pairs in flight, the
 *               root moving every call, ranks entering late by turns;
 *   limits      4096 and 512 bytes are triggered, one element more is
 *               not (MPIX_Tcoll_count says which way each went), and
 *               ops Portals has not (MAXLOC, a user op) go by software;
 *   types       every op on the types the atomics carry, derived and
 *               strided types, MPI_IN_PLACE;
 *   mixed       triggered calls with an Ibarrier, a software collective
 *               and a blocking one on a duplicate among them; 40 in
 *               flight (more than the 16 the library keeps: it waits);
 *   while-a-rank-computes  (on the nodes) rank size/2 computes 0.6 s
 *               without any MPI call; the others must be done within
 *               0.3 s (a software schedule needs that rank's CPU: 0.6 s
 *               at least).  On Linux libportals has no progress thread:
 *               triggers fire inside Portals calls, so it is not asked.
 * `tcoll NAME` runs one part. */
#include <time.h>
#include <unistd.h>
#include "mpitest.h"

/* value i of rank r's operand in call k */
static int val(int r, int k, int i) { return (r * 31 + k * 7 + i) % 1000; }

#define PAIRS 6
#define BMAX 1024       /* ints: 4 KiB */
#define RMAX 128        /* ints: 512 B */

static void rounds(void)
{
    static int b[PAIRS][BMAX], s[PAIRS][RMAX], a[PAIRS][RMAX];
    static const int bn[PAIRS] = { 1, 7, BMAX, 100, BMAX, 3 };
    static const int rn[PAIRS] = { 1, RMAX, 5, RMAX, 64, 2 };
    MPI_Op ops[3] = { MPI_SUM, MPI_MIN, MPI_MAX };
    MPI_Request q[2 * PAIRS];
    int before = MPIX_Tcoll_count();

    for (int round = 0; round < 24; round++) {
        for (int j = 0; j < PAIRS; j++) {
            int k = round * PAIRS + j, root = k % t_size;
            for (int i = 0; i < bn[j]; i++)
                b[j][i] = t_rank == root ? val(root, k, i) : -1;
            for (int i = 0; i < rn[j]; i++)
                s[j][i] = val(t_rank, k, i), a[j][i] = -1;
        }
        if ((t_rank + round) % 3 == 0)          /* late by turns */
            usleep(2000 * (unsigned)(1 + round % 4));
        for (int j = 0; j < PAIRS; j++) {
            int k = round * PAIRS + j;
            MPI_Ibcast(b[j], bn[j], MPI_INT, k % t_size, MPI_COMM_WORLD,
                       &q[2 * j]);
            MPI_Iallreduce(s[j], a[j], rn[j], MPI_INT, ops[k % 3],
                           MPI_COMM_WORLD, &q[2 * j + 1]);
        }
        MPI_Waitall(2 * PAIRS, q, MPI_STATUSES_IGNORE);
        for (int j = 0; j < PAIRS; j++) {
            int k = round * PAIRS + j, bad = 0;
            for (int i = 0; i < bn[j]; i++)
                bad += b[j][i] != val(k % t_size, k, i);
            for (int i = 0; i < rn[j]; i++) {
                int want = val(0, k, i);
                for (int r = 1; r < t_size; r++) {
                    int v = val(r, k, i);
                    want = k % 3 == 0 ? want + v :
                           k % 3 == 1 ? (v < want ? v : want)
                                      : (v > want ? v : want);
                }
                bad += a[j][i] != want;
            }
            CHECK(bad == 0);
        }
    }
    CHECK(MPIX_Tcoll_count() - before == (t_size > 1 ? 24 * 2 * PAIRS : 0));
}

static void user_max(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *x = in, *y = inout;

    (void)dt;
    for (int i = 0; i < *len; i++)
        if (x[i] > y[i])
            y[i] = x[i];
}

/* One Ibcast of n bytes from root and one Iallreduce SUM of m ints: did
 * each take the triggered path (+1 each on the count)? */
static void limit_case(int n, int m, int root, int want_b, int want_a)
{
    static unsigned char b[BMAX * 4 + 1];
    static int s[RMAX + 1], a[RMAX + 1];
    MPI_Request q[2];
    int c0, c1, bad = 0;

    for (int i = 0; i < n; i++)
        b[i] = t_rank == root ? (unsigned char)(i * 13 + root) : 0;
    for (int i = 0; i < m; i++)
        s[i] = val(t_rank, n, i), a[i] = 0;
    c0 = MPIX_Tcoll_count();
    MPI_Ibcast(b, n, MPI_BYTE, root, MPI_COMM_WORLD, &q[0]);
    c1 = MPIX_Tcoll_count();
    MPI_Iallreduce(s, a, m, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[1]);
    CHECK(c1 - c0 == want_b);
    CHECK(MPIX_Tcoll_count() - c1 == want_a);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; i++)
        bad += b[i] != (unsigned char)(i * 13 + root);
    for (int i = 0; i < m; i++) {
        int sum = 0;
        for (int r = 0; r < t_size; r++)
            sum += val(r, n, i);
        bad += a[i] != sum;
    }
    CHECK(bad == 0);
}

static void limits(void)
{
    int trig = t_size > 1;
    MPI_Op umax;
    MPI_Request q;
    struct { int v, r; } in, out;
    int x[4], y[4], c;

    limit_case(4096, RMAX, 0, trig, trig);
    limit_case(4097, RMAX + 1, t_size - 1, 0, 0);
    limit_case(1, 1, t_size / 2, trig, trig);
    /* ops Portals does not carry: the software schedule, right values */
    c = MPIX_Tcoll_count();
    in.v = (t_rank * 7) % 5, in.r = t_rank;
    MPI_Iallreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int best = -1, at = -1;
    for (int r = 0; r < t_size; r++)
        if ((r * 7) % 5 > best)
            best = (r * 7) % 5, at = r;
    CHECK(out.v == best && out.r == at);
    MPI_Op_create(user_max, 1, &umax);
    for (int i = 0; i < 4; i++)
        x[i] = val(t_rank, 9, i), y[i] = -1;
    MPI_Iallreduce(x, y, 4, MPI_INT, umax, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; i++) {
        int m = -1;
        for (int r = 0; r < t_size; r++)
            m = val(r, 9, i) > m ? val(r, 9, i) : m;
        CHECK(y[i] == m);
    }
    MPI_Op_free(&umax);
    CHECK(MPIX_Tcoll_count() == c);
}

static void types(void)
{
    MPI_Request q[10];
    double d[8], dr[8];
    float f[3], fr[3];
    long l[4], lr[4];
    unsigned char u[5], ur[5];
    short h[6], hr[6];
    int li[3], lir[3], ip[4], blk[8], blkr[8], vec[12];
    MPI_Datatype four, strided;
    int c = MPIX_Tcoll_count(), n = t_size;

    for (int i = 0; i < 8; i++)
        d[i] = t_rank * 1.5 + i, blk[i] = val(t_rank, 3, i);
    for (int i = 0; i < 3; i++)
        f[i] = (float)((t_rank * 5 + i) % 7) - 3.5f, li[i] = (t_rank + i) % 3 != 0;
    for (int i = 0; i < 4; i++)
        l[i] = (long)val(t_rank, 4, i) << 33, ip[i] = t_rank + i;
    for (int i = 0; i < 5; i++)
        u[i] = (unsigned char)(1u << ((t_rank + i) % 8));
    for (int i = 0; i < 6; i++)
        h[i] = (short)(0x7fff ^ (1 << ((t_rank + i) % 15)));
    for (int i = 0; i < 12; i++)
        vec[i] = t_rank == 1 % n ? 1000 + i : -1;
    MPI_Type_contiguous(4, MPI_INT, &four);
    MPI_Type_commit(&four);
    MPI_Type_vector(4, 1, 3, MPI_INT, &strided);    /* 0, 3, 6, 9 */
    MPI_Type_commit(&strided);
    MPI_Iallreduce(d, dr, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[0]);
    MPI_Iallreduce(f, fr, 3, MPI_FLOAT, MPI_MIN, MPI_COMM_WORLD, &q[1]);
    MPI_Iallreduce(l, lr, 4, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &q[2]);
    MPI_Iallreduce(u, ur, 5, MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD,
                   &q[3]);
    MPI_Iallreduce(h, hr, 6, MPI_SHORT, MPI_BAND, MPI_COMM_WORLD, &q[4]);
    MPI_Iallreduce(li, lir, 3, MPI_INT, MPI_LAND, MPI_COMM_WORLD, &q[5]);
    MPI_Iallreduce(MPI_IN_PLACE, ip, 4, MPI_INT, MPI_BXOR, MPI_COMM_WORLD,
                   &q[6]);
    MPI_Iallreduce(blk, blkr, 2, four, MPI_SUM, MPI_COMM_WORLD, &q[7]);
    MPI_Ibcast(vec, 1, strided, 1 % n, MPI_COMM_WORLD, &q[8]);
    MPI_Iallreduce(l, lr, 0, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &q[9]);
    CHECK(MPIX_Tcoll_count() - c == (n > 1 ? 9 : 0));
    MPI_Waitall(10, q, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 8; i++) {
        double sd = 0;
        int sb = 0;
        for (int r = 0; r < n; r++)
            sd += r * 1.5 + i, sb += val(r, 3, i);
        CHECK(dr[i] == sd && blkr[i] == sb);
    }
    for (int i = 0; i < 3; i++) {
        float m = 1e9f;
        int land = 1;
        for (int r = 0; r < n; r++) {
            float v = (float)((r * 5 + i) % 7) - 3.5f;
            m = v < m ? v : m;
            land = land && (r + i) % 3;
        }
        CHECK(fr[i] == m && lir[i] == land);
    }
    for (int i = 0; i < 4; i++) {
        long m = 0;
        int x = 0;
        for (int r = 0; r < n; r++) {
            long v = (long)val(r, 4, i) << 33;
            m = v > m ? v : m;
            x ^= r + i;
        }
        CHECK(lr[i] == m && ip[i] == x);
    }
    for (int i = 0; i < 5; i++) {
        unsigned o = 0;
        for (int r = 0; r < n; r++)
            o |= 1u << ((r + i) % 8);
        CHECK(ur[i] == o);
    }
    for (int i = 0; i < 6; i++) {
        int a = 0xffff;
        for (int r = 0; r < n; r++)
            a &= 0x7fff ^ (1 << ((r + i) % 15));
        CHECK(hr[i] == (short)a);
    }
    for (int i = 0; i < 12; i++)        /* only the strided ints move */
        CHECK(vec[i] == (i % 3 == 0 || t_rank == 1 % n ? 1000 + i : -1));
    MPI_Type_free(&four);
    MPI_Type_free(&strided);
}

static void mixed(void)
{
    enum { N = 40 };
    static int x[N][4], y[N][4];
    MPI_Comm dup;
    MPI_Request q[N + 3];
    int big[300], bigr[300], one = 1, all = 0, bad = 0;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int i = 0; i < 300; i++)
        big[i] = val(t_rank, 5, i);
    for (int k = 0; k < N; k++) {
        for (int i = 0; i < 4; i++)
            x[k][i] = val(t_rank, k, i), y[k][i] = 0;
        MPI_Iallreduce(x[k], y[k], 4, MPI_INT, MPI_SUM,
                       k % 2 ? dup : MPI_COMM_WORLD, &q[k]);
        if (k == 5)
            MPI_Ibarrier(MPI_COMM_WORLD, &q[N]);
        if (k == 9)
            MPI_Iallreduce(big, bigr, 300, MPI_INT, MPI_SUM, dup, &q[N + 1]);
        if (k == 12)
            MPI_Ibarrier(dup, &q[N + 2]);
        if (k == 20)
            MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, dup);
    }
    MPI_Waitall(N + 3, q, MPI_STATUSES_IGNORE);
    CHECK(all == t_size);
    for (int k = 0; k < N; k++)
        for (int i = 0; i < 4; i++) {
            int sum = 0;
            for (int r = 0; r < t_size; r++)
                sum += val(r, k, i);
            bad += y[k][i] != sum;
        }
    for (int i = 0; i < 300; i++) {
        int sum = 0;
        for (int r = 0; r < t_size; r++)
            sum += val(r, 5, i);
        bad += bigr[i] != sum;
    }
    CHECK(bad == 0);
    MPI_Comm_free(&dup);
}

#ifdef __lwk__
static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void spin(double s)
{
    double end = now() + s;
    volatile double x = 0;

    while (now() < end)
        x += 1;
}

/* The others' time for a pair while rank size/2 computes; the worst of
 * them.  Values checked too. */
static double computes_once(int busy)
{
    int b[256], s[16], a[16], bad = 0;
    double t0, t, worst;
    MPI_Request q[2];

    for (int i = 0; i < 256; i++)
        b[i] = t_rank == 0 ? val(0, 77, i) : -1;
    for (int i = 0; i < 16; i++)
        s[i] = val(t_rank, 78, i);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = now();
    MPI_Ibcast(b, 256, MPI_INT, 0, MPI_COMM_WORLD, &q[0]);
    MPI_Iallreduce(s, a, 16, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[1]);
    if (t_rank == busy)
        spin(0.6);                  /* no MPI call at all */
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    t = t_rank == busy ? 0 : now() - t0;
    for (int i = 0; i < 256; i++)
        bad += b[i] != val(0, 77, i);
    for (int i = 0; i < 16; i++) {
        int sum = 0;
        for (int r = 0; r < t_size; r++)
            sum += val(r, 78, i);
        bad += a[i] != sum;
    }
    CHECK(bad == 0);
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

static void while_computes(void)
{
    double worst = 1e9;

    /* a loaded host may stall a rank now and then: best of 3 (a
       software schedule can never finish under 0.6 s) */
    for (int i = 0; i < 3 && worst >= 0.3; i++) {
        double w = computes_once(t_size / 2);
        worst = w < worst ? w : worst;
    }
    if (t_rank == 0)
        fprintf(stderr, "tcoll: the others took %.3f s while rank %d "
                "computed 0.6 s\n", worst, t_size / 2);
    CHECK(worst < 0.3);
}
#endif

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    static const struct { const char *name; void (*fn)(void); } parts[] = {
        { "rounds", rounds }, { "limits", limits }, { "types", types },
        { "mixed", mixed },
#ifdef __lwk__
        { "while-a-rank-computes", while_computes },
#endif
    };

    t_init(&argc, &argv, "tcoll");
    for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        if (only && strcmp(only, parts[i].name) != 0)
            continue;
        if (strcmp(parts[i].name, "while-a-rank-computes") == 0 &&
            t_size < 2)
            continue;
        parts[i].fn();
        t_report(parts[i].name);
    }
    return t_finish();
}
