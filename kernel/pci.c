/*
 * PCI enumeration and configuration (see include/pci.h).  Configuration
 * mechanism #1 (ports 0xCF8/0xCFC) reaches the first 256 bytes of every
 * function, which is all a virtio device needs; ECAM would add nothing.
 */
#define LOG_PREFIX "pci"
#include "kernel.h"
#include "console.h"
#include "memlayout.h"
#include "paging.h"
#include "pci.h"
#include "printf.h"
#include "timer.h"
#include "x86.h"

#define CONFIG_ADDRESS      0xCF8
#define CONFIG_DATA         0xCFC

#define MSIX_CTRL           2       /* offsets in the MSI-X capability */
#define MSIX_TABLE          4
#define MSIX_CTRL_ENABLE    (1 << 15)
#define MSIX_CTRL_MASKALL   (1 << 14)
#define MSIX_ENTRY_SIZE     16
#define MSI_ADDR_BASE       0xFEE00000u     /* x86: LAPIC, physical dest */

static struct pci_dev devs[PCI_MAX_DEVS];
static int ndevs;
static uint64_t buses_seen[256 / 64];

static uint32_t cfg_addr(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
    return 0x80000000u | (uint32_t)bus << 16 | (uint32_t)dev << 11 |
           (uint32_t)fn << 8 | (off & 0xFC);
}

static uint32_t cfg_read(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
    outl(CONFIG_ADDRESS, cfg_addr(bus, dev, fn, off));
    return inl(CONFIG_DATA);
}

uint32_t pci_read32(const struct pci_dev *d, uint8_t off)
{
    return cfg_read(d->bus, d->dev, d->fn, off);
}

uint16_t pci_read16(const struct pci_dev *d, uint8_t off)
{
    return pci_read32(d, off) >> ((off & 2) * 8);
}

uint8_t pci_read8(const struct pci_dev *d, uint8_t off)
{
    return pci_read32(d, off) >> ((off & 3) * 8);
}

void pci_write32(const struct pci_dev *d, uint8_t off, uint32_t v)
{
    outl(CONFIG_ADDRESS, cfg_addr(d->bus, d->dev, d->fn, off));
    outl(CONFIG_DATA, v);
}

void pci_write16(const struct pci_dev *d, uint8_t off, uint16_t v)
{
    outl(CONFIG_ADDRESS, cfg_addr(d->bus, d->dev, d->fn, off));
    outw(CONFIG_DATA + (off & 2), v);
}

const char *pci_name(const struct pci_dev *d, char buf[8])
{
    ksnprintf(buf, 8, "%02x:%02x.%x", d->bus, d->dev, d->fn);
    return buf;
}

/* Size a BAR the standard way: write all ones, read back the mask of
   writable address bits.  Decoding is off meanwhile so the device never
   answers at the transient address.  Returns the BAR slots used. */
static int probe_bar(struct pci_dev *d, int i)
{
    uint8_t off = PCI_BAR0 + 4 * i;
    uint32_t lo = pci_read32(d, off), mask, hi = 0, hmask = 0;
    struct pci_bar *b = &d->bar[i];

    pci_write32(d, off, ~0u);
    mask = pci_read32(d, off);
    pci_write32(d, off, lo);
    if (!mask)
        return 1;               /* not implemented */
    if (lo & 1) {
        b->io = true;
        b->base = lo & ~3u;
        b->size = (uint16_t)(~(mask & ~3u) + 1);
        return 1;
    }
    b->prefetch = lo & 8;
    b->is64 = ((lo >> 1) & 3) == 2;
    if (b->is64 && i + 1 < PCI_NUM_BARS) {
        hi = pci_read32(d, off + 4);
        pci_write32(d, off + 4, ~0u);
        hmask = pci_read32(d, off + 4);
        pci_write32(d, off + 4, hi);
    }
    b->base = ((uint64_t)hi << 32) | (lo & ~0xFu);
    b->size = ~(((uint64_t)hmask << 32) | (mask & ~0xFu)) + 1;
    if (!b->is64)
        b->size &= 0xFFFFFFFFu;
    return b->is64 ? 2 : 1;
}

static void probe_bars(struct pci_dev *d, int nbars)
{
    uint16_t cmd = pci_read16(d, PCI_COMMAND);

    pci_write16(d, PCI_COMMAND, cmd & ~(PCI_CMD_IO | PCI_CMD_MEMORY));
    for (int i = 0; i < nbars; )
        i += probe_bar(d, i);
    pci_write16(d, PCI_COMMAND, cmd);
}

uint8_t pci_find_cap(const struct pci_dev *d, uint8_t id, uint8_t after)
{
    uint8_t p;
    int guard = 48;             /* a looping list must not hang the boot */

    if (!(pci_read16(d, PCI_STATUS) & PCI_STATUS_CAPS))
        return 0;
    p = after ? pci_read8(d, after + 1) : pci_read8(d, PCI_CAP_PTR);
    for (; p >= 0x40 && guard--; p = pci_read8(d, p + 1)) {
        p &= 0xFC;
        if (pci_read8(d, p) == id)
            return p;
    }
    return 0;
}

static void scan_bus(uint8_t bus);

static void add_function(uint8_t bus, uint8_t dev, uint8_t fn)
{
    uint32_t id = cfg_read(bus, dev, fn, PCI_VENDOR_ID);
    uint32_t cls = cfg_read(bus, dev, fn, PCI_REVISION);
    uint8_t htype = cfg_read(bus, dev, fn, 0x0C) >> 16 & 0x7F;
    struct pci_dev *d;

    if (ndevs == PCI_MAX_DEVS) {
        pr_warn("more than %d PCI functions; %02x:%02x.%x and later are "
                "ignored\n", PCI_MAX_DEVS, bus, dev, fn);
        return;
    }
    d = &devs[ndevs++];
    *d = (struct pci_dev){ .bus = bus, .dev = dev, .fn = fn,
        .vendor = id & 0xFFFF, .device = id >> 16, .class = cls >> 24,
        .subclass = cls >> 16, .progif = cls >> 8, .revision = cls };
    probe_bars(d, htype == 0 ? 6 : htype == 1 ? 2 : 0);
    d->msix_cap = pci_find_cap(d, PCI_CAP_MSIX, 0);
    if (d->msix_cap)
        d->msix_size = (pci_read16(d, d->msix_cap + MSIX_CTRL) & 0x7FF) + 1;
    if (htype == 1)             /* PCI-to-PCI bridge: its side too */
        scan_bus(pci_read8(d, PCI_SECONDARY_BUS));
}

static void scan_bus(uint8_t bus)
{
    if (buses_seen[bus / 64] & (1ULL << (bus % 64)))
        return;
    buses_seen[bus / 64] |= 1ULL << (bus % 64);
    for (uint8_t dev = 0; dev < 32; dev++) {
        int nfn;
        if ((cfg_read(bus, dev, 0, PCI_VENDOR_ID) & 0xFFFF) == 0xFFFF)
            continue;
        nfn = (cfg_read(bus, dev, 0, 0x0C) >> 16 & 0x80) ? 8 : 1;
        for (uint8_t fn = 0; fn < nfn; fn++)
            if ((cfg_read(bus, dev, fn, PCI_VENDOR_ID) & 0xFFFF) != 0xFFFF)
                add_function(bus, dev, fn);
    }
}

void pci_init(void)
{
    char nm[8];

    scan_bus(0);
    for (int i = 0; i < ndevs; i++) {
        struct pci_dev *d = &devs[i];
        pr_info("%s %04x:%04x class %02x.%02x%s\n", pci_name(d, nm),
                d->vendor, d->device, d->class, d->subclass,
                d->msix_cap ? " msix" : "");
    }
}

struct pci_dev *pci_nth(int i)
{
    return i >= 0 && i < ndevs ? &devs[i] : NULL;
}

void pci_enable(const struct pci_dev *d)
{
    uint16_t cmd = pci_read16(d, PCI_COMMAND);

    pci_write16(d, PCI_COMMAND,
                cmd | PCI_CMD_MEMORY | PCI_CMD_MASTER | PCI_CMD_INTX_OFF);
}

void *pci_bar_map(const struct pci_dev *d, int bar, uint64_t off, uint64_t len)
{
    const struct pci_bar *b;

    if (bar < 0 || bar >= PCI_NUM_BARS)
        return NULL;
    b = &d->bar[bar];
    if (!b->base || b->io || off > b->size || len > b->size - off)
        return NULL;
    /* PHYSMAP covers the MMIO hole below 4 GiB; a BAR the firmware put
       higher needs its own (uncached) mapping. */
    if (b->base + b->size > GiB(4) && paging_map_mmio(b->base, b->size) < 0)
        return NULL;
    return phys_to_virt(b->base + off);
}

int pci_msix_enable(struct pci_dev *d, int entry, uint8_t vector,
                    uint32_t dest_apic)
{
    uint32_t tbl;
    volatile uint32_t *e;
    uint16_t ctrl;

    if (!d->msix_cap)
        return -ENODEV;
    if (entry < 0 || entry >= d->msix_size)
        return -EINVAL;
    tbl = pci_read32(d, d->msix_cap + MSIX_TABLE);
    e = pci_bar_map(d, tbl & 7, (tbl & ~7u) + entry * MSIX_ENTRY_SIZE,
                    MSIX_ENTRY_SIZE);
    if (!e)
        return -EINVAL;
    /* Enabled but masked while the entry changes, so no half-written
       message is ever sent. */
    ctrl = pci_read16(d, d->msix_cap + MSIX_CTRL);
    pci_write16(d, d->msix_cap + MSIX_CTRL,
                ctrl | MSIX_CTRL_ENABLE | MSIX_CTRL_MASKALL);
    e[0] = MSI_ADDR_BASE | dest_apic << 12;
    e[1] = 0;
    e[2] = vector;              /* fixed delivery, edge triggered */
    e[3] = 0;                   /* vector control: unmasked */
    pci_write16(d, d->msix_cap + MSIX_CTRL,
                (ctrl | MSIX_CTRL_ENABLE) & ~MSIX_CTRL_MASKALL);
    return 0;
}
