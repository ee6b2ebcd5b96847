/* SPDX-License-Identifier: MIT */
/*
 * proc.c: process calls for newlib: _exit, getpid, abort.  A compute-node
 * process is created by the PCT, never by itself: fork, exec and wait are
 * in spawn.c; identities in identity.c; signals (kill, sigaction, alarm)
 * in signal.c.  abort() and a failed assert() end the whole job (the
 * kernel's abort call, as lwk_abort: abort.c).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <lwk/lwk.h>
#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

void _exit(int status)
{
    for (;;)
        lwk_sys_exit(status);
}

/* lwk_abort and lwk_abort_peer are in abort.c (shared with glibc
   programs on a node). */

/* abort() and a failed assert() end the job with SIGABRT's status as a
   shell shows it (134).  A SIGABRT handler runs first, as POSIX says (if
   it returns, the job still ends).  Like glibc, abort() flushes nothing:
   the heap or the streams may be what is broken. */
void abort(void)
{
    static const char why[] = "abort() called";
    struct sigaction old;

    if (sigaction(SIGABRT, NULL, &old) == 0 && old.sa_handler != SIG_DFL &&
        old.sa_handler != SIG_IGN)
        raise(SIGABRT);
    for (;;)
        lwk_sys_abort(128 + SIGABRT, (long)why, sizeof(why) - 1, -1);
}

/* newlib's assert() calls this: the assertion is the reason yod prints
   (one line), instead of newlib's message on stderr and then abort(). */
void __assert_func(const char *file, int line, const char *func,
                   const char *expr)
{
    char why[LWK_WHY_LEN];
    int n = snprintf(why, sizeof(why), "assertion \"%s\" failed: %s:%d%s%s",
                     expr, file, line, func ? ", in " : "", func ? func : "");

    for (;;)
        lwk_sys_abort(128 + SIGABRT, (long)why,
                      n < (int)sizeof(why) ? n : (int)sizeof(why) - 1, -1);
}

pid_t getpid(void)
{
    return (pid_t)lwk_ret(lwk_sys_getpid());
}
