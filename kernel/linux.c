/*
 * The Linux personality: a process whose runtime made the linux_setup
 * call runs a static Linux x86-64 program (docs/LINUX.md).  Its system
 * calls with numbers below LWK_SYSCALL_BASE are Linux's, classed in the
 * one list uapi/linux.def:
 *
 *   KERNEL   answered here: they need the CPU (%fs, threads on other
 *            CPUs, futexes) or end the process; the scheduler's in
 *            linux_sched.c;
 *   RUNTIME  reflected: the program's registers, FPU state and %fs go on
 *            the runtime's stack (this CPU's slice of it) in a struct
 *            lx_frame with the call's number and arguments, and the CPU
 *            goes on at the runtime's entry with %fs the runtime's; the
 *            runtime answers and makes linux_return, which puts the
 *            program back where it was with the result in rax -- a system
 *            call seen from the program, a function call seen from the
 *            runtime.  The frame is in user memory, so linux_return
 *            checks what it restores as a signal return would (user
 *            selectors, no IOPL, interrupts on, a valid MXCSR);
 *   ENOSYS   and any number not listed: -ENOSYS; an unlisted number is
 *            logged the first time this process makes it.
 *
 * Threads (clone) run one per CPU the PCT gave the process (thread.c);
 * their futex waits halt their CPUs (linux_futex.c).  Signals
 * (linux_kill) reach the runtime on their thread's CPU as a reflected
 * call of their own (below).
 */
#define LOG_PREFIX "linux"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "debug.h"
#include "lib.h"
#include "printf.h"
#include "proc.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

enum { LX_NONE, LX_KERNEL, LX_RUNTIME, LX_ENOSYS };

#define RFLAGS_TF       0x100

/* What a Linux program gets back is Linux's errno.  The kernel's own
   numbers (uapi/errno.h) are newlib's; they agree with Linux's for EPERM,
   EFAULT, EINVAL, EAGAIN (test_linux_abi checks), not for this one. */
#define LINUX_ENOSYS    38

static const uint8_t lx_class[] = {
#define LINUX(nr, name, class) [nr] = LX_##class,
#include "uapi/linux.def"
#undef LINUX
};

/* On the runtime's stack while it answers a call (lxrt/rt_entry.S). */
struct lx_frame {
    uint64_t call[8];           /* nr, six arguments, CPU */
    struct trapframe tf;        /* the program's registers */
    uint64_t fs, pad;           /* its %fs base */
    uint8_t fpu[512];           /* its x87/SSE state (FXSAVE) */
};
_Static_assert(sizeof(struct lx_frame) % 16 == 0 &&
               __builtin_offsetof(struct lx_frame, fpu) % 16 == 0,
               "FXSAVE needs 16-byte alignment, the stub a 16-aligned rsp");
/* The runtime reads and rewrites it as uapi/abi.h's struct lwk_lx_frame. */
_Static_assert(sizeof(struct lx_frame) == sizeof(struct lwk_lx_frame) &&
               __builtin_offsetof(struct lx_frame, tf) ==
               __builtin_offsetof(struct lwk_lx_frame, regs) &&
               __builtin_offsetof(struct trapframe, rip) ==
               __builtin_offsetof(struct lwk_lx_frame, regs.rip) -
               __builtin_offsetof(struct lwk_lx_frame, regs) &&
               __builtin_offsetof(struct trapframe, ss) ==
               __builtin_offsetof(struct lwk_lx_frame, regs.ss) -
               __builtin_offsetof(struct lwk_lx_frame, regs) &&
               __builtin_offsetof(struct lx_frame, fpu) ==
               __builtin_offsetof(struct lwk_lx_frame, fpu),
               "struct lwk_lx_frame is struct lx_frame");

#define ARCH_SET_FS     0x1002
#define ARCH_GET_FS     0x1003

static uint64_t fs_now(struct proc *p)
{
    return in_thread() && !placed_main() ? rdmsr(MSR_FS_BASE) : p->fs_base;
}

static void fs_set(struct proc *p, uint64_t fs)
{
    if (!in_thread() || placed_main())
        p->fs_base = fs;        /* the main thread's, kept across switches */
    wrmsr(MSR_FS_BASE, fs);
}

static long lx_arch_prctl(struct trapframe *tf)
{
    uint64_t fs;

    switch (tf->rdi) {
    case ARCH_SET_FS:
        if (tf->rsi >= LWK_STACK_TOP)
            return -EPERM;
        fs_set(current, tf->rsi);
        return 0;
    case ARCH_GET_FS:
        fs = fs_now(current);
        return copy_to_user(current, tf->rsi, &fs, 8);
    default:
        return -EINVAL;
    }
}

/* A thread's id: the process's pid for the main thread, else one per
   CPU, TID(p, cpu) (what tgkill and gettid see). */
#define TID(p, cpu)     ((p)->pid * 256 + (cpu))

static long tid(void)
{
    int cpu = this_cpu()->id;

    return in_thread() && !placed_main() ? TID(current, cpu) : current->pid;
}

/* A thread that has told its joiner it is done (thread_leaving) is not
   live: its pthread_join may have returned. */
long linux_thread_cpu(struct proc *p, int tid)
{
    int cpu = tid - TID(p, 0);
    uint64_t live = __atomic_load_n(&p->thread_cpus, __ATOMIC_ACQUIRE) &
                    ~__atomic_load_n(&p->thread_leaving, __ATOMIC_ACQUIRE);

    if (tid == p->pid)
        return p->home;
    if (cpu > 0 && cpu < 64 && cpu != p->home && (live >> cpu & 1))
        return cpu;
    return -ESRCH;
}

#define CLONE_VM                0x100
#define CLONE_THREAD            0x10000
#define CLONE_SETTLS            0x80000
#define CLONE_PARENT_SETTID     0x100000
#define CLONE_CHILD_CLEARTID    0x200000

/* clone(flags, stack, parent_tid, child_tid, tls) for threads only: the
   child goes on after the syscall on its new stack with rax 0 (glibc's
   clone pops what it needs from that stack). */
static long lx_clone(struct trapframe *tf)
{
    uint64_t flags = tf->rdi, ctid = tf->r10, free;
    struct proc *p = current;
    uint32_t t;
    long cpu;

    if ((flags & (CLONE_VM | CLONE_THREAD | CLONE_SETTLS)) !=
        (CLONE_VM | CLONE_THREAD | CLONE_SETTLS) || !tf->rsi)
        return -LINUX_ENOSYS;   /* no processes but the one */
    /* Linux writes parent_tid before the child runs (both may name the
       same word, which the child's exit zeroes): the tid is the CPU's,
       the one thread_start will pick. */
    free = thread_free_cpus(p);     /* after a join, the joined one's */
    if (!free)
        return -EAGAIN;
    t = (uint32_t)TID(p, __builtin_ctzll(free));
    if (flags & CLONE_PARENT_SETTID)
        copy_to_user(p, tf->rdx, &t, sizeof(t));
    /* The thread's argument (its rdi, which glibc's clone does not read
       in the child) carries the child_tid word its exit zeroes. */
    cpu = thread_start(p, tf->rip, tf->rsi,
                       (flags & CLONE_CHILD_CLEARTID) ? ctid : 0, tf->r8);
    if (cpu < 0)
        return cpu;             /* -EAGAIN: taken meanwhile */
    return TID(p, cpu);         /* t, unless another clone raced it */
}

/* A thread's end: its child_tid word is zeroed and a wait on it woken
   (pthread_join's), as Linux does, then the CPU is free. */
static long lx_exit(struct trapframe *tf)
{
    struct proc *p = current;
    uint32_t zero = 0;

    if (!in_thread() || placed_main()) {
        proc_exit(tf, (int)tf->rdi);
        return 0;
    }
    /* Signals still pending die with the thread; the next thread on
       this CPU starts with none (the runtime's too: LWK_LX_FRESH). */
    if (this_cpu()->id < LWK_LXRT_CPUS) {
        linux_timers_leave(p, this_cpu()->id);
        __atomic_store_n(&p->lx_sigpend[this_cpu()->id], 0, __ATOMIC_RELEASE);
        __atomic_or_fetch(&p->lx_fresh, 1ULL << this_cpu()->id,
                          __ATOMIC_RELEASE);
    }
    thread_leaving();
    if (this_cpu()->thread.arg &&
        copy_to_user(p, this_cpu()->thread.arg, &zero, sizeof(zero)) == 0)
        linux_futex_wake(p, this_cpu()->thread.arg, 1);
    thread_exit(0);
}

static long lx_kernel(struct trapframe *tf, uint64_t nr)
{
    switch (nr) {
    case 24:                            /* sched_yield */
        return 0;
    case 39:                            /* getpid */
        return current->pid;
    case 186:                           /* gettid */
    case 218:                           /* set_tid_address */
        return tid();
    case 56:
        return lx_clone(tf);
    case 60:
        return lx_exit(tf);
    case 231:                           /* exit_group */
        proc_exit(tf, (int)tf->rdi);
        return 0;
    case 158:
        return lx_arch_prctl(tf);
    case 202:
        return linux_futex(tf);
    case 142 ... 148:                   /* the scheduler's calls */
    case 203 ... 204:
    case 309:                           /* getcpu */
        return linux_sched(tf, nr);
    case 273:                           /* set_robust_list: no futex is */
        return 0;                       /* left held by a thread's end */
    default:
        return -LINUX_ENOSYS;
    }
}

/* CPU `cpu`'s slice of the runtime's stack (a main thread's is the
   first, wherever it runs). */
static uint64_t rt_stack_of(struct proc *p, int cpu)
{
    int slice = cpu == p->home ? 0 : cpu;

    return p->lx_stack - (uint64_t)slice * LWK_LXRT_STACK_PER_CPU;
}

/* This CPU's slice of the runtime's stack. */
static uint64_t rt_stack(struct proc *p)
{
    return rt_stack_of(p, in_thread() && !placed_main() ? this_cpu()->id
                                                        : p->home);
}

bool linux_saved(struct proc *p, int cpu, struct lx_saved *s)
{
    struct lx_frame *f;

    if (!p->lx_entry || cpu >= LWK_LXRT_CPUS ||
        !(__atomic_load_n(&p->lx_busy, __ATOMIC_ACQUIRE) >> cpu & 1))
        return false;
    f = user_ptr(p, rt_stack_of(p, cpu) - sizeof(*f), sizeof(*f), true);
    if (!f)
        return false;
    *s = (struct lx_saved){ &f->tf, &f->fs, f->fpu };
    return true;
}

/* Hand a call ({nr, args[6]}) to the runtime: see the top of the file. */
static long reflect_call(struct trapframe *tf, struct proc *p,
                         const uint64_t call[7])
{
    struct cpu *c = this_cpu();
    uint64_t sp = rt_stack(p) - sizeof(struct lx_frame);
    struct lx_frame *f = user_ptr(p, sp, sizeof(*f), true);
    uint64_t bit = 1ULL << c->id, fresh;

    if (c->id >= LWK_LXRT_CPUS || !f)
        return -LINUX_ENOSYS;
    if (__atomic_fetch_or(&p->lx_busy, bit, __ATOMIC_ACQ_REL) & bit)
        return -LINUX_ENOSYS;           /* the runtime speaks Q-Kernel */
    fresh = __atomic_fetch_and(&p->lx_fresh, ~bit, __ATOMIC_ACQ_REL) & bit;
    *f = (struct lx_frame){
        .call = { call[0], call[1], call[2], call[3], call[4], call[5],
                  call[6], (uint64_t)c->id | (fresh ? LWK_LX_FRESH : 0) },
        .tf = *tf, .fs = fs_now(p),
    };
    fxsave(f->fpu);                     /* 16-aligned: see lx_frame */
    fs_set(p, p->lx_rt_fs);
    tf->rflags &= ~(uint64_t)RFLAGS_TF; /* a single step is the program's */
    tf->rip = p->lx_entry;
    tf->rsp = sp;                       /* 16-aligned: the stub calls */
    tf->rdi = sp;
    return (long)sp;                    /* becomes rax: the same pointer */
}

static long reflect(struct trapframe *tf, struct proc *p)
{
    uint64_t call[7] = { tf->rax, tf->rdi, tf->rsi, tf->rdx, tf->r10,
                         tf->r8, tf->r9 };

    return reflect_call(tf, p, call);
}

/* ---- signals: sent here, answered by the runtime (lxrt/rt_signal.c) ------

   The runtime keeps the dispositions and each thread's mask; the kernel
   only carries a signal to the thread it is for: a bit in the pending
   set of that thread's CPU and a kick to that CPU, which, on its way
   back to the program (an interrupt, the end of a call, the PCT running
   the main thread again), reflects an LWK_LX_SIGNALS call to the
   runtime there, as it reflects a system call.  The runtime then runs
   the handler on that thread, ignores the signal, keeps it while it is
   blocked, or ends the process.  A thread in the runtime already gets
   it when its linux_return comes back this way. */
#define LINUX_NSIG      64

void linux_post(struct proc *p, int cpu, int sig)
{
    __atomic_or_fetch(&p->lx_sigpend[cpu], 1ULL << (sig - 1),
                      __ATOMIC_ACQ_REL);
}

long linux_kill(long tid, long sig)
{
    struct proc *p = current;
    long cpu = (int)tid == 0 ? this_cpu()->id : linux_thread_cpu(p, (int)tid);

    if (!p->lx_entry)
        return -EINVAL;                 /* not a Linux process */
    if (cpu < 0)
        return cpu;
    if (sig < 0 || sig > LINUX_NSIG)
        return -EINVAL;
    if (sig == 0)
        return 0;
    if (cpu >= LWK_LXRT_CPUS)
        return -EAGAIN;                 /* no runtime slice: none to run it */
    linux_post(p, (int)cpu, (int)sig);
    if (cpu != this_cpu()->id)
        apic_send_ipi(cpus[cpu].apic_id, ICR_FIXED | VEC_KICK);
    return 0;
}

void linux_signal_check(struct trapframe *tf)
{
    struct proc *p = current;
    int cpu = this_cpu()->id;
    uint64_t call[7] = { LWK_LX_SIGNALS };

    if (!p || !p->lx_entry || !(tf->cs & 3) || cpu >= LWK_LXRT_CPUS)
        return;
    linux_timers_due(p, cpu);           /* a timer's interrupt, maybe */
    if ((__atomic_load_n(&p->lx_busy, __ATOMIC_ACQUIRE) >> cpu & 1) ||
        !__atomic_load_n(&p->lx_sigpend[cpu], __ATOMIC_ACQUIRE))
        return;
    linux_futex_signalled(p, cpu, tf);  /* a wait to go on ends now */
    call[1] = __atomic_exchange_n(&p->lx_sigpend[cpu], 0, __ATOMIC_ACQ_REL);
    call[2] = __atomic_exchange_n(&p->lx_restart[cpu], 0, __ATOMIC_ACQ_REL);
    call[3] = call[2] ? 202 : 0;        /* futex, the one call restarted */
    if (reflect_call(tf, p, call) < 0) {        /* no frame: next time */
        __atomic_or_fetch(&p->lx_sigpend[cpu], call[1], __ATOMIC_ACQ_REL);
        p->lx_restart[cpu] = (uint8_t)call[2];
    }
}

static void log_unknown(struct proc *p, uint64_t nr)
{
    uint64_t bit = 1ull << (nr % 64);

    if (nr >= LINUX_NR_MAX) {           /* no Linux call is numbered so */
        proc_event(PE_UNKNOWN_CALL, LOG_PREFIX ": pid %d: Linux system "
                   "call %lu is not answered on a compute node: ENOSYS",
                   p->pid, nr);
        return;
    }
    if (__atomic_fetch_or(&p->lx_logged[nr / 64], bit, __ATOMIC_RELAXED) & bit)
        return;
    pr_info("pid %d: Linux system call %lu is not answered on a compute "
            "node: ENOSYS (said once per number)\n", p->pid, nr);
}

long linux_syscall(struct trapframe *tf)
{
    uint64_t nr = tf->rax;
    int class = nr < ARRAY_SIZE(lx_class) ? lx_class[nr] : LX_NONE;

    switch (class) {
    case LX_KERNEL:
        return lx_kernel(tf, nr);
    case LX_RUNTIME:
        return reflect(tf, current);
    case LX_ENOSYS:
        return -LINUX_ENOSYS;
    default:
        log_unknown(current, nr);
        return -LINUX_ENOSYS;
    }
}

#define RFLAGS_USER     0xDD5   /* CF PF AF ZF SF TF DF OF: all a program
                                   sets (TF: a debugger's single step,
                                   which the call must not lose) */

/* The runtime's answer: back to the program, result in rax.  Everything
   restored comes from user memory and is checked first. */
long linux_return(struct trapframe *tf, long result)
{
    uint8_t fpu[512] __attribute__((aligned(16)));
    struct proc *p = current;
    struct cpu *c = this_cpu();
    uint64_t bit = 1ULL << c->id;
    struct lx_frame *f = user_ptr(p, rt_stack(p) - sizeof(*f), sizeof(*f),
                                  false);
    struct trapframe t;
    uint64_t fs;
    uint32_t mxcsr;

    if (!(p->lx_busy & bit) || !f)
        return -EINVAL;
    /* Copies first: another thread of the program can write the frame. */
    t = f->tf;
    fs = f->fs;
    memcpy(fpu, f->fpu, sizeof(fpu));
    /* An address outside the user half would fault in the kernel's
       iretq: refused, the runtime's stub faults and the process ends. */
    if (t.rip >= LWK_STACK_TOP || t.rsp > LWK_STACK_TOP)
        return -EFAULT;
    memcpy(&mxcsr, fpu + 24, 4);
    mxcsr &= 0xFFBF;                    /* a reserved bit would #GP */
    memcpy(fpu + 24, &mxcsr, 4);
    *tf = t;
    tf->cs = SEL_UCODE | 3;
    tf->ss = SEL_UDATA | 3;
    tf->rflags = (tf->rflags & RFLAGS_USER) | 0x202;
    fxrstor(fpu);
    fs_set(p, fs < LWK_STACK_TOP ? fs : 0);
    __atomic_and_fetch(&p->lx_busy, ~bit, __ATOMIC_ACQ_REL);
    return result;
}

/* The runtime makes its process a Linux one, once, before it jumps to
   the program: where calls are reflected, its stack (a slice of
   LWK_LXRT_STACK_PER_CPU for each of the first LWK_LXRT_CPUS CPUs), with
   which %fs. */
long linux_setup(uint64_t entry, uint64_t stack_top, uint64_t rt_fs)
{
    struct proc *p = current;
    uint64_t size = (uint64_t)LWK_LXRT_CPUS * LWK_LXRT_STACK_PER_CPU;

    if (p->is_pct || p->lx_entry || !entry || (stack_top & 15) ||
        !user_ptr(p, stack_top - size, size, true) || rt_fs >= LWK_STACK_TOP)
        return -EINVAL;
    p->lx_entry = entry;
    p->lx_stack = stack_top;
    p->lx_rt_fs = rt_fs;
    pr_info("pid %d: Linux personality (runtime entry %#lx)\n", p->pid,
            entry);
    return 0;
}
