/*
 * lxfutex: futex waits and wakes (docs/LINUX.md), built with plain gcc
 * -static and run on Linux and on a node (yod, and yod -threads); the
 * outputs must be the same (suite-linux's futex-same and futex-threads),
 * so it prints only what Linux and a node agree on: results, errno names,
 * counts, whether a time was long enough.
 *
 *   FUTEX_WAIT on a word that is not the value: EAGAIN; with a 100 ms
 *   timeout: ETIMEDOUT after >= 100 ms (on the main thread, which on a
 *   node shares CPU 0 with the PCT); FUTEX_WAIT_BITSET with an absolute
 *   CLOCK_MONOTONIC and CLOCK_REALTIME deadline: ETIMEDOUT; a bitset of 0
 *   EINVAL; FUTEX_WAKE with nobody waiting: 0;
 *   a wait ended by a signal's handler: EINTR; with SA_RESTART the wait
 *   is made again (EAGAIN, as the handler changed the word), and with a
 *   timeout EINTR all the same; a blocked signal does not end it
 *   (ETIMEDOUT);
 *   with "threads": a thread waits on a word while the main thread works
 *   for 1 s, then wakes it, and the other way round: each wait is one
 *   call that returns 0 (a wait that polled would come back thousands
 *   of times) and the wake says 1; FUTEX_CMP_REQUEUE moves a waiter to
 *   another word (EAGAIN if the word changed), FUTEX_WAKE_OP wakes the
 *   waiter of its second word; FUTEX_WAKE_BITSET wakes only a waiter
 *   whose bitset it meets; two threads each making 100000 increments
 *   under a pthread mutex (the exact sum); a condition variable
 *   ping-pong of 10000 rounds; pthread_join of a thread that works.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int failed;
static volatile sig_atomic_t alarms;
static uint32_t word;

static long futex(uint32_t *w, int op, uint32_t val, const struct timespec *t,
                  uint32_t *w2, uint32_t val3)
{
    return syscall(SYS_futex, w, op, val, t, w2, val3);
}

static const char *err(long rc)
{
    return rc >= 0 ? "0" : errno == EINTR ? "EINTR" : errno == EAGAIN ?
           "EAGAIN" : errno == ETIMEDOUT ? "ETIMEDOUT" : errno == EINVAL ?
           "EINVAL" : strerror(errno);
}

static void check(const char *what, int ok)
{
    printf("%s: %s\n", what, ok ? "yes" : "no");
    if (!ok) {
        printf("lxfutex: %s: want yes\n", what);
        failed = 1;
    }
}

static double now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Work (no system call) for about ms milliseconds. */
static void work(double ms)
{
    double end = now_ms() + ms;
    volatile double x = 1;

    while (now_ms() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
}

static struct timespec abs_after(clockid_t clk, long ms)
{
    struct timespec t;

    clock_gettime(clk, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += ms % 1000 * 1000000;
    if (t.tv_nsec >= 1000000000) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000;
    }
    return t;
}

static void values_and_timeouts(void)
{
    struct timespec rel = { 0, 100000000 }, at;
    double t0;
    long rc;

    word = 7;
    rc = futex(&word, FUTEX_WAIT_PRIVATE, 8, NULL, NULL, 0);
    printf("FUTEX_WAIT, the word is not the value: %ld %s\n", rc, err(rc));
    t0 = now_ms();
    rc = futex(&word, FUTEX_WAIT_PRIVATE, 7, &rel, NULL, 0);
    printf("FUTEX_WAIT, 100 ms: %ld %s\n", rc, err(rc));
    check("it waited >= 100 ms", now_ms() - t0 >= 99.9);
    t0 = now_ms();
    at = abs_after(CLOCK_MONOTONIC, 100);
    rc = futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 7, &at, NULL,
               FUTEX_BITSET_MATCH_ANY);
    printf("FUTEX_WAIT_BITSET, CLOCK_MONOTONIC + 100 ms: %ld %s\n", rc,
           err(rc));
    check("it waited >= 100 ms", now_ms() - t0 >= 99.9);
    t0 = now_ms();
    at = abs_after(CLOCK_REALTIME, 100);
    rc = futex(&word, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 7,
               &at, NULL, FUTEX_BITSET_MATCH_ANY);
    printf("FUTEX_WAIT_BITSET, CLOCK_REALTIME + 100 ms: %ld %s\n", rc,
           err(rc));
    check("it waited >= 100 ms", now_ms() - t0 >= 99.9);
    rc = futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 7, NULL, NULL, 0);
    printf("FUTEX_WAIT_BITSET, bitset 0: %ld %s\n", rc, err(rc));
    rc = futex(&word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    printf("FUTEX_WAKE, nobody waiting: %ld\n", rc);
}

static void on_alrm(int sig)
{
    (void)sig;
    alarms++;
    word = 1;
}

static void handle(int flags)
{
    struct sigaction sa = { .sa_handler = on_alrm, .sa_flags = flags };

    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
}

static void in_100ms(void)
{
    struct itimerval v = { { 0, 0 }, { 0, 100000 } };

    setitimer(ITIMER_REAL, &v, NULL);
}

static void signals(void)
{
    struct timespec five = { 5, 0 }, ms300 = { 0, 300000000 };
    sigset_t set;
    double t0;
    long rc;

    handle(0);
    word = 0;
    alarms = 0;
    in_100ms();
    rc = futex(&word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    printf("a handler runs during a wait: %ld %s, handler ran %d time(s)\n",
           rc, err(rc), (int)alarms);
    handle(SA_RESTART);
    word = 0;
    alarms = 0;
    in_100ms();
    rc = futex(&word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    printf("the same with SA_RESTART: %ld %s, handler ran %d time(s)\n", rc,
           err(rc), (int)alarms);
    word = 0;
    alarms = 0;
    in_100ms();
    rc = futex(&word, FUTEX_WAIT_PRIVATE, 0, &five, NULL, 0);
    printf("SA_RESTART, a wait with a timeout: %ld %s, handler ran %d "
           "time(s)\n", rc, err(rc), (int)alarms);
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    sigprocmask(SIG_BLOCK, &set, NULL);
    word = 0;
    alarms = 0;
    t0 = now_ms();
    in_100ms();
    rc = futex(&word, FUTEX_WAIT_PRIVATE, 0, &ms300, NULL, 0);
    printf("SIGALRM blocked, a 300 ms wait: %ld %s, handler ran %d time(s)\n",
           rc, err(rc), (int)alarms);
    check("it waited >= 300 ms", now_ms() - t0 >= 299.9);
    sigpending(&set);
    printf("SIGALRM pending: %d\n", sigismember(&set, SIGALRM));
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    printf("after unblocking, handler ran %d time(s)\n", (int)alarms);
}

/* ---- with threads ---------------------------------------------------------- */

/* A waiter: waits on *w while it is val (op, bitset), counting its calls. */
struct waiter {
    uint32_t *w, val, bitset;
    int op;
    volatile int ready;
    long rc, calls;
    int err;
};

static void *waiting(void *arg)
{
    struct waiter *x = arg;

    x->ready = 1;
    do {
        x->calls++;
        x->rc = futex(x->w, x->op, x->val, NULL, NULL, x->bitset);
        x->err = errno;
    } while (x->rc < 0 && x->err == EAGAIN &&
             __atomic_load_n(x->w, __ATOMIC_ACQUIRE) == x->val);
    return NULL;
}

static int start(pthread_t *t, struct waiter *x)
{
    if (pthread_create(t, NULL, waiting, x)) {
        printf("lxfutex: pthread_create failed\n");
        failed = 1;
        return -1;
    }
    while (!x->ready)
        ;
    usleep(200000);             /* into its wait */
    return 0;
}

static void report(struct waiter *x)
{
    errno = x->err;
    printf("  the waiter's wait: %ld %s\n", x->rc, err(x->rc));
    check("  it was one call", x->calls == 1);
}

/* The thread waits while the main thread works for 1 s. */
static void thread_waits(void)
{
    static uint32_t w;
    struct waiter x = { &w, 0, 0, FUTEX_WAIT_PRIVATE };
    pthread_t t;
    long rc;

    if (start(&t, &x) < 0)
        return;
    work(1000);
    __atomic_store_n(&w, 1, __ATOMIC_RELEASE);
    rc = futex(&w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    pthread_join(t, NULL);
    printf("a thread waits 1 s for the main thread: FUTEX_WAKE says %ld\n",
           rc);
    report(&x);
}

/* The main thread waits while a thread works for 1 s. */
static uint32_t mw;
static long main_wake;

static void *wake_after_work(void *arg)
{
    (void)arg;
    work(1000);
    __atomic_store_n(&mw, 1, __ATOMIC_RELEASE);
    main_wake = futex(&mw, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    return NULL;
}

static void main_waits(void)
{
    struct waiter x = { &mw, 0, 0, FUTEX_WAIT_PRIVATE };
    pthread_t t;

    if (pthread_create(&t, NULL, wake_after_work, NULL)) {
        printf("lxfutex: pthread_create failed\n");
        failed = 1;
        return;
    }
    waiting(&x);
    pthread_join(t, NULL);
    printf("the main thread waits 1 s for a thread: FUTEX_WAKE says %ld\n",
           main_wake);
    report(&x);
}

static void requeue_and_wake_op(void)
{
    static uint32_t a, b, c;
    struct waiter x = { &a, 0, 0, FUTEX_WAIT_PRIVATE };
    struct waiter y = { &c, 0, 0, FUTEX_WAIT_PRIVATE };
    pthread_t t;
    long rc;

    if (start(&t, &x) < 0)
        return;
    rc = futex(&a, FUTEX_CMP_REQUEUE_PRIVATE, 0, (void *)1L, &b, 5);
    printf("FUTEX_CMP_REQUEUE, the word changed: %ld %s\n", rc, err(rc));
    rc = futex(&a, FUTEX_CMP_REQUEUE_PRIVATE, 0, (void *)1L, &b, 0);
    printf("FUTEX_CMP_REQUEUE a -> b: %ld\n", rc);
    rc = futex(&a, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    printf("FUTEX_WAKE a: %ld\n", rc);
    __atomic_store_n(&a, 1, __ATOMIC_RELEASE);
    rc = futex(&b, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    pthread_join(t, NULL);
    printf("FUTEX_WAKE b: %ld\n", rc);
    report(&x);

    if (start(&t, &y) < 0)
        return;
    /* c = 1 (SET), and wake c's waiters if c was 0 (CMP EQ 0). */
    rc = futex(&b, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &c,
               FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_EQ, 0));
    pthread_join(t, NULL);
    printf("FUTEX_WAKE_OP: %ld, the word is %u\n", rc, c);
    report(&y);
}

static void bitsets(void)
{
    static uint32_t w;
    struct waiter x = { &w, 0, 2, FUTEX_WAIT_BITSET_PRIVATE };
    pthread_t t;
    long rc;

    if (start(&t, &x) < 0)
        return;
    rc = futex(&w, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 4);
    printf("FUTEX_WAKE_BITSET 4 on a waiter of bitset 2: %ld\n", rc);
    __atomic_store_n(&w, 1, __ATOMIC_RELEASE);
    rc = futex(&w, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 6);
    pthread_join(t, NULL);
    printf("FUTEX_WAKE_BITSET 6: %ld\n", rc);
    report(&x);
}

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long count;
static int turn;

static void *increments(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100000; i++) {
        pthread_mutex_lock(&mutex);
        count++;
        pthread_mutex_unlock(&mutex);
    }
    return NULL;
}

/* Rounds of the ping-pong: `me` plays when turn is me. */
static void play(int me)
{
    for (int i = 0; i < 10000; i++) {
        pthread_mutex_lock(&mutex);
        while (turn != me)
            pthread_cond_wait(&cond, &mutex);
        turn = !me;
        count++;
        pthread_cond_signal(&cond);
        pthread_mutex_unlock(&mutex);
    }
}

static void *pong(void *arg)
{
    (void)arg;
    play(1);
    return NULL;
}

static void *busy(void *arg)
{
    (void)arg;
    work(500);
    return (void *)42L;
}

static void pthreads(void)
{
    pthread_t t;
    void *ret;

    count = 0;
    pthread_create(&t, NULL, increments, NULL);
    increments(NULL);
    pthread_join(t, NULL);
    printf("2 threads x 100000 increments under a mutex: %ld\n", count);
    count = 0;
    turn = 0;
    pthread_create(&t, NULL, pong, NULL);
    play(0);
    pthread_join(t, NULL);
    printf("condition variable ping-pong, 2 x 10000 rounds: %ld\n", count);
    pthread_create(&t, NULL, busy, NULL);
    pthread_join(t, &ret);
    printf("pthread_join of a thread that works 0.5 s: %ld\n", (long)ret);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    values_and_timeouts();
    signals();
    if (argc > 1 && !strcmp(argv[1], "threads")) {
        thread_waits();
        main_waits();
        requeue_and_wake_op();
        bitsets();
        pthreads();
    }
    if (!failed)
        printf("lxfutex: OK\n");
    return failed;
}
