/*
 * Loading a program: the PCT checks the ELF image, decides the regions
 * (text, data+bss and stack first), asks the kernel for them, copies the
 * image in through its window on them, keeps the function names, gives the
 * boot module back, then adds the heap (which can take the module's
 * memory) and builds the initial stack.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <lwk/syscall.h>
#include "pct.h"

#define ALIGN_UP(x, a)  (((x) + (a) - 1) & ~((uint64_t)(a) - 1))
#define PCT_PAGE_4K     4096u   /* the kernel's smallest region unit */

static uint64_t largest_free(void)
{
    struct lwk_node_info ni;

    lwk_sys_node_info((long)&ni);
    return ni.largest_free;
}

/* The image is a boot module, or (from yod) the data region of a scratch
   process made only to hold it: either way its memory goes back. */
void pct_release_image(struct job *j)
{
    if (!j->image)
        return;
    if (j->scratch_pid > 0)
        lwk_sys_proc_destroy(j->scratch_pid);
    else if (lwk_sys_module_release(j->module) < 0)
        printf("pct: %s: could not give its boot module back\n", j->name);
    j->scratch_pid = 0;
    j->image = NULL;
}

/* Room for an image of `size` bytes that yod sends: the PCT's own heap is
   small (256 KiB), so the bytes go into a process region the PCT sees
   through its window; the process never runs.  Its regions are as small
   as the kernel takes (4 KiB pages): the kernel zeroes every region it
   hands out, and three 2 MB pages here (text, data, stack for a 100 KiB
   image) cost each node 6 MiB of zeroing at every load, 1.1 million
   instructions, more than the program's own text, data and stack, and
   6 MiB a small node lacked while the image and the program were both
   there (docs/PERFORMANCE.md, "Many nodes"). */
void *pct_image_buffer(struct job *j, uint64_t size)
{
    struct lwk_proc_desc d = {
        .text_va = LWK_APP_BASE, .text_size = PCT_PAGE_4K,
        .data_va = LWK_APP_BASE + LWK_PAGE_SIZE,
        .data_size = ALIGN_UP(size, PCT_PAGE_4K),
        .stack_size = PCT_PAGE_4K,
    };
    struct lwk_proc_map m;
    long pid = lwk_sys_proc_create((long)&d, (long)&m);

    if (pid < 0)
        return NULL;
    j->scratch_pid = (int)pid;
    j->module = -1;
    j->image = (const void *)m.pct_va[LWK_REG_DATA];
    j->image_size = size;
    return (void *)m.pct_va[LWK_REG_DATA];
}

/* "pct: NAME: cannot run: ..." on the log, and the reason in j->why for
   yod, which shows it to the user. */
void pct_cannot_run(struct job *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(j->why, sizeof(j->why), fmt, ap);
    va_end(ap);
    printf("pct: %s: cannot run: %s\n", j->name, j->why);
}

/* The process of j, bound to the rank's Portals pid: policy here, the
   kernel's mechanism refuses every other pid to it. */
long pct_create(struct job *j, const struct lwk_proc_desc *d,
                   struct lwk_proc_map *m)
{
    struct lwk_proc_desc bound = *d;
    long pid;

    bound.ptl_pid = j->ptl_pid;
    if ((pid = lwk_sys_proc_create((long)&bound, (long)m)) == -EBUSY) {
        pct_cannot_run(j, "its Portals pid %u is another process's on "
                       "this node", j->ptl_pid);
        return pid;
    }
    if (pid < 0)
        pct_cannot_run(j, "needs %lu KiB (text %lu, data %lu, stack %lu) "
                       "but the largest free region is %lu KiB; ask for a "
                       "smaller stack or make the program's data smaller",
                       (d->text_size + d->data_size + d->stack_size) >> 10,
                       d->text_size >> 10, d->data_size >> 10,
                       d->stack_size >> 10, largest_free() >> 10);
    return pid;
}

/* Virtual-node mode: this rank's part of the free memory, shared with
   the n - 1 ranks still to load, each of which needs room besides its
   heap for its text, data and stack (VN_ROOM), and kept back for the
   Portals tables of this rank and of every one loaded before it
   (VN_TABLES each): a rank's tables are taken when it opens Portals,
   after every rank has its heap, and the kernel sets aside tables for
   one program only.  The memory the image was held in comes back after
   the last rank is loaded, but it is no part of this sum: it is as small
   as the image (pct_image_buffer). */
#define VN_ROOM     (8ull << 20)
#define VN_TABLES   (2ull << 20)
static uint64_t share(int n, int loaded)
{
    struct lwk_node_info ni;
    uint64_t left, part, room = (uint64_t)(n - 1) * VN_ROOM +
                                (uint64_t)loaded * VN_TABLES;

    lwk_sys_node_info((long)&ni);
    left = ni.ram_free > room ? ni.ram_free - room : 0;
    part = (left / (uint64_t)n) & ~(uint64_t)(LWK_PAGE_SIZE - 1);
    if (part > ni.largest_free)
        part = ni.largest_free & ~(uint64_t)(LWK_PAGE_SIZE - 1);
    return part < LWK_REGION_MAX ? part : LWK_REGION_MAX;
}

/* The heap goes on the first 2 MB boundary after data+bss, so 2 MB pages
   can map it.  HEAP_ALL: the biggest region there is, up to max. */
long pct_add_heap(struct job *j, long pid, uint64_t va, uint64_t heap,
                  uint64_t max, uint64_t flags)
{
    long got;

    if (heap == PCT_HEAP_ALL && j->heap_share > 0)
        heap = share(j->heap_share, j->local + 1);
    else if (heap == PCT_HEAP_ALL)
        heap = largest_free() < LWK_REGION_MAX ? largest_free()
                                               : LWK_REGION_MAX;
    if (heap > max)
        heap = max;
    heap &= ~(uint64_t)4095;
    if (heap == 0)
        return 0;
    got = lwk_sys_proc_heap(pid, va, heap, flags);
    if (got < 0)
        pct_cannot_run(j, "needs a heap of %lu KiB but the largest free "
                       "region is %lu KiB; ask for a smaller heap",
                       heap >> 10, largest_free() >> 10);
    return got;
}

static int start(struct job *j, long pid, const struct lwk_proc_map *m,
                 uint64_t heap_va, uint64_t heap, uint64_t nid)
{
    uint64_t sp, auxv[] = {
        AT_PAGESZ, LWK_PAGE_SIZE, AT_ENTRY, j->elf.entry,
        AT_LWK_HEAP_BASE, heap_va, AT_LWK_HEAP_SIZE, heap,
        AT_LWK_STACK_SIZE, m->size[LWK_REG_STACK], AT_LWK_NID, nid,
        AT_LWK_RANK, (uint64_t)j->rank, AT_LWK_SIZE,
        (uint64_t)(j->size ? j->size : 1),
        AT_LWK_YOD_KEY0, j->yod_key.k0, AT_LWK_YOD_KEY1, j->yod_key.k1,
        AT_LWK_NCPUS, pct_ncpus(), AT_LWK_CPUS, pct_cpus_own(j),
        AT_NULL, 0,
    };

    sp = ustack_build((void *)m->pct_va[LWK_REG_STACK], m->size[LWK_REG_STACK],
                      LWK_STACK_TOP, j->argc, (const char *const *)j->argv,
                      (const char *const *)j->envp, auxv);
    if (!sp || lwk_sys_proc_start(pid, j->elf.entry, sp) < 0) {
        pct_cannot_run(j, "arguments do not fit on its stack");
        return -1;
    }
    j->auxv = pct_auxv_at(j, sp);
    return 0;
}

int pct_load(struct job *j, uint64_t heap, uint64_t stack, uint64_t nid)
{
    struct lwk_proc_desc d;
    struct lwk_proc_map m;
    uint64_t bss_end, heap_va;
    const char *why;
    long pid, got;

    if (j->mode_word)
        j->mode = pct_mode_parse(j->mode_word);
    if (j->mode == PCT_MODE_VN && j->module >= 0) {
        pct_cannot_run(j, "mode=vn is for yod's jobs (yod -vn), which put "
                       "one rank on each CPU");
        return -1;
    }
    if (j->mode < 0) {
        pct_cannot_run(j, "unknown CPU mode; give mode=one, mode=threads, "
                       "mode=coproc or mode=vn");
        return -1;
    }
    const void *rt;
    uint64_t rt_len, prog_len = pct_lxrt_split(j, &rt, &rt_len);

    if (elf_parse(j->image, prog_len, LWK_APP_BASE, LWK_STACK_TOP,
                  &j->elf, &why) < 0 ||
        (j->elf.lwk &&
         elf_layout(&j->elf, 0, stack, &d, &bss_end, &why) < 0)) {
        pct_cannot_run(j, "%s", why);
        return -1;
    }
    if (!j->elf.lwk)
        return pct_load_linux(j, heap, stack, nid);
    if ((pid = pct_create(j, &d, &m)) < 0)
        return -1;
    elf_load(&j->elf, j->image, &d, (void *)m.pct_va[LWK_REG_TEXT],
             (void *)m.pct_va[LWK_REG_DATA]);
    pct_keep_symbols(j);
    if (!j->image_shared)
        pct_release_image(j);
    heap_va = ALIGN_UP(m.app_va[LWK_REG_DATA] + m.size[LWK_REG_DATA],
                       LWK_PAGE_SIZE);
    if ((got = pct_add_heap(j, pid, heap_va, heap, LWK_REGION_MAX, 0)) < 0) {
        lwk_sys_proc_destroy(pid);
        return -1;
    }
    pct_cpus_assign(j, pid);
    if (start(j, pid, &m, heap_va, profile_reserve(j, heap_va, (uint64_t)got),
              nid) < 0) {
        pct_cpus_release(j);
        lwk_sys_proc_destroy(pid);
        return -1;
    }
    pct_loaded(j, pid, &m, heap_va, (uint64_t)got);
    return 0;
}

/* Where ustack_build put the auxiliary vector, above argc, argv and envp
   (each NULL-ended) at the initial stack pointer sp. */
uint64_t pct_auxv_at(const struct job *j, uint64_t sp)
{
    return sp + 8 * (1 + (uint64_t)j->argc + 1 + (uint64_t)j->envc + 1);
}

void pct_loaded(struct job *j, long pid, const struct lwk_proc_map *m,
                uint64_t heap_va, uint64_t heap)
{
    j->pid = (int)pid;
    j->map = *m;                /* made before the heap was added: */
    j->map.app_va[LWK_REG_HEAP] = heap_va;
    j->map.size[LWK_REG_HEAP] = heap;
    j->stack_lo = LWK_STACK_TOP - m->size[LWK_REG_STACK];
    j->mem = m->size[LWK_REG_TEXT] + m->size[LWK_REG_DATA] +
             m->size[LWK_REG_STACK] + heap;
    printf("pct: %s: pid %ld, %stext %lu KiB, data %lu KiB, heap %lu KiB, "
           "stack %lu KiB\n", j->name, pid,
           j->elf.lwk ? "" : "Linux program, runtime ",
           m->size[LWK_REG_TEXT] >> 10, m->size[LWK_REG_DATA] >> 10,
           heap >> 10, m->size[LWK_REG_STACK] >> 10);
}
