/* SPDX-License-Identifier: MIT */
/*
 * rma_state.c: where windows keep their state areas (lock words and PSCW
 * counters, rma.h).  An area is a slot of a page that one match entry
 * exposes for every window with slots in it, so a window costs one match
 * entry (its memory), not two: a node has 1024 for everything.  Slots
 * are a power of two of bytes (at least 64), at most 64 to a page of
 * about 64 KiB (an area bigger than that has a page of its own); a page
 * goes when its last slot is freed.  Arrivals count on the counter every
 * state area shares (rma_state_ct).  Pages are named by match bits of
 * context 0, which no window has (a window's is a duplicate's).
 */
#include <stdlib.h>
#include <string.h>
#include "rma.h"

#define PAGE_BYTES 65536
#define SLOT_MIN   64
#define PAGE_BITS(id) RMA_BITS(0, (uint64_t)(id) << 8)

struct page {
    struct page *next;
    size_t slot;                /* bytes per slot */
    int nslots;
    uint64_t used;              /* bit i: slot i is an area */
    char *mem;
    uint64_t id;
    ptl_handle_me_t me;
};

static struct page *pages;
static uint64_t next_id;

static size_t slot_for(size_t bytes)
{
    size_t s = SLOT_MIN;

    while (s < bytes)
        s *= 2;
    return s;
}

static uint64_t all_used(const struct page *p)
{
    return p->nslots == 64 ? ~(uint64_t)0 : ((uint64_t)1 << p->nslots) - 1;
}

static struct page *page_new(size_t slot)
{
    struct page *p = calloc(1, sizeof(*p));
    int n = slot < PAGE_BYTES ? (int)(PAGE_BYTES / slot) : 1;
    char *mem = NULL;
    ptl_me_t me;

    n = n > 64 ? 64 : n;
    if (p == NULL || (mem = calloc((size_t)n, slot)) == NULL) {
        free(p);
        return NULL;
    }
    *p = (struct page){ .next = pages, .slot = slot, .nslots = n,
                        .mem = mem, .id = next_id++,
                        .me = PTL_INVALID_HANDLE };
    me = me_make(p->mem, slot * (size_t)p->nslots,
                 PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_NO_TRUNCATE |
                 PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_UNLINK_DISABLE | PTL_ME_EVENT_CT_COMM,
                 PTL_RANK_ANY, PAGE_BITS(p->id), 0);
    me.ct_handle = rma_state_ct();
    if (entry_rc(PtlMEAppend(job.ni, PT_ONE, &me, PTL_PRIORITY_LIST, NULL,
                             &p->me), "PtlMEAppend (window states)") != 0) {
        free(p->mem);
        free(p);
        return NULL;
    }
    pages = p;
    return p;
}

int state_alloc(size_t bytes, int64_t **area, struct where *at)
{
    size_t slot = slot_for(bytes);
    struct page *p = pages;
    int i;

    while (p != NULL && (p->slot != slot || p->used == all_used(p)))
        p = p->next;
    if (p == NULL && (p = page_new(slot)) == NULL)
        return ERRC_RMA_ENTRIES;        /* (or memory: the same remedy) */
    i = __builtin_ctzll(~p->used);
    p->used |= (uint64_t)1 << i;
    *area = (int64_t *)(p->mem + (size_t)i * slot);
    memset(*area, 0, slot);
    at->bits = PAGE_BITS(p->id);
    at->off = (uint64_t)i * slot;
    return MPI_SUCCESS;
}

void state_free(int64_t *area)
{
    for (struct page **pp = &pages; *pp != NULL; pp = &(*pp)->next) {
        struct page *p = *pp;
        if ((char *)area < p->mem ||
            (char *)area >= p->mem + p->slot * (size_t)p->nslots)
            continue;
        p->used &= ~((uint64_t)1 << (((char *)area - p->mem) / p->slot));
        if (p->used == 0) {
            *pp = p->next;
            PtlMEUnlink(p->me);
            free(p->mem);
            free(p);
        }
        return;
    }
}
