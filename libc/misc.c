/* SPDX-License-Identifier: MIT */
/*
 * misc.c: the small remainder newlib 3.3 leaves undefined for a bare
 * target: posix_memalign (used by aligned_alloc), getentropy, the GNU
 * environment calls secure_getenv and clearenv, getloadavg, and the JIS
 * converters that towctrans_l references even without multibyte support
 * (sysconf is in sysconf.c).
 */
#include <malloc.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <lwk/lwk.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

int posix_memalign(void **out, size_t align, size_t size)
{
    void *p;

    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    p = memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

/* No entropy source yet (RDRAND could be one): fail rather than fake it. */
int getentropy(void *buf, size_t len)
{
    (void)buf;
    (void)len;
    return lwk_fail(ENOSYS);
}

/* No program on a node runs with more rights than it was started with. */
char *secure_getenv(const char *name)
{
    return getenv(name);
}

extern char **environ;

int clearenv(void)
{
    environ = NULL;
    return 0;
}

/* A node counts no load: one process runs on each of its CPUs. */
int getloadavg(double loads[], int n)
{
    (void)loads, (void)n;
    return -1;
}

/* newlib is built without _MB_CAPABLE: no JIS locale, so identity maps. */
wint_t _jp2uc_l(wint_t c, struct __locale_t *l)
{
    (void)l;
    return c;
}

wint_t _uc2jp_l(wint_t c, struct __locale_t *l)
{
    (void)l;
    return c;
}
