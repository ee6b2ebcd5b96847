/*
 * Processes: address spaces built from regions, the switch between the
 * PCT and an application, and the stop reasons the PCT gets back.
 * See include/proc.h for the model.
 */
#define LOG_PREFIX "proc"
#include "kernel.h"
#include "console.h"
#include "elf.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "panic.h"
#include "portals.h"
#include "printf.h"
#include "proc.h"
#include "timer.h"
#include "x86.h"

#define REGION_SPAN     LWK_REGION_MAX  /* PCT window per region: max size */
/* The PCT is part of the OS: it lives in 4 KiB pages of the kernel's own
   chunk.  Its heap holds module names and the function symbols of the
   programs it runs (for fault reports). */
#define PCT_HEAP        KiB(256)
#define PCT_STACK       KiB(64)
#define SLOT_SPAN       (4 * REGION_SPAN)
#define MSR_EFER        0xC0000080
#define EFER_NXE        (1 << 11)

static struct proc procs[NPROC];
struct proc *current;
struct proc *pct;
static struct proc *running;            /* the app proc_run started */
static uint64_t pct_result_uva;         /* where its result goes */
static bool quantum_over;
static int next_pid = 1;
static uint64_t nx_bit;

static uint8_t kstack[16384] __attribute__((aligned(16)));
uint64_t syscall_kstack_top;            /* read by syscall_entry */

/* ---- address spaces ---------------------------------------------------- */

static uint64_t *table(uint64_t phys)
{
    return phys_to_virt(phys & PTE_ADDR);
}

static uint64_t *next_table(uint64_t *t, int idx)
{
    if (t[idx] & PTE_PS)        /* a 2 MB page is there, not a table */
        return NULL;
    if (!(t[idx] & PTE_P)) {
        uint64_t page = kpage_alloc();
        if (!page)
            return NULL;
        t[idx] = page | PTE_P | PTE_W | PTE_U;
    }
    return table(t[idx]);
}

/* 2 MB pages wherever the virtual and physical addresses are both 2 MB
   aligned and 2 MB remain; 4 KiB pages elsewhere (a region in a partial
   chunk, the tail of one that ends in it). */
static int map_range(uint64_t cr3, uint64_t va, uint64_t pa, uint64_t size,
                     uint64_t flags)
{
    for (uint64_t off = 0; off < size;) {
        uint64_t v = va + off, *pdpt, *pd, *pt;
        if (!(pdpt = next_table(table(cr3), (v >> 39) & 511)) ||
            !(pd = next_table(pdpt, (v >> 30) & 511)))
            return -ENOMEM;
        if (IS_ALIGNED(v | (pa + off), PAGE_2M) && size - off >= PAGE_2M) {
            pd[(v >> 21) & 511] = (pa + off) | flags | PTE_P | PTE_PS;
            off += PAGE_2M;
            continue;
        }
        if (!(pt = next_table(pd, (v >> 21) & 511)))
            return -ENOMEM;
        pt[(v >> 12) & 511] = (pa + off) | flags | PTE_P;
        off += PAGE_4K;
    }
    return 0;
}

static bool table_empty(const uint64_t *t)
{
    for (int i = 0; i < 512; i++)
        if (t[i])
            return false;
    return true;
}

/* Page tables of 4 KiB pages go back to the kernel once empty. */
static void unmap_range(uint64_t cr3, uint64_t va, uint64_t size)
{
    for (uint64_t v = va, next; v < va + size; v = next) {
        uint64_t *t = table(cr3), e, *pde;
        next = MIN(ALIGN_DOWN(v, PAGE_2M) + PAGE_2M, va + size);
        if (!((e = t[(v >> 39) & 511]) & PTE_P) ||
            !((e = table(e)[(v >> 30) & 511]) & PTE_P))
            continue;
        pde = &table(e)[(v >> 21) & 511];
        if (!(*pde & PTE_P) || (*pde & PTE_PS)) {
            *pde = 0;
            continue;
        }
        for (uint64_t u = v; u < next; u += PAGE_4K)
            table(*pde)[(u >> 12) & 511] = 0;
        if (table_empty(table(*pde))) {
            kpage_free(*pde & PTE_ADDR);
            *pde = 0;
        }
    }
}

static uint64_t aspace_new(void)
{
    uint64_t cr3 = kpage_alloc();

    if (cr3)    /* the kernel half is shared by every address space */
        memcpy(table(cr3) + 256, table(kernel_cr3) + 256, 256 * 8);
    return cr3;
}

static void aspace_free(uint64_t cr3)
{
    uint64_t *pml4 = table(cr3);

    for (int i = 0; i < 256; i++) {
        if (!(pml4[i] & PTE_P))
            continue;
        uint64_t *pdpt = table(pml4[i]);
        for (int j = 0; j < 512; j++) {
            if (!(pdpt[j] & PTE_P))
                continue;
            uint64_t *pd = table(pdpt[j]);
            for (int k = 0; k < 512; k++)
                if ((pd[k] & PTE_P) && !(pd[k] & PTE_PS))
                    kpage_free(pd[k] & PTE_ADDR);
            kpage_free(pdpt[j] & PTE_ADDR);
        }
        kpage_free(pml4[i] & PTE_ADDR);
    }
    kpage_free(cr3);
}

/* ---- user memory ------------------------------------------------------- */

/* The PCT's window on the processes it made (add_region maps each region
   there): [uva, uva+len) inside one live region, else NULL.  The PCT may
   name these addresses in system calls, not only touch them: that is how
   it exposes a program image it holds in a process's region to Portals
   (fan-out loading: its children Get the image from it), since its own
   heap is far too small.  It is privileged over those processes anyway:
   it writes their memory when it loads them.  For any other process the
   window is not one of its regions, so user_ptr refuses it. */
static void *window_ptr(uint64_t uva, uint64_t len)
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
    return phys_to_virt(r->pa + in);
}

static bool in_region(const struct region_map *r, uint64_t uva, uint64_t len)
{
    return r->size && uva >= r->va && len <= r->size &&
           uva - r->va <= r->size - len;
}

/* The region of the previous call is tried first: a Portals call checks
   several pointers into the same region, and the receive path one per
   fragment, so the walk over all regions is mostly skipped. */
void *user_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write)
{
    struct region_map *r = &p->reg[p->reg_hint];

    if (!in_region(r, uva, len)) {
        int i = 0;

        while (i < LWK_NREGIONS && !in_region(&p->reg[i], uva, len))
            i++;
        if (i == LWK_NREGIONS)
            return p == pct ? window_ptr(uva, len) : NULL;
        p->reg_hint = i;
        r = &p->reg[i];
    }
    if (write && !(r->pte_flags & PTE_W))
        return NULL;
    return phys_to_virt(r->pa + (uva - r->va));
}

int copy_from_user(struct proc *p, void *dst, uint64_t uva, uint64_t len)
{
    const void *src = user_ptr(p, uva, len, false);

    if (!src)
        return -EFAULT;
    memcpy(dst, src, len);
    return 0;
}

int copy_to_user(struct proc *p, uint64_t uva, const void *src, uint64_t len)
{
    void *dst = user_ptr(p, uva, len, true);

    if (!dst)
        return -EFAULT;
    memcpy(dst, src, len);
    return 0;
}

/* ---- process table ----------------------------------------------------- */

static struct proc *proc_find(uint64_t pid)
{
    for (int i = 0; i < NPROC; i++)
        if (procs[i].state != P_FREE && (uint64_t)procs[i].pid == pid)
            return &procs[i];
    return NULL;
}

static void release(struct proc *p)
{
    kptl_release(p);
    for (int i = 0; i < LWK_NREGIONS; i++) {
        struct region_map *r = &p->reg[i];
        if (!r->size)
            continue;
        if (p->pct_window)
            unmap_range(pct->cr3, p->pct_window + i * REGION_SPAN, r->size);
        if (mem_region_free(r->pa, r->size) < 0)
            panic("region of pid %d was not allocated", p->pid);
    }
    if (p->cr3)
        aspace_free(p->cr3);
    if (pct && p != pct)
        write_cr3(read_cr3());  /* drop the PCT's stale window entries */
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
        d->stack_size > REGION_SPAN)
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
    int rc;

    if (!size)
        return 0;
    if ((rc = mem_region_alloc(&size, p->is_pct, &r->pa)) < 0)
        return rc;
    if (i == LWK_REG_STACK)     /* ends at LWK_STACK_TOP even if it grew */
        va = LWK_STACK_TOP - size;
    r->va = va;
    r->size = size;
    r->pte_flags = flags;
    memset(phys_to_virt(r->pa), 0, size);  /* no data leaks between jobs */
    if ((rc = map_range(p->cr3, va, r->pa, size, flags | PTE_U)) < 0)
        return rc;
    if (p->pct_window)
        rc = map_range(pct->cr3, p->pct_window + i * REGION_SPAN, r->pa,
                       size, PTE_W | PTE_U | nx_bit);
    return rc;
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
                        .is_pct = is_pct, .cr3 = aspace_new() };
    if (!is_pct)
        p->pct_window = LWK_PCT_WINDOW + (uint64_t)(p - procs) * SLOT_SPAN;
    if (!p->cr3 ||
        add_region(p, LWK_REG_TEXT, d->text_va, d->text_size, 0) < 0 ||
        add_region(p, LWK_REG_DATA, d->data_va, d->data_size,
                   PTE_W | nx_bit) < 0 ||
        add_region(p, LWK_REG_STACK, LWK_STACK_TOP - d->stack_size,
                   d->stack_size, PTE_W | nx_bit) < 0) {
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
long proc_heap(uint64_t pid, uint64_t va, uint64_t size)
{
    struct proc *p = proc_find(pid);
    struct region_map *data, *heap;
    int rc;

    if (!p || p == pct || p->state != P_LOADING)
        return -ESRCH;
    data = &p->reg[LWK_REG_DATA];
    heap = &p->reg[LWK_REG_HEAP];
    if (heap->size || !size || size > REGION_SPAN ||
        !IS_ALIGNED(va, PAGE_2M) || !IS_ALIGNED(size, PAGE_4K) ||
        va < data->va + data->size || va >= LWK_STACK_TOP ||
        ALIGN_UP(va + size, PAGE_2M) + PAGE_2M > p->reg[LWK_REG_STACK].va)
        return -EINVAL;
    if ((rc = add_region(p, LWK_REG_HEAP, va, size, PTE_W | nx_bit)) < 0)
        return rc;
    return (long)heap->size;
}

static uint8_t fpu_initial[512] __attribute__((aligned(16)));

static void set_entry(struct proc *p, uint64_t entry, uint64_t rsp)
{
    memcpy(p->fpu, fpu_initial, sizeof(p->fpu));
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

long proc_destroy(uint64_t pid)
{
    struct proc *p = proc_find(pid);

    if (!p || p == pct)
        return -ESRCH;
    release(p);
    return 0;
}

/* ---- switching ----------------------------------------------------------- */

/* Processes use SSE/x87 (the kernel never does), so their FPU state is
   switched with them. */
static void switch_to(struct trapframe *tf, struct proc *next)
{
    __asm__ volatile("fxsave %0" : "=m"(current->fpu));
    __asm__ volatile("fxrstor %0" : : "m"(next->fpu));
    current->frame = *tf;
    *tf = next->frame;
    current = next;
    write_cr3(next->cr3);
}

static void on_quantum(void)
{
    quantum_over = true;
}

long proc_run(struct trapframe *tf, uint64_t pid, uint64_t quantum,
              uint64_t ures)
{
    struct proc *p = proc_find(pid);

    if (!p || p == pct || p->state != P_READY)
        return -ESRCH;
    if (!user_ptr(pct, ures, sizeof(struct lwk_run_result), true))
        return -EFAULT;
    tf->rax = 0;                /* what proc_run returns when we come back */
    pct_result_uva = ures;
    running = p;
    p->state = P_RUNNING;
    p->result = (struct lwk_run_result){ 0 };
    quantum_over = false;
    if (quantum)
        timer_set(TIMER_QUANTUM, clock_ns() + quantum, on_quantum);
    p->run_start_tsc = rdtsc();
    switch_to(tf, p);
    return 0;
}

/* The running app stopped for `reason`: tell the PCT and switch to it. */
static void stop_running(struct trapframe *tf, uint32_t reason)
{
    struct proc *p = running;
    bool ended = reason == LWK_STOP_EXIT || reason == LWK_STOP_FAULT ||
                 reason == LWK_STOP_ABORT;

    timer_set(TIMER_QUANTUM, 0, NULL);
    if (ended)
        kptl_release(p);        /* its traffic ends with it */
    p->result.reason = reason;
    p->result.ran_ns = tsc_to_ns(rdtsc() - p->run_start_tsc);
    p->cpu_ns += p->result.ran_ns;
    p->state = ended ? P_DEAD : P_READY;
    running = NULL;
    switch_to(tf, pct);
    copy_to_user(pct, pct_result_uva, &p->result, sizeof(p->result));
}

void proc_exit(struct trapframe *tf, int status)
{
    if (current == pct) {
        pr_info("PCT exited with status %d; node stopped\n", status);
        machine_stop(status == 0);
    }
    running->result.status = status;
    stop_running(tf, LWK_STOP_EXIT);
}

void proc_abort(struct trapframe *tf, int status, uint64_t why, uint64_t len,
                int peer)
{
    char *dst = current->result.why;
    const char *src;

    if (current == pct)         /* the PCT has no job to abort */
        proc_exit(tf, status);
    len = MIN(len, LWK_WHY_LEN - 1);
    src = len ? user_ptr(current, why, len, false) : "";
    if (src) {
        memcpy(dst, src, len);
        dst[len] = 0;
    } else {
        ksnprintf(dst, LWK_WHY_LEN, "(its reason was not readable)");
    }
    current->result.status = status;
    current->result.peer = peer;
    stop_running(tf, LWK_STOP_ABORT);
}

void proc_yield(struct trapframe *tf)
{
    if (current != pct) {
        tf->rax = 0;            /* quit_quantum returns 0 when resumed */
        stop_running(tf, LWK_STOP_YIELD);
        return;
    }
    kptl_flush();
    irq_enable_and_halt();      /* the PCT idles until the next interrupt */
    irq_disable();
}

static void user_fault(struct trapframe *tf)
{
    struct lwk_run_result *r = &current->result;

    if (current == pct) {
        trap_dump(tf);
        pr_info("the PCT died (%s); node stopped\n", trap_name(tf->vector));
        machine_stop(false);
    }
    r->fault_vector = tf->vector;
    r->fault_error = tf->error;
    r->fault_addr = tf->vector == VEC_PF ? read_cr2() : 0;
    r->fault_rip = tf->rip;
    r->fault_rsp = tf->rsp;
    pr_info("pid %d killed: %s at rip %#lx (address %#lx, error %#lx)\n",
            current->pid, trap_name(tf->vector), tf->rip, r->fault_addr,
            tf->error);
    stop_running(tf, LWK_STOP_FAULT);
}

void proc_user_trap(struct trapframe *tf)
{
    if (tf->vector < 32) {
        user_fault(tf);
        return;
    }
    trap_handle_irq(tf);
    if (quantum_over && current == running && running)
        stop_running(tf, LWK_STOP_QUANTUM);
    quantum_over = false;
}

/* A quantum that ended while the process was in a system call (waiting
   for the network) takes effect on the way out. */
void proc_syscall_exit(struct trapframe *tf)
{
    if (quantum_over && running && current == running) {
        quantum_over = false;
        stop_running(tf, LWK_STOP_QUANTUM);
    }
}

#define MODULE_WINDOW   0x00000F0000000000UL    /* boot modules in the PCT */

/* Module `i`'s pages appear at the same offset in a 2 MB page as in
   memory, so its whole chunks map with 2 MB pages and only its own pages
   are visible at the edges. */
static uint64_t module_va(uint64_t i, uint64_t lo)
{
    return MODULE_WINDOW + i * GiB(4) + lo % PAGE_2M;
}

uint64_t module_map_into(struct proc *p, uint64_t i, uint64_t start,
                         uint64_t end)
{
    uint64_t lo = ALIGN_DOWN(start, PAGE_4K), hi = ALIGN_UP(end, PAGE_4K);

    if (end <= start || hi - lo > GiB(4) - PAGE_2M ||
        map_range(p->cr3, module_va(i, lo), lo, hi - lo, PTE_U | nx_bit) < 0)
        return 0;
    write_cr3(read_cr3());
    return module_va(i, lo) + (start - lo);
}

void module_unmap_from(struct proc *p, uint64_t i, uint64_t start,
                       uint64_t end)
{
    uint64_t lo = ALIGN_DOWN(start, PAGE_4K), hi = ALIGN_UP(end, PAGE_4K);

    if (end <= start || hi - lo > GiB(4) - PAGE_2M)
        return;
    unmap_range(p->cr3, module_va(i, lo), hi - lo);
    write_cr3(read_cr3());
}

/* ---- boot ---------------------------------------------------------------- */

/* Enable x87/SSE for ring 3 and keep a clean state for new processes. */
static void fpu_init(void)
{
    uint64_t cr0, cr4;
    uint32_t mxcsr = 0x1F80;    /* all exceptions masked, round to nearest */

    __asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
    cr0 = (cr0 & ~(1UL << 2)) | (1UL << 1);     /* EM off, MP on */
    __asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
    __asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
    cr4 |= (1UL << 9) | (1UL << 10);            /* OSFXSR, OSXMMEXCPT */
    __asm__ volatile("mov %0, %%cr4" : : "r"(cr4));
    __asm__ volatile("fninit; ldmxcsr %1; fxsave %0"
                     : "=m"(fpu_initial) : "m"(mxcsr));
}

void proc_init(void)
{
    syscall_kstack_top = (uint64_t)&kstack[sizeof(kstack)];
    gdt_set_kernel_stack(syscall_kstack_top);
    if (rdmsr(MSR_EFER) & EFER_NXE)
        nx_bit = PTE_NX;
    fpu_init();
}

__noreturn void proc_start_pct(const void *image, uint64_t len)
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
    write_cr3(pct->cr3);
    struct trapframe *tf = (void *)(syscall_kstack_top - sizeof(*tf));
    *tf = pct->frame;
    trap_return_to(tf);
}
