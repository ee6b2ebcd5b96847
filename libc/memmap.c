/* SPDX-License-Identifier: MIT */
/*
 * memmap.c: mmap and its family (<sys/mman.h>) on a node without demand
 * paging.  Every byte a process has is in RAM from load to exit, in its
 * heap region: an anonymous mapping is a zeroed block of that heap,
 * aligned to 4 KiB, or to the node's 2 MB page from 2 MB up, and
 * munmap gives back a whole mapping.  Locking succeeds (nothing is ever
 * paged out), msync has nothing to write, advice changes nothing except
 * Linux's MADV_DONTNEED, after which the range reads zero as on Linux.
 * What a node cannot do fails at once: a file mapping (ENODEV: files are
 * yod's, on another machine), a fixed address, or protections other than
 * read and write, which the heap region has for all its pages (ENOTSUP).
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <lwk/uapi/abi.h>

#include "libc_internal.h"

#define SMALL_PAGE  4096UL

struct mapping {
    uintptr_t start;
    size_t len;
};
static struct mapping *maps;        /* the live mappings, unordered */
static size_t nmaps, cap;

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) & ~(to - 1);
}

static int remember(void *p, size_t len)
{
    if (nmaps == cap) {
        size_t want = cap ? 2 * cap : 16;
        struct mapping *m = realloc(maps, want * sizeof(*m));
        if (!m)
            return -1;
        maps = m;
        cap = want;
    }
    maps[nmaps++] = (struct mapping){ (uintptr_t)p, len };
    return 0;
}

/* The mapping [addr, addr + len) lies in, or NULL; *partial when the
   range overlaps a mapping without lying inside it. */
static struct mapping *find(const void *addr, size_t len, int *partial)
{
    uintptr_t a = (uintptr_t)addr;

    *partial = 0;
    for (size_t i = 0; i < nmaps; i++) {
        struct mapping *m = &maps[i];
        if (a >= m->start && a + len <= m->start + m->len)
            return m;
        if (a < m->start + m->len && a + len > m->start)
            *partial = 1;
    }
    return NULL;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    size_t align = len >= LWK_PAGE_SIZE ? LWK_PAGE_SIZE : SMALL_PAGE;
    void *p;

    (void)addr, (void)off;      /* addr is a hint: taken as none */
    if (len == 0 || !(flags & (MAP_SHARED | MAP_PRIVATE)))
        return errno = EINVAL, MAP_FAILED;
    if (!(flags & MAP_ANONYMOUS) && fd >= 0)
        return errno = ENODEV, MAP_FAILED;
    if ((flags & MAP_FIXED) || !(prot & PROT_READ) || (prot & PROT_EXEC))
        return errno = ENOTSUP, MAP_FAILED;
    len = round_up(len, SMALL_PAGE);
    if (!(p = memalign(align, len)))
        return errno = ENOMEM, MAP_FAILED;
    if (remember(p, len) < 0) {
        free(p);
        return errno = ENOMEM, MAP_FAILED;
    }
    return memset(p, 0, len);
}

/* A whole mapping goes back to the heap; a range mapping nothing is not
   an error (POSIX); part of a mapping cannot be given back: EINVAL. */
int munmap(void *addr, size_t len)
{
    int partial;
    struct mapping *m = find(addr, len ? len : 1, &partial);

    if (len == 0 || ((uintptr_t)addr & (SMALL_PAGE - 1)))
        return lwk_fail(EINVAL);
    if (!m)
        return partial ? lwk_fail(EINVAL) : 0;
    if (m->start != (uintptr_t)addr || round_up(len, SMALL_PAGE) != m->len)
        return lwk_fail(EINVAL);
    free(addr);
    *m = maps[--nmaps];
    return 0;
}

int mprotect(void *addr, size_t len, int prot)
{
    (void)addr, (void)len;
    return prot == (PROT_READ | PROT_WRITE) ? 0 : lwk_fail(ENOTSUP);
}

int msync(void *addr, size_t len, int flags)
{
    (void)addr, (void)len;
    return (flags & MS_ASYNC) && (flags & MS_SYNC) ? lwk_fail(EINVAL) : 0;
}

int madvise(void *addr, size_t len, int advice)
{
    int partial;

    if (advice == MADV_DONTNEED && find(addr, len, &partial))
        memset(addr, 0, len);
    return 0;
}

int posix_madvise(void *addr, size_t len, int advice)
{
    (void)addr, (void)len, (void)advice;
    return 0;
}

int mlock(const void *addr, size_t len)
{
    (void)addr, (void)len;
    return 0;
}

int munlock(const void *addr, size_t len)
{
    (void)addr, (void)len;
    return 0;
}

int mlockall(int flags)
{
    (void)flags;
    return 0;
}

int munlockall(void)
{
    return 0;
}

/* Shared memory is between processes, and a node process has no other. */
int shm_open(const char *name, int oflag, mode_t mode)
{
    (void)name, (void)oflag, (void)mode;
    return lwk_fail(ENOSYS);
}

int shm_unlink(const char *name)
{
    (void)name;
    return lwk_fail(ENOSYS);
}
