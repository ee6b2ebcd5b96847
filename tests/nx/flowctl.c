/* SPDX-License-Identifier: MIT */
/*
 * flowctl.c: run with a tiny buffer for unexpected messages (tests/nx/run
 * sets NX_BLOCK_SIZE/NX_BLOCKS/NX_EAGER/NX_BUFFER_MAX), so node 0's data
 * portal is disabled again and again while every other node sends it
 * MSGS messages (eager and long) that it does not receive yet.  Then
 * node 0 receives them all: nothing lost, nothing duplicated, each
 * sender's messages in order.  "reverse": node 0 takes the senders from
 * the last to the first, which needs the buffer to grow (a receive waits
 * for a message queued behind others); default: in arrival order, which
 * works without growing.  NX_STATS=1 makes libnx print the recoveries.
 */
#include "nxtest.h"

#define MSGS  120
#define MAXSZ 3000

static long size_of(long s, long k) { return (k * 131 + s * 17) % MAXSZ; }

int main(int argc, char **argv)
{
    long me = mynode(), n = numnodes();
    int reverse = argc > 1 && strcmp(argv[1], "reverse") == 0;
    static unsigned char out[MSGS][MAXSZ], in[MAXSZ];
    static long mids[MSGS], next[64];

    CHECK(n >= 2 && n <= 64);
    if (me != 0) {
        for (long k = 0; k < MSGS; k++) {
            fill(out[k], size_of(me, k), me, 0, k);
            mids[k] = isend(5, out[k], size_of(me, k), 0, 0);
        }
        for (long k = 0; k < MSGS; k++)
            msgwait(mids[k]);
        gsync();
    } else {
        double until = dclock() + 0.5;
        while (dclock() < until)        /* let the senders pile up */
            (void)iprobe(999);
        if (reverse) {
            for (long s = n - 1; s >= 1; s--)
                for (long k = 0; k < MSGS; k++) {
                    crecvx(5, in, MAXSZ, s, -1, NULL);
                    CHECK(infocount() == size_of(s, k));
                    CHECK(same(in, size_of(s, k), s, 0, k));
                }
        } else {
            for (long m = 0; m < (n - 1) * MSGS; m++) {
                long s, k;
                crecv(5, in, MAXSZ);
                s = infonode();
                k = next[s]++;
                CHECK(s >= 1 && k < MSGS && infocount() == size_of(s, k));
                CHECK(same(in, size_of(s, k), s, 0, k));
            }
        }
        CHECK(iprobe(-1) == 0);
        gsync();
    }
    done();
    return 0;
}
