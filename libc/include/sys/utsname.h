/* SPDX-License-Identifier: MIT */
/*
 * sys/utsname.h: uname() for compute-node programs (newlib has none for a
 * bare target).  What each field holds on a node: libc/uname.c.
 */
#ifndef _SYS_UTSNAME_H
#define _SYS_UTSNAME_H

#ifdef __cplusplus
extern "C" {
#endif

#define _UTSNAME_LENGTH 65      /* as Linux: programs size buffers by it */

struct utsname {
    char sysname[_UTSNAME_LENGTH];
    char nodename[_UTSNAME_LENGTH];
    char release[_UTSNAME_LENGTH];
    char version[_UTSNAME_LENGTH];
    char machine[_UTSNAME_LENGTH];
};

int uname(struct utsname *buf);

#ifdef __cplusplus
}
#endif

#endif
