/*
 * Processes (proc.c): an address space of a few physically contiguous
 * regions, the saved user registers, and why it last stopped.  The kernel
 * has no scheduler: the PCT runs a process with proc_run and gets the CPU
 * back when it yields, exits, faults or its quantum ends.  The kernel is
 * not preemptible and has one stack: entering it saves the user state in a
 * trapframe at the top of that stack; switching process swaps that frame.
 */
#ifndef PROC_H
#define PROC_H

#include "kernel.h"
#include "aspace.h"
#include "cpu.h"
#include "debug.h"
#include "pmu.h"
#include "profile.h"
#include "trap.h"
#include "uapi/abi.h"

#define NPROC           16
#define LINUX_NR_MAX    512     /* numbers whose first use is logged */

enum proc_state { P_FREE, P_LOADING, P_READY, P_RUNNING, P_DEAD };

struct region_map {
    uint64_t va, pa, size;      /* bytes, 4 KiB multiple; 0 if unused */
    uint64_t pte_flags;
};

struct proc {
    int pid;
    enum proc_state state;
    bool is_pct;
    uint64_t cr3;               /* PML4, physical */
    struct region_map reg[LWK_NREGIONS];
    int reg_hint;               /* user_ptr's last region; any index is safe */
    uint64_t zeroed;            /* bytes of its regions zeroed for it (the
                                   rest was known zero: mem.c) */
    uint64_t pct_window;        /* where the PCT sees our regions */
    struct trapframe frame;     /* user registers while not running */
    struct lwk_run_result result;
    uint8_t fpu[512] __attribute__((aligned(16)));  /* FXSAVE image */
    uint64_t run_start_tsc;
    uint64_t cpu_ns;            /* CPU time of its finished runs */
    uint64_t fs_base;           /* the main thread's (set_tls) */
    uint32_t ptl_pid;           /* the only Portals pid it may open (the
                                   PCT's choice at proc_create); 0: any */
    /* Threads mode (thread.c). */
    uint64_t cpus;              /* CPUs the PCT gave it (proc_cpus) */
    int home;                   /* virtual-node mode: the CPU its main
                                   thread owns (proc_place); 0: CPU 0,
                                   where proc_run runs it in quanta */
    uint64_t thread_cpus;       /* CPUs running one of its threads now */
    uint64_t thread_leaving;    /* of those, CPUs whose thread told its
                                   joiner it is done and is leaving */
    uint32_t end_claimed;       /* someone is ending it (proc_claim_end) */
    uint32_t end_reason;        /* then: LWK_STOP_EXIT, _FAULT or _ABORT */
    struct lwk_run_result end;  /* and how: status, the fault and CPU, why */
    /* SMARTMAP (smartmap.c): its group, NULL if none, and its slot. */
    struct smartmap_group *smartmap;
    int smartmap_slot;
    /* The Linux personality (linux.c): lx_entry 0 for a Q-Kernel program. */
    uint64_t lx_entry, lx_stack, lx_rt_fs;  /* the runtime's (linux_setup) */
    uint64_t lx_busy;           /* CPUs in the runtime answering a call */
    uint64_t lx_sigpend[LWK_LXRT_CPUS]; /* signals sent to each CPU's
                                   thread, not yet given to the runtime */
    uint64_t lx_fresh;          /* CPUs whose thread ended: the next one's
                                   first call says so (LWK_LX_FRESH) */
    uint64_t lx_logged[LINUX_NR_MAX / 64];  /* unknown numbers logged */
    /* Its timers (linux_timer.c), under lx_timer_lock: each expires on
       the CPU of the thread its signal goes to; lx_timer_cpus, the CPUs
       with one armed. */
    struct lx_timer {
        uint64_t deadline, interval;    /* clock_ns; 0: disarmed, once */
        int32_t sig, cpu;
        uint32_t overrun;               /* timer_getoverrun's */
    } lx_timers[LWK_LX_TIMERS];
    uint64_t lx_timer_cpus;
    spinlock_t lx_timer_lock;
    /* Its futex waits (linux_futex.c), under lx_futex_lock: at most one
       per CPU, kept while its call is restarted; lx_restart, a wait on
       that CPU just ended by a signal (LWK_LX_RESTART*, for the runtime). */
    struct lx_futex {
        uint64_t addr;                  /* the word's user address */
        uint64_t deadline;              /* clock_ns; UINT64_MAX: none */
        uint64_t rip;                   /* after its syscall instruction */
        uint32_t bitset, state;
    } lx_futex[MAX_CPUS];
    uint8_t lx_restart[LWK_LXRT_CPUS];
    spinlock_t lx_futex_lock;
    struct proc_debug dbg;      /* debug.c: flags, a held end, a stop */
    struct proc_prof prof;      /* profile.c: its histogram, if sampled */
    struct proc_pmu pmu;        /* pmu.c: its counts, if counted */
};

/* The process this CPU runs (per CPU: see struct cpu). */
#define current (this_cpu()->proc)
extern struct proc *pct;
extern uint8_t proc_fpu_initial[512];   /* a clean x87/SSE state */

void proc_init(void);
/* The live process bound to Portals pid ptl_pid (proc_create), or NULL. */
struct proc *proc_of_ptl_pid(uint32_t ptl_pid);
/* Start the PCT from the boot module `image`; never returns. */
__noreturn void proc_start_pct(int module, const void *image, uint64_t len);

/* The PCT's window on the processes it made: [uva, uva+len) inside one
   live region of one of them, else NULL (aspace.c's user_ptr asks). */
void *proc_window_ptr(uint64_t uva, uint64_t len, bool write);
extern uint64_t proc_nx_bit;    /* PTE_NX when the CPU has it, else 0 */

void syscall_init(void);

/* Trap from user mode (tf->cs has RPL 3). */
void proc_user_trap(struct trapframe *tf);

/* The process-control system calls (called from syscall.c). */
long proc_create(struct trapframe *tf, uint64_t udesc, uint64_t umap);
long proc_start(uint64_t pid, uint64_t entry, uint64_t rsp);
long proc_run(struct trapframe *tf, uint64_t pid, uint64_t quantum,
              uint64_t ures);
long proc_destroy(uint64_t pid);
long proc_cpus(uint64_t pid, uint64_t mask);
long proc_place(uint64_t pid, uint64_t cpu);
long proc_heap(uint64_t pid, uint64_t va, uint64_t size, uint64_t flags);
long proc_share(uint64_t upids, uint64_t n);
void proc_exit(struct trapframe *tf, int status);
/* exit, saying the job must end: the PCT reports LWK_STOP_ABORT, the
   reason (at most LWK_WHY_LEN - 1 bytes of why, if they are readable) and
   the peer rank whose end caused it (-1: none). */
void proc_abort(struct trapframe *tf, int status, uint64_t why, uint64_t len,
                int peer);
void proc_yield(struct trapframe *tf);
void proc_syscall_exit(struct trapframe *tf);

/* Threads (thread.c).  CPU 0 runs the PCT and main threads; every other
   CPU runs at most one thread.  in_thread: this CPU runs a thread. */
bool in_thread(void);
/* This CPU runs a process's main thread placed on it (proc_place). */
bool placed_main(void);
long thread_place(struct proc *p, int cpu);
void thread_init(void);
long thread_cpus_grant(struct proc *p, uint64_t mask);
bool thread_cpu_given(int cpu);     /* a process has it for threads */
long thread_start(struct proc *p, uint64_t entry, uint64_t stack,
                  uint64_t arg, uint64_t tls);
void thread_leaving(void);
/* p's CPUs with no thread, once a thread that is leaving has left. */
uint64_t thread_free_cpus(struct proc *p);
__noreturn void thread_exit(uint64_t done_uva);
__noreturn void thread_enter(struct cpu *c);
void thread_check_stopped(void);
/* Stop every thread of p and take its CPUs back (its end, or destroy). */
void threads_stop(struct proc *p);
void thread_release(struct proc *p);
/* A thread ends its whole process (exit or abort from any thread, a
   fault): `how` holds the status or reason, the fault is filled in. */
__noreturn void thread_end_process(uint32_t reason,
                                   const struct lwk_run_result *how);
__noreturn void thread_fault(struct trapframe *tf);
bool proc_claim_end(struct proc *p);
void proc_publish_end(struct proc *p, uint32_t reason);

/* The Linux personality (linux.c). */
long linux_syscall(struct trapframe *tf);
long linux_return(struct trapframe *tf, long result);
long linux_setup(uint64_t entry, uint64_t stack_top, uint64_t rt_fs);
long linux_kill(long tid, long sig);
/* Signal sig pending for p's thread on `cpu` (no kick: the caller's). */
void linux_post(struct proc *p, int cpu, int sig);
/* linux_timer.c: the linux_timer and linux_sigwait calls; p's timers due
   on this CPU turned into pending signals (on every way back to user
   mode); a thread leaving this CPU hands its timers to the main thread. */
long linux_timer(long id, uint64_t uset, uint64_t uold);
long linux_sigwait(uint64_t ns, uint64_t usent);
void linux_timers_due(struct proc *p, int cpu);
void linux_timers_leave(struct proc *p, int cpu);
/* The CPU of p's live thread `tid` (gettid's: its pid names the main
   thread, on p->home), -ESRCH for any other number. */
long linux_thread_cpu(struct proc *p, int tid);
/* linux_futex.c: the futex call; up to n waits on uaddr woken (a
   thread's end wakes its joiner); a restarted wait on `cpu` ended by the
   signals linux_signal_check is about to hand over. */
long linux_futex(struct trapframe *tf);
long linux_futex_wake(struct proc *p, uint64_t uaddr, long n);
void linux_futex_signalled(struct proc *p, int cpu, struct trapframe *tf);
/* linux_sched.c: sched_* calls 142..148, 203, 204 and getcpu. */
long linux_sched(struct trapframe *tf, uint64_t nr);
/* On every way back to a process's user mode: hand signals sent to this
   CPU's thread to its runtime. */
void linux_signal_check(struct trapframe *tf);

/* Enter user mode with `tf` (trapentry.S). */
__noreturn void trap_return_to(struct trapframe *tf);

#endif
