/*
 * Multiboot 1 (0.6.96) and Multiboot 2 (2.0) definitions: only boot/ sees
 * these; the kernel gets a neutral struct bootinfo (kernel/include/bootinfo.h).
 * Values are from the two specifications; sections cited per group.
 */
#ifndef BOOT_MULTIBOOT_H
#define BOOT_MULTIBOOT_H

/* MB1 §3.1.1 header, §3.2 machine state (eax), §3.3 info flags. */
#define MB1_HEADER_MAGIC        0x1BADB002
#define MB1_BOOT_MAGIC          0x2BADB002
#define MB1_HF_PAGE_ALIGN       (1 << 0)
#define MB1_HF_MEMINFO          (1 << 1)
#define MB1_HF_AOUT_KLUDGE      (1 << 16)
#define MB1_INFO_MEMORY         (1 << 0)
#define MB1_INFO_CMDLINE        (1 << 2)
#define MB1_INFO_MODS           (1 << 3)
#define MB1_INFO_MMAP           (1 << 6)

/* MB2 §3.1.1 header, §3.1.3 tags; §3.3 boot magic; §3.6 info tags. */
#define MB2_HEADER_MAGIC        0xE85250D6
#define MB2_BOOT_MAGIC          0x36D76289
#define MB2_ARCH_I386           0
#define MB2_HTAG_END            0
#define MB2_HTAG_ENTRY          3
#define MB2_HTAG_FRAMEBUFFER    5
#define MB2_HTAG_OPTIONAL       1       /* header tag flags: may be ignored */
#define MB2_TAG_END             0
#define MB2_TAG_CMDLINE         1
#define MB2_TAG_MODULE          3
#define MB2_TAG_BASIC_MEMINFO   4
#define MB2_TAG_MMAP            6
#define MB2_TAG_ACPI_OLD        14
#define MB2_TAG_FRAMEBUFFER     8
#define MB2_TAG_ACPI_NEW        15
#define MB2_TAG_EFI_MMAP        17
#define MB2_FB_TYPE_RGB         1       /* §3.6.12: direct colour */

/* Memory map entry type shared by both (MB1 §3.3, MB2 §3.6.8). */
#define MB_MEM_AVAILABLE        1

#ifndef __ASSEMBLY__
#include <stdint.h>

struct mb1_info {
    uint32_t flags;
    uint32_t mem_lower, mem_upper;
    uint32_t boot_device;
    uint32_t cmdline;
    uint32_t mods_count, mods_addr;
    uint32_t syms[4];
    uint32_t mmap_length, mmap_addr;
} __attribute__((packed));

struct mb1_module {
    uint32_t mod_start, mod_end, string, reserved;
} __attribute__((packed));

/* MB1 mmap entries are preceded by their own size (not counting `size`). */
struct mb1_mmap_entry {
    uint32_t size;
    uint64_t addr, len;
    uint32_t type;
} __attribute__((packed));

struct mb2_info_header {
    uint32_t total_size, reserved;
};

struct mb2_tag {
    uint32_t type, size;
};

struct mb2_tag_module {
    uint32_t type, size;
    uint32_t mod_start, mod_end;
    char string[];
};

struct mb2_tag_mmap {
    uint32_t type, size;
    uint32_t entry_size, entry_version;
};

struct mb2_mmap_entry {
    uint64_t addr, len;
    uint32_t type, zero;
};

/* §3.6.12: the framebuffer the loader set up (RGB colour info follows). */
struct mb2_tag_framebuffer {
    uint32_t type, size;
    uint64_t addr;
    uint32_t pitch, width, height;
    uint8_t bpp, fb_type;
    uint16_t reserved;
    uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
} __attribute__((packed));

/* §3.6.16: the EFI memory map as the firmware gave it, descriptors of
   descr_size bytes (at least the UEFI 2.x EFI_MEMORY_DESCRIPTOR below). */
struct mb2_tag_efi_mmap {
    uint32_t type, size;
    uint32_t descr_size, descr_version;
};

/* UEFI 2.10 §7.2.3 EFI_MEMORY_DESCRIPTOR (4 KiB pages). */
struct efi_mem_desc {
    uint32_t type, pad;
    uint64_t phys, virt, pages, attr;
};

/* UEFI 2.10 §7.2.1 EFI_MEMORY_TYPE: what is RAM once boot services have
   exited (loader, boot-services and conventional memory); the runtime
   services, ACPI and reserved types are not. */
enum {
    EFI_LOADER_CODE = 1, EFI_LOADER_DATA = 2, EFI_BOOT_SERVICES_CODE = 3,
    EFI_BOOT_SERVICES_DATA = 4, EFI_CONVENTIONAL_MEMORY = 7,
};

_Static_assert(sizeof(struct mb1_info) == 52, "MB1 info through mmap_addr");
_Static_assert(sizeof(struct mb1_mmap_entry) == 24, "MB1 mmap entry");
_Static_assert(sizeof(struct mb2_mmap_entry) == 24, "MB2 mmap entry");
_Static_assert(sizeof(struct mb2_tag_framebuffer) == 38, "MB2 fb tag + RGB");
_Static_assert(sizeof(struct efi_mem_desc) == 40, "EFI memory descriptor");
#endif
#endif
