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
#include "trap.h"
#include "uapi/abi.h"

#define NPROC           16

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
    uint64_t pct_window;        /* where the PCT sees our regions */
    struct trapframe frame;     /* user registers while not running */
    struct lwk_run_result result;
    uint8_t fpu[512] __attribute__((aligned(16)));  /* FXSAVE image */
    uint64_t run_start_tsc;
    uint64_t cpu_ns;            /* CPU time of its finished runs */
};

extern struct proc *current;
extern struct proc *pct;

void proc_init(void);
/* Start the PCT from the boot module `image`; never returns. */
__noreturn void proc_start_pct(const void *image, uint64_t len);

/* The PCT's window on the processes it made: [uva, uva+len) inside one
   live region of one of them, else NULL (aspace.c's user_ptr asks). */
void *proc_window_ptr(uint64_t uva, uint64_t len);
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
long proc_heap(uint64_t pid, uint64_t va, uint64_t size);
void proc_exit(struct trapframe *tf, int status);
/* exit, saying the job must end: the PCT reports LWK_STOP_ABORT, the
   reason (at most LWK_WHY_LEN - 1 bytes of why, if they are readable) and
   the peer rank whose end caused it (-1: none). */
void proc_abort(struct trapframe *tf, int status, uint64_t why, uint64_t len,
                int peer);
void proc_yield(struct trapframe *tf);
void proc_syscall_exit(struct trapframe *tf);

/* Enter user mode with `tf` (trapentry.S). */
__noreturn void trap_return_to(struct trapframe *tf);

#endif
