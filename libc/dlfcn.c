/* SPDX-License-Identifier: MIT */
/*
 * dlfcn.c: dynamic loading on a node, where a program is one static image
 * and there is nothing to load: dlopen and dlsym fail, and dlerror says
 * why once per failure (then NULL, as POSIX says), so a program with
 * optional plugins goes on without them.
 */
#include <dlfcn.h>
#include <stddef.h>

static const char *why;

static void *fail(const char *msg)
{
    why = msg;
    return NULL;
}

void *dlopen(const char *file, int mode)
{
    (void)file, (void)mode;
    return fail("dlopen: a compute-node program is one static image; "
                "nothing can be loaded");
}

void *dlsym(void *handle, const char *name)
{
    (void)handle, (void)name;
    return fail("dlsym: a compute-node program has no dynamic symbols");
}

int dlclose(void *handle)
{
    (void)handle;
    fail("dlclose: no object was loaded");
    return -1;
}

char *dlerror(void)
{
    const char *w = why;

    why = NULL;
    return (char *)w;
}

int dladdr(const void *addr, Dl_info *info)
{
    (void)addr, (void)info;
    return 0;           /* no object holds it: 0, as glibc says then */
}
