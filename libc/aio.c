/* SPDX-License-Identifier: MIT */
/*
 * aio.c: POSIX asynchronous I/O (<aio.h>, POSIX.1-2017 aio_read & co.).
 *
 * Under yod, aio_read and aio_write queue the aiocb, in order; the one at
 * the head is a PREAD or PWRITE request to the rank's I/O server (yodio.c,
 * yod/fileio.c) that returns at once, and the server moves the bytes
 * one-sided between the aiocb's buffer and its file (its Gets and Puts
 * are answered by this node's Portals, no CPU time of the program's) in
 * chunks, several on the wire, while the program computes.  A server
 * serves one request of a rank at a time, so one operation is in flight:
 * every aio call takes the completion of the one in flight and starts
 * the next, and aio_suspend waits for it; a file call made meanwhile
 * waits for the one in flight first.  The Linux personality's io_submit
 * queues its operations here too (lwk_aio_queue, lxrt/rt_aio.c).  With
 * no yod behind the program, and on fds 0..2 (the console, yod's
 * output), an operation is done at once.
 * Only SIGEV_NONE: a node delivers no asynchronous signals.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <portals4.h>

#include "libc_internal.h"

static struct {
    struct aiocb *head, *tail;  /* submitted, not complete, in order */
    int flying;                 /* head is the server's request now */
    int n;
} Q;

static void complete(struct aiocb *cb, long rc)
{
    cb->__ret = rc < 0 ? -1 : rc;
    cb->__err = rc < 0 ? (int)-rc : 0;
}

static struct aiocb *dequeue(void)
{
    struct aiocb *cb = Q.head;

    if (!(Q.head = cb->__next))
        Q.tail = NULL;
    Q.n--;
    return cb;
}

/* An operation done here and now, through lwk_io: on fds 0..2 (not
   seekable: no offset), or with no yod behind the fd. */
static long run_now(struct aiocb *cb)
{
    int y = cb->__io, wr = cb->__op == LIO_WRITE;
    void *buf = (void *)cb->aio_buf;

    if (y >= 0 && y <= 2)
        return wr ? lwk_io->write(y, buf, cb->aio_nbytes)
                  : lwk_io->read(y, buf, cb->aio_nbytes);
    return lwk_pio(0, wr, y, buf, cb->aio_nbytes, cb->aio_offset);
}

/* Take the completion of the operation in flight (waiting up to `ms`,
   PTL_TIME_FOREVER, or 0: a look) and start those after it, until one
   is in flight or none is left. */
static void pump(unsigned ms)
{
    long rc;

    while (Q.head) {
        struct aiocb *cb = Q.head;

        if (Q.flying) {
            if (!lwk_yod_aio_done(ms, &rc))
                return;
            Q.flying = 0;
            complete(dequeue(), rc);
            ms = 0;             /* what was waited for came */
        } else if (cb->__io < 0) {
            complete(dequeue(), -EBADF);
        } else if (!cb->__yod || cb->__io <= 2) {
            complete(dequeue(), run_now(cb));
        } else if ((rc = lwk_yod_aio_start(cb->__op == LIO_WRITE, cb->__io,
                                           cb->aio_buf, cb->aio_nbytes,
                                           cb->aio_offset)) < 0) {
            complete(dequeue(), rc);
        } else {
            Q.flying = 1;
        }
    }
}

/* Notifications a node can give: none (SIGEV_NONE; 0, the type of a
   zeroed aiocb, is taken as none too, as nothing else is 0 here). */
static int notify_ok(const struct sigevent *sev)
{
    return !sev || sev->sigev_notify == SIGEV_NONE || sev->sigev_notify == 0;
}

long lwk_aio_queue(struct aiocb *cb, int op, int io, int yod)
{
    lwk_lock(&lwk_io_lock);
    pump(0);
    if (Q.n >= AIO_MAX) {
        lwk_unlock(&lwk_io_lock);
        return -EAGAIN;
    }
    cb->__op = op;
    cb->__io = io;
    cb->__yod = yod;
    cb->__err = EINPROGRESS;
    cb->__ret = 0;
    cb->__next = NULL;
    if (Q.tail)
        Q.tail->__next = cb;
    else
        Q.head = cb;
    Q.tail = cb;
    Q.n++;
    pump(0);
    lwk_unlock(&lwk_io_lock);
    return 0;
}

/* How many more operations the queue takes now (lxrt/rt_aio.c: an iocb
   of several buffers goes in whole or not at all). */
int lwk_aio_room(void)
{
    int n;

    lwk_lock(&lwk_io_lock);
    pump(0);
    n = AIO_MAX - Q.n;
    lwk_unlock(&lwk_io_lock);
    return n;
}

/* The fd is looked up now: the operation acts on the file it names at
   the call, as Linux's io_submit does, whatever becomes of the number. */
static int submit(struct aiocb *cb, int op)
{
    if (!cb || !notify_ok(&cb->aio_sigevent) || cb->aio_offset < 0 ||
        cb->aio_nbytes > LONG_MAX)     /* ssize_t's */
        return lwk_fail(EINVAL);
    return (int)lwk_ret(lwk_aio_queue(cb, op, lwk_fd(cb->aio_fildes),
                                      lwk_io == &lwk_io_yod));
}

int aio_read(struct aiocb *cb)
{
    return submit(cb, LIO_READ);
}

int aio_write(struct aiocb *cb)
{
    return submit(cb, LIO_WRITE);
}

int aio_error(const struct aiocb *cb)
{
    lwk_lock(&lwk_io_lock);
    if (cb->__err == EINPROGRESS)
        pump(0);
    lwk_unlock(&lwk_io_lock);
    return cb->__err;
}

ssize_t aio_return(struct aiocb *cb)
{
    if (aio_error(cb) == EINPROGRESS)
        return lwk_fail(EINVAL);
    if (cb->__err)
        errno = cb->__err;
    return cb->__ret;
}

static int any_done(const struct aiocb *const list[], int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] && list[i]->__err != EINPROGRESS)
            return 1;
    return 0;
}

/* Milliseconds from now to `end` (CLOCK_MONOTONIC), 0 if it is past. */
static unsigned ms_until(const struct timespec *end)
{
    struct timespec now;
    int64_t ms;

    clock_gettime(CLOCK_MONOTONIC, &now);
    ms = (end->tv_sec - now.tv_sec) * 1000 +
         (end->tv_nsec - now.tv_nsec) / 1000000;
    return ms <= 0 ? 0 : ms >= PTL_TIME_FOREVER ? PTL_TIME_FOREVER - 1
                                                : (unsigned)ms;
}

int aio_suspend(const struct aiocb *const list[], int n,
                const struct timespec *timeout)
{
    struct timespec end;
    int done;

    if (n < 0 || (timeout && (timeout->tv_sec < 0 || timeout->tv_nsec < 0 ||
                              timeout->tv_nsec >= 1000000000)))
        return lwk_fail(EINVAL);
    if (timeout) {
        clock_gettime(CLOCK_MONOTONIC, &end);
        end.tv_sec += timeout->tv_sec + (end.tv_nsec + timeout->tv_nsec) /
                                        1000000000;
        end.tv_nsec = (end.tv_nsec + timeout->tv_nsec) % 1000000000;
    }
    lwk_lock(&lwk_io_lock);
    pump(0);
    /* The operations listed are done in order behind the one in flight:
       wait for each in turn until one listed is complete. */
    while (!(done = any_done(list, n)) && Q.flying) {
        unsigned ms = timeout ? ms_until(&end) : PTL_TIME_FOREVER;
        if (ms == 0)
            break;
        pump(ms);
    }
    lwk_unlock(&lwk_io_lock);
    return done ? 0 : lwk_fail(EAGAIN);
}

/* Cancel cb, or (cb NULL) every operation on fd, that is still queued;
   what the server has completes. */
static int cancel(int fd, struct aiocb *cb)
{
    int canceled = 0, running = 0;

    lwk_lock(&lwk_io_lock);
    pump(0);
    for (struct aiocb **p = &Q.head, *prev = NULL; *p;) {
        struct aiocb *c = *p;

        if (cb ? c != cb : c->aio_fildes != fd) {
            prev = c;
            p = &c->__next;
        } else if (c == Q.head && Q.flying) {
            running = 1;        /* the server has it: it completes */
            prev = c;
            p = &c->__next;
        } else {
            *p = c->__next;
            if (Q.tail == c)
                Q.tail = prev;
            Q.n--;
            complete(c, -ECANCELED);
            canceled = 1;
        }
    }
    lwk_unlock(&lwk_io_lock);
    return running ? AIO_NOTCANCELED : canceled ? AIO_CANCELED : AIO_ALLDONE;
}

int aio_cancel(int fd, struct aiocb *cb)
{
    if (lwk_fd(fd) < 0)
        return lwk_fail(EBADF);
    if (cb && cb->aio_fildes != fd)
        return lwk_fail(EINVAL);
    return cancel(fd, cb);
}

int lwk_aio_cancel(struct aiocb *cb)
{
    return cancel(-1, cb);
}

/* Every operation submitted before it completes first, then fsync: done
   before it returns, its result in cb as for the others. */
int aio_fsync(int op, struct aiocb *cb)
{
    int err = errno;

    if (op != O_SYNC && op != O_DSYNC)     /* (one value here) */
        return lwk_fail(EINVAL);
    if (!cb || lwk_fd(cb->aio_fildes) < 0)
        return lwk_fail(cb ? EBADF : EINVAL);
    lwk_lock(&lwk_io_lock);
    while (Q.head)
        pump(PTL_TIME_FOREVER);
    complete(cb, fsync(cb->aio_fildes) < 0 ? -errno : 0);
    lwk_unlock(&lwk_io_lock);
    errno = err;
    return 0;
}

int lio_listio(int mode, struct aiocb *const list[], int n,
               struct sigevent *sev)
{
    int failed = 0;

    if ((mode != LIO_WAIT && mode != LIO_NOWAIT) || n < 0 ||
        n > AIO_LISTIO_MAX || !notify_ok(sev))
        return lwk_fail(EINVAL);
    for (int i = 0; i < n; i++) {
        struct aiocb *cb = list[i];

        if (!cb || cb->aio_lio_opcode == LIO_NOP)
            continue;
        if (cb->aio_lio_opcode != LIO_READ && cb->aio_lio_opcode != LIO_WRITE)
            cb->__err = EINVAL, cb->__ret = -1, failed = 1;
        else if (submit(cb, cb->aio_lio_opcode) < 0)
            cb->__err = errno, cb->__ret = -1, failed = 1;
    }
    for (int i = 0; mode == LIO_WAIT && i < n; i++)
        if (list[i] && list[i]->aio_lio_opcode != LIO_NOP) {
            const struct aiocb *one[1] = { list[i] };
            while (aio_suspend(one, 1, NULL) < 0)
                ;
            failed |= list[i]->__err != 0;
        }
    return failed ? lwk_fail(mode == LIO_WAIT ? EIO : EAGAIN) : 0;
}
