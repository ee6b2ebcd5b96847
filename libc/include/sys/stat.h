/* SPDX-License-Identifier: MIT */
/*
 * sys/stat.h: newlib's, plus the lstat() it declares only for other
 * targets (the call is libc/io.c's, forwarded to yod).
 */
#ifndef LWK_SYS_STAT_H
#define LWK_SYS_STAT_H

#include_next <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif
int lstat(const char *__restrict path, struct stat *__restrict st);
#ifdef __cplusplus
}
#endif

#endif
