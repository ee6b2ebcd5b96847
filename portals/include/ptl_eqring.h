/* SPDX-License-Identifier: MIT */
/*
 * ptl_eqring.h: the event queue as it sits in memory the application can
 * read.  The core (in the kernel: at interrupt time) is the only producer;
 * the application is the only consumer and polls it without a trap.
 *
 *   head:    events ever written (producer-owned)
 *   tail:    events ever consumed (consumer-owned)
 *   size:    slots; the last free slot is kept for PT_DISABLED so flow
 *            control can always report itself
 *   dropped: set by the producer when an event found the ring full
 *
 * Overflow policy: a full ring drops the NEW event (never overwrites one the
 * consumer may be copying) and sets dropped; the next successful get returns
 * PTL_EQ_DROPPED along with the oldest event still in the ring.
 */
#ifndef PTL_EQRING_H
#define PTL_EQRING_H

#include <stdint.h>

#include "portals4.h"

struct ptl_eq_ring {
    uint64_t head;
    uint64_t tail;
    uint32_t size;
    uint32_t dropped;
    uint64_t pad;
    ptl_event_t ev[];
};

/* Consumer side; usable from any process that maps the ring. */
static inline int ptl_eq_ring_get(struct ptl_eq_ring *r, ptl_event_t *ev)
{
    uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    uint64_t tail = r->tail;

    if (tail == head)
        return PTL_EQ_EMPTY;
    *ev = r->ev[tail % r->size];
    __atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
    if (__atomic_exchange_n(&r->dropped, 0, __ATOMIC_ACQ_REL) != 0)
        return PTL_EQ_DROPPED;
    return PTL_OK;
}

#endif /* PTL_EQRING_H */
