/* SPDX-License-Identifier: MIT */
/*
 * test_rules_backpressure.c: ptl-test-rules, running out of a resource
 * waits, it never fails an operation: a live target never gives
 * PTL_NI_UNDELIVERABLE, whether the target is the process itself or a
 * peer as short of message slots as it is.
 */
#include "test_rules.h"

/* A station with the parameters p, a portal index 0 and a persistent
 * entry over buf that takes puts and gets with match bits 5. */
static void open_station_params(struct station *s, unsigned iface,
                                struct ptl_lib_params *p, uint8_t *buf,
                                size_t len)
{
    ptl_me_t me = me_make(buf, len, 5, PTL_ME_OP_PUT | PTL_ME_OP_GET |
                          PTL_ME_EVENT_SUCCESS_DISABLE |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t h;
    ptl_pt_index_t pt;

    p->epoch = 7 + iface;
    ptl_linux_link_defaults(rules_link(), p->mtu, p);
    assert_int_equal(ptl_linux_iface_open_params(iface, rules_link(), p),
                     PTL_OK);
    st_ni(s, iface, p->nid, p->pid, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 16,
          NULL, NULL);
    assert_int_equal(PtlPTAlloc(s->ni, 0, PTL_EQ_NONE, 0, &pt), PTL_OK);
    assert_int_equal(PtlMEAppend(s->ni, 0, &me, PTL_PRIORITY_LIST, NULL, &h),
                     PTL_OK);
}

/* The same with max_msgs message slots (a node has 256, Linux 1024). */
static void open_few_slots(struct station *s, unsigned iface, ptl_nid_t nid,
                           ptl_pid_t pid, uint32_t max_msgs, uint8_t *buf,
                           size_t len)
{
    struct ptl_lib_params p;

    ptl_lib_params_default(&p);
    p.nid = nid;
    p.pid = pid;
    p.max_msgs = max_msgs;
    open_station_params(s, iface, &p, buf, len);
}

/* n triggered puts and n triggered gets from s to each target, all
 * released by one PtlCTInc (so all are in flight at once, waiting for
 * message slots); returns the counter that counts their ACKs and
 * REPLYs. */
static ptl_handle_ct_t storm(struct station *s, const ptl_process_t *to,
                             int ntargets, int n)
{
    ptl_handle_ct_t trig, done;
    ptl_handle_md_t md;

    assert_int_equal(PtlCTAlloc(s->ni, &trig), PTL_OK);
    assert_int_equal(PtlCTAlloc(s->ni, &done), PTL_OK);
    md = md_make(s, sbuf, 64, PTL_MD_EVENT_SUCCESS_DISABLE |
                 PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY, done);
    for (int t = 0; t < ntargets; t++)
        for (int i = 0; i < n; i++) {
            assert_int_equal(PtlTriggeredPut(md, 0, 8, PTL_CT_ACK_REQ, to[t],
                                             0, 5, 0, NULL, 0, trig, 1),
                             PTL_OK);
            assert_int_equal(PtlTriggeredGet(md, 8, 8, to[t], 0, 5, 8, NULL,
                                             trig, 1), PTL_OK);
        }
    assert_int_equal(PtlCTInc(trig, (ptl_ct_event_t){ 1, 0 }), PTL_OK);
    return done;
}

static void expect_all_ok(ptl_handle_ct_t ct, uint64_t n)
{
    ptl_ct_event_t c;

    /* Fails with the counts if any operation failed or some never
     * completed (within 60 s: the peer given up takes ~14 s). */
    PtlCTPoll(&ct, &(ptl_size_t){ n }, 1, 60000, &c, &(unsigned){ 0 });
    if (c.success != n || c.failure != 0)
        fail_msg("%lu operations: %lu completed, %lu failed",
                 (unsigned long)n, (unsigned long)c.success,
                 (unsigned long)c.failure);
}

/* 200 puts and 200 gets of a process to itself with 32 message slots:
 * each needs a slot to be sent and its target a slot to answer.  The
 * answers waited behind the requests still queued to the same peer (the
 * process itself), so the slots ran out and the process gave itself up
 * (the Portals 4 reference's test_*_no_space_triggered_* on one rank). */
void ops_to_self_beyond_the_message_slots_all_complete(void **state)
{
    static uint8_t buf[64];
    struct station C;
    ptl_handle_ct_t done;

    (void)state;
    open_few_slots(&C, 3, 3, 30, 32, buf, sizeof(buf));
    done = storm(&C, &C.id, 1, 200);
    expect_all_ok(done, 400);
}

/* Two processes with 32 slots each flood each other and themselves. */
void stations_flooding_each_other_with_few_slots_all_complete(void **state)
{
    static uint8_t cbuf[64], dbuf[64];
    struct station C, D;
    ptl_handle_ct_t cdone, ddone;

    (void)state;
    open_few_slots(&C, 3, 3, 30, 32, cbuf, sizeof(cbuf));
    open_few_slots(&D, 4, 4, 40, 32, dbuf, sizeof(dbuf));
    cdone = storm(&C, (ptl_process_t[]){ D.id, C.id }, 2, 150);
    ddone = storm(&D, (ptl_process_t[]){ C.id, D.id }, 2, 150);
    expect_all_ok(cdone, 600);
    expect_all_ok(ddone, 600);
}

/* A target whose every message slot holds an answer to a peer that
 * vanished refuses requests until it gives that peer up (40 timeouts,
 * about 35 s).  Its other initiators must wait for it: it says it is
 * alive (RNR) each time it refuses, so they never give it up (16
 * timeouts, about 11 s, would have). */
void a_target_short_of_slots_is_waited_for_not_given_up(void **state)
{
    static uint8_t dbuf[64];
    struct station C, D, E;
    struct ptl_lib_params p;
    ptl_handle_md_t md;
    ptl_handle_ct_t acks;

    (void)state;
    if (!in_process())
        skip();                 /* 35 s of timeouts: the virtual clock's */
    ptl_lib_params_default(&p);
    p.nid = 4, p.pid = 40, p.max_msgs = 16, p.max_retries = 40;
    open_station_params(&D, 4, &p, dbuf, sizeof(dbuf));
    open_few_slots(&E, 5, 5, 50, 64, sbuf, 64);
    md = md_make(&E, sbuf, 8, PTL_MD_EVENT_SUCCESS_DISABLE, PTL_CT_NONE);
    for (int i = 0; i < 16; i++)
        assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, D.id, 0, 5, 0, NULL,
                                0), PTL_OK);
    ptl_linux_iface_close(E.iface);         /* gone before any answer */
    open_few_slots(&C, 3, 3, 30, 64, sbuf + 64, 64);
    assert_int_equal(PtlCTAlloc(C.ni, &acks), PTL_OK);
    md = md_make(&C, sbuf, 8, PTL_MD_EVENT_SUCCESS_DISABLE |
                 PTL_MD_EVENT_CT_ACK, acks);
    for (int i = 0; i < 4; i++)
        assert_int_equal(PtlPut(md, 0, 8, PTL_CT_ACK_REQ, D.id, 0, 5, 0, NULL,
                                0), PTL_OK);
    expect_all_ok(acks, 4);
    assert_true(ptl_memnet_now() > 20000000000ull);   /* it did wait */
}
