/*
 * Loader headers, at the very start of the image: multiboot1 (QEMU -kernel
 * accepts only this, and only for "32-bit" images, so we use the a.out
 * kludge: the loader takes the addresses below instead of the ELF64
 * headers) and multiboot2 (GRUB; an entry tag so the 64-bit ELF entry
 * point does not matter).  Both enter _start32 in 32-bit protected mode.
 */
#include "multiboot.h"

#define MB1_FLAGS (MB1_HF_PAGE_ALIGN | MB1_HF_MEMINFO | MB1_HF_AOUT_KLUDGE)

    .section .multiboot, "a"
    .align 4
mb1_header:
    .long MB1_HEADER_MAGIC
    .long MB1_FLAGS
    .long -(MB1_HEADER_MAGIC + MB1_FLAGS)
    .long mb1_header            /* header_addr (physical: .boot is low) */
    .long _load_start           /* load_addr */
    .long _load_end_phys        /* load_end_addr: end of loaded data */
    .long _bss_end_phys         /* bss_end_addr: loader zeroes up to here */
    .long _start32              /* entry_addr */

    .align 8
mb2_header:
    .long MB2_HEADER_MAGIC
    .long MB2_ARCH_I386
    .long mb2_end - mb2_header
    .long -(MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_end - mb2_header))
    .align 8
    .short MB2_HTAG_ENTRY, 0    /* entry address tag (MB2 §3.1.6) */
    .long 12
    .long _start32
    /* A linear framebuffer for console=fb (MB2 §3.1.10), optional: GRUB
       sets one up where it can (VBE under BIOS, GOP under UEFI) and boots
       anyway where it cannot.  Under UEFI it also keeps GRUB from warning
       that the OS gets no console. */
    .align 8
    .short MB2_HTAG_FRAMEBUFFER, MB2_HTAG_OPTIONAL
    .long 20
    .long 1024, 768, 32         /* width, height, depth: a preference */
    .align 8
    .short MB2_HTAG_END, 0
    .long 8
mb2_end:
