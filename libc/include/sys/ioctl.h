/* SPDX-License-Identifier: MIT */
/*
 * sys/ioctl.h: ioctl() with the requests programs ask of terminals
 * (Linux's numbers).  A node's descriptors are yod's files and the
 * console, none a terminal that answers: every request fails ENOTTY, as
 * on a Linux file that is not a terminal (libc/files.c).
 */
#ifndef LWK_SYS_IOCTL_H
#define LWK_SYS_IOCTL_H

#ifdef __cplusplus
extern "C" {
#endif

#define TCGETS          0x5401
#define TIOCGWINSZ      0x5413
#define FIONREAD        0x541B
#define FIONBIO         0x5421

struct winsize {
    unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

int ioctl(int fd, unsigned long request, ...);

#ifdef __cplusplus
}
#endif

#endif
