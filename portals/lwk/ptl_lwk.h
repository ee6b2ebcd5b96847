/* SPDX-License-Identifier: MIT */
/*
 * ptl_lwk.h: what the node Portals library's two files share (private):
 * ptl_lwk.c makes the calls, ptl_lwk_wait.c reads and waits on the event
 * queues and counters the kernel writes into the library's memory.
 */
#ifndef PTL_LWK_H
#define PTL_LWK_H

#include <stdint.h>

#include <lwk/uapi/abi.h>

#include "portals4.h"
#include "ptl_eqring.h"

enum {
#define PTLCALL(num, name, nargs) PTLOP_##name = (num),
#include <lwk/uapi/ptlcalls.def>
#undef PTLCALL
};

/* EQ rings and counters.  Sized for one job's MPI and NX together: their
 * event queues hold 16384 + ~12600 events of 96 bytes (2.7 MiB); 1 MiB
 * refused MPI's first PtlEQAlloc.  PTL_SHM_KB=... overrides. */
#define SHM_DEFAULT     (4u << 20)
#define MAX_OBJ         256             /* EQs and CTs we can look up */
#define IDX(h)          ((h) & 0xFFFFFu) /* handle index bits */

struct ptl_lwk_state {
    int refs;
    void *shm;
    volatile uint64_t *wake;            /* kernel's wake counter */
    struct lwk_ptl_head *head;          /* the area's head (wake is in it) */
    struct { ptl_handle_eq_t h; struct ptl_eq_ring *ring; } eq[MAX_OBJ];
    struct { ptl_handle_ct_t h; ptl_ct_event_t *val; } ct[MAX_OBJ];
};
extern struct ptl_lwk_state ptl_lwk_st;

/* One `ptl` call (or, in co-processor mode, one posted in the ring). */
int ptl_lwk_call(int op, const uint64_t *a);
int ptl_lwk_engine_polls(void);
/* Until the wake count moves from seen or the deadline (ns). */
void ptl_lwk_wait_news(uint64_t deadline, uint64_t seen);
/* Where an EQ's ring is: for tests that scribble on it. */
struct ptl_eq_ring *ptl_lwk_ring(ptl_handle_eq_t h);

#define U(x)    ((uint64_t)(uintptr_t)(x))
#define CALL(op, ...) ptl_lwk_call(PTLOP_##op, (const uint64_t[]){ __VA_ARGS__ })

#endif /* PTL_LWK_H */
