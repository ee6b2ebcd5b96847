/* SPDX-License-Identifier: MIT */
/*
 * proc.c: process calls for newlib.  A compute-node process is created by
 * the PCT, never by itself: fork/execve/wait fail with ENOSYS.  A signal to
 * itself (abort(), raise() with the default action) ends the process with
 * status 128 + signal, the shell convention, which the PCT reports.
 */
#include <sched.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <lwk/syscall.h>

#include "libc_internal.h"

void _exit(int status)
{
    for (;;)
        lwk_sys_exit(status);
}

pid_t getpid(void)
{
    return (pid_t)lwk_ret(lwk_sys_getpid());
}

int kill(pid_t pid, int sig)
{
    if (sig < 0 || sig >= NSIG)
        return lwk_fail(EINVAL);
    if (pid != 0 && pid != getpid())
        return lwk_fail(ESRCH);
    if (sig != 0)
        _exit(128 + sig);
    return 0;
}

int sched_yield(void)
{
    return (int)lwk_ret(lwk_sys_quit_quantum());
}

int fork(void)
{
    return lwk_fail(ENOSYS);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    (void)path;
    (void)argv;
    (void)envp;
    return lwk_fail(ENOSYS);
}

int wait(int *status)
{
    (void)status;
    return lwk_fail(ECHILD);
}

/* There are no asynchronous signals on a node: every mask is accepted. */
int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    (void)how;
    (void)set;
    if (old)
        *old = 0;
    return 0;
}
