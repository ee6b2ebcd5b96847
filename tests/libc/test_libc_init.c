/* SPDX-License-Identifier: MIT */
/*
 * test_libc_init.c: host unit tests of what crt0 relies on: auxv decoding
 * in libc/init.c and the heap bounds of sbrk in libc/heap.c (built with
 * -Dsbrk=lwk_test_sbrk so glibc's sbrk is left alone).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <lwk/lwk.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

void *lwk_test_sbrk(ptrdiff_t incr);

extern char **environ;

#define MiB (1UL << 20)

static char *fake_argv[] = { "prog", "arg", NULL };
static char *fake_envp[] = { "HOME=/", NULL };

static void init_with(unsigned long *auxv)
{
    char **saved = environ;

    __lwk_init(2, fake_argv, fake_envp, auxv);
    assert_ptr_equal(environ, fake_envp);
    environ = saved;
}

static void test_auxv_all(void **state)
{
    unsigned long auxv[] = {
        AT_PAGESZ, 4096, AT_LWK_HEAP_BASE, 0x40000000, AT_LWK_HEAP_SIZE,
        64 * MiB, AT_LWK_STACK_SIZE, 2 * MiB, AT_LWK_NID, 7, AT_LWK_RANK, 3,
        AT_LWK_SIZE, 16, AT_NULL, 0,
    };

    (void)state;
    init_with(auxv);
    assert_int_equal(lwk_proc->heap_base, 0x40000000);
    assert_int_equal(lwk_proc->heap_size, 64 * MiB);
    assert_int_equal(lwk_proc->stack_size, 2 * MiB);
    assert_int_equal(lwk_nid(), 7);
    assert_int_equal(lwk_rank(), 3);
    assert_int_equal(lwk_size(), 16);
    assert_int_equal(lwk_getauxval(AT_PAGESZ, 0), 4096);
    assert_int_equal(lwk_getauxval(0x999, 42), 42);
    assert_int_equal(lwk_heap_left(), 64 * MiB);
}

static void test_auxv_defaults(void **state)
{
    unsigned long auxv[] = { AT_PAGESZ, 4096, AT_NULL, 0 };

    (void)state;
    init_with(auxv);
    assert_int_equal(lwk_nid(), -1);
    assert_int_equal(lwk_rank(), 0);
    assert_int_equal(lwk_size(), 1);
    assert_int_equal(lwk_proc->heap_size, 0);
    errno = 0;
    assert_ptr_equal(lwk_test_sbrk(16), (void *)-1);
    assert_int_equal(errno, ENOMEM);
}

static void test_sbrk_bounds(void **state)
{
    uintptr_t base = 0x40000000;

    (void)state;
    lwk_heap_setup(base, 4 * MiB);
    assert_ptr_equal(lwk_test_sbrk(0), (void *)base);
    assert_ptr_equal(lwk_test_sbrk(100), (void *)base);
    assert_ptr_equal(lwk_test_sbrk(0), (void *)(base + 100));
    /* Exactly to the end is fine, one byte more is ENOMEM. */
    assert_ptr_equal(lwk_test_sbrk((ptrdiff_t)(4 * MiB - 100)),
                     (void *)(base + 100));
    assert_int_equal(lwk_heap_left(), 0);
    errno = 0;
    assert_ptr_equal(lwk_test_sbrk(1), (void *)-1);
    assert_int_equal(errno, ENOMEM);
    /* A failed call leaves the break alone. */
    assert_ptr_equal(lwk_test_sbrk(0), (void *)(base + 4 * MiB));
    /* Shrinking works, but not below the base. */
    assert_ptr_equal(lwk_test_sbrk(-(ptrdiff_t)MiB), (void *)(base + 4 * MiB));
    assert_int_equal(lwk_heap_left(), MiB);
    errno = 0;
    assert_ptr_equal(lwk_test_sbrk(-(ptrdiff_t)(4 * MiB)), (void *)-1);
    assert_int_equal(errno, EINVAL);
}

static void test_sbrk_no_overflow(void **state)
{
    (void)state;
    lwk_heap_setup(0x40000000, 4 * MiB);
    errno = 0;
    assert_ptr_equal(lwk_test_sbrk(PTRDIFF_MAX), (void *)-1);
    assert_int_equal(errno, ENOMEM);
    assert_ptr_equal(lwk_test_sbrk(PTRDIFF_MIN), (void *)-1);
    /* A region that wraps the address space is no region. */
    lwk_heap_setup(UINTPTR_MAX - MiB, 4 * MiB);
    assert_ptr_equal(lwk_test_sbrk(1), (void *)-1);
    assert_int_equal(lwk_heap_left(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auxv_all),
        cmocka_unit_test(test_auxv_defaults),
        cmocka_unit_test(test_sbrk_bounds),
        cmocka_unit_test(test_sbrk_no_overflow),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
