/* SPDX-License-Identifier: MIT */
/*
 * sys/resource.h: getrusage() for compute-node programs.  Replaces
 * newlib's, whose struct rusage has only the two times: programs read
 * ru_maxrss and the counters too, so the struct has every field POSIX and
 * Linux name (what each holds on a node: libc/time.c).
 */
#ifndef _SYS_RESOURCE_H_
#define _SYS_RESOURCE_H_

#include <sys/time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RUSAGE_SELF     0       /* the calling process */
#define RUSAGE_CHILDREN (-1)    /* its ended children (never any on a node) */

struct rusage {
    struct timeval ru_utime;    /* user time used */
    struct timeval ru_stime;    /* system time used */
    long ru_maxrss;             /* largest resident set, KiB */
    long ru_ixrss, ru_idrss, ru_isrss;
    long ru_minflt, ru_majflt, ru_nswap;
    long ru_inblock, ru_oublock;
    long ru_msgsnd, ru_msgrcv, ru_nsignals;
    long ru_nvcsw, ru_nivcsw;   /* voluntary, involuntary switches */
};

int getrusage(int who, struct rusage *usage);

#ifdef __cplusplus
}
#endif

#endif
