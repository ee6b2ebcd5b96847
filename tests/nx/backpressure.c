/* SPDX-License-Identifier: MIT */
/*
 * backpressure.c: sends wait, in order, while Portals has no memory
 * descriptor free, and go out once some are.  Node 1 binds every MD the
 * job's NI has left (as another library of the program could hold them),
 * starts N sends to node 0 (short and long), checks that none got out,
 * then releases the MDs: all must arrive at node 0, in order and intact.
 * (On a compute node the NI has 256 MDs; libnx takes at most half for
 * its own Puts and Gets and waits when Portals says PTL_NO_SPACE.)
 */
#include "nxtest.h"
#include "ptl_job.h"

#define N     40
#define LEN(k) ((k) % 4 == 3 ? 30000 + (k) * 10 : (k) * 100)
#define HOG   4096

int main(void)
{
    long me = mynode();
    static unsigned char out[N][31000], in[31000];
    static ptl_handle_md_t hog[HOG];
    long mids[N];
    int nhog = 0;
    struct ptl_job job;

    CHECK(numnodes() == 2);
    if (me == 1) {
        ptl_md_t md = { .start = out, .length = 1, .eq_handle = PTL_EQ_NONE,
                        .ct_handle = PTL_CT_NONE };
        CHECK(ptl_job_init(&job) == PTL_OK);       /* the same NI */
        while (nhog < HOG && PtlMDBind(job.ni, &md, &hog[nhog]) == PTL_OK)
            nhog++;
        CHECK(nhog > 0 && nhog < HOG);
        for (long k = 0; k < N; k++) {
            fill(out[k], LEN(k), 1, 0, k);
            mids[k] = isend(5, out[k], LEN(k), 0, 0);
        }
        for (int i = 0; i < 50; i++)
            CHECK(iprobe(99) == 0);                 /* progress: retries */
        for (long k = 3; k < N; k += 4)
            CHECK(msgdone(mids[k]) == 0);           /* long: not out yet */
        csend(6, NULL, 0, 0, 0);    /* after the queue: must wait too */
        for (int i = 0; i < nhog; i++)
            CHECK(PtlMDRelease(hog[i]) == PTL_OK);
        for (long k = 0; k < N; k++)
            msgwait(mids[k]);
        ptl_job_fini();
    } else {
        for (long k = 0; k < N; k++) {
            crecv(5, in, sizeof(in));
            CHECK(infocount() == LEN(k) && infonode() == 1);
            CHECK(same(in, LEN(k), 1, 0, k));
        }
        crecv(6, NULL, 0);
    }
    done();
    return 0;
}
