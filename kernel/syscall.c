/*
 * System calls: the table is generated from uapi/syscalls.def, the one
 * list.  Handlers are thin: check the caller and its arguments, then call
 * the subsystem.  A PCT-only call from an application is refused with
 * -EPERM and logged; an unknown number gets -ENOSYS and is logged (at
 * most a line a second of each, the rest counted: console.h proc_event).
 */
#define LOG_PREFIX "syscall"
#include "kernel.h"
#include "bootinfo.h"
#include "cmdline.h"
#include "console.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "panic.h"
#include "portals.h"
#include "proc.h"
#include "smartmap.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define A0(tf)  ((tf)->rdi)
#define A1(tf)  ((tf)->rsi)
#define A2(tf)  ((tf)->rdx)
#define A3(tf)  ((tf)->r10)

enum { SC_ANY, SC_PCT, SC_MAIN };

extern uint64_t node_id;

static long sys_thread_start(struct trapframe *tf)
{
    return thread_start(current, A0(tf), A1(tf), A2(tf), tf->r10);
}

static long sys_thread_exit(struct trapframe *tf)
{
    if (!in_thread() || placed_main())
        return -EINVAL;         /* the main thread ends with exit */
    thread_exit(A0(tf));
}

/* No wrfsbase for ring 3 (CR4.FSGSBASE off): the kernel sets %fs. */
static long sys_set_tls(struct trapframe *tf)
{
    if (A0(tf) >= LWK_STACK_TOP)
        return -EINVAL;
    if (!in_thread() || placed_main())
        current->fs_base = A0(tf);
    wrmsr(MSR_FS_BASE, A0(tf));
    return 0;
}

static long sys_node_engine(struct trapframe *tf)
{
    return kptl_engine_set((int)A0(tf));
}

static long sys_ptl_key(struct trapframe *tf)
{
    uint64_t key[2];

    if (copy_from_user(current, key, A0(tf), sizeof(key)) < 0)
        return -EFAULT;
    return kptl_set_key(key);
}

static long sys_proc_cpus(struct trapframe *tf)
{
    return proc_cpus(A0(tf), A1(tf));
}

static long sys_proc_place(struct trapframe *tf)
{
    return proc_place(A0(tf), A1(tf));
}

static long sys_proc_debug(struct trapframe *tf)
{
    return proc_debug(A0(tf), A1(tf), A2(tf), A3(tf));
}

static long sys_exit(struct trapframe *tf)
{
    proc_exit(tf, (int)A0(tf));
    return 0;
}

static long sys_abort(struct trapframe *tf)
{
    proc_abort(tf, (int)A0(tf), A1(tf), A2(tf), (int)A3(tf));
    return 0;
}

static long sys_quit_quantum(struct trapframe *tf)
{
    proc_yield(tf);
    return 0;
}

static long sys_clock_ns(struct trapframe *tf)
{
    switch (A0(tf)) {
    case 0: return (long)clock_ns();
    case 1: return (long)(realtime_base_ns + clock_ns());
    default: return -EINVAL;
    }
}

static long sys_clock_params(struct trapframe *tf)
{
    struct lwk_clock c = { .boot_tsc = boot_tsc, .ns_mult = ns_mult,
                           .realtime_base_ns = realtime_base_ns };

    return copy_to_user(current, A0(tf), &c, sizeof(c));
}

/* The caller's CPU time and the bytes of its regions (getrusage, times)
   and of those zeroed for it.
   The PCT is not run by proc_run, so its time is not counted: refused. */
static long sys_usage(struct trapframe *tf)
{
    struct lwk_usage u = { 0 };

    if (current->is_pct)
        return -EINVAL;
    u.cpu_ns = current->cpu_ns + tsc_to_ns(rdtsc() - current->run_start_tsc);
    for (int i = 0; i < LWK_NREGIONS; i++)
        u.mem_bytes += current->reg[i].size;
    u.zeroed_bytes = current->zeroed;
    return copy_to_user(current, A0(tf), &u, sizeof(u));
}

static long sys_console_write(struct trapframe *tf)
{
    const char *buf = user_ptr(current, A0(tf), A1(tf), false);
    int fd = (int)A2(tf);

    if (fd != 1 && fd != 2)
        return -EBADF;
    if (!buf && A1(tf))
        return -EFAULT;
    if (current->is_pct)
        console_write(buf, A1(tf));     /* the PCT writes the node log */
    else
        console_write_user(fd, buf, A1(tf));
    return (long)A1(tf);
}

static long sys_console_read(struct trapframe *tf)
{
    char *buf = user_ptr(current, A0(tf), A1(tf), true);

    if (!buf && A1(tf))
        return -EFAULT;
    return current->is_pct ? 0 : console_read_user(buf, A1(tf));
}

static long sys_getpid(struct trapframe *tf)
{
    (void)tf;
    return current->pid;
}

static long sys_proc_create(struct trapframe *tf)
{
    return proc_create(tf, A0(tf), A1(tf));
}

static long sys_proc_start(struct trapframe *tf)
{
    return proc_start(A0(tf), A1(tf), A2(tf));
}

static long sys_proc_run(struct trapframe *tf)
{
    return proc_run(tf, A0(tf), A1(tf), A2(tf));
}

static long sys_proc_destroy(struct trapframe *tf)
{
    return proc_destroy(A0(tf));
}

static long sys_node_info(struct trapframe *tf)
{
    struct lwk_node_info ni = { .nid = node_id, .tsc_hz = tsc_hz };
    struct mem_stats st;

    mem_get_stats(&st);
    ni.ram_total = st.total;
    ni.ram_kernel = st.kernel;
    ni.ram_free = st.free;
    ni.largest_free = mem_largest_free();
    ni.ncpus = (uint64_t)ncpus;
    memcpy(ni.cmdline, bootinfo.cmdline, sizeof(ni.cmdline));
    return copy_to_user(current, A0(tf), &ni, sizeof(ni));
}

_Static_assert(sizeof(((struct lwk_module *)0)->name) == BOOTINFO_MODNAME_LEN,
               "a module's name is copied whole from the boot information");

static long sys_module_map(struct trapframe *tf)
{
    uint64_t i = A0(tf);
    struct lwk_module m = { 0 };
    const struct bootinfo_mod *bm = &bootinfo.mods[i];

    if (i >= (uint64_t)bootinfo.nmods)
        return -ENOENT;
    if (!mem_module_live(i))
        return -EINVAL;         /* released: its memory is someone else's */
    m.pct_va = module_map_into(current, i, bm->start, bm->end);
    if (!m.pct_va)
        return -ENOMEM;
    m.size = bm->end - bm->start;
    memcpy(m.name, bm->name, sizeof(m.name));
    return copy_to_user(current, A1(tf), &m, sizeof(m));
}

/* The PCT has loaded what it needed from module `i`: unmap it and give
   its memory to the pools (programs loaded later can have it). */
static long sys_module_release(struct trapframe *tf)
{
    uint64_t i = A0(tf);

    if (i >= (uint64_t)bootinfo.nmods)
        return -ENOENT;
    if (!mem_module_live(i))
        return -EINVAL;
    module_unmap_from(current, i, bootinfo.mods[i].start,
                      bootinfo.mods[i].end);
    return mem_module_release(i);
}

static long sys_proc_heap(struct trapframe *tf)
{
    return proc_heap(A0(tf), A1(tf), A2(tf), A3(tf));
}

static long sys_proc_share(struct trapframe *tf)
{
    return proc_share(A0(tf), A1(tf));
}

static long sys_smartmap(struct trapframe *tf)
{
    struct lwk_smartmap m;

    smartmap_info(current, &m);
    return copy_to_user(current, A0(tf), &m, sizeof(m));
}

static long sys_linux_setup(struct trapframe *tf)
{
    return linux_setup(A0(tf), A1(tf), A2(tf));
}

static long sys_linux_return(struct trapframe *tf)
{
    return linux_return(tf, (long)A0(tf));
}

static long sys_linux_kill(struct trapframe *tf)
{
    return linux_kill((long)A0(tf), (long)A1(tf));
}

static long sys_linux_timer(struct trapframe *tf)
{
    return linux_timer((long)A0(tf), A1(tf), A2(tf));
}

static long sys_linux_sigwait(struct trapframe *tf)
{
    return linux_sigwait(A0(tf), A1(tf));
}

static long sys_node_stop(struct trapframe *tf)
{
    machine_exit_on_stop = true;    /* the PCT asked: leave QEMU too */
    machine_stop(A0(tf) != 0);
}

static long sys_ptl(struct trapframe *tf)
{
    return ptl_syscall(current, A0(tf), A1(tf));
}

static long sys_ptl_wait(struct trapframe *tf)
{
    return ptl_wait_syscall(current, A0(tf), A1(tf));
}

typedef long (*syscall_fn)(struct trapframe *);

static const struct {
    syscall_fn fn;
    const char *name;
    int class;
} table[] = {
#define SYSCALL(nr, name, nargs, class) [nr] = { sys_##name, #name, SC_##class },
#include "uapi/syscalls.def"
#undef SYSCALL
};

void syscall_dispatch(struct trapframe *tf);
void syscall_dispatch(struct trapframe *tf)
{
    uint64_t nr = tf->rax - LWK_SYSCALL_BASE;  /* below the base: wraps */
    struct proc *caller = current;
    long ret;

    if (tf->rax < LWK_SYSCALL_BASE && caller->lx_entry) {
        ret = linux_syscall(tf);        /* a Linux program's own numbers */
    } else if (nr >= ARRAY_SIZE(table) || !table[nr].fn) {
        proc_event(PE_UNKNOWN_CALL, LOG_PREFIX ": pid %d: unknown system "
                   "call %#lx", caller->pid, tf->rax);
        ret = -ENOSYS;
    } else if (table[nr].class == SC_PCT && !caller->is_pct) {
        proc_event(PE_PCT_ONLY, LOG_PREFIX ": pid %d: %s is for the PCT "
                   "only; refused", caller->pid, table[nr].name);
        ret = -EPERM;
    } else if (table[nr].class == SC_MAIN && in_thread() &&
               !placed_main()) {
        pr_info("pid %d: %s is for the main thread only (asked on CPU %d); "
                "refused\n", caller->pid, table[nr].name, this_cpu()->id);
        ret = -EPERM;
    } else {
        ret = table[nr].fn(tf);
    }
    if (current == caller) {    /* a switch set the next process's rax */
        tf->rax = (uint64_t)ret;
        proc_syscall_exit(tf);
    } else if (in_thread()) {
        thread_check_stopped(); /* its process ended meanwhile */
    }
}

#define MSR_EFER    0xC0000080
#define MSR_STAR    0xC0000081
#define MSR_LSTAR   0xC0000082
#define MSR_SFMASK  0xC0000084

void syscall_init(void)
{
    extern char syscall_entry[];

    wrmsr(MSR_EFER, rdmsr(MSR_EFER) | 1);          /* SCE */
    wrmsr(MSR_STAR, ((uint64_t)SEL_KCODE << 32) |
                    ((uint64_t)(SEL_UCODE32 | 3) << 48));
    wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
    wrmsr(MSR_SFMASK, 0x47700);    /* IF, DF, TF, AC, NT cleared on entry */
}
