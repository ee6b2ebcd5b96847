/* SPDX-License-Identifier: MIT */
/*
 * p2p.c: blocking point to point.  Around a ring (on one node: to itself),
 * csend/crecv of 0 B .. 1 MiB (eager and rendezvous, both sides of the
 * 16 KiB limit), checking every byte and infocount/infonode/infotype/
 * infoptype; crecvx's info array; the job NI shared with another user of
 * ptl_job (as MPI would: one NI, reference counted).
 */
#include "nxtest.h"
#include "ptl_job.h"

static const long sizes[] = { 0, 1, 100, 16383, 16384, 16385, 100000,
                              1 << 20 };
#define NS ((long)(sizeof(sizes) / sizeof(sizes[0])))

int main(void)
{
    struct ptl_job job;
    long me, n, right, left, info[NX_INFO_LEN];
    unsigned char *out = malloc(1 << 20), *in = malloc(1 << 20);

    CHECK(ptl_job_init(&job) == PTL_OK);     /* "MPI" joins first */
    me = mynode();
    n = numnodes();
    CHECK(me == job.rank && n == job.size && myptype() == 0);
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    for (long k = 0; k < NS; k++) {
        long len = sizes[k];
        fill(out, len, me, right, k);
        memset(in, 0xee, (size_t)len);
        if (me % 2 == 0 || n == 1) {        /* avoid a ring deadlock */
            csend(100 + k, out, len, right, 0);
            crecv(100 + k, in, len);
        } else {
            crecv(100 + k, in, len);
            csend(100 + k, out, len, right, 0);
        }
        CHECK(same(in, len, left, me, k));
        CHECK(infocount() == len && infonode() == left &&
              infotype() == 100 + k && infoptype() == 0);
    }
    /* crecvx fills the info array; a larger buffer than the message. */
    fill(out, 5000, me, right, 99);
    if (me % 2 == 0 || n == 1) {
        csend(7, out, 5000, right, 0);
        crecvx(7, in, 1 << 20, left, 0, info);
    } else {
        crecvx(7, in, 1 << 20, left, 0, info);
        csend(7, out, 5000, right, 0);
    }
    CHECK(same(in, 5000, left, me, 99));
    CHECK(info[NX_INFO_TYPE] == 7 && info[NX_INFO_COUNT] == 5000 &&
          info[NX_INFO_NODE] == left && info[NX_INFO_PTYPE] == 0);
    ptl_job_barrier();                      /* the other library still works */
    ptl_job_fini();
    free(out);
    free(in);
    done();
    return 0;
}
