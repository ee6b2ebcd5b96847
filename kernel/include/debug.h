/*
 * Debugging mechanisms (debug.c; the ABI in uapi/abi.h, proc_debug).
 * What a process carries of them, and the hooks the paths that end a
 * process call before they do: only there, so a program nobody debugs
 * pays nothing anywhere else.
 */
#ifndef DEBUG_H
#define DEBUG_H

#include "kernel.h"
#include "trap.h"
#include "uapi/abi.h"

struct proc;

struct proc_debug {
    uint32_t flags;             /* LWK_DBG_TRAP, LWK_DBG_HOLD (the PCT's) */
    uint32_t held;              /* a fault or abort was held: `how` says */
    struct lwk_run_result how;
    struct lwk_dbg_event main_ev;   /* why its main thread stopped */
};

/* A fault (any vector < 32) from user mode: 1 if it became a stop for
   the debugger (the CPU has gone on: to the PCT, or parked and let go),
   0 if the process is to die of it as usual. */
bool debug_fault(struct trapframe *tf);
/* An abort from user mode (how: status, why, peer): 1 if it was held. */
bool debug_abort(struct trapframe *tf, const struct lwk_run_result *how);
long proc_debug(uint64_t op, uint64_t pid, uint64_t arg, uint64_t uptr);
/* thread.c: a main thread enters its CPU (proc_place): it parks first
   if it is stopped. */
void debug_enter(struct proc *p);
void debug_init(void);

/* proc.c: the main thread, on CPU 0, stops for its debugger (its
   end_reason says LWK_STOP_DEBUG, or an end that came first). */
void proc_debug_stop(struct trapframe *tf);
/* proc.c: the process pid (not the PCT), or NULL. */
struct proc *proc_lookup(uint64_t pid);

/* linux.c: while the runtime answers a call its program made on `cpu`,
   the program's saved registers (in the runtime's stack): those are the
   ones a debugger wants.  false if it is not in such a call. */
struct lx_saved {
    struct trapframe *tf;
    uint64_t *fs;
    uint8_t *fpu;
};
bool linux_saved(struct proc *p, int cpu, struct lx_saved *s);

#endif
