/* SPDX-License-Identifier: MIT */
/*
 * cancel.c: msgcancel withdraws a receive that has not matched: the
 * message it would have taken goes to the next receive instead, and the
 * cancelled buffer stays untouched; a cancelled id is free (msgdone on it
 * fails with EINVAL); cancelling a send lets it complete (the receiver
 * gets it); a bad id is refused.
 */
#include "nxtest.h"

int main(void)
{
    long me = mynode(), a = 0, b = 0, v, mid;

    CHECK(numnodes() >= 2);
    CHECK(_msgcancel(12345) == -1 && errno == EINVAL);
    if (me == 0) {
        mid = irecv(40, &a, sizeof(a));
        msgcancel(mid);
        CHECK(_msgdone(mid) == -1 && errno == EINVAL);
        gsync();                        /* node 1 sends after this */
        crecv(40, &b, sizeof(b));
        CHECK(b == 4242 && a == 0);
        crecv(41, &b, sizeof(b));
        CHECK(b == 7);
    } else if (me == 1) {
        gsync();
        v = 4242;
        csend(40, &v, sizeof(v), 0, 0);
        v = 7;
        mid = isend(41, &v, sizeof(v), 0, 0);
        msgcancel(mid);                 /* completes, then frees the id */
        CHECK(_msgwait(mid) == -1 && errno == EINVAL);
    } else {
        gsync();
    }
    gsync();
    done();
    return 0;
}
