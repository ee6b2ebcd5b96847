/*
 * faults: do one bad thing, named by argv[1], so the test can check that
 * the kernel kills only this program and the PCT reports the reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

static volatile int zero;

static int recurse(int n)
{
    volatile char pad[4096];
    pad[0] = (char)n;
    if (zero == 12345)          /* never: keeps the recursion unbounded */
        return 0;
    return recurse(n + 1) + pad[0];
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";

    printf("faults: %s\n", what);
    fflush(stdout);
    if (!strcmp(what, "null"))
        *(volatile int *)(uintptr_t)zero = 1;
    else if (!strcmp(what, "divide"))
        __asm__ volatile("xor %%edx, %%edx; divl %1" : : "a"(1), "r"(zero)
                         : "edx");
    else if (!strcmp(what, "opcode"))
        __asm__ volatile("ud2");
    else if (!strcmp(what, "privileged"))
        __asm__ volatile("cli; hlt");
    else if (!strcmp(what, "stack"))
        return recurse(0);
    else if (!strcmp(what, "kernel"))
        *(volatile uint64_t *)0xFFFFFFFF80100000UL = 0;
    else if (!strcmp(what, "pct"))      /* where the PCT sees app memory */
        *(volatile uint64_t *)LWK_PCT_WINDOW = 0;
    else if (!strcmp(what, "text"))     /* text is read-only */
        *(volatile uint8_t *)(uintptr_t)&main = 0xC3;
    else if (!strcmp(what, "breakpoint"))   /* with no debugger: fatal */
        __asm__ volatile("int3");
    else if (!strcmp(what, "dbgcall")) {    /* a PCT-only call */
        long rc = lwk_sys_proc_debug(LWK_DBG_STOP, lwk_sys_getpid(), 0, 0);
        printf("faults: dbgcall returned %ld\n", rc);
        return rc == -1 ? 0 : 1;        /* -EPERM */
    }
    else if (!strcmp(what, "pctcall")) {
        long n = argc > 2 ? atol(argv[2]) : 1, refused = 0, rc = 0;
        for (long i = 0; i < n; i++)    /* a refused call n times: logged */
            refused += (rc = lwk_sys_node_info(0)) == -1;   /* -EPERM */
        if (n == 1)
            printf("faults: pctcall returned %ld\n", rc);
        else
            printf("faults: pctcall refused %ld of %ld times\n", refused, n);
        return refused == n ? 0 : 1;
    }
    printf("faults: survived %s\n", what);
    return 3;
}
