/* SPDX-License-Identifier: MIT */
/*
 * time.c: clocks for newlib from the calibrated TSC: gettimeofday,
 * clock_gettime/getres, and sleeps; the process's CPU time for times()
 * (hence clock()) and getrusage from the kernel's count.  The kernel
 * hands over its conversion once (clock_params) and every reading is an
 * rdtsc here, not a system call: MPI_Wtime and Portals' timed waits read
 * the clock on every message.  A node has no periodic tick, so a sleep
 * gives the CPU back to the PCT with quit_quantum until the deadline
 * passes.
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

#define NS_PER_SEC 1000000000LL

static struct lwk_clock clk;
static int have_clk;            /* else every reading is a clock_ns call */

static unsigned long long rdtsc(void)
{
    unsigned lo, hi;

    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (unsigned long long)hi << 32 | lo;
}

static long long now_ns(int clock)
{
    unsigned long long ns;

    if (!have_clk || (clock != LWK_CLOCK_MONOTONIC &&
                      clock != LWK_CLOCK_REALTIME))
        return lwk_sys_clock_ns(clock);
    ns = (unsigned long long)(((unsigned __int128)(rdtsc() - clk.boot_tsc) *
                               clk.ns_mult) >> 32);
    return (long long)(clock == LWK_CLOCK_REALTIME ? ns + clk.realtime_base_ns
                                                   : ns);
}

void __lwk_time_init(void)
{
    have_clk = lwk_sys_clock_params((long)&clk) == 0;
}

static int lwk_clock(clockid_t id)
{
    switch (id) {
    case CLOCK_REALTIME:
        return LWK_CLOCK_REALTIME;
    case CLOCK_MONOTONIC:
        return LWK_CLOCK_MONOTONIC;
    default:
        return -1;
    }
}

int clock_gettime(clockid_t id, struct timespec *tp)
{
    int clock = lwk_clock(id);
    long long ns;

    if (clock < 0)
        return lwk_fail(EINVAL);
    ns = now_ns(clock);
    if (ns < 0)
        return (int)lwk_ret(ns);
    tp->tv_sec = ns / NS_PER_SEC;
    tp->tv_nsec = ns % NS_PER_SEC;
    return 0;
}

int clock_getres(clockid_t id, struct timespec *res)
{
    if (lwk_clock(id) < 0)
        return lwk_fail(EINVAL);
    if (res) {
        res->tv_sec = 0;
        res->tv_nsec = 1;
    }
    return 0;
}

int clock_settime(clockid_t id, const struct timespec *tp)
{
    (void)id;
    (void)tp;
    return lwk_fail(EPERM);
}

int gettimeofday(struct timeval *tv, void *tz)
{
    long long ns = now_ns(LWK_CLOCK_REALTIME);

    (void)tz;
    if (ns < 0)
        return (int)lwk_ret(ns);
    if (tv) {
        tv->tv_sec = ns / NS_PER_SEC;
        tv->tv_usec = (ns % NS_PER_SEC) / 1000;
    }
    return 0;
}

/*
 * times() counts in CLOCKS_PER_SEC units because newlib's clock() returns
 * tms_utime + tms_stime.  User time is the CPU time the kernel counted
 * for this process: its runs, not its sleeps nor other processes' turns.
 * The kernel does not tell time in system calls apart, so it is in
 * tms_utime and tms_stime is 0.
 */
clock_t times(struct tms *buf)
{
    long long now = now_ns(LWK_CLOCK_MONOTONIC);
    long long per_tick = NS_PER_SEC / CLOCKS_PER_SEC;
    struct lwk_usage u;
    long r = lwk_sys_usage((long)&u);

    if (now < 0 || r < 0)
        return (clock_t)lwk_ret(now < 0 ? now : r);
    if (buf) {
        buf->tms_utime = (clock_t)(u.cpu_ns / per_tick);
        buf->tms_stime = 0;
        buf->tms_cutime = 0;
        buf->tms_cstime = 0;
    }
    return (clock_t)(now / per_tick);
}

/*
 * RUSAGE_SELF: ru_utime is the CPU time times() reports (ru_stime 0, for
 * the same reason).  ru_maxrss is the size of the process's regions
 * (text, data, heap, stack) in KiB, as Linux counts it: a node has no
 * demand paging, so every byte of them is resident from load to exit,
 * touched or not, and nobody else can have it.  The counters stay 0: no
 * page faults, swapping or signals from outside happen here, and
 * switches are not counted.  RUSAGE_CHILDREN: a process here has no
 * children, so all zero.
 */
int getrusage(int who, struct rusage *ru)
{
    struct lwk_usage u = { 0 };
    long r;

    if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN)
        return lwk_fail(EINVAL);
    if (who == RUSAGE_SELF && (r = lwk_sys_usage((long)&u)) < 0)
        return (int)lwk_ret(r);
    *ru = (struct rusage){
        .ru_utime = { .tv_sec = (time_t)(u.cpu_ns / NS_PER_SEC),
                      .tv_usec = (suseconds_t)(u.cpu_ns % NS_PER_SEC / 1000) },
        .ru_maxrss = (long)(u.mem_bytes >> 10),
    };
    return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    long long deadline;

    if (req->tv_nsec < 0 || req->tv_nsec >= NS_PER_SEC || req->tv_sec < 0)
        return lwk_fail(EINVAL);
    deadline = now_ns(LWK_CLOCK_MONOTONIC) + req->tv_sec * NS_PER_SEC +
               req->tv_nsec;
    while (now_ns(LWK_CLOCK_MONOTONIC) < deadline)
        lwk_sys_quit_quantum();
    if (rem)
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

int usleep(useconds_t usec)
{
    struct timespec ts = { usec / 1000000, (long)(usec % 1000000) * 1000 };

    return nanosleep(&ts, NULL);
}

unsigned sleep(unsigned seconds)
{
    struct timespec ts = { seconds, 0 };

    nanosleep(&ts, NULL);
    return 0;
}

/* clock_nanosleep returns the error number (POSIX), not -1. */
int clock_nanosleep(clockid_t id, int flags, const struct timespec *req,
                    struct timespec *rem)
{
    struct timespec now, d = *req;

    if (lwk_clock(id) < 0)
        return EINVAL;
    if (flags & TIMER_ABSTIME) {
        clock_gettime(id, &now);
        d.tv_sec -= now.tv_sec;
        d.tv_nsec -= now.tv_nsec;
        if (d.tv_nsec < 0) {
            d.tv_nsec += NS_PER_SEC;
            d.tv_sec--;
        }
        if (d.tv_sec < 0)
            return 0;
        rem = NULL;
    }
    return nanosleep(&d, rem) < 0 ? errno : 0;
}

/* The inverse of gmtime: days from the civil date (H. Hinnant's). */
time_t timegm(struct tm *tm)
{
    long long y = tm->tm_year + 1900LL + tm->tm_mon / 12, m = tm->tm_mon % 12;
    long long era, yoe, doy, doe, days;

    if (m < 0) {
        m += 12;
        y--;
    }
    y -= m < 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m < 2 ? 10 : -2)) + 2) / 5 + tm->tm_mday - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    days = era * 146097 + doe - 719468;
    return (time_t)(days * 86400 + tm->tm_hour * 3600LL + tm->tm_min * 60LL +
                    tm->tm_sec);
}

/*
 * Timers that deliver signals: a node has none (signal.c's alarm).  No
 * timer is ever armed, so getitimer reads zero and disarming succeeds;
 * arming one, or making a POSIX timer, fails with ENOSYS.
 */
int getitimer(int which, struct itimerval *v)
{
    if (which < ITIMER_REAL || which > ITIMER_PROF)
        return lwk_fail(EINVAL);
    *v = (struct itimerval){ 0 };
    return 0;
}

int setitimer(int which, const struct itimerval *v, struct itimerval *old)
{
    if (getitimer(which, old ? old : &(struct itimerval){ 0 }) < 0)
        return -1;
    if (v->it_value.tv_sec || v->it_value.tv_usec)
        return lwk_fail(ENOSYS);
    return 0;
}

int timer_create(clockid_t id, struct sigevent *ev, timer_t *t)
{
    (void)id, (void)ev, (void)t;
    return lwk_fail(ENOSYS);
}
