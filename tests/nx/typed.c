/* SPDX-License-Identifier: MIT */
/*
 * typed.c: typed receives.  Node 0 sends types 5, 7, 9 to node 1, which
 * takes 9, then 7, then any (-1: the 5); a message addressed to ptype 5
 * waits until the receiver sets its ptype to 5; crecvx selects by node
 * and by the sender's ptype.
 */
#include "nxtest.h"

int main(void)
{
    long me = mynode(), n = numnodes(), v, info[NX_INFO_LEN];

    CHECK(n >= 3);
    if (me == 0) {
        for (v = 5; v <= 9; v += 2)
            csend(v, &v, sizeof(v), 1, 0);
        v = 55;
        csend(1, &v, sizeof(v), 1, 5);      /* for ptype 5 */
        v = 50;
        csend(1, &v, sizeof(v), 1, 0);      /* for ptype 0 */
        setptype(3);
        CHECK(myptype() == 3);
        v = 3;
        csend(2, &v, sizeof(v), 1, 0);      /* from ptype 3 */
        setptype(0);
        v = 0;
        csend(2, &v, sizeof(v), 1, 0);      /* from ptype 0 */
    } else if (me == 1) {
        crecv(9, &v, sizeof(v));
        CHECK(v == 9 && infotype() == 9 && infonode() == 0);
        crecv(7, &v, sizeof(v));
        CHECK(v == 7 && infotype() == 7);
        crecvx(-1, &v, sizeof(v), 0, -1, NULL);  /* node 2 sends too */
        CHECK(v == 5 && infotype() == 5 && infocount() == sizeof(v));
        crecv(1, &v, sizeof(v));
        CHECK(v == 50);                     /* the ptype-5 one is not ours */
        setptype(5);
        crecv(1, &v, sizeof(v));
        CHECK(v == 55 && myptype() == 5);
        setptype(0);
        crecvx(2, &v, sizeof(v), -1, 0, info);  /* from ptype 0 first */
        CHECK(v == 0 && info[NX_INFO_PTYPE] == 0);
        crecvx(2, &v, sizeof(v), 0, 3, info);
        CHECK(v == 3 && info[NX_INFO_PTYPE] == 3 && infoptype() == 3);
        /* By node: nodes 2.. send type 8; take them highest node first. */
        for (long s = n - 1; s >= 2; s--) {
            crecvx(8, &v, sizeof(v), s, -1, info);
            CHECK(v == s * 100 && info[NX_INFO_NODE] == s && infonode() == s);
        }
    }
    if (me >= 2) {
        v = me * 100;
        csend(8, &v, sizeof(v), 1, 0);
    }
    gsync();
    done();
    return 0;
}
