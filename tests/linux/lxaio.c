/* SPDX-License-Identifier: MIT */
/*
 * lxaio: Linux's native asynchronous I/O (io_setup, io_submit,
 * io_getevents, io_cancel, io_destroy; <linux/aio_abi.h>) from a static
 * glibc program, through the raw system calls (glibc has no wrappers).
 * suite-linux runs it on Linux and on a node and compares what it says
 * and the files it leaves:
 *
 *   8 writes of unaligned sizes submitted in one io_submit, the last
 *   block first, reaped by io_getevents (min_nr 8), each event's data,
 *   obj and res; read back by 8 PREADs and every byte checked; the file
 *   as pread64 sees it; an FSYNC; a PWRITEV of 3 buffers read back by a
 *   PREADV into 2, and a PREADV of none; io_submit's EBADF (first iocb: the
 *   call's error; second: the count before it), EINVAL for a bad ctx
 *   (io_submit, io_getevents, io_destroy) and a bad opcode, EFAULT for
 *   a bad iocb pointer; io_getevents's timeout with nothing pending;
 *   io_cancel of a complete operation (EINVAL); pwritev/preadv at an
 *   offset, the fd's offset untouched.
 *
 * lxaio pio: 16 pwrite64 and 16 pread64 of 1000 bytes at offsets (the
 * last first), a pwritev and a preadv, every byte checked, no lseek:
 * suite-linux counts what yod does on the host for them (one pread64 or
 * pwrite64 each, no seek).
 *
 * lxaio node: what only a node shows (Linux's buffered writes are done
 * inside io_submit, and Linux rounds nr_events up): io_submit past
 * nr_events is EAGAIN, and right after io_submit of 8 writes of 1 MiB
 * they are not all complete (io_getevents with min_nr 0 returns fewer
 * than 8: they are the I/O server's to move, not done at the call).
 * Prints "lxaio: OK" when all is well.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define N 8
#define BIG (1L << 20)
static int bad;

#define EXPECT(cond, ...) do { if (!(cond)) { bad = 1; \
        printf("lxaio: FAIL line %d: ", __LINE__); printf(__VA_ARGS__); \
        printf("\n"); } } while (0)

static long io_setup(unsigned nr, aio_context_t *ctx)
{
    return syscall(SYS_io_setup, nr, ctx);
}

static long io_destroy(aio_context_t ctx)
{
    return syscall(SYS_io_destroy, ctx);
}

static long io_submit(aio_context_t ctx, long n, struct iocb **cbs)
{
    return syscall(SYS_io_submit, ctx, n, cbs);
}

static long io_getevents(aio_context_t ctx, long min, long max,
                         struct io_event *ev, struct timespec *t)
{
    return syscall(SYS_io_getevents, ctx, min, max, ev, t);
}

static long io_cancel(aio_context_t ctx, struct iocb *cb, struct io_event *ev)
{
    return syscall(SYS_io_cancel, ctx, cb, ev);
}

/* -errno of a failed call, else its result */
static long e(long rc)
{
    return rc < 0 ? -errno : rc;
}

static unsigned char byte_of(long i)
{
    return (unsigned char)(i * 7 + (i >> 9) + 3);
}

static void prep(struct iocb *cb, int op, int fd, void *buf, size_t len,
                 long long off, unsigned long long data)
{
    memset(cb, 0, sizeof(*cb));
    cb->aio_lio_opcode = (unsigned short)op;
    cb->aio_fildes = (unsigned)fd;
    cb->aio_buf = (unsigned long)buf;
    cb->aio_nbytes = len;
    cb->aio_offset = off;
    cb->aio_data = data;
}

/* Reap exactly n events; each one's data names its iocb k (which must
   be cbs[k]) and its res must be want[k]. */
static void reap(aio_context_t ctx, struct iocb *cbs, long n, const long *want,
                 const char *what)
{
    struct io_event ev[N];
    int seen[N] = { 0 };
    long got = 0, r;

    while (got < n && (r = e(io_getevents(ctx, n - got, n - got, ev + got,
                                          NULL))) > 0)
        got += r;
    EXPECT(got == n, "%s: io_getevents gave %ld of %ld", what, got, n);
    for (long i = 0; i < got; i++) {
        unsigned long long k = ev[i].data;
        EXPECT(k < (unsigned long long)n && !seen[k] &&
               ev[i].obj == (unsigned long)&cbs[k] && ev[i].res == want[k],
               "%s: event %ld: data %llu res %lld (want %ld)", what, i, k,
               (long long)ev[i].res, k < (unsigned long long)n ? want[k] : 0);
        if (k < (unsigned long long)n)
            seen[k] = 1;
    }
    printf("%s: %ld events, results right\n", what, got);
}

/* 8 blocks of unaligned sizes, back to back from offset 0: where each
   starts and how long it is. */
static long off_of(int k) { return k * 70001L; }
static long len_of(int k) { return 70001L - (k == N - 1 ? 12345 : 0); }

static void writes_and_reads(aio_context_t ctx, int fd, unsigned char *buf)
{
    struct iocb cbs[N], *list[N];
    long want[N];
    unsigned char *back = calloc(1, N * 70001L);
    long ok = 1, total = off_of(N - 1) + len_of(N - 1);

    for (long i = 0; i < total; i++)
        buf[i] = byte_of(i);
    for (int k = 0; k < N; k++) {        /* the last block first */
        int b = N - 1 - k;
        prep(&cbs[k], IOCB_CMD_PWRITE, fd, buf + off_of(b), len_of(b),
             off_of(b), k);
        list[k] = &cbs[k];
        want[k] = len_of(b);
    }
    EXPECT(e(io_submit(ctx, N, list)) == N, "io_submit of 8 writes");
    reap(ctx, cbs, N, want, "8 writes");
    for (int k = 0; k < N; k++)
        prep(&cbs[k], IOCB_CMD_PREAD, fd, back + off_of(k), len_of(k),
             off_of(k), k), list[k] = &cbs[k], want[k] = len_of(k);
    EXPECT(e(io_submit(ctx, N, list)) == N, "io_submit of 8 reads");
    reap(ctx, cbs, N, want, "8 reads");
    for (long i = 0; i < total; i++)
        ok &= back[i] == buf[i];
    EXPECT(ok, "the bytes read back differ");
    printf("read back: %ld bytes, every one right\n", total);
    /* and as pread64 sees the file */
    memset(back, 0, total);
    EXPECT(pread(fd, back, total + 100, 0) == total, "pread of the file");
    EXPECT(memcmp(back, buf, total) == 0, "pread: the bytes differ");
    /* an FSYNC after them */
    prep(&cbs[0], IOCB_CMD_FSYNC, fd, NULL, 0, 0, 0);
    want[0] = 0;
    EXPECT(e(io_submit(ctx, 1, list)) == 1, "io_submit of FSYNC");
    reap(ctx, cbs, 1, want, "fsync");
    free(back);
}

static void errors(aio_context_t ctx, int fd, unsigned char *buf)
{
    struct iocb cbs[2], *list[2] = { &cbs[0], &cbs[1] }, *nul[1] = { NULL };
    struct io_event ev[2];
    struct timespec t = { 0, 50 * 1000000 };
    long want[2] = { 100, 0 };

    prep(&cbs[0], IOCB_CMD_PWRITE, 99, buf, 100, 0, 0);
    printf("bad fd first: %ld\n", e(io_submit(ctx, 1, list)));
    prep(&cbs[0], IOCB_CMD_PREAD, fd, buf, 100, 0, 0);
    prep(&cbs[1], IOCB_CMD_PREAD, 99, buf, 100, 0, 1);
    printf("bad fd second: %ld\n", e(io_submit(ctx, 2, list)));
    reap(ctx, cbs, 1, want, "the one before it");
    printf("bad ctx: submit %ld", e(io_submit(12345, 1, list)));
    printf(" getevents %ld", e(io_getevents(12345, 0, 1, ev, &t)));
    printf(" destroy %ld\n", e(io_destroy(12345)));
    prep(&cbs[0], 77, fd, buf, 100, 0, 0);
    printf("bad opcode: %ld\n", e(io_submit(ctx, 1, list)));
    printf("null iocb: %ld\n", e(io_submit(ctx, 1, nul)));
    printf("min_nr > nr: %ld\n", e(io_getevents(ctx, 2, 1, ev, NULL)));
    printf("nothing pending, 50 ms: %ld\n", e(io_getevents(ctx, 1, 2, ev, &t)));
    prep(&cbs[0], IOCB_CMD_PREAD, fd, buf, 100, 0, 0);
    io_submit(ctx, 1, list);
    reap(ctx, cbs, 1, want, "a read");
    printf("cancel a complete one: %ld\n", e(io_cancel(ctx, &cbs[0], ev)));
}

/* IOCB_CMD_PWRITEV of 3 buffers, PREADV into 2 of other sizes, and a
   PREADV of no buffers */
static void aio_vectors(aio_context_t ctx, int fd)
{
    char a[] = "one ", b[] = "two three ", c[] = "four", x[7], y[11];
    struct iovec w[3] = { { a, 4 }, { b, 10 }, { c, 4 } };
    struct iovec r[2] = { { x, 7 }, { y, 11 } };
    struct iocb cbs[3], *list[3] = { &cbs[0], &cbs[1], &cbs[2] };
    long want[3] = { 18, 0, 0 };

    prep(&cbs[0], IOCB_CMD_PWRITEV, fd, w, 3, 600000, 0);
    EXPECT(e(io_submit(ctx, 1, list)) == 1, "io_submit of PWRITEV");
    reap(ctx, cbs, 1, want, "pwritev of 3 buffers");
    prep(&cbs[0], IOCB_CMD_PREADV, fd, r, 2, 600000, 0);
    prep(&cbs[1], IOCB_CMD_PREADV, fd, r, 0, 600000, 1);
    want[0] = 18;
    EXPECT(e(io_submit(ctx, 2, list)) == 2, "io_submit of PREADVs");
    reap(ctx, cbs, 2, want, "preadv into 2 buffers, and of none");
    printf("preadv read: %.7s|%.11s\n", x, y);
}

/* pwritev/preadv at an offset, one call each, the fd's offset kept */
static void vectors(int fd)
{
    char a[] = "vectored ", b[] = "write", x[9] = "", y[5] = "";
    struct iovec w[2] = { { a, 9 }, { b, 5 } }, r[2] = { { x, 9 }, { y, 5 } };
    long wn, rn;

    lseek(fd, 1234, SEEK_SET);
    wn = (long)pwritev(fd, w, 2, 700000);
    rn = (long)preadv(fd, r, 2, 700000);
    printf("pwritev %ld preadv %ld: %.9s%.5s, offset still %ld\n", wn, rn,
           x, y, (long)lseek(fd, 0, SEEK_CUR));
}

/* A node only: the 8 writes are the server's to move after io_submit
   returns; io_submit past nr_events is EAGAIN. */
static void node_only(aio_context_t ctx, int fd, unsigned char *buf)
{
    static struct iocb cbs[N + 1];
    struct iocb *list[N];
    struct io_event ev[N];
    long ready, got = 0, r;

    for (int k = 0; k < N; k++) {
        prep(&cbs[k], IOCB_CMD_PWRITE, fd, buf + k * BIG, BIG, k * BIG, k);
        list[k] = &cbs[k];
    }
    EXPECT(e(io_submit(ctx, N, list)) == N, "io_submit of 8 x 1 MiB");
    /* nr_events is 8: a ninth is EAGAIN while the 8 are not reaped */
    prep(&cbs[N], IOCB_CMD_PWRITE, fd, buf, 1, 0, N);
    list[0] = &cbs[N];
    r = e(io_submit(ctx, 1, list));
    printf("a ninth: %ld\n", r);
    EXPECT(r == -EAGAIN, "a ninth submission is not EAGAIN");
    ready = e(io_getevents(ctx, 0, N, ev, NULL));
    printf("right after io_submit: %ld of 8 complete\n", ready);
    EXPECT(ready >= 0 && ready < N, "all 8 were done at io_submit");
    got = ready > 0 ? ready : 0;
    while (got < N && (r = e(io_getevents(ctx, 1, N - got, ev, NULL))) > 0)
        got += r;
    EXPECT(got == N, "reaped %ld of 8", got);
}

/* pread64/pwrite64/preadv/pwritev at offsets, the fd's offset never
   asked for or moved by the program */
static void pio(int fd)
{
    char w[1000], r[1000], a[5] = "abcd", b[7] = "efghij", x[5], y[7];
    struct iovec wv[2] = { { a, 4 }, { b, 6 } }, rv[2] = { { x, 4 }, { y, 6 } };
    int ok = 1;

    for (int k = 15; k >= 0; k--) {
        memset(w, 'A' + k, sizeof(w));
        ok &= pwrite(fd, w, sizeof(w), k * 1000L) == (ssize_t)sizeof(w);
    }
    for (int k = 0; k < 16; k++) {
        ok &= pread(fd, r, sizeof(r), k * 1000L) == (ssize_t)sizeof(r);
        for (int i = 0; i < (int)sizeof(r); i++)
            ok &= r[i] == 'A' + k;
    }
    ok &= pwritev(fd, wv, 2, 16000) == 10 && preadv(fd, rv, 2, 16000) == 10 &&
          memcmp(x, "abcd", 4) == 0 && memcmp(y, "efghij", 6) == 0;
    EXPECT(ok, "pread/pwrite at offsets");
    printf("pio: 16 pwrite64, 16 pread64, pwritev, preadv: %s\n",
           ok ? "right" : "wrong");
}

int main(int argc, char **argv)
{
    aio_context_t ctx = 0, ctx2 = 0;
    unsigned char *buf = malloc(N * BIG);
    int fd = open("aio.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);

    setvbuf(stdout, NULL, _IONBF, 0);
    if (fd < 0 || !buf) {
        printf("lxaio: FAIL open: %s\n", strerror(errno));
        return 1;
    }
    EXPECT(e(io_setup(N, &ctx)) == 0 && ctx != 0, "io_setup");
    printf("io_setup on a set ctx: %ld", e(io_setup(N, &ctx)));
    printf("; nr_events 0: %ld\n", e(io_setup(0, &ctx2)));
    if (argc > 1 && strcmp(argv[1], "node") == 0) {
        node_only(ctx, fd, buf);
    } else if (argc > 1 && strcmp(argv[1], "pio") == 0) {
        pio(fd);
    } else {
        writes_and_reads(ctx, fd, buf);
        aio_vectors(ctx, fd);
        errors(ctx, fd, buf);
        vectors(fd);
    }
    printf("io_destroy: %ld", e(io_destroy(ctx)));
    printf(", again: %ld\n", e(io_destroy(ctx)));
    close(fd);
    if (argc > 1)
        unlink("aio.dat");
    printf(bad ? "lxaio: FAILED\n" : "lxaio: OK\n");
    return bad;
}
