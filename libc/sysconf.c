/* SPDX-License-Identifier: MIT */
/*
 * sysconf.c: what the system is and what a process may use, as the node
 * gave it: the page size the node maps (2 MB), the node's CPUs and those
 * the process runs on (its auxiliary vector: AT_LWK_NCPUS, AT_LWK_CPUS), the
 * heap and stack regions the PCT sized, yod's descriptors per rank.
 * sysconf, pathconf, confstr, getpagesize, getdtablesize, the resource
 * limits and GNU's sysinfo and get_nprocs.  A limit is a region's real
 * size, the hard limit: lowering a soft limit is remembered and reported,
 * not enforced (the regions do not shrink); raising it past the hard one
 * is refused, as on Linux.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <lwk/lwk.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

#define OPEN_MAX_YOD    64      /* yod's descriptors per rank, 0..2 in */
#define PATH_MAX_YOD    4096    /* yod_proto.h YOD_PATH_MAX */

long sysconf(int name)
{
    switch (name) {
    case _SC_PAGESIZE:
        return (long)LWK_PAGE_SIZE;  /* the only page size a node maps */
    case _SC_CLK_TCK:
        return CLOCKS_PER_SEC;
    case _SC_NPROCESSORS_CONF:          /* the node's CPUs */
        return (long)lwk_getauxval(AT_LWK_NCPUS, 1);
    case _SC_NPROCESSORS_ONLN:          /* the ones this process runs on */
        return __builtin_popcountll(lwk_getauxval(AT_LWK_CPUS, 1));
    case _SC_PHYS_PAGES:
    case _SC_AVPHYS_PAGES:
        return (long)(lwk_proc->heap_size / LWK_PAGE_SIZE);
    case _SC_OPEN_MAX:
        return OPEN_MAX_YOD;
    case _SC_CHILD_MAX:
        return 0;                   /* no process can make another */
    case _SC_HOST_NAME_MAX:
        return 64;
    case _SC_LINE_MAX:
        return 2048;
    case _SC_GETPW_R_SIZE_MAX:
        return 1024;
    case _SC_LEVEL1_DCACHE_LINESIZE:
        return 64;                  /* every x86-64 CPU's line */
    default:
        return lwk_fail(EINVAL);
    }
}

/* BSD's name for the page size; the same answer as sysconf's. */
int getpagesize(void)
{
    return (int)sysconf(_SC_PAGESIZE);
}

int getdtablesize(void)
{
    return OPEN_MAX_YOD;
}

/* Files are yod's, on Linux: its limits.  No limit: -1, errno kept. */
static long path_limit(int name)
{
    switch (name) {
    case _PC_NAME_MAX:
        return 255;
    case _PC_PATH_MAX:
        return PATH_MAX_YOD;
    case _PC_PIPE_BUF:
        return 4096;
    case _PC_CHOWN_RESTRICTED:
    case _PC_NO_TRUNC:
        return 1;
    case _PC_LINK_MAX:
        return -1;
    default:
        return lwk_fail(EINVAL);
    }
}

long pathconf(const char *path, int name)
{
    (void)path;
    return path_limit(name);
}

long fpathconf(int fd, int name)
{
    (void)fd;
    return path_limit(name);
}

size_t confstr(int name, char *buf, size_t len)
{
    static const char path[] = "/bin:/usr/bin";

    if (name != _CS_PATH) {
        errno = EINVAL;
        return 0;
    }
    if (buf && len) {
        strncpy(buf, path, len - 1);
        buf[len - 1] = 0;
    }
    return sizeof(path);
}

/* ---- resource limits ---------------------------------------------------- */

static struct rlimit soft[RLIM_NLIMITS];    /* what setrlimit lowered */
static unsigned char lowered[RLIM_NLIMITS];

static rlim_t hard_limit(int res)
{
    switch (res) {
    case RLIMIT_STACK:
        return lwk_proc->stack_size;
    case RLIMIT_DATA:
    case RLIMIT_AS:
        return lwk_proc->heap_size;
    case RLIMIT_NOFILE:
        return OPEN_MAX_YOD;
    default:
        return RLIM_INFINITY;
    }
}

int getrlimit(int res, struct rlimit *rl)
{
    if (res < 0 || res >= RLIM_NLIMITS)
        return lwk_fail(EINVAL);
    *rl = lowered[res] ? soft[res]
                       : (struct rlimit){ hard_limit(res), hard_limit(res) };
    return 0;
}

int setrlimit(int res, const struct rlimit *rl)
{
    struct rlimit now;

    if (getrlimit(res, &now) < 0 || rl->rlim_cur > rl->rlim_max)
        return lwk_fail(EINVAL);
    if (rl->rlim_max > now.rlim_max)
        return lwk_fail(EPERM);
    soft[res] = *rl;
    lowered[res] = 1;
    return 0;
}

/* One priority: 0. */
int getpriority(int which, id_t who)
{
    if (which != PRIO_PROCESS && which != PRIO_PGRP && which != PRIO_USER)
        return lwk_fail(EINVAL);
    (void)who;
    errno = 0;
    return 0;
}

int setpriority(int which, id_t who, int prio)
{
    if (getpriority(which, who) < 0)
        return -1;
    return prio == 0 ? 0 : lwk_fail(EACCES);
}

/* ---- GNU: sysinfo, get_nprocs ------------------------------------------ */

int get_nprocs(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }
int get_nprocs_conf(void) { return (int)sysconf(_SC_NPROCESSORS_CONF); }
long get_phys_pages(void) { return sysconf(_SC_PHYS_PAGES); }
long get_avphys_pages(void) { return (long)(lwk_heap_left() / LWK_PAGE_SIZE); }

int sysinfo(struct sysinfo *s)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);     /* from the node's boot */
    memset(s, 0, sizeof(*s));
    s->uptime = t.tv_sec;
    s->totalram = lwk_proc->heap_size;
    s->freeram = lwk_heap_left();
    s->procs = 1;
    s->mem_unit = 1;
    return 0;
}
