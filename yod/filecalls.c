/* SPDX-License-Identifier: MIT */
/*
 * filecalls.c: the file calls yod answers at once (filecalls.h), on a
 * rank's own fds and working directory; paths.c says where a path leads.
 * Open flags and errno travel in the protocol's numbering (yod_proto.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecalls.h"

/* A system call's result as value or -errno. */
static long sys(long rc)
{
    return rc < 0 ? -errno : rc;
}

int files_fd(const struct files *f, int fd)
{
    return fd >= 0 && fd < MAX_FDS ? f->fd[fd] : -1;
}

struct pfs_file *files_pfs(const struct files *f, int fd)
{
    return files_fd(f, fd) >= 0 ? f->pfs[fd] : NULL;
}

static long do_open(struct files *f, const struct yod_file_req *q,
                    const char *path)
{
    static const struct { uint32_t yod; int host; } bits[] = {
        { YOD_O_APPEND, O_APPEND }, { YOD_O_CREAT, O_CREAT },
        { YOD_O_TRUNC, O_TRUNC }, { YOD_O_EXCL, O_EXCL },
        { YOD_O_NONBLOCK, O_NONBLOCK }, { YOD_O_SYNC, O_SYNC },
        { YOD_O_NOFOLLOW, O_NOFOLLOW }, { YOD_O_DIRECTORY, O_DIRECTORY },
    };
    uint32_t known = YOD_O_ACCMODE;
    int flags = (int)(q->flags & YOD_O_ACCMODE) | O_CLOEXEC | O_NOCTTY;
    int slot, fd;

    for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
        known |= bits[i].yod;
        if (q->flags & bits[i].yod)
            flags |= bits[i].host;
    }
    if ((q->flags & ~known) || (q->flags & YOD_O_ACCMODE) == 3)
        return -EINVAL;
    for (slot = 3; slot < MAX_FDS && f->fd[slot] >= 0; slot++)
        ;
    if (slot == MAX_FDS)
        return -EMFILE;
    if (pfs_named(path)) {              /* a striped file, or DIR's own */
        long rc = pfs_open(q, &fd, &f->pfs[slot]);
        if (rc < 0)
            return rc;
        f->fd[slot] = fd;
        return slot;
    }
    if ((fd = path_open(&f->cwd, path, flags, (mode_t)(q->mode & 07777))) < 0)
        return fd;
    f->fd[slot] = fd;
    return slot;
}

static long do_close(struct files *f, int fd)
{
    int ours = files_fd(f, fd);

    if (ours < 0)
        return -EBADF;
    f->fd[fd] = -1;
    pfs_close(f->pfs[fd]);
    f->pfs[fd] = NULL;
    return sys(close(ours));
}

static void to_yod_stat(const struct stat *st, struct yod_stat *y)
{
    *y = (struct yod_stat){
        .dev = st->st_dev, .ino = st->st_ino, .mode = st->st_mode,
        .nlink = st->st_nlink, .uid = st->st_uid, .gid = st->st_gid,
        .rdev = st->st_rdev, .size = (uint64_t)st->st_size,
        .blksize = (uint64_t)st->st_blksize,
        .blocks = (uint64_t)st->st_blocks,
        .atime = st->st_atim.tv_sec, .atime_ns = st->st_atim.tv_nsec,
        .mtime = st->st_mtim.tv_sec, .mtime_ns = st->st_mtim.tv_nsec,
        .ctime = st->st_ctim.tv_sec, .ctime_ns = st->st_ctim.tv_nsec,
    };
}

/* fstat (path NULL), or stat/lstat (nofollow) of a path. */
static long do_stat(struct files *f, int fd, const char *path, int nofollow,
                    struct yod_stat *y)
{
    struct stat st;
    int rc = path ? path_stat(&f->cwd, path, &st, nofollow)
                  : fstat(files_fd(f, fd), &st) < 0 ? -errno : 0;

    if (rc < 0)
        return rc;
    if (!path && files_pfs(f, fd))
        pfs_stat_fix(files_pfs(f, fd), &st);    /* the logical size */
    to_yod_stat(&st, y);
    return 0;
}

/* The calls on a name itself, in the directory it is in (paths.c). */
static long on_name(struct files *f, const struct yod_file_req *q,
                    const char *p, const char *p2)
{
    char name[PATH_MAX], name2[PATH_MAX];
    int dir = path_parent(&f->cwd, p, name), dir2 = -1;
    long rc;

    if (dir < 0)
        return dir;
    if (p2 && (dir2 = path_parent(&f->cwd, p2, name2)) < 0) {
        close(dir);
        return dir2;
    }
    switch (q->op) {
    case YOD_F_UNLINK: rc = sys(unlinkat(dir, name, 0)); break;
    case YOD_F_RMDIR: rc = sys(unlinkat(dir, name, AT_REMOVEDIR)); break;
    case YOD_F_MKDIR:
        rc = sys(mkdirat(dir, name, (mode_t)(q->mode & 07777)));
        break;
    case YOD_F_LINK: rc = sys(linkat(dir, name, dir2, name2, 0)); break;
    case YOD_F_RENAME: rc = sys(renameat(dir, name, dir2, name2)); break;
    default: rc = -ENOSYS;
    }
    close(dir);
    if (dir2 >= 0)
        close(dir2);
    return rc;
}

/* How many paths each operation carries. */
static unsigned paths_of(uint32_t op)
{
    switch (op) {
    case YOD_F_LINK: case YOD_F_RENAME: case YOD_F_SREAD: case YOD_F_SWRITE:
        return 2;
    case YOD_F_OPEN: case YOD_F_STAT: case YOD_F_LSTAT: case YOD_F_UNLINK:
    case YOD_F_RMDIR: case YOD_F_MKDIR: case YOD_F_CHDIR: case YOD_F_ACCESS:
        return 1;
    default: return 0;
    }
}

/* A call on a name under /pfs (pfs.c); OPEN is do_open's. */
static long pfs_call(const struct yod_file_req *q, struct yod_stat *y)
{
    struct stat st;
    long rc = pfs_path_call(q, &st);

    if (rc == 0 && (q->op == YOD_F_STAT || q->op == YOD_F_LSTAT))
        to_yod_stat(&st, y);
    return rc;
}

/* The calls on an open striped file that its stripes answer. */
static long pfs_fd_call(struct pfs_file *pf, int fd,
                        const struct yod_file_req *q)
{
    uint64_t size;

    switch (q->op) {
    case YOD_F_LSEEK:
        if (q->flags != SEEK_END)
            return sys(lseek(fd, q->off, (int)q->flags));
        pfs_size(pf, &size);
        return sys(lseek(fd, (off_t)size + q->off, SEEK_SET));
    case YOD_F_FTRUNCATE:
        return q->off < 0 ? -EINVAL : pfs_ftruncate(pf, (uint64_t)q->off);
    case YOD_F_FSYNC: return pfs_fsync(pf);
    default: return -ENOSYS;
    }
}

long files_call(struct files *f, const struct yod_file_req *q,
                struct yod_stat *st)
{
    const char *p = q->path, *p2 = q->path + q->path_len;
    int fd = files_fd(f, q->fd);

    if (q->op != YOD_F_OPEN && paths_of(q->op) &&
        (pfs_named(p) || (q->path2_len && pfs_named(p2))))
        return pfs_call(q, st);
    if (files_pfs(f, q->fd) && (q->op == YOD_F_LSEEK ||
                                q->op == YOD_F_FTRUNCATE ||
                                q->op == YOD_F_FSYNC))
        return pfs_fd_call(files_pfs(f, q->fd), fd, q);
    switch (q->op) {
    case YOD_F_OPEN: return do_open(f, q, p);
    case YOD_F_CLOSE: return do_close(f, q->fd);
    case YOD_F_LSEEK:
        return q->flags > SEEK_END ? -EINVAL
                                   : sys(lseek(fd, q->off, (int)q->flags));
    case YOD_F_FSTAT: return do_stat(f, q->fd, NULL, 0, st);
    case YOD_F_STAT: return do_stat(f, -1, p, 0, st);
    case YOD_F_LSTAT: return do_stat(f, -1, p, 1, st);
    case YOD_F_ISATTY: return isatty(fd) ? 1 : -errno;
    case YOD_F_UNLINK: case YOD_F_RMDIR: case YOD_F_MKDIR:
        return on_name(f, q, p, NULL);
    case YOD_F_LINK: case YOD_F_RENAME: return on_name(f, q, p, p2);
    case YOD_F_CHDIR: return path_chdir(&f->cwd, p);
    case YOD_F_ACCESS:
        return q->flags & ~7u ? -EINVAL
                              : path_access(&f->cwd, p, (int)q->flags);
    case YOD_F_FTRUNCATE: return sys(ftruncate(fd, q->off));
    case YOD_F_FSYNC: return sys(fsync(fd));
    default: return -ENOSYS;
    }
}

int files_request_ok(const struct yod_file_req *q, size_t len)
{
    unsigned n = paths_of(q->op);

    if (len < YOD_FILE_REQ_HDR || q->path_len > YOD_PATH_MAX ||
        q->path2_len > YOD_PATH_MAX ||
        YOD_FILE_REQ_HDR + q->path_len + q->path2_len != len)
        return 0;
    if ((n >= 1) != (q->path_len > 0) || (n == 2) != (q->path2_len > 0))
        return 0;
    return (!q->path_len || q->path[q->path_len - 1] == 0) &&
           (!q->path2_len || q->path[q->path_len + q->path2_len - 1] == 0);
}


void files_close(struct files *f)
{
    for (int fd = 0; fd < MAX_FDS; fd++)
        if (f->fd[fd] >= 0) {
            close(f->fd[fd]);
            f->fd[fd] = -1;
            pfs_close(f->pfs[fd]);
            f->pfs[fd] = NULL;
        }
    paths_close(&f->cwd);
}
