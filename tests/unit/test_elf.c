/*
 * Host tests of the ELF checks, process layout and initial stack
 * (kernel/elf.c), with crafted images: valid, truncated, overlapping,
 * wrong machine, dynamic, huge sizes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "errno.h"
#include "elf.h"

#define M2 0x200000UL
#define LO LWK_APP_BASE
#define HI LWK_STACK_TOP

static uint8_t file[8192];
static struct elf64_ehdr *eh = (struct elf64_ehdr *)file;
static struct elf64_phdr *ph = (struct elf64_phdr *)(file + 64);
static struct elf_image img;
static const char *why;

/* A good image: text at 4 MiB (RX), data on the next 2 MB page (RW). */
static void good(void)
{
    memset(file, 0, sizeof(file));
    memcpy(eh->ident, "\177ELF\2\1\1", 7);
    eh->type = 2;
    eh->machine = 62;
    eh->entry = LO + 0x100;
    eh->phoff = 64;
    eh->phentsize = sizeof(struct elf64_phdr);
    eh->phnum = 2;
    ph[0] = (struct elf64_phdr){ 1, 5, 0x1000, LO, LO, 0x800, 0x800, M2 };
    ph[1] = (struct elf64_phdr){ 1, 6, 0x1800, LO + M2, LO + M2, 0x100, 0x5000, M2 };
}

static int parse(uint64_t len)
{
    return elf_parse(file, len, LO, HI, &img, &why);
}

static void valid_image_parses(void **s)
{
    (void)s;
    good();
    assert_int_equal(parse(sizeof(file)), 0);
    assert_int_equal(img.nseg, 2);
    assert_int_equal(img.entry, LO + 0x100);
    assert_int_equal(img.lo, LO);
    assert_int_equal(img.hi, LO + M2 + 0x5000);
}

static void expect_refused(const char *what)
{
    assert_int_equal(parse(sizeof(file)), -ENOEXEC);
    assert_non_null(strstr(why, what));
}

static void bad_headers_are_refused(void **s)
{
    (void)s;
    good(); file[1] = 'X'; expect_refused("not an ELF");
    good(); eh->ident[4] = 1; expect_refused("64-bit");
    good(); eh->machine = 183; expect_refused("another machine");
    good(); eh->type = 1; expect_refused("not an executable");
    good(); eh->phnum = 200; expect_refused("program headers");
    good(); eh->phoff = ~0ULL - 10; expect_refused("program headers");
    good(); eh->phentsize = 32; expect_refused("program headers");
    good(); assert_int_equal(parse(40), -ENOEXEC);  /* shorter than a header */
}

static void truncated_segment_is_refused(void **s)
{
    (void)s;
    good();
    assert_int_equal(parse(0x1000 + 0x100), -ENOEXEC);
    assert_non_null(strstr(why, "truncated"));
    good(); ph[1].offset = ~0ULL; expect_refused("truncated");
    good(); ph[1].filesz = 0x6000; expect_refused("file size above");
}

static void overlapping_segments_are_refused(void **s)
{
    (void)s;
    good(); ph[1].vaddr = LO + 0x400; expect_refused("overlap");
    good(); ph[0].vaddr = LO + M2 + 0x10; ph[1].vaddr = LO + M2;
    eh->entry = LO + M2 + 0x20; expect_refused("overlap");
}

static void huge_or_outside_sizes_are_refused(void **s)
{
    (void)s;
    good(); ph[1].memsz = ~0ULL; expect_refused("outside the user");
    good(); ph[1].vaddr = ~0ULL - 0x10; expect_refused("outside the user");
    good(); ph[0].vaddr = 0x1000; eh->entry = 0x1100; expect_refused("outside the user");
    good(); ph[1].vaddr = HI; expect_refused("outside the user");
}

static void entry_and_dynamic_checked(void **s)
{
    (void)s;
    good(); eh->entry = LO + M2; expect_refused("entry point");
    good(); ph[1].type = 3; expect_refused("dynamically linked");
    good(); ph[0].type = 4; ph[1].type = 4; expect_refused("nothing to load");
}

static void layout_places_regions(void **s)
{
    struct lwk_proc_desc d;
    uint64_t heap_base;
    (void)s;
    good();
    assert_int_equal(parse(sizeof(file)), 0);
    assert_int_equal(elf_layout(&img, 10 << 20, 1, &d, &heap_base, &why), 0);
    assert_int_equal(d.text_va, LO);
    assert_int_equal(d.text_size, 0x1000);     /* 0x800 of text: one page */
    assert_int_equal(d.data_va, LO + M2);
    assert_int_equal(heap_base, LO + M2 + 0x5000);
    assert_true(d.data_va + d.data_size - heap_base >= (10 << 20));
    assert_true(d.data_va + d.data_size - heap_base < (10 << 20) + 0x1000);
    assert_int_equal(d.data_size % 0x1000, 0);
    assert_int_equal(d.stack_size, 0x1000);
    assert_int_equal(elf_layout(&img, ~0ULL / 2, M2, &d, &heap_base, &why), -ENOEXEC);
}

static void text_after_data_is_refused(void **s)
{
    struct lwk_proc_desc d;
    uint64_t hb;
    (void)s;
    good();
    ph[0].flags = 6;
    ph[1].flags = 5;
    eh->entry = LO + M2;
    assert_int_equal(parse(sizeof(file)), 0);
    assert_int_equal(elf_layout(&img, 0, M2, &d, &hb, &why), -ENOEXEC);
}

static void load_copies_and_leaves_bss_zero(void **s)
{
    static uint8_t text[M2], data[M2];
    struct lwk_proc_desc d;
    uint64_t hb;
    (void)s;
    good();
    memset(file + 0x1000, 0xAB, 0x800);
    memset(file + 0x1800, 0xCD, 0x100);
    assert_int_equal(parse(sizeof(file)), 0);
    assert_int_equal(elf_layout(&img, 0, M2, &d, &hb, &why), 0);
    elf_load(&img, file, &d, text, data);
    assert_int_equal(text[0], 0xAB);
    assert_int_equal(text[0x7FF], 0xAB);
    assert_int_equal(text[0x800], 0);
    assert_int_equal(data[0xFF], 0xCD);
    assert_int_equal(data[0x100], 0);
}

/* The packed image parses to the same segments, loads the same bytes and
   keeps the symbol and string tables, and holds nothing else (here: a
   program header that is not PT_LOAD, a debug section, padding). */
static void packed_image_loads_the_same(void **s)
{
    static uint8_t text[M2], data[M2], text2[M2], data2[M2], packed[8192];
    struct elf64_shdr *sh = (struct elf64_shdr *)(file + 0x1C00);
    struct elf_image img2;
    struct elf_symtab t, t2;
    struct lwk_proc_desc d, d2;
    uint64_t hb, hb2, n;
    (void)s;
    good();
    for (int i = 0x1000; i < (int)sizeof(file); i++)
        file[i] = (uint8_t)(i * 7 + 3);
    eh->phnum = 3;
    ph[2] = (struct elf64_phdr){ 4, 4, 0x1F00, 0, 0, 0x80, 0x80, 8 };
    eh->shoff = 0x1C00;
    eh->shentsize = sizeof(*sh);
    eh->shnum = 4;
    memset(sh, 0, 4 * sizeof(*sh));
    sh[1] = (struct elf64_shdr){ .type = 1, .offset = 0x1900, .size = 0x100 };
    sh[2] = (struct elf64_shdr){ .type = 2, .offset = 0x1A00, .size = 0x30,
                                 .link = 3, .entsize = 24 };
    sh[3] = (struct elf64_shdr){ .type = 3, .offset = 0x1B00, .size = 0x21 };
    assert_int_equal(parse(sizeof(file)), 0);
    n = elf_packed_size(file, sizeof(file), &img);
    assert_int_equal(n, 64 + 2 * 56 + 0x800 + 0x100 + 0x30 + 0x21 + 7 + 3 * 64);
    elf_pack(file, sizeof(file), &img, packed);
    assert_int_equal(elf_parse(packed, n, LO, HI, &img2, &why), 0);
    assert_int_equal(img2.nseg, img.nseg);
    assert_int_equal(img2.entry, img.entry);
    assert_int_equal(img2.lo, img.lo);
    assert_int_equal(img2.hi, img.hi);
    assert_int_equal(elf_layout(&img, 0, M2, &d, &hb, &why), 0);
    assert_int_equal(elf_layout(&img2, 0, M2, &d2, &hb2, &why), 0);
    assert_memory_equal(&d, &d2, sizeof(d));
    elf_load(&img, file, &d, text, data);
    elf_load(&img2, packed, &d2, text2, data2);
    assert_memory_equal(text, text2, sizeof(text));
    assert_memory_equal(data, data2, sizeof(data));
    assert_int_equal(elf_find_symtab(file, sizeof(file), &t), 0);
    assert_int_equal(elf_find_symtab(packed, n, &t2), 0);
    assert_int_equal(t2.sym_size, 0x30);
    assert_int_equal(t2.str_size, 0x21);
    assert_memory_equal(packed + t2.sym_off, file + t.sym_off, 0x30);
    assert_memory_equal(packed + t2.str_off, file + t.str_off, 0x21);
    /* Without a symbol table: headers and segments only. */
    sh[2].type = 1;
    assert_int_equal(elf_find_symtab(file, sizeof(file), &t), -1);
    n = elf_packed_size(file, sizeof(file), &img);
    assert_int_equal(n, 64 + 2 * 56 + 0x800 + 0x100);
    elf_pack(file, sizeof(file), &img, packed);
    assert_int_equal(elf_parse(packed, n, LO, HI, &img2, &why), 0);
    /* One byte short: the last segment no longer fits. */
    assert_int_equal(elf_parse(packed, n - 1, LO, HI, &img2, &why), -ENOEXEC);
}

/* Issue 21: lwkcc's PT_LWK mark is seen and survives packing; a static
   PIE (ET_DYN, no interpreter) is placed at the bottom of the range and
   packs to an ET_EXEC at that place; an interpreter is refused. */
static void lwk_mark_and_static_pie(void **s)
{
    static uint8_t packed[sizeof(file)];
    struct elf_image img2;
    uint64_t n;
    (void)s;
    good();
    assert_int_equal(parse(sizeof(file)), 0);
    assert_false(img.lwk);
    eh->phnum = 3;
    ph[2] = (struct elf64_phdr){ .type = PT_LWK };
    assert_int_equal(parse(sizeof(file)), 0);
    assert_true(img.lwk);
    n = elf_packed_size(file, sizeof(file), &img);
    elf_pack(file, sizeof(file), &img, packed);
    assert_int_equal(elf_parse(packed, n, LO, HI, &img2, &why), 0);
    assert_true(img2.lwk);
    good();
    eh->type = 3;
    eh->entry = 0x100;
    ph[0].vaddr = 0;
    ph[1].vaddr = M2;
    assert_int_equal(parse(sizeof(file)), 0);
    assert_int_equal(img.bias, LO);
    assert_int_equal(img.entry, LO + 0x100);
    assert_int_equal(img.lo, LO);
    n = elf_packed_size(file, sizeof(file), &img);
    elf_pack(file, sizeof(file), &img, packed);
    assert_int_equal(elf_parse(packed, n, LO, HI, &img2, &why), 0);
    assert_int_equal(img2.bias, 0);
    assert_int_equal(img2.entry, LO + 0x100);
    assert_int_equal(img2.hi, img.hi);
    good(); ph[1].type = 3; expect_refused("link it with -static");
}

static void stack_has_argv_envp_auxv(void **s)
{
    static uint8_t stack[65536];
    const char *argv[] = { "prog", "a1", NULL }, *envp[] = { "K=V", NULL };
    uint64_t auxv[] = { AT_LWK_RANK, 3, AT_NULL, 0 };
    uint64_t top = 0x7000000000UL, sp;
    (void)s;
    sp = ustack_build(stack, sizeof(stack), top, 2, argv, envp, auxv);
    assert_int_not_equal(sp, 0);
    assert_int_equal(sp % 16, 0);
    uint64_t *w = (uint64_t *)(stack + sizeof(stack) - (top - sp));
    assert_int_equal(w[0], 2);
    assert_string_equal((char *)stack + sizeof(stack) - (top - w[1]), "prog");
    assert_string_equal((char *)stack + sizeof(stack) - (top - w[2]), "a1");
    assert_int_equal(w[3], 0);
    assert_string_equal((char *)stack + sizeof(stack) - (top - w[4]), "K=V");
    assert_int_equal(w[5], 0);
    assert_int_equal(w[6], AT_LWK_RANK);
    assert_int_equal(w[7], 3);
    assert_int_equal(w[8], AT_NULL);
    /* Does not fit: refused, not overflowed. */
    assert_int_equal(ustack_build(stack, 16, top, 2, argv, envp, auxv), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_image_parses),
        cmocka_unit_test(bad_headers_are_refused),
        cmocka_unit_test(lwk_mark_and_static_pie),
        cmocka_unit_test(truncated_segment_is_refused),
        cmocka_unit_test(overlapping_segments_are_refused),
        cmocka_unit_test(huge_or_outside_sizes_are_refused),
        cmocka_unit_test(entry_and_dynamic_checked),
        cmocka_unit_test(layout_places_regions),
        cmocka_unit_test(text_after_data_is_refused),
        cmocka_unit_test(load_copies_and_leaves_bss_zero),
        cmocka_unit_test(packed_image_loads_the_same),
        cmocka_unit_test(stack_has_argv_envp_auxv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
