/* SPDX-License-Identifier: MIT */
/*
 * test_rules_search.c: ptl-test-rules, PtlMESearch (search only, search and
 * delete, counting, no room for its events) and the AUTO_UNLINK of a
 * use-once entry satisfied at append.
 */
#include "test_rules.h"

/* ---- PtlMESearch ---- */

void search_only_reports_every_match(void **state)
{
    static uint8_t obuf[4096];
    ptl_me_t me = me_make(NULL, 0, 21, PTL_ME_OP_PUT);

    (void)state;
    overflow_block(obuf, sizeof(obuf));
    unexpected_puts(3, 21);
    assert_int_equal(PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, (void *)5),
                     PTL_OK);
    for (unsigned i = 0; i < 3; i++) {
        ptl_event_t ev = st_expect(&B, PTL_EVENT_SEARCH);
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        assert_int_equal(ev.hdr_data, i);               /* in order */
        assert_ptr_equal(ev.user_ptr, (void *)5);
    }
    st_expect_none(&B);
    /* A use-once search entry reports the first only (MPI's probe). */
    me.options |= PTL_ME_USE_ONCE;
    assert_int_equal(PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, NULL),
                     PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_SEARCH).hdr_data, 0);
    st_expect_none(&B);
}

void search_delete_use_once_deletes_first_only(void **state)
{
    static uint8_t obuf[4096];
    ptl_me_t me = me_make(NULL, 0, 22, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);

    (void)state;
    overflow_block(obuf, sizeof(obuf));
    unexpected_puts(2, 22);
    assert_int_equal(PtlMESearch(B.ni, PT, &me, PTL_SEARCH_DELETE, NULL),
                     PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_PUT_OVERFLOW).hdr_data, 0);
    st_expect_none(&B);
    /* the second is still there; without USE_ONCE a delete takes all */
    me.options &= ~(unsigned)PTL_ME_USE_ONCE;
    assert_int_equal(PtlMESearch(B.ni, PT, &me, PTL_SEARCH_DELETE, NULL),
                     PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_PUT_OVERFLOW).hdr_data, 1);
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, NULL);
    assert_int_equal(st_expect(&B, PTL_EVENT_SEARCH).ni_fail_type,
                     PTL_NI_NO_MATCH);
}

void search_counts_on_the_searching_entrys_counter(void **state)
{
    static uint8_t obuf[4096];
    ptl_me_t me = me_make(NULL, 0, 23, PTL_ME_OP_PUT);
    ptl_ct_event_t c;

    (void)state;
    assert_int_equal(PtlCTAlloc(B.ni, &me.ct_handle), PTL_OK);
    overflow_block(obuf, sizeof(obuf));
    unexpected_puts(2, 23);
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, NULL);
    st_expect(&B, PTL_EVENT_SEARCH);
    st_expect(&B, PTL_EVENT_SEARCH);
    assert_int_equal(PtlCTGet(me.ct_handle, &c), PTL_OK);
    assert_int_equal(c.success, 2);
    assert_int_equal(c.failure, 1);         /* "search done" */
    me.match_bits = 24;                     /* no match: a failure */
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, NULL);
    st_expect(&B, PTL_EVENT_SEARCH);
    PtlCTGet(me.ct_handle, &c);
    assert_int_equal(c.success, 2);
    assert_int_equal(c.failure, 2);
    /* counted even with full events off: a search can be waited on by
     * its counter alone */
    me.match_bits = 23;
    me.options |= PTL_ME_EVENT_SUCCESS_DISABLE | PTL_ME_EVENT_OVER_DISABLE;
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_DELETE, NULL);
    st_expect_none(&B);
    PtlCTGet(me.ct_handle, &c);
    assert_int_equal(c.success, 4);
    assert_int_equal(c.failure, 3);
}

/* The counter after one search, then set back to zero. */
static ptl_ct_event_t search_ct(ptl_me_t *me, ptl_search_op_t op)
{
    ptl_ct_event_t c;

    assert_int_equal(PtlMESearch(B.ni, PT, me, op, NULL), PTL_OK);
    assert_int_equal(PtlCTGet(me->ct_handle, &c), PTL_OK);
    PtlCTSet(me->ct_handle, (ptl_ct_event_t){ 0, 0 });
    return c;
}

/* A program that waits on a search's counter alone must learn when the
 * search is over: a persistent entry can match any number of headers, so
 * its successes are followed by one failure, "search done" (the reference
 * implementation's mark, which its search counter tests check); a
 * use-once entry ends at its one success, or at the failure of no match. */
void search_done_marked_by_one_failure(void **state)
{
    static uint8_t obuf[4096];
    ptl_me_t me = me_make(NULL, 0, 26, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_SUCCESS_DISABLE |
                          PTL_ME_EVENT_OVER_DISABLE);
    ptl_ct_event_t c;

    (void)state;
    assert_int_equal(PtlCTAlloc(B.ni, &me.ct_handle), PTL_OK);
    overflow_block(obuf, sizeof(obuf));
    unexpected_puts(3, 26);
    c = search_ct(&me, PTL_SEARCH_ONLY);
    assert_true(c.success == 3 && c.failure == 1);
    me.options |= PTL_ME_USE_ONCE;
    c = search_ct(&me, PTL_SEARCH_ONLY);
    assert_true(c.success == 1 && c.failure == 0);
    me.match_bits = 27;
    c = search_ct(&me, PTL_SEARCH_ONLY);
    assert_true(c.success == 0 && c.failure == 1);
    me.options &= ~(unsigned)PTL_ME_USE_ONCE;
    c = search_ct(&me, PTL_SEARCH_DELETE);
    assert_true(c.success == 0 && c.failure == 1);
    me.match_bits = 26;
    c = search_ct(&me, PTL_SEARCH_DELETE);
    assert_true(c.success == 3 && c.failure == 1);
    c = search_ct(&me, PTL_SEARCH_ONLY);    /* all deleted */
    assert_true(c.success == 0 && c.failure == 1);
    for (int i = 0; i < 3; i++)             /* the failures' events */
        assert_int_equal(st_expect(&B, PTL_EVENT_SEARCH).ni_fail_type,
                         PTL_NI_NO_MATCH);
    st_expect_none(&B);
}

/* Our choice (portals/README.md): a search that could not post every
 * event it owes does nothing and says PTL_NO_SPACE, so a probe never
 * waits for an answer that was dropped. */
void search_without_room_for_its_events_says_no_space(void **state)
{
    static uint8_t obuf[4096];
    struct station C;
    ptl_pt_index_t pt;
    ptl_me_t me = me_make(NULL, 0, 25, PTL_ME_OP_PUT);
    ptl_me_t ob = me_make(obuf, sizeof(obuf), 0, PTL_ME_OP_PUT |
                          PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t h;
    ptl_handle_md_t md = md_make(&A, sbuf, 100, PTL_MD_EVENT_SUCCESS_DISABLE,
                                 PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    open_station(&C, 3, 3, 30, NULL, NULL);
    PtlEQFree(C.eq);
    assert_int_equal(PtlEQAlloc(C.ni, 3, &C.eq), PTL_OK);  /* 3 events */
    assert_int_equal(PtlPTAlloc(C.ni, 0, C.eq, 0, &pt), PTL_OK);
    ob.ignore_bits = ~(ptl_match_bits_t)0;
    assert_int_equal(PtlMEAppend(C.ni, 0, &ob, PTL_OVERFLOW_LIST, NULL, &h),
                     PTL_OK);
    for (unsigned i = 0; i < 2; i++)
        PtlPut(md, 0, 8, PTL_NO_ACK_REQ, C.id, 0, 25, 0, NULL, i);
    settle();
    assert_int_equal(PtlMESearch(C.ni, 0, &me, PTL_SEARCH_ONLY, NULL),
                     PTL_NO_SPACE);     /* 2 PUTs queued, 2 SEARCH due */
    assert_int_equal(st_expect(&C, PTL_EVENT_PUT).hdr_data, 0);
    assert_int_equal(PtlMESearch(C.ni, 0, &me, PTL_SEARCH_ONLY, NULL),
                     PTL_OK);
    st_expect(&C, PTL_EVENT_PUT);
    st_expect(&C, PTL_EVENT_SEARCH);
    st_expect(&C, PTL_EVENT_SEARCH);
    assert_int_equal(PtlEQGet(C.eq, &ev), PTL_EQ_EMPTY);  /* none dropped */
}

/* ---- events ---- */

void use_once_satisfied_at_append_posts_auto_unlink(void **state)
{
    static uint8_t obuf[4096];
    ptl_me_t me = me_make(tbuf, 100, 61, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);
    ptl_event_t ev;

    (void)state;
    overflow_block(obuf, sizeof(obuf));
    unexpected_puts(1, 61);
    append(&me, PTL_PRIORITY_LIST, (void *)0x61);
    ev = st_expect(&B, PTL_EVENT_PUT_OVERFLOW);
    assert_ptr_equal(ev.user_ptr, (void *)0x61);
    ev = st_expect(&B, PTL_EVENT_AUTO_UNLINK);
    assert_ptr_equal(ev.user_ptr, (void *)0x61);
    st_expect_none(&B);
    /* with UNLINK_DISABLE, none */
    unexpected_puts(1, 61);
    me.options |= PTL_ME_EVENT_UNLINK_DISABLE;
    append(&me, PTL_PRIORITY_LIST, (void *)0x62);
    st_expect(&B, PTL_EVENT_PUT_OVERFLOW);
    st_expect_none(&B);
}
