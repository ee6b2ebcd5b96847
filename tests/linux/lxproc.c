/*
 * lxproc: what a static glibc program learns about its machine and
 * itself, on a node (tests/qemu/suite-linux; docs/LINUX.md, "The node a
 * program sees").  It prints what each probe says; the suite compares
 * the figures with the node it ran on (its CPUs, the CPUs its mode
 * gives, its memory), and the program checks that the probes agree with
 * one another and with the process ("ok WHAT" or "FAIL WHAT: why").
 *
 *   lxproc cpus    the CPU and memory probes only (no files needed);
 *                  with threads, one of them reads a CPU file too
 *   lxproc all     those, then the process's own files: maps (through
 *                  pthread_getattr_np), status, cmdline, environ, auxv,
 *                  limits, exe, fd/ and /dev/fd, and the names that are
 *                  not the node's (ENOENT)
 *
 * Lines: "cpus affinity=A nprocs=N nprocs_conf=C onln=O conf=F
 * omp_procs=P omp_team=T cpuinfo=I sysdirs=S", "online LIST", "possible
 * LIST", "offline LIST", "mem total_kib=K free_kib=F"; the last line is
 * "lxproc: OK" or "lxproc: N FAILED".  Build: gcc -static -fopenmp.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

extern char **environ;
static int fails;

static void check(int ok, const char *what, const char *why)
{
    if (ok) {
        printf("ok %s\n", what);
    } else {
        printf("FAIL %s: %s\n", what, why);
        fails++;
    }
}

/* The whole of a file (NUL-ended, its length in *len), or NULL. */
static char *slurp(const char *path, size_t *len)
{
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t r;

    if (fd < 0 || !buf) {
        free(buf);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    while ((r = read(fd, buf + n, cap - n - 1)) > 0)
        if ((n += (size_t)r) == cap - 1 && !(buf = realloc(buf, cap *= 2)))
            return NULL;
    close(fd);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

/* The first line of a file, newline dropped ("?" if it cannot be read). */
static const char *line_of(const char *path)
{
    static char line[4][256];
    static int k;
    char *s = slurp(path, NULL), *out = line[k++ % 4];

    snprintf(out, 256, "%s", s ? strtok(s, "\n") ? s : "" : "?");
    free(s);
    return out;
}

/* The number after "key" in a "key value" file, or -1. */
static long field(const char *text, const char *key)
{
    const char *p = text ? strstr(text, key) : NULL;

    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int count_lines(const char *text, const char *start)
{
    int n = 0;

    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
        n += !strncmp(p, start, strlen(start));
    return n;
}

/* A CPU set in Linux's list format: "0-2,5". */
static const char *cpu_list(const cpu_set_t *s)
{
    static char out[256];
    size_t n = 0;

    out[0] = 0;
    for (int c = 0; c < CPU_SETSIZE && n < sizeof(out) - 16; c++) {
        int e = c;

        if (!CPU_ISSET(c, s))
            continue;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, s))
            e++;
        n += (size_t)snprintf(out + n, sizeof(out) - n, e > c ? "%s%d-%d" :
                              "%s%d", n ? "," : "", c, e);
        c = e;
    }
    return out;
}

static void cpus(void)
{
    cpu_set_t s;
    int aff = -1, team = 0, sysdirs = 0, in_thread = -1;
    char *info = slurp("/proc/cpuinfo", NULL);
    DIR *d = opendir("/sys/devices/system/cpu");
    struct dirent *e;

    CPU_ZERO(&s);
    if (sched_getaffinity(0, sizeof(s), &s) == 0)
        aff = CPU_COUNT(&s);
#pragma omp parallel reduction(+:team)
    {
        team += 1;
        if (omp_get_thread_num() == 1)      /* not the main thread */
            in_thread = strcmp(line_of("/sys/devices/system/cpu/possible"),
                               "?") != 0;
    }
    while (d && (e = readdir(d)))
        sysdirs += !strncmp(e->d_name, "cpu", 3) && e->d_name[3] >= '0' &&
                   e->d_name[3] <= '9';
    if (d)
        closedir(d);
    printf("cpus affinity=%d nprocs=%d nprocs_conf=%d onln=%ld conf=%ld "
           "omp_procs=%d omp_team=%d cpuinfo=%d sysdirs=%d\n", aff,
           get_nprocs(), get_nprocs_conf(), sysconf(_SC_NPROCESSORS_ONLN),
           sysconf(_SC_NPROCESSORS_CONF), omp_get_num_procs(), team,
           count_lines(info, "processor\t: "), sysdirs);
    printf("online %s\npossible %s\noffline %s\n",
           line_of("/sys/devices/system/cpu/online"),
           line_of("/sys/devices/system/cpu/possible"),
           line_of("/sys/devices/system/cpu/offline"));
    free(info);
    check(!strcmp(cpu_list(&s), line_of("/sys/devices/system/cpu/online")),
          "affinity-is-online", cpu_list(&s));
    if (in_thread >= 0)
        check(in_thread, "a-thread-reads-them", "a thread could not");
}

static void memory(void)
{
    char *mi = slurp("/proc/meminfo", NULL);
    long total = field(mi, "MemTotal:"), avail = field(mi, "MemAvailable:");
    long page = sysconf(_SC_PAGESIZE);
    struct sysinfo si;
    char why[160];

    sysinfo(&si);
    printf("mem total_kib=%ld free_kib=%ld\n", total, field(mi, "MemFree:"));
    snprintf(why, sizeof(why), "MemTotal %ld kB, sysinfo %lu kB, "
             "_SC_PHYS_PAGES %ld kB", total,
             (unsigned long)(si.totalram * si.mem_unit >> 10),
             sysconf(_SC_PHYS_PAGES) * (page / 1024));
    check(total > 0 && (unsigned long)total == si.totalram * si.mem_unit >> 10 &&
          total == sysconf(_SC_PHYS_PAGES) * (page / 1024), "meminfo-is-sysinfo",
          why);
    check(avail > 0 && avail <= total, "memavailable", "MemAvailable not in 1..MemTotal");
    free(mi);
}

/* pthread_getattr_np finds the main thread's stack in /proc/self/maps. */
static void maps(void)
{
    pthread_attr_t a;
    void *lo = NULL;
    size_t size = 0;
    struct rlimit rl;
    int here, rc = pthread_getattr_np(pthread_self(), &a);
    char *m = slurp("/proc/self/maps", NULL), why[200], key[32];
    void *heap = malloc(100);

    if (rc == 0)
        pthread_attr_getstack(&a, &lo, &size);
    getrlimit(RLIMIT_STACK, &rl);
    snprintf(why, sizeof(why), "pthread_getattr_np %d, stack %p + %zu, a "
             "local at %p, RLIMIT_STACK %lu", rc, lo, size, (void *)&here,
             (unsigned long)rl.rlim_cur);
    check(rc == 0 && (char *)&here >= (char *)lo &&
          (char *)&here < (char *)lo + size && size > 0 &&
          size <= rl.rlim_cur, "main-thread-stack", why);
    snprintf(key, sizeof(key), "[stack]");
    check(m && strstr(m, key) && strstr(m, "[heap]"), "maps-names",
          "no [stack] or [heap] line");
    /* each address lies in one line's range */
    for (int k = 0; k < 3; k++) {
        uintptr_t want = k == 0 ? (uintptr_t)&check : k == 1 ? (uintptr_t)heap
                                                             : (uintptr_t)&here;
        int in = 0;

        for (char *p = m; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
            uintptr_t from, to;
            if (sscanf(p, "%lx-%lx", &from, &to) == 2 && from <= want && want < to)
                in++;
        }
        snprintf(why, sizeof(why), "address %#lx is in %d lines", (unsigned long)want, in);
        check(in == 1, k == 0 ? "maps-has-text" : k == 1 ? "maps-has-heap"
                                                         : "maps-has-stack", why);
    }
    free(heap);
    free(m);
}

/* NUL-separated strings of a file equal to a vector. */
static int same_strings(const char *path, char **v)
{
    size_t len, at = 0;
    char *s = slurp(path, &len);
    int ok = s != NULL;

    for (; ok && *v; v++) {
        ok = at < len && !strcmp(s + at, *v);
        at += strlen(*v) + 1;
    }
    ok = ok && at == len;
    free(s);
    return ok;
}

static void self(char **argv)
{
    char *st = slurp("/proc/self/status", NULL), *lim = slurp("/proc/self/limits", NULL);
    char name[64], exe[PATH_MAX] = "", real[PATH_MAX] = "", why[PATH_MAX * 2 + 64];
    const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    const char *p = lim ? strstr(lim, "Max stack size") : NULL;
    size_t len;
    const unsigned long *av = (const void *)slurp("/proc/self/auxv", &len);
    unsigned long pagesz = 0, entry = 0;
    struct rlimit rl;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

    snprintf(why, sizeof(why), "Pid %ld, getpid %d", field(st, "\nPid:"), getpid());
    check(field(st, "\nPid:") == getpid(), "status-pid", why);
    snprintf(name, sizeof(name), "Name:\t%.15s\n", base);
    check(st && strstr(st, name), "status-name", name);
    check(st && strstr(st, "Cpus_allowed_list:\t") &&
          !strncmp(strstr(st, "Cpus_allowed_list:\t") + 19,
                   line_of("/sys/devices/system/cpu/online"),
                   strlen(line_of("/sys/devices/system/cpu/online"))),
          "status-cpus-are-online", "Cpus_allowed_list differs from online");
    check(same_strings("/proc/self/cmdline", argv), "cmdline", "not argv");
    check(same_strings("/proc/self/environ", environ), "environ", "not environ");
    for (size_t i = 0; av && i + 1 < len / sizeof(*av); i += 2) {
        pagesz = av[i] == AT_PAGESZ ? av[i + 1] : pagesz;
        entry = av[i] == AT_ENTRY ? av[i + 1] : entry;
    }
    check(pagesz == getauxval(AT_PAGESZ) && entry == getauxval(AT_ENTRY) &&
          entry, "auxv", "AT_PAGESZ or AT_ENTRY differ from getauxval's");
    getrlimit(RLIMIT_STACK, &rl);
    snprintf(why, sizeof(why), "limits say %ld, getrlimit %lu",
             p ? strtol(p + 14, NULL, 10) : -1, (unsigned long)rl.rlim_cur);
    check(p && strtoul(p + 14, NULL, 10) == rl.rlim_cur, "limits-stack", why);
    if (n >= 0)
        exe[n] = 0;
    realpath(argv[0], real);
    snprintf(why, sizeof(why), "readlink %zd '%s', realpath '%s'", n, exe, real);
    check(n > 0 && !strcmp(exe, real), "exe", why);
    free(st);
    free(lim);
    free((void *)av);
}

/* A file it opened: listed in /proc/self/fd, named there by its path,
   and /dev/fd/N opens it anew (from offset 0, as Linux does); /dev/stdout
   is its standard output. */
static void fds(void)
{
    char cwd[PATH_MAX], want[PATH_MAX + 32], got[PATH_MAX] = "", link[64], b[8] = "";
    int fd = open("lxproc.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644), seen = 0, fd2;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    ssize_t n;
    FILE *out;

    if (write(fd, "abcdef", 6) != 6 || lseek(fd, 2, SEEK_SET) != 2)
        check(0, "fd-file", "cannot write lxproc.tmp");
    while (d && (e = readdir(d)))
        seen += atoi(e->d_name) == fd && e->d_name[0] != '.';
    if (d)
        closedir(d);
    check(seen == 1, "fd-listed", "its fd is not in /proc/self/fd");
    getcwd(cwd, sizeof(cwd));
    snprintf(want, sizeof(want), "%s/lxproc.tmp", cwd);
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    if ((n = readlink(link, got, sizeof(got) - 1)) >= 0)
        got[n] = 0;
    check(!strcmp(got, want), "fd-names-its-file", got);
    snprintf(link, sizeof(link), "/dev/fd/%d", fd);
    fd2 = open(link, O_RDONLY);
    check(fd2 >= 0 && read(fd2, b, 2) == 2 && !strcmp(b, "ab"), "dev-fd-opens-it",
          fd2 < 0 ? strerror(errno) : b);
    close(fd2);
    close(fd);
    unlink("lxproc.tmp");
    out = fopen("/dev/stdout", "a");
    check(out && fprintf(out, "through /dev/stdout\n") > 0 && fclose(out) == 0,
          "dev-stdout-writes", strerror(errno));
}

/* Names the service host has and the node does not describe: ENOENT,
   never the host's. */
static void not_the_nodes(void)
{
    static const char *const paths[] = {
        "/proc/1/status", "/proc/sys/kernel/hostname", "/proc/self/mem",
        "/sys/class/net", "/sys/kernel", "/proc/self/cwd/.",
    };
    struct stat st;

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        int fd = open(paths[i], O_RDONLY), e = errno;
        char what[80];

        snprintf(what, sizeof(what), "enoent %s", paths[i]);
        check(fd < 0 && e == ENOENT && stat(paths[i], &st) < 0 && errno == ENOENT,
              what, fd >= 0 ? "opened" : strerror(e));
        if (fd >= 0)
            close(fd);
    }
    errno = 0;
    check(open("/proc/meminfo", O_WRONLY) < 0 && errno == EACCES,
          "read-only", strerror(errno));
}

int main(int argc, char **argv)
{
    int all = argc > 1 && !strcmp(argv[1], "all");

    setvbuf(stdout, NULL, _IOLBF, 0);
    cpus();
    memory();
    if (all) {
        maps();
        self(argv);
        fds();
        not_the_nodes();
    }
    if (fails)
        printf("lxproc: %d FAILED\n", fails);
    else
        printf("lxproc: OK\n");
    return fails != 0;
}
