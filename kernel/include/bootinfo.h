/*
 * The neutral boot information the kernel starts from.  boot/bootinfo.c
 * fills it from whichever loader ran (GRUB multiboot2, or QEMU -kernel
 * multiboot1); nothing in kernel/ sees a multiboot type.
 */
#ifndef BOOTINFO_H
#define BOOTINFO_H

#include <stdint.h>

#define BOOTINFO_MAX_MEM        128     /* after merging neighbours */
#define BOOTINFO_MAX_MODS       16
#define BOOTINFO_CMDLINE_LEN    512
#define BOOTINFO_MODNAME_LEN    1024    /* = struct lwk_module's name */
#define BOOTINFO_RSDP_LEN       36      /* an ACPI 2.0+ RSDP */

struct bootinfo_mem {
    uint64_t base, len;         /* usable RAM only */
};

struct bootinfo_mod {
    uint64_t start, end;        /* physical, [start, end) */
    char name[BOOTINFO_MODNAME_LEN];
};

/* A linear framebuffer the loader set up (multiboot2 tag 8, RGB only):
   addr 0 if none. */
struct bootinfo_fb {
    uint64_t addr;              /* physical */
    uint32_t pitch, width, height;  /* bytes per line; pixels */
    uint8_t bpp;                /* bits per pixel: 15, 16, 24 or 32 */
    uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct bootinfo {
    const char *loader;         /* "multiboot1" or "multiboot2" */
    int nmem;
    struct bootinfo_mem mem[BOOTINFO_MAX_MEM];
    int nmods;
    struct bootinfo_mod mods[BOOTINFO_MAX_MODS];
    char cmdline[BOOTINFO_CMDLINE_LEN];
    uint64_t info_start, info_end;  /* where the loader's info block lies */
    /* The ACPI RSDP a multiboot2 loader copied (tag 15, "new", preferred
       over tag 14, "old"); rsdp_len 0 if none: search the BIOS areas. */
    uint8_t rsdp[BOOTINFO_RSDP_LEN];
    uint32_t rsdp_len;
    struct bootinfo_fb fb;
    int efi_mmap;               /* mem[] came from the EFI memory map */
    int truncated;              /* some entries did not fit: see above */
};

extern struct bootinfo bootinfo;    /* this boot's (main.c) */

/*
 * Parse the loader's information block.  `info` is the block as the kernel
 * can address it, `info_phys` its physical address, `phys_to_virt` maps a
 * physical address the block points to (command line, memory map, modules)
 * to an address the kernel can read.  Returns 0, or -1 if `magic` names no
 * known loader or the block is malformed.
 */
int bootinfo_parse(struct bootinfo *bi, uint32_t magic, const void *info,
                   uint64_t info_phys,
                   const void *(*phys_to_virt)(uint64_t phys));

#endif
