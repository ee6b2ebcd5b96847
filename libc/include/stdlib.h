/* SPDX-License-Identifier: MIT */
/*
 * stdlib.h: newlib's, plus the status macros POSIX has <stdlib.h> define
 * for reading system()'s result (WEXITSTATUS and the rest of
 * <sys/wait.h>'s, XBD <stdlib.h>).  On a node system() runs nothing: see
 * libc/spawn.c.  And glibc's clearenv, getloadavg, secure_getenv
 * (libc/misc.c).
 */
#ifndef LWK_STDLIB_H
#define LWK_STDLIB_H

#include_next <stdlib.h>
#include <lwk/waitstatus.h>

#ifdef __cplusplus
extern "C" {
#endif
#if __MISC_VISIBLE
int clearenv(void);
int getloadavg(double loads[], int n);
void *valloc(size_t size);              /* newlib's, in <malloc.h> */
#endif
#if __GNU_VISIBLE
char *secure_getenv(const char *name);
#endif
#ifdef __cplusplus
}
#endif

#endif
