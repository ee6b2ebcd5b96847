/* SPDX-License-Identifier: MIT */
/*
 * rt_fd.c: a Linux program's file descriptors.  yod knows a rank's open
 * files (0..2 and what it opened, lwk_io's fds); the program's numbers
 * map onto them here, so dup, dup2, dup3 and fcntl(F_DUPFD) need no yod
 * request: two program fds on one yod fd share its offset, as Linux's
 * duplicates share their open file.  yod's fd is closed when the last
 * program fd on it is.  Close-on-exec is kept per program fd (nothing is
 * ever exec'd on a node, but F_GETFD must say what F_SETFD set).  A
 * handle from LX_NODE_H up is a file of the node's own (rt_proc.c: /proc,
 * /sys), answered in the runtime.  Opening /dev/fd/N of a standard stream
 * gives N's handle again, as a dup does.
 */
#include "libc_internal.h"
#include "rt.h"

#define NFD     LX_NFD          /* yod's limit per rank (yod/filecalls.h) */

static struct {
    signed char yod[NFD];       /* program fd -> handle; -1: not open */
    unsigned char cloexec[NFD];
    unsigned char refs[LX_NODE_H + NFD];    /* program fds on each handle */
    int ready;
} T;

static void init(void)
{
    if (T.ready)
        return;
    for (int i = 0; i < NFD; i++)
        T.yod[i] = i <= 2 ? (signed char)i : -1;
    T.refs[0] = T.refs[1] = T.refs[2] = 1;
    T.ready = 1;
}

int lx_fd(long fd)
{
    init();
    return fd >= 0 && fd < NFD ? T.yod[fd] : -1;
}

/* The lowest free program fd from `from`, now naming yod's fd y. */
static long take(long from, int y, int cloexec)
{
    for (long fd = from < 0 ? 0 : from; fd < NFD; fd++)
        if (T.yod[fd] < 0) {
            T.yod[fd] = (signed char)y;
            T.cloexec[fd] = (unsigned char)cloexec;
            T.refs[y]++;
            return fd;
        }
    return -LX_EMFILE;
}

/* y was opened for the program (or is another fd's handle): give it a
   number, or close it again if nothing else names it. */
long lx_fd_opened(long y, int cloexec)
{
    long fd;

    init();
    if (y < 0 || y >= LX_NODE_H + NFD)
        return y < 0 ? lx_err(y) : -LX_EMFILE;
    if ((fd = take(0, (int)y, cloexec)) < 0 && !T.refs[y])
        lwk_io->close((int)y);
    return fd;
}

long lx_close(LX_ARGS)
{
    int y = lx_fd(a0);

    if (y < 0)
        return -LX_EBADF;
    T.yod[a0] = -1;
    return --T.refs[y] ? 0 : lx_err(lwk_io->close(y));
}

static long dup_to(long old, long fd, int cloexec)
{
    int y = lx_fd(old);

    if (y < 0 || fd < 0 || fd >= NFD)
        return -LX_EBADF;
    if (fd != old && T.yod[fd] >= 0)
        lx_close(fd, 0, 0, 0, 0, 0);    /* dup2 closes it quietly */
    if (fd != old) {
        T.yod[fd] = (signed char)y;
        T.refs[y]++;
    }
    T.cloexec[fd] = (unsigned char)cloexec;
    return fd;
}

long lx_dup(LX_ARGS)
{
    int y = lx_fd(a0);

    return y < 0 ? -LX_EBADF : take(0, y, 0);
}

long lx_dup2(LX_ARGS)
{
    if (a0 == a1)               /* dup2(fd, fd): fd if open, nothing done */
        return lx_fd(a0) < 0 ? -LX_EBADF : a1;
    return dup_to(a0, a1, 0);
}

long lx_dup3(LX_ARGS)
{
    if (a0 == a1 || (a2 & ~(long)LX_O_CLOEXEC))
        return -LX_EINVAL;
    return dup_to(a0, a1, (a2 & LX_O_CLOEXEC) != 0);
}

/* fcntl's descriptor commands; -LX_ENOSYS: not one of them. */
long lx_fd_fcntl(long fd, int cmd, long arg)
{
    int y = lx_fd(fd);

    if (y < 0)
        return -LX_EBADF;
    switch (cmd) {
    case LX_F_DUPFD:
    case LX_F_DUPFD_CLOEXEC:
        if (arg < 0 || arg >= NFD)
            return -LX_EINVAL;
        return take(arg, y, cmd == LX_F_DUPFD_CLOEXEC);
    case LX_F_GETFD:
        return T.cloexec[fd] ? LX_FD_CLOEXEC : 0;
    case LX_F_SETFD:
        T.cloexec[fd] = (arg & LX_FD_CLOEXEC) != 0;
        return 0;
    default:
        return -LX_ENOSYS;
    }
}
