/* SPDX-License-Identifier: MIT */
/*
 * io_async.c: the nonblocking independent data calls of MPI-IO
 * (MPI_File_iread, _iwrite, _iread_at, _iwrite_at, _iread_shared,
 * _iwrite_shared; MPI-3.1 13.4.2) over asynchronous I/O.  The call
 * starts one aio_read or aio_write of the access's file bytes and
 * returns; the request completes when the operation does, as
 * MPI_Wait/MPI_Test (or any call that makes progress) finds it, so the
 * program computes while the bytes move (on the nodes, libc/aio.c: the
 * rank's I/O server moves them one-sided, docs/io.md).
 *
 * An access whose file bytes are not one contiguous run (a view with
 * holes inside it) is done at the call by the blocking path (io_view.c)
 * and its request is complete at once: splitting it into several aio
 * operations, one per run, would queue them one behind the other on the
 * node anyway.  So is any whose operation is refused (EAGAIN: the queue
 * is full).
 *
 * A Linux personality program uses Linux's native AIO (io_submit,
 * io_getevents: lxrt/rt_aio.c), not glibc's aio_*, which runs on
 * threads such a program has only under yod -threads (and whose
 * machinery, in a static program without them, crashed at exit); the
 * runtime queues its operations in the same libc aio a newlib program's
 * go through.  The four op_* functions below are the one difference.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "io.h"

#if defined(__lwk__) && defined(__GLIBC__)
#define IO_KAIO 1           /* a Linux personality program */
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#define IO_KAIO 0
#include <aio.h>
#endif

/* One operation under way: its control block, its request, the next of
 * the list every progress pass looks at. */
struct io_op {
#if IO_KAIO
    struct iocb cb;
    long res;               /* the event's: bytes or -errno */
    bool done;
#else
    struct aiocb cb;
#endif
    int fd;
    MPI_Request r;
    bool wr;
    struct io_op *next;
};

static struct io_op *pending;

#if IO_KAIO
static aio_context_t kctx;  /* the process's one, made at the first use */
#define KAIO_EVENTS 64      /* operations outstanding at once (EAGAIN past) */

/* Start op (its fd, wr set): 0, or -1 if it cannot be (done at the call). */
static int op_submit(struct io_op *op, void *buf, size_t len, MPI_Offset at)
{
    struct iocb *list[1] = { &op->cb };

    if (kctx == 0 && syscall(SYS_io_setup, KAIO_EVENTS, &kctx) != 0) {
        kctx = 0;
        return -1;
    }
    op->cb.aio_lio_opcode = op->wr ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
    op->cb.aio_fildes = (uint32_t)op->fd;
    op->cb.aio_buf = (uintptr_t)buf;
    op->cb.aio_nbytes = len;
    op->cb.aio_offset = at;
    op->cb.aio_data = (uintptr_t)op;
    return syscall(SYS_io_submit, kctx, 1, list) == 1 ? 0 : -1;
}

/* Take the events there are (one at least if `wait`): each names its op. */
static void op_reap(bool wait)
{
    struct io_event ev[16];
    long n = syscall(SYS_io_getevents, kctx, wait ? 1 : 0, 16, ev, NULL);

    for (long i = 0; i < n; i++) {
        struct io_op *op = (struct io_op *)(uintptr_t)ev[i].data;
        op->res = ev[i].res;
        op->done = true;
    }
}

static bool op_busy(struct io_op *op)
{
    if (!op->done)
        op_reap(false);
    return !op->done;
}

static void op_block(struct io_op *op)
{
    while (!op->done)
        op_reap(true);
}

/* Its bytes, or -1 with *err the errno. */
static ssize_t op_result(struct io_op *op, int *err)
{
    *err = op->res < 0 ? (int)-op->res : 0;
    return op->res < 0 ? -1 : op->res;
}
#else
static int op_submit(struct io_op *op, void *buf, size_t len, MPI_Offset at)
{
    op->cb.aio_fildes = op->fd;
    op->cb.aio_buf = buf;
    op->cb.aio_offset = (off_t)at;
    op->cb.aio_nbytes = len;
    op->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
    return op->wr ? aio_write(&op->cb) : aio_read(&op->cb);
}

static bool op_busy(struct io_op *op)
{
    return aio_error(&op->cb) == EINPROGRESS;
}

/* The C library's aio_suspend sleeps until it is over. */
static void op_block(struct io_op *op)
{
    const struct aiocb *list[1] = { &op->cb };

    while (aio_error(&op->cb) == EINPROGRESS)
        aio_suspend(list, 1, NULL);
}

static ssize_t op_result(struct io_op *op, int *err)
{
    *err = aio_error(&op->cb);
    return aio_return(&op->cb);
}
#endif

bool io_async_pending(void)
{
    return pending != NULL;
}

/* The operation is over: its status, a read's bytes unpacked into the
 * user's buffer, the request DONE. */
static void op_finish(struct io_op *op)
{
    MPI_Request r = op->r;
    int err;
    ssize_t n = op_result(op, &err);

    status_empty(&r->status);
    r->status.mpi_bytes = n > 0 ? (size_t)n : 0;
    r->status.MPI_ERROR = err ? io_errno(err) : MPI_SUCCESS;
    if (!op->wr && r->tmp != NULL)
        dt_unpack(r->tmp, r->status.mpi_bytes, r->buf, r->count, r->dt);
    free(op);
    r->io = NULL;
    req_complete(r);
}

static void op_unlink(struct io_op *op)
{
    for (struct io_op **p = &pending; *p; p = &(*p)->next)
        if (*p == op) {
            *p = op->next;
            return;
        }
}

/* Complete every operation that is over; true if one was. */
bool io_async_progress(void)
{
    bool any = false;

    for (struct io_op **p = &pending; *p;) {
        struct io_op *op = *p;
        if (op_busy(op)) {
            p = &op->next;
            continue;
        }
        *p = op->next;
        op_finish(op);
        any = true;
    }
    return any;
}

/* Wait for r's operation alone (MPI_Wait). */
void io_async_wait(MPI_Request r)
{
    struct io_op *op = r->io;

    op_block(op);
    op_unlink(op);
    op_finish(op);
}

/* Finish every operation on fd before it is closed (MPI_File_close).
 * Closing a file with requests pending is erroneous (MPI-3.1 13.2.2),
 * but an operation still queued must not write into the next file
 * given the same descriptor. */
void io_async_drain(int fd)
{
    for (struct io_op **p = &pending; *p;) {
        struct io_op *op = *p;
        if (op->fd != fd) {
            p = &op->next;
            continue;
        }
        op_block(op);
        *p = op->next;
        op_finish(op);
    }
}

/* Is the access of len stream bytes from stream byte s one run of file
 * bytes?  *at: its first file byte. */
static bool one_run(MPI_File f, MPI_Offset s, size_t len, MPI_Offset *at)
{
    size_t run;

    *at = io_file_byte(f, s, &run);
    return run >= len;
}

/* Start the operation of r (its buffer, count and type set) on the file
 * bytes from `at`. */
static int op_start(MPI_File f, MPI_Request r, bool wr, MPI_Offset at,
                    size_t len)
{
    MPI_Aint off;
    struct io_op *op = calloc(1, sizeof(*op));
    void *buf;

    if (op == NULL)
        return MPI_ERR_NO_MEM;
    if (dt_contig(r->dt, r->count, &off)) {
        buf = (char *)r->buf + off;
    } else if ((r->tmp = malloc(len + 1)) == NULL) {
        free(op);
        return MPI_ERR_NO_MEM;
    } else {
        buf = r->tmp;
        if (wr)
            dt_pack(r->buf, r->count, r->dt, r->tmp);
    }
    op->fd = f->fd;
    op->r = r;
    op->wr = wr;
    if (op_submit(op, buf, len, at) != 0) {
        free(op);
        return -1;          /* the caller's blocking path does it */
    }
    pvc.file_async++;
    r->io = op;
    r->state = RS_ACTIVE;
    op->next = pending;
    pending = op;
    return MPI_SUCCESS;
}

/* An asynchronous request for count items of dt at etype offset at of
 * f's view (at < 0: at the individual pointer, which moves on by what is
 * asked, MPI-3.1 13.4.3), or one done at the call when it cannot be. */
int io_start(MPI_File f, bool wr, MPI_Offset at, void *buf, int count,
             MPI_Datatype dt, MPI_Request *req, const char *name)
{
    MPI_Offset from, s;
    size_t len;
    MPI_Status st;
    MPI_Request r;
    int rc = io_access_check(f, wr, at, count, dt, buf);

    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    if (rc != MPI_SUCCESS)
        return io_done_request(f, rc, NULL, req, name);
    len = (size_t)count * (size_t)dt->size;
    s = (at >= 0 ? at : f->pos) * (MPI_Offset)f->etype->size;
    if (len == 0 || !one_run(f, s, len, &from) ||
        (r = req_new(RQ_FILE)) == NULL) {
        rc = io_access(f, wr, at, buf, count, dt, &st);
        return io_done_request(f, rc, &st, req, name);
    }
    r->comm = f->comm;
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    dt_retain(dt);
    if ((rc = op_start(f, r, wr, from, len)) != MPI_SUCCESS) {
        req_free(r);
        if (rc != -1)
            return io_done_request(f, rc, NULL, req, name);
        rc = io_access(f, wr, at, buf, count, dt, &st);
        return io_done_request(f, rc, &st, req, name);
    }
    if (at < 0)
        f->pos += (MPI_Offset)(len / f->etype->size);
    *req = r;
    return MPI_SUCCESS;
}
