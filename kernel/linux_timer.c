/*
 * A Linux process's timers and its threads' waits for a signal (the
 * linux_timer and linux_sigwait calls; the runtime's alarm, setitimer,
 * timer_*, rt_sigsuspend, rt_sigtimedwait and pause make them:
 * lxrt/rt_timer.c, lxrt/rt_signal.c; docs/LINUX.md).
 *
 * A timer belongs to the thread its signal goes to, so to that thread's
 * CPU: it is armed in that CPU's TIMER_LXSIG slot, whose interrupt only
 * wakes the CPU; on every way back to the process's user mode
 * (linux_signal_check) the timers due there set their signal pending,
 * exactly as linux_kill does, and the next one is armed.  A timer that
 * comes due while the PCT has CPU 0 fires when the main thread next runs.
 *
 * A wait halts the CPU (an idle node stays idle) until an interrupt: the
 * kick linux_kill sends, a timer, the wait's own deadline, the quantum,
 * a thread stop.  Then it returns, so the way out of the call does what
 * it must (the PCT's turn, the process's end); the runtime looks at what
 * was sent and waits again if it must.
 */
#define LOG_PREFIX "linux"
#include "kernel.h"
#include "cpu.h"
#include "lib.h"
#include "proc.h"
#include "timer.h"
#include "x86.h"

#define LINUX_NSIG      64

static uint64_t deadline_in(uint64_t now, uint64_t ns)
{
    return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
}

/* With lx_timer_lock held: which CPUs have a timer armed; the earliest
   deadline on `cpu` (UINT64_MAX: none). */
static uint64_t timers_scan(struct proc *p, int cpu)
{
    uint64_t cpus = 0, next = UINT64_MAX;

    for (int i = 0; i < LWK_LX_TIMERS; i++) {
        struct lx_timer *t = &p->lx_timers[i];

        if (!t->deadline)
            continue;
        cpus |= 1ULL << t->cpu;
        if (t->cpu == cpu && t->deadline < next)
            next = t->deadline;
    }
    __atomic_store_n(&p->lx_timer_cpus, cpus, __ATOMIC_RELEASE);
    return next;
}

/* Each due timer sends its signal once however many intervals passed
   (Linux counts the others as overruns); an interval timer moves to its
   next expiry after now. */
void linux_timers_due(struct proc *p, int cpu)
{
    uint64_t now, next;

    if (!(__atomic_load_n(&p->lx_timer_cpus, __ATOMIC_ACQUIRE) >> cpu & 1))
        return;
    now = clock_ns();
    spin_lock(&p->lx_timer_lock);
    for (int i = 0; i < LWK_LX_TIMERS; i++) {
        struct lx_timer *t = &p->lx_timers[i];

        if (!t->deadline || t->cpu != cpu || t->deadline > now)
            continue;
        if (t->sig)
            linux_post(p, cpu, t->sig);
        t->overrun = t->interval ? (uint32_t)MIN((now - t->deadline) /
                                   t->interval, INT32_MAX) : 0;
        t->deadline = t->interval ? t->deadline + ((uint64_t)t->overrun + 1)
                                    * t->interval : 0;
    }
    next = timers_scan(p, cpu);
    spin_unlock(&p->lx_timer_lock);
    if (next != UINT64_MAX)
        timer_set(TIMER_LXSIG, next, NULL);
}

/* The thread on `cpu` ends: its timers go on for the main thread (a
   timer's signal is the process's on Linux; here it goes to the thread
   that set it, while there is one). */
void linux_timers_leave(struct proc *p, int cpu)
{
    bool moved = false;

    if (cpu == p->home ||
        !(__atomic_load_n(&p->lx_timer_cpus, __ATOMIC_ACQUIRE) >> cpu & 1))
        return;
    spin_lock(&p->lx_timer_lock);
    for (int i = 0; i < LWK_LX_TIMERS; i++)
        if (p->lx_timers[i].deadline && p->lx_timers[i].cpu == cpu) {
            p->lx_timers[i].cpu = p->home;
            moved = true;
        }
    timers_scan(p, cpu);
    spin_unlock(&p->lx_timer_lock);
    if (moved)                  /* its CPU arms them on the way out */
        apic_send_ipi(cpus[p->home].apic_id, ICR_FIXED | VEC_KICK);
}

/* What is left of t: at least 1 ns while it is armed, even if due. */
static struct lwk_lx_timer timer_now(const struct lx_timer *t, uint64_t now)
{
    return (struct lwk_lx_timer){
        .value_ns = !t->deadline ? 0 : t->deadline > now ? t->deadline - now
                                                         : 1,
        .interval_ns = t->interval, .sig = t->sig, .overrun = t->overrun,
    };
}

long linux_timer(long id, uint64_t uset, uint64_t uold)
{
    struct proc *p = current;
    int me = this_cpu()->id;
    struct lwk_lx_timer set, old;
    struct lx_timer *t;
    long cpu = me;
    uint64_t now, next;

    if (!p->lx_entry || id < 0 || id >= LWK_LX_TIMERS || me >= LWK_LXRT_CPUS)
        return -EINVAL;
    if (uset && copy_from_user(p, &set, uset, sizeof(set)) < 0)
        return -EFAULT;
    if (uset && (set.sig < 0 || set.sig > LINUX_NSIG))
        return -EINVAL;
    if (uset && set.tid && (cpu = linux_thread_cpu(p, set.tid)) < 0)
        return cpu;
    if (cpu >= LWK_LXRT_CPUS)
        return -EINVAL;                 /* no runtime slice: none to run it */
    t = &p->lx_timers[id];
    spin_lock(&p->lx_timer_lock);
    now = clock_ns();
    old = timer_now(t, now);
    if (uset)
        *t = (struct lx_timer){
            .deadline = set.value_ns ? deadline_in(now, set.value_ns) : 0,
            .interval = set.interval_ns, .sig = set.sig, .cpu = (int)cpu,
        };
    next = timers_scan(p, me);
    spin_unlock(&p->lx_timer_lock);
    if (uset && set.value_ns && cpu != me)      /* armed there on its way */
        apic_send_ipi(cpus[cpu].apic_id, ICR_FIXED | VEC_KICK);
    if (uset)                   /* a cancelled one must not wake the CPU */
        timer_set_exact(TIMER_LXSIG, next == UINT64_MAX ? 0 : next, NULL);
    return uold ? copy_to_user(p, uold, &old, sizeof(old)) : 0;
}

long linux_sigwait(uint64_t ns, uint64_t usent)
{
    struct proc *p = current;
    int cpu = this_cpu()->id;
    uint64_t deadline = deadline_in(clock_ns(), ns), sent;

    if (!p->lx_entry || cpu >= LWK_LXRT_CPUS)
        return -EINVAL;
    if (!user_ptr(p, usent, sizeof(sent), true))
        return -EFAULT;
    linux_timers_due(p, cpu);
    if (!__atomic_load_n(&p->lx_sigpend[cpu], __ATOMIC_ACQUIRE) &&
        clock_ns() < deadline) {
        timer_set(TIMER_WAKE, deadline == UINT64_MAX ? 0 : deadline, NULL);
        irq_enable_and_halt();          /* a kick, a timer, the deadline */
        irq_disable();
        timer_set(TIMER_WAKE, 0, NULL);
        linux_timers_due(p, cpu);
    }
    sent = __atomic_exchange_n(&p->lx_sigpend[cpu], 0, __ATOMIC_ACQ_REL);
    return copy_to_user(p, usent, &sent, sizeof(sent));
}
