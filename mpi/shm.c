/* SPDX-License-Identifier: MIT */
/*
 * shm.c: the memory of the ranks of one node, and single-copy messages
 * between them (shm.h).
 *
 * Who: on a compute node the kernel tells a process its SMARTMAP group
 * (<lwk/smartmap.h>): the Portals pid in each slot.  A world rank whose
 * job-map entry has this node's nid and one of those pids is in that
 * slot, and its address p is here at lwk_smartmap_addr(slot, p).
 *
 * Single copy: a message of at least LWK_MPI_SINGLE_COPY bytes (default
 * SINGLE_COPY_MIN) to a peer goes as a long message whose put carries no
 * data, only the header: match bits with MB_LONG, hdr_data with H_SHM,
 * the length and the key, and as the put's remote offset the address of
 * a descriptor in the sender's memory (its buffer, its length, a state
 * word).  A put of no bytes moves nothing at that offset: Portals only
 * carries the number to the receiver's event, in order with the sender's
 * other messages and under the same flow control.  The receive that
 * matches the header (posted before, or later) claims the descriptor (a
 * compare-and-swap of its state, posted to taken, through the sender's
 * slot), copies the data once, straight from the sender's buffer into its
 * own, and sends FIN; the sender's send completes on FIN and its
 * descriptor is free again.  No READ entry, no PtlGet: against the long
 * protocol through the loop queues (the data copied into a loop slot and
 * out of it frame by frame), one copy and two messages.  MPI_Cancel
 * claims the descriptor first (posted to free) or fails because a
 * receive is copying; a receive that finds it withdrawn forgets the
 * message, as it does a withdrawn long one (recv.c).  Descriptors are a
 * static table, never freed, so a late claim never touches freed memory;
 * a key changes with every send, so a stale header cannot claim a reused
 * descriptor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "proto.h"
#include "shm.h"
#ifdef __lwk__
#include <lwk/smartmap.h>
#endif

/* Below this the eager protocol through the loop queues wins: one put,
   where a single copy takes two messages besides its copy.  Measured
   under icount (tests/bench/shm/run, docs/PERFORMANCE.md): the ping-pong
   crosses at about 5 KiB (5 KiB: 64.1 us single copy, 63.7 us through
   the loop queues; 5.5 KiB: 64.4 against 66.4), back-to-back sends at
   4.5 KiB (sends of 4 KiB or less complete once copied, COPY_LIMIT). */
#define SINGLE_COPY_MIN     6144
#define DESCS               256         /* single-copy sends in flight */

enum { S_FREE, S_POSTED, S_TAKEN };
#define STATE(key, s)       ((uint64_t)(key) << 2 | (s))

struct desc {
    uint64_t state;             /* STATE(key, S_*): the receiver claims it */
    const void *buf;
    uint64_t len;
};

static struct desc descs[DESCS];
static uint16_t free_descs[DESCS];
static int nfree;
static int8_t *slot_of;         /* world rank -> slot; NULL: no group */
static size_t single_copy_min = SIZE_MAX;
static int single_copies;       /* messages received by a single copy */

int MPIX_Single_copy_count(void) { return single_copies; }

#ifdef __lwk__
/* LWK_MPI_SINGLE_COPY: the least message size that goes single copy, in
   bytes, or "off". */
static size_t min_from_env(void)
{
    const char *s = getenv("LWK_MPI_SINGLE_COPY");
    char *end;
    unsigned long long v;

    if (s == NULL || *s == 0)
        return SINGLE_COPY_MIN;
    if (strcmp(s, "off") == 0)
        return SIZE_MAX;
    v = strtoull(s, &end, 10);
    if (*end == 0 && *s >= '0' && *s <= '9')
        return v ? (size_t)v : 1;
    fprintf(stderr, "MPI: LWK_MPI_SINGLE_COPY=%s: give a message size in "
            "bytes or 'off'; using %d\n", s, SINGLE_COPY_MIN);
    return SINGLE_COPY_MIN;
}

/* slot_of[w] for every world rank of this node in the group, else -1. */
static bool map_slots(const struct lwk_smartmap *g)
{
    ptl_process_t me, *map = malloc((size_t)job.size * sizeof(*map));
    ptl_size_t got;
    bool ok = map && (slot_of = malloc((size_t)job.size)) != NULL &&
              PtlGetMap(job.ni, (ptl_size_t)job.size, map, &got) == PTL_OK &&
              got == (ptl_size_t)job.size &&
              PtlGetPhysId(job.ni, &me) == PTL_OK;

    for (int w = 0; ok && w < job.size; w++) {
        slot_of[w] = -1;
        for (int k = 0; k < LWK_SMARTMAP_SLOTS; k++)
            if (map[w].phys.nid == me.phys.nid && g->ptl_pid[k] &&
                map[w].phys.pid == g->ptl_pid[k])
                slot_of[w] = (int8_t)k;
    }
    ok = ok && slot_of[job.rank] == g->self;
    free(map);
    if (!ok) {
        free(slot_of);
        slot_of = NULL;
    }
    return ok;
}
#endif

void shm_init(void)
{
#ifdef __lwk__
    struct lwk_smartmap g;

    if (lwk_smartmap_group(&g) < 0 || g.self < 0 || !map_slots(&g))
        return;
    single_copy_min = min_from_env();
    for (nfree = 0; nfree < DESCS; nfree++)
        free_descs[nfree] = (uint16_t)(DESCS - 1 - nfree);
#endif
}

bool shm_grouped(void)
{
    return slot_of != NULL;
}

bool shm_peer(int w)
{
    return slot_of && w != job.rank && slot_of[w] >= 0;
}

void *shm_addr(int w, const void *ptr)
{
    if (w == job.rank)
        return (void *)ptr;
#ifdef __lwk__
    unsigned slot;
    uint64_t va;

    if (!shm_peer(w))
        return NULL;
    if (lwk_smartmap_of((uintptr_t)ptr, &slot, &va))
        return (void *)ptr;     /* a slot address already */
    return lwk_smartmap_addr(slot_of[w], ptr);
#else
    (void)ptr;
    return NULL;
#endif
}

/* ---- the sender ---- */

bool shm_send_wanted(MPI_Request r)
{
    return r->len >= single_copy_min && r->len <= UINT32_MAX &&
           shm_peer(r->world);
}

bool shm_send_post(MPI_Request r)
{
    struct desc *d;

    if (!shm_send_wanted(r) || nfree == 0)
        return false;
    d = &descs[free_descs[--nfree]];
    d->buf = r->data;
    d->len = r->len;
    __atomic_store_n(&d->state, STATE(r->key, S_POSTED), __ATOMIC_RELEASE);
    r->shm = d;
    return true;
}

static void desc_free(MPI_Request r)
{
    struct desc *d = r->shm;

    __atomic_store_n(&d->state, STATE(0, S_FREE), __ATOMIC_RELEASE);
    free_descs[nfree++] = (uint16_t)(d - descs);
    r->shm = NULL;
}

void shm_send_done(MPI_Request r)
{
    desc_free(r);
}

bool shm_send_cancel(MPI_Request r)
{
    struct desc *d = r->shm;
    uint64_t want = STATE(r->key, S_POSTED);

    if (!__atomic_compare_exchange_n(&d->state, &want, STATE(0, S_FREE),
                                     false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return false;
    desc_free(r);
    return true;
}

/* ---- the receiver ---- */

bool shm_recv_take(MPI_Request r, int w, uint32_t key, uint64_t roff)
{
    struct desc *d = shm_addr(w, (const void *)(uintptr_t)roff);
    uint64_t want = STATE(key, S_POSTED);
    size_t n = r->status.mpi_bytes;
    const void *src = NULL;

    if (d == NULL)
        mpi_fatal("a single-copy message from rank %d, which this rank "
                  "cannot reach", w);
    if (!__atomic_compare_exchange_n(&d->state, &want, STATE(key, S_TAKEN),
                                     false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return false;
    if (n > d->len)
        n = d->len;
    if (n && (src = shm_addr(w, d->buf)) == NULL)
        mpi_fatal("rank %d's buffer at %p is not in its memory", w, d->buf);
    if (n)
        memcpy(r->data, src, n);
    ctrl_send(w, CTRL(C_FIN, key));
    single_copies++;
    req_complete(r);
    return true;
}
