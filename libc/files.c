/* SPDX-License-Identifier: MIT */
/*
 * files.c: the file calls built on the ones yod serves (io.c's table):
 * creat, openat on the working directory, truncate, pread and pwrite
 * (under yod one request at the offset; else seek, move, seek back), realpath,
 * fdatasync and sync; and those a node cannot do, failing at once:
 * changing owners, modes and times, links that are symbolic, FIFOs
 * (ENOSYS: yod serves none of them); ioctl (ENOTTY: no descriptor is a
 * terminal that answers); poll and select, which only sleep: a node
 * program's descriptors are read by request, not watched (ENOSYS with
 * any descriptor).  umask is kept and reported; yod creates files with
 * its own (the user's).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "libc_internal.h"

int creat(const char *path, mode_t mode)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

/* Only relative to the working directory (AT_FDCWD) or by an absolute
   path: yod keeps no directory descriptors to start from. */
int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    int mode = 0;

    if (flags & O_CREAT) {
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    if (dirfd != AT_FDCWD && path[0] != '/')
        return lwk_fail(ENOSYS);
    return open(path, flags, mode);
}

int truncate(const char *path, off_t len)
{
    int fd = open(path, O_WRONLY), rc, err;

    if (fd < 0)
        return -1;
    rc = ftruncate(fd, len);
    err = errno;
    close(fd);
    errno = err;
    return rc;
}

int fdatasync(int fd)
{
    return fsync(fd);
}

/* Every write reached yod before it returned: nothing is buffered here. */
void sync(void)
{
}

/* pread(2) (wr 0) or pwrite(2) of lwk_io's fd y at `off`, the fd's
   offset untouched: when yod serves y (`yod`; not 0..2, its streams) one
   PREAD or PWRITE request, so another thread's read(2) of the fd
   meanwhile is not disturbed; else (the console's fds, a program
   without yod, the Linux personality's node files) seek there, move,
   seek back: ESPIPE or EBADF from the seek.  The Linux personality's
   pread64 and preadv too (lxrt/rt_file.c).  lwk_io_lock held. */
long lwk_pio(int yod, int wr, int y, void *buf, size_t len, long long off)
{
    long here, rc;

    if (y < 0)
        return -EBADF;
    if (off < 0)
        return -EINVAL;
    if (yod && y > 2)
        return lwk_yod_pio(wr, y, buf, len, off);
    if ((here = lwk_io->lseek(y, 0, SEEK_CUR)) < 0)
        return here;
    if ((rc = lwk_io->lseek(y, (long)off, SEEK_SET)) < 0)
        return rc;
    rc = wr ? lwk_io->write(y, buf, len) : lwk_io->read(y, buf, len);
    lwk_io->lseek(y, here, SEEK_SET);
    return rc;
}

static ssize_t at_offset(int fd, void *buf, size_t len, off_t off, int wr)
{
    long rc;

    lwk_lock(&lwk_io_lock);
    rc = lwk_pio(lwk_io == &lwk_io_yod, wr, lwk_fd(fd), buf, len, off);
    lwk_unlock(&lwk_io_lock);
    return lwk_ret(rc);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
    return at_offset(fd, buf, len, off, 0);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
    return at_offset(fd, (void *)buf, len, off, 1);
}

/* ---- realpath ------------------------------------------------------------- */

/* Drop "." and "" and resolve ".." in the absolute path p, in place. */
static void normalize(char *p)
{
    char *out = p, *in = p;

    while (*in) {
        char *end;
        size_t n;

        while (*in == '/')
            in++;
        end = strchr(in, '/');
        n = end ? (size_t)(end - in) : strlen(in);
        if (n == 2 && in[0] == '.' && in[1] == '.') {
            while (out > p && *--out != '/')
                ;
        } else if (n && !(n == 1 && in[0] == '.')) {
            *out++ = '/';
            memmove(out, in, n);
            out += n;
        }
        in += n;
    }
    if (out == p)
        *out++ = '/';
    *out = 0;
}

/* The absolute path with no "." or ".." that names what path names.  yod
   does not read symbolic links for a rank, so a path through one fails
   (ENOSYS) rather than be given with the link in it. */
char *realpath(const char *path, char *resolved)
{
    char buf[PATH_MAX], *p;
    struct stat st;
    size_t n = 0;

    if (!path)
        return errno = EINVAL, NULL;
    if (!path[0])
        return errno = ENOENT, NULL;
    if (path[0] != '/') {
        if (!getcwd(buf, sizeof(buf)))
            return NULL;
        n = strlen(buf);
    }
    if (n + 1 + strlen(path) >= sizeof(buf))
        return errno = ENAMETOOLONG, NULL;
    buf[n] = '/';
    strcpy(buf + n + 1, path);
    normalize(buf);
    for (p = buf + 1;; p++) {           /* every prefix, then the whole */
        if (*p && *p != '/')
            continue;
        char c = *p;
        *p = 0;
        if (lstat(buf, &st) < 0)
            return NULL;
        if (S_ISLNK(st.st_mode))
            return errno = ENOSYS, NULL;
        if (c && !S_ISDIR(st.st_mode))
            return errno = ENOTDIR, NULL;
        if (!(*p = c))
            break;
    }
    if (!resolved && !(resolved = malloc(PATH_MAX)))
        return errno = ENOMEM, NULL;
    return strcpy(resolved, buf);
}

/* ---- what yod does not serve ------------------------------------------ */

static mode_t mask = 022;

mode_t umask(mode_t m)
{
    mode_t old = mask;

    mask = m & 0777;
    return old;
}

int chmod(const char *path, mode_t mode)
{
    (void)path, (void)mode;
    return lwk_fail(ENOSYS);
}

int fchmod(int fd, mode_t mode)
{
    (void)fd, (void)mode;
    return lwk_fail(ENOSYS);
}

int chown(const char *path, uid_t uid, gid_t gid)
{
    (void)path, (void)uid, (void)gid;
    return lwk_fail(ENOSYS);
}

int fchown(int fd, uid_t uid, gid_t gid)
{
    (void)fd, (void)uid, (void)gid;
    return lwk_fail(ENOSYS);
}

int lchown(const char *path, uid_t uid, gid_t gid)
{
    return chown(path, uid, gid);
}

int symlink(const char *target, const char *path)
{
    (void)target, (void)path;
    return lwk_fail(ENOSYS);
}

ssize_t readlink(const char *path, char *buf, size_t len)
{
    (void)path, (void)buf, (void)len;
    return lwk_fail(ENOSYS);
}

int mkfifo(const char *path, mode_t mode)
{
    (void)path, (void)mode;
    return lwk_fail(ENOSYS);
}

int utime(const char *path, const struct utimbuf *times)
{
    (void)path, (void)times;
    return lwk_fail(ENOSYS);
}

int utimes(const char *path, const struct timeval *times)
{
    (void)path, (void)times;
    return lwk_fail(ENOSYS);
}

/* Advice: taken, changes nothing. */
int posix_fadvise(int fd, off_t off, off_t len, int advice)
{
    (void)fd, (void)off, (void)len, (void)advice;
    return 0;
}

/* A descriptor that is open is not a terminal that answers requests. */
int ioctl(int fd, unsigned long request, ...)
{
    struct stat st;

    (void)request;
    return fstat(fd, &st) < 0 ? -1 : lwk_fail(ENOTTY);
}

char *ttyname(int fd)
{
    struct stat st;

    errno = fstat(fd, &st) < 0 ? EBADF : ENOSYS;
    return NULL;
}

/* ---- poll and select: sleeps ---------------------------------------- */

static int sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

    return nanosleep(&t, NULL) < 0 ? -1 : 0;
}

int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
    (void)fds;
    if (n || timeout_ms < 0)    /* or a wait for a signal that never comes */
        return lwk_fail(ENOSYS);
    return sleep_ms(timeout_ms);
}

static int any_set(int n, const fd_set *s)
{
    for (int fd = 0; s && fd < n; fd++)
        if (FD_ISSET(fd, s))
            return 1;
    return 0;
}

int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
    if (n < 0 || n > FD_SETSIZE)
        return lwk_fail(EINVAL);
    if (any_set(n, r) || any_set(n, w) || any_set(n, e) || !tv)
        return lwk_fail(ENOSYS);
    return sleep_ms(tv->tv_sec * 1000 + tv->tv_usec / 1000);
}
