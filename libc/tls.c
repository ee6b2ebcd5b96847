/* SPDX-License-Identifier: MIT */
/*
 * tls.c: thread-local storage and the thread table: what every program
 * links (crt0 calls __lwk_threads_init), threads or not; the threads
 * themselves are in pthread.c, the locks in lock.c.
 *
 * A thread's static TLS block and thread control block follow the x86-64
 * "variant II" layout: the TLS block ends where the TCB starts, %fs
 * points at the TCB, whose first word points at itself.  The TLS image
 * is the program's PT_TLS segment, found through the ELF headers the text
 * segment starts with.
 */
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>

#include "libc_internal.h"

#define ALIGN_UP(x, a)  (((x) + (a) - 1) & ~((uintptr_t)(a) - 1))

extern const Elf64_Ehdr __ehdr_start;

static struct {
    const void *image;          /* .tdata's initial values */
    size_t filesz, memsz, align;
} tls;
static int tls_ok;              /* %fs is ours (not under lwkemu) */
struct lwk_thread lwk_threads[PTHREAD_THREADS_MAX];

static void find_tls(void)
{
    const Elf64_Phdr *ph = (const void *)((const char *)&__ehdr_start +
                                          __ehdr_start.e_phoff);

    tls.align = 16;
    for (int i = 0; i < __ehdr_start.e_phnum; i++)
        if (ph[i].p_type == PT_TLS) {
            tls.image = (const void *)ph[i].p_vaddr;
            tls.filesz = ph[i].p_filesz;
            tls.memsz = ph[i].p_memsz;
            if (ph[i].p_align > tls.align)
                tls.align = ph[i].p_align;
        }
}

size_t lwk_tls_bytes(void)
{
    return ALIGN_UP(tls.memsz, tls.align) + sizeof(struct lwk_tcb) +
           tls.align;
}

struct lwk_tcb *lwk_tls_make(void *mem, struct lwk_thread *t)
{
    size_t off = ALIGN_UP(tls.memsz, tls.align);
    struct lwk_tcb *tcb = (void *)ALIGN_UP((uintptr_t)mem + off, tls.align);
    char *block = (char *)tcb - off;

    memcpy(block, tls.image, tls.filesz);
    memset(block + tls.filesz, 0, tls.memsz - tls.filesz);
    tcb->self = tcb;
    tcb->thread = t;
    return tcb;
}

struct lwk_thread *lwk_thread_self(void)
{
    struct lwk_tcb *tcb;

    if (!tls_ok)
        return &lwk_threads[0];
    __asm__ volatile("mov %%fs:0, %0" : "=r"(tcb));
    return tcb->thread;
}

/* From crt0, after the heap is set up: the main thread's TLS. */
void __lwk_threads_init(void)
{
    struct lwk_thread *t = &lwk_threads[0];

    find_tls();
    t->used = 1;
    if (!(t->mem = malloc(lwk_tls_bytes())))
        return;
    t->tcb = lwk_tls_make(t->mem, t);
    tls_ok = lwk_sys_set_tls((long)t->tcb) == 0;
}

pthread_t pthread_self(void)
{
    return (pthread_t)(lwk_thread_self() - lwk_threads);
}

int pthread_equal(pthread_t a, pthread_t b)
{
    return a == b;
}
