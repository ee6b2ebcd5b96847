/* SPDX-License-Identifier: MIT */
/*
 * sys/wait.h: newlib's, with every status macro of POSIX and Linux
 * (lwk/waitstatus.h) and wait3/wait4.  A node process has no children:
 * every wait fails with ECHILD (libc/spawn.c).
 */
#ifndef LWK_SYS_WAIT_H
#define LWK_SYS_WAIT_H

#include_next <sys/wait.h>
#include <lwk/waitstatus.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rusage;
pid_t wait3(int *status, int options, struct rusage *usage);
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);

#ifdef __cplusplus
}
#endif

#endif
