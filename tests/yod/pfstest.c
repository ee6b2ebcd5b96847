/* SPDX-License-Identifier: MIT */
/*
 * pfstest: a compute-node program for tests/qemu/suite-io's striped
 * files (yod -pfs DIR; docs/io.md, PFS).  Every check prints "ok WHAT"
 * or "FAIL WHAT: why"; the exit status is the number of failures.
 *
 *   pfstest write FILE BS NB [FACTOR UNIT]
 *                  every rank opens /pfs/FILE with O_CREAT (one creates
 *                  it, with FACTOR stripes of UNIT bytes; the others
 *                  open it) and writes its NB blocks of BS bytes: block
 *                  b of rank r at (b * size + r) * BS, even blocks by
 *                  lseek and write, odd ones by pwrite
 *   pfstest read FILE BS NB
 *                  rank r reads rank r+1's blocks (read and pread, as
 *                  written) and checks every byte and the file's size;
 *                  then reads across the end (a short read) and past it
 *                  (0 bytes)
 *   pfstest race NAME
 *                  every rank at once: O_CREAT|O_EXCL of /pfs/NAME.x
 *                  ("excl won" from exactly one), O_CREAT of /pfs/NAME.s
 *                  (all succeed, one layout), unlink of /pfs/NAME.x
 *                  ("unlink won" from exactly one), its own
 *                  /pfs/NAME.R written and renamed to /pfs/NAME.R.done,
 *                  its size by stat, its hole read as zeros, ftruncate
 *                  down and up
 *   pfstest errors NAME
 *                  bad layouts (EINVAL), paths not under /pfs (ENOENT),
 *                  a hard link (EPERM), a rename out of /pfs (EXDEV),
 *                  the store (EACCES), the layout of a plain fd (EINVAL)
 *
 * byte(o) = (o % 251 + o / 4096) & 255 at logical offset o: a prime
 * period and a slow drift, so a piece landing at the wrong offset or in
 * the wrong stripe shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lwk/pfs.h>

static int fails, rank, size;

static void ok(int cond, const char *what, const char *why)
{
    if (cond) {
        printf("rank %d: ok %s\n", rank, what);
    } else {
        printf("rank %d: FAIL %s: %s\n", rank, what, why);
        fails++;
    }
}

static unsigned char byte(long long o)
{
    return (unsigned char)((o % 251 + o / 4096) & 255);
}

static void fill(unsigned char *p, long long at, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = byte(at + (long long)i);
}

/* The first offset in p (n bytes, from logical `at`) that is wrong, -1. */
static long long wrong(const unsigned char *p, long long at, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != byte(at + (long long)i))
            return at + (long long)i;
    return -1;
}

static void path(char *buf, size_t len, const char *name, const char *sfx)
{
    snprintf(buf, len, "/pfs/%s%s", name, sfx);
}

/* All of n bytes at `at` by pwrite, the rest again after a short one;
   the bytes written, or -1 (errno) at the first that fails. */
static ssize_t write_at(int fd, const unsigned char *p, size_t n,
                        long long at)
{
    size_t done = 0;

    while (done < n) {
        ssize_t k = pwrite(fd, p + done, n - done, at + (long long)done);
        if (k <= 0)
            return -1;
        done += (size_t)k;
    }
    return (ssize_t)done;
}

/* The same by lseek and write. */
static ssize_t write_here(int fd, const unsigned char *p, size_t n,
                          long long at)
{
    size_t done = 0;

    if (lseek(fd, at, SEEK_SET) != at)
        return -1;
    while (done < n) {
        ssize_t k = write(fd, p + done, n - done);
        if (k <= 0)
            return -1;
        done += (size_t)k;
    }
    return (ssize_t)done;
}

static int do_write(const char *name, size_t bs, int nb, unsigned factor,
                    size_t unit)
{
    unsigned char *buf = malloc(bs);
    char p[256], why[160];
    int fd;

    path(p, sizeof(p), name, "");
    fd = lwk_pfs_open(p, O_WRONLY | O_CREAT, 0644, factor, unit);
    snprintf(why, sizeof(why), "%s", strerror(errno));
    ok(fd >= 0 && buf, "open", why);
    if (fd < 0 || !buf)
        return fails;
    for (int b = 0; b < nb; b++) {
        long long at = ((long long)b * size + rank) * (long long)bs;
        ssize_t n;

        fill(buf, at, bs);
        n = b % 2 ? write_at(fd, buf, bs, at) : write_here(fd, buf, bs, at);
        if (n != (ssize_t)bs) {
            snprintf(why, sizeof(why), "block %d: %zd of %zu: %s", b, n, bs,
                     strerror(errno));
            ok(0, "write", why);
        }
    }
    if (!(nb % 2))              /* the fd's offset moved past the last */
        ok(lseek(fd, 0, SEEK_CUR) ==
           ((long long)(nb - 2) * size + rank + 1) * (long long)bs,
           "offset after write", "wrong");
    ok(close(fd) == 0, "close", strerror(errno));
    printf("rank %d: wrote %d blocks\n", rank, nb);
    free(buf);
    return fails;
}

static int do_read(const char *name, size_t bs, int nb)
{
    unsigned char *buf = malloc(bs + 1000);
    long long total = (long long)bs * nb * size, bad;
    int other = (rank + 1) % size, fd;
    char p[256], why[160];
    struct stat st;
    unsigned factor = 0;
    size_t unit = 0;
    ssize_t n;

    path(p, sizeof(p), name, "");
    fd = open(p, O_RDONLY);
    ok(fd >= 0 && buf, "open", strerror(errno));
    if (fd < 0 || !buf)
        return fails;
    ok(lwk_pfs_layout(fd, &factor, &unit) == 0, "layout", strerror(errno));
    printf("rank %d: layout factor %u unit %zu\n", rank, factor, unit);
    snprintf(why, sizeof(why), "%lld, not %lld", (long long)st.st_size, total);
    ok(fstat(fd, &st) == 0 && st.st_size == total, "fstat size", why);
    ok(stat(p, &st) == 0 && st.st_size == total, "stat size", why);
    for (int b = 0; b < nb; b++) {
        long long at = ((long long)b * size + other) * (long long)bs;

        memset(buf, 0xee, bs);
        if (b % 2)
            n = pread(fd, buf, bs, at);
        else
            n = lseek(fd, at, SEEK_SET) == at ? read(fd, buf, bs) : -1;
        bad = n == (ssize_t)bs ? wrong(buf, at, bs) : at;
        snprintf(why, sizeof(why), "block %d of rank %d: %zd bytes, first "
                 "wrong byte at %lld", b, other, n, bad);
        if (n != (ssize_t)bs || bad >= 0)
            ok(0, "read", why);
    }
    printf("rank %d: read %d blocks of rank %d\n", rank, nb, other);
    n = pread(fd, buf, bs + 1000, total - 100);
    ok(n == 100 && wrong(buf, total - 100, 100) < 0, "read across the end",
       "not the last 100 bytes");
    n = lseek(fd, 0, SEEK_END) == total ? read(fd, buf, bs) : -1;
    ok(n == 0, "read at the end", "not 0");
    ok(pread(fd, buf, 10, total + 12345) == 0, "read past the end", "not 0");
    close(fd);
    free(buf);
    return fails;
}

/* Every rank here: each makes its /pfs/NAME.b.R, then waits to see
   them all (no MPI in this program; the file system is the channel). */
static void barrier(const char *name)
{
    char p[256];
    int fd, seen = 0;

    snprintf(p, sizeof(p), "/pfs/%s.b.%d", name, rank);
    if ((fd = open(p, O_WRONLY | O_CREAT, 0644)) >= 0)
        close(fd);
    for (int tries = 0; tries < 3000 && seen < size; tries++) {
        seen = 0;
        for (int r = 0; r < size; r++) {
            snprintf(p, sizeof(p), "/pfs/%s.b.%d", name, r);
            seen += access(p, F_OK) == 0;
        }
        if (seen < size)
            usleep(20000);
    }
    ok(seen == size, "barrier", "not every rank came");
}

/* The file do_race wrote (20 bytes, a hole, "z" at 3 * 8192 + 5, over
   2 stripes of 8 KiB): the hole reads as zeros, by pieces; ftruncate
   down and up sets the size, and what was cut reads as zeros after. */
static void holes(const char *p)
{
    static char buf[3 * 8192 + 6];
    int fd = open(p, O_RDWR), zeros = 1;
    struct stat st;

    ok(fd >= 0 && read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf),
       "read over a hole", strerror(errno));
    for (size_t i = 20; i < sizeof(buf) - 1; i++)
        zeros &= buf[i] == 0;
    ok(!memcmp(buf, "0123456789abcdefghij", 20) && zeros &&
       buf[sizeof(buf) - 1] == 'z', "the hole is zeros", "other bytes");
    ok(ftruncate(fd, 10) == 0 && fstat(fd, &st) == 0 && st.st_size == 10 &&
       ftruncate(fd, 20000) == 0 && fstat(fd, &st) == 0 &&
       st.st_size == 20000 && pread(fd, buf, 20, 0) == 20 &&
       !memcmp(buf, "0123456789\0\0\0\0\0\0\0\0\0\0", 20),
       "ftruncate", strerror(errno));
    if (fd >= 0)
        close(fd);
}

static int do_race(const char *name)
{
    char x[256], s[256], own[256], done[256], why[160];
    unsigned f0 = 0, f1 = 0;
    size_t u0 = 0;
    struct stat st;
    int fd;

    path(x, sizeof(x), name, ".x");
    path(s, sizeof(s), name, ".s");
    fd = open(x, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        printf("rank %d: excl won\n", rank);
        close(fd);
    } else {
        ok(errno == EEXIST, "excl lost with EEXIST", strerror(errno));
    }
    fd = open(s, O_RDWR | O_CREAT, 0644);
    ok(fd >= 0, "create-open", strerror(errno));
    if (fd >= 0 && lwk_pfs_layout(fd, &f0, &u0) == 0)
        printf("rank %d: shared factor %u unit %zu\n", rank, f0, u0);
    if (fd >= 0)
        close(fd);
    barrier(name);              /* every O_EXCL tried: one file to unlink */
    if (unlink(x) == 0)
        printf("rank %d: unlink won\n", rank);
    else
        ok(errno == ENOENT, "unlink lost with ENOENT", strerror(errno));
    snprintf(own, sizeof(own), "/pfs/%s.%d", name, rank);
    snprintf(done, sizeof(done), "/pfs/%s.%d.done", name, rank);
    fd = lwk_pfs_open(own, O_WRONLY | O_TRUNC, 0644, 2, 8192);
    ok(fd >= 0 && write(fd, "0123456789abcdefghij", 20) == 20 &&
       lseek(fd, 3 * 8192 + 5, SEEK_SET) > 0 && write(fd, "z", 1) == 1 &&
       lwk_pfs_layout(fd, &f1, &u0) == 0 && f1 == 2 && u0 == 8192 &&
       close(fd) == 0, "own file", strerror(errno));
    ok(rename(own, done) == 0, "rename", strerror(errno));
    snprintf(why, sizeof(why), "%lld", (long long)st.st_size);
    ok(stat(done, &st) == 0 && st.st_size == 3 * 8192 + 6 &&
       stat(own, &st) < 0 && errno == ENOENT, "stat after rename", why);
    holes(done);
    return fails;
}

static int do_errors(const char *name)
{
    char p[256];
    unsigned f;
    size_t u;
    int fd;

    path(p, sizeof(p), name, ".e");
    errno = 0;
    ok(lwk_pfs_open(p, O_WRONLY, 0644, 65, 0) < 0 && errno == EINVAL,
       "factor 65 EINVAL", strerror(errno));
    ok(lwk_pfs_open(p, O_WRONLY, 0644, 2, 1000) < 0 && errno == EINVAL,
       "unit 1000 EINVAL", strerror(errno));
    ok(lwk_pfs_open("plain.e", O_WRONLY, 0644, 2, 0) < 0 && errno == ENOENT,
       "not under /pfs ENOENT", strerror(errno));
    fd = lwk_pfs_open(p, O_WRONLY | O_EXCL, 0600, 3, 65536);
    ok(fd >= 0 && close(fd) == 0, "create with a layout", strerror(errno));
    ok(lwk_pfs_open(p, O_WRONLY | O_EXCL, 0600, 3, 65536) < 0 &&
       errno == EEXIST, "O_EXCL again EEXIST", strerror(errno));
    ok(link(p, "/pfs/linked.e") < 0 && errno == EPERM, "link EPERM",
       strerror(errno));
    ok(rename(p, "outside.e") < 0 && errno == EXDEV, "rename out EXDEV",
       strerror(errno));
    ok(open("/pfs/.pfs/0/x", O_RDONLY) < 0 && errno == EACCES,
       "the store EACCES", strerror(errno));
    fd = open("plain.e", O_WRONLY | O_CREAT, 0644);
    ok(fd >= 0 && lwk_pfs_layout(fd, &f, &u) < 0 && errno == EINVAL,
       "layout of a plain file EINVAL", strerror(errno));
    if (fd >= 0)
        close(fd);
    unlink("plain.e");
    ok(unlink(p) == 0 && open(p, O_RDONLY) < 0 && errno == ENOENT,
       "unlink", strerror(errno));
    return fails;
}

int main(int argc, char **argv)
{
    const char *r = getenv("PTL_JOB_RANK"), *s = getenv("PTL_JOB_SIZE");

    rank = r ? atoi(r) : 0;
    size = s ? atoi(s) : 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 5 && !strcmp(argv[1], "write"))
        return do_write(argv[2], strtoul(argv[3], NULL, 0), atoi(argv[4]),
                        argc > 5 ? (unsigned)atoi(argv[5]) : 0,
                        argc > 6 ? strtoul(argv[6], NULL, 0) : 0);
    if (argc == 5 && !strcmp(argv[1], "read"))
        return do_read(argv[2], strtoul(argv[3], NULL, 0), atoi(argv[4]));
    if (argc == 3 && !strcmp(argv[1], "race"))
        return do_race(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "errors"))
        return do_errors(argv[2]);
    fprintf(stderr, "usage: pfstest write FILE BS NB [FACTOR UNIT] | read "
            "FILE BS NB | race NAME | errors NAME\n");
    return 2;
}
