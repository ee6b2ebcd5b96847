/* SPDX-License-Identifier: MIT */
/*
 * test_semantics.c: one test per Portals 4 rule, two stations (A the
 * initiator, B the target) on the in-process network.  This file has the
 * fixture, the helpers the tests share and main(), which runs every test;
 * the tests are in test_semantics_*.c, one file per Portals area, declared
 * in test_semantics.h.
 */
#include "test_semantics.h"

struct station A, B;
ptl_pt_index_t PT;
uint8_t tbuf[1 << 16], sbuf[1 << 16];

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

ptl_handle_me_t append(ptl_me_t *me, ptl_list_t list, void *uptr)
{
    ptl_handle_me_t h;

    assert_int_equal(PtlMEAppend(B.ni, PT, me, list, uptr, &h), PTL_OK);
    return h;
}

void put(ptl_handle_md_t md, ptl_size_t off, ptl_size_t len,
         ptl_match_bits_t bits, ptl_size_t roff)
{
    assert_int_equal(PtlPut(md, off, len, PTL_ACK_REQ, B.id, PT, bits, roff,
                            (void *)0x5a, 0x1234), PTL_OK);
}

/* SEND then ACK at the initiator; returns the ACK. */
ptl_event_t put_done(void)
{
    ptl_event_t ev = st_event(&A);

    if (ev.type == PTL_EVENT_SEND)
        return st_expect(&A, PTL_EVENT_ACK);
    assert_int_equal(ev.type, PTL_EVENT_ACK);
    st_expect(&A, PTL_EVENT_SEND);
    return ev;
}

/* An overflow entry that takes every message (overflow and CT tests). */
void overflow_block(uint8_t *buf, size_t len, size_t min_free)
{
    ptl_me_t me = me_make(buf, len, 0,
                          PTL_ME_OP_PUT | PTL_ME_OP_GET |
                          PTL_ME_MANAGE_LOCAL);

    me.ignore_bits = ~(ptl_match_bits_t)0;
    me.min_free = min_free;
    append(&me, PTL_OVERFLOW_LIST, (void *)0x0f);
    st_expect(&B, PTL_EVENT_LINK);
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
