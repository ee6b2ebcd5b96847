/* SPDX-License-Identifier: MIT */
/*
 * test_rules_triggered.c: ptl-test-rules, triggered ME and LE appends and
 * unlinks.
 */
#include "test_rules.h"

/* ---- triggered list operations ---- */

/* A put of 16 bytes from A with match bits 71; the ACK's failure type. */
static int put_71(ptl_handle_md_t md, ptl_size_t off)
{
    assert_int_equal(PtlPut(md, off, 16, PTL_ACK_REQ, B.id, PT, 71, off,
                            NULL, 0), PTL_OK);
    for (;;) {
        ptl_event_t ev = st_event(&A);
        if (ev.type == PTL_EVENT_ACK)
            return ev.ni_fail_type;
    }
}

void triggered_me_append_links_at_threshold(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 71, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);
    ptl_handle_ct_t ct;
    ptl_handle_me_t h;

    (void)state;
    assert_int_equal(PtlCTAlloc(B.ni, &ct), PTL_OK);
    assert_int_equal(PtlTriggeredMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST,
                                          (void *)0x71, &h, ct, 2), PTL_OK);
    assert_int_equal(put_71(md, 0), PTL_NI_DROPPED);     /* not linked yet */
    assert_int_equal(PtlMEUnlink(h), PTL_ARG_INVALID);   /* not on a list */
    PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 });
    st_expect_none(&B);                                   /* 1 < 2 */
    PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 });
    assert_ptr_equal(st_expect(&B, PTL_EVENT_LINK).user_ptr, (void *)0x71);
    assert_int_equal(put_71(md, 16), PTL_NI_OK);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT).user_ptr, (void *)0x71);
    assert_memory_equal(tbuf + 16, sbuf + 16, 16);
    assert_int_equal(PtlMEUnlink(h), PTL_OK);
    /* cancelled before it fires: never linked, its entry freed */
    assert_int_equal(PtlTriggeredMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST,
                                          NULL, &h, ct, 10), PTL_OK);
    assert_int_equal(PtlCTCancelTriggered(ct), PTL_OK);
    PtlCTSet(ct, (ptl_ct_event_t){ 20, 0 });
    st_expect_none(&B);
    assert_int_equal(put_71(md, 0), PTL_NI_DROPPED);
}

void triggered_me_unlink_at_threshold(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 71, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t md = md_make(&A, sbuf, 100, 0, PTL_CT_NONE);
    ptl_handle_ct_t ct;
    ptl_handle_me_t h;

    (void)state;
    assert_int_equal(PtlCTAlloc(B.ni, &ct), PTL_OK);
    h = append(&me, PTL_PRIORITY_LIST, NULL);
    assert_int_equal(PtlTriggeredMEUnlink(h, ct, 1), PTL_OK);
    assert_int_equal(put_71(md, 0), PTL_NI_OK);           /* still there */
    st_expect(&B, PTL_EVENT_PUT);
    PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 });
    assert_int_equal(put_71(md, 0), PTL_NI_DROPPED);      /* gone */
    assert_int_equal(PtlMEUnlink(h), PTL_ARG_INVALID);
}

/* The LE forms on a non-matching NI of each station. */
void triggered_le_append_and_unlink(void **state)
{
    struct le_nis n;
    ptl_handle_ni_t ani, bni;
    ptl_handle_eq_t beq, aeq;
    ptl_handle_ct_t ct;
    ptl_handle_le_t h;
    ptl_handle_md_t md;
    ptl_pt_index_t pt;
    ptl_le_t le = { .start = tbuf, .length = 100, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY, .options = PTL_LE_OP_PUT };
    ptl_md_t d = { .start = sbuf, .length = 100, .ct_handle = PTL_CT_NONE };
    ptl_event_t ev;

    (void)state;
    le_nis_open(&n);
    ani = n.ani, bni = n.bni, aeq = n.aeq, beq = n.beq, pt = n.pt;
    assert_int_equal(PtlCTAlloc(bni, &ct), PTL_OK);
    d.eq_handle = aeq;
    assert_int_equal(PtlMDBind(ani, &d, &md), PTL_OK);
    assert_int_equal(PtlTriggeredLEAppend(bni, pt, &le, PTL_PRIORITY_LIST,
                                          (void *)0x1e, &h, ct, 1), PTL_OK);
    assert_int_equal(PtlTriggeredLEUnlink(h, ct, 2), PTL_OK);
    PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 });
    assert_int_equal(PtlEQPoll(&beq, 1, 2000, &ev, &(unsigned){ 0 }),
                     PTL_OK);
    assert_int_equal(ev.type, PTL_EVENT_LINK);
    assert_int_equal(PtlPut(md, 0, 10, PTL_NO_ACK_REQ, B.id, pt, 0, 0, NULL,
                            0), PTL_OK);
    assert_int_equal(PtlEQPoll(&beq, 1, 2000, &ev, &(unsigned){ 0 }),
                     PTL_OK);
    assert_int_equal(ev.type, PTL_EVENT_PUT);
    assert_ptr_equal(ev.user_ptr, (void *)0x1e);
    PtlCTInc(ct, (ptl_ct_event_t){ 1, 0 });               /* unlinked */
    assert_int_equal(PtlLEUnlink(h), PTL_ARG_INVALID);
}
