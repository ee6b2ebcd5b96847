/* SPDX-License-Identifier: MIT */
/*
 * sched.c: scheduling calls.  A node does not schedule a job's threads:
 * each runs on a CPU of its own until it ends (docs/SMP.md), so
 * sched_yield() only gives the CPU back to the PCT for a moment, there
 * are no priorities or policies to change (one priority, 0, and
 * SCHED_OTHER), and the placement is the PCT's: no call may move a
 * thread.  The C library is not told which CPUs the process has, so the
 * affinity calls and sched_getcpu() fail with ENOSYS rather than guess
 * (the Linux personality answers sched_getaffinity from the kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/types.h>
#include <unistd.h>

#include <lwk/syscall.h>

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

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
    (void)size, (void)set;
    return self(pid) ? lwk_fail(ENOSYS) : lwk_fail(ESRCH);
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
    (void)size, (void)set;
    return self(pid) ? lwk_fail(ENOSYS) : lwk_fail(ESRCH);
}

int sched_getcpu(void)
{
    return lwk_fail(ENOSYS);
}
