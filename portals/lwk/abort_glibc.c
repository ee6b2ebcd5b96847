/* SPDX-License-Identifier: MIT */
/*
 * abort_glibc.c: lwk_abort for a glibc program on a compute node (the
 * Linux personality, docs/LINUX.md).  A newlib program has it in libc/;
 * a Linux program's MPI, NX and job interface (ptl_job_abort) need the
 * same end: the kernel's abort call, which ends the job and tells yod
 * why.  Q-Kernel calls are reachable from a Linux process (they sit at
 * LWK_SYSCALL_BASE + n, above Linux's numbers).
 */
#include <stdio.h>
#include <string.h>

#include <lwk/lwk.h>
#include <lwk/syscall.h>

void lwk_abort_peer(int status, long peer, const char *why)
{
    fflush(NULL);               /* what the program printed goes first */
    for (;;)
        lwk_sys_abort(status, (long)why, (long)strlen(why), peer);
}

void lwk_abort(int status, const char *why)
{
    lwk_abort_peer(status, -1, why);
}
