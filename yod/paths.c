/* SPDX-License-Identifier: MIT */
/*
 * paths.c: where a rank's paths lead (paths.h).  Without -chroot a path
 * means what it means on Linux from the rank's own working directory (a
 * directory fd, used with openat2): the rank has every right of the user
 * running yod, no more.  With -chroot DIR every path is resolved by the
 * kernel inside DIR as if DIR were / (RESOLVE_IN_ROOT): .. stops at DIR,
 * absolute paths and symlinks (absolute or relative) start again from
 * DIR, so no name a rank gives reaches outside DIR.  openat2 takes one
 * directory as the root and the start, so a confined rank's working
 * directory is kept as its path inside DIR and relative paths are joined
 * to it.  Calls that act on a name itself (unlink, rmdir, mkdir, rename,
 * link) use the directory it is in, resolved the same way, and the name
 * alone.
 *
 * In both modes a rank never reaches the service host's own interfaces
 * (docs/SECURITY.md): what a path leads to is looked at (O_PATH, which
 * opens nothing) before it is opened, and anything on the host's /proc,
 * /sys and their kin (wherever mounted, through any symlink or ..), any
 * device but null, zero, full, random and urandom, and any magic link
 * (/proc/self/fd/N, /dev/stdin: yod's own files) is ENOENT, as for a
 * name that is not there.  A node describes itself (lxrt/rt_proc.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
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

/* The service host's own interfaces, whose files describe or control the
   host (its processes, devices, kernel), not the job. */
static const unsigned long host_only[] = {
    PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC,
    SECURITYFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, BPF_FS_MAGIC,
    EFIVARFS_MAGIC, PSTOREFS_MAGIC, BINFMTFS_MAGIC, DEVPTS_SUPER_MAGIC,
    NSFS_MAGIC, 0x62656570 /* configfs */, 0x65735543 /* fusectl */,
};

/* What fd (any kind, O_PATH too) is may be a rank's: 0, or -ENOENT. */
static int reachable(int fd)
{
    struct statfs fs;
    struct stat st;
    unsigned minor;

    if (fstatfs(fd, &fs) < 0 || fstat(fd, &st) < 0)
        return -errno;
    for (size_t i = 0; i < sizeof(host_only) / sizeof(host_only[0]); i++)
        if ((unsigned long)fs.f_type == host_only[i])
            return -ENOENT;
    if (S_ISBLK(st.st_mode))
        return -ENOENT;
    minor = minor(st.st_rdev);      /* 1:3 null, 5 zero, 7 full, 8, 9 */
    if (S_ISCHR(st.st_mode) && (major(st.st_rdev) != 1 || (minor != 3 &&
        minor != 5 && minor != 7 && minor != 8 && minor != 9)))
        return -ENOENT;
    return 0;
}

/* Open `path` from the rank's directory (inside DIR with -chroot) with
   `flags`, never through a magic link: one is ELOOP from openat2, and
   ENOENT here (a path through /proc). */
static int lookup(const struct cwd *c, const char *path, int flags,
                  mode_t mode)
{
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .mode = flags & O_CREAT ? mode : 0,
        .resolve = RESOLVE_NO_MAGICLINKS,
    };
    char in[PATH_MAX];
    int dir = c->fd, rc;
    long fd;

    if (P.confined) {
        if ((rc = inside(c, path, in)) < 0)
            return rc;
        path = in;
        dir = P.home;
        how.resolve |= RESOLVE_IN_ROOT;
    }
    if ((fd = syscall(SYS_openat2, dir, path, &how, sizeof(how))) >= 0)
        return (int)fd;
    rc = -errno;
    if (rc == -ELOOP) {         /* a loop, O_NOFOLLOW, or a magic link? */
        struct stat st;

        how = (struct open_how){ .flags = O_PATH | O_CLOEXEC |
                                          (uint64_t)(flags & O_NOFOLLOW),
                                 .resolve = how.resolve &
                                            ~(uint64_t)RESOLVE_NO_MAGICLINKS };
        if ((fd = syscall(SYS_openat2, dir, path, &how, sizeof(how))) >= 0) {
            if (fstat((int)fd, &st) == 0 && !S_ISLNK(st.st_mode))
                rc = -ENOENT;   /* it leads through a magic link */
            close((int)fd);
        }
    }
    return rc;
}

/* What path leads to is looked at first (O_PATH opens no device and
   blocks on no FIFO), then opened; a new file is looked at once made. */
int path_open(const struct cwd *c, const char *path, int flags, mode_t mode)
{
    int fd = lookup(c, path, O_PATH | (flags & (O_NOFOLLOW | O_DIRECTORY)),
                    0), rc;

    if (fd >= 0) {
        rc = reachable(fd);
        close(fd);
        if (rc < 0)
            return rc;
    } else if (fd != -ENOENT || !(flags & O_CREAT)) {
        return fd;
    }
    if ((fd = lookup(c, path, flags, mode)) >= 0 && (rc = reachable(fd)) < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

int path_parent(const struct cwd *c, const char *path, char *name)
{
    char dir[PATH_MAX], *last, *base;
    size_t n;
    int fd, rc;

    if (snprintf(dir, sizeof(dir), "%s", path) >= PATH_MAX)
        return -ENAMETOOLONG;
    for (n = strlen(dir); n > 1 && dir[n - 1] == '/';)
        dir[--n] = 0;           /* "dir/" names dir */
    last = strrchr(dir, '/');
    base = last ? last + 1 : dir;
    if (!strcmp(base, "") || !strcmp(base, ".") || !strcmp(base, "..")) {
        strcpy(name, ".");      /* the directory itself */
    } else {
        strcpy(name, base);
        if (!last)
            strcpy(dir, ".");   /* "x" is in the working directory */
        else if (last == dir)
            dir[1] = 0;         /* "/x" is in "/" */
        else
            *last = 0;          /* "/a/x" is in "/a" */
    }
    if ((fd = lookup(c, dir, O_PATH | O_DIRECTORY, 0)) >= 0 &&
        (rc = reachable(fd)) < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

int path_stat(const struct cwd *c, const char *path, struct stat *st,
              int nofollow)
{
    int fd = lookup(c, path, O_PATH | (nofollow ? O_NOFOLLOW : 0), 0), rc;

    if (fd < 0)
        return fd;
    if ((rc = reachable(fd)) == 0 && fstat(fd, st) < 0)
        rc = -errno;
    close(fd);
    return rc;
}

int path_access(const struct cwd *c, const char *path, int mode)
{
    int fd = lookup(c, path, O_PATH, 0), rc;

    if (fd < 0)
        return fd;
    if ((rc = reachable(fd)) == 0 &&
        faccessat(fd, "", mode, AT_EMPTY_PATH | AT_EACCESS) < 0)
        rc = -errno;
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
