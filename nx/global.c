/* SPDX-License-Identifier: MIT */
/*
 * global.c: gsync, the g* reductions and gcolx, over internal messages
 * (match bit 63: a program's receive, even of type -1, never takes one).
 * Every node calls the global operations in the same order; each call
 * gets a sequence number that is part of its messages' type, so two
 * consecutive operations never mix.
 *
 * Reductions combine up a binomial tree to node 0 (node r's partial
 * result covers nodes r..r+2^k-1, combined left to right) and the result
 * comes back down the same tree, so every node gets the same bits (the
 * work array receives the children's contributions).  gcolx gathers the
 * pieces the same way (a subtree's pieces are contiguous in y) and
 * broadcasts y.
 */
#include <string.h>

#include "nx_internal.h"

typedef void (*nx_combine_fn)(void *acc, const void *in, long n);

/* Type of an internal message: sequence | phase (up/down) | round. */
static uint64_t tag(unsigned seq, int down, int round)
{
    return NX_MB_INTERNAL | (uint64_t)(seq & 0xffffffu) << 8 |
           (uint64_t)down << 7 | (uint64_t)round;
}

static int coll_send(const void *buf, long len, int dst, uint64_t bits)
{
    struct nx_req *r = nx_req_new(NX_REQ_SEND);
    int rc;

    if (r == NULL)
        return nx_error(ENOMEM, "out of message ids");
    rc = nx_send_start(r, buf, len, dst, bits);
    if (rc == 0)
        rc = nx_wait_req(r);
    nx_req_free(r);
    return rc;
}

static int coll_recv(void *buf, long len, int src, uint64_t bits)
{
    struct nx_req *r = nx_req_new(NX_REQ_RECV);
    int rc;

    if (r == NULL)
        return nx_error(ENOMEM, "out of message ids");
    rc = nx_recv_start(r, buf, len, src, bits, 0);
    if (rc == 0)
        rc = nx_wait_req(r);
    nx_req_free(r);
    return rc;
}

/* Binomial broadcast of len bytes from node 0. */
static int bcast(void *buf, long len, unsigned seq)
{
    int me = nx.me, mask = 1, round = 0;

    for (; mask < nx.n; mask <<= 1, round++)
        if (me & mask) {
            if (coll_recv(buf, len, me - mask, tag(seq, 1, round)) != 0)
                return -1;
            break;
        }
    for (mask >>= 1, round--; mask > 0; mask >>= 1, round--)
        if (me + mask < nx.n &&
            coll_send(buf, len, me + mask, tag(seq, 1, round)) != 0)
            return -1;
    return 0;
}

/* x[0..n) of esize-byte elements, combined over all nodes, on all. */
static int reduce_all(void *x, long n, size_t esize, void *work,
                      nx_combine_fn fn)
{
    unsigned seq = ++nx.coll_seq;
    long len = n * (long)esize;
    int me = nx.me, round = 0;

    if (n < 0 || (n > 0 && (x == NULL || work == NULL)))
        return nx_error(EINVAL, "bad element count %ld or NULL array", n);
    for (int d = 1; d < nx.n; d <<= 1, round++) {
        if (me & d)
            return coll_send(x, len, me - d, tag(seq, 0, round)) != 0 ? -1
                   : bcast(x, len, seq);
        if (me + d < nx.n) {
            if (coll_recv(work, len, me + d, tag(seq, 0, round)) != 0)
                return -1;
            if (fn != NULL)
                fn(x, work, n);
        }
    }
    return bcast(x, len, seq);
}

int nx_gsync(void)
{
    return reduce_all(NULL, 0, 1, NULL, NULL);
}

/* ---- the combining functions ---- */

#define COMBINE(name, T, expr)                                          \
    static void name(void *acc, const void *in, long n)                 \
    {                                                                   \
        T *a = acc;                                                     \
        const T *b = in;                                                \
        for (long i = 0; i < n; i++)                                    \
            a[i] = (expr);                                              \
    }

COMBINE(d_sum, double, a[i] + b[i])
COMBINE(d_prod, double, a[i] * b[i])
COMBINE(d_high, double, b[i] > a[i] ? b[i] : a[i])
COMBINE(d_low, double, b[i] < a[i] ? b[i] : a[i])
COMBINE(s_sum, float, a[i] + b[i])
COMBINE(s_prod, float, a[i] * b[i])
COMBINE(s_high, float, b[i] > a[i] ? b[i] : a[i])
COMBINE(s_low, float, b[i] < a[i] ? b[i] : a[i])
/* Integer sums and products wrap (computed unsigned: no overflow UB). */
COMBINE(i_sum, long, (long)((unsigned long)a[i] + (unsigned long)b[i]))
COMBINE(i_prod, long, (long)((unsigned long)a[i] * (unsigned long)b[i]))
COMBINE(i_high, long, b[i] > a[i] ? b[i] : a[i])
COMBINE(i_low, long, b[i] < a[i] ? b[i] : a[i])

#define GOP(name, T, fn)                                                \
    long _##name(T x[], long n, T work[])                               \
    {                                                                   \
        if (nx_up() != 0)                                               \
            return -1;                                                  \
        return reduce_all(x, n, sizeof(T), work, fn);                   \
    }

GOP(gdsum, double, d_sum)
GOP(gdprod, double, d_prod)
GOP(gdhigh, double, d_high)
GOP(gdlow, double, d_low)
GOP(gssum, float, s_sum)
GOP(gsprod, float, s_prod)
GOP(gshigh, float, s_high)
GOP(gslow, float, s_low)
GOP(gisum, long, i_sum)
GOP(giprod, long, i_prod)
GOP(gihigh, long, i_high)
GOP(gilow, long, i_low)

/* ---- gcolx: y = x(node 0) x(node 1) ... x(node n-1) ---- */

static long offset_of(const long xlens[], int node)
{
    long off = 0;

    for (int i = 0; i < node; i++)
        off += xlens[i];
    return off;
}

long _gcolx(const void *x, const long xlens[], void *y)
{
    unsigned seq;
    int me, round = 0;
    char *out = y;

    if (nx_up() != 0)
        return -1;
    if (xlens == NULL || (y == NULL && offset_of(xlens, nx.n) > 0))
        return nx_error(EINVAL, "NULL xlens or y");
    for (int i = 0; i < nx.n; i++)
        if (xlens[i] < 0)
            return nx_error(EINVAL, "xlens[%d] is negative (%ld)", i,
                            xlens[i]);
    seq = ++nx.coll_seq;
    me = nx.me;
    if (xlens[me] > 0)
        memmove(out + offset_of(xlens, me), x, (size_t)xlens[me]);
    for (int d = 1; d < nx.n; d <<= 1, round++) {
        int hi = me + 2 * d < nx.n ? me + 2 * d : nx.n;
        if (me & d) {
            int end = me + d < nx.n ? me + d : nx.n;
            long off = offset_of(xlens, me);
            if (coll_send(out + off, offset_of(xlens, end) - off, me - d,
                          tag(seq, 0, round)) != 0)
                return -1;
            break;
        }
        if (me + d < nx.n) {
            long off = offset_of(xlens, me + d);
            if (coll_recv(out + off, offset_of(xlens, hi) - off, me + d,
                          tag(seq, 0, round)) != 0)
                return -1;
        }
    }
    return bcast(out, offset_of(xlens, nx.n), seq);
}
