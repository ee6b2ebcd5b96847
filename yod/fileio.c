/* SPDX-License-Identifier: MIT */
/*
 * fileio.c: yod's file server.  The ranks' libc forwards file calls here
 * (protocol: yod_proto.h, "Files"); yod performs them on Linux as itself
 * (the user: the kernel enforces the user's permissions, nothing more),
 * relative to each rank's own working directory (a directory fd per rank,
 * used with the *at() calls), and keeps each rank's fd table.
 *
 * Everything is driven by events from yod's main loop (fileio_event), so
 * output and exit events keep flowing while a large transfer runs: a
 * READ is a chain of read(2) + Put into the rank's buffer, each Put's ACK
 * starting the next chunk; a WRITE a chain of Get from the rank's buffer +
 * write(2).  A read that would block (yod's stdin, a pipe) is parked and
 * retried from fileio_poll, so it never stops the loop either.
 */
#define _GNU_SOURCE             /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "portals4.h"
#include "fileio.h"
#include "yod_proto.h"

#define CHUNK       (1u << 20)  /* bytes per Get or Put of a transfer */
#define MAX_FDS     64          /* per rank, 0..2 included */
#define REQ_BUF     (16 * sizeof(struct yod_file_req))

struct rank {
    unsigned nid;
    unsigned pid;               /* its Portals pid, from its requests */
    int dirfd;                  /* its working directory; -1: it ended */
    int fd[MAX_FDS];            /* its fd -> ours; -1: not open */
    struct yod_file_req q;      /* the request being served */
    int busy;                   /* q is being served */
    int parked;                 /* READ waiting for input on its fd */
    int xfd;                    /* our fd of the transfer */
    uint64_t done;              /* bytes moved so far */
    size_t inflight;            /* bytes of the Get or Put under way */
    struct yod_file_ans ans;
    ptl_handle_md_t ans_md;
    char *buf;                  /* CHUNK bytes, bound at first use */
    ptl_handle_md_t buf_md;
};

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    int home;                   /* yod's own working directory */
    int size;
    struct rank *ranks;
    char req_buf[2][REQ_BUF];
} F;

#define ERRNO_ENTRY(e) e,
static const int errnos[] = { YOD_ERRNO_LIST(ERRNO_ENTRY) };

/* A Linux errno as the protocol's number (EIO if it has none). */
static uint32_t errno_code(int e)
{
    uint32_t eio = 0;

    for (uint32_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++) {
        if (errnos[i] == e)
            return i + 1;
        if (errnos[i] == EIO)
            eio = i + 1;
    }
    return eio;
}

/* A system call's result as value or -errno. */
static long sys(long rc)
{
    return rc < 0 ? -errno : rc;
}

static ptl_process_t app(const struct rank *r)
{
    return (ptl_process_t){ .phys = { r->nid, r->pid } };
}

static struct rank *rank_of_ptr(const void *p)
{
    const char *c = p;

    if (!F.ranks || c < (const char *)F.ranks ||
        c >= (const char *)(F.ranks + F.size))
        return NULL;
    return &F.ranks[(c - (const char *)F.ranks) / sizeof(struct rank)];
}

/* ---- answers and the rank's fds ------------------------------------------ */

/* Finish the request: `ret` is the result or -errno. */
static void answer(struct rank *r, long ret)
{
    r->ans.seq = r->q.seq;
    r->ans.err = ret < 0 ? errno_code((int)-ret) : 0;
    r->ans.ret = ret < 0 ? 0 : ret;
    r->busy = r->parked = 0;
    if (PtlPut(r->ans_md, 0, sizeof(r->ans), PTL_ACK_REQ, app(r),
               YOD_PT_FILE, YOD_MB_ANS | r->q.seq, 0, &r->ans, 0) != PTL_OK)
        fprintf(stderr, "yod: rank %d: cannot send a file answer\n",
                (int)(r - F.ranks));
}

/* Our fd for the rank's `fd`, or -1. */
static int our_fd(const struct rank *r, int fd)
{
    return fd >= 0 && fd < MAX_FDS ? r->fd[fd] : -1;
}

static long do_open(struct rank *r, const char *path)
{
    const struct yod_file_req *q = &r->q;
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
    for (slot = 3; slot < MAX_FDS && r->fd[slot] >= 0; slot++)
        ;
    if (slot == MAX_FDS)
        return -EMFILE;
    if ((fd = openat(r->dirfd, path, flags, (mode_t)(q->mode & 07777))) < 0)
        return -errno;
    r->fd[slot] = fd;
    return slot;
}

static long do_close(struct rank *r, int fd)
{
    int ours = our_fd(r, fd);

    if (ours < 0)
        return -EBADF;
    r->fd[fd] = -1;
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

/* fstat (path NULL) or stat/lstat relative to the rank's directory. */
static long do_stat(struct rank *r, int fd, const char *path, int flags)
{
    struct stat st;
    int rc = path ? fstatat(r->dirfd, path, &st, flags)
                  : fstat(our_fd(r, fd), &st);

    if (rc < 0)
        return -errno;
    to_yod_stat(&st, &r->ans.st);
    return 0;
}

/* chdir: the new directory must exist and be searchable by the user. */
static long do_chdir(struct rank *r, const char *path)
{
    int fd = openat(r->dirfd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);

    if (fd < 0)
        return -errno;
    if (faccessat(fd, ".", X_OK, AT_EACCESS) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    close(r->dirfd);
    r->dirfd = fd;
    return 0;
}

/* ---- transfers ------------------------------------------------------------- */

static int bind_buffer(struct rank *r)
{
    ptl_md_t md = { .length = CHUNK, .eq_handle = F.eq,
                    .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE };

    if (r->buf)
        return 0;
    if (!(md.start = r->buf = malloc(CHUNK)))
        return -1;
    if (PtlMDBind(F.ni, &md, &r->buf_md) == PTL_OK)
        return 0;
    free(r->buf);
    r->buf = NULL;
    return -1;
}

/* Has `fd` input (or EOF, or an error) to give without blocking? */
static int readable(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int fl = fcntl(fd, F_GETFL);

    if (fl >= 0 && (fl & O_NONBLOCK))
        return 1;               /* read says EAGAIN itself */
    return poll(&p, 1, 0) != 0;
}

/* The data so far (or the error, if none moved). */
static void finish(struct rank *r, long err)
{
    answer(r, r->done || err == 0 ? (long)r->done : err);
}

/* The next chunk of a READ: read(2) it, Put it at its offset. */
static void read_step(struct rank *r)
{
    size_t want = r->q.len - r->done < CHUNK ? r->q.len - r->done : CHUNK;
    ssize_t n;

    if (!readable(r->xfd)) {
        if (r->done)
            finish(r, 0);       /* what was there; the rest is not yet */
        else
            r->parked = 1;      /* fileio_poll tries again */
        return;
    }
    r->parked = 0;
    if ((n = read(r->xfd, r->buf, want)) <= 0) {
        finish(r, n < 0 ? -errno : 0);
        return;
    }
    r->inflight = (size_t)n;
    if (PtlPut(r->buf_md, 0, (size_t)n, PTL_ACK_REQ, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, r->done, r, 0) != PTL_OK)
        finish(r, -EIO);
}

/* The next chunk of a WRITE: Get it from the rank; write(2) on REPLY. */
static void write_step(struct rank *r)
{
    size_t want = r->q.len - r->done < CHUNK ? r->q.len - r->done : CHUNK;

    r->inflight = want;
    if (PtlGet(r->buf_md, 0, want, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, r->done, r) != PTL_OK)
        finish(r, -EIO);
}

/* Write all of `len` bytes (a pipe may take fewer per call). */
static long write_all(int fd, const char *p, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return done ? (long)done : (n < 0 ? -errno : 0);
        done += (size_t)n;
    }
    return (long)done;
}

/* A chunk moved (Put ACKed, or Get REPLY arrived) or failed. */
static void chunk_done(struct rank *r, const ptl_event_t *ev)
{
    long n;

    if (!r->busy || r->dirfd < 0)
        return;                 /* the rank ended meanwhile */
    if (ev->ni_fail_type != PTL_NI_OK) {
        finish(r, -EIO);        /* the rank's buffer went away */
        return;
    }
    if (r->q.op == YOD_F_GETCWD) {
        answer(r, (long)r->inflight);
        return;
    }
    if (r->q.op == YOD_F_READ) {
        r->done += r->inflight;
        if (r->done < r->q.len && r->inflight == CHUNK)
            read_step(r);
        else
            finish(r, 0);
        return;
    }
    n = write_all(r->xfd, r->buf, ev->mlength);
    if (n > 0)
        r->done += (uint64_t)n;
    if (n < 0 || (size_t)n < r->inflight || r->done == r->q.len)
        finish(r, n < 0 ? n : 0);
    else
        write_step(r);
}

/* READ or WRITE: check, then the first chunk. */
static void start_transfer(struct rank *r)
{
    if ((r->xfd = our_fd(r, r->q.fd)) < 0) {
        answer(r, -EBADF);
        return;
    }
    if (bind_buffer(r) < 0) {
        answer(r, -ENOMEM);
        return;
    }
    r->done = 0;
    if (r->q.op == YOD_F_READ)
        read_step(r);
    else
        write_step(r);
}

/* The working directory's path, Put into the rank's buffer. */
static void start_getcwd(struct rank *r)
{
    size_t n;

    if (bind_buffer(r) < 0) {
        answer(r, -ENOMEM);
        return;
    }
    if (fchdir(r->dirfd) < 0 || !getcwd(r->buf, CHUNK)) {
        int e = errno;
        if (fchdir(F.home) < 0)
            e = errno;
        answer(r, -e);
        return;
    }
    if (fchdir(F.home) < 0) {
        answer(r, -errno);
        return;
    }
    n = strlen(r->buf) + 1;
    if (n > r->q.len) {
        answer(r, -ERANGE);
        return;
    }
    r->inflight = n;
    if (PtlPut(r->buf_md, 0, n, PTL_ACK_REQ, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, 0, r, 0) != PTL_OK)
        answer(r, -EIO);
}

/* ---- requests ---------------------------------------------------------------- */

/* The calls that are answered at once. */
static long simple(struct rank *r)
{
    const struct yod_file_req *q = &r->q;
    const char *p = q->path, *p2 = q->path + q->path_len;
    int fd = our_fd(r, q->fd);

    switch (q->op) {
    case YOD_F_OPEN: return do_open(r, p);
    case YOD_F_CLOSE: return do_close(r, q->fd);
    case YOD_F_LSEEK:
        return q->flags > SEEK_END ? -EINVAL
                                   : sys(lseek(fd, q->off, (int)q->flags));
    case YOD_F_FSTAT: return do_stat(r, q->fd, NULL, 0);
    case YOD_F_STAT: return do_stat(r, -1, p, 0);
    case YOD_F_LSTAT: return do_stat(r, -1, p, AT_SYMLINK_NOFOLLOW);
    case YOD_F_ISATTY: return isatty(fd) ? 1 : -errno;
    case YOD_F_UNLINK: return sys(unlinkat(r->dirfd, p, 0));
    case YOD_F_RMDIR: return sys(unlinkat(r->dirfd, p, AT_REMOVEDIR));
    case YOD_F_MKDIR:
        return sys(mkdirat(r->dirfd, p, (mode_t)(q->mode & 07777)));
    case YOD_F_LINK: return sys(linkat(r->dirfd, p, r->dirfd, p2, 0));
    case YOD_F_RENAME: return sys(renameat(r->dirfd, p, r->dirfd, p2));
    case YOD_F_CHDIR: return do_chdir(r, p);
    case YOD_F_ACCESS:
        return q->flags & ~7u ? -EINVAL
                              : sys(faccessat(r->dirfd, p, (int)q->flags,
                                              AT_EACCESS));
    case YOD_F_FTRUNCATE: return sys(ftruncate(fd, q->off));
    case YOD_F_FSYNC: return sys(fsync(fd));
    default: return -ENOSYS;
    }
}

/* How many paths each operation carries. */
static unsigned paths_of(uint32_t op)
{
    switch (op) {
    case YOD_F_LINK: case YOD_F_RENAME: return 2;
    case YOD_F_OPEN: case YOD_F_STAT: case YOD_F_LSTAT: case YOD_F_UNLINK:
    case YOD_F_RMDIR: case YOD_F_MKDIR: case YOD_F_CHDIR: case YOD_F_ACCESS:
        return 1;
    default: return 0;
    }
}

/* Is the request in r->q (`len` bytes arrived) well formed? */
static int well_formed(const struct rank *r, size_t len)
{
    const struct yod_file_req *q = &r->q;
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

static void request(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r;

    if (ev->mlength < YOD_FILE_REQ_HDR || ev->mlength > sizeof(r->q) ||
        q->rank < 0 || q->rank >= F.size)
        return;
    r = &F.ranks[q->rank];
    if (ev->initiator.phys.nid != r->nid ||
        ev->initiator.phys.pid == YOD_PCT_PID || r->dirfd < 0)
        return;                 /* not that rank, or it ended */
    if (r->busy) {
        fprintf(stderr, "yod: rank %d sent a file request while one is "
                "served: ignored\n", q->rank);
        return;
    }
    memcpy(&r->q, q, ev->mlength);
    r->pid = ev->initiator.phys.pid;    /* YOD_APP_PID unless it chose */
    r->busy = 1;
    if (!well_formed(r, ev->mlength))
        answer(r, -EINVAL);
    else if (r->q.op == YOD_F_READ || r->q.op == YOD_F_WRITE)
        start_transfer(r);
    else if (r->q.op == YOD_F_GETCWD)
        start_getcwd(r);
    else
        answer(r, simple(r));
}

static void append_req(char *buf)
{
    ptl_me_t me = { .start = buf, .length = REQ_BUF,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_file_req),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    if (PtlMEAppend(F.ni, YOD_PT_FILE, &me, PTL_PRIORITY_LIST, buf, &h)
        != PTL_OK)
        fprintf(stderr, "yod: cannot post a buffer for file requests\n");
}

/* ---- what yod.c calls ---------------------------------------------------------- */

/* fd 0 of a rank: yod's stdin for rank 0, /dev/null (EOF) for the rest. */
static int stdin_for(int rank)
{
    int fd = rank == 0 ? fcntl(0, F_DUPFD_CLOEXEC, 3) : -1;

    return fd >= 0 ? fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
}

int fileio_start(ptl_handle_ni_t ni, ptl_handle_eq_t eq, int size,
                 const unsigned *nids)
{
    ptl_md_t md = { .length = sizeof(struct yod_file_ans), .eq_handle = eq,
                    .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE |
                               PTL_MD_EVENT_SUCCESS_DISABLE };
    ptl_pt_index_t pt;

    F.ni = ni;
    F.eq = eq;
    F.size = size;
    if ((F.home = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
        !(F.ranks = calloc((size_t)size, sizeof(*F.ranks))) ||
        PtlPTAlloc(ni, 0, eq, YOD_PT_FILE, &pt) != PTL_OK)
        return -1;
    for (int i = 0; i < size; i++) {
        struct rank *r = &F.ranks[i];
        r->nid = nids[i];
        memset(r->fd, -1, sizeof(r->fd));
        r->fd[0] = stdin_for(i);
        md.start = &r->ans;
        if ((r->dirfd = fcntl(F.home, F_DUPFD_CLOEXEC, 3)) < 0 ||
            PtlMDBind(ni, &md, &r->ans_md) != PTL_OK)
            return -1;
    }
    append_req(F.req_buf[0]);
    append_req(F.req_buf[1]);
    return 0;
}

int fileio_event(const ptl_event_t *ev)
{
    struct rank *r;

    if (!F.ranks)
        return 0;
    if (ev->type == PTL_EVENT_ACK || ev->type == PTL_EVENT_REPLY) {
        if (!(r = rank_of_ptr(ev->user_ptr)))
            return 0;
        if (ev->user_ptr == &r->ans) {
            if (ev->ni_fail_type != PTL_NI_OK && r->dirfd >= 0)
                fprintf(stderr, "yod: rank %d: a file answer was not "
                        "delivered\n", (int)(r - F.ranks));
        } else {
            chunk_done(r, ev);
        }
        return 1;
    }
    if (ev->pt_index != YOD_PT_FILE)
        return 0;
    if (ev->type == PTL_EVENT_PUT && ev->ni_fail_type == PTL_NI_OK)
        request(ev);
    else if (ev->type == PTL_EVENT_AUTO_UNLINK)
        append_req(ev->user_ptr);   /* its requests were handled already */
    return 1;
}

void fileio_poll(void)
{
    for (int i = 0; F.ranks && i < F.size; i++)
        if (F.ranks[i].parked && F.ranks[i].dirfd >= 0)
            read_step(&F.ranks[i]);
}

void fileio_rank_ended(int rank)
{
    struct rank *r;

    if (!F.ranks || rank < 0 || rank >= F.size || F.ranks[rank].dirfd < 0)
        return;
    r = &F.ranks[rank];
    for (int fd = 0; fd < MAX_FDS; fd++)
        if (r->fd[fd] >= 0) {
            close(r->fd[fd]);
            r->fd[fd] = -1;
        }
    close(r->dirfd);
    r->dirfd = -1;
    r->busy = r->parked = 0;
}
