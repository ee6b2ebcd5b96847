/*
 * Formatted output into a buffer (kernel/printf.c): the kernel's only
 * formatter.  Supports %d %i %u %x %X %o %p %s %c %%, the length
 * modifiers hh h l ll z, flags '-' '0' ' ' '+' '#', width and precision
 * (also as '*').  Always NUL-terminates; returns the length the full output
 * would have had, like C99 vsnprintf.
 */
#ifndef PRINTF_H
#define PRINTF_H

#include <stdarg.h>
#include <stddef.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
