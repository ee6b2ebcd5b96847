/* SPDX-License-Identifier: MIT */
/*
 * paths.c: where a rank's paths lead (paths.h).  Without -chroot a path
 * means what it means on Linux from the rank's own working directory (a
 * directory fd, used with the *at() calls): the rank has every right of
 * the user running yod, no more.  With -chroot DIR every path is resolved
 * by the kernel inside DIR as if DIR were / (openat2 RESOLVE_IN_ROOT): ..
 * stops at DIR, absolute paths and symlinks (absolute or relative) start
 * again from DIR, and magic links (/proc/self/fd/...) are refused, so no
 * name a rank gives reaches outside DIR.  openat2 takes one directory as
 * the root and the start, so a confined rank's working directory is kept
 * as its path inside DIR and relative paths are joined to it.  Calls that
 * act on a name itself (unlink, rmdir, mkdir, rename, link, lstat) use the
 * directory it is in, resolved the same way, and the name alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "paths.h"

static struct {
    int home;                   /* yod's working directory, or DIR */
    int confined;
    char real[PATH_MAX];        /* DIR's canonical path */
} P = { .home = -1 };

int paths_confine(const char *dir)
{
    P.home = open(dir ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (P.home < 0)
        return -errno;
    P.confined = dir != NULL;
    if (P.confined && !realpath(dir, P.real))
        return -errno;
    return 0;
}

int paths_start(struct cwd *c)
{
    if ((c->fd = fcntl(P.home, F_DUPFD_CLOEXEC, 3)) < 0)
        return -errno;
    snprintf(c->path, sizeof(c->path), "/");
    return 0;
}

void paths_close(struct cwd *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* -chroot: `path`, from the rank's directory, as a path inside DIR. */
static int inside(const struct cwd *c, const char *path, char *out)
{
    int n = path[0] == '/' ? snprintf(out, PATH_MAX, "%s", path)
                           : snprintf(out, PATH_MAX, "%s/%s", c->path, path);

    return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* -chroot: open a path inside DIR, with DIR as its root. */
static int resolve(const char *in_dir, int flags, mode_t mode)
{
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .mode = flags & O_CREAT ? mode : 0,
        .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
    };
    long fd = syscall(SYS_openat2, P.home, in_dir, &how, sizeof(how));

    return fd < 0 ? -errno : (int)fd;
}

int path_open(const struct cwd *c, const char *path, int flags, mode_t mode)
{
    char in[PATH_MAX];
    int rc;

    if (!P.confined)
        return (rc = openat(c->fd, path, flags, mode)) < 0 ? -errno : rc;
    return (rc = inside(c, path, in)) < 0 ? rc : resolve(in, flags, mode);
}

int path_parent(const struct cwd *c, const char *path, char *name)
{
    char in[PATH_MAX], *last;
    size_t n;
    int rc;

    if (!P.confined) {
        snprintf(name, PATH_MAX, "%s", path);
        return (rc = fcntl(c->fd, F_DUPFD_CLOEXEC, 3)) < 0 ? -errno : rc;
    }
    if ((rc = inside(c, path, in)) < 0)
        return rc;
    for (n = strlen(in); n > 1 && in[n - 1] == '/';)
        in[--n] = 0;            /* "dir/" names dir */
    last = strrchr(in, '/');    /* there is one: `in` starts with / */
    if (!strcmp(last + 1, "") || !strcmp(last + 1, ".") ||
        !strcmp(last + 1, "..")) {
        strcpy(name, ".");      /* the directory itself, resolved inside */
        return resolve(in, O_PATH | O_DIRECTORY, 0);
    }
    strcpy(name, last + 1);
    if (last == in)
        last++;                 /* "/x" is in "/" */
    *last = 0;                  /* "/a/x" is in "/a" */
    return resolve(in, O_PATH | O_DIRECTORY, 0);
}

int path_stat(const struct cwd *c, const char *path, struct stat *st,
              int nofollow)
{
    char name[PATH_MAX];
    int fd, rc;

    if (nofollow || !P.confined) {
        if ((fd = path_parent(c, path, name)) < 0)
            return fd;
        rc = fstatat(fd, name, st, nofollow ? AT_SYMLINK_NOFOLLOW : 0);
    } else {
        if ((fd = path_open(c, path, O_PATH, 0)) < 0)
            return fd;
        rc = fstat(fd, st);
    }
    rc = rc < 0 ? -errno : 0;
    close(fd);
    return rc;
}

int path_access(const struct cwd *c, const char *path, int mode)
{
    int fd, rc;

    if (!P.confined)
        return faccessat(c->fd, path, mode, AT_EACCESS) < 0 ? -errno : 0;
    if ((fd = path_open(c, path, O_PATH, 0)) < 0)
        return fd;
    rc = faccessat(fd, "", mode, AT_EMPTY_PATH | AT_EACCESS) < 0 ? -errno : 0;
    close(fd);
    return rc;
}

/* The canonical path of directory `fd` (as the rank sees it: inside DIR
   with -chroot). */
static int where(int fd, char *buf, size_t len)
{
    char proc[64], real[PATH_MAX];
    ssize_t n;
    size_t skip = P.confined ? strlen(P.real) : 0;

    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    if ((n = readlink(proc, real, sizeof(real) - 1)) < 0)
        return -errno;
    real[n] = 0;
    if (skip == 1)
        skip = 0;               /* DIR is / itself */
    if (strncmp(real, P.real, skip) || (real[skip] && real[skip] != '/'))
        return -ENOENT;         /* moved out of DIR meanwhile */
    if ((size_t)snprintf(buf, len, "%s", real[skip] ? real + skip : "/")
        >= len)
        return -ERANGE;
    return 0;
}

/* The new directory must exist and be searchable by the user. */
int path_chdir(struct cwd *c, const char *path)
{
    char now[PATH_MAX];
    int fd = path_open(c, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0), rc;

    if (fd < 0)
        return fd;
    if (faccessat(fd, ".", X_OK, AT_EACCESS) < 0)
        rc = -errno;
    else
        rc = P.confined ? where(fd, now, sizeof(now)) : 0;
    if (rc < 0) {
        close(fd);
        return rc;
    }
    close(c->fd);
    c->fd = fd;
    if (P.confined)
        strcpy(c->path, now);
    return 0;
}

int path_getcwd(const struct cwd *c, char *buf, size_t len)
{
    if (P.confined)
        return (size_t)snprintf(buf, len, "%s", c->path) >= len ? -ERANGE : 0;
    return where(c->fd, buf, len);
}

int path_seen(const char *host_path, const char *chroot, char *out, size_t len)
{
    char real[PATH_MAX], root[PATH_MAX];
    size_t n = 0;

    if (!realpath(host_path, real) || (chroot && !realpath(chroot, root)))
        return -errno;
    if (chroot && strcmp(root, "/")) {
        n = strlen(root);
        if (strncmp(real, root, n) || (real[n] && real[n] != '/'))
            return -ENOENT;     /* outside DIR: the rank cannot name it */
    }
    if ((size_t)snprintf(out, len, "%s", real[n] ? real + n : "/") >= len)
        return -ENAMETOOLONG;
    return 0;
}
