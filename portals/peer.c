/* SPDX-License-Identifier: MIT */
/*
 * peer.c: the table of peers, one per process we exchange frames with
 * (nid, pid): found by hash, created on first use with its window of
 * frame slots, and reset to a fresh connection's state (a new epoch, or
 * a peer given up, rel.c and recover.c).
 */
#include "ptl_internal.h"

static uint32_t peer_hash(struct ptl_lib *lib, uint32_t nid, uint32_t pid)
{
    return (nid * 2654435761u ^ pid * 40503u) % lib->phash_size;
}

void ptl_rel_peer_reset(struct ptl_lib *lib, struct ptl_peer *p)
{
    p->tx_next = p->tx_acked = p->tx_resend = p->rx_next = 0;
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
