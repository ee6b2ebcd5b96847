/* SPDX-License-Identifier: MIT */
/*
 * probe.c: iprobe/cprobe/iprobex/cprobex.  Nothing waiting: iprobe is 0.
 * Node 1 sends a short and a long message to node 0; after gsync node 0
 * probes them (info* describe them, the long one with its full length) and
 * probing does not consume: the receives still get them.  Self messages
 * are probed too.  A message already on the link when cprobe starts is
 * found at once.
 */
#include <unistd.h>

#include "nxtest.h"

#define LONG 70000

int main(void)
{
    long me = mynode(), info[NX_INFO_LEN];
    static unsigned char buf[LONG];

    CHECK(iprobe(-1) == 0);
    gsync();                        /* nobody sends before all looked */
    if (me == 1) {
        fill(buf, 100, 1, 0, 0);
        csend(11, buf, 100, 0, 0);
        fill(buf, LONG, 1, 0, 1);
        long mid = isend(12, buf, LONG, 0, 0);
        gsync();
        msgwait(mid);
    } else if (me == 0) {
        gsync();
        CHECK(iprobe(13) == 0);
        CHECK(iprobe(11) == 1);
        CHECK(infotype() == 11 && infocount() == 100 && infonode() == 1 &&
              infoptype() == 0);
        CHECK(iprobex(12, 1, -1, info) == 1);
        CHECK(info[NX_INFO_TYPE] == 12 && info[NX_INFO_COUNT] == LONG &&
              info[NX_INFO_NODE] == 1);
        CHECK(iprobex(12, 0, -1, info) == 0);   /* not from node 0 */
        cprobe(-1);
        CHECK(infotype() == 11);                /* first in order */
        cprobex(12, -1, 0, info);
        CHECK(info[NX_INFO_COUNT] == LONG);
        crecv(12, buf, LONG);
        CHECK(same(buf, LONG, 1, 0, 1));
        crecv(11, buf, LONG);
        CHECK(infocount() == 100 && same(buf, 100, 1, 0, 0));
        CHECK(iprobe(-1) == 0);
        csend(20, buf, 10, 0, 0);               /* to ourselves */
        CHECK(iprobe(20) == 1 && infonode() == 0 && infocount() == 10);
        crecv(20, buf, 10);
        CHECK(iprobe(20) == 0);
    } else {
        gsync();
    }
    /* A message waiting unread on the link when cprobe starts is found
     * at once.  The probe's own pass may take it in after its search
     * looked (node 0 makes no call while it comes): cprobe must then
     * look again, not sleep out nx_progress's 100 ms.  The median of 5
     * rounds, as a round may be slow on a loaded host. */
    double t[5] = { 0 };
    for (int k = 0; k < 5; k++) {
        gsync();
        if (me == 1) {
            usleep(100000);         /* node 0 is asleep by now */
            csend(30, buf, 8, 0, 0);
        } else if (me == 0) {
            usleep(400000);
            t[k] = dclock();
            cprobe(30);
            t[k] = dclock() - t[k];
            crecv(30, buf, 8);
        }
    }
    if (me == 0) {
        int slow = 0;
        for (int k = 0; k < 5; k++)
            slow += t[k] >= 0.05;
        if (slow > 2)
            fprintf(stderr, "cprobe of a message already on the link: "
                    "%d of 5 took 50 ms or more\n", slow);
        CHECK(slow <= 2);
    }
    done();
    return 0;
}
