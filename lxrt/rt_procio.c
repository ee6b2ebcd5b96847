/* SPDX-License-Identifier: MIT */
/*
 * rt_procio.c: the node's /proc and /sys files opened, read and listed
 * (rt_proc.c has their names).  The runtime puts this file's lwk_io
 * table in front of yod's (or the console's, under tools/lwkrun): a path
 * that is the node's, or a handle of a node file (LX_NODE_H up), is
 * answered here; the rest goes on, and the paths of what it opens are
 * kept for /proc/self/fd.  A file's contents are made when it is opened
 * and again when it is read from offset 0, as Linux makes them at each
 * read.  Everything here is read-only: writing, creating and removing
 * are EACCES (ENOENT for a name that is not there), and a node directory
 * cannot become the working directory, which is yod's (EACCES).
 * Results are newlib's -errno, as lwk_io's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libc_internal.h"
#include "rt_proc.h"

/* What the program opened, by handle: the path as given (made absolute
   with the working directory when it is first asked for, or before the
   working directory changes).  Its standard streams are yod's channels. */
static const struct lwk_io_ops *next;
static char *opened[LX_NODE_H];
static unsigned char relative[LX_NODE_H];
static char cwd[LX_PATH];
static int cwd_known;

static void remember(long h, const char *path)
{
    if (h < 0 || h >= LX_NODE_H)
        return;
    free(opened[h]);
    opened[h] = strdup(path);
    relative[h] = path[0] != '/';
}

static void absolute(long h)
{
    char joined[LX_PATH], *p;
    int dir;

    if (!opened[h] || !relative[h])
        return;
    if (!cwd_known && next->getcwd(cwd, sizeof(cwd)) >= 0)
        cwd_known = 1;
    if (!cwd_known ||
        snprintf(joined, sizeof(joined), "%s/%s", cwd, opened[h]) >= LX_PATH ||
        lx_normalize(joined, joined, &dir) < 0 || !(p = strdup(joined)))
        return;
    free(opened[h]);
    opened[h] = p;
    relative[h] = 0;
}

static struct nfile {
    int used, e;
    long n;
    char *path;                 /* its name, for /proc/self/fd */
    struct lx_text text;
    size_t off;
} nf[LX_NFD];

/* What handle h is, for /proc/self/fd. */
void lx_fd_name(struct lx_text *t, int h)
{
    if (h >= LX_NODE_H) {
        lx_put(t, nf[h - LX_NODE_H].path, strlen(nf[h - LX_NODE_H].path));
    } else if (h >= 0 && opened[h]) {
        absolute(h);
        lx_put(t, opened[h], strlen(opened[h]));
    } else if (h >= 0) {
        lx_say(t, lx_yod_files() ? "anon_inode:[yod]" : "/dev/console");
    }
}

/* (Re)make node file i's contents: 0 or -ENOMEM. */
static long make(int i)
{
    struct nfile *f = &nf[i];

    free(f->text.p);
    f->text = (struct lx_text){ 0 };
    lx_contents(&f->text, f->e, f->n);
    return f->text.short_of_memory ? -ENOMEM : 0;
}

static long node_close(int i)
{
    free(nf[i].text.p);
    free(nf[i].path);
    nf[i] = (struct nfile){ 0 };
    return 0;
}

static struct nfile *node(int h)
{
    return h >= LX_NODE_H && h < LX_NODE_H + LX_NFD &&
           nf[h - LX_NODE_H].used ? &nf[h - LX_NODE_H] : NULL;
}

static long node_open(const char *path, int flags, int mode);

/* /dev/fd/N opens N's file anew, as Linux does (its own offset): by the
   path it was opened by; yod's channels (0-2) have none, and are N's. */
static long reopen(int h, int flags, int mode)
{
    struct nfile *f = node(h);
    long rc;

    if (f)
        return node_open(f->path, flags, mode);
    if (h < 0 || h >= LX_NODE_H)
        return -EBADF;
    absolute(h);
    if (!opened[h])
        return h;
    if ((rc = next->open(opened[h], flags, mode)) >= 0)
        remember(rc, opened[h]);
    return rc;
}

static long node_open(const char *path, int flags, int mode)
{
    static struct lx_found f;
    long rc = lx_find(path, !(flags & O_NOFOLLOW), &f);
    int i, kind;

    if (rc < 0)
        return rc;
    if (f.fwd[0]) {                     /* /proc/self/exe: the file */
        rc = next->open(f.fwd, flags, mode);
        if (rc >= 0)
            remember(rc, f.fwd);
        return rc;
    }
    if (f.fd >= 0)                      /* /dev/fd/N */
        return reopen(lx_fd(f.fd), flags, mode);
    kind = lx_kind(f.e);
    if ((flags & O_CREAT) && (flags & O_EXCL))
        return -EEXIST;
    if (kind == LX_LINK)
        return -ELOOP;                  /* O_NOFOLLOW */
    if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
        return kind == LX_DIR ? -EISDIR : -EACCES;
    if ((flags & O_DIRECTORY) && kind != LX_DIR)
        return -ENOTDIR;
    for (i = 0; i < LX_NFD && nf[i].used; i++)
        ;
    if (i == LX_NFD)
        return -EMFILE;
    nf[i] = (struct nfile){ .used = 1, .e = f.e, .n = f.n,
                            .path = strdup(f.path) };
    if (!nf[i].path || (rc = make(i)) < 0) {
        node_close(i);
        return -ENOMEM;
    }
    return LX_NODE_H + i;
}

/* ---- the lwk_io table in front of yod's ----------------------------------- */

static long n_open(const char *path, int flags, int mode)
{
    long h;

    if (lx_node_path(path))
        return node_open(path, flags, mode);
    h = next->open(path, flags, mode);
    if (h >= 0)
        remember(h, path);
    return h;
}

static long n_close(int h)
{
    if (h >= LX_NODE_H)
        return node(h) ? node_close(h - LX_NODE_H) : -EBADF;
    if (h >= 0 && h < LX_NODE_H) {
        free(opened[h]);
        opened[h] = NULL;
    }
    return next->close(h);
}

static long n_read(int h, void *buf, size_t len)
{
    struct nfile *f = node(h);

    if (h < LX_NODE_H)
        return next->read(h, buf, len);
    if (!f)
        return -EBADF;
    if (lx_kind(f->e) == LX_DIR)
        return -EISDIR;
    if (f->off >= f->text.len)
        return 0;
    if (len > f->text.len - f->off)
        len = f->text.len - f->off;
    memcpy(buf, f->text.p + f->off, len);
    f->off += len;
    return (long)len;
}

static long n_write(int h, const void *buf, size_t len)
{
    return h < LX_NODE_H ? next->write(h, buf, len) : -EBADF;
}

/* Back to 0 makes the contents anew, as a new read of Linux's would. */
static long n_lseek(int h, long off, int whence)
{
    struct nfile *f = node(h);
    long to;

    if (h < LX_NODE_H)
        return next->lseek(h, off, whence);
    if (!f)
        return -EBADF;
    switch (whence) {
    case SEEK_SET: to = off; break;
    case SEEK_CUR: to = (long)f->off + off; break;
    case SEEK_END: to = (long)f->text.len + off; break;
    default: return -EINVAL;
    }
    if (to < 0)
        return -EINVAL;
    if (to == 0 && whence == SEEK_SET && make(h - LX_NODE_H) < 0)
        return -ENOMEM;
    f->off = (size_t)to;
    return to;
}

static long n_fstat(int h, struct stat *st)
{
    struct nfile *f = node(h);

    if (h < LX_NODE_H)
        return next->fstat(h, st);
    if (!f)
        return -EBADF;
    lx_stat_of(f->e, f->n, st);
    return 0;
}

static long stat_path(const char *path, struct stat *st, int follow)
{
    static struct lx_found f;
    long rc = lx_find(path, follow, &f);

    if (rc < 0)
        return rc;
    if (f.fwd[0])
        return next->stat(f.fwd, st);
    if (f.fd >= 0)
        return n_fstat(lx_fd(f.fd), st);
    lx_stat_of(f.e, f.n, st);
    return 0;
}

static long n_stat(const char *path, struct stat *st)
{
    return lx_node_path(path) ? stat_path(path, st, 1) : next->stat(path, st);
}

static long n_lstat(const char *path, struct stat *st)
{
    return lx_node_path(path) ? stat_path(path, st, 0) : next->lstat(path, st);
}

static long n_isatty(int h)
{
    return h < LX_NODE_H ? next->isatty(h) : node(h) ? 0 : -EBADF;
}

/* Creating, removing or renaming a node name: EACCES if it is there
   (mkdir: EEXIST), else ENOENT. */
static long refuse(const char *path, long there)
{
    static struct lx_found f;
    long rc = lx_find(path, 0, &f);

    return rc == 0 ? there : rc;
}

static long n_unlink(const char *path)
{
    return lx_node_path(path) ? refuse(path, -EACCES) : next->unlink(path);
}

static long n_rmdir(const char *path)
{
    return lx_node_path(path) ? refuse(path, -EACCES) : next->rmdir(path);
}

static long n_mkdir(const char *path, int mode)
{
    return lx_node_path(path) ? refuse(path, -EEXIST)
                              : next->mkdir(path, mode);
}

static long n_link(const char *from, const char *to)
{
    if (lx_node_path(from))
        return refuse(from, -EACCES);
    return lx_node_path(to) ? refuse(to, -EEXIST) : next->link(from, to);
}

static long n_rename(const char *from, const char *to)
{
    if (lx_node_path(from))
        return refuse(from, -EACCES);
    return lx_node_path(to) ? refuse(to, -EACCES) : next->rename(from, to);
}

static long n_getcwd(char *buf, size_t len)
{
    return next->getcwd(buf, len);
}

/* yod keeps the working directory: the names opened relative to the one
   being left are made absolute first. */
static long n_chdir(const char *path)
{
    long rc;

    if (lx_node_path(path))
        return refuse(path, -EACCES);
    for (int h = 0; h < LX_NODE_H; h++)
        absolute(h);
    rc = next->chdir(path);
    if (rc == 0)
        cwd_known = 0;
    return rc;
}

static long n_access(const char *path, int mode)
{
    static struct lx_found f;
    long rc;

    if (!lx_node_path(path))
        return next->access(path, mode);
    if ((rc = lx_find(path, 1, &f)) < 0)
        return rc;
    if (f.fwd[0])
        return next->access(f.fwd, mode);
    if (f.fd >= 0)
        return 0;
    if ((mode & W_OK) || ((mode & X_OK) && lx_kind(f.e) != LX_DIR))
        return -EACCES;
    return 0;
}

static long n_ftruncate(int h, long len)
{
    return h < LX_NODE_H ? next->ftruncate(h, len) : node(h) ? -EINVAL
                                                             : -EBADF;
}

static long n_fsync(int h)
{
    return h < LX_NODE_H ? next->fsync(h) : node(h) ? -EINVAL : -EBADF;
}

static long n_fcntl(int h, int cmd, long arg)
{
    return h < LX_NODE_H ? next->fcntl(h, cmd, arg) : node(h) ? -EINVAL
                                                              : -EBADF;
}

/* Whole records from the offset, as many as fit. */
static long n_getdents(int h, void *buf, size_t len)
{
    struct nfile *f = node(h);
    size_t n = 0;

    if (h < LX_NODE_H)
        return next->getdents(h, buf, len);
    if (!f)
        return -EBADF;
    if (lx_kind(f->e) != LX_DIR)
        return -ENOTDIR;
    while (f->off + n + sizeof(struct lx_dirent64) <= f->text.len) {
        const struct lx_dirent64 *d =
            (const void *)(f->text.p + f->off + n);

        if (n + d->reclen > len)
            break;
        n += d->reclen;
    }
    if (n == 0 && f->off < f->text.len)
        return -EINVAL;                 /* not even one fits */
    memcpy(buf, f->text.p + f->off, n);
    f->off += n;
    return (long)n;
}

static const struct lwk_io_ops node_io = {
    .open = n_open, .close = n_close, .read = n_read, .write = n_write,
    .lseek = n_lseek, .fstat = n_fstat, .stat = n_stat, .lstat = n_lstat,
    .isatty = n_isatty, .unlink = n_unlink, .link = n_link,
    .rename = n_rename, .mkdir = n_mkdir, .rmdir = n_rmdir,
    .getcwd = n_getcwd, .chdir = n_chdir, .access = n_access,
    .ftruncate = n_ftruncate, .fsync = n_fsync, .fcntl = n_fcntl,
    .getdents = n_getdents,
};

int lx_yod_files(void)
{
    return next == &lwk_io_yod;
}

void lx_node_setup(void)
{
    next = lwk_io;
    lwk_io = &node_io;
}
