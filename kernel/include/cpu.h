/*
 * The per-CPU area (smp.c): what each CPU owns, reached through the GS
 * base (%gs:0 holds the area's own address).  Only its CPU writes a field,
 * except where a comment names another writer; cross-CPU requests go
 * through the call mailbox (smp_call).  See docs/SMP.md.
 */
#ifndef CPU_H
#define CPU_H

#define MAX_CPUS        64
#define KSTACK_SIZE     16384   /* trap and system-call stack, per CPU */
#define IST_SIZE        8192    /* double fault; NMI and machine check */
/* An AP's idle loop runs this far below its stack top: the trapframe a
   thread enters user mode with is built at the top (thread_enter). */
#define IDLE_STACK_GAP  256

/* Offsets trapentry.S uses (checked in smp.c). */
#define CPU_KSTACK_TOP  8
#define CPU_USER_RSP    16

#ifndef __ASSEMBLY__
#include "kernel.h"
#include "spinlock.h"
#include "timer.h"

struct trapframe;

struct tss {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3;
    uint16_t iomap_base;
} __packed;

/* One cross-CPU call at a time per target: the caller holds call_lock,
   fills fn/arg, bumps req and sends the IPI; the target runs fn and sets
   done = req. */
struct cpu_call {
    spinlock_t lock;
    void (*fn)(void *arg);
    void *arg;
    uint64_t req, done;
};

struct proc;

/* A thread handed to a CPU (thread.c). */
struct thread_start {
    struct proc *p;
    uint64_t entry, stack, arg, tls;
    bool main;                  /* the process's main thread (proc_place):
                                   its saved registers, FPU and %fs */
};

struct cpu {
    struct cpu *self;           /* %gs:0 */
    uint64_t kstack_top;        /* %gs:8: stack for entries from ring 3 */
    uint64_t user_rsp;          /* %gs:16: syscall_entry parks rsp here */
    int id;                     /* 0: the boot CPU */
    uint32_t apic_id;
    bool online;                /* set by the CPU itself, once */
    uint64_t cr3;               /* loaded address space (aspace_switch) */
    struct proc *proc;          /* what runs here (`current`): CPU 0 the
                                   PCT or a main thread, others a thread
                                   or nothing (idle) */
    struct thread_start thread; /* the thread it was given (take_thread) */
    bool engine;                /* it runs the Portals engine's loop */
    bool main;                  /* `proc`'s main thread runs here, placed
                                   by the PCT (virtual-node mode) */
    struct cpu_call call;       /* written by callers under call.lock */
    uint64_t ipis;              /* call IPIs taken */
    uint64_t ktest_hits;        /* scratch for the SMP KTESTs */
    struct timer timers[TIMER_NSLOTS];
    uint64_t lapic_at;          /* when this CPU's LAPIC timer fires */
    struct trapframe *timer_tf; /* what its interrupt found, while the
                                   timers' fns run (profile.c samples it) */
    struct timer_stats timer_stats;
    uint64_t gdt[8] __attribute__((aligned(16)));
    struct tss tss __attribute__((aligned(16)));
};

extern struct cpu cpus[MAX_CPUS];
extern int ncpus;               /* online CPUs: ids 0 .. ncpus-1 */

static inline struct cpu *this_cpu(void)
{
    struct cpu *c;

    __asm__ volatile("mov %%gs:0, %0" : "=r"(c));
    return c;
}

/* Boot CPU: its per-CPU area, before anything uses this_cpu(). */
void cpu_init_boot(void);
/* Find the CPUs (ACPI MADT) and start the others; they halt in their idle
   loop, taking calls.  `max` caps the count (cpus= on the command line). */
void smp_init(uint64_t max);
/* The idle loop: halt, take calls, enter a thread when given one. */
__noreturn void smp_idle(void);
/* Leave whatever this CPU was doing in the kernel (its stack is reset)
   for the idle loop. */
__noreturn void smp_idle_here(void);
/* Run fn(arg) on CPU `id` and wait until it returns (at once if `id` is
   this CPU).  Interrupts stay off on the target while fn runs. */
void smp_call(int id, void (*fn)(void *), void *arg);
/* Run the calls waiting for this CPU (from its IPI handler and from any
   loop that spins waiting for another CPU). */
void smp_poll_calls(void);
/* [va, va+len) of the address space `cr3` was unmapped: flush it from the
   TLB of every CPU that may hold it (here, and where `cr3` is loaded; for
   the kernel half, everywhere). */
void tlb_shootdown(uint64_t cr3, uint64_t va, uint64_t len);
#endif

#endif
