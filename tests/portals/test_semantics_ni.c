/* SPDX-License-Identifier: MIT */
/*
 * test_semantics_ni.c: ptl-test-semantics, interfaces, addressing, handles and
 * the rules for resources in use.
 */
#include "test_semantics.h"

/* ---- interfaces, addressing, handles ---- */

void non_matching_le(void **state)
{
    struct station C, D;
    ptl_pt_index_t pt;
    ptl_handle_le_t h;
    ptl_le_t le = { .start = tbuf, .length = 100, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY, .options = PTL_LE_OP_PUT };
    ptl_handle_md_t md;

    (void)state;
    st_open_opts(&C, 3, 3, 30, 0, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, 64);
    st_open_opts(&D, 4, 4, 40, 0, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, 64);
    PtlPTAlloc(D.ni, 0, D.eq, 0, &pt);
    assert_int_equal(PtlLEAppend(D.ni, pt, &le, PTL_PRIORITY_LIST, NULL, &h),
                     PTL_OK);
    st_expect(&D, PTL_EVENT_LINK);
    md = md_make(&C, sbuf, 100, 0, PTL_CT_NONE);
    PtlPut(md, 0, 10, PTL_NO_ACK_REQ, D.id, pt, 0xdead, 0, NULL, 0);
    st_expect(&D, PTL_EVENT_PUT);
    st_expect(&C, PTL_EVENT_SEND);
    assert_memory_equal(tbuf, sbuf, 10);
    st_close(&C);
    st_close(&D);
}

void logical_addressing_map(void **state)
{
    struct station C, D;
    ptl_process_t map[2] = { { .phys = { 3, 30 } }, { .phys = { 4, 40 } } };
    ptl_process_t id, tgt = { .rank = 1 }, got[2];
    ptl_size_t n;
    ptl_pt_index_t pt;
    ptl_me_t me = me_make(tbuf, 100, 1, PTL_ME_OP_PUT);
    ptl_handle_me_t h;
    ptl_handle_md_t md;

    (void)state;
    st_open_opts(&C, 3, 3, 30, 0, PTL_NI_MATCHING | PTL_NI_LOGICAL, 64);
    st_open_opts(&D, 4, 4, 40, 0, PTL_NI_MATCHING | PTL_NI_LOGICAL, 64);
    assert_int_equal(PtlSetMap(C.ni, 2, map), PTL_OK);
    assert_int_equal(PtlSetMap(D.ni, 2, map), PTL_OK);
    assert_int_equal(PtlGetMap(C.ni, 2, got, &n), PTL_OK);
    assert_int_equal(n, 2);
    assert_int_equal(got[1].phys.nid, 4);
    assert_int_equal(PtlGetId(D.ni, &id), PTL_OK);
    assert_int_equal(id.rank, 1);
    PtlPTAlloc(D.ni, 0, D.eq, 0, &pt);
    me.match_id.rank = 0;
    PtlMEAppend(D.ni, pt, &me, PTL_PRIORITY_LIST, NULL, &h);
    st_expect(&D, PTL_EVENT_LINK);
    md = md_make(&C, sbuf, 100, 0, PTL_CT_NONE);
    PtlPut(md, 0, 10, PTL_NO_ACK_REQ, tgt, pt, 1, 0, NULL, 0);
    assert_int_equal(st_expect(&D, PTL_EVENT_PUT).initiator.rank, 0);
    st_close(&C);
    st_close(&D);
}

void handles_and_identity(void **state)
{
    ptl_handle_ni_t ni;
    ptl_process_t id;
    ptl_uid_t uid;

    (void)state;
    assert_true(PtlHandleIsEqual(A.eq, A.eq));
    assert_false(PtlHandleIsEqual(A.eq, B.eq));
    assert_int_equal(PtlNIHandle(A.eq, &ni), PTL_OK);
    assert_true(PtlHandleIsEqual(ni, A.ni));
    assert_int_equal(PtlGetPhysId(B.ni, &id), PTL_OK);
    assert_int_equal(id.phys.nid, 2);
    assert_int_equal(id.phys.pid, 20);
    assert_int_equal(PtlGetUid(A.ni, &uid), PTL_OK);
    assert_int_equal(PtlEQFree(PTL_INVALID_HANDLE), PTL_ARG_INVALID);
    assert_int_equal(PtlMDRelease(A.eq), PTL_ARG_INVALID);
    assert_int_equal(PtlPTAlloc(B.ni, 0, B.eq, 0, &(ptl_pt_index_t){ 0 }),
                     PTL_PT_IN_USE);
}

void md_bounds_checked(void **state)
{
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);
    ptl_md_t bad = { .start = NULL, .length = 10, .eq_handle = PTL_EQ_NONE,
                     .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t h;

    (void)state;
    assert_int_equal(PtlPut(md, 50, 51, PTL_NO_ACK_REQ, B.id, PT, 0, 0, NULL,
                            0), PTL_ARG_INVALID);
    assert_int_equal(PtlMDBind(A.ni, &bad, &h), PTL_ARG_INVALID);
}

void send_event_after_link_ack(void **state)
{
    static uint8_t big[200000];
    ptl_me_t me = me_make(big, sizeof(big), 31, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, sizeof(sbuf), 0, PTL_CT_NONE);
    struct ptl_lib_stats st;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    PtlPut(md, 0, sizeof(sbuf), PTL_NO_ACK_REQ, B.id, PT, 31, 0, NULL, 0);
    st_expect(&A, PTL_EVENT_SEND);
    /* by then every fragment reached B (the buffer is free again) */
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &st);
    assert_true(st.rx_frames >= sizeof(sbuf) / (1500 - 120));
    st_expect(&B, PTL_EVENT_PUT);
    assert_memory_equal(big, sbuf, sizeof(sbuf));
}

/* ---- resource rules ---- */

void pt_disable_refuses_then_enable(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 35, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    assert_int_equal(PtlPTDisable(B.ni, PT), PTL_OK);
    put(md, 0, 10, 35, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_PT_DISABLED);
    assert_int_equal(PtlPTEnable(B.ni, PT), PTL_OK);
    put(md, 0, 10, 35, 0);
    st_expect(&B, PTL_EVENT_PUT);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_OK);
}

void resources_in_use_are_refused(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 36, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);
    ptl_handle_me_t h;

    (void)state;
    h = append(&me, PTL_PRIORITY_LIST, NULL);
    assert_int_equal(PtlPTFree(B.ni, PT), PTL_PT_IN_USE);   /* has an ME */
    put(md, 0, 10, 36, 0);
    assert_int_equal(PtlMDRelease(md), PTL_IN_USE);         /* in flight */
    put_done();
    assert_int_equal(PtlMDRelease(md), PTL_OK);
    assert_int_equal(PtlMEUnlink(h), PTL_OK);
    assert_int_equal(PtlMEUnlink(h), PTL_ARG_INVALID);      /* gone */
}
