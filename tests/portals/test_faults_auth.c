/* SPDX-License-Identifier: MIT */
/*
 * test_faults_auth.c: ptl-test-faults, signed frames (PROTOCOL.md 2.3):
 * once a peer's frames come signed with the cluster's transport key, no
 * frame without that signature may change what that peer owns here --
 * not a RESET, not a new incarnation, not an acknowledgement -- and a
 * signed frame of an older incarnation (a recording played back) is
 * refused too.  Two stations D and E with known incarnations; the frames
 * of a station without the key are made here, byte by byte, and handed
 * to D's receive path as the wire would.
 */
#include "test_faults.h"

#include "ptl_wire.h"

static const uint64_t key[2] = { 0x0123456789abcdefull,
                                 0xfedcba9876543210ull };
static struct station D, E;
static uint8_t ebuf[64], dbuf[64];

/* A station on interface iface with a known incarnation (epoch, born),
 * its frames signed if keyed; a portal index 0 with a persistent entry
 * over buf for puts with match bits 3. */
static void open_known(struct station *s, unsigned iface, ptl_nid_t nid,
                       ptl_pid_t pid, uint32_t epoch, uint64_t born,
                       bool keyed, uint8_t *buf)
{
    struct ptl_lib_params p;
    ptl_me_t me = me_make(buf, 64, 3, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE |
                          PTL_ME_EVENT_SUCCESS_DISABLE);
    ptl_handle_me_t h;
    ptl_pt_index_t pt;

    ptl_linux_iface_close(iface);       /* a failed test's, if any */
    ptl_lib_params_default(&p);
    p.nid = nid, p.pid = pid, p.epoch = epoch, p.born = born;
    ptl_linux_link_defaults("mem:", p.mtu, &p);
    assert_int_equal(ptl_linux_iface_open_params(iface, "mem:", &p), PTL_OK);
    if (keyed)
        assert_int_equal(ptl_linux_auth(iface, key), PTL_OK);
    st_ni(s, iface, nid, pid, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 64, NULL,
          NULL);
    assert_int_equal(PtlPTAlloc(s->ni, 0, PTL_EQ_NONE, 0, &pt), PTL_OK);
    assert_int_equal(PtlMEAppend(s->ni, 0, &me, PTL_PRIORITY_LIST, NULL, &h),
                     PTL_OK);
}

static void open_pair(bool keyed)
{
    open_known(&D, 4, 4, 40, 0x4444, 4000, keyed, dbuf);
    open_known(&E, 5, 5, 50, 0x5555, 5000, keyed, ebuf);
}

static void close_pair(void)
{
    ptl_linux_iface_close(D.iface);
    ptl_linux_iface_close(E.iface);
}

static uint8_t *sbuf_d(void)
{
    static uint8_t b[64];

    return b;
}

/* A put from D to E; the fail type of its ACK. */
static int put_d_to_e(void (*meanwhile)(void))
{
    ptl_handle_md_t md = md_make(&D, sbuf_d(), 8, 0, PTL_CT_NONE);
    ptl_event_t ev;

    assert_int_equal(PtlPut(md, 0, 8, PTL_ACK_REQ, E.id, 0, 3, 0, NULL, 0),
                     PTL_OK);
    if (meanwhile)
        meanwhile();
    do
        ev = st_event(&D);
    while (ev.type != PTL_EVENT_ACK);
    PtlMDRelease(md);
    return ev.ni_fail_type;
}

/* A frame from E's address to D: unsigned unless k, with E's epoch (or
 * another), checksummed as any frame is. */
static void inject(uint8_t type, uint32_t epoch, uint32_t dst_epoch,
                   uint32_t ack, const uint64_t *k, uint64_t born)
{
    uint8_t f[PTL_FRAME_HMAX];
    struct ptl_whdr h = { .type = type, .src_nid = 5, .src_pid = 50,
                          .dst_nid = 4, .dst_pid = 40, .epoch = epoch,
                          .dst_epoch = dst_epoch, .ack = ack };
    struct ptl_csum c;
    size_t len;
    uint32_t sum;

    if (k != NULL)
        ptl_wire_encode_auth(f, &h, k, born);
    else
        ptl_wire_encode(f, &h, 0);
    len = ptl_wire_hlen(h.flags);
    ptl_csum_init(&c, len - PTL_ETH_HLEN);
    ptl_csum_add(&c, f + PTL_ETH_HLEN, len - PTL_ETH_HLEN);
    sum = ptl_csum_final(&c);
    for (int i = 0; i < 4; i++)
        f[PTL_ETH_HLEN + 4 + i] = (uint8_t)(sum >> (8 * i));
    ptl_lib_rx(ptl_linux_lib(D.iface), f, len);
}

/* What a station claiming E's address, without the key, sends D while
 * D's put to E is on the wire: a RESET of E's incarnation (the one D
 * knows), a frame of a new incarnation of E (the issue 32 attack), and
 * a LACK acknowledging the put's frame. */
static void forge_e(void)
{
    inject(PTL_W_RESET, 0x5555, 0x4444, 0, NULL, 0);
    inject(PTL_W_LACK, 0x9999, 0x4444, 0, NULL, 0);
    inject(PTL_W_LACK, 0x5555, 0x4444, 2, NULL, 0);
}

static uint64_t forged_at_d(void)
{
    struct ptl_lib_stats st;

    ptl_lib_get_stats(ptl_linux_lib(D.iface), &st);
    return st.rx_forged;
}

/* Without keys anyone may claim E's address, and the RESET fails D's put
 * at once: the attack the signatures stop (this shows the test can
 * fail). */
void unsigned_link_is_reset_by_a_forged_frame(void **state)
{
    (void)state;
    open_pair(false);
    assert_int_equal(put_d_to_e(NULL), PTL_NI_OK);     /* D knows E */
    assert_int_equal(put_d_to_e(forge_e), PTL_NI_UNDELIVERABLE);
    close_pair();
}

/* With the key, none of those frames touches D's link to E: the put is
 * delivered and acknowledged, and each frame is counted as refused. */
void signed_peer_ignores_unsigned_frames(void **state)
{
    (void)state;
    open_pair(true);
    assert_int_equal(put_d_to_e(NULL), PTL_NI_OK);
    assert_int_equal(put_d_to_e(forge_e), PTL_NI_OK);
    assert_int_equal(forged_at_d(), 3);
    assert_int_equal(put_d_to_e(NULL), PTL_NI_OK);     /* and after */
    close_pair();
}

/* A signed frame of an incarnation of E older than the one D knows is a
 * recording played back: refused.  A signed RESET with a wrong MAC
 * (another key) too.  A signed frame of a newer incarnation is E
 * restarting: D takes it (and fails what it had for the old one). */
static void replay_older(void)
{
    static const uint64_t other[2] = { 1, 2 };

    inject(PTL_W_LACK, 0x7777, 0x4444, 0, key, 4999);
    inject(PTL_W_RESET, 0x5555, 0x4444, 0, other, 0);
}

static void newer_incarnation(void)
{
    inject(PTL_W_LACK, 0x8888, 0x4444, 0, key, 5001);
}

void signed_peer_refuses_older_incarnation(void **state)
{
    (void)state;
    open_pair(true);
    assert_int_equal(put_d_to_e(NULL), PTL_NI_OK);
    assert_int_equal(put_d_to_e(replay_older), PTL_NI_OK);
    assert_int_equal(forged_at_d(), 2);
    assert_int_equal(put_d_to_e(newer_incarnation), PTL_NI_UNDELIVERABLE);
    close_pair();
}

/* A keyed station still talks with one that has no key (a station
 * without the secret asking a PCT for its STATUS): its frames are
 * taken, and the keyed one's signed frames are read without checking. */
void keyed_station_talks_to_unkeyed(void **state)
{
    (void)state;
    open_known(&D, 4, 4, 40, 0x4444, 4000, true, dbuf);
    open_known(&E, 5, 5, 50, 0x5555, 5000, false, ebuf);
    for (int i = 0; i < 3; i++)
        assert_int_equal(put_d_to_e(NULL), PTL_NI_OK);
    assert_int_equal(forged_at_d(), 0);
    close_pair();
}
