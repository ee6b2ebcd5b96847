/*
 * SMARTMAP (smartmap.c): the processes of one job on a node map each
 * other at fixed slots of their top-level page tables (uapi/abi.h has
 * the layout).  The PCT makes the group (proc_share); the kernel fills
 * the slots, resolves slot addresses a member passes in system calls, and
 * empties a member's slot everywhere before its memory is freed.
 */
#ifndef SMARTMAP_H
#define SMARTMAP_H

#include <stdbool.h>
#include <stdint.h>

struct proc;
struct lwk_smartmap;

/* Put the n processes m[0..n-1] in a group, m[k] in slot k, and map each
   into every member.  0, -EINVAL (n, a duplicate, the PCT), -EBUSY (one
   is in a group already), -ENOMEM (no group left). */
long smartmap_share(struct proc *const *m, int n);
/* p leaves its group (its end): its slot is emptied in every other
   member, whose CPUs' TLBs are shot down, and the NIC has sent every
   frame that pointed into p's memory.  Then p's regions may be freed.
   Nothing if p is in no group. */
void smartmap_leave(struct proc *p);
/* Kernel pointer to [uva, uva+len) when uva is in a slot of p's group
   whose process has those bytes in one region (write: a writable one);
   else NULL.  For user_ptr: a member may name another's memory in a
   system call as it names its own. */
void *smartmap_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write);
/* What the `smartmap` system call returns about p's group. */
void smartmap_info(struct proc *p, struct lwk_smartmap *out);

#endif
