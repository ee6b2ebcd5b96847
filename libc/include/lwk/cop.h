/* SPDX-License-Identifier: MIT */
/*
 * lwk/cop.h: the COP interface of Cougar's threads model (libc/cop.c).
 *
 * cop(fn, args, &done) runs fn(args) on another CPU of the job, in a
 * thread of this process: globals are visible to both.  `done` is set to
 * 0 at once and to 1 when fn has returned; the caller goes on meanwhile.
 * The routine makes no Portals calls (no MPI, no I/O to yod).  Returns 0,
 * or EAGAIN when the job has no free CPU (it runs in threads mode only:
 * yod -threads), ENOMEM.
 */
#ifndef LWK_COP_H
#define LWK_COP_H

int cop(void (*fn)(void *), void *args, volatile int *done);

#endif
