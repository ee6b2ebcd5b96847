/*
 * Sampling profiles: the mechanism under yod -profile (uapi/abi.h,
 * LWK_DBG_PROFILE; the policy, who is profiled and at what rate, is the
 * PCT's).  A CPU running a thread of a profiled process (its main thread
 * on CPU 0 or its own CPU, or a thread) has its LAPIC timer also fire at
 * the profiling rate; each tick that interrupts the thread in user mode
 * adds one to the bin of its program counter, in a histogram the PCT
 * placed in the process's memory (as profil(3) has the program place its
 * own).  A thread asleep in the kernel (waiting in ptl_wait) is not
 * sampled: it uses no CPU, as a Linux process's profil counts only the
 * time it runs.
 *
 * The ticks count the process's time on the CPU, as ITIMER_PROF does:
 * a thread that leaves its CPU (CPU 0's main thread at the end of its
 * quantum) keeps what was left of its period, and its next run starts
 * with it.  Ticks in wall-clock time would fall in step with the
 * quantum and, at a rate that divides it, always find the PCT.
 *
 * Off costs nothing: a CPU arms the profiling timer only while a
 * profiled process runs on it (profile_enter, profile_leave).  The node
 * runs one job at a time, so one rate serves the node: the last asked.
 */
#define LOG_PREFIX "profile"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "proc.h"
#include "profile.h"
#include "timer.h"
#include "trap.h"

static uint64_t period_ns;              /* between two ticks of a CPU */
static uint64_t next_tick[MAX_CPUS];    /* each CPU's, in step: clock_ns */

static void sample(struct proc_prof *pr, uint64_t rip)
{
    uint64_t bin = (rip - pr->lo) >> pr->shift;
    uint16_t *b;

    if (rip < pr->lo || bin >= pr->nbins)
        return;
    b = &pr->bins[bin];
    /* Threads of one process on other CPUs count into the same bins: an
       atomic add; a full bin stays full, as profil's u_short would not. */
    if (__atomic_load_n(b, __ATOMIC_RELAXED) != UINT16_MAX)
        __atomic_fetch_add(b, 1, __ATOMIC_RELAXED);
}

static void tick(void)
{
    struct cpu *c = this_cpu();
    struct proc *p = c->proc;
    struct trapframe *tf = c->timer_tf;
    uint64_t now = clock_ns(), *next = &next_tick[c->id];

    if (!p || !p->prof.bins)
        return;                 /* (it was destroyed: no more) */
    if (tf && (tf->cs & 3) == 3)
        sample(&p->prof, tf->rip);
    /* Ticks keep their phase (the rate stays the rate asked, however late
       an interrupt is taken), but never bunch up after a long delay. */
    *next += period_ns;
    if (*next <= now)
        *next = now + period_ns;
    timer_set(TIMER_PROFILE, *next, tick);
}

void profile_enter(struct cpu *c)
{
    struct proc *p = c->proc;

    if (!p || !p->prof.bins)
        return;
    next_tick[c->id] = clock_ns() + (p->prof.left_ns ? p->prof.left_ns
                                                     : period_ns);
    p->prof.left_ns = 0;
    timer_set(TIMER_PROFILE, next_tick[c->id], tick);
}

void profile_leave(struct cpu *c)
{
    struct proc *p = c->proc;
    uint64_t now;

    if (!p || !p->prof.bins || !c->timers[TIMER_PROFILE].deadline)
        return;
    now = clock_ns();
    /* at least 1 ns: a tick that was due fires as soon as it is back */
    p->prof.left_ns = next_tick[c->id] > now ? next_tick[c->id] - now : 1;
    timer_set(TIMER_PROFILE, 0, NULL);
}

long profile_start(struct proc *p, uint64_t hz, uint64_t uptr)
{
    struct lwk_prof d;
    uint64_t nbins;
    uint16_t *bins;

    if (p->prof.bins)
        return -EBUSY;
    if (copy_from_user(pct, &d, uptr, sizeof(d)) < 0)
        return -EFAULT;
    if (!hz || hz > LWK_PROF_HZ_MAX || d.shift < 1 || d.shift > 16 ||
        d.hi <= d.lo || d.reserved || d.bins & 1)
        return -EINVAL;
    nbins = (d.hi - d.lo + (1ULL << d.shift) - 1) >> d.shift;
    if (nbins > LWK_REGION_MAX / 2 ||
        !(bins = region_ptr(p, d.bins, nbins * 2, true)))
        return -EINVAL;
    p->prof = (struct proc_prof){ .bins = bins, .lo = d.lo, .nbins = nbins,
                                  .shift = d.shift };
    period_ns = 1000000000ULL / hz;
    pr_info("pid %d: sampling its program counter at %lu Hz (%lu bins of "
            "%u bytes)\n", p->pid, hz, nbins, 1u << d.shift);
    return 0;
}

/* Its ticks stop by themselves: no CPU runs it any more. */
void profile_forget(struct proc *p)
{
    p->prof.bins = NULL;
}
