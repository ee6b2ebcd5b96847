/* SPDX-License-Identifier: MIT */
/*
 * unistd.h: newlib's, plus confstr's _CS_PATH, which newlib names only
 * for Cygwin (libc/sysconf.c answers it), and getlogin_r.
 */
#ifndef LWK_UNISTD_H
#define LWK_UNISTD_H

#include_next <unistd.h>

#ifndef _CS_PATH
#define _CS_PATH        0
#endif

#ifdef __cplusplus
extern "C" {
#endif
int getlogin_r(char *name, size_t len);     /* (POSIX; newlib: some targets) */
#ifdef __cplusplus
}
#endif

#endif
