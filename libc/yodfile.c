/* SPDX-License-Identifier: MIT */
/*
 * yodfile.c: the lwk_io table of a program run by yod.  File calls become
 * requests to yod (yod/yod_proto.h, sent by yodio.c), which performs them
 * on Linux in this rank's working directory with the user's permissions.
 * Data moves one-sided between the caller's own buffer and yod: nothing
 * is copied on this side.  Writes to fds 1 and 2 go to yod's output path;
 * fds 0..2 otherwise keep the console's answers (a character device, a
 * tty, not seekable), so newlib line-buffers stdout as on a terminal.
 * Read on fd 0 is forwarded: rank 0 reads yod's stdin, the others EOF.
 *
 * newlib's open flags and errno values are not Linux's: both travel in the
 * protocol's numbering, translated here and in yod.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <portals4.h>

#include "libc_internal.h"
#include "yod_proto.h"

#define ERRNO_ENTRY(e) e,
static const int errnos[] = { YOD_ERRNO_LIST(ERRNO_ENTRY) };

/* The protocol's errno number (1-based in YOD_ERRNO_LIST) as ours. */
int lwk_yod_errno(uint32_t code)
{
    return code && code <= sizeof(errnos) / sizeof(errnos[0])
           ? errnos[code - 1] : EIO;
}

static int is_std(int fd)
{
    return fd >= 0 && fd <= 2;
}

/* A request with op and fd set, everything else zero. */
static struct yod_file_req *req(uint32_t op, int fd)
{
    struct yod_file_req *q = lwk_yod_req();

    memset(q, 0, YOD_FILE_REQ_HDR);
    q->op = op;
    q->fd = fd;
    return q;
}

/* Add a path after those already in the request; -errno if it does not fit. */
static long add_path(struct yod_file_req *q, const char *path)
{
    size_t n = strlen(path) + 1;

    if (n > YOD_PATH_MAX)
        return -ENAMETOOLONG;
    if (n == 1)
        return -ENOENT;         /* "" names nothing, as on Linux */
    memcpy(q->path + q->path_len + q->path2_len, path, n);
    if (q->path_len)
        q->path2_len = (uint32_t)n;
    else
        q->path_len = (uint32_t)n;
    return 0;
}

/* Send the request, exposing buf for buf_op; the answer's result or -errno. */
static long call_buf(void *buf, size_t len, unsigned buf_op,
                     struct yod_file_ans **out)
{
    struct yod_file_req *q = lwk_yod_req();
    struct yod_file_ans *a;
    long rc = lwk_yod_call(YOD_FILE_REQ_HDR + q->path_len + q->path2_len,
                           buf, len, buf_op, &a);

    if (rc < 0)
        return rc;
    if (out)
        *out = a;
    if (a->err == 0)
        return (long)a->ret;
    return -lwk_yod_errno(a->err);
}

static long call(void)
{
    return call_buf(NULL, 0, 0, NULL);
}

/* A path call: one or two paths, nothing else. */
static long call_paths(uint32_t op, const char *p1, const char *p2)
{
    struct yod_file_req *q = req(op, -1);
    long rc = add_path(q, p1);

    if (rc == 0 && p2)
        rc = add_path(q, p2);
    return rc < 0 ? rc : call();
}

static uint32_t open_flags(int f)
{
    return (uint32_t)(f & O_ACCMODE) |
           (f & O_APPEND ? YOD_O_APPEND : 0) |
           (f & O_CREAT ? YOD_O_CREAT : 0) | (f & O_TRUNC ? YOD_O_TRUNC : 0) |
           (f & O_EXCL ? YOD_O_EXCL : 0) |
           (f & O_NONBLOCK ? YOD_O_NONBLOCK : 0) |
           (f & O_SYNC ? YOD_O_SYNC : 0) |
           (f & O_NOFOLLOW ? YOD_O_NOFOLLOW : 0) |
           (f & O_DIRECTORY ? YOD_O_DIRECTORY : 0);
}

/* Flags with no meaning here (no exec, no controlling tty) are ignored. */
#define OPEN_KNOWN (O_ACCMODE | O_APPEND | O_CREAT | O_TRUNC | O_EXCL | \
                    O_NONBLOCK | O_SYNC | O_NOFOLLOW | O_DIRECTORY |    \
                    O_CLOEXEC | O_NOCTTY)

/* OPEN; a new file under /pfs is made striped over `factor` stripes of
   `unit` bytes (0: the defaults, the job's servers and 1 MiB), and a
   striped file's layout is kept for its fd (pfs.c). */
long lwk_yod_open(const char *path, int flags, int mode, unsigned factor,
                  size_t unit)
{
    struct yod_file_req *q = req(YOD_F_OPEN, -1);
    struct yod_file_ans *a;
    long rc;

    if ((flags & ~OPEN_KNOWN) || (flags & O_ACCMODE) == O_ACCMODE)
        return -EINVAL;
    if ((rc = add_path(q, path)) < 0)
        return rc;
    q->flags = open_flags(flags);
    q->mode = (uint32_t)mode & 07777;
    q->off = factor ? factor : (unsigned)lwk_yod_nservers();
    q->len = unit;
    rc = call_buf(NULL, 0, 0, &a);
    if (rc >= 0)
        lwk_pfs_opened((int)rc, path, &a->pfs);
    return rc;
}

static long yod_open(const char *path, int flags, int mode)
{
    return lwk_yod_open(path, flags, mode, 0, 0);
}

static long yod_close(int fd)
{
    if (is_std(fd))
        return lwk_io_console.close(fd);
    lwk_pfs_closed(fd);
    req(YOD_F_CLOSE, fd);
    return call();
}

static long yod_read(int fd, void *buf, size_t len)
{
    struct yod_file_req *q;
    long rc;

    if (fd == 1 || fd == 2)
        return -EBADF;
    if (len == 0)
        return 0;
    if ((rc = lwk_pfs_io(0, fd, buf, len, -1)) != LWK_PFS_WHOLE)
        return rc;              /* a striped file's, by its stripes */
    q = req(YOD_F_READ, fd);
    q->len = len;
    return call_buf(buf, len, PTL_ME_OP_PUT, NULL);
}

static long yod_write(int fd, const void *buf, size_t len)
{
    struct yod_file_req *q;
    long rc;

    if (fd == 1 || fd == 2)
        return lwk_yod_output(fd, buf, len);
    if (fd == 0)
        return -EBADF;
    if (len == 0)
        return 0;
    if ((rc = lwk_pfs_io(1, fd, (void *)buf, len, -1)) != LWK_PFS_WHOLE)
        return rc;              /* a striped file's, by its stripes */
    q = req(YOD_F_WRITE, fd);
    q->len = len;
    /* yod only Gets from it: the ME is for PTL_ME_OP_GET alone. */
    return call_buf((void *)buf, len, PTL_ME_OP_GET, NULL);
}

static long yod_lseek(int fd, long off, int whence)
{
    struct yod_file_req *q = req(YOD_F_LSEEK, fd);

    if (is_std(fd))
        return lwk_io_console.lseek(fd, off, whence);
    q->off = off;
    q->flags = (uint32_t)whence;
    return call();
}

/* stdio buffers a file in st_blksize blocks, and every block of a
   forwarded file costs a round trip to yod: ask for big ones. */
#define FORWARD_BLKSIZE (64u << 10)

static void from_yod_stat(const struct yod_stat *y, struct stat *st)
{
    *st = (struct stat){
        .st_dev = (dev_t)y->dev, .st_ino = (ino_t)y->ino,
        .st_mode = (mode_t)y->mode, .st_nlink = (nlink_t)y->nlink,
        .st_uid = (uid_t)y->uid, .st_gid = (gid_t)y->gid,
        .st_rdev = (dev_t)y->rdev, .st_size = (off_t)y->size,
        .st_atim = { y->atime, y->atime_ns },
        .st_mtim = { y->mtime, y->mtime_ns },
        .st_ctim = { y->ctime, y->ctime_ns },
        .st_blksize = (blksize_t)(y->blksize > FORWARD_BLKSIZE
                                  ? y->blksize : FORWARD_BLKSIZE),
        .st_blocks = (blkcnt_t)y->blocks,
    };
}

/* The stat calls: the answer carries the fields. */
static long stat_call(struct stat *st)
{
    struct yod_file_ans *a;
    long rc = call_buf(NULL, 0, 0, &a);

    if (rc == 0)
        from_yod_stat(&a->st, st);
    return rc;
}

static long yod_fstat(int fd, struct stat *st)
{
    if (is_std(fd))
        return lwk_io_console.fstat(fd, st);
    req(YOD_F_FSTAT, fd);
    return stat_call(st);
}

static long yod_stat(const char *path, struct stat *st)
{
    struct yod_file_req *q = req(YOD_F_STAT, -1);
    long rc = add_path(q, path);

    return rc < 0 ? rc : stat_call(st);
}

static long yod_lstat(const char *path, struct stat *st)
{
    struct yod_file_req *q = req(YOD_F_LSTAT, -1);
    long rc = add_path(q, path);

    return rc < 0 ? rc : stat_call(st);
}

static long yod_isatty(int fd)
{
    if (is_std(fd))
        return lwk_io_console.isatty(fd);
    req(YOD_F_ISATTY, fd);
    return call();
}

static long yod_unlink(const char *path)
{
    return call_paths(YOD_F_UNLINK, path, NULL);
}

static long yod_link(const char *oldpath, const char *newpath)
{
    return call_paths(YOD_F_LINK, oldpath, newpath);
}

static long yod_rename(const char *oldpath, const char *newpath)
{
    return call_paths(YOD_F_RENAME, oldpath, newpath);
}

static long yod_mkdir(const char *path, int mode)
{
    struct yod_file_req *q = req(YOD_F_MKDIR, -1);
    long rc = add_path(q, path);

    q->mode = (uint32_t)mode & 07777;
    return rc < 0 ? rc : call();
}

static long yod_rmdir(const char *path)
{
    return call_paths(YOD_F_RMDIR, path, NULL);
}

static long yod_chdir(const char *path)
{
    return call_paths(YOD_F_CHDIR, path, NULL);
}

/* yod Puts the path with its NUL into buf; the answer is its length. */
static long yod_getcwd(char *buf, size_t len)
{
    struct yod_file_req *q = req(YOD_F_GETCWD, -1);

    if (len == 0)
        return -EINVAL;
    q->len = len;
    return call_buf(buf, len, PTL_ME_OP_PUT, NULL);
}

/* yod Puts whole directory entries (Linux's linux_dirent64) into buf;
   the answer is their bytes, 0 at the directory's end. */
static long yod_getdents(int fd, void *buf, size_t len)
{
    struct yod_file_req *q = req(YOD_F_GETDENTS, fd);

    if (fd == 1 || fd == 2)
        return -ENOTDIR;
    if (len == 0)
        return -EINVAL;
    q->len = len;
    return call_buf(buf, len, PTL_ME_OP_PUT, NULL);
}

static long yod_access(const char *path, int mode)
{
    struct yod_file_req *q = req(YOD_F_ACCESS, -1);
    long rc = add_path(q, path);

    if (mode & ~(R_OK | W_OK | X_OK))
        return -EINVAL;
    q->flags = (uint32_t)mode;  /* R_OK 4, W_OK 2, X_OK 1 on both sides */
    return rc < 0 ? rc : call();
}

static long yod_ftruncate(int fd, long len)
{
    struct yod_file_req *q = req(YOD_F_FTRUNCATE, fd);

    if (is_std(fd))
        return -EINVAL;
    q->off = len;
    return call();
}

static long yod_fsync(int fd)
{
    if (is_std(fd))
        return 0;
    req(YOD_F_FSYNC, fd);
    return call();
}

/* No exec on a node, so the fd flags (close-on-exec) are always 0; the
   status flags are not kept: F_GETFL and the rest are not supported. */
static long yod_fcntl(int fd, int cmd, long arg)
{
    struct stat st;
    long rc;

    if (is_std(fd))
        return lwk_io_console.fcntl(fd, cmd, arg);
    if (cmd != F_GETFD && cmd != F_SETFD)
        return -ENOSYS;
    rc = yod_fstat(fd, &st);    /* EBADF for an fd that is not open */
    return rc < 0 ? rc : 0;
}

const struct lwk_io_ops lwk_io_yod = {
    .open = yod_open,
    .close = yod_close,
    .read = yod_read,
    .write = yod_write,
    .lseek = yod_lseek,
    .fstat = yod_fstat,
    .stat = yod_stat,
    .lstat = yod_lstat,
    .isatty = yod_isatty,
    .unlink = yod_unlink,
    .link = yod_link,
    .rename = yod_rename,
    .mkdir = yod_mkdir,
    .rmdir = yod_rmdir,
    .getcwd = yod_getcwd,
    .chdir = yod_chdir,
    .access = yod_access,
    .ftruncate = yod_ftruncate,
    .fsync = yod_fsync,
    .fcntl = yod_fcntl,
    .getdents = yod_getdents,
};

/* ---- at an offset ------------------------------------------------------------ */

/* pread(2) (wr 0) or pwrite(2) of lwk_io's fd (not 0..2): one PREAD or
   PWRITE request, the fd's offset untouched (files.c). */
long lwk_yod_pio(int wr, int fd, void *buf, size_t len, long long off)
{
    long rc = lwk_pfs_io(wr, fd, buf, len, off);
    struct yod_file_req *q;

    if (rc != LWK_PFS_WHOLE)
        return rc;
    q = req(wr ? YOD_F_PWRITE : YOD_F_PREAD, fd);

    q->len = len;
    q->off = off;
    return call_buf(buf, len, wr ? PTL_ME_OP_GET : PTL_ME_OP_PUT, NULL);
}

/* Without waiting (aio.c): start a PREAD (wr 0) or PWRITE of len bytes at `off` of lwk_io's fd
   (not 0..2: aio.c does those at once) and return: 0, -EBUSY while the
   last one is in flight, or -errno.  Its buffer stays exposed to the
   server until lwk_yod_aio_done says it is complete. */
long lwk_yod_aio_start(int wr, int fd, volatile void *buf, size_t len,
                       long long off)
{
    struct yod_file_req *q;

    if (lwk_yod_async_busy())
        return -EBUSY;          /* lwk_yod_req() is that one's still */
    q = req(wr ? YOD_F_PWRITE : YOD_F_PREAD, fd);
    q->len = len;
    q->off = off;
    /* the server only Gets from a PWRITE's buffer, only Puts a PREAD's */
    return lwk_yod_async_start(YOD_FILE_REQ_HDR, (void *)buf, len,
                               wr ? PTL_ME_OP_GET : PTL_ME_OP_PUT);
}

/* 1 once the operation started last is complete (waiting up to `ms`
   milliseconds, 0: a look), *ret its bytes or -errno; else 0. */
int lwk_yod_aio_done(unsigned ms, long *ret)
{
    struct yod_file_ans *a;
    long rc;

    if (!lwk_yod_async_wait(ms, &a, &rc))
        return 0;
    *ret = rc < 0 ? rc : a->err ? -lwk_yod_errno(a->err) : (long)a->ret;
    return 1;
}
