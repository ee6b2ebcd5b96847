/*
 * The C library routines the kernel needs (gcc also emits calls to memcpy,
 * memset, memmove and memcmp on its own in freestanding code).
 */
#include <stdint.h>
#include "lib.h"

/* Words that may alias anything: the copies below read and write any type. */
typedef uint64_t __attribute__((may_alias, aligned(1))) uword;
typedef uint32_t __attribute__((may_alias, aligned(1))) uhalf;
typedef uint16_t __attribute__((may_alias, aligned(1))) uquarter;

#define W(p, i)     (((uword *)(p))[i])
#define CW(p, i)    (((const uword *)(p))[i])

/* The last n < 64 bytes: the first and the last k bytes (k the largest
   power of two <= n), which overlap, all loaded before any is stored (so
   memmove's forward copies stay right).  A few branches, not a loop of
   words and then of bytes: under TCG every loop pass is a block. */
static inline void copy_tail(unsigned char *d, const unsigned char *s,
                             size_t n)
{
    if (n >= 32) {
        const unsigned char *t = s + n - 32;
        uword a = CW(s, 0), b = CW(s, 1), c = CW(s, 2), e = CW(s, 3);
        uword f = CW(t, 0), g = CW(t, 1), h = CW(t, 2), i = CW(t, 3);
        W(d, 0) = a, W(d, 1) = b, W(d, 2) = c, W(d, 3) = e;
        d += n - 32;
        W(d, 0) = f, W(d, 1) = g, W(d, 2) = h, W(d, 3) = i;
    } else if (n >= 16) {
        uword a = CW(s, 0), b = CW(s, 1);
        uword f = CW(s + n - 16, 0), g = CW(s + n - 16, 1);
        W(d, 0) = a, W(d, 1) = b;
        W(d + n - 16, 0) = f, W(d + n - 16, 1) = g;
    } else if (n >= 8) {
        uword a = CW(s, 0), f = CW(s + n - 8, 0);
        W(d, 0) = a, W(d + n - 8, 0) = f;
    } else if (n >= 4) {
        uint32_t a = *(const uhalf *)s, f = *(const uhalf *)(s + n - 4);
        *(uhalf *)d = a, *(uhalf *)(d + n - 4) = f;
    } else if (n >= 2) {
        uint16_t a = *(const uquarter *)s;
        uint16_t f = *(const uquarter *)(s + n - 2);
        *(uquarter *)d = a, *(uquarter *)(d + n - 2) = f;
    } else if (n) {
        *d = *s;
    }
}

/* memcpy, memmove and memset move 64 bytes per loop iteration, then the
   tail in a few overlapping stores.  Not rep movs/stos: under QEMU's TCG
   every iteration of a rep string instruction is emulated as a block of
   its own (rep movsb cost 7x rep movsq on a 1.5 KB frame, and rep
   movsq/stosq were still ~300 block runs per MPI ping-pong round trip),
   while an unrolled loop is one block per 64 bytes; on hardware both run
   near the memory's speed for the sizes the kernel moves (headers,
   frames, descriptors).  gcc must not turn these loops back into calls
   to themselves (NO_LIBCALLS). */
#define NO_LIBCALLS \
    __attribute__((optimize("no-tree-loop-distribute-patterns")))

/* Copy forward: right for overlapping buffers with d <= s (memmove), so no
   restrict here, and every block's loads stay before its stores. */
NO_LIBCALLS static inline __attribute__((always_inline))
void copy_forward(unsigned char *d, const unsigned char *s, size_t n)
{
    for (; n >= 64; d += 64, s += 64, n -= 64) {
        uword a = CW(s, 0), b = CW(s, 1), c = CW(s, 2), e = CW(s, 3);
        uword f = CW(s, 4), g = CW(s, 5), h = CW(s, 6), i = CW(s, 7);
        W(d, 0) = a, W(d, 1) = b, W(d, 2) = c, W(d, 3) = e;
        W(d, 4) = f, W(d, 5) = g, W(d, 6) = h, W(d, 7) = i;
    }
    copy_tail(d, s, n);
}

NO_LIBCALLS
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    copy_forward(dst, src, n);
    return dst;
}

NO_LIBCALLS
void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (d <= s || d >= s + n) {
        copy_forward(d, s, n);
        return dst;
    }
    while (n--)
        d[n] = s[n];
    return dst;
}

NO_LIBCALLS
void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uword v = 0x0101010101010101UL * (unsigned char)c;

    for (; n >= 64; d += 64, n -= 64) {
        W(d, 0) = v, W(d, 1) = v, W(d, 2) = v, W(d, 3) = v;
        W(d, 4) = v, W(d, 5) = v, W(d, 6) = v, W(d, 7) = v;
    }
    /* The tail as in copy_tail: first and last k bytes, overlapping. */
    if (n >= 32) {
        W(d, 0) = v, W(d, 1) = v, W(d, 2) = v, W(d, 3) = v;
        d += n - 32;
        W(d, 0) = v, W(d, 1) = v, W(d, 2) = v, W(d, 3) = v;
    } else if (n >= 16) {
        W(d, 0) = v, W(d, 1) = v;
        W(d + n - 16, 0) = v, W(d + n - 16, 1) = v;
    } else if (n >= 8) {
        W(d, 0) = v, W(d + n - 8, 0) = v;
    } else if (n >= 4) {
        *(uhalf *)d = (uint32_t)v, *(uhalf *)(d + n - 4) = (uint32_t)v;
    } else if (n >= 2) {
        *(uquarter *)d = (uint16_t)v, *(uquarter *)(d + n - 2) = (uint16_t)v;
    } else if (n) {
        *d = (unsigned char)v;
    }
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
