/* SPDX-License-Identifier: MIT */
/*
 * selfstorm: hundreds of operations of a process to itself in flight at
 * once all complete, none with PTL_NI_UNDELIVERABLE (portals/README.md,
 * "Running out of a resource waits").  The node's endpoint has 256
 * message slots and 256 triggered operations, and its loop queue 32
 * frames: 120 triggered puts and 120 triggered gets released by one
 * PtlCTInc need 480 slots (each its own and its response's), then 600
 * plain puts are issued as fast as PtlPut takes them (PTL_NO_SPACE: try
 * again).  Before, the process gave itself up after ~40 s of timeouts.
 *
 *   selfstorm        prints "selfstorm: OK ..." or dies with a reason
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "portals4.h"

#define PROG "selfstorm"
static unsigned self;
#include "node_test.h"

#define NTRIG   120             /* triggered puts, and as many gets */
#define NPLAIN  600

static ptl_handle_ni_t ni;
static ptl_process_t me;
static uint64_t target, buf[2];

/* Wait until ct counts n, at most 60 s; die unless all succeeded. */
static void expect(ptl_handle_ct_t ct, uint64_t n, const char *what)
{
    ptl_ct_event_t c;
    unsigned which;

    PtlCTPoll(&ct, &(ptl_size_t){ n }, 1, 60000, &c, &which);
    if (c.success != n || c.failure != 0)
        DIE("%s: %lu of %lu completed, %lu failed", what,
            (unsigned long)c.success, (unsigned long)n,
            (unsigned long)c.failure);
}

int main(void)
{
    ptl_me_t mine = { .start = &target, .length = sizeof(target),
                      .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                      .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                      .match_bits = 5,
                      .options = PTL_ME_OP_PUT | PTL_ME_OP_GET |
                                 PTL_ME_EVENT_SUCCESS_DISABLE |
                                 PTL_ME_EVENT_LINK_DISABLE };
    ptl_handle_ct_t trig, done, plain;
    ptl_handle_md_t md, pmd;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    double t0 = now_us();
    int rc;

    CHECK(PtlInit());
    CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                    PTL_PID_ANY, NULL, NULL, &ni));
    CHECK(PtlGetPhysId(ni, &me));
    self = me.phys.nid;
    CHECK(PtlPTAlloc(ni, 0, PTL_EQ_NONE, 0, &pt));
    CHECK(PtlMEAppend(ni, pt, &mine, PTL_PRIORITY_LIST, NULL, &meh));
    CHECK(PtlCTAlloc(ni, &trig));
    CHECK(PtlCTAlloc(ni, &done));
    CHECK(PtlCTAlloc(ni, &plain));
    CHECK(PtlMDBind(ni, &(ptl_md_t){ .start = buf, .length = sizeof(buf),
                                     .eq_handle = PTL_EQ_NONE,
                                     .ct_handle = done,
                                     .options = PTL_MD_EVENT_CT_ACK |
                                                PTL_MD_EVENT_CT_REPLY }, &md));
    CHECK(PtlMDBind(ni, &(ptl_md_t){ .start = buf, .length = sizeof(buf),
                                     .eq_handle = PTL_EQ_NONE,
                                     .ct_handle = plain,
                                     .options = PTL_MD_EVENT_CT_ACK }, &pmd));
    for (int i = 0; i < NTRIG; i++) {
        CHECK(PtlTriggeredPut(md, 0, 8, PTL_CT_ACK_REQ, me, pt, 5, 0, NULL,
                              0, trig, 1));
        CHECK(PtlTriggeredGet(md, 8, 8, me, pt, 5, 0, NULL, trig, 1));
    }
    CHECK(PtlCTInc(trig, (ptl_ct_event_t){ 1, 0 }));
    expect(done, 2 * NTRIG, "triggered puts and gets");
    for (int i = 0; i < NPLAIN; i++) {
        while ((rc = PtlPut(pmd, 0, 8, PTL_CT_ACK_REQ, me, pt, 5, 0, NULL,
                            0)) == PTL_NO_SPACE)
            ;
        if (rc != PTL_OK)
            DIE("PtlPut %d: %d", i, rc);
    }
    expect(plain, NPLAIN, "plain puts");
    printf("selfstorm: OK %d triggered puts and gets, %d puts to itself in "
           "%.0f ms\n", 2 * NTRIG, NPLAIN, (now_us() - t0) / 1e3);
    CHECK(PtlNIFini(ni));
    PtlFini();
    return 0;
}
