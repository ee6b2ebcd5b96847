/* SPDX-License-Identifier: MIT */
/*
 * test_faults.h: what the files of ptl-test-faults share: the three
 * stations of the fixture (test_faults.c), its flows of messages and the
 * tests of each file, which main() lists.
 */
#ifndef TEST_FAULTS_H
#define TEST_FAULTS_H

#include "ptl_test.h"

#define SLOT      8192
#define RSLOTS    128               /* receive slots per sender */
#define SSLOTS    64                /* source slots per sender */
#define INFLIGHT  32

extern struct station A, B, C;
extern ptl_pt_index_t PT;

/* One sending station's state. */
struct flow {
    struct station *s;
    ptl_handle_md_t md;
    uint8_t *src;
    uint8_t *dst;
    uint64_t total, issued;
    uint64_t acked, received;   /* the oldest message not yet ACKed, and
                                 * not yet arrived */
    uint8_t *acked_map, *arrived_map;
    ptl_handle_me_t me;
};

uint32_t msg_size(uint64_t seq);
uint8_t pattern(uint64_t seq, uint32_t i);
void flow_init(struct flow *f, struct station *s, uint64_t total);
void flow_free(struct flow *f);
void flow_issue(struct flow *f);
void run_flows(struct flow *flows, int nf);
void check_bytes(const uint8_t *p, uint32_t n, uint64_t seq,
                 const char *what);

/* test_faults_link.c: a hostile link */
void ten_thousand_messages_lossy_link(void **state);
void duplicates_never_resend(void **state);
void slow_link_rto_adapts(void **state);
void corrupted_frames_dropped_and_counted(void **state);
void truncated_frames_dropped_and_counted(void **state);
void tail_loss_probed_before_rto(void **state);

/* test_faults_acks.c: ACKs riding in replies */
void acks_ride_in_replies(void **state);
void acks_of_large_puts_go_at_once(void **state);
void acks_ride_in_replies_lossy_link(void **state);
void waits_send_no_link_ack_for_acks(void **state);

/* test_faults_peers.c: unreachable, restarted and gone peers */
void unreachable_peer_is_undeliverable(void **state);
void restarted_peer_is_resynchronised(void **state);
void gone_peer_answers_reset(void **state);
void busy_host_holds_frames_back(void **state);
void leaving_is_prompt(void **state);
void leaving_confirms_a_lost_ack(void **state);
void leaving_sends_nothing_to_quiet_peers(void **state);

/* test_faults_auth.c: signed frames (PROTOCOL.md 2.3) */
void unsigned_link_is_reset_by_a_forged_frame(void **state);
void signed_peer_ignores_unsigned_frames(void **state);
void signed_peer_refuses_older_incarnation(void **state);
void keyed_station_talks_to_unkeyed(void **state);

/* test_faults_large.c: a large message and small ones through loss */
void large_and_small_lossy_link(void **state);
void small_put_not_stuck_behind_large(void **state);

#endif /* TEST_FAULTS_H */
