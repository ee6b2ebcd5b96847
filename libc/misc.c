/* SPDX-License-Identifier: MIT */
/*
 * misc.c: the small remainder newlib 3.3 leaves undefined for a bare
 * target: posix_memalign (used by aligned_alloc), sysconf, getentropy, and
 * the JIS converters that towctrans_l references even without multibyte
 * support.
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

long sysconf(int name)
{
    switch (name) {
    case _SC_PAGESIZE:
        return (long)LWK_PAGE_SIZE;  /* the only page size a node maps */
    case _SC_CLK_TCK:
        return CLOCKS_PER_SEC;
    case _SC_NPROCESSORS_CONF:          /* the node's CPUs */
        return (long)lwk_getauxval(AT_LWK_NCPUS, 1);
    case _SC_NPROCESSORS_ONLN:          /* the ones this process runs on */
        return __builtin_popcountll(lwk_getauxval(AT_LWK_CPUS, 1));
    case _SC_PHYS_PAGES:
    case _SC_AVPHYS_PAGES:
        return (long)(lwk_proc->heap_size / LWK_PAGE_SIZE);
    default:
        return lwk_fail(EINVAL);
    }
}

/* No entropy source yet (RDRAND could be one): fail rather than fake it. */
int getentropy(void *buf, size_t len)
{
    (void)buf;
    (void)len;
    return lwk_fail(ENOSYS);
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
