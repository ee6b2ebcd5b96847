/* SPDX-License-Identifier: MIT */
/*
 * ptl_test.h: shared fixture for the Portals unit tests: stations on the
 * in-process network (virtual clock), each with a matching physical NI, an
 * EQ and helpers that wait for one event.
 */
#ifndef PTL_TEST_H
#define PTL_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "portals4.h"
#include "ptl_host.h"
#include "ptl_linux.h"

struct station {
    unsigned iface;
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_process_t id;
};

/* The station of an open interface: its NI (desired limits, and what it
 * got, if not NULL) and an EQ of eq_size events. */
static inline void st_ni(struct station *s, unsigned iface, ptl_nid_t nid,
                         ptl_pid_t pid, unsigned ni_opts, unsigned eq_size,
                         const ptl_ni_limits_t *desired,
                         ptl_ni_limits_t *actual)
{
    s->iface = iface;
    assert_int_equal(PtlNIInit(iface, ni_opts, pid, desired, actual,
                               &s->ni), PTL_OK);
    assert_int_equal(PtlEQAlloc(s->ni, eq_size, &s->eq), PTL_OK);
    s->id.phys.nid = nid;
    s->id.phys.pid = pid;
}

static inline void st_open_opts(struct station *s, unsigned iface,
                                ptl_nid_t nid, ptl_pid_t pid, uint32_t mtu,
                                unsigned ni_opts, unsigned eq_size)
{
    assert_int_equal(ptl_linux_iface_open(iface, "mem:", nid, pid, mtu),
                     PTL_OK);
    st_ni(s, iface, nid, pid, ni_opts, eq_size, NULL, NULL);
}

static inline void st_open(struct station *s, unsigned iface, ptl_nid_t nid,
                           ptl_pid_t pid)
{
    st_open_opts(s, iface, nid, pid, 0, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                 256);
}

static inline void st_close(struct station *s)
{
    PtlNIFini(s->ni);
    ptl_linux_iface_close(s->iface);
}

/* Next event within ms of virtual time; fails the test if none. */
static inline ptl_event_t st_event(struct station *s)
{
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(&s->eq, 1, 2000, &ev, &which);

    if (rc != PTL_OK && rc != PTL_EQ_DROPPED)
        fail_msg("no event on station nid %u (rc %d)", s->id.phys.nid, rc);
    return ev;
}

static inline ptl_event_t st_expect(struct station *s, ptl_event_kind_t k)
{
    ptl_event_t ev = st_event(s);

    if (ev.type != k)
        fail_msg("nid %u: expected event %d, got %d (fail %d)",
                 s->id.phys.nid, k, ev.type, ev.ni_fail_type);
    return ev;
}

static inline void st_expect_none(struct station *s)
{
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(&s->eq, 1, 200, &ev, &which);

    if (rc != PTL_EQ_EMPTY)
        fail_msg("nid %u: unexpected event %d", s->id.phys.nid, ev.type);
}

/* Let the network go quiet (virtual time passes). */
static inline void net_settle(void)
{
    for (int i = 0; i < 2000; i++)
        ptl_memnet_pump();
}

static inline ptl_me_t me_make(void *buf, ptl_size_t len,
                               ptl_match_bits_t bits, unsigned opts)
{
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start = buf;
    me.length = len;
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    me.options = opts;
    me.match_id.phys.nid = PTL_NID_ANY;
    me.match_id.phys.pid = PTL_PID_ANY;
    me.match_bits = bits;
    me.ignore_bits = 0;
    return me;
}

static inline ptl_handle_md_t md_make(struct station *s, void *buf,
                                      ptl_size_t len, unsigned opts,
                                      ptl_handle_ct_t ct)
{
    ptl_md_t md = { .start = buf, .length = len, .options = opts,
                    .eq_handle = s->eq, .ct_handle = ct };
    ptl_handle_md_t h;

    assert_int_equal(PtlMDBind(s->ni, &md, &h), PTL_OK);
    return h;
}

#endif /* PTL_TEST_H */
