/* SPDX-License-Identifier: MIT */
/*
 * global.c: every global operation on this job's node count, against
 * values computed here independently (a plain loop over the nodes'
 * inputs): g{d,s,i}{sum,prod,high,low} on vectors (element i of node p is
 * a function of p and i, exact in floating point, negative ones too), the
 * work array, gsync as a barrier (a message sent before it is there after
 * it), and many operations in a row (sequence numbers keep them apart).
 */
#include "nxtest.h"

#define N 37

static double dval(long p, long i) { return (double)((p + 1) * (i % 5 - 2)) * 0.5 + (double)i; }
static float fval(long p, long i) { return (float)((p * 3 + i) % 11) - 4.0f; }
static long ival(long p, long i) { return (p + 2) * (i % 7 - 3) + i * 1000; }
static double pdval(long p, long i) { return (i + p) % 3 == 0 ? 2.0 : (i % 2 ? -1.0 : 0.5); }
static long pival(long p, long i) { return (i + p) % 4 == 0 ? -2 : ((i * p) % 3 == 0 ? 3 : 1); }

#define CHECK_OP(T, x, work, fn, valf, combine, init)                   \
    do {                                                                \
        for (long i = 0; i < N; i++)                                    \
            x[i] = valf(me, i);                                         \
        fn(x, N, work);                                                 \
        for (long i = 0; i < N; i++) {                                  \
            T want = init;                                              \
            for (long p = 0; p < n; p++) {                              \
                T v = valf(p, i);                                       \
                want = p == 0 ? v : combine;                            \
            }                                                           \
            CHECK(x[i] == want);                                        \
        }                                                               \
    } while (0)

int main(void)
{
    long me = mynode(), n = numnodes(), slot = -1, v;
    double dx[N], dw[N];
    float fx[N], fw[N];
    long ix[N], iw[N];

    for (int rep = 0; rep < 3; rep++) {
        CHECK_OP(double, dx, dw, gdsum, dval, want + v, 0);
        CHECK_OP(double, dx, dw, gdprod, pdval, want * v, 1);
        CHECK_OP(double, dx, dw, gdhigh, dval, v > want ? v : want, 0);
        CHECK_OP(double, dx, dw, gdlow, dval, v < want ? v : want, 0);
        CHECK_OP(float, fx, fw, gssum, fval, want + v, 0);
        CHECK_OP(float, fx, fw, gsprod, fval, want * v, 1);
        CHECK_OP(float, fx, fw, gshigh, fval, v > want ? v : want, 0);
        CHECK_OP(float, fx, fw, gslow, fval, v < want ? v : want, 0);
        CHECK_OP(long, ix, iw, gisum, ival, want + v, 0);
        CHECK_OP(long, ix, iw, giprod, pival, want * v, 1);
        CHECK_OP(long, ix, iw, gihigh, ival, v > want ? v : want, 0);
        CHECK_OP(long, ix, iw, gilow, ival, v < want ? v : want, 0);
    }
    /* One element, and zero elements. */
    ix[0] = me + 1;
    gisum(ix, 1, iw);
    CHECK(ix[0] == n * (n + 1) / 2);
    gisum(ix, 0, iw);
    CHECK(ix[0] == n * (n + 1) / 2);
    /* gsync is a barrier: what node 0 sent before it is there after. */
    if (me == 0)
        for (long p = 1; p < n; p++)
            csend(60, &p, sizeof(p), p, 0);
    gsync();
    if (me != 0) {
        CHECK(iprobe(60) == 1);
        crecv(60, &slot, sizeof(slot));
        CHECK(slot == me);
    }
    for (int i = 0; i < 50; i++)
        gsync();
    v = 0;
    CHECK(_gisum(&v, -1, iw) == -1 && errno == EINVAL);
    done();
    return 0;
}
