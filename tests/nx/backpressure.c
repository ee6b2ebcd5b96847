/* SPDX-License-Identifier: MIT */
/*
 * backpressure.c: another library of the program holding every memory
 * descriptor the NI has left does not hold NX up.  Node 1 binds them all
 * (on a compute node the NI has 256), then sends N messages to node 0,
 * short and long: every one must arrive, in order and intact, and every
 * send complete while the MDs are still held, since libnx Puts and Gets
 * from the one MD it bound at startup (once it bound one per message and
 * waited here for an MD to come free).
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
        csend(6, NULL, 0, 0, 0);
        for (long k = 0; k < N; k++)
            msgwait(mids[k]);
        for (int i = 0; i < nhog; i++)
            CHECK(PtlMDRelease(hog[i]) == PTL_OK);
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
