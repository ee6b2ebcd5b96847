/* SPDX-License-Identifier: MIT */
/*
 * dlfcn.h: dynamic loading (XBD <dlfcn.h>).  A node program is one static
 * image: there is nothing to load, so dlopen() always fails and dlerror()
 * says why, which programs with optional plugins handle (libc/dlfcn.c).
 */
#ifndef LWK_DLFCN_H
#define LWK_DLFCN_H

#ifdef __cplusplus
extern "C" {
#endif

#define RTLD_LAZY       0x0001
#define RTLD_NOW        0x0002
#define RTLD_NOLOAD     0x0004
#define RTLD_GLOBAL     0x0100
#define RTLD_LOCAL      0
#define RTLD_NODELETE   0x1000
#define RTLD_DEFAULT    ((void *)0)
#define RTLD_NEXT       ((void *)-1L)

typedef struct {
    const char *dli_fname;      /* the object holding the address */
    void *dli_fbase;
    const char *dli_sname;      /* the nearest symbol */
    void *dli_saddr;
} Dl_info;

void *dlopen(const char *file, int mode);
void *dlsym(void *handle, const char *name);
int dlclose(void *handle);
char *dlerror(void);
int dladdr(const void *addr, Dl_info *info);

#ifdef __cplusplus
}
#endif

#endif
