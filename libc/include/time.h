/* SPDX-License-Identifier: MIT */
/*
 * time.h: newlib's, plus clock_nanosleep (POSIX, which newlib declares
 * only for targets with clock selection) and GNU's timegm (libc/time.c).
 */
#ifndef LWK_TIME_H
#define LWK_TIME_H

#include_next <time.h>

#ifdef __cplusplus
extern "C" {
#endif
int clock_nanosleep(clockid_t id, int flags, const struct timespec *req,
                    struct timespec *rem);
time_t timegm(struct tm *tm);
#ifdef __cplusplus
}
#endif

#endif
