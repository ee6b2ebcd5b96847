/* SPDX-License-Identifier: MIT */
/*
 * aiotest: I/O at an offset on a node through the rank's I/O server (POSIX
 * aio, libc/aio.c; pread and pwrite), for tests/qemu/suite-io.  Every
 * check prints "rank R: FAIL WHAT" when it fails; "rank R: aio OK" (or
 * "rank R: pread OK") last if none did; the status is the failures.
 *
 *   aiotest pread NAME
 *                   (yod -threads) rank r makes NAME.r of 512 records
 *                   "%07d\n"; a thread preads records and pwrites them
 *                   again where they are, while the main thread read(2)s
 *                   the first half in order: every record where it
 *                   belongs, the fd's offset the main thread's alone
 *   aiotest NAME    rank r makes NAME.r: 8 blocks of unaligned sizes
 *                   written by 8 aio_writes outstanding at once, submitted
 *                   last block first (each lands at its aio_offset, the
 *                   file is pattern(r) of 8 blocks' bytes), printing
 *                   "rank R: 8 writes outstanding" and ticks meanwhile
 *                   (until the last is done, 400 at most); aio_suspend
 *                   wakes as they complete; the blocks read back with
 *                   lio_listio(LIO_WAIT) and compared; a read in flight
 *                   is EAGAIN to aio_suspend with a zero timeout, then
 *                   complete; a read past the end returns 0; a bad fd is
 *                   aio_error's EBADF; a negative offset aio_read's
 *                   EINVAL; aio_cancel of queued writes ("rank R:
 *                   canceled N", N of 2, 2 but when the node stalls);
 *                   aio_fsync;
 *                   aio_write to fd 1 prints "rank R: aio on stdout"
 *
 * pattern(r) at file offset i: (i % 251 + r) & 255 (suite-io's pattern).
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lwk/lwk.h>

#define BLOCKS 8

static int rank, failed;

#define CHECK(cond) do {                                                \
        if (!(cond)) {                                                  \
            printf("rank %d: FAIL line %d: %s (errno %d)\n", rank,      \
                   __LINE__, #cond, errno);                             \
            failed++;                                                   \
        }                                                               \
    } while (0)

static size_t block_size(int i)
{
    return 262144u * (unsigned)i + 1000 + 7 * (unsigned)i;
}

static void fill(unsigned char *p, size_t n, size_t at)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(((at + i) % 251 + (size_t)rank) & 255);
}

static int same(const unsigned char *p, size_t n, size_t at)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(((at + i) % 251 + (size_t)rank) & 255))
            return 0;
    return 1;
}

static struct aiocb cb[BLOCKS];
static unsigned char *buf[BLOCKS];
static size_t off[BLOCKS + 1];
static unsigned char *all;      /* the whole file's bytes */

/* 8 writes outstanding, the last block first; aio_suspend until all are
   done, each wake with one more complete. */
static void writes(int fd)
{
    const struct aiocb *list[BLOCKS];
    int done = 0, wakes = 0;

    for (int i = 0; i < BLOCKS; i++)
        fill(buf[i], block_size(i), off[i]);
    for (int i = BLOCKS - 1; i >= 0; i--) {
        cb[i] = (struct aiocb){ .aio_fildes = fd, .aio_offset = off[i],
                                .aio_buf = buf[i],
                                .aio_nbytes = block_size(i) };
        list[i] = &cb[i];
        CHECK(aio_write(&cb[i]) == 0);
    }
    /* one is on the wire, the others queued behind it; output meanwhile
       (its Put's ACK and answer beside the request's) */
    CHECK(aio_error(&cb[0]) == EINPROGRESS);
    printf("rank %d: %d writes outstanding\n", rank, BLOCKS);
    fflush(stdout);
    for (int t = 0; t < 400 && aio_error(&cb[0]) == EINPROGRESS; t++) {
        printf("rank %d: tick %d\n", rank, t);
        fflush(stdout);
    }
    while (done < BLOCKS) {
        int now = 0;
        CHECK(aio_suspend(list, BLOCKS, NULL) == 0);
        for (int i = 0; i < BLOCKS; i++)
            if (list[i] && aio_error(list[i]) != EINPROGRESS) {
                CHECK(aio_error(list[i]) == 0);
                CHECK(aio_return(&cb[i]) == (ssize_t)block_size(i));
                list[i] = NULL;
                now++;
            }
        CHECK(now > 0);
        done += now;
        if (++wakes > BLOCKS)
            break;
    }
    CHECK(done == BLOCKS);
}

/* The blocks read back at once with lio_listio(LIO_WAIT). */
static void reads(int fd)
{
    struct aiocb *list[BLOCKS];

    for (int i = 0; i < BLOCKS; i++) {
        memset(buf[i], 0, block_size(i));
        cb[i] = (struct aiocb){ .aio_fildes = fd, .aio_offset = off[i],
                                .aio_buf = buf[i], .aio_nbytes = block_size(i),
                                .aio_lio_opcode = LIO_READ };
        list[i] = &cb[i];
    }
    CHECK(lio_listio(LIO_WAIT, list, BLOCKS, NULL) == 0);
    for (int i = 0; i < BLOCKS; i++) {
        CHECK(aio_error(&cb[i]) == 0);
        CHECK(aio_return(&cb[i]) == (ssize_t)block_size(i));
        CHECK(same(buf[i], block_size(i), off[i]));
    }
}

/* aio_suspend with a zero timeout while a read is under way: EAGAIN;
   then without one: it completes.  Past the end of the file: 0 bytes. */
static void suspend(int fd)
{
    static const struct timespec zero;
    struct aiocb a = { .aio_fildes = fd, .aio_offset = off[1],
                       .aio_buf = all, .aio_nbytes = off[BLOCKS] - off[1] };
    const struct aiocb *list[1] = { &a };

    CHECK(aio_read(&a) == 0);
    errno = 0;
    CHECK(aio_suspend(list, 1, &zero) == -1 && errno == EAGAIN);
    CHECK(aio_suspend(list, 1, NULL) == 0);
    CHECK(aio_error(&a) == 0);
    CHECK(aio_return(&a) == (ssize_t)(off[BLOCKS] - off[1]));
    CHECK(same(all, off[BLOCKS] - off[1], off[1]));
    a = (struct aiocb){ .aio_fildes = fd, .aio_offset = off[BLOCKS] + 10,
                        .aio_buf = buf[0], .aio_nbytes = 100 };
    CHECK(aio_read(&a) == 0);
    CHECK(aio_suspend(list, 1, NULL) == 0);
    CHECK(aio_error(&a) == 0 && aio_return(&a) == 0);
}

/* What the operation meets is aio_error's; what is wrong with the aiocb
   itself is the call's. */
static void errors(int fd)
{
    struct aiocb a = { .aio_fildes = 77, .aio_buf = buf[0], .aio_nbytes = 10 };
    const struct aiocb *list[1] = { &a };
    struct aiocb q[3];
    int rc, canceled = 0;

    CHECK(aio_write(&a) == 0);
    CHECK(aio_suspend(list, 1, NULL) == 0);
    CHECK(aio_error(&a) == EBADF);
    errno = 0;
    CHECK(aio_return(&a) == -1 && errno == EBADF);
    a = (struct aiocb){ .aio_fildes = fd, .aio_offset = -1, .aio_buf = buf[0],
                        .aio_nbytes = 10 };
    errno = 0;
    CHECK(aio_read(&a) == -1 && errno == EINVAL);
    a.aio_offset = 0;
    a.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
    errno = 0;
    CHECK(aio_read(&a) == -1 && errno == EINVAL);

    /* three writes of MiBs: the first on the wire, those behind it
       canceled (the same bytes as the file has).  Which are still queued
       at aio_cancel is the node's timing (a stalled CPU lets the first
       finish): each is canceled or done whole, in order, and the first,
       started at once, is never canceled. */
    for (int i = 0; i < 3; i++) {
        int b = BLOCKS - 3 + i;
        q[i] = (struct aiocb){ .aio_fildes = fd, .aio_offset = off[b],
                               .aio_buf = buf[b], .aio_nbytes = block_size(b) };
        fill(buf[b], block_size(b), off[b]);
    }
    for (int i = 0; i < 3; i++)
        CHECK(aio_write(&q[i]) == 0);
    rc = aio_cancel(fd, NULL);
    CHECK(rc == AIO_NOTCANCELED || rc == AIO_ALLDONE);
    for (int i = 0; i < 3; i++) {
        list[0] = &q[i];
        CHECK(aio_suspend(list, 1, NULL) == 0);
        if (i > 0 && aio_error(&q[i]) == ECANCELED) {
            CHECK(rc == AIO_NOTCANCELED && aio_return(&q[i]) == -1);
            canceled++;
        } else {
            CHECK(canceled == 0 && aio_error(&q[i]) == 0 &&
                  aio_return(&q[i]) == (ssize_t)block_size(BLOCKS - 3 + i));
        }
    }
    printf("rank %d: canceled %d\n", rank, canceled);
    CHECK(aio_cancel(fd, NULL) == AIO_ALLDONE);
    errno = 0;
    CHECK(aio_cancel(78, NULL) == -1 && errno == EBADF);

    a = (struct aiocb){ .aio_fildes = fd };
    CHECK(aio_fsync(O_SYNC, &a) == 0);
    CHECK(aio_error(&a) == 0);
}

/* ---- pread and pwrite beside read(2) in another thread ---------------- */

#define RECS    512
#define REC     8

static int pfd;

static void record(char *p, int k)
{
    char tmp[REC + 1];

    snprintf(tmp, sizeof(tmp), "%07d\n", k);
    memcpy(p, tmp, REC);
}

static void *positional(void *arg)
{
    char want[REC], got[REC];

    (void)arg;
    for (int i = 0; i < RECS / 2; i++) {
        int k = (i * 7) % (RECS / 2), w = RECS / 2 + i;

        record(want, k);
        CHECK(pread(pfd, got, REC, (off_t)k * REC) == REC &&
              !memcmp(got, want, REC));
        record(want, w);
        CHECK(pwrite(pfd, want, REC, (off_t)w * REC) == REC);
    }
    return NULL;
}

static int pread_main(const char *base)
{
    char name[256], want[REC], got[REC];
    static char file[RECS * REC];
    pthread_t th;

    snprintf(name, sizeof(name), "%s.%d", base, rank);
    for (int k = 0; k < RECS; k++)
        record(file + k * REC, k);
    pfd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
    CHECK(pfd >= 0 && write(pfd, file, sizeof(file)) == sizeof(file));
    CHECK(lseek(pfd, 0, SEEK_SET) == 0);
    CHECK(pthread_create(&th, NULL, positional, NULL) == 0);
    for (int k = 0; k < RECS / 2; k++) {
        record(want, k);
        if (read(pfd, got, REC) != REC || memcmp(got, want, REC)) {
            CHECK(!"read(2) found each record in order");
            break;
        }
    }
    pthread_join(th, NULL);
    CHECK(lseek(pfd, 0, SEEK_CUR) == RECS / 2 * REC);
    CHECK(close(pfd) == 0);
    if (!failed)
        printf("rank %d: pread OK\n", rank);
    return failed;
}

int main(int argc, char **argv)
{
    char name[256], line[64];
    struct aiocb o;
    const struct aiocb *list[1] = { &o };
    int fd;

    rank = (int)lwk_rank();
    if (argc == 3 && !strcmp(argv[1], "pread"))
        return pread_main(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: aiotest [pread] NAME\n");
        return 2;
    }
    for (int i = 0; i < BLOCKS; i++) {
        off[i + 1] = off[i] + block_size(i);
        if (!(buf[i] = malloc(block_size(BLOCKS - 1)))) {
            printf("rank %d: FAIL out of memory\n", rank);
            return 1;
        }
    }
    if (!(all = malloc(off[BLOCKS]))) {
        printf("rank %d: FAIL out of memory\n", rank);
        return 1;
    }
    snprintf(name, sizeof(name), "%s.%d", argv[1], rank);
    fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    writes(fd);
    reads(fd);
    suspend(fd);
    errors(fd);
    CHECK(close(fd) == 0);

    snprintf(line, sizeof(line), "rank %d: aio on stdout\n", rank);
    o = (struct aiocb){ .aio_fildes = 1, .aio_buf = line,
                        .aio_nbytes = strlen(line) };
    fflush(stdout);
    CHECK(aio_write(&o) == 0);
    CHECK(aio_suspend(list, 1, NULL) == 0);
    CHECK(aio_return(&o) == (ssize_t)strlen(line));
    if (!failed)
        printf("rank %d: aio OK\n", rank);
    return failed;
}
