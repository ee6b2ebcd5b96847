/* SPDX-License-Identifier: MIT */
/*
 * stdio.h: newlib's, plus getline and getdelim (POSIX 2008), which newlib
 * 3.3 has only as __getline and __getdelim for this target
 * (libc/stdio_extra.c).
 */
#ifndef LWK_STDIO_H
#define LWK_STDIO_H

#include_next <stdio.h>

#if !defined(__STRICT_ANSI__) || __POSIX_VISIBLE >= 200809
#ifdef __cplusplus
extern "C" {
#endif
ssize_t getdelim(char **line, size_t *cap, int delim, FILE *f);
ssize_t getline(char **line, size_t *cap, FILE *f);
#ifdef __cplusplus
}
#endif
#endif

#endif
