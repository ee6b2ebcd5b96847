/* SPDX-License-Identifier: MIT */
/*
 * recover.c: the sender's half of the reliable layer (PROTOCOL.md,
 * section 3): what an acknowledgement teaches, which frames are lost,
 * how many may be in flight, and the retransmission timer.
 *
 * - Cumulative ACKs free window slots; a LACK's SACK bitmap marks frames
 *   the receiver took beyond a gap, which are never resent.
 * - A frame is lost once a frame sent at least REORDER transmissions
 *   after it is known to have arrived (SACKed or cumulatively ACKed):
 *   only it is resent, and again if its resend is lost the same way.
 * - A GAP LACK that teaches nothing new (the frames beyond the gap could
 *   not be taken: another message's, or a first fragment) counts; two in
 *   a row resend every unsacked frame from the oldest, once per window.
 *   The immediate LACK of a duplicate carries no GAP and never counts.
 * - AIMD: the window halves once per loss episode, grows by one frame a
 *   round (by what was acknowledged below ssthresh), never beyond the
 *   configured window; a timeout drops it to 2.
 * - A round-trip sample is taken at a frame's first acknowledgement,
 *   SACK or cumulative, never for a resent frame (Karn).
 * - Tail-loss probe: losses are seen only through frames that arrive
 *   after them, so the last frames of a message (a whole message of a few
 *   frames) have nothing behind them, and their loss used to cost the
 *   full RTO (at least 20 ms, against a round trip of a few hundred us).
 *   Once a probe timeout (about two round trips, more than the
 *   receiver's ACK delay, at least 5 ms) passes without progress, the newest unacked
 *   frame is sent again, once: if it was lost it is now there; if earlier
 *   ones were, its arrival beyond the gap draws a LACK whose SACK bits
 *   resend them at once.  Only then does the RTO run.
 */
#include "ptl_internal.h"

#define REORDER 2           /* transmissions later before "lost" */
#define TX_RETRY_NS 100000  /* a frame the host could not take: again */

static bool seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

static bool in_recovery(const struct ptl_peer *p)
{
    return seq_lt(p->tx_acked, p->recover);
}

/* RFC 6298 (2.3): SRTT + 4 RTTVAR, within [rto_ns, rto_max_ns]. */
static uint64_t rto_of(const struct ptl_lib *lib, const struct ptl_peer *p)
{
    uint64_t rto = p->srtt + 4 * p->rttvar;

    if (rto < lib->p.rto_ns)
        rto = lib->p.rto_ns;
    return rto > lib->p.rto_max_ns ? lib->p.rto_max_ns : rto;
}

/* A round-trip sample r (ns).  A fixed 20 ms timeout is shorter than the
 * round trip to a node whose host deschedules it for tens of ms (or that
 * is simply far), and then nearly every retransmission is spurious and
 * every one is a duplicate at the receiver.  Jacobson/Karels: srtt +=
 * (r - srtt) / 8, rttvar += (|r - srtt| - rttvar) / 4, RTO = srtt + 4
 * rttvar, never below the floor rto_ns (a fast link keeps the
 * timer it had) nor above rto_max. */
static void rtt_sample(struct ptl_lib *lib, struct ptl_peer *p, uint64_t r)
{
    struct ptl_rtt_hint *hint;
    uint64_t err;

    if (p->srtt == 0) {
        p->srtt = r ? r : 1;
        p->rttvar = r / 2;
    } else {
        err = r > p->srtt ? r - p->srtt : p->srtt - r;
        p->rttvar = p->rttvar - p->rttvar / 4 + err / 4;
        p->srtt = p->srtt - p->srtt / 8 + r / 8;
    }
    p->rto_base = rto_of(lib, p);
    hint = &lib->rtt_hint[p->nid % PTL_RTT_HINTS];
    hint->nid = p->nid;
    hint->srtt = p->srtt;
    hint->rttvar = p->rttvar;
}

/* RFC 2140: a process's peers on one node share its path, so a new peer
 * starts from the round trip last measured to that node, if any.  At
 * rto_init_ns (1 s), yod's first frames to a rank that lived a moment
 * were resent after the rank had gone, each a frame for no process
 * (suite-jobs.no-lost-frames); yod had measured the path to that node's
 * PCT long before. */
void ptl_rel_rtt_start(struct ptl_lib *lib, struct ptl_peer *p)
{
    const struct ptl_rtt_hint *hint = &lib->rtt_hint[p->nid % PTL_RTT_HINTS];

    p->srtt = p->rttvar = 0;
    p->rto = p->rto_base = lib->p.rto_init_ns;
    if (hint->srtt == 0 || hint->nid != p->nid)
        return;
    p->srtt = hint->srtt;
    p->rttvar = hint->rttvar;
    p->rto = p->rto_base = rto_of(lib, p);
}

/* What one newly acknowledged slot teaches: its send time if it was sent
 * once (the newest such gives the RTT sample), and that everything sent
 * before it had its chance to arrive. */
static void learn(struct ptl_peer *p, const struct ptl_txslot *s,
                  uint64_t *sent)
{
    if (s->sent != PTL_SENT_AGAIN && (*sent == PTL_SENT_AGAIN ||
                                      s->sent > *sent))
        *sent = s->sent;
    if ((int32_t)(s->order - p->delivered_order) > 0)
        p->delivered_order = s->order;
    if (seq_lt(p->rx_confirmed, s->acks))
        p->rx_confirmed = s->acks;      /* the frame carried our ACK */
}

/* Slots below ack are delivered: free them.  Returns how many that were
 * not already known (sacked). */
static uint32_t cumulative(struct ptl_lib *lib, struct ptl_peer *p,
                           uint32_t ack, uint64_t *sent)
{
    uint32_t news = 0;

    while (seq_lt(p->tx_acked, ack)) {
        struct ptl_txslot *s = &p->win[p->tx_acked % lib->p.window];
        struct ptl_msg *m = s->msg;

        if (s->sacked) {
            s->sacked = false;
            p->nsacked--;
        } else if (m != NULL) {
            learn(p, s, sent);
            news++;
        }
        s->msg = NULL;
        if (s->resp != NULL) {
            ptl_msg_sent(lib, s->resp);
            s->resp = NULL;
        }
        p->tx_acked++;
        if (m != NULL && --m->frames_unacked == 0 && m->state == PTL_M_SENT)
            ptl_msg_sent(lib, m);
    }
    if (seq_lt(p->high_sack, p->tx_acked))
        p->high_sack = p->tx_acked;
    if (seq_lt(p->tx_resend, p->tx_acked))
        p->tx_resend = p->tx_acked;
    return news;
}

/* Mark what a LACK's bitmap says arrived beyond the gap at p->tx_acked
 * (= its ack, after cumulative()).  Returns how many were news. */
static uint32_t selective(struct ptl_lib *lib, struct ptl_peer *p,
                          uint64_t bits, uint64_t *sent)
{
    uint32_t news = 0;

    for (uint32_t i = 1; i < 64 && (bits >> i) != 0; i++) {
        uint32_t seq = p->tx_acked + i;
        struct ptl_txslot *s;

        if (!(bits >> i & 1) || !seq_lt(seq, p->tx_next))
            continue;
        s = &p->win[seq % lib->p.window];
        if (s->msg == NULL || s->sacked)
            continue;
        s->sacked = true;
        p->nsacked++;
        learn(p, s, sent);
        if (!seq_lt(seq, p->high_sack))
            p->high_sack = seq + 1;
        news++;
    }
    return news;
}

/* A loss: halve the window, once per episode (until what was in flight
 * when it began is acknowledged). */
static void cut(struct ptl_peer *p, uint32_t to)
{
    if (in_recovery(p))
        return;
    p->recover = p->tx_next;
    p->ssthresh = p->cwnd / 2 < 2 ? 2 : p->cwnd / 2;
    p->cwnd = to < p->ssthresh ? to : p->ssthresh;
    p->cwnd_acc = 0;
}

/* Additive increase: +1 frame per window acknowledged above ssthresh,
 * slow start below it; never while recovering. */
static void grow(struct ptl_lib *lib, struct ptl_peer *p, uint32_t news)
{
    if (in_recovery(p))
        return;
    if (p->cwnd < p->ssthresh) {
        p->cwnd += news;
    } else if ((p->cwnd_acc += news) >= p->cwnd) {
        p->cwnd_acc -= p->cwnd;
        p->cwnd++;
    }
    if (p->cwnd > lib->p.window)
        p->cwnd = lib->p.window;
}

/* Resend the holes below the newest sacked frame whose last send is
 * REORDER transmissions older than something known to have arrived. */
static void resend_lost(struct ptl_lib *lib, struct ptl_peer *p)
{
    for (uint32_t seq = p->tx_acked; seq_lt(seq, p->high_sack); seq++) {
        struct ptl_txslot *s = &p->win[seq % lib->p.window];

        if (s->msg == NULL || s->sacked ||
            (int32_t)(p->delivered_order - s->order) < REORDER)
            continue;
        cut(p, UINT32_MAX);
        ptl_rel_resend(lib, p, s);
    }
}

/* A GAP LACK that taught nothing: the frames beyond the gap were not
 * taken, so everything unsacked from the oldest goes again. */
static void gap_without_news(struct ptl_peer *p)
{
    if (p->tx_acked == p->tx_next || in_recovery(p) || ++p->dupacks < 2)
        return;
    p->dupacks = 0;
    cut(p, UINT32_MAX);
    p->tx_resend = p->tx_acked;
}

/* The peer refused our frame tx_acked for want of a message slot and
 * took nothing after it (an RNR LACK): it is alive, so it is never given
 * up for this; its responses' slots free up as our responses reach it,
 * so take back what we framed from there (our responses go first), and
 * send it requests again after a pause, doubled while it refuses. */
static void not_ready(struct ptl_lib *lib, struct ptl_peer *p)
{
    uint64_t w = p->rnr_wait ? 2 * p->rnr_wait : p->rto_base / 4;

    p->retries = 0;
    p->rnr_wait = w < lib->p.rto_max_ns ? w : lib->p.rto_max_ns;
    p->rnr_until = ptl_now(lib) + p->rnr_wait;
    if (p->nsacked == 0)
        ptl_rel_unframe(lib, p);
    p->probe = false;
    p->deadline = p->tx_acked != p->tx_next ? ptl_now(lib) + p->rto : 0;
}

void ptl_rel_ack(struct ptl_lib *lib, struct ptl_peer *p,
                 const struct ptl_whdr *h)
{
    uint64_t sent = PTL_SENT_AGAIN;
    uint32_t before = p->tx_acked, news;

    /* Valid acks lie in [tx_acked, tx_next]; anything else is stale or
     * forged (a fuzzer found that a far-away ack must not walk the
     * window round). */
    if (h->ack - p->tx_acked > p->tx_next - p->tx_acked)
        return;
    news = cumulative(lib, p, h->ack, &sent);
    if (h->type == PTL_W_LACK)
        news += selective(lib, p, h->sack, &sent);
    if (sent != PTL_SENT_AGAIN)
        rtt_sample(lib, p, ptl_now(lib) - sent);
    if (news != 0) {
        grow(lib, p, news);
        p->dupacks = 0;
        p->retries = 0;
    } else if (h->flags & PTL_WF_GAP) {
        gap_without_news(p);
    }
    if (p->tx_acked != before) {
        p->rto = p->rto_base;
        p->rnr_wait = 0;
        if (p->tx_acked != p->tx_next)
            ptl_rel_arm(lib, p);
        else
            p->deadline = 0;
    }
    if ((h->flags & PTL_WF_RNR) && p->tx_acked != p->tx_next)
        not_ready(lib, p);
    resend_lost(lib, p);
    ptl_rel_push(lib, p);
}

/* Fail everything bound for or waiting on p (unreachable or restarted). */
void ptl_rel_drop_peer_msgs(struct ptl_lib *lib, struct ptl_peer *p)
{
    for (uint32_t s = p->tx_acked; s != p->tx_next; s++) {
        p->win[s % lib->p.window].msg = NULL;
        p->win[s % lib->p.window].resp = NULL;
        p->win[s % lib->p.window].sacked = false;
    }
    p->nsacked = 0;
    p->held = p->held_tail = NULL;      /* failed with the rest below */
    p->tx_acked = p->tx_resend = p->high_sack = p->tx_next;
    for (uint32_t i = 0; i < lib->msgs.count; i++) {
        struct ptl_msg *m = ptl_pool_at(&lib->msgs, i);
        if (m->state != PTL_M_FREE && m->peer == p)
            ptl_msg_fail(lib, m, PTL_NI_UNDELIVERABLE);
    }
    p->sq = p->sq_tail = NULL;
    if (p->rx.active && p->rx.uh != NULL)
        ptl_uh_abort(lib, p->rx.pt, p->rx.uh);
    if (p->rx.active && p->rx.me != NULL) {
        p->rx.me->busy--;
        ptl_me_release(lib, p->rx.me);
    }
    if (p->rx.active && p->rx.resp != NULL && p->rx.resp->state != PTL_M_FREE)
        ptl_msg_free(lib, p->rx.resp);
    p->rx.active = false;
}

/* The probe timeout: about two round trips, and at least one plus the
 * ACK delay (a receiver that owes an ACK waits that long for a reply to
 * carry it), never under a quarter of the initial RTO (5 ms by default):
 * the peer's ACK delay may be longer than ours (a node holds its ACKs up
 * to 2 ms, Linux 20 us), and a probe that beats it is a frame sent twice,
 * to a process that may have exited meanwhile (suite-jobs counts those).
 * 0 (no probe) before the first RTT sample or when it would not come
 * before the RTO. */
static uint64_t probe_timeout(const struct ptl_lib *lib,
                              const struct ptl_peer *p)
{
    uint64_t pto = 2 * p->srtt;

    if (p->srtt == 0)
        return 0;
    if (pto < p->srtt + lib->p.ack_delay_ns)
        pto = p->srtt + lib->p.ack_delay_ns;
    if (pto < lib->p.rto_ns / 4)
        pto = lib->p.rto_ns / 4;
    return pto < p->rto ? pto : 0;
}

/* Frames are in flight and the oldest made progress (or went first):
 * the probe first, then the RTO. */
void ptl_rel_arm(struct ptl_lib *lib, struct ptl_peer *p)
{
    uint64_t pto = probe_timeout(lib, p);

    p->probe = pto != 0;
    p->deadline = ptl_now(lib) + (pto != 0 ? pto : p->rto);
}

/* The probe timeout passed: send the newest frame not known to have
 * arrived again (once), and let the RTO run from now. */
static void probe(struct ptl_lib *lib, struct ptl_peer *p, uint64_t now)
{
    p->probe = false;
    p->deadline = now + p->rto;
    for (uint32_t seq = p->tx_next; seq != p->tx_acked; ) {
        struct ptl_txslot *s = &p->win[--seq % lib->p.window];

        if (s->msg != NULL && !s->sacked) {
            ptl_rel_resend(lib, p, s);
            lib->st.tx_probes++;
            return;
        }
    }
}

/* The oldest frame timed out: resend every unsacked frame from it, two
 * at a time at first (a switch port that just dropped a burst would drop
 * a full-window resend too), and double the timeout. */
/* Frames the host could not take (its loop queue or ring was full)
 * never left: that is back-pressure here, not silence there, for as many
 * seconds as there are retries (a host that never takes one again, a
 * switch gone, is then blamed as a silent peer would be). */
static bool held_here(const struct ptl_lib *lib, const struct ptl_peer *p,
                      uint64_t now)
{
    return p->stalled_since != 0 &&
           now - p->stalled_since < lib->p.max_retries * 1000000000ull;
}

static void retransmit(struct ptl_lib *lib, struct ptl_peer *p, uint64_t now)
{
    if (!held_here(lib, p, now) && ++p->retries > lib->p.max_retries) {
        ptl_rel_drop_peer_msgs(lib, p);
        p->dead = true;
        p->deadline = 0;
        return;
    }
    p->recover = p->tx_acked;           /* a new episode */
    cut(p, 2);
    p->tx_resend = p->tx_acked;
    ptl_rel_push(lib, p);
    p->rto = p->rto * 2 < lib->p.rto_max_ns ? p->rto * 2 : lib->p.rto_max_ns;
    p->deadline = now + p->rto;
}

void ptl_lib_progress(struct ptl_lib *lib)
{
    uint64_t now = ptl_now(lib);

    ptl_trig_retry(lib);            /* ct.c: fired, waiting for a slot */

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (p->tx_acked != p->tx_next && now >= p->deadline) {
            if (p->probe)
                probe(lib, p, now);
            else
                retransmit(lib, p, now);
        }
        p->tx_stalled = false;          /* the host may take them now */
        if (p->held != NULL && now >= p->held_due)
            ptl_rel_release_held(lib, p);
        if (p->ack_owed && now >= p->ack_due)
            ptl_rel_send_lack(lib, p);
        ptl_rel_push(lib, p);
    }
}

uint64_t ptl_lib_deadline(struct ptl_lib *lib)
{
    uint64_t d = UINT64_MAX, now = ptl_now(lib);

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (p->ack_owed && p->ack_due < d)
            d = p->ack_due;
        if (p->held != NULL && p->held_due < d)
            d = p->held_due;
        if (p->tx_acked != p->tx_next && p->deadline < d)
            d = p->deadline;
        if (p->sq != NULL && p->rnr_until > now && p->rnr_until < d)
            d = p->rnr_until;
        if (p->tx_stalled && now + TX_RETRY_NS < d)
            d = now + TX_RETRY_NS;
    }
    return d;
}

bool ptl_lib_sending(struct ptl_lib *lib)
{
    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (!p->dead && (p->sq || p->held || p->tx_acked != p->tx_next))
            return true;
    }
    return false;
}

bool ptl_lib_busy(struct ptl_lib *lib)
{
    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (!p->dead && p->ack_owed)
            return true;
    }
    return ptl_lib_sending(lib);
}
