/*
 * PCI (pci.c): configuration space through the legacy ports 0xCF8/0xCFC,
 * one enumeration at boot into a fixed table, BAR decoding, capability
 * walks and MSI-X.  Drivers find their device in the table and map its
 * BARs with pci_bar_map.
 */
#ifndef PCI_H
#define PCI_H

#include "kernel.h"

#define PCI_MAX_DEVS        64
#define PCI_NUM_BARS        6

/* Configuration header offsets (type 0 unless noted). */
#define PCI_VENDOR_ID       0x00
#define PCI_DEVICE_ID       0x02
#define PCI_COMMAND         0x04
#define PCI_STATUS          0x06
#define PCI_REVISION        0x08
#define PCI_HEADER_TYPE     0x0E
#define PCI_BAR0            0x10
#define PCI_SECONDARY_BUS   0x19    /* type 1 (bridge) */
#define PCI_CAP_PTR         0x34

#define PCI_CMD_IO          (1 << 0)
#define PCI_CMD_MEMORY      (1 << 1)
#define PCI_CMD_MASTER      (1 << 2)
#define PCI_CMD_INTX_OFF    (1 << 10)
#define PCI_STATUS_CAPS     (1 << 4)

#define PCI_CAP_MSIX        0x11
#define PCI_CAP_VENDOR      0x09

struct pci_bar {
    uint64_t base;              /* physical (memory) or port (I/O); 0: none */
    uint64_t size;
    bool io, is64, prefetch;
};

struct pci_dev {
    uint8_t bus, dev, fn;
    uint16_t vendor, device;
    uint8_t class, subclass, progif, revision;
    struct pci_bar bar[PCI_NUM_BARS];
    uint8_t msix_cap;           /* config offset of MSI-X capability, or 0 */
    uint16_t msix_size;         /* table entries */
};

/* Enumerate every bus reachable from bus 0; logs one line per device. */
void pci_init(void);
/* The i-th device found (NULL past the end), in bus/dev/fn order. */
struct pci_dev *pci_nth(int i);

uint32_t pci_read32(const struct pci_dev *d, uint8_t off);
uint16_t pci_read16(const struct pci_dev *d, uint8_t off);
uint8_t pci_read8(const struct pci_dev *d, uint8_t off);
void pci_write32(const struct pci_dev *d, uint8_t off, uint32_t v);
void pci_write16(const struct pci_dev *d, uint8_t off, uint16_t v);

/* Config offset of the first capability with `id` after offset `after`
   (0: from the start of the list), or 0 if there is none. */
uint8_t pci_find_cap(const struct pci_dev *d, uint8_t id, uint8_t after);
/* Turn on memory decoding and bus mastering (DMA); INTx off. */
void pci_enable(const struct pci_dev *d);
/* Kernel virtual address of memory BAR `bar` at `off`, len bytes
   (mapped uncached), or NULL if the BAR is absent, I/O, or too small. */
void *pci_bar_map(const struct pci_dev *d, int bar, uint64_t off, uint64_t len);
/* Program MSI-X table entry `entry` to deliver `vector` to the local APIC
   `dest_apic` (edge, fixed), unmask it and enable MSI-X; again to move
   the interrupt to another CPU.  0, or -ENODEV (no MSI-X), -EINVAL
   (entry out of range or table unmappable). */
int pci_msix_enable(struct pci_dev *d, int entry, uint8_t vector,
                    uint32_t dest_apic);

/* "bb:dd.f" into buf (8 bytes). */
const char *pci_name(const struct pci_dev *d, char buf[8]);

#endif
