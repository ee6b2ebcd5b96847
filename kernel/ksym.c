/*
 * Kernel symbols for stack traces.  tools/genksyms writes the table
 * (sorted function addresses and names) after a first link; the final
 * link places it after text and data, so no function moves.
 */
#define LOG_PREFIX "trap"
#include "kernel.h"
#include "console.h"
#include "memlayout.h"
#include "trap.h"

struct ksym {
    uint64_t addr;
    const char *name;
};

extern const uint64_t ksym_count;
extern const struct ksym ksym_table[];
extern const char _text[], _etext[];

const char *ksym_lookup(uint64_t addr, uint64_t *offset)
{
    uint64_t lo = 0, hi = ksym_count;

    if (addr < (uint64_t)_text || addr >= (uint64_t)_etext || !hi)
        return NULL;
    /* Greatest entry with entry.addr <= addr. */
    while (hi - lo > 1) {
        uint64_t mid = (lo + hi) / 2;
        if (ksym_table[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    if (ksym_table[lo].addr > addr)
        return NULL;
    *offset = addr - ksym_table[lo].addr;
    return ksym_table[lo].name;
}

static void print_frame(uint64_t rip)
{
    uint64_t off;
    const char *sym = ksym_lookup(rip, &off);

    if (sym)
        pr_info("  [%016lx] %s+%#lx\n", rip, sym, off);
    else
        pr_info("  [%016lx] ?\n", rip);
}

/* Print `rip` (unless 0), then walk the frame-pointer chain from `rbp`
   (the kernel is built with frame pointers).  Every step is checked so a corrupt stack ends the trace, not the dump. */
void stacktrace_print(uint64_t rip, uint64_t rbp)
{
    pr_info("stack trace:\n");
    if (rip)
        print_frame(rip);
    for (int depth = 0; depth < 32; depth++) {
        const uint64_t *frame = (const uint64_t *)rbp;
        uint64_t next;

        if (rbp < PHYSMAP_BASE || !IS_ALIGNED(rbp, 8))
            break;
        next = frame[0];
        if (frame[1] == 0)
            break;
        print_frame(frame[1]);
        if (next <= rbp)
            break;
        rbp = next;
    }
}
