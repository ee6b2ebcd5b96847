/* SPDX-License-Identifier: MIT */
/*
 * pfs.c: striped parallel files on an I/O server (pfs.h, docs/io.md).
 * Every server of a job (yod and its I/O server processes) mounts the
 * same directory DIR; a rank's path /pfs/NAME is DIR/NAME, resolved only
 * beneath DIR (openat2's RESOLVE_BENEATH and no symbolic links, so no
 * name leads out of it, whatever -chroot says of the rest).
 *
 * Consistency when many ranks act at once comes from the host file
 * system's own atomic calls: a file is created by making its stripes
 * under a fresh random id and then link(2)ing its complete metadata to
 * the name (exactly one of several O_CREAT|O_EXCL wins, and an open never
 * sees half a metadata line); unlink and rename act on the name alone,
 * atomically, and the stripes of the id that lost its name go after;
 * the size is the stripes' (pfs_map.h), never a record to keep in step.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pfs.h"

static int root = -1;           /* DIR (O_PATH) */
static struct stat root_st;     /* its device and inode */

int pfs_mount(const char *dir)
{
    if (!dir || !*dir)
        return 0;
    if ((root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
        fstat(root, &root_st) < 0)
        return -errno;
    if (mkdirat(root, PFS_STORE, 0700) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

/* The part of `path` after /pfs/ ("" for /pfs itself), or NULL. */
static const char *rel_of(const char *path)
{
    size_t n = strlen(PFS_MOUNT);

    if (root < 0 || strncmp(path, PFS_MOUNT, n) != 0 ||
        (path[n] != '/' && path[n] != 0))
        return NULL;
    while (path[n] == '/')
        n++;
    return path + n;
}

int pfs_named(const char *path)
{
    return rel_of(path) != NULL;
}

/* openat2 beneath `at` (DIR), no symbolic links at all. */
static int beneath(int at, const char *rel, int flags, mode_t mode)
{
    struct open_how how = { .flags = (uint64_t)(flags | O_CLOEXEC),
                            .mode = flags & O_CREAT ? mode : 0,
                            .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
                                       RESOLVE_NO_MAGICLINKS };
    long fd = syscall(SYS_openat2, at, *rel ? rel : ".", &how, sizeof(how));

    return fd < 0 ? -errno : (int)fd;
}

/* The directory holding /pfs/REL's last name (an fd to close) and that
   name in name[PATH_MAX].  The store of stripes is not a rank's. */
static int parent(const char *path, char *name)
{
    const char *rel = rel_of(path), *slash;
    char dir[PATH_MAX];
    size_t n;

    if (!rel)
        return -EXDEV;
    if (!*rel)
        return -EBUSY;          /* /pfs itself: the mount point */
    if (strncmp(rel, PFS_STORE, strlen(PFS_STORE)) == 0 &&
        (rel[strlen(PFS_STORE)] == '/' || !rel[strlen(PFS_STORE)]))
        return -EACCES;
    slash = strrchr(rel, '/');
    n = slash ? (size_t)(slash - rel) : 0;
    snprintf(dir, sizeof(dir), "%.*s", (int)n, rel);
    snprintf(name, PATH_MAX, "%s", slash ? slash + 1 : rel);
    if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
        return -EINVAL;
    return beneath(root, dir, O_PATH | O_DIRECTORY, 0);
}

/* ---- metadata ------------------------------------------------------------ */

/* The layout in a metadata file (fd): 1, or 0 if it is not one (an
   ordinary file under DIR is served as such). */
static int meta_read(int fd, struct pfs_file *pf)
{
    char line[PFS_META_MAX + 1];
    ssize_t n = pread(fd, line, PFS_META_MAX, 0);
    unsigned long long unit;
    unsigned factor;

    if (n <= 0)
        return 0;
    line[n] = 0;
    if (sscanf(line, "lwk-pfs 1 id %" SCNx64 " factor %u unit %llu",
               &pf->id, &factor, &unit) != 3 || !pfs_layout_ok(factor, unit))
        return 0;
    pf->factor = factor;
    pf->unit = unit;
    for (int i = 0; i < PFS_FACTOR_MAX; i++)
        pf->sfd[i] = -1;
    return 1;
}

/* The layout of the name `name` in `dir`: 1, 0 (not striped), -errno. */
static int meta_of(int dir, const char *name, struct pfs_file *pf)
{
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
                    O_NONBLOCK), rc;

    if (fd < 0)
        return -errno;
    rc = meta_read(fd, pf);
    close(fd);
    return rc;
}

static void stripe_name(char *buf, size_t len, uint64_t id, uint32_t i)
{
    snprintf(buf, len, PFS_STORE "/%u/%016" PRIx64, i, id);
}

static void stripes_unlink(uint64_t id, uint32_t factor)
{
    char s[64];

    for (uint32_t i = 0; i < factor; i++) {
        stripe_name(s, sizeof(s), id, i);
        unlinkat(root, s, 0);
    }
}

/* A new striped file `name` in `dir`: its stripes, then its metadata
   linked to the name in one step.  0, or -EEXIST if the name was taken
   meanwhile (or before), or -errno. */
static long create(int dir, const char *name, mode_t mode, uint32_t factor,
                   uint64_t unit)
{
    char s[64], tmp[64], line[PFS_META_MAX];
    uint64_t id;
    int fd, n, rc = 0;

    if (getrandom(&id, sizeof(id), 0) != sizeof(id))
        return -EIO;
    for (uint32_t i = 0; i < factor && rc == 0; i++) {
        snprintf(s, sizeof(s), PFS_STORE "/%u", i);
        if (mkdirat(root, s, 0700) < 0 && errno != EEXIST)
            rc = -errno;
        stripe_name(s, sizeof(s), id, i);
        if (rc == 0 && (fd = openat(root, s, O_WRONLY | O_CREAT | O_EXCL |
                                    O_CLOEXEC, mode)) < 0)
            rc = -errno;
        if (rc == 0)
            close(fd);
    }
    n = snprintf(line, sizeof(line), "lwk-pfs 1 id %016" PRIx64
                 " factor %u unit %" PRIu64 "\n", id, factor, unit);
    snprintf(tmp, sizeof(tmp), PFS_STORE "/new-%016" PRIx64, id);
    if (rc == 0 && (fd = openat(root, tmp, O_WRONLY | O_CREAT | O_EXCL |
                                O_CLOEXEC, mode)) < 0)
        rc = -errno;
    if (rc == 0) {
        if (write(fd, line, (size_t)n) != n)
            rc = errno ? -errno : -ENOSPC;
        close(fd);
    }
    if (rc == 0 && linkat(root, tmp, dir, name, 0) < 0)
        rc = -errno;
    unlinkat(root, tmp, 0);
    if (rc < 0)
        stripes_unlink(id, factor);
    return rc;
}

/* ---- calls on names ------------------------------------------------------- */

static int host_flags(uint32_t y)
{
    return (int)(y & YOD_O_ACCMODE) | (y & YOD_O_NONBLOCK ? O_NONBLOCK : 0) |
           (y & YOD_O_SYNC ? O_SYNC : 0) |
           (y & YOD_O_DIRECTORY ? O_DIRECTORY : 0) | O_NOFOLLOW | O_NOCTTY;
}

/* Open `name` in `dir` as asked, striped or not; *pf set if striped. */
static long open_name(int dir, const char *name, const struct yod_file_req *q,
                      struct pfs_file **pf)
{
    struct pfs_file f;
    int flags = host_flags(q->flags), fd;

    if (meta_of(dir, name, &f) != 1) {
        /* an ordinary file or directory of DIR: as asked */
        flags |= (q->flags & YOD_O_TRUNC ? O_TRUNC : 0) |
                 (q->flags & YOD_O_APPEND ? O_APPEND : 0);
        fd = openat(dir, name, flags | O_CLOEXEC);
        return fd < 0 ? -errno : fd;
    }
    /* the metadata, opened as asked: the permission checks are its */
    if ((fd = openat(dir, name, flags | O_CLOEXEC)) < 0)
        return -errno;
    if (!(*pf = malloc(sizeof(f)))) {
        close(fd);
        return -ENOMEM;
    }
    f.append = !!(q->flags & YOD_O_APPEND);
    **pf = f;
    if ((q->flags & YOD_O_TRUNC) && (q->flags & YOD_O_ACCMODE)) {
        long rc = pfs_ftruncate(*pf, 0);
        if (rc < 0) {
            pfs_close(*pf);
            *pf = NULL;
            close(fd);
            return rc;
        }
    }
    return fd;
}

long pfs_open(const struct yod_file_req *q, int *fd_out, struct pfs_file **pf)
{
    char name[PATH_MAX];
    const char *rel = rel_of(q->path);
    uint64_t factor = (uint64_t)q->off, unit = q->len;
    int dir;
    long rc;

    *pf = NULL;
    if (rel && !*rel) {         /* /pfs itself: a directory to read */
        if ((q->flags & (YOD_O_ACCMODE | YOD_O_CREAT)))
            return -EISDIR;
        return (*fd_out = beneath(root, "", O_RDONLY | O_DIRECTORY, 0));
    }
    if ((dir = parent(q->path, name)) < 0)
        return dir;
    factor = factor ? factor : 1;
    unit = unit ? unit : PFS_UNIT_DEFAULT;
    rc = -EEXIST;
    if ((q->flags & YOD_O_CREAT) && !pfs_layout_ok(factor, unit))
        rc = -EINVAL;
    else if (q->flags & YOD_O_CREAT)
        rc = create(dir, name, (mode_t)(q->mode & 07777), (uint32_t)factor,
                    unit);
    if (rc == -EEXIST && !(q->flags & YOD_O_EXCL))
        rc = 0;                 /* there already (or just made): open it */
    if (rc == 0) {
        /* O_TRUNC on a file just made is a no-op; on an old one, ours */
        rc = open_name(dir, name, q, pf);
        if (rc >= 0)
            *fd_out = (int)rc;
    }
    close(dir);
    return rc;
}

/* The logical size and blocks of a striped file, by its stripes' stats. */
void pfs_stat_fix(const struct pfs_file *pf, struct stat *st)
{
    uint64_t size = 0, blocks = 0;
    char s[64];

    for (uint32_t i = 0; i < pf->factor; i++) {
        struct stat ss;
        uint64_t end;

        stripe_name(s, sizeof(s), pf->id, i);
        if (fstatat(root, s, &ss, AT_SYMLINK_NOFOLLOW) < 0)
            continue;           /* gone: empty */
        end = pfs_logical_end((uint64_t)ss.st_size, i, pf->unit, pf->factor);
        size = end > size ? end : size;
        blocks += (uint64_t)ss.st_blocks;
    }
    st->st_size = (off_t)size;
    st->st_blocks = (blkcnt_t)blocks;
    st->st_blksize = (blksize_t)pf->unit;
}

/* stat or lstat of `name` in `dir` (a striped file: its logical size). */
static long stat_name(int dir, const char *name, struct stat *st)
{
    struct pfs_file f;

    if (fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW) < 0)
        return -errno;
    if (S_ISREG(st->st_mode) && meta_of(dir, name, &f) == 1)
        pfs_stat_fix(&f, st);
    return 0;
}

/* unlink: the name first (atomic: one of several wins), then the
   stripes of the file it named. */
static long unlink_name(int dir, const char *name)
{
    struct pfs_file f;
    int striped = meta_of(dir, name, &f);

    if (unlinkat(dir, name, 0) < 0)
        return -errno;
    if (striped == 1)
        stripes_unlink(f.id, f.factor);
    return 0;
}

/* rename: the metadata alone moves (the stripes are named by id); a
   striped file it replaced loses its stripes. */
static long rename_name(int dir, const char *name, int dir2,
                        const char *name2)
{
    struct pfs_file from, old;
    int a = meta_of(dir, name, &from), b = meta_of(dir2, name2, &old);

    if (renameat(dir, name, dir2, name2) < 0)
        return -errno;
    if (b == 1 && (a != 1 || old.id != from.id))
        stripes_unlink(old.id, old.factor);
    return 0;
}

long pfs_path_call(const struct yod_file_req *q, struct stat *st)
{
    const char *p2 = q->path + q->path_len;
    char name[PATH_MAX], name2[PATH_MAX];
    int dir, dir2 = -1;
    long rc;

    if (q->op == YOD_F_CHDIR)
        return -ENOTSUP;        /* /pfs files go by their full names */
    if ((q->op == YOD_F_STAT || q->op == YOD_F_LSTAT) && !*rel_of(q->path))
        return fstatat(root, ".", st, 0) < 0 ? -errno : 0;
    if ((q->op == YOD_F_LINK || q->op == YOD_F_RENAME) &&
        pfs_named(q->path) != pfs_named(p2))
        return -EXDEV;          /* another file system */
    if ((dir = parent(q->path, name)) < 0)
        return dir;
    if (q->path2_len && (dir2 = parent(p2, name2)) < 0) {
        close(dir);
        return dir2;
    }
    switch (q->op) {
    case YOD_F_STAT: case YOD_F_LSTAT: rc = stat_name(dir, name, st); break;
    case YOD_F_UNLINK: rc = unlink_name(dir, name); break;
    case YOD_F_RENAME: rc = rename_name(dir, name, dir2, name2); break;
    case YOD_F_LINK: rc = -EPERM; break;  /* two names, one set of stripes */
    case YOD_F_MKDIR:
        rc = mkdirat(dir, name, (mode_t)(q->mode & 07777)) < 0 ? -errno : 0;
        break;
    case YOD_F_RMDIR:
        rc = unlinkat(dir, name, AT_REMOVEDIR) < 0 ? -errno : 0;
        break;
    case YOD_F_ACCESS:
        rc = faccessat(dir, name, (int)q->flags, AT_SYMLINK_NOFOLLOW) < 0
             ? -errno : 0;
        break;
    default: rc = -ENOSYS;
    }
    close(dir);
    if (dir2 >= 0)
        close(dir2);
    return rc;
}

size_t pfs_hide_store(int fd, void *buf, size_t len)
{
    struct stat st;
    char *p = buf;

    if (root < 0 || fstat(fd, &st) < 0 || st.st_dev != root_st.st_dev ||
        st.st_ino != root_st.st_ino)
        return len;
    for (size_t at = 0; at < len;) {
        struct dirent64 *e = (struct dirent64 *)(p + at);
        size_t n = e->d_reclen;

        if (strcmp(e->d_name, PFS_STORE) != 0) {
            at += n;
            continue;
        }
        memmove(p + at, p + at + n, len - at - n);
        len -= n;
    }
    return len;
}

/* ---- data of an open striped file ----------------------------------------- */

int pfs_stripe_open(const char *hex, uint32_t i, int wr)
{
    char s[64];
    uint64_t id;
    char *end;
    int fd;

    id = strtoull(hex, &end, 16);
    if (root < 0 || strlen(hex) != 16 || *end || i >= PFS_FACTOR_MAX)
        return -EINVAL;
    stripe_name(s, sizeof(s), id, i);
    /* gone (unlinked while open): stale, as NFS says it */
    fd = openat(root, s, (wr ? O_WRONLY : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW);
    return fd < 0 ? (errno == ENOENT ? -ESTALE : -errno) : fd;
}

/* Stripe i's fd, opened read-write at first use. */
static int stripe_fd(struct pfs_file *pf, uint32_t i)
{
    char s[64];

    if (pf->sfd[i] < 0) {
        stripe_name(s, sizeof(s), pf->id, i);
        if ((pf->sfd[i] = openat(root, s, O_RDWR | O_CLOEXEC | O_NOFOLLOW))
            < 0) {
            pf->sfd[i] = -1;
            return errno == ENOENT ? -ESTALE : -errno;
        }
    }
    return pf->sfd[i];
}

long pfs_size(struct pfs_file *pf, uint64_t *size)
{
    struct stat st;

    pfs_stat_fix(pf, &st);
    *size = (uint64_t)st.st_size;
    return 0;
}

/* The piece of [at, at + left) within one unit: its stripe's fd (or
   -errno), its length in *n and its place in that stripe in *where. */
static int piece(struct pfs_file *pf, uint64_t at, size_t left, size_t *n,
                 off_t *where)
{
    uint64_t k = pfs_unit_left(at, pf->unit);

    *n = (size_t)(k < left ? k : left);
    *where = (off_t)pfs_stripe_off(at, pf->unit, pf->factor);
    return stripe_fd(pf, pfs_stripe_of(at, pf->unit, pf->factor));
}

ssize_t pfs_pread(struct pfs_file *pf, void *buf, size_t len, uint64_t off)
{
    uint64_t size;
    size_t done = 0, n;
    off_t where;

    pfs_size(pf, &size);
    if (off >= size)
        return 0;
    if (len > size - off)
        len = (size_t)(size - off);
    while (done < len) {
        int fd = piece(pf, off + done, len - done, &n, &where);
        ssize_t got = fd < 0 ? fd : pread(fd, (char *)buf + done, n, where);

        if (got < 0)
            return done ? (ssize_t)done : fd < 0 ? fd : -errno;
        memset((char *)buf + done + got, 0, n - (size_t)got);
        done += n;              /* short: a hole below the size, zeros */
    }
    return (ssize_t)done;
}

ssize_t pfs_pwrite(struct pfs_file *pf, const void *buf, size_t len,
                   uint64_t off)
{
    size_t done = 0, n;
    off_t where;

    if (pf->append)
        pfs_size(pf, &off);
    while (done < len) {
        int fd = piece(pf, off + done, len - done, &n, &where);
        ssize_t put = fd < 0 ? fd
                      : pwrite(fd, (const char *)buf + done, n, where);

        if (put < 0)
            return done ? (ssize_t)done : fd < 0 ? fd : -errno;
        done += (size_t)put;
        if ((size_t)put < n)
            break;              /* a full disk: what went */
    }
    return (ssize_t)done;
}

long pfs_ftruncate(struct pfs_file *pf, uint64_t size)
{
    for (uint32_t i = 0; i < pf->factor; i++) {
        int fd = stripe_fd(pf, i);

        if (fd < 0)
            return fd;
        if (ftruncate(fd, (off_t)pfs_stripe_size(size, i, pf->unit,
                                                 pf->factor)) < 0)
            return -errno;
    }
    return 0;
}

long pfs_fsync(struct pfs_file *pf)
{
    for (uint32_t i = 0; i < pf->factor; i++)
        if (pf->sfd[i] >= 0 && fsync(pf->sfd[i]) < 0)
            return -errno;
    return 0;
}

void pfs_close(struct pfs_file *pf)
{
    if (!pf)
        return;
    for (uint32_t i = 0; i < pf->factor; i++)
        if (pf->sfd[i] >= 0)
            close(pf->sfd[i]);
    free(pf);
}
