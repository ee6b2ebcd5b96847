/*
 * Debugging mechanisms (uapi/abi.h, proc_debug): stop a process's threads
 * where they are, read and write their registers, and for a process the
 * PCT flagged turn int3, a single step, a fault or an abort into a stop
 * the PCT hears instead of the process's end.  Who may debug which
 * process, and when a stopped one runs again, is the PCT's.
 *
 * A program nobody debugs pays nothing: its flags are looked at only on
 * the way to killing it (a fault, an abort), and stopping a thread is an
 * IPI to its CPU, never a check on the thread's own paths.
 *
 * Where a stopped thread is.  The main thread on CPU 0 is stopped while
 * the PCT has the CPU: its registers are the process's saved frame, and
 * LWK_STOP_DEBUG in its end_reason keeps proc_run from running it.  A
 * thread on another CPU (and a main thread placed on one) is parked: its
 * CPU loops in the kernel, interrupts on, serving calls, until it is let
 * go or its process is destroyed.  It parks where it was: in the handler
 * of the trap it took, or of the stop IPI that found it in user mode or
 * asleep in a system call (the kernel takes interrupts only when it
 * idles, so it holds nothing there).  Either way its user registers are
 * the frame at the top of its CPU's kernel stack, where every entry from
 * user mode starts, and its x87/SSE state is still in its CPU, which the
 * kernel never uses: a call to that CPU reads or writes it.
 *
 * A stop CPU 0 must act on (a thread's trap, a held fault) sets the
 * process's end_reason to LWK_STOP_DEBUG, which CPU 0 already looks at
 * after every interrupt and system call of the main thread (proc.c); a
 * real end that comes first (a thread's exit) is left alone and wins.
 */
#define LOG_PREFIX "debug"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "debug.h"
#include "lib.h"
#include "portals.h"
#include "proc.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define VEC_DB          1
#define VEC_BP          3
#define RFLAGS_TF       0x100
/* What a debugger may change in rflags: the arithmetic flags, DF and TF
   (CF PF AF ZF SF TF DF OF); IF stays on, IOPL 0 (as linux_return). */
#define RFLAGS_DEBUG    0xDD5
#define DR6_BS          (1u << 14)      /* single step (SDM Vol 3 18.2.3) */
#define DR6_INIT        0xFFFF0FF0ul

/* Per CPU: a thread parked there, and why it stopped (a main thread's
   why is in its process: CPU 0 runs several processes' main threads). */
static struct park {
    struct proc *want;          /* LWK_DBG_STOP: park p's thread here */
    struct proc *parked;        /* p's thread is parked here */
    struct lwk_dbg_event ev;
} park[MAX_CPUS];

static uint64_t read_dr6(void)
{
    uint64_t v;

    __asm__ volatile("mov %%dr6, %0" : "=r"(v));
    return v;
}

static void write_dr6(uint64_t v)
{
    __asm__ volatile("mov %0, %%dr6" : : "r"(v));
}

static struct lwk_dbg_event *event_of(struct proc *p, int cpu)
{
    return cpu == p->home ? &p->dbg.main_ev : &park[cpu].ev;
}

/* CPU 0 is to stop the main thread and tell the PCT (unless an end is
   published already: that one stands). */
static void publish(struct proc *p)
{
    uint32_t none = 0;

    __atomic_compare_exchange_n(&p->end_reason, &none, LWK_STOP_DEBUG, false,
                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Let the main thread run again (proc_run), if a debug stop is all that
   holds it. */
static void unpublish(struct proc *p)
{
    uint32_t dbg = LWK_STOP_DEBUG;

    __atomic_compare_exchange_n(&p->end_reason, &dbg, 0, false,
                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* This CPU's thread of p waits here until it is let go (LWK_DBG_CONT) or
   p is destroyed (then the CPU goes idle: its thread is no more). */
static void park_here(struct proc *p)
{
    struct cpu *c = this_cpu();
    struct park *k = &park[c->id];

    __atomic_store_n(&k->parked, p, __ATOMIC_RELEASE);
    while (__atomic_load_n(&c->proc, __ATOMIC_ACQUIRE) == p &&
           __atomic_load_n(&k->parked, __ATOMIC_ACQUIRE) == p) {
        irq_enable_and_halt();          /* calls come in as interrupts */
        irq_disable();
    }
    if (c->proc != p) {
        k->parked = NULL;
        k->ev = (struct lwk_dbg_event){ 0 };
        smp_idle_here();
    }
}

/* The thread running here stops for its debugger: the main thread on
   CPU 0 goes to the PCT, any other parks. */
static void stop_thread(struct proc *p, struct trapframe *tf,
                        const struct lwk_dbg_event *ev)
{
    *event_of(p, this_cpu()->id) = *ev;
    publish(p);
    if (!in_thread()) {
        proc_debug_stop(tf);
        return;
    }
    apic_send_ipi(cpus[0].apic_id, ICR_FIXED | VEC_KICK);
    park_here(p);
}

/* The first fault or abort held is the one the process's end will say. */
static void hold(struct proc *p, const struct lwk_run_result *how)
{
    uint32_t none = 0;

    if (__atomic_compare_exchange_n(&p->dbg.held, &none, 1, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        p->dbg.how = *how;
}

bool debug_fault(struct trapframe *tf)
{
    struct proc *p = current;
    bool trap = tf->vector == VEC_DB || tf->vector == VEC_BP;
    struct lwk_dbg_event ev = { .why = trap ? LWK_DBG_TRAPPED
                                            : LWK_DBG_FAULTED,
                                .vector = (uint32_t)tf->vector,
                                .error = tf->error };
    struct lwk_run_result how = {
        .reason = LWK_STOP_FAULT, .fault_vector = (uint32_t)tf->vector,
        .fault_error = (uint32_t)tf->error, .fault_rip = tf->rip,
        .fault_rsp = tf->rsp, .fault_cpu = (uint32_t)this_cpu()->id,
    };

    if (p->is_pct || !(p->dbg.flags & (trap ? LWK_DBG_TRAP : LWK_DBG_HOLD)))
        return false;
    if (tf->vector == VEC_DB) {
        ev.error = read_dr6();
        write_dr6(DR6_INIT);            /* its status bits are sticky */
        if (ev.error & DR6_BS)          /* the step is done */
            tf->rflags &= ~(uint64_t)RFLAGS_TF;
    }
    if (!trap) {
        ev.addr = how.fault_addr = tf->vector == VEC_PF ? read_cr2() : 0;
        pr_info("pid %d stopped for its debugger: %s at rip %#lx (address "
                "%#lx, error %#lx) on CPU %d\n", p->pid,
                trap_name(tf->vector), tf->rip, ev.addr, tf->error,
                this_cpu()->id);
        hold(p, &how);
    }
    stop_thread(p, tf, &ev);
    return true;
}

bool debug_abort(struct trapframe *tf, const struct lwk_run_result *how)
{
    struct proc *p = current;
    struct lwk_dbg_event ev = { .why = LWK_DBG_ABORTED };
    struct lwk_run_result h = *how;

    if (p->is_pct || !(p->dbg.flags & LWK_DBG_HOLD))
        return false;
    h.reason = LWK_STOP_ABORT;
    h.fault_rip = tf->rip;
    h.fault_rsp = tf->rsp;
    h.fault_cpu = (uint32_t)this_cpu()->id;
    pr_info("pid %d stopped for its debugger: abort with status %d on CPU "
            "%d\n", p->pid, how->status, this_cpu()->id);
    hold(p, &h);
    stop_thread(p, tf, &ev);
    return true;
}

/* ---- stopping and letting go ------------------------------------------ */

/* The stop IPI: park the thread of the process LWK_DBG_STOP names, in
   user mode or asleep in a system call (the kernel takes interrupts only
   where it idles). */
static void stop_irq(struct trapframe *tf)
{
    struct cpu *c = this_cpu();
    struct park *k = &park[c->id];
    struct proc *p = c->proc;
    struct lwk_dbg_event *ev;

    (void)tf;
    apic_eoi();                 /* calls must come in while it is parked */
    if (!p || __atomic_load_n(&k->want, __ATOMIC_ACQUIRE) != p ||
        k->parked == p)
        return;
    ev = event_of(p, c->id);
    if (ev->why == LWK_DBG_NONE)
        ev->why = LWK_DBG_STOPPED;
    park_here(p);
}

/* A main thread placed on its CPU (proc_place) while stopped (stopped
   before it started: yod -debug): it parks before its first instruction,
   its frame at the top of the stack as if it had trapped there. */
void debug_enter(struct proc *p)
{
    if (__atomic_load_n(&p->end_reason, __ATOMIC_ACQUIRE) == LWK_STOP_DEBUG)
        park_here(p);
}

static void unpark_here(void *arg)
{
    struct park *k = &park[this_cpu()->id];

    if (k->parked == arg) {
        k->ev = (struct lwk_dbg_event){ 0 };
        __atomic_store_n(&k->parked, NULL, __ATOMIC_RELEASE);
    }
}

static bool parked_on(struct proc *p, int cpu)
{
    return __atomic_load_n(&park[cpu].parked, __ATOMIC_ACQUIRE) == p &&
           __atomic_load_n(&cpus[cpu].proc, __ATOMIC_ACQUIRE) == p;
}

static long stop(struct proc *p)
{
    uint64_t mask = __atomic_load_n(&p->thread_cpus, __ATOMIC_ACQUIRE);
    uint64_t left;

    publish(p);
    if (!p->home && p->dbg.main_ev.why == LWK_DBG_NONE)
        p->dbg.main_ev.why = LWK_DBG_STOPPED;
    for (left = mask; left; left &= left - 1) {
        int cpu = __builtin_ctzll(left);
        __atomic_store_n(&park[cpu].want, p, __ATOMIC_RELEASE);
        apic_send_ipi(cpus[cpu].apic_id, ICR_FIXED | VEC_DBG_STOP);
    }
    /* Until each has parked or left (a thread ending).  Its CPU may be
       waiting for a call of ours first (a forwarded Portals call). */
    for (left = mask; left;) {
        int cpu = __builtin_ctzll(left);
        if (parked_on(p, cpu) ||
            __atomic_load_n(&cpus[cpu].proc, __ATOMIC_ACQUIRE) != p) {
            __atomic_store_n(&park[cpu].want, NULL, __ATOMIC_RELEASE);
            left &= left - 1;
            continue;
        }
        smp_poll_calls();
        cpu_relax();
    }
    return 0;
}

/* The main thread's stop ends first: a thread let go that stops at once
   must find end_reason clear, or its stop would be lost when it is
   cleared after (CPU 0 would run the main thread on, never told). */
static long cont(struct proc *p, uint64_t mask)
{
    if (mask >> p->home & 1) {
        p->dbg.main_ev = (struct lwk_dbg_event){ 0 };
        unpublish(p);
    }
    for (int cpu = 1; cpu < ncpus; cpu++)
        if ((mask >> cpu & 1) && parked_on(p, cpu))
            smp_call(cpu, unpark_here, p);
    return 0;
}

/* ---- what a debugger sees --------------------------------------------- */

/* Is the thread on `cpu` stopped, so its registers hold still?  The main
   thread on CPU 0 is whenever the PCT asks (it has the CPU). */
static bool thread_stopped(struct proc *p, uint64_t cpu)
{
    if (cpu >= (uint64_t)ncpus)
        return false;
    if (cpu == 0 && !p->home)
        return p->state == P_READY;
    return parked_on(p, (int)cpu);
}

static long state(struct proc *p, uint64_t uptr)
{
    static struct lwk_dbg_state s;      /* one caller: the PCT, on CPU 0 */

    s = (struct lwk_dbg_state){
        .threads = __atomic_load_n(&p->thread_cpus, __ATOMIC_ACQUIRE),
        .main_cpu = (uint32_t)p->home, .in_job = kptl_in_job(p),
        .cpu_ns = p->cpu_ns,
    };
    if (!p->home && p->state != P_DEAD)
        s.threads |= 1;
    if (!p->home && p->state == P_READY &&
        __atomic_load_n(&p->end_reason, __ATOMIC_ACQUIRE) == LWK_STOP_DEBUG)
        s.stopped |= 1;
    for (int cpu = 1; cpu < ncpus; cpu++)
        if (parked_on(p, cpu))
            s.stopped |= 1ULL << cpu;
    for (int cpu = 0; cpu < ncpus; cpu++)
        if (s.threads >> cpu & 1)
            s.ev[cpu] = *event_of(p, cpu);
    if (__atomic_load_n(&p->dbg.held, __ATOMIC_ACQUIRE))
        s.held = p->dbg.how;
    return copy_to_user(pct, uptr, &s, sizeof(s));
}

/* A parked thread's x87/SSE state and %fs base live in its CPU. */
struct cpu_regs {
    struct lwk_dbg_regs *r;
    bool write;
};

static void cpu_regs_here(void *arg)
{
    struct cpu_regs *x = arg;

    if (x->write) {
        fxrstor(x->r->fpu);
        wrmsr(MSR_FS_BASE, x->r->fs_base);
    } else {
        fxsave(x->r->fpu);
        x->r->fs_base = rdmsr(MSR_FS_BASE);
    }
}

static void frame_to_regs(const struct trapframe *tf, struct lwk_dbg_regs *r)
{
    r->rax = tf->rax; r->rbx = tf->rbx; r->rcx = tf->rcx; r->rdx = tf->rdx;
    r->rsi = tf->rsi; r->rdi = tf->rdi; r->rbp = tf->rbp; r->rsp = tf->rsp;
    r->r8 = tf->r8; r->r9 = tf->r9; r->r10 = tf->r10; r->r11 = tf->r11;
    r->r12 = tf->r12; r->r13 = tf->r13; r->r14 = tf->r14; r->r15 = tf->r15;
    r->rip = tf->rip; r->rflags = tf->rflags; r->cs = tf->cs; r->ss = tf->ss;
}

static void regs_to_frame(const struct lwk_dbg_regs *r, struct trapframe *tf)
{
    tf->rax = r->rax; tf->rbx = r->rbx; tf->rcx = r->rcx; tf->rdx = r->rdx;
    tf->rsi = r->rsi; tf->rdi = r->rdi; tf->rbp = r->rbp; tf->rsp = r->rsp;
    tf->r8 = r->r8; tf->r9 = r->r9; tf->r10 = r->r10; tf->r11 = r->r11;
    tf->r12 = r->r12; tf->r13 = r->r13; tf->r14 = r->r14; tf->r15 = r->r15;
    tf->rip = r->rip;
    tf->rflags = (tf->rflags & ~(uint64_t)RFLAGS_DEBUG) |
                 (r->rflags & RFLAGS_DEBUG) | 0x202;
    tf->cs = SEL_UCODE | 3;
    tf->ss = SEL_UDATA | 3;
}

/* What iretq and fxrstor would refuse in the kernel (a #GP there stops
   the node) is refused here: as linux_return checks a frame. */
static bool regs_ok(const struct lwk_dbg_regs *r)
{
    uint32_t mxcsr, mask;

    memcpy(&mxcsr, r->fpu + 24, 4);
    memcpy(&mask, proc_fpu_initial + 28, 4);
    if (!mask)
        mask = 0xFFBF;          /* SDM Vol 1 11.6.6: the default mask */
    return r->rip < LWK_STACK_TOP && r->rsp <= LWK_STACK_TOP &&
           r->fs_base < LWK_STACK_TOP && !(mxcsr & ~mask);
}

/* Get (write false) or set the registers of p's stopped thread on cpu. */
static long regs(struct proc *p, uint64_t cpu, uint64_t uptr, bool write)
{
    static struct lwk_dbg_regs r;       /* one caller: the PCT */
    struct cpu_regs x = { &r, write };
    struct trapframe *tf;
    struct lx_saved lx;

    if (!thread_stopped(p, cpu))
        return cpu < (uint64_t)ncpus ? -EBUSY : -EINVAL;
    if (write && (copy_from_user(pct, &r, uptr, sizeof(r)) < 0))
        return -EFAULT;
    if (write && !regs_ok(&r))
        return -EINVAL;
    if (!write)
        r = (struct lwk_dbg_regs){ 0 };
    if (linux_saved(p, (int)cpu, &lx)) {
        /* In its runtime, answering a call: the program's registers. */
        tf = lx.tf;
        if (write) {
            memcpy(lx.fpu, r.fpu, sizeof(r.fpu));
            *lx.fs = r.fs_base;
        } else {
            memcpy(r.fpu, lx.fpu, sizeof(r.fpu));
            r.fs_base = *lx.fs;
        }
    } else if (cpu == 0 && !p->home) {
        tf = &p->frame;
        if (write) {
            memcpy(p->fpu, r.fpu, sizeof(r.fpu));
            p->fs_base = r.fs_base;
        } else {
            memcpy(r.fpu, p->fpu, sizeof(r.fpu));
            r.fs_base = p->fs_base;
        }
    } else {
        tf = (struct trapframe *)(cpus[cpu].kstack_top - sizeof(*tf));
        smp_call((int)cpu, cpu_regs_here, &x);
        if (write && cpu == (uint64_t)p->home)
            p->fs_base = r.fs_base;     /* a placed main thread's, kept */
    }
    if (write) {
        regs_to_frame(&r, tf);
        return 0;
    }
    frame_to_regs(tf, &r);
    return copy_to_user(pct, uptr, &r, sizeof(r));
}

long proc_debug(uint64_t op, uint64_t pid, uint64_t arg, uint64_t uptr)
{
    struct proc *p = proc_lookup(pid);

    if (!p)
        return -ESRCH;
    switch (op) {
    case LWK_DBG_SET:
        if (arg & ~(uint64_t)(LWK_DBG_TRAP | LWK_DBG_HOLD))
            return -EINVAL;
        p->dbg.flags = (uint32_t)arg;
        p->dbg.held = 0;        /* a held end, resumed, is over */
        return 0;
    case LWK_DBG_STOP:
        return p->state == P_DEAD ? -ESRCH : stop(p);
    case LWK_DBG_CONT:
        return cont(p, arg);
    case LWK_DBG_STATE:
        return state(p, uptr);
    case LWK_DBG_GETREGS:
        return regs(p, arg, uptr, false);
    case LWK_DBG_SETREGS:
        return regs(p, arg, uptr, true);
    case LWK_DBG_PROFILE:
        return p->state == P_DEAD ? -ESRCH : profile_start(p, arg, uptr);
    case LWK_DBG_COUNT:
        return pmu_count(p, arg, uptr);
    default:
        return -EINVAL;
    }
}

void debug_init(void)
{
    trap_set_handler(VEC_DBG_STOP, stop_irq);
}
