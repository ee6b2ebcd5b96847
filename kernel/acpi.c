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

/* ---- FADT, DSDT \_S5, HPET ------------------------------------------------ */

/* §5.2.9, Table 5.9: the fields we read, at their offsets (asserted). */
struct fadt {
    struct acpi_header h;
    uint32_t firmware_ctrl, dsdt;                       /* 36 */
    uint8_t reserved0, pm_profile;
    uint16_t sci_int;
    uint32_t smi_cmd;                                   /* 48 */
    uint8_t acpi_enable, acpi_disable, s4bios_req, pstate_cnt;
    uint32_t pm1a_evt, pm1b_evt, pm1a_cnt, pm1b_cnt;    /* 56 */
    uint32_t pm2_cnt, pm_tmr, gpe0, gpe1;               /* 72 */
    uint8_t pm1_evt_len, pm1_cnt_len, pm2_cnt_len, pm_tmr_len;  /* 88 */
    uint8_t gpe0_len, gpe1_len, gpe1_base, cst_cnt;
    uint16_t p_lvl2_lat, p_lvl3_lat, flush_size, flush_stride;  /* 96 */
    uint8_t duty_offset, duty_width, day_alrm, mon_alrm, century;
    uint16_t iapc_boot_arch;                            /* 109 */
    uint8_t reserved1;
    uint32_t flags;                                     /* 112 */
    struct acpi_gas reset_reg;                          /* 116 */
    uint8_t reset_value;                                /* 128 */
    uint16_t arm_boot_arch;
    uint8_t minor_version;
    uint64_t x_firmware_ctrl, x_dsdt;                   /* 132, 140 */
    struct acpi_gas x_pm1a_evt, x_pm1b_evt, x_pm1a_cnt, x_pm1b_cnt; /* 148 */
    struct acpi_gas x_pm2_cnt, x_pm_tmr;                /* 196, 208 */
} __packed;
_Static_assert(offsetof(struct fadt, dsdt) == 40, "FADT DSDT");
_Static_assert(offsetof(struct fadt, smi_cmd) == 48, "FADT SMI_CMD");
_Static_assert(offsetof(struct fadt, acpi_enable) == 52, "FADT ACPI_ENABLE");
_Static_assert(offsetof(struct fadt, pm1a_cnt) == 64, "FADT PM1a_CNT_BLK");
_Static_assert(offsetof(struct fadt, pm_tmr) == 76, "FADT PM_TMR_BLK");
_Static_assert(offsetof(struct fadt, iapc_boot_arch) == 109, "FADT boot arch");
_Static_assert(offsetof(struct fadt, flags) == 112, "FADT Flags");
_Static_assert(offsetof(struct fadt, reset_reg) == 116, "FADT RESET_REG");
_Static_assert(offsetof(struct fadt, reset_value) == 128, "FADT RESET_VALUE");
_Static_assert(offsetof(struct fadt, x_dsdt) == 140, "FADT X_DSDT");
_Static_assert(offsetof(struct fadt, x_pm1a_cnt) == 172, "FADT X_PM1a_CNT");
_Static_assert(offsetof(struct fadt, x_pm_tmr) == 208, "FADT X_PM_TMR_BLK");
_Static_assert(sizeof(struct fadt) == 220, "FADT through X_PM_TMR_BLK");
_Static_assert(sizeof(struct acpi_gas) == 12, "Generic Address Structure");

/* An ACPI 1.0 FADT ends at 116; fields past a table's length read 0. */
static void fadt_copy(struct fadt *f, const struct acpi_header *h)
{
    memset(f, 0, sizeof(*f));
    memcpy(f, h, MIN(h->length, sizeof(*f)));
}

/* The X_ block when it is an I/O port, else the 32-bit one. */
static uint16_t io_block(const struct acpi_gas *x, uint32_t legacy)
{
    if (x->addr && x->space == ACPI_SPACE_IO && x->addr <= 0xFFFF)
        return (uint16_t)x->addr;
    return legacy <= 0xFFFF ? (uint16_t)legacy : 0;
}

int acpi_fadt(const struct acpi *a, struct acpi_fadt *out, const char **why)
{
    const struct acpi_header *h = acpi_table(a, "FACP");
    struct fadt f;

    *out = (struct acpi_fadt){ 0 };
    if (!h || h->length < offsetof(struct fadt, reset_reg)) {
        *why = h ? "the FADT is too short" : "no FADT (FACP table)";
        return -1;
    }
    fadt_copy(&f, h);
    out->dsdt = f.x_dsdt ? f.x_dsdt : f.dsdt;
    out->smi_cmd = f.smi_cmd;
    out->acpi_enable = f.acpi_enable;
    out->pm1a_cnt = io_block(&f.x_pm1a_cnt, f.pm1a_cnt);
    out->pm1b_cnt = io_block(&f.x_pm1b_cnt, f.pm1b_cnt);
    out->pm_tmr = f.pm_tmr_len >= 4 || f.x_pm_tmr.addr
                  ? io_block(&f.x_pm_tmr, f.pm_tmr) : 0;
    out->pm_tmr_bits = f.flags & ACPI_FADT_TMR_VAL_EXT ? 32 : 24;
    out->flags = f.flags;
    out->boot_arch = f.iapc_boot_arch;
    /* RESET_REG came with ACPI 2.0's 129-byte FADT (revision 2+). */
    if (h->length > offsetof(struct fadt, reset_value) &&
        (f.flags & ACPI_FADT_RESET_REG_SUP) && f.reset_reg.addr &&
        f.reset_reg.space <= ACPI_SPACE_PCI) {
        out->reset_supported = true;
        out->reset_reg = f.reset_reg;
        out->reset_value = f.reset_value;
    }
    return 0;
}

/* One AML integer of a package element: ZeroOp, OneOp, or BytePrefix,
   WordPrefix, DWordPrefix and its value (ACPI 6.5 §20.2.3).  The bytes
   it took, 0 if it is no such integer. */
static size_t aml_int(const uint8_t *p, const uint8_t *end, uint32_t *v)
{
    static const uint8_t width[] = { [0x0A] = 1, [0x0B] = 2, [0x0C] = 4 };
    size_t n;

    if (p >= end)
        return 0;
    if (*p == 0x00 || *p == 0x01) {
        *v = *p;
        return 1;
    }
    if (*p < 0x0A || *p > 0x0C || (size_t)(end - p) <= width[*p])
        return 0;
    n = width[*p];
    *v = 0;
    memcpy(v, p + 1, n);
    return n + 1;
}

/* After "_S5_": PackageOp, a PkgLength of 1-4 bytes (the lead byte's top
   two bits count the bytes that follow, §20.2.4), NumElements, then the
   elements: the first two are SLP_TYPa and SLP_TYPb. */
static int s5_package(const uint8_t *p, const uint8_t *end, uint16_t *a,
                      uint16_t *b)
{
    uint32_t va, vb;
    size_t n;

    if (end - p < 3 || *p++ != 0x12)
        return -1;
    p += 1 + (*p >> 6);             /* PkgLength */
    if (p >= end || *p++ < 2)       /* NumElements */
        return -1;
    if (!(n = aml_int(p, end, &va)) || !aml_int(p + n, end, &vb))
        return -1;
    *a = (uint16_t)(va & 7);        /* SLP_TYP is 3 bits */
    *b = (uint16_t)(vb & 7);
    return 0;
}

int acpi_s5(const struct acpi *a, const struct acpi_fadt *f,
            uint16_t *slp_typa, uint16_t *slp_typb, const char **why)
{
    const struct acpi_header *d = f->dsdt ? table_at(a->map, f->dsdt) : NULL;
    const uint8_t *p, *end;

    if (!d || memcmp(d->sig, "DSDT", 4)) {
        *why = "the FADT names no DSDT, or its checksum is wrong";
        return -1;
    }
    p = (const uint8_t *)(d + 1);
    end = (const uint8_t *)d + d->length;
    /* NameOp (0x08), an optional root prefix '\', "_S5_", the package. */
    for (; p + 4 < end; p++) {
        if (memcmp(p, "_S5_", 4) ||
            !(p[-1] == 0x08 || (p[-1] == '\\' && p[-2] == 0x08)))
            continue;
        if (s5_package(p + 4, end, slp_typa, slp_typb) == 0)
            return 0;
    }
    *why = "the DSDT has no \\_S5 package (no soft-off state)";
    return -1;
}

/* IA-PC HPET 1.0a §3.2.4, Table 3. */
struct hpet_table {
    struct acpi_header h;
    uint32_t block_id;                                  /* 36 */
    struct acpi_gas base;                               /* 40 */
    uint8_t number;                                     /* 52 */
    uint16_t min_tick;
    uint8_t attributes;
} __packed;
_Static_assert(offsetof(struct hpet_table, block_id) == 36, "HPET block id");
_Static_assert(offsetof(struct hpet_table, base) == 40, "HPET base address");
_Static_assert(offsetof(struct hpet_table, number) == 52, "HPET number");
_Static_assert(sizeof(struct hpet_table) == 56, "HPET table");

int acpi_hpet(const struct acpi *a, struct acpi_hpet *out, const char **why)
{
    const struct hpet_table *t = (const void *)acpi_table(a, "HPET");

    *out = (struct acpi_hpet){ 0 };
    if (!t || t->h.length < sizeof(*t)) {
        *why = t ? "the HPET table is too short" : "no HPET table";
        return -1;
    }
    if (t->base.space != ACPI_SPACE_MEM || !t->base.addr ||
        (t->base.addr & 0x3FF)) {
        *why = "the HPET's base address is not a 1 KiB-aligned memory address";
        return -1;
    }
    out->base = t->base.addr;
    out->block_id = t->block_id;
    out->number = t->number;
    return 0;
}
