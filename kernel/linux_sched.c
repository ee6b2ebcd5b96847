/*
 * The Linux personality's scheduler calls (sched(7)), answered in the
 * kernel for the node's one way of running threads: each on a CPU of
 * its own, never time-sliced against another of its process, never
 * moved (thread.c).  The affinity calls say and accept that; the policy
 * calls say SCHED_OTHER at priority 0; getcpu the thread's CPU
 * (docs/LINUX.md).
 */
#define LOG_PREFIX "linux"
#include "kernel.h"
#include "aspace.h"
#include "cpu.h"
#include "proc.h"

/* The CPUs it may use: its main thread's (CPU 0, or the one it was
   placed on in virtual-node mode) and those the PCT gave it for threads
   (libgomp makes that many threads); the node's /sys/devices/system/cpu/
   online says the same (lxrt/rt_proc.c). */
static long lx_sched_getaffinity(struct trapframe *tf)
{
    uint64_t mask = 1ULL << current->home | current->cpus, len = tf->rsi;

    if ((int)tf->rdi != 0 && linux_thread_cpu(current, (int)tf->rdi) < 0)
        return -ESRCH;
    if (len < 8 || (len & 7))
        return -EINVAL;
    if (!user_ptr(current, tf->rdx, len, true))
        return -EFAULT;
    copy_to_user(current, tf->rdx, &mask, 8);
    for (uint64_t i = 8; i < len; i += 8)
        copy_to_user(current, tf->rdx + i, &(uint64_t){ 0 }, 8);
    return 8;
}

/* getcpu(cpu, node, cache): the CPU the thread runs on, for good (glibc's
   sched_getcpu asks when it has no rseq area); one NUMA node. */
static long lx_getcpu(struct trapframe *tf)
{
    uint32_t cpu = (uint32_t)this_cpu()->id, node = 0;

    if (tf->rdi && copy_to_user(current, tf->rdi, &cpu, sizeof(cpu)) < 0)
        return -EFAULT;
    if (tf->rsi && copy_to_user(current, tf->rsi, &node, sizeof(node)) < 0)
        return -EFAULT;
    return 0;
}

/* sched_setaffinity(pid, len, mask): every thread is pinned to its CPU
   by the node, so as Linux for a task its cpuset pins: a mask with that
   CPU is taken (and changes nothing), one without it is EINVAL.  Linux
   reads min(len, its mask size) bytes and zero-fills the rest. */
static long lx_sched_setaffinity(struct trapframe *tf)
{
    uint32_t len = (uint32_t)tf->rsi;   /* Linux's is an unsigned int */
    uint64_t mask = 0;
    long cpu;

    if (len > 8)
        len = 8;
    if (len && copy_from_user(current, &mask, tf->rdx, len) < 0)
        return -EFAULT;
    cpu = (int)tf->rdi == 0 ? this_cpu()->id
                            : linux_thread_cpu(current, (int)tf->rdi);
    if (cpu < 0)
        return cpu;
    return mask >> cpu & 1 ? 0 : -EINVAL;
}

/* ---- scheduling policy: the node's one (sched(7)) ------------------------

   Every thread of a node program runs on a CPU of its own, so there is
   one policy, SCHED_OTHER at priority 0, and nothing to change: asking
   answers that (glibc's pthread_getschedparam asks, and its aio helper
   thread with it), setting it again succeeds, another policy Linux knows
   is EPERM (a real-time one needs a privilege no node program has), one
   it does not, or a priority outside the policy's range, EINVAL. */
#define SCHED_OTHER             0
#define SCHED_FIFO              1
#define SCHED_RR                2
#define SCHED_BATCH             3
#define SCHED_IDLE              5
#define SCHED_RESET_ON_FORK     0x40000000

/* pid 0, the process's or one of its live threads' (TID's numbering):
   0; a negative one EINVAL; any other ESRCH. */
static long sched_who(uint64_t arg)
{
    int pid = (int)arg;

    if (pid < 0)
        return -EINVAL;
    if (pid == 0 || linux_thread_cpu(current, pid) >= 0)
        return 0;
    return -ESRCH;
}

/* A policy's priority range, or -EINVAL for one Linux does not know. */
static long sched_range(uint64_t arg, int *lo, int *hi)
{
    switch ((int)arg) {
    case SCHED_OTHER:
    case SCHED_BATCH:
    case SCHED_IDLE:
        *lo = *hi = 0;
        return 0;
    case SCHED_FIFO:
    case SCHED_RR:
        *lo = 1;
        *hi = 99;
        return 0;
    default:
        return -EINVAL;
    }
}

/* sched_setscheduler(pid, policy, param) and sched_setparam(pid, param)
   (policy -1: the one it has). */
static long lx_sched_set(uint64_t who, long policy, uint64_t param)
{
    int prio, lo, hi;
    long rc;

    if (!param || (rc = sched_who(who)) < 0)
        return param ? rc : -EINVAL;
    if (copy_from_user(current, &prio, param, sizeof(prio)) < 0)
        return -EFAULT;
    if (policy < 0)
        policy = SCHED_OTHER;
    policy &= ~SCHED_RESET_ON_FORK;
    if (sched_range((uint64_t)policy, &lo, &hi) < 0 || prio < lo || prio > hi)
        return -EINVAL;
    return policy == SCHED_OTHER ? 0 : -EPERM;
}

/* sched_rr_get_interval(pid, tp): SCHED_OTHER's time slice, which
   Linux gives as 0 for a task alone on its run queue ("runs until it
   yields"), as every node thread is on its CPU. */
static long lx_sched_rr_interval(struct trapframe *tf)
{
    int64_t ts[2] = { 0, 0 };
    long rc = sched_who(tf->rdi);

    if (rc < 0)
        return rc;
    return copy_to_user(current, tf->rsi, ts, sizeof(ts)) < 0 ? -EFAULT : 0;
}

long linux_sched(struct trapframe *tf, uint64_t nr)
{
    int lo, hi, zero = 0;
    long rc;

    switch (nr) {
    case 148:                           /* sched_rr_get_interval */
        return lx_sched_rr_interval(tf);
    case 203:
        return lx_sched_setaffinity(tf);
    case 204:
        return lx_sched_getaffinity(tf);
    case 309:
        return lx_getcpu(tf);
    case 142:                           /* sched_setparam */
        return lx_sched_set(tf->rdi, -1, tf->rsi);
    case 143:                           /* sched_getparam */
        if (!tf->rsi || (rc = sched_who(tf->rdi)) < 0)
            return tf->rsi ? rc : -EINVAL;
        return copy_to_user(current, tf->rsi, &zero, sizeof(zero)) < 0
               ? -EFAULT : 0;
    case 144:                           /* sched_setscheduler */
        if ((int)tf->rsi < 0)
            return -EINVAL;
        return lx_sched_set(tf->rdi, (int)tf->rsi, tf->rdx);
    case 145:                           /* sched_getscheduler */
        return (rc = sched_who(tf->rdi)) < 0 ? rc : SCHED_OTHER;
    case 146:                           /* sched_get_priority_max */
        return (rc = sched_range(tf->rdi, &lo, &hi)) < 0 ? rc : hi;
    default:                            /* 147: sched_get_priority_min */
        return (rc = sched_range(tf->rdi, &lo, &hi)) < 0 ? rc : lo;
    }
}
