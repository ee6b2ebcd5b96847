/* SPDX-License-Identifier: MIT */
/*
 * portable: the calls portable programs and benchmarks make that a node
 * answers in its own way (libc/uname.c, time.c, signal.c): uname and
 * gethostname name the node by its nid, getrusage and clock() count the
 * process's CPU time, sigaction handlers run from raise() and kill() of
 * itself, alarm() says a SIGALRM will never come.  Prints the values a
 * test compares ("portable: uname ...", "portable: maxrss N KiB").
 *
 *   portable                 every check, "portable: OK" last
 *   portable raise-default   raise(SIGTERM) with the default action: 143
 *   portable alarm-handler   alarm() with a SIGALRM handler: stops (abort)
 */
#define PROG "portable"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <lwk/lwk.h>

#include "check.h"

static long long usage_ns(int who)
{
    struct rusage ru;

    if (getrusage(who, &ru) != 0)
        return -1;
    return ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL;
}

static long long mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void check_names(void)
{
    struct utsname u;
    char want[32], host[64];

    CHECK(uname(&u) == 0);
    snprintf(want, sizeof want, "nid%05ld", lwk_nid());
    CHECK_STR(u.sysname, "Q-Kernel");
    CHECK_STR(u.nodename, want);
    CHECK_STR(u.machine, "x86_64");
    CHECK(u.release[0] != 0 && strstr(u.version, u.release) != NULL);
    CHECK(gethostname(host, sizeof host) == 0);
    CHECK_STR(host, u.nodename);
    errno = 0;
    CHECK(gethostname(host, 4) == -1 && errno == ENAMETOOLONG);
    printf("portable: uname %s %s %s (%s) %s\n", u.sysname, u.nodename,
           u.release, u.version, u.machine);
}

/* CPU time grows with work: spin until getrusage shows 20 ms more (a
   wall-clock bound of 20 s fails the check if it never does).  The
   clocks are read wall, clock(), CPU time at the start and the other
   way round at the end, so each interval holds the next: CPU time is
   never more than the wall's, and clock() (whole ticks) moves at least
   as far as the CPU time did. */
static void check_usage(void)
{
    struct rusage ru;
    long long w0 = mono_ns();
    clock_t c0 = clock();
    long long t0 = usage_ns(RUSAGE_SELF), t1 = t0;
    volatile unsigned long spin = 0;

    CHECK(t0 > 0);
    while (t1 - t0 < 20000000 && mono_ns() - w0 < 20000000000LL) {
        for (int i = 0; i < 100000; i++)
            spin++;
        t1 = usage_ns(RUSAGE_SELF);
    }
    CHECK(t1 - t0 >= 20000000);
    CHECK(clock() - c0 >= CLOCKS_PER_SEC / 50); /* clock() is the same */
    CHECK(t1 - t0 <= mono_ns() - w0);           /* no more than the wall */
    CHECK(getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0 &&
          ru.ru_stime.tv_sec == 0 && ru.ru_stime.tv_usec == 0);
    printf("portable: busy loop: cpu +%lld us in %lld us\n",
           (t1 - t0) / 1000, (mono_ns() - w0) / 1000);
    printf("portable: maxrss %ld KiB\n", ru.ru_maxrss);
    memset(&ru, 0xff, sizeof ru);
    CHECK(getrusage(RUSAGE_CHILDREN, &ru) == 0 && ru.ru_utime.tv_sec == 0 &&
          ru.ru_utime.tv_usec == 0 && ru.ru_maxrss == 0);
    errno = 0;
    CHECK(getrusage(7, &ru) == -1 && errno == EINVAL);
}

static int caught, depth, max_depth;

static void on_usr1(int sig)
{
    CHECK(sig == SIGUSR1);
    caught++;
}

/* Raises its own signal once from inside: nested (SA_NODEFER) or after
   it returns (the default: the signal is blocked in its handler). */
static void reraise(int sig)
{
    if (++depth > max_depth)
        max_depth = depth;
    if (caught++ == 0)
        raise(sig);
    depth--;
}

static void install(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa = { .sa_handler = fn, .sa_flags = flags };

    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(sig, &sa, NULL) == 0);
}

static void check_signals(void)
{
    struct sigaction old;

    install(SIGUSR1, on_usr1, SA_RESTART);
    CHECK(raise(SIGUSR1) == 0 && caught == 1);
    CHECK(raise(SIGUSR1) == 0 && caught == 2);  /* stays installed */
    CHECK(kill(getpid(), SIGUSR1) == 0 && caught == 3);
    CHECK(sigaction(SIGUSR1, NULL, &old) == 0 && old.sa_handler == on_usr1);

    install(SIGUSR1, on_usr1, SA_RESETHAND);
    CHECK(raise(SIGUSR1) == 0 && caught == 4);
    CHECK(sigaction(SIGUSR1, NULL, &old) == 0 && old.sa_handler == SIG_DFL);

    caught = depth = max_depth = 0;
    install(SIGUSR2, reraise, 0);
    CHECK(raise(SIGUSR2) == 0 && caught == 2 && max_depth == 1);
    caught = depth = max_depth = 0;
    install(SIGUSR2, reraise, SA_NODEFER);
    CHECK(raise(SIGUSR2) == 0 && caught == 2 && max_depth == 2);

    install(SIGTERM, SIG_IGN, 0);
    CHECK(raise(SIGTERM) == 0 && kill(0, SIGTERM) == 0);  /* ignored */
    CHECK(signal(SIGTERM, SIG_DFL) == SIG_IGN);
    CHECK(signal(SIGINT, on_usr1) == SIG_DFL);
    CHECK(sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == on_usr1 &&
          (old.sa_flags & SA_RESETHAND));   /* signal(): System V, one shot */
    errno = 0;
    CHECK(sigaction(SIGKILL, &old, NULL) == -1 && errno == EINVAL);
    CHECK(sigaction(NSIG, NULL, &old) == -1 && errno == EINVAL);
    CHECK(kill(getpid() + 1, SIGUSR1) == -1 && errno == ESRCH);
}

static void check_alarm(void)
{
    CHECK(alarm(0) == 0);
    signal(SIGALRM, SIG_IGN);
    CHECK(alarm(5) == 0);                   /* nothing was to happen */
    signal(SIGALRM, SIG_DFL);
    CHECK(alarm(5) == 0 && alarm(6) == 0);  /* says so on stderr, once */
}

static void on_alarm(int sig)
{
    (void)sig;
    printf("portable: SIGALRM handler ran\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "raise-default")) {
        raise(SIGTERM);
        printf("portable: still here after raise(SIGTERM)\n");
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "alarm-handler")) {
        install(SIGALRM, on_alarm, 0);
        alarm(1);
        printf("portable: still here after alarm(1)\n");
        return 1;
    }
    check_names();
    check_usage();
    check_signals();
    check_alarm();
    return check_done();
}
