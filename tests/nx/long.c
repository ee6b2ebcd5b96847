/* SPDX-License-Identifier: MIT */
/*
 * long.c: long messages (over NX_EAGER) travel with their data.  Node 1
 * posts two receives before node 0 sends: one lands in place (no Get),
 * one in a buffer too short for it (EMSGSIZE, the buffer filled with its
 * first bytes, the sender's csend still returns).  Then a message
 * arrives before its receive: only its header waits, node 1 Gets the
 * data.  After that, node 0's next long message to node 1 goes header
 * only although its receive is posted (data that found no receive
 * crossed the link twice): fetched too.  tests/nx/run reads NX_STATS'
 * counts (in place 2, fetched 2).
 */
#include "nxtest.h"

#define LEN 100000

int main(void)
{
    static unsigned char buf[LEN], small[5000];
    long me = mynode(), id1, id3, id4;

    CHECK(numnodes() >= 2);
    if (me == 0) {
        gsync();                        /* node 1 has posted 1 and 3 */
        fill(buf, LEN, 0, 1, 1);
        csend(1, buf, LEN, 1, 0);
        fill(buf, LEN, 0, 1, 3);
        csend(3, buf, LEN, 1, 0);       /* returns: node 1 said FIN */
        fill(buf, LEN, 0, 1, 2);
        csend(2, buf, LEN, 1, 0);       /* returns once node 1 fetched */
        gsync();                        /* node 1 has posted 4 */
        fill(buf, LEN, 0, 1, 4);
        csend(4, buf, LEN, 1, 0);
    } else if (me == 1) {
        id1 = irecv(1, buf, LEN);
        id3 = _irecv(3, small, sizeof(small));
        CHECK(id3 >= 0);
        gsync();
        msgwait(id1);
        CHECK(infocount() == LEN && same(buf, LEN, 0, 1, 1));
        CHECK(_msgwait(id3) == -1 && errno == EMSGSIZE);
        CHECK(infocount() == LEN && same(small, sizeof(small), 0, 1, 3));
        while (!iprobe(2))              /* its header waits: fetched */
            ;
        memset(buf, 0, LEN);
        crecv(2, buf, LEN);
        CHECK(infocount() == LEN && same(buf, LEN, 0, 1, 2));
        memset(buf, 0, LEN);
        id4 = irecv(4, buf, LEN);
        gsync();
        msgwait(id4);
        CHECK(infocount() == LEN && same(buf, LEN, 0, 1, 4));
    } else {
        gsync();
        gsync();
    }
    gsync();
    done();
    return 0;
}
