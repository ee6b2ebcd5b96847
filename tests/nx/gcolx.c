/* SPDX-License-Identifier: MIT */
/*
 * gcolx.c: concatenation with unequal lengths (node p contributes
 * xlens[p] bytes, one node contributes none, one contributes a long
 * piece over the eager limit): y on every node is the pieces in node
 * order, checked byte by byte against a copy built here.
 */
#include "nxtest.h"

static long len_of(long p) { return p == 1 ? 0 : (p == 2 ? 30000 : p * 37 + 3); }

int main(void)
{
    long me = mynode(), n = numnodes(), total = 0, off = 0;
    long *xlens = malloc(sizeof(long) * (size_t)n);
    unsigned char *x, *y, *want;

    for (long p = 0; p < n; p++)
        total += xlens[p] = len_of(p);
    x = malloc((size_t)len_of(me) + 1);
    y = malloc((size_t)total + 1);
    want = malloc((size_t)total + 1);
    fill(x, len_of(me), me, 77, 0);
    for (long p = 0; p < n; p++) {
        fill(want + off, len_of(p), p, 77, 0);
        off += len_of(p);
    }
    for (int rep = 0; rep < 3; rep++) {
        memset(y, 0, (size_t)total);
        gcolx(x, xlens, y);
        CHECK(memcmp(y, want, (size_t)total) == 0);
    }
    xlens[0] = -1;
    CHECK(_gcolx(x, xlens, y) == -1 && errno == EINVAL);
    done();
    return 0;
}
