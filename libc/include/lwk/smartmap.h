/* SPDX-License-Identifier: MIT */
/*
 * lwk/smartmap.h: another process's memory, directly (SMARTMAP,
 * docs/SMP.md).  In virtual-node mode (yod -vn) the PCT puts the ranks of
 * a job on one node in a group (the kernel's proc_share): each rank sees
 * every other's whole memory (data, heap, stack) at a fixed place, read
 * and write, as long as both live.  MPI builds shared windows and
 * single-copy messages on it; a program may use it too.
 *
 *   struct lwk_smartmap g;
 *   int slot = lwk_smartmap_slot(&g, peer_ptl_pid);    // -1: not in mine
 *   double *x = lwk_smartmap_addr(slot, peers_x);      // peers_x: its
 *   x[0] = 1.0;                                        //  own address
 *
 * An address of a rank that has ended is unmapped: touching it is a page
 * fault (the process is killed and the job ends, as for any fault).
 */
#ifndef LWK_SMARTMAP_H
#define LWK_SMARTMAP_H

#include <stdint.h>
#include <lwk/syscall.h>

/* This process's group: g->self its slot (-1: in none), g->ptl_pid[k]
   the Portals pid of slot k's process (0: none, or it has ended).  0, or
   -1 if the kernel has no such call (it predates SMARTMAP). */
static inline int lwk_smartmap_group(struct lwk_smartmap *g)
{
    if (lwk_sys_smartmap((long)g) < 0) {
        g->self = -1;
        return -1;
    }
    return 0;
}

/* The slot of the process of this group bound to Portals pid `ptl_pid`
   (its PTL_PID; the job map's pid of its rank), or -1; fills *g. */
static inline int lwk_smartmap_slot(struct lwk_smartmap *g, uint32_t ptl_pid)
{
    if (lwk_smartmap_group(g) < 0 || g->self < 0 || ptl_pid == 0)
        return -1;
    for (int k = 0; k < LWK_SMARTMAP_SLOTS; k++)
        if (g->ptl_pid[k] == ptl_pid)
            return k;
    return -1;
}

/* Where this process reaches `ptr`, an address of the process in `slot`
   (as that process sees it): NULL if `ptr` is not in its memory's range
   or the slot is out of range.  Pure arithmetic: the slot of a process
   that has ended gives an address that faults. */
static inline void *lwk_smartmap_addr(int slot, const void *ptr)
{
    return slot < 0 ? (void *)0
                    : (void *)(uintptr_t)lwk_smartmap_va((unsigned)slot,
                                                         (uintptr_t)ptr);
}

#endif
