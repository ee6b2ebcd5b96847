/*
 * ELF64 executable checks (kernel/elf.c), shared by the kernel (which
 * loads the PCT) and the PCT (which loads applications).  Pure logic:
 * unit-tested on the host with valid and hostile images.
 */
#ifndef ELF_H
#define ELF_H

#include <stdbool.h>
#include <stdint.h>

#define ELF_MAX_SEGS    8
#define ELF_PF_X        1
#define ELF_PF_W        2
#define ELF_PF_R        4

/* The on-disk headers (ELF-64 Object File Format, sections 3 and 6). */
struct elf64_ehdr {
    uint8_t ident[16];
    uint16_t type, machine;
    uint32_t version;
    uint64_t entry, phoff, shoff;
    uint32_t flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct elf64_shdr {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t addralign, entsize;
};

_Static_assert(sizeof(struct elf64_ehdr) == 64, "ELF64 header");
_Static_assert(sizeof(struct elf64_shdr) == 64, "ELF64 section header");
_Static_assert(sizeof(struct elf64_phdr) == 56, "ELF64 program header");

struct elf_seg {
    uint64_t va, memsz, filesz, offset;
    uint32_t flags;             /* ELF_PF_* */
};

/* A Q-Kernel program (built by lwkcc) carries an empty program header of
   this type (libc/app.ld); any other static executable is a Linux one,
   run with the Linux personality (docs/LINUX.md). */
#define PT_LWK          0x6c776b00u

struct elf_image {
    uint64_t entry;
    uint64_t bias;              /* added to a static PIE's addresses */
    bool lwk;                   /* has PT_LWK */
    uint64_t lo, hi;            /* lowest and highest loaded address */
    int nseg;
    struct elf_seg seg[ELF_MAX_SEGS];   /* PT_LOAD, sorted by address */
};

/*
 * Check that `buf` (len bytes) is a static x86-64 executable whose
 * loadable segments lie in the file, do not overlap, and fit in
 * [user_lo, user_hi).  Returns 0, or -ENOEXEC with *why saying what is
 * wrong in words a user can act on.
 */
int elf_parse(const void *buf, uint64_t len, uint64_t user_lo,
              uint64_t user_hi, struct elf_image *img, const char **why);

/* Where the first symbol table and its string table lie in `buf`, both
   checked to be inside its `len` bytes: 0, or -1 if there is none. */
struct elf_symtab {
    uint64_t sym_off, sym_size, str_off, str_size;
};
int elf_find_symtab(const void *buf, uint64_t len, struct elf_symtab *t);

/*
 * The image reduced to what a node reads: the header, one program header
 * per loadable segment and the segments' file bytes back to back, then
 * the symbol and string tables (for function names in fault reports) --
 * no debug information, nor the padding that puts segments on 2 MB file
 * offsets.  A node loads the same bytes from it as from the file, which is
 * ~30 times larger for a program built with -g.  `img` is elf_parse's for
 * the `len` bytes at `src`; `dst` holds elf_packed_size() bytes.
 */
uint64_t elf_packed_size(const void *src, uint64_t len,
                         const struct elf_image *img);
void elf_pack(const void *src, uint64_t len, const struct elf_image *img,
              void *dst);

#endif

#include "uapi/abi.h"

/*
 * The process layout for an executable (shared by kernel and PCT): text
 * region from the first loadable page through the last read-only segment;
 * data region from the first writable segment's page through bss plus
 * `heap` bytes; a stack region of `stack` bytes.  Regions start on 2 MB
 * boundaries; sizes round up to 4 KiB.
 * *heap_base is set to the first byte after bss (16-byte aligned).
 */
int elf_layout(const struct elf_image *img, uint64_t heap, uint64_t stack,
               struct lwk_proc_desc *d, uint64_t *heap_base,
               const char **why);

/* Copy the segments of `buf` into the regions, seen at `text` and `data`
   (the PCT's or kernel's view), zero-filling bss.  The regions must be
   zeroed already.  Cannot fail once elf_parse and elf_layout accepted. */
void elf_load(const struct elf_image *img, const void *buf,
              const struct lwk_proc_desc *d, void *text, void *data);

/*
 * Build the initial stack (System V x86-64) at the top of the stack
 * region, seen at `stack` (kernel or PCT view) and at `stack_top_va` in
 * the process: argc, argv, envp, auxv and the strings.  `auxv` is pairs
 * ending with AT_NULL.  Returns the process's initial rsp, or 0 if it does
 * not fit in `stack_size` bytes.
 */
uint64_t ustack_build(void *stack, uint64_t stack_size, uint64_t stack_top_va,
                      int argc, const char *const *argv,
                      const char *const *envp, const uint64_t *auxv);
