/*
 * Host tests of the boot-info parser (boot/bootinfo.c) with crafted
 * multiboot1 and multiboot2 blocks in a fake physical memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "bootinfo.h"
#include "multiboot.h"

static uint8_t phys[65536] __attribute__((aligned(8)));
static struct bootinfo bi;

static const void *p2v(uint64_t p)
{
    assert_true(p < sizeof(phys));
    return phys + p;
}

/* --- multiboot2 block builder ------------------------------------------ */
static uint32_t off;

static void *tag(uint32_t type, uint32_t size)
{
    struct mb2_tag *t = (void *)(phys + off);
    t->type = type;
    t->size = size;
    off += (size + 7) & ~7u;
    return t;
}

static void mb2_begin(void)
{
    memset(phys, 0, sizeof(phys));
    off = sizeof(struct mb2_info_header);
}

static void mb2_end(void)
{
    tag(MB2_TAG_END, 8);
    ((struct mb2_info_header *)phys)->total_size = off;
}

static void mb2_mmap(int n, const struct mb2_mmap_entry *e)
{
    struct mb2_tag_mmap *m = tag(MB2_TAG_MMAP, sizeof(*m) + n * sizeof(*e));
    m->entry_size = sizeof(*e);
    memcpy(m + 1, e, n * sizeof(*e));
}

static const struct mb2_mmap_entry map3[] = {
    { 0, 0x9fc00, MB_MEM_AVAILABLE, 0 },
    { 0xf0000, 0x10000, 2, 0 },                 /* reserved: dropped */
    { 0x100000, 0x7ee0000, MB_MEM_AVAILABLE, 0 },
};

static void mb2_full(void **s)
{
    struct mb2_tag_module *m;
    (void)s;
    mb2_begin();
    strcpy((char *)tag(MB2_TAG_CMDLINE, 8 + 12) + 8, "nid=5 test=a");
    mb2_mmap(3, map3);
    m = tag(MB2_TAG_MODULE, sizeof(*m) + 4);
    m->mod_start = 0x200000;
    m->mod_end = 0x210000;
    strcpy(m->string, "pct");
    tag(42, 16);                                /* unknown tags are skipped */
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0x8000, p2v), 0);
    assert_string_equal(bi.loader, "multiboot2");
    assert_string_equal(bi.cmdline, "nid=5 test=a");
    assert_int_equal(bi.nmem, 2);
    assert_int_equal(bi.mem[1].base, 0x100000);
    assert_int_equal(bi.mem[1].len, 0x7ee0000);
    assert_int_equal(bi.nmods, 1);
    assert_int_equal(bi.mods[0].start, 0x200000);
    assert_string_equal(bi.mods[0].name, "pct");
    assert_int_equal(bi.info_start, 0x8000);
    assert_int_equal(bi.info_end, 0x8000 + off);
    assert_int_equal(bi.truncated, 0);
}

static void mb2_malformed_is_refused(void **s)
{
    (void)s;
    mb2_begin();
    mb2_mmap(3, map3);
    ((struct mb2_tag *)tag(7, 8))->size = 0;    /* zero-size tag */
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), -1);

    mb2_begin();
    mb2_mmap(3, map3);
    tag(7, 60000);                              /* runs past total_size */
    ((struct mb2_info_header *)phys)->total_size = off > 100 ? 100 : off;
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), -1);

    mb2_begin();
    mb2_mmap(3, map3);                          /* no end tag */
    ((struct mb2_info_header *)phys)->total_size = off;
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), -1);

    mb2_begin();                                /* no memory map at all */
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), -1);

    assert_int_equal(bootinfo_parse(&bi, 0x12345678, phys, 0, p2v), -1);
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, NULL, 0, p2v), -1);
}

static void mb2_too_many_ranges_truncates(void **s)
{
    struct mb2_mmap_entry e[BOOTINFO_MAX_MEM + 5];
    (void)s;
    for (int i = 0; i < BOOTINFO_MAX_MEM + 5; i++)
        e[i] = (struct mb2_mmap_entry){ (uint64_t)i << 30, 1 << 20, 1, 0 };
    mb2_begin();
    mb2_mmap(BOOTINFO_MAX_MEM + 5, e);
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.nmem, BOOTINFO_MAX_MEM);
    assert_int_equal(bi.truncated, 1);
}

/* The ACPI tags carry a copy of the RSDP: the new (2.0+, 36 bytes) one
   is kept whichever comes first; the old one alone is kept too. */
static void mb2_acpi_tags(void **s)
{
    (void)s;
    mb2_begin();
    mb2_mmap(3, map3);
    memcpy((char *)tag(MB2_TAG_ACPI_NEW, 8 + 36) + 8, "RSD PTR new", 11);
    memcpy((char *)tag(MB2_TAG_ACPI_OLD, 8 + 20) + 8, "RSD PTR old", 11);
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.rsdp_len, 36);
    assert_memory_equal(bi.rsdp, "RSD PTR new", 11);

    mb2_begin();
    mb2_mmap(3, map3);
    memcpy((char *)tag(MB2_TAG_ACPI_OLD, 8 + 20) + 8, "RSD PTR old", 11);
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.rsdp_len, 20);
    assert_memory_equal(bi.rsdp, "RSD PTR old", 11);

    mb2_begin();                                /* none: search the BIOS */
    mb2_mmap(3, map3);
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.rsdp_len, 0);
}

/* UEFI machines: the EFI memory map replaces the loader's (in either
   order); loader, boot-services and conventional memory are RAM, merged
   where they touch; runtime, ACPI and reserved memory are not.  The
   descriptors are descr_size apart (48 here, as some firmware has). */
static void mb2_efi_mmap(int n, const struct efi_mem_desc *d)
{
    struct mb2_tag_efi_mmap *t = tag(MB2_TAG_EFI_MMAP, sizeof(*t) + n * 48);
    t->descr_size = 48;
    t->descr_version = 1;
    for (int i = 0; i < n; i++)
        memcpy((uint8_t *)(t + 1) + i * 48, &d[i], sizeof(*d));
}

static const struct efi_mem_desc efi_map[] = {
    { EFI_BOOT_SERVICES_CODE, 0, 0, 0, 0xa0, 0 },       /* 0-640K */
    { EFI_CONVENTIONAL_MEMORY, 0, 0x100000, 0, 0x700, 0 },
    { EFI_LOADER_DATA, 0, 0x800000, 0, 0x100, 0 },      /* merges */
    { 9 /* ACPI reclaim */, 0, 0x900000, 0, 0x10, 0 },
    { EFI_BOOT_SERVICES_DATA, 0, 0x910000, 0, 0x6f0, 0 },
    { 6 /* runtime data */, 0, 0x1000000, 0, 0x10, 0 },
    { EFI_LOADER_CODE, 0, 0x1010000, 0, 0x10, 0 },
};

static void efi_map_check(void)
{
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.efi_mmap, 1);
    assert_int_equal(bi.nmem, 4);
    assert_int_equal(bi.mem[0].len, 0xa0000);
    assert_int_equal(bi.mem[1].base, 0x100000);
    assert_int_equal(bi.mem[1].len, 0x800000);      /* two merged */
    assert_int_equal(bi.mem[2].base, 0x910000);
    assert_int_equal(bi.mem[2].len, 0x6f0000);
    assert_int_equal(bi.mem[3].base, 0x1010000);
}

static void mb2_efi_memory_map(void **s)
{
    (void)s;
    mb2_begin();
    mb2_mmap(3, map3);
    mb2_efi_mmap(7, efi_map);
    mb2_end();
    efi_map_check();
    mb2_begin();
    mb2_efi_mmap(7, efi_map);
    mb2_mmap(3, map3);
    mb2_end();
    efi_map_check();

    mb2_begin();                                /* descriptors too small */
    mb2_efi_mmap(7, efi_map);
    ((struct mb2_tag_efi_mmap *)(phys + 8))->descr_size = 16;
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), -1);
}

/* The framebuffer tag: an RGB one is kept, an indexed one ignored. */
static void mb2_framebuffer(void **s)
{
    struct mb2_tag_framebuffer *f;
    (void)s;
    mb2_begin();
    mb2_mmap(3, map3);
    f = tag(MB2_TAG_FRAMEBUFFER, sizeof(*f));
    *f = (struct mb2_tag_framebuffer){ MB2_TAG_FRAMEBUFFER, sizeof(*f),
        0xfd000000, 4096, 1024, 768, 32, MB2_FB_TYPE_RGB, 0,
        16, 8, 8, 8, 0, 8 };
    mb2_end();
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.fb.addr, 0xfd000000);
    assert_int_equal(bi.fb.pitch, 4096);
    assert_int_equal(bi.fb.width, 1024);
    assert_int_equal(bi.fb.height, 768);
    assert_int_equal(bi.fb.bpp, 32);
    assert_int_equal(bi.fb.red_pos, 16);
    assert_int_equal(bi.fb.blue_size, 8);
    assert_int_equal(bi.efi_mmap, 0);

    f->fb_type = 0;                             /* indexed: not for us */
    assert_int_equal(bootinfo_parse(&bi, MB2_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.fb.addr, 0);
}

static void mb1_full(void **s)
{
    struct mb1_info *mi = (void *)phys;
    struct mb1_mmap_entry *e = (void *)(phys + 0x100);
    struct mb1_module *mod = (void *)(phys + 0x300);
    (void)s;
    memset(phys, 0, sizeof(phys));
    mi->flags = MB1_INFO_CMDLINE | MB1_INFO_MMAP | MB1_INFO_MODS | MB1_INFO_MEMORY;
    mi->cmdline = 0x200;
    strcpy((char *)phys + 0x200, "kernel.elf nid=2");
    for (int i = 0; i < 3; i++) {
        e[i].size = 20;
        e[i].addr = map3[i].addr;
        e[i].len = map3[i].len;
        e[i].type = map3[i].type;
    }
    mi->mmap_addr = 0x100;
    mi->mmap_length = 3 * sizeof(*e);
    mi->mods_count = 1;
    mi->mods_addr = 0x300;
    mod->mod_start = 0x400000;
    mod->mod_end = 0x401000;
    mod->string = 0x380;
    strcpy((char *)phys + 0x380, "pct.elf");
    assert_int_equal(bootinfo_parse(&bi, MB1_BOOT_MAGIC, phys, 0x9000, p2v), 0);
    assert_string_equal(bi.loader, "multiboot1");
    assert_string_equal(bi.cmdline, "kernel.elf nid=2");
    assert_int_equal(bi.nmem, 2);
    assert_int_equal(bi.mem[0].len, 0x9fc00);
    assert_int_equal(bi.nmods, 1);
    assert_string_equal(bi.mods[0].name, "pct.elf");
    assert_int_equal(bi.mods[0].end, 0x401000);
}

static void mb1_legacy_memory_fields(void **s)
{
    struct mb1_info *mi = (void *)phys;
    (void)s;
    memset(phys, 0, sizeof(phys));
    mi->flags = MB1_INFO_MEMORY;
    mi->mem_lower = 639;
    mi->mem_upper = 130048;
    assert_int_equal(bootinfo_parse(&bi, MB1_BOOT_MAGIC, phys, 0, p2v), 0);
    assert_int_equal(bi.nmem, 2);
    assert_int_equal(bi.mem[1].base, 1 << 20);
    assert_int_equal(bi.mem[1].len, 130048ULL << 10);
    assert_string_equal(bi.cmdline, "");
}

static void mb1_bad_mmap_entry_is_refused(void **s)
{
    struct mb1_info *mi = (void *)phys;
    struct mb1_mmap_entry *e = (void *)(phys + 0x100);
    (void)s;
    memset(phys, 0, sizeof(phys));
    mi->flags = MB1_INFO_MMAP;
    mi->mmap_addr = 0x100;
    mi->mmap_length = 48;
    e->size = 3;                                /* would loop forever */
    assert_int_equal(bootinfo_parse(&bi, MB1_BOOT_MAGIC, phys, 0, p2v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mb2_full),
        cmocka_unit_test(mb2_malformed_is_refused),
        cmocka_unit_test(mb2_too_many_ranges_truncates),
        cmocka_unit_test(mb2_acpi_tags),
        cmocka_unit_test(mb2_efi_memory_map),
        cmocka_unit_test(mb2_framebuffer),
        cmocka_unit_test(mb1_full),
        cmocka_unit_test(mb1_legacy_memory_fields),
        cmocka_unit_test(mb1_bad_mmap_entry_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
