/*
 * The C library routines the kernel needs (gcc also emits calls to memcpy,
 * memset, memmove and memcmp on its own in freestanding code).
 */
#include <stdint.h>
#include "lib.h"

/* Words that may alias anything: the copies below read and write any type. */
typedef uint64_t __attribute__((may_alias, aligned(1))) uword;

/* memcpy and memset move 64 bytes per loop iteration, then words, then
   bytes.  Not rep movs/stos: under QEMU's TCG every iteration of a rep
   string instruction is emulated as a block of its own (rep movsb cost 7x
   rep movsq on a 1.5 KB frame, and rep movsq/stosq were still ~300 block
   runs per MPI ping-pong round trip), while an unrolled loop is one block
   per 64 bytes; on hardware both run near the memory's speed for the
   sizes the kernel moves (headers, frames, descriptors).  gcc must not
   turn these loops back into calls to themselves. */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    for (; n >= 64; d += 64, s += 64, n -= 64) {
        uword a = ((const uword *)s)[0], b = ((const uword *)s)[1];
        uword c = ((const uword *)s)[2], e = ((const uword *)s)[3];
        uword f = ((const uword *)s)[4], g = ((const uword *)s)[5];
        uword h = ((const uword *)s)[6], i = ((const uword *)s)[7];
        ((uword *)d)[0] = a, ((uword *)d)[1] = b;
        ((uword *)d)[2] = c, ((uword *)d)[3] = e;
        ((uword *)d)[4] = f, ((uword *)d)[5] = g;
        ((uword *)d)[6] = h, ((uword *)d)[7] = i;
    }
    for (; n >= 8; d += 8, s += 8, n -= 8)
        *(uword *)d = *(const uword *)s;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (d <= s || d >= s + n)
        return memcpy(dst, src, n);
    while (n--)
        d[n] = s[n];
    return dst;
}

__attribute__((optimize("no-tree-loop-distribute-patterns")))
void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uword v = 0x0101010101010101UL * (unsigned char)c;

    for (; n >= 64; d += 64, n -= 64) {
        ((uword *)d)[0] = v, ((uword *)d)[1] = v;
        ((uword *)d)[2] = v, ((uword *)d)[3] = v;
        ((uword *)d)[4] = v, ((uword *)d)[5] = v;
        ((uword *)d)[6] = v, ((uword *)d)[7] = v;
    }
    for (; n >= 8; d += 8, n -= 8)
        *(uword *)d = v;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;

    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;

    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++)
        if (*a != *b || !*a)
            return (unsigned char)*a - (unsigned char)*b;
    return 0;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return 0;
    }
}
