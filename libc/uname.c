/* SPDX-License-Identifier: MIT */
/*
 * uname.c: what a program learns about the system it runs on.  A node is
 * named for its nid in the usual HPC form, "nid00003" (every process on it
 * sees the same name; gethostname gives it too).  The kernel publishes no
 * version, so release and version name what the program was linked with:
 * the node C library, newlib's version.
 */
#include <_newlib_version.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <lwk/lwk.h>

#include "libc_internal.h"

/* The PCT alone is started without a nid (the kernel's auxv has none). */
static void node_name(char *buf, size_t len)
{
    if (lwk_nid() >= 0)
        snprintf(buf, len, "nid%05ld", lwk_nid());
    else
        snprintf(buf, len, "unknown");
}

int uname(struct utsname *u)
{
    *u = (struct utsname){
        .sysname = "Q-Kernel",
        .release = _NEWLIB_VERSION,
        .version = "newlib " _NEWLIB_VERSION,
        .machine = "x86_64",
    };
    node_name(u->nodename, sizeof(u->nodename));
    return 0;
}

/* As glibc: a name that does not fit with its NUL is ENAMETOOLONG. */
int gethostname(char *name, size_t len)
{
    char buf[_UTSNAME_LENGTH];

    node_name(buf, sizeof(buf));
    if (strlen(buf) >= len)
        return lwk_fail(ENAMETOOLONG);
    memcpy(name, buf, strlen(buf) + 1);
    return 0;
}
