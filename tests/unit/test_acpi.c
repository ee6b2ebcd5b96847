/*
 * Host tests of the ACPI table reader (kernel/acpi.c): RSDPs, root tables
 * and MADTs built in a fake physical memory, good and broken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <cmocka.h>
#include "acpi.h"

#define PHYS_SIZE   0x200000            /* 2 MiB of fake physical memory */
#define RSDT_AT     0x100000
#define XSDT_AT     0x101000
#define MADT_AT     0x102000
#define HPET_AT     0x103000
#define ROM_RSDP_AT 0xF5A30             /* 16-byte aligned, in the BIOS ROM */
#define EBDA_AT     0x9FC00

static uint8_t phys[PHYS_SIZE] __attribute__((aligned(16)));
static struct acpi a;
static struct acpi_madt m;
static const char *why;

static const void *map(uint64_t p, uint64_t len)
{
    if (p >= PHYS_SIZE || len > PHYS_SIZE - p)
        return NULL;
    return phys + p;
}

static uint8_t sum(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint8_t s = 0;

    while (n--)
        s += *b++;
    return s;
}

/* --- builders ------------------------------------------------------------ */

static void *header(uint64_t at, const char *sig, uint32_t len)
{
    struct acpi_header *h = (void *)(phys + at);

    memset(h, 0, len);
    memcpy(h->sig, sig, 4);
    h->length = len;
    h->revision = 1;
    memcpy(h->oem_id, "LWKOEM", 6);
    return h;
}

static void seal(uint64_t at)
{
    struct acpi_header *h = (void *)(phys + at);

    h->checksum = 0;
    h->checksum = (uint8_t)-sum(h, h->length);
}

static void rsdp(uint64_t at, int rev, uint32_t rsdt, uint64_t xsdt)
{
    uint8_t *r = phys + at;

    memset(r, 0, 36);
    memcpy(r, "RSD PTR ", 8);
    memcpy(r + 9, "QEMUOE", 6);
    r[15] = (uint8_t)rev;
    memcpy(r + 16, &rsdt, 4);
    r[8] = (uint8_t)-sum(r, 20);
    if (rev >= 2) {
        uint32_t len = 36;
        memcpy(r + 20, &len, 4);
        memcpy(r + 24, &xsdt, 8);
        r[32] = (uint8_t)-sum(r, 36);
    }
}

static void root(uint64_t at, const char *sig, size_t entry,
                 const uint64_t *tables, int n)
{
    uint8_t *h = header(at, sig, 36 + entry * n);

    for (int i = 0; i < n; i++)
        memcpy(h + 36 + i * entry, &tables[i], entry);
    seal(at);
}

/* MADT entries are appended at madt_end. */
static uint32_t madt_end;

static void madt_begin(uint32_t lapic_base)
{
    uint8_t *t = header(MADT_AT, "APIC", 44);

    memcpy(t + 36, &lapic_base, 4);
    madt_end = 44;
}

static void madt_add(const void *e, uint8_t len)
{
    memcpy(phys + MADT_AT + madt_end, e, len);
    madt_end += len;
}

static void lapic(uint8_t uid, uint8_t id, uint32_t flags)
{
    uint8_t e[8] = { 0, 8, uid, id };

    memcpy(e + 4, &flags, 4);
    madt_add(e, 8);
}

static void x2apic(uint32_t id, uint32_t flags, uint32_t uid)
{
    uint8_t e[16] = { 9, 16 };

    memcpy(e + 4, &id, 4);
    memcpy(e + 8, &flags, 4);
    memcpy(e + 12, &uid, 4);
    madt_add(e, 16);
}

static void ioapic(uint8_t id, uint32_t base, uint32_t gsi)
{
    uint8_t e[12] = { 1, 12, id, 0 };

    memcpy(e + 4, &base, 4);
    memcpy(e + 8, &gsi, 4);
    madt_add(e, 12);
}

static void madt_seal(void)
{
    ((struct acpi_header *)(phys + MADT_AT))->length = madt_end;
    seal(MADT_AT);
}

/* QEMU's q35 with -smp 4: four enabled LAPICs, an I/O APIC, and an
   interrupt source override (type 2, skipped). */
static void qemu_madt(void)
{
    static const uint8_t iso[10] = { 2, 10, 0, 0, 2, 0, 0, 0, 0, 0 };

    madt_begin(0xFEE00000);
    for (int i = 0; i < 4; i++)
        lapic((uint8_t)i, (uint8_t)i, 1);
    ioapic(0, 0xFEC00000, 0);
    madt_add(iso, sizeof(iso));
    madt_seal();
}

static int setup(void **s)
{
    (void)s;
    memset(phys, 0, sizeof(phys));
    why = NULL;
    return 0;
}

/* --- tests --------------------------------------------------------------- */

/* What QEMU -kernel gives: no loader copy, a 1.0 RSDP in the BIOS ROM. */
static void bios_rom_rsdt_madt(void **s)
{
    uint64_t t[] = { MADT_AT };
    (void)s;
    qemu_madt();
    root(RSDT_AT, "RSDT", 4, t, 1);
    rsdp(ROM_RSDP_AT, 0, RSDT_AT, 0);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(a.revision, 0);
    assert_string_equal(a.oem_id, "QEMUOE");
    assert_int_equal(a.ntables, 1);
    assert_int_equal(acpi_madt(&a, &m, &why), 0);
    assert_int_equal(m.ncpus, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(m.cpu[i].apic_id, i);
    assert_int_equal(m.lapic_base, 0xFEE00000);
    assert_int_equal(m.nioapics, 1);
    assert_int_equal(m.ioapic_base, 0xFEC00000);
    assert_null(acpi_table(&a, "HPET"));
}

/* The EBDA is searched before the ROM (ACPI §5.2.5.1). */
static void ebda_searched_first(void **s)
{
    uint64_t t[] = { MADT_AT };
    uint16_t seg = EBDA_AT >> 4;
    (void)s;
    qemu_madt();
    root(RSDT_AT, "RSDT", 4, t, 1);
    rsdp(EBDA_AT + 0x30, 0, RSDT_AT, 0);
    rsdp(ROM_RSDP_AT, 0, 0x1F0000, 0);          /* points at nothing */
    memcpy(phys + 0x40E, &seg, 2);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(a.ntables, 1);
}

/* ACPI 2.0: the XSDT is used, not the RSDT; a broken XSDT falls back. */
static void xsdt_preferred_then_rsdt(void **s)
{
    uint64_t both[] = { MADT_AT, HPET_AT }, one[] = { MADT_AT };
    (void)s;
    qemu_madt();
    header(HPET_AT, "HPET", 56);
    seal(HPET_AT);
    root(XSDT_AT, "XSDT", 8, both, 2);
    root(RSDT_AT, "RSDT", 4, one, 1);
    rsdp(ROM_RSDP_AT, 2, RSDT_AT, XSDT_AT);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(a.ntables, 2);
    assert_non_null(acpi_table(&a, "HPET"));

    phys[XSDT_AT + 40] ^= 1;                    /* XSDT checksum now wrong */
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(a.ntables, 1);
    assert_null(acpi_table(&a, "HPET"));
}

/* The loader's copy is used as given; an "old" 20-byte copy of a 2.0 RSDP
   cannot vouch for the XSDT, so the RSDT is read. */
static void loader_copy(void **s)
{
    uint64_t both[] = { MADT_AT, HPET_AT }, one[] = { MADT_AT };
    uint8_t copy[36];
    (void)s;
    qemu_madt();
    header(HPET_AT, "HPET", 56);
    seal(HPET_AT);
    root(XSDT_AT, "XSDT", 8, both, 2);
    root(RSDT_AT, "RSDT", 4, one, 1);
    rsdp(0x500, 2, RSDT_AT, XSDT_AT);
    memcpy(copy, phys + 0x500, 36);
    memset(phys + 0x500, 0, 36);                /* not found by a search */
    assert_int_equal(acpi_init(&a, copy, 36, map, &why), 0);
    assert_int_equal(a.ntables, 2);
    assert_int_equal(acpi_init(&a, copy, 20, map, &why), 0);
    assert_int_equal(a.ntables, 1);
    copy[0] = 'X';
    assert_int_equal(acpi_init(&a, copy, 36, map, &why), -1);
    assert_non_null(strstr(why, "malformed"));
}

/* A listed table whose checksum is wrong, or that lies outside memory, is
   left out and counted. */
static void bad_tables_left_out(void **s)
{
    uint64_t t[] = { HPET_AT, MADT_AT, 0x7FFFFFFF00ULL };
    (void)s;
    qemu_madt();
    header(HPET_AT, "HPET", 56);                /* never sealed */
    phys[HPET_AT + 40] = 1;
    root(XSDT_AT, "XSDT", 8, t, 3);
    rsdp(ROM_RSDP_AT, 2, 0, XSDT_AT);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(a.ntables, 1);
    assert_int_equal(a.nbad, 2);
    assert_null(acpi_table(&a, "HPET"));
    assert_int_equal(acpi_madt(&a, &m, &why), 0);
}

static void no_rsdp_or_root(void **s)
{
    (void)s;
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), -1);
    assert_non_null(strstr(why, "no RSDP"));
    rsdp(ROM_RSDP_AT, 0, RSDT_AT, 0);           /* RSDT not there */
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), -1);
    assert_non_null(strstr(why, "root table"));
    phys[ROM_RSDP_AT + 8]++;                    /* RSDP checksum wrong */
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), -1);
    assert_non_null(strstr(why, "no RSDP"));
}

/* Disabled CPUs are not started; online-capable ones are; x2APIC entries
   count, a CPU listed in both forms counts once; the address override
   replaces the 32-bit LAPIC address. */
static void madt_cpu_rules(void **s)
{
    uint64_t t[] = { MADT_AT };
    uint8_t ovr[12] = { 5, 12, 0, 0 };
    uint64_t base = 0x1FEE00000ULL;
    (void)s;
    madt_begin(0xFEE00000);
    lapic(0, 0, 1);
    lapic(1, 1, 0);                             /* disabled */
    lapic(2, 2, 2);                             /* online capable */
    x2apic(300, 1, 3);
    x2apic(0, 1, 0);                            /* duplicate of id 0 */
    memcpy(ovr + 4, &base, 8);
    madt_add(ovr, 12);
    madt_seal();
    root(RSDT_AT, "RSDT", 4, t, 1);
    rsdp(ROM_RSDP_AT, 0, RSDT_AT, 0);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(acpi_madt(&a, &m, &why), 0);
    assert_int_equal(m.ncpus, 3);
    assert_int_equal(m.cpu[1].apic_id, 2);
    assert_int_equal(m.cpu[2].apic_id, 300);
    assert_int_equal(m.cpu[2].uid, 3);
    assert_int_equal(m.lapic_base, base);
    assert_int_equal(m.nioapics, 0);
}

static void madt_too_many_cpus(void **s)
{
    uint64_t t[] = { MADT_AT };
    (void)s;
    madt_begin(0xFEE00000);
    for (int i = 0; i < ACPI_MAX_CPUS + 3; i++)
        x2apic((uint32_t)i, 1, (uint32_t)i);
    madt_seal();
    root(RSDT_AT, "RSDT", 4, t, 1);
    rsdp(ROM_RSDP_AT, 0, RSDT_AT, 0);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(acpi_madt(&a, &m, &why), 0);
    assert_int_equal(m.ncpus, ACPI_MAX_CPUS);
    assert_int_equal(m.ncpus_skipped, 3);
}

/* An entry shorter than its type, zero-length (which would loop forever),
   or running past the table is refused; so is a MADT with no CPU. */
static void madt_malformed(void **s)
{
    uint64_t t[] = { MADT_AT };
    uint8_t shortl[4] = { 0, 4, 0, 0 }, zero[2] = { 7, 0 };
    (void)s;
    root(RSDT_AT, "RSDT", 4, t, 1);
    rsdp(ROM_RSDP_AT, 0, RSDT_AT, 0);

    madt_begin(0xFEE00000);
    lapic(0, 0, 1);
    madt_add(shortl, 4);
    madt_seal();
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(acpi_madt(&a, &m, &why), -1);
    assert_non_null(strstr(why, "length"));

    madt_begin(0xFEE00000);
    lapic(0, 0, 1);
    madt_add(zero, 2);
    madt_seal();
    assert_int_equal(acpi_madt(&a, &m, &why), -1);

    madt_begin(0xFEE00000);
    lapic(0, 0, 1);
    madt_end -= 2;                              /* entry runs past the end */
    madt_seal();
    assert_int_equal(acpi_madt(&a, &m, &why), -1);

    madt_begin(0xFEE00000);
    lapic(0, 0, 0);
    madt_seal();
    assert_int_equal(acpi_madt(&a, &m, &why), -1);
    assert_non_null(strstr(why, "no usable CPU"));

    header(MADT_AT, "APIX", 44);                /* no MADT at all */
    seal(MADT_AT);
    assert_int_equal(acpi_madt(&a, &m, &why), -1);
    assert_non_null(strstr(why, "no MADT"));
}

/* --- FADT, DSDT \\_S5, HPET ------------------------------------------------ */

#define FADT_AT     0x104000
#define DSDT_AT     0x105000

static void put(uint64_t at, const void *v, size_t n)
{
    memcpy(phys + at, v, n);
}

static void put32(uint64_t at, uint32_t v) { put(at, &v, 4); }
static void put16(uint64_t at, uint16_t v) { put(at, &v, 2); }

/* A GAS at `at` (ACPI 6.5 §5.2.3.2). */
static void gas(uint64_t at, uint8_t space, uint8_t bits, uint64_t addr)
{
    uint8_t g[12] = { space, bits, 0, 1 };

    memcpy(g + 4, &addr, 8);
    put(at, g, 12);
}

/* QEMU q35's FADT (revision 3, 244 bytes) at the offsets of Table 5.9. */
static void q35_fadt(uint32_t len)
{
    header(FADT_AT, "FACP", len);
    put32(FADT_AT + 40, DSDT_AT);
    put32(FADT_AT + 48, 0xB2);                  /* SMI_CMD */
    phys[FADT_AT + 52] = 0x02;                  /* ACPI_ENABLE */
    put32(FADT_AT + 56, 0x600);                 /* PM1a_EVT_BLK */
    put32(FADT_AT + 64, 0x604);                 /* PM1a_CNT_BLK */
    put32(FADT_AT + 76, 0x608);                 /* PM_TMR_BLK */
    phys[FADT_AT + 91] = 4;                     /* PM_TMR_LEN */
    put16(FADT_AT + 109, 0x0002);               /* IAPC_BOOT_ARCH: 8042 */
    put32(FADT_AT + 112, (1u << 10) | (1u << 8)); /* RESET_REG_SUP, TMR_EXT */
    if (len >= 129) {
        gas(FADT_AT + 116, 1, 8, 0xCF9);
        phys[FADT_AT + 128] = 0x06;
    }
}

/* AML of `Name (_S5, Package (0x04) { a, b, Zero, Zero })` with `a` and
   `b` encoded as given, after some unrelated bytes (one of which spells
   "_S5_" where it is no name). */
static void dsdt(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    static const uint8_t junk[] = { 0x10, 0x4c, 0x5f, 0x53, 0x35, 0x5f,
                                    0x00, 0x01 };       /* "_S5_" bare */
    uint8_t aml[64];
    size_t n = 0;

    memcpy(aml, junk, sizeof(junk));
    n = sizeof(junk);
    aml[n++] = 0x08;                            /* NameOp */
    memcpy(aml + n, "_S5_", 4);
    n += 4;
    aml[n++] = 0x12;                            /* PackageOp */
    aml[n++] = (uint8_t)(2 + na + nb + 2);      /* PkgLength, one byte */
    aml[n++] = 4;                               /* NumElements */
    memcpy(aml + n, a, na);
    n += na;
    memcpy(aml + n, b, nb);
    n += nb;
    aml[n++] = 0;
    aml[n++] = 0;
    header(DSDT_AT, "DSDT", 36 + n);
    put(DSDT_AT + 36, aml, n);
    seal(DSDT_AT);
}

static void fadt_setup(uint32_t fadt_len)
{
    uint64_t t[] = { MADT_AT, FADT_AT };

    qemu_madt();
    q35_fadt(fadt_len);
    seal(FADT_AT);
    root(XSDT_AT, "XSDT", 8, t, 2);
    rsdp(ROM_RSDP_AT, 2, 0, XSDT_AT);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
}

static void fadt_fields(void **s)
{
    struct acpi_fadt f;
    (void)s;
    fadt_setup(244);
    assert_int_equal(acpi_fadt(&a, &f, &why), 0);
    assert_int_equal(f.dsdt, DSDT_AT);
    assert_int_equal(f.smi_cmd, 0xB2);
    assert_int_equal(f.acpi_enable, 2);
    assert_int_equal(f.pm1a_cnt, 0x604);
    assert_int_equal(f.pm1b_cnt, 0);
    assert_int_equal(f.pm_tmr, 0x608);
    assert_int_equal(f.pm_tmr_bits, 32);
    assert_true(f.reset_supported);
    assert_int_equal(f.reset_reg.space, ACPI_SPACE_IO);
    assert_int_equal(f.reset_reg.addr, 0xCF9);
    assert_int_equal(f.reset_value, 6);
    assert_int_equal(f.boot_arch, 2);

    /* The 64-bit X_ blocks win when they are I/O ports... */
    gas(FADT_AT + 140, 0, 0, 0);                /* X_DSDT 0: DSDT used */
    put(FADT_AT + 140, &(uint64_t){ DSDT_AT + 0x800 }, 8);
    gas(FADT_AT + 172, ACPI_SPACE_IO, 16, 0x1004);  /* X_PM1a_CNT_BLK */
    gas(FADT_AT + 208, ACPI_SPACE_MEM, 32, 0xFED00000); /* X_PM_TMR: MMIO */
    seal(FADT_AT);
    assert_int_equal(acpi_fadt(&a, &f, &why), 0);
    assert_int_equal(f.dsdt, DSDT_AT + 0x800);
    assert_int_equal(f.pm1a_cnt, 0x1004);
    assert_int_equal(f.pm_tmr, 0x608);          /* ...not memory ones */
}

/* An ACPI 1.0 FADT (116 bytes) has no reset register; without the
   RESET_REG_SUP flag it is not used either; a missing FADT is named. */
static void fadt_old_and_missing(void **s)
{
    struct acpi_fadt f;
    (void)s;
    fadt_setup(116);
    assert_int_equal(acpi_fadt(&a, &f, &why), 0);
    assert_false(f.reset_supported);
    assert_int_equal(f.pm1a_cnt, 0x604);

    fadt_setup(244);
    put32(FADT_AT + 112, 0);
    seal(FADT_AT);
    assert_int_equal(acpi_fadt(&a, &f, &why), 0);
    assert_false(f.reset_supported);
    assert_int_equal(f.pm_tmr_bits, 24);

    memset(phys, 0, sizeof(phys));
    qemu_madt();
    root(RSDT_AT, "RSDT", 4, (uint64_t[]){ MADT_AT }, 1);
    rsdp(ROM_RSDP_AT, 0, RSDT_AT, 0);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(acpi_fadt(&a, &f, &why), -1);
    assert_non_null(strstr(why, "no FADT"));
}

/* \_S5 found by byte pattern whatever the integers' encoding: QEMU's
   Zero/Zero, a real board's BytePrefix 0x07 / 0x07, a word; the bare
   "_S5_" before it (not after a NameOp) is skipped. */
static void s5_from_dsdt(void **s)
{
    static const uint8_t zero[] = { 0x00 }, byte7[] = { 0x0A, 0x07 },
        word5[] = { 0x0B, 0x05, 0x00 }, one[] = { 0x01 };
    struct acpi_fadt f;
    uint16_t ta = 99, tb = 99;
    (void)s;
    fadt_setup(244);
    assert_int_equal(acpi_fadt(&a, &f, &why), 0);

    dsdt(zero, 1, zero, 1);
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), 0);
    assert_int_equal(ta, 0);
    assert_int_equal(tb, 0);

    dsdt(byte7, 2, byte7, 2);
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), 0);
    assert_int_equal(ta, 7);
    assert_int_equal(tb, 7);

    dsdt(word5, 3, one, 1);
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), 0);
    assert_int_equal(ta, 5);
    assert_int_equal(tb, 1);

    /* "\_S5_" with the root prefix */
    dsdt(byte7, 2, zero, 1);
    memmove(phys + DSDT_AT + 36 + 10, phys + DSDT_AT + 36 + 9, 20);
    phys[DSDT_AT + 36 + 9] = '\\';
    ((struct acpi_header *)(phys + DSDT_AT))->length++;
    seal(DSDT_AT);
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), 0);
    assert_int_equal(ta, 7);

    /* an element that is no integer (a String), a bad checksum, no _S5 */
    dsdt((const uint8_t[]){ 0x0D, 'x', 0 }, 3, zero, 1);
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), -1);
    assert_non_null(strstr(why, "_S5"));
    dsdt(zero, 1, zero, 1);
    phys[DSDT_AT + 40]++;
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), -1);
    assert_non_null(strstr(why, "DSDT"));
    header(DSDT_AT, "DSDT", 40);
    seal(DSDT_AT);
    assert_int_equal(acpi_s5(&a, &f, &ta, &tb, &why), -1);
    assert_non_null(strstr(why, "no \\_S5"));
}

/* The HPET table (IA-PC HPET 1.0a §3.2.4): base address at 40 as a GAS. */
static void hpet_table(void **s)
{
    uint64_t t[] = { MADT_AT, HPET_AT };
    struct acpi_hpet h;
    (void)s;
    qemu_madt();
    header(HPET_AT, "HPET", 56);
    put32(HPET_AT + 36, 0x8086A201);
    gas(HPET_AT + 40, ACPI_SPACE_MEM, 64, 0xFED00000);
    seal(HPET_AT);
    root(XSDT_AT, "XSDT", 8, t, 2);
    rsdp(ROM_RSDP_AT, 2, 0, XSDT_AT);
    assert_int_equal(acpi_init(&a, NULL, 0, map, &why), 0);
    assert_int_equal(acpi_hpet(&a, &h, &why), 0);
    assert_int_equal(h.base, 0xFED00000);
    assert_int_equal(h.block_id, 0x8086A201);

    gas(HPET_AT + 40, ACPI_SPACE_IO, 64, 0xFED00000);   /* not memory */
    seal(HPET_AT);
    assert_int_equal(acpi_hpet(&a, &h, &why), -1);
    assert_non_null(strstr(why, "base address"));
    header(HPET_AT, "HPET", 50);                /* short */
    seal(HPET_AT);
    assert_int_equal(acpi_hpet(&a, &h, &why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(bios_rom_rsdt_madt, setup),
        cmocka_unit_test_setup(ebda_searched_first, setup),
        cmocka_unit_test_setup(xsdt_preferred_then_rsdt, setup),
        cmocka_unit_test_setup(loader_copy, setup),
        cmocka_unit_test_setup(bad_tables_left_out, setup),
        cmocka_unit_test_setup(no_rsdp_or_root, setup),
        cmocka_unit_test_setup(madt_cpu_rules, setup),
        cmocka_unit_test_setup(madt_too_many_cpus, setup),
        cmocka_unit_test_setup(madt_malformed, setup),
        cmocka_unit_test_setup(fadt_fields, setup),
        cmocka_unit_test_setup(fadt_old_and_missing, setup),
        cmocka_unit_test_setup(s5_from_dsdt, setup),
        cmocka_unit_test_setup(hpet_table, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
