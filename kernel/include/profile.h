/*
 * Sampling profiles (profile.c; the ABI in uapi/abi.h, LWK_DBG_PROFILE):
 * the user program counter of a profiled process, sampled on the timer
 * of each CPU it runs on into a histogram in the process's memory.  A
 * CPU that runs no profiled process has no profiling timer armed:
 * nothing runs, nothing costs.
 */
#ifndef PROFILE_H
#define PROFILE_H

#include "kernel.h"
#include "trap.h"

struct proc;
struct cpu;

struct proc_prof {
    uint16_t *bins;             /* kernel view of its histogram; NULL: off */
    uint64_t lo, nbins;
    uint32_t shift;
    uint64_t left_ns;           /* of the period, when it left CPU 0 */
};

/* proc_debug's LWK_DBG_PROFILE: sample p at hz from now on. */
long profile_start(struct proc *p, uint64_t hz, uint64_t uptr);
/* proc.c: p goes (no CPU runs it any more). */
void profile_forget(struct proc *p);
/* proc.c, thread.c: c->proc has just come to CPU c, or is about to
   leave it: if it is profiled, c's ticks start with what was left of
   its period, or stop, keeping what is left. */
void profile_enter(struct cpu *c);
void profile_leave(struct cpu *c);

#endif
