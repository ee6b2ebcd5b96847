/* SPDX-License-Identifier: MIT */
/*
 * outtest: a compute-node program for tests/qemu/suite-yodio: what a rank
 * writes to its output and files when yod cannot write it, and output and
 * files from several threads (yod -threads).
 *
 *   outtest full FD BYTES    write lines of 64 bytes to fd FD (1 or 2),
 *                            BYTES in all, with write(); then more with
 *                            stdio, fully buffered (fputs, fflush, fputs,
 *                            fclose).  Says on the other fd what failed
 *                            first and with which errno, e.g.
 *                            "outtest: fd 1: write failed after 65536
 *                            bytes: No space left on device; fflush: No
 *                            space left on device; fclose: No space left
 *                            on device".  Status 0 if write, fflush and
 *                            fclose each failed, 1 if any succeeded.
 *   outtest file PATH BYTES  the same into the file PATH (fwrite in 4 KiB
 *                            pieces, then fflush and fclose).
 *   outtest threads LINES    as many threads as the node gives (up to 3)
 *                            and the main thread each print LINES lines
 *                            "thread T line L" (T 0 the main thread),
 *                            every other one with printf, the rest with
 *                            write(), while each writes its own file
 *                            threadT.txt (L per line); then the main
 *                            thread prints "after threads L", 5 lines,
 *                            and "outtest: N threads" (N without it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE 64

/* What happened, step by step: "write failed after N bytes: why; ...". */
static char said[512];
static size_t said_len;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    said_len += (size_t)vsnprintf(said + said_len, sizeof(said) - said_len,
                                  fmt, ap);
    va_end(ap);
}

/* Step `what` (0 if it succeeded): noted; 1 if it failed. */
static int step(const char *what, int rc)
{
    if (rc == 0) {
        note("; %s succeeded", what);
        return 0;
    }
    note("; %s: %s", what, strerror(errno));
    return 1;
}

/* Lines of LINE bytes, `bytes` in all, with write(fd) (f NULL) or fwrite
   and fflush; 1 if one failed. */
static int fill(int fd, FILE *f, long bytes)
{
    char line[LINE];
    long done = 0;

    memset(line, 'x', LINE - 1);
    line[LINE - 1] = '\n';
    while (done < bytes) {
        ssize_t n = f ? (ssize_t)fwrite(line, 1, LINE, f) : write(fd, line, LINE);
        if (n != LINE || (f && fflush(f) != 0)) {
            note("%s failed after %ld bytes: %s", f ? "fwrite" : "write",
                 done, strerror(errno));
            return 1;
        }
        done += n;
    }
    note("%s: all %ld bytes written, no error", f ? "fwrite" : "write", done);
    return 0;
}

/* After the first error: a fully buffered stream's next flush and its
   close, each the first to write what it holds. */
static int flush_close(FILE *f)
{
    int failed;

    fputs("one more line after the error\n", f);
    failed = step("fflush", fflush(f));
    fputs("and one more\n", f);
    return failed + step("fclose", fclose(f));
}

static int do_full(int fd, long bytes)
{
    FILE *report = fd == 1 ? stderr : stdout, *f;
    int failed = fill(fd, NULL, bytes);

    if (!(f = fdopen(fd, "w")) || setvbuf(f, NULL, _IOFBF, 4096) != 0) {
        note("; fdopen: %s", strerror(errno));
        failed = 0;
    } else {
        failed += flush_close(f);
    }
    fprintf(report, "outtest: fd %d: %s\n", fd, said);
    return failed == 3 ? 0 : 1;
}

static int do_file(const char *path, long bytes)
{
    FILE *f = fopen(path, "w");
    int failed;

    if (!f) {
        printf("outtest: %s: %s\n", path, strerror(errno));
        return 1;
    }
    setvbuf(f, NULL, _IOFBF, 4096);
    failed = fill(-1, f, bytes);
    failed += flush_close(f);
    printf("outtest: %s: %s\n", path, said);
    return failed == 3 ? 0 : 1;
}

/* ---- threads ---------------------------------------------------------- */

static int lines;

/* Thread t's lines, and its file. */
static void *talk(void *arg)
{
    int t = (int)(long)arg;
    char path[32], buf[64];
    FILE *f;

    snprintf(path, sizeof(path), "thread%d.txt", t);
    if (!(f = fopen(path, "w")))
        printf("outtest: thread %d: %s: %s\n", t, path, strerror(errno));
    for (int l = 0; l < lines; l++) {
        if (l % 2) {
            printf("thread %d line %d\n", t, l);
            fflush(stdout);
        } else {
            int n = snprintf(buf, sizeof(buf), "thread %d line %d\n", t, l);
            if (write(1, buf, (size_t)n) != n)
                printf("outtest: thread %d: write: %s\n", t, strerror(errno));
        }
        if (f)
            fprintf(f, "%d\n", l);
    }
    if (f && fclose(f) != 0)
        printf("outtest: thread %d: fclose: %s\n", t, strerror(errno));
    return NULL;
}

static int do_threads(int n)
{
    pthread_t th[4];
    int k = 1;

    lines = n;
    for (; k < 4; k++)
        if (pthread_create(&th[k], NULL, talk, (void *)(long)k) != 0)
            break;
    talk((void *)0L);
    for (int i = 1; i < k; i++)
        pthread_join(th[i], NULL);
    for (int l = 0; l < 5; l++)
        printf("after threads %d\n", l);
    printf("outtest: %d threads\n", k - 1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "full"))
        return do_full(atoi(argv[2]), atol(argv[3]));
    if (argc == 4 && !strcmp(argv[1], "file"))
        return do_file(argv[2], atol(argv[3]));
    if (argc == 3 && !strcmp(argv[1], "threads"))
        return do_threads(atoi(argv[2]));
    fprintf(stderr, "usage: outtest full FD BYTES | file PATH BYTES | "
            "threads LINES\n");
    return 2;
}
