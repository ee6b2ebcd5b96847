/*
 * lxc: a plain C program built with the host's gcc -static (and
 * -static-pie), run on Linux and on a node (tests/qemu/suite-linux): its
 * stdout, stderr, exit status and the files it leaves must be the same.
 * Files, directories, stdin, seeks, positioned I/O, stat, brk and mmap
 * memory, time going forward.   lxc STATUS
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { printf("lxc: FAILED %s (line %d, errno %d)\n", \
                                  #c, __LINE__, errno); exit(99); } } while (0)

int main(int argc, char **argv)
{
    char buf[256], cwd[4096], line[128];
    struct stat st;
    struct timespec t0, t1;
    struct utsname u;
    FILE *f;
    int fd, n;

    printf("lxc: %d args, first %s\n", argc, argc > 1 ? argv[1] : "-");
    fprintf(stderr, "lxc: a line on stderr\n");
    CHECK(clock_gettime(CLOCK_MONOTONIC, &t0) == 0);

    /* files */
    CHECK(mkdir("lxdir", 0755) == 0);
    CHECK(mkdir("lxdir", 0755) == -1 && errno == EEXIST);
    f = fopen("lxdir/data.txt", "w");
    CHECK(f != NULL);
    for (int i = 0; i < 100; i++)
        fprintf(f, "line %d of the data %d\n", i, i * i);
    CHECK(fclose(f) == 0);
    CHECK(stat("lxdir/data.txt", &st) == 0 && S_ISREG(st.st_mode));
    printf("size %lld\n", (long long)st.st_size);
    f = fopen("lxdir/data.txt", "r");
    CHECK(f != NULL);
    n = 0;
    while (fgets(line, sizeof(line), f))
        n++;
    CHECK(fclose(f) == 0);
    printf("read %d lines\n", n);
    fd = open("lxdir/data.txt", O_RDWR);
    CHECK(fd >= 0);
    CHECK(lseek(fd, 10, SEEK_SET) == 10);
    CHECK(read(fd, buf, 9) == 9);
    buf[9] = 0;
    printf("at 10: '%s'\n", buf);
    CHECK(pwrite(fd, "XYZ", 3, 0) == 3);
    CHECK(pread(fd, buf, 6, 0) == 6);
    buf[6] = 0;
    printf("pread: '%s', offset still %ld\n", buf, (long)lseek(fd, 0, SEEK_CUR));
    CHECK(fstat(fd, &st) == 0);
    CHECK(ftruncate(fd, 100) == 0);
    CHECK(fsync(fd) == 0);
    CHECK(close(fd) == 0);
    CHECK(close(fd) == -1 && errno == EBADF);
    CHECK(rename("lxdir/data.txt", "lxdir/moved.txt") == 0);
    CHECK(access("lxdir/moved.txt", R_OK) == 0);
    CHECK(open("lxdir/nothere", O_RDONLY) == -1 && errno == ENOENT);
    CHECK(unlink("lxdir/nothere") == -1 && errno == ENOENT);
    f = fopen("lxdir/keep.txt", "w");
    CHECK(f && fputs("kept\n", f) >= 0 && fclose(f) == 0);
    CHECK(unlink("lxdir/moved.txt") == 0);
    CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
    CHECK(chdir("lxdir") == 0);
    CHECK(access("keep.txt", F_OK) == 0);
    CHECK(chdir("..") == 0);

    /* stdin */
    n = 0;
    while (fgets(line, sizeof(line), stdin))
        n += (int)strlen(line);
    printf("stdin: %d bytes\n", n);

    /* memory: malloc (brk), big blocks (mmap), an anonymous map */
    long sum = 0;
    for (int k = 0; k < 20; k++) {
        size_t sz = (size_t)(k + 1) << 18;
        unsigned char *p = malloc(sz);
        CHECK(p != NULL);
        memset(p, k, sz);
        sum += p[sz - 1];
        free(p);
    }
    char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED && m[12345] == 0);
    memset(m, 7, 1 << 20);
    CHECK(munmap(m, 1 << 20) == 0);
    m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED && m[12345] == 0);    /* fresh memory is zero */
    printf("memory ok %ld\n", sum);

    CHECK(uname(&u) == 0 && strcmp(u.machine, "x86_64") == 0);
    CHECK(clock_gettime(CLOCK_MONOTONIC, &t1) == 0);
    CHECK(t1.tv_sec > t0.tv_sec ||
          (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec));
    printf("lxc: OK\n");
    return argc > 1 ? atoi(argv[1]) : 0;
}
