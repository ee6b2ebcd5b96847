/*
 * Performance counters (pmu.c; the ABI in uapi/abi.h, LWK_DBG_COUNT):
 * instructions retired and core cycles of a counted process, in user
 * mode, on the architectural PMU's fixed-function counters.
 */
#ifndef PMU_H
#define PMU_H

#include "kernel.h"

struct proc;

struct proc_pmu {
    bool on;                    /* counted (LWK_DBG_COUNT) */
    uint64_t instructions, cycles;  /* of its runs that have ended */
};

/* CPUID leaf 0 said max_leaf; leaf 0xA said r (eax..edx): do fixed
   counters 0 (instructions retired) and 1 (core cycles) exist?  Intel
   SDM Vol 3 20.2.2: version 2 or later, two fixed counters or more. */
static inline bool pmu_fixed_usable(uint32_t max_leaf, const uint32_t r[4])
{
    uint32_t version = r[0] & 0xFF, fixed = r[3] & 0x1F;

    return max_leaf >= 0xA && version >= 2 && fixed >= 2;
}
/* proc_debug's LWK_DBG_COUNT. */
long pmu_count(struct proc *p, uint64_t arg, uint64_t uptr);
/* proc.c, thread.c: this CPU starts or stops running a thread of p. */
void pmu_enter(struct proc *p);
void pmu_leave(struct proc *p);

#endif
