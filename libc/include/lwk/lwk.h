/* SPDX-License-Identifier: MIT */
/*
 * lwk/lwk.h: what a compute-node program can learn about its placement and
 * memory.  The values come from the auxiliary vector the PCT builds at load
 * time (lwk/uapi/abi.h) and are recorded by crt0 before main() runs.
 */
#ifndef LWK_LWK_H
#define LWK_LWK_H

#include <stddef.h>

struct lwk_procinfo {
    unsigned long heap_base;    /* AT_LWK_HEAP_BASE, 0 if not given */
    unsigned long heap_size;    /* AT_LWK_HEAP_SIZE, 0 if not given */
    unsigned long stack_size;   /* AT_LWK_STACK_SIZE */
    long nid;                   /* AT_LWK_NID, -1 if not given */
    long rank;                  /* AT_LWK_RANK, 0 if not given */
    long size;                  /* AT_LWK_SIZE, 1 if not given */
};

/* Filled in before main(); read-only for the program. */
extern const struct lwk_procinfo *const lwk_proc;

static inline long lwk_rank(void) { return lwk_proc->rank; }
static inline long lwk_size(void) { return lwk_proc->size; }
static inline long lwk_nid(void) { return lwk_proc->nid; }

/* Value of auxv entry `type`, or `dflt` if the loader did not pass it. */
unsigned long lwk_getauxval(unsigned long type, unsigned long dflt);

/* Heap bytes not yet handed out by sbrk (malloc may still hold free space). */
size_t lwk_heap_left(void);

/* End this process and the whole job (yod kills the other ranks and exits
   with `status`, printing `why` as the reason).  Output is flushed first.
   MPI_Abort, NX's fatal errors and ptl_job_abort come here. */
__attribute__((noreturn)) void lwk_abort(int status, const char *why);
/* The same, when this process gives up because rank `peer` is gone (a
   message to it failed): yod names that rank's end as the job's cause if
   it ended abnormally itself, not this consequence of it. */
__attribute__((noreturn)) void lwk_abort_peer(int status, long peer,
                                              const char *why);

#endif
