/* SPDX-License-Identifier: MIT */
/*
 * iotest: a compute-node program for tests/qemu/suite-yodio (file I/O
 * forwarded to yod).  Every check prints "ok WHAT" or "FAIL WHAT: why";
 * the exit status is the number of failures.
 *
 *   iotest write NAME BYTES [TICKS]
 *                             rank r writes NAME.r: BYTES + 1001*r bytes of
 *                             pattern(r) in one fwrite; with TICKS the last
 *                             rank prints TICKS lines 20 ms apart instead
 *                             (output must flow during the transfers)
 *   iotest read NAME          rank r reads NAME.r (or NAME if there is no
 *                             NAME.r) in one unbuffered fread, prints
 *                             "rank R: N bytes crc32 X"
 *   iotest ops DIR            files and directories in DIR/rR, every call
 *   iotest cwd DIR            rank 1 moves into DIR, rank 0 stays: each
 *                             creates "cwdfile" where it is
 *   iotest errors DIR         the errno of each failing call, with strerror
 *   iotest hold DIR N         open N files and exit without closing them;
 *                             rank 0 first waits for DIR/go
 *   iotest create PATH        create PATH; a clear message and status 3 if
 *                             it cannot
 *   iotest stdin [N]          read stdin to its end (or its first N bytes);
 *                             count, crc and first line
 *   iotest bw BYTES           time writing and reading back a file of BYTES
 *   iotest lat N              time N stat calls (a small request's round trip)
 *   iotest escape OUT         (the last rank) under yod -chroot DIR, inside
 *                             DIR: every way
 *                             out to OUT (DIR's parent, by its absolute
 *                             path) fails: .., absolute paths, the
 *                             symlinks DIR/abs -> OUT and DIR/up -> ..;
 *                             what is created lands inside DIR
 *   iotest host DIR DEV       nothing of the service host's own reaches
 *                             a rank: /proc, /sys (also through DIR's
 *                             links proc -> /proc/self, cpu ->
 *                             /sys/devices/system/cpu, and ..), magic links
 *                             (/dev/fd/0, DIR/in -> /dev/stdin), the device
 *                             DEV: all ENOENT; /dev/null, /dev/zero and
 *                             DIR's links themselves are there
 *   iotest garbage            malformed requests straight to the portal of
 *                             the rank's I/O server (yod, or with yod -io N
 *                             the one LWK_YOD's list names for it), signed
 *                             as libc signs them, and unsigned and
 *                             replayed ones
 *   iotest chunks NAME CHUNK COUNT
 *                             rank r writes NAME.r in COUNT chunks of
 *                             CHUNK bytes of pattern(r) (offset by what
 *                             came before), one write(2) each (the rest
 *                             of a short one again), printing "rank R
 *                             acked N" as each is written; a failing
 *                             write prints "rank R write N: strerror" and
 *                             the rank exits 4
 *
 * pattern(r)[i] = (i % 251 + r) & 255: a prime period, so a chunk landing
 * at the wrong offset shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <lwk/lwk.h>

#include "iotest.h"

/* libc has lstat; newlib's <sys/stat.h> declares it only for some targets. */
int lstat(const char *path, struct stat *st);

int fails;
long rank;

void check(int ok, const char *what)
{
    if (ok) {
        printf("ok %s\n", what);
    } else {
        printf("FAIL %s: errno %d (%s)\n", what, errno, strerror(errno));
        fails++;
    }
}

static void check_quiet(int ok)
{
    if (!ok) {
        printf("FAIL: errno %d (%s)\n", errno, strerror(errno));
        fails++;
    }
}

/* A call that must fail with `want`: prints "WHAT: strerror". */
static void fails_with(int rc, int want, const char *what)
{
    int e = errno;

    if (rc == -1 && e == want) {
        printf("ok %s: %s\n", what, strerror(e));
    } else {
        printf("FAIL %s: rc %d errno %d (%s), wanted %d (%s)\n", what, rc, e,
               strerror(e), want, strerror(want));
        fails++;
    }
}

static uint32_t crc32(uint32_t crc, const unsigned char *p, size_t n)
{
    static uint32_t table[256];

    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static char *pattern(size_t n, long r)
{
    char *b = malloc(n ? n : 1);

    for (size_t i = 0; b && i < n; i++)
        b[i] = (char)((i % 251 + r) & 255);
    return b;
}

static int do_write(const char *name, size_t n)
{
    char path[256];
    char *b = pattern(n, rank);
    FILE *f;

    snprintf(path, sizeof(path), "%s.%ld", name, rank);
    if (!b || !(f = fopen(path, "w"))) {
        printf("FAIL write %s: %s\n", path, strerror(errno));
        return 1;
    }
    check(fwrite(b, 1, n, f) == n, "fwrite");
    check(fclose(f) == 0, "fclose");
    printf("rank %ld wrote %zu bytes to %s\n", rank, n, path);
    return fails;
}

static int do_read(const char *name)
{
    char path[256];
    struct stat st;
    FILE *f;
    char *b;
    size_t got;

    snprintf(path, sizeof(path), "%s.%ld", name, rank);
    if (stat(path, &st) < 0)
        snprintf(path, sizeof(path), "%s", name);
    if (stat(path, &st) < 0 || !(f = fopen(path, "r")) ||
        !(b = malloc(st.st_size + 1))) {
        printf("FAIL read %s: %s\n", path, strerror(errno));
        return 1;
    }
    setvbuf(f, NULL, _IONBF, 0);        /* the fread is one read call */
    got = fread(b, 1, st.st_size + 1, f);
    check(feof(f) && !ferror(f), "fread to the end");
    fclose(f);
    printf("rank %ld: %zu bytes crc32 %08lx\n", rank, got,
           (unsigned long)crc32(0, (unsigned char *)b, got));
    return fails;
}

static int do_ticks(int n)
{
    for (int i = 0; i < n; i++) {
        struct timespec d = { 0, 20000000 };
        printf("tick %d\n", i);
        nanosleep(&d, NULL);
    }
    return 0;
}

/* Sizes and positions: write, seek past the end, fstat, stat, ftruncate. */
static void ops_files(void)
{
    char buf[64];
    struct stat st;
    int fd = open("a", O_CREAT | O_WRONLY | O_TRUNC, 0644);

    check(fd >= 3, "open O_CREAT");
    memset(buf, 'x', sizeof(buf));
    check(write(fd, buf, 40) == 40, "write 40");
    check(lseek(fd, 0, SEEK_CUR) == 40, "lseek SEEK_CUR = 40");
    check(lseek(fd, 4999, SEEK_SET) == 4999, "lseek past the end");
    check(write(fd, "!", 1) == 1, "write at 4999");
    check(fstat(fd, &st) == 0 && st.st_size == 5000 && S_ISREG(st.st_mode),
          "fstat size 5000, regular");
    check(lseek(fd, -10, SEEK_END) == 4990, "lseek SEEK_END");
    check(isatty(fd) == 0 && errno == ENOTTY, "isatty(file) 0, ENOTTY");
    check(close(fd) == 0, "close");
    check(stat("a", &st) == 0 && st.st_size == 5000, "stat size 5000");
    check(lstat("a", &st) == 0 && S_ISREG(st.st_mode), "lstat");
    fd = open("a", O_RDWR);
    check(fd >= 3 && ftruncate(fd, 10) == 0 && fstat(fd, &st) == 0 &&
          st.st_size == 10, "ftruncate to 10");
    check(read(fd, buf, sizeof(buf)) == 10 && buf[0] == 'x', "read 10");
    check(read(fd, buf, sizeof(buf)) == 0, "read at the end: 0");
    check(fsync(fd) == 0, "fsync");
    close(fd);
    fd = open("a", O_WRONLY | O_APPEND);
    check(fd >= 3 && write(fd, "tail", 4) == 4 && stat("a", &st) == 0 &&
          st.st_size == 14, "O_APPEND writes at the end");
    close(fd);
}

/* Names: access, rename (also over a file), link, unlink, mkdir, rmdir. */
static void ops_names(void)
{
    struct stat st;
    FILE *f;

    check(access("a", R_OK | W_OK) == 0, "access R_OK|W_OK");
    check(access("a", X_OK) == -1 && errno == EACCES, "access X_OK EACCES");
    check(access("nope", F_OK) == -1 && errno == ENOENT,
          "access missing ENOENT");
    check(rename("a", "b") == 0 && stat("a", &st) == -1 && errno == ENOENT &&
          stat("b", &st) == 0 && st.st_size == 14, "rename a b");
    f = fopen("c", "w");
    check(f && fputs("c\n", f) >= 0 && fclose(f) == 0, "fopen c");
    check(rename("b", "c") == 0 && stat("c", &st) == 0 && st.st_size == 14,
          "rename over an existing file");
    check(link("c", "d") == 0 && stat("c", &st) == 0 && st.st_nlink == 2,
          "link: nlink 2");
    check(unlink("d") == 0 && stat("d", &st) == -1 && errno == ENOENT,
          "unlink");
    check(mkdir("sub", 0755) == 0 && stat("sub", &st) == 0 &&
          S_ISDIR(st.st_mode), "mkdir");
    check(rmdir("sub") == 0 && stat("sub", &st) == -1, "rmdir");
    check(remove("c") == 0, "remove");
}

static int do_ops(const char *dir)
{
    char path[512], cwd[512], want[600];
    FILE *f;

    snprintf(path, sizeof(path), "%s/r%ld", dir, rank);
    check(mkdir(path, 0755) == 0, "mkdir rank dir");
    check(chdir(path) == 0, "chdir rank dir");
    snprintf(want, sizeof(want), "/r%ld", rank);
    check(getcwd(cwd, sizeof(cwd)) == cwd &&
          !strcmp(cwd + strlen(cwd) - strlen(want), want), "getcwd");
    check(getcwd(cwd, 3) == NULL && errno == ERANGE, "getcwd ERANGE");
    check(isatty(1) == 1, "isatty(1)");
    ops_files();
    ops_names();
    f = fopen("final", "w");
    check(f && fprintf(f, "rank %ld in %s\n", rank, cwd) > 0 &&
          fclose(f) == 0, "final file");
    return fails;
}

/* Wait (up to 30 s) until `path` exists: the other rank's signal. */
static int wait_for(const char *path)
{
    struct stat st;

    for (int i = 0; i < 1500; i++) {
        struct timespec d = { 0, 20000000 };
        if (stat(path, &st) == 0)
            return 0;
        nanosleep(&d, NULL);
    }
    return -1;
}

/* Rank 1 moves into DIR; rank 0 must stay where yod started. */
static int do_cwd(const char *dir)
{
    char cwd[512], flag[600];
    FILE *f;

    if (rank == 1) {
        check(chdir(dir) == 0, "chdir");
    } else {
        snprintf(flag, sizeof(flag), "%s/moved", dir);
        check(wait_for(flag) == 0, "rank 1 has moved");
    }
    check(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
    printf("rank %ld cwd %s\n", rank, cwd);
    f = fopen("cwdfile", "w");
    check(f && fprintf(f, "rank %ld\n", rank) > 0 && fclose(f) == 0,
          "create cwdfile");
    if (rank == 1)
        check(fclose(fopen("moved", "w")) == 0, "tell rank 0");
    return fails;
}

/* Under yod -chroot: OUT is outside, by its Linux path. */
static int do_escape(const char *out)
{
    char path[600], buf[64] = "";
    struct stat st;
    int fd;

    if (rank != lwk_size() - 1)
        return 0;               /* the last rank alone: it moves DIR's files */
    fd = open("/in.txt", O_RDONLY);
    check(fd >= 3 && read(fd, buf, sizeof(buf) - 1) > 0 &&
          !strncmp(buf, "inside", 6) && close(fd) == 0, "/in.txt is DIR's");
    snprintf(path, sizeof(path), "%s/secret.txt", out);
    fails_with(open(path, O_RDONLY), ENOENT, "open OUT/secret.txt");
    fails_with(stat(path, &st), ENOENT, "stat OUT/secret.txt");
    fails_with(open("../secret.txt", O_RDONLY), ENOENT, "open ../secret.txt");
    fails_with(open("/../../secret.txt", O_RDONLY), ENOENT,
               "open /../../secret.txt");
    fails_with(open("sub/../../../secret.txt", O_RDONLY), ENOENT,
               "open sub/../../../secret.txt");
    fails_with(open("abs/secret.txt", O_RDONLY), ENOENT,
               "open abs/secret.txt (abs -> OUT)");
    fails_with(open("up/secret.txt", O_RDONLY), ENOENT,
               "open up/secret.txt (up -> ..)");
    fails_with(access("../secret.txt", F_OK), ENOENT, "access ../secret.txt");
    fails_with(unlink("../secret.txt"), ENOENT, "unlink ../secret.txt");
    fails_with(chdir("abs"), ENOENT, "chdir abs");
    check(lstat("abs", &st) == 0 && S_ISLNK(st.st_mode), "lstat abs: a link");
    check(rename("in.txt", "../../moved.txt") == 0, "rename to ../../moved.txt");
    check(link("moved.txt", "up/linked.txt") == 0, "link to up/linked.txt");
    fd = open("../../escaped.txt", O_CREAT | O_WRONLY, 0644);
    check(fd >= 3 && close(fd) == 0, "create ../../escaped.txt");
    check(mkdir("/../newdir", 0755) == 0, "mkdir /../newdir");
    check(chdir("sub") == 0 && chdir("../../..") == 0, "chdir sub, ../../..");
    check(getcwd(path, sizeof(path)) && !strcmp(path, "/"), "getcwd: /");
    printf("cwd %s\n", path);
    return fails;
}

static int do_host(const char *dir, const char *dev)
{
    static const char *const hosts[] = {
        "/proc/self/environ", "/proc/cpuinfo", "/proc", "/sys",
        "/sys/devices/system/cpu/online", "/proc/self/fd/0", "/dev/fd/0",
        "../../../../../../../../../../proc/meminfo", "%s/proc/status",
        "%s/cpu/online", "%s/in", "%s",
    };
    char path[600], buf[8] = "x";
    struct stat st;
    int fd;

    for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
        char what[700];

        snprintf(path, sizeof(path), hosts[i], i + 1 < sizeof(hosts) /
                 sizeof(hosts[0]) ? dir : dev);
        snprintf(what, sizeof(what), "open %s", path);
        fails_with(open(path, O_RDONLY), ENOENT, what);
        snprintf(what, sizeof(what), "stat %s", path);
        fails_with(stat(path, &st), ENOENT, what);
    }
    fails_with(access("/proc/self/status", F_OK), ENOENT, "access /proc/...");
    fails_with(chdir("/proc"), ENOENT, "chdir /proc");
    fails_with(rename("/proc/self/comm", "comm"), ENOENT, "rename /proc/...");
    fd = open("/dev/null", O_RDWR);
    check(fd >= 3 && read(fd, buf, 1) == 0 && write(fd, "y", 1) == 1 &&
          close(fd) == 0, "/dev/null is there");
    fd = open("/dev/zero", O_RDONLY);
    check(fd >= 3 && read(fd, buf, 1) == 1 && buf[0] == 0 && close(fd) == 0,
          "/dev/zero is there");
    snprintf(path, sizeof(path), "%s/proc", dir);
    check(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "DIR/proc is a link");
    return fails;
}

static int do_errors(const char *dir)
{
    char path[600], *longp;
    int fd;

    fails_with(open("missing-file", O_RDONLY), ENOENT, "open missing");
    fails_with(open(dir, O_WRONLY), EISDIR, "open dir for writing");
    snprintf(path, sizeof(path), "%s/file", dir);
    fd = open(path, O_CREAT | O_WRONLY, 0644);
    check(fd >= 3, "create file");
    fails_with(open(path, O_CREAT | O_EXCL | O_WRONLY, 0644), EEXIST,
               "open O_EXCL existing");
    fails_with(mkdir(dir, 0755), EEXIST, "mkdir existing");
    snprintf(path, sizeof(path), "%s/file/x", dir);
    fails_with(open(path, O_RDONLY), ENOTDIR, "open under a file");
    fails_with(rmdir(dir), ENOTEMPTY, "rmdir not empty");
    fails_with(unlink("missing-file"), ENOENT, "unlink missing");
    fails_with(read(42, path, 1), EBADF, "read bad fd");
    fails_with(close(42), EBADF, "close bad fd");
    fails_with((int)write(fd, (void *)0x10, 100), EFAULT, "write bad buffer");
    fails_with((int)read(fd, (void *)0x10, 100), EFAULT, "read bad buffer");
    fails_with((int)lseek(fd, 0, 7), EINVAL, "lseek bad whence");
    fails_with(chdir(path), ENOTDIR, "chdir under a file");
    longp = malloc(5000);
    memset(longp, 'a', 4999);
    longp[4999] = 0;
    fails_with(open(longp, O_RDONLY), ENAMETOOLONG, "path too long");
    close(fd);
    return fails;
}

/* Open n files and keep them; rank 0 then waits for DIR/go, the others
   end at once (yod must close their files when they end). */
static int do_hold(const char *dir, int n)
{
    char path[600];

    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/h.%ld.%d", dir, rank, i);
        check_quiet(open(path, O_CREAT | O_WRONLY, 0644) >= 3);
    }
    printf("rank %ld holds %d files\n", rank, n);
    fflush(stdout);
    if (rank == 0) {
        snprintf(path, sizeof(path), "%s/go", dir);
        check(wait_for(path) == 0, "go");
    }
    return fails;
}

static int do_create(const char *path)
{
    FILE *f = fopen(path, "w");

    if (!f) {
        fprintf(stderr, "iotest: cannot create %s: %s\n", path,
                strerror(errno));
        return 3;
    }
    fprintf(f, "created by rank %ld\n", rank);
    return fclose(f) == 0 ? 0 : 4;
}

/* Read stdin to its end, or its first `most` bytes (most < 0: all), a
   chunk at a time: input of any size is counted and checked. */
static int do_stdin(long most)
{
    static unsigned char buf[1 << 16];
    char line[128] = "";
    size_t n = 0, ln = 0, want;
    uint32_t crc = 0;
    long r = 0;

    for (;;) {
        want = sizeof(buf);
        if (most >= 0 && (size_t)most - n < want)
            want = (size_t)most - n;
        if (!want || (r = read(0, buf, want)) <= 0)
            break;
        for (long i = 0; i < r && ln < sizeof(line) - 1 &&
                         !memchr(line, '\n', ln); i++)
            line[ln++] = (char)buf[i];
        crc = crc32(crc, buf, (size_t)r);
        n += (size_t)r;
    }
    check(r >= 0, most < 0 ? "read stdin to its end" : "read stdin");
    line[strcspn(line, "\n")] = 0;
    printf("rank %ld stdin: %zu bytes crc32 %08lx first line '%s'\n", rank,
           n, (unsigned long)crc, line);
    return fails;
}

/* Forwarded bandwidth: one write of n bytes, one read back. */
static int do_bw(size_t n)
{
    char path[64], *b = pattern(n, rank), *c = malloc(n);
    double t0, t1, t2;
    int fd;

    snprintf(path, sizeof(path), "bw.%ld", rank);
    fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    t0 = now();
    check(write(fd, b, n) == (long)n, "write");
    t1 = now();
    lseek(fd, 0, SEEK_SET);
    check(read(fd, c, n) == (long)n && !memcmp(b, c, n), "read back");
    t2 = now();
    close(fd);
    unlink(path);
    printf("bw %zu bytes: write %.1f MB/s (%.3f s), read %.1f MB/s "
           "(%.3f s)\n", n, n / (t1 - t0) / 1e6, t1 - t0,
           n / (t2 - t1) / 1e6, t2 - t1);
    return fails;
}

/* Round trip of a small forwarded call (stat). */
static int do_lat(int n)
{
    struct stat st;
    double t0 = now();

    for (int i = 0; i < n; i++)
        check_quiet(stat(".", &st) == 0);
    printf("stat round trip: %.0f us (%d calls)\n", (now() - t0) / n * 1e6,
           n);
    return fails;
}

/* ---- acknowledged writes, one by one ------------------------------------------ */

static int do_chunks(const char *name, size_t chunk, long count)
{
    char path[64], *b = pattern(chunk + 251, rank);     /* the period */
    int fd;

    snprintf(path, sizeof(path), "%s.%ld", name, rank);
    if (!b || (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
        printf("rank %ld cannot create %s: %s\n", rank, path,
               strerror(errno));
        return 3;
    }
    for (long k = 0; k < count; k++) {
        const char *p = b + (size_t)k * chunk % 251;
        size_t done = 0;
        ssize_t n = 0;

        /* A short write (a disk full in the middle of the chunk) is
           followed by one of the rest, as programs do: its error is
           that call's (ENOSPC), whichever rank filled the disk. */
        while (done < chunk && (n = write(fd, p + done, chunk - done)) > 0)
            done += (size_t)n;
        if (done != chunk) {
            printf("rank %ld write %ld: %s\n", rank, k + 1,
                   n < 0 ? strerror(errno) : "short");
            return 4;
        }
        printf("rank %ld acked %ld\n", rank, k + 1);
    }
    return close(fd) == 0 ? 0 : 5;
}

int main(int argc, char **argv)
{
    rank = lwk_rank();
    if (argc == 5 && !strcmp(argv[1], "write") && rank == lwk_size() - 1)
        return do_ticks(atoi(argv[4]));
    if ((argc == 4 || argc == 5) && !strcmp(argv[1], "write"))
        return do_write(argv[2], strtoul(argv[3], NULL, 0) + 1001 * rank);
    if (argc == 3 && !strcmp(argv[1], "read"))
        return do_read(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "ops"))
        return do_ops(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "cwd"))
        return do_cwd(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "errors"))
        return do_errors(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "hold"))
        return do_hold(argv[2], atoi(argv[3]));
    if (argc == 3 && !strcmp(argv[1], "create"))
        return do_create(argv[2]);
    if ((argc == 2 || argc == 3) && !strcmp(argv[1], "stdin"))
        return do_stdin(argc == 3 ? atol(argv[2]) : -1);
    if (argc == 2 && !strcmp(argv[1], "garbage"))
        return do_garbage();
    if (argc == 4 && !strcmp(argv[1], "host"))
        return do_host(argv[2], argv[3]);
    if (argc == 3 && !strcmp(argv[1], "escape"))
        return do_escape(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "lat"))
        return do_lat(atoi(argv[2]));
    if (argc == 5 && !strcmp(argv[1], "chunks"))
        return do_chunks(argv[2], strtoul(argv[3], NULL, 0), atol(argv[4]));
    if (argc == 3 && !strcmp(argv[1], "bw"))
        return do_bw(strtoul(argv[2], NULL, 0));
    fprintf(stderr, "usage: iotest write|read|ops|cwd|errors|hold|create|"
            "stdin|bw|lat ...\n");
    return 2;
}
