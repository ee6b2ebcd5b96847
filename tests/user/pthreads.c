/*
 * POSIX threads on a node in threads mode (tests/qemu/suite-user runs it
 * with tools/lwkrun --cpus K --threads).  Each word of argv is a check:
 *
 *   sum N      N threads add slices of 1..SUM_TO under a mutex, meet at a
 *              barrier, count themselves done under a condition variable
 *              the main thread waits on; the total must be exact
 *   eagain K   threads until pthread_create fails: EAGAIN after exactly K
 *   churn N    N times a thread created and joined at once: every create
 *              finds the CPU the last join gave back (none may fail)
 *   tls        __thread values (initialised and zeroed) and pthread keys
 *              are each thread's own; pthread_once runs once
 *   cop        Cougar's COP call runs a routine on another CPU
 *   fault      a thread dereferences NULL while the main thread spins: the
 *              whole process must die (nothing after it is printed)
 *   exit       a thread calls exit(3) while the main thread spins: the
 *              process exits with 3
 *   leave      the main thread exits while a thread spins: the process
 *              ends with status 0 and the thread's CPU is free again
 *   refused    a thread's thread creation is refused (EPERM): only the
 *              main thread makes threads; its Portals call is not (any
 *              thread may use the process's endpoint)
 *   cpus N K   sysconf says N CPUs online (the ones the process runs on:
 *              its mode's) and K configured (the node's)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lwk/cop.h>
#include <lwk/syscall.h>

#define SUM_TO      3000000ULL
#define MAXT        64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t barrier;
static unsigned long long total;
static int finished, nthreads, bad;

struct slice {
    unsigned long long lo, hi;
    int id;
};

static void *summer(void *arg)
{
    struct slice *s = arg;
    unsigned long long part = 0;

    for (unsigned long long i = s->lo; i <= s->hi; i++)
        part += i;
    pthread_mutex_lock(&lock);
    total += part;
    pthread_mutex_unlock(&lock);
    /* Nobody counts as done before every partial sum is in. */
    pthread_barrier_wait(&barrier);
    pthread_mutex_lock(&lock);
    if (total != SUM_TO * (SUM_TO + 1) / 2)
        bad++;
    finished++;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    return (void *)(long)(s->id + 1000);
}

static int check_sum(int n)
{
    static struct slice sl[MAXT];
    pthread_t t[MAXT];
    unsigned long long step = SUM_TO / n;
    int rc;

    nthreads = n;
    pthread_barrier_init(&barrier, NULL, n);
    for (int i = 0; i < n; i++) {
        sl[i] = (struct slice){ i * step + 1,
                                i == n - 1 ? SUM_TO : (i + 1) * step, i };
        if ((rc = pthread_create(&t[i], NULL, summer, &sl[i])) != 0) {
            printf("pthreads: sum: create %d failed: %s\n", i, strerror(rc));
            return 1;
        }
    }
    pthread_mutex_lock(&lock);
    while (finished < n)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++) {
        void *ret;
        if (pthread_join(t[i], &ret) != 0 || (long)ret != i + 1000) {
            printf("pthreads: sum: join %d gave %ld\n", i, (long)ret);
            return 1;
        }
    }
    if (bad || total != SUM_TO * (SUM_TO + 1) / 2) {
        printf("pthreads: sum: total %llu, %d threads saw it wrong\n",
               total, bad);
        return 1;
    }
    printf("pthreads: sum OK: %d threads, total %llu\n", n, total);
    return 0;
}

static volatile int go;

static void *waiter(void *arg)
{
    while (!go)
        __builtin_ia32_pause();
    return arg;
}

static int check_eagain(int want)
{
    pthread_t t[MAXT];
    int n = 0, rc, again = 0;

    while (n < MAXT && (rc = pthread_create(&t[n], NULL, waiter, NULL)) == 0)
        n++;
    go = 1;
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    printf("pthreads: eagain after %d threads (%s)\n", n, strerror(rc));
    go = 0;
    if (n && (again = pthread_create(&t[0], NULL, waiter, NULL)) == 0) {
        go = 1;                         /* joined: its CPU is free again */
        pthread_join(t[0], NULL);
    }
    return n != want || rc != EAGAIN || again != 0;
}

static int check_churn(int n)
{
    pthread_t t;
    int failed = 0, rc, err = 0;

    go = 1;
    for (int i = 0; i < n; i++) {
        if ((rc = pthread_create(&t, NULL, waiter, NULL)) != 0) {
            failed++;
            err = rc;
            continue;
        }
        pthread_join(t, NULL);
    }
    go = 0;
    printf("pthreads: churn: %d of %d creates failed%s%s\n", failed, n,
           failed ? ", the last with " : "", failed ? strerror(err) : "");
    return failed != 0;
}

static __thread int tv = 7;             /* .tdata */
static __thread long tz;                /* .tbss */
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs, tls_bad;

static void count_once(void)
{
    __atomic_add_fetch(&once_runs, 1, __ATOMIC_RELAXED);
}

static void *tls_thread(void *arg)
{
    long id = (long)arg;

    pthread_once(&once, count_once);
    if (tv != 7 || tz != 0)
        __atomic_add_fetch(&tls_bad, 1, __ATOMIC_RELAXED);
    tv = 100 + (int)id;
    tz = 1000 + id;
    pthread_setspecific(key, (void *)(2000 + id));
    pthread_barrier_wait(&barrier);     /* everyone has written */
    if (tv != 100 + id || tz != 1000 + id ||
        (long)pthread_getspecific(key) != 2000 + id)
        __atomic_add_fetch(&tls_bad, 1, __ATOMIC_RELAXED);
    return (void *)&tv;                 /* this thread's copy's address */
}

static int check_tls(int n)
{
    pthread_t t[MAXT];
    void *addr[MAXT];

    pthread_key_create(&key, NULL);
    pthread_setspecific(key, (void *)1);
    pthread_barrier_init(&barrier, NULL, n);
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, tls_thread, (void *)(long)i) != 0)
            return 1;
    for (int i = 0; i < n; i++)
        pthread_join(t[i], &addr[i]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (addr[i] == addr[j] || addr[i] == (void *)&tv)
                tls_bad++;
    pthread_once(&once, count_once);
    if (tls_bad || once_runs != 1 || tv != 7 || tz != 0 ||
        (long)pthread_getspecific(key) != 1) {
        printf("pthreads: tls: %d wrong, once ran %d times, main tv %d\n",
               tls_bad, once_runs, tv);
        return 1;
    }
    printf("pthreads: tls OK: %d threads, each its own copy\n", n);
    return 0;
}

struct cop_args {
    int n;
    long result;
};

static void cop_work(void *p)
{
    struct cop_args *a = p;

    a->result = 0;
    for (int i = 1; i <= a->n; i++)
        a->result += i;
}

static int check_cop(void)
{
    struct cop_args a = { 1000, 0 };
    volatile int done = -1;
    int rc = cop(cop_work, &a, &done);

    if (rc) {
        printf("pthreads: cop failed: %s\n", strerror(rc));
        return 1;
    }
    while (!done)
        __builtin_ia32_pause();
    printf("pthreads: cop %s: result %ld\n", a.result == 500500 ? "OK" : "bad",
           a.result);
    return a.result != 500500;
}

static void *crasher(void *arg)
{
    for (volatile int i = 0; i < 100000; i++)
        ;
    return (void *)(long)*(volatile int *)arg;
}

static int check_fault(void)
{
    pthread_t t;

    if (pthread_create(&t, NULL, crasher, NULL) != 0)
        return 1;
    for (;;)                            /* the thread's fault ends us */
        __builtin_ia32_pause();
}

static void *exiter(void *arg)
{
    (void)arg;
    exit(3);
}

static void *refused(void *arg)
{
    long *r = arg;

    r[0] = lwk_sys_ptl(0, 0);
    r[1] = lwk_sys_thread_start(0, 0, 0, 0);
    return NULL;
}

static int check_refused(void)
{
    long r[2] = { 0, 0 };
    pthread_t t;

    if (pthread_create(&t, NULL, refused, r) != 0)
        return 1;
    pthread_join(t, NULL);
    printf("pthreads: from a thread: ptl %ld, thread_start %ld\n", r[0], r[1]);
    return r[0] == -EPERM || r[1] != -EPERM;
}

static void *spinner(void *arg)
{
    for (;;)
        __builtin_ia32_pause();
    return arg;
}

static int check_leave(void)
{
    pthread_t t;
    int rc = pthread_create(&t, NULL, spinner, NULL);

    printf("pthreads: leaving a spinning thread behind (%s)\n",
           rc ? strerror(rc) : "started");
    return rc != 0;
}

static int check_exit(void)
{
    pthread_t t;

    if (pthread_create(&t, NULL, exiter, NULL) != 0)
        return 1;
    for (;;)
        __builtin_ia32_pause();
}

static int check_cpus(long online, long conf)
{
    long on = sysconf(_SC_NPROCESSORS_ONLN), all = sysconf(_SC_NPROCESSORS_CONF);

    printf("pthreads: cpus %ld online of %ld\n", on, all);
    return on != online || all != conf;
}

int main(int argc, char **argv)
{
    int fails = 0;

    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        int n = i + 1 < argc ? atoi(argv[i + 1]) : 0;
        if (!strcmp(w, "sum"))
            fails += check_sum(n), i++;
        else if (!strcmp(w, "eagain"))
            fails += check_eagain(n), i++;
        else if (!strcmp(w, "churn"))
            fails += check_churn(n), i++;
        else if (!strcmp(w, "tls"))
            fails += check_tls(n), i++;
        else if (!strcmp(w, "cop"))
            fails += check_cop();
        else if (!strcmp(w, "fault"))
            fails += check_fault();
        else if (!strcmp(w, "exit"))
            fails += check_exit();
        else if (!strcmp(w, "leave"))
            fails += check_leave();
        else if (!strcmp(w, "refused"))
            fails += check_refused();
        else if (!strcmp(w, "cpus") && i + 2 < argc)
            fails += check_cpus(n, atoi(argv[i + 2])), i += 2;
    }
    printf("pthreads: %s\n", fails ? "FAILED" : "OK");
    return fails != 0;
}
