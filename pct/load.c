/*
 * Loading a program: the PCT checks the ELF image, decides the regions
 * (text, data+bss+heap, stack), asks the kernel for them, copies the image
 * in through its window on them and builds the initial stack.
 */
#include <stdio.h>
#include <lwk/syscall.h>
#include "pct.h"

int pct_load(struct job *j, uint64_t heap, uint64_t stack, uint64_t nid)
{
    struct lwk_proc_desc d;
    struct lwk_proc_map m;
    uint64_t heap_base, sp;
    const char *why;
    long pid;

    if (elf_parse(j->image, j->image_size, LWK_APP_BASE, LWK_STACK_TOP,
                  &j->elf, &why) < 0 ||
        elf_layout(&j->elf, heap, stack, &d, &heap_base, &why) < 0) {
        printf("pct: %s: cannot run: %s\n", j->name, why);
        return -1;
    }
    pid = lwk_sys_proc_create((long)&d, (long)&m);
    if (pid < 0) {
        struct lwk_node_info ni;
        lwk_sys_node_info((long)&ni);
        printf("pct: %s: cannot run: needs %lu MiB (text %lu, data+heap "
               "%lu, stack %lu) but the largest free region is %lu MiB; "
               "ask for a smaller heap\n", j->name,
               (d.text_size + d.data_size + d.stack_size) >> 20,
               d.text_size >> 20, d.data_size >> 20, d.stack_size >> 20,
               ni.largest_free >> 20);
        return -1;
    }
    elf_load(&j->elf, j->image, &d, (void *)m.pct_va[LWK_REG_TEXT],
             (void *)m.pct_va[LWK_REG_DATA]);
    uint64_t auxv[] = {
        AT_PAGESZ, LWK_PAGE_SIZE, AT_ENTRY, j->elf.entry,
        AT_LWK_HEAP_BASE, heap_base,
        AT_LWK_HEAP_SIZE, d.data_va + d.data_size - heap_base,
        AT_LWK_STACK_SIZE, d.stack_size, AT_LWK_NID, nid,
        AT_LWK_RANK, 0, AT_LWK_SIZE, 1, AT_NULL, 0,
    };
    sp = ustack_build((void *)m.pct_va[LWK_REG_STACK], m.size[LWK_REG_STACK],
                      LWK_STACK_TOP, j->argc, (const char *const *)j->argv,
                      (const char *const *)j->envp, auxv);
    if (!sp || lwk_sys_proc_start(pid, j->elf.entry, sp) < 0) {
        printf("pct: %s: cannot run: arguments do not fit on its stack\n",
               j->name);
        lwk_sys_proc_destroy(pid);
        return -1;
    }
    j->pid = (int)pid;
    j->stack_lo = LWK_STACK_TOP - d.stack_size;
    return 0;
}
