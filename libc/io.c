/* SPDX-License-Identifier: MIT */
/*
 * io.c: the file-I/O entry points newlib calls (read, write, open, ...).
 * Each one is a single line through the dispatch table lwk_io (see
 * libc_internal.h) and turns its -errno result into errno.  The table here,
 * lwk_io_console, is the node-local one: fds 1 and 2 go to the kernel
 * console, stdin is the console's too (end of file unless tools/lwkrun
 * gives the program its own stdin), and every path call fails with
 * ENOSYS (the first one saying why on stderr).  Under yod (LWK_YOD in the
 * environment) yodio.c points lwk_io at lwk_io_yod (yodfile.c), which
 * forwards file calls to yod; nothing below changes.  A program's fd
 * numbers map onto the table's (fdtable.c: dup).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lwk/syscall.h>

#include "libc_internal.h"

/* ---- the node-local table --------------------------------------------- */

static int is_std(int fd)
{
    return fd >= 0 && fd <= 2;
}

static long con_close(int fd)
{
    return is_std(fd) ? 0 : -EBADF;
}

/* stdin is what the node's launcher gives (tools/lwkrun: its own stdin),
   else nothing: end of file, as /dev/null. */
static long con_read(int fd, void *buf, size_t len)
{
    return fd == 0 ? lwk_sys_console_read((long)buf, (long)len) : -EBADF;
}

/* The console call may take less than asked: loop, report a short write. */
static long con_write(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    size_t done = 0;

    if (fd != 1 && fd != 2)
        return -EBADF;
    while (done < len) {
        long r = lwk_sys_console_write((long)(p + done), (long)(len - done),
                                       fd);
        if (r < 0)
            return done ? (long)done : r;
        if (r == 0)
            break;
        done += (size_t)r;
    }
    return (long)done;
}

/* Nothing serves files here (no yod): the first path call says so once on
   stderr, then each fails with ENOSYS as it would anyway. */
static long no_files(const char *call, const char *path)
{
    static int said;
    char line[256];
    int n;

    if (said++)
        return -ENOSYS;
    n = snprintf(line, sizeof(line), "lwk: %s(%s%.120s%s): files are served "
                 "by yod; run the program with yod to use files\n", call,
                 path ? "\"" : "", path ? path : "", path ? "\"" : "");
    if (n > 0)
        con_write(2, line, (size_t)n < sizeof(line) ? (size_t)n
                                                    : sizeof(line) - 1);
    return -ENOSYS;
}

static long con_open(const char *path, int flags, int mode)
{
    (void)flags;
    (void)mode;
    return no_files("open", path);
}

static long con_lseek(int fd, long off, int whence)
{
    (void)off;
    (void)whence;
    return is_std(fd) ? -ESPIPE : -EBADF;
}

static long con_fstat(int fd, struct stat *st)
{
    if (!is_std(fd))
        return -EBADF;
    *st = (struct stat){ .st_mode = S_IFCHR | 0620, .st_blksize = 1024 };
    return 0;
}

static long con_stat(const char *path, struct stat *st)
{
    (void)st;
    return no_files("stat", path);
}

static long con_lstat(const char *path, struct stat *st)
{
    (void)st;
    return no_files("lstat", path);
}

static long con_rename(const char *oldpath, const char *newpath)
{
    (void)newpath;
    return no_files("rename", oldpath);
}

static long con_getcwd(char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return no_files("getcwd", NULL);
}

static long con_access(const char *path, int mode)
{
    (void)mode;
    return no_files("access", path);
}

static long con_rmdir(const char *path)
{
    return no_files("rmdir", path);
}

static long con_chdir(const char *path)
{
    return no_files("chdir", path);
}

static long con_ftruncate(int fd, long len)
{
    (void)len;
    return is_std(fd) ? -EINVAL : -EBADF;
}

static long con_fsync(int fd)
{
    return is_std(fd) ? 0 : -EBADF;
}

static long con_getdents(int fd, void *buf, size_t len)
{
    (void)buf, (void)len;
    return is_std(fd) ? -ENOTDIR : -EBADF;
}

static long con_isatty(int fd)
{
    return is_std(fd) ? 1 : -EBADF;
}

static long con_unlink(const char *path)
{
    return no_files("unlink", path);
}

static long con_link(const char *oldpath, const char *newpath)
{
    (void)newpath;
    return no_files("link", oldpath);
}

static long con_mkdir(const char *path, int mode)
{
    (void)mode;
    return no_files("mkdir", path);
}

static long con_fcntl(int fd, int cmd, long arg)
{
    (void)cmd;
    (void)arg;
    return is_std(fd) ? -ENOSYS : -EBADF;
}

const struct lwk_io_ops lwk_io_console = {
    .open = con_open,
    .close = con_close,
    .read = con_read,
    .write = con_write,
    .lseek = con_lseek,
    .fstat = con_fstat,
    .stat = con_stat,
    .lstat = con_lstat,
    .isatty = con_isatty,
    .unlink = con_unlink,
    .link = con_link,
    .rename = con_rename,
    .mkdir = con_mkdir,
    .rmdir = con_rmdir,
    .getcwd = con_getcwd,
    .chdir = con_chdir,
    .access = con_access,
    .ftruncate = con_ftruncate,
    .fsync = con_fsync,
    .fcntl = con_fcntl,
    .getdents = con_getdents,
};

/* The dispatch point: the one pointer a yod-forwarding table replaces. */
const struct lwk_io_ops *lwk_io = &lwk_io_console;

/* Before main (a constructor: the environment is known by then). */
__attribute__((constructor)) static void io_pick_table(void)
{
    const char *yod = getenv("LWK_YOD");

    if (yod)
        lwk_yod_io_setup(yod);
}

/*
 * ---- what newlib calls ----------------------------------------------
 * read/write return _READ_WRITE_RETURN_TYPE: int in newlib for this target.
 * One call at a time per process, whichever thread makes it: under yod
 * every call is a request on the process's one channel (one request at a
 * time, in buffers of the process: yodio.c), a thread's output must
 * reach yod whole and in its order, and the fd table (fdtable.c) is the
 * process's.  The lock is recursive: dup2's close runs under it.
 */
struct __lock lwk_io_lock;
#define IO(expr) ({                 \
    long r_;                        \
    lwk_lock(&lwk_io_lock);         \
    r_ = (expr);                    \
    lwk_unlock(&lwk_io_lock);       \
    r_;                             \
})

int open(const char *path, int flags, ...)
{
    va_list ap;
    int mode = 0;

    if (flags & O_CREAT) {
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    return (int)lwk_ret(IO(lwk_fd_opened(lwk_io->open(path, flags, mode))));
}

int close(int fd)
{
    return (int)lwk_ret(IO(lwk_fd_close(fd)));
}

_READ_WRITE_RETURN_TYPE read(int fd, void *buf, size_t len)
{
    return lwk_ret(IO(lwk_io->read(lwk_fd(fd), buf, len)));
}

_READ_WRITE_RETURN_TYPE write(int fd, const void *buf, size_t len)
{
    return lwk_ret(IO(lwk_io->write(lwk_fd(fd), buf, len)));
}

off_t lseek(int fd, off_t off, int whence)
{
    return lwk_ret(IO(lwk_io->lseek(lwk_fd(fd), off, whence)));
}

int fstat(int fd, struct stat *st)
{
    return (int)lwk_ret(IO(lwk_io->fstat(lwk_fd(fd), st)));
}

int stat(const char *path, struct stat *st)
{
    return (int)lwk_ret(IO(lwk_io->stat(path, st)));
}

/* isatty answers 1 or 0; a failure is 0 with errno set. */
int isatty(int fd)
{
    long r = IO(lwk_io->isatty(lwk_fd(fd)));

    if (r < 0) {
        lwk_ret(r);
        return 0;
    }
    return r != 0;
}

int unlink(const char *path)
{
    return (int)lwk_ret(IO(lwk_io->unlink(path)));
}

int link(const char *oldpath, const char *newpath)
{
    return (int)lwk_ret(IO(lwk_io->link(oldpath, newpath)));
}

int mkdir(const char *path, mode_t mode)
{
    return (int)lwk_ret(IO(lwk_io->mkdir(path, (int)mode)));
}

int lstat(const char *path, struct stat *st)
{
    return (int)lwk_ret(IO(lwk_io->lstat(path, st)));
}

/* Replaces newlib's rename, which is link + unlink (fails if newpath
   exists); this one replaces newpath atomically, as POSIX says. */
int rename(const char *oldpath, const char *newpath)
{
    return (int)lwk_ret(IO(lwk_io->rename(oldpath, newpath)));
}

int rmdir(const char *path)
{
    return (int)lwk_ret(IO(lwk_io->rmdir(path)));
}

int chdir(const char *path)
{
    return (int)lwk_ret(IO(lwk_io->chdir(path)));
}

/* getcwd(NULL, size) allocates (size 0: as much as a path can need). */
char *getcwd(char *buf, size_t size)
{
    char *mine = NULL;
    long r;

    if (!buf) {
        size = size ? size : 4096;
        if (!(buf = mine = malloc(size)))
            return NULL;
    }
    r = lwk_ret(IO(lwk_io->getcwd(buf, size)));
    if (r < 0) {
        free(mine);
        return NULL;
    }
    return buf;
}

int access(const char *path, int mode)
{
    return (int)lwk_ret(IO(lwk_io->access(path, mode)));
}

int ftruncate(int fd, off_t len)
{
    return (int)lwk_ret(IO(lwk_io->ftruncate(lwk_fd(fd), len)));
}

int fsync(int fd)
{
    return (int)lwk_ret(IO(lwk_io->fsync(lwk_fd(fd))));
}

int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    long arg;

    va_start(ap, cmd);
    arg = va_arg(ap, long);
    va_end(ap);
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
        return (int)lwk_ret(IO(lwk_fd_dup(fd, arg)));   /* fdtable.c */
    return (int)lwk_ret(IO(lwk_io->fcntl(lwk_fd(fd), cmd, arg)));
}

/* dirent.c's readdir: the next records of a directory's fd. */
long lwk_getdents(int fd, void *buf, size_t len)
{
    return IO(lwk_io->getdents(lwk_fd(fd), buf, len));
}
