/* SPDX-License-Identifier: MIT */
/*
 * test_semantics.c: one test per Portals 4 rule, two stations (A the
 * initiator, B the target) on the in-process network.
 */
#include "ptl_test.h"

static struct station A, B;
static ptl_pt_index_t PT;
static uint8_t tbuf[1 << 16], sbuf[1 << 16];

static int setup(void **state)
{
    (void)state;
    ptl_memnet_reset();
    st_open(&A, 1, 1, 10);
    st_open(&B, 2, 2, 20);
    if (PtlPTAlloc(B.ni, 0, B.eq, 0, &PT) != PTL_OK)
        return -1;
    for (size_t i = 0; i < sizeof(sbuf); i++)
        sbuf[i] = (uint8_t)(i * 7 + 1);
    memset(tbuf, 0, sizeof(tbuf));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    st_close(&A);
    st_close(&B);
    /* Tests that open more stations close them, but a failed assertion
     * jumps past that; closing here keeps one failure from failing every
     * later test that opens the same interface. */
    for (unsigned i = 3; i < PTL_MAX_IFACES; i++)
        ptl_linux_iface_close(i);
    return 0;
}

static ptl_handle_me_t append(ptl_me_t *me, ptl_list_t list, void *uptr)
{
    ptl_handle_me_t h;

    assert_int_equal(PtlMEAppend(B.ni, PT, me, list, uptr, &h), PTL_OK);
    return h;
}

static void put(ptl_handle_md_t md, ptl_size_t off, ptl_size_t len,
                ptl_match_bits_t bits, ptl_size_t roff)
{
    assert_int_equal(PtlPut(md, off, len, PTL_ACK_REQ, B.id, PT, bits, roff,
                            (void *)0x5a, 0x1234), PTL_OK);
}

/* SEND then ACK at the initiator; returns the ACK. */
static ptl_event_t put_done(void)
{
    ptl_event_t ev = st_event(&A);

    if (ev.type == PTL_EVENT_SEND)
        return st_expect(&A, PTL_EVENT_ACK);
    assert_int_equal(ev.type, PTL_EVENT_ACK);
    st_expect(&A, PTL_EVENT_SEND);
    return ev;
}

/* ---- matching and lists ---- */

static void put_priority_match(void **state)
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

static void match_ignore_bits(void **state)
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

static void match_id_filters_initiator(void **state)
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

static void use_once_unlinks(void **state)
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

static void persistent_me_stays(void **state)
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

static void first_match_wins_in_order(void **state)
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

static void truncation(void **state)
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

static void no_truncate_skips_entry(void **state)
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

static void remote_offset_used(void **state)
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
static void offset_past_end_matches_zero_bytes(void **state)
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

static void manage_local_min_free_auto_unlink(void **state)
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

/* ---- overflow and unexpected headers ---- */

static void overflow_block(uint8_t *buf, size_t len, size_t min_free)
{
    ptl_me_t me = me_make(buf, len, 0,
                          PTL_ME_OP_PUT | PTL_ME_OP_GET |
                          PTL_ME_MANAGE_LOCAL);

    me.ignore_bits = ~(ptl_match_bits_t)0;
    me.min_free = min_free;
    append(&me, PTL_OVERFLOW_LIST, (void *)0x0f);
    st_expect(&B, PTL_EVENT_LINK);
}

static void unexpected_then_late_receive(void **state)
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
static void append_while_unexpected_message_in_flight(void **state)
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

static void overflow_append_does_not_search(void **state)
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

static void persistent_append_consumes_all_headers(void **state)
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

static void overflow_auto_unlink_then_auto_free(void **state)
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

static void me_search_only(void **state)
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

static void me_search_delete(void **state)
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

/* ---- counting events ---- */

static void ct_counts_operations_and_bytes(void **state)
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

static void ct_counts_overflow_events(void **state)
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

static void ct_failure_counted(void **state)
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

/* ---- get ---- */

static void get_reply(void **state)
{
    ptl_me_t me = me_make(sbuf, 5000, 19, PTL_ME_OP_GET);
    ptl_handle_md_t md = md_make(&A, tbuf, 5000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    assert_int_equal(PtlGet(md, 100, 4000, B.id, PT, 19, 50, (void *)4),
                     PTL_OK);
    ev = st_expect(&A, PTL_EVENT_REPLY);
    assert_int_equal(ev.mlength, 4000);
    assert_int_equal(ev.remote_offset, 50);
    assert_ptr_equal(ev.user_ptr, (void *)4);
    assert_memory_equal(tbuf + 100, sbuf + 50, 4000);
    ev = st_expect(&B, PTL_EVENT_GET);
    assert_int_equal(ev.mlength, 4000);
}

static void get_truncated(void **state)
{
    ptl_me_t me = me_make(sbuf, 100, 20, PTL_ME_OP_GET);
    ptl_handle_md_t md = md_make(&A, tbuf, 5000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    PtlGet(md, 0, 500, B.id, PT, 20, 0, NULL);
    ev = st_expect(&A, PTL_EVENT_REPLY);
    assert_int_equal(ev.mlength, 100);
    assert_int_equal(ev.rlength, 500);
}

static void op_violation_reported(void **state)
{
    ptl_me_t me = me_make(sbuf, 100, 21, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, tbuf, 5000, 0, PTL_CT_NONE);
    ptl_sr_value_t v;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    PtlGet(md, 0, 10, B.id, PT, 21, 0, NULL);
    assert_int_equal(st_expect(&A, PTL_EVENT_REPLY).ni_fail_type,
                     PTL_NI_OP_VIOLATION);
    assert_int_equal(PtlNIStatus(B.ni, PTL_SR_OPERATION_VIOLATIONS, &v),
                     PTL_OK);
    assert_int_equal(v, 1);
}

static void uid_mismatch_is_permission_violation(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 22, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_sr_value_t v;

    (void)state;
    me.uid = 4242;
    append(&me, PTL_PRIORITY_LIST, NULL);
    put(md, 0, 10, 22, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_PERM_VIOLATION);
    PtlNIStatus(B.ni, PTL_SR_PERMISSION_VIOLATIONS, &v);
    assert_int_equal(v, 1);
}

/* ---- flow control ---- */

static void flowctrl_disable_and_recover(void **state)
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

static void flowctrl_full_eq_disables(void **state)
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

static void eq_overflow_drops_new_events(void **state)
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

/* ---- atomics ---- */

static void set_elem(uint8_t *p, ptl_datatype_t dt, double v)
{
    switch (dt) {
#define S(E, T) case E: { T x = (T)v; memcpy(p, &x, sizeof(x)); break; }
    S(PTL_INT8_T, int8_t) S(PTL_UINT8_T, uint8_t) S(PTL_INT16_T, int16_t)
    S(PTL_UINT16_T, uint16_t) S(PTL_INT32_T, int32_t)
    S(PTL_UINT32_T, uint32_t) S(PTL_INT64_T, int64_t)
    S(PTL_UINT64_T, uint64_t) S(PTL_FLOAT, float) S(PTL_DOUBLE, double)
    S(PTL_LONG_DOUBLE, long double)
    S(PTL_FLOAT_COMPLEX, float _Complex)
    S(PTL_DOUBLE_COMPLEX, double _Complex)
    S(PTL_LONG_DOUBLE_COMPLEX, long double _Complex)
#undef S
    default: break;
    }
}

static double get_elem(const uint8_t *p, ptl_datatype_t dt)
{
    switch (dt) {
#define G(E, T) case E: { T x; memcpy(&x, p, sizeof(x)); return (double)x; }
    G(PTL_INT8_T, int8_t) G(PTL_UINT8_T, uint8_t) G(PTL_INT16_T, int16_t)
    G(PTL_UINT16_T, uint16_t) G(PTL_INT32_T, int32_t)
    G(PTL_UINT32_T, uint32_t) G(PTL_INT64_T, int64_t)
    G(PTL_UINT64_T, uint64_t) G(PTL_FLOAT, float) G(PTL_DOUBLE, double)
    G(PTL_LONG_DOUBLE, long double)
#undef G
    case PTL_FLOAT_COMPLEX: { float _Complex x; memcpy(&x, p, 8);
                              return (double)__real__ x; }
    case PTL_DOUBLE_COMPLEX: { double _Complex x; memcpy(&x, p, 16);
                               return __real__ x; }
    case PTL_LONG_DOUBLE_COMPLEX: { long double _Complex x; memcpy(&x, p, 32);
                                    return (double)__real__ x; }
    default: return -1;
    }
}

static const size_t dtsz[] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8, 16, 16, 32 };

struct acase {
    ptl_op_t op;
    double target, src, operand, expect;
    bool ints_only, reals_only;
};

/* target 6 OP source 3 (operand for the swaps) */
static const struct acase acases[] = {
    { PTL_SUM, 6, 3, 0, 9, 0, 0 },   { PTL_PROD, 6, 3, 0, 18, 0, 0 },
    { PTL_MIN, 6, 3, 0, 3, 0, 1 },   { PTL_MAX, 6, 3, 0, 6, 0, 1 },
    { PTL_LOR, 6, 0, 0, 1, 1, 0 },   { PTL_LAND, 6, 0, 0, 0, 1, 0 },
    { PTL_LXOR, 6, 3, 0, 0, 1, 0 },  { PTL_BOR, 6, 3, 0, 7, 1, 0 },
    { PTL_BAND, 6, 3, 0, 2, 1, 0 },  { PTL_BXOR, 6, 3, 0, 5, 1, 0 },
    { PTL_SWAP, 6, 3, 0, 3, 0, 0 },  { PTL_CSWAP, 6, 3, 6, 3, 0, 0 },
    { PTL_CSWAP, 6, 3, 5, 6, 0, 0 }, { PTL_CSWAP_NE, 6, 3, 6, 6, 0, 0 },
    { PTL_CSWAP_NE, 6, 3, 5, 3, 0, 0 },
    { PTL_CSWAP_LE, 6, 3, 5, 3, 0, 1 }, { PTL_CSWAP_LT, 6, 3, 6, 6, 0, 1 },
    { PTL_CSWAP_GE, 6, 3, 6, 3, 0, 1 }, { PTL_CSWAP_GT, 6, 3, 7, 3, 0, 1 },
    { PTL_CSWAP_GT, 6, 3, 6, 6, 0, 1 }, { PTL_MSWAP, 6, 3, 1, 7, 1, 0 },
};

static bool dt_is_int(ptl_datatype_t dt) { return dt <= PTL_UINT64_T; }
static bool dt_is_cplx(ptl_datatype_t dt)
{
    return dt == PTL_FLOAT_COMPLEX || dt == PTL_DOUBLE_COMPLEX ||
           dt == PTL_LONG_DOUBLE_COMPLEX;
}

static void one_atomic(ptl_handle_md_t src, ptl_handle_md_t res,
                       ptl_datatype_t dt, const struct acase *c)
{
    static uint8_t operand[32];
    size_t n = dtsz[dt];
    int rc;

    set_elem(tbuf, dt, c->target);
    set_elem(sbuf, dt, c->src);
    set_elem(operand, dt, c->operand);
    memset(sbuf + 64, 0xee, 32);
    if (c->op >= PTL_SWAP)
        rc = PtlSwap(res, 64, src, 0, n, B.id, PT, 26, 0, NULL, 0, operand,
                     c->op, dt);
    else
        rc = PtlFetchAtomic(res, 64, src, 0, n, B.id, PT, 26, 0, NULL, 0,
                            c->op, dt);
    assert_int_equal(rc, PTL_OK);
    st_expect(&A, PTL_EVENT_SEND);
    assert_int_equal(st_expect(&A, PTL_EVENT_REPLY).ni_fail_type, PTL_NI_OK);
    st_expect(&B, PTL_EVENT_FETCH_ATOMIC);
    if (get_elem(tbuf, dt) != c->expect || get_elem(sbuf + 64, dt) != 6)
        fail_msg("op %d dt %d: got %g (fetched %g), want %g", c->op, dt,
                 get_elem(tbuf, dt), get_elem(sbuf + 64, dt), c->expect);
}

static void atomics_every_op_and_type(void **state)
{
    ptl_me_t me = me_make(tbuf, 64, 26, PTL_ME_OP_PUT | PTL_ME_OP_GET |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    int ran = 0;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    for (ptl_datatype_t dt = 0; dt < PTL_DATATYPE_LAST; dt++) {
        for (size_t i = 0; i < sizeof(acases) / sizeof(acases[0]); i++) {
            const struct acase *c = &acases[i];
            bool ok = !(c->ints_only && !dt_is_int(dt)) &&
                      !(c->reals_only && dt_is_cplx(dt));
            if (!ok) {      /* the spec forbids it: refused locally */
                assert_int_equal(PtlAtomic(md, 0, dtsz[dt], PTL_NO_ACK_REQ,
                                           B.id, PT, 26, 0, NULL, 0, c->op,
                                           dt), PTL_ARG_INVALID);
                continue;
            }
            one_atomic(md, md, dt, c);
            ran++;
        }
    }
    assert_true(ran > 200);
}

static void atomic_put_applies_vector(void **state)
{
    ptl_me_t me = me_make(tbuf, 64, 27, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    int32_t v[4] = { 1, 2, 3, 4 }, t[4] = { 10, 20, 30, 40 };

    (void)state;
    memcpy(sbuf, v, sizeof(v));
    memcpy(tbuf, t, sizeof(t));
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    assert_int_equal(PtlAtomic(md, 0, 16, PTL_ACK_REQ, B.id, PT, 27, 0, NULL,
                               0, PTL_SUM, PTL_INT32_T), PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_ATOMIC).atomic_operation,
                     PTL_SUM);
    put_done();
    memcpy(t, tbuf, sizeof(t));
    assert_int_equal(t[0], 11);
    assert_int_equal(t[3], 44);
}

/* ---- triggered operations ---- */

static void triggered_put_fires_at_threshold(void **state)
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

static void triggered_get_fires_at_threshold(void **state)
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

static void triggered_atomic_fires_at_threshold(void **state)
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

static void triggered_ctinc_and_ctset(void **state)
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

static void ct_cancel_triggered(void **state)
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

/* ---- interfaces, addressing, handles ---- */

static void non_matching_le(void **state)
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

static void logical_addressing_map(void **state)
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

static void handles_and_identity(void **state)
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

static void md_bounds_checked(void **state)
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

static void send_event_after_link_ack(void **state)
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

/* ---- event options, polling, resource rules ---- */

static void event_disable_options(void **state)
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

static void eq_poll_several_and_timeout(void **state)
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

static void ct_poll_several(void **state)
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

static void pt_disable_refuses_then_enable(void **state)
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

static void resources_in_use_are_refused(void **state)
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

static void flowctrl_unexpected_headers_exhausted(void **state)
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

/* Regression (found by libnx): a receive appended while a multi-frame
 * message is still landing in an overflow entry must get that message
 * (PUT_OVERFLOW once it has landed), and a later message must not
 * overtake it into the receive.  The sender has a window of one frame,
 * so the network can be stopped after the first fragment. */
static void append_while_landing_in_overflow(void **state)
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

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(put_priority_match), T(match_ignore_bits),
        T(match_id_filters_initiator), T(use_once_unlinks),
        T(persistent_me_stays), T(first_match_wins_in_order),
        T(truncation), T(no_truncate_skips_entry), T(remote_offset_used),
        T(offset_past_end_matches_zero_bytes),
        T(manage_local_min_free_auto_unlink),
        T(unexpected_then_late_receive), T(overflow_append_does_not_search),
        T(append_while_unexpected_message_in_flight),
        T(persistent_append_consumes_all_headers),
        T(overflow_auto_unlink_then_auto_free), T(me_search_only),
        T(me_search_delete), T(ct_counts_operations_and_bytes),
        T(ct_counts_overflow_events), T(ct_failure_counted), T(get_reply),
        T(get_truncated), T(op_violation_reported),
        T(uid_mismatch_is_permission_violation),
        T(flowctrl_disable_and_recover), T(flowctrl_full_eq_disables),
        T(eq_overflow_drops_new_events), T(atomics_every_op_and_type),
        T(atomic_put_applies_vector), T(triggered_put_fires_at_threshold),
        T(triggered_get_fires_at_threshold),
        T(triggered_atomic_fires_at_threshold),
        T(triggered_ctinc_and_ctset), T(ct_cancel_triggered),
        T(non_matching_le), T(logical_addressing_map),
        T(handles_and_identity), T(md_bounds_checked),
        T(send_event_after_link_ack), T(event_disable_options),
        T(eq_poll_several_and_timeout), T(ct_poll_several),
        T(pt_disable_refuses_then_enable), T(resources_in_use_are_refused),
        T(flowctrl_unexpected_headers_exhausted),
        T(append_while_landing_in_overflow),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
