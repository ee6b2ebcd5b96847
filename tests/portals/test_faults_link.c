/* SPDX-License-Identifier: MIT */
/*
 * test_faults_link.c: ptl-test-faults, a hostile link: 12,000 messages
 * through loss, duplication and reordering, duplicates never resent, an
 * adapting RTO, damaged frames dropped, a lost last frame probed.
 */
#include "test_faults.h"

void ten_thousand_messages_lossy_link(void **state)
{
    struct ptl_memnet_faults f = { .loss_pct = 10, .dup_pct = 10,
                                   .reorder_pct = 10, .seed = 12345 };
    struct ptl_memnet_stats ns;
    struct ptl_lib_stats sa, sb;
    struct flow flows[2];

    (void)state;
    ptl_memnet_set_faults(&f);
    flow_init(&flows[0], &A, 10000);
    flow_init(&flows[1], &C, 2000);
    run_flows(flows, 2);
    ptl_memnet_get_stats(&ns);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    print_message("net: sent %lu lost %lu dup %lu reordered %lu; "
                  "A rtx %lu; B dup %lu ooo %lu; virtual %.3f s\n",
                  (unsigned long)ns.sent, (unsigned long)ns.lost,
                  (unsigned long)ns.duplicated, (unsigned long)ns.reordered,
                  (unsigned long)sa.rtx_frames, (unsigned long)sb.rx_dup,
                  (unsigned long)sb.rx_ooo, ptl_memnet_now() / 1e9);
    assert_true(ns.lost > 1000 && ns.duplicated > 1000);
    assert_true(sa.rtx_frames > 0 && sb.rx_dup > 0 && sb.rx_ooo > 0);
    flow_free(&flows[0]);
    flow_free(&flows[1]);
}

/* Duplicated frames lose nothing, so nothing may be resent: the
 * immediate LACK a duplicate draws carries no GAP flag and must not look
 * like a loss (counting it as one resent 2000+ frames here). */
void duplicates_never_resend(void **state)
{
    struct ptl_memnet_faults f = { .dup_pct = 30, .seed = 99 };
    struct ptl_lib_stats sa, sb;
    struct flow flow;

    (void)state;
    ptl_memnet_set_faults(&f);
    flow_init(&flow, &A, 3000);
    run_flows(&flow, 1);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    print_message("3000 messages, %lu frames: A rtx %lu; B dup %lu\n",
                  (unsigned long)sa.tx_frames, (unsigned long)sa.rtx_frames,
                  (unsigned long)sb.rx_dup);
    assert_true(sb.rx_dup > 500);
    assert_int_equal(sa.rtx_frames, 0);
    flow_free(&flow);
}

/* A link slower than the initial RTO (15 ms each way against 20 ms), as
 * a node on a loaded host can be: the early rounds time out, then the
 * round-trip estimate must stop the spurious retransmissions.  A fixed
 * 20 ms RTO resent 768 of 1621 frames here (each one a duplicate at the
 * receiver); the adaptive one 190 of 1037. */
void slow_link_rto_adapts(void **state)
{
    struct ptl_memnet_faults f = { .delay_ns = 15000000, .seed = 3 };
    struct ptl_lib_stats sa, sb;
    struct flow flow;

    (void)state;
    ptl_memnet_set_faults(&f);
    flow_init(&flow, &A, 300);
    run_flows(&flow, 1);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    print_message("300 messages, %lu frames: A rtx %lu; B dup %lu; "
                  "virtual %.3f s\n", (unsigned long)sa.tx_frames,
                  (unsigned long)sa.rtx_frames, (unsigned long)sb.rx_dup,
                  ptl_memnet_now() / 1e9);
    assert_true(sa.rtx_frames <= 300);
    assert_true(sb.rx_dup <= 300);
    flow_free(&flow);
}

static void damaged_frames(struct ptl_memnet_faults *f)
{
    struct ptl_memnet_faults clean = { 0 };
    struct ptl_lib_stats sb;
    struct flow flow;
    ptl_event_t ev;

    ptl_memnet_set_faults(f);
    flow_init(&flow, &A, 1);
    flow.total = 1;
    flow_issue(&flow);
    /* a few retransmissions, all damaged (fewer than max_retries) */
    for (int i = 0; i < 10000; i++) {
        ptl_memnet_pump();
        ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
        if (sb.rx_bad >= 4)
            break;
    }
    assert_int_equal(PtlEQGet(B.eq, &ev), PTL_EQ_EMPTY);    /* never */
    assert_true(sb.rx_bad > 0);
    assert_int_equal(sb.rx_frames, 0);
    ptl_memnet_set_faults(&clean);      /* the link heals */
    run_flows(&flow, 1);
    assert_int_equal(flow.received, 1);
    flow_free(&flow);
}

void corrupted_frames_dropped_and_counted(void **state)
{
    struct ptl_memnet_faults f = { .corrupt_pct = 100, .seed = 7 };

    (void)state;
    damaged_frames(&f);
}

void truncated_frames_dropped_and_counted(void **state)
{
    struct ptl_memnet_faults f = { .truncate_pct = 100, .seed = 9 };

    (void)state;
    damaged_frames(&f);
}

/* Put 64 bytes from A to B with an ACK, pump until the ACK: the virtual
 * time it took. */
static uint64_t put_acked(ptl_handle_md_t md, uint64_t tag)
{
    uint64_t t0 = ptl_memnet_now();
    ptl_event_t ev;

    assert_int_equal(PtlPut(md, 0, 64, PTL_ACK_REQ, B.id, PT, 7, 0, NULL,
                            tag), PTL_OK);
    for (long i = 0; i < 1000000; i++) {
        ptl_memnet_pump();
        while (PtlEQGet(B.eq, &ev) == PTL_OK)
            assert_int_equal(ev.type, PTL_EVENT_PUT);
        if (PtlEQGet(A.eq, &ev) == PTL_OK) {
            assert_int_equal(ev.type, PTL_EVENT_ACK);
            assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
            assert_int_equal(ev.hdr_data, tag);
            return ptl_memnet_now() - t0;
        }
    }
    fail_msg("put %lu never acknowledged", (unsigned long)tag);
    return 0;
}

/* The last frame of a message is lost (here the only one): no frame
 * behind it reveals the loss, so its sender used to wait for the RTO
 * (20 ms, against a round trip of tens of us here).  The tail-loss probe
 * resends it after about two round trips, at least a quarter of the
 * initial RTO (5 ms). */
void tail_loss_probed_before_rto(void **state)
{
    struct ptl_memnet_faults lose_next = { .seed = 5, .drop_nth = 1 };
    struct ptl_lib_stats sa;
    uint8_t src[64], dst[64];
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_me_t me;
    uint64_t t;

    (void)state;
    for (int i = 0; i < 64; i++)
        src[i] = pattern(9, (uint32_t)i);
    md = md_make(&A, src, 64, PTL_MD_EVENT_SEND_DISABLE, PTL_CT_NONE);
    me = me_make(dst, 64, 7, PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE);
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &meh), PTL_OK);
    for (uint64_t i = 0; i < 10; i++)    /* round-trip samples */
        put_acked(md, i);
    for (int i = 0; i < 2000; i++)
        ptl_memnet_pump();              /* every owed ACK goes */
    memset(dst, 0, sizeof(dst));
    ptl_memnet_set_faults(&lose_next);
    t = put_acked(md, 10);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    print_message("the lost put was acknowledged after %.3f ms (virtual); "
                  "probes %lu, resent %lu\n", t / 1e6,
                  (unsigned long)sa.tx_probes, (unsigned long)sa.rtx_frames);
    check_bytes(dst, 64, 9, "probed put");
    assert_int_equal(sa.tx_probes, 1);
    assert_true(t < 10000000);          /* the RTO is 20 ms */
    PtlMEUnlink(meh);
    PtlMDRelease(md);
}
