/* SPDX-License-Identifier: MIT */
/*
 * rt_sys.c: identity, limits, time and the rest of what static
 * glibc, libstdc++ and libgfortran ask, answered from what a node knows:
 * the clock page (libc/time.c: no call per reading), the regions the PCT
 * gave (limits, sysinfo), the node's name (uname).  Signals are
 * rt_signal.c's.
 */
#include <string.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>
#include <lwk/lwk.h>
#include <lwk/syscall.h>

#include "rt.h"

#define CHECK(p, n) do { if (!lx_ok((uint64_t)(p), (uint64_t)(n))) \
                              return -LX_EFAULT; } while (0)

/* ---- identity and limits -------------------------------------------- */

long lx_getuid(LX_ARGS)  { return 0; }
long lx_geteuid(LX_ARGS) { return 0; }
long lx_getgid(LX_ARGS)  { return 0; }
long lx_getegid(LX_ARGS) { return 0; }
long lx_getppid(LX_ARGS) { return 1; }  /* the PCT */

long lx_uname(LX_ARGS)
{
    struct lx_utsname *u = (struct lx_utsname *)a0;
    struct utsname n;

    CHECK(a0, sizeof(*u));
    uname(&n);
    memset(u, 0, sizeof(*u));
    /* glibc refuses a kernel older than it was built for: say a current
       Linux release, and what this really is in version. */
    strcpy(u->sysname, "Linux");
    memcpy(u->nodename, n.nodename, strnlen(n.nodename, sizeof(u->nodename) - 1));
    strcpy(u->release, LX_RELEASE);
    strcpy(u->version, LX_VERSION);
    strcpy(u->machine, "x86_64");
    strcpy(u->domainname, "(none)");
    return 0;
}

struct lx_rlimit lx_limit(long res)
{
    uint64_t stack = lxrt.stack_hi - lxrt.stack_lo;
    uint64_t mem = lxrt.hi - lxrt.lo;

    switch (res) {
    case LX_RLIMIT_STACK: return (struct lx_rlimit){ stack, stack };
    case LX_RLIMIT_DATA:
    case LX_RLIMIT_AS:    return (struct lx_rlimit){ mem, mem };
    case LX_RLIMIT_NOFILE: return (struct lx_rlimit){ LX_NFD, LX_NFD };
    default:              return (struct lx_rlimit){ LX_RLIM_INFINITY,
                                                     LX_RLIM_INFINITY };
    }
}

long lx_prlimit64(LX_ARGS)
{
    a0 = (int)a0;               /* int arguments: only the low half */
    a1 = (int)a1;
    if (a0 != 0 && a0 != lxrt.pid)
        return -LX_ESRCH;
    if (a1 < 0 || a1 >= 16)
        return -LX_EINVAL;
    CHECK(a2, a2 ? sizeof(struct lx_rlimit) : 0);
    CHECK(a3, a3 ? sizeof(struct lx_rlimit) : 0);
    if (a3)
        *(struct lx_rlimit *)a3 = lx_limit(a1);
    return 0;                   /* a new limit changes nothing: the */
}                               /* regions are what they are */

long lx_getrlimit(LX_ARGS)
{
    return lx_prlimit64(0, a0, 0, a1, 0, 0);
}

long lx_sysinfo(LX_ARGS)
{
    struct lx_sysinfo *s = (struct lx_sysinfo *)a0;
    struct timespec t;

    CHECK(a0, sizeof(*s));
    clock_gettime(CLOCK_MONOTONIC, &t);
    memset(s, 0, sizeof(*s));
    s->uptime = t.tv_sec;
    s->totalram = lxrt.hi - lxrt.lo;
    s->freeram = lx_mem_free_bytes();
    s->procs = 1;
    s->mem_unit = 1;
    return 0;
}

long lx_getrandom(LX_ARGS)
{
    static uint64_t s;
    uint8_t *p = (uint8_t *)a0;

    CHECK(a0, a1);
    if (!s) {
        uint32_t lo, hi;
        __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
        s = ((uint64_t)hi << 32 | lo) ^ ((uint64_t)lxrt.pid << 48) ^
            (uint64_t)lwk_nid() << 32;
    }
    for (long i = 0; i < a1; i++) {     /* splitmix64: not for secrets */
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        p[i] = (uint8_t)(z ^ (z >> 31));
    }
    return a1;
}

long lx_sigaltstack(LX_ARGS)
{
    CHECK(a1, a1 ? 24 : 0);
    if (a1)                             /* stack_t: sp, flags, size */
        memcpy((void *)a1, (uint64_t[3]){ 0, 2 /* SS_DISABLE */, 0 }, 24);
    return 0;
}

/* ---- time --------------------------------------------------------------- */

static long now(long clk, struct timespec *t)
{
    switch ((int)clk) {
    case LX_CLOCK_REALTIME:
    case LX_CLOCK_REALTIME_COARSE:
        return clock_gettime(CLOCK_REALTIME, t);
    case LX_CLOCK_MONOTONIC:
    case LX_CLOCK_MONOTONIC_RAW:
    case LX_CLOCK_MONOTONIC_COARSE:
    case LX_CLOCK_BOOTTIME:
        return clock_gettime(CLOCK_MONOTONIC, t);
    case LX_CLOCK_PROCESS_CPUTIME_ID:
    case LX_CLOCK_THREAD_CPUTIME_ID: {
        struct lwk_usage u;
        lwk_sys_usage((long)&u);
        t->tv_sec = (time_t)(u.cpu_ns / 1000000000u);
        t->tv_nsec = (long)(u.cpu_ns % 1000000000u);
        return 0;
    }
    default:
        return -1;
    }
}

uint64_t lx_ts_ns(int64_t sec, int64_t frac_ns)
{
    if ((uint64_t)sec >= UINT64_MAX / 1000000000u - 1)
        return UINT64_MAX / 2;  /* centuries: as good as never */
    return (uint64_t)sec * 1000000000u + (uint64_t)frac_ns;
}

long lx_clock_ns(long clk, uint64_t *ns)
{
    struct timespec t;

    if (now(clk, &t) < 0)
        return -LX_EINVAL;
    *ns = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
    return 0;
}

long lx_clock_gettime(LX_ARGS)
{
    struct timespec t;

    CHECK(a1, sizeof(struct lx_timespec));
    if (now(a0, &t) < 0)
        return -LX_EINVAL;
    *(struct lx_timespec *)a1 = (struct lx_timespec){ t.tv_sec, t.tv_nsec };
    return 0;
}

long lx_clock_getres(LX_ARGS)
{
    if (a0 < 0 || a0 > LX_CLOCK_BOOTTIME)
        return -LX_EINVAL;
    CHECK(a1, a1 ? sizeof(struct lx_timespec) : 0);
    if (a1)
        *(struct lx_timespec *)a1 = (struct lx_timespec){ 0, 1 };
    return 0;
}

long lx_gettimeofday(LX_ARGS)
{
    struct timespec t;

    CHECK(a0, a0 ? sizeof(struct lx_timeval) : 0);
    clock_gettime(CLOCK_REALTIME, &t);
    if (a0)
        *(struct lx_timeval *)a0 = (struct lx_timeval){ t.tv_sec,
                                                       t.tv_nsec / 1000 };
    return 0;
}

long lx_time(LX_ARGS)
{
    struct timespec t;

    CHECK(a0, a0 ? 8 : 0);
    clock_gettime(CLOCK_REALTIME, &t);
    if (a0)
        *(int64_t *)a0 = t.tv_sec;
    return t.tv_sec;
}

/* Until the time or a signal whose handler runs (EINTR, and a relative
   sleep's remainder in *rem, as Linux's); the CPU halts meanwhile. */
long lx_clock_nanosleep(LX_ARGS)
{
    const struct lx_timespec *r = (const struct lx_timespec *)a2;
    uint64_t t, start, end, ns;
    long rc;

    CHECK(a2, sizeof(*r));
    CHECK(a3, a3 ? sizeof(*r) : 0);
    if (r->tv_nsec < 0 || r->tv_nsec >= 1000000000 || r->tv_sec < 0 ||
        lx_clock_ns(a0, &t) < 0 || lx_clock_ns(LX_CLOCK_MONOTONIC, &start))
        return -LX_EINVAL;
    ns = lx_ts_ns(r->tv_sec, r->tv_nsec);
    if (a1 & LX_TIMER_ABSTIME)
        ns = ns > t ? ns - t : 0;
    end = start + ns;
    rc = lx_sig_sleep(end);
    if (rc < 0 && a3 && !(a1 & LX_TIMER_ABSTIME)) {
        lx_clock_ns(LX_CLOCK_MONOTONIC, &t);
        ns = end > t ? end - t : 0;
        *(struct lx_timespec *)a3 = (struct lx_timespec){
            (int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u) };
    }
    return rc;
}

long lx_nanosleep(LX_ARGS)
{
    return lx_clock_nanosleep(LX_CLOCK_MONOTONIC, 0, a0, a1, 0, 0);
}

long lx_times(LX_ARGS)
{
    struct tms t;
    clock_t c;

    CHECK(a0, a0 ? sizeof(struct lx_tms) : 0);
    c = times(&t);
    if (a0)
        *(struct lx_tms *)a0 = (struct lx_tms){ t.tms_utime, t.tms_stime,
                                                0, 0 };
    return (long)c;
}

long lx_getrusage(LX_ARGS)
{
    struct lx_rusage *l = (struct lx_rusage *)a1;
    struct rusage r;

    CHECK(a1, sizeof(*l));
    if (getrusage((int)a0, &r) < 0)
        return -LX_EINVAL;
    memset(l, 0, sizeof(*l));
    l->utime = (struct lx_timeval){ r.ru_utime.tv_sec, r.ru_utime.tv_usec };
    l->stime = (struct lx_timeval){ r.ru_stime.tv_sec, r.ru_stime.tv_usec };
    l->maxrss = r.ru_maxrss;
    return 0;
}
