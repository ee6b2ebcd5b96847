/* SPDX-License-Identifier: MIT */
/*
 * utime.h: newlib's struct utimbuf and the utime() it leaves undeclared
 * (XBD <utime.h>; yod does not set times: ENOSYS, libc/files.c).
 */
#ifndef LWK_UTIME_H
#define LWK_UTIME_H

#include <sys/types.h>            /* time_t: newlib's needs it first */
#include_next <utime.h>

#ifdef __cplusplus
extern "C" {
#endif
int utime(const char *path, const struct utimbuf *times);
#ifdef __cplusplus
}
#endif

#endif
