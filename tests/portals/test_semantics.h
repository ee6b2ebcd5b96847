/* SPDX-License-Identifier: MIT */
/*
 * test_semantics.h: what the files of ptl-test-semantics share: the two
 * stations and buffers of the fixture (test_semantics.c), its helpers and
 * the tests of each file, which main() lists.
 */
#ifndef TEST_SEMANTICS_H
#define TEST_SEMANTICS_H

#include "ptl_test.h"

extern struct station A, B;         /* A the initiator, B the target */
extern ptl_pt_index_t PT;
extern uint8_t tbuf[1 << 16], sbuf[1 << 16];

ptl_handle_me_t append(ptl_me_t *me, ptl_list_t list, void *uptr);
void put(ptl_handle_md_t md, ptl_size_t off, ptl_size_t len,
         ptl_match_bits_t bits, ptl_size_t roff);
ptl_event_t put_done(void);
void overflow_block(uint8_t *buf, size_t len, size_t min_free);

/* test_semantics_me.c: matching and lists */
void put_priority_match(void **state);
void match_ignore_bits(void **state);
void match_id_filters_initiator(void **state);
void use_once_unlinks(void **state);
void persistent_me_stays(void **state);
void first_match_wins_in_order(void **state);
void truncation(void **state);
void no_truncate_skips_entry(void **state);
void remote_offset_used(void **state);
void offset_past_end_matches_zero_bytes(void **state);
void manage_local_min_free_auto_unlink(void **state);

/* test_semantics_overflow.c: overflow and unexpected headers */
void unexpected_then_late_receive(void **state);
void append_while_unexpected_message_in_flight(void **state);
void overflow_append_does_not_search(void **state);
void persistent_append_consumes_all_headers(void **state);
void overflow_auto_unlink_then_auto_free(void **state);
void me_search_only(void **state);
void me_search_delete(void **state);
void append_while_landing_in_overflow(void **state);

/* test_semantics_ops.c: get and atomics */
void get_reply(void **state);
void get_truncated(void **state);
void op_violation_reported(void **state);
void uid_mismatch_is_permission_violation(void **state);
void atomics_every_op_and_type(void **state);
void atomic_put_applies_vector(void **state);

/* test_semantics_ct.c: counting events and triggered operations */
void ct_counts_operations_and_bytes(void **state);
void ct_counts_overflow_events(void **state);
void ct_failure_counted(void **state);
void triggered_put_fires_at_threshold(void **state);
void triggered_get_fires_at_threshold(void **state);
void triggered_atomic_fires_at_threshold(void **state);
void triggered_ctinc_and_ctset(void **state);
void ct_cancel_triggered(void **state);

/* test_semantics_eq.c: flow control, event options and polling */
void flowctrl_disable_and_recover(void **state);
void flowctrl_full_eq_disables(void **state);
void eq_overflow_drops_new_events(void **state);
void event_disable_options(void **state);
void eq_poll_several_and_timeout(void **state);
void ct_poll_several(void **state);
void flowctrl_unexpected_headers_exhausted(void **state);

/* test_semantics_ni.c: interfaces, addressing, handles, resources */
void non_matching_le(void **state);
void logical_addressing_map(void **state);
void handles_and_identity(void **state);
void md_bounds_checked(void **state);
void send_event_after_link_ack(void **state);
void pt_disable_refuses_then_enable(void **state);
void resources_in_use_are_refused(void **state);

#endif /* TEST_SEMANTICS_H */
