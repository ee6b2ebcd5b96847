/* SPDX-License-Identifier: MIT */
/*
 * pingpong.c: NX ping-pong between nodes 0 and 1 (csend/crecv).  Usage:
 * pingpong [ITERS [SIZE...]]; prints "nx ping SIZE HALF_RTT_US MEDIAN_US"
 * per size on node 0 (the mean over the rounds, then their median) and checks every byte of the last round (so it is a test as
 * well as the benchmark of tests/bench/nx/run).
 */
#include "nxtest.h"
#include "../bench/median.h"

int main(int argc, char **argv)
{
    long me = mynode(), iters = argc > 1 ? atol(argv[1]) : 20;
    long dflt[] = { 0, 1024, 65536, 1 << 20 }, *sizes = dflt, ns = 4;
    unsigned char *buf = malloc(4 << 20), *chk = malloc(4 << 20);
    double *rtt = malloc(sizeof(double) * (size_t)(iters > 0 ? iters : 1));

    CHECK(numnodes() >= 2 && iters > 0 && rtt != NULL);
    if (argc > 2) {
        ns = argc - 2;
        sizes = malloc(sizeof(long) * (size_t)ns);
        for (long i = 0; i < ns; i++)
            sizes[i] = atol(argv[i + 2]);
    }
    for (long i = 0; i < ns; i++) {
        long len = sizes[i];
        double t0 = 0, tr = 0;
        CHECK(len >= 0 && len <= (4 << 20));
        fill(buf, len, me, 1 - me, i);
        gsync();
        for (long it = -1; it < iters && me < 2; it++) {
            double t = dclock();
            if (it == 0)
                t0 = t;                 /* the first round warms up */
            if (it > 0)
                rtt[it - 1] = (t - tr) / 2 * 1e6;
            tr = t;
            if (me == 0) {
                csend(1, buf, len, 1, 0);
                crecv(2, chk, len);
            } else {
                crecv(1, chk, len);
                csend(2, buf, len, 0, 0);
            }
        }
        if (me < 2)
            CHECK(infocount() == len && same(chk, len, 1 - me, me, i));
        if (me == 0) {
            double t = dclock();
            rtt[iters - 1] = (t - tr) / 2 * 1e6;
            printf("nx ping %ld %.2f %.2f\n", len,
                   (t - t0) / (double)iters / 2 * 1e6,
                   bench_median(rtt, iters));
        }
    }
    gsync();
    done();
    return 0;
}
