/*
 * clock: the libc's clocks read the TSC in user space (time.c, with the
 * kernel's clock_params) and must agree with the kernel's own clock_ns
 * call: readings interleaved with system calls never go backwards, and
 * realtime is monotonic plus the same boot offset.  Prints "clock: OK".
 */
#include <stdio.h>
#include <time.h>
#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

static long long ns_of(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(void)
{
    struct lwk_clock c;
    long long prev = 0;

    if (lwk_sys_clock_params((long)&c) != 0 || c.ns_mult == 0) {
        printf("clock: no clock_params from the kernel\n");
        return 1;
    }
    for (int i = 0; i < 1000; i++) {
        long long u = ns_of(CLOCK_MONOTONIC);
        long long k = lwk_sys_clock_ns(LWK_CLOCK_MONOTONIC);
        long long u2 = ns_of(CLOCK_MONOTONIC);

        if (u < prev || k < u || u2 < k) {
            printf("clock: out of order at %d: %lld %lld %lld (prev %lld)\n",
                   i, u, k, u2, prev);
            return 1;
        }
        prev = u2;
    }
    long long rt = ns_of(CLOCK_REALTIME) - ns_of(CLOCK_MONOTONIC);
    long long krt = lwk_sys_clock_ns(LWK_CLOCK_REALTIME) -
                    lwk_sys_clock_ns(LWK_CLOCK_MONOTONIC);
    if (rt - krt > 1000000 || krt - rt > 1000000) {
        printf("clock: realtime offset %lld ns here, %lld ns in the kernel\n",
               rt, krt);
        return 1;
    }
    printf("clock: OK (%lld ns since boot)\n", prev);
    return 0;
}
