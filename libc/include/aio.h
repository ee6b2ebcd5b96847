/* SPDX-License-Identifier: MIT */
/*
 * aio.h: POSIX asynchronous I/O (POSIX.1-2017, <aio.h>; libc/aio.c).
 * Under yod an operation is a request to the rank's I/O server that moves
 * the bytes one-sided between the aiocb's buffer and the server while the
 * program computes (docs/io.md, "Asynchronous I/O"); with no yod behind
 * the program it is done at once, at the call.  Notification: only
 * SIGEV_NONE (a node delivers no asynchronous signals and starts no
 * threads of its own); any other aio_sigevent is EINVAL.  Errors: as
 * POSIX says, aio_read/aio_write fail with EINVAL (a negative offset or
 * size, an unsupported notification) or EAGAIN (AIO_MAX operations
 * queued); what the operation meets (EBADF, ENOSPC, ...) is aio_error's.
 */
#ifndef LWK_AIO_H
#define LWK_AIO_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define AIO_ALLDONE     0       /* aio_cancel: none was left to cancel */
#define AIO_CANCELED    1       /* every operation asked for was canceled */
#define AIO_NOTCANCELED 2       /* one at least was under way */

#define LIO_NOP         0
#define LIO_READ        1
#define LIO_WRITE       2
#define LIO_WAIT        0
#define LIO_NOWAIT      1

#define AIO_MAX         64      /* operations queued at once, per process */
#define AIO_LISTIO_MAX  AIO_MAX

struct aiocb {
    int aio_fildes;
    off_t aio_offset;
    volatile void *aio_buf;
    size_t aio_nbytes;
    int aio_reqprio;            /* (ignored: one queue, in order) */
    struct sigevent aio_sigevent;
    int aio_lio_opcode;
    /* libc's: the operation's state, result and queue link */
    int __op;                   /* LIO_READ or LIO_WRITE */
    int __io;                   /* lwk_io's fd under aio_fildes, or -1 */
    int __yod;                  /* yod serves __io: a request, not done now */
    int __err;                  /* EINPROGRESS, 0 or the errno met */
    ssize_t __ret;
    struct aiocb *__next;
};

#ifdef __cplusplus
extern "C" {
#endif
int aio_read(struct aiocb *cb);
int aio_write(struct aiocb *cb);
int aio_error(const struct aiocb *cb);
ssize_t aio_return(struct aiocb *cb);
int aio_suspend(const struct aiocb *const list[], int n,
                const struct timespec *timeout);
int aio_cancel(int fd, struct aiocb *cb);
int aio_fsync(int op, struct aiocb *cb);
int lio_listio(int mode, struct aiocb *const list[], int n,
               struct sigevent *sev);
#ifdef __cplusplus
}
#endif

#endif
