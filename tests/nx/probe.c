/* SPDX-License-Identifier: MIT */
/*
 * probe.c: iprobe/cprobe/iprobex/cprobex.  Nothing waiting: iprobe is 0.
 * Node 1 sends a short and a long message to node 0; after gsync node 0
 * probes them (info* describe them, the long one with its full length) and
 * probing does not consume: the receives still get them.  Self messages
 * are probed too.  A message that comes while cprobe's search is being
 * answered is found at once.
 */
#include <unistd.h>

#include <portals4.h>
#include "nxtest.h"

/* libnx's PtlMESearch, through this program (nx.mk links it with
 * -Wl,--wrap=PtlMESearch): with hold_search set, the next search is
 * answered only after 500 ms, so a message can come meanwhile. */
static volatile int hold_search;
static double held_until;

int __real_PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                       const ptl_me_t *me, ptl_search_op_t op, void *uptr);
int __wrap_PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                       const ptl_me_t *me, ptl_search_op_t op, void *uptr);

int __wrap_PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                       const ptl_me_t *me, ptl_search_op_t op, void *uptr)
{
    int rc = __real_PtlMESearch(ni, pt, me, op, uptr);

    if (hold_search && op == PTL_SEARCH_ONLY) {
        hold_search = 0;
        usleep(500000);
        held_until = dclock();
    }
    return rc;
}

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
    /* A message that comes while cprobe's search is being answered (the
     * search, which found nothing, is held 500 ms; node 1 sends 100 ms
     * in): the wait for the answer takes it in, and cprobe must look
     * again at once, not sleep out nx_progress's 100 ms.  3 rounds, one
     * may be slow on a loaded host. */
    int slow = 0;
    for (int k = 0; k < 3; k++) {
        gsync();
        if (me == 1) {
            usleep(100000);         /* node 0's search is held by now */
            csend(30, buf, 8, 0, 0);
        } else if (me == 0) {
            hold_search = 1;
            cprobe(30);
            CHECK(hold_search == 0);    /* the search was held */
            slow += dclock() - held_until >= 0.08;
            crecv(30, buf, 8);
        }
    }
    if (slow > 1)
        fprintf(stderr, "cprobe of a message that came during its search: "
                "%d of 3 took 80 ms or more after it\n", slow);
    CHECK(slow <= 1);
    done();
    return 0;
}
