/* SPDX-License-Identifier: MIT */
/*
 * rt_file.c: a Linux program's file calls, forwarded to yod exactly as a
 * newlib program's are: through libc's lwk_io table (libc/yodfile.c under
 * yod; the console's answers under lwkrun).  Linux's flags, structures
 * and errno are translated here; every pointer is checked against the
 * program's memory first, so a bad one is EFAULT with nothing done.
 * Descriptors are the program's, each naming one of yod's (rt_fd.c: dup).
 * Not forwarded (yod has no request for them; docs/LINUX.md): readlink of a
 * real link, relative paths from a directory descriptor.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libc_internal.h"
#include "rt.h"

#define CHECK(p, n) do { if (!lx_ok((uint64_t)(p), (uint64_t)(n))) \
                              return -LX_EFAULT; } while (0)
#define PATH(var, p) const char *var = lx_path(p); \
                     if (!var) return -LX_EFAULT

static int nl_open_flags(long f)
{
    return (int)(f & LX_O_ACCMODE) |
           (f & LX_O_CREAT ? O_CREAT : 0) | (f & LX_O_EXCL ? O_EXCL : 0) |
           (f & LX_O_TRUNC ? O_TRUNC : 0) | (f & LX_O_APPEND ? O_APPEND : 0) |
           (f & LX_O_NONBLOCK ? O_NONBLOCK : 0) |
           (f & LX_O_DSYNC ? O_SYNC : 0) |
           (f & LX_O_DIRECTORY ? O_DIRECTORY : 0) |
           (f & LX_O_NOFOLLOW ? O_NOFOLLOW : 0);
}

/* Only AT_FDCWD or an absolute path: yod knows no directory descriptors. */
static long at_path(long dirfd, const char *path)
{
    if ((int)dirfd != LX_AT_FDCWD && path[0] != '/')
        return -LX_ENOSYS;
    return 0;
}

long lx_openat(LX_ARGS)
{
    PATH(path, a1);
    long rc = at_path(a0, path);

    return rc ? rc : lx_fd_opened(lwk_io->open(path, nl_open_flags(a2), (int)a3),
                                  (a2 & LX_O_CLOEXEC) != 0);
}

long lx_open(LX_ARGS)
{
    return lx_openat(LX_AT_FDCWD, a0, a1, a2, 0, 0);
}

long lx_read(LX_ARGS)
{
    CHECK(a1, a2);
    return lx_err(lwk_io->read(lx_fd(a0), (void *)a1, (size_t)a2));
}

long lx_write(LX_ARGS)
{
    CHECK(a1, a2);
    return lx_err(lwk_io->write(lx_fd(a0), (const void *)a1, (size_t)a2));
}

long lx_lseek(LX_ARGS)
{
    return lx_err(lwk_io->lseek(lx_fd(a0), a1, (int)a2));
}

/* The runtime's files are yod's below LX_NODE_H (when yod serves them),
   the node's own from there up (rt_procio.c). */
static int yod_fd(int y)
{
    return y < LX_NODE_H && lx_yod_files();
}

/* pread64/pwrite64: one PREAD or PWRITE request at the offset (libc's
   lwk_pio; the node's own files: seek, move, seek back). */
long lx_pread64(LX_ARGS)
{
    int y = lx_fd(a0);

    CHECK(a1, a2);
    return lx_err(lwk_pio(yod_fd(y), 0, y, (void *)a1, (size_t)a2, a3));
}

long lx_pwrite64(LX_ARGS)
{
    int y = lx_fd(a0);

    CHECK(a1, a2);
    return lx_err(lwk_pio(yod_fd(y), 1, y, (void *)a1, (size_t)a2, a3));
}

/* readv/writev (off < 0: at the fd's offset) and preadv/pwritev (at
   `off`, one request per buffer); a short transfer ends it. */
static long vec(long fd, long iov, long n, int wr, long off)
{
    const struct lx_iovec *v = (const struct lx_iovec *)iov;
    int y = lx_fd(fd);
    long done = 0, rc;

    if (n < 0 || n > 1024)
        return -LX_EINVAL;
    CHECK(iov, (uint64_t)n * sizeof(*v));
    for (long i = 0; i < n; i++)
        CHECK(v[i].base, v[i].len);
    for (long i = 0; i < n; i++) {
        if (!v[i].len)
            continue;
        if (off >= 0)
            rc = lwk_pio(yod_fd(y), wr, y, (void *)v[i].base, v[i].len,
                         off + done);
        else
            rc = wr ? lwk_io->write(y, (void *)v[i].base, v[i].len)
                    : lwk_io->read(y, (void *)v[i].base, v[i].len);
        if (rc < 0)
            return done ? done : lx_err(rc);
        done += rc;
        if ((uint64_t)rc < v[i].len)
            break;
    }
    return done;
}

long lx_readv(LX_ARGS)
{
    return vec(a0, a1, a2, 0, -1);
}

long lx_writev(LX_ARGS)
{
    return vec(a0, a1, a2, 1, -1);
}

/* preadv(fd, iov, n, pos_l, pos_h): on x86-64 the offset is pos_l. */
long lx_preadv(LX_ARGS)
{
    return a3 < 0 ? -LX_EINVAL : vec(a0, a1, a2, 0, a3);
}

long lx_pwritev(LX_ARGS)
{
    return a3 < 0 ? -LX_EINVAL : vec(a0, a1, a2, 1, a3);
}

static void to_lx_stat(const struct stat *s, struct lx_stat *l)
{
    memset(l, 0, sizeof(*l));
    l->st_dev = (uint64_t)s->st_dev;
    l->st_ino = (uint64_t)s->st_ino;
    l->st_nlink = (uint64_t)s->st_nlink;
    l->st_mode = (uint32_t)s->st_mode;  /* S_IF* and permission bits are */
    l->st_uid = (uint32_t)s->st_uid;    /* the same numbers in newlib */
    l->st_gid = (uint32_t)s->st_gid;
    l->st_rdev = (uint64_t)s->st_rdev;
    l->st_size = (int64_t)s->st_size;
    l->st_blksize = (int64_t)s->st_blksize;
    l->st_blocks = (int64_t)s->st_blocks;
    l->st_atime_sec = (uint64_t)s->st_atim.tv_sec;
    l->st_atime_nsec = (uint64_t)s->st_atim.tv_nsec;
    l->st_mtime_sec = (uint64_t)s->st_mtim.tv_sec;
    l->st_mtime_nsec = (uint64_t)s->st_mtim.tv_nsec;
    l->st_ctime_sec = (uint64_t)s->st_ctim.tv_sec;
    l->st_ctime_nsec = (uint64_t)s->st_ctim.tv_nsec;
}

/* fd >= 0: fstat; else path (lstat when nofollow). */
static long do_stat(int fd, const char *path, int nofollow, long out)
{
    struct stat s;
    long rc;

    CHECK(out, sizeof(struct lx_stat));
    if (path)
        rc = nofollow ? lwk_io->lstat(path, &s) : lwk_io->stat(path, &s);
    else
        rc = lwk_io->fstat(fd, &s);
    if (rc < 0)
        return lx_err(rc);
    to_lx_stat(&s, (struct lx_stat *)out);
    return 0;
}

long lx_fstat(LX_ARGS)
{
    return do_stat(lx_fd(a0), NULL, 0, a1);
}

long lx_stat(LX_ARGS)
{
    PATH(path, a0);
    return do_stat(-1, path, 0, a1);
}

long lx_lstat(LX_ARGS)
{
    PATH(path, a0);
    return do_stat(-1, path, 1, a1);
}

/* What (dirfd, path, AT_* flags) names, stat'ed into s: 0 or -LX_E*. */
static long stat_at(long dirfd, long upath, long flags, struct stat *s)
{
    PATH(path, upath);
    long rc;

    if (path[0] == 0 && (flags & LX_AT_EMPTY_PATH))
        return lx_err(lwk_io->fstat(lx_fd(dirfd), s));
    if ((rc = at_path(dirfd, path)))
        return rc;
    return lx_err(flags & LX_AT_SYMLINK_NOFOLLOW ? lwk_io->lstat(path, s)
                                                 : lwk_io->stat(path, s));
}

long lx_newfstatat(LX_ARGS)
{
    struct stat s;
    long rc;

    CHECK(a2, sizeof(struct lx_stat));
    if ((rc = stat_at(a0, a1, a3, &s)) < 0)
        return rc;
    to_lx_stat(&s, (struct lx_stat *)a2);
    return 0;
}

/* Linux's device number halves (glibc's gnu_dev_major/minor). */
static uint32_t dev_major(uint64_t d)
{
    return (uint32_t)(((d >> 8) & 0xfff) | ((d >> 32) & ~0xfffull));
}

static uint32_t dev_minor(uint64_t d)
{
    return (uint32_t)((d & 0xff) | ((d >> 12) & ~0xffull));
}

static struct lx_statx_time sx_time(uint64_t sec, uint64_t nsec)
{
    return (struct lx_statx_time){ (int64_t)sec, (uint32_t)nsec, 0 };
}

/* statx(dirfd, path, flags, mask, buf): newfstatat's answer in statx's
   layout; the basic fields whatever the mask asks (no birth time: yod's
   stat has none, and the mask says so). */
long lx_statx(LX_ARGS)
{
    struct lx_statx *x = (struct lx_statx *)a4;
    struct stat st;
    long rc;

    CHECK(a4, sizeof(*x));
    if ((rc = stat_at(a0, a1, a2, &st)) < 0)
        return rc;
    memset(x, 0, sizeof(*x));
    x->mask = LX_STATX_BASIC_STATS;
    x->blksize = (uint32_t)st.st_blksize;
    x->nlink = (uint32_t)st.st_nlink;
    x->uid = (uint32_t)st.st_uid;
    x->gid = (uint32_t)st.st_gid;
    x->mode = (uint16_t)st.st_mode;
    x->ino = (uint64_t)st.st_ino;
    x->size = (uint64_t)st.st_size;
    x->blocks = (uint64_t)st.st_blocks;
    x->atime = sx_time((uint64_t)st.st_atim.tv_sec, (uint64_t)st.st_atim.tv_nsec);
    x->mtime = sx_time((uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec);
    x->ctime = sx_time((uint64_t)st.st_ctim.tv_sec, (uint64_t)st.st_ctim.tv_nsec);
    x->rdev_major = dev_major((uint64_t)st.st_rdev);
    x->rdev_minor = dev_minor((uint64_t)st.st_rdev);
    x->dev_major = dev_major((uint64_t)st.st_dev);
    x->dev_minor = dev_minor((uint64_t)st.st_dev);
    return 0;
}

/* isatty (TCGETS) and the window size: yod's answer for the fd. */
long lx_ioctl(LX_ARGS)
{
    long tty;

    a1 = (unsigned)a1;
    if (a1 != LX_TCGETS && a1 != LX_TIOCGWINSZ)
        return -LX_ENOTTY;
    CHECK(a2, a1 == LX_TCGETS ? sizeof(struct lx_termios)
                              : sizeof(struct lx_winsize));
    tty = lwk_io->isatty(lx_fd(a0));
    if (tty < 0)
        return lx_err(tty);
    if (tty == 0)
        return -LX_ENOTTY;
    if (a1 == LX_TCGETS)
        memset((void *)a2, 0, sizeof(struct lx_termios));
    else
        *(struct lx_winsize *)a2 = (struct lx_winsize){ 24, 80, 0, 0 };
    return 0;
}

long lx_fcntl(LX_ARGS)
{
    struct stat s;
    int y = lx_fd(a0);
    long rc = lx_fd_fcntl(a0, (int)a1, a2);     /* dups, FD_CLOEXEC */

    if (rc != -LX_ENOSYS)
        return rc;
    switch ((int)a1) {
    case LX_F_SETFL:
        rc = lwk_io->fstat(y, &s);          /* EBADF if not open */
        return rc < 0 ? lx_err(rc) : 0;
    case LX_F_GETFL:                        /* not kept: say read-write */
        rc = lwk_io->fstat(y, &s);
        return rc < 0 ? lx_err(rc) : (y == 0 ? 0 : y <= 2 ? 1 : 2);
    default:
        return -LX_EINVAL;
    }
}

long lx_unlinkat(LX_ARGS)
{
    PATH(path, a1);
    long rc = at_path(a0, path);

    if (rc)
        return rc;
    return lx_err(a2 & LX_AT_REMOVEDIR ? lwk_io->rmdir(path)
                                       : lwk_io->unlink(path));
}

long lx_unlink(LX_ARGS)
{
    return lx_unlinkat(LX_AT_FDCWD, a0, 0, 0, 0, 0);
}

long lx_rmdir(LX_ARGS)
{
    return lx_unlinkat(LX_AT_FDCWD, a0, LX_AT_REMOVEDIR, 0, 0, 0);
}

long lx_mkdirat(LX_ARGS)
{
    PATH(path, a1);
    long rc = at_path(a0, path);

    return rc ? rc : lx_err(lwk_io->mkdir(path, (int)a2));
}

long lx_mkdir(LX_ARGS)
{
    return lx_mkdirat(LX_AT_FDCWD, a0, a1, 0, 0, 0);
}

long lx_renameat(LX_ARGS)
{
    PATH(from, a1);
    PATH(to, a3);
    long rc = at_path(a0, from);

    if (!rc)
        rc = at_path(a2, to);
    return rc ? rc : lx_err(lwk_io->rename(from, to));
}

long lx_rename(LX_ARGS)
{
    return lx_renameat(LX_AT_FDCWD, a0, LX_AT_FDCWD, a1, 0, 0);
}

/* The node's links (/proc/self/exe, /proc/self/fd/N) are the node's
   (rt_proc.c).  yod cannot read a link's target: a path that is no link
   is EINVAL as on Linux, a link ENOSYS. */
long lx_readlinkat(LX_ARGS)
{
    struct stat s;
    PATH(path, a1);
    long rc = at_path(a0, path);

    CHECK(a2, a3);
    if (!rc && lx_node_path(path))
        return lx_err(lx_node_readlink(path, (char *)a2, (size_t)a3));
    if (!rc)
        rc = lx_err(lwk_io->lstat(path, &s));
    if (rc)
        return rc;
    return (s.st_mode & S_IFMT) == S_IFLNK ? -LX_ENOSYS : -LX_EINVAL;
}

long lx_readlink(LX_ARGS)
{
    return lx_readlinkat(LX_AT_FDCWD, a0, a1, a2, 0, 0);
}

long lx_faccessat(LX_ARGS)
{
    PATH(path, a1);
    long rc = at_path(a0, path);

    return rc ? rc : lx_err(lwk_io->access(path, (int)a2));
}

long lx_faccessat2(LX_ARGS)
{
    return lx_faccessat(a0, a1, a2, 0, 0, 0);
}

long lx_access(LX_ARGS)
{
    return lx_faccessat(LX_AT_FDCWD, a0, a1, 0, 0, 0);
}

long lx_getcwd(LX_ARGS)
{
    CHECK(a0, a1);
    return lx_err(lwk_io->getcwd((char *)a0, (size_t)a1));
}

/* Records in Linux's format already (yod reads them with getdents64). */
long lx_getdents64(LX_ARGS)
{
    CHECK(a1, a2);
    return lx_err(lwk_io->getdents(lx_fd(a0), (void *)a1, (size_t)a2));
}

long lx_chdir(LX_ARGS)
{
    PATH(path, a0);
    return lx_err(lwk_io->chdir(path));
}

long lx_ftruncate(LX_ARGS)
{
    return lx_err(lwk_io->ftruncate(lx_fd(a0), a1));
}

long lx_fsync(LX_ARGS)
{
    return lx_err(lwk_io->fsync(lx_fd(a0)));
}

long lx_fdatasync(LX_ARGS)
{
    return lx_fsync(a0, 0, 0, 0, 0, 0);
}

static long mask = 022;

long lx_umask_now(void)
{
    return mask;
}

long lx_umask(LX_ARGS)
{
    long old = mask;

    mask = a0 & 0777;
    return old;
}
