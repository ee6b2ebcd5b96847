/* SPDX-License-Identifier: MIT */
/*
 * fcntl.h: newlib's, plus posix_fadvise and its advice values (XBD
 * <fcntl.h>, Linux's numbers; advice changes nothing on a node:
 * libc/files.c), and O_DSYNC (aio_fsync's other op), which newlib
 * defines for Cygwin only: O_SYNC's value, as there (yod opens the file
 * O_SYNC, the stronger).
 */
#ifndef LWK_FCNTL_H
#define LWK_FCNTL_H

#include_next <fcntl.h>

#ifndef O_DSYNC
#define O_DSYNC                 O_SYNC
#endif

#define POSIX_FADV_NORMAL       0
#define POSIX_FADV_RANDOM       1
#define POSIX_FADV_SEQUENTIAL   2
#define POSIX_FADV_WILLNEED     3
#define POSIX_FADV_DONTNEED     4
#define POSIX_FADV_NOREUSE      5

#ifdef __cplusplus
extern "C" {
#endif
int posix_fadvise(int fd, off_t off, off_t len, int advice);
#ifdef __cplusplus
}
#endif

#endif
