/*
 * Turn a multiboot1 or multiboot2 information block into struct bootinfo.
 * Pure logic (no hardware access), so the host unit tests feed it crafted
 * blocks.  Everything it keeps is copied: once it returns, the loader's
 * block may be overwritten.
 */
#include <stdbool.h>
#include <stddef.h>
#include "bootinfo.h"
#include "multiboot.h"

typedef const void *(*p2v_fn)(uint64_t);

static void copy_str(char *dst, size_t cap, const char *src, int *truncated)
{
    size_t i = 0;

    if (!src) {
        dst[0] = 0;
        return;
    }
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = src[i];
    dst[i] = 0;
    if (src[i])
        *truncated = 1;
}

static void add_mem(struct bootinfo *bi, uint64_t base, uint64_t len,
                    uint32_t type)
{
    if (type != MB_MEM_AVAILABLE || len == 0)
        return;
    if (base + len < base)          /* wraps: a broken map, keep what fits */
        len = ~0ULL - base;
    if (bi->nmem && bi->mem[bi->nmem - 1].base + bi->mem[bi->nmem - 1].len
                    == base) {     /* EFI maps split RAM by owner: merge */
        bi->mem[bi->nmem - 1].len += len;
        return;
    }
    if (bi->nmem == BOOTINFO_MAX_MEM) {
        bi->truncated = 1;
        return;
    }
    bi->mem[bi->nmem].base = base;
    bi->mem[bi->nmem].len = len;
    bi->nmem++;
}

static void add_mod(struct bootinfo *bi, uint64_t start, uint64_t end,
                    const char *name)
{
    struct bootinfo_mod *m;

    if (bi->nmods == BOOTINFO_MAX_MODS || end < start) {
        bi->truncated = 1;
        return;
    }
    m = &bi->mods[bi->nmods++];
    m->start = start;
    m->end = end;
    copy_str(m->name, sizeof(m->name), name, &bi->truncated);
}

static int parse_mb1(struct bootinfo *bi, const struct mb1_info *mi,
                     p2v_fn p2v)
{
    bi->loader = "multiboot1";
    bi->info_end = bi->info_start + sizeof(*mi);
    if (mi->flags & MB1_INFO_CMDLINE)
        copy_str(bi->cmdline, sizeof(bi->cmdline), p2v(mi->cmdline),
                 &bi->truncated);
    if (mi->flags & MB1_INFO_MMAP) {
        uint64_t off = 0;
        const uint8_t *map = p2v(mi->mmap_addr);

        /* Each entry's size field excludes itself (MB1 §3.3). */
        while (off + sizeof(struct mb1_mmap_entry) <= mi->mmap_length) {
            const struct mb1_mmap_entry *e = (const void *)(map + off);
            if (e->size < 20)
                return -1;
            add_mem(bi, e->addr, e->len, e->type);
            off += e->size + 4;
        }
    } else if (mi->flags & MB1_INFO_MEMORY) {
        /* No map: fall back to the two legacy figures (KiB). */
        add_mem(bi, 0, (uint64_t)mi->mem_lower << 10, MB_MEM_AVAILABLE);
        add_mem(bi, 1 << 20, (uint64_t)mi->mem_upper << 10,
                MB_MEM_AVAILABLE);
    }
    if (mi->flags & MB1_INFO_MODS) {
        const struct mb1_module *mod = p2v(mi->mods_addr);
        for (uint32_t i = 0; i < mi->mods_count; i++)
            add_mod(bi, mod[i].mod_start, mod[i].mod_end,
                    mod[i].string ? p2v(mod[i].string) : "");
    }
    return 0;
}

static int parse_mb2_mmap(struct bootinfo *bi, const struct mb2_tag_mmap *t)
{
    const uint8_t *p = (const uint8_t *)(t + 1);
    const uint8_t *end = (const uint8_t *)t + t->size;

    if (t->entry_size < sizeof(struct mb2_mmap_entry))
        return -1;
    for (; p + t->entry_size <= end; p += t->entry_size) {
        const struct mb2_mmap_entry *e = (const void *)p;
        add_mem(bi, e->addr, e->len, e->type);
    }
    return 0;
}

/* The EFI memory map (UEFI machines): RAM by EFI type; what boot services
   and the loader used is free once GRUB has exited boot services.  It
   replaces the loader's own map (tag 6), whichever comes first. */
static int parse_mb2_efi_mmap(struct bootinfo *bi,
                              const struct mb2_tag_efi_mmap *t)
{
    const uint8_t *p = (const uint8_t *)(t + 1);
    const uint8_t *end = (const uint8_t *)t + t->size;

    if (t->descr_size < sizeof(struct efi_mem_desc))
        return -1;
    bi->nmem = 0;
    bi->efi_mmap = 1;
    for (; p + t->descr_size <= end; p += t->descr_size) {
        const struct efi_mem_desc *d = (const void *)p;
        bool ram = d->type == EFI_CONVENTIONAL_MEMORY ||
                   (d->type >= EFI_LOADER_CODE &&
                    d->type <= EFI_BOOT_SERVICES_DATA);
        if (d->pages >> 52)
            return -1;          /* more than 2^64 bytes: malformed */
        add_mem(bi, d->phys, d->pages << 12,
                ram ? MB_MEM_AVAILABLE : 0);
    }
    return 0;
}

/* Direct-colour framebuffers only: an indexed or text mode is no use to
   the console (kernel/fbcon.c), so it is left out. */
static int parse_mb2_fb(struct bootinfo *bi,
                        const struct mb2_tag_framebuffer *t)
{
    if (t->size < sizeof(*t))
        return -1;
    if (t->fb_type != MB2_FB_TYPE_RGB)
        return 0;
    bi->fb = (struct bootinfo_fb){
        .addr = t->addr, .pitch = t->pitch, .width = t->width,
        .height = t->height, .bpp = t->bpp,
        .red_pos = t->red_pos, .red_size = t->red_size,
        .green_pos = t->green_pos, .green_size = t->green_size,
        .blue_pos = t->blue_pos, .blue_size = t->blue_size,
    };
    return 0;
}

/* A copy of the RSDP follows the tag header (MB2 §3.6.13/14).  The new
   tag (ACPI 2.0+) wins over the old one whatever their order. */
static void add_rsdp(struct bootinfo *bi, const struct mb2_tag *tag)
{
    uint32_t n = tag->size - sizeof(*tag);

    if (tag->type == MB2_TAG_ACPI_OLD && bi->rsdp_len > 20)
        return;
    if (n > BOOTINFO_RSDP_LEN)
        n = BOOTINFO_RSDP_LEN;
    for (uint32_t i = 0; i < n; i++)
        bi->rsdp[i] = ((const uint8_t *)(tag + 1))[i];
    bi->rsdp_len = n;
}

static int parse_mb2_tag(struct bootinfo *bi, const struct mb2_tag *tag,
                         int *have_mmap)
{
    switch (tag->type) {
    case MB2_TAG_CMDLINE:
        copy_str(bi->cmdline, sizeof(bi->cmdline), (const char *)(tag + 1),
                 &bi->truncated);
        return 0;
    case MB2_TAG_MODULE: {
        const struct mb2_tag_module *m = (const void *)tag;
        if (tag->size < sizeof(*m))
            return -1;
        add_mod(bi, m->mod_start, m->mod_end, m->string);
        return 0;
    }
    case MB2_TAG_ACPI_OLD:
    case MB2_TAG_ACPI_NEW:
        add_rsdp(bi, tag);
        return 0;
    case MB2_TAG_MMAP:
        *have_mmap = 1;
        if (tag->size < sizeof(struct mb2_tag_mmap))
            return -1;
        return bi->efi_mmap ? 0 : parse_mb2_mmap(bi, (const void *)tag);
    case MB2_TAG_EFI_MMAP:
        *have_mmap = 1;
        if (tag->size < sizeof(struct mb2_tag_efi_mmap))
            return -1;
        return parse_mb2_efi_mmap(bi, (const void *)tag);
    case MB2_TAG_FRAMEBUFFER:
        return parse_mb2_fb(bi, (const void *)tag);
    default:
        return 0;               /* tags we do not need are skipped */
    }
}

static int parse_mb2(struct bootinfo *bi, const struct mb2_info_header *h)
{
    const uint8_t *base = (const uint8_t *)h;
    uint32_t off = sizeof(*h);
    int have_mmap = 0;

    bi->loader = "multiboot2";
    if (h->total_size < sizeof(*h) + sizeof(struct mb2_tag))
        return -1;
    bi->info_end = bi->info_start + h->total_size;
    /* Tags are 8-byte aligned and end with a type-0 tag (MB2 §3.6.1). */
    while (off + sizeof(struct mb2_tag) <= h->total_size) {
        const struct mb2_tag *tag = (const void *)(base + off);
        if (tag->size < sizeof(*tag) || tag->size > h->total_size - off)
            return -1;
        if (tag->type == MB2_TAG_END)
            return have_mmap ? 0 : -1;
        if (parse_mb2_tag(bi, tag, &have_mmap) < 0)
            return -1;
        off += (tag->size + 7) & ~7u;
    }
    return -1;                  /* no end tag inside total_size */
}

int bootinfo_parse(struct bootinfo *bi, uint32_t magic, const void *info,
                   uint64_t info_phys, p2v_fn p2v)
{
    *bi = (struct bootinfo){ .info_start = info_phys };
    if (!info)
        return -1;
    if (magic == MB1_BOOT_MAGIC)
        return parse_mb1(bi, info, p2v);
    if (magic == MB2_BOOT_MAGIC)
        return parse_mb2(bi, info);
    return -1;
}
