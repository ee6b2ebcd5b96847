/* SPDX-License-Identifier: MIT */
/*
 * init.c: record what the PCT passed in the initial stack (environment and
 * auxiliary vector) before newlib's constructors and main() run.  No system
 * calls here, so the host unit test can drive it with a fake auxv.
 */
#include <lwk/lwk.h>
#include <lwk/uapi/abi.h>

#include "libc_internal.h"

extern char **environ;

static struct lwk_procinfo procinfo = { .nid = -1, .size = 1 };
const struct lwk_procinfo *const lwk_proc = &procinfo;

static unsigned long *auxv_start;

/* GNU's names for the program's name (err.c's messages start with it). */
char *program_invocation_name = "", *program_invocation_short_name = "";

unsigned long lwk_getauxval(unsigned long type, unsigned long dflt)
{
    for (unsigned long *a = auxv_start; a && a[0] != AT_NULL; a += 2)
        if (a[0] == type)
            return a[1];
    return dflt;
}

void __lwk_init(int argc, char **argv, char **envp, unsigned long *auxv)
{
    environ = envp;
    if (argc > 0 && argv[0]) {
        char *slash = argv[0];
        program_invocation_name = program_invocation_short_name = argv[0];
        while (*slash)
            if (*slash++ == '/')
                program_invocation_short_name = slash;
    }
    auxv_start = auxv;

    procinfo.heap_base = lwk_getauxval(AT_LWK_HEAP_BASE, 0);
    procinfo.heap_size = lwk_getauxval(AT_LWK_HEAP_SIZE, 0);
    procinfo.stack_size = lwk_getauxval(AT_LWK_STACK_SIZE, 0);
    procinfo.nid = (long)lwk_getauxval(AT_LWK_NID, (unsigned long)-1);
    procinfo.rank = (long)lwk_getauxval(AT_LWK_RANK, 0);
    procinfo.size = (long)lwk_getauxval(AT_LWK_SIZE, 1);

    /* No heap passed means no heap: sbrk fails with ENOMEM, never guesses. */
    lwk_heap_setup(procinfo.heap_base, procinfo.heap_size);
}
