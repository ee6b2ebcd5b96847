/*
 * yod's core files (yod/core.c), read back as gdb would: the ELF header of
 * an x86-64 ET_CORE, a PT_NOTE whose notes are Linux's (NT_PRSTATUS per
 * thread with the signal and user_regs_struct, the thread that died
 * first, NT_FPREGSET after each, NT_PRPSINFO and NT_AUXV after the
 * first), a PT_LOAD per region with its address, and the regions' bytes
 * where they were used, holes (zeros) elsewhere; the size limit leaving
 * whole regions out, the stack last.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <unistd.h>
#include <cmocka.h>

#include "core.h"

#define STACK_VA    0x7fffffd00000ull
#define DATA_VA     0x600000ull
#define HEAP_VA     0x800000ull
#define AUXV_VA     (STACK_VA + 0x1000)

static struct yod_dbg_info info;
static struct yod_dbg_used used_map;
static char path[64];

/* The rank's memory: each byte its address's low byte, but the auxv. */
static long fake_read(void *arg, uint64_t addr, void *buf, size_t len)
{
    uint8_t *b = buf;
    static const uint64_t aux[] = { AT_PAGESZ, 4096, AT_ENTRY, 0x400100,
                                    AT_NULL, 0 };

    (void)arg;
    for (size_t i = 0; i < len; i++) {
        uint64_t a = addr + i;
        b[i] = a >= AUXV_VA && a < AUXV_VA + sizeof(aux)
               ? ((const uint8_t *)aux)[a - AUXV_VA] : (uint8_t)a;
    }
    return (long)len;
}

/* Of the heap only the second chunk was written; all of the rest. */
static const struct yod_dbg_used *fake_used(void *arg, int region)
{
    (void)arg;
    memset(&used_map, 0, sizeof(used_map));
    used_map.chunk = 4096;
    used_map.nchunks = info.size[region] / 4096;
    for (uint64_t k = 0; k < used_map.nchunks; k++)
        if (region != LWK_REG_HEAP || k == 1)
            used_map.bits[k / 8] |= (uint8_t)(1 << (k % 8));
    return &used_map;
}

static void setup_info(void)
{
    memset(&info, 0, sizeof(info));
    info.va[LWK_REG_DATA] = DATA_VA;
    info.size[LWK_REG_DATA] = 8192;
    info.va[LWK_REG_STACK] = STACK_VA;
    info.size[LWK_REG_STACK] = 16384;
    info.va[LWK_REG_HEAP] = HEAP_VA;
    info.size[LWK_REG_HEAP] = 4 * 4096;
    info.auxv = AUXV_VA;
    info.nthreads = 2;
    info.cpu[0] = 0;
    info.cpu[1] = 1;
    info.regs[0].rip = 0x400200;
    info.regs[0].rsp = STACK_VA + 0x3000;
    info.regs[1].rip = 0x400300;        /* the one that faulted */
    info.regs[1].rbp = 0x1234;
    info.regs[1].fpu[24] = 0x80;        /* MXCSR 0x1f80 */
    info.regs[1].fpu[25] = 0x1f;
}

static struct core_src src(void)
{
    return (struct core_src){ .info = &info, .sig = 11, .first_cpu = 1,
                              .name = "heat", .args = "heat fault 1",
                              .read = fake_read, .used = fake_used };
}

static uint8_t *slurp(long *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b;

    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    rewind(f);
    b = malloc((size_t)*len);
    assert_int_equal(fread(b, 1, (size_t)*len, f), (size_t)*len);
    fclose(f);
    return b;
}

static void headers_and_notes(void **st)
{
    struct core_src s = src();
    long size, len;
    uint8_t *b;

    (void)st;
    setup_info();
    size = core_write(path, &s, UINT64_MAX);
    assert_true(size > 0);
    b = slurp(&len);
    assert_int_equal(len, size);
    const Elf64_Ehdr *eh = (const void *)b;
    assert_memory_equal(eh->e_ident, ELFMAG, SELFMAG);
    assert_int_equal(eh->e_type, ET_CORE);
    assert_int_equal(eh->e_machine, EM_X86_64);
    assert_int_equal(eh->e_phnum, 1 + 3);       /* no text region here */
    const Elf64_Phdr *ph = (const void *)(b + eh->e_phoff);
    assert_int_equal(ph[0].p_type, PT_NOTE);
    /* Walk the notes: types in order, and what they say. */
    uint32_t types[16];
    int n = 0;
    for (uint64_t off = ph[0].p_offset; off < ph[0].p_offset + ph[0].p_filesz;) {
        const Elf64_Nhdr *nh = (const void *)(b + off);
        const uint8_t *desc = b + off + sizeof(*nh) + 8;
        assert_memory_equal(b + off + sizeof(*nh), "CORE", 5);
        types[n++] = nh->n_type;
        /* Notes are 4-byte aligned: copied out before they are read. */
        if (nh->n_type == NT_PRSTATUS && n == 1) {
            struct elf_prstatus p;
            struct user_regs_struct u;
            assert_int_equal(nh->n_descsz, sizeof(p));
            memcpy(&p, desc, sizeof(p));
            memcpy(&u, &p.pr_reg, sizeof(u));
            assert_int_equal(p.pr_cursig, 11);
            assert_int_equal(p.pr_pid, 2);      /* CPU 1: thread 2 */
            assert_true(u.rip == 0x400300 && u.rbp == 0x1234);
        }
        if (nh->n_type == NT_AUXV) {
            uint64_t a[6];
            assert_int_equal(nh->n_descsz, 48);
            memcpy(a, desc, sizeof(a));
            assert_true(a[2] == AT_ENTRY && a[3] == 0x400100 && a[4] == 0);
        }
        if (nh->n_type == NT_FPREGSET && n == 4)
            assert_int_equal(desc[25], 0x1f);
        off += sizeof(*nh) + 8 + ((nh->n_descsz + 3) & ~3u);
    }
    uint32_t want[] = { NT_PRSTATUS, NT_PRPSINFO, NT_AUXV, NT_FPREGSET,
                        NT_PRSTATUS, NT_FPREGSET };
    assert_int_equal(n, 6);
    assert_memory_equal(types, want, sizeof(want));
    free(b);
}

static void regions(void **st)
{
    struct core_src s = src();
    long len;
    uint8_t *b;

    (void)st;
    setup_info();
    assert_true(core_write(path, &s, UINT64_MAX) > 0);
    b = slurp(&len);
    const Elf64_Ehdr *eh = (const void *)b;
    const Elf64_Phdr *ph = (const void *)(b + eh->e_phoff);
    int seen = 0;
    for (int i = 1; i < eh->e_phnum; i++) {
        assert_int_equal(ph[i].p_type, PT_LOAD);
        assert_int_equal(ph[i].p_offset % 4096, 0);
        assert_true(ph[i].p_offset + ph[i].p_filesz <= (uint64_t)len);
        const uint8_t *m = b + ph[i].p_offset;
        if (ph[i].p_vaddr == STACK_VA) {
            assert_int_equal(ph[i].p_filesz, 16384);
            assert_int_equal(m[0x10], 0x10);    /* the address's byte */
            seen |= 1;
        } else if (ph[i].p_vaddr == HEAP_VA) {
            assert_int_equal(m[0], 0);          /* never written: a hole */
            assert_int_equal(m[4096 + 7], 7);   /* the chunk written */
            assert_int_equal(m[3 * 4096 + 7], 0);
            seen |= 2;
        } else if (ph[i].p_vaddr == DATA_VA) {
            assert_int_equal(m[0x22], 0x22);
            seen |= 4;
        }
    }
    assert_int_equal(seen, 7);
    free(b);
}

/* ulimit -c: whole regions go, the stack stays longest. */
static void limit(void **st)
{
    struct core_src s = src();
    long size, len;
    uint8_t *b;

    (void)st;
    setup_info();
    size = core_write(path, &s, 6 * 4096 + 16384);
    assert_true(size > 0 && size <= 6 * 4096 + 16384);
    b = slurp(&len);
    const Elf64_Ehdr *eh = (const void *)b;
    const Elf64_Phdr *ph = (const void *)(b + eh->e_phoff);
    assert_int_equal(eh->e_phnum, 1 + 2);       /* stack, data; no heap */
    assert_true(ph[1].p_vaddr == STACK_VA && ph[2].p_vaddr == DATA_VA);
    free(b);
    /* Notes only, when nothing more fits. */
    assert_true(core_write(path, &s, 4096) > 0);
    b = slurp(&len);
    assert_int_equal(((const Elf64_Ehdr *)b)->e_phnum, 1);
    free(b);
}

/* A read that fails is an error, never a core with wrong bytes. */
static long failing_read(void *arg, uint64_t addr, void *buf, size_t len)
{
    (void)arg;
    (void)addr;
    (void)buf;
    (void)len;
    return -1;
}

static void read_fails(void **st)
{
    struct core_src s = src();

    (void)st;
    setup_info();
    s.read = failing_read;
    assert_int_equal(core_write(path, &s, UINT64_MAX), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(headers_and_notes), cmocka_unit_test(regions),
        cmocka_unit_test(limit), cmocka_unit_test(read_fails),
    };
    int rc;

    snprintf(path, sizeof(path), "/tmp/test_core.%d", (int)getpid());
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return rc;
}
