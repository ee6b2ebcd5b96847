/*
 * lxwait: waiting for a signal and timers that send one (docs/LINUX.md),
 * built with plain gcc -static and run on Linux and on a node (yod, and
 * yod -threads); the outputs must be the same (suite-linux's wait-same
 * and wait-threads), so it prints only what Linux and a node agree on:
 * results, signal and errno names, whether a time was long enough.
 *
 *   alarm(1) + pause(): the handler ran, pause -1 EINTR; alarm's return
 *   (the seconds left, rounded); nanosleep(3 s) ended by alarm(1): -1
 *   EINTR, the handler ran, the remainder about 2 s;
 *   SIGUSR1 blocked, tgkill to itself, sigtimedwait takes it (siginfo's
 *   si_signo); sigwait of a signal already pending; sigtimedwait with
 *   nothing coming and 100 ms: EAGAIN after at least 100 ms; a bad
 *   timeout EINVAL;
 *   setitimer(ITIMER_REAL) with an interval: fires 3 times, the last
 *   while the program spins without a system call; getitimer of it
 *   armed, then disarmed;
 *   timer_create(CLOCK_MONOTONIC, SIGEV_SIGNAL) + timer_settime: its
 *   signal taken by sigwaitinfo; CLOCK_REALTIME with TIMER_ABSTIME;
 *   timer_gettime, timer_delete, a deleted id EINVAL;
 *   with "threads": sigsuspend woken by a signal another thread sends
 *   (the handler ran, -1 EINTR, the mask as before).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms, usr2s;
static int failed;

static void on_alrm(int sig) { (void)sig; alarms++; }
static void on_usr2(int sig) { (void)sig; usr2s++; }

static const char *err(long rc)
{
    return rc >= 0 ? "0" : errno == EINTR ? "EINTR" : errno == EAGAIN ?
           "EAGAIN" : errno == EINVAL ? "EINVAL" : strerror(errno);
}

static void check(const char *what, int ok)
{
    printf("%s: %s\n", what, ok ? "yes" : "no");
    if (!ok) {
        printf("lxwait: %s: want yes\n", what);
        failed = 1;
    }
}

static double now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void handle(int sig, void (*fn)(int))
{
    struct sigaction sa = { .sa_handler = fn };

    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void alarm_pause(void)
{
    double t0 = now_ms();
    unsigned left;
    int rc, e;

    alarms = 0;
    handle(SIGALRM, on_alrm);
    alarm(1);
    rc = pause();
    e = errno;
    printf("alarm(1) + pause: %d %s, handler ran %d time(s)\n", rc,
           e == EINTR ? "EINTR" : strerror(e), (int)alarms);
    check("pause ended after >= 1 s", now_ms() - t0 >= 999);
    alarm(5);
    left = alarm(0);
    printf("alarm(0) after alarm(5) says %u s were left\n", left);
    printf("alarm(0) again: %u\n", alarm(0));
}

static void sleep_interrupted(void)
{
    struct timespec d = { 3, 0 }, rem = { 0, 0 };
    double t0 = now_ms();
    int rc, e;

    alarms = 0;
    alarm(1);
    rc = nanosleep(&d, &rem);
    e = errno;
    printf("nanosleep(3 s) with alarm(1): %d %s, handler ran %d time(s)\n",
           rc, e == EINTR ? "EINTR" : strerror(e), (int)alarms);
    check("it slept >= 1 s and < 3 s", now_ms() - t0 >= 999 &&
          now_ms() - t0 < 2900);
    check("the remainder is 1 .. 2.1 s", rem.tv_sec * 1e3 +
          rem.tv_nsec / 1e6 >= 1000 && rem.tv_sec * 1e3 +
          rem.tv_nsec / 1e6 <= 2100);
}

static void timed_waits(void)
{
    struct timespec ts = { 0, 100000000 }, bad = { 0, 1000000000 };
    sigset_t set;
    siginfo_t si;
    double t0;
    int rc, sig;

    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, NULL);
    syscall(SYS_tgkill, getpid(), gettid(), SIGUSR1);
    memset(&si, 0, sizeof(si));
    rc = sigtimedwait(&set, &si, &ts);
    printf("blocked SIGUSR1, tgkill, sigtimedwait: %s, si_signo %s\n",
           rc == SIGUSR1 ? "SIGUSR1" : err(rc),
           si.si_signo == SIGUSR1 ? "SIGUSR1" : "wrong");
    raise(SIGUSR1);
    rc = sigwait(&set, &sig);
    printf("sigwait with SIGUSR1 pending: %d, %s\n", rc,
           sig == SIGUSR1 ? "SIGUSR1" : "wrong");
    t0 = now_ms();
    rc = sigtimedwait(&set, NULL, &ts);
    printf("sigtimedwait, nothing sent, 100 ms: %s\n", err(rc));
    check("it waited >= 100 ms", now_ms() - t0 >= 99.9);
    printf("sigtimedwait, tv_nsec 1e9: %s\n", err(sigtimedwait(&set, NULL,
                                                               &bad)));
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void interval_timer(void)
{
    struct itimerval it = { { 0, 50000 }, { 0, 50000 } }, cur;
    volatile unsigned long spins = 0;

    alarms = 0;
    handle(SIGALRM, on_alrm);
    printf("setitimer(ITIMER_REAL, 50 ms every 50 ms): %s\n",
           err(setitimer(ITIMER_REAL, &it, NULL)));
    getitimer(ITIMER_REAL, &cur);
    check("getitimer: armed, interval 50 ms", (cur.it_value.tv_sec ||
          cur.it_value.tv_usec) && cur.it_interval.tv_usec == 50000);
    while (alarms < 2)
        pause();
    while (alarms < 3)          /* no system call: the timer interrupts */
        spins++;
    memset(&it, 0, sizeof(it));
    setitimer(ITIMER_REAL, &it, NULL);
    printf("the handler ran %d times (the last in a loop without calls)\n",
           alarms >= 3 ? 3 : (int)alarms);
    getitimer(ITIMER_REAL, &cur);
    check("getitimer after disarming: 0", !cur.it_value.tv_sec &&
          !cur.it_value.tv_usec);
}

static void posix_timers(void)
{
    struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL,
                           .sigev_signo = SIGRTMIN + 1 };
    struct itimerspec its = { { 0, 0 }, { 0, 20000000 } }, cur;
    struct timespec rt;
    sigset_t set;
    siginfo_t si;
    timer_t t, r;
    int rc;

    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN + 1);
    sigprocmask(SIG_BLOCK, &set, NULL);
    printf("timer_create(CLOCK_MONOTONIC, SIGEV_SIGNAL): %s\n",
           err(timer_create(CLOCK_MONOTONIC, &ev, &t)));
    printf("timer_settime 20 ms: %s\n", err(timer_settime(t, 0, &its,
                                                          NULL)));
    timer_gettime(t, &cur);
    check("timer_gettime: armed, <= 20 ms", !cur.it_value.tv_sec &&
          cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 20000000);
    rc = sigwaitinfo(&set, &si);
    printf("sigwaitinfo: %s, si_signo %s\n", rc == SIGRTMIN + 1 ?
           "SIGRTMIN+1" : err(rc), si.si_signo == SIGRTMIN + 1 ? "right"
                                                               : "wrong");
    timer_gettime(t, &cur);
    check("timer_gettime after it fired: 0", !cur.it_value.tv_sec &&
          !cur.it_value.tv_nsec);

    ev.sigev_signo = SIGUSR2;
    sigaddset(&set, SIGUSR2);
    sigprocmask(SIG_BLOCK, &set, NULL);
    timer_create(CLOCK_REALTIME, &ev, &r);
    clock_gettime(CLOCK_REALTIME, &rt);
    rt.tv_nsec += 30000000;
    if (rt.tv_nsec >= 1000000000) {
        rt.tv_sec++;
        rt.tv_nsec -= 1000000000;
    }
    its.it_value = rt;
    printf("timer_settime(CLOCK_REALTIME, TIMER_ABSTIME now + 30 ms): %s\n",
           err(timer_settime(r, TIMER_ABSTIME, &its, NULL)));
    rc = sigwaitinfo(&set, &si);
    printf("sigwaitinfo: %s\n", rc == SIGUSR2 ? "SIGUSR2" : err(rc));
    printf("timer_delete: %s %s\n", err(timer_delete(t)),
           err(timer_delete(r)));
    printf("timer_gettime of a deleted timer: %s\n",
           err(timer_gettime(t, &cur)));
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static pthread_t main_thread;

static void *sender(void *arg)
{
    struct timespec d = { 0, 50000000 };

    (void)arg;
    nanosleep(&d, NULL);
    pthread_kill(main_thread, SIGUSR2);
    return NULL;
}

static void suspend_for_thread(void)
{
    sigset_t block, none, after;
    pthread_t t;
    int rc, e;

    usr2s = 0;
    handle(SIGUSR2, on_usr2);
    sigemptyset(&block);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &block, NULL);
    main_thread = pthread_self();
    if (pthread_create(&t, NULL, sender, NULL)) {
        printf("lxwait: pthread_create failed\n");
        failed = 1;
        return;
    }
    sigemptyset(&none);
    rc = sigsuspend(&none);
    e = errno;
    printf("sigsuspend woken by another thread: %d %s, handler ran %d "
           "time(s)\n", rc, e == EINTR ? "EINTR" : strerror(e), (int)usr2s);
    sigprocmask(SIG_BLOCK, NULL, &after);
    check("the mask is as before (SIGUSR2 blocked)",
          sigismember(&after, SIGUSR2) == 1);
    pthread_join(t, NULL);
    sigprocmask(SIG_UNBLOCK, &block, NULL);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    alarm_pause();
    sleep_interrupted();
    timed_waits();
    interval_timer();
    posix_timers();
    if (argc > 1 && !strcmp(argv[1], "threads"))
        suspend_for_thread();
    if (!failed)
        printf("lxwait: OK\n");
    return failed;
}
