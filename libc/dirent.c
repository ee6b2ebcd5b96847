/* SPDX-License-Identifier: MIT */
/*
 * dirent.c: reading directories (<dirent.h>).  A directory opened with
 * open() is read through yod, which passes Linux's getdents64 records on
 * (yod_proto.h YOD_F_GETDENTS; io.c's lwk_getdents); readdir hands them
 * out one at a time from a buffer per DIR.  Without yod, opendir fails
 * as open does (ENOSYS).  Positions (telldir, seekdir) are the records'
 * own offsets, as Linux's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libc_internal.h"

struct linux_dirent64 {         /* what yod passes on */
    uint64_t ino;
    int64_t off;
    uint16_t reclen;
    uint8_t type;
    char name[];
};

struct lwk_dir {
    int fd;
    size_t pos, len;            /* the next record, the bytes in buf */
    long where;                 /* telldir: the offset after the last */
    struct dirent ent;
    char buf[8192];
};

DIR *fdopendir(int fd)
{
    DIR *d;

    if (!(d = calloc(1, sizeof(*d))))
        return errno = ENOMEM, NULL;
    d->fd = fd;
    return d;
}

DIR *opendir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY), err;
    DIR *d;

    if (fd < 0)
        return NULL;
    if (!(d = fdopendir(fd))) {
        err = errno;
        close(fd);
        errno = err;
    }
    return d;
}

int closedir(DIR *d)
{
    int rc = close(d->fd);

    free(d);
    return rc;
}

int dirfd(DIR *d)
{
    return d->fd;
}

/* The next entry, or NULL at the end (errno untouched) or on an error. */
struct dirent *readdir(DIR *d)
{
    const struct linux_dirent64 *r;
    size_t n;

    if (d->pos >= d->len) {
        long got = lwk_getdents(d->fd, d->buf, sizeof(d->buf));
        if (got <= 0)
            return got < 0 ? (lwk_ret(got), NULL) : NULL;
        d->len = (size_t)got;
        d->pos = 0;
    }
    r = (const void *)(d->buf + d->pos);
    d->pos += r->reclen;
    n = strnlen(r->name, sizeof(d->ent.d_name) - 1);
    d->ent.d_ino = (ino_t)r->ino;
    d->ent.d_off = (off_t)r->off;
    d->ent.d_reclen = sizeof(d->ent);
    d->ent.d_type = r->type;
    memcpy(d->ent.d_name, r->name, n);
    d->ent.d_name[n] = 0;
    d->where = (long)r->off;
    return &d->ent;
}

int readdir_r(DIR *d, struct dirent *ent, struct dirent **result)
{
    int err = errno;
    struct dirent *e;

    errno = 0;
    e = readdir(d);
    if (!e && errno)
        return errno;
    errno = err;
    if (e)
        *ent = *e;
    *result = e ? ent : NULL;
    return 0;
}

void seekdir(DIR *d, long where)
{
    d->pos = d->len = 0;        /* read again from there */
    d->where = lseek(d->fd, where, SEEK_SET) < 0 ? d->where : where;
}

void rewinddir(DIR *d)
{
    seekdir(d, 0);
}

long telldir(DIR *d)
{
    return d->where;
}

int alphasort(const struct dirent **a, const struct dirent **b)
{
    return strcoll((*a)->d_name, (*b)->d_name);
}

int scandir(const char *path, struct dirent ***list,
            int (*keep)(const struct dirent *),
            int (*cmp)(const struct dirent **, const struct dirent **))
{
    DIR *d = opendir(path);
    struct dirent *e, **v = NULL, **bigger;
    size_t n = 0, cap = 0;
    int err = 0;

    if (!d)
        return -1;
    errno = 0;
    while ((e = readdir(d))) {
        if (keep && !keep(e))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            if (!(bigger = realloc(v, cap * sizeof(*v)))) {
                err = ENOMEM;
                break;
            }
            v = bigger;
        }
        if (!(v[n] = malloc(sizeof(*e)))) {
            err = ENOMEM;
            break;
        }
        *v[n++] = *e;
    }
    err = err ? err : errno;
    closedir(d);
    if (err) {
        while (n)
            free(v[--n]);
        free(v);
        return lwk_fail(err);
    }
    if (cmp)
        qsort(v, n, sizeof(*v), (int (*)(const void *, const void *))cmp);
    *list = v;
    return (int)n;
}
