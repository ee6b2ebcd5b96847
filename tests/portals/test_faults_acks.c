/* SPDX-License-Identifier: MIT */
/*
 * test_faults_acks.c: ptl-test-faults, ACKs riding in replies, the ACK
 * of a multi-frame put sent at once, and the link ACKs a wait sends.
 */
#include "test_faults.h"
#include "linux/ptl_tp.h"

/* ---- ACKs riding in replies ---- */

struct side {
    struct station *s;
    ptl_pt_index_t pt;
    ptl_handle_md_t md;
    ptl_handle_me_t me;
    uint8_t src[SLOT], dst[SLOT];
    uint64_t acks;              /* ACK events so far */
    long got;                   /* the last put that landed here */
};

/* Sizes of the ping-pong's puts: from pp_min, below pp_min + pp_span. */
static uint32_t pp_min, pp_span = 1300;    /* one frame at MTU 1500 */

static uint32_t pp_size(uint64_t seq)
{
    return pp_min + msg_size(seq) % pp_span;
}

/* Side `first` sends puts first, first + 2, ...; receives the others. */
static void side_open(struct side *d, struct station *s, ptl_pt_index_t pt,
                      unsigned first)
{
    ptl_me_t me = me_make(d->dst, SLOT, 0, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);

    memset(d, 0, sizeof(*d));
    d->s = s;
    d->pt = pt;
    d->got = -1 - (long)first;  /* two before its first arrival */
    d->md = md_make(s, d->src, SLOT, PTL_MD_EVENT_SEND_DISABLE, PTL_CT_NONE);
    assert_int_equal(PtlMEAppend(s->ni, pt, &me, PTL_PRIORITY_LIST, NULL,
                                 &d->me), PTL_OK);
}

/* Take d's events: ACKs exactly once, in order, for the right put (first
 * is 0 or 1: who sent put 0), and landed puts with intact data. */
static void side_events(struct side *d, unsigned first)
{
    ptl_event_t ev;

    while (PtlEQGet(d->s->eq, &ev) == PTL_OK) {
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        if (ev.type == PTL_EVENT_ACK) {
            uint64_t seq = first + 2 * d->acks++;
            if (ev.hdr_data != seq)
                fail_msg("nid %u: ACK of put %lu, expected %lu",
                         d->s->id.phys.nid, (unsigned long)ev.hdr_data,
                         (unsigned long)seq);
            assert_int_equal(ev.mlength, pp_size(seq));
            continue;
        }
        assert_int_equal(ev.type, PTL_EVENT_PUT);
        assert_int_equal(ev.hdr_data, d->got + 2);
        assert_int_equal(ev.mlength, pp_size(ev.hdr_data));
        for (uint32_t i = 0; i < ev.mlength; i++)
            if (d->dst[i] != pattern(ev.hdr_data, i))
                fail_msg("put %lu byte %u damaged",
                         (unsigned long)ev.hdr_data, i);
        d->got = (long)ev.hdr_data;
    }
}

/* Ping-pong of puts that ask for ACKs; each put answers the last.  The
 * target holds the ACK of a one-frame put and it rides in its answer: one
 * frame per message instead of two.  Returns how many ACKs rode along. */
static uint64_t pingpong_with_acks(unsigned rounds)
{
    static struct side d[2];
    ptl_pt_index_t pta;
    struct ptl_lib_stats sa, sb;

    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &pta), PTL_OK);
    side_open(&d[0], &A, pta, 0);
    side_open(&d[1], &B, PT, 1);
    for (unsigned r = 0; r < rounds; r++) {
        struct side *from = &d[r % 2], *to = &d[1 - r % 2];
        uint32_t n = pp_size(r);

        for (uint32_t i = 0; i < n; i++)
            from->src[i] = pattern(r, i);
        assert_int_equal(PtlPut(from->md, 0, n, PTL_ACK_REQ, to->s->id,
                                to->pt, 0, 0, NULL, r), PTL_OK);
        for (long i = 0; to->got != (long)r; i++) {
            if (i > 1000000)
                fail_msg("put %u never landed", r);
            ptl_memnet_pump();
            side_events(&d[0], 0);
            side_events(&d[1], 1);
        }
    }
    for (long i = 0; d[0].acks + d[1].acks < rounds; i++) {
        if (i > 1000000)
            fail_msg("ACKs missing: %lu of %u", (unsigned long)(d[0].acks +
                     d[1].acks), rounds);
        ptl_memnet_pump();
        side_events(&d[0], 0);
        side_events(&d[1], 1);
    }
    for (int i = 0; i < 1000; i++)
        ptl_memnet_pump();      /* a duplicate ACK would show up now */
    side_events(&d[0], 0);
    side_events(&d[1], 1);
    assert_int_equal(d[0].acks + d[1].acks, rounds);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    print_message("%u puts: %lu frames, %lu ACKs rode along\n", rounds,
                  (unsigned long)(sa.tx_frames + sb.tx_frames),
                  (unsigned long)(sa.acks_carried + sb.acks_carried));
    return sa.acks_carried + sb.acks_carried;
}

/* On a clean link every ACK but the last rides in the answer. */
void acks_ride_in_replies(void **state)
{
    (void)state;
    assert_true(pingpong_with_acks(400) >= 399);
}

/* The ACK of a put of several frames goes at once: its sender usually
 * waits for it before it posts the receive for the answer, which a held
 * ACK would only reach with the answer's first frame (MPI and NX long
 * messages then found no receive and crossed the link twice). */
void acks_of_large_puts_go_at_once(void **state)
{
    (void)state;
    pp_min = 3000;                          /* 3 to 5 frames */
    assert_int_equal(pingpong_with_acks(100), 0);
    pp_min = 0;
}

/* On a hostile link the ACKs still arrive exactly once, riding frames
 * that are lost, duplicated and resent with them. */
void acks_ride_in_replies_lossy_link(void **state)
{
    struct ptl_memnet_faults f = { .loss_pct = 10, .dup_pct = 10,
                                   .reorder_pct = 10, .seed = 777 };

    (void)state;
    ptl_memnet_set_faults(&f);
    assert_true(pingpong_with_acks(2000) > 1000);
}

/* ---- what a wait acknowledges ---- */

static uint64_t lacks_sent(struct station *s)
{
    struct ptl_lib_stats st;

    ptl_lib_get_stats(ptl_linux_lib(s->iface), &st);
    return st.acks_sent;
}

static bool flush(struct station *s, bool all)
{
    bool sent;

    ptl_host_lock();
    sent = all ? ptl_lib_flush_all(ptl_linux_lib(s->iface))
               : ptl_lib_flush(ptl_linux_lib(s->iface));
    ptl_host_unlock();
    return sent;
}

/* The next event on s's queue, pumping the network one step at a time
 * (the clock moves only to the next frame or timer). */
static ptl_event_t next_event_on(struct station *s)
{
    ptl_event_t ev;

    for (long i = 0; PtlEQGet(s->eq, &ev) != PTL_OK; i++) {
        if (i > 100000)
            fail_msg("nid %u: no event", s->id.phys.nid);
        ptl_memnet_pump();
    }
    assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
    return ev;
}

/* A process about to wait sends the link ACK its peer may be waiting on
 * (a put's SEND event), but not that of a frame that carried only a
 * Portals ACK: nobody waits on it, and a blocking send's ACK arrives
 * just before the answer it then waits for, so that LACK was a frame
 * more per message.  A process that goes sends it too, or the peer would
 * resend its frame to nobody. */
void waits_send_no_link_ack_for_acks(void **state)
{
    static uint8_t big[3000], small[8], in[8];
    ptl_me_t me = me_make(big, sizeof(big), 0, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_me_t me_a = me_make(in, sizeof(in), 0, PTL_ME_OP_PUT |
                            PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_me_t h;
    ptl_handle_md_t md_a, md_b;
    ptl_pt_index_t pta;
    ptl_event_t ev;
    uint64_t n;

    (void)state;
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h),
                     PTL_OK);
    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &pta), PTL_OK);
    assert_int_equal(PtlMEAppend(A.ni, pta, &me_a, PTL_PRIORITY_LIST, NULL,
                                 &h), PTL_OK);
    md_a = md_make(&A, big, sizeof(big), PTL_MD_EVENT_SEND_DISABLE,
                   PTL_CT_NONE);
    md_b = md_make(&B, small, sizeof(small), PTL_MD_EVENT_SEND_DISABLE,
                   PTL_CT_NONE);

    /* A's three-frame put comes back as an ACK frame: A owes its link ACK
       and nothing else. */
    assert_int_equal(PtlPut(md_a, 0, sizeof(big), PTL_ACK_REQ, B.id, PT, 0,
                            0, NULL, 0), PTL_OK);
    assert_int_equal(next_event_on(&B).type, PTL_EVENT_PUT);
    ev = next_event_on(&A);
    assert_int_equal(ev.type, PTL_EVENT_ACK);
    n = lacks_sent(&A);
    assert_false(flush(&A, false));
    assert_int_equal(lacks_sent(&A), n);
    assert_true(flush(&A, true));           /* the process goes */
    assert_int_equal(lacks_sent(&A), n + 1);

    /* A put's frame: its sender may wait on the link ACK. */
    assert_int_equal(PtlPut(md_b, 0, sizeof(small), PTL_NO_ACK_REQ, A.id, pta,
                            0, 0, NULL, 0), PTL_OK);
    assert_int_equal(next_event_on(&A).type, PTL_EVENT_PUT);
    n = lacks_sent(&A);
    assert_true(flush(&A, false));
    assert_int_equal(lacks_sent(&A), n + 1);
}
