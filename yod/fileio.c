/* SPDX-License-Identifier: MIT */
/*
 * fileio.c: yod's file server.  The ranks' libc forwards file calls here
 * (protocol: yod_proto.h, "Files"); yod performs them on Linux as itself
 * (the user: the kernel enforces the user's permissions, nothing more),
 * relative to each rank's own working directory, or only inside -chroot
 * DIR (paths.c says where a path leads), and keeps each rank's fd table;
 * the calls answered at once are filecalls.c's, this file moves data.
 * It takes a request only from the rank it names, signed with that
 * rank's key, numbered above the last (auth.c; yod_proto.h).
 *
 * The same server runs in yod (the ranks of I/O server 0) and in each
 * I/O server process yod starts (iod.c), each for its ranks
 * (ioserver.c); what it reports goes through the hooks of struct
 * fileio_job.
 *
 * Everything is driven by events from the server's loop (fileio_event), so
 * output and exit events keep flowing while a large transfer runs, and
 * several chunks of one transfer are on the wire at once (window slots of
 * CHUNK bytes, one MD over them): a READ read(2)s chunk after chunk into
 * free slots and Puts each into the rank's buffer at its offset, a slot
 * coming free at its Put's ACK; a WRITE Gets chunks from the rank's
 * buffer into free slots and write(2)s them in order as their REPLYs come,
 * so the fd's offset moves as for one write(2) (pipes and O_APPEND too);
 * a PREAD or PWRITE (the node's aio) does the same at its offset with
 * pread(2) and pwrite(2), the fd's offset untouched.
 * The answer goes once the last slot is back: no Get or Put of a request
 * is still under way when the rank hears its result.  A read that would
 * block (yod's stdin, a pipe) is parked and retried from fileio_poll, so
 * it never stops the loop either.
 */
#define _GNU_SOURCE             /* O_PATH */
#include <dirent.h>              /* getdents64 */
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
#include "filecalls.h"
#include "yod.h"

#define CHUNK       (1u << 20)  /* bytes per Get or Put of a transfer */
#define SLOTS_MAX   16          /* chunks one transfer may have in flight */
#define BUF_MAX     (256u << 20)        /* transfer buffers of a server, at
                                           most (each rank's at its first
                                           transfer, freed at its end) */
#define REQ_BUF     (16 * sizeof(struct yod_file_req))

/* A chunk of a transfer: its bytes are buf + index * CHUNK. */
struct slot {
    int state;                  /* FREE, MOVING (Get or Put under way),
                                   READY (a WRITE's bytes, to write) */
    uint64_t at;                /* its offset in the rank's buffer */
    size_t len;
};
enum { FREE, MOVING, READY };

struct rank {
    unsigned nid;
    unsigned pid;               /* its Portals pid, from its requests */
    int served;                 /* mapped to this server */
    int ended;                  /* it ended (its files are closed) */
    int ans_bound;              /* ans_md bound */
    struct sipkey key;          /* its key: its requests are signed */
    uint32_t last_seq;          /* its last request's number */
    struct files files;         /* its fds and working directory */
    struct yod_file_req q;      /* the request being served */
    int busy;                   /* q is being served */
    int parked;                 /* READ waiting for input on its fd */
    int xfd;                    /* our fd of the transfer */
    int own_xfd;                /* a stripe's (SREAD, SWRITE): to close */
    struct pfs_file *pf;        /* a striped file's transfer, split here */
    int advance;                /* READ or WRITE of pf: move its offset */
    uint64_t noted;             /* the striped file SWRITE last named */
    uint64_t issued;            /* bytes asked for (WRITE) or read (READ) */
    uint64_t done;              /* bytes written (WRITE) or delivered */
    int moving;                 /* slots under way */
    int stop;                   /* issue no more: EOF, short, or err */
    long err;                   /* -errno met, 0 */
    struct slot slot[SLOTS_MAX];
    struct yod_file_ans ans;
    ptl_handle_md_t ans_md;
    char *buf;                  /* F.slots * CHUNK bytes, bound at first use */
    ptl_handle_md_t buf_md;
};

static struct {
    struct fileio_job job;
    int slots;                  /* chunks in flight per transfer */
    int pfs;                    /* a PFS: every rank may send stripes */
    struct rank *ranks;
    int nparked;                /* ranks whose READ is parked */
    char req_buf[2][REQ_BUF];
} F;

#define ERRNO_ENTRY(e) e,
static const int errnos[] = { YOD_ERRNO_LIST(ERRNO_ENTRY) };

/* A Linux errno as the protocol's number (EIO if it has none). */
uint32_t fileio_errno_code(int e)
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

static ptl_process_t app(const struct rank *r)
{
    return (ptl_process_t){ .phys = { r->nid, r->pid } };
}

static struct rank *rank_of_ptr(const void *p)
{
    const char *c = p;

    if (!F.ranks || c < (const char *)F.ranks ||
        c >= (const char *)(F.ranks + F.job.size))
        return NULL;
    return &F.ranks[(c - (const char *)F.ranks) / sizeof(struct rank)];
}

/* A READ waits for input (on), or no longer (off).  Counted: the loop
   looks for parked reads after every event, and must not walk every
   rank for that (nothing in yod may be quadratic in the ranks). */
static void park(struct rank *r, int on)
{
    F.nparked += on - r->parked;
    r->parked = on;
}

static int rank_no(const struct rank *r)
{
    return (int)(r - F.ranks);
}

/* ---- answers and the rank's fds ------------------------------------------ */

/* Finish the request: `ret` is the result or -errno. */
static void reply(struct rank *r, long ret)
{
    r->ans.seq = r->q.seq;
    r->ans.err = ret < 0 ? fileio_errno_code((int)-ret) : 0;
    r->ans.ret = ret < 0 ? 0 : ret;
    r->busy = 0;
    park(r, 0);
    if (PtlPut(r->ans_md, 0, sizeof(r->ans), PTL_ACK_REQ, app(r),
               YOD_PT_FILE, YOD_MB_ANS | r->q.seq, 0, &r->ans, 0) != PTL_OK)
        fprintf(stderr, "yod: rank %d: cannot send a file answer\n",
                rank_no(r));
}

/* ---- transfers ------------------------------------------------------------- */

static int bind_buffer(struct rank *r)
{
    ptl_md_t md = { .length = (ptl_size_t)F.slots * CHUNK,
                    .eq_handle = F.job.eq, .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE };

    if (r->buf)
        return 0;
    if (!(md.start = r->buf = malloc(md.length)))
        return -1;
    if (PtlMDBind(F.job.ni, &md, &r->buf_md) == PTL_OK)
        return 0;
    free(r->buf);
    r->buf = NULL;
    return -1;
}

static struct slot *free_slot(struct rank *r)
{
    for (int i = 0; i < F.slots; i++)
        if (r->slot[i].state == FREE)
            return &r->slot[i];
    return NULL;
}

static char *slot_bytes(struct rank *r, const struct slot *s)
{
    return r->buf + (size_t)(s - r->slot) * CHUNK;
}

static ptl_size_t slot_off(struct rank *r, const struct slot *s)
{
    return (ptl_size_t)(s - r->slot) * CHUNK;
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

/* A transfer's own ends: a stripe's fd closed; a striped file's READ
   or WRITE (done here at its offset) moves the fd's offset past it. */
static void transfer_end(struct rank *r)
{
    uint64_t size;

    if (r->own_xfd)
        close(r->xfd);
    if (r->advance && r->pf && r->pf->append && pfs_size(r->pf, &size) == 0)
        lseek(r->xfd, (off_t)size, SEEK_SET);
    else if (r->advance)
        lseek(r->xfd, r->q.off + (off_t)r->done, SEEK_SET);
    r->own_xfd = r->advance = 0;
    r->pf = NULL;
}

/* Once nothing is under way: the bytes moved so far (or the error, if
   none moved). */
static void finish_if_idle(struct rank *r)
{
    if (r->moving)
        return;
    transfer_end(r);
    reply(r, r->done || r->err == 0 ? (long)r->done : r->err);
}

/* READ or PREAD (else a WRITE or PWRITE)? */
static int reading(const struct rank *r)
{
    return r->q.op == YOD_F_READ || r->q.op == YOD_F_PREAD ||
           r->q.op == YOD_F_SREAD;
}

/* At the request's offset (pread(2), pwrite(2)), not the fd's? */
static int positional(const struct rank *r)
{
    return r->q.op == YOD_F_PREAD || r->q.op == YOD_F_PWRITE ||
           r->q.op == YOD_F_SREAD || r->q.op == YOD_F_SWRITE || r->pf;
}

/* read(2), or pread(2) at the request's offset plus `at`. */
static ssize_t read_at(const struct rank *r, void *p, size_t n, uint64_t at)
{
    if (r->pf)
        return pfs_pread(r->pf, p, n, (uint64_t)r->q.off + at);
    if (positional(r))
        return pread(r->xfd, p, n, (off_t)(r->q.off + (int64_t)at));
    return read(r->xfd, p, n);
}

/* A READ: read(2) chunks into free slots and Put each at its offset. */
static void read_fill(struct rank *r)
{
    struct slot *s;

    while (!r->stop && r->issued < r->q.len && (s = free_slot(r))) {
        size_t want = r->q.len - r->issued < CHUNK ? r->q.len - r->issued
                                                   : CHUNK;
        ssize_t n;

        if (!readable(r->xfd)) {
            if (r->issued || r->moving)
                r->stop = 1;    /* what was there; the rest is not yet */
            else
                park(r, 1);     /* fileio_poll tries again */
            break;
        }
        park(r, 0);
        if ((n = read_at(r, slot_bytes(r, s), want, r->issued)) <= 0) {
            r->err = n < 0 ? -errno : 0;
            r->stop = 1;
            break;
        }
        *s = (struct slot){ MOVING, r->issued, (size_t)n };
        if (PtlPut(r->buf_md, slot_off(r, s), (size_t)n, PTL_ACK_REQ, app(r),
                   YOD_PT_FILE, YOD_MB_BUF | r->q.seq, r->issued, s, 0)
            != PTL_OK) {
            s->state = FREE;
            r->err = -EIO;
            r->stop = 1;
            break;
        }
        r->moving++;
        r->issued += (uint64_t)n;
        if ((size_t)n < want)
            r->stop = 1;        /* EOF, or a pipe's all for now */
    }
    if (!r->parked)
        finish_if_idle(r);
}

/* A WRITE: Get chunks from the rank's buffer into free slots. */
static void write_fill(struct rank *r)
{
    struct slot *s;

    while (!r->stop && r->issued < r->q.len && (s = free_slot(r))) {
        size_t want = r->q.len - r->issued < CHUNK ? r->q.len - r->issued
                                                   : CHUNK;

        *s = (struct slot){ MOVING, r->issued, want };
        if (PtlGet(r->buf_md, slot_off(r, s), want, app(r), YOD_PT_FILE,
                   YOD_MB_BUF | r->q.seq, r->issued, s) != PTL_OK) {
            s->state = FREE;
            r->err = -EIO;
            r->stop = 1;
            break;
        }
        r->moving++;
        r->issued += want;
    }
    if (r->done == r->q.len || r->stop)
        finish_if_idle(r);
}

/* Write all of `len` bytes (a pipe may take fewer per call); a PWRITE's
   at the request's offset plus `at`. */
static long write_all(const struct rank *r, const char *p, size_t len,
                      uint64_t at)
{
    size_t done = 0;

    while (done < len) {
        uint64_t to = (uint64_t)r->q.off + at + done;
        ssize_t n = r->pf ? pfs_pwrite(r->pf, p + done, len - done, to)
                    : !positional(r) ? write(r->xfd, p + done, len - done)
                    : pwrite(r->xfd, p + done, len - done, (off_t)to);
        if (n < 0 && r->pf)
            return done ? (long)done : n;       /* pfs says -errno */
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return done ? (long)done : (n < 0 ? -errno : 0);
        done += (size_t)n;
    }
    return (long)done;
}

/* The chunks that came, written in order from the first not yet written;
   a write that fails or falls short stops the transfer there. */
static void write_ready(struct rank *r)
{
    for (int more = 1; more && !r->stop;) {
        more = 0;
        for (int i = 0; i < F.slots; i++) {
            struct slot *s = &r->slot[i];
            long n;

            if (s->state != READY || s->at != r->done)
                continue;
            n = write_all(r, slot_bytes(r, s), s->len, s->at);
            s->state = FREE;
            if (n > 0)
                r->done += (uint64_t)n;
            if (n < 0 || (size_t)n < s->len) {
                r->err = n < 0 ? n : 0;
                r->stop = 1;
            }
            more = 1;
            break;
        }
    }
    if (r->stop)                /* what came after the failure is dropped */
        for (int i = 0; i < F.slots; i++)
            if (r->slot[i].state == READY)
                r->slot[i].state = FREE;
}

/* A chunk moved (Put ACKed, or Get REPLY arrived) or failed. */
static void chunk_done(struct rank *r, struct slot *s, const ptl_event_t *ev)
{
    if (!r->busy || r->ended || s->state != MOVING)
        return;                 /* the rank ended meanwhile */
    r->moving--;
    if (r->q.op == YOD_F_GETCWD || r->q.op == YOD_F_GETDENTS) {
        s->state = FREE;
        reply(r, ev->ni_fail_type == PTL_NI_OK ? (long)s->len : -EIO);
        return;
    }
    if (ev->ni_fail_type != PTL_NI_OK) {
        s->state = FREE;        /* the rank's buffer went away */
        r->err = -EIO;
        r->stop = 1;
    } else if (reading(r)) {
        s->state = FREE;
        r->done += s->len;
    } else {
        if (ev->mlength < s->len) {
            s->len = ev->mlength;       /* the rank's buffer was shorter */
            r->issued = s->at + s->len;
            r->q.len = r->issued;
        }
        s->state = READY;
        write_ready(r);
    }
    if (reading(r))
        read_fill(r);
    else
        write_fill(r);
}

/* An SWRITE of a rank this server does not serve names its striped
   file to whoever watches the server (yod names it if the server dies),
   once per file in a row: a pseudo fd past the rank's own, so that its
   closes never clear it (the rank's end does). */
static void note_stripe(struct rank *r)
{
    const char *name = r->q.path + r->q.path_len;
    uint64_t id = strtoull(r->q.path, NULL, 16);

    if (r->q.op != YOD_F_SWRITE || id == r->noted || !F.job.opened ||
        r->served)
        return;                 /* its own: its OPEN named it already */
    if (r->noted && F.job.closed)
        F.job.closed(rank_no(r), MAX_FDS);
    F.job.opened(rank_no(r), MAX_FDS, name);
    r->noted = id;
}

/* READ, WRITE, PREAD, PWRITE, SREAD or SWRITE: check, then the first
   chunks. */
static void start_transfer(struct rank *r)
{
    int stripe = r->q.op == YOD_F_SREAD || r->q.op == YOD_F_SWRITE;
    int at = positional(r);

    r->xfd = stripe ? pfs_stripe_open(r->q.path, r->q.flags,
                                      r->q.op == YOD_F_SWRITE)
                    : files_fd(&r->files, r->q.fd) < 0 ? -EBADF
                    : files_fd(&r->files, r->q.fd);
    if (r->xfd < 0) {
        reply(r, r->xfd);
        return;
    }
    r->own_xfd = stripe;
    if (!stripe && (r->pf = files_pfs(&r->files, r->q.fd)) && !at) {
        /* a striped file's READ or WRITE: at its fd's offset, here */
        r->q.off = lseek(r->xfd, 0, SEEK_CUR);
        r->advance = 1;
    }
    if (stripe)
        note_stripe(r);
    if ((at || r->pf) && (r->q.off < 0 ||
                          r->q.len > (uint64_t)INT64_MAX - (uint64_t)r->q.off)) {
        transfer_end(r);
        reply(r, -EINVAL);
        return;
    }
    if (bind_buffer(r) < 0) {
        transfer_end(r);
        reply(r, -ENOMEM);
        return;
    }
    r->issued = r->done = 0;
    r->moving = r->stop = 0;
    r->err = 0;
    for (int i = 0; i < F.slots; i++)
        r->slot[i].state = FREE;
    if (reading(r))
        read_fill(r);
    else
        write_fill(r);
}

/* One chunk of bytes of ours Put into the rank's buffer at 0 (GETCWD,
   GETDENTS): the answer follows its ACK. */
static void put_small(struct rank *r, size_t n)
{
    struct slot *s = &r->slot[0];

    *s = (struct slot){ MOVING, 0, n };
    r->moving = 1;
    if (PtlPut(r->buf_md, 0, n, PTL_ACK_REQ, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, 0, s, 0) != PTL_OK) {
        s->state = FREE;
        r->moving = 0;
        reply(r, -EIO);
    }
}

/* The working directory's path, Put into the rank's buffer. */
static void start_getcwd(struct rank *r)
{
    size_t n;
    int rc;

    if (bind_buffer(r) < 0) {
        reply(r, -ENOMEM);
        return;
    }
    if ((rc = path_getcwd(&r->files.cwd, r->buf, CHUNK)) < 0) {
        reply(r, rc);
        return;
    }
    n = strlen(r->buf) + 1;
    if (n > r->q.len)
        reply(r, -ERANGE);
    else
        put_small(r, n);
}

/* The next entries of a directory, Put into the rank's buffer in
   Linux's getdents64 format (yod runs on Linux: the host's own call). */
static void start_getdents(struct rank *r)
{
    int fd = files_fd(&r->files, r->q.fd);
    size_t want = r->q.len < CHUNK ? r->q.len : CHUNK;
    long n;

    if (fd < 0) {
        reply(r, -EBADF);
        return;
    }
    if (bind_buffer(r) < 0) {
        reply(r, -ENOMEM);
        return;
    }
    if ((n = getdents64(fd, r->buf, want)) <= 0)
        reply(r, n < 0 ? -errno : 0);
    else
        put_small(r, (size_t)n);
}

/* ---- requests ---------------------------------------------------------------- */

/* The MD of a rank's answers: at the start for the ranks it serves, at
   the first stripe request for the others. */
static int bind_answer(struct rank *r)
{
    ptl_md_t md = { .start = &r->ans, .length = sizeof(struct yod_file_ans),
                    .eq_handle = F.job.eq, .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE |
                               PTL_MD_EVENT_SUCCESS_DISABLE };

    if (r->ans_bound)
        return 0;
    if (PtlMDBind(F.job.ni, &md, &r->ans_md) != PTL_OK)
        return -1;
    r->ans_bound = 1;
    return 0;
}

/* The rank the request names sent it (its node, its pid, its key), is
   one this server serves, and it is new; else it is dropped and
   counted. */
static struct rank *sender(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r;

    if (ev->mlength < YOD_FILE_REQ_HDR || ev->mlength > sizeof(r->q) ||
        q->rank < 0 || q->rank >= F.job.size)
        return NULL;
    r = &F.ranks[q->rank];
    if (!r->served && !(F.pfs && (q->op == YOD_F_SREAD ||
                                  q->op == YOD_F_SWRITE)))
        return NULL;            /* the stripes of PFS are everyone's */
    if (!auth_rank_sender(ev, r->nid, &r->pid) || q->seq <= r->last_seq ||
        yod_file_mac(&r->key, q, ev->mlength) != q->mac)
        return NULL;
    r->pid = ev->initiator.phys.pid;    /* YOD_APP_PID unless it chose */
    r->last_seq = q->seq;
    return bind_answer(r) == 0 ? r : NULL;
}

/* Tell whoever watches this server which files a rank has open for
   writing (yod names them if the server dies). */
static void note_open(struct rank *r, long fd)
{
    if (F.job.opened && r->q.op == YOD_F_OPEN && fd >= 0 &&
        (r->q.flags & YOD_O_ACCMODE) != 0)
        F.job.opened(rank_no(r), (int)fd, r->q.path);
    else if (F.job.closed && r->q.op == YOD_F_CLOSE && fd == 0)
        F.job.closed(rank_no(r), r->q.fd);
}

/* An OPEN of a striped file answers its layout (yod_proto.h, PFS). */
static void answer_layout(struct rank *r, long fd)
{
    struct pfs_file *pf = r->q.op == YOD_F_OPEN && fd >= 0
                          ? files_pfs(&r->files, (int)fd) : NULL;

    if (pf)
        r->ans.pfs = (struct yod_pfs_layout){ pf->id, pf->unit, pf->factor,
                                              (uint32_t)pf->append };
}

static void take_request(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r = sender(ev);
    long rc;

    if (!r) {
        F.job.dropped();
        return;
    }
    if (r->ended)
        return;                 /* it ended: a late request */
    if (r->busy) {
        fprintf(stderr, "yod: rank %d sent a file request while one is "
                "served: ignored\n", q->rank);
        return;
    }
    memcpy(&r->q, q, ev->mlength);
    r->busy = 1;
    memset(&r->ans.pfs, 0, sizeof(r->ans.pfs));
    if (!files_request_ok(&r->q, ev->mlength)) {
        reply(r, -EINVAL);
    } else if (r->q.op == YOD_F_READ || r->q.op == YOD_F_WRITE ||
               r->q.op == YOD_F_PREAD || r->q.op == YOD_F_PWRITE ||
               r->q.op == YOD_F_SREAD || r->q.op == YOD_F_SWRITE) {
        start_transfer(r);
    } else if (r->q.op == YOD_F_GETCWD) {
        start_getcwd(r);
    } else if (r->q.op == YOD_F_GETDENTS) {
        start_getdents(r);
    } else {
        rc = files_call(&r->files, &r->q, &r->ans.st);
        note_open(r, rc);
        answer_layout(r, rc);
        reply(r, rc);
    }
}

static void append_req(char *buf)
{
    ptl_me_t me = { .start = buf, .length = REQ_BUF,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_file_req),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    if (PtlMEAppend(F.job.ni, YOD_PT_FILE, &me, PTL_PRIORITY_LIST, buf, &h)
        != PTL_OK)
        fprintf(stderr, "yod: cannot post a buffer for file requests\n");
}

/* ---- what the server's loop calls ------------------------------------------ */

/* fd 0 of a rank: yod's stdin for rank 0, /dev/null (EOF) for the rest. */
static int stdin_for(int rank)
{
    int fd = rank == 0 ? fcntl(0, F_DUPFD_CLOEXEC, 3) : -1;

    return fd >= 0 ? fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* Chunks in flight per transfer: YOD_IO_SLOTS (1 is the old stop and
   wait, for comparison: tests/bench/io), else the default, fewer when
   the server serves so many ranks that their buffers would pass BUF_MAX
   (512 ranks of yod -vn: one chunk each, as before). */
static int slots_wanted(const struct fileio_job *j)
{
    const char *v = getenv("YOD_IO_SLOTS");
    int n = v ? atoi(v) : 0;
    int served = j->pfs ? j->size : j->last - j->first + 1;
    long fit = served > 0 ? (long)(BUF_MAX / CHUNK) / served : SLOTS_MAX;

    if (n >= 1 && n <= SLOTS_MAX)
        return n;
    return fit < 1 ? 1 : fit < FILEIO_SLOTS ? (int)fit : FILEIO_SLOTS;
}

int fileio_start(const struct fileio_job *j)
{
    ptl_pt_index_t pt;
    int rc;

    F.job = *j;
    F.slots = slots_wanted(j);
    F.pfs = j->pfs != NULL;
    if ((rc = paths_confine(j->chroot)) < 0 || (rc = pfs_mount(j->pfs)) < 0) {
        errno = -rc;
        return -1;
    }
    if (!(F.ranks = calloc((size_t)j->size, sizeof(*F.ranks))) ||
        PtlPTAlloc(j->ni, 0, j->eq, YOD_PT_FILE, &pt) != PTL_OK)
        return -1;
    for (int i = 0; i < j->size; i++) {
        struct rank *r = &F.ranks[i];
        r->nid = j->nids[i];
        r->served = j->first <= i && i <= j->last;
        r->key = yod_rank_key(&j->job_key, i);
        r->files.cwd.fd = -1;
        memset(r->files.fd, -1, sizeof(r->files.fd));
        if (!r->served)
            continue;
        r->files.fd[0] = stdin_for(i);
        if ((rc = paths_start(&r->files.cwd)) < 0) {
            errno = -rc;
            return -1;
        }
        if (bind_answer(r) < 0)
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
        if (ev->ni_fail_type == PTL_NI_UNDELIVERABLE && !r->ended)
            F.job.link_failed(rank_no(r), ev->user_ptr == &r->ans ?
                              "a file answer" : "file data");
        else if (ev->user_ptr == &r->ans && ev->ni_fail_type != PTL_NI_OK &&
                 !r->ended)
            fprintf(stderr, "yod: rank %d: a file answer was not "
                    "delivered\n", rank_no(r));
        if (ev->user_ptr != &r->ans)
            chunk_done(r, ev->user_ptr, ev);
        return 1;
    }
    if (ev->pt_index != YOD_PT_FILE)
        return 0;
    if (ev->type == PTL_EVENT_PUT && ev->ni_fail_type == PTL_NI_OK)
        take_request(ev);
    else if (ev->type == PTL_EVENT_AUTO_UNLINK)
        append_req(ev->user_ptr);   /* its requests were handled already */
    return 1;
}

void fileio_poll(void)
{
    for (int i = 0; F.nparked && F.ranks && i < F.job.size; i++)
        if (F.ranks[i].parked && F.ranks[i].files.cwd.fd >= 0)
            read_fill(&F.ranks[i]);
}

void fileio_rank_ended(int rank)
{
    struct rank *r;

    if (!F.ranks || rank < 0 || rank >= F.job.size || F.ranks[rank].ended)
        return;
    r = &F.ranks[rank];
    r->ended = 1;
    if (r->busy)
        transfer_end(r);
    files_close(&r->files);
    r->busy = 0;
    park(r, 0);
    if (r->buf && PtlMDRelease(r->buf_md) == PTL_OK) {
        free(r->buf);           /* else a Get or Put still uses it: kept */
        r->buf = NULL;
    }
}
