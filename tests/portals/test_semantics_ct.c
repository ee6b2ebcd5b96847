/* SPDX-License-Identifier: MIT */
/*
 * test_semantics_ct.c: ptl-test-semantics, counting events and the triggered
 * operations they fire.
 */
#include "test_semantics.h"

/* ---- counting events ---- */

void ct_counts_operations_and_bytes(void **state)
{
    ptl_handle_ct_t ops, bytes, mdct;
    ptl_ct_event_t c;
    ptl_handle_md_t md;
    ptl_me_t m1 = me_make(tbuf, 1000, 16,
                          PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM);
    ptl_me_t m2 = me_make(tbuf, 1000, 17, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_CT_BYTES);

    (void)state;
    assert_int_equal(PtlCTAlloc(B.ni, &ops), PTL_OK);
    assert_int_equal(PtlCTAlloc(B.ni, &bytes), PTL_OK);
    assert_int_equal(PtlCTAlloc(A.ni, &mdct), PTL_OK);
    md = md_make(&A, sbuf, 1000, PTL_MD_EVENT_CT_ACK |
                 PTL_MD_EVENT_SUCCESS_DISABLE, mdct);
    m1.ct_handle = ops;
    m2.ct_handle = bytes;
    append(&m1, PTL_PRIORITY_LIST, NULL);
    append(&m2, PTL_PRIORITY_LIST, NULL);
    for (int i = 1; i <= 3; i++) {
        put(md, 0, 10 * i, 16, 0);
        put(md, 0, 10 * i, 17, 0);
    }
    assert_int_equal(PtlCTWait(mdct, 6, &c), PTL_OK);
    assert_int_equal(c.success, 6);
    assert_int_equal(c.failure, 0);
    PtlCTGet(ops, &c);
    assert_int_equal(c.success, 3);
    PtlCTGet(bytes, &c);
    assert_int_equal(c.success, 60);
    st_expect_none(&A);             /* SUCCESS_DISABLE on the MD */
}

void ct_counts_overflow_events(void **state)
{
    static uint8_t obuf[4096];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 18, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_CT_OVERFLOW | PTL_ME_EVENT_CT_BYTES);
    ptl_handle_ct_t ct;
    ptl_ct_event_t c;

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    for (int i = 0; i < 2; i++) {
        put(md, 0, 40, 18, 0);
        st_expect(&B, PTL_EVENT_PUT);
        put_done();
    }
    assert_int_equal(PtlCTAlloc(B.ni, &ct), PTL_OK);
    me.ct_handle = ct;
    append(&me, PTL_PRIORITY_LIST, NULL);
    PtlCTGet(ct, &c);
    assert_int_equal(c.success, 80);
}

void ct_failure_counted(void **state)
{
    ptl_handle_ct_t ct;
    ptl_ct_event_t c;
    ptl_handle_md_t md;

    (void)state;
    assert_int_equal(PtlCTAlloc(A.ni, &ct), PTL_OK);
    md = md_make(&A, sbuf, 1000, PTL_MD_EVENT_CT_ACK, ct);
    assert_int_equal(PtlPut(md, 0, 8, PTL_CT_ACK_REQ, B.id, PT, 999, 0,
                            NULL, 0), PTL_OK);
    assert_int_equal(PtlCTWait(ct, 1, &c), PTL_OK);
    assert_int_equal(c.failure, 1);
    st_expect(&A, PTL_EVENT_SEND);
    st_expect_none(&A);             /* CT_ACK_REQ: no ACK event */
}

/* ---- triggered operations ---- */

void triggered_put_fires_at_threshold(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 28, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_handle_ct_t ct;
    ptl_ct_event_t one = { 1, 0 };

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    PtlCTAlloc(A.ni, &ct);
    assert_int_equal(PtlTriggeredPut(md, 0, 10, PTL_ACK_REQ, B.id, PT, 28, 0,
                                     NULL, 0, ct, 2), PTL_OK);
    PtlCTInc(ct, one);
    st_expect_none(&B);
    PtlCTInc(ct, one);
    st_expect(&B, PTL_EVENT_PUT);
    put_done();
}

void triggered_get_fires_at_threshold(void **state)
{
    ptl_me_t me = me_make(sbuf, 100, 29, PTL_ME_OP_GET);
    ptl_handle_md_t md = md_make(&A, tbuf, 1000, 0, PTL_CT_NONE);
    ptl_handle_ct_t ct;
    ptl_ct_event_t three = { 3, 0 };

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    PtlCTAlloc(A.ni, &ct);
    assert_int_equal(PtlTriggeredGet(md, 0, 50, B.id, PT, 29, 0, NULL, ct, 3),
                     PTL_OK);
    st_expect_none(&A);
    PtlCTSet(ct, three);
    assert_int_equal(st_expect(&A, PTL_EVENT_REPLY).mlength, 50);
    assert_memory_equal(tbuf, sbuf, 50);
}

void triggered_atomic_fires_at_threshold(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 30, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_handle_ct_t ct;
    ptl_ct_event_t one = { 1, 0 };
    uint64_t x = 5, y = 7;

    (void)state;
    memcpy(tbuf, &x, 8);
    memcpy(sbuf, &y, 8);
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    PtlCTAlloc(A.ni, &ct);
    assert_int_equal(PtlTriggeredAtomic(md, 0, 8, PTL_ACK_REQ, B.id, PT, 30,
                                        0, NULL, 0, PTL_SUM, PTL_UINT64_T,
                                        ct, 1), PTL_OK);
    PtlCTInc(ct, one);
    st_expect(&B, PTL_EVENT_ATOMIC);
    put_done();
    memcpy(&x, tbuf, 8);
    assert_int_equal(x, 12);
}

void triggered_ctinc_and_ctset(void **state)
{
    ptl_handle_ct_t trig, a, b;
    ptl_ct_event_t one = { 1, 0 }, seven = { 7, 0 }, c;

    (void)state;
    PtlCTAlloc(A.ni, &trig);
    PtlCTAlloc(A.ni, &a);
    PtlCTAlloc(A.ni, &b);
    assert_int_equal(PtlTriggeredCTInc(a, one, trig, 1), PTL_OK);
    assert_int_equal(PtlTriggeredCTSet(b, seven, trig, 2), PTL_OK);
    PtlCTGet(a, &c);
    assert_int_equal(c.success, 0);
    PtlCTInc(trig, one);
    PtlCTGet(a, &c);
    assert_int_equal(c.success, 1);
    PtlCTGet(b, &c);
    assert_int_equal(c.success, 0);
    PtlCTInc(trig, one);
    PtlCTGet(b, &c);
    assert_int_equal(c.success, 7);
    /* already past the threshold: fires at once */
    assert_int_equal(PtlTriggeredCTInc(a, one, trig, 1), PTL_OK);
    PtlCTGet(a, &c);
    assert_int_equal(c.success, 2);
}

void ct_cancel_triggered(void **state)
{
    ptl_handle_ct_t trig, a;
    ptl_ct_event_t one = { 1, 0 }, c;

    (void)state;
    PtlCTAlloc(A.ni, &trig);
    PtlCTAlloc(A.ni, &a);
    PtlTriggeredCTInc(a, one, trig, 1);
    assert_int_equal(PtlCTCancelTriggered(trig), PTL_OK);
    PtlCTInc(trig, one);
    PtlCTGet(a, &c);
    assert_int_equal(c.success, 0);
}
