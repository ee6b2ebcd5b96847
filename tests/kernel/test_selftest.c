/*
 * Manual tests that must fail: tests/qemu/suite-boot runs each one alone
 * and checks that the harness reports a failure (a harness that cannot see
 * a failure is worse than none).
 */
#include "kernel.h"
#include "ktest.h"
#include "panic.h"
#include "x86.h"

/* An address the compiler cannot see through: the low half is unmapped. */
static volatile uint64_t *volatile unmapped = (uint64_t *)0x10;

KTEST_MANUAL(selftest, fault)
{
    *unmapped = 1;
}

KTEST_MANUAL(selftest, expect)
{
    KEXPECT_EQ(1 + 1, 3);
}

KTEST_MANUAL(selftest, panic)
{
    panic("selftest: deliberate panic");
}

KTEST_MANUAL(selftest, hang)
{
    irq_disable();
    for (;;)
        halt();
}
