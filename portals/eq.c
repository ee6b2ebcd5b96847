/* SPDX-License-Identifier: MIT */
/*
 * eq.c: event queues.  The ring lives in host shared memory (see
 * ptl_eqring.h); the core only ever produces into it.
 */
#include "ptl_internal.h"

struct ptl_eq *ptl_eq_get(struct ptl_lib *lib, ptl_handle_eq_t h, int ni)
{
    struct ptl_lib *owner;
    struct ptl_eq *eq = ptl_resolve(h, PTL_K_EQ, &owner);

    if (eq == NULL || owner != lib || (ni >= 0 && eq->ni != ni))
        return NULL;
    return eq;
}

/* The ring sits in memory the application can write: only tail is taken
 * from there, and only to compare; head and size are the core's own copies,
 * so a scribbled ring cannot make the producer write outside it. */
static uint64_t eq_used(const struct ptl_eq *eq)
{
    uint64_t used = eq->head - __atomic_load_n(&eq->ring->tail,
                                               __ATOMIC_ACQUIRE);

    return used > eq->size ? eq->size : used;
}

uint64_t ptl_eq_space(const struct ptl_eq *eq)
{
    uint64_t used = eq_used(eq);

    /* One slot is held back for PT_DISABLED. */
    return used + 1 >= eq->size ? 0 : eq->size - 1 - used;
}

static bool eq_write(struct ptl_lib *lib, struct ptl_eq *eq,
                     const ptl_event_t *ev, uint64_t cap)
{
    struct ptl_eq_ring *r = eq->ring;

    if (eq_used(eq) >= cap) {
        __atomic_store_n(&r->dropped, 1, __ATOMIC_RELEASE);
        return false;
    }
    r->ev[eq->head % eq->size] = *ev;
    eq->head++;
    lib->changes++;
    __atomic_store_n(&r->head, eq->head, __ATOMIC_RELEASE);
    return true;
}

bool ptl_eq_post(struct ptl_lib *lib, struct ptl_eq *eq, const ptl_event_t *ev)
{
    if (eq == NULL)
        return true;
    if (eq_write(lib, eq, ev, eq->size - 1))
        return true;
    lib->st.eq_dropped++;
    return false;
}

bool ptl_eq_post_reserved(struct ptl_lib *lib, struct ptl_eq *eq,
                          const ptl_event_t *ev)
{
    if (eq_write(lib, eq, ev, eq->size))
        return true;
    lib->st.eq_dropped++;
    return false;
}

int PtlEQAlloc(ptl_handle_ni_t nih, ptl_size_t count, ptl_handle_eq_t *out)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_eq *eq;
    size_t bytes;

    if (ptl_resolve_ni(nih, &lib, &nii) == NULL || out == NULL ||
        count == 0 || count > (1u << 24))
        return PTL_ARG_INVALID;
    bytes = sizeof(struct ptl_eq_ring) + sizeof(ptl_event_t) * (count + 1);
    ptl_enter(lib);
    eq = lib->ni[nii].n_eqs < (uint32_t)lib->ni[nii].limits.max_eqs
         ? ptl_pool_get(&lib->eqs) : NULL;
    if (eq != NULL)
        eq->ring = lib->ops->shared_alloc(lib->ctx, bytes);
    if (eq == NULL || eq->ring == NULL) {
        if (eq)
            ptl_pool_put(&lib->eqs, eq);
        ptl_leave(lib);
        return PTL_NO_SPACE;
    }
    ptl_memzero(eq->ring, sizeof(struct ptl_eq_ring));
    eq->ring->size = (uint32_t)count + 1;
    eq->size = (uint32_t)count + 1;
    eq->head = 0;
    eq->ring_bytes = bytes;
    eq->ni = (uint8_t)nii;
    eq->used = true;
    lib->ni[nii].n_eqs++;
    *out = ptl_handle(PTL_K_EQ, lib->slot, nii, ptl_pool_idx(&lib->eqs, eq));
    ptl_leave(lib);
    return PTL_OK;
}

/* PtlEQFree while a portal table entry or an MD still names the EQ: the
 * specification lets it go (the reference implementation too); from
 * then on they post no full events (counting events still count). */
static void eq_detach(struct ptl_lib *lib, struct ptl_eq *eq)
{
    struct ptl_ni *ni = &lib->ni[eq->ni];

    for (uint32_t i = 0; i <= lib->p.max_pt_index; i++)
        if (ni->pts[i].used && ni->pts[i].eq == eq)
            ni->pts[i].eq = NULL;
    for (uint32_t i = 0; i < lib->mds.count; i++) {
        struct ptl_md *md = ptl_pool_at(&lib->mds, i);
        if (md->used && md->eq == eq)
            md->eq = NULL;
    }
}

int PtlEQFree(ptl_handle_eq_t h)
{
    struct ptl_lib *lib;
    struct ptl_eq *eq = ptl_resolve(h, PTL_K_EQ, &lib);

    if (eq == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    eq_detach(lib, eq);
    lib->ops->shared_free(lib->ctx, eq->ring, eq->ring_bytes);
    eq->used = false;
    lib->ni[eq->ni].n_eqs--;
    ptl_pool_put(&lib->eqs, eq);
    ptl_leave(lib);
    return PTL_OK;
}

int PtlEQGet(ptl_handle_eq_t h, ptl_event_t *ev)
{
    struct ptl_lib *lib;
    struct ptl_eq *eq = ptl_resolve(h, PTL_K_EQ, &lib);
    int rc;

    if (eq == NULL || ev == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ptl_poll(lib);
    rc = ptl_eq_ring_get(eq->ring, ev);
    ptl_leave(lib);
    return rc;
}

int PtlEQWait(ptl_handle_eq_t h, ptl_event_t *ev)
{
    unsigned which;

    return PtlEQPoll(&h, 1, PTL_TIME_FOREVER, ev, &which);
}

static int eq_poll_once(struct ptl_lib *lib, const ptl_handle_eq_t *hs,
                        unsigned n, ptl_event_t *ev, unsigned *which)
{
    for (unsigned i = 0; i < n; i++) {
        struct ptl_eq *eq = ptl_eq_get(lib, hs[i], -1);
        int rc;

        if (eq == NULL)
            return PTL_ARG_INVALID;
        rc = ptl_eq_ring_get(eq->ring, ev);
        if (rc != PTL_EQ_EMPTY) {
            *which = i;
            return rc;
        }
    }
    return PTL_EQ_EMPTY;
}

int PtlEQPoll(const ptl_handle_eq_t *hs, unsigned int n, ptl_time_t timeout,
              ptl_event_t *ev, unsigned int *which)
{
    struct ptl_lib *lib;
    uint64_t deadline;
    int rc;

    if (hs == NULL || n == 0 || ev == NULL || which == NULL ||
        ptl_resolve(hs[0], PTL_K_EQ, &lib) == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    deadline = ptl_deadline_ms(lib, timeout);
    /* Even with a timeout of 0, take in once what the link already holds
     * (the host's wait returns at once for a past deadline): a program
     * that polls must see messages that have arrived. */
    for (bool looked = false;; looked = true) {
        ptl_lib_progress(lib);
        rc = eq_poll_once(lib, hs, n, ev, which);
        if (rc != PTL_EQ_EMPTY)
            break;
        if (looked && ptl_now(lib) >= deadline)
            break;
        if ((rc = ptl_block(lib, deadline)) != 0) {
            rc = rc == PTL_ABORTED ? PTL_ABORTED : PTL_INTERRUPTED;
            break;
        }
    }
    ptl_leave(lib);
    return rc;
}
