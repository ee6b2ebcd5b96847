/* SPDX-License-Identifier: MIT */
/*
 * test_faults.c: the reliable layer under a hostile link (in-process
 * network): loss, duplication, reordering, corruption and truncation.
 * Messages must arrive exactly once, intact, in order per pair and portal
 * table entry (PROTOCOL.md section 5: a message of one frame to another
 * portal index may complete before a larger one sent earlier); damaged
 * frames must be dropped and counted, never delivered; ACKs riding in
 * other frames arrive exactly once too.  This file has the fixture, the
 * flows of messages the tests share and main(), which runs every test; the
 * tests are in test_faults_*.c, declared in test_faults.h.
 */
#include "test_faults.h"

struct station A, B, C;
ptl_pt_index_t PT;

static int setup(void **state)
{
    (void)state;
    ptl_memnet_reset();
    st_open_opts(&A, 1, 1, 10, 1500, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 4096);
    st_open_opts(&B, 2, 2, 20, 1500, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 8192);
    st_open_opts(&C, 3, 3, 30, 1500, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 4096);
    return PtlPTAlloc(B.ni, 0, B.eq, 0, &PT) == PTL_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ptl_memnet_reset();
    st_close(&A);
    st_close(&B);
    st_close(&C);
    return 0;
}

uint32_t msg_size(uint64_t seq)
{
    uint64_t x = seq * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return seq % 97 == 0 ? 0 : (uint32_t)(x % 6000);
}

uint8_t pattern(uint64_t seq, uint32_t i)
{
    return (uint8_t)(seq * 31 + i * 7 + (i >> 8));
}

/* Message seq completed (arrived, or was ACKed: map, *oldest): exactly
 * once, and in the order of sending (a flow uses one portal index). */
static void in_order(struct flow *f, uint8_t *map, uint64_t *oldest,
                     uint64_t seq, const char *what)
{
    if (seq >= f->issued || map[seq])
        fail_msg("nid %u: %s of message %lu twice or never sent",
                 f->s->id.phys.nid, what, (unsigned long)seq);
    if (seq != *oldest)
        fail_msg("nid %u: %s of message %lu, expected %lu",
                 f->s->id.phys.nid, what, (unsigned long)seq,
                 (unsigned long)*oldest);
    map[seq] = 1;
    while (*oldest < f->total && map[*oldest])
        ++*oldest;
}

void flow_init(struct flow *f, struct station *s, uint64_t total)
{
    ptl_me_t me;

    memset(f, 0, sizeof(*f));
    f->s = s;
    f->total = total;
    f->src = calloc(SSLOTS, SLOT);
    f->dst = calloc(RSLOTS, SLOT);
    f->acked_map = calloc(total + 1, 1);
    f->arrived_map = calloc(total + 1, 1);
    f->md = md_make(s, f->src, SSLOTS * SLOT,
                    PTL_MD_EVENT_SEND_DISABLE, PTL_CT_NONE);
    me = me_make(f->dst, RSLOTS * SLOT, s->id.phys.nid,
                 PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE);
    me.match_id = s->id;
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &f->me), PTL_OK);
}

void flow_free(struct flow *f)
{
    PtlMEUnlink(f->me);
    PtlMDRelease(f->md);
    free(f->src);
    free(f->dst);
    free(f->acked_map);
    free(f->arrived_map);
}

void flow_issue(struct flow *f)
{
    while (f->issued < f->total && f->issued - f->acked < INFLIGHT) {
        uint64_t seq = f->issued++;
        uint32_t n = msg_size(seq);
        uint8_t *p = f->src + (seq % SSLOTS) * SLOT;

        for (uint32_t i = 0; i < n; i++)
            p[i] = pattern(seq, i);
        assert_int_equal(PtlPut(f->md, (seq % SSLOTS) * SLOT, n, PTL_ACK_REQ,
                                B.id, PT, f->s->id.phys.nid,
                                (seq % RSLOTS) * SLOT, NULL, seq), PTL_OK);
    }
}

static void flow_acks(struct flow *f)
{
    ptl_event_t ev;

    while (PtlEQGet(f->s->eq, &ev) == PTL_OK) {
        if (ev.type != PTL_EVENT_ACK)
            fail_msg("sender %u: event %d", f->s->id.phys.nid, ev.type);
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        in_order(f, f->acked_map, &f->acked, ev.hdr_data, "ACK");
    }
}

/* Check one arrival: exactly once and in order (hdr_data is the sequence
 * number), with the right length and bytes. */
static void check_arrival(struct flow *f, const ptl_event_t *ev)
{
    uint64_t seq = ev->hdr_data;
    uint32_t n = msg_size(seq);
    const uint8_t *p = ev->start;

    in_order(f, f->arrived_map, &f->received, seq, "arrival");
    assert_int_equal(ev->mlength, n);
    for (uint32_t i = 0; i < n; i++)
        if (p[i] != pattern(seq, i))
            fail_msg("seq %lu byte %u damaged", (unsigned long)seq, i);
}

static void drain_target(struct flow *flows, int nf)
{
    ptl_event_t ev;
    int rc;

    while ((rc = PtlEQGet(B.eq, &ev)) != PTL_EQ_EMPTY) {
        assert_int_equal(rc, PTL_OK);
        assert_int_equal(ev.type, PTL_EVENT_PUT);
        for (int i = 0; i < nf; i++)
            if (flows[i].s->id.phys.nid == ev.initiator.phys.nid)
                check_arrival(&flows[i], &ev);
    }
}

static bool flows_done(struct flow *flows, int nf)
{
    for (int i = 0; i < nf; i++)
        if (flows[i].acked < flows[i].total ||
            flows[i].received < flows[i].total)
            return false;
    return true;
}

void run_flows(struct flow *flows, int nf)
{
    long iter;

    for (iter = 0; iter < 20000000 && !flows_done(flows, nf); iter++) {
        for (int i = 0; i < nf; i++) {
            flow_issue(&flows[i]);
            flow_acks(&flows[i]);
        }
        drain_target(flows, nf);
        ptl_memnet_pump();
    }
    assert_true(flows_done(flows, nf));
}

/* The n bytes at p are message seq's pattern(), or the test fails. */
void check_bytes(const uint8_t *p, uint32_t n, uint64_t seq,
                 const char *what)
{
    for (uint32_t i = 0; i < n; i++)
        if (p[i] != pattern(seq, i))
            fail_msg("%s byte %u damaged", what, i);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(ten_thousand_messages_lossy_link),
        T(large_and_small_lossy_link),
        T(duplicates_never_resend),
        T(acks_of_large_puts_go_at_once),
        T(tail_loss_probed_before_rto),
        T(small_put_not_stuck_behind_large),
        T(slow_link_rto_adapts),
        T(acks_ride_in_replies),
        T(acks_ride_in_replies_lossy_link),
        T(waits_send_no_link_ack_for_acks),
        T(corrupted_frames_dropped_and_counted),
        T(truncated_frames_dropped_and_counted),
        T(unreachable_peer_is_undeliverable),
        T(restarted_peer_is_resynchronised),
        T(gone_peer_answers_reset),
        T(busy_host_holds_frames_back),
        T(leaving_is_prompt),
        T(leaving_confirms_a_lost_ack),
        T(leaving_sends_nothing_to_quiet_peers),
        T(unsigned_link_is_reset_by_a_forged_frame),
        T(signed_peer_ignores_unsigned_frames),
        T(signed_peer_refuses_older_incarnation),
        T(keyed_station_talks_to_unkeyed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
