/* SPDX-License-Identifier: MIT */
/*
 * posix: the POSIX, XSI and GNU calls HPC programs commonly use, each
 * checked to work on a node or to fail at once with the errno
 * libc/README.md gives (tests/libc/posix-names.txt lists what must link).
 *
 *   posix              no yod behind it (lwkemu, lwkrun): files fail ENOSYS
 *   posix files DIR    under yod, in DIR (a fresh directory): directories,
 *                      glob, realpath, dup2 of stdout to a file, pread,
 *                      pwrite, truncate, creat, openat
 *
 * Prints "posix: warnx 42" on stderr (err.c's form), "posix: via dup" on
 * stdout through a duplicate of fd 1, and "posix: OK" last.
 */
#define _GNU_SOURCE
#define PROG "posix"
#include <dirent.h>
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <glob.h>
#include <libgen.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lwk/lwk.h>

#include "check.h"

/* The call failed with -1 (or NULL) and errno e. */
#define FAILS(call, e) do { errno = 0; CHECK((call) && errno == (e)); } while (0)
#define MINUS1(call) ((call) == -1)
#define ISNULL(call) ((call) == NULL)

static void processes(void)
{
    int st;
    struct rusage ru;

    CHECK(system(NULL) == 0);               /* no command processor */
    FAILS(MINUS1(system("true")), ENOSYS);
    FAILS(ISNULL(popen("ls", "r")), ENOSYS);
    FAILS(MINUS1(pclose(stdin)), ECHILD);
    FAILS(MINUS1(fork()), ENOSYS);
    FAILS(MINUS1(vfork()), ENOSYS);
    FAILS(MINUS1(execvp("ls", (char *[]){ "ls", NULL })), ENOSYS);
    FAILS(MINUS1(execl("/bin/ls", "ls", (char *)NULL)), ENOSYS);
    FAILS(MINUS1(pipe((int[2]){ 0 })), ENOSYS);
    FAILS(MINUS1(wait(&st)), ECHILD);
    FAILS(MINUS1(waitpid(-1, &st, WNOHANG)), ECHILD);
    FAILS(MINUS1(wait4(-1, &st, 0, &ru)), ECHILD);
    st = 3 << 8;
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3 && !WIFSIGNALED(st));
    st = SIGKILL;
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && !WIFEXITED(st));
}

static void identity(void)
{
    CHECK(getuid() == 0 && geteuid() == 0 && getgid() == 0 && getegid() == 0);
    CHECK(getppid() == 1);
    CHECK(getpgrp() == getpid() && getpgid(0) == getpid() && getsid(0) == getpid());
    FAILS(MINUS1(getpgid(getpid() + 1)), ESRCH);
    FAILS(MINUS1(setsid()), EPERM);
    CHECK(setuid(0) == 0 && setgid(0) == 0);
    FAILS(MINUS1(setuid(1000)), EPERM);
    FAILS(ISNULL(getlogin()), ENXIO);
    errno = 0;
    CHECK(getpwuid(0) == NULL && errno == 0);   /* not found, no error */
    CHECK(gethostid() == lwk_nid());
    CHECK(getgroups(0, NULL) == 0);
}

static void limits(void)
{
    struct rlimit rl, low;
    struct sysinfo si;
    char path[32];

    CHECK(getpagesize() == sysconf(_SC_PAGESIZE));
    CHECK(getpagesize() == 2 * 1024 * 1024);    /* the page a node maps */
    CHECK(sysconf(_SC_OPEN_MAX) == 64 && getdtablesize() == 64);
    CHECK(sysconf(_SC_NPROCESSORS_ONLN) == get_nprocs());
    FAILS(MINUS1(sysconf(-5)), EINVAL);
    CHECK(getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == rl.rlim_max &&
          rl.rlim_max == lwk_proc->stack_size);
    CHECK(getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_max == lwk_proc->heap_size);
    CHECK(getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_max == RLIM_INFINITY);
    low = (struct rlimit){ 0, 0 };
    CHECK(setrlimit(RLIMIT_CORE, &low) == 0);
    CHECK(getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_cur == 0 && rl.rlim_max == 0);
    FAILS(MINUS1(setrlimit(RLIMIT_CORE, &(struct rlimit){ 1, 1 })), EPERM);
    FAILS(MINUS1(setrlimit(RLIMIT_STACK, &(struct rlimit){ 2, 1 })), EINVAL);
    FAILS(MINUS1(getrlimit(99, &rl)), EINVAL);
    CHECK(getpriority(PRIO_PROCESS, 0) == 0 && setpriority(PRIO_PROCESS, 0, 0) == 0);
    FAILS(MINUS1(setpriority(PRIO_PROCESS, 0, 5)), EACCES);
    CHECK(nice(0) == 0);
    CHECK(sysinfo(&si) == 0 && si.totalram == lwk_proc->heap_size &&
          si.freeram <= si.totalram && si.procs == 1 && si.mem_unit == 1);
    CHECK(pathconf(".", _PC_NAME_MAX) == 255 && fpathconf(1, _PC_PATH_MAX) == 4096);
    CHECK(confstr(_CS_PATH, path, sizeof(path)) == 14);
    CHECK_STR(path, "/bin:/usr/bin");
}

static void memory(void)
{
    size_t big = 4u << 20;
    char *p, *q;

    p = mmap(NULL, 100000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED && ((uintptr_t)p & 4095) == 0);
    if (p != MAP_FAILED) {
        CHECK(p[0] == 0 && p[99999] == 0);
        memset(p, 7, 100000);
        CHECK(madvise(p, 4096, MADV_DONTNEED) == 0 && p[0] == 0 && p[4096] == 7);
        CHECK(mprotect(p, 4096, PROT_READ | PROT_WRITE) == 0);
        FAILS(MINUS1(mprotect(p, 4096, PROT_READ)), ENOTSUP);
        CHECK(msync(p, 4096, MS_SYNC) == 0 && mlock(p, 4096) == 0 && munlock(p, 4096) == 0);
        FAILS(MINUS1(munmap(p + 4096, 4096)), EINVAL);  /* part of it */
        CHECK(munmap(p, 100000) == 0);
    }
    q = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(q != MAP_FAILED && ((uintptr_t)q & (2 * 1024 * 1024 - 1)) == 0);
    if (q != MAP_FAILED)
        CHECK(q[big - 1] == 0 && munmap(q, big) == 0);
    CHECK(munmap((void *)0x10000, 4096) == 0);      /* nothing mapped there */
    errno = 0;
    CHECK(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0) == MAP_FAILED && errno == ENODEV);
    errno = 0;
    CHECK(mmap((void *)0x40000000, 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED &&
          errno == ENOTSUP);
    errno = 0;
    CHECK(mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
          errno == ENOTSUP);
    CHECK(mlockall(MCL_CURRENT | MCL_FUTURE) == 0 && munlockall() == 0);
    FAILS(MINUS1(shm_open("/x", O_RDWR | O_CREAT, 0600)), ENOSYS);
    p = NULL;
    CHECK(posix_memalign((void **)&p, 64, 100) == 0 && ((uintptr_t)p & 63) == 0);
    free(p);
    p = aligned_alloc(4096, 8192);
    CHECK(p && ((uintptr_t)p & 4095) == 0);
    free(p);
}

static void scheduling(void)
{
    cpu_set_t set;
    struct sched_param sp = { 0 };

    CHECK(sched_yield() == 0);
    CHECK(sched_get_priority_max(SCHED_OTHER) == 0 && sched_get_priority_min(SCHED_OTHER) == 0);
    CHECK(sched_getscheduler(0) == SCHED_OTHER && sched_setparam(0, &sp) == 0);
    FAILS(MINUS1(sched_setscheduler(0, SCHED_FIFO, &sp)), EPERM);
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    CPU_SET(3, &set);
    CHECK(CPU_COUNT(&set) == 2 && CPU_ISSET(3, &set) && !CPU_ISSET(1, &set));
    /* the process's CPUs (the PCT's; CPU 0 by default): the same count
       sysconf says, the set back unchanged, anything else refused */
    FAILS(MINUS1(sched_setaffinity(0, sizeof(set), &set)), EINVAL);
    CHECK(sched_getaffinity(0, sizeof(set), &set) == 0 &&
          CPU_COUNT(&set) == sysconf(_SC_NPROCESSORS_ONLN));
    CHECK(sched_setaffinity(0, sizeof(set), &set) == 0);
    for (int c = 0; c < CPU_SETSIZE && CPU_COUNT(&set) == 1; c++)
        if (CPU_ISSET(c, &set))
            CHECK(sched_getcpu() == c);
}

static void signals_and_time(void)
{
    int (*add)(sigset_t *, int) = sigaddset;        /* functions too */
    sigset_t s;
    stack_t old;
    struct timespec t0, t1, when;
    struct itimerval it;
    struct tm tm = { .tm_year = 100, .tm_mon = 2, .tm_mday = 1 };
    int sig;

    CHECK(sigemptyset(&s) == 0 && add(&s, SIGUSR1) == 0 && sigismember(&s, SIGUSR1) == 1);
    FAILS(MINUS1(add(&s, 0)), EINVAL);
    CHECK(pthread_sigmask(SIG_BLOCK, &s, NULL) == 0);
    FAILS(MINUS1(sigsuspend(&s)), ENOSYS);
    FAILS(MINUS1(pause()), ENOSYS);
    CHECK(sigwait(&s, &sig) == ENOSYS);
    CHECK(sigaltstack(NULL, &old) == 0 && old.ss_flags == SS_DISABLE);
    CHECK(siginterrupt(SIGUSR1, 1) == 0);
    CHECK(killpg(getpid(), 0) == 0);
    FAILS(MINUS1(killpg(getpid() + 1, 0)), ESRCH);
    CHECK(strsignal(SIGTERM) != NULL);

    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ 0, 2000000 }, NULL) == 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK((t1.tv_sec - t0.tv_sec) * 1000000000L + t1.tv_nsec - t0.tv_nsec >= 2000000);
    when = t0;                                      /* in the past: at once */
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL) == 0);
    CHECK(clock_nanosleep(99, 0, &when, NULL) == EINVAL);
    CHECK(timegm(&tm) == 951868800);                /* 2000-03-01 UTC */
    CHECK(getitimer(ITIMER_REAL, &it) == 0 && it.it_value.tv_sec == 0);
    CHECK(setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 0 } }, NULL) == 0);
    FAILS(MINUS1(setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 1, 0 } }, NULL)), ENOSYS);
    FAILS(MINUS1(timer_create(CLOCK_MONOTONIC, NULL, &(timer_t){ 0 })), ENOSYS);
    CHECK(poll(NULL, 0, 1) == 0);
    FAILS(MINUS1(poll(&(struct pollfd){ .fd = 0, .events = POLLIN }, 1, 0)), ENOSYS);
    CHECK(select(0, NULL, NULL, NULL, &(struct timeval){ 0, 1000 }) == 0);
}

static void strings(void)
{
    char a[] = "/usr/lib/", b[] = "/usr/lib/", c[] = "file", d[] = "/";
    char *line = NULL;
    size_t cap = 0;
    FILE *f = fmemopen("one\ntwo;three", 13, "r");
    struct option opts[] = { { "size", required_argument, NULL, 's' }, { 0 } };
    char *argv[] = { "posix", "--size", "12", NULL };

    CHECK_STR(basename(a), "lib");
    CHECK_STR(dirname(b), "/usr");
    CHECK_STR(dirname(c), ".");
    CHECK_STR(basename(d), "/");
    CHECK(fnmatch("*.c", "x.c", 0) == 0 && fnmatch("*.c", ".x.c", FNM_PERIOD) == FNM_NOMATCH);
    CHECK(fnmatch("a/*", "a/b/c", FNM_PATHNAME) == FNM_NOMATCH && fnmatch("a/*", "a/b", FNM_PATHNAME) == 0);
    CHECK(fnmatch("[a-c]?[!0-9]", "b1x", 0) == 0 && fnmatch("[[:digit:]]", "7", 0) == 0);
    CHECK(fnmatch("\\*", "*", 0) == 0 && fnmatch("\\*", "x", 0) == FNM_NOMATCH);
    CHECK(f && getline(&line, &cap, f) == 4);
    CHECK_STR(line ? line : "", "one\n");
    CHECK(f && getdelim(&line, &cap, ';', f) == 4);
    CHECK_STR(line ? line : "", "two;");
    free(line);
    if (f)
        fclose(f);
    flockfile(stdout);
    CHECK(ftrylockfile(stdout) == 0);
    funlockfile(stdout);
    CHECK(getopt_long(3, argv, "s:", opts, NULL) == 's' && atoi(optarg) == 12);
    CHECK(secure_getenv("NO_SUCH_VARIABLE") == NULL);
}

static void nothing(void)
{
}

static void threads_and_loading(void)
{
    pthread_mutexattr_t ma;
    pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
    pthread_spinlock_t sp;
    sem_t s;
    int v;

    CHECK(pthread_mutexattr_init(&ma) == 0 &&
          pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK) == 0 &&
          pthread_mutexattr_gettype(&ma, &v) == 0 && v == PTHREAD_MUTEX_ERRORCHECK);
    CHECK(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE) == ENOTSUP);
    CHECK(pthread_rwlock_rdlock(&rw) == 0 && pthread_rwlock_tryrdlock(&rw) == 0 &&
          pthread_rwlock_trywrlock(&rw) == EBUSY);
    CHECK(pthread_rwlock_unlock(&rw) == 0 && pthread_rwlock_unlock(&rw) == 0 &&
          pthread_rwlock_wrlock(&rw) == 0 && pthread_rwlock_tryrdlock(&rw) == EBUSY);
    CHECK(pthread_rwlock_unlock(&rw) == 0 && pthread_rwlock_destroy(&rw) == 0);
    CHECK(pthread_spin_init(&sp, PTHREAD_PROCESS_PRIVATE) == 0 && pthread_spin_lock(&sp) == 0 &&
          pthread_spin_trylock(&sp) == EBUSY && pthread_spin_unlock(&sp) == 0);
    CHECK(pthread_atfork(nothing, nothing, nothing) == 0 && pthread_yield() == 0);
    CHECK(pthread_kill(pthread_self(), 0) == 0 && pthread_kill(50, 0) == ESRCH);
    CHECK(pthread_cancel(pthread_self()) == ENOSYS);

    CHECK(sem_init(&s, 0, 1) == 0 && sem_trywait(&s) == 0);
    FAILS(MINUS1(sem_trywait(&s)), EAGAIN);
    CHECK(sem_post(&s) == 0 && sem_getvalue(&s, &v) == 0 && v == 1 && sem_wait(&s) == 0);
    FAILS(MINUS1(sem_timedwait(&s, &(struct timespec){ 0, 0 })), ETIMEDOUT);
    FAILS(MINUS1(sem_init(&s, 1, 0)), ENOSYS);
    CHECK(sem_open("/s", O_CREAT, 0600, 0) == SEM_FAILED && errno == ENOSYS);
    CHECK(dlopen("libm.so", RTLD_NOW) == NULL);
    CHECK(dlerror() != NULL && dlerror() == NULL);  /* said once */
    CHECK(dlsym(RTLD_DEFAULT, "printf") == NULL);
}

/* Without yod: fds 0..2 only, every path call ENOSYS. */
static void console_files(void)
{
    char buf[64];
    struct winsize ws;
    glob_t g = { 0 };
    int fd;

    fd = dup(1);
    CHECK(fd == 3);
    CHECK(write(fd, "posix: via dup\n", 15) == 15);
    CHECK(close(fd) == 0);
    FAILS(MINUS1(write(fd, "x", 1)), EBADF);
    CHECK(dup2(1, 9) == 9 && close(9) == 0);
    FAILS(MINUS1(dup2(20, 21)), EBADF);
    CHECK(fcntl(2, F_DUPFD, 10) == 10 && close(10) == 0);
    CHECK(dup2(2, 2) == 2);
    FAILS(MINUS1(ioctl(1, TIOCGWINSZ, &ws)), ENOTTY);
    FAILS(MINUS1(ioctl(30, TIOCGWINSZ, &ws)), EBADF);
    FAILS(ISNULL(opendir(".")), ENOSYS);
    FAILS(ISNULL(realpath("x", buf)), ENOSYS);
    FAILS(MINUS1(chmod("x", 0600)), ENOSYS);
    FAILS(MINUS1(creat("x", 0600)), ENOSYS);
    CHECK(umask(077) == 022 && umask(022) == 077);
    CHECK(glob("*", GLOB_ERR, NULL, &g) == GLOB_ABORTED);
    CHECK(glob("*.none", GLOB_NOCHECK, NULL, &g) == 0 && g.gl_pathc == 1);
    CHECK_STR(g.gl_pathc ? g.gl_pathv[0] : "", "*.none");
    globfree(&g);
    warnx("warnx %d", 42);
}

/* Under yod, in a fresh directory dir. */
static void yod_files(const char *dir)
{
    char path[4200], real[4096], cwd[4096], buf[64];
    struct dirent **list;
    glob_t g = { 0 };
    DIR *d;
    struct dirent *e;
    int fd, saved, n, seen = 0;

    CHECK(chdir(dir) == 0 && getcwd(cwd, sizeof(cwd)) != NULL);
    CHECK(mkdir("d", 0755) == 0);
    for (const char *const *f = (const char *const[]){ "d/b.txt", "d/a.txt", "d/c.dat", NULL }; *f; f++)
        CHECK((fd = creat(*f, 0644)) >= 0 && close(fd) == 0);
    CHECK((d = opendir("d")) != NULL);
    while (d && (e = readdir(d)))
        seen |= (strcmp(e->d_name, "a.txt") == 0) |
                (strcmp(e->d_name, "b.txt") == 0) << 1 |
                (strcmp(e->d_name, "c.dat") == 0) << 2 | (e->d_type == DT_DIR) << 3;
    CHECK(seen == 15);                      /* the three, and . or .. */
    if (d) {
        rewinddir(d);
        CHECK(readdir(d) != NULL);
        CHECK(closedir(d) == 0);
    }
    n = scandir("d", &list, NULL, alphasort);
    CHECK(n == 5);
    if (n == 5) {
        CHECK_STR(list[2]->d_name, "a.txt");
        CHECK_STR(list[4]->d_name, "c.dat");
    }
    while (n > 0)
        free(list[--n]);
    if (n == 0)
        free(list);
    CHECK(glob("d/*.txt", 0, NULL, &g) == 0 && g.gl_pathc == 2);
    if (g.gl_pathc == 2) {
        CHECK_STR(g.gl_pathv[0], "d/a.txt");
        CHECK_STR(g.gl_pathv[1], "d/b.txt");
    }
    globfree(&g);
    CHECK(glob("*", GLOB_MARK, NULL, &g) == 0 && g.gl_pathc == 1);
    CHECK_STR(g.gl_pathc ? g.gl_pathv[0] : "", "d/");
    globfree(&g);
    CHECK(glob("d/*.none", 0, NULL, &g) == GLOB_NOMATCH);

    snprintf(path, sizeof(path), "%s/d/a.txt", cwd);
    CHECK(realpath("d/../d/./a.txt", real) != NULL);
    CHECK_STR(real, path);
    FAILS(ISNULL(realpath("d/none", real)), ENOENT);
    FAILS(ISNULL(realpath("d/a.txt/x", real)), ENOTDIR);

    /* stdout into a file and back, as a program sends a phase's output */
    CHECK((fd = open("d/out", O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0);
    fflush(stdout);
    CHECK((saved = dup(1)) >= 0 && dup2(fd, 1) == 1);
    printf("redirected\n");
    fflush(stdout);
    CHECK(dup2(saved, 1) == 1 && close(saved) == 0 && close(fd) == 0);
    CHECK((fd = open("d/out", O_RDONLY)) >= 0 && read(fd, buf, sizeof(buf)) == 11 &&
          !memcmp(buf, "redirected\n", 11) && close(fd) == 0);

    CHECK((fd = openat(AT_FDCWD, "d/p", O_RDWR | O_CREAT, 0644)) >= 0);
    CHECK(pwrite(fd, "world", 5, 6) == 5 && pwrite(fd, "hello ", 6, 0) == 6);
    CHECK(lseek(fd, 0, SEEK_CUR) == 0);     /* the offset did not move */
    CHECK(pread(fd, buf, 5, 6) == 5 && !memcmp(buf, "world", 5));
    CHECK(fdatasync(fd) == 0 && close(fd) == 0);
    CHECK(truncate("d/p", 5) == 0);
    CHECK((fd = open("d/p", O_RDONLY)) >= 0 && read(fd, buf, sizeof(buf)) == 5 && close(fd) == 0);
    FAILS(MINUS1(symlink("a.txt", "d/l")), ENOSYS);
    FAILS(MINUS1(openat(5, "d/p", O_RDONLY)), ENOSYS);
}

int main(int argc, char **argv)
{
    processes();
    identity();
    limits();
    memory();
    scheduling();
    signals_and_time();
    strings();
    threads_and_loading();
    if (argc == 3 && !strcmp(argv[1], "files"))
        yod_files(argv[2]);
    else
        console_files();
    return check_done();
}
