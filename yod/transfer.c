/* SPDX-License-Identifier: MIT */
/*
 * transfer.c: the data of a rank's file request (fileio_srv.h), several
 * chunks of it on the wire at once (window slots of CHUNK bytes, one MD
 * over them): a READ read(2)s chunk after chunk into free slots and Puts
 * each into the rank's buffer at its offset, a slot coming free at its
 * Put's ACK; a WRITE Gets chunks from the rank's buffer into free slots
 * and write(2)s them in order as their REPLYs come, so the fd's offset
 * moves as for one write(2) (pipes and O_APPEND too); a PREAD or PWRITE
 * (the node's aio) does the same at its offset with pread(2) and
 * pwrite(2), the fd's offset untouched; an SREAD or SWRITE at its offset
 * of a stripe file (pfs.c), and a READ or WRITE of a striped file's fd
 * at the fd's offset, cut by stripe here.  The answer goes once the
 * last slot is back: no Get or Put of a request is still under way when
 * the rank hears its result.  A read that would block (yod's stdin, a
 * pipe) is parked and retried from fileio_poll.
 */
#define _GNU_SOURCE
#include <dirent.h>              /* getdents64 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio_srv.h"
#include "pfs.h"

/* ---- transfers ------------------------------------------------------------- */

static int bind_buffer(struct rank *r)
{
    ptl_md_t md = { .length = (ptl_size_t)fileio.slots * CHUNK,
                    .eq_handle = fileio.job.eq, .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE };

    if (r->buf)
        return 0;
    if (!(md.start = r->buf = malloc(md.length)))
        return -1;
    if (PtlMDBind(fileio.job.ni, &md, &r->buf_md) == PTL_OK)
        return 0;
    free(r->buf);
    r->buf = NULL;
    return -1;
}

static struct slot *free_slot(struct rank *r)
{
    for (int i = 0; i < fileio.slots; i++)
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
void xfer_end(struct rank *r)
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
    xfer_end(r);
    srv_reply(r, r->done || r->err == 0 ? (long)r->done : r->err);
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
void xfer_read_fill(struct rank *r)
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
                srv_park(r, 1);     /* fileio_poll tries again */
            break;
        }
        srv_park(r, 0);
        if ((n = read_at(r, slot_bytes(r, s), want, r->issued)) <= 0) {
            r->err = n < 0 ? -errno : 0;
            r->stop = 1;
            break;
        }
        *s = (struct slot){ MOVING, r->issued, (size_t)n };
        if (PtlPut(r->buf_md, slot_off(r, s), (size_t)n, PTL_ACK_REQ, srv_app(r),
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
        if (PtlGet(r->buf_md, slot_off(r, s), want, srv_app(r), YOD_PT_FILE,
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
        for (int i = 0; i < fileio.slots; i++) {
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
        for (int i = 0; i < fileio.slots; i++)
            if (r->slot[i].state == READY)
                r->slot[i].state = FREE;
}

/* A chunk moved (Put ACKed, or Get REPLY arrived) or failed. */
void xfer_chunk_done(struct rank *r, struct slot *s, const ptl_event_t *ev)
{
    if (!r->busy || r->ended || s->state != MOVING)
        return;                 /* the rank ended meanwhile */
    r->moving--;
    if (r->q.op == YOD_F_GETCWD || r->q.op == YOD_F_GETDENTS) {
        s->state = FREE;
        srv_reply(r, ev->ni_fail_type == PTL_NI_OK ? (long)s->len : -EIO);
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
        xfer_read_fill(r);
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

    if (r->q.op != YOD_F_SWRITE || id == r->noted || !fileio.job.opened ||
        r->served)
        return;                 /* its own: its OPEN named it already */
    if (r->noted && fileio.job.closed)
        fileio.job.closed(srv_rank_no(r), MAX_FDS);
    fileio.job.opened(srv_rank_no(r), MAX_FDS, name);
    r->noted = id;
}

/* READ, WRITE, PREAD, PWRITE, SREAD or SWRITE: check, then the first
   chunks. */
void xfer_start(struct rank *r)
{
    int stripe = r->q.op == YOD_F_SREAD || r->q.op == YOD_F_SWRITE;
    int at = positional(r);

    r->xfd = stripe ? pfs_stripe_open(r->q.path, r->q.flags,
                                      r->q.op == YOD_F_SWRITE)
                    : files_fd(&r->files, r->q.fd) < 0 ? -EBADF
                    : files_fd(&r->files, r->q.fd);
    if (r->xfd < 0) {
        srv_reply(r, r->xfd);
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
        xfer_end(r);
        srv_reply(r, -EINVAL);
        return;
    }
    if (bind_buffer(r) < 0) {
        xfer_end(r);
        srv_reply(r, -ENOMEM);
        return;
    }
    r->issued = r->done = 0;
    r->moving = r->stop = 0;
    r->err = 0;
    for (int i = 0; i < fileio.slots; i++)
        r->slot[i].state = FREE;
    if (reading(r))
        xfer_read_fill(r);
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
    if (PtlPut(r->buf_md, 0, n, PTL_ACK_REQ, srv_app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, 0, s, 0) != PTL_OK) {
        s->state = FREE;
        r->moving = 0;
        srv_reply(r, -EIO);
    }
}

/* The working directory's path, Put into the rank's buffer. */
void xfer_getcwd(struct rank *r)
{
    size_t n;
    int rc;

    if (bind_buffer(r) < 0) {
        srv_reply(r, -ENOMEM);
        return;
    }
    if ((rc = path_getcwd(&r->files.cwd, r->buf, CHUNK)) < 0) {
        srv_reply(r, rc);
        return;
    }
    n = strlen(r->buf) + 1;
    if (n > r->q.len)
        srv_reply(r, -ERANGE);
    else
        put_small(r, n);
}

/* The next entries of a directory, Put into the rank's buffer in
   Linux's getdents64 format (yod runs on Linux: the host's own call). */
void xfer_getdents(struct rank *r)
{
    int fd = files_fd(&r->files, r->q.fd);
    size_t want = r->q.len < CHUNK ? r->q.len : CHUNK;
    long n;

    if (fd < 0) {
        srv_reply(r, -EBADF);
        return;
    }
    if (bind_buffer(r) < 0) {
        srv_reply(r, -ENOMEM);
        return;
    }
    for (;;) {                  /* a batch of the store alone: the next */
        long got = getdents64(fd, r->buf, want);

        n = got > 0 ? (long)pfs_hide_store(fd, r->buf, (size_t)got) : got;
        if (got <= 0 || n > 0)
            break;
    }
    if (n <= 0)
        srv_reply(r, n < 0 ? -errno : 0);
    else
        put_small(r, (size_t)n);
}

