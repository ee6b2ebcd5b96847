/* SPDX-License-Identifier: MIT */
/*
 * rt_aio.c: Linux's native asynchronous I/O for a Linux program:
 * io_setup, io_submit, io_getevents, io_cancel and io_destroy
 * (<linux/aio_abi.h>; the man pages of Linux 6.1).  An IOCB_CMD_PREAD or
 * PWRITE is one aiocb queued in libc's POSIX aio (libc/aio.c, shared
 * with newlib programs) on the yod fd the program's fd names: a PREAD
 * or PWRITE request to the rank's I/O server, which moves the bytes
 * one-sided between the iocb's buffer and its file while the program
 * computes (docs/io.md, "Asynchronous I/O").  io_submit returns once
 * the operations are queued, the first on the wire; the server serves
 * one request of a rank at a time, so the next starts when the program
 * next makes one of these calls (io_getevents, io_submit), as a newlib
 * program's aio_* calls progress its queue.
 *
 * A context is a table here; its aio_context_t is the address of a ring
 * head in the program's memory (mmap'ed, as Linux's is) whose magic is
 * not AIO_RING_MAGIC, so libaio reaps through io_getevents rather than
 * reading events from the ring.  At most nr_events operations of a
 * context are submitted and not yet reaped (EAGAIN past them; Linux
 * rounds nr_events up and allows more).  FSYNC and FDSYNC are done at
 * io_submit, once the context's operations before them are complete;
 * PREADV, PWRITEV, POLL and NOOP are EINVAL (not built), as are
 * IOCB_FLAG_RESFD (no eventfd on a node) and any aio_rw_flags
 * (EOPNOTSUPP).  io_cancel takes back an operation still queued here
 * (-EINPROGRESS; its event says -ECANCELED); one the server is moving
 * is EAGAIN, one complete or unknown EINVAL.
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

/* One iocb submitted and not yet reaped. */
struct op {
    struct aiocb cb;            /* libc's queue entry (PREAD, PWRITE) */
    uint64_t obj, data;         /* the iocb's address and aio_data */
    int now;                    /* done at submit (FSYNC): res is its */
    long res;
};

static struct ctx {
    struct lx_aio_ring *ring;   /* the program's aio_context_t; NULL: free */
    unsigned nr, used;          /* nr_events; ops submitted, not reaped */
    struct op **ops;            /* ops[0..used), in submission order */
    const struct aiocb **wait;  /* aio_suspend's list */
} C[NCTX];

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
    return op->now || aio_error(&op->cb) != EINPROGRESS;
}

/* Its result as the event gives it: bytes or -errno, Linux's numbers. */
static long op_res(const struct op *op)
{
    if (op->now)
        return op->res;
    return op->cb.__err ? lx_err(-(long)op->cb.__err) : (long)op->cb.__ret;
}

/* Wait until one of the context's operations is complete, or until
   `end` (CLOCK_MONOTONIC; NULL: forever): 0 if none was by then. */
static int wait_any(struct ctx *c, const struct timespec *end)
{
    struct timespec now, left;
    unsigned n = 0;

    for (unsigned i = 0; i < c->used; i++) {
        if (op_done(c->ops[i]))
            return 1;
        c->wait[n++] = &c->ops[i]->cb;
    }
    if (n == 0)
        return 0;
    if (!end)
        return aio_suspend(c->wait, (int)n, NULL) == 0;
    clock_gettime(CLOCK_MONOTONIC, &now);
    left.tv_sec = end->tv_sec - now.tv_sec;
    left.tv_nsec = end->tv_nsec - now.tv_nsec;
    if (left.tv_nsec < 0)
        left.tv_sec--, left.tv_nsec += 1000000000;
    if (left.tv_sec < 0)
        return 0;
    return aio_suspend(c->wait, (int)n, &left) == 0;
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
    c->wait = calloc(nr, sizeof(*c->wait));
    ring = lx_mmap(0, 4096, 3, LX_MAP_PRIVATE | LX_MAP_ANONYMOUS, -1, 0);
    if (!c->ops || !c->wait || ring < 0) {
        free(c->ops);
        free(c->wait);
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
    free(c->wait);
    lx_munmap((long)c->ring, 4096, 0, 0, 0, 0);
    memset(c, 0, sizeof(*c));
    return 0;
}

/* FSYNC, FDSYNC: every operation submitted before it complete, then
   fsync. */
static long fsync_now(struct ctx *c, int y)
{
    for (unsigned i = 0; i < c->used; i++)
        while (!op_done(c->ops[i]))
            aio_suspend((const struct aiocb *[]){ &c->ops[i]->cb }, 1, NULL);
    return lx_err(lwk_io->fsync(y));
}

/* One iocb: 0 once queued, or -errno for io_submit to return. */
static long submit_one(struct ctx *c, uint64_t p)
{
    const struct lx_iocb *cb = (const struct lx_iocb *)p;
    int y, op, wr;
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
    wr = op == LX_IOCB_CMD_PWRITE;
    if (op == LX_IOCB_CMD_PREAD || op == LX_IOCB_CMD_PWRITE) {
        CHECK(cb->aio_buf, cb->aio_nbytes);
        if (cb->aio_offset < 0 || (int64_t)cb->aio_nbytes < 0)
            return -LX_EINVAL;
    } else if (op != LX_IOCB_CMD_FSYNC && op != LX_IOCB_CMD_FDSYNC) {
        return -LX_EINVAL;
    }
    if (!(o = calloc(1, sizeof(*o))))
        return -LX_EAGAIN;
    o->obj = p;
    o->data = cb->aio_data;
    if (op == LX_IOCB_CMD_FSYNC || op == LX_IOCB_CMD_FDSYNC) {
        o->now = 1;
        o->res = fsync_now(c, y);
    } else {
        o->cb.aio_fildes = (int)cb->aio_fildes;
        o->cb.aio_buf = (volatile void *)cb->aio_buf;
        o->cb.aio_nbytes = cb->aio_nbytes;
        o->cb.aio_offset = cb->aio_offset;
        rc = lwk_aio_queue(&o->cb, wr ? LIO_WRITE : LIO_READ, y,
                           y < LX_NODE_H && lx_yod_files());
        if (rc < 0) {
            free(o);
            return lx_err(rc);
        }
    }
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
        return lwk_aio_cancel(&op->cb) == AIO_CANCELED ? -LX_EINPROGRESS
                                                       : -LX_EAGAIN;
    }
    return -LX_EINVAL;
}
