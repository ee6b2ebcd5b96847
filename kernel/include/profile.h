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
};

/* proc_debug's LWK_DBG_PROFILE: sample p at hz from now on. */
long profile_start(struct proc *p, uint64_t hz, uint64_t uptr);
/* proc.c: p goes (no CPU runs it any more). */
void profile_forget(struct proc *p);
/* proc.c, thread.c: c->proc has just changed: if it is profiled, c's
   ticks start (a tick that finds it gone stops them). */
void profile_switch(struct cpu *c);

#endif
