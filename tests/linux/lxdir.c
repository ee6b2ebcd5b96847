/*
 * lxdir: the file calls a Linux program makes beyond lxc's, run on Linux
 * and on a node (tests/qemu/suite-linux compares stdout, stderr, status
 * and the files left): opendir/readdir/rewinddir/scandir (getdents64,
 * forwarded to yod), and the errors a directory call gives; dup, dup2,
 * dup3 and fcntl(F_DUPFD): shared offsets, stdout sent to a file and
 * back, close-on-exec, the lowest free number, EBADF and EINVAL; statx
 * agreeing with stat, by path and by fd.   lxdir
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { printf("lxdir: FAILED %s (line %d, errno %d)\n", \
                                  #c, __LINE__, errno); exit(99); } } while (0)

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in `path` (sorted: a directory's order is the filesystem's),
   each with its type; the count. */
static int list(const char *path, int print)
{
    char *names[300];
    struct dirent *e;
    int n = 0;
    DIR *d = opendir(path);

    CHECK(d != NULL);
    while ((e = readdir(d)) != NULL) {
        CHECK(n < 300);
        CHECK(asprintf(&names[n++], "%s %s", e->d_name,
                       e->d_type == DT_DIR ? "dir" :
                       e->d_type == DT_REG ? "file" : "other") > 0);
    }
    rewinddir(d);
    int again = 0;
    while (readdir(d) != NULL)
        again++;
    CHECK(again == n);          /* rewinddir: lseek(fd, 0) on yod's fd */
    CHECK(closedir(d) == 0);
    qsort(names, (size_t)n, sizeof(names[0]), cmp);
    for (int i = 0; i < n; i++) {
        if (print)
            printf("  %s\n", names[i]);
        free(names[i]);
    }
    return n;
}

static int txt(const struct dirent *e)
{
    return strstr(e->d_name, ".txt") != NULL;
}

static void dups(void)
{
    char buf[32];
    int fd, d, save, out, low;

    CHECK((fd = open("dupfile", O_CREAT | O_RDWR | O_TRUNC, 0644)) >= 0);
    CHECK((d = dup(fd)) >= 0 && d != fd);
    CHECK(write(fd, "abc", 3) == 3 && write(d, "def", 3) == 3);
    CHECK(lseek(d, 0, SEEK_CUR) == 6);          /* one offset for both */
    CHECK(close(fd) == 0);
    CHECK(write(d, "g\n", 2) == 2);              /* still open through d */
    CHECK(lseek(d, 0, SEEK_SET) == 0 && read(d, buf, sizeof(buf)) == 8);
    CHECK(memcmp(buf, "abcdefg\n", 8) == 0);
    CHECK(fcntl(d, F_GETFD) == 0);
    CHECK((low = dup(d)) == fd);                /* the lowest free number */
    CHECK(close(low) == 0);
    CHECK(dup3(d, fd, O_CLOEXEC) == fd && fcntl(fd, F_GETFD) == FD_CLOEXEC);
    CHECK(fcntl(fd, F_SETFD, 0) == 0 && fcntl(fd, F_GETFD) == 0);
    CHECK(fcntl(d, F_DUPFD, 20) == 20 && fcntl(d, F_DUPFD_CLOEXEC, 20) == 21);
    CHECK(fcntl(21, F_GETFD) == FD_CLOEXEC);
    CHECK(close(20) == 0 && close(21) == 0 && close(fd) == 0 && close(d) == 0);
    CHECK(dup(d) == -1 && errno == EBADF);
    CHECK(dup2(d, 5) == -1 && errno == EBADF);
    CHECK(dup3(1, 1, 0) == -1 && errno == EINVAL);
    CHECK(dup3(1, 7, 12345) == -1 && errno == EINVAL);
    CHECK(dup2(1, 1) == 1);

    /* stdout to a file and back, as a shell's redirection does */
    fflush(stdout);
    CHECK((save = dup(1)) >= 0);
    CHECK((out = open("stdout.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644)) >= 0);
    CHECK(dup2(out, 1) == 1 && close(out) == 0);
    printf("lxdir: this line goes to stdout.txt\n");
    fflush(stdout);
    CHECK(dup2(save, 1) == 1 && close(save) == 0);
    printf("lxdir: dup, dup2, dup3, F_DUPFD done\n");
}

/* The system call itself: glibc's statx() would fall back to fstatat. */
static int raw_statx(int dirfd, const char *path, int flags, struct statx *x)
{
    return (int)syscall(SYS_statx, dirfd, path, flags, STATX_BASIC_STATS, x);
}

static void stats(void)
{
    struct statx x;
    struct stat st;
    int fd;

    CHECK(stat("dupfile", &st) == 0);
    CHECK(raw_statx(AT_FDCWD, "dupfile", 0, &x) == 0);
    CHECK((x.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS);
    CHECK(x.stx_size == (uint64_t)st.st_size && x.stx_mode == st.st_mode &&
          x.stx_ino == st.st_ino && x.stx_nlink == st.st_nlink &&
          x.stx_uid == st.st_uid && x.stx_blocks == (uint64_t)st.st_blocks &&
          x.stx_mtime.tv_sec == st.st_mtim.tv_sec &&
          x.stx_mtime.tv_nsec == (uint32_t)st.st_mtim.tv_nsec &&
          x.stx_dev_major == major(st.st_dev) &&
          x.stx_dev_minor == minor(st.st_dev));
    printf("lxdir: statx dupfile: size %llu, %s\n",
           (unsigned long long)x.stx_size,
           S_ISREG(x.stx_mode) ? "a regular file" : "not a regular file");
    CHECK((fd = open("d", O_RDONLY | O_DIRECTORY)) >= 0);
    CHECK(raw_statx(fd, "", AT_EMPTY_PATH, &x) == 0 &&
          S_ISDIR(x.stx_mode));
    CHECK(close(fd) == 0);
    CHECK(raw_statx(AT_FDCWD, "nothere", 0, &x) == -1 &&
          errno == ENOENT);
    printf("lxdir: statx of d: a directory\n");
}

int main(void)
{
    char name[128];
    struct dirent **found;
    FILE *f;
    int n;

    CHECK(mkdir("d", 0755) == 0 && mkdir("d/sub", 0700) == 0);
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof(name), "d/file%d.txt", i);
        CHECK((f = fopen(name, "w")) && fprintf(f, "%d\n", i) > 0 &&
              fclose(f) == 0);
    }
    CHECK((f = fopen("d/other.dat", "w")) && fclose(f) == 0);
    printf("lxdir: d:\n");
    printf("lxdir: d has %d entries\n", list("d", 1));

    /* Enough names that glibc's readdir needs several getdents64 calls
       (its buffer is 32 KiB; 250 names of ~100 bytes take more). */
    CHECK(mkdir("many", 0755) == 0);
    for (int i = 0; i < 250; i++) {
        snprintf(name, sizeof(name), "many/a-rather-long-file-name-to-"
                 "fill-the-directory-buffer-quickly-%03d.txt", i);
        int fd = open(name, O_CREAT | O_WRONLY, 0644);
        CHECK(fd >= 0 && close(fd) == 0);
    }
    printf("lxdir: many has %d entries\n", list("many", 0));

    n = scandir("d", &found, txt, alphasort);
    CHECK(n == 5);
    for (int i = 0; i < n; i++) {
        printf("lxdir: scandir %s\n", found[i]->d_name);
        free(found[i]);
    }
    free(found);

    errno = 0;
    CHECK(opendir("nothere") == NULL && errno == ENOENT);
    CHECK(opendir("d/other.dat") == NULL && errno == ENOTDIR);
    for (int i = 0; i < 250; i++) {
        snprintf(name, sizeof(name), "many/a-rather-long-file-name-to-"
                 "fill-the-directory-buffer-quickly-%03d.txt", i);
        CHECK(unlink(name) == 0);
    }
    CHECK(rmdir("many") == 0);
    CHECK(list("d/sub", 0) == 2);       /* . and .. */
    dups();
    stats();
    printf("lxdir: OK\n");
    return 0;
}
