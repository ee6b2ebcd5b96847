/*
 * ACPI tables (acpi.c): the RSDP, the root table (XSDT, else RSDT) and the
 * tables it lists, each checksummed before use; the MADT read into a plain
 * list of CPUs and APICs.  Tables only: no AML, no namespace.
 *
 * Pure logic over a "map" callback that turns a physical range into a
 * pointer (NULL if it cannot be read), so the host unit tests feed it
 * crafted tables (tests/unit/test_acpi.c).  The FADT (power-off, reset,
 * PM timer), the DSDT's \_S5 sleep type (found by byte pattern) and the
 * HPET table are read into plain structs too; kernel/power.c and the
 * TSC calibration (timer.c) act on them.
 */
#ifndef ACPI_H
#define ACPI_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#define ACPI_MAX_TABLES     32
#define ACPI_MAX_CPUS       64
#define ACPI_RSDP_V1_LEN    20
#define ACPI_RSDP_V2_LEN    36

/* Every table starts with this (ACPI 6.5 §5.2.6). */
struct acpi_header {
    char sig[4];
    uint32_t length;
    uint8_t revision, checksum;
    char oem_id[6], oem_table_id[8];
    uint32_t oem_revision, creator_id, creator_revision;
} __attribute__((packed));

typedef const void *(*acpi_map_fn)(uint64_t phys, uint64_t len);

struct acpi {
    acpi_map_fn map;
    int revision;               /* RSDP revision: 0 = ACPI 1.0 (RSDT) */
    char oem_id[7];
    int ntables;
    uint64_t table[ACPI_MAX_TABLES];    /* physical, checksums verified */
    int nbad;                   /* listed tables refused (checksum, map) */
};

/* The kernel's tables, read at boot (main.c). */
extern struct acpi acpi_tables;

/* Find the RSDP: `loader` is the copy a multiboot2 loader passed (len 20
   or 36; NULL if none), else the BIOS areas are searched (the EBDA's first
   KiB, then 0xE0000-0xFFFFF).  Then read the root table and check every
   table it lists.  0, or -1 with *why set. */
int acpi_init(struct acpi *a, const void *loader, size_t len, acpi_map_fn map,
              const char **why);
/* The first table with signature `sig` ("APIC", "HPET", "FACP"), mapped
   whole, or NULL. */
const struct acpi_header *acpi_table(const struct acpi *a, const char *sig);

/* What the MADT says about the interrupt hardware. */
struct acpi_cpu {
    uint32_t apic_id;
    uint32_t uid;               /* ACPI processor UID */
};

struct acpi_madt {
    uint64_t lapic_base;        /* after any address override */
    int ncpus;                  /* enabled (or online-capable) CPUs */
    struct acpi_cpu cpu[ACPI_MAX_CPUS];
    int ncpus_skipped;          /* disabled, or past ACPI_MAX_CPUS */
    int nioapics;
    uint64_t ioapic_base;       /* the first I/O APIC's */
    uint32_t ioapic_id, ioapic_gsi_base;
};

/* Read the MADT ("APIC").  0, or -1 with *why set (no MADT, malformed). */
int acpi_madt(const struct acpi *a, struct acpi_madt *m, const char **why);

/* A Generic Address Structure (ACPI 6.5 §5.2.3.2). */
struct acpi_gas {
    uint8_t space;              /* ACPI_SPACE_* */
    uint8_t bit_width, bit_offset, access_size;
    uint64_t addr;
} __attribute__((packed));
#define ACPI_SPACE_MEM      0
#define ACPI_SPACE_IO       1
#define ACPI_SPACE_PCI      2

/* What the FADT ("FACP", §5.2.9) says about power and time.  Addresses
   are I/O ports (the 64-bit X_ blocks are used when they are I/O ports,
   else the 32-bit ones); 0 where the machine has none. */
struct acpi_fadt {
    uint64_t dsdt;              /* physical; X_DSDT preferred */
    uint32_t smi_cmd;           /* port to write acpi_enable to; 0: none */
    uint8_t acpi_enable;
    uint16_t pm1a_cnt, pm1b_cnt;
    uint16_t pm_tmr;            /* ACPI PM timer port (3.579545 MHz) */
    int pm_tmr_bits;            /* 24 or 32 (flag TMR_VAL_EXT) */
    bool reset_supported;       /* flag RESET_REG_SUP and a register */
    struct acpi_gas reset_reg;
    uint8_t reset_value;
    uint16_t boot_arch;         /* IAPC_BOOT_ARCH: ACPI_BOOT_* */
    uint32_t flags;             /* ACPI_FADT_* */
};
#define ACPI_FADT_TMR_VAL_EXT   (1u << 8)
#define ACPI_FADT_RESET_REG_SUP (1u << 10)
#define ACPI_FADT_HW_REDUCED    (1u << 20)
#define ACPI_BOOT_LEGACY_DEVICES (1u << 0)
#define ACPI_BOOT_NO_CMOS_RTC   (1u << 5)
/* PM1 control register bits (§4.8.3.2.1). */
#define ACPI_PM1_SCI_EN         (1u << 0)
#define ACPI_PM1_SLP_TYP_SHIFT  10
#define ACPI_PM1_SLP_EN         (1u << 13)
#define ACPI_PM_TIMER_HZ        3579545

/* Read the FADT.  0, or -1 with *why set. */
int acpi_fadt(const struct acpi *a, struct acpi_fadt *f, const char **why);

/* The S5 (soft-off) sleep type values for PM1a and PM1b, from the DSDT's
   `Name (_S5, Package () { a, b, ... })`, found by byte pattern (no AML
   interpreter).  0, or -1 with *why set. */
int acpi_s5(const struct acpi *a, const struct acpi_fadt *f,
            uint16_t *slp_typa, uint16_t *slp_typb, const char **why);

/* The HPET table (IA-PC HPET 1.0a §3.2.4): the first timer block. */
struct acpi_hpet {
    uint64_t base;              /* MMIO, physical */
    uint32_t block_id;          /* vendor, counter size, comparators */
    uint8_t number;
};
int acpi_hpet(const struct acpi *a, struct acpi_hpet *h, const char **why);

#endif
