/* SPDX-License-Identifier: MIT */
/*
 * sched.h: newlib's, with cpu_set_t (sys/cpuset.h) so that its
 * sched_getaffinity and sched_setaffinity are declared (with _GNU_SOURCE,
 * as glibc).  What each call does on a node: libc/sched.c.
 */
#ifndef LWK_SCHED_H
#define LWK_SCHED_H

#include <sys/cpuset.h>
#include_next <sched.h>

#endif
