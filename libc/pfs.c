/* SPDX-License-Identifier: MIT */
/*
 * pfs.c: striped parallel files on the node's side (<lwk/pfs.h>;
 * docs/io.md, "Striped files (PFS)").  An OPEN under /pfs answers the
 * file's layout (yod/yod_proto.h, PFS), kept here per fd.  A read or
 * write of more than one stripe unit is split here, unit by unit, and
 * each piece sent to the server of its stripe (yodio.c,
 * lwk_yod_pieces): the servers move their stripes' pieces at once.
 * Anything smaller, and O_APPEND writes, go whole to the fd's own server,
 * which splits them itself (yod/pfs.c).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lwk/pfs.h>

#include "libc_internal.h"
#include "pfs_map.h"
#include "yod_proto.h"

#define PFS_FDS         64      /* yod's fds of a rank (yod/filecalls.h) */
#define PIECES_BATCH    64      /* pieces handed to yodio.c at a time */

static struct pfs_fd {
    uint64_t unit;
    uint32_t factor;            /* 0: not striped */
    int append;
    char id[17];                /* 16 hex digits */
    char name[96];              /* for yod's messages */
} *fds;     /* PFS_FDS, allocated at the first striped open: 8.5 KiB no
               program without /pfs files (nor the PCT) should carry */

/* fd's entry if it is a striped file's, else NULL. */
static struct pfs_fd *striped(int fd)
{
    return fds && fd >= 0 && fd < PFS_FDS && fds[fd].factor ? &fds[fd]
                                                            : NULL;
}

void lwk_pfs_opened(int fd, const char *path, const struct yod_pfs_layout *l)
{
    static const char hex[] = "0123456789abcdef";
    struct pfs_fd *f;

    if (fd < 0 || fd >= PFS_FDS ||
        (!fds && !(fds = calloc(PFS_FDS, sizeof(*fds)))))
        return;         /* then its server splits what the rank sends */
    f = &fds[fd];
    f->factor = l->factor;
    f->unit = l->unit;
    f->append = (int)l->append;
    for (int i = 0; i < 16; i++)
        f->id[i] = hex[(l->id >> (60 - 4 * i)) & 15];
    f->id[16] = 0;
    strncpy(f->name, path, sizeof(f->name) - 1);
    f->name[sizeof(f->name) - 1] = 0;
}

void lwk_pfs_closed(int fd)
{
    struct pfs_fd *f = striped(fd);

    if (f)
        f->factor = 0;
}

/* The pieces of [at, at + len) from `done` on, at most PIECES_BATCH,
   into p: how many. */
static int cut(const struct pfs_fd *f, int wr, char *buf, uint64_t at,
               uint64_t len, uint64_t done, struct lwk_yod_piece *p)
{
    int n = 0;

    for (; done < len && n < PIECES_BATCH; n++) {
        uint64_t o = at + done, k = pfs_unit_left(o, f->unit);

        k = k < len - done ? k : len - done;
        p[n] = (struct lwk_yod_piece){
            .op = wr ? YOD_F_SWRITE : YOD_F_SREAD,
            .stripe = pfs_stripe_of(o, f->unit, f->factor),
            .off = pfs_stripe_off(o, f->unit, f->factor),
            .len = k, .buf = buf + done, .ret = 0,
        };
        done += k;
    }
    return n;
}

/* Move [at, at + len) by pieces: the bytes moved in order before the
   first piece that fell short, or its -errno if none moved.  A read's
   short piece below the file's size is a hole: zeros. */
static long move(const struct pfs_fd *f, int wr, char *buf, uint64_t at,
                 uint64_t len)
{
    struct lwk_yod_piece p[PIECES_BATCH];
    uint64_t done = 0;
    long rc;

    while (done < len) {
        int n = cut(f, wr, buf, at, len, done, p);

        if ((rc = lwk_yod_pieces(f->id, f->name, p, n)) < 0)
            return done ? (long)done : rc;
        for (int i = 0; i < n; i++) {
            if (p[i].ret < 0)
                return done ? (long)done : p[i].ret;
            if ((uint64_t)p[i].ret < p[i].len && wr)
                return (long)(done + (uint64_t)p[i].ret);  /* a full disk */
            if ((uint64_t)p[i].ret < p[i].len)
                memset((char *)p[i].buf + p[i].ret, 0,
                       (size_t)(p[i].len - (uint64_t)p[i].ret));
            done += p[i].len;
        }
    }
    return (long)done;
}

/* A read or write of a striped fd by pieces (off < 0: at the fd's
   offset, which moves past it): its result, or LWK_PFS_WHOLE if the
   fd's server is to do it whole (not striped, small, O_APPEND). */
long lwk_pfs_io(int wr, int fd, void *buf, size_t len, long long off)
{
    const struct pfs_fd *f = striped(fd);
    long long at = off;
    struct stat st;
    long rc;

    if (!f || len <= f->unit || (wr && f->append))
        return LWK_PFS_WHOLE;
    if (off < 0 && (at = lwk_io->lseek(fd, 0, SEEK_CUR)) < 0)
        return at;
    if (!wr) {                  /* nothing past the end */
        if ((rc = lwk_io->fstat(fd, &st)) < 0)
            return rc;
        if (at >= st.st_size)
            return 0;
        if ((long long)len > st.st_size - at)
            len = (size_t)(st.st_size - at);
    }
    rc = move(f, wr, buf, (uint64_t)at, len);
    if (off < 0 && rc > 0)
        lwk_io->lseek(fd, (long)(at + rc), SEEK_SET);
    return rc;
}

int lwk_pfs_layout(int fd, unsigned *factor, size_t *unit)
{
    int y = lwk_fd(fd);
    const struct pfs_fd *f = striped(y);

    if (y < 0)
        return lwk_fail(EBADF);
    if (!f)
        return lwk_fail(EINVAL);
    *factor = f->factor;
    *unit = (size_t)f->unit;
    return 0;
}

int lwk_pfs_open(const char *path, int flags, mode_t mode, unsigned factor,
                 size_t unit)
{
    long rc;

    if ((factor || unit) && !pfs_layout_ok(factor ? factor : 1,
                                           unit ? unit : PFS_UNIT_DEFAULT))
        return lwk_fail(EINVAL);
    if (lwk_io != &lwk_io_yod || strncmp(path, PFS_MOUNT "/",
                                         strlen(PFS_MOUNT) + 1))
        return lwk_fail(ENOENT);
    lwk_lock(&lwk_io_lock);
    rc = lwk_fd_opened(lwk_yod_open(path, flags | O_CREAT, (int)mode,
                                    factor, unit));
    lwk_unlock(&lwk_io_lock);
    return (int)lwk_ret(rc);
}
