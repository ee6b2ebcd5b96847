/* SPDX-License-Identifier: MIT */
/*
 * test_rules_resources.c: ptl-test-rules, resources (an EQ freed while named,
 * desired limits, 1024 triggered puts, an MD of all memory) and PtlAbort.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_rules.h"

/* ---- resources ---- */

void eq_free_while_named_by_pt_and_md(void **state)
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

void ni_init_honours_desired_limits(void **state)
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
    assert_int_equal(got.max_list_size, 4);
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

/* max_unexpected_headers is the NI's own limit, as `actual` says: a
 * FLOWCTRL entry is disabled when the NI has that many headers queued,
 * although the lib's pool (which its other NIs share) has thousands. */
void ni_unexpected_header_limit_disables_flowctl_pt(void **state)
{
    struct station C;
    ptl_ni_limits_t want = { .max_unexpected_headers = 4 }, got;
    ptl_me_t ov = me_make(NULL, 0, 0, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t md = md_make(&A, sbuf, 8, 0, PTL_CT_NONE);
    ptl_handle_me_t h;
    ptl_pt_index_t pt;
    int landed = 0, disabled = 0, refused = 0;

    (void)state;
    open_station(&C, 3, 3, 30, &want, &got);
    assert_int_equal(got.max_unexpected_headers, 4);
    assert_int_equal(PtlPTAlloc(C.ni, PTL_PT_FLOWCTRL, C.eq, 5, &pt),
                     PTL_OK);
    assert_int_equal(PtlMEAppend(C.ni, pt, &ov, PTL_OVERFLOW_LIST, NULL, &h),
                     PTL_OK);
    for (int i = 0; i < 8; i++) {
        ptl_event_t ev;
        assert_int_equal(PtlPut(md, 0, 0, PTL_ACK_REQ, C.id, pt, 0, 0, NULL,
                                0), PTL_OK);
        st_expect(&A, PTL_EVENT_SEND);
        ev = st_expect(&A, PTL_EVENT_ACK);
        refused += ev.ni_fail_type == PTL_NI_PT_DISABLED;
    }
    for (ptl_event_t ev; PtlEQGet(C.eq, &ev) == PTL_OK; ) {
        landed += ev.type == PTL_EVENT_PUT;
        disabled += ev.type == PTL_EVENT_PT_DISABLED;
    }
    assert_int_equal(landed, 4);
    assert_int_equal(disabled, 1);
    assert_int_equal(refused, 4);
    /* A search takes the headers away: the PT, enabled again, takes 4
     * more. */
    ov.ignore_bits = ~(ptl_match_bits_t)0;
    assert_int_equal(PtlMESearch(C.ni, pt, &ov, PTL_SEARCH_DELETE, NULL),
                     PTL_OK);
    for (int i = 0; i < 4; i++)
        st_expect(&C, PTL_EVENT_PUT_OVERFLOW);
    assert_int_equal(PtlPTEnable(C.ni, pt), PTL_OK);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(PtlPut(md, 0, 0, PTL_ACK_REQ, C.id, pt, 0, 0, NULL,
                                0), PTL_OK);
        st_expect(&A, PTL_EVENT_SEND);
        assert_int_equal(st_expect(&A, PTL_EVENT_ACK).ni_fail_type,
                         PTL_NI_OK);
    }
}

/* Without flow control, a message the overflow list would take when the
 * NI has no unexpected header left is dropped, and its initiator is told
 * (PTL_NI_DROPPED): landed without a header, a late receive would wait
 * for it for ever. */
void unexpected_header_limit_drops_without_flowctl(void **state)
{
    struct station C;
    ptl_ni_limits_t want = { .max_unexpected_headers = 2 };
    static uint8_t ob[64];
    ptl_me_t ov = me_make(ob, sizeof(ob), 0, PTL_ME_OP_PUT |
                          PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t md = md_make(&A, sbuf, 8, 0, PTL_CT_NONE);
    ptl_handle_me_t h;
    ptl_pt_index_t pt;
    int fails[3];

    (void)state;
    open_station(&C, 3, 3, 30, &want, NULL);
    assert_int_equal(PtlPTAlloc(C.ni, 0, C.eq, 5, &pt), PTL_OK);
    ov.ignore_bits = ~(ptl_match_bits_t)0;
    assert_int_equal(PtlMEAppend(C.ni, pt, &ov, PTL_OVERFLOW_LIST, NULL, &h),
                     PTL_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(PtlPut(md, 0, 4, PTL_ACK_REQ, C.id, pt, i, 0, NULL,
                                i), PTL_OK);
        st_expect(&A, PTL_EVENT_SEND);
        fails[i] = st_expect(&A, PTL_EVENT_ACK).ni_fail_type;
    }
    assert_int_equal(fails[0], PTL_NI_OK);
    assert_int_equal(fails[1], PTL_NI_OK);
    assert_int_equal(fails[2], PTL_NI_DROPPED);
    assert_int_equal(st_expect(&C, PTL_EVENT_PUT).hdr_data, 0);
    assert_int_equal(st_expect(&C, PTL_EVENT_PUT).hdr_data, 1);
    st_expect_none(&C);
}

/* 1024 triggered puts (the default max_triggered_ops) released by one
 * PtlCTInc need more message slots than there are: they must wait for
 * slots and all arrive, never be dropped. */
void triggered_1024_puts_all_arrive(void **state)
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

void md_covering_all_memory(void **state)
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
void abort_returns_aborted_to_every_waiter(void **state)
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
