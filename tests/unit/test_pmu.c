/*
 * Which CPUs yod -counters can count on (kernel/include/pmu.h): CPUID
 * leaf 0xA's architectural PMU with fixed counters 0 and 1 (Intel SDM
 * Vol 3 20.2.2: version in eax[7:0], fixed counters in edx[4:0]); the
 * values are what real CPUs, KVM and QEMU's TCG report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmu.h"

static void usable(void **st)
{
    /* a Skylake: version 4, 8 GP counters of 48 bits, 3 fixed of 48 */
    const uint32_t skylake[4] = { 0x07300804, 0, 0, 0x00000603 };
    /* KVM passing a version 2 PMU through: 2 GP, 3 fixed */
    const uint32_t kvm[4] = { 0x07300202, 0, 0, 0x00000603 };

    (void)st;
    assert_true(pmu_fixed_usable(0x16, skylake));
    assert_true(pmu_fixed_usable(0xD, kvm));
}

static void not_usable(void **st)
{
    const uint32_t none[4] = { 0, 0, 0, 0 };           /* QEMU TCG */
    const uint32_t v1[4] = { 0x07280201, 0, 0, 0 };    /* no fixed counters */
    const uint32_t one_fixed[4] = { 0x07300802, 0, 0, 0x00000601 };
    const uint32_t skylake[4] = { 0x07300804, 0, 0, 0x00000603 };

    (void)st;
    assert_false(pmu_fixed_usable(0xD, none));
    assert_false(pmu_fixed_usable(0xD, v1));
    assert_false(pmu_fixed_usable(0xD, one_fixed));
    /* leaf 0xA above the CPU's maximum leaf: whatever it said is not it */
    assert_false(pmu_fixed_usable(0x7, skylake));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(usable), cmocka_unit_test(not_usable),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
