/* SPDX-License-Identifier: MIT */
/*
 * receive.c: the receiving half of the reliable layer (PROTOCOL.md,
 * section 3): frames are taken in sequence order; beyond a gap only a
 * middle fragment of the PUT or REPLY being reassembled, which lands at
 * its offset (zero copy) and is reported in the LACK's SACK bitmap; the
 * LACK goes at once, with GAP, when a new frame arrives beyond a gap.
 * Also incarnations (RESET) and the entry points ptl_lib_rx*.
 */
#include "ptl_internal.h"

/* A frame from a new incarnation of the peer: forget the old one. */
static void check_epoch(struct ptl_lib *lib, struct ptl_peer *p,
                        const struct ptl_whdr *h)
{
    if (p->epoch == h->epoch)
        return;
    if (p->epoch != 0) {
        ptl_rel_drop_peer_msgs(lib, p);
        ptl_rel_peer_reset(lib, p);
    }
    p->epoch = h->epoch;
}

/* Every sequenced frame received owes its sender an ACK: note when (the
 * peers a leaving process confirms its ACKs to, peer.c), and when it is
 * due, from one reading of the clock. */
static void ack_soon(struct ptl_lib *lib, struct ptl_peer *p, uint64_t delay)
{
    uint64_t now = ptl_now(lib), due = now + delay;

    p->rx_last = now;

    if (!p->ack_owed || due < p->ack_due)
        p->ack_due = due;
    p->ack_owed = true;
}

static void rx_carried_ack(struct ptl_lib *lib, struct ptl_peer *p,
                           const struct ptl_wresp *r)
{
    struct ptl_whdr a;

    ptl_memzero(&a, sizeof(a));
    a.type = PTL_W_ACK;
    a.msg_id = r->msg_id;
    a.fail_type = r->fail_type;
    a.ptl_list = r->ptl_list;
    a.ack_req = r->flags;
    a.mlength = r->mlength;
    a.remote_offset = r->remote_offset;
    ptl_ini_rx(lib, p, &a, NULL);
}

static bool deliver(struct ptl_lib *lib, struct ptl_peer *p,
                    const struct ptl_whdr *h, const uint8_t *data)
{
    if (h->type == PTL_W_NOP)
        return true;            /* its sequence number was all it brought */
    if (h->type == PTL_W_ACK || h->type == PTL_W_REPLY)
        return ptl_ini_rx(lib, p, h, data);
    return ptl_tgt_rx(lib, p, h, data);
}

/* May a frame beyond a gap be taken now?  Only a middle fragment of the
 * PUT this peer is streaming to us (its first fragment matched already)
 * or of a REPLY: all it does is land its bytes at their offset, which
 * the frames in front of it neither change nor depend on.  A first or
 * last fragment, a frame carrying an ACK or another message's frame
 * waits to be resent in order. */
static bool early_ok(const struct ptl_peer *p, const struct ptl_whdr *h)
{
    if ((h->flags & PTL_WF_RESP) || h->frag_off == 0 ||
        h->frag_off + h->frag_len >= h->total)
        return false;
    if (h->type == PTL_W_REPLY)
        return true;
    return h->type == PTL_W_PUT && p->rx.active &&
           p->rx.first.msg_id == h->msg_id && p->rx.first.type == PTL_W_PUT;
}

/* A frame d sequence numbers beyond the next expected one: take it if
 * early_ok (the SACK bitmap says so), and answer at once with a GAP LACK
 * (a loss signal: recover.c).  A frame taken already is a duplicate. */
static void rx_beyond_gap(struct ptl_lib *lib, struct ptl_peer *p,
                          const struct ptl_whdr *h, const uint8_t *data,
                          uint32_t d)
{
    ack_soon(lib, p, 0);
    if (d < 64 && (p->rx_sack >> d & 1)) {
        lib->st.rx_dup++;
        return;
    }
    lib->st.rx_ooo++;
    p->ack_gap = true;
    if (d >= 64 || p->rx_refused || !early_ok(p, h) ||
        !deliver(lib, p, h, data))
        return;
    p->rx_sack |= 1ull << d;
    lib->st.rx_early++;
}

/* A request refused for want of a message slot (for its response): say
 * so at once (RNR) if nothing beyond it was taken, and take nothing
 * beyond it until it comes again.  Its sender then takes back the frames
 * from it, sends its responses first (they free slots here) and the
 * requests after a pause, and knows we are alive: a busy target is never
 * given up as unreachable.  With frames taken beyond it the sender could
 * not renumber them, so it resends as after a loss. */
static void refused(struct ptl_lib *lib, struct ptl_peer *p)
{
    if (p->rx_sack != 0)
        return;
    p->rx_refused = true;
    p->ack_rnr = true;
    ack_soon(lib, p, 0);
}

static void rx_sequenced(struct ptl_lib *lib, struct ptl_peer *p,
                         const struct ptl_whdr *h, const uint8_t *data)
{
    int32_t d = (int32_t)(h->seq - p->rx_next);
    uint64_t sack = p->rx_sack;

    if (d < 0) {
        /* A duplicate: tell the sender where we are (no GAP: nothing new
         * was lost). */
        lib->st.rx_dup++;
        ack_soon(lib, p, 0);
        return;
    }
    if (d > 0) {
        rx_beyond_gap(lib, p, h, data, (uint32_t)d);
        return;
    }
    /* Delay the ACK a little: a reply usually carries it for free. */
    ack_soon(lib, p, lib->p.ack_delay_ns);
    if (h->type != PTL_W_ACK)
        p->ack_waited = true;
    /* An ACK riding along was sent before this frame's own message: it
     * comes first.  If the message is refused below, the frame comes
     * again and so does the ACK: ptl_ini_rx ignores a second one. */
    if (h->flags & PTL_WF_RESP)
        rx_carried_ack(lib, p, &h->resp);
    /* Count it received before handling, so a response it triggers
     * already acknowledges it (the initiator then sees SEND first). */
    p->rx_next++;
    p->rx_sack >>= 1;
    if (!deliver(lib, p, h, data)) {
        p->rx_next--;
        p->rx_sack = sack;
        lib->st.rx_notready++;
        refused(lib, p);
        return;
    }
    p->rx_refused = false;
    /* The gap is filled: skip what was taken beyond it, and say so now
     * (the sender is recovering). */
    if (p->rx_sack & 1) {
        while (p->rx_sack & 1) {
            p->rx_next++;
            p->rx_sack >>= 1;
        }
        ack_soon(lib, p, 0);
    }
    /* Ack at least every quarter window even while frames keep coming.
     * Holding ACKs, wait for half: a peer whose ACK went alone sends two
     * frames per message (ACK, then its message), and acking every two
     * frames (VDE's window of 8) would send ours alone in turn, for ever. */
    if (++p->unacked_rx >= lib->p.window / (p->held ? 2 : 4)) {
        ptl_rel_release_held(lib, p);
        if (p->ack_owed)
            ptl_rel_send_lack(lib, p);
    }
}

/* A frame for an earlier incarnation of ours: tell its sender that one is
 * gone, so it stops resending (PROTOCOL.md, "Incarnations"). */
static void send_reset(struct ptl_lib *lib, const struct ptl_whdr *h,
                       bool signed_ok)
{
    uint8_t f[PTL_FRAME_HMAX];
    struct ptl_iov iov = { f, ptl_wire_reset(h, f, signed_ok ?
                                             lib->p.auth_key : NULL), false };

    if (iov.len == 0)
        return;
    lib->ops->tx(lib->ctx, &iov, 1);
    lib->st.tx_resets++;
}

/* The incarnation of the peer we knew is gone: what we still had for it
 * fails at once (PTL_NI_UNDELIVERABLE) instead of after max_retries
 * timeouts, and the peer starts afresh, its next incarnation unknown.  A
 * RESET about another incarnation than the one we know is stale. */
static void rx_reset(struct ptl_lib *lib, const struct ptl_whdr *h)
{
    struct ptl_peer *p = ptl_peer_find(lib, h->src_nid, h->src_pid, false);

    if (p == NULL || p->epoch != h->epoch)
        return;
    lib->st.rx_resets++;
    ptl_rel_drop_peer_msgs(lib, p);
    ptl_rel_peer_reset(lib, p);
    p->epoch = 0;
}

void ptl_lib_rx(struct ptl_lib *lib, const void *frame, size_t len)
{
    struct ptl_whdr h;
    const uint8_t *data;

    switch (ptl_wire_parse(frame, len, &h, &data, 1)) {
    case 0:
        break;
    case PTL_WIRE_EVERSION:
        lib->st.rx_version++;   /* the host names it (kernel, host.c) */
        return;
    default:
        lib->st.rx_bad++;
        return;
    }
    ptl_lib_rx_parsed(lib, frame, len, &h, data);
}

/* Who may change what a peer owns here (PROTOCOL.md 2.3): with the
 * cluster's key, a frame that carries a MAC must carry the right one;
 * once a peer's frames came signed, only signed frames from its address
 * count (a station that claims the address without the key can neither
 * reset, acknowledge, nor feed that peer's link), and an incarnation
 * that began before the one known is a recording played back.  A lib
 * without the key takes every frame, as does a keyed one from peers
 * that never signed (stations without the secret may still ask a PCT
 * for its STATUS).  True if h is signed, false if it is not; the frame
 * is refused (counted) by setting *refuse. */
static bool authenticate(struct ptl_lib *lib, const void *frame,
                         const struct ptl_whdr *h, bool *refuse)
{
    struct ptl_peer *p = ptl_peer_find(lib, h->src_nid, h->src_pid, false);
    bool signed_ok = lib->p.auth &&
                     ptl_wire_signed(lib->p.auth_key, frame, h);

    *refuse = (lib->p.auth && (h->flags & PTL_WF_AUTH) && !signed_ok) ||
              (p != NULL && p->authed &&
               (!signed_ok || (h->type != PTL_W_RESET &&
                               h->epoch != p->epoch && h->born <= p->born)));
    if (*refuse)
        lib->st.rx_forged++;
    return signed_ok;
}

void ptl_lib_rx_parsed(struct ptl_lib *lib, const void *frame, size_t len,
                       const struct ptl_whdr *h, const uint8_t *data)
{
    struct ptl_peer *p;
    bool refuse, signed_ok;

    if (!lib->p.no_checksum && ptl_wire_check_csum(frame, len, h) != 0) {
        lib->st.rx_bad++;
        return;
    }
    if (h->dst_nid != lib->p.nid || h->dst_pid != lib->p.pid ||
        h->epoch == 0) {
        lib->st.rx_misaddressed++;
        return;
    }
    signed_ok = authenticate(lib, frame, h, &refuse);
    if (refuse)
        return;
    if (h->dst_epoch != 0 && h->dst_epoch != lib->p.epoch) {
        lib->st.rx_misaddressed++;
        send_reset(lib, h, signed_ok);
        return;
    }
    if (h->type == PTL_W_RESET) {
        rx_reset(lib, h);
        return;
    }
    if ((p = ptl_peer_find(lib, h->src_nid, h->src_pid, true)) == NULL) {
        lib->st.drops++;
        return;
    }
    lib->st.rx_frames++;
    check_epoch(lib, p, h);
    if (signed_ok) {
        p->authed = true;
        p->born = h->born;
    }
    ptl_rel_ack(lib, p, h);
    if (h->flags & PTL_WF_SEQ)
        rx_sequenced(lib, p, h, data);
}
