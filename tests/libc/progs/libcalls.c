/* SPDX-License-Identifier: MIT */
/*
 * libcalls: the system-call glue as a program sees it: clocks, sleeps,
 * identity, placement (lwk.h), the calls that must fail cleanly with
 * ENOSYS-style errors, constructors, and exit() running atexit handlers
 * with stdio flushed (the OK line is printed from an atexit handler).
 */
#define PROG "libcalls"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <lwk/lwk.h>

#include "check.h"

static int constructed;

__attribute__((constructor)) static void ctor(void)
{
    constructed = 1;
}

static void at_exit(void)
{
    check_done();
}

static long long mono_ns(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return -1;
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void check_time(void)
{
    struct timespec ts = { 0, 2000000 }, res;
    struct timeval tv;
    struct tms tms;
    long long t0 = mono_ns(), t1;

    CHECK(t0 >= 0);
    CHECK(nanosleep(&ts, NULL) == 0);
    t1 = mono_ns();
    CHECK(t1 - t0 >= 2000000);
    CHECK(gettimeofday(&tv, NULL) == 0 && tv.tv_sec > 1600000000);
    CHECK(time(NULL) >= tv.tv_sec);
    CHECK(clock_getres(CLOCK_MONOTONIC, &res) == 0);
    CHECK(clock_gettime((clockid_t)999, &ts) == -1 && errno == EINVAL);
    CHECK(times(&tms) != (clock_t)-1 && clock() != (clock_t)-1);
    printf("libcalls: slept %lld us\n", (t1 - t0) / 1000);
}

static void check_enosys(void)
{
    struct stat st;
    char c;

    errno = 0;
    CHECK(fopen("/etc/motd", "r") == NULL && errno == ENOSYS);
    CHECK(open("/x", O_RDONLY) == -1 && errno == ENOSYS);
    CHECK(read(0, &c, 1) == 0);        /* no input given: end of file */
    CHECK(read(5, &c, 1) == -1 && errno == EBADF);
    CHECK(write(7, "x", 1) == -1 && errno == EBADF);
    CHECK(stat("/", &st) == -1 && errno == ENOSYS);
    CHECK(unlink("/x") == -1 && errno == ENOSYS);
    CHECK(mkdir("/d", 0755) == -1 && errno == ENOSYS);
    CHECK(fork() == -1 && errno == ENOSYS);
    CHECK(lseek(1, 0, SEEK_SET) == -1 && errno == ESPIPE);
}

int main(void)
{
    long rank = lwk_rank(), size = lwk_size();

    CHECK(constructed);
    CHECK(atexit(at_exit) == 0);
    check_time();
    check_enosys();
    CHECK(isatty(1) && isatty(2) && !isatty(9));
    CHECK(fstat(1, &(struct stat){ 0 }) == 0);
    CHECK(write(1, "libcalls: write\n", 16) == 16);
    CHECK(getpid() > 0);
    CHECK(sched_yield() == 0);
    CHECK(sysconf(_SC_PAGESIZE) == 2 * 1024 * 1024);
    CHECK(size >= 1 && rank >= 0 && rank < size);
    CHECK(lwk_proc->heap_size > 0);
    printf("libcalls: nid %ld rank %ld of %ld, heap %lu KiB\n", lwk_nid(),
           rank, size, lwk_proc->heap_size >> 10);
    return 0;   /* at_exit prints the verdict; exit status stays 0 */
}
