/*
 * lxpfs DIR: a Linux program's file calls on a striped file DIR/lx.R
 * (R: PTL_JOB_RANK, else 0), run on
 * Linux (DIR a directory) and on a node with DIR /pfs (yod -pfs;
 * tests/qemu/suite-io compares the output, and the file with lwk-pfs cp
 * out): one write of 3 MiB + 12345 bytes, a pwrite across a stripe
 * unit, fstat, lseek to the end, an O_APPEND write, everything read
 * back, a read past the end, the directory listed.  lxrt makes a Linux
 * program's file calls through libc's table (libc/yodfile.c): its large
 * ones cut by stripe on the node, its small ones by its own server.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { printf("lxpfs: FAILED %s (line %d, errno %d)\n", \
                                  #c, __LINE__, errno); exit(99); } } while (0)
#define N (3 * 1048576 + 12345)

static unsigned char want[N + 5], got[N + 5];

int main(int argc, char **argv)
{
    char path[4096];
    struct stat st;
    struct dirent *e;
    DIR *d;
    size_t n = 0;
    ssize_t k;
    int fd;

    CHECK(argc == 2);
    snprintf(path, sizeof(path), "%s/lx.%s", argv[1],
             getenv("PTL_JOB_RANK") ? getenv("PTL_JOB_RANK") : "0");
    for (size_t i = 0; i < N; i++)
        want[i] = (unsigned char)((i % 251 + i / 4096) & 255);
    CHECK((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644)) >= 0);
    CHECK(write(fd, want, N) == N);
    memcpy(want + 1048575, "XYZ", 3);
    CHECK(pwrite(fd, "XYZ", 3, 1048575) == 3);
    CHECK(fstat(fd, &st) == 0 && st.st_size == N);
    CHECK(lseek(fd, 0, SEEK_END) == N);
    CHECK(close(fd) == 0);
    CHECK((fd = open(path, O_WRONLY | O_APPEND)) >= 0);
    CHECK(write(fd, "tail\n", 5) == 5);
    memcpy(want + N, "tail\n", 5);
    CHECK(close(fd) == 0);
    CHECK((fd = open(path, O_RDONLY)) >= 0);
    while ((k = read(fd, got + n, sizeof(got) - n)) > 0)
        n += (size_t)k;
    CHECK(k == 0 && n == sizeof(got) && memcmp(got, want, n) == 0);
    CHECK(pread(fd, got, 10, N + 100) == 0);
    CHECK(close(fd) == 0);
    CHECK(stat(path, &st) == 0 && st.st_size == N + 5);
    CHECK((d = opendir(argv[1])) != NULL);
    while ((e = readdir(d)))
        if (!strcmp(e->d_name, strrchr(path, '/') + 1) ||
            !strcmp(e->d_name, ".pfs"))     /* the store: never shown */
            printf("lxpfs: %s listed\n", e->d_name);
    closedir(d);
    printf("lxpfs: %zu bytes\nlxpfs: OK\n", n);
    return 0;
}
