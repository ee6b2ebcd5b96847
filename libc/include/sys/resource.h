/* SPDX-License-Identifier: MIT */
/*
 * sys/resource.h: getrusage() for compute-node programs.  Replaces
 * newlib's, whose struct rusage has only the two times: programs read
 * ru_maxrss and the counters too, so the struct has every field POSIX and
 * Linux name (what each holds on a node: libc/time.c).  Resource limits
 * (XBD <sys/resource.h>, Linux's numbers) are what the node gave the
 * process: its stack and heap regions, yod's descriptors (libc/sysconf.c).
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

typedef unsigned long rlim_t;
#define RLIM_INFINITY   (~0UL)
#define RLIM_SAVED_MAX  RLIM_INFINITY
#define RLIM_SAVED_CUR  RLIM_INFINITY
struct rlimit {
    rlim_t rlim_cur;            /* the soft limit */
    rlim_t rlim_max;            /* the hard limit: what there is */
};
#define RLIMIT_CPU      0       /* CPU seconds */
#define RLIMIT_FSIZE    1       /* file size */
#define RLIMIT_DATA     2       /* heap */
#define RLIMIT_STACK    3       /* stack */
#define RLIMIT_CORE     4       /* core file (never written on a node) */
#define RLIMIT_NOFILE   7       /* descriptors */
#define RLIMIT_AS       9       /* address space */
#define RLIM_NLIMITS    16
int getrlimit(int resource, struct rlimit *rl);
int setrlimit(int resource, const struct rlimit *rl);

#define PRIO_PROCESS    0
#define PRIO_PGRP       1
#define PRIO_USER       2
int getpriority(int which, id_t who);
int setpriority(int which, id_t who, int prio);

#ifdef __cplusplus
}
#endif

#endif
