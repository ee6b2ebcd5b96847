/* SPDX-License-Identifier: MIT */
/*
 * rt_aio.c: Linux's native asynchronous I/O for a Linux program:
 * io_setup, io_submit, io_getevents, io_cancel and io_destroy
 * (<linux/aio_abi.h>; the man pages of Linux 6.1).  An IOCB_CMD_PREAD or
 * PWRITE is one aiocb queued in libc's POSIX aio (libc/aio.c, shared
 * with newlib programs) on the yod fd the program's fd names: a PREAD
 * or PWRITE request to the rank's I/O server, which moves the bytes
 * one-sided between the iocb's buffer and its file while the program
 * computes (docs/io.md, "Asynchronous I/O"); an IOCB_CMD_PREADV or
 * PWRITEV is one such aiocb per buffer, at consecutive offsets.
 * io_submit returns once the operations are queued, the first on the
 * wire; the server serves one request of a rank at a time, so the next
 * starts when the program next makes one of these calls (io_getevents,
 * io_submit), as a newlib program's aio_* calls progress its queue.
 *
 * A context is a table here; its aio_context_t is the address of a ring
 * head in the program's memory (mmap'ed, as Linux's is) whose magic is
 * not AIO_RING_MAGIC, so libaio reaps through io_getevents rather than
 * reading events from the ring.  At most nr_events operations of a
 * context are submitted and not yet reaped (EAGAIN past them; Linux
 * rounds nr_events up and allows more), and at most AIO_MAX (64)
 * buffers queued in the process.  FSYNC and FDSYNC are done at
 * io_submit, once the context's operations before them are complete;
 * POLL and NOOP are EINVAL (not built), as are IOCB_FLAG_RESFD (no
 * eventfd on a node) and any aio_rw_flags (EOPNOTSUPP).  io_cancel
 * takes back an operation still queued here (-EINPROGRESS; its event
 * says -ECANCELED); one the server is moving is EAGAIN, one complete or
 * unknown EINVAL.
 */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libc_internal.h"
#include "rt.h"

#define CHECK(p, n) do { if (!lx_ok((uint64_t)(p), (uint64_t)(n))) \
                              return -LX_EFAULT; } while (0)

#define NCTX        16          /* contexts per process */
#define MAX_EVENTS  4096        /* nr_events of one context (EAGAIN past) */

#define MAX_IOV     1024        /* buffers of a PREADV (UIO_MAXIOV) */

/* One iocb submitted and not yet reaped. */
struct op {
    uint64_t obj, data;         /* the iocb's address and aio_data */
    int now;                    /* done at submit (FSYNC): res is its */
    long res;
    int n;                      /* buffers, each one of libc's aiocbs */
    struct aiocb cb[];
};

static struct ctx {
    struct lx_aio_ring *ring;   /* the program's aio_context_t; NULL: free */
    unsigned nr, used;          /* nr_events; ops submitted, not reaped */
    struct op **ops;            /* ops[0..used), in submission order */
} C[NCTX];

/* aio_suspend's list: what is not complete is in libc's queue, so at
   most AIO_MAX. */
static const struct aiocb *waiting[AIO_MAX];

/* The context of aio_context_t id (0: a free one), or NULL. */
static struct ctx *ctx_of(long id)
{
    for (int i = 0; i < NCTX; i++)
        if ((long)C[i].ring == id)
            return &C[i];
    return NULL;
}

static int op_done(const struct op *op)
{
    for (int i = 0; !op->now && i < op->n; i++)
        if (aio_error(&op->cb[i]) == EINPROGRESS)
            return 0;
    return 1;
}

/* Its result as the event gives it: bytes or -errno, Linux's numbers;
   a vector's bytes up to its first short buffer or error. */
static long op_res(const struct op *op)
{
    long done = 0;

    if (op->now)
        return op->res;
    for (int i = 0; i < op->n; i++) {
        const struct aiocb *a = &op->cb[i];

        if (a->__err)
            return done ? done : lx_err(-(long)a->__err);
        done += a->__ret;
        if ((size_t)a->__ret < a->aio_nbytes)
            break;
    }
    return done;
}

/* Wait until one of the context's operations is complete, or until
   `end` (CLOCK_MONOTONIC; NULL: forever): 0 if none was by then. */
static int wait_any(struct ctx *c, const struct timespec *end)
{
    struct timespec now, left;
    int n = 0;

    for (unsigned i = 0; i < c->used; i++) {
        struct op *op = c->ops[i];

        if (op_done(op))
            return 1;
        for (int k = 0; k < op->n; k++)
            if (op->cb[k].__err == EINPROGRESS && n < AIO_MAX)
                waiting[n++] = &op->cb[k];
    }
    if (n == 0)
        return 0;
    if (!end)
        return aio_suspend(waiting, n, NULL) == 0;
    clock_gettime(CLOCK_MONOTONIC, &now);
    left.tv_sec = end->tv_sec - now.tv_sec;
    left.tv_nsec = end->tv_nsec - now.tv_nsec;
    if (left.tv_nsec < 0)
        left.tv_sec--, left.tv_nsec += 1000000000;
    if (left.tv_sec < 0)
        return 0;
    return aio_suspend(waiting, n, &left) == 0;
}

/* Move up to `max` complete operations' events to ev (NULL: drop them),
   in submission order; how many. */
static long reap(struct ctx *c, struct lx_io_event *ev, long max)
{
    long got = 0;
    unsigned keep = 0;

    for (unsigned i = 0; i < c->used; i++) {
        struct op *op = c->ops[i];

        if (got < max && op_done(op)) {
            if (ev)
                ev[got] = (struct lx_io_event){ op->data, op->obj,
                                                op_res(op), 0 };
            got++;
            free(op);
        } else {
            c->ops[keep++] = op;
        }
    }
    c->used = keep;
    return got;
}

/* io_setup(nr_events, ctxp): *ctxp must be 0. */
long lx_io_setup(LX_ARGS)
{
    unsigned nr = (unsigned)a0;
    uint64_t *ctxp = (uint64_t *)a1;
    struct ctx *c = ctx_of(0);
    long ring;

    CHECK(a1, sizeof(*ctxp));
    if (*ctxp || nr == 0)
        return -LX_EINVAL;
    if (nr > MAX_EVENTS || !c)
        return -LX_EAGAIN;
    c->ops = calloc(nr, sizeof(*c->ops));
    ring = lx_mmap(0, 4096, 3, LX_MAP_PRIVATE | LX_MAP_ANONYMOUS, -1, 0);
    if (!c->ops || ring < 0) {
        free(c->ops);
        return -LX_EAGAIN;
    }
    c->ring = (struct lx_aio_ring *)ring;
    *c->ring = (struct lx_aio_ring){ .id = (uint32_t)(c - C), .nr = nr,
                                     .header_length = sizeof(*c->ring) };
    c->nr = nr;
    c->used = 0;
    *ctxp = (uint64_t)ring;
    return 0;
}

/* As Linux: the context's operations complete first, their events go. */
long lx_io_destroy(LX_ARGS)
{
    struct ctx *c = a0 ? ctx_of(a0) : NULL;

    if (!c)
        return -LX_EINVAL;
    while (c->used && (wait_any(c, NULL), reap(c, NULL, c->used)))
        ;
    free(c->ops);
    lx_munmap((long)c->ring, 4096, 0, 0, 0, 0);
    memset(c, 0, sizeof(*c));
    return 0;
}

/* FSYNC, FDSYNC: every operation submitted before it complete, then
   fsync. */
static long fsync_now(struct ctx *c, int y)
{
    for (unsigned i = 0; i < c->used; i++)
        for (int k = 0; k < c->ops[i]->n; k++) {
            const struct aiocb *one[1] = { &c->ops[i]->cb[k] };

            while (aio_error(one[0]) == EINPROGRESS)
                aio_suspend(one, 1, NULL);
        }
    return lx_err(lwk_io->fsync(y));
}

/* The buffers an iocb reads or writes: *n of them at *v (one: the iocb's
   own); 0 or -LX_E*. */
static long buffers(const struct lx_iocb *cb, struct lx_iovec *one,
                    const struct lx_iovec **v, int *n)
{
    int vec = cb->aio_lio_opcode == LX_IOCB_CMD_PREADV ||
              cb->aio_lio_opcode == LX_IOCB_CMD_PWRITEV;

    *v = one;
    *n = 1;
    *one = (struct lx_iovec){ cb->aio_buf, cb->aio_nbytes };
    if (vec) {
        if (cb->aio_nbytes > MAX_IOV)
            return -LX_EINVAL;
        CHECK(cb->aio_buf, cb->aio_nbytes * sizeof(**v));
        *v = (const struct lx_iovec *)cb->aio_buf;
        *n = (int)cb->aio_nbytes;
    }
    for (int i = 0; i < *n; i++) {
        CHECK((*v)[i].base, (*v)[i].len);
        if ((int64_t)(*v)[i].len < 0)
            return -LX_EINVAL;
    }
    return cb->aio_offset < 0 ? -LX_EINVAL : 0;
}

/* Queue o's n buffers on handle y from the iocb's offset on. */
static void queue(struct op *o, const struct lx_iocb *cb,
                  const struct lx_iovec *v, int y, int wr)
{
    int64_t off = cb->aio_offset;

    for (int i = 0; i < o->n; i++) {
        struct aiocb *a = &o->cb[i];

        a->aio_fildes = (int)cb->aio_fildes;
        a->aio_buf = (volatile void *)v[i].base;
        a->aio_nbytes = v[i].len;
        a->aio_offset = off;
        off += (int64_t)v[i].len;
        /* room was asked for: this cannot be EAGAIN */
        lwk_aio_queue(a, wr ? LIO_WRITE : LIO_READ, y,
                      y < LX_NODE_H && lx_yod_files());
    }
}

/* One iocb: 0 once queued, or -errno for io_submit to return. */
static long submit_one(struct ctx *c, uint64_t p)
{
    const struct lx_iocb *cb = (const struct lx_iocb *)p;
    const struct lx_iovec *v = NULL;
    struct lx_iovec one;
    int y, op, n = 0, sync;
    struct op *o;
    long rc;

    CHECK(p, sizeof(*cb));
    if (cb->aio_reserved2)
        return -LX_EINVAL;
    if (c->used >= c->nr)
        return -LX_EAGAIN;
    if ((y = lx_fd(cb->aio_fildes)) < 0)
        return -LX_EBADF;
    if (cb->aio_flags & LX_IOCB_FLAG_RESFD)
        return -LX_EINVAL;
    if (cb->aio_rw_flags)
        return -LX_EOPNOTSUPP;
    op = cb->aio_lio_opcode;
    sync = op == LX_IOCB_CMD_FSYNC || op == LX_IOCB_CMD_FDSYNC;
    if (!sync && op != LX_IOCB_CMD_PREAD && op != LX_IOCB_CMD_PWRITE &&
        op != LX_IOCB_CMD_PREADV && op != LX_IOCB_CMD_PWRITEV)
        return -LX_EINVAL;
    if (!sync && (rc = buffers(cb, &one, &v, &n)) < 0)
        return rc;
    if (n > lwk_aio_room())
        return -LX_EAGAIN;
    if (!(o = calloc(1, sizeof(*o) + (size_t)n * sizeof(o->cb[0]))))
        return -LX_EAGAIN;
    o->obj = p;
    o->data = cb->aio_data;
    o->n = n;
    o->now = n == 0;            /* FSYNC, or a vector of no buffers */
    if (sync)
        o->res = fsync_now(c, y);
    queue(o, cb, v, y, op == LX_IOCB_CMD_PWRITE || op == LX_IOCB_CMD_PWRITEV);
    ((struct lx_iocb *)cb)->aio_key = 0;        /* KIOCB_KEY */
    c->ops[c->used++] = o;
    return 0;
}

/* io_submit(ctx, nr, iocbpp): how many were queued, or the first's
   error if none was. */
long lx_io_submit(LX_ARGS)
{
    struct ctx *c = a0 ? ctx_of(a0) : NULL;
    const uint64_t *list = (const uint64_t *)a2;
    long i, rc;

    if (!c || a1 < 0)
        return -LX_EINVAL;
    if (a1 > (long)c->nr)
        a1 = c->nr;
    CHECK(a2, (uint64_t)a1 * sizeof(*list));
    for (i = 0; i < a1; i++)
        if ((rc = submit_one(c, list[i])) < 0)
            return i ? i : rc;
    return i;
}

/* io_getevents(ctx, min_nr, nr, events, timeout): at least min_nr
   events unless the timeout (relative; NULL: none) passes first, at
   most nr. */
long lx_io_getevents(LX_ARGS)
{
    struct ctx *c = a0 ? ctx_of(a0) : NULL;
    struct lx_io_event *ev = (struct lx_io_event *)a3;
    const struct lx_timespec *t = (const struct lx_timespec *)a4;
    struct timespec end;
    long got;

    if (!c || a1 < 0 || a1 > a2)
        return -LX_EINVAL;
    CHECK(a3, (uint64_t)a2 * sizeof(*ev));
    if (t) {
        CHECK(a4, sizeof(*t));
        if (t->tv_sec < 0 || t->tv_nsec < 0 || t->tv_nsec >= 1000000000)
            return -LX_EINVAL;
        clock_gettime(CLOCK_MONOTONIC, &end);
        end.tv_sec += t->tv_sec + (end.tv_nsec + t->tv_nsec) / 1000000000;
        end.tv_nsec = (end.tv_nsec + t->tv_nsec) % 1000000000;
    }
    got = reap(c, ev, a2);
    while (got < a1 && wait_any(c, t ? &end : NULL))
        got += reap(c, ev + got, a2 - got);
    return got;
}

/* io_cancel(ctx, iocb, result): Linux 6.1's answers (result unused). */
long lx_io_cancel(LX_ARGS)
{
    const struct lx_iocb *cb = (const struct lx_iocb *)a1;
    struct ctx *c;

    CHECK(a1, sizeof(*cb));
    if (cb->aio_key != 0 || !(c = a0 ? ctx_of(a0) : NULL))
        return -LX_EINVAL;
    for (unsigned i = 0; i < c->used; i++) {
        struct op *op = c->ops[i];

        if (op->obj != (uint64_t)a1 || op_done(op))
            continue;
        /* its buffers are in order in libc's queue: if the first is
           still waiting there, so are the others */
        if (lwk_aio_cancel(&op->cb[0]) != AIO_CANCELED)
            return -LX_EAGAIN;
        for (int k = 1; k < op->n; k++)
            lwk_aio_cancel(&op->cb[k]);
        return -LX_EINPROGRESS;
    }
    return -LX_EINVAL;
}
