/*
 * Running processes on CPU 0: proc_run switches from the PCT to an
 * application's main thread, and every way back (the quantum over, exit,
 * abort, a fault, a yield, a stop for the debugger) ends in the PCT with
 * the reason in its lwk_run_result.  The process table and the address
 * spaces are proc.c's; the other CPUs' threads, thread.c's.
 */
#define LOG_PREFIX "proc"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "panic.h"
#include "portals.h"
#include "printf.h"
#include "proc.h"
#include "timer.h"
#include "x86.h"

/* CPU 0's: the app proc_run started there, where its result goes, and
   whether its quantum is over. */
static struct proc *running;
static uint64_t pct_result_uva;
static bool quantum_over;

/* Processes use SSE/x87 (the kernel never does), so their FPU state is
   switched with them, and their %fs base (thread-local storage). */
static void switch_to(struct trapframe *tf, struct proc *next)
{
    pmu_leave(current);
    profile_leave(this_cpu());
    fxsave(current->fpu);
    fxrstor(next->fpu);
    wrmsr(MSR_FS_BASE, next->fs_base);
    current->frame = *tf;
    *tf = next->frame;
    current = next;
    aspace_switch(next->cr3);
    profile_enter(this_cpu());
    pmu_enter(next);
}

static void on_quantum(void)
{
    quantum_over = true;
}

static bool ended(uint32_t reason)
{
    return reason == LWK_STOP_EXIT || reason == LWK_STOP_FAULT ||
           reason == LWK_STOP_ABORT;
}

/* p is over: its threads stop, its traffic ends, the PCT gets `res`,
   which says whether p left a parallel job without finalizing (its peers
   would wait for it: yod ends the job). */
static void finish(struct proc *p, struct lwk_run_result *res)
{
    threads_stop(p);
    res->left_job = kptl_in_job(p);
    kptl_release(p);
    p->state = P_DEAD;
    p->result = *res;
}

/* A thread ended p (exit or fault) while its main thread was not
   running: the PCT hears it at once, p does not run again. */
static long run_ended(struct proc *p, uint64_t ures)
{
    struct lwk_run_result res = p->end;

    res.reason = p->end_reason;
    finish(p, &res);
    return copy_to_user(pct, ures, &p->result, sizeof(p->result));
}

/* A process stopped for its debugger (debug.c) runs again only once it
   lets it go: until then proc_run says so and runs nothing. */
static long run_stopped(uint64_t ures)
{
    struct lwk_run_result res = { .reason = LWK_STOP_DEBUG };

    return copy_to_user(pct, ures, &res, sizeof(res));
}

/* A process placed on a CPU of its own is not run here: the PCT hears
   whether it has ended. */
static long run_placed(struct proc *p, uint64_t ures)
{
    struct lwk_run_result res = { .reason = LWK_STOP_ELSEWHERE };
    uint32_t end = __atomic_load_n(&p->end_reason, __ATOMIC_ACQUIRE);

    if (p->state == P_DEAD)
        return -ESRCH;
    if (end == LWK_STOP_DEBUG)
        return run_stopped(ures);
    if (end) {
        p->cpu_ns = tsc_to_ns(rdtsc() - p->run_start_tsc);
        p->end.ran_ns = p->cpu_ns;
        return run_ended(p, ures);
    }
    return copy_to_user(pct, ures, &res, sizeof(res));
}

long proc_run(struct trapframe *tf, uint64_t pid, uint64_t quantum,
              uint64_t ures)
{
    struct proc *p = proc_lookup(pid);        /* never the PCT */
    uint32_t end;

    if (!p)
        return -ESRCH;
    if (!user_ptr(pct, ures, sizeof(struct lwk_run_result), true))
        return -EFAULT;
    if (p->home)
        return run_placed(p, ures);
    if (p->state != P_READY)
        return -ESRCH;
    end = __atomic_load_n(&p->end_reason, __ATOMIC_ACQUIRE);
    if (end == LWK_STOP_DEBUG)
        return run_stopped(ures);
    if (end)
        return run_ended(p, ures);
    tf->rax = 0;                /* what proc_run returns when we come back */
    pct_result_uva = ures;
    running = p;
    p->state = P_RUNNING;
    p->result = (struct lwk_run_result){ 0 };
    quantum_over = false;
    if (quantum)
        timer_set(TIMER_QUANTUM, clock_ns() + quantum, on_quantum);
    p->run_start_tsc = rdtsc();
    switch_to(tf, p);
    linux_signal_check(tf);     /* sent while the PCT ran */
    return 0;
}

/* The running app stopped for `reason`: tell the PCT and switch to it.
   An end (exit, fault) was claimed first: p->end says how. */
static void stop_running(struct trapframe *tf, uint32_t reason)
{
    struct proc *p = running;
    struct lwk_run_result res = ended(reason) ? p->end
                                              : (struct lwk_run_result){ 0 };

    timer_set(TIMER_QUANTUM, 0, NULL);
    res.reason = reason;
    res.ran_ns = tsc_to_ns(rdtsc() - p->run_start_tsc);
    p->cpu_ns += res.ran_ns;
    if (ended(reason))
        finish(p, &res);
    else {
        p->state = P_READY;
        p->result = res;
    }
    running = NULL;
    switch_to(tf, pct);
    copy_to_user(pct, pct_result_uva, &p->result, sizeof(p->result));
}

void proc_debug_stop(struct trapframe *tf)
{
    stop_running(tf, __atomic_load_n(&running->end_reason, __ATOMIC_ACQUIRE));
}

/* The main thread ends its process, unless a thread did first. */
static void end_running(struct trapframe *tf, uint32_t reason,
                        const struct lwk_run_result *how)
{
    struct proc *p = running;

    if (proc_claim_end(p)) {
        p->end = *how;
        proc_publish_end(p, reason);
    }
    stop_running(tf, __atomic_load_n(&p->end_reason, __ATOMIC_ACQUIRE));
}

void proc_exit(struct trapframe *tf, int status)
{
    struct lwk_run_result how = { .status = status };

    if (in_thread())                    /* exit() from any thread */
        thread_end_process(LWK_STOP_EXIT, &how);
    if (current == pct) {
        pr_info("PCT exited with status %d; node stopped\n", status);
        machine_stop(status == 0);
    }
    end_running(tf, LWK_STOP_EXIT, &how);
}

/* exit, saying the job must end (and why): from any thread. */
void proc_abort(struct trapframe *tf, int status, uint64_t why, uint64_t len,
                int peer)
{
    struct lwk_run_result how = { .status = status, .peer = peer };
    const char *src;

    if (current == pct)         /* the PCT has no job to abort */
        proc_exit(tf, status);
    len = MIN(len, LWK_WHY_LEN - 1);
    src = len ? user_ptr(current, why, len, false) : "";
    if (src)
        memcpy(how.why, src, len);      /* how is zeroed: NUL-terminated */
    else
        ksnprintf(how.why, LWK_WHY_LEN, "(its reason was not readable)");
    if (current->dbg.flags && debug_abort(tf, &how))
        return;                 /* held for its debugger (debug.c) */
    if (in_thread())
        thread_end_process(LWK_STOP_ABORT, &how);
    end_running(tf, LWK_STOP_ABORT, &how);
}
void proc_yield(struct trapframe *tf)
{
    if (in_thread())
        return;                 /* its CPU is its own: nothing to yield to */
    if (current != pct) {
        tf->rax = 0;            /* quit_quantum returns 0 when resumed */
        stop_running(tf, LWK_STOP_YIELD);
        return;
    }
    kptl_sleep(pct);            /* the PCT idles until the next interrupt */
}

static void user_fault(struct trapframe *tf)
{
    struct lwk_run_result how = {
        .fault_vector = tf->vector, .fault_error = tf->error,
        .fault_addr = tf->vector == VEC_PF ? read_cr2() : 0,
        .fault_rip = tf->rip, .fault_rsp = tf->rsp, .fault_cpu = 0,
    };

    if (current->dbg.flags && debug_fault(tf))
        return;                 /* a stop for its debugger (debug.c) */
    if (in_thread())
        thread_fault(tf);
    if (current == pct) {
        trap_dump(tf);
        pr_info("the PCT died (%s); node stopped\n", trap_name(tf->vector));
        machine_stop(false);
    }
    pr_info("pid %d killed: %s at rip %#lx (address %#lx, error %#lx)\n",
            current->pid, trap_name(tf->vector), tf->rip, how.fault_addr,
            tf->error);
    end_running(tf, LWK_STOP_FAULT, &how);
}

/* On CPU 0, with the main thread interrupted or leaving a system call:
   its quantum may be over, or a thread may have ended its process. */
static void check_running(struct trapframe *tf)
{
    uint32_t end;

    if (!running || current != running)
        return;
    if ((end = __atomic_load_n(&running->end_reason, __ATOMIC_ACQUIRE))) {
        stop_running(tf, end);
    } else if (quantum_over) {
        quantum_over = false;
        stop_running(tf, LWK_STOP_QUANTUM);
    }
}

void proc_user_trap(struct trapframe *tf)
{
    if (tf->vector < 32) {
        user_fault(tf);
        return;
    }
    trap_handle_irq(tf);
    if (in_thread()) {
        thread_check_stopped();
    } else {
        check_running(tf);
        quantum_over = false;
    }
    linux_signal_check(tf);     /* e.g. the kick linux_kill sent */
}

/* A quantum that ended while the process was in a system call (waiting
   for the network) takes effect on the way out; so does an end; so do
   signals sent to the thread (Linux programs). */
void proc_syscall_exit(struct trapframe *tf)
{
    if (in_thread())
        thread_check_stopped();
    else
        check_running(tf);
    linux_signal_check(tf);
}
