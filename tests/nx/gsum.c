/* SPDX-License-Identifier: MIT */
/*
 * gsum.c: a global-sum program: node p sums its slice of 1..M (M from
 * argv, default 10^6), gdsum and gisum combine the partial sums; every
 * node checks the total against M(M+1)/2 and node 0 prints it.
 */
#include "nxtest.h"

int main(int argc, char **argv)
{
    long me = mynode(), n = numnodes();
    long m = argc > 1 ? atol(argv[1]) : 1000000, lo, hi, isum = 0, iw;
    double dsum = 0, dw;

    lo = m * me / n + 1;
    hi = m * (me + 1) / n;
    for (long i = lo; i <= hi; i++) {
        isum += i;
        dsum += (double)i;
    }
    gisum(&isum, 1, &iw);
    gdsum(&dsum, 1, &dw);
    CHECK(isum == m * (m + 1) / 2);
    CHECK(dsum == (double)(m * (m + 1) / 2));
    if (me == 0)
        printf("sum 1..%ld = %ld on %ld nodes\n", m, isum, n);
    done();
    return 0;
}
