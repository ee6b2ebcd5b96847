/*
 * Physical memory: the pools (see include/mem.h) built from the loader's
 * memory map, region allocation across them, kernel pages, and giving
 * boot modules back once the PCT has loaded them.
 */
#define LOG_PREFIX "mem"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "panic.h"

#define MAX_CHUNKS      65536   /* 2 MB chunks: 128 GiB of address space */
#define MAX_SMALL       32      /* chunks with a 4 KiB page pool */
#define CHUNK_PAGES     (REGION_CHUNK / PAGE_4K)

enum small_kind {
    SP_UNUSED,
    SP_KERNEL,                  /* the kernel's chunk: the OS's pages */
    SP_PARTIAL,                 /* a chunk only partly RAM */
    SP_LENT,                    /* a whole chunk lent by phys_pool */
};

struct small_pool {
    enum small_kind kind;
    struct region_pool pool;
    uint64_t maps[3 * REGION_MAP_WORDS(CHUNK_PAGES)];
};

struct region_pool phys_pool;
static uint64_t phys_maps[3 * REGION_MAP_WORDS(MAX_CHUNKS)];
/* Chunks of phys_pool known to hold only zeros.  A process's regions are
   zeroed before it gets them, and its heap is all the memory the node
   has free: zeroing it whole at every launch was most of a node's launch
   work (1.5 M of 2.2 M instructions on a 16 MiB node, 15 M on 128 MiB,
   seconds on a node of many GiB), though a job writes a few chunks of it.
   A bit is set by mem_region_alloc_zeroed, which zeroed the chunk or found
   it zero, and cleared by every other allocation (its owner may write
   anything) and by mem_dirty.  A chunk nobody has had since boot (fresh)
   is read before it is zeroed: a virtual machine's RAM reads zero at
   power-on, and reading it costs the host no memory where writing zeros
   would make it back every node's whole RAM; on hardware the first
   non-zero word ends the read. */
static uint64_t zero_map[REGION_MAP_WORDS(MAX_CHUNKS)];
static uint64_t fresh_map[REGION_MAP_WORDS(MAX_CHUNKS)];
static struct small_pool small[MAX_SMALL];
static const struct bootinfo *boot;
static bool released[BOOTINFO_MAX_MODS];
static uint64_t ram_total, ram_top, kpages;

extern char _kernel_end[];

static uint64_t kernel_end_phys(void)
{
    return kernel_virt_to_phys(_kernel_end);
}

/* ---- the pools ----------------------------------------------------------- */

static struct small_pool *small_find(uint64_t chunk)
{
    for (int i = 0; i < MAX_SMALL; i++)
        if (small[i].kind != SP_UNUSED && small[i].pool.base == chunk)
            return &small[i];
    return NULL;
}

static struct small_pool *small_new(uint64_t chunk, enum small_kind kind)
{
    for (int i = 0; i < MAX_SMALL; i++) {
        if (small[i].kind != SP_UNUSED)
            continue;
        small[i].kind = kind;
        region_pool_init(&small[i].pool, chunk, CHUNK_PAGES,
                         REGION_PAGE_SHIFT, small[i].maps);
        return &small[i];
    }
    return NULL;
}

static bool app_pool(const struct small_pool *sp)
{
    return sp->kind == SP_PARTIAL || sp->kind == SP_LENT;
}

/* Why page pools: with 2 MB pages only, a chunk that is partly RAM (a
   PC has one under the BIOS hole and one under the firmware tables at the
   top of RAM) or that holds the kernel is lost whole: 4 MiB of a 128 MiB
   node.  Its 4 KiB pages hold the OS and small regions instead.  Page 0
   is left out: physical address 0 means "no page". */
static void add_page_pool(uint64_t chunk, enum small_kind kind)
{
    struct small_pool *sp = small_find(chunk);

    if (sp)
        return;
    if (!(sp = small_new(chunk, kind))) {
        pr_warn("more than %d partly usable 2 MB chunks; the RAM in "
                "%012lx-%012lx is not used\n", MAX_SMALL, chunk,
                chunk + REGION_CHUNK - 1);
        return;
    }
    /* A whole chunk (the kernel's, on a machine without the BIOS hole)
       leaves phys_pool for good; a partial one was never in it. */
    region_alloc_at(&phys_pool, chunk, REGION_CHUNK);
    for (int i = 0; i < boot->nmem; i++) {
        uint64_t b = MAX(boot->mem[i].base, PAGE_4K);
        uint64_t e = boot->mem[i].base + boot->mem[i].len;
        if (e > b)
            region_pool_add_ram(&sp->pool, b, e - b);
    }
}

static void reserve_everywhere(uint64_t base, uint64_t len)
{
    region_reserve(&phys_pool, base, len);
    for (int i = 0; i < MAX_SMALL; i++)
        if (small[i].kind != SP_UNUSED)
            region_reserve(&small[i].pool, base, len);
}

/* Reserve what the kernel image and the modules not yet released hold. */
static void reserve_held(void)
{
    reserve_everywhere(KERNEL_PHYS, kernel_end_phys() - KERNEL_PHYS);
    for (int i = 0; i < boot->nmods; i++)
        if (!released[i])
            reserve_everywhere(boot->mods[i].start,
                               boot->mods[i].end - boot->mods[i].start);
}

static void build_pools(const struct bootinfo *bi)
{
    uint64_t nchunks = ALIGN_UP(ram_top, REGION_CHUNK) / REGION_CHUNK;

    if (nchunks > MAX_CHUNKS) {
        pr_warn("RAM above %lu GiB is not used (the region map ends there)\n",
                (uint64_t)MAX_CHUNKS * REGION_CHUNK >> 30);
        nchunks = MAX_CHUNKS;
    }
    region_pool_init(&phys_pool, 0, nchunks, REGION_CHUNK_SHIFT, phys_maps);
    for (uint64_t c = 0; c < nchunks; c++)
        fresh_map[c / 64] |= 1ULL << (c % 64);
    for (int i = 0; i < bi->nmem; i++)
        region_pool_add_ram(&phys_pool, bi->mem[i].base, bi->mem[i].len);
    add_page_pool(ALIGN_DOWN(KERNEL_PHYS, REGION_CHUNK), SP_KERNEL);
    for (int i = 0; i < bi->nmem; i++) {
        uint64_t b = bi->mem[i].base, e = b + bi->mem[i].len;
        if (!IS_ALIGNED(b, REGION_CHUNK) && region_contains(&phys_pool, b))
            add_page_pool(ALIGN_DOWN(b, REGION_CHUNK), SP_PARTIAL);
        if (!IS_ALIGNED(e, REGION_CHUNK) && region_contains(&phys_pool, e))
            add_page_pool(ALIGN_DOWN(e, REGION_CHUNK), SP_PARTIAL);
    }
    reserve_held();
}

static void log_pools(void)
{
    for (int i = 0; i < MAX_SMALL; i++)
        if (small[i].kind != SP_UNUSED)
            pr_info("4 KiB pages in chunk %012lx: %lu KiB free (%s)\n",
                    small[i].pool.base, region_free_bytes(&small[i].pool) >> 10,
                    small[i].kind == SP_KERNEL ? "the kernel's, for the OS"
                                               : "partial, for programs");
    pr_info("2 MB chunks: %lu KiB free for programs\n",
            region_free_bytes(&phys_pool) >> 10);
}

void mem_init(const struct bootinfo *bi)
{
    boot = bi;
    pr_info("memory map from %s\n", bi->efi_mmap ? "the EFI memory map "
            "(UEFI)" : "the boot loader");
    for (int i = 0; i < bi->nmem; i++) {
        pr_info("RAM %012lx-%012lx (%lu KiB)\n", bi->mem[i].base,
                bi->mem[i].base + bi->mem[i].len - 1, bi->mem[i].len >> 10);
        ram_total += bi->mem[i].len;
        ram_top = MAX(ram_top, bi->mem[i].base + bi->mem[i].len);
    }
    if (!ram_total)
        panic("the boot loader reported no usable RAM");
    for (int i = 0; i < bi->nmods; i++)
        pr_info("module %d %012lx-%012lx (%lu KiB) %s\n", i,
                bi->mods[i].start, bi->mods[i].end - 1,
                (bi->mods[i].end - bi->mods[i].start) >> 10, bi->mods[i].name);
    build_pools(bi);
    log_pools();
}

/* ---- allocation ---------------------------------------------------------- */

/* No page pool has room: lend the highest free chunk (the low run that
   big regions come from stays whole) to a new one.  It goes back to
   phys_pool when its last page is freed. */
static struct small_pool *lend_chunk(void)
{
    struct small_pool *sp;
    uint64_t pa;

    if (region_alloc_top(&phys_pool, REGION_CHUNK, &pa) < 0)
        return NULL;
    mem_dirty(pa, REGION_CHUNK);        /* its pages go to anyone */
    if (!(sp = small_new(pa, SP_LENT))) {
        region_free(&phys_pool, pa, REGION_CHUNK);
        return NULL;
    }
    region_pool_add_ram(&sp->pool, pa, REGION_CHUNK);
    return sp;
}

static void return_if_empty(struct small_pool *sp)
{
    if (sp->kind != SP_LENT || region_free_bytes(&sp->pool) != REGION_CHUNK)
        return;
    if (region_free(&phys_pool, sp->pool.base, REGION_CHUNK) < 0)
        panic("lent chunk %#lx was not allocated", sp->pool.base);
    sp->kind = SP_UNUSED;
}

/* Pages are taken from the top of a chunk down, so its bottom stays free
   for the tail of a big region running on from the chunk below. */
static int alloc_small(uint64_t bytes, bool os, uint64_t *pa)
{
    struct small_pool *sp;

    for (int i = 0; os && i < MAX_SMALL; i++)
        if (small[i].kind == SP_KERNEL &&
            region_alloc_top(&small[i].pool, bytes, pa) == 0)
            return 0;
    for (int i = 0; i < MAX_SMALL; i++)
        if (app_pool(&small[i]) &&
            region_alloc_top(&small[i].pool, bytes, pa) == 0)
            return 0;
    if (!(sp = lend_chunk()))
        return -ENOMEM;
    return region_alloc_top(&sp->pool, bytes, pa);
}

/* `whole` bytes of chunks directly followed by `tail` bytes at the bottom
   of a page pool: one physically contiguous region. */
static int alloc_tail(uint64_t whole, uint64_t tail, uint64_t *pa)
{
    for (int i = 0; i < MAX_SMALL; i++) {
        struct small_pool *sp = &small[i];
        uint64_t at = sp->pool.base;
        if (!app_pool(sp) || region_free_above(&sp->pool, at) < tail ||
            region_free_below(&phys_pool, at) < whole)
            continue;
        if (region_alloc_at(&phys_pool, at - whole, whole) < 0 ||
            region_alloc_at(&sp->pool, at, tail) < 0)
            panic("region allocator disagrees with its own free runs");
        *pa = at - whole;
        return 0;
    }
    return -ENOMEM;
}

static int alloc_region(uint64_t *size, bool os, uint64_t *pa)
{
    uint64_t whole, tail;

    if (*size == 0 || *size > ram_top)
        return -EINVAL;
    *size = ALIGN_UP(*size, PAGE_4K);
    whole = ALIGN_DOWN(*size, REGION_CHUNK);
    tail = *size - whole;
    if (!tail)
        return region_alloc(&phys_pool, whole, pa);
    if (!whole ? alloc_small(tail, os, pa) == 0
               : alloc_tail(whole, tail, pa) == 0)
        return 0;
    /* No partial chunk fits: whole chunks, and the region grows to fill
       them rather than leave part of a chunk nobody can use. */
    *size = whole + REGION_CHUNK;
    return region_alloc(&phys_pool, *size, pa);
}

int mem_region_alloc(uint64_t *size, bool os, uint64_t *pa)
{
    int rc = alloc_region(size, os, pa);

    if (rc == 0)
        mem_dirty(*pa, *size);
    return rc;
}

static bool chunk_bit(const uint64_t *map, uint64_t chunk)
{
    uint64_t c = chunk >> REGION_CHUNK_SHIFT;

    return (map[c / 64] >> (c % 64)) & 1;
}

static bool reads_zero(uint64_t chunk)
{
    const uint64_t *w = phys_to_virt(chunk), *end = w + REGION_CHUNK / 8;

    for (; w < end; w += 8)
        if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
            return false;
    return true;
}

/* Zero `chunk` unless it is known or found to be zero; then it is known. */
static uint64_t zero_chunk(uint64_t chunk)
{
    uint64_t c = chunk >> REGION_CHUNK_SHIFT;
    bool done = chunk_bit(zero_map, chunk) ||
                (chunk_bit(fresh_map, chunk) && reads_zero(chunk));

    fresh_map[c / 64] &= ~(1ULL << (c % 64));
    zero_map[c / 64] |= 1ULL << (c % 64);
    if (done)
        return 0;
    memset(phys_to_virt(chunk), 0, REGION_CHUNK);
    return REGION_CHUNK;
}

/* Pages of a small pool are zeroed every time: they are few, and a bit a
   chunk cannot say which of its pages a job wrote. */
int mem_region_alloc_zeroed(uint64_t *size, bool os, uint64_t *pa,
                            uint64_t *zeroed)
{
    uint64_t end, hi;
    int rc = alloc_region(size, os, pa);

    *zeroed = 0;
    if (rc < 0)
        return rc;
    end = *pa + *size;
    for (uint64_t lo = *pa; lo < end; lo = hi) {
        uint64_t chunk = ALIGN_DOWN(lo, REGION_CHUNK);
        hi = MIN(chunk + REGION_CHUNK, end);
        if (!small_find(chunk)) {
            *zeroed += zero_chunk(chunk);       /* a whole chunk */
        } else {
            memset(phys_to_virt(lo), 0, hi - lo);
            *zeroed += hi - lo;
        }
    }
    return 0;
}

void mem_dirty(uint64_t pa, uint64_t len)
{
    uint64_t c, last;

    if (!len)
        return;
    last = MIN((pa + len - 1) >> REGION_CHUNK_SHIFT, (uint64_t)MAX_CHUNKS - 1);
    for (c = pa >> REGION_CHUNK_SHIFT; c <= last; c++) {
        zero_map[c / 64] &= ~(1ULL << (c % 64));
        fresh_map[c / 64] &= ~(1ULL << (c % 64));
    }
}

int mem_region_free(uint64_t pa, uint64_t size)
{
    uint64_t end = pa + size, hi;
    int rc = 0;

    if (!size || end < pa || !IS_ALIGNED(pa | size, PAGE_4K))
        return -EINVAL;
    for (uint64_t lo = pa; lo < end && rc == 0; lo = hi) {
        struct small_pool *sp = small_find(ALIGN_DOWN(lo, REGION_CHUNK));
        hi = MIN(ALIGN_DOWN(lo, REGION_CHUNK) + REGION_CHUNK, end);
        if (!sp) {
            rc = region_free(&phys_pool, lo, hi - lo);
        } else if ((rc = region_free(&sp->pool, lo, hi - lo)) == 0) {
            return_if_empty(sp);
        }
    }
    return rc;
}

uint64_t mem_largest_free(void)
{
    uint64_t best = region_largest_free(&phys_pool);

    for (int i = 0; i < MAX_SMALL; i++) {
        const struct region_pool *sp = &small[i].pool;
        if (!app_pool(&small[i]))
            continue;
        best = MAX(best, region_largest_free(sp));
        uint64_t below = region_free_below(&phys_pool, sp->base);
        /* A tail is under a chunk: a free chunk is counted as a chunk. */
        uint64_t above = MIN(region_free_above(sp, sp->base),
                             REGION_CHUNK - PAGE_4K);
        if (below)
            best = MAX(best, below + above);
    }
    return best;
}

/* ---- kernel pages -------------------------------------------------------- */

uint64_t kpage_alloc(void)
{
    uint64_t p;

    if (alloc_small(PAGE_4K, true, &p) < 0)
        return 0;
    kpages++;
    memset(mem_early_virt(p), 0, PAGE_4K);
    return p;
}

uint64_t kpage_alloc_low(void)
{
    struct small_pool *sp = small_find(0);

    for (uint64_t pa = PAGE_4K; sp && pa < MiB(1); pa += PAGE_4K)
        if (region_alloc_at(&sp->pool, pa, PAGE_4K) == 0) {
            kpages++;
            memset(mem_early_virt(pa), 0, PAGE_4K);
            return pa;
        }
    return 0;
}

void kpage_free(uint64_t phys)
{
    if (mem_region_free(phys, PAGE_4K) < 0)
        panic("kpage_free(%#lx): not an allocated kernel page", phys);
    kpages--;
}

uint64_t mem_early_page(void)
{
    uint64_t p = kpage_alloc();

    if (!p)
        panic("out of memory for kernel page tables (%lu KiB used)",
              kpages * PAGE_4K >> 10);
    return p;
}

/* Before paging_init only the first GiB is mapped (at KERNEL_VMA); the
   kernel's chunk is there, and that is where boot page tables come from. */
void *mem_early_virt(uint64_t phys)
{
    if (kernel_cr3)
        return phys_to_virt(phys);
    if (phys >= GiB(1))
        panic("kernel page %#lx above 1 GiB before paging is up", phys);
    return (void *)(phys + KERNEL_VMA);
}

/* ---- boot modules -------------------------------------------------------- */

int mem_module_release(int i)
{
    const struct bootinfo_mod *m;
    struct mem_stats st;

    if (i < 0 || i >= boot->nmods)
        return -ENOENT;
    if (released[i])
        return -EINVAL;
    m = &boot->mods[i];
    released[i] = true;
    region_unreserve(&phys_pool, m->start, m->end - m->start);
    for (int k = 0; k < MAX_SMALL; k++)
        if (small[k].kind != SP_UNUSED)
            region_unreserve(&small[k].pool, m->start, m->end - m->start);
    reserve_held();             /* what it shares with others stays out */
    mem_get_stats(&st);
    pr_info("module %d released: %lu KiB; free: %lu KiB for programs, "
            "%lu KiB in the kernel's chunk (kernel and its pages %lu KiB)\n",
            i, (m->end - m->start) >> 10, st.free >> 10, st.os_free >> 10,
            st.kernel >> 10);
    return 0;
}

bool mem_module_live(int i)
{
    return i >= 0 && i < boot->nmods && !released[i];
}

/* ---- figures ------------------------------------------------------------- */

bool mem_is_ram(uint64_t base, uint64_t len)
{
    for (int i = 0; i < boot->nmem; i++)
        if (base < boot->mem[i].base + boot->mem[i].len &&
            base + len > boot->mem[i].base)
            return true;
    return false;
}

uint64_t mem_top(void)
{
    return ram_top;
}

void mem_get_stats(struct mem_stats *st)
{
    *st = (struct mem_stats){ .total = ram_total };
    st->kernel = kernel_end_phys() - KERNEL_PHYS + kpages * PAGE_4K;
    st->free = region_free_bytes(&phys_pool);
    for (int i = 0; i < MAX_SMALL; i++) {
        if (app_pool(&small[i]))
            st->free += region_free_bytes(&small[i].pool);
        else if (small[i].kind == SP_KERNEL)
            st->os_free += region_free_bytes(&small[i].pool);
    }
    for (int i = 0; i < boot->nmods; i++)
        if (!released[i])
            st->modules += boot->mods[i].end - boot->mods[i].start;
}
