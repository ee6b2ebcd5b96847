/*
 * lxsig: signals aimed at a thread and the scheduler calls a Linux
 * program meets (docs/LINUX.md), built with plain gcc -static and run
 * on Linux and on a node under yod -threads; the two outputs must be
 * the same (suite-linux's sig-same), so it prints only what Linux and a
 * node agree on: results and errno names, never tids or CPU numbers.
 *
 *   pthread_kill(t, SIGUSR1) to a thread spinning without system calls:
 *   its handler runs on that thread (gettid() there is t's); the thread
 *   pthread_kill()s the main thread, spinning too, with SIGUSR2: its
 *   handler runs on the main thread; raise() runs a handler at once;
 *   pthread_cancel of a thread spinning with asynchronous cancellation
 *   (SIGCANCEL: its handler unwinds the thread through the signal
 *   frame); tgkill/tkill with signal 0 on a live tid, on a tid that never was
 *   and on one that ended (within a second), and with a bad signal
 *   number;
 *   sched_setaffinity with the mask sched_getaffinity gave, without the
 *   thread's CPU, empty, from a bad pointer, for an unknown pid, with
 *   only the CPU sched_getcpu (getcpu) says it runs on;
 *   sched_rr_get_interval of the process, into a bad pointer, of an
 *   unknown pid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NO_TID  0x7ffffff0      /* above Linux's pid_max: never a tid */

static volatile pid_t usr1_tid, usr2_tid, raise_tid;
static volatile int go_usr2, stop, cleaned;
static volatile pid_t worker_tid;
static pthread_t main_thread;
static int failed;

static void on_usr1(int sig) { (void)sig; usr1_tid = gettid(); }
static void on_usr2(int sig) { (void)sig; usr2_tid = gettid(); }
static void on_raise(int sig) { (void)sig; raise_tid = gettid(); }
static void cleanup(void *arg) { *(volatile int *)arg = 1; }

static const char *err(long rc)
{
    return rc == 0 ? "0" : errno == ESRCH ? "ESRCH" : errno == EINVAL ?
           "EINVAL" : errno == EFAULT ? "EFAULT" : strerror(errno);
}

static void expect(const char *what, long rc, const char *want)
{
    const char *got = err(rc);

    printf("%s: %s\n", what, got);
    if (strcmp(got, want)) {
        printf("lxsig: %s: want %s\n", what, want);
        failed = 1;
    }
}

static void check(const char *what, int ok)
{
    printf("%s: %s\n", what, ok ? "yes" : "NO");
    failed |= !ok;
}

/* Spins without a system call (a running thread) until told; on its
   way, signals the main thread, spinning too. */
static void *worker(void *arg)
{
    (void)arg;
    worker_tid = gettid();
    while (!go_usr2)
        ;
    pthread_kill(main_thread, SIGUSR2);
    while (!stop)
        ;
    return NULL;
}

/* Cancelled asynchronously while spinning: glibc's pthread_cancel sends
   it SIGCANCEL (tgkill), whose handler unwinds the thread through the
   signal frame, running the cleanup handler. */
static void *spin_async(void *arg)
{
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
    pthread_cleanup_push(cleanup, arg);
    worker_tid = gettid();
    for (;;)
        ;
    pthread_cleanup_pop(0);
    return NULL;
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void handle(int sig, void (*fn)(int))
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = fn;
    sigaction(sig, &sa, NULL);
}

static void thread_signals(void)
{
    pthread_t t;
    double until;
    int rc;
    pid_t tid;

    handle(SIGUSR1, on_usr1);
    handle(SIGUSR2, on_usr2);
    main_thread = pthread_self();
    if ((rc = pthread_create(&t, NULL, worker, NULL))) {
        printf("lxsig: pthread_create: %s\n", strerror(rc));
        failed = 1;
        return;
    }
    while (!worker_tid)
        ;
    tid = worker_tid;
    rc = pthread_kill(t, SIGUSR1);
    printf("pthread_kill(SIGUSR1) to a running thread: %s\n",
           rc ? strerror(rc) : "0");
    failed |= rc != 0;
    for (until = now() + 20; !usr1_tid && now() < until; )
        ;
    check("its handler ran on that thread", usr1_tid == tid);
    /* The main thread now spins without a system call until its handler
       has run (a bound on the loop, not on time: no call in it). */
    go_usr2 = 1;
    for (unsigned long i = 0; !usr2_tid && i < 4000000000ul; i++)
        ;
    check("the thread's pthread_kill(SIGUSR2) ran on the main thread",
          usr2_tid == getpid());
    expect("tgkill(pid, live tid, 0)", syscall(SYS_tgkill, getpid(), tid, 0),
           "0");
    expect("tkill(live tid, 0)", syscall(SYS_tkill, tid, 0), "0");
    expect("tgkill(pid, live tid, 65)", syscall(SYS_tgkill, getpid(), tid, 65),
           "EINVAL");
    expect("tgkill(pid, no such tid, 0)",
           syscall(SYS_tgkill, getpid(), NO_TID, 0), "ESRCH");
    expect("tkill(no such tid, 0)", syscall(SYS_tkill, NO_TID, 0), "ESRCH");
    expect("tgkill(no such pid, live tid, 0)",
           syscall(SYS_tgkill, NO_TID, tid, 0), "ESRCH");
    stop = 1;
    pthread_join(t, NULL);
    /* Linux may still find the thread for a moment after the join
       returns (it is reaped after it cleared its tid word). */
    for (until = now() + 1; syscall(SYS_tgkill, getpid(), tid, 0) == 0 &&
                            now() < until; )
        ;
    expect("tgkill(pid, ended tid, 0)", syscall(SYS_tgkill, getpid(), tid, 0),
           "ESRCH");
    worker_tid = 0;
    if (pthread_create(&t, NULL, spin_async, (void *)&cleaned) == 0) {
        void *res = NULL;
        while (!worker_tid)
            ;
        rc = pthread_cancel(t);
        pthread_join(t, &res);
        printf("pthread_cancel of a spinning thread (asynchronous): %d\n", rc);
        check("joined as cancelled, its cleanup run",
              res == PTHREAD_CANCELED && cleaned);
    }
    handle(SIGUSR1, on_raise);
    rc = raise(SIGUSR1);
    printf("raise(SIGUSR1): %d\n", rc);
    check("its handler ran before raise returned", raise_tid == getpid());
}

static void affinity(void)
{
    cpu_set_t mine, other, none;
    int cpu = 0;

    CPU_ZERO(&mine);
    sched_getaffinity(0, sizeof(mine), &mine);
    while (CPU_ISSET(cpu, &mine))
        cpu++;
    CPU_ZERO(&other);
    CPU_SET(cpu, &other);       /* not one of ours, so not the one we're on */
    CPU_ZERO(&none);
    expect("sched_setaffinity(0, its mask)",
           syscall(SYS_sched_setaffinity, 0, sizeof(mine), &mine), "0");
    expect("sched_setaffinity(pid, its mask)",
           syscall(SYS_sched_setaffinity, getpid(), sizeof(mine), &mine), "0");
    expect("sched_setaffinity(0, a mask without its CPU)",
           syscall(SYS_sched_setaffinity, 0, sizeof(other), &other), "EINVAL");
    expect("sched_setaffinity(0, empty)",
           syscall(SYS_sched_setaffinity, 0, sizeof(none), &none), "EINVAL");
    expect("sched_setaffinity(0, bad pointer)",
           syscall(SYS_sched_setaffinity, 0, sizeof(mine), (void *)8), "EFAULT");
    expect("sched_setaffinity(no such pid)",
           syscall(SYS_sched_setaffinity, NO_TID, sizeof(mine), &mine), "ESRCH");
    expect("sched_getaffinity(no such pid)",
           syscall(SYS_sched_getaffinity, NO_TID, sizeof(mine), &mine), "ESRCH");
    expect("sched_getaffinity(0) after",
           sched_getaffinity(0, sizeof(other), &other), "0");
    check("the same mask", CPU_EQUAL(&mine, &other));
    cpu = sched_getcpu();
    check("sched_getcpu() is one of its CPUs", cpu >= 0 && CPU_ISSET(cpu, &mine));
    CPU_ZERO(&other);
    CPU_SET(cpu < 0 ? 0 : cpu, &other);
    expect("sched_setaffinity(0, the CPU sched_getcpu says)",
           syscall(SYS_sched_setaffinity, 0, sizeof(other), &other), "0");
}

static void rr_interval(void)
{
    struct timespec ts = { -1, -1 };

    expect("sched_rr_get_interval(0)", sched_rr_get_interval(0, &ts), "0");
    check("a time span", ts.tv_sec >= 0 && ts.tv_nsec >= 0 &&
          ts.tv_nsec < 1000000000);
    expect("sched_rr_get_interval(pid)", sched_rr_get_interval(getpid(), &ts),
           "0");
    expect("sched_rr_get_interval(0, bad pointer)",
           syscall(SYS_sched_rr_get_interval, 0, (void *)8), "EFAULT");
    expect("sched_rr_get_interval(no such pid)",
           syscall(SYS_sched_rr_get_interval, NO_TID, &ts), "ESRCH");
    expect("sched_rr_get_interval(-1)",
           syscall(SYS_sched_rr_get_interval, -1, &ts), "EINVAL");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    thread_signals();
    affinity();
    rr_interval();
    if (!failed)
        printf("lxsig: OK\n");
    return failed;
}
