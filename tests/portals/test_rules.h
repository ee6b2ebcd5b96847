/* SPDX-License-Identifier: MIT */
/*
 * test_rules.h: what the files of ptl-test-rules (and ptl-rules, the same
 * without sanitizers for run-vde) share: the two stations and buffers of
 * the fixture (test_rules.c), its helpers and the tests of each file,
 * which main() lists.
 */
#ifndef TEST_RULES_H
#define TEST_RULES_H

#include "ptl_test.h"

extern struct station A, B;         /* A the initiator, B the target */
extern ptl_pt_index_t PT;
extern uint8_t tbuf[1 << 16], sbuf[1 << 16];

bool in_process(void);
const char *rules_link(void);       /* PTL_TEST_LINK, "mem:" by default */
void open_station(struct station *s, unsigned iface, ptl_nid_t nid,
                  ptl_pid_t pid, const ptl_ni_limits_t *desired,
                  ptl_ni_limits_t *actual);
void settle(void);
ptl_handle_me_t append(ptl_me_t *me, ptl_list_t list, void *uptr);
void overflow_block(uint8_t *buf, size_t len);
void unexpected_puts(unsigned n, ptl_match_bits_t bits);

/* A non-matching NI on each station, a portal table entry on B's. */
struct le_nis {
    ptl_handle_ni_t ani, bni;
    ptl_handle_eq_t aeq, beq;
    ptl_pt_index_t pt;
};

void le_nis_open(struct le_nis *n);

/* test_rules_search.c: PtlMESearch, events at append */
void search_only_reports_every_match(void **state);
void search_delete_use_once_deletes_first_only(void **state);
void search_counts_on_the_searching_entrys_counter(void **state);
void search_done_marked_by_one_failure(void **state);
void search_without_room_for_its_events_says_no_space(void **state);
void use_once_satisfied_at_append_posts_auto_unlink(void **state);

/* test_rules_resources.c: resources, PtlAbort */
void eq_free_while_named_by_pt_and_md(void **state);
void ni_init_honours_desired_limits(void **state);
void ni_unexpected_header_limit_disables_flowctl_pt(void **state);
void unexpected_header_limit_drops_without_flowctl(void **state);
void triggered_1024_puts_all_arrive(void **state);
void md_covering_all_memory(void **state);
void abort_returns_aborted_to_every_waiter(void **state);

/* test_rules_triggered.c: triggered list operations */
void triggered_me_append_links_at_threshold(void **state);
void triggered_me_unlink_at_threshold(void **state);
void triggered_le_append_and_unlink(void **state);

/* test_rules_ack.c: PTL_ME_ACK_DISABLE and PTL_LE_ACK_DISABLE */
void ack_disable_put_completes_without_ack(void **state);
void ack_disable_in_a_response_record(void **state);
void le_ack_disable(void **state);

/* test_rules_backpressure.c: running out of a resource waits */
void ops_to_self_beyond_the_message_slots_all_complete(void **state);
void stations_flooding_each_other_with_few_slots_all_complete(void **state);
void a_target_short_of_slots_is_waited_for_not_given_up(void **state);

#endif /* TEST_RULES_H */
