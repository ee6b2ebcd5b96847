/* SPDX-License-Identifier: MIT */
/*
 * peer.c: the table of peers, one per process we exchange frames with
 * (nid, pid): found by hash, created on first use with its window of
 * frame slots, and reset to a fresh connection's state (a new epoch, or
 * a peer given up, rel.c and recover.c); and, as a process leaves, the
 * peers that may still need our last ACK.
 */
#include "ptl_internal.h"

static uint32_t peer_hash(struct ptl_lib *lib, uint32_t nid, uint32_t pid)
{
    return (nid * 2654435761u ^ pid * 40503u) % lib->phash_size;
}

void ptl_rel_peer_reset(struct ptl_lib *lib, struct ptl_peer *p)
{
    p->tx_next = p->tx_acked = p->tx_resend = p->rx_next = 0;
    p->rx_confirmed = 0;
    p->rx_last = 0;
    p->high_sack = p->recover = p->nsacked = 0;
    p->tx_order = p->delivered_order = 0;
    p->cwnd = p->ssthresh = lib->p.window;
    p->cwnd_acc = p->dupacks = 0;
    p->ack_owed = p->ack_waited = p->dead = p->ack_gap = false;
    p->ack_rnr = p->rx_refused = p->tx_stalled = false;
    p->rnr_until = p->rnr_wait = p->stalled_since = 0;
    p->interleaved = false;
    p->rx_sack = 0;
    p->unacked_rx = p->retries = 0;
    ptl_rel_rtt_start(lib, p);
    p->deadline = 0;
    p->probe = false;
    p->held = p->held_tail = NULL;
}

struct ptl_peer *ptl_peer_find(struct ptl_lib *lib, uint32_t nid,
                               uint32_t pid, bool create)
{
    uint32_t hv = peer_hash(lib, nid, pid);
    struct ptl_peer *p;

    for (p = lib->phash[hv]; p != NULL; p = p->hnext)
        if (p->nid == nid && p->pid == pid)
            return p;
    if (!create || (p = ptl_pool_get(&lib->peers)) == NULL)
        return NULL;
    p->used = true;
    p->nid = nid;
    p->pid = pid;
    p->win = lib->wins + (size_t)ptl_pool_idx(&lib->peers, p) * lib->p.window;
    ptl_memzero(p->win, sizeof(*p->win) * lib->p.window);
    ptl_rel_peer_reset(lib, p);
    p->hnext = lib->phash[hv];
    lib->phash[hv] = p;
    p->lnext = lib->peer_list;
    lib->peer_list = p;
    return p;
}

/* The last frame of an exchange is the peer's (an answer), and our link
 * ACK of it may be lost: the peer then resends it to a process that is
 * gone, for max_retries timeouts, and reports it undelivered.  Waiting
 * (TIME_WAIT-like) a few of its RTOs to ACK the resend cost every
 * process seconds at exit on a loaded host.  Instead, as we leave
 * (PtlNIFini), each peer that may still resend (it sent us a frame
 * within two of its RTOs, and no frame of ours it acknowledged carried
 * our ACK of it) gets a NOP: a sequenced frame carrying nothing but our
 * cumulative ACK.  Its link ACK of the NOP proves it holds ours; the
 * last frame is then its unsequenced LACK, which needs no answer, and
 * if that is lost our NOP is resent while we are still here.  Peers
 * quiet longer got our ACK or are gone (an exited rank's node answers
 * a NOP with RESET: it is not sent to them).  Returns the longest RTO
 * measured to a peer sent a NOP (one never measured counts as the
 * floor), 0 if none was: five of it bound the wait, so a process whose
 * peer has gone never waits longer than the old linger did. */
uint64_t ptl_peer_confirm_acks(struct ptl_lib *lib)
{
    uint64_t now = ptl_now(lib), rto = 0, r;

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        struct ptl_msg *m;

        if (p->dead || p->rx_confirmed == p->rx_next ||
            now - p->rx_last > 2 * p->rto_base ||
            (m = ptl_msg_alloc(lib, true, false)) == NULL)
            continue;
        ptl_memzero(&m->hdr, sizeof(m->hdr));
        m->hdr.type = PTL_W_NOP;
        m->is_response = true;          /* freed once acknowledged */
        m->peer = p;
        m->len = 0;
        m->data = m->inline_data;
        m->data_app = false;
        ptl_rel_send(lib, m);
        if ((r = p->srtt ? p->rto_base : lib->p.rto_ns) > rto)
            rto = r;
    }
    return rto;
}
