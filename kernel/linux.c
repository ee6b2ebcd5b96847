/*
 * The Linux personality: a process whose runtime made the linux_setup
 * call runs a static Linux x86-64 program (docs/LINUX.md).  Its system
 * calls with numbers below LWK_SYSCALL_BASE are Linux's, classed in the
 * one list uapi/linux.def:
 *
 *   KERNEL   answered here (they need the CPU or end the process);
 *   RUNTIME  reflected: the program's registers and FPU state are kept
 *            here, the CPU goes on in the runtime's entry on the runtime's
 *            own stack and %fs with the call's number and arguments, and
 *            the runtime's linux_return call puts the program back exactly
 *            where it was with the result in rax -- a system call seen
 *            from the program, a function call seen from the runtime;
 *   ENOSYS   and any number not listed: -ENOSYS; an unlisted number is
 *            logged the first time this process makes it.
 *
 * Only the main thread is reflected (the runtime has one stack).
 */
#define LOG_PREFIX "linux"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "printf.h"
#include "proc.h"
#include "trap.h"
#include "x86.h"

enum { LX_NONE, LX_KERNEL, LX_RUNTIME, LX_ENOSYS };

/* What a Linux program gets back is Linux's errno.  The kernel's own
   numbers (uapi/errno.h) are newlib's; they agree with Linux's for EPERM,
   EFAULT and EINVAL (test_linux_abi checks), not for ENOSYS. */
#define LINUX_ENOSYS    38

static const uint8_t lx_class[] = {
#define LINUX(nr, name, class) [nr] = LX_##class,
#include "uapi/linux.def"
#undef LINUX
};

#define ARCH_SET_FS     0x1002
#define ARCH_GET_FS     0x1003

static long lx_arch_prctl(struct trapframe *tf)
{
    switch (tf->rdi) {
    case ARCH_SET_FS:
        if (tf->rsi >= LWK_STACK_TOP)
            return -EPERM;
        current->fs_base = tf->rsi;
        wrmsr(MSR_FS_BASE, tf->rsi);
        return 0;
    case ARCH_GET_FS:
        return copy_to_user(current, tf->rsi, &current->fs_base, 8);
    default:
        return -EINVAL;
    }
}

static long lx_kernel(struct trapframe *tf, uint64_t nr)
{
    switch (nr) {
    case 24:                            /* sched_yield: nothing else runs */
        return 0;
    case 39:                            /* getpid */
    case 186:                           /* gettid: one thread */
    case 218:                           /* set_tid_address */
        return current->pid;
    case 60:                            /* exit: its only thread */
    case 231:                           /* exit_group */
        proc_exit(tf, (int)tf->rdi);
        return 0;
    case 158:
        return lx_arch_prctl(tf);
    case 273:                           /* set_robust_list: no futexes */
        return 0;                       /* are left behind by threads */
    default:
        return -LINUX_ENOSYS;
    }
}

/* Hand the call to the runtime: see the top of the file. */
static long reflect(struct trapframe *tf, struct proc *p)
{
    uint64_t call[8] = { tf->rax, tf->rdi, tf->rsi, tf->rdx, tf->r10,
                         tf->r8, tf->r9, 0 };
    uint64_t sp = p->lx_stack - sizeof(call);

    if (copy_to_user(p, sp, call, sizeof(call)) < 0)
        return -EFAULT;
    p->lx_saved = *tf;
    fxsave(p->lx_fpu);
    p->lx_fs = p->fs_base;
    p->fs_base = p->lx_rt_fs;
    wrmsr(MSR_FS_BASE, p->fs_base);
    p->lx_in_runtime = true;
    tf->rip = p->lx_entry;
    tf->rsp = sp;                       /* 16-aligned: the stub calls */
    tf->rdi = sp;
    return (long)sp;                    /* becomes rax: the same pointer */
}

static void log_unknown(struct proc *p, uint64_t nr)
{
    if (nr < LINUX_NR_MAX) {
        if (p->lx_logged[nr / 64] & (1ull << (nr % 64)))
            return;
        p->lx_logged[nr / 64] |= 1ull << (nr % 64);
    }
    pr_info("pid %d: Linux system call %lu is not answered on a compute "
            "node: ENOSYS (said once per number)\n", p->pid, nr);
}

long linux_syscall(struct trapframe *tf)
{
    struct proc *p = current;
    uint64_t nr = tf->rax;
    int class = nr < ARRAY_SIZE(lx_class) ? lx_class[nr] : LX_NONE;

    if (p->lx_in_runtime)               /* the runtime speaks Q-Kernel */
        return -LINUX_ENOSYS;
    switch (class) {
    case LX_KERNEL:
        return lx_kernel(tf, nr);
    case LX_RUNTIME:
        if (in_thread() && !placed_main())
            return -LINUX_ENOSYS;
        return reflect(tf, p);
    case LX_ENOSYS:
        return -LINUX_ENOSYS;
    default:
        log_unknown(p, nr);
        return -LINUX_ENOSYS;
    }
}

/* The runtime's answer: back to the program, result in rax. */
long linux_return(struct trapframe *tf, long result)
{
    struct proc *p = current;

    if (!p->lx_in_runtime)
        return -EINVAL;
    p->lx_in_runtime = false;
    *tf = p->lx_saved;
    fxrstor(p->lx_fpu);
    p->fs_base = p->lx_fs;
    wrmsr(MSR_FS_BASE, p->fs_base);
    return result;
}

/* The runtime makes its process a Linux one, once, before it jumps to
   the program: where calls are reflected, on which stack, with which %fs. */
long linux_setup(uint64_t entry, uint64_t stack_top, uint64_t rt_fs)
{
    struct proc *p = current;

    if (p->is_pct || p->lx_entry || !entry || (stack_top & 15) ||
        !user_ptr(p, stack_top - 64, 64, true) || rt_fs >= LWK_STACK_TOP)
        return -EINVAL;
    p->lx_entry = entry;
    p->lx_stack = stack_top;
    p->lx_rt_fs = rt_fs;
    pr_info("pid %d: Linux personality (runtime entry %#lx)\n", p->pid,
            entry);
    return 0;
}
