/* SPDX-License-Identifier: MIT */
/*
 * bcast.c: node -1 sends to every other node, never to the sender.  Each
 * node in turn broadcasts a short and a long message (csend and isend);
 * everyone else receives both, from the right node, intact.
 */
#include "nxtest.h"

#define LONG 100000

int main(void)
{
    long me = mynode(), n = numnodes();
    static unsigned char out[LONG], in[LONG];

    for (long root = 0; root < n; root++) {
        if (me == root) {
            fill(out, 500, root, 99, 1);
            csend(30, out, 500, -1, 0);
            fill(out + 1000, LONG - 1000, root, 99, 2);
            msgwait(isend(31, out + 1000, LONG - 1000, -1, 0));
        } else {
            crecv(30, in, LONG);
            CHECK(infonode() == root && infocount() == 500 &&
                  same(in, 500, root, 99, 1));
            crecv(31, in, LONG);
            CHECK(infonode() == root && infocount() == LONG - 1000 &&
                  same(in, LONG - 1000, root, 99, 2));
        }
        gsync();
        CHECK(iprobe(-1) == 0);     /* the sender got nothing of its own */
        gsync();                    /* (before the next root sends) */
    }
    done();
    return 0;
}
