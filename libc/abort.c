/* SPDX-License-Identifier: MIT */
/*
 * abort.c: lwk_abort, the end of the whole job, not only this rank: the
 * kernel's abort call ends the process as exit does, and the PCT tells
 * yod, which kills the other ranks and exits with `status`, printing
 * `why`.  MPI_Abort, NX's fatal errors and ptl_job_abort come here.
 * Portable: newlib programs link it from libc, and a glibc program on a
 * node (the Linux personality, docs/LINUX.md) from the node libraries
 * built for glibc (lxrt/lxnode.mk), since Q-Kernel calls sit above
 * Linux's numbers and reach the kernel from either.
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
