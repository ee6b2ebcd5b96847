/*
 * Threads mode: a process runs threads on CPUs the PCT gave it
 * (proc_cpus), one thread per CPU, never time-sliced, never moved.  The
 * main thread and the PCT stay on CPU 0; every other CPU runs at most one
 * thread, of one process, and halts in its idle loop when it has none.
 *
 * The CPU that starts a thread hands it to the target CPU with a call
 * (take_thread); the target leaves its idle loop for user mode.  A thread
 * ends by thread_exit (its CPU goes back to idle), or is stopped by
 * threads_stop (a call that takes it off its CPU) when its process ends.
 * Who ends a process first (the main thread's exit or fault, or a thread's
 * exit or fault on any CPU) claims p->end_reason; a thread that ends it
 * kicks CPU 0, which stops the main thread and the other threads and
 * tells the PCT (proc.c).
 *
 * Virtual-node mode uses the same machinery for a whole process: the PCT
 * places a process's main thread on a CPU of its own (proc_place), where
 * it runs from then until it ends, like a thread that may also use
 * Portals (its calls are forwarded to the engine's CPU) and that no
 * quantum interrupts.  Its end is a thread's end: it claims the process's
 * end, leaves its CPU and kicks CPU 0; the PCT sees it with proc_run.
 */
#define LOG_PREFIX "thread"
#include "kernel.h"
#include "aspace.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "memlayout.h"
#include "paging.h"
#include "portals.h"
#include "proc.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

/* Which process each CPU is given to (proc_cpus); CPU 0 is nobody's. */
static struct proc *owner[MAX_CPUS];

bool in_thread(void)
{
    return this_cpu()->id != 0;
}

bool placed_main(void)
{
    return this_cpu()->main;
}

/* ---- giving CPUs to a process (the PCT's decision) ------------------------ */

bool thread_cpu_given(int cpu)
{
    return owner[cpu] != NULL;
}

long thread_cpus_grant(struct proc *p, uint64_t mask)
{
    uint64_t online = ncpus == 64 ? ~0ULL : (1ULL << ncpus) - 1;

    if (mask & ~(online & ~1ULL))
        return -EINVAL;         /* CPU 0 or a CPU that is not online */
    if (p->home)
        return -EINVAL;         /* placed: it has its one CPU */
    if (kptl_engine_cpu && (mask >> kptl_engine_cpu & 1))
        return -EBUSY;          /* it runs the Portals engine */
    for (int i = 1; i < ncpus; i++)
        if ((mask >> i & 1) && owner[i] && owner[i] != p)
            return -EBUSY;
    for (int i = 1; i < ncpus; i++) {
        if (owner[i] == p)
            owner[i] = NULL;
        if (mask >> i & 1)
            owner[i] = p;
    }
    p->cpus = mask;
    return 0;
}

/* ---- starting a thread ---------------------------------------------------- */

/* On the target CPU (a call, from its idle loop): the thread is ours. */
static void take_thread(void *arg)
{
    struct cpu *c = this_cpu();

    c->thread = *(struct thread_start *)arg;
    c->main = c->thread.main;
    __atomic_store_n(&c->proc, c->thread.p, __ATOMIC_RELEASE);
    profile_enter(c);
    pmu_enter(c->proc);
}

/* A thread that told its joiner it is done (thread_leaving) may not have
   left its CPU yet: a create right after the join waits the few
   instructions that takes instead of failing.  `leaving` is read first:
   leave() clears it after the CPU's bit. */
uint64_t thread_free_cpus(struct proc *p)
{
    for (;;) {
        uint64_t leaving = __atomic_load_n(&p->thread_leaving,
                                           __ATOMIC_ACQUIRE);
        uint64_t free = p->cpus & ~__atomic_load_n(&p->thread_cpus,
                                                   __ATOMIC_ACQUIRE);
        if (free || !(leaving & p->cpus))
            return free;
        cpu_relax();
    }
}

long thread_start(struct proc *p, uint64_t entry, uint64_t stack,
                  uint64_t arg, uint64_t tls)
{
    struct thread_start r = { p, entry, stack, arg, tls, false };
    uint64_t free;
    int cpu;

    if (!user_ptr(p, entry, 1, false) || !user_ptr(p, stack - 8, 8, true))
        return -EFAULT;
    free = thread_free_cpus(p);
    if (!free)
        return -EAGAIN;         /* one thread per CPU, no time-slicing */
    cpu = __builtin_ctzll(free);
    __atomic_or_fetch(&p->thread_cpus, 1ULL << cpu, __ATOMIC_ACQ_REL);
    smp_call(cpu, take_thread, &r);
    return cpu;
}

/* From the idle loop of a CPU that was given a thread: enter user mode
   at its entry, on its stack, with its argument and %fs base, and a clean
   x87/SSE state; a placed main thread with the registers, x87/SSE state
   and %fs base proc_start gave it.  The frame goes at the stack top,
   above the idle loop's frames (IDLE_STACK_GAP). */
_Static_assert(sizeof(struct trapframe) + 16 <= IDLE_STACK_GAP, "gap");
__noreturn void thread_enter(struct cpu *c)
{
    struct thread_start *r = &c->thread;
    struct trapframe *tf = (void *)(c->kstack_top - sizeof(*tf));

    aspace_switch(r->p->cr3);
    if (r->main) {
        wrmsr(MSR_FS_BASE, r->p->fs_base);
        fxrstor(r->p->fpu);
        *tf = r->p->frame;
        debug_enter(r->p);
        trap_return_to(tf);
    }
    wrmsr(MSR_FS_BASE, r->tls);
    fxrstor(proc_fpu_initial);
    *tf = (struct trapframe){
        .rip = r->entry, .rsp = r->stack, .rdi = r->arg,
        .cs = SEL_UCODE | 3, .ss = SEL_UDATA | 3, .rflags = 0x202,
    };
    trap_return_to(tf);
}

/* ---- placing a main thread (virtual-node mode) ---------------------------- */

/* The PCT's decision: p's main thread takes `cpu` (not 0, not the
   engine's, nobody's) for the rest of its life.  p is loaded and has
   its entry (proc_start) and runs nowhere yet. */
long thread_place(struct proc *p, int cpu)
{
    struct thread_start r = { .p = p, .main = true };

    if (cpu <= 0 || cpu >= ncpus)
        return -EINVAL;
    if (cpu == kptl_engine_cpu || owner[cpu] ||
        __atomic_load_n(&cpus[cpu].proc, __ATOMIC_ACQUIRE))
        return -EBUSY;
    owner[cpu] = p;
    p->home = cpu;
    p->run_start_tsc = rdtsc();
    /* Its CPU counts as one of its threads' for threads_stop: a KILL or
       its end takes it off the CPU the same way. */
    __atomic_or_fetch(&p->thread_cpus, 1ULL << cpu, __ATOMIC_ACQ_REL);
    smp_call(cpu, take_thread, &r);
    return 0;
}

/* ---- leaving a CPU -------------------------------------------------------- */

/* This CPU runs no thread of p any more: off its address space first, so
   once the bit is clear nothing here holds p's tables. */
static void leave(struct cpu *c)
{
    struct proc *p = c->proc;

    pmu_leave(p);
    profile_leave(c);
    aspace_switch(kernel_cr3);
    wrmsr(MSR_FS_BASE, 0);
    c->main = false;
    c->proc = NULL;
    __atomic_and_fetch(&p->thread_cpus, ~(1ULL << c->id), __ATOMIC_RELEASE);
    __atomic_and_fetch(&p->thread_leaving, ~(1ULL << c->id),
                       __ATOMIC_RELEASE);
}

/* This CPU's thread is about to tell its joiner it is done: from then on
   its CPU counts as free soon (thread_start waits for it). */
void thread_leaving(void)
{
    struct cpu *c = this_cpu();

    __atomic_or_fetch(&c->proc->thread_leaving, 1ULL << c->id,
                      __ATOMIC_RELEASE);
}

__noreturn void thread_exit(uint64_t done_uva)
{
    struct cpu *c = this_cpu();
    uint32_t one = 1;

    /* Its user stack is no longer in use: the joiner may free it now. */
    thread_leaving();
    copy_to_user(c->proc, done_uva, &one, sizeof(one));
    leave(c);
    smp_idle_here();
}

/* A call on the thread's CPU: it interrupted the thread (or found the CPU
   in a system call or idle).  The trap's way out sees no process and
   goes to the idle loop instead of back to user mode. */
static void stop_here(void *arg)
{
    struct cpu *c = this_cpu();

    if (c->proc == arg)
        leave(c);
}

void threads_stop(struct proc *p)
{
    uint64_t left;

    while ((left = __atomic_load_n(&p->thread_cpus, __ATOMIC_ACQUIRE)))
        smp_call(__builtin_ctzll(left), stop_here, p);
}

/* On the way back to user mode on a thread's CPU: its thread was stopped
   while this CPU was in the kernel. */
void thread_check_stopped(void)
{
    if (in_thread() && !this_cpu()->proc)
        smp_idle_here();
}

void thread_release(struct proc *p)
{
    threads_stop(p);
    for (int i = 1; i < ncpus; i++)
        if (owner[i] == p)
            owner[i] = NULL;
    p->cpus = 0;
}

/* ---- a thread ends its process -------------------------------------------- */

/* The first to end a process fills p->end and then publishes its reason;
   the others' ends are lost (the process is over already). */
bool proc_claim_end(struct proc *p)
{
    uint32_t none = 0;

    return __atomic_compare_exchange_n(&p->end_claimed, &none, 1, false,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void proc_publish_end(struct proc *p, uint32_t reason)
{
    __atomic_store_n(&p->end_reason, reason, __ATOMIC_RELEASE);
}

/* CPU 0 stops the main thread when it next looks (proc.c): an interrupt
   from user mode, the end of a system call, or proc_run. */
static __noreturn void end_process(void)
{
    struct cpu *c = this_cpu();

    leave(c);
    apic_send_ipi(cpus[0].apic_id, ICR_FIXED | VEC_KICK);
    smp_idle_here();
}

__noreturn void thread_end_process(uint32_t reason,
                                   const struct lwk_run_result *how)
{
    struct proc *p = this_cpu()->proc;

    if (proc_claim_end(p)) {
        p->end = *how;
        proc_publish_end(p, reason);
    }
    end_process();
}
__noreturn void thread_fault(struct trapframe *tf)
{
    struct proc *p = this_cpu()->proc;
    struct lwk_run_result how = {
        .fault_vector = tf->vector, .fault_error = tf->error,
        .fault_addr = tf->vector == VEC_PF ? read_cr2() : 0,
        .fault_rip = tf->rip, .fault_rsp = tf->rsp,
        .fault_cpu = this_cpu()->id,
    };

    pr_info("pid %d killed: %s at rip %#lx (address %#lx, error %#lx) on "
            "CPU %d\n", p->pid, trap_name(tf->vector), tf->rip,
            how.fault_addr, tf->error, this_cpu()->id);
    thread_end_process(LWK_STOP_FAULT, &how);
}
/* The kick only wakes a CPU; what it must do is in p->end_reason (CPU
   0) or p->lx_sigpend (a Linux thread's signals: linux.c), which the
   way back to user mode looks at. */
static void kick_irq(struct trapframe *tf)
{
    (void)tf;
    apic_eoi();
}

void thread_init(void)
{
    trap_set_handler(VEC_KICK, kick_irq);
}
