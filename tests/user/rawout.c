/* SPDX-License-Identifier: MIT */
/*
 * rawout: bytes a console would change, on stdout and stderr, for the
 * tests that compare a program's output on a node with the same
 * program's on Linux, byte for byte (suite-user through tools/lwkrun,
 * suite-cluster's node-N.out/.err, suite-jobs under yod).  Plain C: the
 * same source builds with lwkcc (newlib) and with gcc -static (the Linux
 * personality) and runs on the host as the reference.
 *
 * stdout: every byte value 0..255, lines ending "\n", "\r\n" and "\r",
 * printf text, 300000 bytes of a pattern in one write (more than any
 * pipe or FIFO holds at once), and a last line without "\n".  stderr:
 * other bytes (255..0, its own lines), also ending without "\n".
 * Exit status 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fails;

static void put(int fd, const void *p, size_t n)
{
    const char *b = p;

    while (n) {
        ssize_t r = write(fd, b, n);
        if (r <= 0) {
            fails++;
            return;
        }
        b += r;
        n -= (size_t)r;
    }
}

static void puts_fd(int fd, const char *s)
{
    put(fd, s, strlen(s));
}

int main(void)
{
    unsigned char all[256], rev[256];
    size_t big = 300000;
    unsigned char *block = malloc(big);

    if (!block)
        return 2;
    for (int i = 0; i < 256; i++) {
        all[i] = (unsigned char)i;
        rev[i] = (unsigned char)(255 - i);
    }
    for (size_t i = 0; i < big; i++)
        block[i] = (unsigned char)(i * 7 + i / 251);

    put(1, all, sizeof(all));
    puts_fd(1, "a line\nCRLF line\r\nCR alone\rafter\n\n");
    put(2, rev, sizeof(rev));
    puts_fd(2, "stderr line\nstderr CRLF\r\n");
    printf("printf %d %s\n", 42, "\r\t\x1b[0m");
    fflush(stdout);
    put(1, block, big);
    puts_fd(1, "\nlast line without a newline");
    puts_fd(2, "stderr's last, no newline");
    free(block);
    return fails ? 1 : 0;
}
