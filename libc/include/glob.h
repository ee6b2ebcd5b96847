/* SPDX-License-Identifier: MIT */
/*
 * glob.h: newlib's glob_t and flags, plus what POSIX adds and newlib's
 * older header lacks: GLOB_NOESCAPE, GLOB_NOMATCH, GLOB_ABORTED
 * (libc/glob.c).
 */
#ifndef LWK_GLOB_H
#define LWK_GLOB_H

#include_next <glob.h>

#define GLOB_NOESCAPE   0x2000  /* backslash is an ordinary character */
#define GLOB_ABORTED    GLOB_ABEND
#define GLOB_NOMATCH    (-3)    /* nothing matched */

#endif
