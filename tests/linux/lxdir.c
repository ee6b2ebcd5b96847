/*
 * lxdir: the file calls a Linux program makes beyond lxc's, run on Linux
 * and on a node (tests/qemu/suite-linux compares stdout, stderr, status
 * and the files left): opendir/readdir/rewinddir/scandir (getdents64,
 * forwarded to yod), and the errors a directory call gives.   lxdir
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
    printf("lxdir: OK\n");
    return 0;
}
