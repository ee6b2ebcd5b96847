/* SPDX-License-Identifier: MIT */
/*
 * order.c: messages between two nodes arrive in the order they were sent,
 * whatever their sizes (eager and rendezvous mixed) and however many are
 * in flight.  Every node but 0 sends N messages with isend, all in flight
 * at once, of types 2 (every third) and 1; node 0 takes each sender's
 * type-2 messages first, then any type: each sequence must come in order
 * (the content of message k is a pattern of k).
 */
#include "nxtest.h"

#define N     300
#define MAXSZ 35000

static long size_of(long k)
{
    return k % 7 == 0 ? 20000 + k * 50 : (k * 37) % 3000;
}

static void take(long typesel, long s, long k, unsigned char *in)
{
    crecvx(typesel, in, MAXSZ, s, -1, NULL);
    CHECK(infonode() == s && infocount() == size_of(k));
    CHECK(infotype() == (k % 3 == 0 ? 2 : 1));
    CHECK(same(in, size_of(k), s, 0, k));
}

int main(void)
{
    long me = mynode(), n = numnodes();
    static long mids[N];
    static unsigned char out[N][MAXSZ], in[MAXSZ];

    if (me != 0) {
        for (long k = 0; k < N; k++) {
            fill(out[k], size_of(k), me, 0, k);
            mids[k] = isend(k % 3 == 0 ? 2 : 1, out[k], size_of(k), 0, 0);
        }
        for (long k = 0; k < N; k++)
            msgwait(mids[k]);
    } else {
        for (long s = 1; s < n; s++)
            for (long k = 0; k < N; k += 3)
                take(2, s, k, in);
        for (long s = 1; s < n; s++)
            for (long k = 0; k < N; k++)
                if (k % 3 != 0)
                    take(-1, s, k, in);
    }
    done();
    return 0;
}
