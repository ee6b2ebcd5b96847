/*
 * How a process ended, in one line a user can act on.
 */
#include <stdio.h>
#include "pct.h"
#include "yod_debug.h"

static const char *fault_kind(const struct job *j)
{
    const struct lwk_run_result *r = &j->last;
    uint64_t a = r->fault_addr, va;
    unsigned slot;

    switch (r->fault_vector) {
    case 0: return "divide error";
    case 1: return "debug trap (a single step, with no debugger)";
    case 3: return "breakpoint (int3, with no debugger)";
    case 6: return "invalid opcode";
    case 13: return "general protection fault (privileged instruction or "
                    "bad address)";
    case 12: return "stack-segment fault";
    case 14:
        if (a >= 0xFFFF800000000000UL)
            return "page fault: access to kernel memory";
        if (a < j->stack_lo && a >= j->stack_lo - LWK_PAGE_SIZE)
            return "page fault: stack overflow";
        if (r->fault_error & 1)
            return "page fault: write to read-only memory";
        if (j->mode == PCT_MODE_VN && lwk_smartmap_of(a, &slot, &va))
            return "page fault: another rank's memory, not mapped "
                   "(SMARTMAP: that rank ended, or beyond its memory)";
        return "page fault: address not mapped";
    default: return "CPU exception";
    }
}

/* "killed: <what> (vector V) at address A, rip R <sym+off>" into buf. */
void pct_describe(const struct job *j, char *buf, size_t len)
{
    const struct lwk_run_result *r = &j->last;
    uint64_t off = 0;
    const char *sym = pct_symbol(j, r->fault_rip, &off);

    int n = snprintf(buf, len, "killed: %s (vector %u) at address %#lx, "
                     "rip %#lx <%s+%#lx>", fault_kind(j), r->fault_vector,
                     r->fault_addr, r->fault_rip, sym ? sym : "?",
                     sym ? off : 0);

    /* A thread's fault: the whole process died; say where.  In
       virtual-node mode the process's own CPU. */
    if (r->fault_cpu && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - n, "%s on CPU %u", j->mode == PCT_MODE_VN
                 ? "" : " in a thread", r->fault_cpu);
}

/* A fault is reported as the signal Linux sends for it, as a shell shows
   a process killed by it (128 + signal): scripts, yod and lwkrun see the
   same status for the same program as srun or a shell would give. */
int pct_status(const struct lwk_run_result *r)
{
    if (r->reason != LWK_STOP_FAULT)
        return r->status;
    return 128 + yod_dbg_signal(LWK_DBG_FAULTED, r->fault_vector);
}

void pct_report(const struct job *j)
{
    char what[256];

    if (j->last.reason == LWK_STOP_EXIT) {
        printf("pct: pid %d (%s) exited with status %d\n", j->pid, j->name,
               j->last.status);
        return;
    }
    if (j->last.reason == LWK_STOP_ABORT) {
        printf("pct: pid %d (%s) aborted with status %d: %s\n", j->pid,
               j->name, j->last.status, j->last.why);
        return;
    }
    pct_describe(j, what, sizeof(what));
    printf("pct: pid %d (%s) %s (status %d)\n", j->pid, j->name, what,
           pct_status(&j->last));
}
