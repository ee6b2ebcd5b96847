/* SPDX-License-Identifier: MIT */
/*
 * spawn.c: other programs and children.  A compute-node process is made
 * by the PCT, never by another process, and runs alone: it cannot start a
 * program (fork, vfork, exec*, popen, pipe to a child), so each of these
 * fails cleanly at run time with ENOSYS, and having no children, every
 * wait fails with ECHILD.  They exist so that programs which can do
 * without them (a benchmark's optional plot, a shell-out for a hostname)
 * build unchanged.  system(NULL) says there is no command processor (0;
 * newlib's says 1), system(cmd) fails as fork does.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libc_internal.h"

int fork(void)
{
    return lwk_fail(ENOSYS);
}

pid_t vfork(void)
{
    return lwk_fail(ENOSYS);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    (void)path, (void)argv, (void)envp;
    return lwk_fail(ENOSYS);
}

int execv(const char *path, char *const argv[])
{
    return execve(path, argv, NULL);
}

int execvp(const char *file, char *const argv[])
{
    return execve(file, argv, NULL);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
    return execve(file, argv, envp);
}

/* The list forms take their arguments as far as the NULL, as POSIX says;
   nothing could run them anyway. */
int execl(const char *path, const char *arg, ...)
{
    (void)arg;
    return execve(path, NULL, NULL);
}

int execlp(const char *file, const char *arg, ...)
{
    (void)arg;
    return execve(file, NULL, NULL);
}

int execle(const char *path, const char *arg, ...)
{
    (void)arg;
    return execve(path, NULL, NULL);
}

int system(const char *command)
{
    return command ? lwk_fail(ENOSYS) : 0;
}

FILE *popen(const char *command, const char *mode)
{
    (void)command, (void)mode;
    errno = ENOSYS;
    return NULL;
}

/* No stream popen() made can exist. */
int pclose(FILE *stream)
{
    (void)stream;
    return lwk_fail(ECHILD);
}

/* Both ends would be this process's alone: a pipe is for a child. */
int pipe(int fds[2])
{
    (void)fds;
    return lwk_fail(ENOSYS);
}

/* Handlers around a fork: no process ever forks, so none ever runs. */
int pthread_atfork(void (*prepare)(void), void (*parent)(void),
                   void (*child)(void))
{
    (void)prepare, (void)parent, (void)child;
    return 0;
}

int wait(int *status)
{
    (void)status;
    return lwk_fail(ECHILD);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    (void)pid, (void)status, (void)options;
    return lwk_fail(ECHILD);
}

pid_t wait3(int *status, int options, struct rusage *usage)
{
    return wait4(-1, status, options, usage);
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
    (void)usage;
    return waitpid(pid, status, options);
}
