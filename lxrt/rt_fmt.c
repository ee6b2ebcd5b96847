/* SPDX-License-Identifier: MIT */
/*
 * rt_fmt.c: the runtime's own snprintf, integers and strings only.  The
 * libc glue it links formats a few messages (io.c, uname.c) with
 * snprintf; newlib's would bring its floating-point printf (~21 KiB) to a
 * runtime that travels with every Linux program (half its size).  Takes
 * flags 0 and -, a width, a precision for %s (either may be *), the l
 * and z lengths, and d i u x s c %.  lx_vsnprintf is the same for the node's /proc files
 * (rt_proc.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "rt.h"

static void put(char *buf, size_t len, size_t *n, char c)
{
    if (*n + 1 < len)
        buf[*n] = c;
    (*n)++;
}

static void number(char *buf, size_t len, size_t *n, unsigned long v,
                   int neg, unsigned base, int width, char pad)
{
    char d[24];
    int k = 0;

    do {
        d[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    if (neg)
        width--;
    if (neg && pad == '0')
        put(buf, len, n, '-');
    for (int i = k; i < width; i++)
        put(buf, len, n, pad);
    if (neg && pad != '0')
        put(buf, len, n, '-');
    while (k)
        put(buf, len, n, d[--k]);
}

int lx_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
    size_t n = 0;

    for (const char *f = fmt; *f; f++) {
        char pad = ' ';
        int width = 0, prec = -1, lng = 0, left = 0;

        if (*f != '%') {
            put(buf, len, &n, *f);
            continue;
        }
        for (f++; *f == '0' || *f == '-'; f++)
            *f == '0' ? (pad = '0') : (left = 1);
        if (*f == '*')
            width = va_arg(ap, int), f++;
        while (*f >= '0' && *f <= '9')
            width = width * 10 + (*f++ - '0');
        if (*f == '.' && f[1] == '*')
            prec = va_arg(ap, int), f += 2;
        else if (*f == '.')
            for (prec = 0, f++; *f >= '0' && *f <= '9'; f++)
                prec = prec * 10 + (*f - '0');
        while (*f == 'l' || *f == 'z')
            lng = 1, f++;
        switch (*f) {
        case 'd':
        case 'i': {
            long v = lng ? va_arg(ap, long) : va_arg(ap, int);
            number(buf, len, &n, v < 0 ? -(unsigned long)v : (unsigned long)v,
                   v < 0, 10, width, pad);
            break;
        }
        case 'u':
        case 'x':
            number(buf, len, &n, lng ? va_arg(ap, unsigned long)
                                     : va_arg(ap, unsigned), 0,
                   *f == 'u' ? 10 : 16, width, pad);
            break;
        case 'c':
            put(buf, len, &n, (char)va_arg(ap, int));
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            int k = (int)strnlen(s ? s : "(null)", prec < 0 ? (size_t)-1
                                                            : (size_t)prec);
            for (int i = k; !left && i < width; i++)
                put(buf, len, &n, ' ');
            for (int i = 0; i < k; i++)
                put(buf, len, &n, (s ? s : "(null)")[i]);
            for (int i = k; left && i < width; i++)
                put(buf, len, &n, ' ');
            break;
        }
        case '%':
            put(buf, len, &n, '%');
            break;
        default:
            if (!*f)
                f--;
            break;
        }
    }
    if (len)
        buf[n < len ? n : len - 1] = 0;
    return (int)n;
}

int snprintf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = lx_vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n;
}
