/*
 * ACPI tables (acpi.c): the RSDP, the root table (XSDT, else RSDT) and the
 * tables it lists, each checksummed before use; the MADT read into a plain
 * list of CPUs and APICs.  Tables only: no AML, no namespace.
 *
 * Pure logic over a "map" callback that turns a physical range into a
 * pointer (NULL if it cannot be read), so the host unit tests feed it
 * crafted tables (tests/unit/test_acpi.c).  Other tables (HPET, FADT) are
 * found with acpi_table() and read by whoever needs them.
 */
#ifndef ACPI_H
#define ACPI_H

#include <stdint.h>
#include <stddef.h>

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

#endif
