/* SPDX-License-Identifier: MIT */
/*
 * test_semantics_overflow.c: ptl-test-semantics, overflow lists and unexpected
 * headers: late receives, searches, appends while a message is landing.
 */
#include "test_semantics.h"

/* ---- overflow and unexpected headers ---- */

void unexpected_then_late_receive(void **state)
{
    static uint8_t obuf[4096];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 9, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);
    ptl_event_t ev;

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    put(md, 0, 64, 9, 0);
    ev = st_expect(&B, PTL_EVENT_PUT);
    assert_int_equal(ev.ptl_list, PTL_OVERFLOW_LIST);
    assert_ptr_equal(ev.start, obuf);
    put_done();
    /* The late receive finds the header instead of linking. */
    append(&me, PTL_PRIORITY_LIST, (void *)0x99);
    ev = st_expect(&B, PTL_EVENT_PUT_OVERFLOW);
    assert_ptr_equal(ev.user_ptr, (void *)0x99);
    assert_ptr_equal(ev.start, obuf);
    assert_int_equal(ev.mlength, 64);
    assert_int_equal(ev.rlength, 64);
    assert_int_equal(ev.hdr_data, 0x1234);
    assert_memory_equal(obuf, sbuf, 64);
    /* USE_ONCE: never linked, but unlinked all the same */
    assert_ptr_equal(st_expect(&B, PTL_EVENT_AUTO_UNLINK).user_ptr,
                     (void *)0x99);
    st_expect_none(&B);
    put(md, 0, 64, 9, 0);           /* so this goes to overflow again */
    assert_int_equal(st_expect(&B, PTL_EVENT_PUT).ptl_list,
                     PTL_OVERFLOW_LIST);
    put_done();
}

/* A receive appended while a matching message is still arriving into the
 * overflow list (its header matched before the append, its last fragment
 * lands after) must still get it, or it would wait for ever.  The message
 * was unexpected from its first fragment on, so the receive is satisfied
 * from the unexpected list like unexpected_then_late_receive: a USE_ONCE
 * entry is never linked (no LINK; AUTO_UNLINK after its PUT_OVERFLOW),
 * and its PUT_OVERFLOW comes after the overflow PUT, once all the data is
 * in the block. */
void append_while_unexpected_message_in_flight(void **state)
{
    static uint8_t obuf[16384];
    struct station D;
    struct ptl_lib_params p;
    struct ptl_memnet_stats ns;
    ptl_me_t me = me_make(tbuf, 8000, 12, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);
    ptl_event_t ev;

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    ptl_lib_params_default(&p);
    p.nid = 4;
    p.pid = 40;
    p.window = 1;       /* one frame at a time: the message takes a while */
    assert_int_equal(ptl_linux_iface_open_params(4, "mem:", &p), PTL_OK);
    D.iface = 4;
    assert_int_equal(PtlNIInit(4, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 40,
                               NULL, NULL, &D.ni), PTL_OK);
    assert_int_equal(PtlEQAlloc(D.ni, 64, &D.eq), PTL_OK);
    for (int i = 0; i < 4000; i++)
        sbuf[i] = (uint8_t)(i * 7);
    ptl_handle_md_t md = md_make(&D, sbuf, 4000, 0, PTL_CT_NONE);
    assert_int_equal(PtlPut(md, 0, 4000, PTL_ACK_REQ, B.id, PT, 12, 0, NULL,
                            0), PTL_OK);
    do {                /* until the first fragment has reached B */
        ptl_memnet_pump();
        ptl_memnet_get_stats(&ns);
    } while (ns.delivered == 0);
    append(&me, PTL_PRIORITY_LIST, (void *)0x77);
    ev = st_expect(&B, PTL_EVENT_PUT);          /* into the block */
    assert_int_equal(ev.ptl_list, PTL_OVERFLOW_LIST);
    assert_ptr_equal(ev.start, obuf);
    ev = st_expect(&B, PTL_EVENT_PUT_OVERFLOW); /* then to the receive */
    assert_ptr_equal(ev.user_ptr, (void *)0x77);
    assert_int_equal(ev.mlength, 4000);
    assert_int_equal(ev.rlength, 4000);
    assert_memory_equal(ev.start, sbuf, 4000);
    st_expect(&D, PTL_EVENT_SEND);
    assert_int_equal(st_expect(&D, PTL_EVENT_ACK).ni_fail_type, PTL_NI_OK);
    st_expect(&B, PTL_EVENT_AUTO_UNLINK);
    st_expect_none(&B);                 /* USE_ONCE: never linked */
    st_close(&D);
}

void overflow_append_does_not_search(void **state)
{
    static uint8_t obuf[4096];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 10, PTL_ME_OP_PUT);

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    put(md, 0, 8, 10, 0);
    st_expect(&B, PTL_EVENT_PUT);
    put_done();
    append(&me, PTL_OVERFLOW_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);  /* no overflow event */
}

void persistent_append_consumes_all_headers(void **state)
{
    static uint8_t obuf[4096];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 11, PTL_ME_OP_PUT);

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    for (int i = 0; i < 2; i++) {
        put(md, 0, 16, 11, 0);
        st_expect(&B, PTL_EVENT_PUT);
        put_done();
    }
    append(&me, PTL_PRIORITY_LIST, NULL);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT_OVERFLOW).start, obuf);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_PUT_OVERFLOW).start, obuf + 16);
    st_expect(&B, PTL_EVENT_LINK);
}

void overflow_auto_unlink_then_auto_free(void **state)
{
    static uint8_t obuf[256];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(tbuf, 1000, 12, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);

    (void)state;
    overflow_block(obuf, sizeof(obuf), 200);
    put(md, 0, 100, 12, 0);         /* 156 left < 200: unlink */
    st_expect(&B, PTL_EVENT_PUT);
    st_expect(&B, PTL_EVENT_AUTO_UNLINK);
    put_done();
    st_expect_none(&B);             /* a header still points into it */
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_PUT_OVERFLOW);
    assert_ptr_equal(st_expect(&B, PTL_EVENT_AUTO_FREE).user_ptr,
                     (void *)0x0f);
}

void me_search_only(void **state)
{
    static uint8_t obuf[4096];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(NULL, 0, 13, PTL_ME_OP_PUT);
    ptl_event_t ev;

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    put(md, 0, 32, 13, 0);
    st_expect(&B, PTL_EVENT_PUT);
    put_done();
    for (int i = 0; i < 2; i++) {   /* search-only leaves the header */
        assert_int_equal(PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY,
                                     (void *)3), PTL_OK);
        ev = st_expect(&B, PTL_EVENT_SEARCH);
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        assert_int_equal(ev.mlength, 32);
        assert_ptr_equal(ev.user_ptr, (void *)3);
    }
    me.match_bits = 14;
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, NULL);
    assert_int_equal(st_expect(&B, PTL_EVENT_SEARCH).ni_fail_type,
                     PTL_NI_NO_MATCH);
}

void me_search_delete(void **state)
{
    static uint8_t obuf[4096];
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_me_t me = me_make(NULL, 0, 15, PTL_ME_OP_PUT);

    (void)state;
    overflow_block(obuf, sizeof(obuf), 0);
    put(md, 0, 32, 15, 0);
    st_expect(&B, PTL_EVENT_PUT);
    put_done();
    assert_int_equal(PtlMESearch(B.ni, PT, &me, PTL_SEARCH_DELETE, NULL),
                     PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_PUT_OVERFLOW).mlength, 32);
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_DELETE, NULL);
    assert_int_equal(st_expect(&B, PTL_EVENT_SEARCH).ni_fail_type,
                     PTL_NI_NO_MATCH);
}

/* Regression (found by libnx): a receive appended while a multi-frame
 * message is still landing in an overflow entry must get that message
 * (PUT_OVERFLOW once it has landed), and a later message must not
 * overtake it into the receive.  The sender has a window of one frame,
 * so the network can be stopped after the first fragment. */
void append_while_landing_in_overflow(void **state)
{
    struct station C;
    static uint8_t obuf[1 << 15], rbuf[8000];
    struct ptl_lib_params p;
    struct ptl_lib_stats st;
    ptl_handle_md_t md;
    ptl_me_t me = me_make(rbuf, sizeof(rbuf), 9,
                          PTL_ME_OP_PUT | PTL_ME_USE_ONCE);
    ptl_event_t ev;

    (void)state;
    ptl_lib_params_default(&p);
    p.nid = 3;
    p.pid = 30;
    p.window = 1;
    assert_int_equal(ptl_linux_iface_open_params(3, "mem:", &p), PTL_OK);
    C.iface = 3;
    C.id.phys.nid = 3;
    C.id.phys.pid = 30;
    assert_int_equal(PtlNIInit(3, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 30,
                               NULL, NULL, &C.ni), PTL_OK);
    assert_int_equal(PtlEQAlloc(C.ni, 64, &C.eq), PTL_OK);
    overflow_block(obuf, sizeof(obuf), 0);
    md = md_make(&C, sbuf, 10000, 0, PTL_CT_NONE);
    assert_int_equal(PtlPut(md, 0, 5000, PTL_ACK_REQ, B.id, PT, 9, 0, NULL,
                            1), PTL_OK);
    do {                        /* until B holds the first fragment only */
        ptl_memnet_pump();
        ptl_lib_get_stats(ptl_linux_lib(2), &st);
    } while (st.rx_frames == 0);
    assert_int_equal(PtlEQGet(B.eq, &ev), PTL_EQ_EMPTY);
    append(&me, PTL_PRIORITY_LIST, (void *)0x77);
    assert_int_equal(PtlPut(md, 5000, 100, PTL_ACK_REQ, B.id, PT, 9, 0,
                            NULL, 2), PTL_OK);
    net_settle();
    ev = st_expect(&B, PTL_EVENT_PUT);          /* into the block */
    assert_int_equal(ev.ptl_list, PTL_OVERFLOW_LIST);
    assert_int_equal(ev.hdr_data, 1);
    ev = st_expect(&B, PTL_EVENT_PUT_OVERFLOW); /* then to the receive */
    assert_ptr_equal(ev.user_ptr, (void *)0x77);
    assert_int_equal(ev.hdr_data, 1);
    assert_int_equal(ev.mlength, 5000);
    assert_memory_equal(ev.start, sbuf, 5000);
    st_expect(&B, PTL_EVENT_AUTO_UNLINK);
    ev = st_expect(&B, PTL_EVENT_PUT);          /* the second: unexpected */
    assert_int_equal(ev.ptl_list, PTL_OVERFLOW_LIST);
    assert_int_equal(ev.hdr_data, 2);
    st_close(&C);
}
