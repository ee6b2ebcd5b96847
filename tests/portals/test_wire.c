/* SPDX-License-Identifier: MIT */
/*
 * test_wire.c: the frame format: encode/parse round trip, the checksum
 * catching every single-bit flip, the nid <-> MAC mapping, and the parser
 * refusing malformed frames (and a lib counting them, never crashing), the
 * response record an ACK rides in (PTL_WF_RESP), the LACK's selective ACK
 * bitmap and GAP flag, the ACK-disabled flag (in an ACK and in a response
 * record), and frames of another wire version refused.
 */
#include "ptl_test.h"
#include "ptl_wire.h"

static const struct ptl_wresp test_resp = {
    0x12345678u, 3, 1, PTL_WACK_DISABLED, 0x1122334455667788ull,
    0x0102030405060708ull
};

/* A PUT frame; with PTL_WF_RESP in flags it carries test_resp. */
static size_t make_frame_flags(uint8_t *f, const uint8_t *payload,
                               uint32_t n, uint32_t ack, uint8_t flags)
{
    struct ptl_whdr h;
    struct ptl_csum c;
    size_t hl = ptl_wire_hlen(flags);
    uint32_t sum;

    memset(&h, 0, sizeof(h));
    h.type = PTL_W_PUT;
    h.flags = flags;
    h.resp = test_resp;
    h.src_nid = 7;
    h.dst_nid = 9;
    h.src_pid = 1;
    h.dst_pid = 2;
    h.epoch = 5;
    h.seq = 42;
    h.ack = ack;
    h.match_bits = 0x0123456789abcdefull;
    h.rlength = n;
    h.total = n;
    h.frag_len = n;
    ptl_wire_encode(f, &h, 0);
    memcpy(f + hl, payload, n);
    ptl_csum_init(&c, hl - PTL_ETH_HLEN + (uint64_t)n);
    ptl_csum_add(&c, f + PTL_ETH_HLEN, hl - PTL_ETH_HLEN + n);
    sum = ptl_csum_final(&c);
    ptl_wire_encode(f, &h, sum);
    return hl + n;
}

static size_t make_frame_ack(uint8_t *f, const uint8_t *payload, uint32_t n,
                             uint32_t ack)
{
    return make_frame_flags(f, payload, n, ack, PTL_WF_SEQ);
}

static size_t make_frame(uint8_t *f, const uint8_t *payload, uint32_t n)
{
    return make_frame_ack(f, payload, n, 0);
}

static void roundtrip(void **state)
{
    uint8_t f[2048], pl[100];
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len;

    (void)state;
    for (int i = 0; i < 100; i++)
        pl[i] = (uint8_t)i;
    len = make_frame(f, pl, sizeof(pl));
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_int_equal(h.seq, 42);
    assert_int_equal(h.match_bits, 0x0123456789abcdefull);
    assert_int_equal(h.frag_len, 100);
    assert_memory_equal(data, pl, 100);
    assert_int_equal(f[12], 0x88);
    assert_int_equal(f[13], 0xB5);
    assert_int_equal(f[PTL_ETH_HLEN], PTL_WIRE_VERSION);
}

static void checksum_catches_every_bit_flip(void **state)
{
    uint8_t f[2048], pl[333];
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len;

    (void)state;
    memset(pl, 0xA5, sizeof(pl));
    len = make_frame(f, pl, sizeof(pl));
    for (size_t i = PTL_ETH_HLEN; i < len; i++)
        for (int b = 0; b < 8; b++) {
            f[i] ^= (uint8_t)(1 << b);
            if (ptl_wire_parse(f, len, &h, &data, 0) == 0)
                fail_msg("flip of byte %zu bit %d not caught", i, b);
            f[i] ^= (uint8_t)(1 << b);
        }
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
}

static void checksum_streaming_equals_whole(void **state)
{
    uint8_t buf[1000];
    struct ptl_csum a, b;

    (void)state;
    for (int i = 0; i < 1000; i++)
        buf[i] = (uint8_t)(i * 13);
    ptl_csum_init(&a, 1000);
    ptl_csum_add(&a, buf, 1000);
    ptl_csum_init(&b, 1000);
    ptl_csum_add(&b, buf, 3);
    ptl_csum_add(&b, buf + 3, 500);
    ptl_csum_add(&b, buf + 503, 497);
    assert_int_equal(ptl_csum_final(&a), ptl_csum_final(&b));
}

static void truncated_frames_rejected(void **state)
{
    uint8_t f[2048], pl[200] = { 0 };
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len;

    (void)state;
    len = make_frame(f, pl, sizeof(pl));
    for (size_t l = 0; l < len; l++)
        assert_int_not_equal(ptl_wire_parse(f, l, &h, &data, 0), 0);
    /* even without the checksum, lengths must agree */
    for (size_t l = 0; l < len; l++)
        assert_int_not_equal(ptl_wire_parse(f, l, &h, &data, 1), 0);
}

static void malformed_headers_rejected(void **state)
{
    uint8_t f[2048], pl[10] = { 0 };
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len = make_frame(f, pl, sizeof(pl));

    (void)state;
    f[13] = 0x00;                               /* ethertype */
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 1), 0);
    f[13] = 0xB5;
    f[PTL_ETH_HLEN] = PTL_WIRE_VERSION - 1;     /* version */
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 1), 0);
    f[PTL_ETH_HLEN] = PTL_WIRE_VERSION + 1;
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 1), 0);
    f[PTL_ETH_HLEN] = PTL_WIRE_VERSION;
    f[PTL_ETH_HLEN + 1] = PTL_W_TYPE_LAST;      /* type */
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 1), 0);
    f[PTL_ETH_HLEN + 1] = PTL_W_PUT;
    f[PTL_ETH_HLEN + 116] = 5;                  /* total < frag_len */
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 1), 0);
}

/* An ACK rides between header and payload; both come back intact, the
 * checksum covers the record, and a record is refused outside a
 * sequenced frame or when the frame is too short to hold it. */
static void response_record_roundtrip(void **state)
{
    uint8_t f[2048], pl[64];
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len;

    (void)state;
    for (int i = 0; i < 64; i++)
        pl[i] = (uint8_t)(200 - i);
    len = make_frame_flags(f, pl, sizeof(pl), 0, PTL_WF_SEQ | PTL_WF_RESP);
    assert_int_equal(len, PTL_FRAME_HLEN + PTL_WIRE_RLEN + sizeof(pl));
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_true(h.flags & PTL_WF_RESP);
    assert_int_equal(h.frag_len, sizeof(pl));
    assert_memory_equal(data, pl, sizeof(pl));
    assert_int_equal(h.resp.msg_id, test_resp.msg_id);
    assert_int_equal(h.resp.fail_type, test_resp.fail_type);
    assert_int_equal(h.resp.ptl_list, test_resp.ptl_list);
    assert_int_equal(h.resp.flags, PTL_WACK_DISABLED);
    assert_int_equal(h.resp.mlength, test_resp.mlength);
    assert_int_equal(h.resp.remote_offset, test_resp.remote_offset);
    for (size_t i = PTL_FRAME_HLEN; i < PTL_FRAME_HLEN + PTL_WIRE_RLEN; i++) {
        f[i] ^= 0x10;
        assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
        f[i] ^= 0x10;
    }
    for (size_t l = 0; l < len; l++)
        assert_int_not_equal(ptl_wire_parse(f, l, &h, &data, 1), 0);
    len = make_frame_flags(f, pl, 0, 0, PTL_WF_SEQ | PTL_WF_RESP);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    len = make_frame_flags(f, pl, 0, 0, PTL_WF_RESP);
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
}

/* A signed frame (version 6): the trailer (born, MAC) after the header
 * and the response record, covered by the checksum; the MAC holds under
 * its key only, and changes with any byte of the header, the record or
 * born (the attacker has no key to make a new one). */
static void signed_frame_roundtrip(void **state)
{
    static const uint64_t key[2] = { 11, 22 }, other[2] = { 11, 23 };
    uint8_t f[2048], pl[16] = { 1, 2, 3 };
    struct ptl_whdr h = { .type = PTL_W_PUT, .flags = PTL_WF_SEQ |
                          PTL_WF_RESP, .src_nid = 7, .dst_nid = 9,
                          .epoch = 5, .seq = 3, .resp = test_resp,
                          .rlength = 16, .total = 16, .frag_len = 16 };
    size_t hl = ptl_wire_hlen(h.flags | PTL_WF_AUTH), len = hl + sizeof(pl);
    const uint8_t *data;
    struct ptl_whdr g;
    struct ptl_csum c;

    (void)state;
    assert_int_equal(hl, PTL_FRAME_HLEN + PTL_WIRE_RLEN + PTL_WIRE_ALEN);
    ptl_wire_encode_auth(f, &h, key, 0x1122334455667788ull);
    memcpy(f + hl, pl, sizeof(pl));
    ptl_csum_init(&c, len - PTL_ETH_HLEN);
    ptl_csum_add(&c, f + PTL_ETH_HLEN, len - PTL_ETH_HLEN);
    h.csum = ptl_csum_final(&c);
    for (int i = 0; i < 4; i++)
        f[PTL_ETH_HLEN + 4 + i] = (uint8_t)(h.csum >> (8 * i));
    assert_int_equal(ptl_wire_parse(f, len, &g, &data, 0), 0);
    assert_true(g.flags & PTL_WF_AUTH);
    assert_true(g.born == 0x1122334455667788ull && g.mac == h.mac);
    assert_memory_equal(data, pl, sizeof(pl));
    assert_true(ptl_wire_signed(key, f, &g));
    assert_false(ptl_wire_signed(other, f, &g));
    for (size_t i = PTL_ETH_HLEN; i < hl - 8; i++) {
        if (i >= PTL_ETH_HLEN + 4 && i < PTL_ETH_HLEN + 8)
            continue;                   /* the checksum field */
        f[i] ^= 0x04;
        assert_true(ptl_wire_mac(key, f, g.flags) != g.mac);
        f[i] ^= 0x04;
    }
    f[hl - 1] ^= 1;                     /* the MAC itself: damage, caught */
    assert_int_not_equal(ptl_wire_parse(f, len, &g, &data, 0), 0);
}

static void nid_mac_mapping(void **state)
{
    uint8_t mac[6];
    uint32_t nid;

    (void)state;
    ptl_wire_nid_mac(0x01020304, mac);
    assert_int_equal(mac[0], 0x02);     /* locally administered, unicast */
    assert_int_equal(mac[1], 0x50);
    assert_int_equal(mac[2], 0x01);
    assert_int_equal(mac[5], 0x04);
    assert_int_equal(ptl_wire_mac_nid(mac, &nid), 0);
    assert_int_equal(nid, 0x01020304);
    mac[0] = 0x00;
    assert_int_not_equal(ptl_wire_mac_nid(mac, &nid), 0);
}

static void garbage_counted_never_crashes(void **state)
{
    uint8_t f[4096];
    struct ptl_lib_stats st;
    struct ptl_lib *lib;
    uint64_t x = 88172645463325252ull;

    (void)state;
    assert_int_equal(ptl_linux_iface_open(5, "mem:", 9, 2, 0), PTL_OK);
    lib = ptl_linux_lib(5);
    for (int i = 0; i < 5000; i++) {
        size_t len = (size_t)(x % sizeof(f));
        for (size_t j = 0; j < len; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            f[j] = (uint8_t)x;
        }
        if (len > 14)
            f[12] = 0x88, f[13] = 0xB5;
        ptl_lib_rx(lib, f, len);
    }
    ptl_lib_get_stats(lib, &st);
    assert_int_equal(st.rx_bad + st.rx_version, 5000);
    assert_int_equal(st.rx_frames, 0);
    ptl_linux_iface_close(5);
}

/* Regression (found by the fuzzer): an ack half the sequence space away
 * passed the window check and walked the window round: a 2^31-step loop,
 * then a resend of an empty slot. */
static void regression_far_ack_is_ignored(void **state)
{
    uint8_t f[512], pl[8] = { 0 };
    struct ptl_lib_stats st;
    struct ptl_lib *lib;
    size_t len = make_frame_ack(f, pl, sizeof(pl), 0x80000000u);

    (void)state;
    assert_int_equal(ptl_linux_iface_open(6, "mem:", 9, 2, 0), PTL_OK);
    lib = ptl_linux_lib(6);
    ptl_lib_rx(lib, f, len);
    ptl_lib_progress(lib);
    ptl_lib_get_stats(lib, &st);
    assert_int_equal(st.rx_frames, 1);
    assert_int_equal(st.rtx_frames, 0);
    ptl_linux_iface_close(6);
}

/* A frame of h alone (no payload), with its checksum. */
static size_t make_bare(uint8_t *f, const struct ptl_whdr *h)
{
    struct ptl_csum c;

    ptl_wire_encode(f, h, 0);
    ptl_csum_init(&c, PTL_WIRE_HLEN);
    ptl_csum_add(&c, f + PTL_ETH_HLEN, PTL_WIRE_HLEN);
    ptl_wire_encode(f, h, ptl_csum_final(&c));
    return PTL_FRAME_HLEN;
}

/* A LACK: cumulative ack, SACK bitmap, flags (PTL_WF_GAP or 0). */
static size_t make_lack(uint8_t *f, uint32_t ack, uint64_t sack,
                        uint8_t flags)
{
    struct ptl_whdr h;

    memset(&h, 0, sizeof(h));
    h.type = PTL_W_LACK;
    h.flags = flags;
    h.src_nid = 7;
    h.dst_nid = 9;
    h.src_pid = 1;
    h.dst_pid = 2;
    h.epoch = 5;
    h.ack = ack;
    h.sack = sack;
    return make_bare(f, &h);
}

/* The SACK bitmap and the GAP flag survive encode/parse exactly (bits 1
 * and 63 included); a bitmap claiming the missing frame itself (bit 0)
 * and GAP on anything but a LACK are malformed. */
static void lack_sack_roundtrip(void **state)
{
    uint8_t f[512], pl[8] = { 0 };
    const uint64_t sack = 0x8000000000000006ull | 1ull << 40;
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len;

    (void)state;
    len = make_lack(f, 1000, sack, PTL_WF_GAP);
    assert_int_equal(len, PTL_FRAME_HLEN);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_int_equal(h.type, PTL_W_LACK);
    assert_int_equal(h.ack, 1000);
    assert_true(h.sack == sack);
    assert_true(h.flags & PTL_WF_GAP);
    len = make_lack(f, 1000, 0, 0);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_true(h.sack == 0 && !(h.flags & PTL_WF_GAP));
    len = make_lack(f, 1000, sack | 1, PTL_WF_GAP);
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    len = make_frame_flags(f, pl, sizeof(pl), 0, PTL_WF_SEQ | PTL_WF_GAP);
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    /* RNR (version 6) likewise: a LACK's, nobody else's */
    len = make_lack(f, 77, 0, PTL_WF_RNR);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_true(h.flags & PTL_WF_RNR && h.ack == 77);
    len = make_frame_flags(f, pl, sizeof(pl), 0, PTL_WF_SEQ | PTL_WF_RNR);
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    /* match_bits of other frames are not taken for a bitmap */
    len = make_frame(f, pl, sizeof(pl));
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_true(h.sack == 0 && h.match_bits == 0x0123456789abcdefull);
}

/* An ACK frame for a put that matched an ACK_DISABLE entry: the
 * ack_req byte says so (and is checksummed); the flag rides in a
 * response record's byte 6 too; any other bit in either is refused. */
static size_t make_ack(uint8_t *f, uint8_t ack_flags)
{
    struct ptl_whdr h;

    memset(&h, 0, sizeof(h));
    h.type = PTL_W_ACK;
    h.flags = PTL_WF_SEQ;
    h.ack_req = ack_flags;
    h.src_nid = 9;
    h.dst_nid = 7;
    h.epoch = 5;
    h.msg_id = 0x4242;
    h.mlength = 64;
    return make_bare(f, &h);
}

static void ack_disabled_flag_roundtrip(void **state)
{
    uint8_t f[2048], pl[16] = { 0 };
    struct ptl_whdr h;
    const uint8_t *data;
    size_t len;

    (void)state;
    len = make_ack(f, PTL_WACK_DISABLED);
    assert_int_equal(f[PTL_ETH_HLEN + 3], PTL_WACK_DISABLED);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_int_equal(h.type, PTL_W_ACK);
    assert_int_equal(h.ack_req, PTL_WACK_DISABLED);
    f[PTL_ETH_HLEN + 3] = 0;                    /* covered by the checksum */
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    len = make_ack(f, 0);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_int_equal(h.ack_req, 0);
    len = make_ack(f, 0x02);                    /* unknown flag */
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    /* in a response record: byte 6 */
    len = make_frame_flags(f, pl, sizeof(pl), 0, PTL_WF_SEQ | PTL_WF_RESP);
    assert_int_equal(f[PTL_FRAME_HLEN + 6], PTL_WACK_DISABLED);
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0), 0);
    assert_int_equal(h.resp.flags, PTL_WACK_DISABLED);
    f[PTL_FRAME_HLEN + 6] = 0x81;
    assert_int_not_equal(ptl_wire_parse(f, len, &h, &data, 1), 0);
}

/* A frame of another wire version (5: before the RNR flag) is refused
 * with its sender and version named, and a lib counts it apart from
 * damage. */
static void other_version_refused(void **state)
{
    uint8_t f[512], pl[8] = { 0 };
    struct ptl_lib_stats st;
    struct ptl_whdr h;
    const uint8_t *data;
    struct ptl_lib *lib;
    size_t len = make_frame(f, pl, sizeof(pl));

    (void)state;
    f[PTL_ETH_HLEN] = 5;
    memset(&h, 0, sizeof(h));
    assert_int_equal(ptl_wire_parse(f, len, &h, &data, 0),
                     PTL_WIRE_EVERSION);
    assert_int_equal(h.version, 5);
    assert_int_equal(h.src_nid, 7);
    assert_int_equal(ptl_linux_iface_open(7, "mem:", 9, 2, 0), PTL_OK);
    lib = ptl_linux_lib(7);
    ptl_lib_rx(lib, f, len);
    ptl_lib_get_stats(lib, &st);
    assert_int_equal(st.rx_version, 1);
    assert_int_equal(st.rx_bad, 0);
    assert_int_equal(st.rx_frames, 0);
    ptl_linux_iface_close(7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roundtrip),
        cmocka_unit_test(checksum_catches_every_bit_flip),
        cmocka_unit_test(checksum_streaming_equals_whole),
        cmocka_unit_test(truncated_frames_rejected),
        cmocka_unit_test(malformed_headers_rejected),
        cmocka_unit_test(response_record_roundtrip),
        cmocka_unit_test(signed_frame_roundtrip),
        cmocka_unit_test(nid_mac_mapping),
        cmocka_unit_test(garbage_counted_never_crashes),
        cmocka_unit_test(regression_far_ack_is_ignored),
        cmocka_unit_test(lack_sack_roundtrip),
        cmocka_unit_test(ack_disabled_flag_roundtrip),
        cmocka_unit_test(other_version_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
