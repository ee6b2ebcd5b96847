/* SPDX-License-Identifier: MIT */
/*
 * test_faults_peers.c: ptl-test-faults, unreachable, restarted and gone
 * peers, and a process that leaves.
 */
#include "test_faults.h"

void unreachable_peer_is_undeliverable(void **state)
{
    uint8_t buf[64];
    ptl_handle_md_t md = md_make(&A, buf, sizeof(buf), 0, PTL_CT_NONE);
    ptl_process_t nobody = { .phys = { 77, 1 } };
    ptl_event_t ev;

    (void)state;
    assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, nobody, 0, 0, 0, NULL, 0),
                     PTL_OK);
    for (int i = 0; i < 100000 && PtlEQGet(A.eq, &ev) == PTL_EQ_EMPTY; i++)
        ptl_memnet_pump();
    assert_int_equal(ev.type, PTL_EVENT_SEND);
    assert_int_equal(ev.ni_fail_type, PTL_NI_UNDELIVERABLE);
    ev = st_expect(&A, PTL_EVENT_ACK);
    assert_int_equal(ev.ni_fail_type, PTL_NI_UNDELIVERABLE);
}

/* One flow of n messages from s, run to its end. */
static void run_flow(struct station *s, uint64_t n)
{
    struct flow flow;

    flow_init(&flow, s, n);
    run_flows(&flow, 1);
    flow_free(&flow);
}

/* A restarts: same nid/pid, a new incarnation, its sequence from 0. */
static void restart_A(void)
{
    PtlNIFini(A.ni);
    ptl_linux_iface_close(A.iface);
    st_open_opts(&A, 1, 1, 10, 1500, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 4096);
}

void restarted_peer_is_resynchronised(void **state)
{
    (void)state;
    run_flow(&A, 5);
    restart_A();
    run_flow(&A, 5);
}

/* A peer whose process ended (A, restarted with a new incarnation) is
 * told so by a RESET: B's put to the old incarnation fails at once, not
 * after max_retries timeouts (~40 s of virtual time), and B's next put
 * reaches the new incarnation. */
void gone_peer_answers_reset(void **state)
{
    static uint8_t src[64], dst[64];
    struct ptl_lib_stats sa, sb;
    ptl_pt_index_t pta;
    ptl_handle_me_t meh;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_me_t me;
    uint64_t t0;

    (void)state;
    run_flow(&A, 3);                    /* B learns A's incarnation */
    restart_A();
    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &pta), PTL_OK);
    me = me_make(dst, sizeof(dst), 0,
                 PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE);
    assert_int_equal(PtlMEAppend(A.ni, pta, &me, PTL_PRIORITY_LIST, NULL,
                                 &meh), PTL_OK);
    md = md_make(&B, src, sizeof(src), PTL_MD_EVENT_SEND_DISABLE,
                 PTL_CT_NONE);
    t0 = ptl_memnet_now();
    assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, A.id, pta, 0, 0, NULL, 1),
                     PTL_OK);
    ev = st_expect(&B, PTL_EVENT_ACK);
    assert_int_equal(ev.ni_fail_type, PTL_NI_UNDELIVERABLE);
    assert_true(ptl_memnet_now() - t0 < 1000000000ull);    /* < 1 s */
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    assert_true(sa.tx_resets >= 1);
    assert_int_equal(sb.rx_resets, 1);
    assert_int_equal(PtlEQGet(A.eq, &ev), PTL_EQ_EMPTY);   /* not delivered */
    /* The new incarnation is reachable. */
    assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, A.id, pta, 0, 0, NULL, 2),
                     PTL_OK);
    ev = st_expect(&B, PTL_EVENT_ACK);
    assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
    ev = st_expect(&A, PTL_EVENT_PUT);
    assert_int_equal(ev.hdr_data, 2);
}

/* A host that cannot take frames for a while (a node's loop queue to a
 * busy endpoint of its own, a full ring) holds them back: the operation
 * waits and completes; it is not lost, and the peer is not given up,
 * although the wait is longer than max_retries timeouts (16 at most 1 s
 * each on Linux) would allow a silent peer. */
void busy_host_holds_frames_back(void **state)
{
    static uint8_t src[64], dst[64];
    ptl_handle_me_t meh;
    ptl_handle_md_t md = md_make(&A, src, sizeof(src), 0, PTL_CT_NONE);
    ptl_me_t me = me_make(dst, sizeof(dst), 9, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    struct ptl_lib_stats st;

    (void)state;
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &meh), PTL_OK);
    ptl_memnet_set_faults(&(struct ptl_memnet_faults){
        .busy_until_ns = ptl_memnet_now() + 14000000000ull });
    assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, B.id, PT, 9, 0, NULL, 0),
                     PTL_OK);
    for (int i = 0; i < 2; i++) {         /* SEND, ACK; 30 s at most */
        ptl_event_t ev;
        assert_int_equal(PtlEQPoll(&A.eq, 1, 30000, &ev, &(unsigned){ 0 }),
                         PTL_OK);
        assert_int_equal(ev.type, i ? PTL_EVENT_ACK : PTL_EVENT_SEND);
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
    }
    assert_true(ptl_memnet_now() > 14000000000ull);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &st);
    assert_true(st.tx_busy > 0);
}

/* B puts to A (on A's portal index pta) and A takes it: B's answer, the
 * last frame of an exchange, and B's first frame to A (B has no round
 * trip sample: its RTO is rto_init_ns, 1 s). */
static void answer_to_A(ptl_pt_index_t pta)
{
    static uint8_t src[64], dst[64];
    ptl_handle_md_t md = md_make(&B, src, sizeof(src), 0, PTL_CT_NONE);
    ptl_me_t me = me_make(dst, sizeof(dst), 0, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t meh;

    assert_int_equal(PtlMEAppend(A.ni, pta, &me, PTL_PRIORITY_LIST, NULL,
                                 &meh), PTL_OK);
    assert_int_equal(PtlPut(md, 0, 8, PTL_NO_ACK_REQ, A.id, pta, 0, 0,
                            NULL, 0), PTL_OK);
    st_expect(&A, PTL_EVENT_PUT);
}

/* A leaves (PtlNIFini, its interface closed: nobody answers for it),
 * and comes back as a new incarnation for the teardown.  Returns the
 * virtual time PtlNIFini took. */
static uint64_t leave_A(void)
{
    uint64_t t0 = ptl_memnet_now(), t;

    PtlNIFini(A.ni);
    t = ptl_memnet_now() - t0;
    print_message("A's PtlNIFini took %.3f ms (virtual)\n", t / 1e6);
    ptl_linux_iface_close(A.iface);
    st_open_opts(&A, 1, 1, 10, 1500, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 4096);
    return t;
}

/* yod's exit: the last frame of an exchange is the peer's answer.  A
 * leaves within a round trip (its NOP carries the ACK; B's link ACK of
 * the NOP says it arrived) instead of lingering five RTOs (100 ms here,
 * seconds on a loaded host); B's answer completes without a resend. */
void leaving_is_prompt(void **state)
{
    struct ptl_lib_stats sb;
    ptl_pt_index_t pta;
    ptl_event_t ev;

    (void)state;
    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &pta), PTL_OK);
    answer_to_A(pta);
    assert_true(leave_A() < 1000000);
    ev = st_expect(&B, PTL_EVENT_SEND);
    assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    assert_int_equal(sb.rtx_frames, 0);
}

/* A's puts to B, acknowledged: each has a round-trip sample of the
 * other, as yod and a PCT have by a job's end. */
static void round_trips(int n)
{
    static uint8_t src[64], dst[64];
    ptl_handle_md_t md = md_make(&A, src, sizeof(src),
                                 PTL_MD_EVENT_SEND_DISABLE, PTL_CT_NONE);
    ptl_me_t me = me_make(dst, sizeof(dst), 5, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t meh;

    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &meh), PTL_OK);
    for (int i = 0; i < n; i++) {
        assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, B.id, PT, 5, 0,
                                NULL, 0), PTL_OK);
        st_expect(&B, PTL_EVENT_PUT);
        st_expect(&A, PTL_EVENT_ACK);
    }
    net_settle();
}

/* The frame that carries A's ACK of B's answer (its NOP) is lost.  A
 * stays until it knows B has the ACK: it resends the NOP (its tail-loss
 * probe, 5 ms), and B's answer is delivered, not given up after
 * max_retries for want of an ACK from a process that is gone.  (A linger
 * of five RTOs, 100 ms, re-acked B's own probe too; the virtual clock,
 * which jumps to the next timer, cannot show a linger that ended before
 * a resend.) */
void leaving_confirms_a_lost_ack(void **state)
{
    struct ptl_memnet_faults lose = { .seed = 3, .drop_nth = 2 };
    struct ptl_memnet_stats net;
    struct ptl_lib_stats sa;
    ptl_pt_index_t pta;
    ptl_event_t ev;

    (void)state;
    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &pta), PTL_OK);
    round_trips(4);
    ptl_memnet_set_faults(&lose);       /* 1: B's answer, 2: A's ACK */
    answer_to_A(pta);
    PtlNIFini(A.ni);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    assert_int_equal(sa.rtx_frames, 1);         /* the NOP, again */
    ptl_linux_iface_close(A.iface);
    st_open_opts(&A, 1, 1, 10, 1500, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 4096);
    ev = st_expect(&B, PTL_EVENT_SEND);
    assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
    ptl_memnet_get_stats(&net);
    assert_int_equal(net.lost, 1);
}

/* A peer that has been quiet for longer than two of its RTOs has our ACK
 * (it would have resent meanwhile) or is gone, as a rank that exited:
 * no NOP to it (a frame for a process that is gone), and no waiting. */
void leaving_sends_nothing_to_quiet_peers(void **state)
{
    struct ptl_memnet_stats before, after;
    ptl_pt_index_t pta;
    ptl_event_t ev;
    unsigned which;

    (void)state;
    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &pta), PTL_OK);
    answer_to_A(pta);
    assert_int_equal(PtlEQPoll(&A.eq, 1, 3000, &ev, &which), PTL_EQ_EMPTY);
    st_expect(&B, PTL_EVENT_SEND);
    ptl_memnet_get_stats(&before);
    assert_true(leave_A() < 1000000);
    ptl_memnet_get_stats(&after);
    assert_int_equal(after.sent, before.sent);
}
