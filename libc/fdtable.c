/* SPDX-License-Identifier: MIT */
/*
 * fdtable.c: a program's file descriptors over lwk_io's (io.c).  The
 * table under lwk_io (the console's, or yod's: a rank's open files) has
 * its own numbers; the program's map onto them here, so dup, dup2, dup3
 * and fcntl(F_DUPFD) need no request to yod: two program fds on one of
 * lwk_io's share its offset, as Linux's duplicates share their open file,
 * and lwk_io's fd is closed when the last program fd on it is.  The Linux
 * personality keeps the same kind of table for its programs
 * (lxrt/rt_fd.c), which call lwk_io directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "libc_internal.h"

#define NFD     64              /* yod's limit per rank (yod/filecalls.h) */

static struct {
    signed char io[NFD];        /* program fd -> lwk_io's; -1: not open */
    unsigned char refs[NFD];    /* program fds on each of lwk_io's */
    int ready;
} T;

static void init(void)
{
    if (T.ready)
        return;
    for (int i = 0; i < NFD; i++)
        T.io[i] = i <= 2 ? (signed char)i : -1;
    T.refs[0] = T.refs[1] = T.refs[2] = 1;
    T.ready = 1;
}

int lwk_fd(int fd)
{
    init();
    return fd >= 0 && fd < NFD ? T.io[fd] : -1;
}

/* The lowest free program fd from `from`, now naming lwk_io's y. */
static long take(long from, int y)
{
    for (long fd = from < 0 ? 0 : from; fd < NFD; fd++)
        if (T.io[fd] < 0) {
            T.io[fd] = (signed char)y;
            T.refs[y]++;
            return fd;
        }
    return -EMFILE;
}

long lwk_fd_opened(long y)
{
    long fd;

    init();
    if (y < 0 || y >= NFD)
        return y < 0 ? y : -EMFILE;
    if ((fd = take(0, (int)y)) < 0)
        lwk_io->close((int)y);
    return fd;
}

long lwk_fd_close(int fd)
{
    int y = lwk_fd(fd);

    if (y < 0)
        return -EBADF;
    T.io[fd] = -1;
    return --T.refs[y] ? 0 : lwk_io->close(y);
}

long lwk_fd_dup(int fd, long from)
{
    int y = lwk_fd(fd);

    if (y < 0)
        return -EBADF;
    return from < 0 || from >= NFD ? -EINVAL : take(from, y);
}

int dup(int fd)
{
    long r;

    lwk_lock(&lwk_io_lock);
    r = lwk_fd_dup(fd, 0);
    lwk_unlock(&lwk_io_lock);
    return (int)lwk_ret(r);
}

/* fd2 is closed first, quietly; dup2(fd, fd) is fd if it is open. */
static long dup2_locked(int fd, int fd2)
{
    if (lwk_fd(fd) < 0)
        return -EBADF;
    if (fd == fd2)
        return fd;
    if (fd2 < 0 || fd2 >= NFD)
        return -EBADF;
    lwk_fd_close(fd2);
    return take(fd2, lwk_fd(fd));
}

int dup2(int fd, int fd2)
{
    long r;

    lwk_lock(&lwk_io_lock);
    r = dup2_locked(fd, fd2);
    lwk_unlock(&lwk_io_lock);
    return (int)lwk_ret(r);
}

/* Nothing is ever exec'd on a node: O_CLOEXEC changes nothing. */
int dup3(int fd, int fd2, int flags)
{
    if (fd == fd2 || (flags & ~O_CLOEXEC))
        return lwk_fail(EINVAL);
    return dup2(fd, fd2);
}
