/* SPDX-License-Identifier: MIT */
/*
 * err.c: BSD's err, errx, warn, warnx and their v-forms (<err.h>), as
 * glibc prints them: "prog: message: strerror(errno)\n" on stderr (the x
 * forms without the errno part), err and errx then exit(status).
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char *program_invocation_short_name;     /* init.c */

static void say(int with_errno, const char *fmt, va_list ap)
{
    int e = errno;

    fprintf(stderr, "%s: ", program_invocation_short_name);
    if (fmt) {
        vfprintf(stderr, fmt, ap);
        if (with_errno)
            fputs(": ", stderr);
    }
    if (with_errno)
        fputs(strerror(e), stderr);
    fputc('\n', stderr);
}

void vwarn(const char *fmt, va_list ap) { say(1, fmt, ap); }
void vwarnx(const char *fmt, va_list ap) { say(0, fmt, ap); }

void verr(int status, const char *fmt, va_list ap)
{
    say(1, fmt, ap);
    exit(status);
}

void verrx(int status, const char *fmt, va_list ap)
{
    say(0, fmt, ap);
    exit(status);
}

void warn(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

void warnx(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vwarnx(fmt, ap);
    va_end(ap);
}

void err(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    verr(status, fmt, ap);
}

void errx(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    verrx(status, fmt, ap);
}
