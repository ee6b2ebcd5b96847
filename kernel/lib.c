/*
 * The C library routines the kernel needs (gcc also emits calls to memcpy,
 * memset, memmove and memcmp on its own in freestanding code).
 */
#include "lib.h"

/* Eight bytes a step, then the tail: under QEMU's TCG every iteration of
   a rep string instruction is emulated on its own, so rep movsb costs 7x
   rep movsq on a 1.5 KB frame (the receive path copies every payload). */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    void *ret = dst;
    size_t q = n >> 3, r = n & 7;

    __asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(q) : : "memory");
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(r) : : "memory");
    return ret;
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

/* Eight bytes a step for the same reason as memcpy (regions are zeroed
   whole before a program loads). */
void *memset(void *dst, int c, size_t n)
{
    void *ret = dst;
    unsigned long v = 0x0101010101010101UL * (unsigned char)c;
    size_t q = n >> 3, r = n & 7;

    __asm__ volatile("rep stosq" : "+D"(dst), "+c"(q) : "a"(v) : "memory");
    __asm__ volatile("rep stosb" : "+D"(dst), "+c"(r) : "a"(v) : "memory");
    return ret;
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
