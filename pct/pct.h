/*
 * The process control thread: the user-level program on every node that
 * owns policy (what runs, where in memory, in which order) while the
 * Q-Kernel only provides the mechanisms (proc_* system calls).
 */
#ifndef PCT_H
#define PCT_H

#include <stdint.h>
#include "elf.h"
#include "uapi/abi.h"

#define PCT_MAX_JOBS    16
#define PCT_MAX_ARGS    32

struct job {
    int pid;                    /* 0: not loaded */
    int prio;                   /* higher runs first */
    const char *name;
    const void *image;
    uint64_t image_size;
    struct elf_image elf;
    int argc;
    char *argv[PCT_MAX_ARGS + 1];
    int envc;
    char *envp[PCT_MAX_ARGS + 1];
    uint64_t stack_lo;          /* lowest stack address: overflow check */
    int done;
    struct lwk_run_result last;
};

/* load.c: create the process for `j` and make it ready to run. */
int pct_load(struct job *j, uint64_t heap, uint64_t stack, uint64_t nid);
/* report.c: one line per process end, with the fault explained. */
void pct_report(const struct job *j);
/* symbols.c: the function containing `addr` in an ELF image, or NULL. */
const char *elf_symbol(const void *image, uint64_t size, uint64_t addr,
                       uint64_t *offset);

#endif
