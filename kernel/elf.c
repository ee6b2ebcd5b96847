/*
 * ELF64 executable checks (see include/elf.h).  Every field is checked
 * before it is used: the image may be hostile.
 */
#include "kernel.h"
#include "elf.h"

#define ET_EXEC         2
#define ET_DYN          3
#define EM_X86_64       62
#define PT_LOAD         1
#define PT_DYNAMIC      2
#define PT_INTERP       3

static int fail(const char **why, const char *msg)
{
    *why = msg;
    return -ENOEXEC;
}

static int check_header(const struct elf64_ehdr *e, uint64_t len,
                        const char **why)
{
    if (len < sizeof(*e) || e->ident[0] != 0x7F || e->ident[1] != 'E' ||
        e->ident[2] != 'L' || e->ident[3] != 'F')
        return fail(why, "not an ELF file; build it with lwkcc, or with "
                         "gcc -static for x86-64");
    if (e->ident[4] != 2 || e->ident[5] != 1)
        return fail(why, "not a 64-bit little-endian ELF file; build it "
                         "with lwkcc, or with gcc -static for x86-64");
    if (e->machine != EM_X86_64)
        return fail(why, "ELF file for another machine (not x86-64); "
                         "build it with lwkcc");
    if (e->type != ET_EXEC && e->type != ET_DYN)
        return fail(why, "not an executable (a relocatable object?); link "
                         "it with lwkcc, or with gcc -static");
    if (e->phentsize != sizeof(struct elf64_phdr) || e->phnum == 0 ||
        e->phoff > len || (uint64_t)e->phnum * sizeof(struct elf64_phdr) >
                              len - e->phoff)
        return fail(why, "truncated or corrupt ELF program headers");
    return 0;
}

#define SHT_SYMTAB      2
#define SHT_STRTAB      3

/* [off, off + size) lies within the len bytes of the file. */
static bool in_file(uint64_t len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

static int add_seg(struct elf_image *img, const struct elf64_phdr *p,
                   uint64_t len, uint64_t lo, uint64_t hi, const char **why)
{
    uint64_t va = p->vaddr + img->bias;
    struct elf_seg *s;
    int i;

    if (p->filesz > p->memsz)
        return fail(why, "corrupt ELF segment (file size above memory size)");
    if (!in_file(len, p->offset, p->filesz))
        return fail(why, "truncated ELF file (a segment lies past its end)");
    if (va < p->vaddr || va < lo || p->memsz > hi - lo ||
        va > hi - p->memsz)
        return fail(why, "ELF segment outside the user address range "
                         "(linked below 4 MiB? use lwkcc, or gcc -static "
                         "with its default addresses)");
    if (img->nseg == ELF_MAX_SEGS)
        return fail(why, "too many loadable ELF segments");
    /* Insert sorted by address; reject overlap with either neighbour. */
    for (i = img->nseg; i > 0 && img->seg[i - 1].va > va; i--)
        img->seg[i] = img->seg[i - 1];
    s = &img->seg[i];
    *s = (struct elf_seg){ va, p->memsz, p->filesz, p->offset,
                           p->flags & 7 };
    img->nseg++;
    if ((i > 0 && img->seg[i - 1].va + img->seg[i - 1].memsz > s->va) ||
        (i + 1 < img->nseg && s->va + s->memsz > img->seg[i + 1].va))
        return fail(why, "ELF segments overlap");
    return 0;
}

int elf_parse(const void *buf, uint64_t len, uint64_t user_lo,
              uint64_t user_hi, struct elf_image *img, const char **why)
{
    const struct elf64_ehdr *e = buf;
    int rc = check_header(e, len, why);

    if (rc)
        return rc;
    const struct elf64_phdr *ph = (const void *)((const uint8_t *)buf +
                                                 e->phoff);

    *img = (struct elf_image){ .entry = e->entry };
    for (int i = 0; i < e->phnum; i++) {
        if (ph[i].type == PT_INTERP)
            return fail(why, "dynamically linked (it needs ld.so and shared "
                             "libraries, which a node does not have); link "
                             "it with -static (gcc/g++/gfortran -static, "
                             "lwkc++, lwkfort) or build it with lwkcc");
        if (ph[i].type == PT_LWK)
            img->lwk = true;
    }
    /* A static PIE (ET_DYN without an interpreter) is placed at user_lo;
       its own start code applies its relocations. */
    if (e->type == ET_DYN) {
        uint64_t lowest = ~0ull;

        for (int i = 0; i < e->phnum; i++)
            if (ph[i].type == PT_LOAD && ph[i].memsz && ph[i].vaddr < lowest)
                lowest = ph[i].vaddr;
        if (lowest == ~0ull || lowest > user_lo)
            return fail(why, "position-independent ELF file with nothing "
                             "to load below 4 MiB");
        img->bias = user_lo - (lowest & ~0x1FFFFFull);
        img->entry += img->bias;
    }
    for (int i = 0; i < e->phnum; i++) {
        if (ph[i].type != PT_LOAD || ph[i].memsz == 0)
            continue;
        if ((rc = add_seg(img, &ph[i], len, user_lo, user_hi, why)))
            return rc;
    }
    if (img->nseg == 0)
        return fail(why, "ELF file has nothing to load");
    img->lo = img->seg[0].va;
    img->hi = img->seg[img->nseg - 1].va + img->seg[img->nseg - 1].memsz;
    for (int i = 0; i < img->nseg; i++)
        if ((img->seg[i].flags & ELF_PF_X) && img->entry >= img->seg[i].va &&
            img->entry < img->seg[i].va + img->seg[i].memsz)
            return 0;
    return fail(why, "ELF entry point is not in an executable segment");
}

int elf_find_symtab(const void *buf, uint64_t len, struct elf_symtab *t)
{
    const struct elf64_ehdr *e = buf;
    const struct elf64_shdr *sh;

    if (len < sizeof(*e) || e->shentsize != sizeof(*sh) ||
        !in_file(len, e->shoff, (uint64_t)e->shnum * sizeof(*sh)))
        return -1;
    sh = (const void *)((const uint8_t *)buf + e->shoff);
    for (int i = 0; i < e->shnum; i++) {
        if (sh[i].type != SHT_SYMTAB || sh[i].link >= e->shnum ||
            !in_file(len, sh[i].offset, sh[i].size))
            continue;
        if (!in_file(len, sh[sh[i].link].offset, sh[sh[i].link].size))
            return -1;
        *t = (struct elf_symtab){ sh[i].offset, sh[i].size,
                                  sh[sh[i].link].offset,
                                  sh[sh[i].link].size };
        return 0;
    }
    return -1;
}

/* The packed layout: headers, segments, symbols (8-aligned), names,
   three section headers (none, symbols, names; 8-aligned). */
struct packed {
    uint64_t segs, sym, str, shdrs, end;
    struct elf_symtab t;
    bool has_syms;
};

static struct packed pack_layout(const void *src, uint64_t len,
                                 const struct elf_image *img)
{
    struct packed k = { .segs = sizeof(struct elf64_ehdr) +
                                (img->nseg + img->lwk) *
                                sizeof(struct elf64_phdr) };

    k.sym = k.segs;
    for (int i = 0; i < img->nseg; i++)
        k.sym += img->seg[i].filesz;
    k.has_syms = elf_find_symtab(src, len, &k.t) == 0;
    if (!k.has_syms) {
        k.end = k.sym;
        return k;
    }
    k.sym = ALIGN_UP(k.sym, 8);
    k.str = k.sym + k.t.sym_size;
    k.shdrs = ALIGN_UP(k.str + k.t.str_size, 8);
    k.end = k.shdrs + 3 * sizeof(struct elf64_shdr);
    return k;
}

uint64_t elf_packed_size(const void *src, uint64_t len,
                         const struct elf_image *img)
{
    return pack_layout(src, len, img).end;
}

void elf_pack(const void *src, uint64_t len, const struct elf_image *img,
              void *dst)
{
    struct packed k = pack_layout(src, len, img);
    struct elf64_ehdr *e = dst;
    struct elf64_phdr *ph = (struct elf64_phdr *)(e + 1);
    struct elf64_shdr *sh = (struct elf64_shdr *)((uint8_t *)dst + k.shdrs);
    uint64_t off = k.segs;

    __builtin_memset(dst, 0, k.end);
    __builtin_memcpy(e, src, sizeof(*e));
    e->phoff = sizeof(*e);
    e->phnum = (uint16_t)(img->nseg + img->lwk);
    e->type = ET_EXEC;          /* a static PIE: placed already */
    e->entry = img->entry;
    e->shoff = e->shnum = e->shstrndx = 0;
    for (int i = 0; i < img->nseg; i++) {
        const struct elf_seg *s = &img->seg[i];

        ph[i] = (struct elf64_phdr){ PT_LOAD, s->flags, off, s->va, s->va,
                                     s->filesz, s->memsz, 1 };
        __builtin_memcpy((uint8_t *)dst + off,
                         (const uint8_t *)src + s->offset, s->filesz);
        off += s->filesz;
    }
    if (img->lwk)               /* the Q-Kernel program's mark stays */
        ph[img->nseg] = (struct elf64_phdr){ .type = PT_LWK };
    if (!k.has_syms)
        return;
    __builtin_memcpy((uint8_t *)dst + k.sym,
                     (const uint8_t *)src + k.t.sym_off, k.t.sym_size);
    __builtin_memcpy((uint8_t *)dst + k.str,
                     (const uint8_t *)src + k.t.str_off, k.t.str_size);
    e->shoff = k.shdrs;
    e->shnum = 3;
    sh[1] = (struct elf64_shdr){ .type = SHT_SYMTAB, .offset = k.sym,
                                 .size = k.t.sym_size, .link = 2,
                                 .addralign = 8, .entsize = 24 };
    sh[2] = (struct elf64_shdr){ .type = SHT_STRTAB,
                                 .offset = k.str, .size = k.t.str_size,
                                 .addralign = 1 };
}

#define P2M     0x200000UL
#define P4K     0x1000UL

int elf_layout(const struct elf_image *img, uint64_t heap, uint64_t stack,
               struct lwk_proc_desc *d, uint64_t *heap_base, const char **why)
{
    uint64_t text_end = 0, data_lo = 0;
    int i;

    for (i = 0; i < img->nseg && !(img->seg[i].flags & ELF_PF_W); i++)
        text_end = img->seg[i].va + img->seg[i].memsz;
    if (i == 0)
        return fail(why, "ELF file has no read-only text before its data");
    for (int j = i; j < img->nseg; j++)
        if (!(img->seg[j].flags & ELF_PF_W))
            return fail(why, "read-only ELF segment after writable data; "
                             "link with lwkcc's linker script");
    /* Regions start on 2 MB boundaries (so big ones can use 2 MB pages)
       but are only as long as their contents: the kernel backs a short
       one with 4 KiB pages. */
    d->text_va = ALIGN_DOWN(img->lo, P2M);
    d->text_size = ALIGN_UP(text_end, P4K) - d->text_va;
    *heap_base = ALIGN_UP(img->hi, 16);
    if (i < img->nseg) {
        data_lo = ALIGN_DOWN(img->seg[i].va, P2M);
        if (data_lo < d->text_va + d->text_size)
            return fail(why, "ELF data shares a 2 MB page with text; link "
                             "with -z max-page-size=0x200000 (lwkcc does)");
    } else {
        data_lo = d->text_va + d->text_size;
    }
    d->data_va = data_lo;
    if (heap > LWK_STACK_TOP || stack > LWK_STACK_TOP)
        return fail(why, "heap or stack size too large");
    d->data_size = ALIGN_UP(*heap_base - data_lo + heap, P4K);
    d->stack_size = ALIGN_UP(stack ? stack : 1, P4K);
    d->ptl_pid = 0;                     /* not bound: the PCT's choice */
    if (d->data_va + d->data_size + P2M > LWK_STACK_TOP - d->stack_size)
        return fail(why, "heap and stack do not fit in the address space");
    return 0;
}

void elf_load(const struct elf_image *img, const void *buf,
              const struct lwk_proc_desc *d, void *text, void *data)
{
    for (int i = 0; i < img->nseg; i++) {
        const struct elf_seg *s = &img->seg[i];
        uint8_t *dst = (s->flags & ELF_PF_W)
            ? (uint8_t *)data + (s->va - d->data_va)
            : (uint8_t *)text + (s->va - d->text_va);
        __builtin_memcpy(dst, (const uint8_t *)buf + s->offset, s->filesz);
    }
}

/* Push `n` bytes at the top of what is used so far; 0 if no room. */
static uint64_t push(uint8_t *base, uint64_t *used, uint64_t size,
                     const void *src, uint64_t n)
{
    if (n > size - *used)
        return 0;
    *used += n;
    __builtin_memcpy(base + size - *used, src, n);
    return 1;
}

static uint64_t count_strs(const char *const *v)
{
    uint64_t n = 0;

    while (v && v[n])
        n++;
    return n;
}

uint64_t ustack_build(void *stack, uint64_t stack_size, uint64_t stack_top_va,
                      int argc, const char *const *argv,
                      const char *const *envp, const uint64_t *auxv)
{
    uint8_t *base = stack;
    uint64_t used = 0, nenv = count_strs(envp), naux = 0, words, sp;
    uint64_t ptrs[256];

    while (auxv[2 * naux] != AT_NULL)
        naux++;
    if ((uint64_t)argc + nenv > ARRAY_SIZE(ptrs))
        return 0;
    /* Strings first (highest addresses), remembering where each landed. */
    for (uint64_t i = 0; i < (uint64_t)argc + nenv; i++) {
        const char *s = i < (uint64_t)argc ? argv[i] : envp[i - argc];
        if (!push(base, &used, stack_size, s, __builtin_strlen(s) + 1))
            return 0;
        ptrs[i] = stack_top_va - used;
    }
    used = ALIGN_UP(used, 16);
    /* Then argc, argv[], NULL, envp[], NULL, auxv pairs: rsp % 16 == 0. */
    words = 1 + argc + 1 + nenv + 1 + 2 * (naux + 1);
    used += (words & 1) * 8;
    if (words * 8 > stack_size - used)
        return 0;
    used += words * 8;
    sp = stack_top_va - used;
    uint64_t *w = (uint64_t *)(base + stack_size - used), k = 0;
    w[k++] = argc;
    for (int i = 0; i < argc; i++)
        w[k++] = ptrs[i];
    w[k++] = 0;
    for (uint64_t i = 0; i < nenv; i++)
        w[k++] = ptrs[argc + i];
    w[k++] = 0;
    for (uint64_t i = 0; i < 2 * (naux + 1); i++)
        w[k++] = auxv[i];
    return sp;
}
