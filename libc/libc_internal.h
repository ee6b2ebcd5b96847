/* SPDX-License-Identifier: MIT */
/*
 * libc_internal.h: private interfaces between crt0 and the newlib glue files
 * (init.c, heap.c, time.c, proc.c, io.c).  Not installed for programs.
 */
#ifndef LIBC_INTERNAL_H
#define LIBC_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct stat;

/* init.c: called by crt0 with the initial stack already decoded. */
void __lwk_init(int argc, char **argv, char **envp, unsigned long *auxv);

/* heap.c: the heap region sbrk hands out; set once by __lwk_init. */
void lwk_heap_setup(unsigned long base, unsigned long size);

/* time.c: remember the start time for times()/clock(); called by crt0. */
void __lwk_time_init(void);

/* A thread (index = pthread_t; 0 is the main thread) and its thread
   control block, where %fs points (tls.c, pthread.c). */
#define LWK_KEYS_MAX    64      /* PTHREAD_KEYS_MAX */
struct lwk_thread {
    int used, detached, cpu;
    unsigned done;              /* set by the kernel once it has ended */
    void *(*fn)(void *);
    void *arg, *ret;
    void *mem;                  /* stack, TLS block and TCB */
    struct lwk_tcb *tcb;
    const void **keys;          /* LWK_KEYS_MAX values, from the first set */
};
struct lwk_tcb {
    struct lwk_tcb *self;       /* %fs:0, as the x86-64 TLS ABI wants */
    struct lwk_thread *thread;
};
extern struct lwk_thread lwk_threads[];
struct lwk_thread *lwk_thread_self(void);
/* tls.c.  crt0: the main thread's TLS, once the heap is up. */
void __lwk_threads_init(void);
/* Bytes a thread's TLS block and TCB need; lay them out in
   [mem, mem + lwk_tls_bytes()) for thread t. */
size_t lwk_tls_bytes(void);
struct lwk_tcb *lwk_tls_make(void *mem, struct lwk_thread *t);
/* pthread_sync.c: run the key destructors of a thread that ends. */
void lwk_keys_destroy(struct lwk_thread *t);

/*
 * A raw system-call result is a value or -errno (-4095..-1).  Turn it into
 * the libc convention: the value, or -1 with errno set.
 */
static inline long lwk_ret(long r)
{
    if (r < 0 && r > -4096) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

/* Fail a libc call with `err`: returns -1 and sets errno. */
static inline int lwk_fail(int err)
{
    errno = err;
    return -1;
}

/*
 * io.c: the one dispatch point for file I/O.  Every newlib file call goes
 * through lwk_io, a table of these operations; each returns a value or
 * -errno (never touches errno itself).  The node-local table is
 * lwk_io_console (stdout/stderr to the console, everything else fails with
 * ENOSYS); under yod (LWK_YOD in the environment) it is lwk_io_yod
 * (yodfile.c), installed before main.
 */
struct lwk_io_ops {
    long (*open)(const char *path, int flags, int mode);
    long (*close)(int fd);
    long (*read)(int fd, void *buf, size_t len);
    long (*write)(int fd, const void *buf, size_t len);
    long (*lseek)(int fd, long off, int whence);
    long (*fstat)(int fd, struct stat *st);
    long (*stat)(const char *path, struct stat *st);
    long (*lstat)(const char *path, struct stat *st);
    long (*isatty)(int fd);
    long (*unlink)(const char *path);
    long (*link)(const char *oldpath, const char *newpath);
    long (*rename)(const char *oldpath, const char *newpath);
    long (*mkdir)(const char *path, int mode);
    long (*rmdir)(const char *path);
    long (*getcwd)(char *buf, size_t len);  /* the length with the NUL */
    long (*chdir)(const char *path);
    long (*access)(const char *path, int mode);
    long (*ftruncate)(int fd, long len);
    long (*fsync)(int fd);
    long (*fcntl)(int fd, int cmd, long arg);
    /* Linux's getdents64 records (a Linux program's readdir: lxrt/) */
    long (*getdents)(int fd, void *buf, size_t len);
};

extern const struct lwk_io_ops *lwk_io;

/* fdtable.c: the program's fds over lwk_io's.  lwk_fd: lwk_io's fd under
   a program fd, or -1 (every lwk_io call answers -EBADF for it);
   lwk_fd_opened: a program fd for lwk_io's new fd (or the -errno given);
   lwk_fd_close, lwk_fd_dup (the lowest free fd from `from`): -errno. */
int lwk_fd(int fd);
long lwk_fd_opened(long io_fd);
long lwk_fd_close(int fd);
long lwk_fd_dup(int fd, long from);
/* io.c: the next getdents64 records of a directory (dirent.c). */
long lwk_getdents(int fd, void *buf, size_t len);
extern const struct lwk_io_ops lwk_io_console;
extern const struct lwk_io_ops lwk_io_yod;

/* yodio.c: the channel to yod at "NID:PID" (yod/yod_proto.h). */
struct yod_file_req;
struct yod_file_ans;
void lwk_yod_io_setup(const char *where);
long lwk_yod_output(int fd, const void *buf, size_t len);
int lwk_yod_errno(uint32_t code);       /* yodfile.c: the protocol's errno */

/* lock.c: a recursive lock a thread spins for (zeroed: free); newlib's
   locks are these too. */
struct __lock {
    int owner;                  /* pthread_self() + 1; 0: free */
    int depth;
};
void lwk_lock(struct __lock *l);
int lwk_lock_try(struct __lock *l);
void lwk_unlock(struct __lock *l);
/* io.c: held for each file call and fd-table change (recursive). */
extern struct __lock lwk_io_lock;
struct yod_file_req *lwk_yod_req(void);
long lwk_yod_call(size_t req_len, void *buf, size_t len, unsigned buf_op,
                  struct yod_file_ans **ans);
/* yodio.c: one request in flight while the program goes on (aio.c) */
long lwk_yod_async_start(size_t req_len, void *buf, size_t len,
                         unsigned buf_op);
int lwk_yod_async_busy(void);
int lwk_yod_async_wait(unsigned ms, struct yod_file_ans **ans, long *rc);
/* yodfile.c: a PREAD or PWRITE made (its result or -errno), or started
   (0, -EBUSY, -errno) and its result taken */
long lwk_yod_pio(int wr, int fd, void *buf, size_t len, long long off);
/* files.c: pread/pwrite of lwk_io's fd y, a PREAD/PWRITE when yod serves
   it (`yod`), else seek, move, seek back */
long lwk_pio(int yod, int wr, int y, void *buf, size_t len, long long off);
long lwk_yod_aio_start(int wr, int fd, volatile void *buf, size_t len,
                       long long off);
int lwk_yod_aio_done(unsigned ms, long *ret);
/* aio.c: queue an aio_read (LIO_READ) or aio_write of cb on lwk_io's fd
   `io` (-1: it completes with EBADF), a request to yod when `yod` serves
   it, else done when its turn comes: aio_read/aio_write's road after
   the fd is looked up, and the Linux personality's io_submit's
   (lxrt/rt_aio.c); 0, or -EAGAIN past AIO_MAX queued */
struct aiocb;
long lwk_aio_queue(struct aiocb *cb, int op, int io, int yod);
/* aio.c: aio_cancel of cb alone, whatever its fd (io_cancel); how many
   more operations lwk_aio_queue takes now */
int lwk_aio_cancel(struct aiocb *cb);
int lwk_aio_room(void);
/* yodio.c: the pieces of a striped file's transfer (pfs.c), each an
   SREAD or SWRITE of `len` bytes at `off` of stripe `stripe` to that
   stripe's server; the servers (LWK_YOD's stations) */
struct lwk_yod_piece {
    uint32_t op, stripe;
    uint64_t off, len;
    void *buf;
    long ret;                   /* bytes moved, or -errno */
};
long lwk_yod_pieces(const char *id, const char *name,
                    struct lwk_yod_piece *p, int n);
int lwk_yod_nservers(void);
/* pfs.c: striped files (PFS, docs/io.md): the layout an OPEN answered
   for lwk_io's fd (or forget it at close); read, write, pread and
   pwrite of a striped fd, over its stripes' servers: the result, or 1
   if the transfer is not one to split (the fd's server does it) */
struct yod_pfs_layout;
void lwk_pfs_opened(int fd, const char *path, const struct yod_pfs_layout *l);
void lwk_pfs_closed(int fd);
#define LWK_PFS_WHOLE   (-0x7fffffffL)  /* lwk_pfs_io: not split */
long lwk_pfs_io(int wr, int fd, void *buf, size_t len, long long off);
/* yodfile.c: OPEN with the layout of a new striped file (0: defaults) */
long lwk_yod_open(const char *path, int flags, int mode, unsigned factor,
                  size_t unit);

#endif
