/*
 * Performance counters: the mechanism under yod -counters (uapi/abi.h,
 * LWK_DBG_COUNT; which processes are counted is the PCT's).  Where CPUID
 * leaf 0xA reports an architectural PMU with fixed-function counters
 * (real machines, KVM; not QEMU's TCG), a counted process's threads run
 * with fixed counter 0 (instructions retired) and 1 (unhalted core
 * cycles) counting in user mode only (Intel SDM Vol 3 20.2.2); as a
 * thread leaves its CPU (a switch on CPU 0, the end of a thread or of a
 * placed main thread) what they counted is added to the process.  A
 * process not counted, or a CPU without the PMU, never touches them.
 */
#define LOG_PREFIX "pmu"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "pmu.h"
#include "proc.h"
#include "x86.h"

#define MSR_FIXED_CTR0          0x309   /* instructions retired */
#define MSR_FIXED_CTR1          0x30A   /* unhalted core cycles */
#define MSR_FIXED_CTR_CTRL      0x38D
#define MSR_PERF_GLOBAL_CTRL    0x38F
#define FIXED_USR(i)            (2ULL << (4 * (i)))    /* ring 3 only */
#define GLOBAL_FIXED(i)         (1ULL << (32 + (i)))

static bool present(void)
{
    static int has = -1;
    uint32_t r0[4], ra[4] = { 0 };

    if (has < 0) {
        cpuid(0, 0, r0);
        if (r0[0] >= 0xA)       /* a leaf above the maximum is undefined */
            cpuid(0xA, 0, ra);
        has = pmu_fixed_usable(r0[0], ra);
    }
    return has;
}

void pmu_enter(struct proc *p)
{
    if (!p || !p->pmu.on)
        return;
    wrmsr(MSR_FIXED_CTR0, 0);
    wrmsr(MSR_FIXED_CTR1, 0);
    wrmsr(MSR_FIXED_CTR_CTRL, FIXED_USR(0) | FIXED_USR(1));
    wrmsr(MSR_PERF_GLOBAL_CTRL, GLOBAL_FIXED(0) | GLOBAL_FIXED(1));
}

void pmu_leave(struct proc *p)
{
    if (!p || !p->pmu.on)
        return;
    wrmsr(MSR_PERF_GLOBAL_CTRL, 0);
    wrmsr(MSR_FIXED_CTR_CTRL, 0);
    /* Threads on several CPUs leave at once. */
    __atomic_fetch_add(&p->pmu.instructions, rdmsr(MSR_FIXED_CTR0),
                       __ATOMIC_RELAXED);
    __atomic_fetch_add(&p->pmu.cycles, rdmsr(MSR_FIXED_CTR1),
                       __ATOMIC_RELAXED);
}

long pmu_count(struct proc *p, uint64_t arg, uint64_t uptr)
{
    struct lwk_counts c;

    if (arg == 1) {
        if (!present())
            return -ENODEV;
        p->pmu.on = true;
        return 0;
    }
    if (arg != 0)
        return -EINVAL;
    if (!p->pmu.on)
        return -ENODEV;
    c = (struct lwk_counts){
        .instructions = __atomic_load_n(&p->pmu.instructions,
                                        __ATOMIC_RELAXED),
        .cycles = __atomic_load_n(&p->pmu.cycles, __ATOMIC_RELAXED) };
    return copy_to_user(pct, uptr, &c, sizeof(c));
}
