/* SPDX-License-Identifier: MIT */
/*
 * errors.c: the underscore forms return -1 with errno and a usable state:
 * bad type, node, ptype, count, selectors and ids are EINVAL; a message
 * longer than the receive buffer (eager and long) is EMSGSIZE, fills the
 * buffer with its first bytes and describes the message (infocount is its
 * real length).  "fatal MODE": the plain form ends the job with a message
 * (tests/nx/run checks the text and that ptlrun fails).
 */
#include "nxtest.h"

int main(int argc, char **argv)
{
    long me = mynode(), n = numnodes(), v = 1;
    static unsigned char buf[100000], small[64];

    CHECK(n >= 2);
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        if (me == 0)
            csend(1, buf, 1000, 1, 0);
        else if (me == 1)
            crecv(1, small, sizeof(small));     /* too long: ends the job */
        gsync();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "badnode") == 0) {
        csend(1, &v, sizeof(v), n + 5, 0);      /* ends the job */
        return 0;
    }
    CHECK(_csend(-2, &v, sizeof(v), 1, 0) == -1 && errno == EINVAL);
    CHECK(_csend(1000000000, &v, sizeof(v), 1, 0) == -1 && errno == EINVAL);
    CHECK(_csend(1, &v, sizeof(v), n, 0) == -1 && errno == EINVAL);
    CHECK(_csend(1, &v, sizeof(v), -2, 0) == -1 && errno == EINVAL);
    CHECK(_csend(1, &v, sizeof(v), 1, 40000) == -1 && errno == EINVAL);
    CHECK(_csend(1, NULL, 8, 1, 0) == -1 && errno == EINVAL);
    CHECK(_isend(1, &v, -1, 1, 0) == -1 && errno == EINVAL);
    CHECK(_crecv(-3, &v, sizeof(v)) == -1 && errno == EINVAL);
    CHECK(_crecvx(1, &v, sizeof(v), n, -1, NULL) == -1 && errno == EINVAL);
    CHECK(_iprobex(1, -1, -7, NULL) == -1 && errno == EINVAL);
    CHECK(_msgwait(-1) == -1 && errno == EINVAL);
    CHECK(_msgdone(99999) == -1 && errno == EINVAL);
    CHECK(_setptype(-5) == -1 && errno == EINVAL && myptype() == 0);
    if (me == 0) {
        fill(buf, 1000, 0, 1, 1);
        csend(2, buf, 1000, 1, 0);
        fill(buf, 90000, 0, 1, 2);
        csend(3, buf, 90000, 1, 0);
        csend(4, buf, 10, 1, 0);
    } else if (me == 1) {
        CHECK(_crecv(2, small, sizeof(small)) == -1 && errno == EMSGSIZE);
        CHECK(infocount() == 1000 && infotype() == 2 && infonode() == 0);
        CHECK(same(small, sizeof(small), 0, 1, 1));
        CHECK(_crecv(3, small, sizeof(small)) == -1 && errno == EMSGSIZE);
        CHECK(infocount() == 90000 && same(small, sizeof(small), 0, 1, 2));
        crecv(4, small, sizeof(small));         /* the state is fine */
        CHECK(infocount() == 10);
    }
    gsync();
    done();
    return 0;
}
