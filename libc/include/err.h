/* SPDX-License-Identifier: MIT */
/*
 * err.h: the BSD error messages (as glibc's <err.h>): "prog: message:
 * strerror(errno)" on stderr, and for err/errx an exit (libc/err.c).
 */
#ifndef LWK_ERR_H
#define LWK_ERR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void vwarnx(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void err(int status, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void errx(int status, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void verr(int status, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 2, 0)));
void verrx(int status, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 2, 0)));

#ifdef __cplusplus
}
#endif

#endif
