/* SPDX-License-Identifier: MIT */
/*
 * test_semantics_me.c: ptl-test-semantics, matching and lists: match
 * and ignore bits, initiator filters, use-once and persistent entries, list
 * order, truncation, remote offsets, locally managed entries.
 */
#include "test_semantics.h"

/* ---- matching and lists ---- */

void put_priority_match(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 0x11, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, (void *)0x77);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 100, 0x11, 0);
    ev = st_expect(&B, PTL_EVENT_PUT);
    assert_ptr_equal(ev.user_ptr, (void *)0x77);
    assert_int_equal(ev.mlength, 100);
    assert_int_equal(ev.rlength, 100);
    assert_int_equal(ev.hdr_data, 0x1234);
    assert_int_equal(ev.match_bits, 0x11);
    assert_int_equal(ev.initiator.phys.nid, 1);
    assert_int_equal(ev.initiator.phys.pid, 10);
    assert_int_equal(ev.ptl_list, PTL_PRIORITY_LIST);
    assert_ptr_equal(ev.start, tbuf);
    assert_memory_equal(tbuf, sbuf, 100);
    ev = put_done();
    assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
    assert_int_equal(ev.mlength, 100);
    assert_ptr_equal(ev.user_ptr, (void *)0x5a);
}

void match_ignore_bits(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 0xF0, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);

    (void)state;
    me.ignore_bits = 0x0F;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 10, 0xF5, 0);
    assert_int_equal(st_expect(&B, PTL_EVENT_PUT).match_bits, 0xF5);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_OK);
    put(md, 0, 10, 0xE5, 0);        /* differs outside ignore bits */
    assert_int_equal(put_done().ni_fail_type, PTL_NI_DROPPED);
    st_expect_none(&B);
}

void match_id_filters_initiator(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 1, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);

    (void)state;
    me.match_id.phys.nid = 1;
    me.match_id.phys.pid = 99;      /* not A */
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 10, 1, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_DROPPED);
    me.match_id.phys.pid = 10;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 10, 1, 0);
    st_expect(&B, PTL_EVENT_PUT);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_OK);
}

void use_once_unlinks(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 2, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);

    (void)state;
    append(&me, PTL_PRIORITY_LIST, (void *)1);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 10, 2, 0);
    st_expect(&B, PTL_EVENT_PUT);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_AUTO_UNLINK).user_ptr,
                     (void *)1);
    put_done();
    put(md, 0, 10, 2, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_DROPPED);
}

void persistent_me_stays(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 3, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    for (int i = 0; i < 3; i++) {
        put(md, 0, 10, 3, 0);
        st_expect(&B, PTL_EVENT_PUT);
        assert_int_equal(put_done().ni_fail_type, PTL_NI_OK);
    }
}

void first_match_wins_in_order(void **state)
{
    ptl_me_t m1 = me_make(tbuf, 100, 4, PTL_ME_OP_PUT);
    ptl_me_t m2 = me_make(tbuf + 100, 100, 4, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_handle_me_t h1;

    (void)state;
    h1 = append(&m1, PTL_PRIORITY_LIST, (void *)1);
    append(&m2, PTL_PRIORITY_LIST, (void *)2);
    st_expect(&B, PTL_EVENT_LINK);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 10, 4, 0);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT).user_ptr, (void *)1);
    put_done();
    assert_int_equal(PtlMEUnlink(h1), PTL_OK);
    put(md, 0, 10, 4, 0);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT).user_ptr, (void *)2);
    put_done();
}

void truncation(void **state)
{
    ptl_me_t me = me_make(tbuf, 50, 5, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 100, 5, 0);
    ev = st_expect(&B, PTL_EVENT_PUT);
    assert_int_equal(ev.mlength, 50);
    assert_int_equal(ev.rlength, 100);
    assert_int_equal(tbuf[50], 0);
    ev = put_done();
    assert_int_equal(ev.mlength, 50);
    assert_int_equal(ev.rlength, 100);
}

void no_truncate_skips_entry(void **state)
{
    ptl_me_t small = me_make(tbuf, 50, 6, PTL_ME_OP_PUT | PTL_ME_NO_TRUNCATE);
    ptl_me_t big = me_make(tbuf + 100, 500, 6, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);

    (void)state;
    append(&small, PTL_PRIORITY_LIST, (void *)1);
    append(&big, PTL_PRIORITY_LIST, (void *)2);
    st_expect(&B, PTL_EVENT_LINK);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 100, 6, 0);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT).user_ptr, (void *)2);
    put_done();
    put(md, 0, 40, 6, 0);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT).user_ptr, (void *)1);
    put_done();
}

void remote_offset_used(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 7, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 5, 20, 7, 300);
    ev = st_expect(&B, PTL_EVENT_PUT);
    assert_ptr_equal(ev.start, tbuf + 300);
    assert_int_equal(ev.remote_offset, 300);
    assert_memory_equal(tbuf + 300, sbuf + 5, 20);
    assert_int_equal(put_done().remote_offset, 300);
}

/* Regression (found by the fuzzer): an offset past the end is a match of
 * zero bytes, and the event's start stays inside the entry. */
void offset_past_end_matches_zero_bytes(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 32, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    put(md, 0, 10, 32, 1u << 30);
    ev = st_expect(&B, PTL_EVENT_PUT);
    assert_int_equal(ev.mlength, 0);
    assert_int_equal(ev.rlength, 10);
    assert_ptr_equal(ev.start, tbuf + 1000);
    assert_int_equal(put_done().mlength, 0);
}

void manage_local_min_free_auto_unlink(void **state)
{
    ptl_me_t me = me_make(tbuf, 1000, 8,
                          PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    me.min_free = 300;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    for (int i = 0; i < 3; i++) {
        put(md, 0, 300, 8, 999);    /* remote offset ignored */
        ev = st_expect(&B, PTL_EVENT_PUT);
        assert_ptr_equal(ev.start, tbuf + 300 * i);
        assert_int_equal(ev.remote_offset, 300 * i);
        put_done();
    }
    /* 100 bytes left < min_free 300: unlinked after the third */
    st_expect(&B, PTL_EVENT_AUTO_UNLINK);
    put(md, 0, 10, 8, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_DROPPED);
}
