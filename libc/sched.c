/* SPDX-License-Identifier: MIT */
/*
 * sched.c: scheduling calls.  A node does not schedule a job's threads:
 * each runs on a CPU of its own until it ends (docs/SMP.md), so
 * sched_yield() only gives the CPU back to the PCT for a moment, there
 * are no priorities or policies to change (one priority, 0, and
 * SCHED_OTHER), and the placement is the PCT's: no call may move a
 * thread.  The PCT tells the process which CPUs its mode gives it (the
 * auxiliary vector's AT_LWK_CPUS, docs/SMP.md): sched_getaffinity says
 * them, sched_setaffinity accepts only them, and sched_getcpu answers
 * when there is one (a thread of a threads-mode process cannot know
 * which of them it is on: ENOSYS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/types.h>
#include <unistd.h>

#include <lwk/lwk.h>
#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

int sched_yield(void)
{
    return (int)lwk_ret(lwk_sys_quit_quantum());
}

/* Lowering the priority of the only thing on its CPU changes nothing, and
   there is one priority: only 0 is a change that succeeds. */
int nice(int inc)
{
    return inc == 0 ? 0 : lwk_fail(EPERM);
}

int pthread_yield(void)
{
    return sched_yield() < 0 ? errno : 0;
}

int sched_get_priority_max(int policy)
{
    return policy == SCHED_OTHER ? 0 : lwk_fail(EINVAL);
}

int sched_get_priority_min(int policy)
{
    return sched_get_priority_max(policy);
}

/* Only this process can be named (pid 0 or its own). */
static int self(pid_t pid)
{
    return pid == 0 || pid == getpid();
}

int sched_getscheduler(pid_t pid)
{
    return self(pid) ? SCHED_OTHER : lwk_fail(ESRCH);
}

int sched_getparam(pid_t pid, struct sched_param *param)
{
    if (!self(pid))
        return lwk_fail(ESRCH);
    param->sched_priority = 0;
    return 0;
}

/* Asking for what it already has succeeds; anything else is refused. */
int sched_setparam(pid_t pid, const struct sched_param *param)
{
    if (!self(pid))
        return lwk_fail(ESRCH);
    return param->sched_priority == 0 ? 0 : lwk_fail(EINVAL);
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
    if (!self(pid))
        return lwk_fail(ESRCH);
    if (policy != SCHED_OTHER)
        return lwk_fail(EPERM);
    return sched_setparam(pid, param);
}

static uint64_t cpus(void)
{
    return lwk_getauxval(AT_LWK_CPUS, 1);
}

/* A set too small for the process's CPUs is EINVAL, as on Linux. */
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
    uint64_t m = cpus();

    if (!self(pid))
        return lwk_fail(ESRCH);
    if (8 * size < (size_t)(64 - __builtin_clzll(m | 1)))
        return lwk_fail(EINVAL);
    CPU_ZERO_S(size, set);
    for (int c = 0; c < 64; c++)
        if (m & (1ull << c))
            CPU_SET_S(c, size, set);
    return 0;
}

/* The placement is the PCT's: only the set the process has is taken. */
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
    uint64_t m = cpus();

    if (!self(pid))
        return lwk_fail(ESRCH);
    for (size_t c = 0; c < 8 * size; c++)
        if (CPU_ISSET_S(c, size, set) != (c < 64 && (m >> c) & 1))
            return lwk_fail(EINVAL);
    return 0;
}

int sched_getcpu(void)
{
    uint64_t m = cpus();

    return __builtin_popcountll(m) == 1 ? __builtin_ctzll(m)
                                        : lwk_fail(ENOSYS);
}
