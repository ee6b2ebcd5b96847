/* SPDX-License-Identifier: MIT */
/*
 * test_rules.c: the Portals 4 rules issue 23 put right, one test each,
 * named for the rule.  Two stations (A the initiator, B the target) in one
 * process on the link PTL_TEST_LINK names: "mem:" (the in-process network,
 * the default), "unix:DIR" or "vde://SWITCH" (tests/portals/run-vde runs
 * those), so each rule is checked on the virtual clock and over a real
 * link with the progress thread.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptl_test.h"

static struct station A, B;
static ptl_pt_index_t PT;
static uint8_t tbuf[1 << 16], sbuf[1 << 16];
static const char *link_spec = "mem:";

static bool in_process(void)
{
    return strcmp(link_spec, "mem:") == 0;
}

static void open_station(struct station *s, unsigned iface, ptl_nid_t nid,
                         ptl_pid_t pid, const ptl_ni_limits_t *desired,
                         ptl_ni_limits_t *actual)
{
    assert_int_equal(ptl_linux_iface_open(iface, link_spec, nid, pid, 0),
                     PTL_OK);
    s->iface = iface;
    assert_int_equal(PtlNIInit(iface, PTL_NI_MATCHING | PTL_NI_PHYSICAL, pid,
                               desired, actual, &s->ni), PTL_OK);
    assert_int_equal(PtlEQAlloc(s->ni, 256, &s->eq), PTL_OK);
    s->id.phys.nid = nid;
    s->id.phys.pid = pid;
}

static int setup(void **state)
{
    (void)state;
    if (in_process())
        ptl_memnet_reset();
    open_station(&A, 1, 1, 10, NULL, NULL);
    open_station(&B, 2, 2, 20, NULL, NULL);
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
    for (unsigned i = 1; i < 8; i++)
        ptl_linux_iface_close(i);   /* no PtlNIFini: no lingering */
    return 0;
}

/* Let the traffic in flight land. */
static void settle(void)
{
    if (in_process())
        net_settle();
    else
        usleep(50000);
}

static ptl_handle_me_t append(ptl_me_t *me, ptl_list_t list, void *uptr)
{
    ptl_handle_me_t h;

    assert_int_equal(PtlMEAppend(B.ni, PT, me, list, uptr, &h), PTL_OK);
    return h;
}

/* An overflow block that takes every message unexpected. */
static void overflow_block(uint8_t *buf, size_t len)
{
    ptl_me_t me = me_make(buf, len, 0, PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                                       PTL_ME_EVENT_LINK_DISABLE);

    me.ignore_bits = ~(ptl_match_bits_t)0;
    append(&me, PTL_OVERFLOW_LIST, (void *)0x0f);
}

/* n puts of 32 bytes with match bits bits, taken by the overflow block. */
static void unexpected_puts(unsigned n, ptl_match_bits_t bits)
{
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, PTL_MD_EVENT_SUCCESS_DISABLE,
                                 PTL_CT_NONE);

    for (unsigned i = 0; i < n; i++)
        assert_int_equal(PtlPut(md, i, 32, PTL_NO_ACK_REQ, B.id, PT, bits, 0,
                                NULL, i), PTL_OK);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(st_expect(&B, PTL_EVENT_PUT).hdr_data, i);
}

/* ---- PtlMESearch ---- */

static void search_only_reports_every_match(void **state)
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

static void search_delete_use_once_deletes_first_only(void **state)
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

static void search_counts_on_the_searching_entrys_counter(void **state)
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
    me.match_bits = 24;                     /* no match: a failure */
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_ONLY, NULL);
    st_expect(&B, PTL_EVENT_SEARCH);
    PtlCTGet(me.ct_handle, &c);
    assert_int_equal(c.success, 2);
    assert_int_equal(c.failure, 1);
    /* counted even with full events off: a search can be waited on by
     * its counter alone */
    me.match_bits = 23;
    me.options |= PTL_ME_EVENT_SUCCESS_DISABLE | PTL_ME_EVENT_OVER_DISABLE;
    PtlMESearch(B.ni, PT, &me, PTL_SEARCH_DELETE, NULL);
    st_expect_none(&B);
    PtlCTGet(me.ct_handle, &c);
    assert_int_equal(c.success, 4);
}

/* Our choice (portals/README.md): a search that could not post every
 * event it owes does nothing and says PTL_NO_SPACE, so a probe never
 * waits for an answer that was dropped. */
static void search_without_room_for_its_events_says_no_space(void **state)
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

/* ---- resources ---- */

static void eq_free_while_named_by_pt_and_md(void **state)
{
    ptl_handle_ct_t tct, ict;
    ptl_me_t me = me_make(tbuf, 100, 31, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_CT_COMM);
    ptl_handle_md_t md;
    ptl_ct_event_t c;
    ptl_event_t ev;

    (void)state;
    assert_int_equal(PtlCTAlloc(B.ni, &tct), PTL_OK);
    assert_int_equal(PtlCTAlloc(A.ni, &ict), PTL_OK);
    me.ct_handle = tct;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    md = md_make(&A, sbuf, 100, PTL_MD_EVENT_CT_ACK, ict);
    assert_int_equal(PtlEQFree(B.eq), PTL_OK);      /* the PT names it */
    assert_int_equal(PtlEQFree(A.eq), PTL_OK);      /* the MD names it */
    assert_int_equal(PtlEQGet(B.eq, &ev), PTL_ARG_INVALID);
    assert_int_equal(PtlPut(md, 0, 100, PTL_ACK_REQ, B.id, PT, 31, 0, NULL,
                            0), PTL_OK);
    /* the message still lands and counts; no event goes anywhere */
    assert_int_equal(PtlCTPoll(&ict, &(ptl_size_t){ 1 }, 1, 5000, &c,
                               &(unsigned){ 0 }), PTL_OK);
    assert_int_equal(c.success, 1);
    PtlCTGet(tct, &c);
    assert_int_equal(c.success, 1);
    assert_memory_equal(tbuf, sbuf, 100);
}

static void ni_init_honours_desired_limits(void **state)
{
    struct station C;
    ptl_ni_limits_t want = { .max_eqs = 2, .max_cts = 1, .max_mds = 3,
                             .max_entries = 4, .max_list_size = 4,
                             .max_pt_index = 3, .max_msg_size = 1000,
                             .max_triggered_ops = 5 }, got;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t ct;
    ptl_handle_md_t md[3], h;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_md_t d = { .start = sbuf, .length = 2000, .eq_handle = PTL_EQ_NONE,
                   .ct_handle = PTL_CT_NONE };
    ptl_me_t me = me_make(tbuf, 10, 0, PTL_ME_OP_PUT);

    (void)state;
    open_station(&C, 3, 3, 30, &want, &got);    /* its EQ is the first */
    assert_int_equal(got.max_eqs, 2);
    assert_int_equal(got.max_cts, 1);
    assert_int_equal(got.max_mds, 3);
    assert_int_equal(got.max_entries, 4);
    assert_int_equal(got.max_pt_index, 3);
    assert_int_equal(got.max_msg_size, 1000);
    assert_int_equal(got.max_triggered_ops, 5);
    assert_int_equal(got.max_unexpected_headers, 4096);    /* not asked */
    assert_int_equal(PtlEQAlloc(C.ni, 8, &eq), PTL_OK);
    assert_int_equal(PtlEQAlloc(C.ni, 8, &eq), PTL_NO_SPACE);
    assert_int_equal(PtlCTAlloc(C.ni, &ct), PTL_OK);
    assert_int_equal(PtlCTAlloc(C.ni, &ct), PTL_NO_SPACE);
    for (int i = 0; i < 3; i++)
        assert_int_equal(PtlMDBind(C.ni, &d, &md[i]), PTL_OK);
    assert_int_equal(PtlMDBind(C.ni, &d, &h), PTL_NO_SPACE);
    assert_int_equal(PtlPTAlloc(C.ni, 0, eq, 4, &pt), PTL_ARG_INVALID);
    assert_int_equal(PtlPTAlloc(C.ni, 0, eq, 3, &pt), PTL_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(PtlMEAppend(C.ni, 3, &me, PTL_PRIORITY_LIST, NULL,
                                     &meh), PTL_OK);
    assert_int_equal(PtlMEAppend(C.ni, 3, &me, PTL_PRIORITY_LIST, NULL,
                                 &meh), PTL_NO_SPACE);
    assert_int_equal(PtlPut(md[0], 0, 1001, PTL_NO_ACK_REQ, B.id, PT, 0, 0,
                            NULL, 0), PTL_ARG_INVALID);
    assert_int_equal(PtlPut(md[0], 0, 1000, PTL_NO_ACK_REQ, B.id, PT, 0, 0,
                            NULL, 0), PTL_OK);
    for (int i = 0; i < 5; i++)
        assert_int_equal(PtlTriggeredPut(md[1], 0, 8, PTL_NO_ACK_REQ, B.id,
                                         PT, 0, 0, NULL, 0, ct, 100),
                         PTL_OK);
    assert_int_equal(PtlTriggeredPut(md[1], 0, 8, PTL_NO_ACK_REQ, B.id, PT,
                                     0, 0, NULL, 0, ct, 100), PTL_NO_SPACE);
}

/* 1024 triggered puts (the default max_triggered_ops) released by one
 * PtlCTInc need more message slots than there are: they must wait for
 * slots and all arrive, never be dropped. */
static void triggered_1024_puts_all_arrive(void **state)
{
    enum { N = 1024 };
    ptl_handle_ct_t trig, acks, got;
    ptl_me_t me = me_make(tbuf, 8 * N, 41, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_SUCCESS_DISABLE |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t md;
    ptl_ct_event_t c;
    ptl_ni_limits_t lim;

    (void)state;
    PtlNIInit(1, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 10, NULL, &lim,
              &(ptl_handle_ni_t){ 0 });
    assert_int_equal(lim.max_triggered_ops, N);
    assert_int_equal(PtlCTAlloc(A.ni, &trig), PTL_OK);
    assert_int_equal(PtlCTAlloc(A.ni, &acks), PTL_OK);
    assert_int_equal(PtlCTAlloc(B.ni, &got), PTL_OK);
    me.ct_handle = got;
    append(&me, PTL_PRIORITY_LIST, NULL);
    md = md_make(&A, sbuf, 8 * N, PTL_MD_EVENT_SUCCESS_DISABLE |
                 PTL_MD_EVENT_CT_ACK, acks);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(PtlTriggeredPut(md, 8 * i, 8, PTL_ACK_REQ, B.id, PT,
                                         41, 8 * i, NULL, i, trig, 1),
                         PTL_OK);
    assert_int_equal(PtlCTInc(trig, (ptl_ct_event_t){ 1, 0 }), PTL_OK);
    assert_int_equal(PtlCTPoll(&acks, &(ptl_size_t){ N }, 1, 60000, &c,
                               &(unsigned){ 0 }), PTL_OK);
    assert_int_equal(c.success, N);
    assert_int_equal(c.failure, 0);
    PtlCTGet(got, &c);
    assert_int_equal(c.success, N);
    assert_memory_equal(tbuf, sbuf, 8 * N);
}

static void md_covering_all_memory(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 51, PTL_ME_OP_PUT);
    ptl_md_t d = { .start = NULL, .length = PTL_SIZE_MAX,
                   .eq_handle = A.eq, .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t md;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    assert_int_equal(PtlMDBind(A.ni, &d, &md), PTL_OK);
    assert_int_equal(PtlPut(md, (ptl_size_t)(uintptr_t)sbuf, 100,
                            PTL_ACK_REQ, B.id, PT, 51, 0, NULL, 0), PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_PUT).mlength, 100);
    assert_memory_equal(tbuf, sbuf, 100);
}

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

static void triggered_me_append_links_at_threshold(void **state)
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

static void triggered_me_unlink_at_threshold(void **state)
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
static void triggered_le_append_and_unlink(void **state)
{
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
    assert_int_equal(PtlNIInit(2, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, 20,
                               NULL, NULL, &bni), PTL_OK);
    assert_int_equal(PtlNIInit(1, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, 10,
                               NULL, NULL, &ani), PTL_OK);
    assert_int_equal(PtlEQAlloc(bni, 64, &beq), PTL_OK);
    assert_int_equal(PtlEQAlloc(ani, 64, &aeq), PTL_OK);
    assert_int_equal(PtlPTAlloc(bni, 0, beq, 0, &pt), PTL_OK);
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

/* ---- events ---- */

static void use_once_satisfied_at_append_posts_auto_unlink(void **state)
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

/* ---- PtlAbort ---- */

static void *eq_waiter(void *arg)
{
    ptl_event_t ev;

    return (void *)(intptr_t)PtlEQWait(*(ptl_handle_eq_t *)arg, &ev);
}

static void *ct_waiter(void *arg)
{
    ptl_ct_event_t c;

    return (void *)(intptr_t)PtlCTWait(*(ptl_handle_ct_t *)arg, 1, &c);
}

/* PtlAbort ends the process's Portals for good: run it in a child. */
static void abort_returns_aborted_to_every_waiter(void **state)
{
    pid_t pid;
    int status;

    (void)state;
    if ((pid = fork()) == 0) {
        ptl_handle_ct_t ct;
        pthread_t t1, t2;
        void *r1, *r2;
        ptl_event_t ev;

        alarm(20);              /* a waiter that never returns: killed */
        if (PtlCTAlloc(B.ni, &ct) != PTL_OK)
            _exit(10);
        pthread_create(&t1, NULL, eq_waiter, &B.eq);
        pthread_create(&t2, NULL, ct_waiter, &ct);
        usleep(200000);
        PtlAbort();
        pthread_join(t1, &r1);
        pthread_join(t2, &r2);
        if ((intptr_t)r1 != PTL_ABORTED || (intptr_t)r2 != PTL_ABORTED)
            _exit(11);
        if (PtlEQPoll(&B.eq, 1, 1000, &ev, &(unsigned){ 0 }) != PTL_ABORTED)
            _exit(12);          /* and every wait after it */
        _exit(0);
    }
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(search_only_reports_every_match),
        T(search_delete_use_once_deletes_first_only),
        T(search_counts_on_the_searching_entrys_counter),
        T(search_without_room_for_its_events_says_no_space),
        T(eq_free_while_named_by_pt_and_md),
        T(ni_init_honours_desired_limits),
        T(triggered_1024_puts_all_arrive),
        T(md_covering_all_memory),
        T(triggered_me_append_links_at_threshold),
        T(triggered_me_unlink_at_threshold),
        T(triggered_le_append_and_unlink),
        T(use_once_satisfied_at_append_posts_auto_unlink),
        T(abort_returns_aborted_to_every_waiter),
    };
    const char *l = getenv("PTL_TEST_LINK");

    if (l != NULL && *l != '\0')
        link_spec = l;
    PtlInit();
    return cmocka_run_group_tests_name(link_spec, tests, NULL, NULL);
}
