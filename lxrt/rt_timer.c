/* SPDX-License-Identifier: MIT */
/*
 * rt_timer.c: a Linux program's timers that send signals (docs/LINUX.md):
 * alarm and setitimer(ITIMER_REAL) share the kernel's timer
 * LWK_LX_ITIMER_REAL, timer_create's timers are the kernel's others.  The
 * kernel keeps their times and sends their signals as tgkill's are sent
 * (kernel/linux_timer.c); here are the calls' shapes, their checks and
 * which timer ids are in use.  A timer's signal goes to the thread that
 * set it (Linux gives a process's signal to any thread that does not
 * block it), or to SIGEV_THREAD_ID's thread.
 */
#include <string.h>
#include <lwk/lwk.h>
#include <lwk/syscall.h>

#include "rt.h"

#define CHECK(p, n) do { if (!lx_ok((uint64_t)(p), (uint64_t)(n))) \
                              return -LX_EFAULT; } while (0)
#define NS              1000000000u

/* timer_create's: index i is the kernel's timer i + 1. */
static struct {
    int used, clock, sig, tid;
} posix[LWK_LX_TIMERS - 1];

static long timer(long id, const struct lwk_lx_timer *set,
                  struct lwk_lx_timer *old)
{
    return lx_err(lwk_sys_linux_timer(id, (long)set, (long)old));
}

/* ---- alarm, setitimer, getitimer ---------------------------------------- */

/* An armed timer never reads as 0 (disarmed), as on Linux. */
static struct lx_timeval tv(uint64_t ns)
{
    if (ns && ns < 1000)
        ns = 1000;
    return (struct lx_timeval){ (int64_t)(ns / NS),
                                (int64_t)(ns % NS / 1000) };
}

static int tv_ok(const struct lx_timeval *t)
{
    return t->tv_sec >= 0 && t->tv_usec >= 0 && t->tv_usec < 1000000;
}

static uint64_t tv_ns(const struct lx_timeval *t)
{
    return lx_ts_ns(t->tv_sec, t->tv_usec * 1000);
}

/* The seconds left, rounded as Linux's alarm rounds them. */
long lx_alarm(LX_ARGS)
{
    struct lwk_lx_timer set = { (uint64_t)(unsigned)a0 * NS, 0, LX_SIGALRM,
                                0, 0, 0 }, old;
    long rc = timer(LWK_LX_ITIMER_REAL, &set, &old);
    uint64_t s = old.value_ns / NS, us = old.value_ns % NS / 1000;

    if (rc < 0)
        return rc;
    return (long)(s + ((!s && old.value_ns) || us >= 500000));
}

static long itimer_which(long which)
{
    if ((int)which == LX_ITIMER_VIRTUAL || (int)which == LX_ITIMER_PROF)
        return -LX_ENOSYS;      /* no CPU-time timers (docs/LINUX.md) */
    return (int)which == LX_ITIMER_REAL ? 0 : -LX_EINVAL;
}

static void itimer_out(struct lx_itimerval *out, const struct lwk_lx_timer *t)
{
    *out = (struct lx_itimerval){ tv(t->interval_ns), tv(t->value_ns) };
}

long lx_getitimer(LX_ARGS)
{
    struct lwk_lx_timer now;
    long rc = itimer_which(a0);

    if (rc < 0)
        return rc;
    CHECK(a1, sizeof(struct lx_itimerval));
    if ((rc = timer(LWK_LX_ITIMER_REAL, NULL, &now)) < 0)
        return rc;
    itimer_out((struct lx_itimerval *)a1, &now);
    return 0;
}

/* A NULL new value disarms, as Linux still allows. */
long lx_setitimer(LX_ARGS)
{
    const struct lx_itimerval *v = (const struct lx_itimerval *)a1;
    struct lwk_lx_timer set = { .sig = LX_SIGALRM }, old;
    long rc = itimer_which(a0);

    if (rc < 0)
        return rc;
    CHECK(a1, a1 ? sizeof(*v) : 0);
    CHECK(a2, a2 ? sizeof(struct lx_itimerval) : 0);
    if (v && (!tv_ok(&v->value) || !tv_ok(&v->interval)))
        return -LX_EINVAL;
    if (v && (set.value_ns = tv_ns(&v->value)))
        set.interval_ns = tv_ns(&v->interval);
    if ((rc = timer(LWK_LX_ITIMER_REAL, &set, &old)) < 0)
        return rc;
    if (a2)
        itimer_out((struct lx_itimerval *)a2, &old);
    return 0;
}

/* ---- timer_create and its calls ----------------------------------------- */

/* Timers on the clocks a node keeps (CLOCK_BOOTTIME is MONOTONIC here);
   none on CPU time. */
static int timer_clock(long clk)
{
    return clk == LX_CLOCK_REALTIME || clk == LX_CLOCK_MONOTONIC ||
           clk == LX_CLOCK_BOOTTIME;
}

/* No sigevent: SIGEV_SIGNAL with SIGALRM.  SIGEV_THREAD never comes:
   glibc makes its thread itself and asks for SIGEV_THREAD_ID. */
long lx_timer_create(LX_ARGS)
{
    const struct lx_sigevent *ev = (const struct lx_sigevent *)a1;
    int sig = LX_SIGALRM, tid = 0, i;

    CHECK(a1, a1 ? sizeof(*ev) : 0);
    CHECK(a2, sizeof(int32_t));
    if (!timer_clock(a0))
        return -LX_EINVAL;
    if (ev) {
        if (ev->notify != LX_SIGEV_SIGNAL && ev->notify != LX_SIGEV_NONE &&
            ev->notify != LX_SIGEV_THREAD_ID)
            return -LX_EINVAL;
        if (ev->notify != LX_SIGEV_NONE &&
            (ev->signo < 1 || ev->signo > LX_NSIG))
            return -LX_EINVAL;
        sig = ev->notify == LX_SIGEV_NONE ? 0 : ev->signo;
        tid = ev->notify == LX_SIGEV_THREAD_ID ? ev->tid : 0;
        if (ev->notify == LX_SIGEV_THREAD_ID &&
            (tid <= 0 || lwk_sys_linux_kill(tid, 0) < 0))
            return -LX_EINVAL;  /* Linux: not a thread of the process */
    }
    for (i = 0; i < LWK_LX_TIMERS - 1 && posix[i].used; i++)
        ;
    if (i == LWK_LX_TIMERS - 1)
        return -LX_EAGAIN;      /* Linux's answer when none are left */
    posix[i] = (typeof(posix[i])){ 1, (int)a0, sig, tid };
    *(int32_t *)a2 = i;
    return 0;
}

static int posix_id(long id)
{
    return id >= 0 && id < LWK_LX_TIMERS - 1 && posix[id].used;
}

static int ts_ok(const struct lx_timespec *t)
{
    return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < NS;
}

static uint64_t ts_ns(const struct lx_timespec *t)
{
    return lx_ts_ns(t->tv_sec, t->tv_nsec);
}

static void itimerspec_out(struct lx_itimerspec *out,
                           const struct lwk_lx_timer *t)
{
    *out = (struct lx_itimerspec){
        { (int64_t)(t->interval_ns / NS), (int64_t)(t->interval_ns % NS) },
        { (int64_t)(t->value_ns / NS), (int64_t)(t->value_ns % NS) },
    };
}

/* timer_settime(id, flags, new, old): TIMER_ABSTIME's time is on the
   timer's clock; one already past expires at once. */
long lx_timer_settime(LX_ARGS)
{
    const struct lx_itimerspec *v = (const struct lx_itimerspec *)a2;
    struct lwk_lx_timer set, old;
    uint64_t now;
    long rc;

    a0 = (int)a0;
    if (!posix_id(a0))
        return -LX_EINVAL;
    CHECK(a2, sizeof(*v));
    CHECK(a3, a3 ? sizeof(struct lx_itimerspec) : 0);
    if (!ts_ok(&v->value) || !ts_ok(&v->interval))
        return -LX_EINVAL;
    set = (struct lwk_lx_timer){ ts_ns(&v->value), 0, posix[a0].sig,
                                 posix[a0].tid, 0, 0 };
    if (set.value_ns)
        set.interval_ns = ts_ns(&v->interval);
    if (set.value_ns && (a1 & LX_TIMER_ABSTIME)) {
        lx_clock_ns(posix[a0].clock, &now);
        set.value_ns = set.value_ns > now ? set.value_ns - now : 1;
    }
    if ((rc = timer(a0 + 1, &set, &old)) < 0)
        return rc;
    if (a3)
        itimerspec_out((struct lx_itimerspec *)a3, &old);
    return 0;
}

/* timer id as it is now; -LX_EINVAL if there is none. */
static long posix_now(long id, struct lwk_lx_timer *now)
{
    return posix_id(id) ? timer(id + 1, NULL, now) : -LX_EINVAL;
}

long lx_timer_gettime(LX_ARGS)
{
    struct lwk_lx_timer now;
    long rc;

    CHECK(a1, sizeof(struct lx_itimerspec));
    if ((rc = posix_now((int)a0, &now)) < 0)
        return rc;
    itimerspec_out((struct lx_itimerspec *)a1, &now);
    return 0;
}

long lx_timer_getoverrun(LX_ARGS)
{
    struct lwk_lx_timer now;
    long rc = posix_now((int)a0, &now);

    return rc < 0 ? rc : (long)now.overrun;
}

long lx_timer_delete(LX_ARGS)
{
    static const struct lwk_lx_timer off;
    long rc;

    a0 = (int)a0;
    if (!posix_id(a0))
        return -LX_EINVAL;
    if ((rc = timer(a0 + 1, &off, NULL)) < 0)
        return rc;
    posix[a0].used = 0;
    return 0;
}
