/*
 * lxbad: what a node must survive from a Linux program.  An unknown
 * system call gets ENOSYS (twice: the node logs it once) and the program
 * goes on; file calls given bad pointers get EFAULT and write nothing;
 * then, with an argument, abort() (status 134).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { printf("lxbad: FAILED %s (line %d, errno %d)\n", \
                                  #c, __LINE__, errno); return 99; } } while (0)

int main(int argc, char **argv)
{
    void *bad = (void *)0x10;           /* below every mapping */
    struct stat st;
    int fd;

    (void)argv;
    CHECK(syscall(999, 1, 2, 3) == -1 && errno == ENOSYS);
    CHECK(syscall(999) == -1 && errno == ENOSYS);
    printf("lxbad: unknown call: ENOSYS, going on\n");
    fflush(stdout);
    fd = open("lxbad.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    CHECK(write(fd, bad, 100) == -1 && errno == EFAULT);
    CHECK(write(fd, (char *)0x7ffffffff000 - 10, 100) == -1 && errno == EFAULT);
    CHECK(write(1, bad, 5) == -1 && errno == EFAULT);
    CHECK(open(bad, O_RDONLY) == -1 && errno == EFAULT);
    CHECK(fstat(fd, bad) == -1 && errno == EFAULT);
    CHECK(close(fd) == 0);
    CHECK(stat("lxbad.out", &st) == 0 && st.st_size == 0);
    printf("lxbad: bad pointers: EFAULT, nothing written\n");
    if (argc > 1) {
        printf("lxbad: abort\n");
        fflush(stdout);
        abort();
    }
    printf("lxbad: OK\n");
    return 0;
}
