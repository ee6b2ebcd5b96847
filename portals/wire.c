/* SPDX-License-Identifier: MIT */
/*
 * wire.c: encode and parse Portals-over-Ethernet frames and compute their
 * checksum.  The parser is the first code to see bytes from the network, so
 * it trusts nothing: every length is checked before use (it is fuzzed).
 */
#include "ptl_wire.h"
#include "siphash.h"            /* yod/siphash.c: one SipHash for all */

#define CSUM_K 0x9E3779B97F4A7C15ull

/* Little-endian field access, spelled out byte by byte so the code is
   right on any host; gcc merges each into one load or store.  Forced
   inline: gcc's inliner judges them by their size before that merge, and
   a call per field (or a loop per put64) costs a translated block each
   under QEMU's TCG, and every frame is encoded or parsed here. */
#define WIRE_INLINE static inline __attribute__((always_inline))

WIRE_INLINE void put8(uint8_t *p, uint8_t v) { p[0] = v; }

WIRE_INLINE void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

WIRE_INLINE void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

WIRE_INLINE uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

WIRE_INLINE uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/*
 * Checksum: a multiply-rotate hash over 64-bit little-endian words.  Each
 * step h = rotl((h ^ w) * K, 31) is a bijection of h for a given w, so a
 * change confined to one word can never cancel out: every single-word
 * corruption (and any truncation, since the length seeds it) is detected.
 * It runs at several GB/s without SIMD, which the kernel cannot use.
 */
static uint64_t csum_step(uint64_t h, uint64_t w)
{
    uint64_t hi;

    h = (h ^ w) * CSUM_K;
    /* rotl(h, 31), as two shifts gcc cannot merge into a rol: under
       QEMU's TCG a rol sets carry and overflow, so the flags of the imul
       before it are computed at once, by a helper call for every word;
       shifts leave them lazy.  The same hash, 2-3 times faster per frame
       on a node (the kernel spent 5.2 us checksumming each 9 KB frame it
       received, against ~3 us for the rest of its receive path). */
    hi = h << 31;
    __asm__("" : "+r"(hi));
    return hi | (h >> 33);
}

void ptl_csum_init(struct ptl_csum *c, uint64_t total_len)
{
    c->h = csum_step(0x50544C34ull, total_len);
    c->npart = 0;
}

void ptl_csum_add(struct ptl_csum *c, const void *p, size_t len)
{
    const uint8_t *b = p;

    while (len > 0 && c->npart != 0) {
        c->part[c->npart++] = *b++;
        len--;
        if (c->npart == 8) {
            c->h = csum_step(c->h, get64(c->part));
            c->npart = 0;
        }
    }
    /* Four words a turn: one loop block instead of four under TCG. */
    for (; len >= 32; b += 32, len -= 32) {
        uint64_t h = csum_step(c->h, get64(b));
        h = csum_step(h, get64(b + 8));
        h = csum_step(h, get64(b + 16));
        c->h = csum_step(h, get64(b + 24));
    }
    for (; len >= 8; b += 8, len -= 8)
        c->h = csum_step(c->h, get64(b));
    while (len-- > 0)
        c->part[c->npart++] = *b++;
}

uint32_t ptl_csum_final(struct ptl_csum *c)
{
    if (c->npart != 0) {
        while (c->npart < 8)
            c->part[c->npart++] = 0;
        c->h = csum_step(c->h, get64(c->part));
    }
    return (uint32_t)(c->h ^ (c->h >> 32));
}

void ptl_wire_nid_mac(uint32_t nid, uint8_t mac[6])
{
    mac[0] = 0x02;
    mac[1] = 0x50;
    for (int i = 0; i < 4; i++)
        mac[2 + i] = (uint8_t)(nid >> (24 - 8 * i));
}

int ptl_wire_mac_nid(const uint8_t mac[6], uint32_t *nid)
{
    if (mac[0] != 0x02 || mac[1] != 0x50)
        return -1;
    *nid = (uint32_t)mac[2] << 24 | (uint32_t)mac[3] << 16 |
           (uint32_t)mac[4] << 8 | mac[5];
    return 0;
}

static void encode_eth(uint8_t *out, const struct ptl_whdr *h)
{
    ptl_wire_nid_mac(h->dst_nid, out);
    ptl_wire_nid_mac(h->src_nid, out + 6);
    out[12] = PTL_ETHERTYPE >> 8;
    out[13] = PTL_ETHERTYPE & 0xff;
}

void ptl_wire_encode(uint8_t *out, const struct ptl_whdr *h, uint32_t csum)
{
    uint8_t *p = out + PTL_ETH_HLEN;

    encode_eth(out, h);
    put8(p + 0, PTL_WIRE_VERSION);
    put8(p + 1, h->type);
    put8(p + 2, h->flags);
    put8(p + 3, h->ack_req);
    put32(p + 4, csum);
    put32(p + 8, h->src_nid);
    put32(p + 12, h->src_pid);
    put32(p + 16, h->dst_nid);
    put32(p + 20, h->dst_pid);
    put32(p + 24, h->epoch);
    put32(p + 28, h->seq);
    put32(p + 32, h->ack);
    put32(p + 36, h->msg_id);
    put32(p + 40, h->pt_index);
    put32(p + 44, h->uid);
    put32(p + 48, h->jid);
    put32(p + 52, h->src_rank);
    put64(p + 56, h->type == PTL_W_LACK ? h->sack : h->match_bits);
    put64(p + 64, h->hdr_data);
    put64(p + 72, h->remote_offset);
    put64(p + 80, h->rlength);
    put64(p + 88, h->mlength);
    put64(p + 96, h->frag_off);
    put32(p + 104, h->frag_len);
    put8(p + 108, h->atomic_op);
    put8(p + 109, h->atomic_type);
    put8(p + 110, h->fail_type);
    put8(p + 111, h->ptl_list);
    put32(p + 112, h->dst_epoch);
    put32(p + 116, h->total);
    p += PTL_WIRE_HLEN;
    if (h->flags & PTL_WF_RESP) {
        put32(p + 0, h->resp.msg_id);
        put8(p + 4, h->resp.fail_type);
        put8(p + 5, h->resp.ptl_list);
        put8(p + 6, h->resp.flags);
        put8(p + 7, 0);
        put64(p + 8, h->resp.mlength);
        put64(p + 16, h->resp.remote_offset);
        p += PTL_WIRE_RLEN;
    }
    if (h->flags & PTL_WF_AUTH) {
        put64(p + 0, h->born);
        put64(p + 8, h->mac);
    }
}

uint64_t ptl_wire_mac(const uint64_t key[2], const uint8_t *frame,
                      uint8_t flags)
{
    const struct sipkey k = { key[0], key[1] };
    const uint8_t *p = frame + PTL_ETH_HLEN, zero[4] = { 0 };
    size_t n = ptl_wire_hlen(flags) - PTL_ETH_HLEN - 8;    /* to the MAC */
    struct siphash h;

    siphash_init(&h, &k);
    siphash_update(&h, p, 4);
    siphash_update(&h, zero, 4);            /* the checksum field */
    siphash_update(&h, p + 8, n - 8);
    return siphash_final(&h);
}

int ptl_wire_signed(const uint64_t key[2], const uint8_t *frame,
                    const struct ptl_whdr *h)
{
    return (h->flags & PTL_WF_AUTH) &&
           ptl_wire_mac(key, frame, h->flags) == h->mac;
}

void ptl_wire_encode_auth(uint8_t *out, struct ptl_whdr *h,
                          const uint64_t key[2], uint64_t born)
{
    h->flags |= PTL_WF_AUTH;
    h->born = born;
    h->mac = 0;
    ptl_wire_encode(out, h, 0);
    h->mac = ptl_wire_mac(key, out, h->flags);
    put64(out + ptl_wire_hlen(h->flags) - 8, h->mac);
}

static void decode(const uint8_t *p, struct ptl_whdr *h)
{
    h->version = p[0];
    h->type = p[1];
    h->flags = p[2];
    h->ack_req = p[3];
    h->csum = get32(p + 4);
    h->src_nid = get32(p + 8);
    h->src_pid = get32(p + 12);
    h->dst_nid = get32(p + 16);
    h->dst_pid = get32(p + 20);
    h->epoch = get32(p + 24);
    h->seq = get32(p + 28);
    h->ack = get32(p + 32);
    h->msg_id = get32(p + 36);
    h->pt_index = get32(p + 40);
    h->uid = get32(p + 44);
    h->jid = get32(p + 48);
    h->src_rank = get32(p + 52);
    h->match_bits = get64(p + 56);
    h->hdr_data = get64(p + 64);
    h->remote_offset = get64(p + 72);
    h->rlength = get64(p + 80);
    h->mlength = get64(p + 88);
    h->frag_off = get64(p + 96);
    h->frag_len = get32(p + 104);
    h->atomic_op = p[108];
    h->atomic_type = p[109];
    h->fail_type = p[110];
    h->ptl_list = p[111];
    h->dst_epoch = get32(p + 112);
    h->total = get32(p + 116);
    h->sack = h->type == PTL_W_LACK ? h->match_bits : 0;
}

static void decode_auth(const uint8_t *p, struct ptl_whdr *h)
{
    h->born = get64(p);
    h->mac = get64(p + 8);
}

static void decode_resp(const uint8_t *p, struct ptl_wresp *r)
{
    r->msg_id = get32(p + 0);
    r->fail_type = p[4];
    r->ptl_list = p[5];
    r->flags = p[6];
    r->mlength = get64(p + 8);
    r->remote_offset = get64(p + 16);
}

/* Checksum of a whole received frame, computed with its csum field as 0:
   the first word is bytes 0..3 and four zero bytes. */
static uint32_t frame_csum(const uint8_t *p, size_t plen)
{
    struct ptl_csum c;

    ptl_csum_init(&c, plen);
    c.h = csum_step(c.h, get32(p));
    ptl_csum_add(&c, p + 8, plen - 8);
    return ptl_csum_final(&c);
}

/* Fragment bounds are checked here once, so later code can trust them. */
static int check_lengths(const struct ptl_whdr *h, size_t plen)
{
    size_t hl = ptl_wire_hlen(h->flags) - PTL_ETH_HLEN;

    if (plen < hl || h->frag_len != plen - hl)
        return -1;
    /* A response record is delivered once: only in a sequenced frame. */
    if ((h->flags & PTL_WF_RESP) && !(h->flags & PTL_WF_SEQ))
        return -1;
    if (h->frag_off > h->total || h->total - h->frag_off < h->frag_len)
        return -1;
    if ((h->type == PTL_W_LACK || h->type == PTL_W_RESET) &&
        (h->frag_len != 0 || (h->flags & PTL_WF_SEQ)))
        return -1;
    if (h->type == PTL_W_NOP && (h->frag_len != 0 || !(h->flags & PTL_WF_SEQ)))
        return -1;
    if ((h->flags & (PTL_WF_GAP | PTL_WF_RNR)) && h->type != PTL_W_LACK)
        return -1;
    /* An ACK flag we do not know would be misread: refuse it. */
    if (h->type == PTL_W_ACK && (h->ack_req & ~PTL_WACK_DISABLED))
        return -1;
    /* SACK bit 0 would be the frame the ACK says is still missing. */
    if (h->sack & 1)
        return -1;
    return 0;
}

int ptl_wire_parse(const void *frame, size_t len, struct ptl_whdr *h,
                   const uint8_t **payload, int skip_csum)
{
    const uint8_t *f = frame;
    const uint8_t *p = f + PTL_ETH_HLEN;
    size_t plen;

    if (len < PTL_ETH_HLEN + 12 || len > PTL_ETH_HLEN + PTL_MTU_MAX)
        return -1;
    if (f[12] != (PTL_ETHERTYPE >> 8) || f[13] != (PTL_ETHERTYPE & 0xff))
        return -1;
    /* Every version so far starts version, type, flags, ack_req, csum,
     * src_nid: enough to say who speaks what (PROTOCOL.md, section 7). */
    if (p[0] != PTL_WIRE_VERSION) {
        h->version = p[0];
        h->src_nid = get32(p + 8);
        return PTL_WIRE_EVERSION;
    }
    if (len < PTL_FRAME_HLEN)
        return -1;
    plen = len - PTL_ETH_HLEN;
    decode(p, h);
    if (h->type == 0 || h->type >= PTL_W_TYPE_LAST)
        return -1;
    if (check_lengths(h, plen) != 0)
        return -1;
    if (!skip_csum && frame_csum(p, plen) != h->csum)
        return -1;
    if (h->flags & PTL_WF_RESP) {
        decode_resp(p + PTL_WIRE_HLEN, &h->resp);
        if (h->resp.flags & ~PTL_WACK_DISABLED)
            return -1;
    }
    h->born = h->mac = 0;
    if (h->flags & PTL_WF_AUTH)
        decode_auth(f + ptl_wire_hlen(h->flags) - PTL_WIRE_ALEN, h);
    *payload = f + ptl_wire_hlen(h->flags);
    return 0;
}

int ptl_wire_check_csum(const void *frame, size_t len,
                        const struct ptl_whdr *h)
{
    const uint8_t *p = (const uint8_t *)frame + PTL_ETH_HLEN;

    return frame_csum(p, len - PTL_ETH_HLEN) == h->csum ? 0 : -1;
}

size_t ptl_wire_reset(const struct ptl_whdr *h, uint8_t *out,
                      const uint64_t *key)
{
    /* From the incarnation that is gone, to the one that sent h; its
     * `born` is not known (0), and not needed: a RESET only ever ends
     * the incarnation it names. */
    struct ptl_whdr r = { .type = PTL_W_RESET,
                          .src_nid = h->dst_nid, .src_pid = h->dst_pid,
                          .dst_nid = h->src_nid, .dst_pid = h->src_pid,
                          .epoch = h->dst_epoch, .dst_epoch = h->epoch };
    size_t len;

    if (h->dst_epoch == 0 || h->type == PTL_W_LACK || h->type == PTL_W_RESET)
        return 0;
    if (key != NULL)
        ptl_wire_encode_auth(out, &r, key, 0);
    else
        ptl_wire_encode(out, &r, 0);
    len = ptl_wire_hlen(r.flags);
    put32(out + PTL_ETH_HLEN + 4, frame_csum(out + PTL_ETH_HLEN,
                                             len - PTL_ETH_HLEN));
    return len;
}
