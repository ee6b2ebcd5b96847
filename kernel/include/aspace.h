/*
 * Address spaces and user memory (aspace.c).  An address space is a PML4
 * whose kernel half is the kernel's; a process's regions are mapped in the
 * low half, with 2 MB pages where alignment allows.
 */
#ifndef ASPACE_H
#define ASPACE_H

#include <stdbool.h>
#include <stdint.h>

struct proc;

/* A new address space (physical PML4), 0 when memory is exhausted. */
uint64_t aspace_new(void);
/* Free its tables (not the memory it maps); nobody may run in it. */
void aspace_free(uint64_t cr3);
/* Map [va, va+size) to [pa, pa+size) with PTE `flags`: 0 or -ENOMEM. */
int aspace_map(uint64_t cr3, uint64_t va, uint64_t pa, uint64_t size,
               uint64_t flags);
/* Remove that mapping and shoot down the TLB entries of every CPU that may
   hold them. */
void aspace_unmap(uint64_t cr3, uint64_t va, uint64_t size);
/* Was the page at `va` maybe written through this address space?  False
   only for one 2 MB page whose dirty bit is clear. */
bool aspace_written(uint64_t cr3, uint64_t va);
/* Load `cr3` on this CPU (and record it for TLB shootdowns). */
void aspace_switch(uint64_t cr3);

/* Validated access to a process's memory: one range check against its
   regions.  Return 0 or -EFAULT; nothing is touched on failure. */
int copy_from_user(struct proc *p, void *dst, uint64_t uva, uint64_t len);
int copy_to_user(struct proc *p, uint64_t uva, const void *src, uint64_t len);
/* Kernel pointer to [uva, uva+len) if it lies in one region, else NULL.
   For the PCT, a region of a process it made, named through its window
   (LWK_PCT_WINDOW), counts too; for a member of a SMARTMAP group, a
   region of another member named through its slot (smartmap.h).  With
   `write`, the kernel may write there: the memory counts as written
   (mem_dirty), as the CPU's dirty bits do not see the kernel's writes. */
void *user_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write);
/* The same for p's own regions only. */
void *region_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write);

/* Map boot module `i` ([start, end) physical) read-only into the PCT;
   returns the address of `start` there, 0 on failure. */
uint64_t module_map_into(struct proc *p, uint64_t i, uint64_t start,
                         uint64_t end);
/* Remove that mapping (the module's memory is being given back). */
void module_unmap_from(struct proc *p, uint64_t i, uint64_t start,
                       uint64_t end);

#endif
