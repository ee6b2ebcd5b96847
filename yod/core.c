/* SPDX-License-Identifier: MIT */
/*
 * core.c: an ELF core file as Linux writes one for x86-64, so gdb reads it
 * as it reads Linux's (the System V gABI's ET_CORE; the notes are Linux's:
 * <sys/procfs.h>, include/uapi/linux/elf.h):
 *   ELF header, PT_NOTE, one PT_LOAD per region of the rank (its virtual
 *   address and size, the region's rights);
 *   notes "CORE": for each thread NT_PRSTATUS (the signal, the thread's
 *   id, its general registers as struct user_regs_struct) and
 *   NT_FPREGSET (its FXSAVE image), the first thread being the one that
 *   died, and after it NT_PRPSINFO (name, arguments) and NT_AUXV;
 *   the regions' bytes, each at a page-aligned offset.
 * Only what the rank wrote travels from its node: a region's chunks that
 * were never written are still zeros (regions are zeroed when made), and
 * stay holes in the file (they read as zeros).  The size limit (ulimit
 * -c) leaves whole regions out, the stack last: gdb needs it most.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <unistd.h>

#include "core.h"

#define PAGE        4096ull
#define NOTE_MAX    (64 * 1024)
#define MOVE        (1u << 20)          /* bytes read at a time */

/* The order regions go in while the limit allows: stack, data, heap,
   text (the program's text is in its file anyway). */
static const int order[LWK_NREGIONS] = {
    LWK_REG_STACK, LWK_REG_DATA, LWK_REG_HEAP, LWK_REG_TEXT,
};

struct notes {
    uint8_t *b;
    size_t n;
};

static void note(struct notes *nt, uint32_t type, const void *desc,
                 size_t len)
{
    Elf64_Nhdr h = { .n_namesz = 5, .n_descsz = (Elf64_Word)len,
                     .n_type = type };
    size_t need = sizeof(h) + 8 + ((len + 3) & ~(size_t)3);

    if (nt->n + need > NOTE_MAX)
        return;
    memcpy(nt->b + nt->n, &h, sizeof(h));
    memcpy(nt->b + nt->n + sizeof(h), "CORE\0\0\0", 8);
    memcpy(nt->b + nt->n + sizeof(h) + 8, desc, len);
    nt->n += need;
}

static void prstatus(struct notes *nt, const struct lwk_dbg_regs *r,
                     int cpu, int sig)
{
    struct elf_prstatus p;
    struct user_regs_struct *u = (struct user_regs_struct *)&p.pr_reg;

    memset(&p, 0, sizeof(p));
    p.pr_info.si_signo = sig;
    p.pr_cursig = (short)sig;
    p.pr_pid = cpu + 1;         /* gdb's thread id, as under yod -debug */
    *u = (struct user_regs_struct){
        .r15 = r->r15, .r14 = r->r14, .r13 = r->r13, .r12 = r->r12,
        .rbp = r->rbp, .rbx = r->rbx, .r11 = r->r11, .r10 = r->r10,
        .r9 = r->r9, .r8 = r->r8, .rax = r->rax, .rcx = r->rcx,
        .rdx = r->rdx, .rsi = r->rsi, .rdi = r->rdi, .orig_rax = -1ull,
        .rip = r->rip, .cs = r->cs, .eflags = r->rflags, .rsp = r->rsp,
        .ss = r->ss, .fs_base = r->fs_base, .gs_base = r->gs_base,
    };
    p.pr_fpvalid = 1;
    note(nt, NT_PRSTATUS, &p, sizeof(p));
}

static void prpsinfo(struct notes *nt, const char *name, const char *args)
{
    struct elf_prpsinfo p;

    memset(&p, 0, sizeof(p));
    p.pr_sname = 'R';
    strncpy(p.pr_fname, name, sizeof(p.pr_fname) - 1);
    strncpy(p.pr_psargs, args, sizeof(p.pr_psargs) - 1);
    note(nt, NT_PRPSINFO, &p, sizeof(p));
}

/* The auxiliary vector up to AT_NULL's pair, as the rank has it. */
static void auxv(struct notes *nt, const struct core_src *src)
{
    uint64_t v[2 * 64];
    long got;
    size_t n = 0;

    if (!src->info->auxv ||
        (got = src->read(src->arg, src->info->auxv, v, sizeof(v))) < 16)
        return;
    while (n + 2 <= (size_t)got / 8 && v[n])
        n += 2;
    if (n + 2 <= (size_t)got / 8)
        note(nt, NT_AUXV, v, (n + 2) * 8);
}

/* Each thread's registers, the one that died first (gdb's current
   thread); the process's notes after the first. */
static void make_notes(struct notes *nt, const struct core_src *src)
{
    const struct yod_dbg_info *in = src->info;
    uint32_t idx[YOD_DBG_THREADS], n = 0;

    for (uint32_t i = 0; i < in->nthreads; i++)
        if ((int)in->cpu[i] == src->first_cpu)
            idx[n++] = i;
    for (uint32_t i = 0; i < in->nthreads; i++)
        if ((int)in->cpu[i] != src->first_cpu)
            idx[n++] = i;
    for (uint32_t k = 0; k < n; k++) {
        const struct lwk_dbg_regs *r = &in->regs[idx[k]];
        prstatus(nt, r, (int)in->cpu[idx[k]], src->sig);
        if (k == 0) {
            prpsinfo(nt, src->name, src->args);
            auxv(nt, src);
        }
        note(nt, NT_FPREGSET, r->fpu, sizeof(r->fpu));
    }
}

static uint32_t flags_of(int region)
{
    return region == LWK_REG_TEXT ? PF_R | PF_X : PF_R | PF_W;
}

/* Bytes [from, to) of region i, read and written at off + from. */
static int copy(int fd, const struct core_src *src, int i, uint64_t from,
                uint64_t to, uint64_t off, uint8_t *buf)
{
    for (uint64_t at = from; at < to; at += MOVE) {
        size_t n = to - at < MOVE ? (size_t)(to - at) : MOVE;
        if (src->read(src->arg, src->info->va[i] + at, buf, n) != (long)n ||
            pwrite(fd, buf, n, (off_t)(off + at)) != (ssize_t)n)
            return -1;
    }
    return 0;
}

static int used_bit(const struct yod_dbg_used *u, uint64_t k)
{
    return !u || (k < u->nchunks && (u->bits[k / 8] >> (k % 8) & 1));
}

/* Region i's used chunks (all of it without a map), run by run, at
   offset `off` in the file: 0, or -1. */
static int dump_region(int fd, const struct core_src *src, int i,
                       uint64_t off, uint8_t *buf)
{
    const struct yod_dbg_used *u = src->used ? src->used(src->arg, i) : NULL;
    uint64_t size = src->info->size[i], chunk = u ? u->chunk : size;

    if ((src->used && !u) || !chunk)
        return -1;
    for (uint64_t k = 0; k * chunk < size;) {
        uint64_t from = k * chunk;
        if (!used_bit(u, k)) {
            k++;
            continue;
        }
        while (k * chunk < size && used_bit(u, k))
            k++;
        if (copy(fd, src, i, from, k * chunk < size ? k * chunk : size, off,
                 buf) < 0)
            return -1;
    }
    return 0;
}

long core_write(const char *path, const struct core_src *src,
                uint64_t limit)
{
    const struct yod_dbg_info *in = src->info;
    struct notes nt = { calloc(1, NOTE_MAX), 0 };
    Elf64_Phdr ph[1 + LWK_NREGIONS];
    Elf64_Ehdr eh = {
        .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
                     ELFDATA2LSB, EV_CURRENT, ELFOSABI_NONE },
        .e_type = ET_CORE, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
        .e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
        .e_phentsize = sizeof(Elf64_Phdr),
    };
    uint64_t at, region_off[LWK_NREGIONS];
    uint8_t *buf = malloc(MOVE);
    int fd = -1, nph = 1, saved;
    long rc = -1;

    if (!nt.b || !buf)
        goto out;
    make_notes(&nt, src);
    /* Where everything goes: notes after the headers, regions after. */
    at = sizeof(eh) + sizeof(ph) + nt.n;
    ph[0] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = sizeof(eh) +
                          sizeof(ph), .p_filesz = nt.n, .p_align = 4 };
    for (int k = 0; k < LWK_NREGIONS; k++) {
        int i = order[k];
        uint64_t off = (at + PAGE - 1) & ~(PAGE - 1);
        region_off[i] = 0;
        if (!in->size[i] || off + in->size[i] > limit)
            continue;           /* none, or past the limit: left out */
        region_off[i] = off;
        ph[nph++] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = flags_of(i),
                                  .p_offset = off, .p_vaddr = in->va[i],
                                  .p_filesz = in->size[i],
                                  .p_memsz = in->size[i], .p_align = PAGE };
        at = off + in->size[i];
    }
    eh.e_phnum = (Elf64_Half)nph;
    for (int k = nph; k < 1 + LWK_NREGIONS; k++)
        ph[k] = (Elf64_Phdr){ .p_type = PT_NULL };
    if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
        goto out;
    if (ftruncate(fd, (off_t)at) < 0 ||
        pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
        pwrite(fd, ph, sizeof(ph), sizeof(eh)) != sizeof(ph) ||
        pwrite(fd, nt.b, nt.n, sizeof(eh) + sizeof(ph)) != (ssize_t)nt.n)
        goto out;
    for (int i = 0; i < LWK_NREGIONS; i++)
        if (region_off[i] && dump_region(fd, src, i, region_off[i], buf) < 0) {
            errno = EIO;
            goto out;
        }
    rc = (long)at;
out:
    saved = errno;
    if (fd >= 0 && close(fd) < 0 && rc >= 0)
        rc = -1;
    free(nt.b);
    free(buf);
    errno = saved;
    return rc;
}
