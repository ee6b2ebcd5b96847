/*
 * Loading a static Linux program (an executable without lwkcc's PT_LWK
 * mark; docs/LINUX.md).  The process gets the runtime (lxrt/; yod and
 * lwkrun send its packed image after the program's, struct
 * lwk_lxrt_trailer, so it costs the node no memory between jobs) as its
 * text and data regions, and one
 * executable heap region at 4 MiB holding the program's segments at their
 * addresses (a static PIE is placed there) followed by the memory its brk
 * and mmap hand out.  The initial stack is the program's, with the
 * auxiliary vector static glibc reads; the runtime starts on it, tells
 * the kernel where to reflect calls and jumps to the program's entry.
 */
#include <string.h>
#include <lwk/syscall.h>
#include "pct.h"

#define ALIGN_UP(x, a)  (((x) + (a) - 1) & ~((uint64_t)(a) - 1))

/* The program's length in j->image; *rt and *rt_len the runtime's image
   after it (0 if it did not come along). */
uint64_t pct_lxrt_split(const struct job *j, const void **rt,
                        uint64_t *rt_len)
{
    struct lwk_lxrt_trailer t;
    uint64_t n = j->image_size;

    *rt = NULL;
    *rt_len = 0;
    if (n < sizeof(t))
        return n;
    memcpy(&t, (const uint8_t *)j->image + n - sizeof(t), sizeof(t));
    if (t.magic != LWK_LXRT_MAGIC || t.offset > n - sizeof(t))
        return n;
    *rt = (const uint8_t *)j->image + t.offset;
    *rt_len = n - sizeof(t) - t.offset;
    return t.offset;
}

#define RT_HEAP     (8ull << 20)        /* the runtime's own malloc: Portals takes 4 MiB (ptl_lwk.c) */
#define AT_PHDR_    3
#define AT_UID      11
#define AT_EUID     12
#define AT_GID      13
#define AT_EGID     14
#define AT_HWCAP    16
#define AT_CLKTCK   17
#define AT_SECURE   23
#define AT_RANDOM   25
#define AT_HWCAP2   26

static uint64_t hwcap(void)
{
    uint32_t a = 1, b, c, d;

    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
    return d;                           /* what Linux passes on x86-64 */
}

/* The program's own headers, loaded with its first segment (gcc -static
   puts them there): glibc finds its TLS segment through AT_PHDR. */
static int find_phdrs(struct job *j, const uint8_t *heap, uint64_t *phdr,
                      uint64_t *phnum)
{
    const struct elf64_ehdr *e = (const void *)(heap + (j->elf.seg[0].va -
                                                        LWK_APP_BASE));

    if (memcmp(e->ident, "\177ELF", 4) != 0 ||
        e->phoff + (uint64_t)e->phnum * sizeof(struct elf64_phdr) >
            j->elf.seg[0].filesz) {
        pct_cannot_run(j, "its program headers are not in its first "
                       "loaded segment; link it with gcc -static's "
                       "default layout");
        return -1;
    }
    *phdr = j->elf.seg[0].va + e->phoff;
    *phnum = e->phnum;
    return 0;
}

static int start(struct job *j, long pid, const struct lwk_proc_map *m,
                 uint64_t rt_entry, uint64_t rt_heap, uint64_t heap,
                 uint64_t nid)
{
    uint8_t *stack = (uint8_t *)m->pct_va[LWK_REG_STACK];
    uint64_t ssize = m->size[LWK_REG_STACK], phdr, phnum, sp;
    uint64_t rnd = LWK_STACK_TOP - 16, tsc;

    if (find_phdrs(j, (const uint8_t *)m->pct_va[LWK_REG_HEAP], &phdr,
                   &phnum) < 0)
        return -1;
    /* AT_RANDOM's 16 bytes at the very top of the stack (stack cookies
       and pointer guards): not secret, but different every run. */
    __asm__ volatile("rdtsc; shlq $32, %%rdx; orq %%rdx, %%rax"
                     : "=a"(tsc) : : "rdx");
    for (int i = 0; i < 16; i++)
        stack[ssize - 16 + i] = (uint8_t)((tsc * 0x9E3779B97F4A7C15ull +
                                           nid + (uint64_t)i * 131) >>
                                          (8 * (i & 7)));
    uint64_t auxv[] = {
        AT_PHDR_, phdr, AT_PHENT, sizeof(struct elf64_phdr),
        AT_PHNUM, phnum, AT_PAGESZ, 4096, AT_ENTRY, j->elf.entry,
        AT_UID, 0, AT_EUID, 0, AT_GID, 0, AT_EGID, 0, AT_SECURE, 0,
        AT_HWCAP, hwcap(), AT_HWCAP2, 0, AT_CLKTCK, 100, AT_RANDOM, rnd,
        AT_LWK_HEAP_BASE, rt_heap, AT_LWK_HEAP_SIZE, RT_HEAP,
        AT_LWK_STACK_SIZE, ssize, AT_LWK_NID, nid,
        AT_LWK_RANK, (uint64_t)j->rank,
        AT_LWK_SIZE, (uint64_t)(j->size ? j->size : 1),
        AT_LWK_YOD_KEY0, j->yod_key.k0, AT_LWK_YOD_KEY1, j->yod_key.k1,
        AT_LWK_LINUX_BASE, LWK_APP_BASE, AT_LWK_LINUX_SIZE, heap,
        AT_LWK_LINUX_BRK, j->elf.hi, AT_LWK_LINUX_ENTRY, j->elf.entry,
        AT_LWK_NCPUS, pct_ncpus(), AT_LWK_CPUS, pct_cpus_own(j),
        AT_NULL, 0,
    };
    sp = ustack_build(stack, ssize - 16, rnd, j->argc,
                      (const char *const *)j->argv,
                      (const char *const *)j->envp, auxv);
    if (!sp || lwk_sys_proc_start(pid, (long)rt_entry, sp) < 0) {
        pct_cannot_run(j, "arguments do not fit on its stack");
        return -1;
    }
    j->auxv = pct_auxv_at(j, sp);
    return 0;
}

/* The Linux program's segments into the heap region (zeroed already). */
static void load_program(struct job *j, uint8_t *heap)
{
    for (int i = 0; i < j->elf.nseg; i++) {
        const struct elf_seg *s = &j->elf.seg[i];

        memcpy(heap + (s->va - LWK_APP_BASE),
               (const uint8_t *)j->image + s->offset, s->filesz);
    }
}

int pct_load_linux(struct job *j, uint64_t heap, uint64_t stack,
                   uint64_t nid)
{
    struct elf_image rt;
    struct lwk_proc_desc d;
    struct lwk_proc_map m;
    uint64_t rt_heap, need = ALIGN_UP(j->elf.hi - LWK_APP_BASE, 4096);
    const char *why;
    long pid, got;

    const void *rt_image;
    uint64_t rt_len;

    pct_lxrt_split(j, &rt_image, &rt_len);
    if (!rt_image) {
        pct_cannot_run(j, "a Linux program, but its runtime did not come "
                       "with it (run it with yod or tools/lwkrun; build "
                       "with make)");
        return -1;
    }
    if (elf_parse(rt_image, rt_len, LWK_APP_BASE, LWK_STACK_TOP, &rt,
                  &why) < 0 ||
        elf_layout(&rt, RT_HEAP, stack, &d, &rt_heap, &why) < 0) {
        pct_cannot_run(j, "the Linux runtime sent with it is broken: %s",
                       why);
        return -1;
    }
    if (j->elf.hi > d.text_va - LWK_PAGE_SIZE) {
        pct_cannot_run(j, "a Linux program must lie below %lu GiB",
                       d.text_va >> 30);
        return -1;
    }
    if ((pid = pct_create(j, &d, &m)) < 0)
        return -1;
    elf_load(&rt, rt_image, &d, (void *)m.pct_va[LWK_REG_TEXT],
             (void *)m.pct_va[LWK_REG_DATA]);
    rt_heap = ALIGN_UP(rt_heap, 4096);
    /* The image and, above it, the program's memory: all there is by
       default (yod -heap asks for less; never less than the image). */
    if (heap != PCT_HEAP_ALL)
        heap += need;
    got = pct_add_heap(j, pid, LWK_APP_BASE, heap,
                       d.text_va - LWK_PAGE_SIZE - LWK_APP_BASE,
                       LWK_HEAP_EXEC);
    if (got >= 0 && (uint64_t)got < need) {
        pct_cannot_run(j, "its image needs %lu KiB but the largest free "
                       "region is %lu KiB", need >> 10, (uint64_t)got >> 10);
        got = -1;
    }
    if (got < 0) {
        lwk_sys_proc_destroy(pid);
        return -1;
    }
    load_program(j, (uint8_t *)m.pct_va[LWK_REG_HEAP]);
    pct_keep_symbols(j);
    if (!j->image_shared)
        pct_release_image(j);
    pct_cpus_assign(j, pid);
    if (start(j, pid, &m, rt.entry, rt_heap,
              profile_reserve(j, LWK_APP_BASE, (uint64_t)got), nid) < 0) {
        pct_cpus_release(j);
        lwk_sys_proc_destroy(pid);
        return -1;
    }
    pct_loaded(j, pid, &m, LWK_APP_BASE, (uint64_t)got);
    return 0;
}
