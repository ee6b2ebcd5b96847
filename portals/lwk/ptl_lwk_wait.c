/* SPDX-License-Identifier: MIT */
/*
 * ptl_lwk_wait.c: event queues and counters of the node Portals library.
 * The kernel allocates them in the memory the library gave it at PtlInit
 * and writes events and counts there, so reading one is a plain load and
 * a wait spins on that memory, sleeping in the kernel (ptl_wait) only
 * until the next network event or its deadline (ptl_lwk.c, the header).
 */
#include <stdint.h>
#include <time.h>

#include <lwk/syscall.h>

#include "ptl_lwk.h"

/* ---- event queues: allocation in the kernel, reading here ------------------- */

int PtlEQAlloc(ptl_handle_ni_t ni, ptl_size_t count, ptl_handle_eq_t *h)
{
    uint64_t ring = 0;
    ptl_handle_eq_t eq;
    int rc;

    if (!h)
        return PTL_ARG_INVALID;
    rc = CALL(EQAlloc, ni, count, U(&eq), U(&ring));
    if (rc != PTL_OK)
        return rc;
    if (IDX(eq) >= MAX_OBJ) {
        PtlEQFree(eq);
        return PTL_NO_SPACE;
    }
    ptl_lwk_st.eq[IDX(eq)].h = eq;
    ptl_lwk_st.eq[IDX(eq)].ring = (struct ptl_eq_ring *)(uintptr_t)ring;
    *h = eq;
    return PTL_OK;
}

int PtlEQFree(ptl_handle_eq_t h)
{
    int rc = CALL(EQFree, h);

    if (rc == PTL_OK && IDX(h) < MAX_OBJ && ptl_lwk_st.eq[IDX(h)].h == h)
        ptl_lwk_st.eq[IDX(h)].ring = NULL;
    return rc;
}

static struct ptl_eq_ring *ring_of(ptl_handle_eq_t h)
{
    if (IDX(h) >= MAX_OBJ || ptl_lwk_st.eq[IDX(h)].h != h)
        return NULL;
    return ptl_lwk_st.eq[IDX(h)].ring;
}

/* Where an EQ's ring is: for tests that scribble on it. */
struct ptl_eq_ring *ptl_lwk_ring(ptl_handle_eq_t h)
{
    return ring_of(h);
}

int PtlEQGet(ptl_handle_eq_t h, ptl_event_t *ev)
{
    struct ptl_eq_ring *r = ring_of(h);

    if (!r || !ev)
        return PTL_ARG_INVALID;
    return ptl_eq_ring_get(r, ev);
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t deadline_of(ptl_time_t ms)
{
    return ms == PTL_TIME_FOREVER ? UINT64_MAX
                                  : now_ns() + (uint64_t)ms * 1000000u;
}

/* Until the wake count moves from `seen` or the deadline: asleep in the
   kernel, or spinning here when another CPU runs the engine for us. */
void ptl_lwk_wait_news(uint64_t deadline, uint64_t seen)
{
    if (!ptl_lwk_engine_polls()) {
        lwk_sys_ptl_wait((long)deadline, (long)seen);
        return;
    }
    while (__atomic_load_n(ptl_lwk_st.wake, __ATOMIC_ACQUIRE) == seen &&
           (deadline == UINT64_MAX || now_ns() < deadline))
        __builtin_ia32_pause();
}

int PtlEQPoll(const ptl_handle_eq_t *hs, unsigned int n, ptl_time_t timeout,
              ptl_event_t *ev, unsigned int *which)
{
    uint64_t deadline = deadline_of(timeout);

    if (!hs || !n || !ev || !which)
        return PTL_ARG_INVALID;
    for (unsigned i = 0; i < n; i++)
        if (!ring_of(hs[i]))
            return PTL_ARG_INVALID;
    for (;;) {
        /* Read the wake count before looking, so an event that lands
           after the look makes the kernel refuse to sleep. */
        uint64_t seen = __atomic_load_n(ptl_lwk_st.wake, __ATOMIC_ACQUIRE);

        for (unsigned i = 0; i < n; i++) {
            int rc = ptl_eq_ring_get(ring_of(hs[i]), ev);
            if (rc != PTL_EQ_EMPTY) {
                *which = i;
                return rc;
            }
        }
        /* No clock read (a system call) for a wait without a timeout. */
        if (deadline != UINT64_MAX && now_ns() >= deadline)
            return PTL_EQ_EMPTY;
        ptl_lwk_wait_news(deadline, seen);
    }
}

int PtlEQWait(ptl_handle_eq_t h, ptl_event_t *ev)
{
    unsigned which;

    return PtlEQPoll(&h, 1, PTL_TIME_FOREVER, ev, &which);
}

/* ---- counting events ---------------------------------------------------------- */

int PtlCTAlloc(ptl_handle_ni_t ni, ptl_handle_ct_t *h)
{
    uint64_t val = 0;
    ptl_handle_ct_t ct;
    int rc;

    if (!h)
        return PTL_ARG_INVALID;
    rc = CALL(CTAlloc, ni, U(&ct), U(&val));
    if (rc != PTL_OK)
        return rc;
    if (IDX(ct) >= MAX_OBJ) {
        PtlCTFree(ct);
        return PTL_NO_SPACE;
    }
    ptl_lwk_st.ct[IDX(ct)].h = ct;
    ptl_lwk_st.ct[IDX(ct)].val = (ptl_ct_event_t *)(uintptr_t)val;
    *h = ct;
    return PTL_OK;
}

int PtlCTFree(ptl_handle_ct_t h)
{
    int rc = CALL(CTFree, h);

    if (rc == PTL_OK && IDX(h) < MAX_OBJ && ptl_lwk_st.ct[IDX(h)].h == h)
        ptl_lwk_st.ct[IDX(h)].val = NULL;
    return rc;
}

static volatile ptl_ct_event_t *ct_of(ptl_handle_ct_t h)
{
    if (IDX(h) >= MAX_OBJ || ptl_lwk_st.ct[IDX(h)].h != h)
        return NULL;
    return ptl_lwk_st.ct[IDX(h)].val;
}

int PtlCTCancelTriggered(ptl_handle_ct_t h)
{
    return CALL(CTCancelTriggered, h);
}

int PtlCTGet(ptl_handle_ct_t h, ptl_ct_event_t *ev)
{
    volatile ptl_ct_event_t *v = ct_of(h);

    if (!v || !ev)
        return PTL_ARG_INVALID;
    ev->success = v->success;
    ev->failure = v->failure;
    return PTL_OK;
}

int PtlCTPoll(const ptl_handle_ct_t *hs, const ptl_size_t *tests,
              unsigned int n, ptl_time_t timeout, ptl_ct_event_t *ev,
              unsigned int *which)
{
    uint64_t deadline = deadline_of(timeout);

    if (!hs || !tests || !n || !ev || !which)
        return PTL_ARG_INVALID;
    for (unsigned i = 0; i < n; i++)
        if (!ct_of(hs[i]))
            return PTL_ARG_INVALID;
    for (;;) {
        uint64_t seen = __atomic_load_n(ptl_lwk_st.wake, __ATOMIC_ACQUIRE);

        for (unsigned i = 0; i < n; i++) {
            PtlCTGet(hs[i], ev);
            if (ev->success + ev->failure >= tests[i]) {
                *which = i;
                return PTL_OK;
            }
        }
        if (now_ns() >= deadline)
            return PTL_CT_NONE_REACHED;
        ptl_lwk_wait_news(deadline, seen);
    }
}

int PtlCTWait(ptl_handle_ct_t h, ptl_size_t test, ptl_ct_event_t *ev)
{
    unsigned which;

    return PtlCTPoll(&h, &test, 1, PTL_TIME_FOREVER, ev, &which);
}

int PtlCTSet(ptl_handle_ct_t h, ptl_ct_event_t v)
{
    return CALL(CTSet, h, v.success, v.failure);
}

int PtlCTInc(ptl_handle_ct_t h, ptl_ct_event_t v)
{
    return CALL(CTInc, h, v.success, v.failure);
}
