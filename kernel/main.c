/*
 * kmain: the Q-Kernel's boot sequence, in order.  Each step logs one line
 * with its subsystem's prefix; the last line is the ready line that
 * launchers and tests wait for.
 */
#define LOG_PREFIX "qkernel"
#include "kernel.h"
#include "bootinfo.h"
#include "acpi.h"
#include "cmdline.h"
#include "cpu.h"
#include "console.h"
#include "ktest.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "pci.h"
#include "portals.h"
#include "power.h"
#include "proc.h"
#include "panic.h"
#include "timer.h"
#include "trap.h"
#include "e1000e.h"
#include "virtio_net.h"
#include "x86.h"

struct bootinfo bootinfo;
struct cmdline kernel_cmdline;
struct acpi acpi_tables;
uint64_t node_id;

/* The loader's info block lies below 4 GiB, identity-mapped by boot/entry.S
   until paging_init replaces the boot tables. */
static const void *boot_phys_to_virt(uint64_t phys)
{
    return (const void *)phys;
}

static void parse_boot(uint32_t magic, uint32_t info)
{
    if (bootinfo_parse(&bootinfo, magic, (const void *)(uint64_t)info, info,
                       boot_phys_to_virt) < 0)
        panic("unknown boot loader (magic %#x) or malformed boot info; boot "
              "with GRUB multiboot2 or qemu -kernel", magic);
    cmdline_parse(&kernel_cmdline, bootinfo.cmdline);
    machine_exit_on_stop = cmdline_get(&kernel_cmdline, "test") != NULL;
    machine_reset_on_panic = cmdline_get(&kernel_cmdline, "panic") &&
        !strcmp(cmdline_get(&kernel_cmdline, "panic"), "reset");
    if (cmdline_get_u64(&kernel_cmdline, "nid", 0, &node_id) < 0)
        panic("nid=%s is not a number; give the node id as nid=N",
              cmdline_get(&kernel_cmdline, "nid"));
    pr_info("booted by %s, command line \"%s\"\n", bootinfo.loader,
            bootinfo.cmdline);
    if (bootinfo.truncated || kernel_cmdline.truncated)
        pr_warn("boot info or command line truncated (too many entries or "
                "too long); some settings may be missing\n");
}

/* ACPI tables lie in firmware memory inside the PHYSMAP. */
static const void *acpi_map(uint64_t phys, uint64_t len)
{
    if (phys + len < phys || phys + len > paging_physmap_top())
        return NULL;
    return phys_to_virt(phys);
}

static void find_acpi(void)
{
    const char *why;

    if (acpi_init(&acpi_tables, bootinfo.rsdp_len ? bootinfo.rsdp : NULL,
                  bootinfo.rsdp_len, acpi_map, &why) < 0) {
        pr_warn("no ACPI tables (%s)\n", why);
        return;
    }
    pr_info("ACPI %s tables from %s, OEM %s: %d read, %d refused (bad "
            "checksum)\n", acpi_tables.revision >= 2 ? "2.0+" : "1.0",
            bootinfo.rsdp_len ? "the boot loader" : "the BIOS area",
            acpi_tables.oem_id, acpi_tables.ntables, acpi_tables.nbad);
}

/* cpus=N on the command line: start at most N CPUs (default all). */
static void start_cpus(void)
{
    uint64_t max;

    if (cmdline_get_u64(&kernel_cmdline, "cpus", MAX_CPUS, &max) < 0 || !max)
        panic("cpus=%s is not a CPU count; give cpus=N with N >= 1",
              cmdline_get(&kernel_cmdline, "cpus"));
    smp_init(max);
}

static void ready(void)
{
    struct mem_stats st;
    uint64_t us = tsc_to_ns(rdtsc() - boot_tsc) / 1000;

    mem_get_stats(&st);
    pr_info("ready nid=%lu boot_us=%lu ram_kib=%lu kernel_kib=%lu "
            "free_kib=%lu os_free_kib=%lu cpus=%d\n", node_id, us,
            st.total >> 10, st.kernel >> 10, st.free >> 10, st.os_free >> 10,
            ncpus);
}

static void start_pct(void);
void kmain(uint32_t magic, uint32_t info);
void kmain(uint32_t magic, uint32_t info)
{
    const char *test;

    console_init();             /* serial first: everything after can log */
    cpu_init_boot();            /* this CPU's area, through GS */
    parse_boot(magic, info);    /* copy what the loader left us */
    trap_init();                /* GDT, TSS, IDT: faults are reported now */
    mem_init(&bootinfo);        /* region pool from the memory map */
    paging_init();              /* 2 MB page tables; boot identity map gone */
    console_setup(&kernel_cmdline, &bootinfo.fb);   /* console=fb */
    apic_init();                /* local APIC on, 8259 PICs masked */
    find_acpi();                /* RSDP, root table, checksummed tables */
    power_init();               /* FADT and \_S5: power-off, reset */
    timer_init();               /* TSC (PIT, HPET or PM timer), LAPIC */
    rtc_init();                 /* wall-clock base for CLOCK_REALTIME */
    start_cpus();               /* MADT's CPUs up, idle in their halt loop */
    pci_init();                 /* enumerate the PCI buses */
    virtio_net_probe();         /* NICs up, registered with netdev */
    e1000e_probe();
    portals_init();             /* Portals on the NIC, nid from nid= */
    proc_init();                /* kernel stack for traps from ring 3 */
    syscall_init();             /* syscall/sysret MSRs */
    ready();

    test = cmdline_get(&kernel_cmdline, "test");
    if (test) {
        irq_enable();
        machine_stop(ktest_run(test) == 0);
    }
    start_pct();
}

/* The PCT is the boot module whose first word's file name is "pct" or
   "pct.elf" (GRUB: `module2 /boot/pct.elf pct.elf`; QEMU: -initrd
   build/pct/pct.elf).  Without one the node can only idle. */
static bool is_pct_module(const char *name)
{
    const char *base = name, *end = name;

    for (; *end && *end != ' '; end++)
        if (*end == '/')
            base = end + 1;
    return (end - base == 3 && !strncmp(base, "pct", 3)) ||
           (end - base == 7 && !strncmp(base, "pct.elf", 7));
}

static void start_pct(void)
{
    for (int i = 0; i < bootinfo.nmods; i++) {
        const struct bootinfo_mod *m = &bootinfo.mods[i];
        if (is_pct_module(m->name))
            proc_start_pct(i, phys_to_virt(m->start), m->end - m->start);
    }
    pr_info("no PCT module given; the node idles\n");
    for (;;)
        irq_enable_and_halt();
}
