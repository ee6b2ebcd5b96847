/* SPDX-License-Identifier: MIT */
/*
 * test_rules.c: the Portals 4 rules issue 23 put right, one test each,
 * named for the rule (PTL_ME_ACK_DISABLE among them).  Two stations (A the
 * initiator, B the target) in one process on the link PTL_TEST_LINK
 * names: "mem:" (the in-process network, the default), "unix:DIR" or
 * "vde://SWITCH" (tests/portals/run-vde runs those), so each rule is
 * checked on the virtual clock and over a real link with the progress
 * thread.  This file has the fixture, the helpers the tests share and
 * main(), which runs every test; the tests are in test_rules_*.c, declared
 * in test_rules.h.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "test_rules.h"

struct station A, B;
ptl_pt_index_t PT;
uint8_t tbuf[1 << 16], sbuf[1 << 16];
static const char *link_spec = "mem:";

bool in_process(void)
{
    return strcmp(link_spec, "mem:") == 0;
}

const char *rules_link(void)
{
    return link_spec;
}

void open_station(struct station *s, unsigned iface, ptl_nid_t nid,
                  ptl_pid_t pid, const ptl_ni_limits_t *desired,
                  ptl_ni_limits_t *actual)
{
    assert_int_equal(ptl_linux_iface_open(iface, link_spec, nid, pid, 0),
                     PTL_OK);
    st_ni(s, iface, nid, pid, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 256,
          desired, actual);
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
void settle(void)
{
    if (in_process())
        net_settle();
    else
        usleep(50000);
}

ptl_handle_me_t append(ptl_me_t *me, ptl_list_t list, void *uptr)
{
    ptl_handle_me_t h;

    assert_int_equal(PtlMEAppend(B.ni, PT, me, list, uptr, &h), PTL_OK);
    return h;
}

/* An overflow block that takes every message unexpected. */
void overflow_block(uint8_t *buf, size_t len)
{
    ptl_me_t me = me_make(buf, len, 0, PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                                       PTL_ME_EVENT_LINK_DISABLE);

    me.ignore_bits = ~(ptl_match_bits_t)0;
    append(&me, PTL_OVERFLOW_LIST, (void *)0x0f);
}

/* n puts of 32 bytes with match bits bits, taken by the overflow block. */
void unexpected_puts(unsigned n, ptl_match_bits_t bits)
{
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, PTL_MD_EVENT_SUCCESS_DISABLE,
                                 PTL_CT_NONE);

    for (unsigned i = 0; i < n; i++)
        assert_int_equal(PtlPut(md, i, 32, PTL_NO_ACK_REQ, B.id, PT, bits, 0,
                                NULL, i), PTL_OK);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(st_expect(&B, PTL_EVENT_PUT).hdr_data, i);
}

/* Open the non-matching NIs and portal index of a struct le_nis. */
void le_nis_open(struct le_nis *n)
{
    assert_int_equal(PtlNIInit(2, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, 20,
                               NULL, NULL, &n->bni), PTL_OK);
    assert_int_equal(PtlNIInit(1, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, 10,
                               NULL, NULL, &n->ani), PTL_OK);
    assert_int_equal(PtlEQAlloc(n->bni, 64, &n->beq), PTL_OK);
    assert_int_equal(PtlEQAlloc(n->ani, 64, &n->aeq), PTL_OK);
    assert_int_equal(PtlPTAlloc(n->bni, 0, n->beq, 0, &n->pt), PTL_OK);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(search_only_reports_every_match),
        T(search_delete_use_once_deletes_first_only),
        T(search_counts_on_the_searching_entrys_counter),
        T(search_done_marked_by_one_failure),
        T(search_without_room_for_its_events_says_no_space),
        T(eq_free_while_named_by_pt_and_md),
        T(ni_init_honours_desired_limits),
        T(ni_unexpected_header_limit_disables_flowctl_pt),
        T(unexpected_header_limit_drops_without_flowctl),
        T(triggered_1024_puts_all_arrive),
        T(md_covering_all_memory),
        T(triggered_me_append_links_at_threshold),
        T(triggered_me_unlink_at_threshold),
        T(triggered_le_append_and_unlink),
        T(use_once_satisfied_at_append_posts_auto_unlink),
        T(ack_disable_put_completes_without_ack),
        T(ack_disable_in_a_response_record),
        T(le_ack_disable),
        T(abort_returns_aborted_to_every_waiter),
        T(ops_to_self_beyond_the_message_slots_all_complete),
        T(stations_flooding_each_other_with_few_slots_all_complete),
        T(a_target_short_of_slots_is_waited_for_not_given_up),
    };
    const char *l = getenv("PTL_TEST_LINK");

    if (l != NULL && *l != '\0')
        link_spec = l;
    PtlInit();
    return cmocka_run_group_tests_name(link_spec, tests, NULL, NULL);
}
