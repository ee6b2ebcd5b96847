/* SPDX-License-Identifier: MIT */
/*
 * rt_proc.h: the node's own /proc and /sys (docs/LINUX.md, "The node a
 * program sees"), between rt_proc.c (the names: which paths exist),
 * rt_procio.c (opening, reading and listing them, in front of yod's
 * lwk_io table) and the files that say what each one contains
 * (rt_procfiles.c; rt_cpuinfo.c for /proc/cpuinfo).
 * Every file describes this node and this process as the job sees them:
 * the CPUs its mode gave it, the memory of its regions, its arguments,
 * environment, auxiliary vector and open files.
 */
#ifndef LXRT_PROC_H
#define LXRT_PROC_H

#include <sys/stat.h>

#include "rt.h"

/* A file's contents, made when it is opened (and again at offset 0). */
struct lx_text {
    char *p;
    size_t len, cap;
    int short_of_memory;        /* a line did not fit: the open fails */
};
void lx_put(struct lx_text *t, const void *s, size_t n);
void lx_say(struct lx_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* What a file says, appended to t; n is the number in its name (the CPU
   of /sys/devices/system/cpu/cpuN/online, the fd of /proc/self/fd/N). */
typedef void lx_file_fn(struct lx_text *t, long n);
lx_file_fn lx_cpu_possible, lx_cpu_online, lx_cpu_offline, lx_cpu_one,
    lx_cpuinfo, lx_meminfo, lx_version, lx_auxv, lx_cmdline, lx_comm,
    lx_environ, lx_limits, lx_maps, lx_mounts, lx_mountinfo, lx_status,
    lx_statm;

/* rt_proc.c: where a node path leads.  A name of the table: its entry
   e, the number in its name n, its path in `path`; or out of the table:
   a path for yod (fwd: /proc/self/exe) or a program fd (fd >= 0:
   /proc/self/fd/N).  follow: the last name too, if it is a link. */
#define LX_PATH 4096
enum { LX_DIR, LX_FILE, LX_LINK };
struct lx_found {
    int e, fd;
    long n;
    char path[LX_PATH];
    char fwd[LX_PATH];
};
long lx_find(const char *path, int follow, struct lx_found *f);
/* path (absolute) with . and .. taken by name, no // and no trailing /,
   into out (LX_PATH bytes; may be path); *dir: it ended in /, . or ..
   (a directory is meant). */
long lx_normalize(const char *path, char *out, int *dir);
int lx_kind(int e);
void lx_stat_of(int e, long n, struct stat *st);
/* A file's contents, or a directory's records (struct lx_dirent64). */
void lx_contents(struct lx_text *t, int e, long n);

/* rt_procio.c: what program handle h is (/proc/self/fd/N's target). */
void lx_fd_name(struct lx_text *t, int h);

/* The node's CPUs (AT_LWK_NCPUS) and those this process runs on. */
uint64_t lx_ncpus(void);
uint64_t lx_cpus(void);
/* The program's path as yod gave it (LWK_EXE), or NULL. */
const char *lx_exe(void);

#endif
