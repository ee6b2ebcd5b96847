/* SPDX-License-Identifier: MIT */
/*
 * lxpaio: POSIX asynchronous I/O (aio_read, aio_write, aio_suspend,
 * aio_error, aio_return, lio_listio; POSIX.1-2017 <aio.h>) as glibc
 * gives it to a static program: a helper thread of glibc's does each
 * operation and aio_suspend waits on a futex for it.  suite-linux runs
 * it on Linux and on a node under yod -threads and compares what it
 * says and the files it leaves:
 *
 *   8 aio_writes of unaligned sizes outstanding at once (the last block
 *   first); aio_suspend on all 8 until each is done, every return of it
 *   with one more complete (never 0 with none done); aio_error 0 and
 *   aio_return the size of each; the blocks read back by 8 aio_reads,
 *   each waited for alone, every byte checked; again by one
 *   lio_listio(LIO_WAIT); written again to a second file by one
 *   lio_listio(LIO_NOWAIT) and waited for with aio_suspend and a
 *   timeout (10 s: never reached); an aio_write to a closed fd: aio_error
 *   EBADF, aio_return -1; a thread of its own once glibc's idle helper
 *   has left (a second after its last operation: on a node, where a
 *   thread needs a CPU, the helper's timed futex wait must end).
 *   "lxpaio: OK" when all is well.
 *
 * First, what glibc's aio asks of the scheduler and of signals (sched(7),
 * sigqueue(3)): the policy SCHED_OTHER at priority 0 of the process, by
 * pid 0 and by its pid, and of a thread by its tid;
 * setting that again succeeds, a priority other than 0 for it, an
 * unknown policy or a negative pid is EINVAL, a pid that cannot exist
 * ESRCH; the policies' priority ranges; sigqueue of signal 0 to itself.
 *
 * Without threads (a node without yod -threads: glibc cannot start its
 * helper, nor this program its thread: "lxpaio: pthread_create:
 * <strerror>") the first aio_write fails: "lxpaio: aio_write:
 * <strerror>", status 3.
 */
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N 8
static int bad;

#define EXPECT(cond, ...) do { if (!(cond)) { bad = 1; \
        printf("lxpaio: FAIL line %d: ", __LINE__); printf(__VA_ARGS__); \
        printf("\n"); } } while (0)

static unsigned char *buf[N];
static size_t off[N + 1];
static struct aiocb cb[N];

static size_t size_of(int i)
{
    return 131072u * (unsigned)(i + 1) + 1000 + 7 * (unsigned)i;
}

static unsigned char byte_at(size_t at)
{
    return (unsigned char)(at % 251 + at / 65536);
}

static void fill(int i)
{
    for (size_t k = 0; k < size_of(i); k++)
        buf[i][k] = byte_at(off[i] + k);
}

/* Block i as read back: the first wrong byte, or -1. */
static long wrong(int i)
{
    for (size_t k = 0; k < size_of(i); k++)
        if (buf[i][k] != byte_at(off[i] + k))
            return (long)k;
    return -1;
}

static void prepare(int i, int fd, int op)
{
    cb[i] = (struct aiocb){ .aio_fildes = fd, .aio_offset = (off_t)off[i],
                            .aio_buf = buf[i], .aio_nbytes = size_of(i),
                            .aio_lio_opcode = op };
}

/* Each of list's operations done, aio_error 0 and aio_return its size;
   every aio_suspend return with one more complete. */
static void wait_all(const struct aiocb **list, int n,
                     const struct timespec *limit, const char *what)
{
    int done = 0, wakes = 0;

    while (done < n && wakes++ <= n) {
        int now = 0, rc = aio_suspend(list, n, limit);

        EXPECT(rc == 0, "%s: aio_suspend %d (%s)", what, rc, strerror(errno));
        for (int i = 0; i < n; i++) {
            int e;

            if (!list[i] || (e = aio_error(list[i])) == EINPROGRESS)
                continue;
            EXPECT(e == 0, "%s: block %d: aio_error %d (%s)", what, i, e,
                   strerror(e));
            EXPECT(aio_return((struct aiocb *)list[i]) ==
                   (ssize_t)list[i]->aio_nbytes, "%s: block %d: aio_return",
                   what, i);
            list[i] = NULL;
            now++;
        }
        EXPECT(now > 0, "%s: aio_suspend returned 0 with none of the %d "
               "outstanding complete", what, n - done);
        done += now;
    }
    EXPECT(done == n, "%s: %d of %d done", what, done, n);
}

static void writes(int fd)
{
    const struct aiocb *list[N];

    for (int i = N - 1; i >= 0; i--) {
        fill(i);
        prepare(i, fd, LIO_NOP);
        list[i] = &cb[i];
        if (aio_write(&cb[i]) != 0) {
            printf("lxpaio: aio_write: %s\n", strerror(errno));
            exit(3);
        }
    }
    wait_all(list, N, NULL, "aio_write x8");
    printf("lxpaio: %d aio_writes done, %zu bytes\n", N, off[N]);
}

static void reads(int fd)
{
    struct aiocb *lio[N];

    for (int i = 0; i < N; i++) {
        const struct aiocb *one[1] = { &cb[i] };

        memset(buf[i], 0, size_of(i));
        prepare(i, fd, LIO_NOP);
        EXPECT(aio_read(&cb[i]) == 0, "aio_read %d: %s", i, strerror(errno));
        wait_all(one, 1, NULL, "aio_read");
        EXPECT(wrong(i) < 0, "aio_read %d: byte %ld wrong", i, wrong(i));
    }
    for (int i = 0; i < N; i++) {
        memset(buf[i], 0, size_of(i));
        prepare(i, fd, LIO_READ);
        lio[i] = &cb[i];
    }
    EXPECT(lio_listio(LIO_WAIT, lio, N, NULL) == 0, "lio_listio(LIO_WAIT): "
           "%s", strerror(errno));
    for (int i = 0; i < N; i++) {
        EXPECT(aio_error(&cb[i]) == 0 && aio_return(&cb[i]) ==
               (ssize_t)size_of(i), "lio_listio read %d: error %d", i,
               aio_error(&cb[i]));
        EXPECT(wrong(i) < 0, "lio_listio read %d: byte %ld wrong", i,
               wrong(i));
    }
    printf("lxpaio: read back by aio_read and lio_listio, every byte\n");
}

static void lio_writes(int fd)
{
    static const struct timespec ten = { 10, 0 };
    const struct aiocb *list[N];
    struct aiocb *lio[N];

    for (int i = 0; i < N; i++) {
        prepare(i, fd, LIO_WRITE);
        list[i] = lio[i] = &cb[i];
    }
    EXPECT(lio_listio(LIO_NOWAIT, lio, N, NULL) == 0, "lio_listio(LIO_"
           "NOWAIT): %s", strerror(errno));
    wait_all(list, N, &ten, "lio_listio(LIO_NOWAIT)");
    printf("lxpaio: lio_listio(LIO_NOWAIT) of %d writes done\n", N);
}

static void bad_fd(void)
{
    char b[16] = "not written";
    struct aiocb a = { .aio_fildes = 77, .aio_buf = b, .aio_nbytes = 10 };
    const struct aiocb *one[1] = { &a };

    EXPECT(aio_write(&a) == 0, "aio_write to fd 77: %s", strerror(errno));
    EXPECT(aio_suspend(one, 1, NULL) == 0, "aio_suspend: %s",
           strerror(errno));
    errno = 0;
    printf("lxpaio: fd 77: aio_error %s, aio_return %zd\n",
           strerror(aio_error(&a)), aio_return(&a));
}

#define NO_SUCH_PID 0x3fffffff       /* above Linux's pid_max limit */

static const char *err(long rc)
{
    return rc < 0 ? strerror(errno) : "0";
}

/* The policy and priority of pid as sched_getscheduler and
   sched_getparam say them. */
static void policy_of(const char *who, pid_t pid)
{
    struct sched_param p = { .sched_priority = -1 };
    int pol = sched_getscheduler(pid);

    EXPECT(sched_getparam(pid, &p) == 0, "%s: sched_getparam: %s", who,
           strerror(errno));
    printf("lxpaio: %s: policy %s priority %d\n", who,
           pol == SCHED_OTHER ? "SCHED_OTHER" : pol < 0 ? strerror(errno) :
           "another", p.sched_priority);
}

static void *nothing(void *arg)
{
    return arg;
}

static void *thread_policy(void *arg)
{
    (void)arg;
    policy_of("a thread's tid", gettid());
    return NULL;
}

static void scheduling(void)
{
    struct sched_param zero = { 0 }, five = { 5 }, got;
    pthread_t th;
    int pol = -1, rc;

    policy_of("pid 0", 0);
    policy_of("its pid", getpid());
    if ((rc = pthread_create(&th, NULL, thread_policy, NULL)) == 0)
        pthread_join(th, NULL);
    else
        printf("lxpaio: pthread_create: %s\n", strerror(rc));
    EXPECT(pthread_getschedparam(pthread_self(), &pol, &got) == 0 &&
           pol == SCHED_OTHER && got.sched_priority == 0,
           "pthread_getschedparam: policy %d", pol);
    printf("lxpaio: set SCHED_OTHER 0: %s; priority 5: %s; policy 77: %s\n",
           err(sched_setscheduler(0, SCHED_OTHER, &zero)),
           err(sched_setscheduler(0, SCHED_OTHER, &five)),
           err(sched_setscheduler(0, 77, &zero)));
    printf("lxpaio: setparam 0: %s; 5: %s; pthread_setschedparam: %s\n",
           err(sched_setparam(0, &zero)), err(sched_setparam(0, &five)),
           strerror(pthread_setschedparam(pthread_self(), SCHED_OTHER,
                                          &zero)));
    printf("lxpaio: pid -1: %s, %s; no such pid: %s, %s\n",
           err(sched_getscheduler(-1)), err(sched_getparam(-1, &got)),
           err(sched_getscheduler(NO_SUCH_PID)),
           err(sched_getparam(NO_SUCH_PID, &got)));
    printf("lxpaio: priorities: OTHER %d..%d FIFO %d..%d RR %d..%d; "
           "policy 77: %s\n", sched_get_priority_min(SCHED_OTHER),
           sched_get_priority_max(SCHED_OTHER),
           sched_get_priority_min(SCHED_FIFO),
           sched_get_priority_max(SCHED_FIFO),
           sched_get_priority_min(SCHED_RR), sched_get_priority_max(SCHED_RR),
           err(sched_get_priority_max(77)));
    printf("lxpaio: sigqueue(itself, 0): %s\n",
           err(sigqueue(getpid(), 0, (union sigval){ 0 })));
}

/* glibc's idle helper leaves after a second (its aio_idle_time, a futex
   wait to a CLOCK_REALTIME deadline), and its CPU takes a thread again:
   tried every 50 ms for 10 s. */
static void after_helper(void)
{
    static const struct timespec tick = { 0, 50000000 };
    pthread_t th;
    int rc = -1;

    for (int t = 0; t < 200 && (rc = pthread_create(&th, NULL, nothing,
                                                     NULL)) != 0; t++)
        nanosleep(&tick, NULL);
    EXPECT(rc == 0 && pthread_join(th, NULL) == 0, "no thread 10 s after "
           "the aio helper's last operation: %s", strerror(rc));
    printf("lxpaio: a thread after the aio helper's idle second\n");
}

int main(void)
{
    int fd, fd2;

    for (int i = 0; i < N; i++) {
        off[i + 1] = off[i] + size_of(i);
        if (!(buf[i] = malloc(size_of(i)))) {
            printf("lxpaio: out of memory\n");
            return 1;
        }
    }
    fd = open("paio.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    fd2 = open("paio-lio.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || fd2 < 0) {
        printf("lxpaio: open: %s\n", strerror(errno));
        return 1;
    }
    scheduling();
    writes(fd);
    reads(fd);
    lio_writes(fd2);
    bad_fd();
    after_helper();
    EXPECT(close(fd) == 0 && close(fd2) == 0, "close: %s", strerror(errno));
    if (!bad)
        printf("lxpaio: OK\n");
    return bad;
}
