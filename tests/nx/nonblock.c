/* SPDX-License-Identifier: MIT */
/*
 * nonblock.c: isend/irecv with msgwait and msgdone.  Node 0 exchanges with
 * every other node: receives posted before the messages come (they land in
 * place), and messages that come before their receives (they wait in the
 * overflow buffer, eager, or as a rendezvous header), eager and long;
 * msgdone polls to completion and frees the id; irecvx fills its info array
 * at completion.
 */
#include "nxtest.h"

#define SMALL 3000
#define LONG  200000

int main(void)
{
    long me = mynode(), n = numnodes(), mids[64], info[NX_INFO_LEN];
    static unsigned char out[2][LONG], in[64][LONG];

    fill(out[0], SMALL, me, 0, 1);
    fill(out[1], LONG, me, 0, 2);
    if (me == 0) {
        /* Pre-posted: receives first, then tell the senders to go. */
        for (long s = 1; s < n; s++) {
            mids[2 * s] = irecvx(1, in[2 * s], SMALL, s, -1, info);
            mids[2 * s + 1] = irecv(2, in[2 * s + 1], LONG);
        }
        gsync();
        for (long s = 1; s < n; s++) {
            long polls = 0;
            while (!msgdone(mids[2 * s]))
                polls++;
            CHECK(info[NX_INFO_TYPE] == 1 && info[NX_INFO_COUNT] == SMALL);
            CHECK(same(in[2 * s], SMALL, info[NX_INFO_NODE], 0, 1));
            (void)polls;
        }
        for (long s = 1; s < n; s++) {
            msgwait(mids[2 * s + 1]);
            CHECK(infotype() == 2 && infocount() == LONG);
            CHECK(same(in[2 * s + 1], LONG, infonode(), 0, 2));
        }
        /* Unexpected: the senders went first (and finished waiting for
         * delivery) before we post. */
        gsync();
        for (long s = 1; s < n; s++) {
            crecv(3, in[0], LONG);
            CHECK(infocount() == SMALL && same(in[0], SMALL, infonode(), 0, 1));
        }
        gsync();
        for (long s = 1; s < n; s++) {
            crecv(4, in[0], LONG);
            CHECK(infocount() == LONG && same(in[0], LONG, infonode(), 0, 2));
        }
    } else {
        gsync();
        mids[0] = isend(1, out[0], SMALL, 0, 0);
        mids[1] = isend(2, out[1], LONG, 0, 0);
        msgwait(mids[1]);
        while (!msgdone(mids[0]))
            ;
        CHECK(_msgdone(mids[0]) == -1);     /* the id is free again */
        mids[0] = isend(3, out[0], SMALL, 0, 0);
        msgwait(mids[0]);                   /* eager: done at the ACK */
        gsync();
        mids[1] = isend(4, out[1], LONG, 0, 0);
        CHECK(msgdone(mids[1]) == 0);       /* long: waits for the Get */
        gsync();
        msgwait(mids[1]);
    }
    done();
    return 0;
}
