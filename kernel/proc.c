/*
 * Processes: address spaces built from regions, the switch between the
 * PCT and an application, and the stop reasons the PCT gets back.
 * See include/proc.h for the model.
 */
#define LOG_PREFIX "proc"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "elf.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "panic.h"
#include "portals.h"
#include "printf.h"
#include "proc.h"
#include "smartmap.h"
#include "timer.h"
#include "x86.h"

#define REGION_SPAN     LWK_REGION_MAX  /* PCT window per region: max size */
/* The PCT is part of the OS: it lives in 4 KiB pages of the kernel's own
   chunk.  Its heap holds module names and the function symbols of the
   programs it runs (for fault reports).  PCT, heap, stack and their page
   tables must fit the 604 KiB the kernel leaves free there on a 128 MiB
   node, or a 2 MB chunk is taken from the programs (suite-user's
   memfig-all-outside-os-chunk).  The PCT's text is 128 KiB and its data
   and bss 160 KiB (job table, request buffers, fan-out, debug state,
   libc's channel to yod); 208 KiB of heap leaves 40 KiB for its page
   tables and the kernel's own pages. */
#define PCT_HEAP        KiB(208)
#define PCT_STACK       KiB(64)
#define SLOT_SPAN       (4 * REGION_SPAN)

static struct proc procs[NPROC];
struct proc *pct;
static int next_pid = 1;
uint64_t proc_nx_bit;

/* The boot CPU's kernel stack for traps and system calls from user mode
   (the other CPUs' are allocated by smp.c). */
static uint8_t kstack[KSTACK_SIZE] __attribute__((aligned(16)));

/* The PCT's window on the processes it made (add_region maps each region
   there): [uva, uva+len) inside one live region, else NULL.  The PCT may
   name these addresses in system calls, not only touch them: that is how
   it exposes a program image it holds in a process's region to Portals
   (fan-out loading: its children Get the image from it), since its own
   heap is far too small.  It is privileged over those processes anyway:
   it writes their memory when it loads them.  For any other process the
   window is not one of its regions, so user_ptr refuses it. */
void *proc_window_ptr(uint64_t uva, uint64_t len, bool write)
{
    uint64_t off = uva - LWK_PCT_WINDOW, slot = off / SLOT_SPAN;
    uint64_t in = off % REGION_SPAN;
    struct proc *p;
    struct region_map *r;

    if (uva < LWK_PCT_WINDOW || slot >= NPROC)
        return NULL;
    p = &procs[slot];
    r = &p->reg[off % SLOT_SPAN / REGION_SPAN];
    if (p->state == P_FREE || !p->pct_window || !r->size || len > r->size ||
        in > r->size - len)
        return NULL;
    if (write)
        mem_dirty(r->pa + in, len);
    return phys_to_virt(r->pa + in);
}

/* ---- process table ----------------------------------------------------- */

static struct proc *proc_find(uint64_t pid)
{
    for (int i = 0; i < NPROC; i++)
        if (procs[i].state != P_FREE && (uint64_t)procs[i].pid == pid)
            return &procs[i];
    return NULL;
}

struct proc *proc_lookup(uint64_t pid)
{
    struct proc *p = proc_find(pid);

    return p == pct ? NULL : p;
}

/* Chunks of p's regions written through p's page tables (its threads,
   SMARTMAP peers: they share its tables) or the PCT's window must be
   zeroed before anyone gets them again; the others stay known zero
   (mem.c).  Only a region's whole chunks are tracked. */
static void note_writes(struct proc *p, int i)
{
    const struct region_map *r = &p->reg[i];
    uint64_t win = p->pct_window + i * REGION_SPAN;

    if (!IS_ALIGNED(r->pa, PAGE_2M))
        return;
    for (uint64_t off = 0; off + PAGE_2M <= r->size; off += PAGE_2M)
        if (aspace_written(p->cr3, r->va + off) ||
            (p->pct_window && aspace_written(pct->cr3, win + off)))
            mem_dirty(r->pa + off, PAGE_2M);
}

static void release(struct proc *p)
{
    thread_release(p);          /* its threads off their CPUs first */
    proc_event_flush();         /* what it did that was not logged */
    kptl_release(p);
    smartmap_leave(p);          /* nobody reaches its memory any more */
    profile_forget(p);          /* before its histogram's region goes */
    for (int i = 0; i < LWK_NREGIONS; i++) {
        struct region_map *r = &p->reg[i];
        if (!r->size)
            continue;
        if (p->cr3)
            note_writes(p, i);
        if (p->pct_window)
            aspace_unmap(pct->cr3, p->pct_window + i * REGION_SPAN, r->size);
        if (mem_region_free(r->pa, r->size) < 0)
            panic("region of pid %d was not allocated", p->pid);
    }
    if (p->cr3)
        aspace_free(p->cr3);
    *p = (struct proc){ .state = P_FREE };
}

/* Sizes are checked as the whole chunks they may grow to (add_region). */
static int check_desc(const struct lwk_proc_desc *d)
{
    uint64_t text_end, data_end;

    if (!IS_ALIGNED(d->text_va | d->data_va, PAGE_2M) ||
        !IS_ALIGNED(d->text_size | d->data_size | d->stack_size, PAGE_4K) ||
        d->text_va < LWK_APP_BASE || d->text_va >= LWK_STACK_TOP ||
        d->data_va >= LWK_STACK_TOP || !d->text_size || !d->stack_size ||
        d->text_size > REGION_SPAN || d->data_size > REGION_SPAN ||
        d->stack_size > REGION_SPAN ||
        d->ptl_pid >= UINT32_MAX)        /* PTL_PID_ANY and beyond */
        return -EINVAL;
    text_end = ALIGN_UP(d->text_va + d->text_size, PAGE_2M);
    data_end = ALIGN_UP(d->data_va + d->data_size, PAGE_2M);
    if (text_end > d->data_va ||
        data_end + PAGE_2M > LWK_STACK_TOP - ALIGN_UP(d->stack_size, PAGE_2M))
        return -EINVAL;
    return 0;
}

/* Allocate, zero and map one region (in the process, and in the PCT's
   window when there is a PCT). */
static int add_region(struct proc *p, int i, uint64_t va, uint64_t size,
                      uint64_t flags)
{
    struct region_map *r = &p->reg[i];
    uint64_t zeroed;
    int rc;

    if (!size)
        return 0;
    if ((rc = mem_region_alloc_zeroed(&size, p->is_pct, &r->pa, &zeroed)) < 0)
        return rc;                      /* no data leaks between jobs */
    p->zeroed += zeroed;
    if (i == LWK_REG_STACK)     /* ends at LWK_STACK_TOP even if it grew */
        va = LWK_STACK_TOP - size;
    r->va = va;
    r->size = size;
    r->pte_flags = flags;
    if ((rc = aspace_map(p->cr3, va, r->pa, size, flags | PTE_U)) < 0)
        return rc;
    if (p->pct_window)
        rc = aspace_map(pct->cr3, p->pct_window + i * REGION_SPAN, r->pa,
                       size, PTE_W | PTE_U | proc_nx_bit);
    return rc;
}

struct proc *proc_of_ptl_pid(uint32_t ptl_pid)
{
    for (int i = 0; i < NPROC; i++)
        if (procs[i].state != P_FREE && procs[i].ptl_pid == ptl_pid)
            return &procs[i];
    return NULL;
}

static struct proc *create(const struct lwk_proc_desc *d, bool is_pct)
{
    struct proc *p = NULL;

    for (int i = 0; i < NPROC && !p; i++)
        if (procs[i].state == P_FREE)
            p = &procs[i];
    if (!p)
        return NULL;
    *p = (struct proc){ .pid = next_pid++, .state = P_LOADING,
                        .is_pct = is_pct, .cr3 = aspace_new(),
                        .ptl_pid = (uint32_t)d->ptl_pid };
    if (!is_pct)
        p->pct_window = LWK_PCT_WINDOW + (uint64_t)(p - procs) * SLOT_SPAN;
    if (!p->cr3 ||
        add_region(p, LWK_REG_TEXT, d->text_va, d->text_size, 0) < 0 ||
        add_region(p, LWK_REG_DATA, d->data_va, d->data_size,
                   PTE_W | proc_nx_bit) < 0 ||
        add_region(p, LWK_REG_STACK, LWK_STACK_TOP - d->stack_size,
                   d->stack_size, PTE_W | proc_nx_bit) < 0) {
        release(p);
        return NULL;
    }
    return p;
}

long proc_create(struct trapframe *tf, uint64_t udesc, uint64_t umap)
{
    struct lwk_proc_desc d;
    struct lwk_proc_map m;
    struct proc *p;

    (void)tf;
    if (copy_from_user(current, &d, udesc, sizeof(d)) < 0 ||
        !user_ptr(current, umap, sizeof(m), true))
        return -EFAULT;
    if (check_desc(&d) < 0)
        return -EINVAL;
    /* A Portals pid is one process's: the PCT binds each rank to the one
       its job map gives it, and no other process may then open it. */
    if (d.ptl_pid && (proc_of_ptl_pid((uint32_t)d.ptl_pid) ||
                      kptl_pid_taken((uint32_t)d.ptl_pid, NULL)))
        return -EBUSY;
    if (!(p = create(&d, false)))
        return -ENOMEM;
    for (int i = 0; i < LWK_NREGIONS; i++) {
        m.pct_va[i] = p->pct_window + i * REGION_SPAN;
        m.app_va[i] = p->reg[i].va;
        m.size[i] = p->reg[i].size;
    }
    copy_to_user(current, umap, &m, sizeof(m));
    return p->pid;
}

/* The heap is added after the PCT has copied the program in and given
   the boot module holding it back, so it can have that memory too. */
static bool heap_fits(const struct proc *p, uint64_t va, uint64_t size,
                      uint64_t flags)
{
    const struct region_map *data = &p->reg[LWK_REG_DATA];
    uint64_t end = ALIGN_UP(va + size, PAGE_2M);

    if (!size || size > REGION_SPAN || !IS_ALIGNED(va, PAGE_2M) ||
        !IS_ALIGNED(size, PAGE_4K) || va < LWK_APP_BASE ||
        va >= LWK_STACK_TOP)
        return false;
    /* Below the text only for a Linux program (its image at 4 MiB). */
    if ((flags & LWK_HEAP_EXEC) && end <= p->reg[LWK_REG_TEXT].va)
        return true;
    return va >= data->va + data->size &&
           end + PAGE_2M <= p->reg[LWK_REG_STACK].va;
}

long proc_heap(uint64_t pid, uint64_t va, uint64_t size, uint64_t flags)
{
    struct proc *p = proc_find(pid);
    struct region_map *heap;
    int rc;

    if (!p || p == pct || p->state != P_LOADING)
        return -ESRCH;
    heap = &p->reg[LWK_REG_HEAP];
    if (heap->size || (flags & ~(uint64_t)LWK_HEAP_EXEC) ||
        !heap_fits(p, va, size, flags))
        return -EINVAL;
    if ((rc = add_region(p, LWK_REG_HEAP, va, size, (flags & LWK_HEAP_EXEC)
                         ? PTE_W : PTE_W | proc_nx_bit)) < 0)
        return rc;
    return (long)heap->size;
}

/* The PCT's decision: these processes (the ranks of one job on this
   node) map each other, pids[k] in SMARTMAP slot k (smartmap.c). */
long proc_share(uint64_t upids, uint64_t n)
{
    int32_t pids[LWK_SMARTMAP_SLOTS];
    struct proc *m[LWK_SMARTMAP_SLOTS];

    if (n < 1 || n > LWK_SMARTMAP_SLOTS)
        return -EINVAL;
    if (copy_from_user(current, pids, upids, n * sizeof(pids[0])) < 0)
        return -EFAULT;
    for (uint64_t i = 0; i < n; i++)
        if (!(m[i] = proc_find((uint64_t)pids[i])) || m[i] == pct ||
            m[i]->state == P_DEAD)
            return -ESRCH;
    return smartmap_share(m, (int)n);
}

uint8_t proc_fpu_initial[512] __attribute__((aligned(16)));

static void set_entry(struct proc *p, uint64_t entry, uint64_t rsp)
{
    memcpy(p->fpu, proc_fpu_initial, sizeof(p->fpu));
    p->frame = (struct trapframe){
        .rip = entry, .rsp = rsp, .cs = SEL_UCODE | 3, .ss = SEL_UDATA | 3,
        .rflags = 0x202,        /* IF: a process always takes interrupts */
    };
    p->state = P_READY;
}

long proc_start(uint64_t pid, uint64_t entry, uint64_t rsp)
{
    struct proc *p = proc_find(pid);

    if (!p || p == pct || p->state != P_LOADING)
        return -ESRCH;
    if (!user_ptr(p, entry, 1, false) || !user_ptr(p, rsp - 8, 8, true))
        return -EINVAL;
    set_entry(p, entry, rsp);
    return 0;
}

long proc_cpus(uint64_t pid, uint64_t mask)
{
    struct proc *p = proc_find(pid);

    if (!p || p == pct || p->state == P_DEAD)
        return -ESRCH;
    return thread_cpus_grant(p, mask);
}

/* Virtual-node mode: the PCT gives p's main thread a CPU of its own. */
long proc_place(uint64_t pid, uint64_t cpu)
{
    struct proc *p = proc_find(pid);
    long rc;

    if (!p || p == pct || p->state != P_READY)
        return -ESRCH;
    if (cpu >= MAX_CPUS)
        return -EINVAL;
    p->state = P_RUNNING;
    if ((rc = thread_place(p, (int)cpu)) < 0) {
        p->state = P_READY;
        return rc;
    }
    pr_info("pid %d runs on CPU %lu until it ends\n", p->pid, cpu);
    return 0;
}

long proc_destroy(uint64_t pid)
{
    struct proc *p = proc_find(pid);

    if (!p || p == pct)
        return -ESRCH;
    release(p);
    return 0;
}

/* ---- boot ---------------------------------------------------------------- */

/* A clean x87/SSE state for new processes: all exceptions masked, round
   to nearest (x86.h's fpu_enable lets ring 3 use them, on every CPU). */
static void fpu_init(void)
{
    uint32_t mxcsr = 0x1F80;

    fpu_enable();
    __asm__ volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
    fxsave(proc_fpu_initial);
}

void proc_init(void)
{
    struct cpu *c = this_cpu();

    c->kstack_top = (uint64_t)&kstack[sizeof(kstack)];
    gdt_set_kernel_stack(c->kstack_top);
    if (rdmsr(MSR_EFER) & EFER_NXE)
        proc_nx_bit = PTE_NX;
    fpu_init();
    thread_init();
    debug_init();
}

__noreturn void proc_start_pct(int module, const void *image, uint64_t len)
{
    struct elf_image img;
    struct lwk_proc_desc d;
    const char *why = "";
    uint64_t heap_base, sp, auxv[8];

    if (elf_parse(image, len, LWK_APP_BASE, LWK_STACK_TOP, &img, &why) < 0 ||
        elf_layout(&img, PCT_HEAP, PCT_STACK, &d, &heap_base, &why) < 0)
        panic("cannot load the PCT: %s", why);
    if (!(pct = create(&d, true)))
        panic("no memory for the PCT");
    struct region_map *text = &pct->reg[LWK_REG_TEXT];
    struct region_map *data = &pct->reg[LWK_REG_DATA];
    struct region_map *stack = &pct->reg[LWK_REG_STACK];
    elf_load(&img, image, &d, phys_to_virt(text->pa), phys_to_virt(data->pa));
    /* The image is copied: its memory goes back now, before the PCT's
       first calls take page-table and Portals pages.  Held longer, the
       kernel's chunk ran short and such pages came out of the programs'
       memory (4 KiB less for every program, user.memfig-*). */
    mem_module_release(module);
    uint64_t aux[] = { AT_LWK_HEAP_BASE, heap_base,
                       AT_LWK_HEAP_SIZE, data->va + data->size - heap_base,
                       AT_LWK_STACK_SIZE, stack->size, AT_NULL, 0 };
    memcpy(auxv, aux, sizeof(aux));
    static const char *const argv[] = { "pct", NULL }, *const envp[] = { NULL };
    sp = ustack_build(phys_to_virt(stack->pa), stack->size, LWK_STACK_TOP, 1,
                      argv, envp, auxv);
    set_entry(pct, img.entry, sp);
    pct->state = P_RUNNING;
    current = pct;
    pr_info("PCT loaded: pid %d, text %lu KiB at %#lx, data+heap %lu KiB at "
            "%#lx, stack %lu KiB at %#lx\n", pct->pid, text->size >> 10,
            text->pa, data->size >> 10, data->pa, stack->size >> 10,
            stack->pa);
    aspace_switch(pct->cr3);
    struct trapframe *tf = (void *)(this_cpu()->kstack_top - sizeof(*tf));
    *tf = pct->frame;
    trap_return_to(tf);
}
