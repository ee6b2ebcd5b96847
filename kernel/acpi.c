/*
 * ACPI static tables (see include/acpi.h).  Pure logic: every byte is
 * read through the caller's map function, which refuses what it cannot
 * address, and nothing is trusted before its checksum: a table with a bad
 * sum is left out as if the firmware had not listed it.
 * Layouts are from the ACPI 6.5 specification, §5.2.
 */
#include "kernel.h"
#include "acpi.h"
#include "lib.h"

#define EBDA_SEG_PTR    0x40E   /* BIOS data area: EBDA segment (a word) */
#define BIOS_ROM_BASE   0xE0000
#define BIOS_ROM_LEN    0x20000

/* §5.2.5.3 */
struct rsdp {
    char sig[8];                /* "RSD PTR " */
    uint8_t checksum;           /* over the first 20 bytes */
    char oem_id[6];
    uint8_t revision;           /* 0: ACPI 1.0, 20 bytes; 2: 36 bytes */
    uint32_t rsdt;
    uint32_t length;
    uint64_t xsdt;
    uint8_t ext_checksum;       /* over all `length` bytes */
    uint8_t reserved[3];
} __packed;
_Static_assert(sizeof(struct rsdp) == ACPI_RSDP_V2_LEN, "RSDP layout");
_Static_assert(sizeof(struct acpi_header) == 36, "SDT header layout");

/* §5.2.12: MADT and the entries we read. */
struct madt {
    struct acpi_header h;
    uint32_t lapic_base;
    uint32_t flags;
} __packed;

enum {
    MADT_LAPIC = 0, MADT_IOAPIC = 1, MADT_LAPIC_OVERRIDE = 5,
    MADT_X2APIC = 9,
};
#define MADT_CPU_ENABLED        (1 << 0)
#define MADT_CPU_ONLINE_CAPABLE (1 << 1)

struct madt_lapic {
    uint8_t type, len, uid, apic_id;
    uint32_t flags;
} __packed;

struct madt_ioapic {
    uint8_t type, len, id, reserved;
    uint32_t base, gsi_base;
} __packed;

struct madt_lapic_override {
    uint8_t type, len;
    uint16_t reserved;
    uint64_t base;
} __packed;

struct madt_x2apic {
    uint8_t type, len;
    uint16_t reserved;
    uint32_t apic_id, flags, uid;
} __packed;

static uint8_t sum(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint8_t s = 0;

    while (n--)
        s += *b++;
    return s;
}

/* A valid RSDP: its signature and the ACPI 1.0 checksum over 20 bytes. */
static bool rsdp_valid(const struct rsdp *r, size_t avail)
{
    return avail >= ACPI_RSDP_V1_LEN && !memcmp(r->sig, "RSD PTR ", 8) &&
           !sum(r, ACPI_RSDP_V1_LEN);
}

/* Revision 2+ adds the XSDT, covered by the extended checksum.  A loader's
   "old" copy holds only the first 20 bytes even of a 2.0 RSDP. */
static bool rsdp_has_xsdt(const struct rsdp *r, size_t avail)
{
    return r->revision >= 2 && avail >= ACPI_RSDP_V2_LEN &&
           r->length >= ACPI_RSDP_V2_LEN && r->length <= avail &&
           !sum(r, r->length) && r->xsdt;
}

/* The RSDP lies on a 16-byte boundary in [base, base+len) (§5.2.5.1). */
static const struct rsdp *rsdp_scan(acpi_map_fn map, uint64_t base,
                                    uint64_t len, size_t *avail)
{
    const uint8_t *area = map(base, len);

    if (!area)
        return NULL;
    for (uint64_t off = 0; off + ACPI_RSDP_V1_LEN <= len; off += 16) {
        const struct rsdp *r = (const void *)(area + off);
        *avail = MIN(len - off, ACPI_RSDP_V2_LEN);
        if (rsdp_valid(r, *avail))
            return r;
    }
    return NULL;
}

static const struct rsdp *rsdp_find(acpi_map_fn map, size_t *avail)
{
    const uint16_t *seg = map(EBDA_SEG_PTR, 2);
    const struct rsdp *r = NULL;

    if (seg && *seg)
        r = rsdp_scan(map, (uint64_t)*seg << 4, 1024, avail);
    return r ? r : rsdp_scan(map, BIOS_ROM_BASE, BIOS_ROM_LEN, avail);
}

/* The whole table at `phys`, checksum verified, or NULL. */
static const struct acpi_header *table_at(acpi_map_fn map, uint64_t phys)
{
    const struct acpi_header *h = map(phys, sizeof(*h));

    if (!h || h->length < sizeof(*h) || !(h = map(phys, h->length)))
        return NULL;
    return sum(h, h->length) ? NULL : h;
}

/* The root table lists 4-byte (RSDT) or 8-byte (XSDT) addresses. */
static int read_root(struct acpi *a, uint64_t root, size_t entry,
                     const char *sig)
{
    const struct acpi_header *h = table_at(a->map, root);
    const uint8_t *p;
    uint64_t n;

    if (!h || memcmp(h->sig, sig, 4))
        return -1;
    p = (const uint8_t *)(h + 1);
    n = (h->length - sizeof(*h)) / entry;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t phys = 0;
        memcpy(&phys, p + i * entry, entry);    /* little-endian */
        if (!table_at(a->map, phys) || a->ntables == ACPI_MAX_TABLES)
            a->nbad++;
        else
            a->table[a->ntables++] = phys;
    }
    return 0;
}

int acpi_init(struct acpi *a, const void *loader, size_t len, acpi_map_fn map,
              const char **why)
{
    const struct rsdp *r = loader;

    *a = (struct acpi){ .map = map };
    if (r && !rsdp_valid(r, len)) {
        *why = "the boot loader's RSDP copy is malformed";
        return -1;
    }
    if (!r && !(r = rsdp_find(map, &len))) {
        *why = "no RSDP in the boot info nor the BIOS areas";
        return -1;
    }
    a->revision = r->revision;
    memcpy(a->oem_id, r->oem_id, 6);
    /* ACPI 2.0+ firmware gives both roots; the XSDT is the one to use. */
    if (rsdp_has_xsdt(r, len) && read_root(a, r->xsdt, 8, "XSDT") == 0)
        return 0;
    if (read_root(a, r->rsdt, 4, "RSDT") == 0)
        return 0;
    *why = "the root table (XSDT/RSDT) is missing or its checksum is wrong";
    return -1;
}

const struct acpi_header *acpi_table(const struct acpi *a, const char *sig)
{
    for (int i = 0; i < a->ntables; i++) {
        const struct acpi_header *h = table_at(a->map, a->table[i]);
        if (h && !memcmp(h->sig, sig, 4))
            return h;
    }
    return NULL;
}

static void add_cpu(struct acpi_madt *m, uint32_t apic_id, uint32_t uid,
                    uint32_t flags)
{
    if (!(flags & (MADT_CPU_ENABLED | MADT_CPU_ONLINE_CAPABLE)))
        return;                 /* firmware says: do not start it */
    for (int i = 0; i < m->ncpus; i++)
        if (m->cpu[i].apic_id == apic_id)
            return;             /* listed twice (xAPIC and x2APIC) */
    if (m->ncpus == ACPI_MAX_CPUS) {
        m->ncpus_skipped++;
        return;
    }
    m->cpu[m->ncpus++] = (struct acpi_cpu){ apic_id, uid };
}

static void add_ioapic(struct acpi_madt *m, const struct madt_ioapic *e)
{
    if (m->nioapics++ == 0) {
        m->ioapic_base = e->base;
        m->ioapic_id = e->id;
        m->ioapic_gsi_base = e->gsi_base;
    }
}

/* One entry; its length was checked against its type's size. */
static void madt_entry(struct acpi_madt *m, const uint8_t *e)
{
    switch (e[0]) {
    case MADT_LAPIC: {
        const struct madt_lapic *l = (const void *)e;
        add_cpu(m, l->apic_id, l->uid, l->flags);
        break;
    }
    case MADT_X2APIC: {
        const struct madt_x2apic *x = (const void *)e;
        add_cpu(m, x->apic_id, x->uid, x->flags);
        break;
    }
    case MADT_IOAPIC:
        add_ioapic(m, (const void *)e);
        break;
    case MADT_LAPIC_OVERRIDE:
        m->lapic_base = ((const struct madt_lapic_override *)e)->base;
        break;
    }
}

static size_t entry_min_len(uint8_t type)
{
    switch (type) {
    case MADT_LAPIC: return sizeof(struct madt_lapic);
    case MADT_IOAPIC: return sizeof(struct madt_ioapic);
    case MADT_LAPIC_OVERRIDE: return sizeof(struct madt_lapic_override);
    case MADT_X2APIC: return sizeof(struct madt_x2apic);
    default: return 2;
    }
}

int acpi_madt(const struct acpi *a, struct acpi_madt *m, const char **why)
{
    const struct madt *t = (const void *)acpi_table(a, "APIC");
    const uint8_t *p, *end;

    *m = (struct acpi_madt){ 0 };
    if (!t || t->h.length < sizeof(*t)) {
        *why = "no MADT (APIC table)";
        return -1;
    }
    m->lapic_base = t->lapic_base;
    end = (const uint8_t *)t + t->h.length;
    for (p = (const uint8_t *)(t + 1); p + 2 <= end; p += p[1]) {
        if (p[1] < entry_min_len(p[0]) || p[1] > end - p) {
            *why = "an MADT entry's length is wrong";
            return -1;
        }
        madt_entry(m, p);
    }
    if (!m->ncpus) {
        *why = "the MADT lists no usable CPU";
        return -1;
    }
    return 0;
}
