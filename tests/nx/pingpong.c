/* SPDX-License-Identifier: MIT */
/*
 * pingpong.c: NX ping-pong between nodes 0 and 1 (csend/crecv).  Usage:
 * pingpong [ITERS [SIZE...]]; prints "nx ping SIZE HALF_RTT_US" per size
 * on node 0 and checks every byte of the last round (so it is a test as
 * well as the benchmark of tests/bench/nx/run).
 */
#include "nxtest.h"

int main(int argc, char **argv)
{
    long me = mynode(), iters = argc > 1 ? atol(argv[1]) : 20;
    long dflt[] = { 0, 1024, 65536, 1 << 20 }, *sizes = dflt, ns = 4;
    unsigned char *buf = malloc(4 << 20), *chk = malloc(4 << 20);

    CHECK(numnodes() >= 2 && iters > 0);
    if (argc > 2) {
        ns = argc - 2;
        sizes = malloc(sizeof(long) * (size_t)ns);
        for (long i = 0; i < ns; i++)
            sizes[i] = atol(argv[i + 2]);
    }
    for (long i = 0; i < ns; i++) {
        long len = sizes[i];
        double t0 = 0;
        CHECK(len >= 0 && len <= (4 << 20));
        fill(buf, len, me, 1 - me, i);
        gsync();
        for (long it = -1; it < iters && me < 2; it++) {
            if (it == 0)
                t0 = dclock();          /* the first round warms up */
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
        if (me == 0)
            printf("nx ping %ld %.2f\n", len,
                   (dclock() - t0) / (double)iters / 2 * 1e6);
    }
    gsync();
    done();
    return 0;
}
