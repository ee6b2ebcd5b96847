/* SPDX-License-Identifier: MIT */
/*
 * long.c: long messages (over NX_EAGER) travel with their data.  Node 1
 * posts a receive before node 0 sends (the data lands in place: no Get),
 * then lets one arrive first (only its header waits: node 1 Gets the
 * data), then posts a receive too short for one that lands in place
 * (EMSGSIZE, the buffer filled with its first bytes, and the sender's
 * csend still returns).  tests/nx/run reads NX_STATS' counts of each.
 */
#include "nxtest.h"

#define LEN 100000

int main(void)
{
    static unsigned char buf[LEN], small[5000];
    long me = mynode(), id;

    CHECK(numnodes() >= 2);
    if (me == 0) {
        gsync();                        /* node 1 has posted type 1 */
        fill(buf, LEN, 0, 1, 1);
        csend(1, buf, LEN, 1, 0);
        fill(buf, LEN, 0, 1, 2);
        csend(2, buf, LEN, 1, 0);       /* waits until node 1 fetches */
        gsync();                        /* node 1 has posted type 3 */
        fill(buf, LEN, 0, 1, 3);
        csend(3, buf, LEN, 1, 0);       /* returns: node 1 said FIN */
    } else if (me == 1) {
        id = irecv(1, buf, LEN);
        gsync();
        msgwait(id);
        CHECK(infocount() == LEN && same(buf, LEN, 0, 1, 1));
        while (!iprobe(2))              /* its header waits: fetched */
            ;
        memset(buf, 0, LEN);
        crecv(2, buf, LEN);
        CHECK(infocount() == LEN && same(buf, LEN, 0, 1, 2));
        id = _irecv(3, small, sizeof(small));
        CHECK(id >= 0);
        gsync();
        CHECK(_msgwait(id) == -1 && errno == EMSGSIZE);
        CHECK(infocount() == LEN && same(small, sizeof(small), 0, 1, 3));
    } else {
        gsync();
        gsync();
    }
    gsync();
    done();
    return 0;
}
