/*
 * The user/kernel ABI of a compute-node process (shared by kernel, PCT, libc).
 *
 * Address space of an application (all regions physically contiguous, 2 MB
 * aligned, mapped with 2 MB pages, present from load to exit):
 *
 *   0x0000_0000_0040_0000  text   (ELF PT_LOADs; apps link at 4 MiB with
 *                                  -z max-page-size=0x200000)
 *   next 2 MB boundary     data+bss
 *   chosen by the PCT      heap   (base and size passed in auxv)
 *   chosen by the PCT      stack  (grows down; top passed as the initial rsp)
 *
 * Initial stack at entry (System V x86-64): rsp -> argc, argv[], NULL,
 * envp[], NULL, auxv pairs, AT_NULL.  Besides the usual AT_PAGESZ/AT_ENTRY/
 * AT_PHDR the kernel/PCT pass the LWK entries below.
 */
#ifndef UAPI_ABI_H
#define UAPI_ABI_H

#define LWK_APP_BASE        0x400000UL
#define LWK_PAGE_SIZE       0x200000UL

/* auxv types; values above the Linux range so nothing confuses them. */
#define AT_NULL             0
#define AT_PHDR             3
#define AT_PHENT            4
#define AT_PHNUM            5
#define AT_PAGESZ           6
#define AT_ENTRY            9
#define AT_LWK_HEAP_BASE    0x1000  /* first byte of the heap region */
#define AT_LWK_HEAP_SIZE    0x1001  /* bytes in the heap region */
#define AT_LWK_STACK_SIZE   0x1002  /* bytes in the stack region */
#define AT_LWK_NID          0x1003  /* this node's id */
#define AT_LWK_RANK         0x1004  /* rank in the job (0 when run alone) */
#define AT_LWK_SIZE         0x1005  /* ranks in the job (1 when run alone) */

#endif
