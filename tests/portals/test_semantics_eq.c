/* SPDX-License-Identifier: MIT */
/*
 * test_semantics_eq.c: ptl-test-semantics, event queues: flow control, a full
 * EQ, event options and polling.
 */
#include "test_semantics.h"

/* ---- flow control ---- */

void flowctrl_disable_and_recover(void **state)
{
    ptl_pt_index_t fpt;
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 23, PTL_ME_OP_PUT);
    ptl_handle_me_t h;
    ptl_event_t ev;

    (void)state;
    assert_int_equal(PtlPTAlloc(B.ni, PTL_PT_FLOWCTRL, PTL_EQ_NONE, 5, &fpt),
                     PTL_PT_EQ_NEEDED);
    assert_int_equal(PtlPTAlloc(B.ni, PTL_PT_FLOWCTRL, B.eq, 5, &fpt),
                     PTL_OK);
    PtlPut(md, 0, 10, PTL_ACK_REQ, B.id, fpt, 23, 0, NULL, 0);
    ev = st_expect(&B, PTL_EVENT_PT_DISABLED);
    assert_int_equal(ev.pt_index, fpt);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_PT_DISABLED);
    /* Still disabled: refused again, with no second PT_DISABLED. */
    assert_int_equal(PtlMEAppend(B.ni, fpt, &me, PTL_PRIORITY_LIST, NULL,
                                 &h), PTL_OK);
    st_expect(&B, PTL_EVENT_LINK);
    PtlPut(md, 0, 10, PTL_ACK_REQ, B.id, fpt, 23, 0, NULL, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_PT_DISABLED);
    st_expect_none(&B);
    assert_int_equal(PtlPTEnable(B.ni, fpt), PTL_OK);
    PtlPut(md, 0, 10, PTL_ACK_REQ, B.id, fpt, 23, 0, NULL, 0);
    st_expect(&B, PTL_EVENT_PUT);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_OK);
}

void flowctrl_full_eq_disables(void **state)
{
    ptl_handle_eq_t eq;
    ptl_pt_index_t fpt;
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 24,
                          PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t h;
    ptl_event_t ev;
    int nput = 0, ndis = 0;

    (void)state;
    assert_int_equal(PtlEQAlloc(B.ni, 4, &eq), PTL_OK);
    assert_int_equal(PtlPTAlloc(B.ni, PTL_PT_FLOWCTRL, eq, 6, &fpt), PTL_OK);
    PtlMEAppend(B.ni, fpt, &me, PTL_PRIORITY_LIST, NULL, &h);
    for (int i = 0; i < 6; i++) {
        PtlPut(md, 0, 10, PTL_ACK_REQ, B.id, fpt, 24, 0, NULL, 0);
        put_done();
    }
    while (PtlEQGet(eq, &ev) != PTL_EQ_EMPTY) {
        nput += ev.type == PTL_EVENT_PUT;
        ndis += ev.type == PTL_EVENT_PT_DISABLED;
    }
    assert_int_equal(nput, 3);      /* 4 slots, 2 needed per message */
    assert_int_equal(ndis, 1);
    PtlPTEnable(B.ni, fpt);
    PtlPut(md, 0, 10, PTL_ACK_REQ, B.id, fpt, 24, 0, NULL, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_OK);
    PtlMEUnlink(h);
    PtlPTFree(B.ni, fpt);
    PtlEQFree(eq);
}

void eq_overflow_drops_new_events(void **state)
{
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_me_t me = me_make(tbuf, 1000, 25, PTL_ME_OP_PUT);

    (void)state;
    assert_int_equal(PtlEQAlloc(A.ni, 2, &eq), PTL_OK);
    {
        ptl_md_t d = { .start = sbuf, .length = 100, .eq_handle = eq,
                       .ct_handle = PTL_CT_NONE };
        assert_int_equal(PtlMDBind(A.ni, &d, &md), PTL_OK);
    }
    append(&me, PTL_PRIORITY_LIST, NULL);
    for (int i = 0; i < 3; i++)
        PtlPut(md, 0, 8, PTL_ACK_REQ, B.id, PT, 25, 0, (void *)(long)i, 0);
    net_settle();
    /* 6 events, 2 slots: the first two kept, later ones dropped. */
    assert_int_equal(PtlEQGet(eq, &ev), PTL_EQ_DROPPED);
    assert_int_equal(ev.type, PTL_EVENT_SEND);
    assert_ptr_equal(ev.user_ptr, (void *)0);
    assert_int_equal(PtlEQGet(eq, &ev), PTL_OK);
    assert_int_equal(PtlEQGet(eq, &ev), PTL_EQ_EMPTY);
    PtlMDRelease(md);
    PtlEQFree(eq);
}

/* ---- event options, polling ---- */

void event_disable_options(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 33, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE |
                          PTL_ME_EVENT_COMM_DISABLE | PTL_ME_USE_ONCE |
                          PTL_ME_EVENT_UNLINK_DISABLE);
    ptl_handle_md_t md = md_make(&A, sbuf, 100, PTL_MD_EVENT_SEND_DISABLE,
                                 PTL_CT_NONE);

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    put(md, 0, 10, 33, 0);
    assert_int_equal(st_expect(&A, PTL_EVENT_ACK).ni_fail_type, PTL_NI_OK);
    st_expect_none(&A);             /* no SEND */
    st_expect_none(&B);             /* no LINK, PUT or AUTO_UNLINK */
    assert_memory_equal(tbuf, sbuf, 10);
}

void eq_poll_several_and_timeout(void **state)
{
    ptl_handle_eq_t eqs[2];
    ptl_event_t ev;
    unsigned which = 99;
    ptl_me_t me = me_make(tbuf, 100, 34, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);
    uint64_t t0;

    (void)state;
    assert_int_equal(PtlEQAlloc(B.ni, 8, &eqs[0]), PTL_OK);
    eqs[1] = B.eq;
    t0 = ptl_memnet_now();
    assert_int_equal(PtlEQPoll(eqs, 2, 50, &ev, &which), PTL_EQ_EMPTY);
    assert_true(ptl_memnet_now() - t0 >= 50 * 1000000ull);
    append(&me, PTL_PRIORITY_LIST, NULL);
    assert_int_equal(PtlEQPoll(eqs, 2, 50, &ev, &which), PTL_OK);
    assert_int_equal(which, 1);
    assert_int_equal(ev.type, PTL_EVENT_LINK);
    put(md, 0, 10, 34, 0);
    assert_int_equal(PtlEQPoll(eqs, 2, PTL_TIME_FOREVER, &ev, &which),
                     PTL_OK);
    assert_int_equal(ev.type, PTL_EVENT_PUT);
    PtlEQFree(eqs[0]);
}

void ct_poll_several(void **state)
{
    ptl_handle_ct_t cts[2];
    ptl_size_t tests[2] = { 5, 1 };
    ptl_ct_event_t one = { 1, 0 }, c;
    unsigned which = 9;

    (void)state;
    PtlCTAlloc(A.ni, &cts[0]);
    PtlCTAlloc(A.ni, &cts[1]);
    assert_int_equal(PtlCTPoll(cts, tests, 2, 10, &c, &which),
                     PTL_CT_NONE_REACHED);
    PtlCTInc(cts[1], one);
    assert_int_equal(PtlCTPoll(cts, tests, 2, 10, &c, &which), PTL_OK);
    assert_int_equal(which, 1);
    assert_int_equal(c.success, 1);
}

void flowctrl_unexpected_headers_exhausted(void **state)
{
    struct station C;
    ptl_pt_index_t fpt;
    static uint8_t obuf[1 << 16];
    ptl_me_t over = me_make(obuf, sizeof(obuf), 0,
                            PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                            PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t h;
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);
    struct ptl_lib_params p;
    int nput = 0, ndis = 0;
    ptl_event_t ev;

    (void)state;
    ptl_lib_params_default(&p);
    p.nid = 3;
    p.pid = 30;
    p.max_uh = 2;       /* room for two unexpected headers only */
    assert_int_equal(ptl_linux_iface_open_params(3, "mem:", &p), PTL_OK);
    C.iface = 3;
    C.id.phys.nid = 3;
    C.id.phys.pid = 30;
    PtlNIInit(3, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 30, NULL, NULL, &C.ni);
    PtlEQAlloc(C.ni, 64, &C.eq);
    PtlPTAlloc(C.ni, PTL_PT_FLOWCTRL, C.eq, 0, &fpt);
    over.ignore_bits = ~(ptl_match_bits_t)0;
    PtlMEAppend(C.ni, fpt, &over, PTL_OVERFLOW_LIST, NULL, &h);
    for (int i = 0; i < 3; i++) {
        PtlPut(md, 0, 10, PTL_ACK_REQ, C.id, fpt, 1, 0, NULL, 0);
        put_done();
    }
    while (PtlEQGet(C.eq, &ev) == PTL_OK) {
        nput += ev.type == PTL_EVENT_PUT;
        ndis += ev.type == PTL_EVENT_PT_DISABLED;
    }
    assert_int_equal(nput, 2);
    assert_int_equal(ndis, 1);
    st_close(&C);
}
